/* SPDX-License-Identifier: GPL-2.0-or-later
 * Numbers: sizes with units, checked parsers of counts, saturating and aligned integer maths. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#define KiB UINT64_C(1024)
#define MiB (KiB * 1024)
#define GiB (MiB * 1024)
#define TiB (GiB * 1024)

/* The unit of sysfs sizes, mkfs sunit/swidth, lvcreate -r and dm tables, and the
 * logical sector a device has when it does not say. */
#define SECTOR_BYTES UINT64_C(512)

/* Sizes. Accepts "512", "64K", "64k", "64KiB", "11M", "5.5T" (binary units:
 * K/M/G/T/P and KiB/MiB/…), "500GB"/"5.5TB" (decimal: KB/MB/GB/TB/PB) and
 * a trailing "s" for 512-byte sectors ("2048s"). A fraction must come to whole
 * bytes ("0.5k" yes, "1.1k" -EINVAL). Checked: a value past 2^64-1 is -ERANGE,
 * never wrapped. Returns 0 or -EINVAL/-ERANGE. */
int parse_size(const char *s, uint64_t *ret_bytes);
/* Shortest exact form with a lower-case binary suffix for mkfs and mount:
 * 65536 -> "64k", 11534336 -> "11m", 1000 -> "1000". buf needs 32 bytes. */
const char *fmt_size_exact(uint64_t bytes, char buf[static 32]);
/* Human form with one decimal for messages: "5.5 TiB". buf needs 32 bytes. */
const char *fmt_size_human(uint64_t bytes, char buf[static 32]);
/* The one checked parser for counts: decimal digits only (no sign, no blank),
 * overflow gives -ERANGE, never a wrapped value. */
int parse_u64(const char *s, uint64_t *ret);
/* parse_u64 within [min, max]: -ERANGE outside. */
int parse_uint_range(const char *s, uint64_t min, uint64_t max, uint64_t *ret);
/* Saturating arithmetic for guards: UINT64_MAX instead of a wrap. */
static inline uint64_t mul_sat_u64(uint64_t a, uint64_t b)
{
        uint64_t r;
        return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}
static inline uint64_t add_sat_u64(uint64_t a, uint64_t b)
{
        uint64_t r;
        return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}
int parse_bool(const char *s, bool *ret);

uint64_t gcd_u64(uint64_t a, uint64_t b);
/* lcm, or 0 on overflow. lcm(0, x) = x. */
uint64_t lcm_u64(uint64_t a, uint64_t b);
bool is_pow2(uint64_t x);
uint64_t round_up(uint64_t x, uint64_t align);
uint64_t round_down(uint64_t x, uint64_t align);
