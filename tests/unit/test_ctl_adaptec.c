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

#include "ctl_variants.h"

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

/* ---- cut and garbled ------------------------------------------------------------------- */

/* The text reader (arcconf_parsers[0]), or the JSON one ([1]) for a .json fixture. */
static const struct ctl_field_parser *parser_for(const char *name)
{
        size_t n = strlen(name);
        return &arcconf_parsers[n > 5 && !strcmp(name + n - 5, ".json")];
}

/* field/arcconf/<name>, and its whole parse for controller 1 in *full. */
static char *whole(const char *name, size_t *len, struct ctl_outcome *full)
{
        return ctl_whole("arcconf", name, parser_for(name), "1", len, full);
}

/* Each prefix ending at a line end: an error, or the whole parse's first
 * records unchanged, arcconf's own full stripe too; never a changed figure. */
static void cut_at_every_line(void **state)
{
        (void)state;
        static const struct ctl_cuts cuts = {
                0, CTL_F_VD | CTL_F_GEOMETRY | CTL_F_STATE | CTL_F_OS | CTL_F_NAA | CTL_F_REPORTED, 0, NULL};
        char **names = ctl_field_fixtures("arcconf", NULL);
        size_t parsed = 0;
        for (size_t f = 0; names[f]; f++) {
                size_t len;
                struct ctl_outcome full;
                char *buf = whole(names[f], &len, &full);
                if (full.r == 0) {
                        ctl_cut_all(names[f], parser_for(names[f]), "1", buf, len, &full, &cuts);
                        parsed++;
                }
                ctl_outcome_free(&full);
                free(buf);
        }
        assert_true(parsed >= 12);
        strv_free(names);
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

struct garbled {
        const char *name;
        const struct ctl_outcome *full;
};

/* A variant: an error, or the same records, each with the whole parse's
 * geometry or an unknown one with a note. A member line deleted is
 * member_deleted's (arcconf 1.x and 2.x print no count of them to check
 * against); a NUL byte before a line is always an error naming the byte. */
static void check_variant(const struct ctl_variant *v, void *ctx)
{
        const struct garbled *g = ctx;
        static const struct ctl_keeps keeps = {.flags = CTL_K_ALL};
        if (v->kind == CTL_DELETED && member_line(v->text, v->n))
                return;
        struct ctl_outcome o;
        ctl_run(v->what, parser_for(g->name), "1", v->buf, v->len, &o);
        if (v->kind == CTL_NUL_BEFORE && (o.r == 0 || !strstr(o.err, "byte 0x00")))
                fail_msg("%s: gives %d \"%s\"", v->what, o.r, o.err ? o.err : "(none)");
        ctl_check_garbled(v->what, g->full, &o, &keeps);
        ctl_outcome_free(&o);
}

/* Every line deleted, doubled, its value garbled; a NUL byte before each line of the text. */
static void garbled_line_by_line(void **state)
{
        (void)state;
        char **names = ctl_field_fixtures("arcconf", NULL);
        for (size_t f = 0; names[f]; f++) {
                size_t len;
                struct ctl_outcome full;
                char *buf = whole(names[f], &len, &full);
                const struct ctl_garbling how = {CTL_DELETED | CTL_DOUBLED | CTL_VALUE |
                                                         (strstr(names[f], ".txt") ? CTL_NUL_BEFORE : 0),
                                                 NULL, " x?garbled"};
                struct garbled g = {names[f], &full};
                if (full.r == 0)
                        ctl_garble_lines(names[f], buf, len, &how, check_variant, &g);
                ctl_outcome_free(&full);
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
        char **names = ctl_field_fixtures("arcconf", NULL);
        for (size_t f = 0; names[f]; f++) {
                size_t len, b;
                struct ctl_outcome full;
                char *buf = whole(names[f], &len, &full);
                for (size_t a = 0, line = 1; full.r == 0 && a < len; a = b, line++) {
                        b = ctl_line_end(buf, len, a);
                        if (!member_line(buf + a, b - a))
                                continue;
                        size_t vl;
                        char *v = ctl_splice(buf, len, a, b, "", 0, &vl), what[400];
                        snprintf(what, sizeof what, "%s line %zu deleted", names[f], line);
                        struct ctl_outcome o;
                        ctl_run(what, parser_for(names[f]), "1", v, vl, &o);
                        if (o.r == 0 && o.l.n != full.l.n)
                                fail_msg("%s: %zu records where the whole gives %zu", what, o.l.n, full.l.n);
                        for (size_t i = 0; o.r == 0 && i < o.l.n; i++) {
                                const struct ctl_vd *x = &o.l.v[i], *w = &full.l.v[i];
                                bool raid0 = streq_ptr(x->level, "raid0");
                                if (x->full_stripe_bytes && ctl_differs(x, w, CTL_F_GEOMETRY, 0) && !raid0)
                                        fail_msg("%s: LD %s gets %u data disks", what, x->vd, x->data_disks);
                        }
                        ctl_outcome_free(&o);
                        free(v);
                }
                ctl_outcome_free(&full);
                free(buf);
        }
        strv_free(names);
}

/* The fixture with one line's value replaced. */
static int parse_with(const char *name, const char *key, const char *value, struct ctl_list *l, char **err)
{
        size_t len;
        char *buf = ctl_field_file("arcconf", name, &len);
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
        char *err = NULL, got[1024];
        if (ctl_follow_arcconf(out, strlen(out), TOOL, id, &x, &err) < 0)
                fail_msg("\"%.40s\": %s", out, err);
        if (strcmp(ctl_field_nexts(&x, got, sizeof got), want))
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
        ctl_check_error("text_fails", TOOL, err);
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
                ctl_check_error(bad[i][0], TOOL, err);
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
