/* SPDX-License-Identifier: GPL-2.0-or-later
 * Command lines and sector maths that the planner and apply share: each is
 * written here once. */
#include "plan/plan.h"

#include <stdlib.h>

void lvm_argv_head(const struct plan *pl, char ***argv, const char *cmd)
{
        strv_push(argv, "lvm");
        strv_push(argv, cmd);
        if (pl->lvm_config) {
                strv_push(argv, "--config");
                strv_push(argv, pl->lvm_config);
        }
}

char **md_assemble_argv(const struct plan *pl, size_t mi, const char *uuid)
{
        const struct pl_obj *m = &pl->objs[mi];
        char **argv = NULL;
        strv_push(&argv, "mdadm");
        strv_push(&argv, "--assemble");
        strv_push(&argv, m->dev);
        strv_pushf(&argv, "--uuid=%s", uuid);
        strv_push(&argv, "--run");
        for (size_t k = 0; k < m->md.n_members; k++)
                strv_push(&argv, pl->objs[m->md.members[k]].dev);
        return argv;
}

char **mkfs_force_argv(char *const *argv)
{
        size_t n = strv_len(argv);
        char **nv = NULL;
        for (size_t k = 0; k < n; k++) {
                if (k == n - 1)
                        strv_push(&nv, "-f"); /* just before the device */
                strv_push(&nv, argv[k]);
        }
        return nv;
}

void part_sectors(const struct plan *pl, size_t pi, uint64_t *ret_first, uint64_t *ret_last)
{
        const struct pl_obj *q = &pl->objs[pi];
        uint64_t sec = q->sector_bytes ? q->sector_bytes : SECTOR_BYTES;
        *ret_first = q->part.start_bytes / sec;
        *ret_last = q->size_bytes ? (q->part.start_bytes + q->size_bytes) / sec - 1 : *ret_first;
}
