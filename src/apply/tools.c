/* SPDX-License-Identifier: GPL-2.0-or-later
 * The programs a run needs, checked before the first write: a plan whose
 * pvcreate would find no lvm must not write its GPT and XFS first. And an
 * XFS that is there already (the planned UUID, finished) needs no mkfs.xfs,
 * not even its dry run: a tuning repair runs where xfsprogs is gone. */
#include "apply/internal.h"

#include <stdlib.h>
#include <string.h>

#include "sys/exec.h"
#include "sys/probe.h"
#include "sys/xfs_sb.h"

/* Where each program comes from, by the names EL and Debian give the package. */
static const struct {
        const char *prog, *el, *debian;
} packages[] = {
        {"mkfs.xfs", "xfsprogs", "xfsprogs"},        {"xfs_info", "xfsprogs", "xfsprogs"},
        {"mdadm", "mdadm", "mdadm"},                 {"lvm", "lvm2", "lvm2"},
        {"dmsetup", "device-mapper", "dmsetup"},     {"multipath", "device-mapper-multipath", "multipath-tools"},
        {"mount", "util-linux", "mount"},            {"tuned-adm", "tuned", "tuned"},
        {"udevadm", "systemd-udev", "udev"},         {"wipefs", "util-linux", "util-linux"},
};

bool mkfs_already_done(struct run *r, size_t si)
{
        const struct pl_obj *o = STEP_OBJ(r, si);
        _cleanup_free_ char *dp = dev_path(&r->dev, o->dev);
        struct probe_result pr;
        if (probe_signatures(dp, 0, 0, &pr) < 0)
                return false; /* not there yet, or not readable: the step will tell */
        const struct signature *x = probe_find(&pr, "xfs");
        bool ours = x && uuid_eq(x->uuid, o->fs.uuid.planned);
        probe_result_free(&pr);
        struct xfs_sb_info sb;
        return ours && xfs_sb_read(dp, &sb) == 0 && !sb.inprogress;
}

/* Refuses a program that is not in PATH, naming its package. */
static void need(struct run *r, const char *prog, const char *what)
{
        _cleanup_free_ char *p = exec_find(prog);
        if (p)
                return;
        const char *el = NULL, *deb = NULL;
        for (size_t i = 0; i < ELEMENTSOF(packages); i++)
                if (!strcmp(packages[i].prog, prog)) {
                        el = packages[i].el;
                        deb = packages[i].debian;
                }
        _cleanup_free_ char *pkg = el ? xasprintf(" (package %s on EL, %s on Debian)", el, deb) : xstrdup("");
        run_refuse(r, "%s is not in PATH%s, and %s runs it: install it and run again; nothing was written", prog, pkg,
               what);
}

void tools_check(struct run *r)
{
        const struct plan *pl = r->pl;
        char **asked = NULL;
        for (size_t i = 0; i < pl->n_steps; i++) {
                const struct pl_step *st = &pl->steps[i];
                if (!st->argv || !st->argv[0] || strv_contains(asked, st->argv[0]))
                        continue;
                if (st->kind == STEP_MKFS && mkfs_already_done(r, i))
                        continue;
                strv_push(&asked, st->argv[0]);
                _cleanup_free_ char *what = xasprintf("step %zu (%s)", i + 1, st->desc);
                need(r, st->argv[0], what);
        }
        for (size_t i = 0; i < pl->n_objs; i++)
                if (pl->objs[i].preserve && pl->objs[i].kind == OBJ_FS && !strv_contains(asked, "xfs_info")) {
                        strv_push(&asked, "xfs_info");
                        need(r, "xfs_info", "the check of the preserved XFS");
                }
        if (r->o->mount && !strv_contains(asked, "mount"))
                need(r, "mount", "--mount");
        strv_free(asked);
}
