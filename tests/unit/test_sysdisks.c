/* SPDX-License-Identifier: GPL-2.0-or-later
 * System disks: every spelling of a device name (devnames.c), the readers of
 * proc/self/mountinfo, proc/swaps and proc/cmdline with every byte those
 * files can hold (sysuse.c), and the marking through partitions, md and dm.
 * Expected figures are written out by hand from the fixture
 * (tests/fixtures/sysroot/grid-3ware/README) or from the kernel's formats
 * (proc(5): mountinfo; mm/swapfile.c: swaps; init/main.c: the command line). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "discover/devnames.h"
#include "discover/discover.h"
#include "discover/sysuse.h"

#define GRID "tests/fixtures/sysroot/grid-3ware"

static char *top_path(const char *rel)
{
        const char *top = getenv("STORPROV_TOP");
        return path_join(top && *top ? top : ".", rel);
}

static struct sysinfo *grid;

static int grid_setup(void **state)
{
        (void)state;
        grid = xcalloc(1, sizeof(*grid));
        struct diags d = {0};
        _cleanup_free_ char *root = top_path(GRID);
        int r = sysinfo_load(root, grid, &d);
        diags_free(&d);
        return r;
}

static int grid_teardown(void **state)
{
        (void)state;
        sysinfo_free(grid);
        free(grid);
        return 0;
}

/* "sdb" / "sda2": what a spelling resolves to, or "" for nothing, "!" for not a name */
static char *resolved(const struct sysinfo *si, const char *spelling)
{
        struct devname_hit *h = NULL;
        const char *why = NULL;
        ssize_t n = devname_resolve(si, spelling, &h, &why);
        if (n < 0)
                return xstrdup("!");
        struct sbuf b = {0};
        for (ssize_t i = 0; i < n; i++) {
                const struct blockdev *d = &si->devs[h[i].dev];
                sbuf_printf(&b, "%s%s", i ? "," : "",
                            h[i].part == DEVNAME_WHOLE ? d->name : d->partinfo[h[i].part].name);
        }
        free(h);
        return sbuf_steal(&b);
}

#define ASSERT_RESOLVES(si, spelling, want)                                                                            \
        do {                                                                                                           \
                char *_got = resolved((si), (spelling));                                                               \
                if (strcmp(_got, (want)))                                                                              \
                        fail_msg("\"%s\" resolved to \"%s\", expected \"%s\"", (spelling), _got, (want));              \
                free(_got);                                                                                            \
        } while (0)

/* ---- spellings ------------------------------------------------------------ */

static void test_normalize(void **state)
{
        (void)state;
        static const struct {
                const char *in, *out;
        } ok[] = {
                {"sda", "sda"},
                {"/dev/sda", "sda"},
                {"/dev//sda", "sda"},
                {"//dev/sda", "sda"},
                {"/dev/sda/", "sda"},
                {"sda///", "sda"},
                {"/dev/./sda", "sda"},
                {"/dev/disk/by-id/../../sda", "sda"},
                {"disk/by-id/wwn-0x5000c500a1b2c3d4", "disk/by-id/wwn-0x5000c500a1b2c3d4"},
                {"/dev/disk/by-path/pci-0000:00:1f.2-ata-1/", "disk/by-path/pci-0000:00:1f.2-ata-1"},
                {"/dev/mapper/mpatha", "mapper/mpatha"},
                {"sd[ab]", "sd[ab]"},
                {"sda;reboot", "sda;reboot"},     /* a name no disk has, not a syntax error */
                {"dév\xff", "dév\xff"},           /* bytes above 0x7f pass: nothing answers to them */
        };
        for (size_t i = 0; i < ELEMENTSOF(ok); i++) {
                const char *why = NULL;
                char *n = devname_normalize(ok[i].in, &why);
                if (!n || strcmp(n, ok[i].out))
                        fail_msg("normalize(\"%s\") = \"%s\" (%s), expected \"%s\"", ok[i].in, n ? n : "NULL",
                                 why ? why : "", ok[i].out);
                free(n);
        }
        static const char *const bad[] = {"", "/", "/dev", "/dev/", "/sys/block/sda", "/tmp/x", "../sda",
                                          "/dev/../etc/passwd", "disk/../../sda", "sda\n", "sda\rx", "sd\ta",
                                          "\x7f", "/devx/sda"};
        for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
                const char *why = NULL;
                char *n = devname_normalize(bad[i], &why);
                if (n)
                        fail_msg("normalize accepted bad spelling #%zu as \"%s\"", i, n);
                assert_non_null(why);
        }
        /* 4096 bytes is the most; one more is refused */
        char *l = xmalloc(4098);
        memset(l, 'a', 4097);
        l[4096] = 0;
        char *n = devname_normalize(l, NULL);
        assert_non_null(n);
        free(n);
        l[4096] = 'a';
        l[4097] = 0;
        assert_null(devname_normalize(l, NULL));
        free(l);
}

static void test_resolve_grid(void **state)
{
        (void)state;
        /* sda: ATA disk, sda1 /boot, sda2 /; sdb, sdc: the 3ware LUNs (README) */
        ASSERT_RESOLVES(grid, "sda", "sda");
        ASSERT_RESOLVES(grid, "/dev/sda", "sda");
        ASSERT_RESOLVES(grid, "/dev//sda/", "sda");
        ASSERT_RESOLVES(grid, "/dev/disk/by-id/ata-WDC_WD2500JS-60NCB1_WD-WCANK7381924", "sda");
        ASSERT_RESOLVES(grid, "disk/by-id/ata-WDC_WD2500JS-60NCB1_WD-WCANK7381924", "sda");
        ASSERT_RESOLVES(grid, "by-id/ata-WDC_WD2500JS-60NCB1_WD-WCANK7381924", "sda");
        ASSERT_RESOLVES(grid, "ata-WDC_WD2500JS-60NCB1_WD-WCANK7381924", "sda");
        ASSERT_RESOLVES(grid, "/dev/disk/by-path/pci-0000:00:1f.2-ata-1", "sda");
        ASSERT_RESOLVES(grid, "pci-0000:00:1f.2-ata-1", "sda");
        ASSERT_RESOLVES(grid, "/dev/disk/by-id/wwn-0x600050e04ab71d001f5a0000c3e80000", "sdb");
        ASSERT_RESOLVES(grid, "wwn-0x600050e04ab71d001f5a0000c3e80000", "sdb");
        ASSERT_RESOLVES(grid, "/dev/disk/by-id/scsi-3600050e04ab926008e3100005d170000/", "sdc");
        ASSERT_RESOLVES(grid, "/dev/disk/by-path/../by-id/../../sdc", "sdc");
        /* partitions, by every name */
        ASSERT_RESOLVES(grid, "sda2", "sda2");
        ASSERT_RESOLVES(grid, "/dev/disk/by-id/ata-WDC_WD2500JS-60NCB1_WD-WCANK7381924-part1", "sda1");
        ASSERT_RESOLVES(grid, "/dev/disk/by-uuid/a06e2d94-1f3b-4c85-8e7a-2c4b9f10d3e8", "sda2");
        ASSERT_RESOLVES(grid, "/dev/disk/by-partuuid/0007a1b2-01", "sda1");
        /* globs: whole devices only, by kernel name or link */
        ASSERT_RESOLVES(grid, "sd[ab]", "sda,sdb");
        ASSERT_RESOLVES(grid, "sd*", "sda,sdb,sdc");
        ASSERT_RESOLVES(grid, "/dev/disk/by-id/wwn-*", "sdb,sdc");
        ASSERT_RESOLVES(grid, "wwn-*", "sdb,sdc");
        ASSERT_RESOLVES(grid, "disk/by-id/ata-*", "sda");     /* not its -part links' partitions */
        ASSERT_RESOLVES(grid, "sda?", "");                     /* partitions are never globbed */
        /* nothing */
        ASSERT_RESOLVES(grid, "sdz", "");
        ASSERT_RESOLVES(grid, "/dev/disk/by-id/wwn-0x600050e04ab71d00", ""); /* the udev ID_WWN is not a link */
        ASSERT_RESOLVES(grid, "SDA", "");
        ASSERT_RESOLVES(grid, "sda;reboot", "");
        ASSERT_RESOLVES(grid, "/dev/../etc/passwd", "!");
        ASSERT_RESOLVES(grid, "", "!");
}

static void test_resolve_spec(void **state)
{
        (void)state;
        struct devname_hit *h = NULL;
        /* sda2 carries ext3 UUID a06e2d94-… (run/udev/data/b8:2); the kernel compares UUIDs without case */
        assert_int_equal(devname_resolve_spec(grid, "UUID=A06E2D94-1F3B-4C85-8E7A-2C4B9F10D3E8", &h), 1);
        assert_string_equal(grid->devs[h[0].dev].partinfo[h[0].part].name, "sda2");
        free(h);
        assert_int_equal(devname_resolve_spec(grid, "PARTUUID=0007a1b2-01", &h), 1);
        assert_string_equal(grid->devs[h[0].dev].partinfo[h[0].part].name, "sda1");
        free(h);
        assert_int_equal(devname_resolve_spec(grid, "/dev/sda1", &h), 1);
        free(h);
        assert_int_equal(devname_resolve_spec(grid, "UUID=", &h), 0);
        assert_int_equal(devname_resolve_spec(grid, "LABEL=nosuch", &h), 0);
        assert_int_equal(devname_resolve_spec(grid, "/dev/sd*", &h), 0); /* the kernel knows no globs */
}

/* A copy of the grid tree with links under dev/: a site link, a chain, a link
 * out of the tree, a loop, absolute targets, and none of them in the udev database. */
static void test_dev_links(void **state)
{
        (void)state;
        char tmpl[] = "/tmp/storprov-devlinks-XXXXXX";
        assert_non_null(mkdtemp(tmpl));
        _cleanup_free_ char *src = top_path(GRID);
        char cmd[4096];
        snprintf(cmd, sizeof cmd,
                 "set -e; cp -r '%s'/. '%s'; cd '%s'; mkdir -p dev/disk/by-id dev/disk/by-label dev/mapper;"
                 " ln -s ../../sdb dev/disk/by-id/site-data-0;"          /* as udev makes them */
                 " ln -s disk/by-id/site-data-0 dev/osdisk;"             /* a chain through a site link */
                 " ln -s /dev/sdc dev/disk/by-id/abs-target;"            /* absolute: inside the tree */
                 " ln -s ../../../../etc/passwd dev/disk/by-id/escape;"  /* out of /dev: ignored */
                 " ln -s loop-b dev/disk/by-id/loop-a; ln -s loop-a dev/disk/by-id/loop-b;"
                 " ln -s ../../sda2 dev/disk/by-label/root;"
                 " ln -s '../../sdb' 'dev/disk/by-id/new\nline'",         /* a name no kickstart can carry */
                 src, tmpl, tmpl);
        assert_int_equal(system(cmd), 0);
        struct sysinfo si;
        struct diags d = {0};
        assert_int_equal(sysinfo_load(tmpl, &si, &d), 0);
        ASSERT_RESOLVES(&si, "/dev/disk/by-id/site-data-0", "sdb");
        ASSERT_RESOLVES(&si, "site-data-0", "sdb");
        ASSERT_RESOLVES(&si, "/dev/osdisk", "sdb");
        ASSERT_RESOLVES(&si, "osdisk/", "sdb");
        ASSERT_RESOLVES(&si, "/dev/disk/by-id/abs-target", "sdc");
        ASSERT_RESOLVES(&si, "/dev/disk/by-id/escape", "");
        ASSERT_RESOLVES(&si, "/dev/disk/by-id/loop-a", "");
        ASSERT_RESOLVES(&si, "/dev/disk/by-label/root", "sda2");
        ASSERT_RESOLVES(&si, "disk/by-id/site-*", "sdb");
        /* the udev database's links are still there */
        ASSERT_RESOLVES(&si, "wwn-0x600050e04ab71d001f5a0000c3e80000", "sdb");
        const struct blockdev *sdb = sysinfo_find(&si, "sdb");
        for (size_t k = 0; sdb->devlinks[k]; k++)
                assert_null(strchr(sdb->devlinks[k], '\n'));
        sysinfo_free(&si);
        diags_free(&d);
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpl);
        assert_int_equal(system(cmd), 0);
}

/* ---- the /proc readers ---------------------------------------------------- */

static void test_mountinfo(void **state)
{
        (void)state;
        struct mount_entry *v;
        size_t n;
        char **errs;
        /* proc(5)'s own example line, then escapes, a CR and bytes that are not UTF-8 in paths
         * (the kernel escapes blank, tab, newline and backslash only), and no final newline */
        const char text[] = "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n"
                            "37 36 8:2 / /a\\040b\\011c\\012d\\134e rw - xfs /dev/sda2 rw\n"
                            "38 36 8:3 / /cr\r rw - xfs /dev/sda3 rw\n"
                            "39 36 8:4 / /\xff\xfe rw - xfs /dev/sda4 rw";
        mountinfo_parse(text, sizeof text - 1, &v, &n, &errs);
        assert_null(errs);
        assert_int_equal(n, 4);
        assert_int_equal(v[0].major, 98);
        assert_string_equal(v[0].mountpoint, "/mnt2");
        assert_string_equal(v[0].source, "/dev/root");
        assert_string_equal(v[1].mountpoint, "/a b\tc\nd\\e");
        assert_string_equal(v[2].mountpoint, "/cr\r");
        assert_string_equal(v[3].mountpoint, "/\xff\xfe");
        assert_int_equal(v[3].line, 4);
        mount_entries_free(v, n);

        /* a NUL byte: that line is malformed, the others still read */
        const char nul[] = "1 0 8:2 / / rw - xfs /dev/sda2 rw\n2 1 8:1 / /bo\0ot rw - xfs /dev/sda1 rw\n";
        mountinfo_parse(nul, sizeof nul - 1, &v, &n, &errs);
        assert_int_equal(n, 1);
        assert_int_equal(strv_len(errs), 1);
        assert_non_null(strstr(errs[0], "line 2 holds a NUL byte"));
        strv_free(errs);
        mount_entries_free(v, n);

        /* malformed: too few fields, no separator, a bad device number, a relative mountpoint, \000 */
        const char bad[] = "garbage\n"
                           "1 0 8:2 / / rw xfs /dev/sda2 rw extra\n"
                           "1 0 8x2 / / rw - xfs /dev/sda2 rw\n"
                           "1 0 -8:2 / / rw - xfs /dev/sda2 rw\n"
                           "1 0 8:2 / rel rw - xfs /dev/sda2 rw\n"
                           "1 0 8:2 / /x\\000 rw - xfs /dev/sda2 rw\n"
                           "\n";
        mountinfo_parse(bad, sizeof bad - 1, &v, &n, &errs);
        assert_int_equal(n, 0);
        assert_int_equal(strv_len(errs), 6);
        assert_non_null(strstr(errs[0], "line 1 is not a mountinfo line"));
        strv_free(errs);
        mount_entries_free(v, n);

        /* a line of 2 MiB (an overlay's lowerdir= list) before the root line */
        size_t big = 2 * 1024 * 1024;
        char *t = xmalloc(big + 200);
        int k = sprintf(t, "5 1 0:50 / /var/lib/containers/x rw - overlay overlay rw,lowerdir=");
        memset(t + k, 'L', big);
        k += (int)big;
        k += sprintf(t + k, "\n6 1 8:2 / / rw - xfs /dev/sda2 rw\n");
        mountinfo_parse(t, (size_t)k, &v, &n, &errs);
        assert_null(errs);
        assert_int_equal(n, 2);
        assert_string_equal(v[1].mountpoint, "/");
        assert_int_equal(v[1].minor, 2);
        mount_entries_free(v, n);
        free(t);

        mountinfo_parse("", 0, &v, &n, &errs);
        assert_int_equal(n, 0);
        assert_null(errs);
}

static void test_swaps(void **state)
{
        (void)state;
        char **devs, **errs;
        unsigned *lines;
        const char text[] = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
                            "/dev/sda3                               partition\t2097148\t\t0\t\t-2\n"
                            "/swapfile                               file\t\t1048572\t\t0\t\t-3\n"
                            "/dev/mapper/vg-sw\\040ap                 partition\t1\t0\t-4\n"
                            "/dev/old kernel name                    partition\t1\t0\t-5";
        swaps_parse(text, sizeof text - 1, &devs, &lines, &errs);
        assert_null(errs);
        assert_int_equal(strv_len(devs), 3);
        assert_string_equal(devs[0], "/dev/sda3");
        assert_string_equal(devs[1], "/dev/mapper/vg-sw ap");
        assert_string_equal(devs[2], "/dev/old kernel name"); /* unescaped blanks on older kernels */
        assert_int_equal(lines[2], 5);
        strv_free(devs);
        free(lines);
        const char bad[] = "Filename Type Size Used Priority\n/dev/sda3 partition\n/dev/sd\0b partition 1 0 -1\n";
        swaps_parse(bad, sizeof bad - 1, &devs, &lines, &errs);
        assert_null(devs);
        assert_int_equal(strv_len(errs), 2);
        assert_non_null(strstr(errs[0], "line 2 is not a swaps line"));
        assert_non_null(strstr(errs[1], "line 3 holds a NUL byte"));
        strv_free(errs);
        free(lines);
}

static void test_cmdline(void **state)
{
        (void)state;
        char **errs;
        const char text[] = "BOOT_IMAGE=/vmlinuz ro\troot=\"LABEL=my root\"\r\ninst.stage2=hd:LABEL=RHEL-9:/ quiet";
        char **w = cmdline_words(text, sizeof text - 1, &errs);
        assert_null(errs);
        assert_int_equal(strv_len(w), 5);
        assert_string_equal(w[2], "root=LABEL=my root");
        assert_string_equal(w[3], "inst.stage2=hd:LABEL=RHEL-9:/");
        strv_free(w);
        const char nul[] = "root=/dev/sda2\0 resume=/dev/sda3\n";
        w = cmdline_words(nul, sizeof nul - 1, &errs);
        assert_int_equal(strv_len(errs), 1);
        assert_int_equal(strv_len(w), 2); /* what follows is still read: more system disks, never fewer */
        strv_free(w);
        strv_free(errs);

        static const struct {
                const char *word, *spec;
                unsigned kind;
        } specs[] = {
                {"root=/dev/sda2", "/dev/sda2", SYS_ROOT},
                {"root=UUID=a06e2d94-1f3b-4c85-8e7a-2c4b9f10d3e8", "UUID=a06e2d94-1f3b-4c85-8e7a-2c4b9f10d3e8", SYS_ROOT},
                {"root=live:CDLABEL=Rocky-9-5-x86_64-dvd", "CDLABEL=Rocky-9-5-x86_64-dvd", SYS_BOOTSRC},
                {"resume=/dev/mapper/rl-swap", "/dev/mapper/rl-swap", SYS_SWAP},
                {"inst.stage2=hd:LABEL=RHEL-9-4-0-BaseOS-x86_64:/", "LABEL=RHEL-9-4-0-BaseOS-x86_64", SYS_BOOTSRC},
                {"inst.repo=hd:sdb1:/isos/rhel.iso", "sdb1", SYS_BOOTSRC},
                {"inst.ks=hd:/dev/sdc1:/ks.cfg", "/dev/sdc1", SYS_BOOTSRC},
                {"ks=hd:UUID=1234-ABCD:/ks.cfg", "UUID=1234-ABCD", SYS_BOOTSRC},
                {"inst.dd=hd:LABEL=DD", "LABEL=DD", SYS_BOOTSRC},
        };
        for (size_t i = 0; i < ELEMENTSOF(specs); i++) {
                unsigned kind = 0;
                char *s = boot_word_spec(specs[i].word, &kind);
                if (!s || strcmp(s, specs[i].spec) || kind != specs[i].kind)
                        fail_msg("%s: \"%s\" kind %u", specs[i].word, s ? s : "NULL", kind);
                free(s);
        }
        static const char *const none[] = {"inst.repo=http://deploy/rocky9/", "inst.stage2=cdrom", "root=",
                                           "rootfstype=xfs", "inst.ks=hd:", "ro", "rd.lvm.lv=rl/root"};
        for (size_t i = 0; i < ELEMENTSOF(none); i++) {
                unsigned kind = 0;
                char *s = boot_word_spec(none[i], &kind);
                if (s)
                        fail_msg("%s gave \"%s\"", none[i], s);
        }
}

static void test_mountpoints(void **state)
{
        (void)state;
        static const char *const sys[] = {"/", "/boot", "/boot/", "/boot/efi", "/efi", "/usr", "/var", "/sysroot",
                                          "/sysroot/usr", "/mnt/sysimage", "/mnt/sysimage/boot", "/mnt/sysroot/var",
                                          /* as a hand-made or captured mountinfo may spell them */
                                          "//boot/", "/boot/.", "/./boot", "//", "/mnt//sysimage///boot"};
        for (size_t i = 0; i < ELEMENTSOF(sys); i++)
                if (mountpoint_system_kind(sys[i]) != SYS_ROOT)
                        fail_msg("%s is not SYS_ROOT", sys[i]);
        static const char *const src[] = {"/run/install/repo", "/run/install/isodir", "/run/initramfs/live"};
        for (size_t i = 0; i < ELEMENTSOF(src); i++)
                assert_int_equal(mountpoint_system_kind(src[i]), SYS_BOOTSRC);
        /* data under /var (ceph OSDs, a provisioned array) is not the system */
        static const char *const data[] = {"/var/lib/ceph/osd/ceph-1", "/storage/data1", "/home", "/bootx", "/mnt",
                                           "/usr2", "/run/installer", "/mnt/sysimage/storage/data1", "//storage/",
                                           "/.boot", "/boot./"};
        for (size_t i = 0; i < ELEMENTSOF(data); i++)
                if (mountpoint_system_kind(data[i]))
                        fail_msg("%s is taken for the system", data[i]);
}

/* ---- marking through partitions, md and dm --------------------------------- */

static struct blockdev mkdev(const char *name, unsigned major, unsigned minor, const char *slaves)
{
        struct blockdev b = {.name = xstrdup(name), .devnode = xasprintf("/dev/%s", name), .major = major,
                             .minor = minor, .rotational = -1};
        b.slaves = slaves ? strv_split(slaves, " ") : NULL;
        return b;
}

static void add_part(struct blockdev *b, const char *name, unsigned minor, const char *label)
{
        b->partinfo = xrealloc(b->partinfo, (b->n_partinfo + 1) * sizeof(*b->partinfo));
        b->partinfo[b->n_partinfo++] =
                (struct blockpart){.name = xstrdup(name), .major = b->major, .minor = minor, .fs_label = xstrdup(label)};
        strv_push(&b->parts, name);
}

static const struct blockdev *dev_named(const struct sysinfo *si, const char *n) { return sysinfo_find(si, n); }

static void test_mark_stack(void **state)
{
        (void)state;
        /* sda2+sdb2 → md127 → dm-0 (LVM root) mounted at /; dm-1 on sdc1 is swap; sdd1 btrfs /var with an
         * anonymous device number; sde1 is the installer's hd: source; sdf is data; dm-5 and dm-6 name
         * each other (a hostile tree) and are mounted at /usr */
        struct sysinfo si = {.sysroot = xstrdup("(test)")};
        si.devs = xcalloc(16, sizeof(struct blockdev));
        si.devs[si.n_devs] = mkdev("sda", 8, 0, NULL);
        add_part(&si.devs[si.n_devs++], "sda2", 2, NULL);
        si.devs[si.n_devs] = mkdev("sdb", 8, 16, NULL);
        add_part(&si.devs[si.n_devs++], "sdb2", 18, NULL);
        si.devs[si.n_devs] = mkdev("sdc", 8, 32, NULL);
        add_part(&si.devs[si.n_devs++], "sdc1", 33, NULL);
        si.devs[si.n_devs] = mkdev("sdd", 8, 48, NULL);
        add_part(&si.devs[si.n_devs++], "sdd1", 49, NULL);
        si.devs[si.n_devs] = mkdev("sde", 8, 64, NULL);
        add_part(&si.devs[si.n_devs++], "sde1", 65, "RHEL-9-4-0-BaseOS-x86_64");
        si.devs[si.n_devs++] = mkdev("sdf", 8, 80, NULL);
        si.devs[si.n_devs++] = mkdev("md127", 9, 127, "sda2 sdb2");
        si.devs[si.n_devs++] = mkdev("dm-0", 253, 0, "md127");
        si.devs[si.n_devs++] = mkdev("dm-1", 253, 1, "sdc1");
        si.devs[si.n_devs++] = mkdev("dm-5", 253, 5, "dm-6");
        si.devs[si.n_devs++] = mkdev("dm-6", 253, 6, "dm-5");
        const char mi[] = "20 1 253:0 / / rw - xfs /dev/mapper/rl-root rw\n"
                          "21 20 0:44 / /var rw - btrfs /dev/sdd1 rw\n"
                          "22 20 253:5 / /usr rw - xfs /dev/dm-5 rw\n"
                          "23 20 8:80 / /storage/data1 rw - xfs /dev/sdf rw\n"
                          "24 20 0:23 / /run rw - tmpfs tmpfs rw\n";
        const char sw[] = "Filename Type Size Used Priority\n/dev/dm-1 partition 8388604 0 -2\n";
        const char cl[] = "BOOT_IMAGE=vmlinuz inst.stage2=hd:LABEL=RHEL-9-4-0-BaseOS-x86_64 quiet\n";
        struct sysuse_input in = {mi, sw, cl, sizeof mi - 1, sizeof sw - 1, sizeof cl - 1};
        sysuse_mark(&si, &in);
        assert_null(si.system_errors);
        assert_int_equal(dev_named(&si, "sda")->system_kind, SYS_ROOT);
        assert_string_equal(dev_named(&si, "sda")->system_use, "dm-0 is mounted at / (sda2 is part of it)");
        assert_int_equal(dev_named(&si, "sdb")->system_kind, SYS_ROOT);
        assert_int_equal(dev_named(&si, "sdc")->system_kind, SYS_SWAP);
        assert_string_equal(dev_named(&si, "sdc")->system_use, "dm-1 is active swap (sdc1 is part of it)");
        assert_string_equal(dev_named(&si, "sdd")->system_use, "sdd1 is mounted at /var");
        assert_int_equal(dev_named(&si, "sde")->system_kind, SYS_BOOTSRC);
        assert_non_null(strstr(dev_named(&si, "sde")->system_use, "inst.stage2=hd:LABEL=RHEL-9-4-0-BaseOS-x86_64"));
        assert_int_equal(dev_named(&si, "sdf")->system_kind, 0); /* a data mount */
        assert_null(dev_named(&si, "sdf")->system_use);
        assert_int_equal(dev_named(&si, "dm-5")->system_kind, SYS_ROOT); /* the loop ended */
        /* every mount from a known device is kept, with the disks under it (the tmpfs is not) */
        assert_int_equal(si.n_mounts, 4);
        assert_string_equal(si.mounts[0].mountpoint, "/");
        assert_string_equal(si.mounts[0].device, "dm-0");
        assert_true(strv_contains(si.mounts[0].disks, "sda") && strv_contains(si.mounts[0].disks, "sdb"));
        assert_string_equal(si.mounts[1].mountpoint, "/var");
        assert_string_equal(si.mounts[1].device, "sdd1");
        assert_true(strv_contains(si.mounts[1].disks, "sdd"));
        assert_int_equal(si.mounts[1].line, 2);
        assert_string_equal(si.mounts[3].mountpoint, "/storage/data1");
        assert_string_equal(si.mounts[3].device, "sdf");
        assert_int_equal(strv_len(si.mounts[3].disks), 1);
        sysinfo_free(&si);
}

static void test_mark_errors(void **state)
{
        (void)state;
        struct sysinfo si = {.sysroot = xstrdup("(test)")};
        si.devs = xcalloc(1, sizeof(struct blockdev));
        si.devs[si.n_devs] = mkdev("sda", 8, 0, NULL);
        add_part(&si.devs[si.n_devs++], "sda2", 2, NULL);
        /* the root line is whole; the NUL breaks another: sda is marked, and the error is kept */
        const char mi[] = "20 1 8:2 / / rw - xfs /dev/sda2 rw\n21 20 8:1 / /b\0oot rw - xfs /dev/sda1 rw\n";
        struct sysuse_input in = {.mountinfo = mi, .mountinfo_len = sizeof mi - 1};
        sysuse_mark(&si, &in);
        assert_int_equal(si.devs[0].system_kind, SYS_ROOT);
        assert_int_equal(strv_len(si.system_errors), 1);
        assert_string_equal(si.system_errors[0], "proc/self/mountinfo line 2 holds a NUL byte");
        sysinfo_free(&si);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_normalize),
                cmocka_unit_test_setup_teardown(test_resolve_grid, grid_setup, grid_teardown),
                cmocka_unit_test_setup_teardown(test_resolve_spec, grid_setup, grid_teardown),
                cmocka_unit_test(test_dev_links),
                cmocka_unit_test(test_mountinfo),
                cmocka_unit_test(test_swaps),
                cmocka_unit_test(test_cmdline),
                cmocka_unit_test(test_mountpoints),
                cmocka_unit_test(test_mark_stack),
                cmocka_unit_test(test_mark_errors),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
