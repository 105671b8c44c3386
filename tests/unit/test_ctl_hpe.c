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

#include "ctl_variants.h"

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

/* A record keeps the drive, its level, geometry and (in a prefix) state; an
 * identifier it carries is the whole output's, never another. */
static const struct ctl_cuts cuts = {0, CTL_F_VD | CTL_F_GEOMETRY | CTL_F_STATE, CTL_F_NAA | CTL_F_OS | CTL_F_PCI, NULL};
static const struct ctl_keeps keeps = {.ids = CTL_F_NAA | CTL_F_OS | CTL_F_PCI};

static void check_garbled(const struct ctl_variant *v, void *full)
{
        struct ctl_outcome o;
        ctl_run(v->what, &parsers[0], NULL, v->buf, v->len, &o);
        ctl_check_garbled(v->what, full, &o, &keeps);
        ctl_outcome_free(&o);
}

static bool txt_fixture(const char *name)
{
        return strstr(name, ".txt");
}

/* Every prefix cut at a line end; each line dropped, and each line's value
 * (after its first ':') replaced. */
static void prefixes_and_garbled(void **state)
{
        (void)state;
        static const struct ctl_garbling how = {CTL_DELETED | CTL_VALUE, NULL, " x?#"};
        char **names = ctl_field_fixtures("ssacli", txt_fixture);
        unsigned files = 0;
        for (size_t f = 0; names[f]; f++) {
                size_t len;
                struct ctl_outcome full;
                char *buf = ctl_whole("ssacli", names[f], &parsers[0], NULL, &len, &full);
                if (full.r == 0) {
                        ctl_cut_all(names[f], &parsers[0], NULL, buf, len, &full, &cuts);
                        ctl_garble_lines(names[f], buf, len, &how, check_garbled, &full);
                        files++;
                }
                ctl_outcome_free(&full);
                free(buf);
        }
        strv_free(names);
        assert_true(files >= 8);
}

/* ---- spellings and structures ------------------------------------------------ */

static int parse(const char *buf, size_t len, struct ctl_list *l, char **err)
{
        return ctl_parse_ssacli(buf, len, "ssacli", NULL, l, err);
}

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
