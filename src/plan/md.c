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
                        err(c, m->line, what, "raid1-chunk",
                            "chunk=\"%s\" on raid1: mirrors have no chunk and mdadm >= 4.2 refuses --chunk",
                            fmt_size_exact(m->chunk_bytes, cb));
                if (m->parity)
                        err(c, m->line, what, "raid1-parity", "parity=\"%s\" on raid1: mirrors have no parity",
                            m->parity);
                if (m->layout)
                        err(c, m->line, what, "raid1-layout", "layout=\"%s\" on raid1: mirrors have no layout",
                            m->layout);
        }
        if (m->parity && m->level != RAID_5 && m->level != RAID_6 && m->level != RAID_4 && m->level != RAID_1)
                err(c, m->line, what, "md-parity", "parity= applies to raid4/5/6 only");
        if (m->level == RAID_0 && m->spares)
                err(c, m->line, what, "md-spares", "raid0 cannot use spares");
        if (n && m->spares >= n)
                err(c, m->line, what, "md-spares", "%u spares leave no active member among %zu devices",
                    m->spares, n);
        unsigned near = 2;
        if (m->level == RAID_10 && m->layout) {
                const char *L = m->layout;
                if ((L[0] == 'n' || L[0] == 'f' || L[0] == 'o') && L[1] >= '2' && L[1] <= '9' && !L[2])
                        near = L[0] == 'n' ? (unsigned)(L[1] - '0') : 1;
                else
                        err(c, m->line, what, "md-layout", "raid10 layout \"%s\" is not n2..n9, f2..f9 or o2..o9",
                            L);
        }

        return near;
}

/* The md's stripe geometry from its level, chunk and members (RAID50/60
 * when the members are striped LUNs). Returns the chunk --chunk gets. */
static uint64_t md_geometry(struct ctx *c, const struct p_md *m, size_t oi, const char *what, unsigned active,
                            unsigned near)
{
        char cb[32];
        struct pl_obj *o = OBJ(c, oi);
        const size_t *mem = o->md.members;
        size_t n = o->md.n_members;
        bool striped_members = false, mixed = false;
        const struct stripe_geom *mg = NULL;
        bool parity_members = false;
        uint64_t phys = SECTOR_BYTES;
        for (size_t i = 0; i < n; i++) {
                struct pl_obj *x = OBJ(c, mem[i]);
                phys = lcm_u64(phys, x->physical_sector_bytes);
                if (!phys) {
                        err(c, m->line, what, "alignment-overflow",
                            "the members' sector sizes have no common multiple within 64 bits");
                        phys = SECTOR_BYTES;
                }
                if (x->geom.su_bytes)
                        striped_members = true;
                if (x->geom.parity)
                        parity_members = true;
                if (!mg)
                        mg = &x->geom;
                else if (!same_geom(mg, &x->geom))
                        mixed = true;
                set_member_type(c, mem[i], PART_RAID);
        }
        o = OBJ(c, oi);
        o->physical_sector_bytes = phys;
        uint64_t chunk = m->chunk_bytes;
        enum val_source chunk_src = SRC_PROFILE;
        if (mixed)
                warn(c, m->line, what, "md-mixed-members",
                     "members have different stripe geometries; alignment follows the md layout only");
        /* RAID50/60 and RAID10 over LUNs: md striping across hardware RAID LUNs
         * (RAID10 with the near layout: each device sees the chunks in order) */
        unsigned legs = m->level == RAID_0 ? active : (near > 1 && active % near == 0 ? active / near : 0);
        if (striped_members && !mixed && legs) {
                _cleanup_free_ char *chosen = NULL;
                if (!chunk) {
                        chunk = stack_chunk_bytes(mg, &chosen);
                        chunk_src = SRC_DERIVED;
                        if (!chunk)
                                err(c, m->line, what, "md-chunk",
                                    "no power of 2 of at least 4 KiB divides the members' full stripe %s; give chunk=",
                                    fmt_size_exact(mg->full_stripe_bytes, cb));
                }
                char *e = NULL;
                if (chunk && !is_pow2(chunk)) {
                        err(c, m->line, what, "md-chunk", "chunk %s is not a power of 2 (mdadm needs one)",
                            fmt_size_exact(chunk, cb));
                } else if (chunk && stack_geometry(mg, legs, chunk, parity_members, &o->geom, &e) < 0) {
                        err(c, m->line, what, "md-chunk", "%s", e);
                        free(e);
                } else if (chunk) {
                        o->geom_src = chunk_src == SRC_PROFILE ? SRC_PROFILE : SRC_DERIVED;
                        o->geom_why = xasprintf("%s across %u LUNs of su %s x %u (full stripe %s), md chunk %s%s%s",
                                                raid_level_name(m->level), legs, fmt_size_exact(mg->su_bytes, cb), mg->sw,
                                                fmt_size_exact(mg->full_stripe_bytes, (char[32]){0}),
                                                fmt_size_exact(chunk, (char[32]){0}), chosen ? " " : "",
                                                chosen ? chosen : "");
                }
        } else if (striped_members && !mixed && m->level == RAID_1) {
                o->geom = *mg;
                o->geom_src = SRC_DERIVED;
                o->geom_why = xasprintf("raid1 of members with su %s x %u", fmt_size_exact(mg->su_bytes, cb),
                                        mg->sw);
        } else {
                if (striped_members && !mixed)
                        warn(c, m->line, what, "md-over-striped",
                             "md %s over striped members: alignment follows the md chunk only",
                             raid_level_name(m->level));
                if (m->level != RAID_1 && !chunk) {
                        chunk = DEFAULT_MD_CHUNK_BYTES;
                        chunk_src = SRC_DEFAULT;
                }
                struct raid_desc rd = {.level = m->level, .members = active,
                                       .chunk_bytes = m->level == RAID_1 ? 0 : chunk,
                                       .near_copies = near, .md = true};
                char *e = NULL;
                if (active && raid_geometry(&rd, &o->geom, &e) < 0) {
                        err(c, m->line, what, "md-geometry", "%s", e);
                        free(e);
                } else if (m->level == RAID_1) {
                        o->geom_src = SRC_NONE;
                        o->geom_why = xasprintf("raid1 x %u: mirrors, no stripe", active);
                } else {
                        o->geom_src = chunk_src == SRC_PROFILE ? SRC_DERIVED : SRC_DEFAULT;
                        o->geom_why = xasprintf("md %s, %u x %s chunk%s (line %d)", raid_level_name(m->level),
                                                active, fmt_size_exact(chunk, cb),
                                                chunk_src == SRC_DEFAULT ? ", mdadm's default" : "", m->line);
                }
        }
        return m->level == RAID_1 ? 0 : chunk;
}

/* Size estimate (before superblock and bitmap space): smallest member x data members. */
static uint64_t md_size_estimate(struct ctx *c, const struct pl_obj *o, unsigned active, unsigned near)
{
        enum raid_level level = o->md.level;
        uint64_t smallest = 0;
        for (size_t i = 0; i < o->md.n_members; i++) {
                uint64_t sz = OBJ(c, o->md.members[i])->size_bytes;
                if (sz && (!smallest || sz < smallest))
                        smallest = sz;
        }
        unsigned data = level == RAID_1    ? 1
                        : level == RAID_0  ? active
                        : level == RAID_6  ? (active > 2 ? active - 2 : 0)
                        : level == RAID_10 ? active / near
                                              : (active > 1 ? active - 1 : 0);
        return mul_sat_u64(smallest, data);
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
                o->size_bytes = md_size_estimate(c, o, active, near);
                o->align_bytes = partition_align_bytes(&o->geom, o->physical_sector_bytes);
                if (!o->align_bytes)
                        err(c, m->line, what, "alignment-overflow",
                            "the alignment (lcm of 1 MiB, the full stripe and the members' sectors) does not fit in 64 bits");

                tune_set_copy(&o->tune, &m->tune);

                /* an md made of preserved members must itself be preserved, and the reverse */
                for (size_t i = 0; i < n; i++) {
                        struct pl_obj *x = OBJ(c, mem[i]);
                        if (x->preserve != o->preserve)
                                err(c, m->line, what, "preserve",
                                    "%s is %spreserved but its member %s is %s; mark both or neither preserve=\"true\"",
                                    o->id, o->preserve ? "" : "not ", x->id, x->preserve ? "preserved" : "not preserved");
                }
                free(what);
        }
}

