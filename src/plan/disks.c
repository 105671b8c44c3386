/* SPDX-License-Identifier: GPL-2.0-or-later
 * Disks and their partitions: selection, geometry, stable identity. */
#include "plan/internal.h"
#include "plan/udevid.h"
#include "base/sanitize.h"
#include "base/strmap.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Exported io hints are used only when they are believable (as libblkid and
 * libfdisk do): multiples of the physical sector, io_min a divisor of io_opt,
 * io_opt not the known-bogus 33553920 nor absurdly large. */
static bool topology_trusted(const struct blockdev *b, char **ret_why)
{
        uint64_t phys = b->physical_sector_bytes ? b->physical_sector_bytes : SECTOR_BYTES;
        *ret_why = NULL;
        if (!b->io_opt_bytes && (!b->io_min_bytes || b->io_min_bytes <= phys))
                return false; /* nothing exported */
        if (b->io_min_bytes <= phys || !b->io_opt_bytes) {
                *ret_why = xasprintf("io_min %" PRIu64 " / io_opt %" PRIu64 " describe no stripe", b->io_min_bytes,
                                     b->io_opt_bytes);
                return false;
        }
        if (b->io_opt_bytes == 33553920 || b->io_opt_bytes > 64 * MiB) {
                *ret_why = xasprintf("io_opt %" PRIu64 " is a known bogus or absurd value", b->io_opt_bytes);
                return false;
        }
        if (b->io_opt_bytes / b->io_min_bytes > 256) {
                *ret_why = xasprintf("io_opt %" PRIu64 " is %" PRIu64 " x io_min %" PRIu64
                                     ": no array stripes across that many units",
                                     b->io_opt_bytes, b->io_opt_bytes / b->io_min_bytes, b->io_min_bytes);
                return false;
        }
        if (b->io_min_bytes % phys || b->io_opt_bytes % phys || b->io_opt_bytes % b->io_min_bytes) {
                *ret_why = xasprintf("io_min %" PRIu64 " / io_opt %" PRIu64 " are not consistent multiples",
                                     b->io_min_bytes, b->io_opt_bytes);
                return false;
        }
        return true;
}

/* Whether a trusted hint describes a RAID stripe whose parity is unknown (io_hint_kind_of, the rule
 * storprov inventory shows too): a strip of at least 8 KiB (the smallest strip controllers offer; 4 KiB
 * is a write granularity, as many drives export) and io_opt whole strips above it, on a device that is
 * not an NVMe namespace (those export their write granularity, NPWG/NOWS, never a parity stripe). Such
 * a LUN is planned as parity: whole LUN stripes per leg, swalloc, whole-stripe AGs, which costs a RAID0
 * LUN nothing that matters and saves a RAID5/6 LUN its read-modify-write (an LV over 3 LUNs exporting
 * 64k / 448k: 0.10 planned as RAID0, 0.0003 declared). */
static bool hint_is_stripe(const struct blockdev *b)
{
        return io_hint_kind_of(b) == IO_HINT_RAID_STRIPE;
}

/* The NVMe namespace a planned block device is, or is a partition of; NULL for anything else. */
const struct blockdev *nvme_under(struct ctx *c, size_t oi)
{
        const struct pl_obj *o = OBJ(c, oi);
        if (o->kind == OBJ_PART)
                o = OBJ(c, o->parent);
        return o->kind == OBJ_DISK && o->disk.bd && io_hint_kind_of(o->disk.bd) == IO_HINT_NVME ? o->disk.bd : NULL;
}

/* PIECE_BYTES (an md chunk, an LV stripe) is what each member gets of a stripe: on an NVMe namespace
 * it should be whole units of the write granularity the drive exports (NPWG as io_min), or the drive
 * rewrites each unit a piece only partly fills. Warns once, naming the first such member. */
void warn_nvme_granularity(struct ctx *c, int line, const char *what, enum rule_id rule, const char *piece,
                           uint64_t piece_bytes, const size_t *members, size_t n)
{
        char a[32], g[32], o[32];
        for (size_t i = 0; i < n && piece_bytes; i++) {
                const struct blockdev *b = nvme_under(c, members[i]);
                if (!b || !b->io_min_bytes || piece_bytes % b->io_min_bytes == 0)
                        continue;
                plan_warn(c, line, what, rule,
                     "%s %s is not a multiple of the write granularity %s that NVMe namespace %s exports (NPWG, "
                     "io_min): each member gets pieces the drive must merge into %s units it rewrites whole; give "
                     "a multiple of %s%s%s%s",
                     piece, fmt_size_exact(piece_bytes, a), fmt_size_exact(b->io_min_bytes, g), b->name,
                     g, g, b->io_opt_bytes ? " (its optimal write size " : "",
                     b->io_opt_bytes ? fmt_size_exact(b->io_opt_bytes, o) : "",
                     b->io_opt_bytes ? ", what storprov picks when it is left out)" : "");
                return;
        }
}

/* The largest request (KiB) the disk takes from a writer of separate 4 KiB pages (md raid4/5/6 writes from
 * its stripe cache, buffered writes from the page cache): max_segments pages, each a segment of its own, and
 * max_hw_sectors_kb. A limit the sysfs tree does not give is the block layer's default (128 segments). */
static uint64_t disk_page_request_kb(const struct blockdev *const *qdevs, size_t n_q, uint64_t *ret_segs,
                                     uint64_t *ret_hw)
{
        uint64_t segs = 0, hw = 0;
        for (size_t k = 0; k < n_q; k++) {
                uint64_t s = qdevs[k]->max_segments ? qdevs[k]->max_segments : BLK_DEFAULT_MAX_SEGMENTS;
                if (qdevs[k]->max_segment_size && qdevs[k]->max_segment_size < 4096)
                        s = s * qdevs[k]->max_segment_size / 4096;
                segs = !segs || s < segs ? s : segs;
                if (qdevs[k]->max_hw_sectors_kb && (!hw || qdevs[k]->max_hw_sectors_kb < hw))
                        hw = qdevs[k]->max_hw_sectors_kb;
        }
        *ret_segs = segs;
        *ret_hw = hw;
        uint64_t kb = segs * 4;
        return hw && hw < kb ? hw : kb;
}

/* A parity LUN takes a full stripe without reading only when it arrives in one request. The block layer
 * cuts a run of 4 KiB pages at the page limit (disk_page_request_kb) or at max_sectors_kb, counted from
 * where the run starts, so a cut that is not a whole number of full stripes splits every stripe it
 * crosses in two requests. Measured (bench/parity-md.sh, md RAID5 over 3 LUNs of RAID6 5 x 128K, F = 384K,
 * requests cut at 512K): 2 O_DIRECT writers of 2 full stripes read 0.28 of what they wrote, 0.0037 with
 * max_sectors_kb 384. So max_sectors_kb becomes the largest whole number of full stripes both limits
 * hold, unless the profile sets it; a stripe larger than the limit is recorded for the warning of a
 * layer stacked on it (check_lun_requests). */
static void disk_request_size(struct pl_obj *o, const struct blockdev *const *qdevs, size_t n_q, int line)
{
        enum tune_attr a = TUNE_MAX_SECTORS_KB;
        uint64_t F = o->geom.full_stripe_bytes, segs, hw;
        if (o->tune.val[a] || !o->geom.parity || !F || F % KiB)
                return;
        for (size_t k = 0; k < n_q; k++)
                if (!qdevs[k]->max_hw_sectors_kb)
                        return; /* no queue limits (an offline plan): nothing to derive from */
        uint64_t fk = F / KiB, lim = disk_page_request_kb(qdevs, n_q, &segs, &hw), cur = 0;
        for (size_t k = 0; k < n_q; k++)
                if (qdevs[k]->max_sectors_kb && (!cur || qdevs[k]->max_sectors_kb < cur))
                        cur = qdevs[k]->max_sectors_kb;
        o->disk.request_limit_kb = lim;
        uint64_t want = lim / fk * fk;
        /* the page limit's cuts already fall between full stripes. Decided by the limits alone, never by
         * the current max_sectors_kb, which this rule itself sets: the plan after apply is the plan before */
        if (lim % fk == 0)
                return;
        if (!want) {
                o->disk.stripe_split = true;
                return;
        }
        char fb[32], hwb[48] = "", curb[64] = "max_sectors_kb is not known";
        if (hw)
                snprintf(hwb, sizeof(hwb), ", max_hw_sectors_kb %" PRIu64, hw);
        if (cur)
                snprintf(curb, sizeof(curb), "max_sectors_kb is %" PRIu64 " now", cur);
        o->tune.val[a] = xasprintf("%" PRIu64, want);
        o->tune.derived[a] = xasprintf(
                "%" PRIu64 " = %" PRIu64 " x the full stripe %s: a request holds at most %" PRIu64 " KiB of 4 KiB "
                "pages (%" PRIu64 " segments%s), and %s; cut at whole full stripes, each request carries whole "
                "stripes of the LUN, never part of one (a partial stripe is a read-modify-write)",
                want, want / fk, fmt_size_exact(F, fb), lim, segs, hwb, curb);
        if (!o->tune.line)
                o->tune.line = line;
}

/* A tuning storprov derives for a disk the profile does not tune is written only when a udev rule can
 * reach the disk alone; else it is dropped with the value to set by hand. */
static void disk_derived_tune(struct ctx *c, const char *what, struct pl_obj *o, const struct blockdev *const *qdevs,
                              size_t n_q, int line)
{
        enum tune_attr a = TUNE_MAX_SECTORS_KB;
        bool tuned = o->tune.line != 0;
        disk_request_size(o, qdevs, n_q, line);
        if (!o->tune.derived[a] || tuned)
                return;
        bool reached = o->disk.n_paths ? o->disk.udev_key && o->disk.path_udev_key : o->disk.udev_key != NULL;
        if (!reached) {
                plan_warn(c, line, what, RULE_LUN_REQUEST_SIZE,
                     "%s: max_sectors_kb %s would keep its requests to whole full stripes, but no udev rule can match "
                     "it alone (%s); set it by hand",
                     qdevs[0]->name, o->tune.val[a], o->disk.udev_why ? o->disk.udev_why : "no identity");
                free(o->tune.val[a]);
                free(o->tune.derived[a]);
                o->tune.val[a] = o->tune.derived[a] = NULL;
                o->tune.line = 0;
        } else if (streq_ptr(o->disk.udev_key, "KERNEL")) {
                plan_warn(c, line, what, RULE_UDEV_KERNEL_NAME,
                     "%s's derived max_sectors_kb rule matches its kernel name: %s. A kernel name can move at the "
                     "next boot, and the tuning with it; give the disk a unique WWN or serial (or a stable path)",
                     qdevs[0]->name, o->disk.udev_why ? o->disk.udev_why : "");
        }
}

/* The disk's rule key (plan/udevid.c): checked against every device of the
 * node, the OS disk and multipath paths included. Refused, or warned about,
 * only when the disk is tuned (a rule is written). */
static void pick_udev_identity(struct ctx *c, const char *what, int line, struct pl_obj *o, const struct udev_ids *ids)
{
        const struct blockdev *b = o->disk.bd;
        bool found = udev_pick_identity(ids, b, &o->disk.udev_key, &o->disk.udev_value, &o->disk.udev_why);
        if (!o->tune.line)
                return; /* no rule is written: the key is only shown */
        if (!found) {
                _cleanup_free_ char *name = comment_dup(b->name);
                _cleanup_free_ char *why = comment_dup(o->disk.udev_why);
                plan_err(c, line, what, RULE_UDEV_KEY_SHARED,
                    "%s: no key a udev rule can match it by reaches it alone (%s); its tuning would land on other "
                    "devices: tune it by hand, or give it an identity of its own",
                    name, why ? why : "no identity");
        } else if (streq_ptr(o->disk.udev_key, "KERNEL"))
                plan_warn(c, line, what, RULE_UDEV_KERNEL_NAME,
                     "%s's tuning rule matches its kernel name: %s. A kernel name can move at the next boot, and the "
                     "tuning with it; give the disk a unique WWN or serial (or a stable path) to match it by",
                     b->name, o->disk.udev_why);
}

/* The kernel's rule, which udev's links follow (63-md-raid-arrays: /dev/md/NAME1, /dev/md/NAME0p1):
 * "p" before the number when the device name ends in a digit. */
static char *part_devname(const char *disk_dev, unsigned n)
{
        size_t len = strlen(disk_dev);
        bool digit = len && disk_dev[len - 1] >= '0' && disk_dev[len - 1] <= '9';
        return xasprintf("%s%s%u", disk_dev, digit ? "p" : "", n);
}

/* GPT keeps 128 entries × 128 bytes plus a header at each end. */
static uint64_t gpt_reserve_bytes(uint64_t sector) { return 16384 + sector; }

void plan_partitions(struct ctx *c, size_t disk, const char *group_id, const struct p_partition *parts, size_t n_parts,
                     int line)
{
        struct pl_obj *d = OBJ(c, disk);
        uint64_t sector = d->sector_bytes;
        uint64_t align = d->align_bytes;
        uint64_t first = round_up(34 * sector, align);
        uint64_t usable_end = d->size_bytes > gpt_reserve_bytes(sector) ? d->size_bytes - gpt_reserve_bytes(sector) : 0;
        uint64_t usable = usable_end > first ? round_down(usable_end - first, align) : 0;
        uint64_t pos = first;
        unsigned pct_total = 0;
        char a[32], b2[32];

        for (size_t i = 0; i < n_parts; i++) {
                const struct p_partition *pp = &parts[i];
                char *ref = xasprintf("%s.%s", group_id, pp->id);
                char *id = d->index ? xasprintf("%s%u.%s", group_id, d->index, pp->id) : xstrdup(ref);
                char *what = xasprintf("partition %s", ref);
                size_t pi = new_obj(c, OBJ_PART, ref, d->index, id, what, pp->line);
                d = OBJ(c, disk); /* realloc */
                struct pl_obj *po = OBJ(c, pi);
                po->parent = disk;
                po->part.number = (unsigned)i + 1;
                po->dev = part_devname(d->dev, po->part.number);
                po->sector_bytes = d->sector_bytes;
                po->physical_sector_bytes = d->physical_sector_bytes;
                po->geom = d->geom;
                po->geom_src = d->geom_src;
                po->geom_why = d->geom.su_bytes ? xasprintf("inherited from %s; start aligned to %s", d->id,
                                                            fmt_size_exact(align, a))
                                                : NULL;
                po->part.type = pp->type;
                po->part.name = xstrdup(pp->name ? pp->name : pp->id);
                po->preserve = d->preserve;
                po->wipe = d->wipe;

                uint64_t size = 0;
                bool last = i + 1 == n_parts;
                if (pp->size.kind == SIZE_BYTES) {
                        size = round_down(pp->size.bytes, align);
                        if (!size)
                                plan_err(c, pp->line, what, RULE_PARTITION_SIZE,
                                    "size %s is smaller than the alignment %s (lcm of 1 MiB, the full stripe and the sector)",
                                    pp->size.text, fmt_size_exact(align, a));
                } else {
                        pct_total += pp->size.percent;
                        if (pp->size.kind == SIZE_PERCENT_FREE || (last && pp->size.percent == 100 && i > 0))
                                size = round_down(first + usable > pos ? first + usable - pos : 0, align);
                        else
                                size = round_down(usable / 100 * pp->size.percent, align);
                        if (last && pct_total == 100)
                                size = round_down(first + usable > pos ? first + usable - pos : 0, align);
                }
                /* an md whose members did not resolve has no size: its errors are reported already */
                if ((d->kind != OBJ_MD || d->size_bytes) && (pos + size > first + usable || (!size && usable))) {
                        plan_err(c, pp->line, what, RULE_PARTITION_SIZE,
                            "does not fit on %s (%s): %s requested at offset %s, %s usable after alignment",
                            d->id, d->dev, pp->size.text, fmt_size_exact(pos, a),
                            fmt_size_human(first + usable > pos ? first + usable - pos : 0, b2));
                        size = 0;
                }
                po->part.start_bytes = pos;
                po->size_bytes = size;
                pos += size;
                free(ref);
                free(id);
                free(what);
        }
        if (pct_total > 100)
                plan_err(c, line, d->what, RULE_PARTITION_SIZE, "partition sizes add up to %u%% of the %s", pct_total,
                    obj_kind_name(d->kind));
}

/* The geometry <hwraid> describes, shared by every disk of the group. */
static enum val_source group_geometry(struct ctx *c, const struct p_disks *g, const char *what, struct stripe_geom *geom,
                                      char **ret_why)
{
        enum val_source src = SRC_NONE;
        char *why = NULL;
        if (g->hwraid.line && g->hwraid.from_controller) {
                *ret_why = NULL;
                return SRC_CONTROLLER; /* per disk: disk_geometry */
        }
        if (g->hwraid.line) {
                struct raid_desc rd = {.level = g->hwraid.level, .members = g->hwraid.members,
                                       .chunk_bytes = g->hwraid.level == RAID_1 ? 0 : g->hwraid.chunk_bytes,
                                       .legs = g->hwraid.legs, .md = false};
                char *e = NULL;
                if (g->hwraid.level == RAID_1 && g->hwraid.chunk_bytes)
                        plan_warn(c, g->hwraid.line, what, RULE_RAID1_CHUNK,
                             "a chunk on a RAID1 LUN has no effect on the layout; ignored");
                if (g->hwraid.level != RAID_1 && !g->hwraid.chunk_bytes)
                        plan_err(c, g->hwraid.line, what, RULE_HWRAID_CHUNK,
                            "hwraid level %d needs chunk= (the controller's strip size; LUNs rarely export it)",
                            (int)g->hwraid.level);
                else if (raid_geometry(&rd, geom, &e) < 0) {
                        plan_err(c, g->hwraid.line, what, RULE_HWRAID, "%s", e);
                        free(e);
                } else {
                        char cb[32];
                        src = SRC_PROFILE;
                        why = g->hwraid.level == RAID_1
                                      ? xasprintf("hwraid raid1 x %u (line %d): mirrors, no stripe", g->hwraid.members,
                                                  g->hwraid.line)
                                      : xasprintf("hwraid %s, %u x %s%s (line %d)", raid_level_name(g->hwraid.level),
                                                  g->hwraid.members, fmt_size_exact(g->hwraid.chunk_bytes, cb),
                                                  g->hwraid.legs > 1 ? " in legs" : "", g->hwraid.line);
                }
        }

        *ret_why = why;
        return src;
}

/* A disk's geometry: the profile's, else what it exports if that is believable. */
static void disk_geometry(struct ctx *c, const struct p_disks *g, const char *what, struct pl_obj *o,
                          enum val_source src, const struct stripe_geom *gg, const char *why)
{
        const struct blockdev *b = o->disk.bd;
        const struct stripe_geom geom = *gg;
        char *distrust = NULL;
        bool trusted = topology_trusted(b, &distrust);
        char a1[32], a2[32], a3[32], a4[32];
        if (src == SRC_CONTROLLER) {
                controller_geometry(c, g, what, o);
        } else if (src == SRC_PROFILE) {
                o->geom = geom;
                o->geom_src = SRC_PROFILE;
                o->geom_why = xstrdup(why);
                controller_check(c, g, what, o);
                if (trusted && geom.su_bytes &&
                    (b->io_min_bytes != geom.su_bytes || b->io_opt_bytes != geom.full_stripe_bytes)) {
                        if (!profile_allows(c->p, RULE_TOPOLOGY_MISMATCH))
                                plan_warn(c, g->hwraid.line, what, RULE_TOPOLOGY_MISMATCH,
                                     "%s exports io_min %s / io_opt %s but the profile describes su %s / full stripe %s; "
                                     "using the profile",
                                     b->name, fmt_size_exact(b->io_min_bytes, a1),
                                     fmt_size_exact(b->io_opt_bytes, a2), fmt_size_exact(geom.su_bytes, a3),
                                     fmt_size_exact(geom.full_stripe_bytes, a4));
                }
        } else if (trusted) {
                bool stripe = hint_is_stripe(b);
                o->geom = (struct stripe_geom){
                        .su_bytes = b->io_min_bytes,
                        .sw = (unsigned)(b->io_opt_bytes / b->io_min_bytes),
                        .full_stripe_bytes = b->io_opt_bytes,
                        .parity = stripe, /* unknown: the layout that is safe for parity */
                };
                o->geom_src = SRC_DETECTED;
                o->geom_why = xasprintf(
                        "exported by %s: io_min %s, io_opt %s%s", b->name, fmt_size_exact(b->io_min_bytes, a1),
                        fmt_size_exact(b->io_opt_bytes, a2),
                        stripe ? "; a stripe of whole strips whose parity the hint does not say: planned as parity "
                                 "(whole stripes per leg, swalloc, whole-stripe AGs), safe either way; <hwraid> "
                                 "says which"
                        : io_hint_kind_of(b) == IO_HINT_NVME
                                ? "; an NVMe namespace's write granularity, not a parity stripe"
                                : "; an io_min below 8 KiB is a write granularity, not a strip");
        }
        if (distrust)
                plan_warn(c, g->line, what, RULE_TOPOLOGY_DISTRUSTED, "%s: ignoring exported topology: %s", b->name,
                     distrust);
        free(distrust);
        o->align_bytes = partition_align_bytes(&o->geom, o->physical_sector_bytes);
        if (src != SRC_PROFILE && trusted && io_hint_kind_of(b) == IO_HINT_NVME && o->align_bytes &&
            o->align_bytes % b->io_opt_bytes == 0) {
                char *w = xasprintf("%s: partition starts multiples of %s, which the NVMe optimal write size %s "
                                    "divides",
                                    o->geom_why, fmt_size_exact(o->align_bytes, a1),
                                    fmt_size_exact(b->io_opt_bytes, a2));
                free(o->geom_why);
                o->geom_why = w;
        }
}

/* The identity the paths' rule (KERNEL!="dm-*") matches: ID_WWN, else ID_SERIAL,
 * when udev-safe, carried by every path and by no other device outside dm-* (the
 * paths share it by design; the OS disk, other LUNs' paths and lone disks must not).
 * A safe key that reaches another device refuses the LUN when no other key does. */
static void pick_path_identity(struct ctx *c, const char *what, int line, struct pl_obj *o, const struct udev_ids *ids)
{
        const struct blockdev *p0 = o->disk.paths[0];
        static const enum udev_id keys[] = {UDEV_ID_WWN, UDEV_ID_SERIAL};
        static const char *const names[] = {"ID_WWN", "ID_SERIAL"};
        struct sbuf why = {0};
        for (size_t k = 0; k < ELEMENTSOF(keys); k++) {
                const char *v = k == 0 ? p0->wwn : p0->id_serial;
                if (!udev_value_safe(v))
                        continue;
                bool all = true;
                for (size_t j = 0; j < o->disk.n_paths; j++)
                        all &= streq_ptr(k == 0 ? o->disk.paths[j]->wwn : o->disk.paths[j]->id_serial, v);
                if (!all)
                        continue;
                struct sbuf others = {0};
                if (udev_id_others(ids, keys[k], v, o->disk.paths, o->disk.n_paths, true, &others)) {
                        sbuf_printf(&why, "%s%s %s is shared with %s", why.len ? "; " : "", names[k], v, others.s);
                        free(others.s);
                        continue;
                }
                o->disk.path_udev_key = xstrdup(names[k]);
                o->disk.path_udev_value = xstrdup(v);
                break;
        }
        if (why.len) {
                o->disk.path_udev_why = sbuf_steal(&why);
                if (!o->disk.path_udev_key && o->tune.line)
                        plan_err(c, line, what, RULE_UDEV_KEY_SHARED,
                            "the paths of %s: no key a udev rule can match them by reaches them alone (%s); their "
                            "tuning would land on other devices",
                            o->id, o->disk.path_udev_why);
        }
        free(why.s);
}

/* The error for a LUN count that differs from the profile's: the LUNs
 * matched, or every LUN present (paths grouped by wwid) when none did. */
static void report_lun_count(struct ctx *c, const struct p_disks *g, const char *what, int line,
                             const struct mpath_lun *l, size_t n, const size_t *found, size_t n_found)
{
        const struct sysinfo *si = c->si;
        struct sbuf b = {0};
        for (size_t k = 0; k < n_found; k++) {
                char *d = mpath_lun_describe(si, &l[found[k]]);
                sbuf_printf(&b, "\n    matched: %s", d);
                free(d);
        }
        if (!n_found) {
                sbuf_puts(&b, "\n    no LUN matched; LUNs present (paths grouped by wwid):");
                for (size_t k = 0; k < n; k++) {
                        char *d = mpath_lun_describe(si, &l[k]);
                        char *p = describe_disk(&si->devs[l[k].paths[0]]);
                        sbuf_printf(&b, "\n      %s: %s", d, p);
                        free(d);
                        free(p);
                }
        }
        _cleanup_free_ char *left = g->system ? NULL : system_left_out(c, g);
        plan_err(c, line, what, left ? RULE_SYSTEM_DISK : RULE_DISK_COUNT,
                 "expected %u multipath LUN%s, found %zu%s%s", g->count, g->count == 1 ? "" : "s", n_found,
                 b.s ? b.s : "", left ? left : "");
        free(b.s);
}

/* How LUN x's disk object o is named and reached: its alias id; its wwid, refused
 * when multipath.conf, a dm uuid or a udev rule cannot carry it; its /dev path, the
 * map's (map NULL: the one multipath will make under the alias). */
static void mpath_lun_names(struct ctx *c, const char *what, int line, struct pl_obj *o, const struct mpath_lun *x,
                            const struct blockdev *map, const char *id)
{
        o->disk.mpath_alias = xstrdup(id);
        if (!mpath_word_safe(x->wwid)) {
                _cleanup_free_ char *d = mpath_lun_describe(c->si, x);
                plan_err(c, line, what, RULE_MULTIPATH_WWID,
                    "%s: its wwid cannot be written into multipath.conf, a dm uuid or a udev rule as it is "
                    "(only [A-Za-z0-9._:-] is); refusing the LUN",
                    d);
        } else
                o->disk.mpath_wwid = xstrdup(x->wwid);
        if (map && map->dm_name && mpath_word_safe(map->dm_name))
                o->dev = xasprintf("/dev/mapper/%s", map->dm_name);
        else if (map)
                o->dev = xstrdup(map->devnode);
        else {
                o->dev = xasprintf("/dev/mapper/%s", id);
                o->disk.mpath_create = true;
        }
}

/* LUN x's size, its first path's: paths of another size are not one LUN; a
 * single path works but has nothing to fail over to. */
static uint64_t mpath_lun_size(struct ctx *c, const char *what, int line, const struct mpath_lun *x)
{
        const struct sysinfo *si = c->si;
        const struct blockdev *p0 = &si->devs[x->paths[0]];
        uint64_t size = p0->size_bytes;
        for (size_t j = 0; j < x->n_paths; j++)
                if (si->devs[x->paths[j]].size_bytes != size) {
                        _cleanup_free_ char *d = mpath_lun_describe(si, x);
                        plan_err(c, line, what, RULE_MULTIPATH_PATHS,
                            "%s: the paths differ in size (%s: %" PRIu64 " bytes, %s: %" PRIu64
                            " bytes); they are not one LUN",
                            d, p0->name, size, si->devs[x->paths[j]].name, si->devs[x->paths[j]].size_bytes);
                        break;
                }
        if (x->n_paths < 2)
                plan_warn(c, line, what, RULE_MULTIPATH_SINGLE_PATH,
                     "%s has one path only: it works, but without a second path nothing fails over", p0->name);
        return size;
}

/* LUN x of group g (index 0: the group's only one): its disk object, paths,
 * names, size, identity, geometry and tuning. */
static void plan_one_lun(struct ctx *c, const struct p_disks *g, const char *what, int line, const struct mpath_lun *x,
                         unsigned index, const struct udev_ids *ids, enum val_source src,
                         const struct stripe_geom *geom, const char *why)
{
        const struct sysinfo *si = c->si;
        char *id = index ? xasprintf("%s%u", g->id, index) : xstrdup(g->id);
        size_t di = new_obj(c, OBJ_DISK, g->id, index, id, what, g->line);
        struct pl_obj *o = OBJ(c, di);
        const struct blockdev *p0 = &si->devs[x->paths[0]];
        const struct blockdev *map = x->map != NO_OBJ ? &si->devs[x->map] : NULL;
        o->disk.bd = map ? map : p0;
        o->disk.n_paths = x->n_paths;
        o->disk.paths = xcalloc(x->n_paths, sizeof(*o->disk.paths));
        for (size_t j = 0; j < x->n_paths; j++)
                o->disk.paths[j] = &si->devs[x->paths[j]];
        mpath_lun_names(c, what, line, o, x, map, id);
        uint64_t size = mpath_lun_size(c, what, line, x);
        o->size_bytes = map && map->size_bytes ? map->size_bytes : size;
        o->sector_bytes = p0->logical_sector_bytes ? p0->logical_sector_bytes : SECTOR_BYTES;
        o->physical_sector_bytes = p0->physical_sector_bytes ? p0->physical_sector_bytes : SECTOR_BYTES;
        o->preserve = g->preserve;
        o->wipe = g->wipe;
        if (o->disk.mpath_wwid) {
                o->disk.udev_key = xstrdup("DM_UUID");
                o->disk.udev_value = xasprintf("mpath-%s", o->disk.mpath_wwid);
        }
        tune_set_copy(&o->tune, &g->tune);
        pick_path_identity(c, what, line, o, ids);
        /* the geometry the paths export (the map's own io hints are the paths', stacked) */
        const struct blockdev *saved = o->disk.bd;
        o->disk.bd = p0;
        disk_geometry(c, g, what, o, src, geom, why);
        o->disk.bd = saved;
        disk_derived_tune(c, what, o, o->disk.paths, o->disk.n_paths, line);
        if (!o->align_bytes)
                plan_err(c, g->line, what, RULE_ALIGNMENT_OVERFLOW,
                    "the alignment (lcm of 1 MiB, the full stripe and the %" PRIu64 "-byte sector) does not "
                    "fit in 64 bits",
                    o->physical_sector_bytes);
        free(id);
}

/* multipath="true": the group's LUNs, each once, the map as the disk. */
static void plan_multipath(struct ctx *c, const struct p_disks *g, const char *what, bool *claimed,
                           const struct udev_ids *ids)
{
        const struct sysinfo *si = c->si;
        int line = g->match.line ? g->match.line : g->line;
        struct mpath_lun *l = NULL;
        size_t n = mpath_luns(si, claimed, &l);
        size_t *found = xcalloc(n ? n : 1, sizeof(size_t)), n_found = 0;
        for (size_t k = 0; k < n; k++)
                if (!mpath_lun_failures(&g->match, si, &l[k]))
                        found[n_found++] = k;
        if (n_found != g->count) {
                report_lun_count(c, g, what, line, l, n, found, n_found);
                strv_push(&c->failed_groups, g->id);
                goto out;
        }
        if (g->gpt) {
                plan_err(c, g->line, what, RULE_MULTIPATH_GPT,
                    "<gpt> on a multipath LUN: partitions of a dm-multipath map are made by kpartx under names that "
                    "differ between distributions; use the whole LUN (xfs on=, an md member or a PV)");
                strv_push(&c->failed_groups, g->id);
                goto out;
        }
        struct stripe_geom geom = {0};
        char *why = NULL;
        enum val_source src = group_geometry(c, g, what, &geom, &why);
        for (size_t k = 0; k < n_found; k++) {
                const struct mpath_lun *x = &l[found[k]];
                for (size_t j = 0; j < x->n_paths; j++)
                        claimed[x->paths[j]] = true;
                plan_one_lun(c, g, what, line, x, g->count > 1 ? (unsigned)k + 1 : 0, ids, src, &geom, why);
        }
        free(why);
out:
        free(found);
        mpath_luns_free(l, n);
}

/* One selected disk of group g: its object, identity, geometry, tuning and partitions. */
static void plan_one_disk(struct ctx *c, const struct p_disks *g, const char *what, unsigned index,
                          const struct blockdev *b, struct udev_ids *ids, enum val_source src,
                          const struct stripe_geom *geom, const char *why)
{
        _cleanup_free_ char *id = index ? xasprintf("%s%u", g->id, index) : xstrdup(g->id);
        size_t di = new_obj(c, OBJ_DISK, g->id, index, id, what, g->line);
        struct pl_obj *o = OBJ(c, di);
        o->disk.bd = b;
        o->dev = xstrdup(b->devnode);
        o->size_bytes = b->size_bytes;
        o->sector_bytes = b->logical_sector_bytes ? b->logical_sector_bytes : SECTOR_BYTES;
        o->physical_sector_bytes = b->physical_sector_bytes ? b->physical_sector_bytes : SECTOR_BYTES;
        o->preserve = g->preserve;
        o->wipe = g->wipe;
        tune_set_copy(&o->tune, &g->tune);
        pick_udev_identity(c, what, g->tune.line, o, ids);
        disk_geometry(c, g, what, o, src, geom, why);
        disk_derived_tune(c, what, o, &b, 1, g->line);
        o->align_bytes = partition_align_bytes(&o->geom, o->physical_sector_bytes);
        if (!o->align_bytes)
                plan_err(c, g->line, what, RULE_ALIGNMENT_OVERFLOW,
                    "the alignment (lcm of 1 MiB, the full stripe and the %" PRIu64 "-byte sector) does not "
                    "fit in 64 bits",
                    o->physical_sector_bytes);
        if (g->gpt)
                plan_partitions(c, di, g->id, g->parts, g->n_parts, g->line);
}

/* A recorded disk of g that is gone (verify only): planned from what the
 * node's state recorded of it (identity, size, sectors, geometry), so that
 * every object on it is checked, and found missing, under its own name. */
static void plan_missing_disk(struct ctx *c, const struct p_disks *g, const char *what, unsigned index,
                              const struct state_disk *sd, const char *near)
{
        _cleanup_free_ char *id = index ? xasprintf("%s%u", g->id, index) : xstrdup(g->id);
        size_t di = new_obj(c, OBJ_DISK, g->id, index, id, what, g->line);
        struct pl_obj *o = OBJ(c, di);
        char sz[32];
        o->dev = xasprintf("/dev/missing:%s", id);
        o->size_bytes = sd->size_bytes;
        o->sector_bytes = sd->logical_sector_bytes;
        o->physical_sector_bytes = sd->physical_sector_bytes;
        o->preserve = g->preserve;
        tune_set_copy(&o->tune, &g->tune);
        o->disk.udev_key = xstrdup(sd->key);
        o->disk.udev_value = xstrdup(sd->value);
        o->geom = (struct stripe_geom){.su_bytes = sd->su_bytes, .sw = sd->sw,
                                       .full_stripe_bytes = sd->full_stripe_bytes, .parity = sd->parity};
        o->geom_src = SRC_DETECTED;
        o->geom_why = xstrdup("as the node's state recorded it when the disk was there");
        o->align_bytes = partition_align_bytes(&o->geom, o->physical_sector_bytes);
        o->disk.missing = xasprintf("no disk carries %s %s (%s, recorded in %s); the <match> at line %d takes no "
                                    "other disk%s%s",
                                    sd->key, sd->value, fmt_size_human(sd->size_bytes, sz), c->o->state->path,
                                    g->match.line ? g->match.line : g->line, near ? "; near misses:" : "",
                                    near ? near : "");
        if (g->gpt && o->align_bytes)
                plan_partitions(c, di, g->id, g->parts, g->n_parts, g->line);
}

/* Which disk each of g's count places takes. Without a recorded state, the
 * matches in order. With one, a recorded disk keeps its place when it is still
 * there (kernel names move between boots), the other matches fill the rest in
 * order, and (verify only) a recorded disk that is gone leaves its place
 * empty: slot[k] is NO_OBJ. false (with the count error) when a place is empty
 * and nothing recorded says what was there. */
static bool assign_places(struct ctx *c, const struct p_disks *g, const char *what, const size_t *found,
                          size_t n_found, struct udev_ids *ids, size_t *slot)
{
        const struct node_state *st = c->o->state;
        bool *taken = xcalloc(n_found ? n_found : 1, sizeof(bool));
        for (unsigned k = 0; k < g->count; k++) {
                slot[k] = NO_OBJ;
                _cleanup_free_ char *id = g->count > 1 ? xasprintf("%s%u", g->id, k + 1) : xstrdup(g->id);
                const struct state_disk *sd = state_disk_of(st, id);
                for (size_t j = 0; sd && j < n_found && slot[k] == NO_OBJ; j++) {
                        _cleanup_free_ char *key = NULL, *value = NULL, *why = NULL;
                        if (!taken[j] && udev_pick_identity(ids, &c->si->devs[found[j]], &key, &value, &why) &&
                            streq_ptr(key, sd->key) && streq_ptr(value, sd->value)) {
                                slot[k] = found[j];
                                taken[j] = true;
                        }
                }
        }
        size_t next = 0;
        bool ok = true;
        for (unsigned k = 0; k < g->count; k++) {
                while (next < n_found && taken[next])
                        next++;
                if (slot[k] == NO_OBJ && next < n_found) {
                        slot[k] = found[next];
                        taken[next] = true;
                }
                _cleanup_free_ char *id = g->count > 1 ? xasprintf("%s%u", g->id, k + 1) : xstrdup(g->id);
                if (slot[k] == NO_OBJ && ok && !state_disk_of(st, id)) {
                        plan_err(c, g->match.line ? g->match.line : g->line, what, RULE_DISK_COUNT,
                            "expected %u disks, found %zu, and the node's recorded state (%s) does not say what %s "
                            "was",
                            g->count, n_found, st ? st->path : "none", id);
                        ok = false;
                }
        }
        free(taken);
        return ok;
}

void plan_disks(struct ctx *c)
{
        const struct sysinfo *si = c->si;
        bool *claimed = xcalloc(si->n_devs ? si->n_devs : 1, sizeof(bool));
        struct udev_ids ids;
        udev_ids_init(&ids, si);

        /* the system's disks first: data groups select around them */
        plan_system(c, claimed);
        for (size_t gi = 0; gi < c->p->n_disks; gi++) {
                const struct p_disks *g = &c->p->disks[gi];
                if (g->system)
                        continue;
                _cleanup_free_ char *what = xasprintf("disks %s", g->id);
                size_t *found = NULL, n_found = 0;
                if (g->multipath) {
                        plan_multipath(c, g, what, claimed, &ids);
                        continue;
                }
                if (!select_disks(c, g, what, claimed, c->o->verify && c->o->state, &found, &n_found))
                        continue;
                size_t *slot = xcalloc(g->count ? g->count : 1, sizeof(size_t));
                if (!assign_places(c, g, what, found, n_found, &ids, slot)) {
                        free(slot);
                        free(found);
                        strv_push(&c->failed_groups, g->id);
                        continue;
                }
                _cleanup_free_ char *near = n_found < g->count ? match_near_misses(&g->match, si, claimed) : NULL;
                struct stripe_geom geom = {0};
                _cleanup_free_ char *why = NULL;
                enum val_source src = group_geometry(c, g, what, &geom, &why);
                for (unsigned k = 0; k < g->count; k++) {
                        unsigned index = g->count > 1 ? k + 1 : 0;
                        if (slot[k] == NO_OBJ) {
                                _cleanup_free_ char *id = index ? xasprintf("%s%u", g->id, index) : xstrdup(g->id);
                                plan_missing_disk(c, g, what, index, state_disk_of(c->o->state, id), near);
                                continue;
                        }
                        claimed[slot[k]] = true;
                        plan_one_disk(c, g, what, index, &si->devs[slot[k]], &ids, src, &geom, why);
                }
                free(slot);
                free(found);
        }
        free(claimed);
        udev_ids_free(&ids);
}
