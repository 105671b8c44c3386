/* SPDX-License-Identifier: GPL-2.0-or-later
 * The arcconf "GETCONFIG N LD" reader (src/discover/ctl_text.c), the
 * "GETCONFIGJSON N" one (ctl_json.c), each input through both, and the
 * controller count on any bytes; the invariants are in fuzz_controller.h. */
#include "fuzz_controller.h"

static int arcconf(const char *b, size_t n, struct ctl_list *l, char **e) { return ctl_parse_arcconf(b, n, "arcconf", "1", l, e); }
static int arcconf_json(const char *b, size_t n, struct ctl_list *l, char **e) { return ctl_parse_arcconf_json(b, n, "arcconf", "1", l, e); }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
        (void)argc;
        (void)argv;
        fuzz_load_sysroots();
        return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        ctl_fuzz_one(arcconf, data, size, &fuzz_si[4]);
        ctl_fuzz_one(arcconf_json, data, size, &fuzz_si[4]);
        if (ctl_arcconf_count((const char *)data, size) > 64)
                FUZZ_FAIL("more than 64 controllers counted");
        return 0;
}
