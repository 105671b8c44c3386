/* Units for the EL work: the LVM devices file decision and argv, the kickstart
 * include renderer, and the made-up disks of validate --offline. */
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

#include "plan/argv.h"
#include "plan/lvmdevices.h"
#include "plan/offline.h"
#include "plan/plan.h"
#include "render/file_ops.h"
#include "input/profile.h"
#include "render/render.h"
#include "render/render_ks.h"

/* ---- LVM devices file --------------------------------------------------- */

static void test_lvmconf(void **state)
{
        (void)state;
        assert_int_equal(lvmconf_use_devicesfile(NULL), -1);
        assert_int_equal(lvmconf_use_devicesfile(""), -1);
        /* commented out, as EL 9 ships it: unset */
        assert_int_equal(lvmconf_use_devicesfile("devices {\n\t# use_devicesfile = 1\n}\n"), -1);
        assert_int_equal(lvmconf_use_devicesfile("devices {\n\tuse_devicesfile = 1\n}\n"), 1);
        assert_int_equal(lvmconf_use_devicesfile("devices {\n  dir = \"/dev\"\n  use_devicesfile=0 # off\n}\n"), 0);
        /* in another section it is not the setting */
        assert_int_equal(lvmconf_use_devicesfile("global {\n use_devicesfile = 1\n}\ndevices {\n}\n"), -1);
        /* nested sections and lists do not confuse it; the last setting wins */
        assert_int_equal(lvmconf_use_devicesfile("devices {\n filter = [ \"a|.*|\" ]\n use_devicesfile = 0\n}\n"
                                                 "activation {\n x { y = 1 }\n}\ndevices { use_devicesfile = 1 }\n"),
                         1);
        assert_int_equal(lvmconf_use_devicesfile("devices/use_devicesfile = 1\n"), 1);
        char *n = lvmconf_devicesfile("devices {\n devicesfile = \"test.devices\"\n}\n");
        assert_string_equal(n, "test.devices");
        free(n);
        assert_null(lvmconf_devicesfile("devices {\n # devicesfile = \"x\"\n}\n"));
        assert_null(lvmconf_devicesfile("devices { devicesfile = \"../../etc/passwd\" }"));
}

static void test_lvmdevices_wanted(void **state)
{
        (void)state;
        char *why = NULL;
        const char *f = "/mnt/sysimage/etc/lvm/devices/system.devices";
        /* never creates the file: with none, LVM sees everything */
        assert_false(lvmdevices_wanted(1, false, f, &why));
        assert_non_null(strstr(why, "never creates"));
        free(why);
        assert_false(lvmdevices_wanted(-1, false, f, &why));
        free(why);
        /* never overrides use_devicesfile = 0 */
        assert_false(lvmdevices_wanted(0, true, f, &why));
        assert_non_null(strstr(why, "use_devicesfile = 0"));
        free(why);
        assert_true(lvmdevices_wanted(1, true, f, &why));
        free(why);
        /* EL 9/10: unset means the compiled default 1, and the installer wrote the file */
        assert_true(lvmdevices_wanted(-1, true, f, &why));
        assert_non_null(strstr(why, "EL 9"));
        free(why);
}

static void test_lvmdevices_argv(void **state)
{
        (void)state;
        char **v = lvmdevices_adddev_argv("/dev/md/data", NULL);
        char *s = strv_join(v, " ");
        assert_string_equal(s, "lvm lvmdevices --config " LVMDEVICES_CONFIG " --devicesfile system.devices --adddev /dev/md/data");
        free(s);
        strv_free(v);
        v = lvmdevices_adddev_argv("/dev/sdb1", "site.devices");
        assert_string_equal(v[5], "site.devices");
        assert_string_equal(v[7], "/dev/sdb1");
        assert_null(v[8]);
        strv_free(v);
        char *d = lvmdevices_system_dir("/mnt/sysimage/");
        assert_string_equal(d, "/mnt/sysimage/etc/lvm");
        free(d);
        d = lvmdevices_system_dir("/");
        assert_string_equal(d, "/etc/lvm");
        free(d);
        const char *file = "# LVM uses devices listed in this file.\nVERSION=1.1.2\n"
                           "IDTYPE=sys_wwid IDNAME=naa.5000c500a1b2c3d4 DEVNAME=/dev/sda2 PVID=abc PART=2\n"
                           "IDTYPE=md_uuid IDNAME=8f1c2a3b-... DEVNAME=/dev/md127 PVID=def\n";
        assert_true(lvmdevices_lists(file, "/dev/sda2", NULL));
        assert_true(lvmdevices_lists(file, "/dev/md127", NULL));
        assert_false(lvmdevices_lists(file, "/dev/md126", NULL));
        assert_false(lvmdevices_lists(file, "/dev/sda", NULL));
        assert_true(lvmdevices_lists(file, "/dev/x", "naa.5000c500a1b2c3d4"));
}

/* ---- plans from the fixtures -------------------------------------------- */

struct fx {
        struct profile p;
        struct sysinfo si;
        struct plan pl;
        struct diags d;
};

static int fx_plan_os(struct fx *f, const char *profile, const char *sysroot, char *const *os_disks)
{
        memset(f, 0, sizeof *f);
        if (profile_load(profile, &f->p, &f->d) < 0)
                return -1;
        int r = sysroot ? sysinfo_load(sysroot, &f->si, &f->d) : sysinfo_synthesize(&f->p, &f->si, &f->d);
        if (r < 0)
                return r;
        struct plan_options o = {.seed = 1, .seed_set = true, .sysroot = sysroot, .os_disks = os_disks};
        r = plan_build(&f->p, &f->si, &o, &f->pl, &f->d);
        if (r == 0)
                file_ops_list(&f->pl, NULL);
        return r;
}

static int fx_plan(struct fx *f, const char *profile, const char *sysroot)
{
        return fx_plan_os(f, profile, sysroot, NULL);
}

static void fx_free(struct fx *f, bool planned)
{
        if (planned)
                plan_free(&f->pl);
        sysinfo_free(&f->si);
        profile_free(&f->p);
        diags_free(&f->d);
}

static void test_ks_disk_name(void **state)
{
        (void)state;
        assert_string_equal(ks_disk_name("sda"), "sda");
        assert_string_equal(ks_disk_name("/dev/nvme0n1"), "nvme0n1");
        assert_string_equal(ks_disk_name("disk/by-id/wwn-0x5000c500a1b2c3d4"), "disk/by-id/wwn-0x5000c500a1b2c3d4");
        assert_null(ks_disk_name(""));
        assert_null(ks_disk_name("sda,sdb"));
        assert_null(ks_disk_name("sda sdb"));
        assert_null(ks_disk_name("../etc/passwd"));
        assert_null(ks_disk_name("mapper/../sda"));
        assert_null(ks_disk_name("by-id/x"));
        assert_null(ks_disk_name("sda\n%pre"));
}

static void test_render_ks(void **state)
{
        (void)state;
        struct fx f;
        assert_int_equal(fx_plan(&f, "profiles/grid-3ware-raid5.xml", "tests/fixtures/sysroot/grid-3ware"), 0);
        struct diags d = {0};
        char *ks = render_ks_include(&f.pl, &d);
        assert_non_null(ks);
        assert_non_null(strstr(ks, "\nignoredisk --drives=sdb,sdc\n"));
        assert_null(strstr(ks, "--only-use"));
        assert_null(strstr(ks, "\nclearpart"));
        free(ks);
        fx_free(&f, true);

        char *os[] = {"sda", NULL};
        assert_int_equal(fx_plan_os(&f, "profiles/grid-3ware-raid5.xml", "tests/fixtures/sysroot/grid-3ware", os), 0);
        ks = render_ks_include(&f.pl, &d);
        assert_non_null(ks);
        assert_non_null(strstr(ks, "\nignoredisk --only-use=sda\n"));
        assert_non_null(strstr(ks, "\nclearpart --all --initlabel --drives=sda\n"));
        assert_null(strstr(ks, "ignoredisk --drives"));
        /* the OS disks only: neither of storprov's disks anywhere in a command line */
        for (char *l = strtok(ks, "\n"); l; l = strtok(NULL, "\n"))
                if (l[0] != '#')
                        assert_null(strstr(l, "sdb")), assert_null(strstr(l, "sdc"));
        free(ks);
        assert_int_equal(d.n, 0);
        fx_free(&f, true);

        /* an OS disk that is one of storprov's, by kernel name or by any of its links: the planner
         * keeps it from the data group, which comes up short */
        const char *spellings[] = {"sdc", "/dev/sdc", "disk/by-id/scsi-3600050e04ab926008e3100005d170000",
                                   "wwn-0x600050e04ab926008e3100005d170000", "/dev/disk/by-path/pci-0000:04:00.0-scsi-0:0:0:0/"};
        for (size_t k = 0; k < ELEMENTSOF(spellings); k++) {
                char *bad[] = {"sda", (char *)spellings[k], NULL};
                assert_int_equal(fx_plan_os(&f, "profiles/grid-3ware-raid5.xml", "tests/fixtures/sysroot/grid-3ware", bad),
                                 -EINVAL);
                assert_int_equal(diags_errors(&f.d), 1);
                size_t e = 0;
                while (f.d.v[e].severity != DIAG_ERROR)
                        e++;
                assert_int_equal(f.d.v[e].rule, RULE_SYSTEM_DISK);
                assert_non_null(strstr(f.d.v[e].message, "left out: sdc matches too"));
                fx_free(&f, false);
        }
}

static void test_offline(void **state)
{
        (void)state;
        char *g = glob_example("9550SX*", 3);
        assert_string_equal(g, "9550SX3");
        free(g);
        g = glob_example("sd[b-m]", 0);
        assert_string_equal(g, "sdb");
        free(g);
        g = glob_example("AMCC?", 0);
        assert_int_equal(strlen(g), 5);
        free(g);
        g = glob_example("x[!0-9a-zA-Z]", 0);
        assert_string_equal(g, "x-");
        free(g);

        /* every shipped profile plans on its made-up disks */
        const char *profiles[] = {"grid-3ware-raid5", "md-raid6-lvm", "md-raid1-syncwrite", "hwraid0-lvm-xfs",
                                  "many-luns", "hwraid6-md0-lvm"};
        for (size_t i = 0; i < ELEMENTSOF(profiles); i++) {
                struct fx f;
                char *path = xasprintf("profiles/%s.xml", profiles[i]);
                int r = fx_plan(&f, path, NULL);
                if (r < 0) {
                        diags_print(&f.d, stderr);
                        fail_msg("%s does not plan offline", path);
                }
                /* the disks really match their group: as many as the profile counts */
                unsigned want = 0;
                for (size_t k = 0; k < f.p.n_disks; k++)
                        want += f.p.disks[k].count ? f.p.disks[k].count : 1;
                size_t got = 0;
                for (size_t k = 0; k < f.pl.n_objs; k++)
                        got += f.pl.objs[k].kind == OBJ_DISK;
                assert_int_equal(got, want);
                assert_int_equal(f.si.n_devs, want);
                free(path);
                fx_free(&f, true);
        }

        /* grid: AMCC 9550SX, 5..9 TB, rotational; sizes inside the bounds */
        struct fx f;
        assert_int_equal(fx_plan(&f, "profiles/grid-3ware-raid5.xml", NULL), 0);
        for (size_t k = 0; k < f.si.n_devs; k++) {
                const struct blockdev *b = &f.si.devs[k];
                assert_string_equal(b->vendor, "AMCC");
                assert_true(!strncmp(b->model, "9550SX", 6));
                assert_true(b->size_bytes >= 5000000000000ULL && b->size_bytes <= 9000000000000ULL);
                assert_int_equal(b->rotational, 1);
        }
        fx_free(&f, true);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_lvmconf),     cmocka_unit_test(test_lvmdevices_wanted),
                cmocka_unit_test(test_lvmdevices_argv), cmocka_unit_test(test_ks_disk_name),
                cmocka_unit_test(test_render_ks),   cmocka_unit_test(test_offline),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
