/* SPDX-License-Identifier: GPL-2.0-or-later
 * The planner. Pure: it reads the profile and the discovered devices and
 * writes only into the plan and the diagnostics. */
#include "plan.h"

#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "sanitize.h"

/* Queue depth tuning may pin at most this fraction of MemTotal in requests:
 * nr_requests × max_sectors_kb × hardware queues, summed over the devices
 * the profile tunes. Seed 000: 8192 × 512 KiB on a 4 GiB node pinned ~3.5 GiB
 * and took the machine down; the kernel default (128 … 256 × ≤1280 KiB) stays
 * far below. One eighth leaves the page cache and dirty limits room. */
#define QUEUE_MEM_FRACTION_DEN 8

#define DEFAULT_MD_CHUNK_BYTES (512 * KiB)   /* mdadm's own default, passed explicitly */
#define DEFAULT_LV_STRIPE_BYTES (64 * KiB)   /* lvcreate's default -I */

static const char *const source_names[] = {
        [SRC_NONE] = "none", [SRC_PROFILE] = "profile", [SRC_DERIVED] = "derived",
        [SRC_DETECTED] = "detected", [SRC_DEFAULT] = "default",
};
const char *val_source_name(enum val_source s) { return source_names[s]; }

static const char *const kind_names[_OBJ_KIND_MAX] = {
        [OBJ_DISK] = "disk", [OBJ_PART] = "partition", [OBJ_MD] = "md", [OBJ_VG] = "vg",
        [OBJ_LV] = "lv", [OBJ_FS] = "xfs",
};
const char *obj_kind_name(enum obj_kind k) { return kind_names[k]; }

static const char *const step_names[_STEP_KIND_MAX] = {
        [STEP_GPT] = "gpt", [STEP_MDADM] = "mdadm", [STEP_PVCREATE] = "pvcreate",
        [STEP_VGCREATE] = "vgcreate", [STEP_LVCREATE] = "lvcreate", [STEP_MKFS] = "mkfs",
        [STEP_SYSFS] = "sysfs", [STEP_SYSCTL] = "sysctl",
};
const char *step_kind_name(enum step_kind k) { return step_names[k]; }

/* ---- planner state ------------------------------------------------------ */

struct ctx {
        const struct profile *p;
        const struct sysinfo *si;
        const struct plan_options *o;
        struct plan *pl;
        struct diags *d;
        size_t *creator;          /* per object: the step that creates it, NO_OBJ if it exists */
        size_t n_creator;
        char **failed_groups;     /* <disks> ids whose selection failed: references to them are not reported again */
};

static void vreport(struct ctx *c, enum diag_severity sev, int line, const char *what, const char *rule,
                    const char *fmt, va_list ap)
{
        struct sbuf b = {0};
        sbuf_vprintf(&b, fmt, ap);
        diag_add(c->d, sev, c->p->path, line, what, rule, "%s", b.s ? b.s : "");
        free(b.s);
}

static void err(struct ctx *c, int line, const char *what, const char *rule, const char *fmt, ...)
        __attribute__((format(printf, 5, 6)));
static void err(struct ctx *c, int line, const char *what, const char *rule, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        vreport(c, DIAG_ERROR, line, what, rule, fmt, ap);
        va_end(ap);
}

static void warn(struct ctx *c, int line, const char *what, const char *rule, const char *fmt, ...)
        __attribute__((format(printf, 5, 6)));
static void warn(struct ctx *c, int line, const char *what, const char *rule, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        vreport(c, DIAG_WARNING, line, what, rule, fmt, ap);
        va_end(ap);
}

static size_t new_obj(struct ctx *c, enum obj_kind kind, const char *ref, unsigned index, const char *id,
                      const char *what, int line)
{
        struct plan *pl = c->pl;
        pl->objs = xrealloc(pl->objs, (pl->n_objs + 1) * sizeof(*pl->objs));
        struct pl_obj *o = &pl->objs[pl->n_objs];
        *o = (struct pl_obj){
                .kind = kind,
                .ref = xstrdup(ref),
                .index = index,
                .id = xstrdup(id),
                .what = xstrdup(what),
                .line = line,
                .parent = NO_OBJ,
                .used_by = NO_OBJ,
                .level = RAID_NONE,
                .sector_bytes = 512,
                .physical_sector_bytes = 512,
                .tune = {.read_ahead_kb = -1, .nr_requests = -1, .max_sectors_kb = -1, .stripe_cache_size = -1},
        };
        return pl->n_objs++;
}

#define OBJ(c, i) (&(c)->pl->objs[(i)])

/* All objects answering to a reference, in order. */
static size_t resolve(struct ctx *c, const char *ref, size_t **ret)
{
        size_t n = 0;
        *ret = NULL;
        for (size_t i = 0; i < c->pl->n_objs; i++) {
                if (!streq_ptr(OBJ(c, i)->ref, ref))
                        continue;
                *ret = xrealloc(*ret, (n + 1) * sizeof(size_t));
                (*ret)[n++] = i;
        }
        return n;
}

/* Resolves a list of references to block objects and claims them for `user`. */
static size_t resolve_blocks(struct ctx *c, char **refs, size_t user, const char *attrname, int line,
                             const char *what, size_t **ret)
{
        size_t n = 0;
        *ret = NULL;
        for (size_t r = 0; refs && refs[r]; r++) {
                size_t *v = NULL;
                size_t k = resolve(c, refs[r], &v);
                if (!k) {
                        char *group = strndup(refs[r], strcspn(refs[r], "."));
                        bool known_failure = strv_contains(c->failed_groups, group);
                        free(group);
                        if (known_failure)
                                continue;
                        err(c, line, what, "reference", "%s=\"%s\": no disks, partition, md or lv is called \"%s\"",
                            attrname, refs[r], refs[r]);
                        continue;
                }
                for (size_t j = 0; j < k; j++) {
                        struct pl_obj *o = OBJ(c, v[j]);
                        if (o->kind == OBJ_VG || o->kind == OBJ_FS) {
                                err(c, line, what, "reference", "%s=\"%s\" names a %s, which holds no data blocks",
                                    attrname, refs[r], obj_kind_name(o->kind));
                                continue;
                        }
                        if (o->kind == OBJ_DISK) {
                                /* a disk with partitions cannot be used whole */
                                bool has_parts = false;
                                for (size_t q = 0; q < c->pl->n_objs; q++)
                                        if (OBJ(c, q)->kind == OBJ_PART && OBJ(c, q)->parent == v[j])
                                                has_parts = true;
                                if (has_parts) {
                                        err(c, line, what, "reference",
                                            "%s=\"%s\": disk %s is partitioned (<gpt>); name a partition, e.g. \"%s.%s\"",
                                            attrname, refs[r], o->id, refs[r], "PART");
                                        continue;
                                }
                        }
                        if (o->used) {
                                err(c, line, what, "used-twice", "%s %s (%s) is already used by %s",
                                    obj_kind_name(o->kind), o->id, o->dev ? o->dev : "", OBJ(c, o->used_by)->what);
                                continue;
                        }
                        o->used = true;
                        o->used_by = user;
                        *ret = xrealloc(*ret, (n + 1) * sizeof(size_t));
                        (*ret)[n++] = v[j];
                }
                free(v);
        }
        return n;
}

/* ---- identities ---------------------------------------------------------- */

static uint64_t fnv1a(uint64_t h, const char *s)
{
        for (; s && *s; s++) {
                h ^= (unsigned char)*s;
                h *= UINT64_C(0x100000001b3);
        }
        return h;
}

static uint64_t splitmix(uint64_t *x)
{
        uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        return z ^ (z >> 31);
}

static void uuid_bytes(uint64_t seed, const char *what, uint8_t u[16])
{
        uint64_t x = fnv1a(UINT64_C(0xcbf29ce484222325) ^ seed, what);
        uint64_t a = splitmix(&x), b = splitmix(&x);
        for (int i = 0; i < 8; i++) {
                u[i] = (uint8_t)(a >> (8 * i));
                u[8 + i] = (uint8_t)(b >> (8 * i));
        }
        u[6] = (uint8_t)((u[6] & 0x0f) | 0x40); /* version 4 */
        u[8] = (uint8_t)((u[8] & 0x3f) | 0x80); /* RFC 4122 variant */
}

static char *uuid_rfc(uint64_t seed, const char *what)
{
        uint8_t u[16];
        uuid_bytes(seed, what, u);
        return xasprintf("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2],
                         u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

static char *uuid_mdadm(uint64_t seed, const char *what)
{
        uint8_t u[16];
        uuid_bytes(seed, what, u);
        return xasprintf("%02x%02x%02x%02x:%02x%02x%02x%02x:%02x%02x%02x%02x:%02x%02x%02x%02x", u[0], u[1], u[2],
                         u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

char *dm_name(const char *vg, const char *lv)
{
        struct sbuf b = {0};
        for (const char *s = vg; *s; s++)
                sbuf_puts(&b, *s == '-' ? "--" : (char[]){*s, 0});
        sbuf_puts(&b, "-");
        for (const char *s = lv; *s; s++)
                sbuf_puts(&b, *s == '-' ? "--" : (char[]){*s, 0});
        return sbuf_steal(&b);
}

/* ---- disks ------------------------------------------------------------------ */

static bool glob_ok(const char *pattern, const char *value)
{
        if (!pattern)
                return true;
        return value && fnmatch(pattern, value, 0) == 0;
}

static bool disk_matches(const struct p_match *m, const struct blockdev *b)
{
        if (!glob_ok(m->vendor, b->vendor) || !glob_ok(m->model, b->model) || !glob_ok(m->serial, b->serial) ||
            !glob_ok(m->wwn, b->wwn) || !glob_ok(m->path, b->id_path) || !glob_ok(m->name, b->name))
                return false;
        if (m->min_size_bytes && b->size_bytes < m->min_size_bytes)
                return false;
        if (m->max_size_bytes && b->size_bytes > m->max_size_bytes)
                return false;
        if (m->rotational >= 0 && b->rotational != m->rotational)
                return false;
        return true;
}

/* storprov provisions drives and LUNs; md and dm devices are its outputs, not inputs */
static bool is_input_candidate(const struct blockdev *b)
{
        return !startswith(b->name, "md") && !startswith(b->name, "dm-");
}

static char *describe_disk(const struct blockdev *b)
{
        char sz[32];
        return xasprintf("%s (%s %s, %s, serial %s, wwn %s%s)", b->name, b->vendor ? b->vendor : "?",
                         b->model ? b->model : "?", fmt_size_human(b->size_bytes, sz), b->serial ? b->serial : "-",
                         b->wwn ? b->wwn : "-", b->rotational == 1 ? ", rotational" : b->rotational == 0 ? ", ssd" : "");
}

/* Exported io hints are used only when they are believable (as libblkid and
 * libfdisk do): multiples of the physical sector, io_min a divisor of io_opt,
 * io_opt not the known-bogus 33553920 nor absurdly large. */
static bool topology_trusted(const struct blockdev *b, char **ret_why)
{
        uint64_t phys = b->physical_sector_bytes ? b->physical_sector_bytes : 512;
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

static void pick_udev_identity(struct ctx *c, struct pl_obj *o)
{
        /* the first of ID_WWN, ID_SERIAL, ID_PATH, wwid that a rule can match safely (src/sanitize.c) */
        (void)udev_pick_identity(c->si, o->bd, &o->udev_key, &o->udev_value);
}

/* The profile's <tune> on the object it belongs to. */
static void copy_tune(struct pl_tune *dst, const struct p_tune *src)
{
        *dst = (struct pl_tune){
                .line = src->line,
                .read_ahead_kb = src->read_ahead_kb,
                .nr_requests = src->nr_requests,
                .max_sectors_kb = src->max_sectors_kb,
                .stripe_cache_size = src->stripe_cache_size,
                .scheduler = xstrdup(src->scheduler),
                .safe_mode_delay = xstrdup(src->safe_mode_delay),
        };
}

static char *part_devname(const char *disk_dev, unsigned n)
{
        size_t len = strlen(disk_dev);
        bool digit = len && disk_dev[len - 1] >= '0' && disk_dev[len - 1] <= '9';
        return xasprintf("%s%s%u", disk_dev, digit ? "p" : "", n);
}

/* GPT keeps 128 entries × 128 bytes plus a header at each end. */
static uint64_t gpt_reserve_bytes(uint64_t sector) { return 16384 + sector; }

static void plan_partitions(struct ctx *c, const struct p_disks *g, size_t disk)
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

        for (size_t i = 0; i < g->n_parts; i++) {
                const struct p_partition *pp = &g->parts[i];
                char *ref = xasprintf("%s.%s", g->id, pp->id);
                char *id = d->index ? xasprintf("%s%u.%s", g->id, d->index, pp->id) : xstrdup(ref);
                char *what = xasprintf("partition %s", ref);
                size_t pi = new_obj(c, OBJ_PART, ref, d->index, id, what, pp->line);
                d = OBJ(c, disk); /* realloc */
                struct pl_obj *po = OBJ(c, pi);
                po->parent = disk;
                po->partno = (unsigned)i + 1;
                po->dev = part_devname(d->dev, po->partno);
                po->sector_bytes = d->sector_bytes;
                po->physical_sector_bytes = d->physical_sector_bytes;
                po->geom = d->geom;
                po->geom_src = d->geom_src;
                po->geom_why = d->geom.su_bytes ? xasprintf("inherited from %s; start aligned to %s", d->id,
                                                            fmt_size_exact(align, a))
                                                : NULL;
                po->part_type = pp->type;
                po->part_name = xstrdup(pp->name ? pp->name : pp->id);
                po->preserve = g->preserve;
                po->wipe = g->wipe;

                uint64_t size = 0;
                bool last = i + 1 == g->n_parts;
                if (pp->size.kind == SIZE_BYTES) {
                        size = round_down(pp->size.bytes, align);
                        if (!size)
                                err(c, pp->line, what, "partition-size",
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
                if (pos + size > first + usable || (!size && usable)) {
                        err(c, pp->line, what, "partition-size",
                            "does not fit on %s (%s): %s requested at offset %s, %s usable after alignment",
                            d->id, d->dev, pp->size.text, fmt_size_exact(pos, a),
                            fmt_size_human(first + usable > pos ? first + usable - pos : 0, b2));
                        size = 0;
                }
                po->start_bytes = pos;
                po->size_bytes = size;
                pos += size;
                free(ref);
                free(id);
                free(what);
        }
        if (pct_total > 100)
                err(c, g->line, d->what, "partition-size", "partition sizes add up to %u%% of the disk", pct_total);
}

static void plan_disks(struct ctx *c)
{
        const struct sysinfo *si = c->si;
        bool *claimed = xcalloc(si->n_devs ? si->n_devs : 1, sizeof(bool));

        for (size_t gi = 0; gi < c->p->n_disks; gi++) {
                const struct p_disks *g = &c->p->disks[gi];
                char *what = xasprintf("disks %s", g->id);
                size_t *found = NULL, n_found = 0;
                for (size_t i = 0; i < si->n_devs; i++) {
                        const struct blockdev *b = &si->devs[i];
                        if (claimed[i] || b->is_partition || !is_input_candidate(b))
                                continue;
                        if (!disk_matches(&g->match, b))
                                continue;
                        found = xrealloc(found, (n_found + 1) * sizeof(size_t));
                        found[n_found++] = i;
                }
                if (n_found != g->count) {
                        struct sbuf b = {0};
                        for (size_t i = 0; i < n_found; i++) {
                                char *s = describe_disk(&si->devs[found[i]]);
                                sbuf_printf(&b, "\n    matched: %s", s);
                                free(s);
                        }
                        if (!n_found) {
                                sbuf_puts(&b, "\n    no disk matched; disks present:");
                                for (size_t i = 0; i < si->n_devs; i++) {
                                        if (si->devs[i].is_partition)
                                                continue;
                                        char *s = describe_disk(&si->devs[i]);
                                        sbuf_printf(&b, "\n      %s%s", s, claimed[i] ? " [taken by an earlier <disks>]" : "");
                                        free(s);
                                }
                        }
                        err(c, g->match.line ? g->match.line : g->line, what, "disk-count",
                            "expected %u disk%s, found %zu%s", g->count, g->count == 1 ? "" : "s", n_found,
                            b.s ? b.s : "");
                        free(b.s);
                        free(found);
                        free(what);
                        strv_push(&c->failed_groups, g->id);
                        continue;
                }

                /* geometry shared by every disk of the group */
                struct stripe_geom geom = {0};
                enum val_source src = SRC_NONE;
                char *why = NULL;
                if (g->hwraid.line) {
                        struct raid_desc rd = {.level = g->hwraid.level, .members = g->hwraid.members,
                                               .chunk_bytes = g->hwraid.level == RAID_1 ? 0 : g->hwraid.chunk_bytes,
                                               .legs = g->hwraid.legs, .md = false};
                        char *e = NULL;
                        if (g->hwraid.level == RAID_1 && g->hwraid.chunk_bytes)
                                warn(c, g->hwraid.line, what, "raid1-chunk",
                                     "a chunk on a RAID1 LUN has no effect on the layout; ignored");
                        if (g->hwraid.level != RAID_1 && !g->hwraid.chunk_bytes)
                                err(c, g->hwraid.line, what, "hwraid-chunk",
                                    "hwraid level %d needs chunk= (the controller's strip size; LUNs rarely export it)",
                                    (int)g->hwraid.level);
                        else if (raid_geometry(&rd, &geom, &e) < 0) {
                                err(c, g->hwraid.line, what, "hwraid", "%s", e);
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

                for (size_t k = 0; k < n_found; k++) {
                        const struct blockdev *b = &si->devs[found[k]];
                        claimed[found[k]] = true;
                        unsigned index = g->count > 1 ? (unsigned)k + 1 : 0;
                        char *id = index ? xasprintf("%s%u", g->id, index) : xstrdup(g->id);
                        size_t di = new_obj(c, OBJ_DISK, g->id, index, id, what, g->line);
                        struct pl_obj *o = OBJ(c, di);
                        o->bd = b;
                        o->dev = xstrdup(b->devnode);
                        o->size_bytes = b->size_bytes;
                        o->sector_bytes = b->logical_sector_bytes ? b->logical_sector_bytes : 512;
                        o->physical_sector_bytes = b->physical_sector_bytes ? b->physical_sector_bytes : 512;
                        o->preserve = g->preserve;
                        o->wipe = g->wipe;
                        pick_udev_identity(c, o);

                        char *distrust = NULL;
                        bool trusted = topology_trusted(b, &distrust);
                        char a1[32], a2[32], a3[32], a4[32];
                        if (src == SRC_PROFILE) {
                                o->geom = geom;
                                o->geom_src = SRC_PROFILE;
                                o->geom_why = xstrdup(why);
                                if (trusted && geom.su_bytes &&
                                    (b->io_min_bytes != geom.su_bytes || b->io_opt_bytes != geom.full_stripe_bytes)) {
                                        if (!profile_allows(c->p, "topology-mismatch"))
                                                warn(c, g->hwraid.line, what, "topology-mismatch",
                                                     "%s exports io_min %s / io_opt %s but the profile describes su %s / full stripe %s; "
                                                     "using the profile",
                                                     b->name, fmt_size_exact(b->io_min_bytes, a1),
                                                     fmt_size_exact(b->io_opt_bytes, a2), fmt_size_exact(geom.su_bytes, a3),
                                                     fmt_size_exact(geom.full_stripe_bytes, a4));
                                }
                        } else if (trusted) {
                                o->geom = (struct stripe_geom){
                                        .su_bytes = b->io_min_bytes,
                                        .sw = (unsigned)(b->io_opt_bytes / b->io_min_bytes),
                                        .full_stripe_bytes = b->io_opt_bytes,
                                        .parity = false, /* unknown: be conservative about swalloc */
                                };
                                o->geom_src = SRC_DETECTED;
                                o->geom_why = xasprintf("exported by %s: io_min %s, io_opt %s", b->name,
                                                        fmt_size_exact(b->io_min_bytes, a1),
                                                        fmt_size_exact(b->io_opt_bytes, a2));
                        }
                        if (distrust)
                                warn(c, g->line, what, "topology-distrusted", "%s: ignoring exported topology: %s", b->name,
                                     distrust);
                        free(distrust);
                        o->align_bytes = partition_align_bytes(&o->geom, o->physical_sector_bytes);

                        /* tuning */
                        copy_tune(&o->tune, &g->tune);

                        if (g->gpt)
                                plan_partitions(c, g, di);
                        free(id);
                }
                free(why);
                free(found);
                free(what);
        }
        free(claimed);
}

/* ---- md ------------------------------------------------------------------ */

static bool same_geom(const struct stripe_geom *a, const struct stripe_geom *b)
{
        return a->su_bytes == b->su_bytes && a->sw == b->sw && a->full_stripe_bytes == b->full_stripe_bytes;
}

static void set_member_type(struct ctx *c, size_t obj, enum part_type t)
{
        struct pl_obj *o = OBJ(c, obj);
        if (o->kind == OBJ_PART && o->part_type == PART_AUTO)
                o->part_type = t;
}

static void plan_mds(struct ctx *c)
{
        for (size_t mi = 0; mi < c->p->n_mds; mi++) {
                const struct p_md *m = &c->p->mds[mi];
                char *what = xasprintf("md %s", m->id);
                size_t oi = new_obj(c, OBJ_MD, m->id, 0, m->id, what, m->line);
                size_t *mem = NULL;
                size_t n = resolve_blocks(c, m->devices, oi, "devices", m->line, what, &mem);
                struct pl_obj *o = OBJ(c, oi);
                o->members = mem;
                o->n_members = n;
                o->spares = m->spares;
                o->level = m->level;
                o->md_name = xstrdup(m->name);
                o->md_metadata = xstrdup(m->metadata ? m->metadata : "1.2");
                o->md_bitmap = xstrdup(m->bitmap ? m->bitmap : (m->level == RAID_0 ? "none" : "internal"));
                o->dev = xasprintf("/dev/md/%s", m->name);
                o->preserve = m->preserve;
                o->wipe = m->wipe;
                char cb[32];

                /* rules that mdadm (>= 4.2) enforces by failing, found here instead */
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
                unsigned active = n > m->spares ? (unsigned)(n - m->spares) : 0;
                unsigned near = 2;
                if (m->level == RAID_10 && m->layout) {
                        const char *L = m->layout;
                        if ((L[0] == 'n' || L[0] == 'f' || L[0] == 'o') && L[1] >= '2' && L[1] <= '9' && !L[2])
                                near = L[0] == 'n' ? (unsigned)(L[1] - '0') : 1;
                        else
                                err(c, m->line, what, "md-layout", "raid10 layout \"%s\" is not n2..n9, f2..f9 or o2..o9",
                                    L);
                }

                /* geometry */
                bool striped_members = false, mixed = false;
                const struct stripe_geom *mg = NULL;
                bool parity_members = false;
                uint64_t phys = 512;
                for (size_t i = 0; i < n; i++) {
                        struct pl_obj *x = OBJ(c, mem[i]);
                        phys = lcm_u64(phys, x->physical_sector_bytes);
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
                if (striped_members && !mixed && m->level == RAID_0) {
                        /* RAID50/60: md RAID0 across hardware RAID LUNs */
                        if (!chunk) {
                                if (is_pow2(mg->full_stripe_bytes)) {
                                        chunk = mg->full_stripe_bytes;
                                        chunk_src = SRC_DERIVED;
                                } else {
                                        err(c, m->line, what, "md-chunk",
                                            "the members' full stripe %s is not a power of 2, so no md chunk can cover whole "
                                            "member stripes; use an LVM linear VG or members with a power-of-2 number of data disks",
                                            fmt_size_exact(mg->full_stripe_bytes, cb));
                                }
                        }
                        char *e = NULL;
                        if (chunk && !is_pow2(chunk)) {
                                err(c, m->line, what, "md-chunk", "chunk %s is not a power of 2 (mdadm needs one)",
                                    fmt_size_exact(chunk, cb));
                        } else if (chunk && stack_geometry(mg, active, chunk, parity_members, &o->geom, &e) < 0) {
                                err(c, m->line, what, "md-chunk", "%s", e);
                                free(e);
                        } else if (chunk) {
                                o->geom_src = chunk_src == SRC_PROFILE ? SRC_PROFILE : SRC_DERIVED;
                                o->geom_why = xasprintf("raid0 across %u LUNs of su %s x %u, md chunk %s%s", active,
                                                        fmt_size_exact(mg->su_bytes, cb), mg->sw,
                                                        fmt_size_exact(chunk, (char[32]){0}),
                                                        chunk_src == SRC_DERIVED ? " (= LUN full stripe)" : "");
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
                o->stripe_bytes = m->level == RAID_1 ? 0 : chunk; /* what --chunk gets */
                /* size estimate (before superblock and bitmap space): smallest member x data members */
                uint64_t smallest = 0;
                for (size_t i = 0; i < n; i++) {
                        uint64_t sz = OBJ(c, mem[i])->size_bytes;
                        if (sz && (!smallest || sz < smallest))
                                smallest = sz;
                }
                unsigned data = m->level == RAID_1    ? 1
                                : m->level == RAID_0  ? active
                                : m->level == RAID_6  ? (active > 2 ? active - 2 : 0)
                                : m->level == RAID_10 ? active / near
                                                      : (active > 1 ? active - 1 : 0);
                o->size_bytes = smallest * data;
                o->uuid = NULL;
                o->align_bytes = partition_align_bytes(&o->geom, o->physical_sector_bytes);

                copy_tune(&o->tune, &m->tune);

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

/* ---- LVM ----------------------------------------------------------------- */

static void plan_vgs(struct ctx *c)
{
        char a[32], b[32];
        for (size_t vi = 0; vi < c->p->n_vgs; vi++) {
                const struct p_vg *v = &c->p->vgs[vi];
                char *what = xasprintf("vg %s", v->id);
                size_t oi = new_obj(c, OBJ_VG, v->id, 0, v->id, what, v->line);
                size_t *pvs = NULL;
                size_t n = resolve_blocks(c, v->pvs, oi, "pvs", v->line, what, &pvs);
                struct pl_obj *o = OBJ(c, oi);
                o->members = pvs;
                o->n_members = n;
                o->vg_name = xstrdup(v->name);
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
                        full_lcm = lcm_u64(full_lcm, x->geom.full_stripe_bytes);
                        if (x->preserve != o->preserve)
                                err(c, v->line, what, "preserve",
                                    "vg %s is %spreserved but its PV %s is %s; mark both or neither preserve=\"true\"",
                                    v->name, o->preserve ? "" : "not ", x->id, x->preserve ? "preserved" : "not preserved");
                }
                o = OBJ(c, oi);
                if (mixed)
                        warn(c, v->line, what, "vg-mixed-pvs",
                             "PVs have different stripe geometries; linear LVs get no stripe geometry");
                if (g0 && !mixed)
                        o->geom = *g0;
                o->pv_align_bytes = full_lcm;
                o->extent_bytes = vg_extent_bytes(full_lcm);
                o->geom_src = full_lcm ? SRC_DERIVED : SRC_NONE;
                o->geom_why = full_lcm ? xasprintf("PV data alignment %s = full stripe; extent %s = %" PRIu64
                                                   " full stripes, so every LV starts on a stripe boundary",
                                                   fmt_size_exact(full_lcm, a), fmt_size_exact(o->extent_bytes, b),
                                                   o->extent_bytes / full_lcm)
                                       : NULL;
                struct stripe_geom vg_geom = o->geom;
                bool vg_mixed = mixed;

                unsigned pct_vg = 0;
                for (size_t li = 0; li < v->n_lvs; li++) {
                        const struct p_lv *l = &v->lvs[li];
                        char *ref = xasprintf("%s/%s", v->id, l->name);
                        char *lwhat = xasprintf("lv %s/%s", v->name, l->name);
                        size_t lo = new_obj(c, OBJ_LV, ref, 0, ref, lwhat, l->line);
                        struct pl_obj *x = OBJ(c, lo);
                        x->parent = oi;
                        x->lv_name = xstrdup(l->name);
                        x->dev = xasprintf("/dev/%s/%s", v->name, l->name);
                        x->preserve = v->preserve;
                        x->stripes = l->stripes;
                        if (l->size.kind == SIZE_PERCENT) {
                                pct_vg += l->size.percent;
                                if (pct_vg > 100)
                                        err(c, l->line, lwhat, "lv-size", "LV sizes add up to %u%% of the VG", pct_vg);
                        }
                        if (l->stripe_bytes && l->stripes <= 1)
                                err(c, l->line, lwhat, "lv-stripes", "stripe-size without stripes >= 2 has no effect");
                        if (l->stripes > n && n)
                                err(c, l->line, lwhat, "lv-stripes", "stripes=%u but the VG has only %zu PVs",
                                    l->stripes, n);
                        if (l->stripes > 128)
                                err(c, l->line, lwhat, "lv-stripes", "lvcreate allows at most 128 stripes");
                        if (l->stripes >= 2) {
                                uint64_t sb = l->stripe_bytes;
                                enum val_source ss = SRC_PROFILE;
                                if (!sb) {
                                        if (vg_geom.full_stripe_bytes && !vg_mixed) {
                                                sb = vg_geom.full_stripe_bytes;
                                                ss = SRC_DERIVED;
                                        } else {
                                                sb = DEFAULT_LV_STRIPE_BYTES;
                                                ss = SRC_DEFAULT;
                                        }
                                }
                                if (!is_pow2(sb) || sb < 4096) {
                                        err(c, l->line, lwhat, "lv-stripe-size",
                                            "stripe size %s is not a power of 2 of at least 4 KiB (lvcreate -I)%s",
                                            fmt_size_exact(sb, a),
                                            ss == SRC_DERIVED ? ": it was derived from the PVs' full stripe; striping "
                                                                "LVs over these PVs cannot stay aligned, use linear LVs"
                                                              : "");
                                } else if (sb > OBJ(c, oi)->extent_bytes) {
                                        err(c, l->line, lwhat, "lv-stripe-size",
                                            "stripe size %s is larger than the extent size %s; lvcreate would reduce it",
                                            fmt_size_exact(sb, a), fmt_size_exact(OBJ(c, oi)->extent_bytes, b));
                                } else {
                                        char *e = NULL;
                                        if (stack_geometry(vg_mixed ? NULL : &vg_geom, l->stripes, sb, vg_geom.parity,
                                                           &x->geom, &e) < 0) {
                                                err(c, l->line, lwhat, "lv-stripe-size", "%s", e);
                                                free(e);
                                        } else {
                                                x->geom_src = ss == SRC_PROFILE ? SRC_DERIVED : ss;
                                                x->geom_why = xasprintf("striped LV, %u stripes x %s%s", l->stripes,
                                                                        fmt_size_exact(sb, a),
                                                                        ss == SRC_DERIVED ? " (= PV full stripe)" : "");
                                        }
                                }
                                x->stripe_bytes = sb;
                        } else if (!vg_mixed) {
                                x->geom = vg_geom;
                                x->geom_src = vg_geom.su_bytes ? SRC_DERIVED : SRC_NONE;
                                x->geom_why = vg_geom.su_bytes ? xstrdup("linear LV on stripe-aligned extents of the PVs")
                                                               : NULL;
                        }
                        if (l->size.kind == SIZE_BYTES && x->stripes >= 2 && l->size.bytes % (OBJ(c, oi)->extent_bytes * x->stripes))
                                warn(c, l->line, lwhat, "lv-size",
                                     "size %s is not a multiple of stripes x extent (%s); lvcreate rounds it up",
                                     l->size.text, fmt_size_exact(OBJ(c, oi)->extent_bytes * x->stripes, a));
                        x->physical_sector_bytes = 512;
                        copy_tune(&x->tune, &l->tune);
                        free(ref);
                        free(lwhat);
                }
                free(what);
        }
}

/* ---- XFS ----------------------------------------------------------------- */

static const struct {
        const char *opt;
        const char *why;
} rejected_mount_opts[] = {
        {"nobarrier", "removed in Linux 4.19; current kernels fail the mount"},
        {"barrier", "removed in Linux 4.19; current kernels fail the mount"},
        {"delaylog", "removed in Linux 4.0"},
        {"nodelaylog", "removed in Linux 4.0"},
        {"ihashsize", "removed in Linux 4.0"},
        {"irixsgid", "removed in Linux 4.0"},
        {"osyncisdsync", "removed in Linux 4.0"},
        {"osyncisosync", "removed in Linux 4.0"},
        {"ikeep", "deprecated, scheduled for removal (Linux 6.18)"},
        {"noikeep", "deprecated, scheduled for removal (Linux 6.18)"},
        {"attr2", "deprecated, scheduled for removal (Linux 6.18)"},
        {"noattr2", "deprecated and always rejected on V5 filesystems"},
        {"sunit", "stripe geometry is stored in the superblock by mkfs; in fstab it breaks when layouts change"},
        {"swidth", "stripe geometry is stored in the superblock by mkfs; in fstab it breaks when layouts change"},
};

static char *expand_template(const char *t, unsigned index)
{
        if (!t)
                return NULL;
        struct sbuf b = {0};
        for (const char *s = t; *s; s++) {
                if (s[0] == '%' && s[1] == 'n') {
                        sbuf_printf(&b, "%u", index);
                        s++;
                } else
                        sbuf_printf(&b, "%c", *s);
        }
        return sbuf_steal(&b);
}

/* Builds the mount options: the profile's, checked, plus logbufs, logbsize
 * and swalloc where the geometry calls for them. */
static char *fs_mount_options(struct ctx *c, const struct p_xfs *f, const char *what, struct pl_obj *fs)
{
        char **opts = strv_split(f->mount_options, ",");
        char **out = NULL;
        bool has_logbufs = false, has_logbsize = false, has_swalloc = false;
        char a[32], b[32];
        for (size_t i = 0; opts && opts[i]; i++) {
                char *key = xstrdup(opts[i]);
                char *eq = strchr(key, '=');
                const char *val = eq ? eq + 1 : NULL;
                if (eq)
                        *eq = 0;
                bool bad = false;
                for (size_t k = 0; k < ELEMENTSOF(rejected_mount_opts); k++)
                        if (strcmp(key, rejected_mount_opts[k].opt) == 0) {
                                err(c, f->line, what, "mount-option", "mount option \"%s\": %s", opts[i],
                                    rejected_mount_opts[k].why);
                                bad = true;
                        }
                if (!strcmp(key, "logbufs")) {
                        uint64_t v = 0;
                        has_logbufs = true;
                        if (!val || parse_u64(val, &v) < 0 || v < 2 || v > 8) {
                                err(c, f->line, what, "mount-option", "logbufs=%s: the kernel accepts 2 to 8",
                                    val ? val : "");
                                bad = true;
                        }
                }
                if (!strcmp(key, "logbsize")) {
                        uint64_t v = 0;
                        has_logbsize = true;
                        if (!val || parse_size(val, &v) < 0 || !is_pow2(v) || v < 16 * KiB || v > 256 * KiB) {
                                err(c, f->line, what, "mount-option",
                                    "logbsize=%s: must be a power of 2 from 16k to 256k", val ? val : "");
                                bad = true;
                        } else if (v < fs->log_su_bytes) {
                                err(c, f->line, what, "logbsize",
                                    "logbsize=%s is smaller than the log stripe unit %s; the mount would fail "
                                    "(\"logbuf size must be greater than or equal to log stripe size\")",
                                    val, fmt_size_exact(fs->log_su_bytes, a));
                                bad = true;
                        }
                }
                if (!strcmp(key, "swalloc"))
                        has_swalloc = true;
                if (!bad)
                        strv_push(&out, opts[i]);
                free(key);
        }
        strv_free(opts);
        if (!has_logbufs)
                strv_push(&out, "logbufs=8");
        if (!has_logbsize)
                strv_pushf(&out, "logbsize=%s", fmt_size_exact(xfs_logbsize_bytes(fs->log_su_bytes), b));
        if (!has_swalloc && fs->geom.parity && fs->geom.su_bytes)
                strv_push(&out, "swalloc");
        char *r = strv_join(out, ",");
        strv_free(out);
        return r;
}

static void check_mkfs_options(struct ctx *c, const struct p_xfs *f, const char *what, char **extra)
{
        /* geometry is derived; a hand-written su/sw would fight it */
        const char *section = "";
        for (size_t i = 0; extra && extra[i]; i++) {
                const char *s = extra[i];
                if (s[0] == '-') {
                        section = s;
                        if (!strcmp(s, "-N"))
                                err(c, f->line, what, "mkfs-option", "-N (dry run) in mkfs-options would make nothing");
                        continue;
                }
                if (strcmp(section, "-d") && strcmp(section, "-l"))
                        continue;
                char **kv = strv_split(s, ",");
                for (size_t k = 0; kv && kv[k]; k++)
                        if (startswith(kv[k], "su=") || startswith(kv[k], "sw=") || startswith(kv[k], "sunit=") ||
                            startswith(kv[k], "swidth=") || !strcmp(kv[k], "noalign"))
                                err(c, f->line, what, "mkfs-stripe",
                                    "mkfs-options \"%s %s\": stripe geometry is derived from the RAID layout; remove it "
                                    "(and describe the hardware with <hwraid> if it is wrong)",
                                    section, kv[k]);
                strv_free(kv);
        }
}

static void plan_fss(struct ctx *c)
{
        for (size_t fi = 0; fi < c->p->n_fss; fi++) {
                const struct p_xfs *f = &c->p->fss[fi];
                char *ref0 = strv_join(f->on, " ");
                char *what = xasprintf("xfs on %s", ref0);
                size_t placeholder = new_obj(c, OBJ_FS, "", 0, "", what, f->line); /* claims targets */
                size_t *tg = NULL;
                size_t n = resolve_blocks(c, f->on, placeholder, "on", f->line, what, &tg);
                char **extra = strv_split(f->mkfs_options, " \t");
                check_mkfs_options(c, f, what, extra);
                if (n > 1 && f->mountpoint && !strstr(f->mountpoint, "%n"))
                        err(c, f->line, what, "template",
                            "on=\"%s\" names %zu devices; the mountpoint needs %%n (the disk's number) to stay unique",
                            ref0, n);
                if (n > 1 && f->label && !strstr(f->label, "%n"))
                        err(c, f->line, what, "template",
                            "on=\"%s\" names %zu devices; the label needs %%n (the disk's number) to stay unique", ref0, n);

                for (size_t k = 0; k < n; k++) {
                        size_t oi = k == 0 ? placeholder : new_obj(c, OBJ_FS, "", 0, "", what, f->line);
                        struct pl_obj *t = OBJ(c, tg[k]);
                        unsigned index = t->index ? t->index : (unsigned)k + 1;
                        t->used_by = oi;
                        struct pl_obj *o = OBJ(c, oi);
                        o->parent = tg[k];
                        o->dev = xstrdup(t->dev);
                        o->geom = t->geom;
                        o->geom_src = t->geom_src;
                        o->geom_why = xstrdup(t->geom_why);
                        o->physical_sector_bytes = t->physical_sector_bytes;
                        o->label = expand_template(f->label, index);
                        o->mountpoint = expand_template(f->mountpoint, index);
                        o->preserve = f->preserve;
                        free(o->id);
                        o->id = xasprintf("fs:%s", o->mountpoint ? o->mountpoint : o->label ? o->label : t->id);
                        free(o->ref);
                        o->ref = xstrdup(o->id);
                        if (t->preserve && !f->preserve)
                                err(c, f->line, what, "preserve",
                                    "%s is preserved, so the filesystem on it must be preserve=\"true\" too", t->id);
                        if (f->preserve && !t->preserve && t->kind != OBJ_LV)
                                err(c, f->line, what, "preserve",
                                    "the filesystem is preserved but %s under it is not; mark it preserve=\"true\"", t->id);
                        if (o->label && strlen(o->label) > 12)
                                err(c, f->line, what, "label", "label \"%s\" is longer than XFS's 12 characters", o->label);

                        char *e = NULL;
                        if (xfs_validate_stripe(o->geom.su_bytes, o->geom.sw, o->physical_sector_bytes, &e) < 0) {
                                err(c, f->line, what, "mkfs-stripe", "%s (from %s)", e, t->id);
                                free(e);
                                o->geom = (struct stripe_geom){0};
                        }
                        o->log_su_bytes = xfs_log_su_bytes(&o->geom);
                        char sz[32];
                        if (t->size_bytes && t->size_bytes < 300 * 1000 * 1000)
                                err(c, f->line, what, "xfs-size",
                                    "%s (%s) holds about %s; mkfs.xfs needs a data section of at least 300 MB", t->id,
                                    t->dev, fmt_size_human(t->size_bytes, sz));
                        o->mount_options = fs_mount_options(c, f, what, o);
                        if (o->mountpoint) {
                                for (size_t q = 0; q < c->pl->n_objs; q++) {
                                        struct pl_obj *y = OBJ(c, q);
                                        if (q != oi && y->kind == OBJ_FS && streq_ptr(y->mountpoint, o->mountpoint))
                                                err(c, f->line, what, "mountpoint", "mountpoint %s is used twice",
                                                    o->mountpoint);
                                }
                        }
                }
                strv_free(extra);
                free(tg);
                free(ref0);
                free(what);
        }
}

/* ---- tuning -------------------------------------------------------------- */

static void check_tuning(struct ctx *c)
{
        uint64_t pinned = 0;
        struct sbuf who = {0};
        int first_line = 0;
        for (size_t i = 0; i < c->pl->n_objs; i++) {
                struct pl_obj *o = OBJ(c, i);
                struct pl_tune *t = &o->tune;
                if (!t->line)
                        continue;
                const char *w = o->what;
                bool stacked = o->kind == OBJ_MD || o->kind == OBJ_LV;
                if (stacked && t->nr_requests >= 0)
                        err(c, t->line, w, "tune-stacked",
                            "nr-requests on %s: md and device-mapper devices are bio-based and have no request queue "
                            "(no queue/nr_requests file); tune the member disks instead",
                            obj_kind_name(o->kind));
                if (stacked && t->scheduler)
                        err(c, t->line, w, "tune-stacked",
                            "scheduler on %s: md and device-mapper devices have no I/O scheduler; tune the member disks",
                            obj_kind_name(o->kind));
                if (t->stripe_cache_size >= 0) {
                        if (o->kind != OBJ_MD || !raid_level_has_parity(o->level))
                                err(c, t->line, w, "stripe-cache",
                                    "stripe-cache-size applies to md raid4/5/6 only, not %s",
                                    o->kind == OBJ_MD ? raid_level_name(o->level) : obj_kind_name(o->kind));
                        else if (t->stripe_cache_size < 17 || t->stripe_cache_size > 32768)
                                err(c, t->line, w, "stripe-cache",
                                    "stripe-cache-size %" PRId64 " is outside the kernel's 17..32768", t->stripe_cache_size);
                        else {
                                char hb[32];
                                uint64_t bytes = (uint64_t)t->stripe_cache_size * 4096 * o->n_members;
                                if (bytes * QUEUE_MEM_FRACTION_DEN > c->pl->mem_total_bytes && c->pl->mem_total_bytes)
                                        warn(c, t->line, w, "stripe-cache-memory",
                                             "stripe-cache-size %" PRId64 " x %zu members x 4 KiB pins %s",
                                             t->stripe_cache_size, o->n_members, fmt_size_human(bytes, hb));
                        }
                }
                if (t->safe_mode_delay && o->kind != OBJ_MD)
                        err(c, t->line, w, "safe-mode-delay", "safe-mode-delay applies to md arrays only");
                if (o->kind != OBJ_DISK)
                        continue;
                const struct blockdev *b = o->bd;
                if (t->max_sectors_kb >= 0 && b->max_hw_sectors_kb && t->max_sectors_kb > b->max_hw_sectors_kb)
                        err(c, t->line, w, "max-sectors-kb",
                            "max-sectors-kb %" PRId64 " is above %s's max_hw_sectors_kb %u; the kernel refuses it",
                            t->max_sectors_kb, b->name, b->max_hw_sectors_kb);
                if (t->scheduler && b->schedulers && !strv_contains(b->schedulers, t->scheduler)) {
                        char *offered = strv_join(b->schedulers, " ");
                        warn(c, t->line, w, "scheduler", "%s does not offer scheduler %s now (offers: %s)", b->name,
                             t->scheduler, offered);
                        free(offered);
                }
                if (!o->udev_key)
                        warn(c, t->line, w, "no-stable-id",
                             "%s has no WWN, serial or path in the udev database: its tuning is applied now but cannot "
                             "be persisted as a udev rule",
                             b->name);
                if (t->nr_requests >= 0 || t->max_sectors_kb >= 0) {
                        uint64_t nr = t->nr_requests >= 0 ? (uint64_t)t->nr_requests : b->nr_requests;
                        uint64_t ms = t->max_sectors_kb >= 0 ? (uint64_t)t->max_sectors_kb : b->max_sectors_kb;
                        uint64_t q = b->nr_hw_queues ? b->nr_hw_queues : 1;
                        uint64_t bytes = nr * ms * KiB * q;
                        char hb[32];
                        pinned += bytes;
                        sbuf_printf(&who, "\n    %s (%s): nr_requests %" PRIu64 " x max_sectors_kb %" PRIu64 " x %" PRIu64
                                          " queue%s = %s",
                                    o->id, b->name, nr, ms, q, q == 1 ? "" : "s", fmt_size_human(bytes, hb));
                        if (!first_line && t->nr_requests >= 0)
                                first_line = t->line;
                }
        }
        c->pl->queue_mem_bytes = pinned;
        uint64_t mem = c->pl->mem_total_bytes;
        if (mem && pinned * QUEUE_MEM_FRACTION_DEN > mem && !profile_allows(c->p, "queue-memory")) {
                char a[32], b[32];
                err(c, first_line, "tune", "queue-memory",
                    "nr_requests x max_sectors_kb x queues can pin %s of I/O in the request queues, more than 1/%d "
                    "of MemTotal %s (seed 000: 8192 x 512 KiB pinned ~3.5 GiB and the node fell over); lower nr-requests "
                    "or max-sectors-kb, or add <allow rule=\"queue-memory\"/>:%s",
                    fmt_size_human(pinned, a), QUEUE_MEM_FRACTION_DEN, fmt_size_human(mem, b), who.s ? who.s : "");
        }
        free(who.s);
}

static void check_sysctls(struct ctx *c)
{
        static const char *const pairs[][2] = {
                {"vm.dirty_ratio", "vm.dirty_bytes"},
                {"vm.dirty_background_ratio", "vm.dirty_background_bytes"},
        };
        const struct profile *p = c->p;
        for (size_t i = 0; i < p->n_sysctls; i++) {
                const struct p_sysctl *s = &p->sysctls[i];
                for (size_t j = 0; j < i; j++)
                        if (streq_ptr(p->sysctls[j].key, s->key))
                                err(c, s->line, "sysctl", "sysctl-duplicate", "%s is set twice (also line %d)", s->key,
                                    p->sysctls[j].line);
                for (size_t k = 0; k < ELEMENTSOF(pairs); k++)
                        for (size_t j = 0; j < i; j++) {
                                bool ab = streq_ptr(p->sysctls[j].key, pairs[k][0]) && streq_ptr(s->key, pairs[k][1]);
                                bool ba = streq_ptr(p->sysctls[j].key, pairs[k][1]) && streq_ptr(s->key, pairs[k][0]);
                                if (ab || ba)
                                        err(c, s->line, "sysctl", "sysctl-ratio-bytes",
                                            "%s and %s (line %d) exclude each other: writing one zeroes the other, so "
                                            "only the last would count",
                                            s->key, p->sysctls[j].key, p->sysctls[j].line);
                        }
                if (startswith(s->key, "vm.dirty_")) {
                        uint64_t v;
                        if (parse_u64(s->value, &v) < 0)
                                err(c, s->line, "sysctl", "sysctl-value", "%s = \"%s\" is not a whole number", s->key,
                                    s->value);
                        else if (strstr(s->key, "_ratio") && v > 100)
                                err(c, s->line, "sysctl", "sysctl-value", "%s = %" PRIu64 " is not a percentage", s->key,
                                    v);
                        else if (strstr(s->key, "_bytes") && v && v < 8192)
                                err(c, s->line, "sysctl", "sysctl-value",
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
                warn(c, bgl, "sysctl", "sysctl-dirty-order",
                     "vm.dirty_background_ratio %" PRIu64 " >= vm.dirty_ratio %" PRIu64
                     ": the kernel would use half of dirty_ratio instead",
                     b, f);
        c->pl->sysctls = xcalloc(p->n_sysctls, sizeof(struct pl_sysctl));
        for (size_t i = 0; i < p->n_sysctls; i++)
                c->pl->sysctls[i] = (struct pl_sysctl){.line = p->sysctls[i].line, .key = xstrdup(p->sysctls[i].key),
                                                       .value = xstrdup(p->sysctls[i].value)};
        c->pl->n_sysctls = p->n_sysctls;
}

static void check_unique_names(struct ctx *c)
{
        const struct profile *p = c->p;
        /* ids share one namespace, since references name them */
        char **ids = NULL;
        int *lines = NULL;
        size_t n = 0;
#define ADD_ID(x, l)                                                                                                   \
        do {                                                                                                           \
                for (size_t _i = 0; _i < n; _i++)                                                                      \
                        if (streq_ptr(ids[_i], (x)))                                                                   \
                                err(c, (l), (x), "duplicate-id", "id \"%s\" is already used on line %d", (x), lines[_i]); \
                strv_push(&ids, (x));                                                                                  \
                lines = xrealloc(lines, (n + 1) * sizeof(int));                                                        \
                lines[n++] = (l);                                                                                      \
        } while (0)
        for (size_t i = 0; i < p->n_disks; i++) {
                ADD_ID(p->disks[i].id, p->disks[i].line);
                for (size_t j = 0; j < p->disks[i].n_parts; j++)
                        for (size_t k = 0; k < j; k++)
                                if (streq_ptr(p->disks[i].parts[j].id, p->disks[i].parts[k].id))
                                        err(c, p->disks[i].parts[j].line, p->disks[i].id, "duplicate-id",
                                            "partition id \"%s\" is used twice", p->disks[i].parts[j].id);
        }
        for (size_t i = 0; i < p->n_mds; i++)
                ADD_ID(p->mds[i].id, p->mds[i].line);
        for (size_t i = 0; i < p->n_vgs; i++) {
                ADD_ID(p->vgs[i].id, p->vgs[i].line);
                for (size_t j = 0; j < p->vgs[i].n_lvs; j++)
                        for (size_t k = 0; k < j; k++)
                                if (streq_ptr(p->vgs[i].lvs[j].name, p->vgs[i].lvs[k].name))
                                        err(c, p->vgs[i].lvs[j].line, p->vgs[i].id, "duplicate-id",
                                            "lv \"%s\" is defined twice", p->vgs[i].lvs[j].name);
        }
#undef ADD_ID
        for (size_t i = 0; i < p->n_mds; i++)
                for (size_t j = 0; j < i; j++)
                        if (streq_ptr(p->mds[i].name, p->mds[j].name))
                                err(c, p->mds[i].line, p->mds[i].id, "duplicate-name",
                                    "md name \"%s\" is already used on line %d", p->mds[i].name, p->mds[j].line);
        for (size_t i = 0; i < p->n_vgs; i++)
                for (size_t j = 0; j < i; j++)
                        if (streq_ptr(p->vgs[i].name, p->vgs[j].name))
                                err(c, p->vgs[i].line, p->vgs[i].id, "duplicate-name",
                                    "vg name \"%s\" is already used on line %d", p->vgs[i].name, p->vgs[j].line);
        strv_free(ids);
        free(lines);
}

/* ---- steps --------------------------------------------------------------- */

static size_t add_step(struct ctx *c, enum step_kind kind, size_t obj, char *desc)
{
        struct plan *pl = c->pl;
        pl->steps = xrealloc(pl->steps, (pl->n_steps + 1) * sizeof(*pl->steps));
        pl->steps[pl->n_steps] = (struct pl_step){.kind = kind, .obj = obj, .desc = desc};
        return pl->n_steps++;
}

static void step_dep(struct ctx *c, size_t step, size_t obj)
{
        if (obj == NO_OBJ || obj >= c->n_creator)
                return;
        size_t s = c->creator[obj];
        if (s == NO_OBJ || s == step)
                return;
        struct pl_step *st = &c->pl->steps[step];
        for (size_t i = 0; i < st->n_deps; i++)
                if (st->deps[i] == s)
                        return;
        st->deps = xrealloc(st->deps, (st->n_deps + 1) * sizeof(size_t));
        st->deps[st->n_deps++] = s;
}

static void lvm_argv(struct ctx *c, char ***argv, const char *cmd)
{
        strv_push(argv, "lvm");
        strv_push(argv, cmd);
        if (c->o->lvm_config) {
                strv_push(argv, "--config");
                strv_push(argv, c->o->lvm_config);
        }
}

static void sysfs_step(struct ctx *c, size_t obj, const char *attr, const char *value)
{
        struct pl_obj *o = OBJ(c, obj);
        size_t s = add_step(c, STEP_SYSFS, obj, xasprintf("%s %s = %s", o->dev, attr, value));
        c->pl->steps[s].attr = xstrdup(attr);
        c->pl->steps[s].value = xstrdup(value);
        step_dep(c, s, obj);
}

static void build_steps(struct ctx *c)
{
        struct plan *pl = c->pl;
        char a[32], b[32];
        c->n_creator = pl->n_objs;
        c->creator = xmalloc(pl->n_objs * sizeof(size_t));
        for (size_t i = 0; i < pl->n_objs; i++)
                c->creator[i] = NO_OBJ;

        /* partition tables */
        for (size_t i = 0; i < pl->n_objs; i++) {
                struct pl_obj *d = OBJ(c, i);
                if (d->kind != OBJ_DISK)
                        continue;
                size_t np = 0;
                struct pl_part *parts = NULL;
                for (size_t j = 0; j < pl->n_objs; j++) {
                        struct pl_obj *q = OBJ(c, j);
                        if (q->kind != OBJ_PART || q->parent != i)
                                continue;
                        parts = xrealloc(parts, (np + 1) * sizeof(*parts));
                        uint64_t sec = d->sector_bytes;
                        parts[np++] = (struct pl_part){
                                .number = q->partno,
                                .first_sector = q->start_bytes / sec,
                                .last_sector = q->size_bytes ? (q->start_bytes + q->size_bytes) / sec - 1 : q->start_bytes / sec,
                                .start_bytes = q->start_bytes,
                                .size_bytes = q->size_bytes,
                                .type = q->part_type == PART_AUTO ? PART_LINUX : q->part_type,
                                .name = xstrdup(q->part_name),
                                .obj = j,
                        };
                }
                if (!np)
                        continue;
                if (d->preserve) {
                        for (size_t k = 0; k < np; k++)
                                free(parts[k].name);
                        free(parts);
                        continue;
                }
                size_t s = add_step(c, STEP_GPT, i,
                                    xasprintf("GPT on %s: %zu partition%s aligned to %s", d->dev, np, np == 1 ? "" : "s",
                                              fmt_size_exact(d->align_bytes, a)));
                pl->steps[s].parts = parts;
                pl->steps[s].n_parts = np;
                for (size_t k = 0; k < np; k++)
                        c->creator[parts[k].obj] = s;
        }

        /* md arrays, in profile order (members are created earlier) */
        for (size_t i = 0; i < pl->n_objs; i++) {
                struct pl_obj *o = OBJ(c, i);
                if (o->kind != OBJ_MD || o->preserve || !o->n_members)
                        continue;
                char **argv = NULL;
                strv_push(&argv, "mdadm");
                strv_push(&argv, "--create");
                strv_push(&argv, o->dev);
                strv_push(&argv, "--run");
                strv_pushf(&argv, "--level=%d", (int)o->level);
                strv_pushf(&argv, "--raid-devices=%zu", o->n_members - o->spares);
                if (o->spares)
                        strv_pushf(&argv, "--spare-devices=%u", o->spares);
                if (o->level != RAID_1 && o->stripe_bytes)
                        strv_pushf(&argv, "--chunk=%" PRIu64, o->stripe_bytes / KiB); /* KiB */
                const struct p_md *pm = NULL;
                for (size_t k = 0; k < c->p->n_mds; k++)
                        if (streq_ptr(c->p->mds[k].id, o->ref))
                                pm = &c->p->mds[k];
                if (pm && pm->layout)
                        strv_pushf(&argv, "--layout=%s", pm->layout);
                else if (pm && pm->parity)
                        strv_pushf(&argv, "--parity=%s", pm->parity);
                strv_pushf(&argv, "--metadata=%s", o->md_metadata);
                /* always explicit where a bitmap exists (mdadm 4.4 asks otherwise); raid0 has none and
                 * mdadm refuses even --bitmap=none for it */
                if (o->level != RAID_0)
                        strv_pushf(&argv, "--bitmap=%s", o->md_bitmap);
                strv_push(&argv, "--homehost=any");
                strv_pushf(&argv, "--name=%s", o->md_name);
                strv_pushf(&argv, "--uuid=%s", o->uuid);
                for (size_t k = 0; k < o->n_members; k++)
                        strv_push(&argv, OBJ(c, o->members[k])->dev);
                size_t s = add_step(c, STEP_MDADM, i,
                                    xasprintf("md %s %s over %zu devices", o->md_name, raid_level_name(o->level),
                                              o->n_members));
                pl->steps[s].argv = argv;
                for (size_t k = 0; k < o->n_members; k++)
                        step_dep(c, s, o->members[k]);
                c->creator[i] = s;
        }

        /* LVM */
        for (size_t i = 0; i < pl->n_objs; i++) {
                struct pl_obj *v = OBJ(c, i);
                if (v->kind != OBJ_VG || v->preserve || !v->n_members)
                        continue;
                size_t *pvsteps = xcalloc(v->n_members, sizeof(size_t));
                for (size_t k = 0; k < v->n_members; k++) {
                        struct pl_obj *pv = OBJ(c, v->members[k]);
                        char **argv = NULL;
                        lvm_argv(c, &argv, "pvcreate");
                        if (v->pv_align_bytes)
                                strv_pushf(&argv, "--dataalignment=%s", fmt_size_exact(v->pv_align_bytes, a));
                        strv_push(&argv, pv->dev);
                        size_t s = add_step(c, STEP_PVCREATE, v->members[k],
                                            xasprintf("PV %s%s%s", pv->dev, v->pv_align_bytes ? ", data aligned to " : "",
                                                      v->pv_align_bytes ? fmt_size_exact(v->pv_align_bytes, b) : ""));
                        pl->steps[s].argv = argv;
                        step_dep(c, s, v->members[k]);
                        pvsteps[k] = s;
                }
                char **argv = NULL;
                lvm_argv(c, &argv, "vgcreate");
                strv_pushf(&argv, "--physicalextentsize=%s", fmt_size_exact(v->extent_bytes, a));
                strv_push(&argv, v->vg_name);
                for (size_t k = 0; k < v->n_members; k++)
                        strv_push(&argv, OBJ(c, v->members[k])->dev);
                size_t vs = add_step(c, STEP_VGCREATE, i,
                                     xasprintf("VG %s, extent %s", v->vg_name, fmt_size_exact(v->extent_bytes, b)));
                pl->steps[vs].argv = argv;
                for (size_t k = 0; k < v->n_members; k++) {
                        pl->steps[vs].deps = xrealloc(pl->steps[vs].deps, (pl->steps[vs].n_deps + 1) * sizeof(size_t));
                        pl->steps[vs].deps[pl->steps[vs].n_deps++] = pvsteps[k];
                }
                free(pvsteps);
                c->creator[i] = vs;

                size_t prev = vs;
                for (size_t j = 0; j < pl->n_objs; j++) {
                        struct pl_obj *l = OBJ(c, j);
                        if (l->kind != OBJ_LV || l->parent != i)
                                continue;
                        const struct p_lv *plv = NULL;
                        for (size_t q = 0; q < c->p->n_vgs; q++)
                                if (streq_ptr(c->p->vgs[q].id, v->ref))
                                        for (size_t r = 0; r < c->p->vgs[q].n_lvs; r++)
                                                if (streq_ptr(c->p->vgs[q].lvs[r].name, l->lv_name))
                                                        plv = &c->p->vgs[q].lvs[r];
                        char **la = NULL;
                        lvm_argv(c, &la, "lvcreate");
                        strv_push(&la, "--yes");
                        strv_push(&la, "--wipesignatures=y");
                        strv_push(&la, "--zero=y");
                        strv_pushf(&la, "--name=%s", l->lv_name);
                        if (plv && plv->size.kind == SIZE_BYTES)
                                strv_pushf(&la, "--size=%" PRIu64 "b", plv->size.bytes);
                        else if (plv)
                                strv_pushf(&la, "--extents=%u%%%s", plv->size.percent,
                                           plv->size.kind == SIZE_PERCENT_FREE ? "FREE" : "VG");
                        if (l->stripes >= 2) {
                                strv_pushf(&la, "--stripes=%u", l->stripes);
                                strv_pushf(&la, "--stripesize=%s", fmt_size_exact(l->stripe_bytes, a));
                        }
                        if (l->tune.read_ahead_kb >= 0) /* lvcreate -r counts 512-byte sectors */
                                strv_pushf(&la, "--readahead=%" PRId64, l->tune.read_ahead_kb * 2);
                        strv_push(&la, v->vg_name);
                        size_t s = add_step(c, STEP_LVCREATE, j,
                                            xasprintf("LV %s/%s%s", v->vg_name, l->lv_name,
                                                      l->stripes >= 2 ? " striped" : ""));
                        pl->steps[s].argv = la;
                        pl->steps[s].deps = xmalloc(sizeof(size_t));
                        pl->steps[s].deps[0] = prev;
                        pl->steps[s].n_deps = 1;
                        prev = s;
                        c->creator[j] = s;
                }
        }

        /* filesystems */
        for (size_t i = 0; i < pl->n_objs; i++) {
                struct pl_obj *f = OBJ(c, i);
                if (f->kind != OBJ_FS || f->preserve || f->parent == NO_OBJ)
                        continue;
                const struct p_xfs *pf = NULL;
                for (size_t k = 0; k < c->p->n_fss; k++)
                        if (c->p->fss[k].line == f->line)
                                pf = &c->p->fss[k];
                char **argv = NULL;
                strv_push(&argv, "mkfs.xfs");
                if (f->label) {
                        strv_push(&argv, "-L");
                        strv_push(&argv, f->label);
                }
                strv_push(&argv, "-m");
                strv_pushf(&argv, "uuid=%s", f->uuid);
                xfs_stripe_args(&f->geom, &argv);
                char **extra = pf ? strv_split(pf->mkfs_options, " \t") : NULL;
                for (size_t k = 0; extra && extra[k]; k++)
                        strv_push(&argv, extra[k]);
                strv_free(extra);
                strv_push(&argv, f->dev);
                size_t s = add_step(c, STEP_MKFS, i,
                                    xasprintf("XFS on %s%s%s", f->dev, f->mountpoint ? " for " : "",
                                              f->mountpoint ? f->mountpoint : ""));
                pl->steps[s].argv = argv;
                step_dep(c, s, f->parent);
                c->creator[i] = s;
        }

        /* live tuning: scheduler first (switching it resets nr_requests) */
        for (size_t i = 0; i < pl->n_objs; i++) {
                struct pl_obj *o = OBJ(c, i);
                struct pl_tune *t = &o->tune;
                char v[32];
                if (!t->line || !o->dev)
                        continue;
                if (t->scheduler)
                        sysfs_step(c, i, "queue/scheduler", t->scheduler);
                if (t->nr_requests >= 0)
                        sysfs_step(c, i, "queue/nr_requests", (snprintf(v, sizeof v, "%" PRId64, t->nr_requests), v));
                if (t->max_sectors_kb >= 0)
                        sysfs_step(c, i, "queue/max_sectors_kb",
                                   (snprintf(v, sizeof v, "%" PRId64, t->max_sectors_kb), v));
                if (t->read_ahead_kb >= 0)
                        sysfs_step(c, i, "queue/read_ahead_kb", (snprintf(v, sizeof v, "%" PRId64, t->read_ahead_kb), v));
                if (t->stripe_cache_size >= 0)
                        sysfs_step(c, i, "md/stripe_cache_size",
                                   (snprintf(v, sizeof v, "%" PRId64, t->stripe_cache_size), v));
                if (t->safe_mode_delay)
                        sysfs_step(c, i, "md/safe_mode_delay", t->safe_mode_delay);
        }

        /* live writeback settings, in profile order (the last of a ratio/bytes pair wins) */
        for (size_t i = 0; i < pl->n_sysctls; i++) {
                const struct pl_sysctl *k = &pl->sysctls[i];
                size_t st = add_step(c, STEP_SYSCTL, NO_OBJ, xasprintf("sysctl %s = %s", k->key, k->value));
                pl->steps[st].attr = xstrdup(k->key);
                pl->steps[st].value = xstrdup(k->value);
        }
}

/* ---- identities and files -------------------------------------------------- */

static void assign_identities(struct ctx *c)
{
        struct plan *pl = c->pl;
        if (c->o->seed_set) {
                pl->seed = c->o->seed;
                pl->seed_src = SRC_PROFILE;
        } else {
                /* reproducible on this node (re-runs and resumes find the same UUIDs), different across nodes */
                uint64_t h = fnv1a(UINT64_C(0xcbf29ce484222325), c->p->name);
                for (size_t i = 0; i < pl->n_objs; i++) {
                        struct pl_obj *o = OBJ(c, i);
                        if (o->kind != OBJ_DISK)
                                continue;
                        h = fnv1a(h, o->bd->wwn);
                        h = fnv1a(h, o->bd->serial);
                        h = fnv1a(h, o->bd->id_path);
                        h = fnv1a(h, o->bd->name);
                }
                pl->seed = h;
                pl->seed_src = SRC_DERIVED;
        }
        for (size_t i = 0; i < pl->n_objs; i++) {
                struct pl_obj *o = OBJ(c, i);
                if (o->kind == OBJ_MD)
                        o->uuid = uuid_mdadm(pl->seed, o->id);
                else if (o->kind == OBJ_FS)
                        o->uuid = uuid_rfc(pl->seed, o->id);
        }
}

static void add_file(struct plan *pl, enum file_kind kind, const char *path, char *content)
{
        pl->files = xrealloc(pl->files, (pl->n_files + 1) * sizeof(*pl->files));
        pl->files[pl->n_files++] = (struct pl_file){.kind = kind, .path = xstrdup(path), .content = content, .mode = 0644};
}

static void build_files(struct ctx *c)
{
        struct plan *pl = c->pl;
        const struct plan_options *o = c->o;
        pl->fstab_path = xstrdup(o->fstab ? o->fstab : "/etc/fstab");
        pl->udev_rules_path = xstrdup(o->udev_rules ? o->udev_rules : "/etc/udev/rules.d/70-storprov.rules");
        pl->sysctl_path = xstrdup(o->sysctl_conf ? o->sysctl_conf : "/etc/sysctl.d/80-storprov.conf");
        pl->mdadm_conf_path = xstrdup(o->mdadm_conf ? o->mdadm_conf : "/etc/mdadm/mdadm.conf");

        bool any_fs = false, any_md = false, any_tune = false;
        for (size_t i = 0; i < pl->n_objs; i++) {
                any_fs |= pl->objs[i].kind == OBJ_FS && pl->objs[i].mountpoint;
                any_md |= pl->objs[i].kind == OBJ_MD;
                any_tune |= pl->objs[i].tune.line != 0;
        }
        if (any_fs)
                add_file(pl, FILE_FSTAB, pl->fstab_path, render_fstab(pl, NULL, NULL));
        if (any_tune)
                add_file(pl, FILE_UDEV, pl->udev_rules_path, render_udev_rules(pl));
        if (pl->n_sysctls)
                add_file(pl, FILE_SYSCTL, pl->sysctl_path, render_sysctl(pl));
        if (any_md)
                add_file(pl, FILE_MDADM, pl->mdadm_conf_path, render_mdadm_conf(pl, NULL, NULL));
}

int plan_build(const struct profile *p, const struct sysinfo *si, const struct plan_options *o, struct plan *ret,
               struct diags *d)
{
        struct plan pl = {
                .profile_name = xstrdup(p->name),
                .profile_path = xstrdup(p->path),
                .mem_total_bytes = si->mem_total_bytes,
        };
        struct ctx c = {.p = p, .si = si, .o = o, .pl = &pl, .d = d};
        size_t errors_before = diags_errors(d);

        check_unique_names(&c);
        plan_disks(&c);
        plan_mds(&c);
        plan_vgs(&c);
        plan_fss(&c);
        check_tuning(&c);
        check_sysctls(&c);
        for (size_t i = 0; i < pl.n_objs; i++)
                if ((pl.objs[i].kind == OBJ_PART || pl.objs[i].kind == OBJ_LV || pl.objs[i].kind == OBJ_MD) &&
                    !pl.objs[i].used && !pl.objs[i].preserve)
                        warn(&c, pl.objs[i].line, pl.objs[i].what, "unused",
                             "%s %s is created but nothing uses it (no md, vg or xfs names it)",
                             obj_kind_name(pl.objs[i].kind), pl.objs[i].id);
        assign_identities(&c);
        build_steps(&c);
        build_files(&c);
        free(c.creator);
        strv_free(c.failed_groups);

        if (diags_errors(d) > errors_before) {
                plan_free(&pl);
                return -EINVAL;
        }
        *ret = pl;
        return 0;
}

void plan_free(struct plan *pl)
{
        for (size_t i = 0; i < pl->n_objs; i++) {
                struct pl_obj *o = &pl->objs[i];
                free(o->ref);
                free(o->id);
                free(o->dev);
                free(o->what);
                free(o->udev_key);
                free(o->udev_value);
                free(o->geom_why);
                free(o->part_name);
                free(o->members);
                free(o->md_name);
                free(o->md_metadata);
                free(o->md_bitmap);
                free(o->uuid);
                free(o->vg_name);
                free(o->lv_name);
                free(o->label);
                free(o->mountpoint);
                free(o->mount_options);
                free(o->tune.scheduler);
                free(o->tune.safe_mode_delay);
        }
        for (size_t i = 0; i < pl->n_steps; i++) {
                struct pl_step *s = &pl->steps[i];
                free(s->desc);
                strv_free(s->argv);
                for (size_t k = 0; k < s->n_parts; k++)
                        free(s->parts[k].name);
                free(s->parts);
                free(s->attr);
                free(s->value);
                free(s->deps);
        }
        for (size_t i = 0; i < pl->n_files; i++) {
                free(pl->files[i].path);
                free(pl->files[i].content);
        }
        for (size_t i = 0; i < pl->n_sysctls; i++) {
                free(pl->sysctls[i].key);
                free(pl->sysctls[i].value);
        }
        free(pl->objs);
        free(pl->steps);
        free(pl->files);
        free(pl->sysctls);
        free(pl->profile_name);
        free(pl->profile_path);
        free(pl->udev_rules_path);
        free(pl->sysctl_path);
        free(pl->fstab_path);
        free(pl->mdadm_conf_path);
        *pl = (struct plan){0};
}
