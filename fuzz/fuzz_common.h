/* SPDX-License-Identifier: GPL-2.0-or-later
 * Shared by the libFuzzer targets: the fixture sysroots, loaded once, and a
 * failure that libFuzzer records as a crash with the reason. */
#pragma once
#include <stdio.h>
#include <stdlib.h>

#include "discover/discover.h"

#define FUZZ_FAIL(...)                                                                                                 \
        do {                                                                                                           \
                fprintf(stderr, "fuzz invariant broken: " __VA_ARGS__);                                                \
                fputc('\n', stderr);                                                                                   \
                abort();                                                                                               \
        } while (0)

#ifndef FUZZ_NO_SYSROOTS
/* The fixture sysroots under tests/fixtures/sysroot (STORPROV_TOP at build time). */
static const char *const fuzz_sysroots[] = {
        "grid-3ware", "grid-3ware-raid5", "hwraid6-md0-lvm", "md-raid6-lvm", "many-luns", "md-raid1-syncwrite",
        "multipath-2path", "multipath-2path-nomap",
};
#define FUZZ_N_SYSROOTS (sizeof(fuzz_sysroots) / sizeof(fuzz_sysroots[0]))

static struct sysinfo fuzz_si[FUZZ_N_SYSROOTS];

static void fuzz_load_sysroots(void)
{
        for (size_t i = 0; i < FUZZ_N_SYSROOTS; i++) {
                char *p = xasprintf("%s/tests/fixtures/sysroot/%s", STORPROV_TOP, fuzz_sysroots[i]);
                struct diags d = {0};
                if (sysinfo_load(p, &fuzz_si[i], &d) < 0)
                        FUZZ_FAIL("cannot load %s", p);
                diags_free(&d);
                free(p);
        }
}
#endif
