/* SPDX-License-Identifier: GPL-2.0-or-later
 * The arcconf readers (src/discover/ctl_adaptec.c) on the field fixtures of
 * tests/fixtures/controller/field/arcconf/ (layouts of public captures from
 * IBM's 9.x to Microchip's 4.x, our own values, figures by hand in
 * expected.tsv), every fixture cut at every line, garbled line by line, the
 * follow-up commands, and the cases no fixture shows: sections storprov does
 * not know, members counted two ways that disagree, a "Full Stripe Size" or
 * "Parity space" that contradicts the members, JSON without its array. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discover/controller.h"
#include "ctl_field.h"

#define TOOL "arcconf"

static const struct ctl_field_parser arcconf_parsers[] = {
        {"text", ctl_parse_arcconf, NULL, TOOL},
        {"json", ctl_parse_arcconf_json, NULL, TOOL},
        {"next", NULL, ctl_follow_arcconf, TOOL},
        {0},
};

static void field_table(void **state)
{
        (void)state;
        assert_true(ctl_field_check("arcconf", arcconf_parsers) >= 20);
}

/* ---- helpers ------------------------------------------------------------------------ */

static ctl_parse_fn *parser_for(const char *name)
{
        size_t n = strlen(name);
        return n > 5 && !strcmp(name + n - 5, ".json") ? ctl_parse_arcconf_json : ctl_parse_arcconf;
}

static char **fixtures(void)
{
        char dir[1024];
        DIR *d = opendir(ctl_field_dir("arcconf", dir, sizeof dir));
        assert_non_null(d);
        char **names = NULL;
        for (struct dirent *e; (e = readdir(d));)
                if (e->d_name[0] != '.' && strcmp(e->d_name, "README.md") && strcmp(e->d_name, "expected.tsv"))
                        strv_push(&names, e->d_name);
        closedir(d);
        assert_non_null(names);
        return names;
}

static char *field_file(const char *name, size_t *len)
{
        char dir[1024], path[1400];
        snprintf(path, sizeof path, "%s/%s", ctl_field_dir("arcconf", dir, sizeof dir), name);
        return ctl_field_read(path, len);
}

static bool same_geometry(const struct ctl_vd *a, const struct ctl_vd *b)
{
        return streq_ptr(a->level, b->level) && a->strip_bytes == b->strip_bytes &&
               a->drives_per_span == b->drives_per_span && a->spans == b->spans && a->data_disks == b->data_disks &&
               a->full_stripe_bytes == b->full_stripe_bytes;
}

static bool same_record(const struct ctl_vd *a, const struct ctl_vd *b)
{
        return same_geometry(a, b) && streq_ptr(a->controller, b->controller) && streq_ptr(a->vd, b->vd) &&
               streq_ptr(a->state, b->state) && streq_ptr(a->os_name, b->os_name) && streq_ptr(a->naa, b->naa) &&
               a->reported_full_stripe_bytes == b->reported_full_stripe_bytes;
}

/* Every string of the error printable, and the error names the tool. */
static void check_error(const char *where, const char *err)
{
        if (!err || strncmp(err, TOOL " output", strlen(TOOL " output")))
                fail_msg("%s: error \"%s\" does not start with \"" TOOL " output\"", where, err ? err : "(none)");
        for (const char *p = err; *p; p++)
                if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
                        fail_msg("%s: byte 0x%02x in the error", where, (unsigned char)*p);
}

/* ---- cut short ------------------------------------------------------------------------ */

/* Each prefix ending at a line end: an error, or the full parse's first
 * records unchanged; never a changed figure. */
static void cut_one(const char *name, const char *buf, size_t len, const struct ctl_list *full)
{
        ctl_parse_fn *parse = parser_for(name);
        for (size_t k = 0; k + 1 < len; k++) {
                if (buf[k] != '\n')
                        continue;
                struct ctl_list l = {0};
                char *err = NULL;
                char where[400];
                snprintf(where, sizeof where, "%s cut after byte %zu", name, k + 1);
                int r = parse(buf, k + 1, TOOL, "1", &l, &err);
                if (r == 0 && l.n > full->n)
                        fail_msg("%s: %zu records, the whole gives %zu", where, l.n, full->n);
                for (size_t i = 0; r == 0 && i < l.n; i++)
                        if (!same_record(&l.v[i], &full->v[i]))
                                fail_msg("%s: record %zu changed", where, i);
                if (r < 0)
                        check_error(where, err);
                free(err);
                ctl_list_free(&l);
        }
}

static void cut_at_every_line(void **state)
{
        (void)state;
        char **names = fixtures();
        size_t parsed = 0;
        for (size_t f = 0; names[f]; f++) {
                size_t len;
                char *buf = field_file(names[f], &len);
                struct ctl_list full = {0};
                char *err = NULL;
                if (parser_for(names[f])(buf, len, TOOL, "1", &full, &err) == 0) {
                        cut_one(names[f], buf, len, &full);
                        parsed++;
                }
                free(err);
                ctl_list_free(&full);
                free(buf);
        }
        assert_true(parsed >= 12);
        strv_free(names);
}

/* ---- garbled -------------------------------------------------------------------------- */

/* buf with [a, b) replaced by repl (NULL: deleted; "=": doubled). */
static char *variant(const char *buf, size_t len, size_t a, size_t b, const char *repl, size_t *out_len)
{
        bool twice = repl && !strcmp(repl, "=");
        size_t rl = twice ? b - a : repl ? strlen(repl) : 0;
        char *o = xmalloc(len + rl + 1);
        size_t n = twice ? b : a;
        memcpy(o, buf, n);
        memcpy(o + n, twice ? buf + a : repl ? repl : "", rl);
        n += rl;
        memcpy(o + n, buf + b, len - b);
        n += len - b;
        o[n] = 0;
        *out_len = n;
        return o;
}

/* A variant: an error, or the same records, each with the full parse's
 * geometry or an unknown one with a note; never a changed figure. */
static void check_variant(const char *where, const char *name, const char *buf, size_t len,
                          const struct ctl_list *full)
{
        struct ctl_list l = {0};
        char *err = NULL;
        int r = parser_for(name)(buf, len, TOOL, "1", &l, &err);
        if (r < 0)
                check_error(where, err);
        if (r == 0 && l.n != full->n)
                fail_msg("%s: %zu records where the whole gives %zu", where, l.n, full->n);
        for (size_t i = 0; r == 0 && i < l.n; i++) {
                const struct ctl_vd *v = &l.v[i], *w = &full->v[i];
                if (!streq_ptr(v->controller, w->controller) || !streq_ptr(v->vd, w->vd))
                        fail_msg("%s: record %zu is another logical device", where, i);
                if (v->full_stripe_bytes ? !same_geometry(v, w) : !v->note)
                        fail_msg("%s: LD %s has a changed geometry (%s, %u data, %llu) without a note", where, v->vd,
                                 v->level ? v->level : "-", v->data_disks, (unsigned long long)v->full_stripe_bytes);
        }
        free(err);
        ctl_list_free(&l);
}

/* "Segment 3", "Group 1, Segment 0", "Device 8": a member line, which no
 * 1.x or 2.x output counts anywhere else when it lacks "Parity space". */
static bool member_line(const char *s, size_t n)
{
        char line[160];
        snprintf(line, sizeof line, "%.*s", (int)(n < 159 ? n : 159), s);
        char *p = line + strspn(line, " \t");
        return !strncmp(p, "Segment ", 8) || !strncmp(p, "Group ", 6) ||
               (!strncmp(p, "Device ", 7) && p[7] >= '0' && p[7] <= '9');
}

/* A NUL byte at the start of the line: always an error naming the byte. */
static void nul_at(const char *name, size_t line, const char *buf, size_t len, size_t a)
{
        char *v = xmalloc(len + 2);
        memcpy(v, buf, a);
        v[a] = 0;
        memcpy(v + a + 1, buf + a, len - a);
        struct ctl_list l = {0};
        char *err = NULL;
        int r = ctl_parse_arcconf(v, len + 1, TOOL, "1", &l, &err);
        if (r == 0 || !strstr(err, "byte 0x00"))
                fail_msg("%s line %zu: a NUL byte gives %d \"%s\"", name, line, r, err ? err : "(none)");
        free(err);
        ctl_list_free(&l);
        free(v);
}

/* Every line deleted (but a member line: arcconf 1.x and 2.x print no count
 * of them to check against, see member_deleted), doubled, its value garbled. */
static void garble_one(const char *name, const char *buf, size_t len, const struct ctl_list *full)
{
        size_t a = 0;
        for (size_t line = 1; a < len; line++) {
                const char *nl = memchr(buf + a, '\n', len - a);
                size_t b = nl ? (size_t)(nl - buf) + 1 : len;
                const char *colon = memchr(buf + a, ':', b - a);
                char garbled[400];
                snprintf(garbled, sizeof garbled, "%.*s: x?garbled\n", colon ? (int)(colon - buf - a) : 0, buf + a);
                const char *kinds[][2] = {
                        {NULL, "deleted"},
                        {"=", "doubled"},
                        {garbled, "value garbled"},
                };
                for (size_t k = 0; k < ELEMENTSOF(kinds); k++) {
                        if ((k == 0 && member_line(buf + a, b - a)) || (k == 2 && (!colon || colon - buf - a >= 300)))
                                continue;
                        size_t vl;
                        char *v = variant(buf, len, a, b, kinds[k][0], &vl);
                        char where[400];
                        snprintf(where, sizeof where, "%s line %zu %s (\"%.*s\")", name, line, kinds[k][1],
                                 (int)(b - a > 48 ? 48 : b - a - (nl ? 1 : 0)), buf + a);
                        check_variant(where, name, v, vl, full);
                        free(v);
                }
                if (strstr(name, ".txt"))
                        nul_at(name, line, buf, len, a);
                a = b;
        }
}

static void garbled_line_by_line(void **state)
{
        (void)state;
        char **names = fixtures();
        for (size_t f = 0; names[f]; f++) {
                size_t len;
                char *buf = field_file(names[f], &len);
                struct ctl_list full = {0};
                char *err = NULL;
                if (parser_for(names[f])(buf, len, TOOL, "1", &full, &err) == 0)
                        garble_one(names[f], buf, len, &full);
                free(err);
                ctl_list_free(&full);
                free(buf);
        }
        strv_free(names);
}

/* A member line deleted: where arcconf prints a figure to check the members
 * against ("Full Stripe Size", "Parity space", a group's size, the level's
 * own count), the layout becomes unknown with a note. A RAID 0 of 1.x or 2.x
 * has none of those (its parity space is 0): one member fewer there is a RAID
 * 0 of one fewer, the one figure arcconf's text gives no means to check. */
static void member_deleted(void **state)
{
        (void)state;
        char **names = fixtures();
        for (size_t f = 0; names[f]; f++) {
                size_t len;
                char *buf = field_file(names[f], &len);
                struct ctl_list full = {0};
                char *err = NULL;
                int rf = parser_for(names[f])(buf, len, TOOL, "1", &full, &err);
                free(err);
                for (size_t a = 0, line = 1; rf == 0 && a < len; line++) {
                        const char *nl = memchr(buf + a, '\n', len - a);
                        size_t b = nl ? (size_t)(nl - buf) + 1 : len;
                        if (member_line(buf + a, b - a)) {
                                size_t vl;
                                char *v = variant(buf, len, a, b, NULL, &vl);
                                struct ctl_list l = {0};
                                err = NULL;
                                int r = parser_for(names[f])(v, vl, TOOL, "1", &l, &err);
                                for (size_t i = 0; r == 0 && i < l.n; i++) {
                                        const struct ctl_vd *x = &l.v[i], *w = &full.v[i];
                                        bool raid0 = streq_ptr(x->level, "raid0");
                                        if (x->full_stripe_bytes && !same_geometry(x, w) && !raid0)
                                                fail_msg("%s line %zu deleted: LD %s gets %u data disks", names[f],
                                                         line, x->vd, x->data_disks);
                                }
                                free(err);
                                ctl_list_free(&l);
                                free(v);
                        }
                        a = b;
                }
                ctl_list_free(&full);
                free(buf);
        }
        strv_free(names);
}

/* The fixture with one line's value replaced. */
static int parse_with(const char *name, const char *key, const char *value, struct ctl_list *l, char **err)
{
        size_t len;
        char *buf = field_file(name, &len);
        char *at = strstr(buf, key);
        assert_non_null(at);
        char *colon = strchr(at, ':'), *nl = strchr(at, '\n');
        assert_true(colon && nl && colon < nl);
        _cleanup_free_ char *v = xasprintf("%.*s: %s%s", (int)(colon - buf), buf, value, nl);
        free(buf);
        return ctl_parse_arcconf(v, strlen(v), TOOL, "1", l, err);
}

static void strip_and_level_garbled(void **state)
{
        (void)state;
        struct ctl_list l = {0};
        char *err = NULL;
        /* a strip word arcconf never prints: an error naming the line and the field */
        static const char *const strips[] = {"256 KBB", "two hundred", "256", "0 KB", "-256 KB", NULL};
        for (size_t i = 0; strips[i]; i++) {
                assert_int_equal(parse_with("v2.x-al-raid6-maxcache-after-last.txt", "Stripe-unit size", strips[i],
                                            &l, &err), -EINVAL);
                assert_non_null(strstr(err, "Stripe-unit size"));
                assert_non_null(strstr(err, "arcconf output line "));
                assert_int_equal(l.n, 0);
                free(err);
                err = NULL;
        }
        /* a level arcconf never prints: no level, no geometry, a note */
        static const char *const levels[] = {"6 Reed-Salomon", "5?", "RAID-7", "", "60 Reed-Solomon II", NULL};
        for (size_t i = 0; levels[i]; i++) {
                assert_int_equal(parse_with("v2.x-al-raid6-maxcache-after-last.txt", "RAID level", levels[i], &l,
                                            &err), 0);
                assert_null(l.v[0].level);
                assert_int_equal(l.v[0].data_disks, 0);
                assert_int_equal(l.v[0].full_stripe_bytes, 0);
                assert_non_null(strstr(l.v[0].note, "is not one storprov derives"));
                assert_string_equal(l.v[1].level, "raid6");
                ctl_list_free(&l);
        }
        /* spellings of RAID 6 and 60 with Reed-Solomon */
        assert_int_equal(parse_with("v2.x-al-raid6-maxcache-after-last.txt", "RAID level", "6 Reed Solomon", &l, &err),
                         0);
        assert_string_equal(l.v[0].level, "raid6");
        ctl_list_free(&l);
}

/* ---- follow-up commands -------------------------------------------------------------------- */

static void next_is(const char *out, const char *id, const char *want)
{
        struct ctl_nexts x = {0};
        char *err = NULL, got[1024] = "";
        if (ctl_follow_arcconf(out, strlen(out), TOOL, id, &x, &err) < 0)
                fail_msg("\"%.40s\": %s", out, err);
        for (size_t i = 0; i < x.n; i++) {
                size_t o = strlen(got);
                snprintf(got + o, sizeof got - o, "%s%u:%s", i ? " " : "", x.v[i].step, x.v[i].id);
        }
        if (strcmp(got, want))
                fail_msg("\"%.40s\" (id %s): \"%s\", want \"%s\"", out, id ? id : "NULL", got, want);
        ctl_nexts_free(&x);
}

#define NEXT_FAILS(out, words) next_fails(out, sizeof out - 1, words)
static void next_fails(const char *out, size_t len, const char *words)
{
        struct ctl_nexts x = {0};
        char *err = NULL;
        assert_int_equal(ctl_follow_arcconf(out, len, TOOL, NULL, &x, &err), -EINVAL);
        if (!strstr(err, words))
                fail_msg("\"%.40s\": \"%s\" lacks \"%s\"", out, err, words);
        assert_int_equal(x.n, 0);
        free(err);
}

static void follow_up(void **state)
{
        (void)state;
        next_is("Controllers found: 3\nCommand completed successfully.\n", NULL, "0:2 0:3");
        next_is("Controllers found: 3\nCommand completed successfully.\n", "1", "0:2 0:3");
        /* every output counts all controllers: only the first one leads on */
        next_is("Controllers found: 3\nCommand completed successfully.\n", "2", "");
        next_is("Controllers found: 3\nCommand completed successfully.\n", "3", "");
        next_is("Controllers Found: 2\r\n", NULL, "0:2");                /* 2.00, CRLF */
        next_is("\xef\xbb\xbf" "Controllers found: 2\n", NULL, "0:2");   /* a byte-order mark */
        next_is("Controllers found: 1\n{\"Controller\":{}}\n", NULL, ""); /* GETCONFIGJSON's first line */
        next_is("Controllers found: 0\n", NULL, "");
        char many[2048] = "", out[64];
        for (unsigned k = 2; k <= 64; k++)
                snprintf(many + strlen(many), sizeof many - strlen(many), "%s0:%u", k > 2 ? " " : "", k);
        next_is("Controllers found: 64\n", NULL, many);
        NEXT_FAILS("Controllers found: 65\n", "at most 64");
        NEXT_FAILS("Controllers found: 4294967297\n", "not a count");
        NEXT_FAILS("Controllers found: two\n", "not a count");
        NEXT_FAILS("Logical device number 0\n", "no \"Controllers found: N\" line");
        NEXT_FAILS("", "no \"Controllers found: N\" line");
        NEXT_FAILS("Contr\0llers found: 2\n", "byte 0x00");
        /* the count storprov's runner still reads */
        snprintf(out, sizeof out, "Controllers found: 7\n");
        assert_int_equal(ctl_arcconf_count(out, strlen(out)), 7);
        assert_int_equal(ctl_arcconf_count("Controllers found: 65\n", 22), 0);
        assert_int_equal(ctl_arcconf_count("garbage", 7), 0);
}

/* ---- what no fixture shows ------------------------------------------------------------------ */

#define HEAD "Controllers found: 2\n" DASHES "Logical device information\n" DASHES
#define DASHES "----------------------------------------------------------------------\n"
#define SUB(name) "   --------------------------------------------------------\n   " name "\n" \
                  "   --------------------------------------------------------\n"
#define LD(no, level, strip) "Logical device number " #no "\n   RAID level : " level "\n" \
                             "   Status of logical device : Optimal\n   Stripe-unit size : " strip "\n"
#define DONE "\nCommand completed successfully.\n"

/* The text parse of s for controller ctl: 0 with *l, or the error holding words. */
static void text_fails(const char *s, const char *ctl, const char *words)
{
        struct ctl_list l = {0};
        char *err = NULL;
        int r = ctl_parse_arcconf(s, strlen(s), TOOL, ctl, &l, &err);
        if (r != -EINVAL || !strstr(err, words))
                fail_msg("got %d \"%s\", want an error holding \"%s\" for:\n%s", r, err ? err : "(none)", words, s);
        check_error("text_fails", err);
        assert_int_equal(l.n, 0);
        free(err);
}

static void text_gives(const char *s, const char *ctl, struct ctl_list *l)
{
        char *err = NULL;
        if (ctl_parse_arcconf(s, strlen(s), TOOL, ctl, l, &err) < 0)
                fail_msg("%s for:\n%s", err, s);
}

static void sections(void **state)
{
        (void)state;
        struct ctl_list l = {0};
        /* a section storprov does not know, after the blocks, printing a logical device's fields */
        text_fails(HEAD LD(0, "5", "256 KB") SUB("Logical device segment information")
                   "   Segment 0 : Present\n   Segment 1 : Present\n   Segment 2 : Present\n\n" DASHES
                   "maxCRYPTO information\n" DASHES "   RAID level : 1\n" DONE, "1",
                   "\"RAID level\" in the section \"maxCRYPTO information\"");
        /* ... and one that prints none: skipped */
        text_gives(HEAD LD(0, "5", "256 KB") SUB("Logical device segment information")
                   "   Segment 0 : Present\n   Segment 1 : Present\n   Segment 2 : Present\n\n" DASHES
                   "Task information\n" DASHES "   Current operation : None\n" DONE, "1", &l);
        assert_int_equal(l.n, 1);
        assert_int_equal(l.v[0].full_stripe_bytes, 512 * 1024);
        ctl_list_free(&l);
        /* a part of a block storprov does not know, with members in it */
        text_fails(HEAD LD(0, "5", "256 KB") SUB("Logical device spare information") "   Segment 0 : Present\n" DONE,
                   "1", "under \"Logical device spare information\"");
        /* a logical device's header inside another section */
        text_fails(HEAD LD(0, "1", "256 KB") "   Segment 0 : Present\n   Segment 1 : Present\n\n" DASHES
                   "Physical Device information\n" DASHES "Logical device number 1\n" DONE, "1",
                   "header in the \"Physical Device information\" section");
        /* a field before any block */
        text_fails(HEAD "   RAID level : 5\n" DONE, "1", "\"RAID level\" outside any logical device");
        /* fields of two blocks run together */
        text_fails(HEAD LD(0, "5", "256 KB") "   RAID level : 6\n" DONE, "1",
                   "printed a second time (first at line 6)");
        /* a member twice */
        text_fails(HEAD LD(0, "1", "256 KB") "   Segment 0 : Present\n   Segment 0 : Present\n" DONE, "1",
                   "segment 0 of group 0 of logical device 0 is listed twice");
        /* a block without its level or status */
        text_fails(HEAD "Logical device number 0\n   Status of logical device : Optimal\n" DONE, "1",
                   "ends without its \"RAID level\" line (its header at line 5)");
        text_fails("Controllers found: 1\nLogical Device number 0\n   RAID level : 5\n"
                   "Command completed successfully.\n", "1",
                   "logical device 0 ends without its \"Status of Logical Device\" line");
        /* the output of another controller, or a failed command */
        text_fails(HEAD LD(0, "1", "256 KB") DONE, "3", "for controller 3, but arcconf found 2");
        text_fails("Controllers found: 1\nInvalid controller number.\n\nCommand aborted.\n", "2",
                   "line 1: this output is for controller 2, but arcconf found 1");
        text_fails("Controllers found: 1\nThe controller is not responding.\n\nCommand aborted.\n", "1",
                   "arcconf says \"The controller is not responding.\" and \"Command aborted.\"");
        text_fails("Controllers found: 1\nControllers found: 1\n" DONE, "1", "a second \"Controllers found\" line");
        text_fails(HEAD LD(0, "1", "256 KB") DONE "Controllers found: 1\n", "1", "text after");
        text_fails("", "1", "ends without \"Command completed successfully.\"");
        /* no controller at all: arcconf's own count */
        text_gives("Controllers found: 0\n\nCommand completed successfully.\n", "1", &l);
        assert_int_equal(l.n, 0);
        /* the count and the blocks disagree; "none" after blocks */
        text_fails("Controllers found: 1\n" DASHES "Controller information\n" DASHES
                   "   Logical devices/Failed/Degraded : 2/0/0\n" DASHES "Logical device information\n" DASHES
                   LD(0, "1", "256 KB") "   Segment 0 : Present\n   Segment 1 : Present\n" DONE,
                   "1", "counts 2 logical devices");
        text_fails(HEAD LD(0, "1", "256 KB") "\n   No logical devices configured\n" DONE, "1", "contradicts itself");
}

static void members(void **state)
{
        (void)state;
        struct ctl_list l = {0};
        /* "Number of segments" and the member lines disagree */
        text_gives(HEAD LD(0, "5", "256 KB") "   Number of segments : 4\n" SUB("Logical device segment information")
                   "   Segment 0 : Present\n   Segment 1 : Present\n   Segment 2 : Present\n" DONE, "1", &l);
        assert_int_equal(l.v[0].data_disks, 0);
        assert_non_null(strstr(l.v[0].note, "lists 3 members one way and 4 another"));
        ctl_list_free(&l);
        /* a gap in the numbering; groups of two sizes; a RAID 50 without groups */
        text_gives(HEAD LD(0, "5", "256 KB") "   Segment 0 : Present\n   Segment 2 : Present\n   Segment 3 : Present\n"
                   "\n" LD(1, "50", "256 KB") "   Group 0, Segment 0 : Present\n   Group 0, Segment 1 : Present\n"
                   "   Group 0, Segment 2 : Present\n   Group 1, Segment 0 : Present\n   Group 1, Segment 1 : Present\n"
                   "\n" LD(2, "50", "256 KB") "   Segment 0 : Present\n   Segment 1 : Present\n   Segment 2 : Present\n"
                   "   Segment 3 : Present\n   Segment 4 : Present\n   Segment 5 : Present\n"
                   "\n" LD(3, "60 Reed-Solomon", "128 KB") "   Group 0, Segment 0 : Present\n   Group 0, Segment 1 : "
                   "Present\n   Group 0, Segment 2 : Present\n   Group 0, Segment 3 : Present\n   Group 1,Segment 0 : "
                   "Present\n   Group 1, Segment 1 : Present\n   Group 1, Segment 2 : Present\n   Group 1, Segment 3 : "
                   "Missing\n" DONE, "1", &l);
        assert_int_equal(l.n, 4);
        assert_non_null(strstr(l.v[0].note, "segment 2 of group 0 follows segment 0"));
        assert_non_null(strstr(l.v[1].note, "group 0 has 3 members and group 1 has 2"));
        assert_non_null(strstr(l.v[2].note, "not its parity groups"));
        for (size_t i = 0; i < 3; i++)
                assert_int_equal(l.v[i].full_stripe_bytes, 0);
        assert_string_equal(l.v[3].level, "raid60");
        assert_int_equal(l.v[3].data_disks, 4);
        assert_int_equal(l.v[3].full_stripe_bytes, 512 * 1024);
        ctl_list_free(&l);
        /* arcconf's own full stripe: the derived one, one parity group's (RAID 50/60), or no figure */
        text_gives(HEAD LD(0, "5", "256 KB") "   Full Stripe Size : 768 KB\n   Segment 0 : Present\n   Segment 1 : "
                   "Present\n   Segment 2 : Present\n" "\n" LD(1, "60", "64 KB") "   Full Stripe Size : 128 KB\n"
                   "   Group 0, Segment 0 : Present\n   Group 0, Segment 1 : Present\n   Group 0, Segment 2 : Present\n"
                   "   Group 0, Segment 3 : Present\n   Group 1, Segment 0 : Present\n   Group 1, Segment 1 : Present\n"
                   "   Group 1, Segment 2 : Present\n   Group 1, Segment 3 : Present\n" "\n" LD(2, "10", "64 KB")
                   "   Full Stripe Size : 128 KB\n   Device 4 : Present\n   Device 5 : Present\n   Device 9 : Present\n"
                   "   Device 11 : Present\n   Device 12 : Present\n   Device 13 : Present\n" DONE, "1", &l);
        assert_int_equal(l.v[0].full_stripe_bytes, 0);
        assert_int_equal(l.v[0].data_disks, 0);
        assert_non_null(strstr(l.v[0].note, "Full Stripe Size (768 KiB) is not the strip (256 KiB) times the 2"));
        assert_int_equal(l.v[1].full_stripe_bytes, 256 * 1024);
        assert_int_equal(l.v[2].full_stripe_bytes, 0);
        assert_int_equal(l.v[2].data_disks, 0);
        ctl_list_free(&l);
}

/* ---- GETCONFIGJSON ----------------------------------------------------------------------------- */

static int json(const char *s, struct ctl_list *l, char **err)
{
        return ctl_parse_arcconf_json(s, strlen(s), TOOL, "1", l, err);
}

static void json_shapes(void **state)
{
        (void)state;
        struct ctl_list l = {0};
        char *err = NULL;
        /* an empty array is arcconf's "none"; no member says nothing */
        assert_int_equal(json("Controllers found: 1\n{\"Controller\":{\"LogicalDrive\":[]}}\n", &l, &err), 0);
        assert_int_equal(l.n, 0);
        assert_int_equal(json("Controllers found: 1\n{\"Controller\":{\"serialNumber\":\"x\"}}\n", &l, &err),
                         -EINVAL);
        assert_non_null(strstr(err, "no \"LogicalDrive\" member"));
        free(err);
        err = NULL;
        /* GETCONFIGJSON N LD M: one object; a level as a number; StripeSize 0 is "not printed" */
        assert_int_equal(json("Controllers found: 1\n{\"LogicalDrive\":{\"logicalDriveID\":4,\"raidLevel\":5,"
                              "\"state\":2,\"StripeSize\":0,\"fullStripeSize\":\"0\",\"Chunk\":[{},{},{}]}}\n",
                              &l, &err), 0);
        assert_int_equal(l.n, 1);
        assert_string_equal(l.v[0].vd, "4");
        assert_string_equal(l.v[0].level, "raid5");
        assert_int_equal(l.v[0].data_disks, 2);
        assert_int_equal(l.v[0].full_stripe_bytes, 0);
        assert_non_null(strstr(l.v[0].note, "strip size"));
        ctl_list_free(&l);
        /* a full stripe that contradicts the chunks; a state as a word */
        assert_int_equal(json("{\"Controller\":{\"LogicalDrive\":[{\"logicalDriveID\":0,\"raidLevel\":\"6\","
                              "\"state\":\"Optimal\",\"StripeSize\":256,\"fullStripeSize\":1024,"
                              "\"Chunk\":[{},{},{},{},{}]}]}}", &l, &err), 0);
        assert_int_equal(l.v[0].full_stripe_bytes, 0);
        assert_string_equal(l.v[0].state, "optimal");
        assert_non_null(strstr(l.v[0].note, "Full Stripe Size"));
        ctl_list_free(&l);
        static const char *const bad[][2] = {
                {"Controllers found: 1\nCommand aborted.\n", "no JSON object at the start of a line"},
                {"{\"Controller\":{\"LogicalDrive\":7}}", "neither an array nor an object"},
                {"{\"Other\":{}}", "no \"Controller\" or \"LogicalDrive\" object"},
                {"{\"LogicalDrive\":[{\"raidLevel\":\"5\"}]}", "no \"logicalDriveID\""},
                {"{\"LogicalDrive\":[{\"logicalDriveID\":0,\"raidLevel\":\"5\",\"StripeSize\":-1}]}", "in KiB"},
                {"{\"LogicalDrive\":[{\"logicalDriveID\":0,\"raidLevel\":\"5\",\"StripeSize\":\"2x\"}]}", "in KiB"},
                {"{\"LogicalDrive\":[{\"logicalDriveID\":0,", "ends early"},
        };
        for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
                if (json(bad[i][0], &l, &err) != -EINVAL || !strstr(err, bad[i][1]))
                        fail_msg("\"%s\": \"%s\", want \"%s\"", bad[i][0], err ? err : "(none)", bad[i][1]);
                check_error(bad[i][0], err);
                assert_int_equal(l.n, 0);
                free(err);
                err = NULL;
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(field_table),      cmocka_unit_test(cut_at_every_line),
                cmocka_unit_test(garbled_line_by_line), cmocka_unit_test(member_deleted),
                cmocka_unit_test(strip_and_level_garbled), cmocka_unit_test(follow_up),
                cmocka_unit_test(sections),         cmocka_unit_test(members),
                cmocka_unit_test(json_shapes),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
