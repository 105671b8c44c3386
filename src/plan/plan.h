/* SPDX-License-Identifier: GPL-2.0-or-later
 * src/plan/: the pure planner: a profile and a machine in, a closed plan out (no I/O, no globals).
 * The plan: a closed model of what storprov will build. plan_build() is a
 * pure function from (profile, discovered devices, options) to a plan:
 * every object with its derived geometry and where each value came from,
 * every step with the exact argv of each child command. Which files it
 * writes, and where, render/file_ops.c lists from the plan alone
 * (file_ops_list). After plan_build() nothing reads the profile: renderers,
 * outputs and apply take the plan alone. No I/O, no globals, no exit(). */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "discover/controller.h"
#include "discover/discover.h"
#include "plan/geometry.h"
#include "input/profile.h"
#include "discover/state.h"
#include "input/tune.h"
#include "base/util.h"

/* Where a value came from. */
enum val_source { SRC_NONE, SRC_PROFILE, SRC_DERIVED, SRC_DETECTED, SRC_DEFAULT, SRC_CONTROLLER };
const char *val_source_name(enum val_source s);

enum obj_kind { OBJ_DISK, OBJ_PART, OBJ_MD, OBJ_VG, OBJ_LV, OBJ_FS, _OBJ_KIND_MAX };
const char *obj_kind_name(enum obj_kind k);

#define NO_OBJ ((size_t)-1)

/* An identity as planned beside the one found on disk (systemd-repart's
 * new_/current_ pairs). A preserved object, or one an earlier run created,
 * keeps what is there; everything that prints or writes an identity uses
 * ident_get(), so plan, render and apply agree. */
struct pl_ident {
        char *planned;            /* derived from the seed: what a new object gets */
        char *found;              /* on disk (udev database at discovery, libblkid at apply), NULL: not known */
};
const char *ident_get(const struct pl_ident *id);
void ident_set_found(struct pl_ident *id, const char *found);

struct pl_disk {
        const struct blockdev *bd;
        char *udev_key, *udev_value;   /* identity for rules: ID_WWN / ID_SERIAL / ID_PATH / wwid / KERNEL */
        char *udev_why;                /* the keys passed over and why (plan/udevid.c), NULL: the first */
        char *gpt_guid;           /* the planned GPT disk GUID (partitioned, not preserved), NULL otherwise */
        /* multipath="true": the disk is the LUN's dm-multipath map; bd is the map when it exists, else
         * paths[0]. udev_key/value are then DM_UUID / "mpath-WWID" (the map's rule). */
        const struct blockdev **paths;  /* the LUN's path devices, by kernel name */
        size_t n_paths;
        char *mpath_wwid;         /* NULL: not a multipath disk */
        char *mpath_alias;        /* the alias multipath.conf gives the map ("lun1") */
        bool mpath_create;        /* no map yet: apply creates it (STEP_MPATH) */
        char *path_udev_key, *path_udev_value;   /* the paths' rule: ID_WWN / ID_SERIAL, NULL: not persisted */
        char *path_udev_why;                     /* the keys passed over: shared with other devices */
        uint64_t request_limit_kb;     /* parity LUN: the largest request of 4 KiB pages it takes, 0: not known */
        char *missing;                 /* verify: a recorded disk that is gone (bd NULL), and why; NULL: there */
        bool stripe_split;             /* parity LUN: its full stripe is above request_limit_kb */
        enum ctl_cache cache;          /* hardware RAID LUN: its write cache, from <hwraid from="controller"/>
                                        * (CTL_CACHE_UNSAID for a declared <hwraid>) */
};

struct pl_partition {
        unsigned number;
        uint64_t start_bytes;
        enum part_type type;
        char *name;               /* GPT partition name */
        char *guid;               /* the planned unique partition GUID */
};

struct pl_md {
        enum raid_level level;
        size_t *members;          /* objects, spares last */
        size_t n_members;
        unsigned spares;
        char *name;               /* /dev/md/NAME */
        char *metadata;           /* "1.2" */
        char *bitmap;             /* "internal" / "none" */
        char *layout, *parity;    /* as the profile gives them, NULL: mdadm's default */
        uint64_t chunk_bytes;     /* what --chunk gets (KiB in argv); 0 on raid1 */
        uint64_t data_align_bytes;  /* the members' data must start on a multiple of this
                                     * (lcm(1 MiB, their full stripe)); 0: mdadm's 1 MiB */
        uint64_t data_offset_bytes; /* what --data-offset gets (KiB in argv); 0: mdadm's own */
        struct pl_ident uuid;     /* mdadm form "8:8:8:8" */
};

struct pl_vg {
        char *name;
        size_t *pvs;              /* objects */
        size_t n_pvs;
        uint64_t extent_bytes;
        uint64_t pv_align_bytes;  /* pvcreate --dataalignment */
};

struct pl_size {
        enum size_kind kind;
        uint64_t bytes;           /* SIZE_BYTES */
        unsigned percent;         /* SIZE_PERCENT(_FREE) */
        char *text;               /* as written, for messages */
};

struct pl_lv {
        char *name;
        unsigned stripes;         /* 0 or 1: linear */
        uint64_t stripe_bytes;    /* lvcreate --stripesize */
        struct pl_size size;
};

struct pl_fs {
        char *label, *mountpoint, *mount_options;
        char **mkfs_extra;        /* the profile's mkfs-options, split */
        uint64_t log_su_bytes;
        struct pl_ident uuid;     /* RFC 4122 */
        bool nofail;              /* boot-critical="false": fstab adds nofail */
        bool system;              /* system="true": may take the OS's own mountpoints */
};

struct pl_obj {
        enum obj_kind kind;
        char *ref;                /* the profile reference it answers to: "lun", "lun.data", "md0", "vg0/scratch" */
        unsigned index;           /* 1-based instance of a <disks> group (0 for single objects) */
        char *id;                 /* "lun1", "lun1.data", "md0", "vg0", "vg0/scratch", "fs:/data1" */
        char *dev;                /* "/dev/sdb", "/dev/sdb1", "/dev/md/data", "/dev/vg/lv"; NULL for a VG */
        char *what;               /* profile element for messages: "disks lun", "md data", … */
        int line;                 /* profile line */
        bool preserve, wipe;

        /* every block object */
        uint64_t size_bytes;      /* 0: unknown before creation */
        uint64_t sector_bytes;    /* logical */
        uint64_t physical_sector_bytes;
        struct stripe_geom geom;
        enum val_source geom_src;
        char *geom_why;           /* "hwraid raid5, 12 x 64k (line 9)" */
        uint64_t align_bytes;     /* where partitions laid on this object start: lcm(1 MiB, full stripe, sector) */
        size_t parent;            /* partition: its disk; LV: its VG; filesystem: its device */
        bool used;                /* consumed by an md, a VG or a filesystem */
        size_t used_by;
        struct tune_set tune;

        /* by kind */
        struct pl_disk disk;      /* OBJ_DISK */
        struct pl_partition part; /* OBJ_PART */
        struct pl_md md;          /* OBJ_MD */
        struct pl_vg vg;          /* OBJ_VG */
        struct pl_lv lv;          /* OBJ_LV */
        struct pl_fs fs;          /* OBJ_FS */
};

/* The identity an md or a filesystem is known by (found before planned), or NULL. */
const char *obj_uuid(const struct pl_obj *o);

enum step_kind {
        STEP_GPT, STEP_MDADM, STEP_PVCREATE, STEP_VGCREATE, STEP_LVCREATE, STEP_MKFS, STEP_SYSFS, STEP_SYSCTL,
        STEP_MPATH, _STEP_KIND_MAX
};
const char *step_kind_name(enum step_kind k);

struct pl_part {
        unsigned number;
        uint64_t first_sector, last_sector;   /* in the disk's logical sectors, inclusive */
        uint64_t start_bytes, size_bytes;
        enum part_type type;
        char *name;
        char *guid;               /* the planned unique partition GUID */
        size_t obj;
};

struct pl_step {
        enum step_kind kind;
        size_t obj;               /* the object this step creates or tunes; NO_OBJ for a sysctl */
        char *desc;
        char **argv;              /* child command; NULL for STEP_GPT (libparted), STEP_SYSFS and STEP_SYSCTL */
        /* STEP_GPT */
        char *disk_guid;          /* the planned disk GUID */
        struct pl_part *parts;
        size_t n_parts;
        /* STEP_SYSFS: the tune attribute of obj's block device; STEP_SYSCTL: the key */
        enum tune_attr attr;
        char *key, *value;
        char *path_kname;         /* STEP_SYSFS on a multipath disk: the path ("sdb") it tunes; NULL: obj's own device */
        /* steps that must finish first (indices into plan.steps) */
        size_t *deps;
        size_t n_deps;
};

/* The config files a plan writes, one kind each. Everything about a kind
 * (its path, when a plan writes it, its renderer, SELinux type, whether it is
 * merged or owned whole) is its row in render/file_ops.c, which also lists the
 * plan's files (file_ops_list) once plan_build is done. A new kind: a value
 * here, its row there, and its renderer's file in render/. */
enum file_kind {
        FILE_FSTAB, FILE_UDEV, FILE_SYSCTL, FILE_MDADM, FILE_MULTIPATH, FILE_MPATH_WWIDS, FILE_TUNED, FILE_STATE,
        _FILE_KIND_MAX
};

/* --tuning: where the persistent tuning goes. udev: udev rules and sysctl.d
 * (the default); tuned: a tuned profile for what tuned's disk and sysctl
 * plugins can set on a device they can key safely, udev rules for the rest,
 * no sysctl.d file; both: the same split for the devices, the sysctls in
 * sysctl.d. Every value is written in exactly one file (render/tuned.h). */
enum tuning_mode { TUNING_UDEV, TUNING_TUNED, TUNING_BOTH };

struct pl_file {
        enum file_kind kind;
        char *path;               /* absolute, on the target root */
        unsigned mode;
};

struct pl_sysctl {
        int line;
        char *key, *value;
};

struct plan_options {
        const char *sysroot;      /* for messages */
        char *const *os_disks;    /* --os-disks, as given (any spelling, globs); NULL: none */
        uint64_t seed;
        bool seed_set;
        bool seed_recorded;       /* the seed is the node's recorded one (discover/state.h), not --seed */
        const struct node_state *state;  /* the node's recorded state, NULL: none */
        bool verify;              /* for verify: a recorded disk that is gone is planned as missing */
        const char *tuned_include; /* the profile tuned.conf includes; default "throughput-performance" */
        enum tuning_mode tuning;
        const char *tuning_why;   /* where the mode came from, for reports ("recorded in …"), NULL: --tuning or default */
        const char *lvm_config;   /* lvm --config text */
};

/* A disk storprov never selects nor writes: the running system's (mounted at /,
 * swap, what it booted from), or named as an OS disk by a system="true" group or
 * --os-disks. Data groups select around them. */
enum { SYSDISK_FOUND = 1 << 0, SYSDISK_GROUP = 1 << 1, SYSDISK_OS_DISKS = 1 << 2 };
struct pl_sysdisk {
        const struct blockdev *bd;       /* the disk; a multipath LUN: its map when there is one, else its first path */
        const struct blockdev **paths;   /* a multipath LUN's paths (NULL: a plain disk) */
        size_t n_paths;
        unsigned how;                    /* SYSDISK_* */
        char *why;                       /* every reason, "; "-joined */
        char *ks_name;                   /* its name in the kickstart include; NULL: not an OS disk (found only) */
        char *group;                     /* the system group that selected it, NULL: none */
        int line;                        /* that group's line */
};

struct plan {
        char *profile_name, *profile_path;
        uint64_t seed;
        enum val_source seed_src;
        char *lvm_config;         /* lvm --config text every lvm call carries, NULL: none */
        uint64_t mem_total_bytes;
        uint64_t queue_mem_bytes; /* what the queue-depth tuning may pin */
        struct pl_obj *objs;   size_t n_objs;
        struct pl_step *steps; size_t n_steps;
        struct pl_file *files; size_t n_files;   /* listed by render/file_ops.c (file_ops_list) */
        struct pl_sysctl *sysctls; size_t n_sysctls;
        /* every file kind's path on the target, absolute, whether this plan
         * writes it or not (a file it no longer writes is removed there);
         * set with files */
        char *file_path[_FILE_KIND_MAX];
        char *tuned_include;      /* the tuned profile(s) the storprov profile builds on, ","-separated */
        enum tuning_mode tuning;
        char *tuning_why;         /* plan_options.tuning_why, or "the default" / "--tuning" */
        struct pl_sysdisk *sysdisks; size_t n_sysdisks;   /* in order: --os-disks, system groups, found */
};

/* Builds the plan. Returns 0, or -EINVAL with errors in d (warnings are added
 * in both cases). Nothing is read or written. */
int plan_build(const struct profile *p, const struct sysinfo *si, const struct plan_options *o,
               struct plan *ret, struct diags *d);
void plan_free(struct plan *pl);

/* Output (output.c): the plan, with every file as it would be written on an empty root. */
char *plan_format_text(const struct plan *pl);
char *plan_format_json(const struct plan *pl);
/* The same JSON, written element by element: never held whole. */
void plan_write_json(const struct plan *pl, FILE *f);

/* Selection (plan/select.c): the rules of a <match> a device fails (0: it matches). */
enum {
        MATCH_VENDOR = 1 << 0, MATCH_MODEL = 1 << 1, MATCH_SERIAL = 1 << 2, MATCH_WWN = 1 << 3, MATCH_PATH = 1 << 4,
        MATCH_NAME = 1 << 5, MATCH_MIN_SIZE = 1 << 6, MATCH_MAX_SIZE = 1 << 7, MATCH_ROTATIONAL = 1 << 8,
};
unsigned match_failures(const struct p_match *m, const struct blockdev *b);
/* "\n    sdd fails only model=\"9550SX*\" (it is \"9650SE\")" for every input disk not
 * claimed (claimed may be NULL) that fails exactly one rule of m; NULL: none. */
char *match_near_misses(const struct p_match *m, const struct sysinfo *si, const bool *claimed);
/* A drive or LUN storprov may provision (md and dm devices are its outputs). */
bool disk_is_input(const struct blockdev *b);

/* Multipath LUNs (plan/select.c): the input devices of si grouped by their
 * mpath_wwid (each LUN once, whatever its path count), with the map that
 * holds them when there is one. Devices claimed[] are left out. */
struct mpath_lun {
        const char *wwid;         /* borrowed from the paths' blockdev */
        size_t *paths;            /* indices into si->devs, in name order */
        size_t n_paths;
        size_t map;               /* index of the dm map, or NO_OBJ */
};
size_t mpath_luns(const struct sysinfo *si, const bool *claimed, struct mpath_lun **ret);
void mpath_luns_free(struct mpath_lun *l, size_t n);
/* The rules of m a LUN fails: path= and name= need one path to fit, the rest every path. */
unsigned mpath_lun_failures(const struct p_match *m, const struct sysinfo *si, const struct mpath_lun *l);
/* "3600a0b8… (paths sdb, sdc; map dm-0 \"mpatha\")", the WWID as comment text. */
char *mpath_lun_describe(const struct sysinfo *si, const struct mpath_lun *l);
/* Does every <disks> group of p find exactly its count on si (system="true" groups
 * first, then the rest in profile order, none taking a disk the running system
 * uses)? Returns 0, or -1
 * with the failed rules and near misses in ret_misses (may be NULL) and the
 * total count difference in ret_distance. */
int profile_select(const struct profile *p, const struct sysinfo *si, char ***ret_misses, unsigned *ret_distance);

/* "vg-lv" with dashes doubled, as device-mapper names LVs. */
char *dm_name(const char *vg, const char *lv);
