/* SPDX-License-Identifier: GPL-2.0-or-later
 * Safety probes before the first write: what a device (or a region of it)
 * carries, and whether something uses it. libblkid does the signature
 * probing, as wipefs -n does. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sbuf;

struct signature {
        char *type;     /* "gpt", "dos", "xfs", "linux_raid_member", "LVM2_member", "swap", … */
        char *uuid;     /* blkid's UUID (for md members: the array UUID), may be NULL */
        char *label;    /* may be NULL */
        uint64_t offset_bytes; /* where the magic sits */
        bool table;     /* a partition table (blkid's PTTYPE) */
};

struct probe_result {
        struct signature *sigs;
        size_t n_sigs;
};

/* Probes `path` from `offset` for `size` bytes (0: to the end) for filesystem,
 * RAID, LVM and partition-table signatures. Returns 0 or -errno. */
int probe_signatures(const char *path, uint64_t offset, uint64_t size, struct probe_result *ret);
/* The same on a descriptor already open (the caller's, held). */
int probe_signatures_fd(int fd, uint64_t offset, uint64_t size, struct probe_result *ret);

/* A shadow of a device: the bytes read from it, at their own offsets, in a
 * sparse memory file (the rest reads as zeros). libblkid probes it as it
 * probes the device, so each region of the device is read once, by the
 * caller, and never again by a prober. Only the blocks that hold a non-zero
 * byte are stored, and a window with none of them is not handed to libblkid
 * at all: it reads as zeros, where no prober finds anything (the blank-disk
 * case; tests/unit/test_probe.c checks that premise on libblkid itself). */
#define SHADOW_BLOCK 4096u
struct shadow_extent {
        uint64_t off, len;
};
struct shadow {
        int fd;
        uint64_t size;
        struct shadow_extent *nz; /* where non-zero bytes were stored, in SHADOW_BLOCK units */
        size_t n_nz;
        unsigned probes, skipped; /* probe_shadow calls, and those answered without libblkid */
        unsigned reads;           /* read calls on the device (shadow_read_ranges) */
        uint64_t bytes_read;
};
int shadow_open(struct shadow *s, uint64_t size);
int shadow_put(struct shadow *s, uint64_t off, const void *buf, size_t len);
/* Was a non-zero byte stored in [off, off + len)? (No: the window reads as zeros.) */
bool shadow_has_data(const struct shadow *s, uint64_t off, uint64_t len);
/* probe_signatures on the shadow's window; only_type (e.g. "linux_raid_member"): that prober only */
int probe_shadow(struct shadow *s, uint64_t offset, uint64_t size, const char *only_type,
                 struct probe_result *ret);
/* probe_shadow at a region's start, for the signatures whose magic lies within
 * its first near bytes (at most 128 KiB): in a region at least 4 MiB longer
 * than that, the probers that only ever find a magic further in (firmware
 * RAID and DRBD metadata at the region's end, ZFS, VMFS) are left out. What
 * the others find is the same; the left-out ones' findings, had they been
 * run, lie beyond near. tests/unit/test_probe.c checks that on libblkid. */
int probe_shadow_head(struct shadow *s, uint64_t offset, uint64_t size, uint64_t near, struct probe_result *ret);
/* Asks the kernel to read [off, off + len) of fd into the page cache now,
 * without waiting (POSIX_FADV_WILLNEED): ranges asked for together are in
 * flight together, so a disk that seeks serves them in one sweep in its own
 * order rather than one round trip per read. Later buffered reads of them
 * (ours, libblkid's, libparted's) find them there. */
void probe_prefetch(int fd, uint64_t off, uint64_t len);
/* One read of [off, off + len) of fd into buf: a read error or a short read is said in *err (-EIO). */
int probe_read_at(int fd, uint64_t off, size_t len, uint8_t *buf, struct sbuf *err);
/* Reads the ranges v[] of fd (sorted and merged here: each byte is read once) into the shadow;
 * what could not be read is said in *err. */
void shadow_read_ranges(int fd, struct shadow *s, struct shadow_extent *v, size_t n, struct sbuf *err);
/* The superblock copies (sys/sbcopy.h) of a filesystem starting at start, as
 * the shadow holds them at places[] (sbcopy_places), and an XFS whose magic
 * was cleared at start: at most one per format, none of a format whose
 * primary superblock the shadow holds at start (that is the filesystem
 * itself, found there). Returns how many are in out (room for 3). */
#define SHADOW_HEAD (128u * 1024u) /* what the primaries need from start (btrfs: 64 KiB in) */
struct sb_copy;
size_t shadow_sb_copies(const struct shadow *s, uint64_t start, const uint64_t *places, size_t n_places,
                        struct sb_copy *out);
void shadow_close(struct shadow *s);
void probe_result_free(struct probe_result *r);
char *probe_describe(const struct probe_result *r);  /* "xfs (uuid …), gpt" */
const struct signature *probe_find(const struct probe_result *r, const char *type);

/* How the kernel device with this major:minor (or any of its partitions) is
 * in use: mounted (where), swap, held by md/dm. Reads SYSROOT/proc and
 * SYSROOT/sys. Returns a malloc'ed sentence, or NULL when unused. */
char *probe_in_use(const char *sysroot, unsigned major, unsigned minor);

/* Which other processes have path (a block device: the same device number, or
 * that of one of its partitions) open: "pid 123 (mkfs.xfs), pid 456 (python3)
 * on its partition sdb1, …", or NULL. An interrupted run's orphaned children
 * show here. */
char *probe_open_by(const char *path);

/* Whether the kernel device major:minor (or one of its partitions) is what the
 * system or installer boots from, per SYSROOT/proc/cmdline: root=, inst.stage2=hd:,
 * inst.repo=hd: and inst.ks=hd: (LABEL=, UUID=, PARTUUID=, PARTLABEL= or a
 * /dev path, resolved with libblkid). Returns a malloc'ed sentence or NULL. */
char *probe_boot_device(const char *sysroot, unsigned major, unsigned minor);
