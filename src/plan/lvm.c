/* SPDX-License-Identifier: GPL-2.0-or-later
 * LVM: PV alignment, extent size, linear and striped LVs. */
#include "plan/internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The LV's own numbers against each other and the VG: percentages that add up
 * past the VG, stripes the VG's n PVs or lvcreate cannot give. */
static void lv_checks(struct ctx *c, const struct p_lv *l, const char *lwhat, size_t n, unsigned *pct_vg)
{
        if (l->size.kind == SIZE_PERCENT) {
                *pct_vg += l->size.percent;
                if (*pct_vg > 100)
                        plan_err(c, l->line, lwhat, RULE_LV_SIZE, "LV sizes add up to %u%% of the VG", *pct_vg);
        }
        if (l->stripe_bytes && l->stripes <= 1)
                plan_err(c, l->line, lwhat, RULE_LV_STRIPES, "stripe-size without stripes >= 2 has no effect");
        if (l->stripes > n && n)
                plan_err(c, l->line, lwhat, RULE_LV_STRIPES, "stripes=%u but the VG has only %zu PVs",
                    l->stripes, n);
        if (l->stripes > 128)
                plan_err(c, l->line, lwhat, RULE_LV_STRIPES, "lvcreate allows at most 128 stripes");
}

/* A striped LV's stripe size: the profile's, else one derived from the PVs'
 * common stripe (chosen says how), else LVM's default; ret_src says which. */
static uint64_t lv_stripe_bytes(const struct p_lv *l, const struct stripe_geom *vg_geom, uint64_t extent,
                                bool vg_mixed, enum val_source *ret_src, char **chosen)
{
        uint64_t sb = l->stripe_bytes;
        enum val_source ss = SRC_PROFILE;
        if (!sb && vg_geom->full_stripe_bytes && !vg_mixed) {
                sb = stack_chunk_bytes(vg_geom, extent, false, chosen);
                ss = SRC_DERIVED;
        }
        if (!sb) {
                sb = DEFAULT_LV_STRIPE_BYTES;
                ss = SRC_DEFAULT;
        }
        *ret_src = ss;
        return sb;
}

/* The geometry of LV x striped sb over the PVs of the VG object oi: stacked on
 * the PVs' common stripe (none when vg_mixed), with its warnings and its why. */
static void lv_stripe_geometry(struct ctx *c, size_t oi, struct pl_obj *x, const struct p_lv *l, const char *lwhat,
                               const struct stripe_geom *vg_geom, bool vg_mixed, uint64_t sb, uint64_t extent,
                               enum val_source ss, const char *chosen)
{
        char a[32];
        char *e = NULL;
        const struct stripe_geom *lower = vg_mixed ? NULL : vg_geom;
        int r = stack_geometry(lower, l->stripes, sb, false, &x->geom, &e);
        if (r < 0) {
                const struct pl_obj *vo = OBJ(c, oi);
                bool hinted = vo->vg.n_pvs && OBJ(c, vo->vg.pvs[0])->geom_src == SRC_DETECTED;
                plan_err(c, l->line, lwhat, RULE_LV_STRIPE_SIZE, "%s%s", e,
                         hinted ? HINT_PARITY_NOTE : "");
                free(e);
                return;
        }
        if (r == 1) {
                plan_warn(c, l->line, lwhat, RULE_LV_STRIPE_HINT, "%s", e);
                free(e);
        }
        const struct pl_obj *vo = OBJ(c, oi);
        warn_nvme_granularity(c, l->line, lwhat, RULE_LV_STRIPE_GRANULARITY, "stripe size", sb,
                              vo->vg.pvs, vo->vg.n_pvs);
        _cleanup_free_ char *adv = ss == SRC_PROFILE ? stack_chunk_advice(lower, sb, extent, false) : NULL;
        if (adv)
                plan_warn(c, l->line, lwhat, RULE_LV_STRIPE_RMW, "%s", adv);
        x->geom_src = ss == SRC_PROFILE ? SRC_DERIVED : ss;
        x->geom_why = xasprintf("striped LV, %u stripes x %s%s%s%s", l->stripes,
                                fmt_size_exact(sb, a), chosen ? " " : "", chosen ? chosen : "",
                                x->geom.sw != l->stripes
                                        ? "; sw widened so a full stripe covers whole PV stripes"
                                        : "");
}

/* LV x striped over the PVs of the VG object oi: its stripe size, checked
 * against what lvcreate -I takes and the extent, then its geometry. */
static void plan_striped_lv(struct ctx *c, size_t oi, struct pl_obj *x, const struct p_lv *l, const char *lwhat,
                            bool vg_mixed)
{
        char a[32], b[32];
        struct stripe_geom vg_geom = OBJ(c, oi)->geom;
        enum val_source ss;
        _cleanup_free_ char *chosen = NULL;
        uint64_t extent = OBJ(c, oi)->vg.extent_bytes;
        uint64_t sb = lv_stripe_bytes(l, &vg_geom, extent, vg_mixed, &ss, &chosen);
        if (!is_pow2(sb) || sb < 4096) {
                uint64_t p2 = sb < 4096 ? 4096 : sb;
                while (p2 & (p2 - 1))
                        p2 &= p2 - 1;
                char lb[32], hb[32];
                plan_err(c, l->line, lwhat, RULE_LV_STRIPE_SIZE,
                    "stripe size %s is not a power of 2 of at least 4 KiB (lvcreate -I): %s%s%s would do%s",
                    fmt_size_exact(sb, a), fmt_size_exact(p2, lb), p2 < sb ? " or " : "",
                    p2 < sb ? fmt_size_exact(p2 * 2, hb) : "",
                    vg_geom.full_stripe_bytes ? ", or leave stripe-size out and storprov derives it from the "
                                                "PVs' stripe"
                                              : "");
        } else if (sb > extent) {
                plan_err(c, l->line, lwhat, RULE_LV_STRIPE_SIZE,
                    "stripe size %s is larger than the extent size %s; lvcreate would reduce it: give at most "
                    "%s, or a larger extent-size on the VG",
                    fmt_size_exact(sb, a), fmt_size_exact(extent, b), fmt_size_exact(extent, b));
        } else {
                lv_stripe_geometry(c, oi, x, l, lwhat, &vg_geom, vg_mixed, sb, extent, ss, chosen);
        }
        x->lv.stripe_bytes = sb;
}

/* One LV of the VG object oi, linear or striped over its PVs. */
static void plan_lv(struct ctx *c, const struct p_vg *v, size_t oi, const struct p_lv *l, bool vg_mixed,
                    unsigned *pct_vg)
{
        char a[32];
        size_t n = OBJ(c, oi)->vg.n_pvs;
        struct stripe_geom vg_geom = OBJ(c, oi)->geom;
        char *ref = xasprintf("%s/%s", v->id, l->name);
        char *lwhat = xasprintf("lv %s/%s", v->name, l->name);
        size_t lo = new_obj(c, OBJ_LV, ref, 0, ref, lwhat, l->line);
        struct pl_obj *x = OBJ(c, lo);
        x->parent = oi;
        x->lv.name = xstrdup(l->name);
        x->lv.size = (struct pl_size){.kind = l->size.kind, .bytes = l->size.bytes, .percent = l->size.percent,
                                      .text = xstrdup(l->size.text)};
        x->dev = xasprintf("/dev/%s/%s", v->name, l->name);
        x->preserve = v->preserve;
        x->lv.stripes = l->stripes;
        lv_checks(c, l, lwhat, n, pct_vg);
        if (l->stripes >= 2) {
                plan_striped_lv(c, oi, x, l, lwhat, vg_mixed);
        } else if (!vg_mixed) {
                x->geom = vg_geom;
                x->geom_src = vg_geom.su_bytes ? SRC_DERIVED : SRC_NONE;
                x->geom_why = vg_geom.su_bytes ? xstrdup("linear LV on stripe-aligned extents of the PVs")
                                               : NULL;
        }
        if (l->size.kind == SIZE_BYTES && x->lv.stripes >= 2 &&
            l->size.bytes % (OBJ(c, oi)->vg.extent_bytes * x->lv.stripes))
                plan_warn(c, l->line, lwhat, RULE_LV_SIZE,
                     "size %s is not a multiple of stripes x extent (%s); lvcreate rounds it up",
                     l->size.text, fmt_size_exact(OBJ(c, oi)->vg.extent_bytes * x->lv.stripes, a));
        x->physical_sector_bytes = SECTOR_BYTES;
        tune_set_copy(&x->tune, &l->tune);
        free(ref);
        free(lwhat);
}

/* PV data alignment and extent size: multiples of lcm(1 MiB, the PVs' full
 * stripe) as partition starts are, the extent also one LVM accepts (a power
 * of 2 or a multiple of 128 KiB, at least 4 MiB), so that every extent and
 * so every LV starts on a full stripe. A profile's own values must keep that. */
static void vg_alignment(struct ctx *c, const struct p_vg *v, size_t oi, const char *what, uint64_t full)
{
        char a[32], b[32], f[32];
        struct pl_obj *o = OBJ(c, oi);
        struct stripe_geom g = {.full_stripe_bytes = full};
        /* always explicit: with no --dataalignment, LVM's data_alignment_detection
         * follows the device's optimal_io_size, which may be a hint storprov
         * distrusted (and md raid1 or a partition passes its members' hint on) */
        uint64_t align = full ? pv_data_alignment_bytes(&g) : PARTITION_GRAIN_BYTES;
        if (full && !align)
                plan_err(c, v->line, what, RULE_ALIGNMENT_OVERFLOW,
                         "lcm(1 MiB, the full stripe %s) does not fit in 64 bits", fmt_size_exact(full, f));
        uint64_t extent = vg_extent_bytes(align);
        if (!extent) {
                plan_err(c, v->line, what, RULE_ALIGNMENT_OVERFLOW,
                         "no extent size that is a multiple of %s fits in 64 bits", fmt_size_exact(align, a));
                extent = VG_EXTENT_MIN_BYTES;
        }
        if (v->data_alignment_bytes) {
                if (full && v->data_alignment_bytes % full)
                        plan_err(c, v->line, what, RULE_VG_ALIGNMENT,
                            "data-alignment %s is not a multiple of the PVs' full stripe %s: the first extent would "
                            "start inside a stripe",
                            fmt_size_exact(v->data_alignment_bytes, a), fmt_size_exact(full, f));
                align = v->data_alignment_bytes;
        }
        if (v->extent_bytes) {
                if (full && v->extent_bytes % full)
                        plan_err(c, v->line, what, RULE_VG_ALIGNMENT,
                            "extent-size %s is not a multiple of the PVs' full stripe %s: LVs would start inside a stripe",
                            fmt_size_exact(v->extent_bytes, a), fmt_size_exact(full, f));
                else if (!is_pow2(v->extent_bytes) && v->extent_bytes % (128 * KiB))
                        plan_err(c, v->line, what, RULE_VG_ALIGNMENT,
                            "extent-size %s is neither a power of 2 nor a multiple of 128 KiB (vgcreate -s)",
                            fmt_size_exact(v->extent_bytes, a));
                extent = v->extent_bytes;
        }
        o->vg.pv_align_bytes = align;
        o->vg.extent_bytes = extent;
        o->geom_src = full ? (v->data_alignment_bytes || v->extent_bytes ? SRC_PROFILE : SRC_DERIVED) : SRC_NONE;
        o->geom_why = full ? xasprintf("PV data alignment %s%s, extent %s = %" PRIu64
                                       " full stripes of %s, so every LV starts on a stripe boundary",
                                       fmt_size_exact(align, a),
                                       v->data_alignment_bytes ? " (profile)" : " = lcm(1 MiB, full stripe)",
                                       fmt_size_exact(extent, b), extent / full, fmt_size_exact(full, f))
                           : NULL;
}

void plan_vgs(struct ctx *c)
{
        for (size_t vi = 0; vi < c->p->n_vgs; vi++) {
                const struct p_vg *v = &c->p->vgs[vi];
                char *what = xasprintf("vg %s", v->id);
                size_t oi = new_obj(c, OBJ_VG, v->id, 0, v->id, what, v->line);
                size_t *pvs = NULL;
                size_t n = resolve_blocks(c, v->pvs, oi, "pvs", v->line, what, &pvs);
                struct pl_obj *o = OBJ(c, oi);
                o->vg.pvs = pvs;
                o->vg.n_pvs = n;
                o->vg.name = xstrdup(v->name);
                o->preserve = v->preserve;
                o->wipe = v->wipe;

                /* the PVs' common geometry */
                const struct stripe_geom *g0 = NULL;
                bool mixed = false;
                uint64_t full_lcm = 0;
                for (size_t i = 0; i < n; i++) {
                        struct pl_obj *x = OBJ(c, pvs[i]);
                        set_member_type(c, pvs[i], PART_LVM);
                        if (!g0)
                                g0 = &x->geom;
                        else if (!same_geom(g0, &x->geom))
                                mixed = true;
                        uint64_t l2 = lcm_u64(full_lcm, x->geom.full_stripe_bytes);
                        if (!l2 && (full_lcm || x->geom.full_stripe_bytes))
                                plan_err(c, v->line, what, RULE_ALIGNMENT_OVERFLOW,
                                    "the PVs' full stripes have no common multiple within 64 bits");
                        full_lcm = l2;
                        if (x->preserve != o->preserve)
                                plan_err(c, v->line, what, RULE_PRESERVE,
                                    "vg %s is %spreserved but its PV %s is %s; mark both or neither preserve=\"true\"",
                                    v->name, o->preserve ? "" : "not ", x->id, x->preserve ? "preserved" : "not preserved");
                }
                o = OBJ(c, oi);
                if (mixed)
                        plan_warn(c, v->line, what, RULE_VG_MIXED_PVS,
                             "PVs have different stripe geometries; linear LVs get no stripe geometry");
                if (g0 && !mixed) {
                        o->geom = *g0;
                        for (size_t i = 0; i < n; i++) /* the same layout: parity if any PV has it */
                                o->geom.parity = o->geom.parity || OBJ(c, pvs[i])->geom.parity;
                }
                vg_alignment(c, v, oi, what, full_lcm);
                unsigned pct_vg = 0;
                for (size_t li = 0; li < v->n_lvs; li++)
                        plan_lv(c, v, oi, &v->lvs[li], mixed, &pct_vg);
                free(what);
        }
}

