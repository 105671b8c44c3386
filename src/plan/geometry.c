/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plan/geometry.h"

#include <errno.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>

#include "base/util.h"

static int fail(char **ret_err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(char **ret_err, const char *fmt, ...)
{
        if (ret_err) {
                struct sbuf b = {0};
                va_list ap;
                va_start(ap, fmt);
                sbuf_vprintf(&b, fmt, ap);
                va_end(ap);
                *ret_err = sbuf_steal(&b);
        }
        return -EINVAL;
}

int raid_geometry(const struct raid_desc *d, struct stripe_geom *ret, char **ret_err)
{
        char cb[32];
        unsigned legs = d->legs ? d->legs : 1;
        unsigned n = d->members;
        unsigned data = 0, min = 0;

        if (d->level == RAID_NONE) {
                *ret = (struct stripe_geom){0};
                return 0;
        }
        if (d->level == RAID_1) {
                if (n < 2)
                        return fail(ret_err, "raid1 needs at least 2 members, got %u", n);
                if (d->chunk_bytes)
                        return fail(ret_err, "raid1 has no chunk: mirrors do not stripe, and mdadm >= 4.2 refuses --chunk on raid1");
                if (d->legs > 1)
                        return fail(ret_err, "legs apply to raid50/raid60 only");
                *ret = (struct stripe_geom){0};
                return 0;
        }
        if (n > GEOM_MAX_MEMBERS)
                return fail(ret_err, "%u members: at most %u", n, GEOM_MAX_MEMBERS);
        if (d->legs > 1 && d->level != RAID_50 && d->level != RAID_60)
                return fail(ret_err, "legs apply to raid50/raid60 only, not %s", raid_level_name(d->level));
        if (!d->chunk_bytes)
                return fail(ret_err, "%s needs a chunk size", raid_level_name(d->level));
        if (d->chunk_bytes % 4096)
                return fail(ret_err, "chunk %s is not a multiple of 4 KiB", fmt_size_exact(d->chunk_bytes, cb));
        if (d->chunk_bytes > GEOM_MAX_CHUNK_BYTES)
                return fail(ret_err, "chunk %s is larger than 1 GiB", fmt_size_exact(d->chunk_bytes, cb));
        if (d->md && !is_pow2(d->chunk_bytes) && d->level != RAID_0) {
                /* md raid0 takes any multiple of 4 KiB; raid4/5/6/10 need a power of 2 */
                uint64_t lo = d->chunk_bytes;
                while (lo & (lo - 1))
                        lo &= lo - 1;
                char lb[32], hb[32];
                return fail(ret_err,
                            "md %s chunk %s is not a power of 2 (the kernel's %s takes only powers of 2; md raid0 "
                            "takes any multiple of 4 KiB): %s or %s would do",
                            raid_level_name(d->level), fmt_size_exact(d->chunk_bytes, cb), raid_level_name(d->level),
                            fmt_size_exact(lo, lb), fmt_size_exact(lo * 2, hb));
        }

        switch (d->level) {
        case RAID_0:
                min = 2;
                data = n;
                break;
        case RAID_4:
        case RAID_5:
                min = 3;
                data = n - 1;
                break;
        case RAID_6:
                min = 4;
                data = n - 2;
                break;
        case RAID_10: {
                unsigned near = d->near_copies ? d->near_copies : 2;
                min = d->copies ? d->copies : near;
                data = (n % near == 0) ? n / near : n; /* as raid10_set_limits does */
                break;
        }
        case RAID_50:
        case RAID_60: {
                unsigned parity = d->level == RAID_50 ? 1 : 2;
                if (legs < 2)
                        return fail(ret_err, "%s needs legs >= 2 (the number of %s groups)", raid_level_name(d->level),
                                    parity == 1 ? "raid5" : "raid6");
                if (n % legs)
                        return fail(ret_err, "%u members do not split evenly into %u legs", n, legs);
                unsigned per = n / legs;
                if (per < parity + 2)
                        return fail(ret_err, "%s legs need at least %u members each, got %u", raid_level_name(d->level),
                                    parity + 2, per);
                min = legs * (parity + 2);
                data = legs * (per - parity);
                break;
        }
        default:
                return fail(ret_err, "unsupported level");
        }
        if (n < min)
                return fail(ret_err, "%s needs at least %u members, got %u", raid_level_name(d->level), min, n);
        uint64_t full;
        if (__builtin_mul_overflow(d->chunk_bytes, (uint64_t)data, &full) || full > GEOM_MAX_FULL_STRIPE_BYTES)
                return fail(ret_err, "full stripe %u x %s is larger than %s: no array stripes that wide", data,
                            fmt_size_exact(d->chunk_bytes, cb), "1 TiB");

        ret->su_bytes = d->chunk_bytes;
        ret->sw = data;
        ret->full_stripe_bytes = full;
        ret->parity = raid_level_has_parity(d->level);
        return 0;
}

static uint64_t pow2_divisor_at_most(uint64_t F, uint64_t max_bytes);

int stack_geometry(const struct stripe_geom *lower, unsigned data_legs, uint64_t chunk_bytes, bool parity_upper,
                   struct stripe_geom *ret, char **ret_err)
{
        char a[32], b[32];
        uint64_t full, sw = data_legs;
        if (data_legs < 1)
                return fail(ret_err, "no devices to stripe across");
        if (data_legs > GEOM_MAX_MEMBERS)
                return fail(ret_err, "%u devices to stripe across: at most %u", data_legs, GEOM_MAX_MEMBERS);
        if (!chunk_bytes || chunk_bytes % 4096)
                return fail(ret_err, "stripe chunk %s is not a multiple of 4 KiB", fmt_size_exact(chunk_bytes, a));
        int r = 0;
        bool parity = parity_upper;
        if (lower && lower->su_bytes) {
                uint64_t F = lower->full_stripe_bytes;
                parity = parity || lower->parity;
                if (chunk_bytes % F && F % chunk_bytes) {
                        if (lower->parity) {
                                char c1[32], c2[32];
                                uint64_t p2 = F & -F, g = pow2_divisor_at_most(F, PLUG_GATHER_MAX_BYTES);
                                return fail(ret_err,
                                            "chunk %s neither divides nor is a multiple of the underlying full stripe %s: "
                                            "chunks would straddle the parity stripes of the devices below; what works: "
                                            "a power of 2 that divides %s (4k up to %s; %s is what storprov derives when "
                                            "the chunk is left out), or %s itself or a multiple of it (md raid0 only: "
                                            "LVM stripes and md raid4/5/6/10 chunks are powers of 2)",
                                            fmt_size_exact(chunk_bytes, a), fmt_size_exact(F, b),
                                            fmt_size_exact(F, (char[32]){0}), fmt_size_exact(p2, c1),
                                            fmt_size_exact(g >= 4096 ? g : p2, c2), fmt_size_exact(F, (char[32]){0}));
                        }
                        /* a hint, not a parity stripe: nothing pays for it, but say so */
                        if (ret_err)
                                *ret_err = xasprintf("chunk %s neither divides nor is a multiple of the stripe %s the "
                                                     "devices below export; their hint is not followed",
                                                     fmt_size_exact(chunk_bytes, a), fmt_size_exact(F, b));
                        r = 1;
                } else if (lower->parity && chunk_bytes < F) {
                        /* each leg's share of an upper stripe must be a whole lower stripe */
                        sw = (uint64_t)data_legs * (F / chunk_bytes);
                }
        }
        if (__builtin_mul_overflow(chunk_bytes, sw, &full) || full > GEOM_MAX_FULL_STRIPE_BYTES || sw > UINT32_MAX) {
                if (r == 1 && ret_err)
                        free(*ret_err);
                return fail(ret_err, "full stripe %" PRIu64 " x %s is larger than 1 TiB", sw,
                            fmt_size_exact(chunk_bytes, a));
        }
        *ret = (struct stripe_geom){.su_bytes = chunk_bytes, .sw = (unsigned)sw, .full_stripe_bytes = full,
                                    .parity = parity};
        return r;
}

/* The largest power of 2 that divides F and is at most max_bytes. */
static uint64_t pow2_divisor_at_most(uint64_t F, uint64_t max_bytes)
{
        uint64_t c = F & -F;
        while (c > max_bytes)
                c >>= 1;
        return c;
}

uint64_t stack_chunk_bytes(const struct stripe_geom *lower, uint64_t limit_bytes, bool parity_upper, char **ret_why)
{
        char a[32], b[32];
        *ret_why = NULL;
        if (!lower || !lower->su_bytes)
                return 0;
        uint64_t F = lower->full_stripe_bytes;
        if (parity_upper) {
                /* within what a parity md gathers well ... */
                uint64_t c = pow2_divisor_at_most(F, PARITY_MD_MAX_CHUNK_BYTES);
                /* ... and, a leg's share of a LUN stripe in pieces, pieces the block layer still merges */
                if (lower->parity && c < F)
                        c = pow2_divisor_at_most(F, PLUG_GATHER_MAX_BYTES);
                if (c < 4096)
                        return 0;
                if (c == F)
                        *ret_why = xasprintf("= one full stripe %s of the devices below (a parity md's chunk is kept "
                                             "to %s or less)",
                                             fmt_size_exact(F, a), fmt_size_exact(PARITY_MD_MAX_CHUNK_BYTES, b));
                else
                        *ret_why = xasprintf("= the largest power of 2 of at most %s that divides the full stripe %s "
                                             "below: each leg writes a stripe of the devices below in pieces, which "
                                             "the kernel merges into one request per device only while they are "
                                             "below 128 KiB",
                                             fmt_size_exact(PLUG_GATHER_MAX_BYTES, a), fmt_size_exact(F, b));
                return c;
        }
        if (is_pow2(F) && F >= 4096 && (!limit_bytes || F <= limit_bytes)) {
                *ret_why = xasprintf("= one full stripe %s of the devices below, so each leg writes whole stripes "
                                     "of its device in one piece",
                                     fmt_size_exact(F, a));
                return F;
        }
        if (lower->parity) {
                uint64_t c = pow2_divisor_at_most(F, PLUG_GATHER_MAX_BYTES);
                if (c < 4096)
                        return 0;
                *ret_why = xasprintf("= the largest power of 2 of at most %s that divides the parity devices' full "
                                     "stripe %s (%s): pieces below 128 KiB reach each device as one request per stripe",
                                     fmt_size_exact(PLUG_GATHER_MAX_BYTES, a), fmt_size_exact(F, b),
                                     is_pow2(F) ? "above the limit" : "not a power of 2");
                return c;
        }
        if (is_pow2(lower->su_bytes) && lower->su_bytes >= 4096) {
                *ret_why = xasprintf("= the su %s of the devices below (their full stripe %s is %s)",
                                     fmt_size_exact(lower->su_bytes, a), fmt_size_exact(F, b),
                                     is_pow2(F) ? "above the limit" : "not a power of 2");
                return lower->su_bytes;
        }
        uint64_t c = F & -F; /* the largest power of 2 dividing F */
        if (c < 4096)
                return 0;
        *ret_why = xasprintf("the largest power of 2 that divides the full stripe %s below (their su %s is not one)",
                             fmt_size_exact(F, a), fmt_size_exact(lower->su_bytes, b));
        return c;
}

uint64_t md0_chunk_bytes(const struct stripe_geom *lower, char **ret_why)
{
        char a[32];
        *ret_why = NULL;
        if (!lower || !lower->su_bytes || !lower->parity)
                return 0;
        uint64_t F = lower->full_stripe_bytes;
        if (is_pow2(F) || F % 4096 || F > PARITY_MD_MAX_CHUNK_BYTES)
                return 0;
        *ret_why = xasprintf("= one full stripe %s of the parity devices below (md raid0 takes any multiple of 4 KiB): "
                             "each piece it sends a device is one whole stripe of it, whether or not the block layer "
                             "merges pieces (buffered writes flushed by fsync are not merged)",
                             fmt_size_exact(F, a));
        return F;
}

char *stack_chunk_advice(const struct stripe_geom *lower, uint64_t chunk_bytes, uint64_t limit_bytes,
                         bool parity_upper)
{
        char a[32], b[32];
        if (!lower || !lower->su_bytes || !lower->parity)
                return NULL;
        /* under a parity md, pieces below 128 KiB gather into one request per device (measured 0.0006-0.0025
         * for 16k-64k chunks), and F is the chunk only up to 512 KiB (stack_chunk_bytes) */
        if (parity_upper && chunk_bytes <= PLUG_GATHER_MAX_BYTES)
                return NULL;
        if (parity_upper && (!limit_bytes || limit_bytes > PARITY_MD_MAX_CHUNK_BYTES))
                limit_bytes = PARITY_MD_MAX_CHUNK_BYTES;
        uint64_t F = lower->full_stripe_bytes;
        if (chunk_bytes >= F || F % chunk_bytes)
                return NULL;
        if (!is_pow2(F) || (limit_bytes && F > limit_bytes)) {
                /* F cannot be the chunk: pieces below 128 KiB are still gathered */
                if (chunk_bytes <= PLUG_GATHER_MAX_BYTES)
                        return NULL;
                uint64_t c = pow2_divisor_at_most(F, PLUG_GATHER_MAX_BYTES);
                return xasprintf("chunk %s is smaller than the full stripe %s of the parity devices below, and at "
                                 "128 KiB or more the kernel sends each of its %" PRIu64 " pieces to the device as "
                                 "a separate request, which it may take as partial-stripe writes "
                                 "(read-modify-write); %s gathers into one request per device",
                                 fmt_size_exact(chunk_bytes, a), fmt_size_exact(F, b), F / chunk_bytes,
                                 fmt_size_exact(c, (char[32]){0}));
        }
        return xasprintf("chunk %s is smaller than the full stripe %s of the parity devices below: each leg's share "
                         "of a full stripe reaches its device in %" PRIu64 " pieces, which it may take as partial-stripe "
                         "writes (read-modify-write); %s avoids it",
                         fmt_size_exact(chunk_bytes, a), fmt_size_exact(F, b), F / chunk_bytes,
                         fmt_size_exact(F, (char[32]){0}));
}

uint64_t partition_align_bytes(const struct stripe_geom *g, uint64_t physical_sector_bytes)
{
        uint64_t a = lcm_u64(PARTITION_GRAIN_BYTES, g ? g->full_stripe_bytes : 0);
        if (!a)
                return 0; /* overflow: never a silent fallback to 512 */
        return lcm_u64(a, physical_sector_bytes ? physical_sector_bytes : SECTOR_BYTES);
}

uint64_t pv_data_alignment_bytes(const struct stripe_geom *g)
{
        if (!g || !g->full_stripe_bytes)
                return 0;
        return lcm_u64(PARTITION_GRAIN_BYTES, g->full_stripe_bytes); /* 0 on overflow */
}

uint64_t vg_extent_bytes(uint64_t full_stripe_bytes)
{
        if (!full_stripe_bytes)
                return VG_EXTENT_MIN_BYTES;
        for (uint64_t k = 1;; k++) {
                uint64_t e;
                if (__builtin_mul_overflow(full_stripe_bytes, k, &e))
                        return 0;
                if (e < VG_EXTENT_MIN_BYTES)
                        continue;
                if (is_pow2(e) || e % (128 * KiB) == 0)
                        return e;
                if (k > 1024)
                        return lcm_u64(full_stripe_bytes, 128 * KiB); /* a multiple of 128 KiB, or 0 on overflow */
        }
}

uint64_t xfs_log_su_bytes(const struct stripe_geom *g, int choice)
{
        if (!g || !g->su_bytes)
                return 0;
        if (choice == 0 || (choice < 0 && g->parity))
                return XFS_BLOCK_BYTES;
        uint64_t p = XFS_LOG_SU_MAX_BYTES;
        while (p > XFS_BLOCK_BYTES && g->su_bytes % p)
                p >>= 1;
        return g->su_bytes % p ? 0 : p;
}

int xfs_validate_stripe(uint64_t su_bytes, unsigned sw, uint64_t sector_bytes, char **ret_err)
{
        char a[32];
        if (!su_bytes && !sw)
                return 0;
        if (!su_bytes || !sw)
                return fail(ret_err, "mkfs.xfs needs su and sw together (su=%" PRIu64 ", sw=%u)", su_bytes, sw);
        if (su_bytes % XFS_BLOCK_BYTES)
                return fail(ret_err, "stripe unit %s is not a multiple of the XFS block size (4096)",
                            fmt_size_exact(su_bytes, a));
        if (sector_bytes && su_bytes % sector_bytes)
                return fail(ret_err, "stripe unit %s is not a multiple of the sector size %" PRIu64,
                            fmt_size_exact(su_bytes, a), sector_bytes);
        uint64_t swidth;
        if (__builtin_mul_overflow(su_bytes / SECTOR_BYTES, (uint64_t)sw, &swidth) || swidth > INT32_MAX)
                return fail(ret_err, "stripe width %u x %s is too large for mkfs.xfs", sw, fmt_size_exact(su_bytes, a));
        return 0;
}

uint64_t xfs_logbsize_bytes(uint64_t log_su_bytes)
{
        (void)log_su_bytes; /* every log su we derive is <= 256 KiB */
        return XFS_LOG_SU_MAX_BYTES;
}

uint64_t xfs_stripe_agsize_blocks(uint64_t agsize_blocks, uint64_t block_bytes, const struct stripe_geom *g)
{
        if (!g || !g->parity || !g->su_bytes || !g->sw || !block_bytes || g->full_stripe_bytes % block_bytes)
                return 0;
        uint64_t swidth = g->full_stripe_bytes / block_bytes;
        uint64_t min_s = (16 * MiB + g->full_stripe_bytes - 1) / g->full_stripe_bytes;
        uint64_t max_s = (1ULL << 40) / g->full_stripe_bytes;
        if (agsize_blocks % swidth == 0 && gcd_u64(agsize_blocks / swidth, g->sw + 1) == 1 &&
            gcd_u64(agsize_blocks / swidth, g->sw + 2) == 1)
                return 0; /* already whole stripes, rotating */
        uint64_t s0 = (agsize_blocks + swidth / 2) / swidth;
        /* s0, s0 + 1, s0 - 1, s0 + 2, …: the nearest count coprime to both */
        for (uint64_t d = 0; d <= 2 * (uint64_t)g->sw + 4; d++) {
                uint64_t s = d % 2 ? s0 + (d + 1) / 2 : s0 - d / 2;
                if (d % 2 == 0 && d / 2 > s0)
                        continue;
                if (s < min_s || s > max_s)
                        continue;
                if (gcd_u64(s, g->sw + 1) == 1 && gcd_u64(s, g->sw + 2) == 1)
                        return s * swidth;
        }
        return 0;
}
