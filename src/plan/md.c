/* SPDX-License-Identifier: GPL-2.0-or-later
 * md arrays: levels, chunks, stacking over striped members. */
#include "plan/internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Rules that mdadm (>= 4.2) enforces by failing, found here instead.
 * Returns the number of copies of each chunk (raid10 layout). */
static unsigned md_rules(struct ctx *c, const struct p_md *m, const char *what, size_t n)
{
        char cb[32];
        if (m->level == RAID_1) {
                if (m->chunk_bytes)
                        plan_err(c, m->line, what, RULE_RAID1_CHUNK,
                            "chunk=\"%s\" on raid1: mirrors have no chunk and mdadm >= 4.2 refuses --chunk",
                            fmt_size_exact(m->chunk_bytes, cb));
                if (m->parity)
                        plan_err(c, m->line, what, RULE_RAID1_PARITY, "parity=\"%s\" on raid1: mirrors have no parity",
                            m->parity);
                if (m->layout)
                        plan_err(c, m->line, what, RULE_RAID1_LAYOUT, "layout=\"%s\" on raid1: mirrors have no layout",
                            m->layout);
        }
        if (m->parity && m->level != RAID_5 && m->level != RAID_6 && m->level != RAID_4 && m->level != RAID_1)
                plan_err(c, m->line, what, RULE_MD_PARITY, "parity= applies to raid4/5/6 only");
        if (m->level == RAID_0 && m->spares)
                plan_err(c, m->line, what, RULE_MD_SPARES, "raid0 cannot use spares");
        if (n && m->spares >= n)
                plan_err(c, m->line, what, RULE_MD_SPARES, "%u spares leave no active member among %zu devices",
                    m->spares, n);
        unsigned near = 2, copies;
        if (m->level == RAID_10 && raid10_layout_parse(m->layout, &copies, &near) < 0) {
                near = 2;
                plan_err(c, m->line, what, RULE_MD_LAYOUT, "raid10 layout \"%s\" is not n2..n9, f2..f9 or o2..o9",
                    m->layout);
        }

        return near;
}

/* Where the data starts on members that are themselves striped (hardware
 * RAID LUNs, or anything whose stripe the plan follows): on a whole member
 * stripe, so that each member's share of a full stripe of the md is whole
 * member stripes. mdadm's own offset is a multiple of 1 MiB, which a member
 * full stripe of 448 KiB or 1280 KiB does not divide (measured in the VM, md
 * RAID0 over RAID6 9 x 16K LUNs: member-read ratio 0.43 at mdadm's offset,
 * 0.0002 at 7 MiB). Metadata 1.0 keeps the data at 0. Sets data_align_bytes
 * when it is more than mdadm's 1 MiB; the offset follows from the members'
 * size (plan_mds). */
#define MAX_MD_DATA_ALIGN_BYTES (UINT64_C(256) * 1024 * 1024)
#define MD_STRIPE_CACHE_DEFAULT 256u   /* the kernel's, rows (pages per member) */
#define MD_STRIPE_CACHE_MAX 32768u

static void md_data_align(struct ctx *c, const struct p_md *m, struct pl_obj *o, const struct stripe_geom *mg,
                          const char *desc, const char *what)
{
        char ab[32];
        if (!mg->full_stripe_bytes || (o->md.metadata && !strcmp(o->md.metadata, "1.0")))
                return;
        uint64_t a = lcm_u64(MiB, mg->full_stripe_bytes);
        if (a <= MiB)
                return;
        if (!a || a > MAX_MD_DATA_ALIGN_BYTES) {
                plan_warn(c, m->line, what, RULE_MD_DATA_OFFSET,
                     "the members' data cannot start on a whole member stripe: lcm(1 MiB, %s) is above %s; "
                     "mdadm's own offset is used and writes may straddle member stripes",
                     desc, fmt_size_exact(MAX_MD_DATA_ALIGN_BYTES, ab));
                return;
        }
        o->md.data_align_bytes = a;
}

/* md_geometry of a raid1: no chunk; it keeps its members' common stripe mg. */
static void md_geometry_raid1(struct ctx *c, const struct p_md *m, struct pl_obj *o, const char *what, unsigned active,
                              const struct stripe_geom *mg, const char *mdesc)
{
        struct raid_desc r1 = {.level = RAID_1, .members = active, .md = true};
        struct stripe_geom none;
        char *e1 = NULL;
        if (active && raid_geometry(&r1, &none, &e1) < 0) {
                plan_err(c, m->line, what, RULE_MD_GEOMETRY, "%s", e1);
                free(e1);
                return;
        }
        o->geom = *mg;
        o->geom_src = mg->su_bytes ? SRC_DERIVED : SRC_NONE;
        md_data_align(c, m, o, mg, mdesc, what);
        o->geom_why = mg->su_bytes ? xasprintf("raid1 x %u keeps its %s", active, mdesc)
                                   : xasprintf("raid1 x %u: mirrors, no stripe", active);
}

/* The members of md object oi: their common sector size (o->physical_sector_bytes),
 * each marked a raid member, and their common stripe (ret_mg, zero when they have
 * none or differ, parity if any has it); returns the first member. */
static const struct pl_obj *md_members_stripe(struct ctx *c, const struct p_md *m, size_t oi, const char *what,
                                              struct stripe_geom *ret_mg)
{
        const size_t *mem = OBJ(c, oi)->md.members;
        size_t n = OBJ(c, oi)->md.n_members;
        bool striped_members = false, mixed = false;
        const struct pl_obj *m0 = NULL;
        uint64_t phys = SECTOR_BYTES;
        for (size_t i = 0; i < n; i++) {
                struct pl_obj *x = OBJ(c, mem[i]);
                phys = lcm_u64(phys, x->physical_sector_bytes);
                if (!phys) {
                        plan_err(c, m->line, what, RULE_ALIGNMENT_OVERFLOW,
                            "the members' sector sizes have no common multiple within 64 bits");
                        phys = SECTOR_BYTES;
                }
                if (x->geom.su_bytes)
                        striped_members = true;
                if (!m0)
                        m0 = x;
                else if (!same_geom(&m0->geom, &x->geom))
                        mixed = true;
                set_member_type(c, mem[i], PART_RAID);
        }
        OBJ(c, oi)->physical_sector_bytes = phys;
        if (mixed)
                plan_warn(c, m->line, what, RULE_MD_MIXED_MEMBERS,
                     "members have different stripe geometries; alignment follows the md layout only");
        struct stripe_geom mg = striped_members && !mixed ? m0->geom : (struct stripe_geom){0};
        for (size_t i = 0; mg.su_bytes && i < n; i++) /* the same layout: parity if any member has it */
                mg.parity = mg.parity || OBJ(c, mem[i])->geom.parity;
        *ret_mg = mg;
        return m0;
}

/* The members' common stripe mg in words, and where it comes from (m0 the first
 * member, mem the members' objects); NULL without one. */
static char *md_members_desc(struct ctx *c, const struct stripe_geom *mg, const struct pl_obj *m0, const size_t *mem)
{
        char cb[32], fb[32];
        if (!mg->su_bytes)
                return NULL;
        return xasprintf("members' stripe %s x %u = %s (%s%s)", fmt_size_exact(mg->su_bytes, cb), mg->sw,
                         fmt_size_exact(mg->full_stripe_bytes, fb),
                         m0->geom_src != SRC_DETECTED ? "declared"
                         : nvme_under(c, mem[0])      ? "an NVMe write granularity and optimal write size"
                                                      : "an exported hint",
                         mg->parity ? ", parity" : ", no parity");
}

/* The chunk of a striped md: the profile's, else one that follows the members'
 * stripe mg (chosen says how), else mdadm's default; ret_src says which.
 * 0 (reported) when no chunk can follow mg. */
static uint64_t md_chunk(struct ctx *c, const struct p_md *m, const char *what, const struct stripe_geom *mg,
                         enum val_source *ret_src, char **chosen)
{
        char cb[32];
        uint64_t chunk = m->chunk_bytes;
        *ret_src = SRC_PROFILE;
        if (!chunk && mg->su_bytes) {
                chunk = m->level == RAID_0 ? md0_chunk_bytes(mg, chosen) : 0;
                if (!chunk)
                        chunk = stack_chunk_bytes(mg, 0, raid_level_has_parity(m->level), chosen);
                *ret_src = SRC_DERIVED;
                if (!chunk) {
                        plan_err(c, m->line, what, RULE_MD_CHUNK,
                            "no power of 2 of at least 4 KiB divides the members' full stripe %s; give chunk=%s",
                            fmt_size_exact(mg->full_stripe_bytes, cb),
                            m->level == RAID_0 ? "the full stripe itself (md raid0 takes any multiple of 4 KiB)"
                                               : "a power of 2 (the members' stripe will not be followed)");
                        return 0;
                }
        }
        if (!chunk) {
                chunk = DEFAULT_MD_CHUNK_BYTES;
                *ret_src = SRC_DEFAULT;
        }
        return chunk;
}

/* The md's level geometry lg stacked over its members' stripe mg (m0 the first
 * member), into o->geom: sw widened over parity members, the data offset, the
 * warnings; ret_stacked says what the stacking did. False (reported, o->geom
 * back to lg) when the chunk cannot stack. */
static bool md_stack_members(struct ctx *c, const struct p_md *m, struct pl_obj *o, const char *what,
                             const struct stripe_geom *mg, const struct pl_obj *m0, const char *mdesc,
                             const struct stripe_geom *lg, uint64_t chunk, enum val_source chunk_src,
                             char **ret_stacked)
{
        char cb[32], fb[32];
        char *e = NULL;
        int r = stack_geometry(mg, lg->sw, chunk, lg->parity, &o->geom, &e);
        if (r < 0) {
                plan_err(c, m->line, what, RULE_MD_CHUNK, "%s%s", e,
                         m0->geom_src == SRC_DETECTED ? HINT_PARITY_NOTE : "");
                free(e);
                o->geom = *lg;
                return false;
        }
        if (r == 1) {
                plan_warn(c, m->line, what, RULE_MD_CHUNK_HINT, "%s", e);
                free(e);
        } else {
                md_data_align(c, m, o, mg, mdesc, what);
        }
        if (chunk_src == SRC_PROFILE) {
                _cleanup_free_ char *adv = stack_chunk_advice(mg, chunk, 0, raid_level_has_parity(m->level));
                if (adv)
                        plan_warn(c, m->line, what, RULE_MD_CHUNK_RMW, "%s", adv);
        }
        *ret_stacked = o->geom.sw != lg->sw
                               ? xasprintf("; sw %u x %s / %s = %u, so a full stripe covers whole member stripes",
                                           lg->sw, fmt_size_exact(mg->full_stripe_bytes, cb),
                                           fmt_size_exact(chunk, fb), o->geom.sw)
                               : xstrdup(r == 1 ? "; the members' hint is not followed" : "");
        return true;
}

/* The md's stripe geometry from its level, chunk and members, one rule for
 * every level: the level's data legs decide the width (raid_geometry: n for
 * raid0, n - 1 for raid4/5, n - 2 for raid6, n / K for raid10 near-K when K
 * divides n, else n); the members' own stripe only chooses the chunk when the
 * profile gives none, is checked against it, and over parity members widens
 * sw so that a full stripe covers whole member stripes (stack_geometry). A
 * raid1 keeps its members' geometry. Returns the chunk --chunk gets. */
static uint64_t md_geometry(struct ctx *c, const struct p_md *m, size_t oi, const char *what, unsigned active,
                            unsigned near)
{
        char cb[32];
        /* the members' common stripe, and where it comes from */
        struct stripe_geom mg;
        const struct pl_obj *m0 = md_members_stripe(c, m, oi, what, &mg);
        struct pl_obj *o = OBJ(c, oi);
        const size_t *mem = o->md.members;
        size_t n = o->md.n_members;
        _cleanup_free_ char *mdesc = md_members_desc(c, &mg, m0, mem);

        if (m->level == RAID_1) {
                md_geometry_raid1(c, m, o, what, active, &mg, mdesc);
                return 0;
        }

        enum val_source chunk_src;
        _cleanup_free_ char *chosen = NULL;
        uint64_t chunk = md_chunk(c, m, what, &mg, &chunk_src, &chosen);
        if (!chunk)
                return 0;
        /* the level alone: its data legs, su = chunk */
        struct raid_desc rd = {.level = m->level, .members = active, .chunk_bytes = chunk, .near_copies = near,
                               .md = true};
        unsigned copies, near_;
        if (m->level == RAID_10 && raid10_layout_parse(m->layout, &copies, &near_) == 0)
                rd.copies = copies;
        struct stripe_geom lg;
        char *e = NULL;
        if (!active)
                return chunk;
        if (raid_geometry(&rd, &lg, &e) < 0) {
                plan_err(c, m->line, what, RULE_MD_GEOMETRY, "%s", e);
                free(e);
                return chunk;
        }
        o->geom = lg;
        _cleanup_free_ char *stacked = NULL;
        if (mg.su_bytes && !md_stack_members(c, m, o, what, &mg, m0, mdesc, &lg, chunk, chunk_src, &stacked))
                return chunk;
        warn_nvme_granularity(c, m->line, what, RULE_MD_CHUNK_GRANULARITY, "chunk", chunk, mem, n);
        o->geom_src = chunk_src == SRC_DEFAULT ? SRC_DEFAULT : SRC_DERIVED;
        o->geom_why = xasprintf("md %s, %u x %s chunk%s%s%s, %u data legs%s%s%s", raid_level_name(m->level), active,
                                fmt_size_exact(chunk, cb), chunk_src == SRC_DEFAULT ? " (mdadm's default)" : "",
                                chosen ? " " : "", chosen ? chosen : "", lg.sw, mdesc ? "; " : "",
                                mdesc ? mdesc : "", stacked ? stacked : "");
        return chunk;
}

/* Where mdadm puts the data on each member, so that the array's size can be
 * estimated before it exists (partitions on an md are laid out from it).
 * mdadm 4.2, super1.c validate_geometry1(), metadata 1.1 / 1.2:
 *   data offset = 12 KiB (superblock and bad-block log) + bitmap space +
 *                 reshape headroom, rounded up to 1 MiB;
 *   bitmap space (choose_bm_space): 128 KiB on members of 200 GiB and more,
 *                 64 KiB above 8 GiB, 4 KiB below;
 *   headroom:     128 MiB, halved while it is more than 1/1024 of the member
 *                 and the half is still at least two chunks (mdadm before
 *                 4.2 halves without that floor: a smaller offset, so this
 *                 estimate stays on the safe side).
 * Metadata 1.0 keeps the data at 0: superblock, bad-block log and bitmap sit
 * in the last 4 KiB-rounded 12 KiB + bitmap space.
 * Examples: a 512 MiB member with a 64 KiB chunk: headroom 512 KiB, offset
 * 12 KiB + 4 KiB + 512 KiB -> 1 MiB; a member of 1 TB and more: 128 MiB +
 * 140 KiB -> 129 MiB (the 264192 sectors mdadm --examine shows).
 * align_bytes (> 1 MiB, from the members' stripe) rounds the offset up
 * further: what storprov then passes as --data-offset.
 * Returns the offset in bytes (0 for metadata 1.0). */
static uint64_t md_bitmap_sectors(uint64_t dev)
{
        return dev < 64 * 2                                   ? 0
               : dev - 64 * 2 >= UINT64_C(200) * 1024 * 1024 * 2 ? 128 * 2
               : dev - 4 * 2 > UINT64_C(8) * 1024 * 1024 * 2     ? 64 * 2
                                                                 : 4 * 2;
}

uint64_t md_data_offset_bytes(const char *metadata, uint64_t member_bytes, uint64_t chunk_bytes, uint64_t align_bytes)
{
        if (metadata && !strcmp(metadata, "1.0"))
                return 0;
        uint64_t dev = member_bytes / SECTOR_BYTES; /* mdadm counts 512-byte sectors */
        uint64_t ch = chunk_bytes / SECTOR_BYTES;
        uint64_t headroom = 128 * 1024 * 2;
        while ((headroom << 10) > dev && (ch == 0 || headroom / 2 >= 2 * ch))
                headroom >>= 1;
        uint64_t offset = round_up((12 * 2 + md_bitmap_sectors(dev) + headroom) * SECTOR_BYTES, MiB);
        return align_bytes > MiB ? round_up(offset, align_bytes) : offset;
}

/* The bytes of a member the array can use (before chunk rounding). */
uint64_t md_member_data_bytes(const char *metadata, uint64_t member_bytes, uint64_t chunk_bytes, uint64_t align_bytes)
{
        uint64_t dev = member_bytes / SECTOR_BYTES;
        if (metadata && !strcmp(metadata, "1.0")) {
                uint64_t end = 8 * 2 + 8 + md_bitmap_sectors(dev);
                dev &= ~UINT64_C(7);
                return dev > end ? (dev - end) * SECTOR_BYTES : 0;
        }
        uint64_t offset = md_data_offset_bytes(metadata, member_bytes, chunk_bytes, align_bytes);
        return offset && member_bytes / SECTOR_BYTES * SECTOR_BYTES > offset
                       ? member_bytes / SECTOR_BYTES * SECTOR_BYTES - offset
                       : 0;
}

/* The array's size as the kernel will report it, estimated from below: the
 * smallest member (data offset as above) rounded down to the chunk (mdadm
 * rounds a RAID1's to 64 KiB), times the members that hold data. RAID0 over
 * unequal members gets more in zones past the smallest; that is not counted. */
uint64_t md_array_bytes(enum raid_level level, const char *metadata, const char *layout, unsigned active,
                        uint64_t smallest_member, uint64_t chunk_bytes, uint64_t align_bytes)
{
        uint64_t unit = level == RAID_1 || !chunk_bytes ? 64 * KiB : chunk_bytes;
        uint64_t comp = round_down(
                md_member_data_bytes(metadata, smallest_member, level == RAID_1 ? 0 : chunk_bytes, align_bytes), unit);
        unsigned copies = 2, near; /* raid10: n2, f2, o2 hold 2 copies of each chunk; nK/fK/oK hold K */
        if (raid10_layout_parse(layout, &copies, &near) < 0)
                copies = 2;
        switch (level) {
        case RAID_1:
                return comp;
        case RAID_0:
                return mul_sat_u64(comp, active);
        case RAID_10:
                return active >= copies ? round_down(mul_sat_u64(comp, active) / copies, unit) : 0;
        case RAID_6:
                return active > 2 ? mul_sat_u64(comp, active - 2) : 0;
        default: /* 4, 5 */
                return active > 1 ? mul_sat_u64(comp, active - 1) : 0;
        }
}

static uint64_t md_smallest_member(struct ctx *c, const struct pl_obj *o)
{
        uint64_t smallest = 0;
        for (size_t i = 0; i < o->md.n_members; i++) {
                uint64_t sz = OBJ(c, o->md.members[i])->size_bytes;
                if (sz && (!smallest || sz < smallest))
                        smallest = sz;
        }
        return smallest;
}

/* md's stripe cache (raid4/5/6) when the profile sets none: md gathers a
 * stripe in 4 KiB rows, one per 4 KiB of each member, and computes parity
 * without reading only when every data row of it arrived while it sat in
 * the cache (256 rows by default). A full-stripe write of the file system
 * (su x sw, widened over parity members) holds su x sw / (data legs x 4 KiB)
 * rows; room for 16 of them (4 concurrent writers of up to 4 full stripes
 * a write) as a power of 2, never below the kernel's 256, at most 32768,
 * and pinning at most 1/32 of the memory. Measured in the VM (md RAID5 over
 * RAID6 9 x 64K LUNs, chunk 64k, sw 14: 112 rows a write, 4 fio writers):
 * member-read ratio 0.07 at 256, 0.0018 at 4096; 28 and 48 rows a write
 * read 0.0006 and 0.0025 at 256. Room for 8 was too little for 4 writers of
 * 4 full stripes (bench/parity-md.sh, md RAID5 over 3 x RAID6 5 x 128K,
 * 96 rows a write: 0.1485 at 1024, 0.0066 at 2048, 0.0057 at 4096). */
static void md_stripe_cache(struct ctx *c, struct pl_obj *o, int line, unsigned active)
{
        enum tune_attr a = TUNE_STRIPE_CACHE_SIZE;
        if (o->tune.val[a] || !raid_level_has_parity(o->md.level) || !o->geom.full_stripe_bytes)
                return;
        unsigned legs = active > (o->md.level == RAID_6 ? 2u : 1u) ? active - (o->md.level == RAID_6 ? 2u : 1u) : 0;
        if (!legs)
                return;
        uint64_t rows = o->geom.full_stripe_bytes / ((uint64_t)legs * 4096);
        uint64_t want = MD_STRIPE_CACHE_DEFAULT;
        while (want < MD_STRIPE_CACHE_MAX && want < mul_sat_u64(rows, 16))
                want <<= 1;
        uint64_t mem = c->pl->mem_total_bytes, fits = want;
        while (mem && fits > MD_STRIPE_CACHE_DEFAULT && mul_sat_u64(mul_sat_u64(fits, 4096), o->md.n_members) > mem / 32)
                fits >>= 1;
        if (fits <= MD_STRIPE_CACHE_DEFAULT)
                return;
        char fb[32], pb[32];
        o->tune.val[a] = xasprintf("%" PRIu64, fits);
        o->tune.derived[a] = xasprintf(
                "room for 16 full-stripe writes of %s, %" PRIu64 " rows of 4 KiB each over %u data legs (the "
                "kernel's %u holds %" PRIu64 ")%s; pins %zu members x %" PRIu64 " x 4 KiB = %s",
                fmt_size_exact(o->geom.full_stripe_bytes, fb), rows, legs, MD_STRIPE_CACHE_DEFAULT,
                rows ? MD_STRIPE_CACHE_DEFAULT / rows : 0, fits < want ? ", halved to fit 1/32 of the memory" : "",
                o->md.n_members, fits,
                fmt_size_human(mul_sat_u64(mul_sat_u64(fits, 4096), o->md.n_members), pb));
        if (!o->tune.line)
                o->tune.line = line;
}

void plan_mds(struct ctx *c)
{
        for (size_t mi = 0; mi < c->p->n_mds; mi++) {
                const struct p_md *m = &c->p->mds[mi];
                char *what = xasprintf("md %s", m->id);
                size_t oi = new_obj(c, OBJ_MD, m->id, 0, m->id, what, m->line);
                size_t *mem = NULL;
                size_t n = resolve_blocks(c, m->devices, oi, "devices", m->line, what, &mem);
                struct pl_obj *o = OBJ(c, oi);
                o->md.members = mem;
                o->md.n_members = n;
                o->md.spares = m->spares;
                o->md.level = m->level;
                o->md.name = xstrdup(m->name);
                o->md.layout = xstrdup(m->layout);
                o->md.parity = xstrdup(m->parity);
                o->md.metadata = xstrdup(m->metadata ? m->metadata : "1.2");
                o->md.bitmap = xstrdup(m->bitmap ? m->bitmap : (m->level == RAID_0 ? "none" : "internal"));
                o->dev = xasprintf("/dev/md/%s", m->name);
                o->preserve = m->preserve;
                o->wipe = m->wipe;

                unsigned near = md_rules(c, m, what, n);
                unsigned active = n > m->spares ? (unsigned)(n - m->spares) : 0;
                o->md.chunk_bytes = md_geometry(c, m, oi, what, active, near);
                o = OBJ(c, oi);
                uint64_t smallest = md_smallest_member(c, o);
                const struct blockdev *nv = NULL; /* the first member's NVMe namespace, if it is one */
                if (o->md.data_align_bytes > MiB)
                        o->md.data_offset_bytes = md_data_offset_bytes(
                                o->md.metadata, smallest, o->md.level == RAID_1 ? 0 : o->md.chunk_bytes,
                                o->md.data_align_bytes);
                if (o->md.data_offset_bytes) {
                        char ob[32], ab[32];
                        char *why = xasprintf("%s; data offset %s on each member, a multiple of lcm(1 MiB, the members' "
                                              "full stripe) = %s",
                                              o->geom_why, fmt_size_exact(o->md.data_offset_bytes, ob),
                                              fmt_size_exact(o->md.data_align_bytes, ab));
                        free(o->geom_why);
                        o->geom_why = why;
                } else if (n && strcmp(o->md.metadata, "1.0") && o->md.level != RAID_1 &&
                           (nv = nvme_under(c, mem[0])) && nv->io_opt_bytes && MiB % nv->io_opt_bytes == 0) {
                        char ob[32];
                        char *why = xasprintf("%s; data at mdadm's offset, a multiple of 1 MiB, which the NVMe "
                                              "optimal write size %s divides",
                                              o->geom_why, fmt_size_exact(nv->io_opt_bytes, ob));
                        free(o->geom_why);
                        o->geom_why = why;
                }
                o->size_bytes = md_array_bytes(o->md.level, o->md.metadata, o->md.layout, active, smallest,
                                               o->md.chunk_bytes, o->md.data_align_bytes);
                for (size_t i = 0; i < n; i++) /* the array's logical sector: its largest member's */
                        if (OBJ(c, mem[i])->sector_bytes > o->sector_bytes)
                                o->sector_bytes = OBJ(c, mem[i])->sector_bytes;
                o->align_bytes = partition_align_bytes(&o->geom, o->physical_sector_bytes);
                if (!o->align_bytes)
                        plan_err(c, m->line, what, RULE_ALIGNMENT_OVERFLOW,
                            "the alignment (lcm of 1 MiB, the full stripe and the members' sectors) does not fit in 64 bits");

                tune_set_copy(&o->tune, &m->tune);
                md_stripe_cache(c, o, m->line, active);

                /* an md made of preserved members must itself be preserved, and the reverse */
                for (size_t i = 0; i < n; i++) {
                        struct pl_obj *x = OBJ(c, mem[i]);
                        if (x->preserve != o->preserve)
                                plan_err(c, m->line, what, RULE_PRESERVE,
                                    "%s is %spreserved but its member %s is %s; mark both or neither preserve=\"true\"",
                                    o->id, o->preserve ? "" : "not ", x->id, x->preserve ? "preserved" : "not preserved");
                }
                /* a partitioned md: its partitions follow it, aligned to its full stripe */
                if (m->gpt)
                        plan_partitions(c, oi, m->id, m->parts, m->n_parts, m->line);
                free(what);
        }
}

