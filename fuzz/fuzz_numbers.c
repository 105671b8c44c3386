/* SPDX-License-Identifier: GPL-2.0-or-later
 * Sizes, counts and geometry: no silent wrap. Each accepted value is checked
 * against a second computation in 128 bits; each product in the geometry
 * against its definition. The first byte picks the check. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#define FUZZ_NO_SYSROOTS
#include "fuzz_common.h"
#include "plan/geometry.h"
#include "base/util.h"

typedef unsigned __int128 u128;
#define CAP ((u128)1 << 100)

/* A second reading of a size, in 128 bits, saturating at 2^100. Returns -1
 * for text that is not a size, else 0 with *ret (possibly >= 2^64). */
static int ref_size(const char *s, u128 *ret, int *inexact)
{
        static const struct {
                const char *suffix;
                uint64_t f;
        } u[] = {{"", 1}, {"b", 1}, {"B", 1}, {"s", 512}, {"S", 512}, {"k", 1ull << 10}, {"K", 1ull << 10},
                 {"KiB", 1ull << 10}, {"KB", 1000}, {"m", 1ull << 20}, {"M", 1ull << 20}, {"MiB", 1ull << 20},
                 {"MB", 1000000}, {"g", 1ull << 30}, {"G", 1ull << 30}, {"GiB", 1ull << 30}, {"GB", 1000000000},
                 {"t", 1ull << 40}, {"T", 1ull << 40}, {"TiB", 1ull << 40}, {"TB", 1000000000000ull},
                 {"p", 1ull << 50}, {"P", 1ull << 50}, {"PiB", 1ull << 50}, {"PB", 1000000000000000ull}};
        const char *p = s;
        while (isspace((unsigned char)*p))
                p++;
        if (!isdigit((unsigned char)*p))
                return -1;
        u128 w = 0, fn = 0, fd = 1;
        for (; isdigit((unsigned char)*p); p++)
                w = w > CAP ? w : w * 10 + (u128)(*p - '0');
        *inexact = 0;
        if (*p == '.') {
                p++;
                if (!isdigit((unsigned char)*p))
                        return -1;
                for (; isdigit((unsigned char)*p); p++) {
                        if (fd >= (u128)1000000000000ull) {
                                if (*p != '0')
                                        *inexact = 1;
                                continue;
                        }
                        fn = fn * 10 + (u128)(*p - '0');
                        fd *= 10;
                }
        }
        while (isspace((unsigned char)*p))
                p++;
        for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++)
                if (!strcmp(p, u[i].suffix)) {
                        if (fn && (fn * u[i].f) % fd)
                                *inexact = 1;
                        if (fn && u[i].f == 1)
                                *inexact = 1;
                        *ret = (w > CAP ? CAP : w * u[i].f) + fn * u[i].f / fd;
                        return 0;
                }
        return -1;
}

static void check_size(const char *s)
{
        uint64_t v = 0;
        int rc = parse_size(s, &v), inexact = 0;
        u128 ref = 0;
        int rr = ref_size(s, &ref, &inexact);
        if (rr < 0 || inexact) {
                if (rc == 0)
                        FUZZ_FAIL("parse_size(\"%s\") accepted text that is not a whole size", s);
                return;
        }
        if (ref > UINT64_MAX) {
                if (rc != -ERANGE)
                        FUZZ_FAIL("parse_size(\"%s\") = %d, expected -ERANGE (value past 2^64)", s, rc);
                return;
        }
        if (rc != 0 || v != (uint64_t)ref)
                FUZZ_FAIL("parse_size(\"%s\") = %d, %llu; expected %llu", s, rc, (unsigned long long)v,
                          (unsigned long long)ref);
}

static void check_u64(const char *s)
{
        uint64_t v = 0;
        int rc = parse_u64(s, &v);
        size_t n = strlen(s);
        bool digits = n && strspn(s, "0123456789") == n;
        if (!digits) {
                if (rc == 0)
                        FUZZ_FAIL("parse_u64(\"%s\") accepted a non-number", s);
                return;
        }
        u128 r = 0;
        for (const char *p = s; *p; p++)
                r = r > CAP ? r : r * 10 + (u128)(*p - '0');
        if (r > UINT64_MAX ? rc != -ERANGE : (rc != 0 || v != (uint64_t)r))
                FUZZ_FAIL("parse_u64(\"%s\") = %d, %llu", s, rc, (unsigned long long)v);
}

static uint64_t take(const uint8_t **d, size_t *n, int bytes)
{
        uint64_t v = 0;
        for (int i = 0; i < bytes && *n; i++, (*d)++, (*n)--)
                v = v << 8 | **d;
        return v;
}

static void check_geometry(const uint8_t *d, size_t n)
{
        static const enum raid_level levels[] = {RAID_NONE, RAID_0, RAID_1, RAID_4, RAID_5, RAID_6, RAID_10, RAID_50, RAID_60};
        struct raid_desc r = {0};
        r.level = levels[take(&d, &n, 1) % 9];
        r.members = (unsigned)take(&d, &n, 2);
        uint64_t shift = take(&d, &n, 1) % 64;
        r.chunk_bytes = take(&d, &n, 1) % 2 ? (uint64_t)1 << shift : take(&d, &n, 8);
        r.legs = (unsigned)take(&d, &n, 1);
        r.near_copies = (unsigned)(take(&d, &n, 1) % 4);
        r.md = take(&d, &n, 1) & 1;
        uint64_t sector = (uint64_t)512 << (take(&d, &n, 1) % 8);
        struct stripe_geom g;
        char *e = NULL;
        if (raid_geometry(&r, &g, &e) == 0) {
                if ((u128)g.su_bytes * g.sw != g.full_stripe_bytes)
                        FUZZ_FAIL("full stripe %llu != su %llu x sw %u", (unsigned long long)g.full_stripe_bytes,
                                  (unsigned long long)g.su_bytes, g.sw);
                if (g.su_bytes && (g.sw == 0 || g.sw > r.members))
                        FUZZ_FAIL("sw %u for %u members", g.sw, r.members);
                uint64_t a = partition_align_bytes(&g, sector);
                if (a && (a % (1u << 20) || (g.full_stripe_bytes && a % g.full_stripe_bytes) || a % sector))
                        FUZZ_FAIL("alignment %llu is not a multiple of 1 MiB, the full stripe and the sector",
                                  (unsigned long long)a);
                uint64_t x = vg_extent_bytes(g.full_stripe_bytes);
                if (x && g.full_stripe_bytes && x % g.full_stripe_bytes && x % (128 * 1024))
                        FUZZ_FAIL("extent %llu fits neither the full stripe nor 128 KiB", (unsigned long long)x);
                if (xfs_validate_stripe(g.su_bytes, g.sw, sector, &e) == 0) {
                        if ((u128)(g.su_bytes / 512) * g.sw > INT32_MAX)
                                FUZZ_FAIL("mkfs stripe width past 32 bits accepted");
                } else {
                        free(e);
                        e = NULL;
                }
                unsigned legs = (unsigned)take(&d, &n, 2);
                uint64_t chunk = take(&d, &n, 8);
                struct stripe_geom s;
                int sr = stack_geometry(&g, legs, chunk, g.parity, &s, &e);
                if (sr >= 0) {
                        if ((u128)s.su_bytes * s.sw != s.full_stripe_bytes && s.su_bytes)
                                FUZZ_FAIL("stacked full stripe %llu != su x sw", (unsigned long long)s.full_stripe_bytes);
                        /* the stacking rule: legs x chunk, widened to legs x F when the lower
                         * stripe has parity and the chunk divides it */
                        uint64_t F = g.su_bytes ? g.full_stripe_bytes : 0;
                        bool straddles = F && chunk % F && F % chunk;
                        uint64_t row = F && g.parity && chunk < F && !straddles ? F : chunk;
                        if (s.su_bytes && (u128)row * legs != s.full_stripe_bytes)
                                FUZZ_FAIL("stacked full stripe %llu != legs x (F or chunk)",
                                          (unsigned long long)s.full_stripe_bytes);
                        if (straddles && g.parity)
                                FUZZ_FAIL("a chunk that straddles parity stripes below was accepted");
                        if ((sr == 1) != straddles)
                                FUZZ_FAIL("a straddled hint was %s", sr == 1 ? "reported without straddling" : "not reported");
                        if (sr == 1 && !e)
                                FUZZ_FAIL("a warning without its reason");
                        free(e);
                        e = NULL;
                } else {
                        free(e);
                        e = NULL;
                }
        } else {
                if (!e)
                        FUZZ_FAIL("raid_geometry failed without a reason");
                free(e);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        if (size < 1 || size > 256)
                return 0;
        char *s = strndup((const char *)data + 1, size - 1);
        switch (data[0] % 3) {
        case 0:
                check_size(s);
                break;
        case 1:
                check_u64(s);
                break;
        default:
                check_geometry(data + 1, size - 1);
        }
        free(s);
        return 0;
}
