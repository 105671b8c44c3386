/* SPDX-License-Identifier: GPL-2.0-or-later
 * The planner: a pure function from (profile, discovered devices, options)
 * to a plan — every object with its derived geometry and where each value
 * came from, every step with the exact argv of each child command, every
 * file with its content. No I/O, no globals, no exit(). */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "discover.h"
#include "geometry.h"
#include "profile.h"
#include "util.h"

/* Where a value came from. */
enum val_source { SRC_NONE, SRC_PROFILE, SRC_DERIVED, SRC_DETECTED, SRC_DEFAULT };
const char *val_source_name(enum val_source s);

enum obj_kind { OBJ_DISK, OBJ_PART, OBJ_MD, OBJ_VG, OBJ_LV, OBJ_FS, _OBJ_KIND_MAX };
const char *obj_kind_name(enum obj_kind k);

#define NO_OBJ ((size_t)-1)

/* Resolved tuning for one block device. -1 / NULL: leave alone. */
struct pl_tune {
        int line;
        int64_t read_ahead_kb, nr_requests, max_sectors_kb, stripe_cache_size;
        char *scheduler, *safe_mode_delay;
};

struct pl_obj {
        enum obj_kind kind;
        char *ref;                /* the profile reference it answers to: "lun", "lun.data", "md0", "vg0/scratch" */
        unsigned index;           /* 1-based instance of a <disks> group (0 for single objects) */
        char *id;                 /* "lun1", "lun1.data", "md0", "vg0", "vg0/scratch", "fs:/data1" */
        char *dev;                /* "/dev/sdb", "/dev/sdb1", "/dev/md/data", "/dev/vg/lv"; NULL for VG */
        char *what;               /* profile element for messages: "disks lun", "md data", … */
        int line;                 /* profile line */
        bool preserve, wipe;

        /* OBJ_DISK */
        const struct blockdev *bd;
        char *udev_key, *udev_value;   /* stable identity: ID_WWN / ID_SERIAL / ID_PATH */
        /* every block object */
        uint64_t size_bytes;      /* 0: unknown before creation */
        uint64_t sector_bytes;    /* logical */
        uint64_t physical_sector_bytes;
        struct stripe_geom geom;
        enum val_source geom_src;
        char *geom_why;           /* "hwraid raid5, 12 x 64k (line 9)" */
        uint64_t align_bytes;     /* partition alignment on a disk; PV data alignment on a PV holder */

        /* OBJ_PART */
        size_t parent;            /* the disk (or for LV: the VG; for FS: the device) */
        unsigned partno;
        uint64_t start_bytes;
        enum part_type part_type;
        char *part_name;

        /* OBJ_MD */
        enum raid_level level;
        size_t *members;          /* md: members (spares last); VG: PVs */
        size_t n_members;
        unsigned spares;
        char *md_name;
        char *md_metadata;        /* "1.2" */
        char *md_bitmap;          /* "internal" / "none" */
        char *uuid;               /* md: mdadm form "8:8:8:8"; fs: RFC 4122 */

        /* OBJ_VG */
        char *vg_name;
        uint64_t extent_bytes;
        uint64_t pv_align_bytes;

        /* OBJ_LV */
        char *lv_name;
        unsigned stripes;
        uint64_t stripe_bytes;

        /* OBJ_FS */
        char *label, *mountpoint, *mount_options;
        uint64_t log_su_bytes;

        struct pl_tune tune;
        bool used;                /* consumed by an upper object or a filesystem */
        size_t used_by;
};

enum step_kind {
        STEP_GPT, STEP_MDADM, STEP_PVCREATE, STEP_VGCREATE, STEP_LVCREATE, STEP_MKFS, STEP_SYSFS, STEP_SYSCTL,
        _STEP_KIND_MAX
};
const char *step_kind_name(enum step_kind k);

struct pl_part {
        unsigned number;
        uint64_t first_sector, last_sector;   /* in the disk's logical sectors, inclusive */
        uint64_t start_bytes, size_bytes;
        enum part_type type;
        char *name;
        size_t obj;
};

struct pl_step {
        enum step_kind kind;
        size_t obj;               /* the object this step creates or tunes */
        char *desc;
        char **argv;              /* child command; NULL for STEP_GPT (libparted) and STEP_SYSFS */
        /* STEP_GPT */
        struct pl_part *parts;
        size_t n_parts;
        /* STEP_SYSFS: attribute of the block device of obj; STEP_SYSCTL: the key (obj is NO_OBJ) */
        char *attr, *value;
        /* steps that must finish first (indices into plan.steps) */
        size_t *deps;
        size_t n_deps;
};

enum file_kind { FILE_FSTAB, FILE_UDEV, FILE_SYSCTL, FILE_MDADM, _FILE_KIND_MAX };

struct pl_file {
        enum file_kind kind;
        char *path;               /* absolute, on the target root */
        char *content;            /* the full file on an empty root; fstab and mdadm.conf are merged */
        unsigned mode;
};

struct pl_sysctl {
        int line;
        char *key, *value;
};

struct plan_options {
        const char *sysroot;      /* for messages */
        uint64_t seed;
        bool seed_set;
        const char *mdadm_conf;   /* default "/etc/mdadm/mdadm.conf" */
        const char *udev_rules;   /* default "/etc/udev/rules.d/70-storprov.rules" */
        const char *sysctl_conf;  /* default "/etc/sysctl.d/80-storprov.conf" */
        const char *fstab;        /* default "/etc/fstab" */
        const char *lvm_config;   /* lvm --config text */
};

struct plan {
        char *profile_name, *profile_path;
        uint64_t seed;
        enum val_source seed_src;
        uint64_t mem_total_bytes;
        uint64_t queue_mem_bytes; /* what the queue-depth tuning may pin */
        struct pl_obj *objs;   size_t n_objs;
        struct pl_step *steps; size_t n_steps;
        struct pl_file *files; size_t n_files;
        struct pl_sysctl *sysctls; size_t n_sysctls;
        char *udev_rules_path, *sysctl_path, *fstab_path, *mdadm_conf_path;
};

/* Builds the plan. Returns 0, or -EINVAL with errors in d (warnings are added
 * in both cases). Nothing is read or written. */
int plan_build(const struct profile *p, const struct sysinfo *si, const struct plan_options *o,
               struct plan *ret, struct diags *d);
void plan_free(struct plan *pl);

/* Output (plan_output.c). */
char *plan_format_text(const struct plan *pl);
char *plan_format_json(const struct plan *pl);

/* "vg-lv" with dashes doubled, as device-mapper names LVs. */
char *dm_name(const char *vg, const char *lv);
