/* SPDX-License-Identifier: GPL-2.0-or-later
 * Steps: what apply runs, each with its exact argv and the steps it waits
 * for. Built from the derived objects alone, never from the profile. */
#include "plan/internal.h"
#include "plan/argv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t add_step(struct ctx *c, enum step_kind kind, size_t obj, char *desc)
{
        struct plan *pl = c->pl;
        if (!(pl->n_steps & (pl->n_steps - 1)))   /* double */
                pl->steps = xrealloc(pl->steps, (pl->n_steps ? 2 * pl->n_steps : 1) * sizeof(*pl->steps));
        pl->steps[pl->n_steps] = (struct pl_step){.kind = kind, .obj = obj, .desc = desc};
        return pl->n_steps++;
}

static void dep_on_step(struct ctx *c, size_t step, size_t s)
{
        struct pl_step *st = &c->pl->steps[step];
        if (s == NO_OBJ || s == step)
                return;
        for (size_t i = 0; i < st->n_deps; i++)
                if (st->deps[i] == s)
                        return;
        st->deps = xrealloc(st->deps, (st->n_deps + 1) * sizeof(size_t));
        st->deps[st->n_deps++] = s;
}

/* step waits for whatever step creates obj */
static void step_dep(struct ctx *c, size_t step, size_t obj)
{
        if (obj == NO_OBJ || obj >= c->n_creator)
                return;
        dep_on_step(c, step, c->creator[obj]);
}

/* Each disk's or md's partitions, in order, as linked lists built in one pass. */
struct part_lists {
        size_t *head, *next;
};

static struct part_lists part_lists_new(struct ctx *c)
{
        struct plan *pl = c->pl;
        struct part_lists L = {xmalloc((pl->n_objs ? pl->n_objs : 1) * sizeof(size_t)),
                               xmalloc((pl->n_objs ? pl->n_objs : 1) * sizeof(size_t))};
        for (size_t i = 0; i < pl->n_objs; i++)
                L.head[i] = L.next[i] = NO_OBJ;
        for (size_t j = pl->n_objs; j-- > 0;)
                if (OBJ(c, j)->kind == OBJ_PART && OBJ(c, j)->parent != NO_OBJ) {
                        L.next[j] = L.head[OBJ(c, j)->parent];
                        L.head[OBJ(c, j)->parent] = j;
                }
        return L;
}

/* The GPT of disk or md i, after whatever creates i (an md's create step). */
static void gpt_step(struct ctx *c, size_t i, const struct part_lists *L)
{
        struct plan *pl = c->pl;
        char a[32];
        const struct pl_obj *d = OBJ(c, i);
        if (d->preserve)
                return;
        size_t np = 0;
        struct pl_part *parts = NULL;
        for (size_t j = L->head[i]; j != NO_OBJ; j = L->next[j]) {
                const struct pl_obj *q = OBJ(c, j);
                parts = xrealloc(parts, (np + 1) * sizeof(*parts));
                struct pl_part *pp = &parts[np++];
                *pp = (struct pl_part){
                        .number = q->part.number,
                        .start_bytes = q->part.start_bytes,
                        .size_bytes = q->size_bytes,
                        .type = q->part.type == PART_AUTO ? PART_LINUX : q->part.type,
                        .name = xstrdup(q->part.name),
                        .guid = xstrdup(q->part.guid),
                        .obj = j,
                };
                part_sectors(pl, j, &pp->first_sector, &pp->last_sector);
        }
        if (!np)
                return;
        size_t s = add_step(c, STEP_GPT, i,
                            xasprintf("GPT on %s: %zu partition%s aligned to %s", d->dev, np, np == 1 ? "" : "s",
                                      fmt_size_exact(d->align_bytes, a)));
        pl->steps[s].parts = parts;
        pl->steps[s].n_parts = np;
        pl->steps[s].disk_guid = xstrdup(d->disk.gpt_guid);
        step_dep(c, s, i);
        for (size_t k = 0; k < np; k++)
                c->creator[parts[k].obj] = s;
}

static void gpt_steps(struct ctx *c, const struct part_lists *L)
{
        for (size_t i = 0; i < c->pl->n_objs; i++)
                if (OBJ(c, i)->kind == OBJ_DISK)
                        gpt_step(c, i, L);
}

/* md arrays, in profile order (members are created earlier), each followed by its GPT */
static void md_steps(struct ctx *c, const struct part_lists *L)
{
        struct plan *pl = c->pl;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = OBJ(c, i);
                if (o->kind != OBJ_MD || o->preserve || !o->md.n_members)
                        continue;
                size_t s = add_step(c, STEP_MDADM, i,
                                    xasprintf("md %s %s over %zu devices", o->md.name, raid_level_name(o->md.level),
                                              o->md.n_members));
                pl->steps[s].argv = md_create_argv(pl, i);
                for (size_t k = 0; k < o->md.n_members; k++)
                        step_dep(c, s, o->md.members[k]);
                c->creator[i] = s;
                gpt_step(c, i, L);
        }
}

/* PVs, then the VG, then its LVs one after the other (lvm serialises them anyway) */
static void vg_steps(struct ctx *c, size_t i)
{
        struct plan *pl = c->pl;
        char b[32];
        const struct pl_obj *v = OBJ(c, i);
        size_t *pvsteps = xcalloc(v->vg.n_pvs ? v->vg.n_pvs : 1, sizeof(size_t));
        for (size_t k = 0; k < v->vg.n_pvs; k++) {
                const struct pl_obj *pv = OBJ(c, v->vg.pvs[k]);
                size_t s = add_step(c, STEP_PVCREATE, v->vg.pvs[k],
                                    xasprintf("PV %s%s%s", pv->dev, v->vg.pv_align_bytes ? ", data aligned to " : "",
                                              v->vg.pv_align_bytes ? fmt_size_exact(v->vg.pv_align_bytes, b) : ""));
                pl->steps[s].argv = pv_create_argv(pl, i, v->vg.pvs[k]);
                step_dep(c, s, v->vg.pvs[k]);
                pvsteps[k] = s;
        }
        size_t vs = add_step(c, STEP_VGCREATE, i,
                             xasprintf("VG %s, extent %s", v->vg.name, fmt_size_exact(v->vg.extent_bytes, b)));
        for (size_t k = 0; k < v->vg.n_pvs; k++)
                dep_on_step(c, vs, pvsteps[k]);
        free(pvsteps);
        pl->steps[vs].argv = vg_create_argv(pl, i);
        c->creator[i] = vs;

        size_t prev = vs;
        for (size_t j = 0; j < pl->n_objs; j++) {
                const struct pl_obj *l = OBJ(c, j);
                if (l->kind != OBJ_LV || l->parent != i)
                        continue;
                size_t s = add_step(c, STEP_LVCREATE, j,
                                    xasprintf("LV %s/%s%s", v->vg.name, l->lv.name, l->lv.stripes >= 2 ? " striped" : ""));
                pl->steps[s].argv = lv_create_argv(pl, j);
                dep_on_step(c, s, prev);
                prev = s;
                c->creator[j] = s;
        }
}

static void mkfs_steps(struct ctx *c)
{
        struct plan *pl = c->pl;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *f = OBJ(c, i);
                if (f->kind != OBJ_FS || f->preserve || f->parent == NO_OBJ)
                        continue;
                size_t s = add_step(c, STEP_MKFS, i,
                                    xasprintf("XFS on %s%s%s", f->dev, f->fs.mountpoint ? " for " : "",
                                              f->fs.mountpoint ? f->fs.mountpoint : ""));
                pl->steps[s].argv = mkfs_xfs_argv(pl, i, NULL);
                step_dep(c, s, f->parent);
                c->creator[i] = s;
        }
}

/* A multipath LUN's map, when none exists yet (no multipathd, as in an
 * installer): made with dmsetup as multipathd would make it (uuid mpath-WWID,
 * the paths in one group, service-time, queue_if_no_path), named by the alias
 * the rendered multipath.conf gives it, so that multipathd adopts it later. */
static void mpath_steps(struct ctx *c)
{
        struct plan *pl = c->pl;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = OBJ(c, i);
                if (o->kind != OBJ_DISK || !o->disk.mpath_create || !o->disk.mpath_wwid || !o->disk.n_paths)
                        continue;
                size_t s = add_step(c, STEP_MPATH, i,
                                    xasprintf("multipath map %s over %zu path%s (no map yet)", o->dev, o->disk.n_paths,
                                              o->disk.n_paths == 1 ? "" : "s"));
                pl->steps[s].argv = mpath_create_argv(pl, i);
                c->creator[i] = s;
        }
}

static void mpath_sysfs_steps(struct ctx *c, size_t i, enum tune_attr a, const char *v)
{
        const struct pl_obj *o = OBJ(c, i);
        size_t map_step = NO_OBJ, first_path = c->pl->n_steps;
        /* lowering max_sectors_kb: the map first; raising: the paths first */
        uint64_t want = 0, cur_min = UINT64_MAX;
        (void)parse_u64(v, &want);
        for (size_t k = 0; k < o->disk.n_paths; k++)
                if (o->disk.paths[k]->max_sectors_kb && o->disk.paths[k]->max_sectors_kb < cur_min)
                        cur_min = o->disk.paths[k]->max_sectors_kb;
        bool map_first = a == TUNE_MAX_SECTORS_KB && want < cur_min;
        if (tune_on_mpath_map(a) && map_first) {
                map_step = add_step(c, STEP_SYSFS, i, xasprintf("%s %s = %s", o->dev, tune_defs[a].sysfs, v));
                c->pl->steps[map_step].attr = a;
                c->pl->steps[map_step].value = xstrdup(v);
                step_dep(c, map_step, i);
                first_path = c->pl->n_steps;
        }
        for (size_t k = 0; tune_on_mpath_paths(a) && k < o->disk.n_paths; k++) {
                const struct blockdev *p = o->disk.paths[k];
                size_t s = add_step(c, STEP_SYSFS, i,
                                    xasprintf("%s (path of %s) %s = %s", p->devnode, o->id, tune_defs[a].sysfs, v));
                c->pl->steps[s].attr = a;
                c->pl->steps[s].value = xstrdup(v);
                c->pl->steps[s].path_kname = xstrdup(p->name);
                step_dep(c, s, i);
                dep_on_step(c, s, map_step);
        }
        if (tune_on_mpath_map(a) && !map_first) {
                size_t s = add_step(c, STEP_SYSFS, i, xasprintf("%s %s = %s", o->dev, tune_defs[a].sysfs, v));
                c->pl->steps[s].attr = a;
                c->pl->steps[s].value = xstrdup(v);
                step_dep(c, s, i);
                for (size_t k = first_path; k < s; k++)
                        dep_on_step(c, s, k);
        }
}

/* The layout's last steps (0 .. n-1): those no other of them waits for. */
static bool *layout_sinks(const struct plan *pl, size_t n)
{
        bool *sink = xmalloc((n ? n : 1) * sizeof(bool));
        for (size_t k = 0; k < n; k++)
                sink[k] = true;
        for (size_t k = 0; k < n; k++)
                for (size_t d = 0; d < pl->steps[k].n_deps; d++)
                        sink[pl->steps[k].deps[d]] = false;
        return sink;
}

/* live tuning, in the table's order (the scheduler first: switching it resets
 * nr_requests). An md array's waits for the whole layout: a new RAID5/6
 * resyncs from its creation, and at its stripe cache the resync's parity work
 * takes the CPUs the PV, VG, LV and mkfs steps need (under TCG their lvm
 * commands ran at 2-3 times the script's time; bench/README "Issue 43 item
 * 4"); the few seconds at md's own default cost the resync nothing. */
static void sysfs_steps(struct ctx *c)
{
        size_t n_layout = c->pl->n_steps;
        bool *sink = layout_sinks(c->pl, n_layout);
        for (size_t i = 0; i < c->pl->n_objs; i++) {
                const struct pl_obj *o = OBJ(c, i);
                if (!o->tune.line || !o->dev)
                        continue;
                if (o->kind == OBJ_DISK && o->disk.n_paths) {
                        for (int a = 0; a < _TUNE_MAX; a++)
                                if (o->tune.val[a])
                                        mpath_sysfs_steps(c, i, (enum tune_attr)a, o->tune.val[a]);
                        continue;
                }
                for (int a = 0; a < _TUNE_MAX; a++) {
                        const char *v = o->tune.val[a];
                        if (!v)
                                continue;
                        size_t s = add_step(c, STEP_SYSFS, i, xasprintf("%s %s = %s", o->dev, tune_defs[a].sysfs, v));
                        c->pl->steps[s].attr = a;
                        c->pl->steps[s].value = xstrdup(v);
                        step_dep(c, s, i);
                        for (size_t k = 0; o->kind == OBJ_MD && k < n_layout; k++)
                                if (sink[k])
                                        dep_on_step(c, s, k);
                }
        }
        free(sink);
}

/* live writeback settings, in profile order (the last of a ratio/bytes pair wins) */
static void sysctl_steps(struct ctx *c)
{
        for (size_t i = 0; i < c->pl->n_sysctls; i++) {
                const struct pl_sysctl *k = &c->pl->sysctls[i];
                size_t st = add_step(c, STEP_SYSCTL, NO_OBJ, xasprintf("sysctl %s = %s", k->key, k->value));
                c->pl->steps[st].key = xstrdup(k->key);
                c->pl->steps[st].value = xstrdup(k->value);
        }
}

void build_steps(struct ctx *c)
{
        struct plan *pl = c->pl;
        c->n_creator = pl->n_objs;
        c->creator = xmalloc((pl->n_objs ? pl->n_objs : 1) * sizeof(size_t));
        for (size_t i = 0; i < pl->n_objs; i++)
                c->creator[i] = NO_OBJ;
        struct part_lists L = part_lists_new(c);
        mpath_steps(c);
        gpt_steps(c, &L);
        md_steps(c, &L);
        free(L.head);
        free(L.next);
        for (size_t i = 0; i < pl->n_objs; i++)
                if (OBJ(c, i)->kind == OBJ_VG && !OBJ(c, i)->preserve && OBJ(c, i)->vg.n_pvs)
                        vg_steps(c, i);
        mkfs_steps(c);
        sysfs_steps(c);
        sysctl_steps(c);
}
