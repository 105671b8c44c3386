/* SPDX-License-Identifier: GPL-2.0-or-later
 * What mkfs.xfs -N printed (src/sys/mkfs_out.c), on any text, and the AG size
 * apply derives from it (xfs_stripe_agsize_blocks). What must hold: an
 * accepted block size is a power of 2 from 512 to 64 KiB and an accepted AG
 * 16 MiB to 1 TiB; the derived AG size, where there is one, is whole full
 * stripes within the same bounds, on a few parity geometries. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_NO_SYSROOTS
#include "fuzz_common.h"
#include "base/util.h"
#include "plan/geometry.h"
#include "sys/mkfs_out.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        char *text = xmalloc(size + 1);
        memcpy(text, data, size);
        text[size] = '\0';
        uint64_t ag = 0, bs = 0;
        bool ok = mkfs_out_ag(text, &ag, &bs);
        free(text);
        if (!ok)
                return 0;
        if (bs < 512 || bs > 64 * KiB || (bs & (bs - 1)))
                FUZZ_FAIL("block size %llu accepted", (unsigned long long)bs);
        if (ag > (1ull << 40) / bs || ag * bs < 16 * MiB)
                FUZZ_FAIL("AG of %llu blocks of %llu accepted", (unsigned long long)ag, (unsigned long long)bs);
        static const struct stripe_geom geoms[] = {
                {.su_bytes = 64 * KiB, .sw = 4, .full_stripe_bytes = 256 * KiB, .parity = true},
                {.su_bytes = 128 * KiB, .sw = 10, .full_stripe_bytes = 1280 * KiB, .parity = true},
                {.su_bytes = 256 * KiB, .sw = 11, .full_stripe_bytes = 2816 * KiB, .parity = true},
                {.su_bytes = 4 * KiB, .sw = 1, .full_stripe_bytes = 4 * KiB, .parity = true},
        };
        for (size_t i = 0; i < sizeof(geoms) / sizeof(geoms[0]); i++) {
                const struct stripe_geom *g = &geoms[i];
                uint64_t want = xfs_stripe_agsize_blocks(ag, bs, g);
                if (!want)
                        continue;
                if (g->full_stripe_bytes % bs || want % (g->full_stripe_bytes / bs))
                        FUZZ_FAIL("AG of %llu blocks is not whole stripes of %llu bytes", (unsigned long long)want,
                                  (unsigned long long)g->full_stripe_bytes);
                if (want > (1ull << 40) / bs || want * bs < 16 * MiB)
                        FUZZ_FAIL("AG of %llu blocks of %llu derived", (unsigned long long)want,
                                  (unsigned long long)bs);
        }
        return 0;
}
