/* SPDX-License-Identifier: GPL-2.0-or-later
 * Every command line storprov runs to make or read storage, each written
 * once, for the planner's steps and for apply alike (see argv.h). */
#include "plan/argv.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "plan/lvmdevices.h"

/* ---- mkfs.xfs ----------------------------------------------------------------- */

void xfs_stripe_args(const struct stripe_geom *g, uint64_t lsu, char ***argv)
{
        char a[32], b[32];
        if (!g || !g->su_bytes)
                return;
        strv_push(argv, "-d");
        strv_pushf(argv, "su=%s,sw=%u", fmt_size_exact(g->su_bytes, a), g->sw);
        if (lsu) {
                strv_push(argv, "-l");
                strv_pushf(argv, "version=2,su=%s", fmt_size_exact(lsu, b));
        }
}

/* Do the profile's own mkfs-options set the AG size or count? */
static bool mkfs_extra_sets_ag(char *const *extra)
{
        for (size_t k = 1; extra && extra[k - 1] && extra[k]; k++)
                if (!strcmp(extra[k - 1], "-d") && (strstr(extra[k], "agsize=") || strstr(extra[k], "agcount=")))
                        return true;
        return false;
}

bool mkfs_agsize_at_apply(const struct pl_obj *f)
{
        return f->kind == OBJ_FS && f->geom.parity && f->geom.su_bytes && !mkfs_extra_sets_ag(f->fs.mkfs_extra);
}

const char *step_at_apply_note(const struct plan *pl, size_t si)
{
        const struct pl_step *s = &pl->steps[si];
        if (s->kind != STEP_MKFS || !mkfs_agsize_at_apply(&pl->objs[s->obj]))
                return NULL;
        /* mkfs.xfs's own AG size depends on the device's size and on the mkfs.xfs that runs */
        return "agsize: from the device at apply time (whole full stripes: -d agsize=Nb before the device)";
}

char **mkfs_xfs_argv(const struct plan *pl, size_t fi, const struct mkfs_at_apply *at)
{
        static const struct mkfs_at_apply none;
        const struct pl_obj *f = &pl->objs[fi];
        char **argv = NULL;
        if (!at)
                at = &none;
        strv_push(&argv, "mkfs.xfs");
        if (at->dry_run)
                strv_push(&argv, "-N"); /* nothing is written */
        if (f->fs.label) {
                strv_push(&argv, "-L");
                strv_push(&argv, f->fs.label);
        }
        strv_push(&argv, "-m");
        strv_pushf(&argv, "uuid=%s", f->fs.uuid.planned);
        xfs_stripe_args(&f->geom, f->fs.log_su_bytes, &argv);
        for (size_t k = 0; f->fs.mkfs_extra && f->fs.mkfs_extra[k]; k++)
                strv_push(&argv, f->fs.mkfs_extra[k]);
        if (at->dry_run) {
                /* a dry run on a file, or on a device that may carry something: -f, once */
                if (strcmp(argv[strv_len(argv) - 1], "-f"))
                        strv_push(&argv, "-f");
                if (at->dry_sector) {
                        strv_push(&argv, "-s");
                        strv_pushf(&argv, "size=%s", at->dry_sector);
                }
                strv_push(&argv, at->dry_run);
                return argv;
        }
        if (at->force)
                strv_push(&argv, "-f");
        if (at->agsize_blocks) {
                strv_push(&argv, "-d");
                strv_pushf(&argv, "agsize=%" PRIu64 "b", at->agsize_blocks);
        }
        strv_push(&argv, f->dev);
        return argv;
}

/* ---- mdadm -------------------------------------------------------------------- */

char **md_create_argv(const struct plan *pl, size_t mi)
{
        const struct pl_obj *o = &pl->objs[mi];
        const struct pl_md *m = &o->md;
        char **argv = NULL;
        strv_push(&argv, "mdadm");
        strv_push(&argv, "--create");
        strv_push(&argv, o->dev);
        strv_push(&argv, "--run");
        strv_pushf(&argv, "--level=%d", (int)m->level);
        strv_pushf(&argv, "--raid-devices=%zu", m->n_members - m->spares);
        if (m->spares)
                strv_pushf(&argv, "--spare-devices=%u", m->spares);
        if (m->level != RAID_1 && m->chunk_bytes)
                strv_pushf(&argv, "--chunk=%" PRIu64, m->chunk_bytes / KiB); /* KiB */
        if (m->layout)
                strv_pushf(&argv, "--layout=%s", m->layout);
        else if (m->parity)
                strv_pushf(&argv, "--parity=%s", m->parity);
        strv_pushf(&argv, "--metadata=%s", m->metadata);
        if (m->data_offset_bytes)
                strv_pushf(&argv, "--data-offset=%" PRIu64, m->data_offset_bytes / KiB); /* KiB */
        /* always explicit where a bitmap exists (mdadm 4.4 asks otherwise); raid0 has none and
         * mdadm refuses even --bitmap=none for it */
        if (m->level != RAID_0)
                strv_pushf(&argv, "--bitmap=%s", m->bitmap);
        strv_push(&argv, "--homehost=any");
        strv_pushf(&argv, "--name=%s", m->name);
        strv_pushf(&argv, "--uuid=%s", m->uuid.planned);
        for (size_t k = 0; k < m->n_members; k++)
                strv_push(&argv, pl->objs[m->members[k]].dev);
        return argv;
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

char **md_stop_argv(const struct plan *pl, size_t mi)
{
        char **argv = NULL;
        strv_push(&argv, "mdadm");
        strv_push(&argv, "--stop");
        strv_push(&argv, pl->objs[mi].dev);
        return argv;
}

char **md_detail_argv(const char *path)
{
        char **argv = NULL;
        strv_push(&argv, "mdadm");
        strv_push(&argv, "--detail");
        strv_push(&argv, "--export");
        strv_push(&argv, path);
        return argv;
}

/* ---- lvm ---------------------------------------------------------------------- */

/* "lvm CMD [--config TEXT]": the head of every lvm call. */
static char **lvm_argv(const struct plan *pl, const char *cmd)
{
        char **argv = NULL;
        strv_push(&argv, "lvm");
        strv_push(&argv, cmd);
        if (pl->lvm_config) {
                strv_push(&argv, "--config");
                strv_push(&argv, pl->lvm_config);
        }
        return argv;
}

char **pv_create_argv(const struct plan *pl, size_t vi, size_t pvi)
{
        char a[32];
        const struct pl_vg *v = &pl->objs[vi].vg;
        char **argv = lvm_argv(pl, "pvcreate");
        if (v->pv_align_bytes)
                strv_pushf(&argv, "--dataalignment=%s", fmt_size_exact(v->pv_align_bytes, a));
        strv_push(&argv, pl->objs[pvi].dev);
        return argv;
}

char **vg_create_argv(const struct plan *pl, size_t vi)
{
        char a[32];
        const struct pl_vg *v = &pl->objs[vi].vg;
        char **argv = lvm_argv(pl, "vgcreate");
        strv_pushf(&argv, "--physicalextentsize=%s", fmt_size_exact(v->extent_bytes, a));
        strv_push(&argv, v->name);
        for (size_t k = 0; k < v->n_pvs; k++)
                strv_push(&argv, pl->objs[v->pvs[k]].dev);
        return argv;
}

char **lv_create_argv(const struct plan *pl, size_t li)
{
        char a[32];
        const struct pl_obj *l = &pl->objs[li];
        char **la = lvm_argv(pl, "lvcreate");
        strv_push(&la, "--yes");
        strv_push(&la, "--wipesignatures=y");
        strv_push(&la, "--zero=y");
        strv_pushf(&la, "--name=%s", l->lv.name);
        if (l->lv.size.kind == SIZE_BYTES)
                strv_pushf(&la, "--size=%" PRIu64 "b", l->lv.size.bytes);
        else
                strv_pushf(&la, "--extents=%u%%%s", l->lv.size.percent,
                           l->lv.size.kind == SIZE_PERCENT_FREE ? "FREE" : "VG");
        if (l->lv.stripes >= 2) {
                strv_pushf(&la, "--stripes=%u", l->lv.stripes);
                strv_pushf(&la, "--stripesize=%s", fmt_size_exact(l->lv.stripe_bytes, a));
        }
        int64_t ra = tune_num(&l->tune, TUNE_READ_AHEAD_KB);
        if (ra >= 0) /* lvcreate -r counts 512-byte sectors */
                strv_pushf(&la, "--readahead=%" PRId64, ra * (int64_t)(KiB / SECTOR_BYTES));
        strv_push(&la, pl->objs[l->parent].vg.name);
        return la;
}

char **vg_activate_argv(const struct plan *pl, size_t vi)
{
        char **argv = lvm_argv(pl, "vgchange");
        strv_push(&argv, "--activate=y");
        strv_push(&argv, pl->objs[vi].vg.name);
        return argv;
}

char **lv_activate_argv(const struct plan *pl, size_t li)
{
        const struct pl_obj *l = &pl->objs[li];
        char **argv = lvm_argv(pl, "lvchange");
        strv_push(&argv, "--activate=y");
        strv_pushf(&argv, "%s/%s", pl->objs[l->parent].vg.name, l->lv.name);
        return argv;
}

char **lvm_report_argv(const struct plan *pl, const char *cmd, const char *fields, const char *target)
{
        char **argv = lvm_argv(pl, cmd);
        strv_push(&argv, "--noheadings");
        strv_push(&argv, "--nosuffix");
        strv_push(&argv, "--units=b");
        strv_push(&argv, "--separator=|");
        strv_pushf(&argv, "--options=%s", fields);
        if (target)
                strv_push(&argv, target);
        return argv;
}

char **lvmdevices_adddev_argv(const char *dev, const char *devicesfile)
{
        char **v = NULL;
        strv_push(&v, "lvm");
        strv_push(&v, "lvmdevices");
        /* storprov's usual lvm settings (STORPROV_LVM_CONFIG), and: the target
         * uses its devices file, so this lvm must too */
        strv_push(&v, "--config");
        strv_push(&v, LVMDEVICES_CONFIG);
        strv_push(&v, "--devicesfile");
        strv_push(&v, devicesfile ? devicesfile : "system.devices");
        strv_push(&v, "--adddev");
        strv_push(&v, dev);
        return v;
}

/* ---- the rest ----------------------------------------------------------------- */

char **wipefs_argv(const struct plan *pl, size_t oi)
{
        char **argv = NULL;
        strv_push(&argv, "wipefs");
        strv_push(&argv, "--all");
        strv_push(&argv, pl->objs[oi].dev);
        return argv;
}

/* uuid mpath-WWID, the paths in one group, service-time, queue_if_no_path;
 * named by the alias the rendered multipath.conf gives it, so that
 * multipathd adopts it later. */
char **mpath_create_argv(const struct plan *pl, size_t di)
{
        const struct pl_obj *o = &pl->objs[di];
        struct sbuf t = {0};
        sbuf_printf(&t, "0 %" PRIu64 " multipath 1 queue_if_no_path 0 1 1 service-time 0 %zu 1",
                    o->size_bytes / SECTOR_BYTES, o->disk.n_paths);
        for (size_t k = 0; k < o->disk.n_paths; k++)
                sbuf_printf(&t, " %u:%u 1", o->disk.paths[k]->major, o->disk.paths[k]->minor);
        char **argv = NULL;
        strv_push(&argv, "dmsetup");
        strv_push(&argv, "create");
        strv_push(&argv, o->disk.mpath_alias);
        strv_pushf(&argv, "--uuid=mpath-%s", o->disk.mpath_wwid);
        strv_pushf(&argv, "--table=%s", t.s);
        free(t.s);
        return argv;
}

void part_sectors(const struct plan *pl, size_t pi, uint64_t *ret_first, uint64_t *ret_last)
{
        const struct pl_obj *q = &pl->objs[pi];
        uint64_t sec = q->sector_bytes ? q->sector_bytes : SECTOR_BYTES;
        *ret_first = q->part.start_bytes / sec;
        *ret_last = q->size_bytes ? (q->part.start_bytes + q->size_bytes) / sec - 1 : *ret_first;
}
