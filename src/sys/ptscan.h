/* SPDX-License-Identifier: GPL-2.0-or-later
 * Where an erased partition table pointed: pure parsing (no I/O) of the bytes
 * a table leaves behind when its signatures are wiped. `wipefs -a` erases the
 * "EFI PART" magic of both GPT headers and the MBR's 0x55AA, not the entry
 * arrays: primary and backup GPT entries, MBR and EBR entries still name
 * every start and end that held data. Every plausible entry is a region;
 * entry CRCs are checked where a header (intact or with its magic wiped)
 * survives, and said, but a mismatch does not drop an entry: more candidates
 * cost a read, a missed one costs data. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_region {
        uint64_t start, end;     /* bytes; end exclusive */
        char src[64];            /* "backup GPT entry 2 (CRC ok)", "MBR entry 1", "EBR 2 entry 1" */
};

struct pt_scan {
        struct pt_region *v;
        size_t n;
        uint64_t ebr[64];        /* byte offsets of EBRs still to read (extended partitions) */
        size_t n_ebr;
        uint64_t ext_base;       /* the extended partition's start (bytes), 0: none seen */
        unsigned n_ebr_seen;     /* EBRs parsed so far (a chain is cut at 64) */
};

/* A GPT header as found in one sector, magic or not. */
struct pt_gpt_header {
        bool magic;              /* "EFI PART" present */
        bool plausible;          /* revision, size and LBAs make sense (a header whose magic was wiped) */
        uint64_t my_lba, alt_lba, entries_lba;
        uint32_t n_entries, entry_size, entries_crc;
};

/* Parses the header at sec (sector bytes long); false when nothing of a header is left. */
bool pt_gpt_header(const uint8_t *sec, size_t sector, struct pt_gpt_header *h);

/* The parsing of a disk's first and last bytes: head is the disk from byte 0
 * (at least 34 sectors to see the whole primary array), tail the disk's last
 * tail_len bytes. disk_bytes is the disk's size. Adds regions to s (which
 * starts zeroed) and EBR offsets to read next. */
void pt_scan_tables(const uint8_t *head, size_t head_len, const uint8_t *tail, size_t tail_len, uint64_t disk_bytes,
                    size_t sector, struct pt_scan *s);

/* One EBR read from byte offset `at` (one sector): its logical partition and
 * the next EBR of the chain. */
void pt_scan_ebr(const uint8_t *sec, size_t sector, uint64_t at, uint64_t disk_bytes, struct pt_scan *s);

/* Where an md superblock sits in a region that ends at `end` (bytes, exclusive) and
 * starts at `start`: version 0.90 (64 KiB-aligned, 64 KiB before the end) and 1.0
 * (4 KiB-aligned, at least 8 KiB before the end). 0 when the region is too small. */
uint64_t pt_md090_offset(uint64_t start, uint64_t end);
uint64_t pt_md10_offset(uint64_t start, uint64_t end);

void pt_scan_free(struct pt_scan *s);
