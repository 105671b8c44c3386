/* SPDX-License-Identifier: GPL-2.0-or-later
 * The Broadcom MegaRAID JSON readers (src/discover/ctl_broadcom.c: storcli,
 * perccli, storcli2, perccli2) on the field fixtures of
 * tests/fixtures/controller/field/storcli/ (layouts of public captures,
 * figures in expected.tsv), on every prefix of them cut each 64 bytes, on
 * garbled variants, and on the key spellings and layouts the versions use. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "ctl_variants.h"

static const struct ctl_field_parser parsers[] = {
        {"storcli", ctl_parse_storcli, NULL, "storcli"},
        {"perccli", ctl_parse_storcli, NULL, "perccli"},
        {"storcli2", ctl_parse_storcli2, NULL, "storcli2"},
        {"perccli2", ctl_parse_storcli2, NULL, "perccli2"},
        {0},
};

static void field_table(void **state)
{
        (void)state;
        assert_true(ctl_field_check("storcli", parsers) >= 6);
}

static int parse(const char *buf, size_t len, struct ctl_list *l, char **err)
{
        return ctl_parse_storcli(buf, len, "storcli", NULL, l, err);
}

/* ---- prefixes and garbled variants ----------------------------------------- */

/* A JSON cut short is an error, unless the cut leaves the document whole
 * (then it is the whole output). */
static void json_cut(const char *what, const char *buf, size_t len, size_t whole, const struct ctl_outcome *cut,
                     const struct ctl_outcome *full)
{
        if (cut->r == 0 && (cut->l.n != full->l.n || (len && buf[len - 1] == ',') || len + 8 < whole))
                fail_msg("%s of %zu: taken, with %zu records", what, whole, cut->l.n);
}

/* A garbled output fails, or each record is the whole output's, or says its
 * geometry is unknown and why. */
static void check_garbled(const struct ctl_variant *v, void *full)
{
        static const struct ctl_keeps keeps = {.ids = CTL_F_NAA | CTL_F_OS};
        struct ctl_outcome o;
        ctl_run(v->what, &parsers[0], NULL, v->buf, v->len, &o);
        ctl_check_garbled(v->what, full, &o, &keeps);
        ctl_outcome_free(&o);
}

/* Each line dropped; each line's value (after " : " or ": ") made a string
 * of no meaning. */
static void garble_all(const char *name, const char *buf, size_t len, struct ctl_outcome *full)
{
        static const struct ctl_garbling how = {CTL_DELETED, NULL, NULL};
        ctl_garble_lines(name, buf, len, &how, check_garbled, full);
        size_t b;
        for (size_t a = 0, line = 1; a < len; a = b, line++) {
                b = ctl_line_end(buf, len, a);
                size_t end = b - (buf[b - 1] == '\n'), skip = 3;
                const char *colon = memmem(buf + a, end - a, "\" :", 3);
                if (!colon) {
                        colon = memmem(buf + a, end - a, "\": ", 3);
                        skip = 2;
                }
                if (!colon || memchr(colon, '{', (size_t)(buf + end - colon)) ||
                    memchr(colon, '[', (size_t)(buf + end - colon)))
                        continue;
                bool comma = end > a && buf[end - 1 - (buf[end - 1] == '\r')] == ',';
                size_t vl;
                char *v = ctl_splice(buf, len, (size_t)(colon - buf) + skip, end, " \"x?#\",", comma ? 7 : 6, &vl);
                char what[400];
                snprintf(what, sizeof what, "%s line %zu value garbled (\"%.*s\")", name, line,
                         (int)(end - a > 48 ? 48 : end - a), buf + a);
                const struct ctl_variant var = {what, line, CTL_VALUE, buf + a, end - a, v, vl};
                check_garbled(&var, full);
                free(v);
        }
}

static bool json_fixture(const char *name)
{
        return strstr(name, ".json");
}

static void prefixes_and_garbled(void **state)
{
        (void)state;
        static const struct ctl_cuts cuts = {64, CTL_F_VD | CTL_F_GEOMETRY | CTL_F_STATE | CTL_F_NAA | CTL_F_OS, 0,
                                             json_cut};
        char **names = ctl_field_fixtures("storcli", json_fixture);
        unsigned files = 0;
        for (size_t f = 0; names[f]; f++) {
                size_t len;
                struct ctl_outcome full;
                char *buf = ctl_whole("storcli", names[f], &parsers[0], NULL, &len, &full);
                if (full.r == 0) {
                        ctl_cut_all(names[f], &parsers[0], NULL, buf, len, &full, &cuts);
                        garble_all(names[f], buf, len, &full);
                        files++;
                }
                ctl_outcome_free(&full);
                free(buf);
        }
        strv_free(names);
        assert_true(files >= 4);
}

/* ---- spellings and layouts ----------------------------------------------------- */

static void expect(const char *json, size_t n, const char *level, unsigned per, unsigned spans, uint64_t full)
{
        struct ctl_list l = {0};
        char *err = NULL;
        if (ctl_parse_storcli2(json, strlen(json), "storcli2", NULL, &l, &err) < 0)
                fail_msg("%s", err);
        assert_int_equal(l.n, n);
        if (n) {
                if (level)
                        assert_string_equal(l.v[0].level, level);
                else
                        assert_null(l.v[0].level);
                assert_int_equal(l.v[0].drives_per_span, per);
                assert_int_equal(l.v[0].spans, spans);
                assert_int_equal(l.v[0].full_stripe_bytes, full);
                if (!full)
                        assert_non_null(l.v[0].note);
        }
        ctl_list_free(&l);
}

static void expect_fail(const char *json, const char *words)
{
        struct ctl_list l = {0};
        char *err = NULL;
        assert_int_equal(parse(json, strlen(json), &l, &err), -EINVAL);
        if (!strstr(err, words))
                fail_msg("\"%s\" not in: %s", words, err);
        assert_int_equal(l.n, 0);
        free(err);
}

#define CS(st, desc)                                                                                                 \
        "{\"Controllers\":[{\"Command Status\":{\"Controller\":0,\"Status\":\"" st "\",\"Description\":\"" desc "\"}"
#define V1(row, props) CS("Success", "None") ",\"Response Data\":{\"/c0/v0\":[" row "],\"VD0 Properties\":" props "}}]}"
#define ROW(type) "{\"DG/VD\":\"0/0\",\"TYPE\":\"" type "\",\"State\":\"Optl\"}"

/* Keys in any case and with any run of blanks; both layouts from both tools. */
static void keys_any_case(void **state)
{
        (void)state;
        expect(V1(ROW("RAID5"), "{\"Strip size\":\"128 KB\",\"Span depth\":1,\"Number of Drives per span\":5}"), 1,
               "raid5", 5, 1, 512 * 1024);
        expect(V1(ROW("RAID50"), "{\"STRIP SIZE\":\"64 KB\",\"Span  Depth\":2,\"Number Of Drives Per Span\":\"4\"}"), 1,
               "raid50", 4, 2, 6 * 64 * 1024);
        expect("{\"controllers\":[{\"command status\":{\"controller\":\"1\",\"status\":\"success\"},"
               "\"response data\":{\"virtual drives\":[{\"vd info\":{\"dg/vd\":\"0/4\",\"type\":\"RAID6\","
               "\"state\":\"Optl\"},\"vd properties\":{\"strip size\":\"256 KiB\",\"span depth\":1,"
               "\"number of drives\":8}}]}}]}",
               1, "raid6", 8, 1, 6 * 256 * 1024);
        /* RAID00, RAID60, and MegaRAID's RAID1 of four drives, which is a RAID10 */
        expect(V1(ROW("RAID00"), "{\"Strip Size\":\"1 MB\",\"Span Depth\":2,\"Number of Drives Per Span\":3}"), 1,
               "raid00", 3, 2, 6 << 20);
        expect(V1(ROW("RAID60"), "{\"Strip Size\":\"64 KB\",\"Span Depth\":2,\"Number of Drives Per Span\":6}"), 1,
               "raid60", 6, 2, 8 * 64 * 1024);
        expect(V1(ROW("RAID1"), "{\"Strip Size\":\"64 KB\",\"Span Depth\":1,\"Number of Drives Per Span\":4}"), 1,
               "raid10", 4, 1, 2 * 64 * 1024);
        /* a level storprov does not know: geometry unknown, with a note */
        expect(V1(ROW("RAID000"), "{\"Strip Size\":\"64 KB\",\"Span Depth\":2,\"Number of Drives Per Span\":4}"), 1,
               NULL, 4, 2, 0);
        /* "/cX/vY show J" without "all": bare rows, no properties */
        expect(CS("Success", "None") ",\"Response Data\":{\"Virtual Drives\":[" ROW("RAID1") "]}}]}", 1, "raid1", 0, 0,
               0);
}

static void structures(void **state)
{
        (void)state;
        /* the tool's own words for "none" */
        expect(CS("Success", "No VD's have been configured.") "}]}", 0, NULL, 0, 0, 0);
        expect("{\"Controllers\":[{\"Command Status\":{\"Status\":\"Failure\",\"Description\":\"No Controller "
               "found\"}}]}",
               0, NULL, 0, 0, 0);
        expect(CS("Failure", "Un-supported command") "}]}", 0, NULL, 0, 0, 0);
        /* other failures are errors */
        expect_fail(CS("Failure", "Controller 0 not found") "}]}", "the command failed: \"Controller 0 not found\"");
        /* a success that holds no VD and says nothing */
        expect_fail(CS("Success", "None") ",\"Response Data\":{\"Basics\":{}}}]}", "the response holds no VD");
        /* a VD of another controller, a row that names another VD */
        expect_fail(CS("Success", "None") ",\"Response Data\":{\"/c1/v0\":[" ROW("RAID1") "]}}]}",
                    "a VD of controller 1 in controller 0's response");
        expect_fail(CS("Success", "None") ",\"Response Data\":{\"/c0/v3\":[" ROW("RAID1") "]}}]}",
                    "does not name VD 3");
        /* one controller twice */
        expect_fail("{\"Controllers\":[{\"Command Status\":{\"Controller\":0,\"Status\":\"Success\"},\"Response "
                    "Data\":{\"Virtual Drives\":[" ROW("RAID1") "]}},{\"Command Status\":{\"Controller\":0,\"Status\":"
                    "\"Success\"},\"Response Data\":{\"Virtual Drives\":[" ROW("RAID1") "]}}]}",
                    "VD 0 of controller 0 a second time");
        /* the same key twice in one object, which json-c would fold into one */
        expect_fail(CS("Success", "None") ",\"Response Data\":{\"/c0/v0\":[" ROW("RAID1") "],\"/c0/v0\" :[" ROW(
                        "RAID5") "]}}]}",
                    "\"/c0/v0\" twice");
        expect_fail("{\"Controllers\":[]}", "empty \"Controllers\"");
        expect_fail("\xef\xbb\xbf{\"Controllers\":", "ends early");
        expect_fail(V1(ROW("RAID5"), "{\"Strip Size\":256,\"Span Depth\":1,\"Number of Drives Per Span\":5}"),
                    "\"Strip Size\" is \"256\"");
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(field_table),
                cmocka_unit_test(prefixes_and_garbled),
                cmocka_unit_test(keys_any_case),
                cmocka_unit_test(structures),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
