/* SPDX-License-Identifier: GPL-2.0-or-later
 * The running system's own disks (see sysuse.h). */
#include "discover/sysuse.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "discover/devnames.h"
#include "base/strmap.h"

#define MAX_ERRORS 8

/* ---- lines of a byte buffer -------------------------------------------- */

struct lines {
        const char *text, *end, *next;
        unsigned no;
};

/* The next line as a C string (free()), its number in *ret_no; NULL at the end.
 * *ret_nul: the line held a NUL byte (the copy stops there). */
static char *next_line(struct lines *l, unsigned *ret_no, bool *ret_nul)
{
        if (!l->next || l->next >= l->end)
                return NULL;
        const char *s = l->next;
        const char *nl = memchr(s, '\n', (size_t)(l->end - s));
        const char *e = nl ? nl : l->end;
        l->next = nl ? nl + 1 : l->end;
        *ret_no = ++l->no;
        *ret_nul = memchr(s, 0, (size_t)(e - s)) != NULL;
        return strndup(s, (size_t)(e - s));
}

static void add_error(char ***errors, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_error(char ***errors, const char *fmt, ...)
{
        size_t n = strv_len(*errors);
        if (n > MAX_ERRORS)
                return;
        if (n == MAX_ERRORS) {
                strv_push(errors, "(more malformed lines not shown)");
                return;
        }
        va_list ap;
        va_start(ap, fmt);
        struct sbuf b = {0};
        sbuf_vprintf(&b, fmt, ap);
        va_end(ap);
        strv_push(errors, b.s ? b.s : "");
        free(b.s);
}

/* mountinfo and swaps escape blank, tab, newline and backslash as \ooo. NULL for a "\000". */
static char *unoctal(const char *s)
{
        struct sbuf b = {0};
        for (const char *p = s; *p; p++) {
                if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' && p[3] >= '0' &&
                    p[3] <= '7') {
                        int c = (p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0');
                        if (!c) {
                                free(b.s);
                                return NULL;
                        }
                        sbuf_printf(&b, "%c", c);
                        p += 3;
                } else
                        sbuf_printf(&b, "%c", *p);
        }
        return sbuf_steal(&b);
}

static bool all_digits(const char *s)
{
        return *s && strspn(s, "0123456789") == strlen(s);
}

/* ---- proc/swaps -------------------------------------------------------- */

void swaps_parse(const char *text, size_t len, char ***ret_devices, unsigned **ret_lines, char ***ret_errors)
{
        struct lines l = {text, text + len, text, 0};
        char **devs = NULL, **errors = NULL;
        unsigned *lines = NULL;
        unsigned no;
        bool nul;
        for (char *line; (line = next_line(&l, &no, &nul)); free(line)) {
                if (nul) {
                        add_error(&errors, "line %u holds a NUL byte", no);
                        continue;
                }
                char **f = strv_split(line, " \t");
                size_t nf = strv_len(f);
                if (!nf || (no == 1 && !strcmp(f[0], "Filename"))) {
                        strv_free(f);
                        continue;
                }
                /* Filename Type Size Used [Priority]; older kernels leave blanks in the name unescaped,
                 * so the type is the last "partition" or "file" followed by numbers only */
                size_t k = 0;
                for (size_t i = nf; i-- > 1 && !k;) {
                        if (strcmp(f[i], "partition") && strcmp(f[i], "file"))
                                continue;
                        bool nums = i + 1 < nf;
                        for (size_t j = i + 1; j < nf; j++)
                                nums &= all_digits(f[j] + (f[j][0] == '-'));
                        if (nums)
                                k = i;
                }
                if (!k) {
                        _cleanup_free_ char *shown = comment_dup(line);
                        add_error(&errors, "line %u is not a swaps line: \"%s\"", no, shown);
                        strv_free(f);
                        continue;
                }
                if (!strcmp(f[k], "partition")) {
                        char *saved = f[k];
                        f[k] = NULL;
                        char *joined = strv_join(f, " ");
                        f[k] = saved;
                        char *name = unoctal(joined);
                        free(joined);
                        if (!name)
                                add_error(&errors, "line %u: a NUL byte in the file name", no);
                        else {
                                strv_push(&devs, name);
                                lines = xrealloc(lines, strv_len(devs) * sizeof(unsigned));
                                lines[strv_len(devs) - 1] = no;
                                free(name);
                        }
                }
                strv_free(f);
        }
        *ret_devices = devs;
        *ret_lines = lines;
        *ret_errors = errors;
}

/* ---- proc/cmdline ------------------------------------------------------ */

char **cmdline_words(const char *text, size_t len, char ***ret_errors)
{
        char **words = NULL, **errors = NULL;
        struct sbuf w = {0};
        bool quote = false, nul = false;
        for (size_t i = 0; i <= len; i++) {
                char c = i < len ? text[i] : ' ';
                if (c == 0) {
                        nul = true;
                        c = ' ';
                }
                if (c == '"') {
                        quote = !quote;
                        if (!w.s)
                                sbuf_puts(&w, ""); /* "" is a word */
                        continue;
                }
                if (!quote && isspace((unsigned char)c)) {
                        if (w.s) {
                                strv_push(&words, w.s);
                                free(w.s);
                                w = (struct sbuf){0};
                        }
                        continue;
                }
                sbuf_printf(&w, "%c", c);
        }
        free(w.s);
        if (nul)
                add_error(&errors, "holds a NUL byte (the kernel command line is one C string)");
        *ret_errors = errors;
        return words;
}

char *boot_word_spec(const char *word, unsigned *ret_kind)
{
        static const char *const hd_keys[] = {"inst.stage2=", "inst.repo=", "inst.ks=", "inst.updates=", "inst.dd=",
                                              "stage2=", "repo=", "ks=", "updates=", "dd="};
        const char *v = NULL;
        if (startswith(word, "root=")) {
                v = word + 5;
                *ret_kind = SYS_ROOT;
                if (startswith(v, "live:")) {
                        v += 5;
                        *ret_kind = SYS_BOOTSRC;
                }
                return *v ? xstrdup(v) : NULL;
        }
        if (startswith(word, "resume=")) {
                *ret_kind = SYS_SWAP;
                return word[7] ? xstrdup(word + 7) : NULL;
        }
        for (size_t k = 0; k < ELEMENTSOF(hd_keys) && !v; k++)
                if (startswith(word, hd_keys[k]))
                        v = word + strlen(hd_keys[k]);
        if (!v || !startswith(v, "hd:"))
                return NULL;
        v += 3;
        *ret_kind = SYS_BOOTSRC;
        /* hd:DEV:PATH — a tag's value ends at the ':' after its '=', a device at its first ':' */
        const char *eq = strchr(v, '=');
        const char *from = eq && eq < v + strcspn(v, ":/") ? eq + 1 : v;
        size_t n = (size_t)(from - v) + strcspn(from, ":");
        return n ? strndup(v, n) : NULL;
}

/* ---- mountpoints ------------------------------------------------------- */

unsigned mountpoint_system_kind(const char *mountpoint)
{
        static const char *const prefixes[] = {"", "/sysroot", "/mnt/sysimage", "/mnt/sysroot"};
        static const char *const dirs[] = {"/", "/boot", "/boot/efi", "/efi", "/usr", "/var"};
        /* as the kernel resolves it: "//boot/", "/boot/." and "/./boot" are /boot (a hand-made or
         * captured mountinfo may carry them) */
        _cleanup_free_ char *mp = xstrdup(mountpoint);
        size_t n = 0;
        for (const char *c = mountpoint; *c;) {
                if (*c == '/' && (c[1] == '/' || (c[1] == '.' && (c[2] == '/' || !c[2])))) {
                        c += c[1] == '/' ? 1 : 2;
                        continue;
                }
                mp[n++] = *c++;
        }
        mp[n] = 0;
        if (!n)
                mp[n++] = '/', mp[n] = 0;
        while (n > 1 && mp[n - 1] == '/')
                mp[--n] = 0;
        for (size_t p = 0; p < ELEMENTSOF(prefixes); p++) {
                size_t lp = strlen(prefixes[p]);
                if (strncmp(mp, prefixes[p], lp))
                        continue;
                const char *rest = mp + lp;
                if (!*rest && lp)
                        return SYS_ROOT; /* "/sysroot" itself */
                for (size_t d = 0; d < ELEMENTSOF(dirs); d++)
                        if (!strcmp(rest, dirs[d]))
                                return SYS_ROOT;
        }
        if (!strcmp(mp, "/run/install") || startswith(mp, "/run/install/") || !strcmp(mp, "/run/initramfs/live") ||
            startswith(mp, "/run/initramfs/live/"))
                return SYS_BOOTSRC;
        return 0;
}

/* ---- marking ----------------------------------------------------------- */

#define PART_SLOTS 4096   /* a device's partitions counted in an index: far above GPT's 128 */

struct marker {
        struct sysinfo *si;
        struct strmap by_name, by_devt;   /* both borrow their keys: names from si, numbers from devt_keys */
        char **devt_keys;
        unsigned *seen;           /* per device: the walk that last passed it */
        unsigned walk;
};

static size_t enc(size_t dev, size_t part) { return dev * PART_SLOTS + (part == DEVNAME_WHOLE ? 0 : part + 1); }
static void dec(size_t v, size_t *dev, size_t *part)
{
        *dev = v / PART_SLOTS;
        *part = v % PART_SLOTS ? v % PART_SLOTS - 1 : DEVNAME_WHOLE;
}

static void marker_init(struct marker *m, struct sysinfo *si)
{
        *m = (struct marker){.si = si, .seen = xcalloc(si->n_devs ? si->n_devs : 1, sizeof(unsigned))};
        size_t n = 0, k = 0;
        for (size_t i = 0; i < si->n_devs; i++)
                n += 1 + si->devs[i].n_partinfo;
        m->devt_keys = xcalloc(n + 1, sizeof(char *));
        for (size_t i = 0; i < si->n_devs; i++) {
                const struct blockdev *b = &si->devs[i];
                strmap_add(&m->by_name, b->name, enc(i, DEVNAME_WHOLE), NULL);
                m->devt_keys[k] = xasprintf("%u:%u", b->major, b->minor);
                strmap_add(&m->by_devt, m->devt_keys[k++], enc(i, DEVNAME_WHOLE), NULL);
                for (size_t j = 0; j < b->n_partinfo && j + 1 < PART_SLOTS; j++) {
                        strmap_add(&m->by_name, b->partinfo[j].name, enc(i, j), NULL);
                        m->devt_keys[k] = xasprintf("%u:%u", b->partinfo[j].major, b->partinfo[j].minor);
                        strmap_add(&m->by_devt, m->devt_keys[k++], enc(i, j), NULL);
                }
        }
}

static void marker_done(struct marker *m)
{
        strmap_free(&m->by_name);
        strmap_free(&m->by_devt);
        strv_free(m->devt_keys);
        free(m->seen);
}

static const char *hit_name(const struct sysinfo *si, size_t dev, size_t part)
{
        return part == DEVNAME_WHOLE ? si->devs[dev].name : si->devs[dev].partinfo[part].name;
}

/* Marks what (dev, part) stands on: the disk of a partition; the slaves of an md or dm, down. */
static void mark_down(struct marker *m, size_t dev, size_t part, unsigned kind, const char *what, const char *top,
                      unsigned depth)
{
        struct blockdev *b = &m->si->devs[dev];
        const char *component = hit_name(m->si, dev, part);
        if (part == DEVNAME_WHOLE) {
                if (m->seen[dev] == m->walk || depth > 64)
                        return;
                m->seen[dev] = m->walk;
                for (size_t k = 0; b->slaves && b->slaves[k]; k++) {
                        size_t v = strmap_get(&m->by_name, b->slaves[k]);
                        if (v == (size_t)-1)
                                continue;
                        size_t d2, p2;
                        dec(v, &d2, &p2);
                        mark_down(m, d2, p2, kind, what, top, depth + 1);
                }
        }
        b->system_kind |= kind;
        if (!b->system_use)
                b->system_use = strcmp(component, top) ? xasprintf("%s (%s is part of it)", what, component)
                                                       : xstrdup(what);
}

static void mark(struct marker *m, size_t dev, size_t part, unsigned kind, const char *what)
{
        m->walk++;
        mark_down(m, dev, part, kind, what, hit_name(m->si, dev, part), 0);
}

/* The whole disks (dev, part) stands on, into *disks: a partition's disk; an md's or dm's slaves, down. */
static void disks_down(struct marker *m, size_t dev, size_t part, char ***disks, unsigned depth)
{
        const struct blockdev *b = &m->si->devs[dev];
        if (part == DEVNAME_WHOLE) {
                if (m->seen[dev] == m->walk || depth > 64)
                        return;
                m->seen[dev] = m->walk;
                for (size_t k = 0; b->slaves && b->slaves[k]; k++) {
                        size_t v = strmap_get(&m->by_name, b->slaves[k]);
                        if (v == (size_t)-1)
                                continue;
                        size_t d2, p2;
                        dec(v, &d2, &p2);
                        disks_down(m, d2, p2, disks, depth + 1);
                }
        }
        if (!strv_contains(*disks, b->name))
                strv_push(disks, b->name);
}

/* Keeps the mount of (dev, part) at mountpoint, for the planner's system-mountpoint rule. */
static void keep_mount(struct marker *m, size_t dev, size_t part, const struct mount_entry *e)
{
        struct sysinfo *si = m->si;
        char **disks = NULL;
        m->walk++;
        disks_down(m, dev, part, &disks, 0);
        si->mounts = xrealloc(si->mounts, (si->n_mounts + 1) * sizeof(*si->mounts));
        si->mounts[si->n_mounts++] = (struct sys_mount){
                .mountpoint = xstrdup(e->mountpoint),
                .device = xstrdup(hit_name(si, dev, part)),
                .disks = disks,
                .line = e->line,
        };
}

void sys_mounts_free(struct sysinfo *si)
{
        for (size_t i = 0; i < si->n_mounts; i++) {
                free(si->mounts[i].mountpoint);
                free(si->mounts[i].device);
                strv_free(si->mounts[i].disks);
        }
        free(si->mounts);
        si->mounts = NULL;
        si->n_mounts = 0;
}

/* One mountinfo entry: the devices it is mounted from (by its device number, else, for btrfs and
 * others with an anonymous one, by a /dev source), kept, and marked when the mountpoint is a system one. */
static void mount_entry_mark(struct marker *m, const struct mount_entry *e)
{
        struct sysinfo *si = m->si;
        unsigned kind = mountpoint_system_kind(e->mountpoint);
        _cleanup_free_ char *mp = comment_dup(e->mountpoint);
        char key[32];
        snprintf(key, sizeof key, "%u:%u", e->major, e->minor);
        size_t v = e->major ? strmap_get(&m->by_devt, key) : (size_t)-1;
        struct devname_hit one = {0}, *h = NULL;
        ssize_t k = 0;
        if (v != (size_t)-1) {
                dec(v, &one.dev, &one.part);
                k = 1;
        } else if (startswith(e->source, "/dev/"))
                k = devname_resolve(si, e->source, &h, NULL);
        for (ssize_t j = 0; j < k; j++) {
                size_t d = h ? h[j].dev : one.dev, p = h ? h[j].part : one.part;
                keep_mount(m, d, p, e);
                if (!kind)
                        continue;
                _cleanup_free_ char *what = xasprintf("%s is mounted at %s", hit_name(si, d, p), mp);
                mark(m, d, p, kind, what);
        }
        free(h);
}

static void push_errors(struct sysinfo *si, const char *file, char **errors)
{
        for (size_t i = 0; errors && errors[i]; i++)
                strv_pushf(&si->system_errors, "%s %s", file, errors[i]);
        strv_free(errors);
}

void sysuse_mark(struct sysinfo *si, const struct sysuse_input *in)
{
        struct marker m;
        marker_init(&m, si);
        char **errors = NULL;

        if (in->mountinfo) {
                struct mount_entry *v = NULL;
                size_t n = 0;
                mountinfo_parse(in->mountinfo, in->mountinfo_len, &v, &n, &errors);
                push_errors(si, "proc/self/mountinfo", errors);
                for (size_t i = 0; i < n; i++)
                        mount_entry_mark(&m, &v[i]);
                mount_entries_free(v, n);
        }

        if (in->swaps) {
                char **devs = NULL;
                unsigned *lines = NULL;
                swaps_parse(in->swaps, in->swaps_len, &devs, &lines, &errors);
                push_errors(si, "proc/swaps", errors);
                for (size_t i = 0; devs && devs[i]; i++) {
                        struct devname_hit *h = NULL;
                        ssize_t k = devname_resolve(si, devs[i], &h, NULL);
                        for (ssize_t j = 0; j < k; j++) {
                                _cleanup_free_ char *what =
                                        xasprintf("%s is active swap", hit_name(si, h[j].dev, h[j].part));
                                mark(&m, h[j].dev, h[j].part, SYS_SWAP, what);
                        }
                        free(h);
                }
                strv_free(devs);
                free(lines);
        }

        if (in->cmdline) {
                char **words = cmdline_words(in->cmdline, in->cmdline_len, &errors);
                push_errors(si, "proc/cmdline", errors);
                for (size_t w = 0; words && words[w]; w++) {
                        unsigned kind = 0;
                        _cleanup_free_ char *spec = boot_word_spec(words[w], &kind);
                        if (!spec)
                                continue;
                        _cleanup_free_ char *shown = comment_dup(words[w]);
                        struct devname_hit *h = NULL;
                        ssize_t k = devname_resolve_spec(si, spec, &h);
                        for (ssize_t j = 0; j < k; j++) {
                                const char *n = hit_name(si, h[j].dev, h[j].part);
                                _cleanup_free_ char *what =
                                        kind == SYS_BOOTSRC ? xasprintf("%s is the installer's or live system's source (%s on the kernel command line)", n, shown)
                                        : kind == SYS_SWAP  ? xasprintf("%s is the resume device (%s on the kernel command line)", n, shown)
                                                            : xasprintf("%s is the root device (%s on the kernel command line)", n, shown);
                                mark(&m, h[j].dev, h[j].part, kind, what);
                        }
                        free(h);
                }
                strv_free(words);
        }
        marker_done(&m);
}
