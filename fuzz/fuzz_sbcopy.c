/* SPDX-License-Identifier: GPL-2.0-or-later
 * The superblock-copy recogniser (src/sys/sbcopy.c) on any bytes. The input:
 * 8 bytes of the offset the block was read at (little-endian, below 1 PiB),
 * 8 of the start it is tested for (below that offset or not), 8 of a disk
 * size and 8 of a region size (for the places and the AG size), 1 of the
 * sector (512 or 4096), then the block itself (any length). What must hold:
 * no crash; a match says the offset and start it was given, a printable
 * UUID and label, and its own fields place it there (btrfs: bytenr; XFS: an
 * AG of its own size below its AG count; ext: its group's first block); the
 * same block is never a copy of one format for two starts 4 KiB apart; an
 * XFS without its magic starts where it was read; places lie inside the
 * disk, ascending; mkfs.xfs's AG size is 1 .. 2^40 - 1 bytes and at most 33
 * AGs below 32 TiB (32, and one more just below 32 TiB where xfsprogs caps
 * the AG at its largest instead of rounding it up). */
#include <stdint.h>
#include <string.h>

#define FUZZ_NO_SYSROOTS
#include "fuzz_common.h"
#include "sys/sbcopy.h"

static uint64_t get64(const uint8_t *p)
{
        uint64_t v = 0;
        for (int i = 7; i >= 0; i--)
                v = v << 8 | p[i];
        return v;
}

static uint64_t field(const uint8_t *b, size_t off, int bytes, bool big)
{
        uint64_t v = 0;
        for (int i = 0; i < bytes; i++)
                v = big ? v << 8 | b[off + i] : v | (uint64_t)b[off + i] << (8 * i);
        return v;
}

static void printable(const char *s, const char *what)
{
        for (; *s; s++)
                if (*s < 0x20 || *s > 0x7e)
                        FUZZ_FAIL("%s not printable", what);
}

/* the match's own fields put it at rel from its start */
static void placed(const struct sb_copy *c, const uint8_t *b, uint64_t rel)
{
        uint64_t want = 0;
        if (c->fmt == SB_BTRFS)
                want = field(b, 0x30, 8, false);
        else if (c->fmt == SB_XFS) {
                uint64_t agb = field(b, 84, 4, true), bs = field(b, 4, 4, true), agc = field(b, 88, 4, true);
                if (c->index < 1 || c->index >= agc)
                        FUZZ_FAIL("XFS AG %u of %llu", c->index, (unsigned long long)agc);
                want = c->index * agb * bs;
        } else if (c->fmt == SB_EXT)
                want = (c->index * field(b, 0x20, 4, false) + field(b, 0x14, 4, false)) * c->block;
        else
                FUZZ_FAIL("a match of no format");
        if (want != rel)
                FUZZ_FAIL("format %d at %llu from its start, its fields say %llu", c->fmt, (unsigned long long)rel,
                          (unsigned long long)want);
}

static void check_match(const uint8_t *b, size_t len, uint64_t at, uint64_t start)
{
        struct sb_copy c, d;
        if (!sbcopy_match(b, len, at, start, &c))
                return;
        if (c.at != at || c.fs_start != start || at <= start || !c.type)
                FUZZ_FAIL("a match at %llu/%llu says %llu/%llu", (unsigned long long)at, (unsigned long long)start,
                          (unsigned long long)c.at, (unsigned long long)c.fs_start);
        if (strlen(c.uuid) != 36)
                FUZZ_FAIL("uuid %s", c.uuid);
        printable(c.uuid, "uuid");
        printable(c.label, "label");
        placed(&c, b, at - start);
        if (start + 4096 < at && sbcopy_match(b, len, at, start + 4096, &d) && d.fmt == c.fmt)
                FUZZ_FAIL("one block, format %d, a copy for two starts", c.fmt);
        char w[96], h[96];
        printable(sbcopy_what(&c, w, sizeof(w)), "what");
        printable(sbcopy_recover(&c, h, sizeof(h)), "recover");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        if (size < 33)
                return 0;
        uint64_t at = get64(data) % (1ull << 50), start = get64(data + 8) % (1ull << 50);
        uint64_t disk = get64(data + 16) % (1ull << 50), region = get64(data + 24) % (1ull << 50);
        uint64_t sector = data[32] & 1 ? 4096 : 512;
        const uint8_t *b = data + 33;
        size_t len = size - 33;
        check_match(b, len, at, start);
        check_match(b, len, at, at > 64ull << 20 ? at - (64ull << 20) : 0);
        struct sb_copy c;
        if (sbcopy_xfs_unmagicked(b, len, start, &c) && (c.at != start || c.fs_start != start || c.index != 0 ||
                                                         c.fmt != SB_XFS || len < 1536 || memcmp(b, "\0\0\0\0", 4)))
                FUZZ_FAIL("an XFS without its magic, wrongly said");
        uint64_t v[SBCOPY_MAX_PLACES];
        size_t n = sbcopy_places(start, &region, 1, disk, sector, v, SBCOPY_MAX_PLACES);
        if (n > SBCOPY_MAX_PLACES)
                FUZZ_FAIL("%zu places", n);
        for (size_t i = 0; i < n; i++)
                if (v[i] <= start || v[i] + SBCOPY_READ > disk || (i && v[i - 1] >= v[i]))
                        FUZZ_FAIL("place %zu at %llu (start %llu, disk %llu)", i, (unsigned long long)v[i],
                                  (unsigned long long)start, (unsigned long long)disk);
        uint64_t dblocks = region / 4096;
        for (int md = 0; md <= 1 && dblocks; md++) {
                uint64_t ag = sbcopy_xfs_agblocks(12, dblocks, md);
                if (!ag || ag > ((1ull << 40) - 1) / 4096)
                        FUZZ_FAIL("AG of %llu blocks for %llu", (unsigned long long)ag, (unsigned long long)dblocks);
                if (dblocks < (32ull << 28) && (dblocks + ag - 1) / ag > 33)
                        FUZZ_FAIL("%llu AGs", (unsigned long long)((dblocks + ag - 1) / ag));
        }
        return 0;
}
