/* SPDX-License-Identifier: GPL-2.0-or-later
 * Reading device-mapper tables back through libdevmapper, to confirm that the
 * LVs lvm created have the planned stripes and chunk. storprov issues no dm
 * ioctl that emits a uevent (lvm does the activation and its own udev
 * synchronisation), so no udev cookie is needed for a TABLE query. */
#pragma once

#include <stddef.h>
#include <stdint.h>

struct dm_segment {
        uint64_t start_sector, length_sectors;
        char *type;               /* "linear", "striped", … */
        unsigned stripes;         /* striped: number of stripes; linear: 1 */
        uint64_t chunk_sectors;   /* striped: chunk in 512-byte sectors; linear: 0 */
        char **devices;           /* "253:0" per stripe */
        uint64_t *offsets;        /* data offset on each device, sectors */
};

/* Returns 0, or -errno with *ret_err set. */
int dm_table_read(const char *dm_name, struct dm_segment **ret, size_t *ret_n, char **ret_err);
void dm_segments_free(struct dm_segment *s, size_t n);
/* Parses one target's parameters (as dmsetup table shows them). Returns 0 or -EINVAL. */
int dm_parse_params(const char *type, const char *params, struct dm_segment *seg);
