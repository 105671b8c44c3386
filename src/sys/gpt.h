/* SPDX-License-Identifier: GPL-2.0-or-later
 * GPT partition tables through libparted (no parted binary): exact sectors
 * as the caller plans them, raid/lvm flags, then commit to the device and the kernel. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A partition as read (gpt_read: name owned, guid NULL; gpt_parts_free) or as
 * wanted (gpt_write, gpt_matches: both borrowed from the caller). */
struct gpt_part {
        unsigned number;
        uint64_t first_sector, last_sector;
        bool raid, lvm;
        char *name;
        const char *guid;         /* the unique partition GUID to write; NULL: random */
};

/* Reads the partition table of dev. Returns 0 with *ret_label "gpt", "msdos"…,
 * -ENOMEDIUM when there is no table, or another -errno with *ret_err set. */
int gpt_read(const char *dev, char **ret_label, struct gpt_part **ret_parts, size_t *ret_n, uint64_t *ret_sector_bytes,
             char **ret_err);
void gpt_parts_free(struct gpt_part *p, size_t n);

/* gpt_read() that takes whichever copy of a damaged GPT libparted can use (a
 * primary whose backup is missing or corrupt, or the reverse): returns 0 with
 * *ret_damage set to libparted's words when the table is damaged, else NULL. */
int gpt_read_lenient(const char *dev, char **ret_label, struct gpt_part **ret_parts, size_t *ret_n, char **ret_damage,
                     char **ret_err);

/* A GPT whose write stopped after the primary header: the header is there,
 * its entry array is still all zeros and there is no backup. It describes no
 * partition, so nothing can be lost by writing the table again. */
bool gpt_unfinished(const char *dev, uint64_t sector_bytes);

/* Tells the kernel about the partition table on dev (BLKPG through libparted),
 * for a table written by a run that died before it could. */
int gpt_sync_kernel(const char *dev, char **ret_err);

/* Writes a fresh GPT with exactly these partitions, carrying the planned disk
 * GUID and partition GUIDs (NULL: random). Returns 0 or -errno with *ret_err. */
int gpt_write(const char *dev, uint64_t sector_bytes, const char *disk_guid, const struct gpt_part *parts, size_t n,
              char **ret_err);
/* The disk GUID in the primary GPT header of dev (lower case), -ENOENT when
 * there is no header. */
int gpt_disk_guid(const char *dev, uint64_t sector_bytes, char ret[static 37]);

/* True when the table on disk holds exactly the planned partitions (number,
 * first and last sector, and the name where both have one). */
bool gpt_matches(const struct gpt_part *have, size_t n_have, const struct gpt_part *want, size_t n_want);
