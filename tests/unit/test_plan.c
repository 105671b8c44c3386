/* Planner and validator: every guardrail fires, with its rule and figures,
 * and derived values land in the argv. Devices are built in memory; the
 * planner does no I/O. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "discover/discover.h"
#include "plan/internal.h"
#include "plan/plan.h"
#include "render/file_ops.h"
#include "input/profile.h"
#include "render/render.h"
#include "base/util.h"

/* ---- fixtures ------------------------------------------------------------ */

static struct sysinfo *mk_sysinfo(size_t n, uint64_t size, const char *vendor, const char *model, uint64_t mem)
{
        struct sysinfo *si = xcalloc(1, sizeof(*si));
        si->sysroot = xstrdup("/test");
        si->mem_total_bytes = mem;
        si->page_size = 4096;
        si->devs = xcalloc(n, sizeof(struct blockdev));
        si->n_devs = n;
        for (size_t i = 0; i < n; i++) {
                struct blockdev *b = &si->devs[i];
                b->name = xasprintf("sd%c", (char)('b' + i));
                b->devnode = xasprintf("/dev/%s", b->name);
                b->major = 8;
                b->minor = (unsigned)(16 * (i + 1));
                b->size_bytes = size;
                b->logical_sector_bytes = 512;
                b->physical_sector_bytes = 512;
                b->io_min_bytes = 512;
                b->rotational = 1;
                b->vendor = xstrdup(vendor);
                b->model = xstrdup(model);
                b->serial = xasprintf("SER%03zu", i);
                b->id_serial = xasprintf("%s_%s_SER%03zu", vendor, model, i);
                b->wwn = xasprintf("0x5000c500%08zx", i);
                b->id_path = xasprintf("pci-0000:03:00.0-sas-phy%zu-lun-0", i);
                b->max_hw_sectors_kb = 1024;
                b->max_sectors_kb = 512;
                b->nr_requests = 256;
                b->read_ahead_kb = 128;
                b->scheduler = xstrdup("mq-deadline");
                b->schedulers = strv_split("mq-deadline kyber bfq none", " ");
                b->nr_hw_queues = 1;
        }
        return si;
}

static void free_sysinfo(struct sysinfo *si)
{
        sysinfo_free(si);
        free(si);
}

struct run {
        struct profile p;
        struct plan pl;
        struct diags d;
        int rc;
        char path[64];
        char **contents;          /* rendered files, kept until run_free */
};

/* The text of the plan's file i as it would be written on an empty root. */
static const char *content(struct run *r, size_t i)
{
        char *t = render_file(&r->pl, r->pl.files[i].kind, NULL, NULL);
        strv_push(&r->contents, t);
        free(t);
        return r->contents[strv_len(r->contents) - 1];
}

static const char *xml_head = "<?xml version=\"1.0\"?>\n<profile version=\"1\" name=\"t\">\n";

/* Loads XML (a profile body) and plans it against si. */
static void run_plan(struct run *r, const char *body, const struct sysinfo *si)
{
        memset(r, 0, sizeof(*r));
        strcpy(r->path, "/tmp/storprov-test-XXXXXX.xml");
        int fd = mkstemps(r->path, 4);
        assert_true(fd >= 0);
        FILE *f = fdopen(fd, "w");
        fprintf(f, "%s%s</profile>\n", xml_head, body);
        fclose(f);
        r->rc = profile_load(r->path, &r->p, &r->d);
        unlink(r->path);
        if (r->rc < 0)
                return;
        struct plan_options o = {.seed = 7, .seed_set = true};
        r->rc = plan_build(&r->p, si, &o, &r->pl, &r->d);
        if (r->rc == 0)
                file_ops_list(&r->pl, NULL);
}

static void run_free(struct run *r)
{
        if (r->p.path)
                profile_free(&r->p);
        if (r->rc == 0)
                plan_free(&r->pl);
        diags_free(&r->d);
        strv_free(r->contents);
        r->contents = NULL;
}

/* The first diagnostic of rule `rule`, which must be in the registry (a misspelt id
 * would otherwise pass every test that expects it absent). */
static const struct diag *find_rule(const struct run *r, const char *rule)
{
        enum rule_id id;
        if (!rule_lookup(rule, &id))
                fail_msg("\"%s\" is no rule of src/base/rules.def", rule);
        for (size_t i = 0; i < r->d.n; i++)
                if (r->d.v[i].rule == id)
                        return &r->d.v[i];
        return NULL;
}

static void dump(const struct run *r)
{
        for (size_t i = 0; i < r->d.n; i++) {
                char *s = diag_format(&r->d.v[i]);
                print_message("  diag: %s\n", s);
                free(s);
        }
}

/* Expects the plan to fail with `rule`, at `line`, with `needle` in the message. */
static void expect_error(const char *body, const struct sysinfo *si, const char *rule, int line, const char *needle)
{
        struct run r;
        run_plan(&r, body, si);
        const struct diag *d = find_rule(&r, rule);
        if (r.rc == 0 || !d || d->severity != DIAG_ERROR) {
                dump(&r);
                fail_msg("expected error [%s], rc=%d", rule, r.rc);
        }
        if (line)
                assert_int_equal(d->line, line);
        assert_non_null(d->file);
        if (needle && !strstr(d->message, needle)) {
                dump(&r);
                fail_msg("message of [%s] lacks \"%s\"", rule, needle);
        }
        run_free(&r);
}

static void expect_ok(struct run *r, const char *body, const struct sysinfo *si)
{
        run_plan(r, body, si);
        if (r->rc != 0) {
                dump(r);
                fail_msg("plan failed");
        }
}

static const struct pl_step *find_step(const struct plan *pl, enum step_kind k, size_t nth)
{
        for (size_t i = 0; i < pl->n_steps; i++)
                if (pl->steps[i].kind == k && nth-- == 0)
                        return &pl->steps[i];
        return NULL;
}

static char *argv_of(const struct pl_step *s) { return strv_join(s->argv, " "); }

#define DISKS12_RAID5                                                                                                  \
        "<disks id=\"lun\" count=\"2\"><match vendor=\"AMCC\"/><hwraid level=\"5\" members=\"12\" chunk=\"64K\"/>"

/* ---- guardrails ---------------------------------------------------------- */

static void test_queue_memory(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(2, 6 * TiB, "AMCC", "9550SX-12MI DISK", 4 * GiB);
        const char *body = DISKS12_RAID5 "\n<tune nr-requests=\"8192\" max-sectors-kb=\"512\"/></disks>\n";
        expect_error(body, si, "queue-memory", 4, "nr_requests");
        /* the figure: 2 × 8192 × 512 KiB = 8 GiB */
        struct run r;
        run_plan(&r, body, si);
        assert_non_null(strstr(find_rule(&r, "queue-memory")->message, "8 GiB"));
        run_free(&r);
        /* an explicit override passes */
        char *allowed = xasprintf("%s<allow rule=\"queue-memory\" reason=\"lab\"/>\n", body);
        expect_ok(&r, allowed, si);
        assert_int_equal(r.pl.queue_mem_bytes, 8 * GiB);
        run_free(&r);
        free(allowed);
        /* the seed's fix (512 requests) stays well below 1/8 */
        expect_ok(&r, DISKS12_RAID5 "<tune nr-requests=\"512\" max-sectors-kb=\"64\"/></disks>", si);
        assert_int_equal(r.pl.queue_mem_bytes, 2 * 512 * 64 * KiB);
        run_free(&r);
        /* hardware queues multiply */
        si->devs[0].nr_hw_queues = 64;
        si->devs[1].nr_hw_queues = 64;
        expect_error(DISKS12_RAID5 "<tune nr-requests=\"256\" max-sectors-kb=\"512\"/></disks>", si, "queue-memory", 0,
                     "64 queues");
        free_sysinfo(si);
}

static void test_max_sectors(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(2, 6 * TiB, "AMCC", "x", 64 * GiB);
        si->devs[1].max_hw_sectors_kb = 128;
        expect_error(DISKS12_RAID5 "<tune max-sectors-kb=\"512\"/></disks>", si, "max-sectors-kb", 0,
                     "max_hw_sectors_kb 128");
        free_sysinfo(si);
}

static void test_stripe_cache(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(4, 1 * TiB, "ATA", "x", 64 * GiB);
        expect_error("<disks id=\"d\" count=\"4\"><match/></disks>\n"
                     "<md id=\"m\" level=\"5\" chunk=\"64K\" devices=\"d\"><tune stripe-cache-size=\"16\"/></md>",
                     si, "stripe-cache", 4, "17..32768");
        expect_error("<disks id=\"d\" count=\"4\"><match/></disks>\n"
                     "<md id=\"m\" level=\"5\" chunk=\"64K\" devices=\"d\"><tune stripe-cache-size=\"40000\"/></md>",
                     si, "stripe-cache", 4, "17..32768");
        expect_error("<disks id=\"d\" count=\"4\"><match/></disks>\n"
                     "<md id=\"m\" level=\"10\" chunk=\"64K\" devices=\"d\"><tune stripe-cache-size=\"256\"/></md>",
                     si, "stripe-cache", 4, "raid10");
        expect_error("<disks id=\"d\" count=\"4\"><match/><tune stripe-cache-size=\"256\"/></disks>", si,
                     "stripe-cache", 3, "raid4/5/6");
        struct run r;
        expect_ok(&r,
                  "<disks id=\"d\" count=\"4\"><match/></disks>\n"
                  "<md id=\"m\" level=\"6\" chunk=\"64K\" devices=\"d\"><tune stripe-cache-size=\"8192\"/></md>",
                  si);
        const struct pl_step *s = find_step(&r.pl, STEP_SYSFS, 0);
        assert_string_equal(tune_defs[s->attr].sysfs, "md/stripe_cache_size");
        assert_string_equal(s->value, "8192");
        run_free(&r);
        free_sysinfo(si);
}

static void test_raid1_rules(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(2, 1 * TiB, "ATA", "x", 64 * GiB);
        expect_error("<disks id=\"d\" count=\"2\"><match/></disks>\n"
                     "<md id=\"m\" level=\"1\" chunk=\"64K\" devices=\"d\"/>",
                     si, "raid1-chunk", 4, "--chunk");
        expect_error("<disks id=\"d\" count=\"2\"><match/></disks>\n"
                     "<md id=\"m\" level=\"1\" parity=\"left-symmetric\" devices=\"d\"/>",
                     si, "raid1-parity", 4, NULL);
        /* and a valid RAID1 gets no --chunk at all, but an explicit bitmap */
        struct run r;
        expect_ok(&r, "<disks id=\"d\" count=\"2\"><match/></disks><md id=\"m\" level=\"1\" devices=\"d\"/>", si);
        char *a = argv_of(find_step(&r.pl, STEP_MDADM, 0));
        assert_null(strstr(a, "--chunk"));
        assert_non_null(strstr(a, "--bitmap=internal"));
        assert_non_null(strstr(a, "--level=1 --raid-devices=2"));
        free(a);
        run_free(&r);
        free_sysinfo(si);
}

static void test_mount_options(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(2, 6 * TiB, "AMCC", "x", 64 * GiB);
        /* log-stripe-unit="true": the log su is the data su (64k), as it is by default on stripes without parity */
        const char *fmt = DISKS12_RAID5 "</disks>\n<xfs on=\"lun\" mountpoint=\"/d%%n\" mount-options=\"%s\" "
                                        "log-stripe-unit=\"true\"/>";
        struct { const char *opts, *rule, *needle; } t[] = {
                {"nobarrier", "mount-option", "4.19"},
                {"noatime,barrier", "mount-option", "4.19"},
                {"delaylog", "mount-option", "4.0"},
                {"ikeep", "mount-option", "deprecated"},
                {"logbufs=9", "mount-option", "2 to 8"},
                {"logbsize=96k", "mount-option", "power of 2"},
                {"logbsize=32k", "logbsize", "log stripe unit 64k"},
                {"sunit=128,swidth=1408", "mount-option", "superblock"},
        };
        for (size_t i = 0; i < ELEMENTSOF(t); i++) {
                char *body = xasprintf(fmt, t[i].opts);
                expect_error(body, si, t[i].rule, 4, t[i].needle);
                free(body);
        }
        /* accepted: logbsize ≥ log su; derived options added */
        struct run r;
        char *body = xasprintf(fmt, "noatime,logbsize=64k");
        expect_ok(&r, body, si);
        for (size_t i = 0; i < r.pl.n_objs; i++)
                if (r.pl.objs[i].kind == OBJ_FS)
                        assert_string_equal(r.pl.objs[i].fs.mount_options, "noatime,logbsize=64k,logbufs=8,swalloc");
        run_free(&r);
        free(body);
        free_sysinfo(si);
}

static void test_sysctl_pair(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(1, 1 * TiB, "ATA", "x", 64 * GiB);
        expect_error("<sysctl key=\"vm.dirty_ratio\" value=\"40\"/>\n<sysctl key=\"vm.dirty_bytes\" value=\"1073741824\"/>",
                     si, "sysctl-ratio-bytes", 4, "vm.dirty_ratio");
        expect_error("<sysctl key=\"vm.dirty_background_bytes\" value=\"1\"/>\n"
                     "<sysctl key=\"vm.dirty_background_ratio\" value=\"5\"/>",
                     si, "sysctl-ratio-bytes", 4, NULL);
        expect_error("<sysctl key=\"vm.dirty_ratio\" value=\"140\"/>", si, "sysctl-value", 3, "percentage");
        expect_error("<sysctl key=\"vm.dirty_bytes\" value=\"4096\"/>", si, "sysctl-value", 3, "two pages");
        struct run r;
        expect_ok(&r, "<sysctl key=\"vm.dirty_ratio\" value=\"40\"/><sysctl key=\"vm.dirty_background_ratio\" value=\"10\"/>",
                  si);
        /* the sysctl.d file, and the node's recorded state (written last) */
        assert_int_equal(r.pl.n_files, 2);
        assert_string_equal(r.pl.files[0].path, "/etc/sysctl.d/80-storprov.conf");
        assert_non_null(strstr(content(&r, 0), "\nvm.dirty_ratio = 40\nvm.dirty_background_ratio = 10\n"));
        assert_int_equal(r.pl.files[1].kind, FILE_STATE);
        run_free(&r);
        free_sysinfo(si);
}

static void test_mkfs_rejects(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(2, 6 * TiB, "AMCC", "x", 64 * GiB);
        /* a strip mkfs.xfs would reject: su=6k is not a multiple of the 4 KiB block */
        expect_error("<disks id=\"lun\" count=\"2\"><match/><hwraid level=\"5\" members=\"4\" chunk=\"6K\"/></disks>", si,
                     "hwraid", 3, "multiple of 4 KiB");
        /* hand-written su/sw fight the derived geometry */
        expect_error(DISKS12_RAID5 "</disks>\n<xfs on=\"lun\" label=\"l%n\" mkfs-options=\"-d su=128k,sw=10\"/>", si,
                     "mkfs-stripe", 4, "derived");
        expect_error(DISKS12_RAID5 "</disks>\n<xfs on=\"lun\" label=\"l%n\" mkfs-options=\"-l su=32k\"/>", si,
                     "mkfs-stripe", 4, NULL);
        /* other mkfs options pass through */
        struct run r;
        expect_ok(&r, DISKS12_RAID5 "</disks>\n<xfs on=\"lun\" label=\"l%n\" mkfs-options=\"-i size=512 -K\"/>", si);
        char *a = argv_of(find_step(&r.pl, STEP_MKFS, 1));
        assert_non_null(strstr(a, "-d su=64k,sw=11 -l version=2,su=4k -i size=512 -K /dev/sdc"));
        assert_non_null(strstr(a, "-L l2 "));
        free(a);
        run_free(&r);
        free_sysinfo(si);
}

static void test_disk_count(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(3, 6 * TiB, "AMCC", "9550SX-12MI DISK", 64 * GiB);
        expect_error("<disks id=\"lun\" count=\"2\">\n<match vendor=\"AMCC\"/></disks>", si, "disk-count", 4,
                     "expected 2 disks, found 3");
        struct run r;
        run_plan(&r, "<disks id=\"lun\" count=\"2\">\n<match vendor=\"AMCC\"/></disks>", si);
        const char *m = find_rule(&r, "disk-count")->message;
        assert_non_null(strstr(m, "sdb"));
        assert_non_null(strstr(m, "sdd"));
        assert_non_null(strstr(m, "SER002"));
        run_free(&r);
        /* nothing matches: the message lists what is there */
        expect_error("<disks id=\"lun\" count=\"1\"><match model=\"MR9361*\"/></disks>", si, "disk-count", 3,
                     "no disk matched; disks present");
        /* size range and rotational narrow the choice */
        si->devs[2].size_bytes = 2 * TiB;
        expect_ok(&r, "<disks id=\"lun\" count=\"2\"><match vendor=\"AMCC\" min-size=\"5TB\"/></disks>", si);
        run_free(&r);
        si->devs[0].rotational = 0;
        expect_ok(&r, "<disks id=\"s\" count=\"1\"><match rotational=\"false\"/></disks>", si);
        assert_string_equal(r.pl.objs[0].dev, "/dev/sdb");
        run_free(&r);
        free_sysinfo(si);
}

static void test_xfs_too_small(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(4, 128 * MiB, "ATA", "x", 8 * GiB);
        /* 4 x 128 MiB RAID6 holds ~256 MiB: below mkfs.xfs's 300 MB */
        expect_error("<disks id=\"d\" count=\"4\"><match/></disks>\n"
                     "<md id=\"m\" level=\"6\" chunk=\"64K\" devices=\"d\"/>\n<xfs on=\"m\"/>",
                     si, "xfs-size", 5, "300 MB");
        struct run r;
        expect_ok(&r, "<disks id=\"d\" count=\"4\"><match/></disks>\n"
                      "<md id=\"m\" level=\"5\" chunk=\"64K\" devices=\"d\"/>\n<xfs on=\"m\"/>",
                  si);
        run_free(&r);
        free_sysinfo(si);
}

static void test_stacked_tuning(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(4, 1 * TiB, "ATA", "x", 64 * GiB);
        expect_error("<disks id=\"d\" count=\"4\"><match/></disks>\n"
                     "<md id=\"m\" level=\"5\" chunk=\"64K\" devices=\"d\"><tune nr-requests=\"128\"/></md>",
                     si, "tune-stacked", 4, "no request queue");
        expect_error("<disks id=\"d\" count=\"4\"><match/></disks>\n"
                     "<vg id=\"v\" pvs=\"d\"><lv name=\"l\" size=\"10%\"><tune scheduler=\"bfq\"/></lv></vg>",
                     si, "tune-stacked", 4, "no I/O scheduler");
        expect_error("<disks id=\"d\" count=\"4\"><match/><tune safe-mode-delay=\"1\"/></disks>", si,
                     "safe-mode-delay", 3, NULL);
        free_sysinfo(si);
}

static void test_references(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(4, 1 * TiB, "ATA", "x", 64 * GiB);
        expect_error("<disks id=\"d\" count=\"4\"><match/></disks>\n<md id=\"m\" level=\"5\" devices=\"e\"/>", si,
                     "reference", 4, "\"e\"");
        expect_error("<disks id=\"d\" count=\"4\"><match/></disks>\n<md id=\"m\" level=\"5\" devices=\"d\"/>\n"
                     "<xfs on=\"d\" label=\"x%n\"/>",
                     si, "used-twice", 5, "md m");
        expect_error("<disks id=\"d\" count=\"4\"><match/><gpt><partition id=\"p\" size=\"100%\"/></gpt></disks>\n"
                     "<md id=\"m\" level=\"5\" devices=\"d\"/>",
                     si, "reference", 4, "partitioned");
        expect_error("<disks id=\"d\" count=\"4\"><match/></disks>\n<md id=\"d\" level=\"5\" devices=\"d\"/>", si,
                     "duplicate-id", 4, NULL);
        /* generated disk ids take part: <disks id="d" count="2"> makes d1 and d2 */
        expect_error("<disks id=\"d\" count=\"2\"><match name=\"sd[ab]\"/></disks>\n"
                     "<disks id=\"d2\" count=\"2\"><match name=\"sd[cd]\"/></disks>",
                     si, "duplicate-id", 4, "disk 2 of <disks id=\"d\" count=\"2\">");
        expect_error("<disks id=\"d\" count=\"4\"><match/></disks>\n<xfs on=\"d\" mountpoint=\"/data\"/>", si,
                     "template", 4, "%n");
        free_sysinfo(si);
}

/* ---- derived geometry end to end ---------------------------------------- */

static void test_grid_partition_and_mkfs(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(2, 8249876152320, "AMCC", "9550SX-12MI DISK", 4 * GiB);
        struct run r;
        expect_ok(&r,
                  DISKS12_RAID5 "<gpt><partition id=\"data\" size=\"100%\"/></gpt></disks>\n"
                                "<xfs on=\"lun.data\" label=\"grid%n\" mountpoint=\"/storage/data%n\"/>",
                  si);
        const struct pl_step *g = find_step(&r.pl, STEP_GPT, 0);
        assert_int_equal(g->n_parts, 1);
        assert_int_equal(g->parts[0].first_sector, 22528);              /* 11 MiB */
        assert_int_equal(g->parts[0].start_bytes % (11 * MiB), 0);
        assert_int_equal((g->parts[0].last_sector + 1) * 512 % (11 * MiB), 0); /* end aligned too */
        assert_true((g->parts[0].last_sector + 1) * 512 <= 8249876152320 - 16896);
        char *a = argv_of(find_step(&r.pl, STEP_MKFS, 0));
        assert_non_null(strstr(a, "-d su=64k,sw=11 -l version=2,su=4k /dev/sdb1"));
        free(a);
        /* fstab: UUID, logbufs, logbsize ≥ log su, swalloc (parity), never sunit */
        assert_int_equal(r.pl.files[0].kind, FILE_FSTAB);
        const char *fstab = content(&r, 0);
        assert_non_null(strstr(fstab, "UUID="));
        assert_non_null(strstr(fstab, "/storage/data2\txfs\tlogbufs=8,logbsize=256k,swalloc\t0 0"));
        assert_null(strstr(fstab, "sunit"));
        run_free(&r);
        free_sysinfo(si);
}

static void test_md_raid6_lvm(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(6, 1 * TiB, "SEAGATE", "ST", 64 * GiB);
        struct run r;
        expect_ok(&r,
                  "<disks id=\"d\" count=\"6\"><match/></disks>\n"
                  "<md id=\"r6\" level=\"6\" chunk=\"64K\" devices=\"d\"/>\n"
                  "<vg id=\"v\" pvs=\"r6\"><lv name=\"a\" size=\"50%VG\"/><lv name=\"b\" size=\"100G\"/></vg>\n"
                  "<xfs on=\"v/a\" label=\"a\" mountpoint=\"/a\"/>",
                  si);
        char *a = argv_of(find_step(&r.pl, STEP_MDADM, 0));
        assert_non_null(strstr(a, "--level=6 --raid-devices=6 --chunk=64 --metadata=1.2 --bitmap=internal"));
        assert_non_null(strstr(a, "--uuid="));
        free(a);
        a = argv_of(find_step(&r.pl, STEP_PVCREATE, 0));
        assert_non_null(strstr(a, "--dataalignment=1m /dev/md/r6")); /* lcm(1 MiB, 4 data × 64k) */
        free(a);
        a = argv_of(find_step(&r.pl, STEP_VGCREATE, 0));
        assert_non_null(strstr(a, "--physicalextentsize=4m v /dev/md/r6"));
        free(a);
        a = argv_of(find_step(&r.pl, STEP_LVCREATE, 1));
        assert_non_null(strstr(a, "--size=107374182400b"));
        free(a);
        a = argv_of(find_step(&r.pl, STEP_MKFS, 0));
        assert_non_null(strstr(a, "-d su=64k,sw=4 -l version=2,su=4k /dev/v/a"));
        free(a);
        /* mdadm.conf carries the pre-assigned UUID */
        bool found = false;
        for (size_t i = 0; i < r.pl.n_files; i++)
                if (r.pl.files[i].kind == FILE_MDADM) {
                        found = true;
                        assert_non_null(strstr(content(&r, i), "ARRAY /dev/md/r6 metadata=1.2 UUID="));
                }
        assert_true(found);
        run_free(&r);
        free_sysinfo(si);
}

static void test_striped_lv_and_stacks(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(4, 16 * TiB, "LSI", "MR9361-8i", 128 * GiB);
        struct run r;
        /* RAID60: md RAID0 across hardware RAID6 LUNs of 6 x 64k (full stripe 4 x 64k = 256k, a power of
         * 2); chunk derived = one LUN stripe, 256k, so each LUN gets whole stripes in one piece:
         * su 256k, sw 4 LUNs (full 1m) */
        expect_ok(&r,
                  "<disks id=\"lun\" count=\"4\"><match/><hwraid level=\"6\" members=\"6\" chunk=\"64K\"/></disks>\n"
                  "<md id=\"s\" level=\"0\" devices=\"lun\"/>\n"
                  "<xfs on=\"s\" label=\"r60\"/>",
                  si);
        char *a = argv_of(find_step(&r.pl, STEP_MDADM, 0));
        assert_non_null(strstr(a, "--level=0 --raid-devices=4 --chunk=256 "));
        assert_null(strstr(a, "--bitmap")); /* mdadm refuses any --bitmap on raid0 */
        free(a);
        a = argv_of(find_step(&r.pl, STEP_MKFS, 0));
        assert_non_null(strstr(a, "-d su=256k,sw=4 -l version=2,su=4k "));
        free(a);
        run_free(&r);
        /* striped LV over 2 hardware RAID5 LUNs of 4 x 64k (full stripe 192k, no power of 2): the stripe
         * size is the strip, 64k; three make one LUN stripe: su 64k, sw 2 x 3 = 6; PVs aligned to
         * lcm(1m, 192k) = 3m, extent 6m */
        expect_ok(&r,
                  "<disks id=\"lun\" count=\"2\"><match name=\"sd[bc]\"/><hwraid level=\"5\" members=\"4\" chunk=\"64K\"/></disks>\n"
                  "<vg id=\"v\" pvs=\"lun\"><lv name=\"l\" size=\"50%\" stripes=\"2\"/></vg>\n<xfs on=\"v/l\"/>",
                  si);
        a = argv_of(find_step(&r.pl, STEP_LVCREATE, 0));
        assert_non_null(strstr(a, "--stripes=2 --stripesize=64k"));
        free(a);
        a = argv_of(find_step(&r.pl, STEP_PVCREATE, 0));
        assert_non_null(strstr(a, "--dataalignment=3m "));
        free(a);
        a = argv_of(find_step(&r.pl, STEP_VGCREATE, 0));
        assert_non_null(strstr(a, "--physicalextentsize=6m "));
        free(a);
        a = argv_of(find_step(&r.pl, STEP_MKFS, 0));
        assert_non_null(strstr(a, "-d su=64k,sw=6 "));
        free(a);
        run_free(&r);
        /* a stripe size that neither divides nor is a multiple of 192k is refused, naming both */
        expect_error("<disks id=\"lun\" count=\"2\"><match name=\"sd[bc]\"/><hwraid level=\"5\" members=\"4\" chunk=\"64K\"/></disks>\n"
                     "<vg id=\"v\" pvs=\"lun\"><lv name=\"l\" size=\"50%\" stripes=\"2\" stripe-size=\"256K\"/></vg>",
                     si, "lv-stripe-size", 4, "192k");
        /* over 5-disk LUNs (full 4 x 64k = 256k, a power of 2): stripe 256k, su 256k, sw 2 */
        expect_ok(&r,
                  "<disks id=\"lun\" count=\"2\"><match name=\"sd[bc]\"/><hwraid level=\"5\" members=\"5\" chunk=\"64K\"/></disks>\n"
                  "<vg id=\"v\" pvs=\"lun\"><lv name=\"l\" size=\"50%\" stripes=\"2\"/></vg>\n<xfs on=\"v/l\"/>",
                  si);
        a = argv_of(find_step(&r.pl, STEP_LVCREATE, 0));
        assert_non_null(strstr(a, "--stripes=2 --stripesize=256k"));
        free(a);
        a = argv_of(find_step(&r.pl, STEP_MKFS, 0));
        assert_non_null(strstr(a, "-d su=256k,sw=2 "));
        free(a);
        run_free(&r);
        /* md RAID0 over 12-disk RAID5 LUNs (full 704k): chunk 64k, eleven make one LUN stripe:
         * su 64k, sw 2 x 11 = 22 */
        expect_ok(&r,
                  "<disks id=\"lun\" count=\"2\"><match name=\"sd[bc]\"/><hwraid level=\"5\" members=\"12\" chunk=\"64K\"/></disks>\n"
                  "<md id=\"s\" level=\"0\" devices=\"lun\"/>\n<xfs on=\"s\"/>",
                  si);
        a = argv_of(find_step(&r.pl, STEP_MDADM, 0));
        assert_non_null(strstr(a, "--chunk=64 "));
        free(a);
        a = argv_of(find_step(&r.pl, STEP_MKFS, 0));
        assert_non_null(strstr(a, "-d su=64k,sw=22 "));
        free(a);
        run_free(&r);
        /* an md chunk of 512k over them straddles the 704k stripes: refused */
        expect_error("<disks id=\"lun\" count=\"2\"><match name=\"sd[bc]\"/><hwraid level=\"5\" members=\"12\" chunk=\"64K\"/></disks>\n"
                     "<md id=\"s\" level=\"0\" chunk=\"512K\" devices=\"lun\"/>",
                     si, "md-chunk", 4, "704k");
        free_sysinfo(si);
}

static const struct pl_obj *find_obj(const struct plan *pl, const char *id)
{
        for (size_t i = 0; i < pl->n_objs; i++)
                if (streq_ptr(pl->objs[i].id, id))
                        return &pl->objs[i];
        fail_msg("no object %s", id);
        return NULL;
}

/* md's stripe cache when the profile sets none (raid4/5/6): room for 16 full-stripe
 * writes, rows = su x sw / (data legs x 4 KiB), a power of 2 from 256 (the kernel's,
 * then left alone) to 32768, pinning at most 1/32 of the memory. */
static void test_md_stripe_cache(void **state)
{
        (void)state;
        struct run r;
        struct sysinfo *si = mk_sysinfo(4, 4 * TiB, "ATA", "disk", 64 * GiB);
        /* RAID5 4 x 64k: full 192k = 16 rows over 3 legs; 16 x 16 = 256 <= 256: left alone */
        expect_ok(&r, "<disks id=\"d\" count=\"4\"><match/></disks>\n<md id=\"m\" level=\"5\" chunk=\"64K\" devices=\"d\"/>",
                  si);
        assert_null(find_obj(&r.pl, "m")->tune.val[TUNE_STRIPE_CACHE_SIZE]);
        run_free(&r);
        free_sysinfo(si);
        si = mk_sysinfo(10, 4 * TiB, "ATA", "disk", 64 * GiB);
        /* RAID6 10 x 512k: full 4m over 8 legs = 128 rows; 16 x 128 = 2048 */
        expect_ok(&r, "<disks id=\"d\" count=\"10\"><match/></disks>\n<md id=\"m\" level=\"6\" devices=\"d\"/>", si);
        assert_string_equal(find_obj(&r.pl, "m")->tune.val[TUNE_STRIPE_CACHE_SIZE], "2048");
        assert_non_null(find_obj(&r.pl, "m")->tune.derived[TUNE_STRIPE_CACHE_SIZE]);
        assert_non_null(find_step(&r.pl, STEP_SYSFS, 0));
        run_free(&r);
        /* the profile's value wins, and raid0/raid1/raid10 get none */
        expect_ok(&r,
                  "<disks id=\"d\" count=\"10\"><match/></disks>\n<md id=\"m\" level=\"6\" devices=\"d\"><tune "
                  "stripe-cache-size=\"300\"/></md>",
                  si);
        assert_string_equal(find_obj(&r.pl, "m")->tune.val[TUNE_STRIPE_CACHE_SIZE], "300");
        assert_null(find_obj(&r.pl, "m")->tune.derived[TUNE_STRIPE_CACHE_SIZE]);
        run_free(&r);
        expect_ok(&r, "<disks id=\"d\" count=\"10\"><match/></disks>\n<md id=\"m\" level=\"10\" devices=\"d\"/>", si);
        assert_null(find_obj(&r.pl, "m")->tune.val[TUNE_STRIPE_CACHE_SIZE]);
        run_free(&r);
        free_sysinfo(si);
        /* 1 GiB of memory: 2048 x 4 KiB x 10 members = 80 MiB > 32 MiB (1/32): halved twice to 512 (20 MiB) */
        si = mk_sysinfo(10, 4 * TiB, "ATA", "disk", 1 * GiB);
        expect_ok(&r, "<disks id=\"d\" count=\"10\"><match/></disks>\n<md id=\"m\" level=\"6\" devices=\"d\"/>", si);
        assert_string_equal(find_obj(&r.pl, "m")->tune.val[TUNE_STRIPE_CACHE_SIZE], "512");
        assert_non_null(strstr(find_obj(&r.pl, "m")->tune.derived[TUNE_STRIPE_CACHE_SIZE], "halved"));
        run_free(&r);
        free_sysinfo(si);
}

/* Issue 17: one stacking rule for every md level and for LVM stripes, the
 * families that went wrong. Every figure by hand in the comment above it. */
static void test_stack_class(void **state)
{
        (void)state;
        struct run r;
        char *a;
        /* md RAID5, 4 x 64k, over disks that export io_min 4096 / io_opt 1m with a 512-byte physical
         * sector (NVMe-like): a hint, not a parity stripe. 64k divides 1m, so no warning; the width is
         * md's own: su 64k, sw 4 - 1 = 3, full 192k; parity from raid5 -> swalloc (and apply's agsize) */
        struct sysinfo *si = mk_sysinfo(4, 4 * TiB, "NVME", "x", 64 * GiB);
        for (size_t i = 0; i < si->n_devs; i++) {
                si->devs[i].io_min_bytes = 4096;
                si->devs[i].io_opt_bytes = 1 * MiB;
        }
        expect_ok(&r,
                  "<disks id=\"d\" count=\"4\"><match/></disks>\n"
                  "<md id=\"r5\" level=\"5\" chunk=\"64K\" devices=\"d\"/>\n<xfs on=\"r5\" mountpoint=\"/d\"/>",
                  si);
        a = argv_of(find_step(&r.pl, STEP_MKFS, 0));
        assert_non_null(strstr(a, "-d su=64k,sw=3 -l version=2,su=4k "));
        free(a);
        assert_true(find_obj(&r.pl, "r5")->geom.parity);
        assert_non_null(strstr(find_obj(&r.pl, "r5")->geom_why, "an exported hint"));
        assert_null(find_rule(&r, "md-chunk-rmw"));
        run_free(&r);
        /* the same with no chunk: derived from the hint's full stripe 1m, kept to 512k for a parity md
         * (the largest power of 2 of at most 512k dividing 1m): su 512k, sw 3 */
        expect_ok(&r, "<disks id=\"d\" count=\"4\"><match/></disks>\n<md id=\"r5\" level=\"5\" devices=\"d\"/>", si);
        a = argv_of(find_step(&r.pl, STEP_MDADM, 0));
        assert_non_null(strstr(a, "--chunk=512 "));
        free(a);
        assert_int_equal(find_obj(&r.pl, "r5")->geom.sw, 3);
        run_free(&r);
        /* md RAID6 of 6 and RAID10 (n2) of 4 over the same disks: sw 4 and 2 (never "N/2 LUNs" of a stack) */
        expect_ok(&r,
                  "<disks id=\"d\" count=\"4\"><match/></disks>\n<md id=\"r10\" level=\"10\" chunk=\"64K\" devices=\"d\"/>",
                  si);
        assert_int_equal(find_obj(&r.pl, "r10")->geom.sw, 2);
        assert_int_equal(find_obj(&r.pl, "r10")->geom.su_bytes, 64 * KiB);
        assert_false(find_obj(&r.pl, "r10")->geom.parity);
        run_free(&r);
        /* raid10 far and offset layouts: every member holds data in order, sw = 4 (md's io_opt) */
        expect_ok(&r,
                  "<disks id=\"d\" count=\"4\"><match/></disks>\n"
                  "<md id=\"r10\" level=\"10\" chunk=\"64K\" layout=\"f2\" devices=\"d\"/>",
                  si);
        assert_int_equal(find_obj(&r.pl, "r10")->geom.sw, 4);
        run_free(&r);
        /* a hint that a chunk straddles (io_opt 96k, io_min 32k; chunk 64k): a stripe of 3 strips, whose
         * parity the hint does not say, is planned as parity (issue 30), so the straddle is refused as
         * over declared parity LUNs, naming the way out (<hwraid level="0">); a write-granularity hint
         * (io_min 4k) that a chunk straddles is only a warning, the width md's */
        for (size_t i = 0; i < si->n_devs; i++) {
                si->devs[i].io_min_bytes = 32 * KiB;
                si->devs[i].io_opt_bytes = 96 * KiB;
        }
        expect_error("<disks id=\"d\" count=\"4\"><match/></disks>\n<md id=\"r5\" level=\"5\" chunk=\"64K\" devices=\"d\"/>",
                     si, "md-chunk", 0, "<hwraid level=\"0\"");
        for (size_t i = 0; i < si->n_devs; i++) {
                si->devs[i].io_min_bytes = 4096;
                si->devs[i].io_opt_bytes = 12 * KiB;
        }
        expect_ok(&r, "<disks id=\"d\" count=\"4\"><match/></disks>\n<md id=\"r5\" level=\"5\" chunk=\"8K\" devices=\"d\"/>",
                  si);
        assert_non_null(find_rule(&r, "md-chunk-hint"));
        assert_int_equal(find_obj(&r.pl, "r5")->geom.sw, 3);
        run_free(&r);
        free_sysinfo(si);

        /* md over 4 hardware RAID6 LUNs of 6 x 64k (full 256k, parity) */
        si = mk_sysinfo(4, 16 * TiB, "LSI", "MR9361-8i", 128 * GiB);
        const char *luns = "<disks id=\"lun\" count=\"4\"><match/><hwraid level=\"6\" members=\"6\" chunk=\"64K\"/></disks>\n";
        char *body;
        /* md RAID5 with chunk 64k: 3 data legs; 64k divides the LUNs' 256k, so each LUN must get four
         * chunks in a row: sw = 3 x 256k / 64k = 12, full 768k. No md-chunk-rmw warning under a parity
         * md: its chunks below F reach each LUN whole (the VM sweep: 0.0006-0.0025 with 16k-64k chunks) */
        body = xasprintf("%s<md id=\"m\" level=\"5\" chunk=\"64K\" devices=\"lun\"/>\n<xfs on=\"m\"/>", luns);
        expect_ok(&r, body, si);
        a = argv_of(find_step(&r.pl, STEP_MKFS, 0));
        assert_non_null(strstr(a, "-d su=64k,sw=12 "));
        free(a);
        assert_null(find_rule(&r, "md-chunk-rmw"));
        run_free(&r);
        free(body);
        /* md RAID5 with no chunk: chunk = one LUN stripe, 256k: su 256k, sw 3 (not 8) */
        body = xasprintf("%s<md id=\"m\" level=\"5\" devices=\"lun\"/>\n<xfs on=\"m\"/>", luns);
        expect_ok(&r, body, si);
        a = argv_of(find_step(&r.pl, STEP_MDADM, 0));
        assert_non_null(strstr(a, "--level=5 --raid-devices=4 --chunk=256 "));
        free(a);
        a = argv_of(find_step(&r.pl, STEP_MKFS, 0));
        assert_non_null(strstr(a, "-d su=256k,sw=3 "));
        free(a);
        assert_null(find_rule(&r, "md-chunk-rmw"));
        run_free(&r);
        free(body);
        /* md RAID1 over the same LUNs keeps the LUNs' geometry: su 64k, sw 4 (not 8), parity (swalloc) */
        body = xasprintf("%s<md id=\"m\" level=\"1\" devices=\"lun\"/>\n<xfs on=\"m\" mountpoint=\"/m\"/>", luns);
        expect_ok(&r, body, si);
        a = argv_of(find_step(&r.pl, STEP_MKFS, 0));
        assert_non_null(strstr(a, "-d su=64k,sw=4 "));
        free(a);
        assert_true(find_obj(&r.pl, "m")->geom.parity);
        run_free(&r);
        free(body);
        /* md RAID6 (2 data legs) with a 512k chunk, a multiple of 256k: su 512k, sw 2 */
        body = xasprintf("%s<md id=\"m\" level=\"6\" chunk=\"512K\" devices=\"lun\"/>\n<xfs on=\"m\"/>", luns);
        expect_ok(&r, body, si);
        a = argv_of(find_step(&r.pl, STEP_MKFS, 0));
        assert_non_null(strstr(a, "-d su=512k,sw=2 -l version=2,su=4k "));
        free(a);
        run_free(&r);
        free(body);
        free_sysinfo(si);

        /* LVM stripe over 3 hardware RAID5 LUNs of 5 x 128k (full 512k, a power of 2): -I 512k, one
         * whole LUN stripe per leg (measured in the VM: 0.0004 against 0.077 for -I 128k); su 512k,
         * sw 3; a 4k log su (parity LUNs); PV data at lcm(1m, 512k) = 1m, extent 4m */
        si = mk_sysinfo(3, 16 * TiB, "LSI", "MR9361-8i", 128 * GiB);
        const char *r5luns =
                "<disks id=\"lun\" count=\"3\"><match/><hwraid level=\"5\" members=\"5\" chunk=\"128K\"/></disks>\n";
        body = xasprintf("%s<vg id=\"v\" pvs=\"lun\"><lv name=\"l\" size=\"50%%\" stripes=\"3\"/></vg>\n<xfs on=\"v/l\"/>",
                         r5luns);
        expect_ok(&r, body, si);
        a = argv_of(find_step(&r.pl, STEP_LVCREATE, 0));
        assert_non_null(strstr(a, "--stripes=3 --stripesize=512k"));
        free(a);
        a = argv_of(find_step(&r.pl, STEP_MKFS, 0));
        assert_non_null(strstr(a, "-d su=512k,sw=3 -l version=2,su=4k "));
        free(a);
        a = argv_of(find_step(&r.pl, STEP_PVCREATE, 0));
        assert_non_null(strstr(a, "--dataalignment=1m "));
        free(a);
        run_free(&r);
        free(body);
        /* the profile's 128k: kept (su 128k, sw 3 x 4 = 12, the whole LUN stripes), with a warning */
        body = xasprintf("%s<vg id=\"v\" pvs=\"lun\"><lv name=\"l\" size=\"50%%\" stripes=\"3\" stripe-size=\"128K\"/></vg>\n"
                         "<xfs on=\"v/l\"/>",
                         r5luns);
        expect_ok(&r, body, si);
        a = argv_of(find_step(&r.pl, STEP_MKFS, 0));
        assert_non_null(strstr(a, "-d su=128k,sw=12 "));
        free(a);
        assert_non_null(find_rule(&r, "lv-stripe-rmw"));
        run_free(&r);
        free(body);
        free_sysinfo(si);

        /* LVM stripe over 2 RAID6 LUNs of 8 x 64k (full 384k, not a power of 2): -I 64k (the strip),
         * sw 2 x 6 = 12 (vm/45 measured 0.0003); PV data at lcm(1m, 384k) = 3m, extent 6m */
        si = mk_sysinfo(2, 16 * TiB, "LSI", "MR9361-8i", 128 * GiB);
        expect_ok(&r,
                  "<disks id=\"lun\" count=\"2\"><match/><hwraid level=\"6\" members=\"8\" chunk=\"64K\"/></disks>\n"
                  "<vg id=\"v\" pvs=\"lun\"><lv name=\"l\" size=\"50%\" stripes=\"2\"/></vg>\n<xfs on=\"v/l\"/>",
                  si);
        a = argv_of(find_step(&r.pl, STEP_LVCREATE, 0));
        assert_non_null(strstr(a, "--stripes=2 --stripesize=64k"));
        free(a);
        a = argv_of(find_step(&r.pl, STEP_MKFS, 0));
        assert_non_null(strstr(a, "-d su=64k,sw=12 "));
        free(a);
        a = argv_of(find_step(&r.pl, STEP_VGCREATE, 0));
        assert_non_null(strstr(a, "--physicalextentsize=6m "));
        free(a);
        assert_null(find_rule(&r, "lv-stripe-rmw"));
        run_free(&r);
        free_sysinfo(si);
}

static void test_topology(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(2, 1 * TiB, "VIRT", "x", 8 * GiB);
        si->devs[0].io_min_bytes = 65536;
        si->devs[0].io_opt_bytes = 262144;
        struct run r;
        /* no hwraid: the exported topology is used, and marked detected */
        expect_ok(&r, "<disks id=\"d\" count=\"1\"><match name=\"sdb\"/></disks><xfs on=\"d\"/>", si);
        assert_int_equal(r.pl.objs[0].geom_src, SRC_DETECTED);
        assert_int_equal(r.pl.objs[0].geom.sw, 4);
        run_free(&r);
        /* a profile that disagrees with believable hints gets a warning */
        expect_ok(&r, "<disks id=\"d\" count=\"1\"><match name=\"sdb\"/><hwraid level=\"5\" members=\"4\" chunk=\"64K\"/></disks>",
                  si);
        assert_non_null(find_rule(&r, "topology-mismatch"));
        assert_int_equal(r.pl.objs[0].geom.sw, 3);
        run_free(&r);
        /* bogus hints are distrusted */
        si->devs[1].io_min_bytes = 512;
        si->devs[1].io_opt_bytes = 33553920;
        expect_ok(&r, "<disks id=\"d\" count=\"1\"><match name=\"sdc\"/></disks>", si);
        assert_non_null(find_rule(&r, "topology-distrusted"));
        assert_int_equal(r.pl.objs[0].geom.su_bytes, 0);
        run_free(&r);
        free_sysinfo(si);
}

static void test_schema_errors_name_line(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(1, 1 * TiB, "ATA", "x", 8 * GiB);
        struct run r;
        run_plan(&r, "<disks id=\"d\" count=\"1\"><match/></disks>\n<md id=\"m\" level=\"7\" devices=\"d\"/>", si);
        assert_int_equal(r.rc, -EINVAL);
        const struct diag *d = find_rule(&r, "schema");
        assert_non_null(d);
        assert_int_equal(d->line, 4);
        run_free(&r);
        run_plan(&r, "<disks id=\"d\" count=\"1\"><match/></disks>\n<bogus/>", si);
        assert_int_equal(r.rc, -EINVAL);
        d = find_rule(&r, "unknown-element"); /* named by the loader, with the elements allowed there */
        assert_non_null(d);
        assert_int_equal(d->line, 4);
        assert_non_null(strstr(d->message, "<bogus> is not an element of <profile>"));
        run_free(&r);
        run_plan(&r, "<disks id=\"d\" count=\"1\"><match/></disks\n", si);
        assert_int_equal(r.rc, -EINVAL);
        run_free(&r);
        free_sysinfo(si);
}

static void test_seed_reproducible(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(2, 6 * TiB, "AMCC", "x", 64 * GiB);
        struct run a, b;
        expect_ok(&a, DISKS12_RAID5 "</disks><xfs on=\"lun\" label=\"l%n\"/>", si);
        expect_ok(&b, DISKS12_RAID5 "</disks><xfs on=\"lun\" label=\"l%n\"/>", si);
        assert_int_equal(a.pl.n_objs, b.pl.n_objs);
        for (size_t i = 0; i < a.pl.n_objs; i++)
                assert_true(streq_ptr(obj_uuid(&a.pl.objs[i]), obj_uuid(&b.pl.objs[i])));
        assert_int_equal(a.pl.n_files, b.pl.n_files);
        for (size_t i = 0; i < a.pl.n_files; i++)
                assert_string_equal(content(&a, i), content(&b, i));
        /* distinct objects get distinct UUIDs */
        const char *u1 = NULL, *u2 = NULL;
        for (size_t i = 0; i < a.pl.n_objs; i++)
                if (a.pl.objs[i].kind == OBJ_FS) {
                        if (!u1)
                                u1 = obj_uuid(&a.pl.objs[i]);
                        else
                                u2 = obj_uuid(&a.pl.objs[i]);
                }
        assert_non_null(u2);
        assert_string_not_equal(u1, u2);
        assert_int_equal(strlen(u1), 36);
        assert_int_equal(u1[14], '4');
        run_free(&a);
        run_free(&b);
        free_sysinfo(si);
}

static void test_fstab_merge(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(2, 6 * TiB, "AMCC", "x", 64 * GiB);
        struct run r;
        expect_ok(&r, DISKS12_RAID5 "</disks><xfs on=\"lun\" label=\"l%n\" mountpoint=\"/d%n\"/>", si);
        const char *existing = "# /etc/fstab\nUUID=aaaa / ext4 defaults 0 1\n/dev/sdb /d1 xfs defaults 0 0\n\n"
                               "# >>> storprov managed block (old)\nUUID=old /d9 xfs defaults 0 0\n# <<< storprov managed block\n"
                               "tmpfs /tmp tmpfs defaults 0 0\n";
        struct diags d = {0};
        char *out = render_fstab(&r.pl, existing, &d);
        assert_non_null(strstr(out, "UUID=aaaa / ext4 defaults 0 1\n"));         /* foreign kept */
        assert_non_null(strstr(out, "tmpfs /tmp tmpfs defaults 0 0\n"));          /* after the block, kept */
        assert_non_null(strstr(out, "# storprov: replaced by the managed block: /dev/sdb /d1 xfs")); /* conflict */
        assert_null(strstr(out, "UUID=old"));                                     /* old block replaced */
        assert_non_null(strstr(out, "\t/d1\txfs\t"));
        assert_int_equal(d.n, 1);
        /* rendering again is a fixed point */
        char *again = render_fstab(&r.pl, out, NULL);
        assert_string_equal(out, again);
        free(out);
        free(again);
        diags_free(&d);
        run_free(&r);
        free_sysinfo(si);
}

static void test_udev_rules(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(4, 1 * TiB, "ATA", "x", 64 * GiB);
        free(si->devs[1].wwn);
        si->devs[1].wwn = xstrdup(si->devs[0].wwn); /* shared WWN: fall back to the serial */
        struct run r;
        expect_ok(&r,
                  "<disks id=\"d\" count=\"4\"><match/><tune scheduler=\"bfq\" nr-requests=\"64\" read-ahead-kb=\"4096\"/></disks>\n"
                  "<md id=\"m\" level=\"5\" chunk=\"64K\" devices=\"d\"><tune stripe-cache-size=\"1024\" safe-mode-delay=\"0.5\" read-ahead-kb=\"8192\"/></md>\n"
                  "<vg id=\"v\" name=\"my-vg\" pvs=\"m\"><lv name=\"l\" size=\"10%\"><tune read-ahead-kb=\"1024\"/></lv></vg>",
                  si);
        const char *rules = NULL;
        for (size_t i = 0; i < r.pl.n_files; i++)
                if (r.pl.files[i].kind == FILE_UDEV)
                        rules = content(&r, i);
        assert_non_null(rules);
        assert_non_null(strstr(rules, "ENV{ID_SERIAL}==\"ATA_x_SER000\", ATTR{queue/scheduler}=\"bfq\", ATTR{queue/nr_requests}=\"64\""));
        assert_non_null(strstr(rules, "ENV{ID_WWN}==\"0x5000c50000000002\""));
        assert_non_null(strstr(rules, "KERNEL==\"md*\", ENV{DEVTYPE}==\"disk\", ENV{MD_UUID}=="));
        assert_non_null(strstr(rules, "ATTR{md/stripe_cache_size}=\"1024\", ATTR{md/safe_mode_delay}=\"0.5\""));
        assert_non_null(strstr(rules, "ENV{DM_UDEV_DISABLE_OTHER_RULES_FLAG}!=\"1\", ENV{DM_NAME}==\"my--vg-l\""));
        /* no scheduler or nr_requests on md/dm lines */
        for (const char *l = rules; (l = strstr(l, "KERNEL==")); l++) {
                const char *eol = strchr(l, '\n');
                char *line = strndup(l, (size_t)(eol - l));
                assert_null(strstr(line, "scheduler"));
                assert_null(strstr(line, "nr_requests"));
                free(line);
        }
        /* lvcreate readahead is in sectors */
        char *a = argv_of(find_step(&r.pl, STEP_LVCREATE, 0));
        assert_non_null(strstr(a, "--readahead=2048"));
        free(a);
        run_free(&r);
        free_sysinfo(si);
}


/* A rule key another device of the node carries: a disk falls back (and says
 * why), an md's MD_UUID, an LV's DM_NAME and a LUN's paths' key refuse. */
static void test_udev_keys_shared(void **state)
{
        (void)state;
        const char *body =
                "<disks id=\"d\" count=\"4\"><match vendor=\"ATA\"/><tune read-ahead-kb=\"4096\"/></disks>\n"
                "<md id=\"m\" level=\"5\" chunk=\"64K\" devices=\"d\"><tune stripe-cache-size=\"1024\"/></md>\n"
                "<vg id=\"v\" name=\"my-vg\" pvs=\"m\"><lv name=\"l\" size=\"10%\"><tune read-ahead-kb=\"1024\"/></lv></vg>";
        struct sysinfo *si = mk_sysinfo(6, 1 * TiB, "ATA", "x", 64 * GiB);
        /* sdf: the OS disk, another vendor, with sdb's WWN and serial; sdg: free for an md or dm below */
        struct blockdev *os = &si->devs[4], *x = &si->devs[5];
        free(os->vendor), free(os->wwn), free(os->id_serial);
        os->vendor = xstrdup("WDC");
        os->wwn = xstrdup(si->devs[0].wwn);
        os->id_serial = xstrdup(si->devs[0].id_serial);
        os->system_use = xstrdup("sdf2 is mounted at /");
        free(x->vendor), free(x->name);
        x->vendor = xstrdup("none");
        x->name = xstrdup("sdz");
        struct run r;
        expect_ok(&r, body, si);
        const struct pl_obj *d1 = &r.pl.objs[0];
        assert_string_equal(d1->disk.udev_key, "ID_PATH");
        assert_string_equal(d1->disk.udev_why, "ID_WWN 0x5000c50000000000 is shared with sdf (a system disk); "
                                               "ID_SERIAL ATA_x_SER000 is shared with sdf (a system disk)");
        assert_null(r.pl.objs[1].disk.udev_why);
        char *md_uuid = NULL;
        for (size_t i = 0; i < r.pl.n_objs; i++)
                if (r.pl.objs[i].kind == OBJ_MD)
                        md_uuid = xstrdup(obj_uuid(&r.pl.objs[i]));
        assert_non_null(md_uuid);
        run_free(&r);

        /* a foreign array with the md's planned UUID: its rule would tune it too */
        free(x->name);
        x->name = xstrdup("md9");
        x->md_uuid = md_uuid;
        x->md_devname = xstrdup("other");
        expect_error(body, si, "udev-key-shared", 0, "MD_UUID==");
        free(x->md_uuid), x->md_uuid = NULL;
        /* a dm device called like the LV, of another VG ("my--vg-l" read as vg "my-" lv "-vg-l" is hostile) */
        free(x->name);
        x->name = xstrdup("dm-7");
        x->dm_name = xstrdup("my--vg-l");
        x->dm_vg_name = xstrdup("my");
        x->dm_lv_name = xstrdup("vg-l");
        expect_error(body, si, "udev-key-shared", 0, "DM_NAME==\"my--vg-l\", which dm-7 (not v/l) carries too");
        /* the LV itself, found: not shared */
        free(x->dm_vg_name), free(x->dm_lv_name);
        x->dm_vg_name = xstrdup("my-vg");
        x->dm_lv_name = xstrdup("l");
        expect_ok(&r, body, si);
        run_free(&r);
        /* an LV whose udev record lacks the VG and LV names is still taken for the LV; a dm device
         * that is no LV (a crypt mapping) called my--vg-l is not */
        free(x->dm_vg_name), free(x->dm_lv_name);
        x->dm_vg_name = x->dm_lv_name = NULL;
        x->dm_uuid = xstrdup("LVM-abc");
        expect_ok(&r, body, si);
        run_free(&r);
        free(x->dm_uuid);
        x->dm_uuid = xstrdup("CRYPT-LUKS2-abc-my--vg-l");
        expect_error(body, si, "udev-key-shared", 0, "DM_NAME==\"my--vg-l\", which dm-7 (not v/l) carries too");
        free_sysinfo(si);
}

/* ---- multipath ------------------------------------------------------------- */

/* Four devices, two LUNs of two paths each (sdb+sdd, sdc+sde), no map yet. */
static struct sysinfo *mk_mpath(const char *wwid0, const char *wwid1)
{
        struct sysinfo *si = mk_sysinfo(4, 2 * TiB, "HPE", "MSA 2060 SAS", 64 * GiB);
        for (size_t i = 0; i < 4; i++) {
                struct blockdev *b = &si->devs[i];
                b->mpath_wwid = xstrdup(i % 2 ? wwid1 : wwid0);
                free(b->id_serial);
                b->id_serial = xstrdup(b->mpath_wwid);
                free(b->wwn);
                b->wwn = xstrdup(i % 2 ? "0x600c0ff000000001" : "0x600c0ff000000000");
        }
        si->devs[3].max_hw_sectors_kb = 512; /* sde's port allows less */
        return si;
}

/* The OS disk carries the WWN and serial the paths of LUN 1 share: the paths' rule
 * would tune it too, and the LUN has no other key its paths share: refused. */
static void test_multipath_key_shared(void **state)
{
        (void)state;
        struct sysinfo *si = mk_mpath("3600c0ff0000000000000000000000000", "3600c0ff0000000010000000000000000");
        si->devs = xrealloc(si->devs, 5 * sizeof(struct blockdev));
        struct blockdev *os = &si->devs[4];
        *os = (struct blockdev){.name = xstrdup("sda"), .devnode = xstrdup("/dev/sda"), .major = 8, .size_bytes = TiB,
                                .vendor = xstrdup("WDC"), .model = xstrdup("os"),
                                .wwn = xstrdup("0x600c0ff000000000"),
                                .id_serial = xstrdup("3600c0ff0000000000000000000000000")};
        si->n_devs = 5;
        const char *body = "<disks id=\"lun\" count=\"2\" multipath=\"true\"><match model=\"MSA*\"/>"
                           "<tune scheduler=\"mq-deadline\"/></disks>\n<xfs on=\"lun\" mountpoint=\"/d%n\"/>";
        expect_error(body, si, "udev-key-shared", 0,
                     "the paths of lun1: no key a udev rule can match them by reaches them alone (ID_WWN "
                     "0x600c0ff000000000 is shared with sda; ID_SERIAL 3600c0ff0000000000000000000000000 is shared with sda)");
        /* untuned, no rule is written: planned, the why shown */
        struct run r;
        expect_ok(&r, "<disks id=\"lun\" count=\"2\" multipath=\"true\"><match model=\"MSA*\"/></disks>\n"
                      "<xfs on=\"lun\" mountpoint=\"/d%n\"/>", si);
        assert_null(r.pl.objs[0].disk.path_udev_key);
        assert_non_null(r.pl.objs[0].disk.path_udev_why);
        assert_string_equal(r.pl.objs[1].disk.path_udev_key, "ID_WWN");
        run_free(&r);
        free_sysinfo(si);
}

static void test_multipath(void **state)
{
        (void)state;
        struct sysinfo *si = mk_mpath("3600c0ff0000000000000000000000000", "3600c0ff0000000010000000000000000");
        struct run r;
        expect_ok(&r,
                  "<disks id=\"lun\" count=\"2\" multipath=\"true\"><match model=\"MSA*\"/>"
                  "<tune scheduler=\"mq-deadline\" nr-requests=\"64\" read-ahead-kb=\"4096\" max-sectors-kb=\"256\"/></disks>\n"
                  "<xfs on=\"lun\" mountpoint=\"/d%n\"/>",
                  si);
        size_t ndisks = 0;
        for (size_t i = 0; i < r.pl.n_objs; i++) {
                const struct pl_obj *o = &r.pl.objs[i];
                if (o->kind != OBJ_DISK)
                        continue;
                ndisks++;
                assert_int_equal(o->disk.n_paths, 2);
                assert_true(o->disk.mpath_create);
                assert_string_equal(o->disk.udev_key, "DM_UUID");
                assert_string_equal(o->disk.path_udev_key, "ID_WWN"); /* unique to the LUN's two paths */
        }
        assert_int_equal(ndisks, 2);
        assert_string_equal(r.pl.objs[0].dev, "/dev/mapper/lun1");
        assert_string_equal(r.pl.objs[0].disk.paths[0]->name, "sdb");
        assert_string_equal(r.pl.objs[0].disk.paths[1]->name, "sdd");
        /* the map is made first, mkfs waits for it */
        char *a = argv_of(find_step(&r.pl, STEP_MPATH, 0));
        assert_string_equal(a, "dmsetup create lun1 --uuid=mpath-3600c0ff0000000000000000000000000 "
                               "--table=0 4294967296 multipath 1 queue_if_no_path 0 1 1 service-time 0 2 1 8:16 1 8:48 1");
        free(a);
        const struct pl_step *mk = find_step(&r.pl, STEP_MKFS, 0);
        assert_int_equal(mk->n_deps, 1);
        assert_int_equal(r.pl.steps[mk->deps[0]].kind, STEP_MPATH);
        /* nr_requests on the paths only, read_ahead on the map only */
        size_t nr = 0, ra = 0;
        for (size_t i = 0; i < r.pl.n_steps; i++) {
                const struct pl_step *st = &r.pl.steps[i];
                if (st->kind != STEP_SYSFS)
                        continue;
                if (st->attr == TUNE_NR_REQUESTS)
                        nr += st->path_kname != NULL;
                if (st->attr == TUNE_READ_AHEAD_KB) {
                        ra++;
                        assert_null(st->path_kname);
                }
        }
        assert_int_equal(nr, 4);
        assert_int_equal(ra, 2);
        /* queue memory counts every path: 4 x 64 x 256 KiB */
        assert_int_equal(r.pl.queue_mem_bytes, 4 * 64 * 256 * KiB);
        const char *conf = NULL;
        for (size_t i = 0; i < r.pl.n_files; i++)
                if (r.pl.files[i].kind == FILE_MULTIPATH)
                        conf = content(&r, i);
        assert_non_null(conf);
        assert_non_null(strstr(conf, "\t\twwid \"3600c0ff0000000010000000000000000\"\n\t\talias \"lun2\"\n"));
        assert_non_null(strstr(conf, "\twwid \"^3600c0ff0000000000000000000000000$\"\n"));
        run_free(&r);

        /* the limit of the weakest path bounds the map */
        expect_error("<disks id=\"lun\" count=\"2\" multipath=\"true\"><match/><tune max-sectors-kb=\"1024\"/></disks>", si,
                     "max-sectors-kb", 3, "sde's max_hw_sectors_kb 512");
        /* a group without multipath="true" never takes a path */
        expect_error("<disks id=\"d\" count=\"4\"><match/></disks>", si, "multipath-path", 3, "multipath=\"true\"");
        /* counts are LUNs */
        expect_error("<disks id=\"lun\" count=\"4\" multipath=\"true\"><match/></disks>", si, "disk-count", 3,
                     "(2 paths: sdb, sdd; no multipath map yet)");
        free_sysinfo(si);

        /* a WWID with a quote and a blank: refused, not cleaned */
        si = mk_mpath("36\"00 x", "3600c0ff0000000010000000000000000");
        expect_error("<disks id=\"lun\" count=\"2\" multipath=\"true\"><match/></disks>", si, "multipath-wwid", 3,
                     "(2 paths: sdb, sdd");
        free_sysinfo(si);
}

/* Two <xfs> written on one line, each with its own mkfs-options: each mkfs
 * gets its own (the plan keeps them per object, not per source line). */
static void test_mkfs_options_per_fs(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(2, 1 * TiB, "ATA", "x", 64 * GiB);
        struct run r;
        expect_ok(&r,
                  "<disks id=\"a\" count=\"1\"><match name=\"sdb\"/></disks><disks id=\"b\" count=\"1\"><match name=\"sdc\"/></disks>\n"
                  "<xfs on=\"a\" label=\"a\" mkfs-options=\"-i size=512\"/><xfs on=\"b\" label=\"b\" mkfs-options=\"-K\"/>",
                  si);
        char *a = argv_of(find_step(&r.pl, STEP_MKFS, 0));
        char *b = argv_of(find_step(&r.pl, STEP_MKFS, 1));
        assert_non_null(strstr(a, "-L a "));
        assert_non_null(strstr(a, " -i size=512 /dev/sdb"));
        assert_null(strstr(a, "-K"));
        assert_non_null(strstr(b, "-L b "));
        assert_non_null(strstr(b, " -K /dev/sdc"));
        assert_null(strstr(b, "size=512"));
        free(a);
        free(b);
        run_free(&r);
        free_sysinfo(si);
}


/* ---- partitions on md (issue 11) ---------------------------------------- */

/* mdadm 4.2's data offset (super1.c), by hand:
 *   1 TiB member = 2147483648 sectors: bitmap space 128 KiB (>= 200 GiB), headroom
 *   128 MiB (2^18 sectors << 10 = 2^28 is not above 2^31), 12 KiB + 128 KiB + 128 MiB
 *   rounded up to 1 MiB = 129 MiB (264192 sectors, what mdadm --examine shows).
 *   512 MiB member = 1048576 sectors: bitmap space 4 KiB, headroom halved from
 *   262144 sectors while << 10 exceeds 1048576: 1024 sectors (512 KiB); 12 + 4 +
 *   512 KiB rounded up = 1 MiB.
 *   64 MiB member, 512 KiB chunk: headroom halves only while the half stays >= 2
 *   chunks (2048 sectors): it stops at 2048 sectors (1 MiB) instead of 128;
 *   12 KiB + 4 KiB + 1 MiB rounded up -> 2 MiB.
 *   metadata 1.0 on 1 TiB: data at 0; the last 8 KiB + 4 KiB + 128 KiB (280
 *   sectors) hold superblock, bad-block log and bitmap. */
static void test_md_data_offset(void **state)
{
        (void)state;
        assert_int_equal(md_member_data_bytes("1.2", 1 * TiB, 64 * KiB, 0), 1 * TiB - 129 * MiB);
        assert_int_equal(md_member_data_bytes("1.1", 1 * TiB, 0, 0), 1 * TiB - 129 * MiB);
        assert_int_equal(md_member_data_bytes("1.2", 512 * MiB, 64 * KiB, 0), 511 * MiB);
        assert_int_equal(md_member_data_bytes("1.2", 512 * MiB, 0, 0), 511 * MiB);
        assert_int_equal(md_member_data_bytes("1.2", 64 * MiB, 512 * KiB, 0), 62 * MiB);
        assert_int_equal(md_member_data_bytes("1.0", 1 * TiB, 64 * KiB, 0), 1 * TiB - 280 * 512);
        /* arrays: RAID5 4 x 1 TiB: 3 x (1 TiB - 129 MiB) = 3145341 MiB; RAID6 8: 6 x;
         * RAID10 n2 4 x: 2 x; f3 6 x: 2 x; RAID1: one member, rounded to 64 KiB */
        assert_int_equal(md_array_bytes(RAID_5, "1.2", NULL, 4, 1 * TiB, 64 * KiB, 0), 3145341 * MiB);
        assert_int_equal(md_array_bytes(RAID_6, "1.2", NULL, 8, 1 * TiB, 128 * KiB, 0), 6 * (1 * TiB - 129 * MiB));
        assert_int_equal(md_array_bytes(RAID_10, "1.2", NULL, 4, 1 * TiB, 512 * KiB, 0), 2 * (1 * TiB - 129 * MiB));
        assert_int_equal(md_array_bytes(RAID_10, "1.2", "f3", 6, 1 * TiB, 512 * KiB, 0), 2 * (1 * TiB - 129 * MiB));
        assert_int_equal(md_array_bytes(RAID_1, "1.2", NULL, 2, 512 * MiB, 0, 0), 511 * MiB);
        assert_int_equal(md_array_bytes(RAID_0, "1.2", NULL, 2, 64 * MiB, 512 * KiB, 0), 2 * 62 * MiB);
        /* over LUNs whose full stripe is 448 KiB (RAID6 9 x 64K): the data starts on a
         * multiple of lcm(1 MiB, 448 KiB) = 7 MiB. 1 TiB member: 129 MiB -> 133 MiB
         * (7 x 19). 80 MiB member, 16 KiB chunk: headroom 64 KiB (halved while more
         * than 1/1024 of 163840 sectors), 12 + 4 + 64 KiB -> 1 MiB -> 7 MiB, 73 MiB left.
         * An alignment of 1 MiB or less changes nothing; metadata 1.0 keeps 0. */
        assert_int_equal(md_data_offset_bytes("1.2", 1 * TiB, 64 * KiB, 7 * MiB), 133 * MiB);
        assert_int_equal(md_member_data_bytes("1.2", 1 * TiB, 64 * KiB, 7 * MiB), 1 * TiB - 133 * MiB);
        assert_int_equal(md_data_offset_bytes("1.2", 80 * MiB, 16 * KiB, 7 * MiB), 7 * MiB);
        assert_int_equal(md_data_offset_bytes("1.2", 80 * MiB, 16 * KiB, 0), 1 * MiB);
        assert_int_equal(md_data_offset_bytes("1.2", 80 * MiB, 16 * KiB, 1 * MiB), 1 * MiB);
        assert_int_equal(md_data_offset_bytes("1.0", 1 * TiB, 64 * KiB, 7 * MiB), 0);
        /* RAID0 3 x 80 MiB over them: 3 x 73 MiB (a multiple of the 16 KiB chunk) */
        assert_int_equal(md_array_bytes(RAID_0, "1.2", NULL, 3, 80 * MiB, 16 * KiB, 7 * MiB), 3 * 73 * MiB);
}

/* RAID5 4 x 64 KiB on 1 TiB members, a GPT of 60 % XFS + 40 % PV:
 *   full stripe 3 x 64 KiB = 192 KiB; align lcm(1 MiB, 192 KiB) = 3 MiB;
 *   array 3145341 MiB (above); first partition at round_up(34 sectors, 3 MiB) = 3 MiB;
 *   usable = round_down(3145341 MiB - 16.5 KiB (backup GPT) - 3 MiB, 3 MiB) = 3145335 MiB;
 *   60 %: usable / 100 = 32981227929 bytes (truncated), x 60 = 1978873675740 bytes,
 *   just under 1887201 MiB -> round_down to 3 MiB = 1887198 MiB;
 *   the last partition takes the rest: start 3 + 1887198 = 1887201 MiB, size
 *   3145335 - 1887198 = 1258137 MiB (a multiple of 3 MiB: 419379 x 3). */
static void test_md_gpt_raid5(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(4, 1 * TiB, "SEAGATE", "ST", 64 * GiB);
        struct run r;
        expect_ok(&r,
                  "<disks id=\"d\" count=\"4\"><match/></disks>\n"
                  "<md id=\"r5\" name=\"data\" level=\"5\" chunk=\"64K\" devices=\"d\">\n"
                  "  <gpt><partition id=\"fs\" size=\"60%\"/><partition id=\"pv\" size=\"40%\"/></gpt>\n"
                  "</md>\n"
                  "<vg id=\"v\" pvs=\"r5.pv\"><lv name=\"a\" size=\"100%FREE\"/></vg>\n"
                  "<xfs on=\"r5.fs\" label=\"fs\" mountpoint=\"/fs\"/>\n"
                  "<xfs on=\"v/a\" label=\"a\" mountpoint=\"/a\"/>",
                  si);
        const struct pl_obj *md = find_obj(&r.pl, "r5");
        assert_int_equal(md->size_bytes, 3145341 * MiB);
        assert_int_equal(md->align_bytes, 3 * MiB);
        const struct pl_obj *p1 = find_obj(&r.pl, "r5.fs"), *p2 = find_obj(&r.pl, "r5.pv");
        assert_string_equal(p1->dev, "/dev/md/data1"); /* udev: md/$MD_DEVNAME%n */
        assert_string_equal(p2->dev, "/dev/md/data2");
        assert_int_equal(p1->part.start_bytes, 3 * MiB);
        assert_int_equal(p1->size_bytes, 1887198 * MiB);
        assert_int_equal(p2->part.start_bytes, 1887201 * MiB);
        assert_int_equal(p2->size_bytes, 1258137 * MiB);
        assert_int_equal(p1->part.type, PART_AUTO);   /* GPT writes linux */
        assert_int_equal(p2->part.type, PART_LVM);    /* holds a PV */
        /* geometry inherited from the md: su 64k, sw 3 */
        assert_int_equal(p1->geom.su_bytes, 64 * KiB);
        assert_int_equal(p1->geom.sw, 3);
        /* steps: mdadm, then the GPT on the md, then pvcreate on its partition and mkfs */
        const struct pl_step *md_s = find_step(&r.pl, STEP_MDADM, 0), *gpt = find_step(&r.pl, STEP_GPT, 0);
        assert_non_null(gpt);
        assert_null(find_step(&r.pl, STEP_GPT, 1));
        assert_string_equal(r.pl.objs[gpt->obj].id, "r5");
        assert_int_equal(gpt->n_deps, 1);
        assert_ptr_equal(&r.pl.steps[gpt->deps[0]], md_s);
        assert_int_equal(gpt->n_parts, 2);
        assert_int_equal(gpt->parts[0].first_sector, 6144);        /* 3 MiB / 512 */
        assert_int_equal(gpt->parts[1].first_sector, UINT64_C(1887201) * 2048);
        assert_non_null(gpt->disk_guid);
        char *a = argv_of(find_step(&r.pl, STEP_PVCREATE, 0));
        assert_non_null(strstr(a, "--dataalignment=3m /dev/md/data2"));
        free(a);
        const struct pl_step *pv = find_step(&r.pl, STEP_PVCREATE, 0);
        assert_int_equal(pv->n_deps, 1);
        assert_ptr_equal(&r.pl.steps[pv->deps[0]], gpt);
        a = argv_of(find_step(&r.pl, STEP_MKFS, 0));
        assert_non_null(strstr(a, "-d su=64k,sw=3 -l version=2,su=4k /dev/md/data1"));
        free(a);
        /* no udev rule for a partition; fstab by UUID */
        for (size_t i = 0; i < r.pl.n_files; i++)
                if (r.pl.files[i].kind == FILE_UDEV)
                        assert_null(strstr(content(&r, i), "data1"));
                else if (r.pl.files[i].kind == FILE_FSTAB)
                        assert_non_null(strstr(content(&r, i), "UUID="));
        run_free(&r);
        free_sysinfo(si);
}

/* RAID6 8 x 128 KiB on 1 TiB: full stripe 6 x 128 KiB = 768 KiB; align
 * lcm(1024 KiB = 2^10, 768 KiB = 2^8 x 3) = 2^10 x 3 KiB = 3 MiB. A 100G
 * partition: 102400 MiB rounded down to 3 MiB = 102399 MiB (34133 x 3); the
 * next starts at 3 + 102399 = 102402 MiB. An md name ending in a digit gets
 * "p": /dev/md/r6p1. XFS: su 128k, sw 6. */
static void test_md_gpt_raid6(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(8, 1 * TiB, "SEAGATE", "ST", 64 * GiB);
        struct run r;
        expect_ok(&r,
                  "<disks id=\"d\" count=\"8\"><match/></disks>\n"
                  "<md id=\"r6\" level=\"6\" chunk=\"128K\" devices=\"d\">\n"
                  "  <gpt><partition id=\"a\" size=\"100G\"/><partition id=\"b\" size=\"100%FREE\"/></gpt>\n"
                  "</md>\n"
                  "<xfs on=\"r6.a\" mountpoint=\"/a\"/>\n"
                  "<xfs on=\"r6.b\" mountpoint=\"/b\"/>",
                  si);
        const struct pl_obj *md = find_obj(&r.pl, "r6");
        assert_int_equal(md->geom.full_stripe_bytes, 768 * KiB);
        assert_int_equal(md->align_bytes, 3 * MiB);
        assert_int_equal(md->size_bytes, 6 * (1 * TiB - 129 * MiB));
        const struct pl_obj *a = find_obj(&r.pl, "r6.a"), *b = find_obj(&r.pl, "r6.b");
        assert_string_equal(a->dev, "/dev/md/r6p1");
        assert_int_equal(a->part.start_bytes, 3 * MiB);
        assert_int_equal(a->size_bytes, 102399 * MiB);
        assert_int_equal(b->part.start_bytes, 102402 * MiB);
        assert_int_equal(b->part.start_bytes % (3 * MiB), 0);
        assert_int_equal(b->size_bytes % (3 * MiB), 0);
        char *s = argv_of(find_step(&r.pl, STEP_MKFS, 0));
        assert_non_null(strstr(s, "-d su=128k,sw=6"));
        assert_non_null(strstr(s, "/dev/md/r6p1"));
        free(s);
        run_free(&r);
        free_sysinfo(si);
}

/* RAID1 of 2 x 512 MiB: no stripe, align 1 MiB; array 511 MiB (data offset 1 MiB);
 * usable = round_down(511 MiB - 16.5 KiB - 1 MiB, 1 MiB) = 509 MiB; one 100 %
 * partition as a PV: type lvm. RAID10 n2 4 x 1 TiB, default 512 KiB chunk: su
 * 512k, sw 2, full stripe 1 MiB, align 1 MiB; array 2 x (1 TiB - 129 MiB). */
static void test_md_gpt_raid1_raid10(void **state)
{
        (void)state;
        struct sysinfo *si = mk_sysinfo(6, 512 * MiB, "SEAGATE", "ST", 64 * GiB);
        for (size_t i = 2; i < 6; i++)
                si->devs[i].size_bytes = 1 * TiB;
        struct run r;
        expect_ok(&r,
                  "<disks id=\"s\" count=\"2\"><match max-size=\"1G\"/></disks>\n"
                  "<disks id=\"d\" count=\"4\"><match min-size=\"1G\"/></disks>\n"
                  "<md id=\"m1\" level=\"1\" devices=\"s\"><gpt><partition id=\"pv\" size=\"100%\"/></gpt></md>\n"
                  "<md id=\"m10\" level=\"10\" devices=\"d\"><gpt><partition id=\"fs\" size=\"100%\"/></gpt></md>\n"
                  "<vg id=\"v\" pvs=\"m1.pv\"><lv name=\"a\" size=\"100%FREE\"/></vg>\n"
                  "<xfs on=\"m10.fs\" mountpoint=\"/fs\"/>",
                  si);
        const struct pl_obj *m1 = find_obj(&r.pl, "m1"), *pv = find_obj(&r.pl, "m1.pv");
        assert_int_equal(m1->size_bytes, 511 * MiB);
        assert_int_equal(m1->align_bytes, 1 * MiB);
        assert_string_equal(pv->dev, "/dev/md/m1p1");
        assert_int_equal(pv->part.start_bytes, 1 * MiB);
        assert_int_equal(pv->size_bytes, 509 * MiB);
        assert_int_equal(pv->part.type, PART_LVM);
        const struct pl_obj *m10 = find_obj(&r.pl, "m10"), *fs = find_obj(&r.pl, "m10.fs");
        assert_int_equal(m10->size_bytes, 2 * (1 * TiB - 129 * MiB));
        assert_int_equal(m10->align_bytes, 1 * MiB);
        assert_int_equal(fs->geom.su_bytes, 512 * KiB);
        assert_int_equal(fs->geom.sw, 2);
        /* two GPT steps, each after its array's mdadm step */
        for (size_t k = 0; k < 2; k++) {
                const struct pl_step *g = find_step(&r.pl, STEP_GPT, k);
                assert_non_null(g);
                assert_int_equal(g->n_deps, 1);
                assert_int_equal(r.pl.steps[g->deps[0]].kind, STEP_MDADM);
                assert_int_equal(r.pl.steps[g->deps[0]].obj, g->obj);
        }
        run_free(&r);
        /* the same errors as on disks: 70 % + 40 % does not fit, and a partitioned md named whole */
        expect_error("<disks id=\"d\" count=\"4\"><match min-size=\"1G\"/></disks>\n"
                     "<md id=\"m\" level=\"5\" devices=\"d\">\n"
                     "<gpt><partition id=\"a\" size=\"70%\"/><partition id=\"b\" size=\"40%\"/></gpt></md>\n"
                     "<xfs on=\"m.a\"/><xfs on=\"m.b\"/>",
                     si, "partition-size", 5, "40% requested at offset");
        expect_error("<disks id=\"d\" count=\"4\"><match min-size=\"1G\"/></disks>\n"
                     "<md id=\"m\" level=\"5\" devices=\"d\"><gpt><partition id=\"a\" size=\"100%\"/></gpt></md>\n"
                     "<vg id=\"v\" pvs=\"m\"><lv name=\"x\" size=\"100%FREE\"/></vg>",
                     si, "reference", 5, "md m is partitioned");
        free_sysinfo(si);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_queue_memory),
                cmocka_unit_test(test_max_sectors),
                cmocka_unit_test(test_stripe_cache),
                cmocka_unit_test(test_raid1_rules),
                cmocka_unit_test(test_mount_options),
                cmocka_unit_test(test_sysctl_pair),
                cmocka_unit_test(test_mkfs_rejects),
                cmocka_unit_test(test_disk_count),
                cmocka_unit_test(test_stacked_tuning),
                cmocka_unit_test(test_xfs_too_small),
                cmocka_unit_test(test_references),
                cmocka_unit_test(test_grid_partition_and_mkfs),
                cmocka_unit_test(test_md_raid6_lvm),
                cmocka_unit_test(test_striped_lv_and_stacks),
                cmocka_unit_test(test_stack_class),
                cmocka_unit_test(test_md_stripe_cache),
                cmocka_unit_test(test_topology),
                cmocka_unit_test(test_schema_errors_name_line),
                cmocka_unit_test(test_seed_reproducible),
                cmocka_unit_test(test_fstab_merge),
                cmocka_unit_test(test_udev_rules),
                cmocka_unit_test(test_udev_keys_shared),
                cmocka_unit_test(test_mkfs_options_per_fs),
                cmocka_unit_test(test_md_data_offset),
                cmocka_unit_test(test_md_gpt_raid5),
                cmocka_unit_test(test_md_gpt_raid6),
                cmocka_unit_test(test_md_gpt_raid1_raid10),
                cmocka_unit_test(test_multipath),
                cmocka_unit_test(test_multipath_key_shared),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
