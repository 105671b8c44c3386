/* SPDX-License-Identifier: GPL-2.0-or-later
 * The planner's own state and helpers, shared by the files of src/plan/ and
 * by nothing else. Derivation (disks, md, lvm, xfs, checks) reads the
 * profile; identities, steps and files read only what derivation put in the
 * plan. */
#pragma once

#include "plan/plan.h"

/* Appended to a straddle refusal over members whose stripe is only exported
 * (plan/disks.c plans such a stripe as parity, the safe choice). */
#define HINT_PARITY_NOTE                                                                                        \
        " (the devices below only export this stripe, and storprov plans an exported stripe as parity; if "  \
        "they have none, say so with <hwraid level=\"0\" .../> on their <disks>)"

/* Queue depth tuning may pin at most this fraction of MemTotal in requests:
 * nr_requests × max_sectors_kb × hardware queues, summed over the devices
 * the profile tunes. Seed 000: 8192 × 512 KiB on a 4 GiB node pinned ~3.5 GiB
 * and took the machine down; the kernel default (128 … 256 × ≤1280 KiB) stays
 * far below. One eighth leaves the page cache and dirty limits room. */
#define QUEUE_MEM_FRACTION_DEN 8

#define DEFAULT_MD_CHUNK_BYTES (512 * KiB)   /* mdadm's own default, passed explicitly */
#define DEFAULT_LV_STRIPE_BYTES (64 * KiB)   /* lvcreate's default -I */
#define BLK_DEFAULT_MAX_SEGMENTS 128          /* the block layer's queue/max_segments when a driver sets none */

struct ctx {
        const struct profile *p;  /* derivation only */
        const struct sysinfo *si;
        const struct plan_options *o;
        struct plan *pl;
        struct diags *d;
        size_t *creator;          /* per object: the step that creates it, NO_OBJ if it exists */
        size_t n_creator;
        char **failed_groups;     /* <disks> ids whose selection failed: references to them are not reported again */
        size_t *sys_of;           /* per device of si: its entry in pl->sysdisks, NO_OBJ: none */
};

#define OBJ(c, i) (&(c)->pl->objs[(i)])

void plan_err(struct ctx *c, int line, const char *what, enum rule_id rule, const char *fmt, ...)
        __attribute__((format(printf, 5, 6)));
void plan_warn(struct ctx *c, int line, const char *what, enum rule_id rule, const char *fmt, ...)
        __attribute__((format(printf, 5, 6)));

size_t new_obj(struct ctx *c, enum obj_kind kind, const char *ref, unsigned index, const char *id, const char *what,
               int line);
/* Resolves a list of references to block objects and claims them for `user`. */
size_t resolve_blocks(struct ctx *c, char **refs, size_t user, const char *attrname, int line, const char *what,
                      size_t **ret);
bool same_geom(const struct stripe_geom *a, const struct stripe_geom *b);
void set_member_type(struct ctx *c, size_t obj, enum part_type t);
/* The object whose block device is `obj`'s (a filesystem's target, or itself). */
const struct blockdev *obj_blockdev(const struct ctx *c, size_t obj);

/* The partitions of a <gpt> on object `disk` (a disk or an md), ids GROUP_ID.PARTID, laid on the
 * object's align_bytes inside its size_bytes. */
void plan_partitions(struct ctx *c, size_t disk, const char *group_id, const struct p_partition *parts, size_t n_parts,
                     int line);

/* md sizes before the array exists (md.c): the bytes of a member after mdadm's data offset, and
 * the array's size, both estimated from below. */
uint64_t md_data_offset_bytes(const char *metadata, uint64_t member_bytes, uint64_t chunk_bytes, uint64_t align_bytes);
uint64_t md_member_data_bytes(const char *metadata, uint64_t member_bytes, uint64_t chunk_bytes, uint64_t align_bytes);
uint64_t md_array_bytes(enum raid_level level, const char *metadata, const char *layout, unsigned active,
                        uint64_t smallest_member, uint64_t chunk_bytes, uint64_t align_bytes);

/* The phases, in the order plan_build runs them. */
void check_unique_names(struct ctx *c);
/* System disks (system.c): the running system's, --os-disks and the system="true" groups, into
 * pl->sysdisks and c->sys_of, each claimed (claimed[], per device of si) before any data group. */
void plan_system(struct ctx *c, bool *claimed);
/* Is ref (an md's devices=, a vg's pvs=, an xfs's on=) a system group or one of its disks? objects.c. */
const struct p_disks *system_group_of(const struct ctx *c, const char *ref);
/* groupsel.c: the disks of group g not claimed yet, exactly g->count of them (fewer with
 * short_ok; else an error naming the near misses). */
bool select_disks(struct ctx *c, const struct p_disks *g, const char *what, const bool *claimed, bool short_ok,
                  size_t **ret, size_t *ret_n);
/* groupsel.c: "\n    left out: …" for the system disks g's <match> fits (a count that came up short), or NULL. */
char *system_left_out(struct ctx *c, const struct p_disks *g);
/* groupsel.c: a disk as messages show it (name, vendor, model, size, serial, wwn). */
char *describe_disk(const struct blockdev *b);
/* groupsel.c: a word multipath.conf, a dm name and a udev rule all carry as it is. */
bool mpath_word_safe(const char *v);
void plan_disks(struct ctx *c);
const struct blockdev *nvme_under(struct ctx *c, size_t oi);
void warn_nvme_granularity(struct ctx *c, int line, const char *what, enum rule_id rule, const char *piece,
                           uint64_t piece_bytes, const size_t *members, size_t n);
void plan_mds(struct ctx *c);
void plan_vgs(struct ctx *c);
void plan_fss(struct ctx *c);
void check_tuning(struct ctx *c);
void check_rule_keys(struct ctx *c);
void check_sysctls(struct ctx *c);
void check_unused(struct ctx *c);
void assign_identities(struct ctx *c);
void build_steps(struct ctx *c);

/* ctlgeom.c: <hwraid from="controller"/>: disk o's geometry from the
 * controller's VD behind it (refused when none is, or it says too little);
 * and a stated <hwraid> checked against that VD (controller-mismatch). */
void controller_geometry(struct ctx *c, const struct p_disks *g, const char *what, struct pl_obj *o);
void controller_check(struct ctx *c, const struct p_disks *g, const char *what, const struct pl_obj *o);
