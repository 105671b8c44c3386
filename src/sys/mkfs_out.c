/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sys/mkfs_out.h"

#include <string.h>

#include "base/numbers.h"

#define XFS_AG_MIN_BYTES (16 * MiB)
#define XFS_AG_MAX_BYTES (1ull << 40)

/* The decimal number right after key at *from, or false: digits only, up to
 * a blank, a comma or the end, at most 20 of them (parse_u64 checks the range). */
static bool field_u64(const char *from, const char *key, uint64_t *ret)
{
        const char *k = from ? strstr(from, key) : NULL;
        if (!k)
                return false;
        k += strlen(key);
        size_t n = strspn(k, "0123456789");
        if (!n || n > 20 || (k[n] && !strchr(" \t\n,", k[n])))
                return false;
        char buf[24];
        memcpy(buf, k, n);
        buf[n] = '\0';
        return parse_u64(buf, ret) == 0;
}

bool mkfs_out_ag(const char *out, uint64_t *agsize_blocks, uint64_t *block_bytes)
{
        const char *meta = out ? strstr(out, "meta-data=") : NULL;
        const char *data = meta ? strstr(meta, "\ndata ") : NULL;
        uint64_t ag = 0, bs = 0;
        if (!field_u64(meta, "agsize=", &ag) || !field_u64(data, "bsize=", &bs))
                return false;
        if (bs < 512 || bs > 64 * KiB || !is_pow2(bs) || ag > XFS_AG_MAX_BYTES / bs || ag * bs < XFS_AG_MIN_BYTES)
                return false;
        *agsize_blocks = ag;
        *block_bytes = bs;
        return true;
}
