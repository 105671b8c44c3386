/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int parse_u64(const char *s, uint64_t *ret)
{
        if (!s || !*s || !isdigit((unsigned char)*s))
                return -EINVAL;
        uint64_t v = 0;
        for (; isdigit((unsigned char)*s); s++)
                if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(*s - '0'), &v))
                        return -ERANGE;
        if (*s)
                return -EINVAL;
        *ret = v;
        return 0;
}

int parse_uint_range(const char *s, uint64_t min, uint64_t max, uint64_t *ret)
{
        uint64_t v;
        int r = parse_u64(s, &v);
        if (r < 0)
                return r;
        if (v < min || v > max)
                return -ERANGE;
        *ret = v;
        return 0;
}

int parse_bool(const char *s, bool *ret)
{
        if (!s)
                return -EINVAL;
        if (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "1")) {
                *ret = true;
                return 0;
        }
        if (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "0")) {
                *ret = false;
                return 0;
        }
        return -EINVAL;
}

int parse_size(const char *s, uint64_t *ret_bytes)
{
        static const struct {
                const char *suffix;
                uint64_t factor;
        } units[] = {
                {"", 1},          {"b", 1},          {"B", 1},
                {"s", 512},       {"S", 512},
                {"k", KiB},       {"K", KiB},        {"KiB", KiB},      {"KB", 1000},
                {"m", MiB},       {"M", MiB},        {"MiB", MiB},      {"MB", 1000000},
                {"g", GiB},       {"G", GiB},        {"GiB", GiB},      {"GB", UINT64_C(1000000000)},
                {"t", TiB},       {"T", TiB},        {"TiB", TiB},      {"TB", UINT64_C(1000000000000)},
                {"p", TiB * 1024}, {"P", TiB * 1024}, {"PiB", TiB * 1024}, {"PB", UINT64_C(1000000000000000)},
        };
        if (!s)
                return -EINVAL;
        const char *p = s;
        while (isspace((unsigned char)*p))
                p++;
        if (!isdigit((unsigned char)*p))
                return -EINVAL;
        uint64_t whole = 0, frac_num = 0, frac_den = 1;
        for (; isdigit((unsigned char)*p); p++)
                if (__builtin_mul_overflow(whole, 10, &whole) ||
                    __builtin_add_overflow(whole, (uint64_t)(*p - '0'), &whole))
                        return -ERANGE;
        if (*p == '.') {
                p++;
                if (!isdigit((unsigned char)*p))
                        return -EINVAL;
                for (; isdigit((unsigned char)*p); p++) {
                        if (frac_den >= UINT64_C(1000000000000)) {
                                if (*p != '0')
                                        return -EINVAL; /* finer than any unit resolves */
                                continue;
                        }
                        frac_num = frac_num * 10 + (uint64_t)(*p - '0');
                        frac_den *= 10;
                }
        }
        while (isspace((unsigned char)*p))
                p++;
        for (size_t i = 0; i < ELEMENTSOF(units); i++) {
                if (strcmp(p, units[i].suffix) != 0)
                        continue;
                uint64_t f = units[i].factor, v, fr;
                if (__builtin_mul_overflow(whole, f, &v))
                        return -ERANGE;
                if (frac_num) {
                        /* the fraction must come to whole bytes: "0.5k" is 512, "1.1k" is refused */
                        unsigned __int128 t = (unsigned __int128)frac_num * f;
                        if (t % frac_den)
                                return -EINVAL;
                        t /= frac_den;
                        if (t > UINT64_MAX)
                                return -ERANGE;
                        fr = (uint64_t)t;
                        if (__builtin_add_overflow(v, fr, &v))
                                return -ERANGE;
                }
                *ret_bytes = v;
                return 0;
        }
        return -EINVAL;
}

const char *fmt_size_exact(uint64_t bytes, char buf[static 32])
{
        static const char suffix[] = "kmgtp";
        int i = -1;
        uint64_t v = bytes;
        while (v && v % 1024 == 0 && i < 4) {
                v /= 1024;
                i++;
        }
        if (i < 0)
                snprintf(buf, 32, "%" PRIu64, bytes);
        else
                snprintf(buf, 32, "%" PRIu64 "%c", v, suffix[i]);
        return buf;
}

const char *fmt_size_human(uint64_t bytes, char buf[static 32])
{
        static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        int i = 0;
        long double v = (long double)bytes;
        while (v >= 1024 && i < 5) {
                v /= 1024;
                i++;
        }
        if (i == 0)
                snprintf(buf, 32, "%" PRIu64 " B", bytes);
        else if (bytes % ((uint64_t)1 << (10 * i)) == 0)
                snprintf(buf, 32, "%.0Lf %s", v, units[i]);
        else
                snprintf(buf, 32, "%.1Lf %s", v, units[i]);
        return buf;
}

uint64_t gcd_u64(uint64_t a, uint64_t b)
{
        while (b) {
                uint64_t t = a % b;
                a = b;
                b = t;
        }
        return a;
}

uint64_t lcm_u64(uint64_t a, uint64_t b)
{
        if (!a)
                return b;
        if (!b)
                return a;
        uint64_t g = gcd_u64(a, b);
        uint64_t q = a / g;
        if (q > UINT64_MAX / b)
                return 0;
        return q * b;
}

bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

uint64_t round_up(uint64_t x, uint64_t align)
{
        if (!align)
                return x;
        return (x + align - 1) / align * align;
}

uint64_t round_down(uint64_t x, uint64_t align)
{
        if (!align)
                return x;
        return x / align * align;
}
