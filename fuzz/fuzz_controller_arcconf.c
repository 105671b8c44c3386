/* SPDX-License-Identifier: GPL-2.0-or-later
 * The arcconf readers (src/discover/ctl_adaptec.c) on any bytes: each input
 * through the "GETCONFIG N LD/AL" text reader (for controller 1 and 2), the
 * "GETCONFIGJSON N" reader and the follower; the parsers' invariants are in
 * fuzz_controller.h. The follower returns 0 with commands "GETCONFIG 2" ..
 * "GETCONFIG N" (step 0, N at most 64, ids "2".."N" in order, each once), or
 * -EINVAL with one printable error and the list as it was; it agrees with
 * ctl_arcconf_count; and it leads nowhere from another controller's output. */
#include <stdio.h>

#include "fuzz_controller.h"

#define TOOL "arcconf"

static int arcconf(const char *b, size_t n, struct ctl_list *l, char **e)
{
        return ctl_parse_arcconf(b, n, TOOL, "1", l, e);
}

static int arcconf_c2(const char *b, size_t n, struct ctl_list *l, char **e)
{
        return ctl_parse_arcconf(b, n, TOOL, "2", l, e);
}

static int arcconf_json(const char *b, size_t n, struct ctl_list *l, char **e)
{
        return ctl_parse_arcconf_json(b, n, TOOL, "1", l, e);
}

static void follow(const uint8_t *data, size_t size)
{
        struct ctl_nexts x;
        int r = ctl_fuzz_follow(ctl_follow_arcconf, TOOL, data, size, NULL, 1u, &x);
        if (x.n - 1 > 63)
                FUZZ_FAIL("%zu commands: more than 63 controllers after the first", x.n - 1);
        for (size_t i = 1; i < x.n; i++) {
                char want[24];
                snprintf(want, sizeof want, "%zu", i + 1);
                if (x.v[i].step != 0 || strcmp(x.v[i].id, want))
                        FUZZ_FAIL("command %zu is %u:%s, not 0:%s", i, x.v[i].step, x.v[i].id, want);
        }
        unsigned count = ctl_arcconf_count((const char *)data, size);
        if (count > 64)
                FUZZ_FAIL("more than 64 controllers counted");
        if (r == 0 && x.n > 1 && count != x.n)
                FUZZ_FAIL("the follower leads to %zu more, the count is %u", x.n - 1, count);
        ctl_nexts_free(&x);
        char *err = NULL;
        if (ctl_follow_arcconf((const char *)data, size, TOOL, "2", &x, &err) != 0 || x.n || err)
                FUZZ_FAIL("controller 2's output leads somewhere");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        ctl_fuzz_one(arcconf, data, size, &fuzz_si[4]);
        ctl_fuzz_one(arcconf_c2, data, size, &fuzz_si[4]);
        ctl_fuzz_one(arcconf_json, data, size, &fuzz_si[4]);
        follow(data, size);
        return 0;
}
