/* SPDX-License-Identifier: GPL-2.0-or-later
 * Which disk a controller record is (src/discover/controller.c ctl_match) by
 * what the legacy tools print instead of a WWN: the unit serial (tw_cli) and
 * the SCSI address under the controller (MegaCli's target id, with the
 * adapter's PCI address when printed); and two records that describe one disk
 * differently (two tools, two controllers). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "discover/controller.h"

#define KiB UINT64_C(1024)

static struct ctl_vd rec(const char *tool, const char *ctl, const char *serial, const char *addr, const char *pci)
{
        return (struct ctl_vd){.tool = xstrdup(tool), .controller = xstrdup(ctl), .vd = xstrdup("0"),
                               .serial = serial ? xstrdup(serial) : NULL, .scsi_addr = addr ? xstrdup(addr) : NULL,
                               .pci = pci ? xstrdup(pci) : NULL, .state = xstrdup("optimal")};
}

/* Frees what ctl_match and rec() allocated in a stack array of records. */
static void free_recs(struct ctl_vd *v, size_t n)
{
        struct ctl_list l = {.v = xmalloc(n * sizeof *v), .n = n};
        memcpy(l.v, v, n * sizeof *v);
        ctl_list_free(&l);
}

static const struct blockdev disks[] = {
        {.name = (char *)"sda", .id_path = (char *)"pci-0000:00:17.0-ata-1", .serial = (char *)"S45PNA0M598877"},
        /* 3ware units: the unit serial is the disk's serial (VPD page 0x80) */
        {.name = (char *)"sdb", .id_path = (char *)"pci-0000:02:00.0-scsi-0:0:0:0", .serial = (char *)"3QF0RHGB2B8EE7003C11"},
        {.name = (char *)"sdc", .id_path = (char *)"pci-0000:02:00.0-scsi-0:0:1:0", .serial = (char *)"3QF0RHGB2B8EE7003C12"},
        /* two MegaRAID adapters, each with its VD target 0 at channel 2; the second behind a bridge */
        {.name = (char *)"sdd", .id_path = (char *)"pci-0000:03:00.0-scsi-0:2:0:0"},
        {.name = (char *)"sde", .id_path = (char *)"pci-0000:80:01.0-pci-0000:81:00.0-scsi-0:2:0:0"},
        {.name = (char *)"sdf", .id_path = (char *)"pci-0000:03:00.0-scsi-0:2:1:0", .serial = (char *)"X1"},
        /* a 9550SX unit as udev names it: the T10 vendor id before the unit serial */
        {.name = (char *)"sdh", .id_path = (char *)"pci-0000:05:00.0-scsi-0:0:0:0", .serial = (char *)"AMCC_9QJ2NQ5Y0000C4A8D4B8",
         .id_serial = (char *)"1AMCC_9QJ2NQ5Y0000C4A8D4B8"},
        {.name = (char *)"sdi", .id_serial = (char *)"1AMCC_ZZ0000000000000001"},
        /* a 9650SE unit with an NAA: ID_SERIAL is the WWN, the unit serial is in ID_SCSI_SERIAL */
        {.name = (char *)"sdj", .serial = (char *)"600050e065bd3300a1c20000c3e80000",
         .id_serial = (char *)"3600050e065bd3300a1c20000c3e80000", .unit_serial = (char *)"3QF0B7KM5A4E6F00A2C1"},
        /* an HBA's disk: a SAS path, no "-scsi-" part */
        {.name = (char *)"sdg", .id_path = (char *)"pci-0000:3b:00.0-sas-exp0x500304801f3ce03f-phy0-lun-0"},
};
static const struct sysinfo si = {.devs = (struct blockdev *)disks, .n_devs = sizeof disks / sizeof disks[0]};

static void by_serial_and_address(void **state)
{
        (void)state;
        struct ctl_vd v[] = {
                rec("tw_cli", "c0", "3QF0RHGB2B8EE7003C12", NULL, NULL),
                rec("tw_cli", "c0", "3QF0RHGB2B8EE7003C12", "0:1:0", NULL),
                rec("megacli", "1", NULL, "2:0:0", "0000:81:00.0"),
                rec("megacli", "0", NULL, "2:0:0", "0000:03:00.0"),
                /* no PCI address: target 0 is under both adapters */
                rec("megacli", "0", NULL, "2:0:0", NULL),
                /* one adapter only has target 1 */
                rec("megacli", "0", NULL, "2:1:0", NULL),
                /* the serial says sdf, the address sdd */
                rec("megacli", "0", "X1", "2:0:0", "0000:03:00.0"),
                rec("tw_cli", "c1", "NOSUCHSERIAL", NULL, NULL),
                rec("megacli", "0", NULL, "2:9:0", "0000:3B:00.0"),
                rec("tw_cli", "c0", "9QJ2NQ5Y0000C4A8D4B8", "0:0:0", NULL),
                rec("tw_cli", "c0", "ZZ0000000000000001", NULL, NULL),
                /* never a part of a serial */
                rec("tw_cli", "c0", "9QJ2NQ5Y0000C4A8", NULL, NULL),
                /* several at 2:0:0, and the serial names a disk that is not one of them */
                rec("megacli", "0", "X1", "2:0:0", NULL),
                rec("tw_cli", "c0", "3QF0B7KM5A4E6F00A2C1", NULL, NULL),
        };
        static const struct {
                const char *device, *by, *note;
        } want[] = {
                {"sdc", "serial", NULL},
                {"sdc", "serial", NULL},
                {"sde", "scsi-address", NULL},
                {"sdd", "scsi-address", NULL},
                {NULL, NULL, "SCSI address 2:0:0 is that of several disks (sdd, sde, ...)"},
                {"sdf", "scsi-address", NULL},
                {NULL, NULL, "serial X1 is sdf but SCSI address 2:0:0 is sdd: device left unmatched"},
                {NULL, NULL, "no disk has serial NOSUCHSERIAL: device unknown"},
                {NULL, NULL, "no disk has SCSI address 2:9:0: device unknown"},
                /* 0:0:0 is also sdb's place on another controller: the serial says which */
                {"sdh", "serial", NULL},
                {"sdi", "serial", NULL},
                {NULL, NULL, "no disk has serial 9QJ2NQ5Y0000C4A8: device unknown"},
                {NULL, NULL, "SCSI address 2:0:0 is that of several disks (sdd, sde, ...), none of them sdf"},
                {"sdj", "serial", NULL},
        };
        struct ctl_list l = {.v = v, .n = sizeof v / sizeof v[0]};
        ctl_match(&l, &si);
        for (size_t i = 0; i < l.n; i++) {
                if (!streq_ptr(l.v[i].device, want[i].device) || !streq_ptr(l.v[i].matched_by, want[i].by))
                        fail_msg("record %zu: device %s by %s, want %s by %s", i, l.v[i].device, l.v[i].matched_by,
                                 want[i].device, want[i].by);
                if (want[i].note ? !l.v[i].note || !strstr(l.v[i].note, want[i].note)
                                 : l.v[i].note && !strstr(l.v[i].note, "conflict"))
                        fail_msg("record %zu: note \"%s\", want \"%s\"", i, l.v[i].note, want[i].note);
        }
        free_recs(v, l.n);
}

static struct ctl_vd geo(const char *tool, const char *serial, const char *level, uint64_t strip, unsigned data)
{
        struct ctl_vd v = rec(tool, "0", serial, NULL, NULL);
        v.level = xstrdup(level);
        v.strip_bytes = strip;
        v.data_disks = data;
        v.full_stripe_bytes = strip * data;
        return v;
}

static void conflicts(void **state)
{
        (void)state;
        struct ctl_vd v[] = {
                /* two tools on one disk, agreeing: no note */
                geo("storcli", "3QF0RHGB2B8EE7003C11", "raid5", 64 * KiB, 3),
                geo("megacli", "3QF0RHGB2B8EE7003C11", "raid5", 64 * KiB, 3),
                /* disagreeing: each names the other */
                geo("storcli", "3QF0RHGB2B8EE7003C12", "raid5", 64 * KiB, 3),
                geo("ssacli", "3QF0RHGB2B8EE7003C12", "raid6", 256 * KiB, 4),
        };
        struct ctl_list l = {.v = v, .n = sizeof v / sizeof v[0]};
        ctl_match(&l, &si);
        assert_null(l.v[0].note);
        assert_null(l.v[1].note);
        assert_non_null(strstr(l.v[2].note, "conflict: sdc is also ssacli controller 0 VD 0 (raid6, strip 256k, 4 data disks)"));
        assert_non_null(strstr(l.v[3].note, "conflict: sdc is also storcli controller 0 VD 0 (raid5, strip 64k, 3 data disks)"));
        const struct ctl_vd *got[4];
        assert_int_equal(ctl_vds_for_device(&l, "sdc", got, 4), 2);
        assert_ptr_equal(got[0], &l.v[2]);
        assert_ptr_equal(got[1], &l.v[3]);
        assert_false(ctl_vd_same_geometry(got[0], got[1]));
        assert_true(ctl_vd_same_geometry(&l.v[0], &l.v[1]));
        free_recs(v, l.n);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(by_serial_and_address),
                cmocka_unit_test(conflicts),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
