/* The output files' table (render/file_ops.c), walked row by row: every kind
 * has exactly one row, with a path unique to it, an SELinux type, a renderer
 * and one of owner or merge rule; each row's renderer gives what the goldens
 * (tests/expected) hold for a shipped profile; the list of files is the
 * table's, in its order; and one plan that writes every kind (a multipath
 * LUN pair under md, a mounted XFS, tuning and a sysctl with --tuning both)
 * is rendered kind by kind, merged, written under a root and removed again
 * through the table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <ftw.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "discover/discover.h"
#include "input/profile.h"
#include "plan/plan.h"
#include "render/file_ops.h"
#include "render/files.h"
#include "render/merge.h"
#include "render/render.h"
#include "base/fileio.h"
#include "base/rootfs.h"
#include "sys/labels.h"
#include "base/util.h"

#define PROFILE_NAME "every-file"

/* Every kind: fstab (the mountpoint), udev rules (the <tune>), sysctl.d and
 * tuned.conf (the <sysctl> with --tuning both), mdadm.conf (the md), the
 * multipath conf.d and wwids (multipath="true"), the state file (always). */
static const char every_file_xml[] =
        "<?xml version=\"1.0\"?>\n"
        "<profile version=\"1\" name=\"" PROFILE_NAME "\">\n"
        "  <disks id=\"lun\" count=\"2\" multipath=\"true\">\n"
        "    <match vendor=\"HPE\" model=\"MSA 2060*\" min-size=\"10T\"/>\n"
        "    <tune scheduler=\"mq-deadline\" read-ahead-kb=\"4096\"/>\n"
        "  </disks>\n"
        "  <md id=\"m\" name=\"m0\" level=\"1\" devices=\"lun\" metadata=\"1.2\"/>\n"
        "  <xfs on=\"m\" label=\"d1\" mountpoint=\"/data/d1\"/>\n"
        "  <sysctl key=\"vm.dirty_ratio\" value=\"40\"/>\n"
        "</profile>\n";

/* The same profile name with nothing in it: it writes only its state file. */
static const char nothing_xml[] =
        "<?xml version=\"1.0\"?>\n<profile version=\"1\" name=\"" PROFILE_NAME "\">\n</profile>\n";

struct fx {
        struct profile p;
        struct sysinfo si;
        struct plan pl;
};

static char *top_path(const char *rel)
{
        const char *top = getenv("STORPROV_TOP");
        return path_join(top && *top ? top : ".", rel);
}

/* Plans profile file `path` on fixture `fixture` (under tests/fixtures/sysroot)
 * and lists its files by the table. */
static int fx_plan_file(struct fx *f, const char *path, const char *fixture, enum tuning_mode tuning)
{
        memset(f, 0, sizeof *f);
        struct diags d = {0};
        _cleanup_free_ char *rel = xasprintf("tests/fixtures/sysroot/%s", fixture);
        _cleanup_free_ char *sysroot = top_path(rel);
        struct plan_options o = {.seed = 1, .seed_set = true, .sysroot = sysroot, .tuning = tuning};
        int r = profile_load(path, &f->p, &d);
        if (r == 0)
                r = sysinfo_load(sysroot, &f->si, &d);
        if (r == 0)
                r = plan_build(&f->p, &f->si, &o, &f->pl, &d);
        if (r == 0)
                file_ops_list(&f->pl, NULL);
        if (r < 0)
                diags_print(&d, stderr);
        diags_free(&d);
        return r;
}

/* Plans the profile text xml on the two-path multipath fixture, --tuning both. */
static int fx_plan(struct fx *f, const char *xml)
{
        char path[] = "/tmp/storprov-test-files-XXXXXX.xml";
        int fd = mkstemps(path, 4);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, xml, strlen(xml)), (ssize_t)strlen(xml));
        close(fd);
        int r = fx_plan_file(f, path, "multipath-2path", TUNING_BOTH);
        unlink(path);
        return r;
}

static void fx_free(struct fx *f)
{
        plan_free(&f->pl);
        sysinfo_free(&f->si);
        profile_free(&f->p);
}

/* ---- the table's rows ------------------------------------------------------ */

static void test_table_rows(void **state)
{
        (void)state;
        unsigned rows[_FILE_KIND_MAX] = {0};
        for (size_t i = 0; i < file_ops_count; i++) {
                const struct file_ops *ops = &file_ops_table[i];
                assert_in_range(ops->kind, 0, _FILE_KIND_MAX - 1);
                rows[ops->kind]++;
                assert_ptr_equal(file_ops_of(ops->kind), ops);
                assert_non_null(ops->name);
                assert_true(*ops->name);
                assert_non_null(ops->render);
                assert_non_null(ops->wanted);
                /* a fixed path or a path by profile, one of them; absolute */
                assert_true((ops->path != NULL) != (ops->path_of != NULL));
                if (ops->path)
                        assert_true(ops->path[0] == '/');
                /* a type, as a context of the policy's form would carry it */
                assert_non_null(ops->selinux_type);
                _cleanup_free_ char *con = xasprintf("system_u:object_r:%s:s0", ops->selinux_type);
                assert_true(label_context_plausible(con));
                /* owned whole (an owner, unlinked) or shared (a merge rule, its block removed): one of them */
                assert_true((ops->owner != NULL) != (ops->merge != NULL));
                if (ops->merge)
                        assert_non_null(ops->merge->conflict);
                assert_true((ops->checked_apart != NULL) == (ops->checked_apart_by != NULL));
                for (size_t j = 0; j < i; j++) {
                        assert_string_not_equal(ops->name, file_ops_table[j].name);
                        if (ops->path && file_ops_table[j].path)
                                assert_string_not_equal(ops->path, file_ops_table[j].path);
                }
        }
        for (int k = 0; k < _FILE_KIND_MAX; k++)
                assert_int_equal(rows[k], 1);
        /* the state file last: written after the files it records the making of */
        assert_int_equal(file_ops_table[file_ops_count - 1].kind, FILE_STATE);
}

/* ---- each row's renderer against the goldens ------------------------------- */

static const struct golden_case {
        const char *profile;      /* profiles/NAME.xml on tests/fixtures/sysroot/NAME */
        enum tuning_mode tuning;
        enum file_kind kind;
        const char *golden;       /* under tests/expected/ */
} golden_cases[] = {
        {"multipath-2path", TUNING_UDEV, FILE_FSTAB, "multipath-2path/fstab"},
        {"multipath-2path", TUNING_UDEV, FILE_UDEV, "multipath-2path/70-storprov.rules"},
        {"grid-3ware-raid5", TUNING_UDEV, FILE_SYSCTL, "grid-3ware-raid5/80-storprov.conf"},
        {"multipath-2path", TUNING_TUNED, FILE_TUNED, "multipath-2path/tuned/tuned.conf"},
        {"md-raid6-lvm", TUNING_UDEV, FILE_MDADM, "md-raid6-lvm/mdadm.conf"},
        {"multipath-2path", TUNING_UDEV, FILE_MULTIPATH, "multipath-2path/storprov.conf"},
        {"multipath-2path", TUNING_UDEV, FILE_MPATH_WWIDS, "multipath-2path/wwids"},
};

/* Every kind but the state file (no golden: its bytes are checked by
 * state.bats) has a case; each renders, on an empty root, the golden's bytes,
 * and the plan lists the file at its row's path. */
static void test_render_goldens(void **state)
{
        (void)state;
        bool covered[_FILE_KIND_MAX] = {[FILE_STATE] = true};
        for (size_t i = 0; i < ELEMENTSOF(golden_cases); i++) {
                const struct golden_case *c = &golden_cases[i];
                const struct file_ops *ops = file_ops_of(c->kind);
                covered[c->kind] = true;
                _cleanup_free_ char *rel = xasprintf("profiles/%s.xml", c->profile);
                _cleanup_free_ char *path = top_path(rel);
                _cleanup_free_ char *grel = xasprintf("tests/expected/%s", c->golden);
                _cleanup_free_ char *gpath = top_path(grel);
                _cleanup_free_ char *want = NULL;
                assert_int_equal(read_file(gpath, &want, NULL), 0);
                struct fx f;
                assert_int_equal(fx_plan_file(&f, path, c->profile, c->tuning), 0);
                bool listed = false;
                for (size_t k = 0; k < f.pl.n_files; k++)
                        listed |= f.pl.files[k].kind == c->kind && !strcmp(f.pl.files[k].path, ops->path);
                assert_true(listed);
                _cleanup_free_ char *text = ops->render(&f.pl, NULL, NULL);
                if (strcmp(text, want))
                        fail_msg("%s: the %s row renders other bytes than %s", c->profile, ops->name, c->golden);
                fx_free(&f);
        }
        for (int k = 0; k < _FILE_KIND_MAX; k++)
                assert_true(covered[k]);
}

/* ---- the plan's files, by the table ---------------------------------------- */

static void test_plan_writes_every_kind(void **state)
{
        (void)state;
        struct fx f;
        assert_int_equal(fx_plan(&f, every_file_xml), 0);
        assert_int_equal(f.pl.n_files, file_ops_count);
        for (size_t i = 0; i < f.pl.n_files; i++) {
                /* in the table's order, each at its path */
                assert_int_equal(f.pl.files[i].kind, file_ops_table[i].kind);
                assert_string_equal(f.pl.files[i].path, f.pl.file_path[f.pl.files[i].kind]);
                for (size_t j = 0; j < i; j++)
                        assert_string_not_equal(f.pl.files[i].path, f.pl.files[j].path);
        }
        _cleanup_free_ char *state_path = xstrdup(f.pl.file_path[FILE_STATE]);
        assert_true(state_path[0] == '/');
        assert_non_null(strstr(state_path, PROFILE_NAME));
        fx_free(&f);

        /* nothing in the profile: still every kind's path, and the state file alone */
        assert_int_equal(fx_plan(&f, nothing_xml), 0);
        for (int k = 0; k < _FILE_KIND_MAX; k++)
                assert_non_null(f.pl.file_path[k]);
        assert_int_equal(f.pl.n_files, 1);
        assert_int_equal(f.pl.files[0].kind, FILE_STATE);
        fx_free(&f);
}

/* A path given for a kind (the CLI's mdadm.conf) is that kind's, listed or not. */
static void test_given_path(void **state)
{
        (void)state;
        struct fx f;
        assert_int_equal(fx_plan(&f, nothing_xml), 0);
        free(f.pl.files[0].path);
        free(f.pl.files);
        f.pl.files = NULL;
        f.pl.n_files = 0;
        for (int k = 0; k < _FILE_KIND_MAX; k++) {
                free(f.pl.file_path[k]);
                f.pl.file_path[k] = NULL;
        }
        const char *path[_FILE_KIND_MAX] = {[FILE_MDADM] = "/etc/mdadm.conf"};
        file_ops_list(&f.pl, path);
        assert_string_equal(f.pl.file_path[FILE_MDADM], "/etc/mdadm.conf");
        assert_string_equal(f.pl.file_path[FILE_FSTAB], file_ops_of(FILE_FSTAB)->path);
        fx_free(&f);
}

/* ---- every kind rendered, owned or merged, and removed ---------------------- */

static const char foreign[] = "# a line of the admin's own\n";

static void check_kind(const struct plan *pl, enum file_kind k)
{
        const struct file_ops *ops = file_ops_of(k);
        struct diags d = {0};
        _cleanup_free_ char *text = render_file(pl, k, NULL, &d);
        assert_int_equal(diags_errors(&d), 0);
        assert_true(*text);
        if (!ops->merge) {
                /* the file says who wrote it, and a foreign file names nobody */
                _cleanup_free_ char *owner = ops->owner(text), *nobody = ops->owner(foreign);
                assert_non_null(owner);
                assert_string_equal(owner, PROFILE_NAME);
                assert_null(nobody);
                assert_null(render_without(pl, k, text, NULL));
                diags_free(&d);
                return;
        }
        /* merged: the block once, idempotent, the admin's line kept, and removed again */
        assert_true(render_has_block(pl, text));
        _cleanup_free_ char *again = render_file(pl, k, text, &d);
        assert_string_equal(again, text);
        _cleanup_free_ char *merged = render_file(pl, k, foreign, &d);
        assert_non_null(strstr(merged, foreign));
        assert_true(render_has_block(pl, merged));
        _cleanup_free_ char *without = render_without(pl, k, merged, &d);
        assert_non_null(without);
        assert_false(render_has_block(pl, without));
        assert_null(strstr(without, BEGIN_MARK));
        assert_non_null(strstr(without, foreign));
        assert_int_equal(diags_errors(&d), 0);
        diags_free(&d);
}

static void test_render_every_kind(void **state)
{
        (void)state;
        struct fx f;
        assert_int_equal(fx_plan(&f, every_file_xml), 0);
        for (int k = 0; k < _FILE_KIND_MAX; k++)
                check_kind(&f.pl, (enum file_kind)k);
        fx_free(&f);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        (void)st;
        (void)flag;
        (void)ftw;
        return remove(path);
}

/* Written under a root, then the same profile asks for nothing: its own files
 * are unlinked, its blocks leave the shared files, which stay. */
static void test_write_and_remove(void **state)
{
        (void)state;
        char root[] = "/tmp/storprov-test-root-XXXXXX";
        assert_non_null(mkdtemp(root));
        struct fx f;
        assert_int_equal(fx_plan(&f, every_file_xml), 0);
        struct diags d = {0};
        struct file_result *res = NULL;
        size_t n = 0;
        assert_int_equal(render_files(&f.pl, root, false, &d, &res, &n), 0);
        assert_int_equal(n, _FILE_KIND_MAX);
        for (size_t i = 0; i < n; i++)
                assert_int_equal(res[i].action, FILE_WRITTEN);
        file_results_free(res, n);
        char *path[_FILE_KIND_MAX];
        for (int k = 0; k < _FILE_KIND_MAX; k++)
                path[k] = xstrdup(f.pl.file_path[k]);
        fx_free(&f);

        assert_int_equal(fx_plan(&f, nothing_xml), 0);
        assert_int_equal(render_files(&f.pl, root, false, &d, &res, &n), 0);
        assert_int_equal(diags_errors(&d), 0);
        assert_int_equal(n, _FILE_KIND_MAX); /* the state file rewritten, the rest removed */
        for (int k = 0; k < _FILE_KIND_MAX; k++) {
                const struct file_ops *ops = file_ops_of((enum file_kind)k);
                _cleanup_free_ char *text = NULL;
                int r = read_file_in_root(root, path[k], &text, NULL);
                if (k == FILE_STATE)
                        assert_int_equal(r, 0);
                else if (ops->merge) {
                        assert_int_equal(r, 0); /* shared: the file stays, without the block */
                        assert_false(render_has_block(&f.pl, text));
                } else
                        assert_true(r < 0);
                free(path[k]);
        }
        file_results_free(res, n);
        fx_free(&f);
        diags_free(&d);
        assert_int_equal(nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_table_rows),
                cmocka_unit_test(test_render_goldens),
                cmocka_unit_test(test_plan_writes_every_kind),
                cmocka_unit_test(test_given_path),
                cmocka_unit_test(test_render_every_kind),
                cmocka_unit_test(test_write_and_remove),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
