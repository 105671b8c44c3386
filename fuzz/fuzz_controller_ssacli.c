/* SPDX-License-Identifier: GPL-2.0-or-later
 * The HPE Smart Array reader (src/discover/ctl_hpe.c: ssacli "ctrl all show
 * config detail", hpssacli and hpacucli, which print the same format) on any
 * bytes; the invariants are in fuzz_controller.h. */
#include "fuzz_controller.h"

static int ssacli(const char *b, size_t n, struct ctl_list *l, char **e)
{
        return ctl_parse_ssacli(b, n, "ssacli", NULL, l, e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        ctl_fuzz_one(ssacli, data, size, &fuzz_si[4]);
        return 0;
}
