/* SPDX-License-Identifier: GPL-2.0-or-later
 * Discovery against the captured grid-3ware tree (seed 000: a grid storage
 * node with two 3ware 9550SX RAID5 units) and against a small tree built at
 * run time with the odd cases a real machine produces. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "discover/discover.h"
#include "plan/plan.h"

#define GRID_FIXTURE "tests/fixtures/sysroot/grid-3ware"

/* Figures of the fixture; its README says where each comes from. */
#define LUN_SECTORS     UINT64_C(16113039360)             /* 11 × 11443920 × 64 KiB */
#define LUN_BYTES       (LUN_SECTORS * 512)               /* 8249876152320 */
#define OS_DISK_BYTES   (UINT64_C(488397168) * 512)       /* 250059350016 */
#define MEM_TOTAL_BYTES (UINT64_C(4046228) * 1024)        /* 4143337472 */

static char *top_path(const char *rel)
{
        const char *top = getenv("STORPROV_TOP");
        return path_join(top && *top ? top : ".", rel);
}

static void assert_strv_eq(char **v, const char *const *want)
{
        size_t n = 0;
        while (want[n])
                n++;
        assert_int_equal(strv_len(v), n);
        for (size_t i = 0; i < n; i++)
                assert_string_equal(v[i], want[i]);
}

/* ---- the captured grid-3ware tree -------------------------------------- */

static int grid_setup(void **state)
{
        struct sysinfo *s = xcalloc(1, sizeof(*s));
        struct diags d = {0};
        _cleanup_free_ char *root = top_path(GRID_FIXTURE);
        int r = sysinfo_load(root, s, &d);
        if (r < 0) {
                diags_print(&d, stderr);
                fprintf(stderr, "run from the repository top or set STORPROV_TOP\n");
        }
        diags_free(&d);
        if (r < 0) {
                free(s);
                return -1;
        }
        *state = s;
        return 0;
}

static int grid_teardown(void **state)
{
        sysinfo_free(*state);
        free(*state);
        return 0;
}

static void test_grid_devices(void **state)
{
        const struct sysinfo *s = *state;
        assert_int_equal(s->n_devs, 3);
        assert_string_equal(s->devs[0].name, "sda");
        assert_string_equal(s->devs[1].name, "sdb");
        assert_string_equal(s->devs[2].name, "sdc");
        assert_non_null(strstr(s->sysroot, "grid-3ware"));
        for (size_t i = 0; i < s->n_devs; i++)
                assert_false(s->devs[i].is_partition);
}

static void check_lun(const struct blockdev *b, const char *name, unsigned minor,
                      const char *naa, const char *wwn, const char *pci)
{
        assert_non_null(b);
        assert_string_equal(b->name, name);
        _cleanup_free_ char *node = xasprintf("/dev/%s", name);
        assert_string_equal(b->devnode, node);
        assert_int_equal(b->major, 8);
        assert_int_equal(b->minor, minor);

        assert_true(b->size_bytes == LUN_BYTES);
        assert_true(b->size_bytes > 8 * UINT64_C(1000000000000) && b->size_bytes < 9 * UINT64_C(1000000000000));

        assert_string_equal(b->vendor, "AMCC");
        assert_string_equal(b->model, "9550SX-12MI DISK");
        _cleanup_free_ char *id_serial = xasprintf("3%s", naa);
        assert_string_equal(b->id_serial, id_serial);
        assert_string_equal(b->serial, naa);              /* ID_SERIAL_SHORT wins */
        assert_string_equal(b->wwn, wwn);                 /* udev ID_WWN: first 64 bits */
        _cleanup_free_ char *path = xasprintf("pci-%s-scsi-0:0:0:0", pci);
        assert_string_equal(b->id_path, path);

        /* 3ware exports no topology: io_min is the sector, io_opt 0. */
        assert_int_equal(b->logical_sector_bytes, 512);
        assert_int_equal(b->physical_sector_bytes, 512);
        assert_true(b->io_min_bytes == 512);
        assert_true(b->io_opt_bytes == 0);
        assert_true(b->alignment_offset_bytes == 0);

        assert_int_equal(b->max_hw_sectors_kb, 128);     /* 3w-9xxx TW_MAX_SECTORS = 256 */
        assert_int_equal(b->max_sectors_kb, 128);
        assert_int_equal(b->nr_requests, 128);
        assert_int_equal(b->read_ahead_kb, 128);
        assert_int_equal(b->rotational, 1);
        assert_false(b->removable);
        assert_false(b->readonly);
        assert_string_equal(b->scheduler, "mq-deadline");
        assert_strv_eq(b->schedulers, (const char *const[]){"mq-deadline", "kyber", "bfq", "none", NULL});
        assert_int_equal(b->nr_hw_queues, 1);
        assert_false(b->has_holders);
        assert_null(b->parts);                            /* XFS on the whole unit */
        assert_null(b->md_level);
}

static void test_grid_luns(void **state)
{
        const struct sysinfo *s = *state;
        check_lun(sysinfo_find(s, "sdb"), "sdb", 16, "600050e04ab71d001f5a0000c3e80000",
                  "0x600050e04ab71d00", "0000:03:00.0");
        check_lun(sysinfo_find(s, "sdc"), "sdc", 32, "600050e04ab926008e3100005d170000",
                  "0x600050e04ab92600", "0000:04:00.0");
        /* Two controllers, two distinct identities. */
        assert_string_not_equal(sysinfo_find(s, "sdb")->wwn, sysinfo_find(s, "sdc")->wwn);
}

static void test_grid_os_disk(void **state)
{
        const struct sysinfo *s = *state;
        const struct blockdev *b = sysinfo_find(s, "sda");
        assert_non_null(b);
        assert_string_equal(b->devnode, "/dev/sda");
        assert_int_equal(b->major, 8);
        assert_int_equal(b->minor, 0);
        assert_true(b->size_bytes == OS_DISK_BYTES);
        assert_string_equal(b->vendor, "ATA");             /* "ATA     " stripped */
        assert_string_equal(b->model, "WDC WD2500JS-60N");
        assert_string_equal(b->serial, "WD-WCANK7381924");
        assert_string_equal(b->id_serial, "WDC_WD2500JS-60NCB1_WD-WCANK7381924");
        assert_null(b->wwn);                               /* pre-ATA-8 drive; wwid is t10., not naa. */
        assert_string_equal(b->id_path, "pci-0000:00:1f.2-ata-1");
        assert_int_equal(b->rotational, 1);
        assert_int_equal(b->max_hw_sectors_kb, 32767);
        assert_int_equal(b->max_sectors_kb, 1280);
        assert_int_equal(b->nr_requests, 64);
        assert_true(b->io_opt_bytes == 0);
        assert_int_equal(b->nr_hw_queues, 1);
        assert_false(b->has_holders);
        assert_strv_eq(b->parts, (const char *const[]){"sda1", "sda2", NULL});
        assert_null(sysinfo_find(s, "sda1"));              /* partitions are not devices */
}

static void test_grid_host(void **state)
{
        const struct sysinfo *s = *state;
        assert_true(s->mem_total_bytes == MEM_TOTAL_BYTES);
        assert_true(s->mem_total_bytes > 3 * GiB + GiB / 2 && s->mem_total_bytes <= 4 * GiB);
        assert_int_equal(s->page_size, 4096);
        assert_ptr_equal(sysinfo_find(s, "/dev/sdc"), sysinfo_find(s, "sdc"));
        assert_null(sysinfo_find(s, "sdd"));
        assert_null(sysinfo_find(s, NULL));
}

/* ---- failure and trivia ------------------------------------------------ */

static void test_missing_sysroot(void **state)
{
        (void)state;
        struct diags d = {0};
        struct sysinfo s = {.n_devs = 42};   /* must be left untouched */
        int r = sysinfo_load("/nonexistent/storprov-sysroot", &s, &d);
        assert_int_equal(r, -ENOENT);
        assert_int_equal(s.n_devs, 42);
        assert_null(s.devs);
        assert_int_equal(diags_errors(&d), 1);
        assert_non_null(strstr(d.v[0].message, "/nonexistent/storprov-sysroot/sys/block"));
        diags_free(&d);

        /* A NULL diags is tolerated. */
        assert_int_equal(sysinfo_load("/nonexistent/storprov-sysroot", &s, NULL), -ENOENT);

        sysinfo_free(NULL);
        struct sysinfo z = {0};
        sysinfo_free(&z);
        assert_null(sysinfo_find(&z, "sda"));
}

/* ---- a tree built at run time ------------------------------------------ */

static void put(const char *root, const char *rel, const char *content)
{
        _cleanup_free_ char *p = path_join(root, rel);
        assert_int_equal(mkdir_parents(p, 0755), 0);
        FILE *f = fopen(p, "we");
        assert_non_null(f);
        fputs(content, f);
        assert_int_equal(fclose(f), 0);
}

static void mkdirs(const char *root, const char *rel)
{
        _cleanup_free_ char *p = path_join(root, rel);
        _cleanup_free_ char *slash = xasprintf("%s/", p);
        assert_int_equal(mkdir_parents(slash, 0755), 0);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        (void)st, (void)flag, (void)ftw;
        return remove(path);
}

static int odd_setup(void **state)
{
        char tmpl[] = "/tmp/storprov-discover-XXXXXX";
        if (!mkdtemp(tmpl))
                return -1;
        const char *t = tmpl;

        /* vda: nearly nothing exported; the serial sits in the block dir (virtio). */
        put(t, "sys/block/vda/dev", "252:0\n");
        put(t, "sys/block/vda/size", "41943040\n");
        put(t, "sys/block/vda/serial", "vda-serial-01\n");

        /* nvme0n1: four hardware queues, 4 KiB sectors, serial from device/,
         * an eui. wwid (udev would make it ID_WWN). */
        put(t, "sys/block/nvme0n1/dev", "259:0\n");
        put(t, "sys/block/nvme0n1/size", "1953525168\n");
        put(t, "sys/block/nvme0n1/queue/logical_block_size", "4096\n");
        put(t, "sys/block/nvme0n1/queue/physical_block_size", "4096\n");
        put(t, "sys/block/nvme0n1/queue/rotational", "0\n");
        put(t, "sys/block/nvme0n1/queue/scheduler", "[none] mq-deadline\n");
        put(t, "sys/block/nvme0n1/queue/nr_requests", "1023\n");
        put(t, "sys/block/nvme0n1/device/model", "Samsung SSD 980 PRO 1TB                 \n");
        put(t, "sys/block/nvme0n1/device/serial", "S5GXNF0R123456     \n");
        put(t, "sys/block/nvme0n1/wwid", "eui.002538b111b22c33\n");
        for (int i = 0; i < 4; i++) {
                _cleanup_free_ char *q = xasprintf("sys/block/nvme0n1/mq/%d", i);
                mkdirs(t, q);
        }
        put(t, "sys/block/nvme0n1/mq/stray-file", "not a queue\n");

        /* sdd: a striped device that exports hints, a naa. wwid and no udev
         * entry, partitions 1, 2, 10, an md on top, and a kernel that says
         * it cannot align (-1). */
        put(t, "sys/block/sdd/dev", "8:48\n");
        put(t, "sys/block/sdd/size", "23437770752\n");
        put(t, "sys/block/sdd/alignment_offset", "-1\n");
        put(t, "sys/block/sdd/queue/minimum_io_size", "65536\n");
        put(t, "sys/block/sdd/queue/optimal_io_size", "720896\n");
        put(t, "sys/block/sdd/queue/scheduler", "none [mq-deadline] kyber bfq \n");
        put(t, "sys/block/sdd/device/wwid", "naa.600050E0AABBCC00DDEE0000FF110000\n");
        put(t, "sys/block/sdd/holders/md0", "");
        put(t, "sys/block/sdd/sdd1/partition", "1\n");
        put(t, "sys/block/sdd/sdd2/partition", "2\n");
        put(t, "sys/block/sdd/sdd10/partition", "10\n");
        mkdirs(t, "sys/block/sdd/power");                  /* a subdirectory that is no partition */

        /* sde: a real sysfs shape, sys/block/sde -> ../devices/…/block/sde;
         * udev has ID_SERIAL but no ID_SERIAL_SHORT, and its ID_WWN wins
         * over device/wwid. */
        const char *sde = "sys/devices/pci0000:00/0000:00:10.0/host2/target2:0:0/2:0:0:0/block/sde";
        _cleanup_free_ char *sde_rel = xasprintf("%s/dev", sde);
        put(t, sde_rel, "8:64\n");
        free(sde_rel);
        sde_rel = xasprintf("%s/size", sde);
        put(t, sde_rel, "7814037168\n");
        free(sde_rel);
        sde_rel = xasprintf("%s/device/wwid", sde);
        put(t, sde_rel, "naa.5000c500ffffffff\n");
        _cleanup_free_ char *link = path_join(t, "sys/block/sde");
        _cleanup_free_ char *target = xasprintf("../%s", sde + strlen("sys/"));
        if (symlink(target, link) < 0)
                return -1;
        put(t, "run/udev/data/b8:64", "S:disk/by-id/scsi-SSEAGATE_ST4000NM0023_Z1Z0ABCD\n"
                                      "E:ID_SERIAL=SSEAGATE_ST4000NM0023_Z1Z0ABCD\n"
                                      "E:ID_WWN=0x5000c500a1b2c3d4\n"
                                      "E:ID_PATH=pci-0000:00:10.0-sas-phy0-lun-0\n"
                                      "E:ODD=value=with=equals\n");

        /* md0: bio-based, no scheduler and no nr_requests file. */
        put(t, "sys/block/md0/dev", "9:0\n");
        put(t, "sys/block/md0/md/level", "raid5\n");
        put(t, "sys/block/md0/queue/read_ahead_kb", "8192\n");

        /* Loop devices count only with a backing file; RAM disks never. */
        put(t, "sys/block/loop0/dev", "7:0\n");
        put(t, "sys/block/loop1/dev", "7:1\n");
        put(t, "sys/block/loop1/loop/backing_file", "/var/tmp/disk.img\n");
        put(t, "sys/block/ram0/dev", "1:0\n");
        put(t, "sys/block/zram0/dev", "251:0\n");

        /* Names: '!' means '/' in the node; sdaa sorts after sde. */
        put(t, "sys/block/cciss!c0d0/dev", "104:0\n");
        put(t, "sys/block/sdaa/dev", "65:160\n");
        put(t, "sys/block/not-a-device", "junk\n");

        /* No proc/meminfo; a 64 KiB-page kernel. */
        put(t, "proc/self/smaps", "KernelPageSize:       64 kB\n");

        *state = xstrdup(t);
        return 0;
}

static int odd_teardown(void **state)
{
        char *t = *state;
        int r = nftw(t, rm_one, 16, FTW_DEPTH | FTW_PHYS);
        free(t);
        return r;
}

static void test_odd_tree(void **state)
{
        const char *t = *state;
        struct sysinfo s = {0};
        struct diags d = {0};
        /* A trailing slash on the sysroot is fine. */
        _cleanup_free_ char *root = xasprintf("%s/", t);
        assert_int_equal(sysinfo_load(root, &s, &d), 0);
        assert_int_equal(d.n, 0);

        const char *order[] = {"md0", "sdd", "sde", "vda", "sdaa", "loop1", "nvme0n1", "cciss!c0d0"};
        assert_int_equal(s.n_devs, ELEMENTSOF(order));
        for (size_t i = 0; i < ELEMENTSOF(order); i++)
                assert_string_equal(s.devs[i].name, order[i]);
        assert_null(sysinfo_find(&s, "loop0"));
        assert_null(sysinfo_find(&s, "ram0"));
        assert_null(sysinfo_find(&s, "zram0"));
        assert_null(sysinfo_find(&s, "not-a-device"));

        const struct blockdev *b = sysinfo_find(&s, "vda");
        assert_true(b->size_bytes == UINT64_C(41943040) * 512);
        assert_int_equal(b->major, 252);
        assert_int_equal(b->logical_sector_bytes, 512);
        assert_int_equal(b->physical_sector_bytes, 512);
        assert_true(b->io_min_bytes == 0 && b->io_opt_bytes == 0);
        assert_int_equal(b->rotational, -1);
        assert_null(b->vendor);
        assert_null(b->model);
        assert_string_equal(b->serial, "vda-serial-01");
        assert_null(b->id_serial);
        assert_null(b->wwn);
        assert_null(b->id_path);
        assert_null(b->scheduler);
        assert_null(b->schedulers);
        assert_int_equal(b->max_hw_sectors_kb, 0);
        assert_int_equal(b->nr_requests, 0);
        assert_int_equal(b->nr_hw_queues, 1);
        assert_false(b->has_holders);
        assert_null(b->parts);
        assert_null(b->md_level);

        b = sysinfo_find(&s, "nvme0n1");
        assert_int_equal(b->nr_hw_queues, 4);
        assert_int_equal(b->logical_sector_bytes, 4096);
        assert_int_equal(b->physical_sector_bytes, 4096);
        assert_int_equal(b->rotational, 0);
        assert_string_equal(b->scheduler, "none");
        assert_strv_eq(b->schedulers, (const char *const[]){"none", "mq-deadline", NULL});
        assert_int_equal(b->nr_requests, 1023);
        assert_string_equal(b->model, "Samsung SSD 980 PRO 1TB");
        assert_string_equal(b->serial, "S5GXNF0R123456");
        /* no udev entry: ID_WWN as 60-persistent-storage.rules sets it for a namespace, the wwid */
        assert_string_equal(b->wwn, "eui.002538b111b22c33");

        b = sysinfo_find(&s, "sdd");
        assert_true(b->io_min_bytes == 65536);
        assert_true(b->io_opt_bytes == 720896);
        assert_true(b->alignment_offset_bytes == 0);
        assert_string_equal(b->scheduler, "mq-deadline");
        assert_strv_eq(b->schedulers, (const char *const[]){"none", "mq-deadline", "kyber", "bfq", NULL});
        assert_string_equal(b->wwn, "0x600050e0aabbcc00");
        assert_null(b->serial);
        assert_true(b->has_holders);
        assert_strv_eq(b->parts, (const char *const[]){"sdd1", "sdd2", "sdd10", NULL});

        b = sysinfo_find(&s, "sde");
        assert_true(b->size_bytes == UINT64_C(7814037168) * 512);
        assert_int_equal(b->minor, 64);
        assert_string_equal(b->serial, "SSEAGATE_ST4000NM0023_Z1Z0ABCD");
        assert_string_equal(b->id_serial, "SSEAGATE_ST4000NM0023_Z1Z0ABCD");
        assert_string_equal(b->wwn, "0x5000c500a1b2c3d4");
        assert_string_equal(b->id_path, "pci-0000:00:10.0-sas-phy0-lun-0");

        b = sysinfo_find(&s, "md0");
        assert_string_equal(b->md_level, "raid5");
        assert_null(b->scheduler);
        assert_int_equal(b->nr_requests, 0);
        assert_int_equal(b->read_ahead_kb, 8192);

        b = sysinfo_find(&s, "cciss!c0d0");
        assert_string_equal(b->devnode, "/dev/cciss/c0d0");
        assert_ptr_equal(sysinfo_find(&s, "/dev/cciss/c0d0"), b);
        assert_string_equal(sysinfo_find(&s, "loop1")->devnode, "/dev/loop1");

        assert_true(s.mem_total_bytes == 0);
        assert_int_equal(s.page_size, 65536);

        sysinfo_free(&s);
        assert_null(s.devs);
        diags_free(&d);
}

/* ---- multipath: two LUNs x two SAS paths, with maps and without ------------ */

#define MP_LUN0 "3600c0ff000530a3b1f2e6a6501000000"
#define MP_LUN1 "3600c0ff000530a3b2a2e6a6501000000"

static void load_fixture(const char *rel, struct sysinfo *s)
{
        struct diags d = {0};
        _cleanup_free_ char *root = top_path(rel);
        assert_int_equal(sysinfo_load(root, s, &d), 0);
        diags_free(&d);
}

static void test_multipath_maps(void **state)
{
        (void)state;
        struct sysinfo s = {0};
        load_fixture("tests/fixtures/sysroot/multipath-2path", &s);
        const struct blockdev *m = sysinfo_find(&s, "dm-0");
        assert_non_null(m);
        assert_string_equal(m->dm_uuid, "mpath-" MP_LUN0);
        assert_string_equal(m->dm_name, "mpatha");
        assert_string_equal(m->mpath_wwid, MP_LUN0);
        assert_strv_eq(m->slaves, (const char *const[]){"sdb", "sdd", NULL});
        assert_int_equal(m->max_hw_sectors_kb, 4096); /* stacked: the smaller path */
        assert_string_equal(sysinfo_find(&s, "sdb")->mpath_map, "dm-0");
        assert_string_equal(sysinfo_find(&s, "sdd")->mpath_map, "dm-0");
        assert_string_equal(sysinfo_find(&s, "sde")->mpath_map, "dm-1");
        assert_string_equal(sysinfo_find(&s, "sde")->mpath_wwid, MP_LUN1);
        assert_null(sysinfo_find(&s, "sda")->mpath_map);
        assert_true(sysinfo_find(&s, "sdb")->has_holders);

        /* grouping: three LUNs (the OS SSD is one, with one path), each once */
        struct mpath_lun *l = NULL;
        size_t n = mpath_luns(&s, NULL, &l);
        assert_int_equal(n, 3);
        size_t seen = 0;
        for (size_t k = 0; k < n; k++) {
                if (strcmp(l[k].wwid, MP_LUN0))
                        continue;
                seen++;
                assert_int_equal(l[k].n_paths, 2);
                assert_string_equal(s.devs[l[k].paths[0]].name, "sdb");
                assert_string_equal(s.devs[l[k].paths[1]].name, "sdd");
                assert_true(l[k].map != NO_OBJ);
                assert_string_equal(s.devs[l[k].map].name, "dm-0");
                char *desc = mpath_lun_describe(&s, &l[k]);
                assert_string_equal(desc, "LUN wwid " MP_LUN0 " (2 paths: sdb, sdd; map dm-0 \"mpatha\")");
                free(desc);
                /* the match applies to the LUN: every path must fit size, path= needs one */
                struct p_match m1 = {.rotational = -1, .path = (char *)"*-sas-0x500c0ff0530a3b04-lun-0"};
                assert_int_equal(mpath_lun_failures(&m1, &s, &l[k]), 0);
                struct p_match m2 = {.rotational = -1, .model = (char *)"MSA*", .min_size_bytes = UINT64_C(12) << 40};
                assert_int_equal(mpath_lun_failures(&m2, &s, &l[k]), MATCH_MIN_SIZE);
        }
        assert_int_equal(seen, 1);
        /* claimed paths are left out */
        bool claimed[16] = {false};
        for (size_t i = 0; i < s.n_devs; i++)
                claimed[i] = !strcmp(s.devs[i].name, "sdb");
        struct mpath_lun *l2 = NULL;
        size_t n2 = mpath_luns(&s, claimed, &l2);
        for (size_t k = 0; k < n2; k++)
                if (!strcmp(l2[k].wwid, MP_LUN0))
                        assert_int_equal(l2[k].n_paths, 1);
        mpath_luns_free(l2, n2);
        mpath_luns_free(l, n);
        sysinfo_free(&s);
}

static void test_multipath_nomap(void **state)
{
        (void)state;
        struct sysinfo s = {0};
        load_fixture("tests/fixtures/sysroot/multipath-2path-nomap", &s);
        assert_null(sysinfo_find(&s, "dm-0"));
        /* no map: the WWID multipath would use, udev's ID_SERIAL */
        assert_string_equal(sysinfo_find(&s, "sdb")->mpath_wwid, MP_LUN0);
        assert_string_equal(sysinfo_find(&s, "sdd")->mpath_wwid, MP_LUN0);
        assert_null(sysinfo_find(&s, "sdb")->mpath_map);
        struct mpath_lun *l = NULL;
        size_t n = mpath_luns(&s, NULL, &l);
        assert_int_equal(n, 3);
        for (size_t k = 0; k < n; k++)
                if (!strcmp(l[k].wwid, MP_LUN1)) {
                        assert_int_equal(l[k].n_paths, 2);
                        assert_true(l[k].map == NO_OBJ);
                }
        mpath_luns_free(l, n);
        sysinfo_free(&s);
}

/* ---- NVMe namespaces (nvme-npwg: NPWG 16 KiB, NOWS 256 KiB) --------------------- */

static void test_nvme_namespace(void **state)
{
        (void)state;
        struct sysinfo s = {0};
        load_fixture("tests/fixtures/sysroot/nvme-npwg", &s);
        const struct blockdev *b = sysinfo_find(&s, "nvme1n1");
        assert_non_null(b);
        assert_int_equal(b->major, 259);
        assert_int_equal(b->minor, 1);
        assert_string_equal(b->devnode, "/dev/nvme1n1");
        /* the controller's Identify strings through device -> ../../nvme1; no SCSI vendor */
        assert_null(b->vendor);
        assert_string_equal(b->model, "SAMPLE QLC NVMe 7.68TB");
        assert_string_equal(b->serial, "QLC0A1B2C3D40002");
        assert_string_equal(b->id_serial, "SAMPLE QLC NVMe 7.68TB_QLC0A1B2C3D40002");
        /* the namespace's wwid is udev's ID_WWN and what multipath knows it by (uid_attrs nvme:ID_WWN) */
        assert_string_equal(b->wwid, "eui.5cd2e4a1b2c30002");
        assert_string_equal(b->wwn, "eui.5cd2e4a1b2c30002");
        assert_string_equal(b->mpath_wwid, "eui.5cd2e4a1b2c30002");
        assert_int_equal(b->logical_sector_bytes, 4096);
        assert_int_equal(b->physical_sector_bytes, 4096);
        assert_int_equal(b->io_min_bytes, 16384);
        assert_int_equal(b->io_opt_bytes, 262144);
        assert_true(blockdev_is_nvme(b));
        assert_int_equal(io_hint_kind_of(b), IO_HINT_NVME);
        assert_false(blockdev_is_nvme(sysinfo_find(&s, "sda")));
        assert_int_equal(io_hint_kind_of(sysinfo_find(&s, "sda")), IO_HINT_NONE);
        sysinfo_free(&s);

        /* without the udev database, ID_WWN is what the rule would set: the wwid */
        char tmpl[] = "/tmp/storprov-nvme-XXXXXX";
        assert_non_null(mkdtemp(tmpl));
        _cleanup_free_ char *src = top_path("tests/fixtures/sysroot/nvme-npwg");
        _cleanup_free_ char *cmd = xasprintf("cp -a '%s/.' '%s/' && rm -r '%s/run'", src, tmpl, tmpl);
        assert_int_equal(system(cmd), 0);
        struct diags d = {0};
        assert_int_equal(sysinfo_load(tmpl, &s, &d), 0);
        diags_free(&d);
        b = sysinfo_find(&s, "nvme3n1");
        assert_string_equal(b->wwn, "eui.5cd2e4a1b2c30004");
        assert_string_equal(b->serial, "QLC0A1B2C3D40004"); /* device/serial, the controller's */
        assert_null(b->id_serial);
        sysinfo_free(&s);
        _cleanup_free_ char *rm = xasprintf("rm -rf '%s'", tmpl);
        assert_int_equal(system(rm), 0);
}

/* The one rule inventory and the planner share. */
static void test_io_hint_kind(void **state)
{
        (void)state;
        static const struct {
                const char *name;
                uint32_t phys;
                uint64_t io_min, io_opt;
                enum io_hint_kind want;
        } rows[] = {
                {"sdb", 512, 512, 0, IO_HINT_NONE},
                {"sdb", 4096, 4096, 0, IO_HINT_NONE},
                {"sdb", 512, 4096, 0, IO_HINT_WRITE_GRANULARITY},
                {"sdb", 512, 4096, 1048576, IO_HINT_WRITE_GRANULARITY},    /* below 8 KiB: not a strip */
                {"sdb", 512, 8192, 0, IO_HINT_WRITE_GRANULARITY},          /* no io_opt above it */
                {"sdb", 512, 8192, 8192, IO_HINT_WRITE_GRANULARITY},
                {"sdb", 512, 8192, 24576, IO_HINT_RAID_STRIPE},
                {"sdb", 512, 65536, 458752, IO_HINT_RAID_STRIPE},
                {"nvme0n1", 4096, 16384, 262144, IO_HINT_NVME},            /* never a stripe */
                {"nvme12n3", 512, 4096, 131072, IO_HINT_NVME},
                {"nvme0c1n1", 512, 4096, 131072, IO_HINT_NVME},            /* a native multipath path */
                {"nvme0n1", 4096, 4096, 0, IO_HINT_NONE},
                {"nvme0n1p1", 512, 65536, 458752, IO_HINT_RAID_STRIPE},    /* not a namespace name */
                {"nvmefoo", 512, 65536, 458752, IO_HINT_RAID_STRIPE},
        };
        for (size_t i = 0; i < ELEMENTSOF(rows); i++) {
                struct blockdev b = {.name = (char *)rows[i].name, .physical_sector_bytes = rows[i].phys,
                                     .io_min_bytes = rows[i].io_min, .io_opt_bytes = rows[i].io_opt};
                if (io_hint_kind_of(&b) != rows[i].want)
                        fail_msg("row %zu (%s %" PRIu64 "/%" PRIu64 "): %s, want %s", i, rows[i].name, rows[i].io_min,
                                 rows[i].io_opt, io_hint_kind_name(io_hint_kind_of(&b)),
                                 io_hint_kind_name(rows[i].want));
        }
        assert_string_equal(io_hint_kind_name(IO_HINT_NVME), "nvme-write-granularity");
        assert_string_equal(io_hint_kind_name(IO_HINT_RAID_STRIPE), "raid-stripe");
        assert_string_equal(io_hint_kind_name(IO_HINT_WRITE_GRANULARITY), "write-granularity");
        assert_string_equal(io_hint_kind_name(IO_HINT_NONE), "none");
}

int main(void)
{
        const struct CMUnitTest grid[] = {
                cmocka_unit_test(test_grid_devices),
                cmocka_unit_test(test_grid_luns),
                cmocka_unit_test(test_grid_os_disk),
                cmocka_unit_test(test_grid_host),
        };
        const struct CMUnitTest other[] = {
                cmocka_unit_test(test_missing_sysroot),
                cmocka_unit_test_setup_teardown(test_odd_tree, odd_setup, odd_teardown),
                cmocka_unit_test(test_multipath_maps),
                cmocka_unit_test(test_multipath_nomap),
                cmocka_unit_test(test_nvme_namespace),
                cmocka_unit_test(test_io_hint_kind),
        };
        int failed = cmocka_run_group_tests_name("discover: grid-3ware fixture", grid, grid_setup, grid_teardown);
        failed += cmocka_run_group_tests_name("discover: odd cases", other, NULL, NULL);
        return failed ? 1 : 0;
}
