/* SPDX-License-Identifier: GPL-2.0-or-later
 * The MegaCli readers (src/discover/ctl_megacli.c) on the field fixtures of
 * tests/fixtures/controller/field/megacli/ (layouts of public captures, our
 * own values, figures by hand in expected.tsv), every fixture cut at every
 * line, garbled line by line, and the cases no fixture shows: SCSI addresses
 * past channel 2, level codes the public record does not show, a PCI address
 * that contradicts the records. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "ctl_variants.h"

#define TOOL "megacli"

static char *field_file(const char *name, size_t *len)
{
        return ctl_field_file("megacli", name, len);
}

/* "ld+pci": the LD output named by arg, then this PCI output on its records. */
static int ld_then_pci(const char *buf, size_t len, const char *tool, const char *arg, struct ctl_list *l, char **err)
{
        size_t ld_len;
        char *ld = field_file(arg, &ld_len);
        int r = ctl_parse_megacli_ld(ld, ld_len, tool, NULL, l, err);
        free(ld);
        if (r == 0 && (r = ctl_parse_megacli_pci(buf, len, tool, NULL, l, err)) < 0)
                ctl_list_free(l); /* the table's runs start from an empty list */
        return r;
}

static const struct ctl_field_parser megacli_parsers[] = {
        { "ld", ctl_parse_megacli_ld, NULL, TOOL },
        { "pci", ctl_parse_megacli_pci, NULL, TOOL },
        { "ld+pci", ld_then_pci, NULL, TOOL },
        { "count", NULL, ctl_follow_megacli_count, TOOL },
        { 0 },
};

static void field_table(void **state)
{
        (void)state;
        assert_true(ctl_field_check("megacli", megacli_parsers) >= 20);
}

/* ---- cut and garbled ----------------------------------------------------------------- */

/* The fixtures a parser reads alone: the LD outputs. */
static bool ld_fixture(const char *name)
{
        return !strncmp(name, "ldinfo-", 7) || !strncmp(name, "ldpdinfo-", 9);
}

/* Each prefix ending at a line end: an error, or the full parse's first
 * records unchanged, SCSI and PCI addresses too (the parse never ends with a
 * changed figure); an error where the whole is one. */
static void cut_at_every_line(void **state)
{
        (void)state;
        static const struct ctl_cuts cuts = { 0, CTL_F_VD | CTL_F_GEOMETRY | CTL_F_STATE | CTL_F_ADDR | CTL_F_PCI, 0,
                                              NULL };
        char **names = ctl_field_fixtures("megacli", ld_fixture);
        for (size_t f = 0; names[f]; f++) {
                size_t len;
                struct ctl_outcome full;
                char *buf = ctl_whole("megacli", names[f], &megacli_parsers[0], NULL, &len, &full);
                ctl_cut_all(names[f], &megacli_parsers[0], NULL, buf, len, &full, &cuts);
                ctl_outcome_free(&full);
                free(buf);
        }
        strv_free(names);
}

/* A variant: an error, or the same records, each with the full parse's
 * geometry or an unknown one with a note; never a changed figure. An unknown
 * geometry stays unknown, but for the one line that made it so. */
static void check_variant(const struct ctl_variant *v, void *full)
{
        const struct ctl_keeps keeps = {
                .flags = CTL_K_ALL | (memmem(v->text, v->n, "Reconstruction", 14) ? CTL_K_GAINS : 0),
        };
        struct ctl_outcome o;
        ctl_run(v->what, &megacli_parsers[0], NULL, v->buf, v->len, &o);
        ctl_check_garbled(v->what, full, &o, &keeps);
        ctl_outcome_free(&o);
}

/* Every line deleted, doubled, replaced, its value garbled (the key kept). */
static void garbled_lines(void **state)
{
        (void)state;
        static const struct ctl_garbling how = { CTL_DELETED | CTL_DOUBLED | CTL_REPLACED | CTL_VALUE,
                                                 "garbled words\n", " x?garbled" };
        char **names = ctl_field_fixtures("megacli", ld_fixture);
        for (size_t f = 0; names[f]; f++) {
                size_t len;
                struct ctl_outcome full;
                char *buf = ctl_whole("megacli", names[f], &megacli_parsers[0], NULL, &len, &full);
                if (full.r == 0)
                        ctl_garble_lines(names[f], buf, len, &how, check_variant, &full);
                ctl_outcome_free(&full);
                free(buf);
        }
        strv_free(names);
}

/* ---- what no fixture shows -------------------------------------------------------------- */

static int parse_text(const char *text, struct ctl_list *l, char **err)
{
        return ctl_parse_megacli_ld(text, strlen(text), TOOL, NULL, l, err);
}

/* One LDInfo VD of an 8.x layout with the given header, level, drive line and depth. */
static char *one_vd(const char *header, const char *level, const char *drives, unsigned depth, const char *strip)
{
        return xasprintf("Adapter 0 -- Virtual Drive Information:\n%s\nName                :\n"
                         "RAID Level          : %s\nState               : Optimal\nStrip Size          : %s\n"
                         "%s\nSpan Depth          : %u\n\nExit Code: 0x00\n",
                         header, level, strip, drives, depth);
}

static void scsi_addresses(void **state)
{
        (void)state;
        static const struct {
                const char *header, *addr;
        } cases[] = {
                { "Virtual Drive: 0 (Target Id: 0)", "2:0:0" },   { "Virtual Drive: 5 (Target Id: 127)", "2:127:0" },
                { "Virtual Drive: 6 (Target Id: 128)", "3:0:0" }, { "Virtual Drive: 7 (Target Id: 255)", "3:127:0" },
                { "Virtual Disk: 3 (target id: 200)", "3:72:0" }, { "Virtual Drive: 9 (Target Id: 256)", NULL },
        };
        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                char *t = one_vd(cases[i].header, "Primary-1, Secondary-0, RAID Level Qualifier-0",
                                 "Number Of Drives    : 2", 1, "64 KB");
                struct ctl_list l = { 0 };
                char *err = NULL;
                assert_int_equal(parse_text(t, &l, &err), 0);
                assert_int_equal(l.n, 1);
                if (cases[i].addr)
                        assert_string_equal(l.v[0].scsi_addr, cases[i].addr);
                else {
                        assert_null(l.v[0].scsi_addr);
                        assert_non_null(strstr(l.v[0].note, "no SCSI address"));
                }
                assert_int_equal(l.v[0].full_stripe_bytes, 65536);
                ctl_list_free(&l);
                free(t);
        }
}

/* Level codes: the combinations the captures show, and the rest unknown. */
static void level_codes(void **state)
{
        (void)state;
        static const struct {
                const char *level, *drives, *want;
                unsigned depth, data;
        } cases[] = {
                { "Primary-0, Secondary-0, RAID Level Qualifier-0", "Number Of Drives    : 4", "raid0", 1, 4 },
                { "Primary-0, Secondary-3, RAID Level Qualifier-0", "Number Of Drives per span:2", "raid00", 2, 4 },
                { "Primary-1, Secondary-3, RAID Level Qualifier-0", "Number Of Drives per span:2", "raid10", 3, 3 },
                { "primary-5 , secondary-3 , raid level qualifier-3", "Number Of Drives per span:5", "raid50", 2, 8 },
                { "Primary-6, Secondary-0, RAID Level Qualifier-3", "Number Of Drives per span:6", "raid60", 3, 12 },
                /* a RAID1 of 3 is no layout storprov knows; DDF's RLQ 1 (three-way) and the rest: unknown */
                { "Primary-1, Secondary-0, RAID Level Qualifier-0", "Number Of Drives    : 3", "raid10", 1, 0 },
                { "Primary-1, Secondary-0, RAID Level Qualifier-1", "Number Of Drives    : 3", NULL, 1, 0 },
                { "Primary-5, Secondary-0, RAID Level Qualifier-0", "Number Of Drives    : 4", NULL, 1, 0 },
                { "Primary-5, Secondary-1, RAID Level Qualifier-3", "Number Of Drives    : 4", NULL, 1, 0 },
                { "Primary-17, Secondary-0, RAID Level Qualifier-0", "Number Of Drives    : 4", NULL, 1, 0 },
                { "RAID5", "Number Of Drives    : 4", NULL, 1, 0 },
        };
        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                char *t = one_vd("Virtual Drive: 0 (Target Id: 0)", cases[i].level, cases[i].drives, cases[i].depth,
                                 "64 KB");
                struct ctl_list l = { 0 };
                char *err = NULL;
                assert_int_equal(parse_text(t, &l, &err), 0);
                if (cases[i].want)
                        assert_string_equal(l.v[0].level, cases[i].want);
                else
                        assert_null(l.v[0].level);
                assert_int_equal(l.v[0].data_disks, cases[i].data);
                if (!cases[i].data)
                        assert_non_null(l.v[0].note);
                ctl_list_free(&l);
                free(t);
        }
}

static void strips_and_failures(void **state)
{
        (void)state;
        static const struct {
                const char *strip;
                uint64_t bytes;
        } strips[] = { { "64 KB", 65536 },     { "64kB", 65536 }, { "1.0 MB", 1048576 },
                       { "2.00 MB", 2097152 }, { "1.5 MB", 0 },   { "N/A", 0 } };
        for (size_t i = 0; i < ELEMENTSOF(strips); i++) {
                char *t = one_vd("Virtual Drive: 0 (Target Id: 0)", "Primary-0, Secondary-0, RAID Level Qualifier-0",
                                 "Number Of Drives    : 1", 1, strips[i].strip);
                struct ctl_list l = { 0 };
                char *err = NULL;
                int r = parse_text(t, &l, &err);
                if (strips[i].bytes) {
                        assert_int_equal(r, 0);
                        assert_int_equal(l.v[0].strip_bytes, strips[i].bytes);
                } else {
                        assert_int_equal(r, -EINVAL);
                        assert_non_null(strstr(err, "Strip Size"));
                }
                free(err);
                ctl_list_free(&l);
                free(t);
        }
        static const struct {
                const char *text, *err;
        } bad[] = {
                { "Adapter #0\n\nNumber of Virtual Disks: 0\n\nExit Code: 0x01\n", "Exit Code: 0x01" },
                { "Adapter 0: Get Virtual Drive Information Failed.\nExit Code: 0x00\n", "Failed" },
                { "Virtual Drive: 0 (Target Id: 0)\nExit Code: 0x00\n", "before any adapter" },
                { "Adapter #0\n\nExit Code: 0x00\n", "lists no virtual drive" },
                { "\r                                     \n", "empty" },
                { "Adapter #0\nNumber of Virtual Disks: 0\nAdapter #0\nExit Code: 0x00\n", "a second time" },
                { "Adapter 1 -- Virtual Drive Information: 4\nAdapter 1: No Virtual Drive Configured.\nExit Code: "
                  "0x00\n",
                  "neither" },
                { "Adapter #0\nNumber of Virtual Disks: 0\nExit Code: 0x00\nAdapter #1\n", "after \"Exit Code\"" },
        };
        for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
                struct ctl_list l = { 0 };
                char *err = NULL;
                assert_int_equal(parse_text(bad[i].text, &l, &err), -EINVAL);
                if (!strstr(err, bad[i].err))
                        fail_msg("case %zu: \"%s\" holds no \"%s\"", i, err, bad[i].err);
                assert_int_equal(l.n, 0);
                free(err);
        }
}

/* A failed parse takes back its own records only; a PCI output that fails
 * or contradicts the records leaves every record as it was. */
static void failures_keep_the_list(void **state)
{
        (void)state;
        size_t len, plen;
        char *ld = field_file("ldpdinfo-two-adapters.txt", &len);
        char *pci = field_file("pci-two-adapters.txt", &plen);
        struct ctl_list l = { 0 };
        char *err = NULL;
        assert_int_equal(ctl_parse_megacli_ld(ld, len, TOOL, NULL, &l, &err), 0);
        assert_int_equal(l.n, 2);
        assert_int_equal(ctl_parse_megacli_ld(ld, len / 2, TOOL, NULL, &l, &err), -EINVAL);
        assert_int_equal(l.n, 2);
        free(err);
        err = NULL;
        /* cut short: nothing set */
        assert_int_equal(ctl_parse_megacli_pci(pci, plen - 5, TOOL, NULL, &l, &err), -EINVAL);
        assert_null(l.v[0].pci);
        assert_null(l.v[1].pci);
        free(err);
        err = NULL;
        /* another tool's records are not touched */
        assert_int_equal(ctl_parse_megacli_pci(pci, plen, "perccli", NULL, &l, &err), 0);
        assert_null(l.v[0].pci);
        assert_int_equal(ctl_parse_megacli_pci(pci, plen, TOOL, NULL, &l, &err), 0);
        assert_string_equal(l.v[0].pci, "0000:3b:00.0");
        assert_string_equal(l.v[1].pci, "0000:d8:00.0");
        /* a second output that places controller 1 elsewhere: refused, nothing changed */
        const char *moved = "PCI information for Controller 0\n--------------------------------\n"
                            "Bus Number      : 3b\nDevice Number   : 0\nFunction Number : 0\n\n"
                            "PCI information for Controller 1\n--------------------------------\n"
                            "Bus Number      : 5e\nDevice Number   : 0\nFunction Number : 0\n\nExit Code: 0x00\n";
        assert_int_equal(ctl_parse_megacli_pci(moved, strlen(moved), TOOL, NULL, &l, &err), -EINVAL);
        assert_non_null(strstr(err, "already say 0000:d8:00.0"));
        assert_string_equal(l.v[1].pci, "0000:d8:00.0");
        free(err);
        ctl_list_free(&l);
        free(ld);
        free(pci);
}

static void pci_garbled(void **state)
{
        (void)state;
        static const struct {
                const char *text, *err;
        } bad[] = {
                { "PCI information for Controller 0\nBus Number      : 3g\nDevice Number   : 0\nFunction Number : 0\n"
                  "Exit Code: 0x00\n",
                  "not a PCI bus number" },
                { "PCI information for Controller 1\nBus Number      : 2\nDevice Number   : FF\nFunction Number : 0\n"
                  "Exit Code: 0x00\n",
                  "not a PCI device number" },
                { "PCI information for Controller 0\nBus Number      : 2\nDevice Number   : 0\nExit Code: 0x00\n",
                  "lacks one of" },
                { "PCI information for Controller 0\nBus Number      : 2\nDevice Number   : 0\nFunction Number : 0\n"
                  "Domain Number   : 1\nExit Code: 0x00\n",
                  "not a line MegaCli prints" },
                { "\r                                     \n\nExit Code: 0x00\n", "no \"PCI information" },
                { "PCI information for Controller 0\nBus Number      : 2\nDevice Number   : 0\nFunction Number : 0\n"
                  "PCI information for Controller 0\nBus Number      : 2\nDevice Number   : 0\nFunction Number : 0\n"
                  "Exit Code: 0x00\n",
                  "a second time" },
        };
        for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
                struct ctl_list l = { 0 };
                char *err = NULL;
                assert_int_equal(ctl_parse_megacli_pci(bad[i].text, strlen(bad[i].text), TOOL, NULL, &l, &err),
                                 -EINVAL);
                if (!strstr(err, bad[i].err))
                        fail_msg("case %zu: \"%s\" holds no \"%s\"", i, err, bad[i].err);
                free(err);
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(field_table),
                cmocka_unit_test(cut_at_every_line),
                cmocka_unit_test(garbled_lines),
                cmocka_unit_test(scsi_addresses),
                cmocka_unit_test(level_codes),
                cmocka_unit_test(strips_and_failures),
                cmocka_unit_test(failures_keep_the_list),
                cmocka_unit_test(pci_garbled),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
