/* SPDX-License-Identifier: GPL-2.0-or-later
 * The primary XFS superblock, read directly: enough to tell a finished
 * filesystem from one mkfs.xfs was interrupted in (sb_inprogress), and to
 * compare its stripe geometry with the plan without mounting it. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

struct xfs_sb_info {
        char uuid[37];            /* 8-4-4-4-12, lower case */
        uint32_t block_bytes;
        uint32_t sunit_blocks, swidth_blocks;   /* sb_unit, sb_width: in filesystem blocks */
        bool inprogress;          /* sb_inprogress: mkfs (or another offline tool) has not finished */
};

/* Parses a 512-byte primary superblock. Returns 0, or -ENOENT when it has no XFS magic. */
int xfs_sb_parse(const unsigned char *buf, struct xfs_sb_info *ret);
/* Reads the superblock at the start of path. Returns 0, -ENOENT (not XFS) or -errno. */
int xfs_sb_read(const char *path, struct xfs_sb_info *ret);
/* The same figures of a mounted XFS, through the XFS_IOC_FSGEOMETRY ioctl on
 * its mountpoint (the kernel's in-memory superblock). Returns 0 or -errno. */
int xfs_geom_ioctl(const char *mountpoint, struct xfs_sb_info *ret);
