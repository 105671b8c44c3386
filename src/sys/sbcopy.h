/* SPDX-License-Identifier: GPL-2.0-or-later
 * Superblock copies: pure recognition (no I/O) of the copies a filesystem
 * keeps at fixed places after its start, which survive when its primary is
 * erased (dd over the first MiB, wipefs -a) and from which it can be
 * recovered: btrfs mirrors (64 MiB and 256 GiB), XFS secondary superblocks
 * (each AG's start), ext2/3/4 backups (block groups 1, 3, 5, 7, 9, 25, ...).
 * libblkid probes a region from its start and does not see them. Every field
 * a copy states about its own place is checked against where it was read and
 * the start it is tested for: a match is magic plus self-consistent geometry,
 * never a guess. Field offsets: btrfs-progs ctree.h (btrfs_super_block),
 * xfsprogs libxfs/xfs_format.h (xfs_dsb, xfs_agf, xfs_agi), e2fsprogs
 * lib/ext2fs/ext2_fs.h (ext2_super_block); checked on filesystems made here. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sb_fmt { SB_NONE, SB_BTRFS, SB_XFS, SB_EXT };

struct sb_copy {
        enum sb_fmt fmt;
        const char *type;  /* blkid's TYPE: "btrfs", "xfs", "ext2", "ext3", "ext4" */
        uint64_t at;       /* where the copy (or the erased primary) sits, from the disk's start */
        uint64_t fs_start; /* the start of the filesystem it belongs to */
        uint32_t index;    /* btrfs mirror (1, 2), XFS AG, ext block group; 0: the primary itself */
        uint32_t block;    /* the filesystem's block size */
        char uuid[37];     /* 8-4-4-4-12, lower case */
        char label[33];    /* printable ASCII only, may be empty */
};

/* What the scan reads at each place: one 4 KiB block (a btrfs superblock is 4 KiB). */
#define SBCOPY_READ 4096u

/* Is buf (len bytes read at disk offset at) a superblock copy of a filesystem
 * that starts at start? Fills *ret when it is. */
bool sbcopy_match(const uint8_t *buf, size_t len, uint64_t at, uint64_t start, struct sb_copy *ret);

/* XFS after wipefs -a (only its 4-byte magic cleared): buf holds the first
 * bytes of a region starting at start (at least 3 sectors of the filesystem:
 * the superblock, AG 0's AGF and AGI). True when the superblock without its
 * magic, the AGF and the AGI agree; index is 0. */
bool sbcopy_xfs_unmagicked(const uint8_t *buf, size_t len, uint64_t start, struct sb_copy *ret);

/* Is the primary superblock of fmt there (its magic) in buf, the first bytes
 * (at least 128 KiB for btrfs) of a region? */
bool sbcopy_primary(const uint8_t *buf, size_t len, enum sb_fmt fmt);

/* mkfs.xfs's default AG size in blocks for a data section of dblocks blocks
 * of 2^blocklog bytes (xfsprogs calc_default_ag_geometry): a single disk, or
 * a striped one (multidisk). 0 when dblocks is 0. */
uint64_t sbcopy_xfs_agblocks(unsigned blocklog, uint64_t dblocks, bool multidisk);

/* Where copies of a filesystem starting at start may sit on a disk of disk
 * bytes (sector bytes a sector): btrfs mirrors, ext backups of groups 1 (1, 2
 * and 4 KiB blocks) and 3 (4 KiB), and XFS AG 1 at mkfs.xfs's default AG
 * size (4 KiB blocks, both branches) for each region size in regions[] and
 * for the region to the disk's end, also less a backup GPT (and rounded down
 * to 1 MiB). Only places whose SBCOPY_READ bytes lie inside the disk. Writes
 * at most max offsets, ascending and distinct, to out; returns how many. */
size_t sbcopy_places(uint64_t start, const uint64_t *regions, size_t n_regions, uint64_t disk, uint64_t sector,
                     uint64_t *out, size_t max);
#define SBCOPY_MAX_PLACES 64

/* "btrfs superblock copy (mirror 1)", "xfs secondary superblock (AG 1)", "ext4
 * backup superblock (group 1)", "xfs superblock with only its magic erased ...": into buf. */
const char *sbcopy_what(const struct sb_copy *c, char *buf, size_t len);
/* How to recover the filesystem from it ("btrfs rescue super-recover", ...): into buf. */
const char *sbcopy_recover(const struct sb_copy *c, char *buf, size_t len);
