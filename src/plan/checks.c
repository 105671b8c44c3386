/* SPDX-License-Identifier: GPL-2.0-or-later
 * Checks across objects: tuning, queue memory, sysctls, names. */
#include "plan/internal.h"
#include "base/sanitize.h"
#include "base/strmap.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Does tuning attribute a apply to object o? */
static bool tune_applies(enum tune_attr a, const struct pl_obj *o)
{
        unsigned on = tune_defs[a].on;
        switch (o->kind) {
        case OBJ_DISK:
        case OBJ_PART:
                return on & TUNE_ON_DISK;
        case OBJ_MD:
                return (on & TUNE_ON_MD) || ((on & TUNE_ON_MD_PARITY) && raid_level_has_parity(o->md.level));
        case OBJ_LV:
                return on & TUNE_ON_LV;
        default:
                return false;
        }
}

/* Every attribute set where it does not apply, by the table's rule. */
static void check_tune_targets(struct ctx *c, const struct pl_obj *o)
{
        for (int a = 0; a < _TUNE_MAX; a++) {
                const struct tune_def *def = &tune_defs[a];
                if (!o->tune.val[a] || tune_applies(a, o))
                        continue;
                bool by_level = o->kind == OBJ_MD && (def->on & TUNE_ON_MD_PARITY);
                plan_err(c, o->tune.line, o->what, def->rule, def->why_not,
                    by_level ? raid_level_name(o->md.level) : obj_kind_name(o->kind));
        }
}

static void check_stripe_cache(struct ctx *c, const struct pl_obj *o)
{
        int64_t sc = tune_num(&o->tune, TUNE_STRIPE_CACHE_SIZE);
        if (sc < 0 || !tune_applies(TUNE_STRIPE_CACHE_SIZE, o))
                return;
        if (sc < 17 || sc > 32768) {
                plan_err(c, o->tune.line, o->what, RULE_STRIPE_CACHE,
                    "stripe-cache-size %" PRId64 " is outside the kernel's 17..32768", sc);
                return;
        }
        char hb[32];
        uint64_t bytes = mul_sat_u64(mul_sat_u64((uint64_t)sc, 4096), o->md.n_members);
        if (mul_sat_u64(bytes, QUEUE_MEM_FRACTION_DEN) > c->pl->mem_total_bytes && c->pl->mem_total_bytes)
                plan_warn(c, o->tune.line, o->what, RULE_STRIPE_CACHE_MEMORY,
                          "stripe-cache-size %" PRId64 " x %zu members x 4 KiB pins %s", sc, o->md.n_members,
                          fmt_size_human(bytes, hb));
}

/* A disk's tuning against what the disk offers; returns the request memory it may pin.
 * A multipath LUN is checked against its paths: their limits bound the map, their
 * request queues are the ones that pin memory. */
static uint64_t check_disk_tune(struct ctx *c, const struct pl_obj *o, struct sbuf *who)
{
        const struct tune_set *t = &o->tune;
        const struct blockdev *one = o->disk.bd;
        const struct blockdev *const *qdevs = o->disk.n_paths ? o->disk.paths : &one;
        size_t n_q = o->disk.n_paths ? o->disk.n_paths : 1;
        const char *w = o->what;
        int64_t msk = tune_num(t, TUNE_MAX_SECTORS_KB), nrq = tune_num(t, TUNE_NR_REQUESTS);
        const char *sched = t->val[TUNE_SCHEDULER];
        for (size_t k = 0; k < n_q; k++) {
                const struct blockdev *b = qdevs[k];
                if (msk >= 0 && b->max_hw_sectors_kb && msk > b->max_hw_sectors_kb)
                        plan_err(c, t->line, w, RULE_MAX_SECTORS_KB,
                            "max-sectors-kb %" PRId64 " is above %s's max_hw_sectors_kb %u; the kernel refuses it%s", msk,
                            b->name, b->max_hw_sectors_kb, o->disk.n_paths ? " (a multipath map cannot exceed its paths)" : "");
                if (sched && b->schedulers && !strv_contains(b->schedulers, sched)) {
                        char *offered = strv_join(b->schedulers, " ");
                        plan_warn(c, t->line, w, RULE_SCHEDULER, "%s does not offer scheduler %s now (offers: %s)",
                                  b->name, sched, offered);
                        free(offered);
                }
        }
        if (!o->disk.udev_key && o->disk.n_paths) /* a plain disk without one was refused [udev-key-shared] */
                plan_warn(c, t->line, w, RULE_NO_STABLE_ID,
                     "%s has no WWN, serial, path or wwid that a udev rule can match safely (src/sanitize.c): its "
                     "tuning is applied now but cannot be persisted as a udev rule",
                     o->disk.bd->name);
        if (o->disk.n_paths && !o->disk.path_udev_key && !o->disk.path_udev_why &&
            (sched || nrq >= 0 || msk >= 0))
                plan_warn(c, t->line, w, RULE_NO_STABLE_ID,
                     "the paths of %s share no ID_WWN or ID_SERIAL that a udev rule can match safely and that no other "
                     "disk carries: their tuning is applied now but not persisted",
                     o->id);
        if (nrq < 0 && msk < 0)
                return 0;
        /* a derived max_sectors_kb that lowers the kernel's value (a parity LUN's whole stripes) adds no
         * memory to what the queue pins now; the check is on what the profile raises */
        bool lowers = nrq < 0 && t->derived[TUNE_MAX_SECTORS_KB];
        for (size_t k = 0; lowers && k < n_q; k++)
                lowers = qdevs[k]->max_sectors_kb && (uint64_t)msk <= qdevs[k]->max_sectors_kb;
        if (lowers)
                return 0;
        uint64_t total = 0;
        for (size_t k = 0; k < n_q; k++) {
                const struct blockdev *b = qdevs[k];
                uint64_t nr = nrq >= 0 ? (uint64_t)nrq : b->nr_requests;
                uint64_t ms = msk >= 0 ? (uint64_t)msk : b->max_sectors_kb;
                uint64_t q = b->nr_hw_queues ? b->nr_hw_queues : 1;
                /* saturating: a product past 2^64 is "more than any machine", never 0 B */
                uint64_t bytes = mul_sat_u64(mul_sat_u64(mul_sat_u64(nr, ms), KiB), q);
                char hb[32];
                sbuf_printf(who, "\n    %s (%s): nr_requests %" PRIu64 " x max_sectors_kb %" PRIu64 " x %" PRIu64 " queue%s = %s",
                            o->id, b->name, nr, ms, q, q == 1 ? "" : "s", fmt_size_human(bytes, hb));
                total = add_sat_u64(total, bytes);
        }
        return total;
}

/* The disk under a member (itself, or a partition's disk). */
static const struct pl_obj *member_disk(struct ctx *c, size_t mi)
{
        const struct pl_obj *m = OBJ(c, mi);
        if (m->kind == OBJ_PART)
                m = OBJ(c, m->parent);
        return m->kind == OBJ_DISK ? m : NULL;
}

/* Does a VG hold a striped LV (whose pieces the block layer must merge per PV)? */
static bool vg_striped(struct ctx *c, size_t vi)
{
        for (size_t i = 0; i < c->pl->n_objs; i++) {
                const struct pl_obj *o = OBJ(c, i);
                if (o->kind == OBJ_LV && o->parent == vi && o->lv.stripes > 1)
                        return true;
        }
        return false;
}

/* A layer that stripes over parity LUNs (md raid0/4/5/6/10, a striped LV) writes each LUN stripe as one
 * request only when the stripe fits a request (disk_request_size): say so where it cannot. */
static void check_lun_requests(struct ctx *c)
{
        for (size_t i = 0; i < c->pl->n_objs; i++) {
                const struct pl_obj *o = OBJ(c, i);
                if ((o->kind == OBJ_MD && o->md.level == RAID_1) || (o->kind == OBJ_VG && !vg_striped(c, i)))
                        continue;
                const size_t *mem = o->kind == OBJ_MD ? o->md.members : o->kind == OBJ_VG ? o->vg.pvs : NULL;
                size_t n = o->kind == OBJ_MD ? o->md.n_members : o->kind == OBJ_VG ? o->vg.n_pvs : 0;
                for (size_t k = 0; k < n; k++) {
                        const struct pl_obj *d = member_disk(c, mem[k]);
                        if (!d || !d->disk.stripe_split)
                                continue;
                        char fb[32];
                        plan_warn(c, o->line, o->what, RULE_LUN_REQUEST_SIZE,
                             "the full stripe %s of %s (%s) is larger than the largest request it takes, %" PRIu64
                             " KiB of 4 KiB pages (queue/max_segments and max_hw_sectors_kb): each stripe reaches it "
                             "in two requests or more, which a LUN without a write-back cache takes as partial-stripe "
                             "writes (read-modify-write); a LUN stripe of at most %" PRIu64 " KiB avoids it",
                             fmt_size_exact(d->geom.full_stripe_bytes, fb), d->id, d->disk.bd ? d->disk.bd->name : "?",
                             d->disk.request_limit_kb, d->disk.request_limit_kb);
                        break;
                }
        }
}

/* The parity LUN whose full stripe a layer writes in smaller pieces, or NULL: under md raid4/5/6 any such
 * stripe (its stripe cache cuts buffered runs anywhere, a power of 2 or not: the partial-stripe bench,
 * seed 1796454165, found every buffered byte in a partial LUN stripe under md raid5 over RAID6 10 x 128K
 * LUNs); under a
 * striped LV or md raid0 one that is not a power of 2 (otherwise storprov's su is the whole stripe).
 * *cache: the write cache of such LUNs, write-back only if each says so. */
static const struct pl_obj *pieces_over_lun(struct ctx *c, const struct pl_obj *o, enum ctl_cache *cache)
{
        const struct pl_obj *first = NULL;
        const size_t *mem = NULL;
        size_t n = 0;
        if (o->kind == OBJ_MD && o->md.level != RAID_1) {
                mem = o->md.members;
                n = o->md.n_members;
        } else if (o->kind == OBJ_LV && o->lv.stripes > 1) {
                const struct pl_obj *vg = OBJ(c, o->parent);
                mem = vg->vg.pvs;
                n = vg->vg.n_pvs;
        }
        for (size_t k = 0; k < n; k++) {
                const struct pl_obj *d = member_disk(c, mem[k]);
                uint64_t F = d ? d->geom.full_stripe_bytes : 0;
                bool any_f = o->kind == OBJ_MD && raid_level_has_parity(o->md.level);
                if (!d || !d->geom.parity || !F || (!any_f && is_pow2(F)) || !o->geom.su_bytes || o->geom.su_bytes >= F)
                        continue;
                /* write-back only if every such LUN says so; one whose cache is off now, if any is */
                if (!first || (d->disk.cache != CTL_CACHE_WRITE_BACK && *cache == CTL_CACHE_WRITE_BACK) ||
                    d->disk.cache == CTL_CACHE_BACK_DISABLED)
                        *cache = d->disk.cache;
                if (!first)
                        first = d;
        }
        return first;
}

/* What lun-buffered-rmw adds for the LUNs' write cache, as their controller reports it
 * (bench/README.md 1f: md raid5 over 3 RAID6 LUNs behind dm-writecache, buffered writes). */
static const char *cache_clause(enum ctl_cache cache, bool parity)
{
        if (cache == CTL_CACHE_WRITE_BACK)
                return parity ? "; the write-back cache the LUNs' controller reports gathers such pieces (measured "
                                "0.002-0.032 with a 128 MiB cache a LUN and 0.039-0.107 with 32 MiB; bench/README.md "
                                "1f) for as long as it stays in write-back"
                              : "; the write-back cache the LUNs' controller reports gathers such pieces (measured "
                                "under md raid5 only: 0.002-0.107; bench/README.md 1f) for as long as it stays in "
                                "write-back";
        if (cache == CTL_CACHE_BACK_DISABLED)
                return "; the LUNs' controller reports their write-back cache disabled now (a battery or flash "
                       "module absent, failed or charging): the figures without a cache hold until it is back";
        return "";
}

/* Issue 32, measured by bench/parity-md.sh (3 LUNs of RAID6 5 x 128K, F 384K; the figures below are issue 43's
 * runs, bench/results/raw/parity-md/parity-md-20261207T05*.out, summed up by bench/pmd_summary.py):
 * O_DIRECT writes of whole stripes reach such LUNs whole once max_sectors_kb is whole stripes, but buffered
 * writes flushed by fsync do not (no plug gathers them: 64 KiB requests under an LV, runs cut anywhere
 * under md raid5), and no md raid5 setting measured changed that. Say so, with the layout that does. */
static void check_buffered_pieces(struct ctx *c)
{
        for (size_t i = 0; i < c->pl->n_objs; i++) {
                const struct pl_obj *o = OBJ(c, i);
                enum ctl_cache cache = CTL_CACHE_UNSAID;
                const struct pl_obj *d = pieces_over_lun(c, o, &cache);
                if (!d)
                        continue;
                char fb[32], sb[32], subj[48] = "the striped LV";
                bool parity = o->kind == OBJ_MD && raid_level_has_parity(o->md.level);
                if (o->kind == OBJ_MD)
                        snprintf(subj, sizeof(subj), "md %s", raid_level_name(o->md.level));
                bool pow2 = is_pow2(d->geom.full_stripe_bytes);
                plan_warn(c, o->line, o->what, RULE_LUN_BUFFERED_RMW,
                     "%s writes the full stripe %s of %s%s in pieces of %s: O_DIRECT writes of whole "
                     "stripes still reach each LUN whole (measured %s), but buffered writes flushed by fsync reach "
                     "it in pieces that a LUN without a write-back cache completes by reading (measured %s)%s; %s",
                     subj, fmt_size_exact(d->geom.full_stripe_bytes, fb), d->id, pow2 ? "" : " (not a power of 2)",
                     fmt_size_exact(o->geom.su_bytes, sb),
                     parity ? "0.0004-0.008 bytes read per byte written under md raid5 over 384k LUN stripes"
                            : "0.0002-0.0006 bytes read per byte written under a striped LV over 384k LUN stripes",
                     !parity ? "0.11-0.19 under a striped LV; bench/parity-md.sh"
                     : pow2 ? "every buffered byte in a partial LUN stripe under md raid5 over 1m LUN stripes; "
                              "bench/results/raw/partial-stripe"
                            : "0.15-0.43 under md raid5, the LUNs' stripe caches at md's default 256 or at 4096; "
                              "bench/parity-md.sh",
                     cache_clause(cache, parity),
                     pow2 ? "md raid0 over the LUNs takes the whole stripe as its chunk (what storprov derives for it)"
                     : d->geom.full_stripe_bytes <= 512 * KiB
                             ? "md raid0 over the LUNs takes the whole stripe as its chunk (what storprov derives for "
                               "it; measured 0.004-0.05 buffered), or give the LUNs a full stripe that is a power of 2"
                             : "give the LUNs a full stripe that is a power of 2");
        }
}

void check_tuning(struct ctx *c)
{
        check_lun_requests(c);
        check_buffered_pieces(c);
        uint64_t pinned = 0;
        struct sbuf who = {0};
        int first_line = 0;
        for (size_t i = 0; i < c->pl->n_objs; i++) {
                const struct pl_obj *o = OBJ(c, i);
                if (!o->tune.line)
                        continue;
                check_tune_targets(c, o);
                check_stripe_cache(c, o);
                if (o->kind != OBJ_DISK || o->disk.missing) /* a disk that is gone has no queue to check */
                        continue;
                pinned = add_sat_u64(pinned, check_disk_tune(c, o, &who));
                if (!first_line && o->tune.val[TUNE_NR_REQUESTS])
                        first_line = o->tune.line;
        }
        c->pl->queue_mem_bytes = pinned;
        uint64_t mem = c->pl->mem_total_bytes;
        if (mem && mul_sat_u64(pinned, QUEUE_MEM_FRACTION_DEN) > mem && !profile_allows(c->p, RULE_QUEUE_MEMORY)) {
                char a[32], b[32];
                plan_err(c, first_line, "tune", RULE_QUEUE_MEMORY,
                    "nr_requests x max_sectors_kb x queues can pin %s of I/O in the request queues, more than 1/%d "
                    "of MemTotal %s (seed 000: 8192 x 512 KiB pinned ~3.5 GiB and the node fell over); lower nr-requests "
                    "or max-sectors-kb, or add <allow rule=\"queue-memory\"/>:%s",
                    fmt_size_human(pinned, a), QUEUE_MEM_FRACTION_DEN, fmt_size_human(mem, b), who.s ? who.s : "");
        }
        free(who.s);
}

/* The keys of the rules that are not a disk's (an md's MD_UUID, an LV's DM_NAME, a
 * multipath map's DM_UUID) have no next identity: one that another device of the
 * node carries refuses the plan. A disk's own are picked in plan/disks.c. */
void check_rule_keys(struct ctx *c)
{
        const struct sysinfo *si = c->si;
        for (size_t i = 0; i < c->pl->n_objs; i++) {
                const struct pl_obj *o = OBJ(c, i);
                if (!o->tune.line)
                        continue;
                const char *key = NULL;
                _cleanup_free_ char *value = NULL;
                struct sbuf names = {0};
                size_t n = 0;
                for (size_t k = 0; k < si->n_devs; k++) {
                        const struct blockdev *b = &si->devs[k];
                        bool shared = false;
                        if (o->kind == OBJ_MD && obj_uuid(o) && !o->preserve) {
                                /* a preserved array's UUID is the one it has: every md carrying it is that array */
                                key = "MD_UUID";
                                shared = b->md_uuid && !strcasecmp(b->md_uuid, obj_uuid(o)) &&
                                         !streq_ptr(b->md_devname, o->md.name);
                        } else if (o->kind == OBJ_LV) {
                                const struct pl_obj *vg = &c->pl->objs[o->parent];
                                key = "DM_NAME";
                                if (!value)
                                        value = dm_name(vg->vg.name, o->lv.name);
                                /* another LV (udev names its VG and LV), or a dm device that is no LV at all */
                                bool other_lv = (b->dm_vg_name || b->dm_lv_name) &&
                                                !(streq_ptr(b->dm_vg_name, vg->vg.name) && streq_ptr(b->dm_lv_name, o->lv.name));
                                bool not_lvm = b->dm_uuid && !startswith(b->dm_uuid, "LVM-");
                                shared = streq_ptr(b->dm_name, value) && (other_lv || not_lvm);
                        } else if (o->kind == OBJ_DISK && o->disk.n_paths && o->disk.udev_value) {
                                key = "DM_UUID";
                                shared = streq_ptr(b->dm_uuid, o->disk.udev_value) && b != o->disk.bd;
                        }
                        if (!shared)
                                continue;
                        if (n < 3)
                                sbuf_printf(&names, "%s%s", n ? ", " : "", b->name);
                        n++;
                }
                if (n) {
                        const char *v = o->kind == OBJ_MD ? obj_uuid(o) : o->kind == OBJ_LV ? value : o->disk.udev_value;
                        _cleanup_free_ char *vc = comment_dup(v);
                        plan_err(c, o->tune.line, o->what, RULE_UDEV_KEY_SHARED,
                            "its tuning rule matches %s==\"%s\", which %s%s (not %s) carr%s too: the tuning would land "
                            "there as well; rename it or stop the other device before planning",
                            key, vc, names.s, n > 3 ? " and others" : "", o->id, n > 1 ? "y" : "ies");
                }
                free(names.s);
        }
}

void check_sysctls(struct ctx *c)
{
        static const char *const pairs[][2] = {
                {"vm.dirty_ratio", "vm.dirty_bytes"},
                {"vm.dirty_background_ratio", "vm.dirty_background_bytes"},
        };
        const struct profile *p = c->p;
        for (size_t i = 0; i < p->n_sysctls; i++) {
                const struct p_sysctl *s = &p->sysctls[i];
                /* duplicates: checked at profile load, linearly (src/profile.c) */
                for (size_t k = 0; k < ELEMENTSOF(pairs); k++)
                        for (size_t j = 0; j < i; j++) {
                                bool ab = streq_ptr(p->sysctls[j].key, pairs[k][0]) && streq_ptr(s->key, pairs[k][1]);
                                bool ba = streq_ptr(p->sysctls[j].key, pairs[k][1]) && streq_ptr(s->key, pairs[k][0]);
                                if (ab || ba)
                                        plan_err(c, s->line, "sysctl", RULE_SYSCTL_RATIO_BYTES,
                                            "%s and %s (line %d) exclude each other: writing one zeroes the other, so "
                                            "only the last would count",
                                            s->key, p->sysctls[j].key, p->sysctls[j].line);
                        }
                if (startswith(s->key, "vm.dirty_")) {
                        uint64_t v;
                        if (parse_u64(s->value, &v) < 0)
                                plan_err(c, s->line, "sysctl", RULE_SYSCTL_VALUE, "%s = \"%s\" is not a whole number",
                                         s->key, s->value);
                        else if (strstr(s->key, "_ratio") && v > 100)
                                plan_err(c, s->line, "sysctl", RULE_SYSCTL_VALUE,
                                         "%s = %" PRIu64 " is not a percentage", s->key, v);
                        else if (strstr(s->key, "_bytes") && v && v < 8192)
                                plan_err(c, s->line, "sysctl", RULE_SYSCTL_VALUE,
                                    "%s = %" PRIu64 " is below two pages; the kernel refuses it", s->key, v);
                }
        }
        /* background >= foreground makes the kernel halve background silently */
        const char *fg = NULL, *bg = NULL;
        int bgl = 0;
        for (size_t i = 0; i < p->n_sysctls; i++) {
                if (streq_ptr(p->sysctls[i].key, "vm.dirty_ratio"))
                        fg = p->sysctls[i].value;
                if (streq_ptr(p->sysctls[i].key, "vm.dirty_background_ratio")) {
                        bg = p->sysctls[i].value;
                        bgl = p->sysctls[i].line;
                }
        }
        uint64_t f, b;
        if (fg && bg && parse_u64(fg, &f) == 0 && parse_u64(bg, &b) == 0 && b >= f)
                plan_warn(c, bgl, "sysctl", RULE_SYSCTL_DIRTY_ORDER,
                     "vm.dirty_background_ratio %" PRIu64 " >= vm.dirty_ratio %" PRIu64
                     ": the kernel would use half of dirty_ratio instead",
                     b, f);
        c->pl->sysctls = xcalloc(p->n_sysctls, sizeof(struct pl_sysctl));
        for (size_t i = 0; i < p->n_sysctls; i++)
                c->pl->sysctls[i] = (struct pl_sysctl){.line = p->sysctls[i].line, .key = xstrdup(p->sysctls[i].key),
                                                       .value = xstrdup(p->sysctls[i].value)};
        c->pl->n_sysctls = p->n_sysctls;
}

void check_unique_names(struct ctx *c)
{
        const struct profile *p = c->p;
        /* ids share one namespace, since references name them; a <disks> group
         * of count N names its disks ID1 … IDN, and those take part too
         * (<disks id="lun" count="12"> and <disks id="lun1"> both make lun1) */
        struct id_def {
                char *id, *who;
                int line;
        };
        size_t cap = 16, n = 0;
        struct id_def *defs = xmalloc(cap * sizeof(*defs));
        struct strmap seen = {0};
        /* the map borrows keys from defs[].id, which never move (each is its own allocation) */
#define ADD_ID(X_, L_, W_)                                                                                             \
        do {                                                                                                           \
                char *_id = (X_), *_who = (W_);                                                                        \
                size_t _old;                                                                                           \
                if (!_id) {                                                                                            \
                        free(_who);                                                                                    \
                        break;                                                                                         \
                }                                                                                                      \
                if (!strmap_add(&seen, _id, n, &_old)) {                                                               \
                        plan_err(c, (L_), _id, RULE_DUPLICATE_ID, "id \"%s\" is already used on line %d%s%s%s", _id,   \
                                 defs[_old].line, defs[_old].who ? " (" : "", defs[_old].who ? defs[_old].who : "",    \
                                 defs[_old].who ? ")" : "");                                                           \
                        free(_id);                                                                                     \
                        free(_who);                                                                                    \
                        break;                                                                                         \
                }                                                                                                      \
                if (n == cap)                                                                                          \
                        defs = xrealloc(defs, (cap *= 2) * sizeof(*defs));                                             \
                defs[n++] = (struct id_def){.id = _id, .who = _who, .line = (L_)};                                     \
        } while (0)
        for (size_t i = 0; i < p->n_disks; i++) {
                const struct p_disks *g = &p->disks[i];
                /* the group's id is what references name; its disks' ids are what plans and rules show */
                ADD_ID(xstrdup(g->id), g->line, NULL);
                if (g->count > 1)
                        for (unsigned k = 1; k <= g->count; k++)
                                ADD_ID(xasprintf("%s%u", g->id, k), g->line,
                                       xasprintf("disk %u of <disks id=\"%s\" count=\"%u\">", k, g->id, g->count));
                struct strmap pids = {0};
                for (size_t j = 0; j < g->n_parts; j++)
                        if (g->parts[j].id && !strmap_add(&pids, g->parts[j].id, j, NULL))
                                plan_err(c, g->parts[j].line, g->id, RULE_DUPLICATE_ID,
                                         "partition id \"%s\" is used twice", g->parts[j].id);
                strmap_free(&pids);
        }
        for (size_t i = 0; i < p->n_mds; i++) {
                const struct p_md *m = &p->mds[i];
                ADD_ID(xstrdup(m->id), m->line, NULL);
                struct strmap pids = {0};
                for (size_t j = 0; j < m->n_parts; j++)
                        if (m->parts[j].id && !strmap_add(&pids, m->parts[j].id, j, NULL))
                                plan_err(c, m->parts[j].line, m->id, RULE_DUPLICATE_ID,
                                         "partition id \"%s\" is used twice", m->parts[j].id);
                strmap_free(&pids);
        }
        for (size_t i = 0; i < p->n_vgs; i++) {
                ADD_ID(xstrdup(p->vgs[i].id), p->vgs[i].line, NULL);
                struct strmap lvs = {0};
                for (size_t j = 0; j < p->vgs[i].n_lvs; j++)
                        if (p->vgs[i].lvs[j].name && !strmap_add(&lvs, p->vgs[i].lvs[j].name, j, NULL))
                                plan_err(c, p->vgs[i].lvs[j].line, p->vgs[i].id, RULE_DUPLICATE_ID,
                                         "lv \"%s\" is defined twice", p->vgs[i].lvs[j].name);
                strmap_free(&lvs);
        }
#undef ADD_ID
        struct strmap names = {0};
        for (size_t i = 0; i < p->n_mds; i++) {
                size_t old;
                if (p->mds[i].name && !strmap_add(&names, p->mds[i].name, i, &old))
                        plan_err(c, p->mds[i].line, p->mds[i].id, RULE_DUPLICATE_NAME,
                            "md name \"%s\" is already used on line %d", p->mds[i].name, p->mds[old].line);
        }
        strmap_free(&names);
        for (size_t i = 0; i < p->n_vgs; i++) {
                size_t old;
                if (p->vgs[i].name && !strmap_add(&names, p->vgs[i].name, i, &old))
                        plan_err(c, p->vgs[i].line, p->vgs[i].id, RULE_DUPLICATE_NAME,
                            "vg name \"%s\" is already used on line %d", p->vgs[i].name, p->vgs[old].line);
        }
        strmap_free(&names);
        strmap_free(&seen);
        for (size_t i = 0; i < n; i++) {
                free(defs[i].id);
                free(defs[i].who);
        }
        free(defs);
}


void check_unused(struct ctx *c)
{
        for (size_t i = 0; i < c->pl->n_objs; i++) {
                const struct pl_obj *o = OBJ(c, i);
                /* a partitioned md is used by its partitions (plan_partitions adds them right after it) */
                bool has_parts = i + 1 < c->pl->n_objs && OBJ(c, i + 1)->kind == OBJ_PART && OBJ(c, i + 1)->parent == i;
                if ((o->kind == OBJ_PART || o->kind == OBJ_LV || o->kind == OBJ_MD) && !o->used && !o->preserve &&
                    !has_parts)
                        plan_warn(c, o->line, o->what, RULE_UNUSED,
                             "%s %s is created but nothing uses it (no md, vg or xfs names it)", obj_kind_name(o->kind),
                             o->id);
        }
}
