/* SPDX-License-Identifier: GPL-2.0-or-later
 * What `mkfs.xfs -N` printed: the geometry of the filesystem it would make. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/* The AG size (in blocks) and the block size (in bytes) of the "meta-data="
 * and "data" lines of out (stdout and stderr together), or false: a field
 * missing, not a plain decimal number, a block size that is not a power of
 * 2 from 512 to 64 KiB, or an AG outside XFS's 16 MiB to 1 TiB. */
bool mkfs_out_ag(const char *out, uint64_t *agsize_blocks, uint64_t *block_bytes);
