/* SPDX-License-Identifier: GPL-2.0-or-later
 * src/input/: what the profile says: XML and schema, attribute rules, value checks, RAID levels, tuning; node state.
 * Profile: the XML description of what the hardware is and what it is for.
 * This is the only layer that includes libxml2. Loading validates the
 * structure against the RELAX NG schema (profiles/storprov.rng, built into
 * the binary) and converts values; rules that relate objects to each other
 * belong to the planner. Every element keeps its source line. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "input/raid.h"
#include "input/tune.h"
#include "base/util.h"


struct p_match {
        int line;
        char *vendor, *model, *serial, *wwn, *path, *name;  /* fnmatch globs, NULL: any */
        uint64_t min_size_bytes, max_size_bytes;            /* 0: no bound */
        int rotational;                                     /* -1 any, 0, 1 */
};

struct p_hwraid {
        int line;                 /* 0: not declared */
        bool from_controller;     /* from="controller": the controller's VD says, not the fields below */
        enum raid_level level;
        unsigned members, legs;
        uint64_t chunk_bytes;
};

enum size_kind { SIZE_BYTES, SIZE_PERCENT, SIZE_PERCENT_FREE };
struct p_size {
        enum size_kind kind;
        uint64_t bytes;           /* SIZE_BYTES */
        unsigned percent;         /* SIZE_PERCENT(_FREE): 1..100 */
        char *text;               /* as written */
};

enum part_type { PART_AUTO, PART_LINUX, PART_RAID, PART_LVM };
struct p_partition {
        int line;
        char *id, *name;
        struct p_size size;
        enum part_type type;
};

struct p_disks {
        int line;
        char *id;
        unsigned count;
        bool wipe, preserve;
        bool multipath;           /* multipath="true": each LUN is one disk, its dm-multipath map, whatever its paths */
        bool system;              /* system="true": the OS disks; selected first, never written, handed to the installer */
        struct p_match match;
        struct p_hwraid hwraid;
        struct tune_set tune;
        bool gpt;                 /* partitioned; otherwise the whole disk is used */
        struct p_partition *parts;
        size_t n_parts;
};

struct p_md {
        int line;
        char *id, *name;
        enum raid_level level;
        char **devices;           /* references */
        uint64_t chunk_bytes;     /* 0: unset */
        int chunk_line;
        char *metadata, *bitmap, *layout, *parity;   /* NULL: unset */
        unsigned spares;
        bool wipe, preserve;
        struct tune_set tune;
        bool gpt;                 /* partitioned (<gpt>): partitions MDID.PARTID */
        struct p_partition *parts;
        size_t n_parts;
};

struct p_lv {
        int line;
        char *name;
        struct p_size size;
        unsigned stripes;         /* 0: unset (linear) */
        uint64_t stripe_bytes;    /* 0: unset */
        struct tune_set tune;
};

struct p_vg {
        int line;
        char *id, *name;
        char **pvs;               /* references */
        uint64_t data_alignment_bytes;   /* pvcreate --dataalignment; 0: derived */
        uint64_t extent_bytes;    /* vgcreate --physicalextentsize; 0: derived */
        bool wipe, preserve;
        struct p_lv *lvs;
        size_t n_lvs;
};

struct p_xfs {
        int line;
        char **on;                /* references (usually one) */
        char *label, *mountpoint; /* may hold %n for per-disk expansion */
        char *mkfs_options, *mount_options;
        bool preserve;
        bool boot_critical;       /* default true; boot-critical="false": fstab gets nofail */
        bool system;              /* system="true": may mount on the OS's own mountpoints (/, /var, ...) */
        int swalloc;              /* swalloc="true" 1, "false" 0, unset -1: on parity stripes */
        int log_stripe_unit;      /* log-stripe-unit="true" 1, "false" 0, unset -1: not on parity stripes */
};

struct p_sysctl {
        int line;
        char *key, *value;
};

struct p_allow {
        int line;
        char *rule, *reason;
};

struct profile {
        char *path;               /* as given, for messages */
        char *name;
        char *description;
        struct p_disks *disks;    size_t n_disks;
        struct p_md *mds;         size_t n_mds;
        struct p_vg *vgs;         size_t n_vgs;
        struct p_xfs *fss;        size_t n_fss;
        struct p_sysctl *sysctls; size_t n_sysctls;
        struct p_allow *allows;   size_t n_allows;
};

/* Parses and validates FILE. On failure returns -EINVAL (or -errno when the file
 * cannot be read) with every problem in d, each naming file:line. */
int profile_load(const char *path, struct profile *ret, struct diags *d);
/* The cheap load for select: FILE parsed as XML (size, element count and
 * DOCTYPE limits kept) with only its <disks> groups and their <match> read,
 * no schema and no other attribute checked. -EINVAL/-errno as profile_load
 * when it is no XML; 1 when a <disks> or <match> attribute does not parse
 * (the match cannot be told: validate it); 0 otherwise. A profile it returns
 * is fit for profile_select only; one that may match is then profile_load()ed. */
int profile_load_match(const char *path, struct profile *ret, struct diags *d);
void profile_free(struct profile *p);
bool profile_allows(const struct profile *p, enum rule_id rule);

/* The schema text built into the binary (NUL-terminated). */
extern const char storprov_schema_rng[];
