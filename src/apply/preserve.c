/* SPDX-License-Identifier: GPL-2.0-or-later
 * Preserved objects are verified against the plan and never written. What
 * is found on disk (md and XFS UUIDs) is recorded in the plan as the
 * objects' found identities, so the files name what is there. */
#include "apply/internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/exec.h"
#include "sys/probe.h"

static void verify_md(struct run *r, size_t mi)
{
        struct pl_obj *m = &r->pl->objs[mi];
        _cleanup_free_ char *first = dev_path(&r->dev, r->pl->objs[m->md.members[0]].dev);
        struct probe_result pr;
        _cleanup_free_ char *uuid = NULL;
        if (probe_signatures(first, 0, 0, &pr) == 0) {
                const struct signature *s = probe_find(&pr, "linux_raid_member");
                uuid = s ? uuid_to_mdadm(s->uuid) : NULL;
                probe_result_free(&pr);
        }
        if (!uuid) {
                run_refuse(r, "md %s is preserved, but %s carries no md superblock", m->md.name, r->pl->objs[m->md.members[0]].dev);
                return;
        }
        if (!dev_exists(&r->dev, m->dev)) {
                char **argv = md_assemble_argv(r->pl, mi, uuid);
                run_say_argv(r, NO_OBJ, "preserve: ", argv);
                if (run_argv(argv, NULL) != 0)
                        run_refuse(r, "md %s is preserved, but mdadm could not assemble it", m->md.name);
                strv_free(argv);
                (void)dev_wait(r, m->dev, NULL, 10000);
        }
        _cleanup_free_ char *level = md_attr(r, m, "md/level");
        _cleanup_free_ char *disks = md_attr(r, m, "md/raid_disks");
        _cleanup_free_ char *chunk = md_attr(r, m, "md/chunk_size");
        uint64_t ch = 0, nd = 0;
        if (chunk)
                (void)parse_u64(chunk, &ch);
        if (disks)
                (void)parse_u64(disks, &nd);
        if (!level || strcmp(level, raid_level_name(m->md.level)))
                run_refuse(r, "md %s is preserved, but it is %s, not %s", m->md.name, level ? level : "not running",
                       raid_level_name(m->md.level));
        else if (nd != m->md.n_members - m->md.spares)
                run_refuse(r, "md %s is preserved, but it has %" PRIu64 " raid devices, not %zu", m->md.name, nd,
                       m->md.n_members - m->md.spares);
        else if (m->md.level != RAID_1 && ch != m->md.chunk_bytes)
                run_refuse(r, "md %s is preserved, but its chunk is %" PRIu64 " bytes, not %" PRIu64, m->md.name, ch,
                       m->md.chunk_bytes);
        else
                run_say(r, "preserve: md %s verified: %s, %" PRIu64 " devices, chunk %" PRIu64 ", uuid %s", m->md.name, level,
                    nd, ch, uuid);
        ident_set_found(&m->md.uuid, uuid); /* mdadm.conf and the udev rules name the array that is there */
}

static void verify_vg(struct run *r, size_t vi)
{
        struct pl_obj *v = &r->pl->objs[vi];
        char **argv = vg_activate_argv(r->pl, vi);
        run_say_argv(r, NO_OBJ, "preserve: ", argv);
        int rc = run_argv(argv, NULL);
        strv_free(argv);
        if (rc != 0) {
                run_refuse(r, "vg %s is preserved, but it cannot be activated", v->vg.name);
                return;
        }
        for (size_t i = 0; i < r->pl->n_objs; i++) {
                struct pl_obj *l = &r->pl->objs[i];
                if (l->kind != OBJ_LV || l->parent != vi)
                        continue;
                char *t = xasprintf("%s/%s", v->vg.name, l->lv.name);
                char **out = lvm_query(r, "lvs", "lv_name,stripes,stripe_size", t, NULL);
                char **f = out ? strv_split(out[0], "|") : NULL;
                uint64_t stripes = 0, ssz = 0;
                if (strv_len(f) == 3) {
                        (void)parse_u64(strip(f[1]), &stripes);
                        (void)parse_u64(strip(f[2]), &ssz);
                }
                unsigned want = l->lv.stripes >= 2 ? l->lv.stripes : 1;
                if (!out)
                        run_refuse(r, "lv %s is preserved, but it does not exist", t);
                else if (stripes != want || (want > 1 && ssz != l->lv.stripe_bytes))
                        run_refuse(r, "lv %s is preserved, but it has %" PRIu64 " stripes of %" PRIu64 " bytes, not %u", t,
                               stripes, ssz, want);
                else
                        run_say(r, "preserve: lv %s verified: %" PRIu64 " stripe%s", t, stripes, stripes == 1 ? "" : "s");
                strv_free(f);
                strv_free(out);
                free(t);
                (void)dev_wait(r, l->dev, NULL, 5000);
        }
}

static void verify_fs(struct run *r, size_t fi)
{
        struct pl_obj *f = &r->pl->objs[fi];
        char *dp = dev_path(&r->dev, f->dev);
        struct probe_result pr;
        if (probe_signatures(dp, 0, 0, &pr) < 0) {
                run_refuse(r, "%s is preserved, but %s cannot be read", f->id, f->dev);
                free(dp);
                return;
        }
        const struct signature *s = probe_find(&pr, "xfs");
        if (!s) {
                char *d = probe_describe(&pr);
                run_refuse(r, "%s is preserved, but %s holds %s, not XFS", f->id, f->dev, *d ? d : "nothing");
                free(d);
        } else {
                ident_set_found(&f->fs.uuid, s->uuid);
                char **argv = NULL;
                strv_push(&argv, "xfs_info");
                strv_push(&argv, dp);
                char *out = NULL;
                int rc = run_argv(argv, &out);
                strv_free(argv);
                unsigned long su = 0, sw = 0;
                const char *p = out ? strstr(out, "sunit=") : NULL;
                if (rc != 0 || !p || sscanf(p, "sunit=%lu swidth=%lu", &su, &sw) != 2)
                        run_refuse(r, "%s is preserved, but xfs_info %s failed", f->id, f->dev);
                else if (su * XFS_BLOCK_BYTES != f->geom.su_bytes || sw * XFS_BLOCK_BYTES != f->geom.full_stripe_bytes)
                        run_refuse(r, "%s is preserved, but its geometry is sunit=%lu swidth=%lu blks, the plan says %" PRIu64
                                  "/%" PRIu64,
                               f->id, su, sw, f->geom.su_bytes / XFS_BLOCK_BYTES, f->geom.full_stripe_bytes / XFS_BLOCK_BYTES);
                else
                        run_say(r, "preserve: %s verified: XFS uuid %s, sunit=%lu swidth=%lu blks", f->id, obj_uuid(f), su, sw);
                free(out);
        }
        probe_result_free(&pr);
        free(dp);
}


void verify_preserved(struct run *r)
{
        const struct plan *pl = r->pl;
        for (size_t i = 0; i < pl->n_objs && !refusals(r); i++) {
                if (!pl->objs[i].preserve)
                        continue;
                if (pl->objs[i].kind == OBJ_MD)
                        verify_md(r, i);
                else if (pl->objs[i].kind == OBJ_VG)
                        verify_vg(r, i);
        }
        for (size_t i = 0; i < pl->n_objs && !refusals(r); i++)
                if (pl->objs[i].preserve && pl->objs[i].kind == OBJ_FS)
                        verify_fs(r, i);
}
