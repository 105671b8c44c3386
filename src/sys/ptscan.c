/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sys/ptscan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/util.h"

#define PT_MAX_REGIONS 1024

static uint32_t le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t le64(const uint8_t *p) { return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32; }

static void add_region(struct pt_scan *s, uint64_t start, uint64_t end, const char *src)
{
        if (s->n >= PT_MAX_REGIONS || end <= start)
                return;
        for (size_t i = 0; i < s->n; i++)
                if (s->v[i].start == start && s->v[i].end == end)
                        return; /* the backup names what the primary named */
        s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
        struct pt_region *r = &s->v[s->n++];
        r->start = start;
        r->end = end;
        snprintf(r->src, sizeof r->src, "%s", src);
}

bool pt_gpt_header(const uint8_t *sec, size_t sector, struct pt_gpt_header *h)
{
        *h = (struct pt_gpt_header){0};
        if (sector < 92)
                return false;
        h->magic = !memcmp(sec, "EFI PART", 8);
        uint32_t rev = le32(sec + 8), size = le32(sec + 12);
        h->my_lba = le64(sec + 24);
        h->alt_lba = le64(sec + 32);
        h->entries_lba = le64(sec + 72);
        h->n_entries = le32(sec + 80);
        h->entry_size = le32(sec + 84);
        h->entries_crc = le32(sec + 88);
        h->plausible = rev == 0x00010000 && size >= 92 && size <= sector && h->entry_size >= 128 &&
                       h->entry_size <= 4096 && !(h->entry_size % 8) && h->n_entries && h->n_entries <= 4096 &&
                       h->entries_lba;
        return h->magic || h->plausible;
}

/* The entries of one array at buf (n entries of `size` bytes); what = "primary GPT", "backup GPT" */
static void gpt_entries(const uint8_t *buf, size_t len, uint32_t n, uint32_t size, uint64_t disk_bytes, size_t sector,
                        const char *what, const char *crc_note, struct pt_scan *s)
{
        static const uint8_t zero[16];
        uint64_t disk_sectors = disk_bytes / sector;
        for (uint32_t i = 0; i < n && (uint64_t)(i + 1) * size <= len; i++) {
                const uint8_t *e = buf + (size_t)i * size;
                uint64_t first = le64(e + 32), last = le64(e + 40);
                if (!memcmp(e, zero, 16) || first < 1 || first > last || last >= disk_sectors)
                        continue;
                char src[64];
                snprintf(src, sizeof src, "%s entry %u%s", what, i + 1, crc_note);
                add_region(s, first * sector, (last + 1) * sector, src);
        }
}

/* One array: where its header (if any is left) says it is, else where it usually is. */
static void gpt_array(const uint8_t *hdr_sec, const uint8_t *buf, uint64_t buf_off, size_t buf_len, uint64_t def_lba,
                      uint64_t disk_bytes, size_t sector, const char *what, struct pt_scan *s)
{
        struct pt_gpt_header h;
        bool have = hdr_sec && pt_gpt_header(hdr_sec, sector, &h);
        uint64_t lba = def_lba;
        uint32_t n = 128, size = 128;
        const char *note = " (no header)";
        /* an LBA past what was read is not looked at (nor multiplied: any 64-bit value may be there) */
        if (have && h.plausible && h.entries_lba <= (buf_off + buf_len) / sector) {
                uint64_t at = h.entries_lba * sector, bytes = (uint64_t)h.n_entries * h.entry_size;
                if (at >= buf_off && at + bytes <= buf_off + buf_len) {
                        lba = h.entries_lba;
                        n = h.n_entries;
                        size = h.entry_size;
                        uLong crc = crc32(0L, buf + (at - buf_off), (uInt)bytes);
                        note = crc == h.entries_crc ? " (entry CRC ok)" : " (entry CRC mismatch)";
                }
        }
        uint64_t at = lba * sector;
        if (at < buf_off || at >= buf_off + buf_len)
                return;
        gpt_entries(buf + (at - buf_off), buf_len - (size_t)(at - buf_off), n, size, disk_bytes, sector, what, note, s);
        /* the default place too when the header pointed elsewhere: the array may have moved, the header not */
        if (lba != def_lba && def_lba * sector >= buf_off && def_lba * sector < buf_off + buf_len)
                gpt_entries(buf + (def_lba * sector - buf_off), buf_len - (size_t)(def_lba * sector - buf_off), 128,
                            128, disk_bytes, sector, what, " (no header)", s);
}

static bool is_extended(uint8_t t) { return t == 0x05 || t == 0x0f || t == 0x85; }

/* Four 16-byte entries at sec + 446, LBAs relative to base_lba (ext_base for the next-EBR link). */
static void mbr_entries(const uint8_t *sec, uint64_t base, uint64_t disk_bytes, size_t sector, const char *what,
                        bool ebr, struct pt_scan *s)
{
        for (unsigned i = 0; i < 4; i++) {
                const uint8_t *e = sec + 446 + 16 * i;
                uint8_t status = e[0], type = e[4];
                uint64_t lba = le32(e + 8), num = le32(e + 12);
                if (!type || (status != 0 && status != 0x80) || !lba || !num || type == 0xee)
                        continue;
                if (is_extended(type)) {
                        /* in an EBR the link is relative to the extended partition's start */
                        uint64_t at = (ebr ? s->ext_base : base) + lba * sector;
                        if (!ebr)
                                s->ext_base = at;
                        if (at + sector <= disk_bytes && s->n_ebr < ELEMENTSOF(s->ebr) && s->n_ebr_seen < 64)
                                s->ebr[s->n_ebr++] = at;
                        if (ebr)
                                continue;
                }
                uint64_t start = base + lba * sector, end = start + num * sector;
                if (end > disk_bytes)
                        continue;
                char src[64];
                snprintf(src, sizeof src, "%s entry %u", what, i + 1);
                add_region(s, start, end, src);
        }
}

void pt_scan_tables(const uint8_t *head, size_t head_len, const uint8_t *tail, size_t tail_len, uint64_t disk_bytes,
                    size_t sector, struct pt_scan *s)
{
        if (!sector || disk_bytes < 3 * sector)
                return;
        if (head_len >= sector && sector >= 512)
                mbr_entries(head, 0, disk_bytes, sector, "MBR", false, s);
        if (head_len >= 3 * sector)
                gpt_array(head + sector, head, 0, head_len, 2, disk_bytes, sector, "primary GPT", s);
        if (tail_len >= sector && tail_len <= disk_bytes && tail_len % sector == 0) {
                uint64_t tail_off = disk_bytes - tail_len;
                uint64_t last_lba = disk_bytes / sector - 1;
                const uint8_t *hdr = tail + (last_lba * sector - tail_off);
                /* the usual backup: 128 entries of 128 bytes right before the last sector */
                uint64_t def = last_lba - (128 * 128 + sector - 1) / sector;
                gpt_array(hdr, tail, tail_off, tail_len, def, disk_bytes, sector, "backup GPT", s);
        }
}

void pt_scan_ebr(const uint8_t *sec, size_t sector, uint64_t at, uint64_t disk_bytes, struct pt_scan *s)
{
        if (sector < 512 || s->n_ebr_seen >= 64)
                return;
        char what[32];
        snprintf(what, sizeof what, "EBR %u", ++s->n_ebr_seen);
        mbr_entries(sec, at, disk_bytes, sector, what, true, s);
}

uint64_t pt_md090_offset(uint64_t start, uint64_t end)
{
        uint64_t size = end > start ? end - start : 0;
        if (size < 128 * 1024)
                return 0;
        return start + ((size & ~(uint64_t)(64 * 1024 - 1)) - 64 * 1024);
}

uint64_t pt_md10_offset(uint64_t start, uint64_t end)
{
        uint64_t size = end > start ? end - start : 0;
        if (size < 16 * 1024)
                return 0;
        return start + ((size - 8 * 1024) & ~(uint64_t)(4 * 1024 - 1));
}

void pt_scan_free(struct pt_scan *s)
{
        free(s->v);
        *s = (struct pt_scan){0};
}
