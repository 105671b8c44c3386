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

#include "ctl_field.h"

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

static bool same_geometry(const struct ctl_vd *a, const struct ctl_vd *b)
{
        return streq_ptr(a->controller, b->controller) && streq_ptr(a->vd, b->vd) && streq_ptr(a->level, b->level) &&
               a->strip_bytes == b->strip_bytes && a->drives_per_span == b->drives_per_span && a->spans == b->spans &&
               a->data_disks == b->data_disks && a->full_stripe_bytes == b->full_stripe_bytes;
}

static void same_ids(const char *what, const struct ctl_vd *a, const struct ctl_vd *b)
{
        const char *ha[] = {a->naa, a->os_name}, *hb[] = {b->naa, b->os_name};
        for (size_t i = 0; i < 2; i++)
                if (ha[i] && !streq_ptr(ha[i], hb[i]))
                        fail_msg("%s: identifier \"%s\", the full output says \"%s\"", what, ha[i], hb[i] ? hb[i] : "");
}

static const struct ctl_vd *find_vd(const struct ctl_list *l, const char *ctl, const char *vd)
{
        for (size_t i = 0; i < l->n; i++)
                if (streq_ptr(l->v[i].controller, ctl) && streq_ptr(l->v[i].vd, vd))
                        return &l->v[i];
        return NULL;
}

/* A JSON cut short is an error, unless the cut leaves the document whole
 * (then it is the whole output). */
static void check_prefix(const char *name, const struct ctl_list *full, const char *buf, size_t len, size_t whole)
{
        struct ctl_list l = {0};
        char *err = NULL;
        if (parse(buf, len, &l, &err) < 0) {
                free(err);
                return;
        }
        if (l.n != full->n || buf[len - 1] == ',' || len + 8 < whole)
                fail_msg("%s cut at byte %zu of %zu: taken, with %zu records", name, len, whole, l.n);
        for (size_t i = 0; i < l.n; i++)
                if (!same_geometry(&l.v[i], &full->v[i]))
                        fail_msg("%s cut at byte %zu: record %zu changed", name, len, i);
        ctl_list_free(&l);
}

static void check_garbled(const char *name, const struct ctl_list *full, const char *buf, size_t len, unsigned line)
{
        struct ctl_list l = {0};
        char *err = NULL;
        if (parse(buf, len, &l, &err) < 0) {
                free(err);
                return;
        }
        for (size_t i = 0; i < l.n; i++) {
                const struct ctl_vd *v = &l.v[i], *f = find_vd(full, v->controller, v->vd);
                char what[300];
                snprintf(what, sizeof what, "%s garbled at line %u: %s/%s", name, line, v->controller, v->vd);
                if (!f)
                        fail_msg("%s is not in the full output", what);
                if (!same_geometry(v, f) && (v->full_stripe_bytes || !v->note))
                        fail_msg("%s: %u data × %llu, the full output %u × %llu, and no note", what, v->data_disks,
                                 (unsigned long long)v->strip_bytes, f->data_disks,
                                 (unsigned long long)f->strip_bytes);
                same_ids(what, v, f);
        }
        ctl_list_free(&l);
}

/* Each line dropped; each line's value (after " : " or ": ") made a string
 * of no meaning. */
static void garble_all(const char *name, const struct ctl_list *full, const char *buf, size_t len)
{
        char *v = xmalloc(len + 16);
        size_t start = 0;
        for (unsigned k = 1; start < len; k++) {
                const char *nl = memchr(buf + start, '\n', len - start);
                size_t end = nl ? (size_t)(nl - buf) : len, after = nl ? end + 1 : len;
                memcpy(v, buf, start);
                memcpy(v + start, buf + after, len - after);
                check_garbled(name, full, v, len - (after - start), k);
                const char *colon = memmem(buf + start, end - start, "\" :", 3);
                size_t skip = 3;
                if (!colon) {
                        colon = memmem(buf + start, end - start, "\": ", 3);
                        skip = 2;
                }
                if (colon && !memchr(colon, '{', (size_t)(buf + end - colon)) &&
                    !memchr(colon, '[', (size_t)(buf + end - colon))) {
                        size_t at = (size_t)(colon - buf) + skip, o = at;
                        bool comma = end > start && buf[end - 1 - (buf[end - 1] == '\r')] == ',';
                        memcpy(v, buf, at);
                        memcpy(v + o, " \"x?#\"", 6);
                        o += 6;
                        if (comma)
                                v[o++] = ',';
                        memcpy(v + o, buf + end, len - end);
                        o += len - end;
                        check_garbled(name, full, v, o, k);
                }
                start = after;
        }
        free(v);
}

static void prefixes_and_garbled(void **state)
{
        (void)state;
        char dir[1024];
        ctl_field_dir("storcli", dir, sizeof dir);
        DIR *d = opendir(dir);
        assert_non_null(d);
        unsigned files = 0;
        for (struct dirent *e; (e = readdir(d));) {
                if (e->d_name[0] == '.' || !strstr(e->d_name, ".json"))
                        continue;
                char path[1400];
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                size_t len;
                char *buf = ctl_field_read(path, &len);
                struct ctl_list full = {0};
                char *err = NULL;
                if (parse(buf, len, &full, &err) == 0) {
                        for (size_t p = 64; p < len; p += 64)
                                check_prefix(e->d_name, &full, buf, p, len);
                        garble_all(e->d_name, &full, buf, len);
                        files++;
                }
                free(err);
                ctl_list_free(&full);
                free(buf);
        }
        closedir(d);
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
