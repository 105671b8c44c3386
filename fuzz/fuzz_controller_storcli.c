/* SPDX-License-Identifier: GPL-2.0-or-later
 * The Broadcom MegaRAID JSON readers (src/discover/ctl_broadcom.c: storcli,
 * perccli, storcli2, perccli2) on any bytes, each input through both entry
 * points; the invariants are in fuzz_controller.h. */
#include "fuzz_controller.h"

static int storcli(const char *b, size_t n, struct ctl_list *l, char **e)
{
        return ctl_parse_storcli(b, n, "storcli", NULL, l, e);
}

static int storcli2(const char *b, size_t n, struct ctl_list *l, char **e)
{
        return ctl_parse_storcli2(b, n, "storcli2", NULL, l, e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        /* many-luns: disks with 128-bit NAA WWNs */
        ctl_fuzz_one(storcli, data, size, &fuzz_si[4]);
        ctl_fuzz_one(storcli2, data, size, &fuzz_si[4]);
        return 0;
}
