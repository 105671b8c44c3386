/* Hostile input: the format escapers and whitelists, mountpoint
 * normalisation, the sysctl allow-list, the checked parsers, and reads and
 * writes confined to a root (with openat2 and with the O_NOFOLLOW walk). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "discover/discover.h"
#include "plan/geometry.h"
#include "plan/udevid.h"
#include "base/sanitize.h"
#include "base/util.h"

static void test_udev_values(void **state)
{
        (void)state;
        assert_true(udev_value_safe("0x5000c500a1b2c3d4"));
        assert_true(udev_value_safe("pci-0000:00:1f.2-ata-1"));
        assert_true(udev_value_safe("WDC_WD40EFRX-68N32N0_WD-WCC7K0123456"));
        const char *bad[] = {"", "*", "a?", "[ab]", "a|b", "a\"b", "a\\b", "a b", "a\nb", "a\tb", "\x7f", "caf\xc3\xa9",
                             "*\", RUN+=\"/usr/bin/touch /tmp/x\", ENV{DEVTYPE}==\"disk"};
        for (size_t i = 0; i < ELEMENTSOF(bad); i++)
                assert_false(udev_value_safe(bad[i]));
        char longv[300];
        memset(longv, 'a', sizeof(longv) - 1);
        longv[299] = 0;
        assert_false(udev_value_safe(longv));
        assert_string_equal(udev_match_key("ID_WWN"), "ENV{ID_WWN}");
        assert_string_equal(udev_match_key("wwid"), "ATTRS{wwid}");
        assert_null(udev_match_key("RUN"));
}

/* pick: the chosen key and value of d[i] on si, and whether a why was given */
static void pick(const struct sysinfo *si, size_t i, const char *key, const char *value, const char *why_has)
{
        struct udev_ids ids;
        char *k, *v, *why;
        udev_ids_init(&ids, si);
        bool ok = udev_pick_identity(&ids, &si->devs[i], &k, &v, &why);
        udev_ids_free(&ids);
        if (!key) {
                assert_false(ok);
                assert_null(k);
                assert_null(v);
        } else {
                assert_true(ok);
                assert_string_equal(k, key);
                assert_string_equal(v, value);
        }
        if (why_has) {
                assert_non_null(why);
                if (!strstr(why, why_has))
                        fail_msg("why \"%s\" lacks \"%s\"", why, why_has);
        } else
                assert_null(why);
        free(k), free(v), free(why);
}

static void test_identity_fallback(void **state)
{
        (void)state;
        struct blockdev d[2] = {
                {.name = "sda", .wwn = "0x5000", .id_serial = "S1", .id_path = "pci-1", .wwid = "naa.5000"},
                {.name = "sdb", .wwn = "0x5000", .id_serial = "*", .id_path = "pci 2", .wwid = "eui.0025"},
        };
        struct sysinfo si = {.devs = d, .n_devs = 2};
        /* a shared WWN is skipped: serial */
        pick(&si, 0, "ID_SERIAL", "S1", "ID_WWN 0x5000 is shared with sdb");
        /* shared WWN, glob serial, blank in the path: the kernel's wwid */
        pick(&si, 1, "wwid", "eui.0025", "ID_SERIAL is no value a udev rule can match safely");
        /* nothing stable is safe: the kernel name, said why */
        d[1].wwid = "t10.ATA  x";
        pick(&si, 1, "KERNEL", "sdb", "no stable identity is unique to sdb");
        d[1].wwn = "0x6000";
        pick(&si, 1, "ID_WWN", "0x6000", NULL);
        /* not even the kernel name can be matched: refused */
        d[1].wwn = "*";
        d[1].name = "cciss!c0d0";
        pick(&si, 1, NULL, NULL, "ID_WWN is no value");
}

/* Every disk of the node, the OS disk included, shares the controller's WWN
 * and serial: the key passes to ID_PATH; a path two carry passes on to the
 * kernel name. A multipath map (dm-*) and the disk itself never count. */
static void test_identity_shared_with_os_disk(void **state)
{
        (void)state;
        struct blockdev d[4] = {
                {.name = "sda", .wwn = "0x6000", .id_serial = "3600", .id_path = "pci-0-ata-1", .system_use = "sda2 is mounted at /"},
                {.name = "sdb", .wwn = "0x6000", .id_serial = "3600", .id_path = "pci-3-scsi-0:0:0:0"},
                {.name = "sdc", .wwn = "0x6000", .id_serial = "3600", .id_path = "pci-3-scsi-0:0:1:0"},
                {.name = "sdd", .wwn = "0x7000", .id_serial = "3700", .id_path = "pci-3-scsi-0:0:1:0"},
        };
        struct sysinfo si = {.devs = d, .n_devs = 4};
        pick(&si, 1, "ID_PATH", "pci-3-scsi-0:0:0:0", "ID_WWN 0x6000 is shared with sda (a system disk), sdc");
        pick(&si, 1, "ID_PATH", "pci-3-scsi-0:0:0:0", "ID_SERIAL 3600 is shared with sda (a system disk), sdc");
        pick(&si, 2, "KERNEL", "sdc", "ID_PATH pci-3-scsi-0:0:1:0 is shared with sdd");
        pick(&si, 0, "ID_PATH", "pci-0-ata-1", "is shared with sdb, sdc");
        pick(&si, 3, "ID_WWN", "0x7000", NULL);

        /* udev_id_others: targets and dm-* are left out, names stop at three */
        struct blockdev m[6] = {{.name = "sdb", .id_serial = "X"}, {.name = "sdc", .id_serial = "X"},
                                {.name = "dm-0", .id_serial = "X"}, {.name = "sdd", .id_serial = "X"},
                                {.name = "sde", .id_serial = "X"}, {.name = "sdf", .id_serial = "X"}};
        struct sysinfo ms = {.devs = m, .n_devs = 6};
        struct udev_ids ids;
        udev_ids_init(&ids, &ms);
        const struct blockdev *paths[] = {&m[0], &m[1]};
        struct sbuf names = {0};
        assert_int_equal(udev_id_others(&ids, UDEV_ID_SERIAL, "X", paths, 2, true, &names), 3);
        assert_string_equal(names.s, "sdd, sde, sdf");
        free(names.s), names = (struct sbuf){0};
        assert_int_equal(udev_id_others(&ids, UDEV_ID_SERIAL, "X", paths, 1, false, &names), 5);
        assert_string_equal(names.s, "sdc, dm-0, sdd and 2 more");
        free(names.s);
        assert_int_equal(udev_id_others(&ids, UDEV_ID_SERIAL, "Y", paths, 2, false, NULL), 0);
        assert_int_equal(udev_id_others(&ids, UDEV_ID_WWN, "X", paths, 2, false, NULL), 0);
        udev_ids_free(&ids);
}

/* fstab fields as libmount reads them; .mount unit names as systemd does */
static void test_fstab_unescape(void **state)
{
        (void)state;
        struct { const char *in, *out; } t[] = {
                {"/a\\040b", "/a b"},         {"/a\\011b\\012c\\134d", "/a\tb\nc\\d"},
                {"/storage/d\\141ta1", "/storage/data1"}, {"/storage\\057data1", "/storage/data1"},
                {"/a\\000b", "/a\\000b"},    {"/a\\9b", "/a\\9b"}, {"/a\\04", "/a\\04"}, {"\\", "\\"}, {"", ""},
        };
        for (size_t i = 0; i < ELEMENTSOF(t); i++) {
                char *u = fstab_unescape(t[i].in);
                assert_string_equal(u, t[i].out);
                free(u);
        }
        /* an escaped field read back is the field */
        struct sbuf b = {0};
        assert_true(fstab_escape(&b, "/a b\tc\\d"));
        char *u = fstab_unescape(b.s);
        assert_string_equal(u, "/a b\tc\\d");
        free(u), free(b.s);

        struct { const char *in, *out; } m[] = {
                {"storage-data1.mount", "/storage/data1"}, {"-.mount", "/"},
                {"storage-data\\x2d1.mount", "/storage/data-1"}, {"a-b\\x20c.mount", "/a/b c"},
                {"storage--data1.mount", "/storage/data1"}, {"a\\x2fb.mount", "/a/b"}, {"a\\x00b.mount", "/a\\x00b"},
        };
        for (size_t i = 0; i < ELEMENTSOF(m); i++) {
                char *p = mount_unit_path(m[i].in);
                assert_non_null(p);
                assert_string_equal(p, m[i].out);
                free(p);
        }
        assert_null(mount_unit_path("storage-data1.service"));
        assert_null(mount_unit_path(".mount"));
        assert_null(mount_unit_path(NULL));
}

static void test_fstab_escape(void **state)
{
        (void)state;
        struct sbuf b = {0};
        assert_true(fstab_escape(&b, "/a b\tc\nd\\e"));
        assert_string_equal(b.s, "/a\\040b\\011c\\012d\\134e");
        free(b.s);
        b = (struct sbuf){0};
        assert_false(fstab_escape(&b, "a\rb"));
        assert_false(fstab_escape(&b, ""));
        assert_null(b.s);
        assert_true(mount_options_safe("noatime,inode64,logbsize=256k"));
        assert_false(mount_options_safe("noatime 0 0"));
        assert_false(mount_options_safe("noatime\n/dev/sda / xfs defaults 0 0"));
        assert_false(mount_options_safe("a#b"));
}

static void test_mountpoints(void **state)
{
        (void)state;
        const char *why;
        struct { const char *in, *out; } ok[] = {
                {"/d1", "/d1"}, {"/d1/", "/d1"}, {"//srv//data%n/", "/srv/data%n"}, {"/", "/"}, {"///", "/"},
                {"/a.b/c-d_e+f@g:h,i=j", "/a.b/c-d_e+f@g:h,i=j"}, {"/..a/b..", "/..a/b.."},
        };
        for (size_t i = 0; i < ELEMENTSOF(ok); i++) {
                char *n = mountpoint_normalize(ok[i].in, &why);
                assert_non_null(n);
                assert_string_equal(n, ok[i].out);
                free(n);
        }
        const char *bad[] = {"", "srv", "/../x", "/a/../../x", "/a/./b", "/a/..", "/a b", "/a\\040b", "/a\nb", "/a\tb", "/a#b",
                             "/caf\xc3\xa9"};
        for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
                assert_null(mountpoint_normalize(bad[i], &why));
                assert_non_null(why);
        }
}

static void test_mdadm_sysctl(void **state)
{
        (void)state;
        assert_true(mdadm_dev_safe("/dev/md/data"));
        assert_false(mdadm_dev_safe("/dev/md/../sda"));
        assert_false(mdadm_dev_safe("/dev/md data"));
        assert_false(mdadm_dev_safe("md0"));
        assert_true(uuid_safe("ab879af1:a3b74819:836f0108:5eb169f6"));
        assert_true(uuid_safe("5d0c2b7e-93a4-4f61-b8d2-0e6f3a91c457"));
        assert_false(uuid_safe("x y"));
        assert_false(uuid_safe(NULL));
        assert_true(sysctl_key_safe("vm.dirty_ratio"));
        assert_false(sysctl_key_safe("vm"));
        assert_false(sysctl_key_safe("vm.dirty_ratio\nkernel.x"));
        assert_false(sysctl_key_safe("Vm.x"));
        assert_true(sysctl_value_safe("4096 87380 6291456"));
        assert_false(sysctl_value_safe("10\nkernel.core_pattern = |/tmp/x"));
        assert_false(sysctl_value_safe(" 10"));
        assert_false(sysctl_value_safe("\x7f"));
        assert_true(sysctl_key_allowed("vm.dirty_ratio"));
        assert_true(sysctl_key_allowed("vm.dirty_background_bytes"));
        assert_true(sysctl_key_allowed("dev.raid.speed_limit_min"));
        assert_true(sysctl_key_allowed("vm.vfs_cache_pressure"));
        assert_false(sysctl_key_allowed("kernel.core_pattern"));
        assert_false(sysctl_key_allowed("vm.dirty_ratio.x"));
        assert_false(sysctl_key_allowed("net.ipv4.ip_forward"));
}

static void test_comments(void **state)
{
        (void)state;
        char *c = comment_dup("sdb\nRUN+=\"x\"\t\xc3\xa9");
        assert_string_equal(c, "sdb?RUN+=\"x\"???");
        free(c);
        c = comment_dup(NULL);
        assert_string_equal(c, "(none)");
        free(c);
}

static void test_checked_numbers(void **state)
{
        (void)state;
        uint64_t v;
        assert_int_equal(parse_u64("18446744073709551615", &v), 0);
        assert_true(v == UINT64_MAX);
        assert_int_equal(parse_u64("18446744073709551616", &v), -ERANGE);
        assert_int_equal(parse_u64("4294967299", &v), 0);
        assert_true(v == UINT64_C(4294967299));
        assert_int_equal(parse_u64("+1", &v), -EINVAL);
        assert_int_equal(parse_u64("1 ", &v), -EINVAL);
        assert_int_equal(parse_uint_range("1025", 1, 1024, &v), -ERANGE);
        assert_int_equal(parse_uint_range("1024", 1, 1024, &v), 0);
        assert_int_equal(parse_size("18446744073709551.999KB", &v), -ERANGE);
        assert_int_equal(parse_size("18446744073709551615", &v), 0);
        assert_int_equal(parse_size("18446744073709551616", &v), -ERANGE);
        assert_int_equal(parse_size("16384P", &v), -ERANGE);
        assert_int_equal(parse_size("16383P", &v), 0);
        assert_int_equal(parse_size("1.1K", &v), -EINVAL);
        assert_int_equal(parse_size("5.5T", &v), 0);
        assert_true(v == UINT64_C(6047313952768));
        assert_int_equal(parse_size("0.0000000000001K", &v), -EINVAL);
        assert_int_equal(parse_size("1.00000000000000000000K", &v), 0);
        assert_true(v == 1024);
        assert_true(mul_sat_u64(UINT64_C(1) << 54, UINT64_C(1) << 20) == UINT64_MAX);
        assert_true(add_sat_u64(UINT64_MAX, 1) == UINT64_MAX);
}

static char *mkroot(void)
{
        char *t = strdup("/tmp/storprov-root-XXXXXX");
        assert_non_null(mkdtemp(t));
        return t;
}

static void rm_rf(const char *p)
{
        char *cmd = xasprintf("rm -rf '%s'", p);
        assert_int_equal(system(cmd), 0);
        free(cmd);
}

static void confined(bool walk)
{
        if (walk)
                setenv("STORPROV_NO_OPENAT2", "1", 1);
        else
                unsetenv("STORPROV_NO_OPENAT2");
        char *root = mkroot(), *host = mkroot();
        char *p;
        /* plain: creates the parents, writes, reads back */
        assert_int_equal(write_file_in_root(root, "/etc/udev/rules.d/70-x.rules", "hello\n", 6, 0644, NULL), 0);
        char *s = NULL;
        assert_int_equal(read_file_in_root(root, "etc/udev/rules.d/70-x.rules", &s, NULL), 0);
        assert_string_equal(s, "hello\n");
        free(s);
        struct stat st;
        p = path_join(root, "etc/udev/rules.d/70-x.rules");
        assert_int_equal(stat(p, &st), 0);
        assert_int_equal(st.st_mode & 0777, 0644);
        free(p);
        /* a linked directory on the way: refused, nothing written into the host */
        p = path_join(root, "etc/sysctl.d");
        assert_int_equal(symlink(host, p), 0);
        free(p);
        assert_int_equal(write_file_in_root(root, "etc/sysctl.d/80.conf", "x", 1, 0644, NULL), -ELOOP);
        assert_int_equal(read_file_in_root(root, "etc/sysctl.d/80.conf", &s, NULL), -ELOOP);
        p = path_join(host, "80.conf");
        assert_int_equal(access(p, F_OK), -1);
        free(p);
        /* a linked file (to a secret): neither read nor replaced */
        p = path_join(host, "secret");
        FILE *f = fopen(p, "w");
        fputs("secret\n", f);
        fclose(f);
        char *link = path_join(root, "etc/fstab");
        assert_int_equal(symlink(p, link), 0);
        assert_int_equal(read_file_in_root(root, "etc/fstab", &s, NULL), -ELOOP);
        assert_int_equal(write_file_in_root(root, "etc/fstab", "x", 1, 0644, NULL), -ELOOP);
        assert_int_equal(lstat(link, &st), 0);
        assert_true(S_ISLNK(st.st_mode));
        free(link);
        free(p);
        /* .. is refused */
        assert_int_equal(write_file_in_root(root, "../escape", "x", 1, 0644, NULL), -EXDEV);
        assert_int_equal(write_file_in_root(root, "etc/../../escape", "x", 1, 0644, NULL), -EXDEV);
        /* not a regular file */
        p = path_join(root, "fifo");
        assert_int_equal(mkfifo(p, 0600), 0);
        free(p);
        assert_int_equal(read_file_in_root(root, "fifo", &s, NULL), -EINVAL);
        rm_rf(root);
        rm_rf(host);
        free(root);
        free(host);
        unsetenv("STORPROV_NO_OPENAT2");
}

static void test_root_openat2(void **state)
{
        (void)state;
        confined(false);
}

static void test_root_walk(void **state)
{
        (void)state;
        confined(true);
}

/* read_file_under and path_under with the kernel's RESOLVE_BENEATH (one
 * openat2) and without it (realpath, as on a kernel before 5.6): the same answers. */
static void read_under(bool walk)
{
        if (walk)
                setenv("STORPROV_NO_OPENAT2", "1", 1);
        char *root = mkroot(), *host = mkroot();
        char *p = path_join(root, "a"), *q = path_join(host, "secret");
        FILE *f = fopen(q, "w");
        fputs("secret\n", f);
        fclose(f);
        assert_int_equal(symlink(q, p), 0);
        char *s = NULL;
        assert_int_equal(read_file_under(root, p, &s), -ELOOP);
        assert_false(path_under(root, p));
        /* a linked directory inside the root is fine, one outside is not */
        char *din = path_join(root, "d"), *lin = path_join(root, "lin"), *lout = path_join(root, "lout");
        assert_int_equal(mkdir(din, 0755), 0);
        char *fin = path_join(din, "f");
        f = fopen(fin, "w");
        fputs("ok\n", f);
        fclose(f);
        assert_int_equal(symlink("d", lin), 0);
        assert_int_equal(symlink(host, lout), 0);
        char *via = path_join(lin, "f"), *out = path_join(lout, "secret");
        assert_int_equal(read_file_under(root, via, &s), 0);
        assert_string_equal(s, "ok\n");
        free(s);
        assert_true(path_under(root, via));
        assert_int_equal(read_file_under(root, out, &s), -EXDEV);
        assert_false(path_under(root, out));
        /* a relative link that climbs out (as sysfs's ../devices/… would, too far), through a link inside */
        const char *hb = strrchr(host, '/') + 1;
        char *climb = xasprintf("../../%s", hb), *lup = path_join(din, "up"), *lup2 = path_join(root, "up2");
        assert_int_equal(symlink(climb, lup), 0);
        assert_int_equal(symlink("lin/up", lup2), 0);
        char *o1 = path_join(lup, "secret"), *o2 = path_join(lup2, "secret");
        assert_int_equal(read_file_under(root, o1, &s), -EXDEV);
        assert_int_equal(read_file_under(root, o2, &s), -EXDEV);
        assert_false(path_under(root, o2));
        /* an absolute link back into the root is inside (judged on real paths) */
        char *abs = path_join(root, "abs"), *viaabs = path_join(abs, "f");
        assert_int_equal(symlink(din, abs), 0);
        assert_int_equal(read_file_under(root, viaabs, &s), 0);
        assert_string_equal(s, "ok\n");
        free(s);
        assert_true(path_under(root, viaabs));
        /* missing, and the root itself */
        char *none = path_join(din, "none");
        assert_int_equal(read_file_under(root, none, &s), -ENOENT);
        assert_true(path_under(root, root));
        rm_rf(root);
        rm_rf(host);
        free(root), free(host), free(p), free(q), free(din), free(lin), free(lout), free(fin), free(via), free(out);
        free(climb), free(lup), free(lup2), free(o1), free(o2), free(abs), free(viaabs), free(none);
        unsetenv("STORPROV_NO_OPENAT2");
}

static void test_read_under(void **state)
{
        (void)state;
        read_under(false);
}

static void test_read_under_realpath(void **state)
{
        (void)state;
        read_under(true);
}

static void test_geometry_no_wrap(void **state)
{
        (void)state;
        struct stripe_geom g;
        char *e = NULL;
        /* the case: level 0, 4096 members, 2048P chunk printed "full stripe 0" */
        struct raid_desc d = {.level = RAID_0, .members = 4096, .chunk_bytes = UINT64_C(2048) << 50};
        assert_int_equal(raid_geometry(&d, &g, &e), -EINVAL);
        assert_non_null(strstr(e, "at most 1024"));
        free(e);
        d.members = 1024;
        assert_int_equal(raid_geometry(&d, &g, &e), -EINVAL);
        assert_non_null(strstr(e, "larger than 1 GiB"));
        free(e);
        d.chunk_bytes = GiB;
        assert_int_equal(raid_geometry(&d, &g, &e), 0);
        assert_true(g.full_stripe_bytes == TiB);
        /* lcm past 64 bits is 0, never the 512 fallback */
        struct stripe_geom odd = {.su_bytes = 4096, .sw = 1, .full_stripe_bytes = UINT64_C(18446744073709551557)};
        assert_true(partition_align_bytes(&odd, 512) == 0);
        assert_true(vg_extent_bytes(UINT64_C(18446744073709551557)) == 0);
        /* stacking: legs x chunk checked */
        assert_int_equal(stack_geometry(NULL, 1024, GiB * 2, false, &g, &e), -EINVAL);
        free(e);
        assert_int_equal(stack_geometry(NULL, 4, 64 * KiB, false, &g, &e), 0);
        assert_true(g.full_stripe_bytes == 256 * KiB);
        /* mkfs width: (su / 512) x sw within 32 bits */
        assert_int_equal(xfs_validate_stripe(GiB, 1024, 512, &e), -EINVAL);
        free(e);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_udev_values),    cmocka_unit_test(test_identity_fallback),
                cmocka_unit_test(test_identity_shared_with_os_disk),
                cmocka_unit_test(test_fstab_unescape),
                cmocka_unit_test(test_fstab_escape),   cmocka_unit_test(test_mountpoints),
                cmocka_unit_test(test_mdadm_sysctl),   cmocka_unit_test(test_comments),
                cmocka_unit_test(test_checked_numbers), cmocka_unit_test(test_root_openat2),
                cmocka_unit_test(test_root_walk),      cmocka_unit_test(test_read_under), cmocka_unit_test(test_read_under_realpath),
                cmocka_unit_test(test_geometry_no_wrap),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
