/* SPDX-License-Identifier: GPL-2.0-or-later
 * Mount tables through libmount (see mounttab.h).
 *
 * libmount parses a stream; it is handed the bytes on an fmemopen() stream,
 * never a path. What it does not do the way storprov needs is done here,
 * around it, line by line and without parsing a field:
 *   - it reads a line only up to a NUL byte: a line holding one is reported
 *     here and blanked before libmount sees it (blank lines it skips);
 *   - it decodes "\000" to the end of the string, silently cutting the
 *     field: a line holding one is reported here and blanked;
 *   - it guesses the format from the first line it reads, a mountinfo line
 *     being one that starts with two numbers: in a mountinfo, a line that
 *     does not is reported here and blanked, so that the guess is right;
 *   - it does not keep line numbers: the entries are matched, in order, to
 *     the lines it was given that it did not refuse (its error callback
 *     names those).
 * What libmount accepts is then checked for what callers rely on: a mountpoint
 * that is absolute, a source, in an fstab a type. Messages are kept for the
 * first lines only, so a table of millions of bad lines costs no more than
 * its size.
 * Left to libmount: a mountinfo source "/dev/root" becomes the node of its
 * device number on the running system (mnt_guess_system_root), which is the
 * right one on a live system; discovery matches a captured tree's mounts by
 * device number first, and by the source only when the number is unknown. */
#include "sys/mounttab.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include <libmount.h>

#include "base/util.h"

#define MAX_ERRORS 8
#define MOUNTTAB_MAX (64 * MiB)

/* The malformed lines kept for the messages: the MAX_ERRORS + 1 with the lowest numbers (a table of
 * millions of bad lines stays small; the one past MAX_ERRORS says that more were left out). */
struct bad_line {
        unsigned line;
        char *message;
};

/* A line handed to libmount: its number, where it is in the text, whether libmount refused it. */
struct given_line {
        unsigned line;
        bool refused;
        size_t off, len;
};

struct parse {
        enum mounttab_kind kind;
        const char *text;         /* the bytes as given */
        char *clean;              /* the same, malformed lines blanked: what libmount reads */
        size_t len;
        struct given_line *given; /* the lines libmount reads an entry from, in order */
        size_t n_given, cap_given;
        size_t scan;              /* on_parse_error's place in given */
        struct bad_line bad[MAX_ERRORS + 1];
        size_t n_bad, n_bad_total;
};

static const char *kind_name(enum mounttab_kind kind)
{
        return kind == MOUNTTAB_MOUNTINFO ? "a mountinfo line" : "a mount table line (SOURCE TARGET TYPE OPTIONS)";
}

static void bad_add(struct parse *p, unsigned line, char *message)
{
        p->n_bad_total++;
        if (p->n_bad < ELEMENTSOF(p->bad)) {
                p->bad[p->n_bad++] = (struct bad_line){line, message};
                return;
        }
        size_t worst = 0;
        for (size_t i = 1; i < p->n_bad; i++)
                if (p->bad[i].line > p->bad[worst].line)
                        worst = i;
        if (line < p->bad[worst].line) {
                free(p->bad[worst].message);
                p->bad[worst] = (struct bad_line){line, message};
        } else
                free(message);
}

/* "line 7 is not a mountinfo line: "…"", the line shown as a comment shows text */
static void bad_line_text(struct parse *p, unsigned line, const char *s, size_t n)
{
        _cleanup_free_ char *raw = strndup(s, n);
        _cleanup_free_ char *shown = comment_dup(raw);
        bad_add(p, line, xasprintf("line %u is not %s: \"%s\"", line, kind_name(p->kind), shown));
}

static void bad_given(struct parse *p, const struct given_line *g)
{
        bad_line_text(p, g->line, p->text + g->off, g->len);
}

/* Skips a decimal number and then the character after, which must be AFTER. */
static bool digits_then(const char **s, char after)
{
        const char *q = *s;
        while (*q >= '0' && *q <= '9')
                q++;
        if (q == *s || *q != after)
                return false;
        *s = q + 1;
        return true;
}

/* Whether libmount takes the line for one of the format KIND when it guesses the format from it
 * (mountinfo: two numbers first; a swaps header) and, in a mountinfo, whether the line starts as
 * the kernel writes it, "ID PARENT MAJ:MIN " (libmount would take "-8:2" for a device number). */
static bool starts_right(enum mounttab_kind kind, const char *line)
{
        unsigned a, b;
        if (kind == MOUNTTAB_FSTAB) {
                /* either is an fstab line whose target is not absolute: malformed all the same;
                 * libmount guesses after the line's leading blanks (" Filename\t" made it read
                 * the whole table as /proc/swaps: found by fuzz_mounttab) */
                const char *t = line + strspn(line, " \t");
                return sscanf(t, "%u %u", &a, &b) != 2 && !startswith(t, "Filename\t");
        }
        const char *q = line;
        return digits_then(&q, ' ') && digits_then(&q, ' ') && digits_then(&q, ':') && digits_then(&q, ' ');
}

/* ---- the pass before libmount: one line at a time ---------------------- */

enum line_shape { LINE_BLANK, LINE_COMMENT, LINE_ENTRY };

/* What libmount makes of the line s (n bytes, no newline): it drops one CR at the end, then
 * blanks, and skips what is left empty or starts with '#'. */
static enum line_shape line_shape(const char *s, size_t n)
{
        if (n && s[n - 1] == '\r')
                n--;
        size_t i = 0;
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
                i++;
        return i == n ? LINE_BLANK : s[i] == '#' ? LINE_COMMENT : LINE_ENTRY;
}

/* The line s (n bytes) numbered no: blanked in p->clean with an error, skipped (blank, a
 * comment), or counted as one libmount reads. */
static void preview_line(struct parse *p, const char *s, size_t n, unsigned no, size_t off)
{
        if (memchr(s, 0, n)) {
                bad_add(p, no, xasprintf("line %u holds a NUL byte", no));
                memset(p->clean + off, ' ', n);
                return;
        }
        /* a comment is one in an fstab; the kernel writes none in mountinfo */
        enum line_shape shape = line_shape(s, n);
        if (shape == LINE_BLANK || (shape == LINE_COMMENT && p->kind == MOUNTTAB_FSTAB))
                return;
        _cleanup_free_ char *raw = strndup(s, n);
        if (strstr(raw, "\\000") || !starts_right(p->kind, raw)) {
                bad_line_text(p, no, s, n);
                memset(p->clean + off, ' ', n);
                return;
        }
        if (p->n_given == p->cap_given)
                p->given = xrealloc(p->given, (p->cap_given = 2 * p->cap_given + 16) * sizeof(*p->given));
        p->given[p->n_given++] = (struct given_line){.line = no, .off = off, .len = n};
}

static void preview(struct parse *p, const char *text, size_t len)
{
        p->text = text;
        p->clean = xmalloc(len + 1);
        memcpy(p->clean, text, len);
        p->clean[len] = 0;
        p->len = len;
        unsigned no = 0;
        for (size_t off = 0; off < len;) {
                const char *s = text + off;
                const char *nl = memchr(s, '\n', len - off);
                size_t n = nl ? (size_t)(nl - s) : len - off;
                preview_line(p, s, n, ++no, off);
                off += n + (nl != NULL);
        }
}

/* ---- libmount ---------------------------------------------------------- */

/* libmount's error callback: the line it refuses, one of the lines given (in order, so found from
 * where the last one was). */
static int on_parse_error(struct libmnt_table *tb, const char *filename, int line)
{
        (void)filename;
        struct parse *p = mnt_table_get_userdata(tb);
        while (p->scan < p->n_given && p->given[p->scan].line < (unsigned)line)
                p->scan++;
        if (line > 0 && p->scan < p->n_given && p->given[p->scan].line == (unsigned)line) {
                p->given[p->scan].refused = true;
                bad_given(p, &p->given[p->scan]);
        } else
                bad_add(p, line > 0 ? (unsigned)line : 0,
                        xasprintf("line %d is not %s", line, kind_name(p->kind)));
        return 1; /* go on with the next line */
}

static bool entry_ok(enum mounttab_kind kind, const struct mount_entry *e)
{
        if (!e->mountpoint || e->mountpoint[0] != '/' || !e->source)
                return false;
        return kind == MOUNTTAB_MOUNTINFO || (*e->source && e->fstype && *e->fstype);
}

static char *dup_or_null(const char *s)
{
        return s ? xstrdup(s) : NULL;
}

static void entry_done(struct mount_entry *e)
{
        free(e->mountpoint);
        free(e->source);
        free(e->fstype);
        free(e->options);
}

/* The entry libmount made of a line. */
static struct mount_entry entry_of(enum mounttab_kind kind, struct libmnt_fs *fs, unsigned line)
{
        dev_t dev = kind == MOUNTTAB_MOUNTINFO ? mnt_fs_get_devno(fs) : 0;
        struct mount_entry e = {
                .line = line,
                .major = major(dev),
                .minor = minor(dev),
                .mountpoint = dup_or_null(mnt_fs_get_target(fs)),
                .source = dup_or_null(mnt_fs_get_source(fs)),
                .fstype = dup_or_null(mnt_fs_get_fstype(fs)),
                .options = dup_or_null(mnt_fs_get_options(fs)),
        };
        if (kind == MOUNTTAB_MOUNTINFO && !e.source)
                e.source = xstrdup("none");
        return e;
}

/* The entries of tb, each with its line: the k-th of the lines given that libmount did not refuse. */
static void collect(struct parse *p, struct libmnt_table *tb, struct mount_entry **ret, size_t *ret_n)
{
        struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
        struct libmnt_fs *fs;
        struct mount_entry *v = NULL;
        size_t n = 0, cap = 0, g = 0;
        while (it && mnt_table_next_fs(tb, it, &fs) == 0) {
                while (g < p->n_given && p->given[g].refused)
                        g++;
                const struct given_line *gl = g < p->n_given ? &p->given[g++] : NULL;
                struct mount_entry e = entry_of(p->kind, fs, gl ? gl->line : 0);
                if (!entry_ok(p->kind, &e)) {
                        if (gl)
                                bad_given(p, gl);
                        entry_done(&e);
                        continue;
                }
                if (n == cap)
                        v = xrealloc(v, (cap = 2 * cap + 16) * sizeof(*v));
                v[n++] = e;
        }
        mnt_free_iter(it);
        *ret = v;
        *ret_n = n;
}

static int bad_cmp(const void *a, const void *b)
{
        unsigned x = ((const struct bad_line *)a)->line, y = ((const struct bad_line *)b)->line;
        return (x > y) - (x < y);
}

/* The errors in line order, at most MAX_ERRORS and a line saying more were left out. */
static char **errors_of(struct parse *p)
{
        char **errors = NULL;
        if (p->n_bad)
                qsort(p->bad, p->n_bad, sizeof(*p->bad), bad_cmp);
        for (size_t i = 0; i < p->n_bad; i++) {
                if (i < MAX_ERRORS)
                        strv_push(&errors, p->bad[i].message);
                free(p->bad[i].message);
        }
        if (p->n_bad_total > MAX_ERRORS)
                strv_push(&errors, "(more malformed lines not shown)");
        return errors;
}

void mounttab_parse(enum mounttab_kind kind, const char *text, size_t len, struct mount_entry **ret, size_t *ret_n,
                    char ***ret_errors)
{
        struct parse p = {.kind = kind};
        *ret = NULL;
        *ret_n = 0;
        preview(&p, text ? text : "", text ? len : 0);
        struct libmnt_table *tb = p.n_given ? mnt_new_table() : NULL;
        FILE *f = tb ? fmemopen(p.clean, p.len, "r") : NULL;
        if (f) {
                mnt_table_set_userdata(tb, &p);
                mnt_table_set_parser_errcb(tb, on_parse_error);
                /* the name is for libmount's debug output alone */
                int r = mnt_table_parse_stream(tb, f, "-");
                fclose(f);
                /* only a failure to allocate stops libmount before the end */
                if (r < 0)
                        bad_add(&p, 0, xasprintf("could not be read to its end: %s", strerror(-r)));
                collect(&p, tb, ret, ret_n);
        } else if (tb)
                bad_add(&p, 0, xasprintf("could not be read: %s", strerror(errno)));
        mnt_unref_table(tb);
        free(p.clean);
        free(p.given);
        *ret_errors = errors_of(&p);
}

void mountinfo_parse(const char *text, size_t len, struct mount_entry **ret, size_t *ret_n, char ***ret_errors)
{
        mounttab_parse(MOUNTTAB_MOUNTINFO, text, len, ret, ret_n, ret_errors);
}

int mounttab_read(enum mounttab_kind kind, const char *root, const char *rel, bool in_root, struct mount_entry **ret,
                  size_t *ret_n, char ***ret_errors)
{
        _cleanup_free_ char *text = NULL;
        size_t len = 0;
        int r;
        *ret = NULL;
        *ret_n = 0;
        *ret_errors = NULL;
        if (in_root)
                r = read_file_in_root(root, rel, &text, &len);
        else {
                _cleanup_free_ char *path = path_join(root, rel);
                r = read_file_under_len(root, path, MOUNTTAB_MAX, &text, &len);
        }
        if (r < 0)
                return r;
        mounttab_parse(kind, text, len, ret, ret_n, ret_errors);
        return 0;
}

int mounttab_read_mounts(const char *sysroot, struct mount_entry **ret, size_t *ret_n, char ***ret_errors)
{
        int r = mounttab_read(MOUNTTAB_FSTAB, sysroot, "proc/mounts", false, ret, ret_n, ret_errors);
        if (r == -ELOOP)
                r = mounttab_read(MOUNTTAB_FSTAB, sysroot, "proc/self/mounts", false, ret, ret_n, ret_errors);
        return r;
}

void mount_entries_free(struct mount_entry *v, size_t n)
{
        for (size_t i = 0; i < n; i++)
                entry_done(&v[i]);
        free(v);
}
