/* SPDX-License-Identifier: GPL-2.0-or-later
 * The HPE Smart Array reader (src/discover/ctl_hpe.c) on the field fixtures
 * of tests/fixtures/controller/field/ssacli/ (ssacli, hpssacli and hpacucli
 * in the layouts public captures show, figures in expected.tsv), on every
 * prefix of them cut at a line boundary, on garbled variants, and on the
 * spellings no capture shows but the keys' rule allows (any case, blanks). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "ctl_field.h"

static const struct ctl_field_parser parsers[] = {
        {"ssacli", ctl_parse_ssacli, NULL, "ssacli"},
        {"hpssacli", ctl_parse_ssacli, NULL, "hpssacli"},
        {"hpacucli", ctl_parse_ssacli, NULL, "hpacucli"},
        {0},
};

static void field_table(void **state)
{
        (void)state;
        assert_true(ctl_field_check("ssacli", parsers) >= 8);
}

/* ---- prefixes and garbled variants ----------------------------------------- */

static int parse(const char *buf, size_t len, struct ctl_list *l, char **err)
{
        return ctl_parse_ssacli(buf, len, "ssacli", NULL, l, err);
}

/* The figures of a record that a reader must never change: the drive, its
 * level and geometry. */
static bool same_geometry(const struct ctl_vd *a, const struct ctl_vd *b)
{
        return streq_ptr(a->controller, b->controller) && streq_ptr(a->vd, b->vd) && streq_ptr(a->level, b->level) &&
               a->strip_bytes == b->strip_bytes && a->drives_per_span == b->drives_per_span && a->spans == b->spans &&
               a->data_disks == b->data_disks && a->full_stripe_bytes == b->full_stripe_bytes;
}

/* An identifier a record carries is the full parse's, never another. */
static void same_ids(const char *what, const struct ctl_vd *a, const struct ctl_vd *b)
{
        const char *ha[] = {a->naa, a->os_name, a->pci}, *hb[] = {b->naa, b->os_name, b->pci};
        for (size_t i = 0; i < 3; i++)
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

/* A prefix fails, or gives the full parse's first records, figure for figure. */
static void check_prefix(const char *name, const struct ctl_list *full, const char *buf, size_t len)
{
        struct ctl_list l = {0};
        char *err = NULL;
        if (parse(buf, len, &l, &err) < 0) {
                free(err);
                return;
        }
        if (l.n > full->n)
                fail_msg("%s cut at byte %zu: %zu records, the whole output %zu", name, len, l.n, full->n);
        for (size_t i = 0; i < l.n; i++) {
                char what[300];
                snprintf(what, sizeof what, "%s cut at byte %zu, record %zu", name, len, i);
                if (!same_geometry(&l.v[i], &full->v[i]) || !streq_ptr(l.v[i].state, full->v[i].state))
                        fail_msg("%s: %s/%s %s %u×%llu is not the full output's", what, l.v[i].controller, l.v[i].vd,
                                 l.v[i].level ? l.v[i].level : "-", l.v[i].data_disks,
                                 (unsigned long long)l.v[i].strip_bytes);
                same_ids(what, &l.v[i], &full->v[i]);
        }
        ctl_list_free(&l);
}

/* A garbled output fails, or each record is the full output's, or says its
 * geometry is unknown and why. */
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

/* Line k (from 1) of buf: its start and length, without the newline. */
static bool nth_line(const char *buf, size_t len, unsigned k, size_t *start, size_t *n)
{
        size_t p = 0;
        for (unsigned i = 1; i < k; i++) {
                const char *nl = memchr(buf + p, '\n', len - p);
                if (!nl)
                        return false;
                p = (size_t)(nl - buf) + 1;
        }
        if (p >= len)
                return false;
        const char *nl = memchr(buf + p, '\n', len - p);
        *start = p;
        *n = nl ? (size_t)(nl - buf) - p : len - p;
        return true;
}

/* Each line dropped, and each line's value (after its first ':') replaced. */
static void garble_all(const char *name, const struct ctl_list *full, const char *buf, size_t len)
{
        char *v = xmalloc(len + 16);
        size_t start, n;
        for (unsigned k = 1; nth_line(buf, len, k, &start, &n); k++) {
                size_t after = start + n + (start + n < len);
                memcpy(v, buf, start);
                memcpy(v + start, buf + after, len - after);
                check_garbled(name, full, v, len - (after - start), k);
                const char *colon = memchr(buf + start, ':', n);
                if (!colon)
                        continue;
                size_t at = (size_t)(colon - buf) + 1, o = 0;
                memcpy(v, buf, at);
                o = at;
                memcpy(v + o, " x?#", 4);
                o += 4;
                memcpy(v + o, buf + start + n, len - start - n);
                o += len - start - n;
                check_garbled(name, full, v, o, k);
        }
        free(v);
}

static void prefixes_and_garbled(void **state)
{
        (void)state;
        char dir[1024];
        ctl_field_dir("ssacli", dir, sizeof dir);
        DIR *d = opendir(dir);
        assert_non_null(d);
        unsigned files = 0;
        for (struct dirent *e; (e = readdir(d));) {
                if (e->d_name[0] == '.' || !strstr(e->d_name, ".txt"))
                        continue;
                char path[1400];
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                size_t len;
                char *buf = ctl_field_read(path, &len);
                struct ctl_list full = {0};
                char *err = NULL;
                if (parse(buf, len, &full, &err) == 0) {
                        for (size_t p = 0; p <= len; p++)
                                if (p == len || buf[p] == '\n')
                                        check_prefix(e->d_name, &full, buf, p == len ? p : p + 1);
                        garble_all(e->d_name, &full, buf, len);
                        files++;
                }
                free(err);
                ctl_list_free(&full);
                free(buf);
        }
        closedir(d);
        assert_true(files >= 8);
}

/* ---- spellings and structures ------------------------------------------------ */

static void expect_records(const char *text, size_t n, const char *level, uint64_t full)
{
        struct ctl_list l = {0};
        char *err = NULL;
        if (parse(text, strlen(text), &l, &err) < 0)
                fail_msg("%s", err);
        assert_int_equal(l.n, n);
        if (n) {
                if (level)
                        assert_string_equal(l.v[0].level, level);
                assert_int_equal(l.v[0].full_stripe_bytes, full);
        }
        ctl_list_free(&l);
}

static void expect_fail(const char *text, const char *words)
{
        struct ctl_list l = {0};
        char *err = NULL;
        assert_int_equal(parse(text, strlen(text), &l, &err), -EINVAL);
        if (!strstr(err, words))
                fail_msg("\"%s\" not in: %s", words, err);
        assert_int_equal(l.n, 0);
        free(err);
}

#define CTL "Smart Array P440ar in Slot 0 (Embedded)\n   Slot: 0\n\n"
#define PD "\n      physicaldrive 1I:1:1\n         Status: OK\n"

/* Keys in any case and with any run of blanks. */
static void keys_any_case(void **state)
{
        (void)state;
        expect_records(CTL "   ARRAY: A\n      Logical  drive: 1\n         FAULT TOLERANCE: 5\n"
                           "         strip size: 64 KB\n         Full  Stripe  Size: 128 KB\n"
                           "         status: OK\n" PD,
                       1, "raid5", 128 * 1024);
        /* hpacucli's older name of the strip */
        expect_records(CTL "   Array: A\n      Logical Drive: 1\n         Fault Tolerance: RAID 6 (ADG)\n"
                           "         Stripe Size: 64 KB\n         Full Stripe Size: 256 KB\n         Status: OK\n" PD,
                       1, "raid6", 256 * 1024);
}

/* Every level spelling the versions print. */
static void levels(void **state)
{
        (void)state;
        static const struct {
                const char *ft, *level;
                unsigned full_kib;
        } t[] = {
                {"0", "raid0", 256},           {"1", "raid1", 256},            {"1+0", "raid10", 512},
                {"RAID 1(+0)", "raid10", 512}, {"5", "raid5", 512},            {"RAID 5", "raid5", 512},
                {"6", "raid6", 512},           {"RAID 6 (ADG)", "raid6", 512}, {"1ADM", "raid1-triple", 256},
                {"1+0ADM", "raid10-triple", 512},
        };
        for (size_t i = 0; i < ELEMENTSOF(t); i++) {
                char *text = xasprintf(CTL "   Array: A\n      Logical Drive: 1\n         Fault Tolerance: %s\n"
                                           "         Strip Size: 256 KB\n         Full Stripe Size: %u KB\n"
                                           "         Status: OK\n" PD,
                                       t[i].ft, t[i].full_kib);
                expect_records(text, 1, t[i].level, (uint64_t)t[i].full_kib * 1024);
                free(text);
        }
        /* RAID 50 and 60: the tool's full stripe is one parity group's */
        expect_records(CTL "   Array: A\n      Logical Drive: 1\n         Fault Tolerance: 60\n"
                           "         Number of Parity Groups: 3\n         Strip Size: 128 KB\n"
                           "         Full Stripe Size: 512 KB\n         Status: OK\n" PD,
                       1, "raid60", 3 * 512 * 1024);
        /* a RAID 1 of four drives (the tool says 1+0 for those): no figure */
        expect_records(CTL "   Array: A\n      Logical Drive: 1\n         Fault Tolerance: 1\n"
                           "         Strip Size: 128 KB\n         Full Stripe Size: 256 KB\n         Status: OK\n" PD,
                       1, "raid1", 0);
}

/* Where a logical drive's block ends, and what is an error. */
static void sections(void **state)
{
        (void)state;
        /* a physical drive's Status is not the logical drive's */
        expect_fail(CTL "   Array: A\n      Logical Drive: 1\n         Fault Tolerance: 5\n" PD,
                    "logical drive 1 (line 5) ends without");
        /* nor an enclosure's, however indented */
        expect_fail(CTL "   Array: A\n      Logical Drive: 1\n         Fault Tolerance: 5\n"
                        "         SEP (Vendor ID HP, Model Smart Adapter) 379\n         Status: OK\n",
                    "ends without");
        /* the member lists and their drives belong to the logical drive, misplaced or not */
        expect_records(CTL "   Array: A\n      Logical Drive: 1\n         Fault Tolerance: 1+0\n"
                           "         Strip Size: 256 KB\n         Status: OK\n         Mirror Group 0:\n"
                           "      physicaldrive 1I:1:1 (port 1I:box 1:bay 1, SAS, 600 GB, OK)\n"
                           "      physicaldrive 1I:1:2 (port 1I:box 1:bay 2, SAS, 600 GB, OK)\n"
                           "         Mirror Group 1:\n"
                           "      physicaldrive 1I:1:3 (port 1I:box 1:bay 3, SAS, 600 GB, OK)\n"
                           "      physicaldrive 1I:1:4 (port 1I:box 1:bay 4, SAS, 600 GB, OK)\n" PD,
                       1, "raid10", 512 * 1024);
        /* groups of different sizes: no figure */
        expect_records(CTL "   Array: A\n      Logical Drive: 1\n         Fault Tolerance: 50\n"
                           "         Strip Size: 256 KB\n         Status: OK\n         Parity Group 0:\n"
                           "            physicaldrive 1I:1:1 (port 1I:box 1:bay 1, SAS, 600 GB, OK)\n"
                           "            physicaldrive 1I:1:2 (port 1I:box 1:bay 2, SAS, 600 GB, OK)\n"
                           "            physicaldrive 1I:1:3 (port 1I:box 1:bay 3, SAS, 600 GB, OK)\n"
                           "         Parity Group 1:\n"
                           "            physicaldrive 1I:1:4 (port 1I:box 1:bay 4, SAS, 600 GB, OK)\n"
                           "            physicaldrive 1I:1:5 (port 1I:box 1:bay 5, SAS, 600 GB, OK)\n" PD,
                       1, "raid50", 0);
        /* a field printed twice: two drives run together */
        expect_fail(CTL "   Array: A\n      Logical Drive: 1\n         Fault Tolerance: 5\n         Status: OK\n"
                        "         Unique Identifier: 600508B1001C5B3F1E2D3C4B5A697801\n"
                        "         Unique Identifier: 600508B1001C5B3F1E2D3C4B5A697802\n" PD,
                    "a second time in logical drive 1");
        /* a controller line lost: the next controller's drives would be the first's */
        expect_fail(CTL "   Array: A\n      Logical Drive: 1\n         Fault Tolerance: 5\n         Status: OK\n" PD
                        "\n   Slot: 3\n",
                    "a controller line is lost");
        /* cut inside the controller's own lines */
        expect_fail(CTL "   Bus Interface: PCI\n", "lists no logical drive and no unassigned drive");
        /* not the tool's output at all */
        expect_fail("{\n  \"Controllers\": []\n}\n", "no controller line");
        expect_fail("", "empty");
        expect_fail("\nError: No controllers detected.\n" CTL "   array A\n      logicaldrive 1 (1 TB, RAID 0, OK)\n",
                    "says there is none");
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(field_table),   cmocka_unit_test(prefixes_and_garbled),
                cmocka_unit_test(keys_any_case), cmocka_unit_test(levels),
                cmocka_unit_test(sections),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
