/* SPDX-License-Identifier: GPL-2.0-or-later
 * src/discover/: what the machine has, read-only: sysfs, the udev database, the system's own disks, device names.
 * Discovery: what block devices the machine has, read from sysfs, the udev
 * database and /proc/meminfo under a sysroot ("/" on a live system, or a
 * captured tree in tests). Read-only; knows nothing of profiles or plans. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/util.h"

struct blockpart {
        char *name;               /* "sdb1" */
        unsigned major, minor;
        char *fs_type, *fs_uuid;  /* ID_FS_TYPE, ID_FS_UUID in the udev database, NULL if not there */
        char *fs_label;           /* ID_FS_LABEL_ENC decoded (else ID_FS_LABEL), NULL if none */
        char *part_uuid, *part_name;  /* ID_PART_ENTRY_UUID, ID_PART_ENTRY_NAME (decoded), NULL if none */
        char **devlinks;          /* names below /dev that lead to it ("disk/by-id/wwn-…-part1"), see below */
};

/* How the running system itself uses a disk (struct blockdev.system_kind). */
enum {
        SYS_ROOT = 1 << 0,        /* holds /, /boot, /boot/efi, /efi, /usr or /var (also below /sysroot, /mnt/sysimage) */
        SYS_SWAP = 1 << 1,        /* active swap (proc/swaps), or resume= */
        SYS_BOOTSRC = 1 << 2,     /* what the system or installer booted from (root=, inst.stage2=hd:, inst.repo=hd:, inst.ks=hd:,
                                   * root=live:, a mount at /run/install/repo or /run/initramfs/live) */
};

struct blockdev {
        char *name;               /* kernel name: "sdb", "vda", "md127", "dm-0" */
        char *devnode;            /* "/dev/sdb" (never prefixed with the sysroot) */
        unsigned major, minor;
        bool is_partition;        /* discovery lists whole disks only; partitions go in parts[] */
        uint64_t size_bytes;      /* sys/block/X/size × 512 */
        uint32_t logical_sector_bytes;    /* queue/logical_block_size, default 512 */
        uint32_t physical_sector_bytes;   /* queue/physical_block_size, default 512 */
        uint64_t io_min_bytes;    /* queue/minimum_io_size as exported, 0 if absent */
        uint64_t io_opt_bytes;    /* queue/optimal_io_size as exported, 0 if absent */
        uint64_t alignment_offset_bytes;  /* alignment_offset */
        int rotational;           /* queue/rotational: 0, 1, or -1 unknown */
        bool removable, readonly;
        char *vendor, *model;     /* device/vendor, device/model, stripped; may be NULL */
        char *serial;             /* udev ID_SERIAL_SHORT, else ID_SERIAL, else device/serial, else sys "serial" */
        char *id_serial;          /* udev ID_SERIAL exactly (what udev rules match), may be NULL */
        char *unit_serial;        /* udev ID_SCSI_SERIAL: a SCSI unit's own serial (VPD page 0x80) where ID_SERIAL
                                   * is its WWN (scsi_id), may be NULL */
        char *wwn;                /* udev ID_WWN ("0x5000c500a1b2c3d4"), else derived from device/wwid "naa.…" as "0x…",
                                   * or an NVMe namespace's wwid ("eui.…", "nvme.…", "uuid.…", udev's ID_WWN for
                                   * it); may be NULL */
        char *wwid;               /* the kernel's device/wwid (or wwid) as read, may be NULL */
        char *id_path;            /* udev ID_PATH ("pci-0000:00:1f.2-ata-1"), may be NULL */
        /* queue limits and current tuning, 0 / NULL if the file is absent */
        uint32_t max_hw_sectors_kb, max_sectors_kb, nr_requests, read_ahead_kb;
        uint32_t max_segments, max_segment_size;  /* queue/max_segments, queue/max_segment_size (bytes) */
        char *scheduler;          /* the active one (the [bracketed] word), NULL if no queue/scheduler file */
        char **schedulers;        /* all offered, NULL-terminated, may be NULL */
        unsigned nr_hw_queues;    /* entries in sys/block/X/mq/, 1 if no mq dir */
        bool has_holders;         /* sys/block/X/holders/ not empty (md, dm on top) */
        char **parts;             /* partition kernel names ("sdb1"), NULL-terminated, may be NULL */
        char *md_level;           /* for mdN: md/level ("raid5"), else NULL */
        /* what udev's blkid and md/dm rules recorded, NULL if not there */
        char *fs_type, *fs_uuid;  /* ID_FS_TYPE, ID_FS_UUID ("xfs", "linux_raid_member", "LVM2_member") */
        char *md_uuid;            /* MD_UUID (md arrays, "8:8:8:8") */
        char *md_devname;         /* MD_DEVNAME: the array's name under /dev/md/ */
        char *dm_vg_name, *dm_lv_name;   /* DM_VG_NAME, DM_LV_NAME (LVs) */
        struct blockpart *partinfo;      /* the partitions of parts[], with their udev data */
        size_t n_partinfo;
        /* device-mapper multipath (NULL when not there) */
        char *dm_uuid, *dm_name;  /* dm-N: dm/uuid ("mpath-3600…" for a multipath map), dm/name */
        char **slaves;            /* slaves/ entries, sorted (a map's paths, an md's members, an LV's PVs), may be NULL */
        char *mpath_wwid;         /* the WWID multipath knows the LUN by: a map's dm/uuid after "mpath-"; a
                                   * path's map's, else udev ID_SERIAL (multipath's uid_attribute), else
                                   * "3" + the NAA of device/wwid; NULL for what is neither */
        char *mpath_map;          /* a path: the kernel name of the multipath map that holds it */
        char **devlinks;          /* names below /dev that lead to it, without "/dev/": the udev database's
                                   * S: lines ("disk/by-id/wwn-0x…") and the links found under SYSROOT/dev
                                   * (disk/by-*, mapper, md, and /dev itself), sorted, each at most once */
        char *fs_label;           /* ID_FS_LABEL_ENC decoded (else ID_FS_LABEL), NULL if none */
        unsigned system_kind;     /* SYS_* bits: how the running system uses it, through any partition, md or dm */
        char *system_use;         /* the first such use as a sentence ("sda2 is mounted at /"), NULL: none */
};

/* A mount of the running system from one of the devices discovery knows (proc/self/mountinfo):
 * which mountpoints the OS disks give the node. */
struct sys_mount {
        char *mountpoint;         /* decoded, as mountinfo has it ("/opt", "/mnt/sysimage/opt") */
        char *device;             /* the kernel name it resolved to ("sda3", "dm-2") */
        char **disks;             /* the device and every one under it, down to the whole disks (a
                                   * partition's disk; an md's or dm's slaves): "dm-2", "sda" */
        unsigned line;            /* its line in proc/self/mountinfo */
};

struct sysinfo {
        char *sysroot;            /* "/" or the captured tree */
        struct blockdev *devs;    /* sorted by name (sda < sdb < … < sdaa: shorter first, then lexical) */
        size_t n_devs;
        uint64_t mem_total_bytes; /* proc/meminfo MemTotal, 0 if unknown */
        long page_size;           /* 4096 unless the tree says otherwise */
        /* proc/self/mountinfo, proc/swaps or proc/cmdline that could not be read as the kernel writes
         * them ("proc/self/mountinfo line 7: …"): which disks the system runs from is then not known */
        char **system_errors;
        struct sys_mount *mounts; /* every mount from a known device, in mountinfo's order */
        size_t n_mounts;
        /* the RAID controllers' logical drives (discover/controller.h), read when a profile's <hwraid> needs
         * them; NULL: not read. Freed with the sysinfo. */
        struct ctl_list *controllers;
};

/* What a disk's exported io_min / io_opt are, by their shape and the kind of device (one rule for
 * storprov inventory and the planner, plan/disks.c, which uses only hints it believes):
 *   NONE               nothing beyond the physical sector (io_min <= it, no io_opt)
 *   NVME               an NVMe namespace: the drive's preferred write granularity and optimal write
 *                      size (the nvme driver's io_min = NPWG, io_opt = NOWS), never a parity stripe
 *   RAID_STRIPE        io_min a strip of IO_HINT_MIN_STRIP_BYTES or more and io_opt above it: a
 *                      stripe (a controller's Block Limits page) whose parity the hint does not say
 *   WRITE_GRANULARITY  anything else: an io_min below 8 KiB (drives export their write unit), or
 *                      no io_opt above io_min */
enum io_hint_kind {
        IO_HINT_NONE,
        IO_HINT_WRITE_GRANULARITY,
        IO_HINT_RAID_STRIPE,
        IO_HINT_NVME,
        _IO_HINT_MAX,
};
/* The smallest strip controllers offer; an io_min below it is a write granularity */
#define IO_HINT_MIN_STRIP_BYTES (UINT64_C(8) * 1024)

enum io_hint_kind io_hint_kind_of(const struct blockdev *b);
/* "none", "write-granularity", "raid-stripe", "nvme-write-granularity" (inventory's io_hint_kind) */
const char *io_hint_kind_name(enum io_hint_kind k);
/* An NVMe namespace by its kernel name: nvmeXnY (nvmeXcZnY, a path of a native multipath namespace) */
bool blockdev_is_nvme(const struct blockdev *b);

/* Reads SYSROOT/sys/block/ (every entry except loop devices that have no backing file,
 * ram*, zram*), SYSROOT/run/udev/data/b<major>:<minor>, the links under SYSROOT/dev,
 * SYSROOT/proc/meminfo, and (for system_kind) SYSROOT/proc/self/mountinfo,
 * proc/swaps and proc/cmdline.
 * Returns 0, or -errno when SYSROOT/sys/block cannot be read at all (with a
 * diagnostic added to d). Missing individual attributes are not errors. */
int sysinfo_load(const char *sysroot, struct sysinfo *ret, struct diags *d);
void sysinfo_free(struct sysinfo *s);
const struct blockdev *sysinfo_find(const struct sysinfo *s, const char *name);
