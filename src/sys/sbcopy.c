/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sys/sbcopy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

/* btrfs_super_block (little-endian) */
#define BTRFS_FSID 0x20
#define BTRFS_BYTENR 0x30
#define BTRFS_MAGIC 0x40
#define BTRFS_TOTAL 0x70
#define BTRFS_SECTORSIZE 0x90
#define BTRFS_NODESIZE 0x94
#define BTRFS_LABEL 0x12b
#define BTRFS_SB_BYTES 4096u
#define BTRFS_PRIMARY (64 * KiB)
static const uint64_t btrfs_mirror[] = {64 * MiB, 256 * GiB};

/* xfs_dsb (big-endian) */
#define XFS_BLOCKSIZE 4
#define XFS_DBLOCKS 8
#define XFS_UUID 32
#define XFS_AGBLOCKS 84
#define XFS_AGCOUNT 88
#define XFS_SECTSIZE 102
#define XFS_FNAME 108
#define XFS_BLOCKLOG 120
#define XFS_SECTLOG 121
#define XFS_AGBLKLOG 124
/* xfs_agf and xfs_agi: magic, versionnum, seqno, length */
#define XFS_AGH_VERSION 4
#define XFS_AGH_SEQNO 8
#define XFS_AGH_LENGTH 12

/* ext2_super_block (little-endian), from the superblock's own start */
#define EXT_INODES 0x00
#define EXT_BLOCKS_LO 0x04
#define EXT_FIRST_DATA 0x14
#define EXT_LOG_BLOCK 0x18
#define EXT_PER_GROUP 0x20
#define EXT_MAGIC 0x38
#define EXT_REV 0x4c
#define EXT_GROUP_NR 0x5a
#define EXT_COMPAT 0x5c
#define EXT_INCOMPAT 0x60
#define EXT_RO_COMPAT 0x64
#define EXT_UUID 0x68
#define EXT_LABEL 0x78
#define EXT_BLOCKS_HI 0x150
#define EXT_SB_BYTES 1024u
#define EXT_PRIMARY 1024u

static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t le32(const uint8_t *p) { return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16; }
static uint64_t le64(const uint8_t *p) { return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32; }
static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t be32(const uint8_t *p) { return (uint32_t)be16(p) << 16 | be16(p + 2); }
static uint64_t be64(const uint8_t *p) { return (uint64_t)be32(p) << 32 | be32(p + 4); }

static bool pow2_in(uint64_t v, uint64_t lo, uint64_t hi)
{
        return v >= lo && v <= hi && !(v & (v - 1));
}

static unsigned log2_u64(uint64_t v)
{
        unsigned l = 0;
        while (v >>= 1)
                l++;
        return l;
}

static void fmt_uuid(const uint8_t *u, char out[37])
{
        snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2],
                 u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

/* A label of at most n bytes (NUL-terminated or not); anything unprintable makes it empty. */
static void fmt_label(const uint8_t *p, size_t n, char out[33])
{
        size_t k = 0;
        out[0] = 0;
        for (; k < n && k < 32 && p[k]; k++)
                if (p[k] < 0x20 || p[k] > 0x7e)
                        return;
        memcpy(out, p, k);
        out[k] = 0;
}

static bool btrfs_copy(const uint8_t *b, size_t len, uint64_t rel, struct sb_copy *c)
{
        if (len < BTRFS_SB_BYTES || memcmp(b + BTRFS_MAGIC, "_BHRfS_M", 8) || le64(b + BTRFS_BYTENR) != rel)
                return false;
        unsigned m = 0;
        for (unsigned i = 0; i < sizeof(btrfs_mirror) / sizeof(*btrfs_mirror); i++)
                if (rel == btrfs_mirror[i])
                        m = i + 1;
        uint32_t sector = le32(b + BTRFS_SECTORSIZE), node = le32(b + BTRFS_NODESIZE);
        /* a mirror is written only where it fits in the device (total_bytes: at least that) */
        if (!m || !pow2_in(sector, 4096, 65536) || !pow2_in(node, sector, 65536) ||
            le64(b + BTRFS_TOTAL) < rel + BTRFS_SB_BYTES)
                return false;
        *c = (struct sb_copy){.fmt = SB_BTRFS, .type = "btrfs", .index = m, .block = sector};
        fmt_uuid(b + BTRFS_FSID, c->uuid);
        fmt_label(b + BTRFS_LABEL, 256, c->label);
        return true;
}

/* The fields every XFS superblock (primary or secondary) must agree on. */
static bool xfs_geometry(const uint8_t *b, uint32_t *bs, uint32_t *agb, uint32_t *agc)
{
        *bs = be32(b + XFS_BLOCKSIZE);
        *agb = be32(b + XFS_AGBLOCKS);
        *agc = be32(b + XFS_AGCOUNT);
        uint32_t sect = be16(b + XFS_SECTSIZE);
        uint64_t dblocks = be64(b + XFS_DBLOCKS);
        if (!pow2_in(*bs, 512, 65536) || b[XFS_BLOCKLOG] != log2_u64(*bs) || !pow2_in(sect, 512, 32768) ||
            b[XFS_SECTLOG] != log2_u64(sect) || sect > *bs || *agc == 0 || *agb < 64 ||
            (uint64_t)*agb * *bs >= (1ull << 40) || b[XFS_AGBLKLOG] != log2_u64(*agb - 1) + 1)
                return false;
        /* the last AG may be short: dblocks lies in ((agcount - 1) * agblocks, agcount * agblocks] */
        return dblocks > (uint64_t)(*agc - 1) * *agb && dblocks <= (uint64_t)*agc * *agb;
}

static void xfs_fill(const uint8_t *b, uint32_t bs, uint32_t index, struct sb_copy *c)
{
        *c = (struct sb_copy){.fmt = SB_XFS, .type = "xfs", .index = index, .block = bs};
        fmt_uuid(b + XFS_UUID, c->uuid);
        fmt_label(b + XFS_FNAME, 12, c->label);
}

static bool xfs_copy(const uint8_t *b, size_t len, uint64_t rel, struct sb_copy *c)
{
        uint32_t bs, agb, agc;
        if (len < 512 || memcmp(b, "XFSB", 4) || !xfs_geometry(b, &bs, &agb, &agc))
                return false;
        uint64_t ag_bytes = (uint64_t)agb * bs;
        if (rel % ag_bytes || rel / ag_bytes < 1 || rel / ag_bytes >= agc)
                return false;
        xfs_fill(b, bs, (uint32_t)(rel / ag_bytes), c);
        return true;
}

/* ext2/3/4 by their features, as libblkid names them */
static const char *ext_type(const uint8_t *b)
{
        uint32_t compat = le32(b + EXT_COMPAT), incompat = le32(b + EXT_INCOMPAT), ro = le32(b + EXT_RO_COMPAT);
        /* extents, 64bit, flex_bg; huge_file, gdt_csum, dir_nlink, extra_isize, metadata_csum */
        if (incompat & (0x40 | 0x80 | 0x200) || ro & (0x8 | 0x10 | 0x20 | 0x40 | 0x400))
                return "ext4";
        return compat & 0x4 ? "ext3" : "ext2"; /* has_journal */
}

static bool ext_copy(const uint8_t *b, size_t len, uint64_t rel, struct sb_copy *c)
{
        if (len < EXT_SB_BYTES || le16(b + EXT_MAGIC) != 0xEF53)
                return false;
        uint32_t log = le32(b + EXT_LOG_BLOCK), per = le32(b + EXT_PER_GROUP), first = le32(b + EXT_FIRST_DATA);
        uint32_t group = le16(b + EXT_GROUP_NR);
        if (log > 6 || le32(b + EXT_REV) > 1 || le32(b + EXT_INODES) == 0)
                return false;
        uint64_t bs = 1024ull << log;
        /* a group's block bitmap is one block; the first data block is 1 with 1 KiB blocks only */
        if (!per || per % 8 || per > 8 * bs || first > (log == 0) || group < 1)
                return false;
        uint64_t blocks = le32(b + EXT_BLOCKS_LO);
        if (le32(b + EXT_INCOMPAT) & 0x80)
                blocks |= (uint64_t)le32(b + EXT_BLOCKS_HI) << 32;
        uint64_t gstart = (uint64_t)group * per + first;
        if (gstart * bs != rel || blocks <= gstart)
                return false;
        *c = (struct sb_copy){.fmt = SB_EXT, .type = ext_type(b), .index = group, .block = (uint32_t)bs};
        fmt_uuid(b + EXT_UUID, c->uuid);
        fmt_label(b + EXT_LABEL, 16, c->label);
        return true;
}

bool sbcopy_match(const uint8_t *buf, size_t len, uint64_t at, uint64_t start, struct sb_copy *ret)
{
        if (!buf || at <= start)
                return false;
        uint64_t rel = at - start;
        struct sb_copy c;
        if (!btrfs_copy(buf, len, rel, &c) && !xfs_copy(buf, len, rel, &c) && !ext_copy(buf, len, rel, &c))
                return false;
        c.at = at;
        c.fs_start = start;
        *ret = c;
        return true;
}

/* AG 0's AGF or AGI header (magic) at its sector: version 1, sequence 0, the AG's length */
static bool xfs_agh(const uint8_t *h, const char *magic, uint32_t agb, uint32_t agc, uint64_t dblocks)
{
        uint32_t length = be32(h + XFS_AGH_LENGTH);
        return !memcmp(h, magic, 4) && be32(h + XFS_AGH_VERSION) == 1 && be32(h + XFS_AGH_SEQNO) == 0 &&
               length == (agc > 1 ? agb : dblocks);
}

bool sbcopy_xfs_unmagicked(const uint8_t *buf, size_t len, uint64_t start, struct sb_copy *ret)
{
        uint32_t bs, agb, agc;
        if (!buf || len < 512 || !memcmp(buf, "XFSB", 4) || be32(buf) != 0 || !xfs_geometry(buf, &bs, &agb, &agc))
                return false;
        uint32_t sect = be16(buf + XFS_SECTSIZE);
        uint64_t dblocks = be64(buf + XFS_DBLOCKS);
        if (len < 3ull * sect || !xfs_agh(buf + sect, "XAGF", agb, agc, dblocks) ||
            !xfs_agh(buf + 2 * sect, "XAGI", agb, agc, dblocks))
                return false;
        xfs_fill(buf, bs, 0, ret);
        ret->at = ret->fs_start = start;
        return true;
}

bool sbcopy_primary(const uint8_t *buf, size_t len, enum sb_fmt fmt)
{
        if (!buf)
                return false;
        switch (fmt) {
        case SB_BTRFS:
                return len >= BTRFS_PRIMARY + BTRFS_MAGIC + 8 && !memcmp(buf + BTRFS_PRIMARY + BTRFS_MAGIC, "_BHRfS_M", 8);
        case SB_XFS:
                return len >= 4 && !memcmp(buf, "XFSB", 4);
        case SB_EXT:
                return len >= EXT_PRIMARY + EXT_MAGIC + 2 && le16(buf + EXT_PRIMARY + EXT_MAGIC) == 0xEF53;
        default:
                return false;
        }
}

uint64_t sbcopy_xfs_agblocks(unsigned blocklog, uint64_t dblocks, bool multidisk)
{
        if (!dblocks || blocklog < 9 || blocklog > 16)
                return 0;
        uint64_t max = ((1ull << 40) - 1) >> blocklog;
        uint64_t mib = 1ull << (20 - blocklog), gib = 1ull << (30 - blocklog), tib = 1ull << (40 - blocklog);
        if (dblocks >= 32 * tib || (!multidisk && dblocks >= 4 * tib))
                return max;
        unsigned shift = 2; /* a single disk from 128 MiB: 4 AGs */
        if (multidisk || dblocks < 128 * mib) {
                shift = 5; /* 32 AGs, fewer as the data section shrinks */
                shift -= dblocks <= 512 * gib;
                shift -= dblocks <= 8 * gib;
                shift -= dblocks < 128 * mib;
                shift -= dblocks < 64 * mib;
                shift -= dblocks < 32 * mib;
        }
        uint64_t blocks = dblocks >> shift;
        if (dblocks & ((1ull << shift) - 1) && blocks < max)
                blocks++;
        return blocks;
}

static size_t add_place(uint64_t *out, size_t n, size_t max, uint64_t at, uint64_t disk)
{
        if (n >= max || at > disk || disk - at < SBCOPY_READ)
                return n;
        for (size_t i = 0; i < n; i++)
                if (out[i] == at)
                        return n;
        out[n] = at;
        return n + 1;
}

/* XFS AG 1 (4 KiB blocks) in a region of region bytes from start, both of mkfs.xfs's branches */
static size_t xfs_places(uint64_t start, uint64_t region, uint64_t disk, uint64_t *out, size_t n, size_t max)
{
        for (int md = 0; md <= 1; md++) {
                uint64_t ag = sbcopy_xfs_agblocks(12, region / 4096, md);
                if (ag && ag < region / 4096 && ag <= UINT64_MAX / 4096 - start / 4096)
                        n = add_place(out, n, max, start + ag * 4096, disk);
        }
        return n;
}

static int cmp_u64(const void *a, const void *b)
{
        uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
        return x < y ? -1 : x > y;
}

size_t sbcopy_places(uint64_t start, const uint64_t *regions, size_t n_regions, uint64_t disk, uint64_t sector,
                     uint64_t *out, size_t max)
{
        size_t n = 0;
        if (start >= disk || !sector || sector > 65536)
                return 0;
        static const uint64_t fixed[] = {64 * MiB, 256 * GiB, 8 * MiB + 1 * KiB, 32 * MiB, 128 * MiB, 384 * MiB};
        for (size_t i = 0; i < sizeof(fixed) / sizeof(*fixed); i++)
                if (fixed[i] < disk - start)
                        n = add_place(out, n, max, start + fixed[i], disk);
        for (size_t i = 0; i < n_regions; i++)
                if (regions[i] && regions[i] <= disk - start)
                        n = xfs_places(start, regions[i], disk, out, n, max);
        /* to the disk's end; less the backup GPT (its header and 16 KiB of entries: the last usable
         * sector, or the one before it), and that end rounded down to 1 MiB */
        uint64_t gpt = (1 + 16384 / sector) * sector;
        uint64_t ends[] = {disk, disk - gpt, disk - gpt - sector, (disk - gpt) / MiB * MiB,
                           (disk - gpt - sector) / MiB * MiB};
        for (size_t i = 0; i < sizeof(ends) / sizeof(*ends); i++)
                if (ends[i] > start && ends[i] <= disk)
                        n = xfs_places(start, ends[i] - start, disk, out, n, max);
        qsort(out, n, sizeof(*out), cmp_u64);
        return n;
}

const char *sbcopy_what(const struct sb_copy *c, char *buf, size_t len)
{
        switch (c->fmt) {
        case SB_BTRFS:
                snprintf(buf, len, "btrfs superblock copy (mirror %u)", c->index);
                break;
        case SB_XFS:
                if (c->index)
                        snprintf(buf, len, "xfs secondary superblock (AG %u)", c->index);
                else
                        snprintf(buf, len, "xfs superblock with only its magic erased (AG 0's AGF and AGI intact)");
                break;
        case SB_EXT:
                snprintf(buf, len, "%s backup superblock (group %u)", c->type, c->index);
                break;
        default:
                snprintf(buf, len, "nothing");
        }
        return buf;
}

const char *sbcopy_recover(const struct sb_copy *c, char *buf, size_t len)
{
        switch (c->fmt) {
        case SB_BTRFS:
                snprintf(buf, len, "`btrfs rescue super-recover`");
                break;
        case SB_XFS:
                snprintf(buf, len, "`xfs_repair` (it finds the secondary superblocks)");
                break;
        case SB_EXT:
                snprintf(buf, len, "`e2fsck -b %llu -B %u`",
                         (unsigned long long)((c->at - c->fs_start) / (c->block ? c->block : 1)), c->block);
                break;
        default:
                snprintf(buf, len, "nothing");
        }
        return buf;
}
