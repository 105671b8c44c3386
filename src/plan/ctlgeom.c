/* SPDX-License-Identifier: GPL-2.0-or-later
 * The RAID controller's word on a disk's geometry: <hwraid from="controller"/>
 * takes it from the VD behind the disk (discover/controller.h), and a stated
 * <hwraid> that disagrees with that VD is refused before anything is
 * written, naming both figures and the VD (seed 000's admin typed a strip
 * the controller did not have). */
#include "plan/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discover/controller.h"

static bool level_has_parity(const char *level)
{
        return level && (!strcmp(level, "raid5") || !strcmp(level, "raid6") || !strcmp(level, "raid50") ||
                         !strcmp(level, "raid60"));
}

/* A VD with no stripe to align to: a mirror, one drive, a concatenation, and
 * a RAID0 of one drive (controllers export single disks so: as a profile
 * cannot declare a RAID0 of one member, such a VD plans as a plain disk). */
static bool vd_no_stripe(const struct ctl_vd *v)
{
        const char *level = v->level;
        return level && (!strcmp(level, "raid1") || !strcmp(level, "raid1-triple") || !strcmp(level, "simple") ||
                         !strcmp(level, "spanned") || (!strcmp(level, "raid0") && v->data_disks == 1));
}

/* "storcli /c0/v1" style: the tool, its controller and VD, for messages. */
static char *vd_name(const struct ctl_vd *v)
{
        return xasprintf("%s controller %s VD %s", v->tool ? v->tool : "?", v->controller ? v->controller : "?",
                         v->vd ? v->vd : "?");
}

/* "raid6, 10 drives x 256k strip (8 data disks), full stripe 2m" */
static char *vd_figures(const struct ctl_vd *v)
{
        char a[32], b[32], sp[32] = "";
        unsigned drives = v->drives_per_span * (v->spans ? v->spans : 1);
        if (vd_no_stripe(v))
                return xasprintf("%s, %u drive%s (%s: no stripe)", v->level, drives, drives == 1 ? "" : "s",
                                 strstr(v->level, "raid1") ? "mirrors" : "no striping");
        if (v->spans > 1)
                snprintf(sp, sizeof sp, " in %u spans", v->spans);
        return xasprintf("%s, %u drives%s x %s strip (%u data disks), full stripe %s", v->level ? v->level : "?",
                         drives, sp, fmt_size_exact(v->strip_bytes, a), v->data_disks,
                         fmt_size_exact(v->full_stripe_bytes, b));
}

/* "write cache: write-back (storcli Cache: RWBD; ...)": what the VD's controller
 * does with its writes, said beside the geometry it gives. The layout is the
 * same either way (bench/README.md 1f: the 4 KiB log stripe unit and swalloc's
 * default hold on both kinds of LUN); lun-buffered-rmw states the figures of
 * the LUN's kind (checks.c). */
static char *vd_write_cache(const struct ctl_vd *v)
{
        if (!v->cache)
                return xasprintf("write cache: not printed by %s", v->tool ? v->tool : "the tool");
        return xasprintf("write cache: %s (%s %s)", ctl_cache_name(v->cache), v->tool ? v->tool : "?",
                         v->write_cache_raw ? v->write_cache_raw : "");
}

#define MAX_VDS 8 /* records of one disk: tools beside each other (MegaCli and storcli), paths */

/* Every record that names the disk, in the order the tools were read. */
static size_t vds_of(const struct ctx *c, const struct pl_obj *o, const struct ctl_vd *out[MAX_VDS])
{
        if (!c->si->controllers || !o->disk.bd)
                return 0;
        return ctl_vds_for_device(c->si->controllers, o->disk.bd->name, out, MAX_VDS);
}

/* Two records of the disk that disagree: refused, both named. */
static bool conflict(struct ctx *c, const struct p_disks *g, const char *what, const struct pl_obj *o,
                     const struct ctl_vd *const *v, size_t n)
{
        for (size_t i = 1; i < n; i++) {
                if (ctl_vd_same_geometry(v[0], v[i]))
                        continue;
                _cleanup_free_ char *a = vd_name(v[0]), *fa = vd_figures(v[0]), *b = vd_name(v[i]),
                                    *fb = vd_figures(v[i]);
                plan_err(c, g->hwraid.line, what, RULE_CONTROLLER_CONFLICT,
                    "%s: %s reports %s, but %s reports %s for the same disk: storprov does not choose between two "
                    "tools' words; find out which is right (the tools' own outputs: 'storprov controller'), then "
                    "declare the <hwraid> or remove the stale tool",
                    o->disk.bd->name, a, fa, b, fb);
                return true;
        }
        return false;
}

void controller_geometry(struct ctx *c, const struct p_disks *g, const char *what, struct pl_obj *o)
{
        const struct blockdev *b = o->disk.bd;
        if (!c->si->controllers) {
                /* validate --offline: the controller is the machine's */
                o->geom_src = SRC_CONTROLLER;
                o->geom_why = xstrdup("the controller's VD (not read without the machine)");
                return;
        }
        const struct ctl_vd *all[MAX_VDS];
        size_t n = vds_of(c, o, all);
        const struct ctl_vd *v = n ? all[0] : NULL;
        if (n > 1 && conflict(c, g, what, o, all, n))
                return;
        if (!v) {
                plan_err(c, g->hwraid.line, what, RULE_HWRAID_CONTROLLER,
                    "%s: <hwraid from=\"controller\"/>, but no RAID controller VD found is this disk ('storprov "
                    "controller' lists the VDs found and how each matched); declare its level, members and chunk",
                    b->name);
                return;
        }
        _cleanup_free_ char *name = vd_name(v);
        if (!v->level || (!vd_no_stripe(v) && (!v->strip_bytes || !v->data_disks || !v->full_stripe_bytes))) {
                plan_err(c, g->hwraid.line, what, RULE_HWRAID_CONTROLLER,
                    "%s: %s reports no usable geometry (%s%s%s); declare its level, members and chunk", b->name, name,
                    v->level_raw ? v->level_raw : "level unknown", v->note ? ": " : "", v->note ? v->note : "");
                return;
        }
        _cleanup_free_ char *fig = vd_figures(v);
        if (vd_no_stripe(v))
                o->geom = (struct stripe_geom){0};
        else
                o->geom = (struct stripe_geom){.su_bytes = v->strip_bytes,
                                               .sw = v->data_disks,
                                               .full_stripe_bytes = v->full_stripe_bytes,
                                               .parity = level_has_parity(v->level)};
        o->geom_src = SRC_CONTROLLER;
        o->disk.cache = v->cache;
        _cleanup_free_ char *wc = vd_write_cache(v);
        o->geom_why = xasprintf("%s: %s, %s (matched by %s); %s", name, fig, v->state ? v->state : "state unknown",
                                v->matched_by ? v->matched_by : "?", wc);
        if (v->state && strcmp(v->state, "optimal"))
                plan_warn(c, g->hwraid.line, what, RULE_CONTROLLER_VD_STATE,
                          "%s: %s is %s (%s): the geometry holds, the "
                          "array's health is the controller's to fix",
                          b->name, name, v->state, v->state_raw ? v->state_raw : v->state);
}

/* A stated <hwraid> against one record of the disk. */
static void check_one(struct ctx *c, const struct p_disks *g, const char *what, const struct pl_obj *o,
                      const struct ctl_vd *v)
{
        if (!v->level || (!vd_no_stripe(v) && !v->full_stripe_bytes))
                return; /* nothing the controller says to check against */
        const struct stripe_geom *s = &o->geom;
        bool mirror = vd_no_stripe(v);
        bool same = mirror ? !s->su_bytes
                           : s->su_bytes == v->strip_bytes && s->full_stripe_bytes == v->full_stripe_bytes &&
                                     s->parity == level_has_parity(v->level);
        if (same)
                return;
        char a[32], b[32];
        _cleanup_free_ char *name = vd_name(v), *fig = vd_figures(v);
        plan_err(c, g->hwraid.line, what, RULE_CONTROLLER_MISMATCH,
            "%s: the profile says %s (su %s, full stripe %s%s) but %s reports %s%s; storprov does not lay out a "
            "disk on figures its controller contradicts: correct the <hwraid>, or write <hwraid from=\"controller\"/>",
            o->disk.bd->name, o->geom_why ? o->geom_why : "a stripe", fmt_size_exact(s->su_bytes, a),
            fmt_size_exact(s->full_stripe_bytes, b), s->parity ? ", parity" : "", name, fig,
            level_has_parity(v->level) ? " (parity)" : "");
}

void controller_check(struct ctx *c, const struct p_disks *g, const char *what, const struct pl_obj *o)
{
        const struct ctl_vd *all[MAX_VDS];
        size_t n = vds_of(c, o, all);
        if (n > 1 && conflict(c, g, what, o, all, n))
                return;
        for (size_t i = 0; i < n; i++)
                check_one(c, g, what, o, all[i]);
}
