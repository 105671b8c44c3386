/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "input/tune.h"

#include <stdlib.h>

#include "base/util.h"

const struct tune_def tune_defs[_TUNE_MAX] = {
        [TUNE_SCHEDULER] = {"scheduler", "scheduler", "queue/scheduler", TUNE_WORD, TUNE_ON_DISK, 0, 0,
                            "mq-deadline kyber bfq none", RULE_TUNE_STACKED,
                            "scheduler on %s: md and device-mapper devices have no I/O scheduler; tune the member disks"},
        [TUNE_NR_REQUESTS] = {"nr-requests", "nr_requests", "queue/nr_requests", TUNE_UINT, TUNE_ON_DISK, 1, 65536,
                              NULL, RULE_TUNE_STACKED,
                              "nr-requests on %s: md and device-mapper devices are bio-based and have no request queue (no "
                              "queue/nr_requests file); tune the member disks instead"},
        [TUNE_MAX_SECTORS_KB] = {"max-sectors-kb", "max_sectors_kb", "queue/max_sectors_kb", TUNE_UINT,
                                 TUNE_ON_DISK | TUNE_ON_MD | TUNE_ON_LV, 1, 1048576, "KiB", _RULE_MAX, NULL},
        [TUNE_READ_AHEAD_KB] = {"read-ahead-kb", "read_ahead_kb", "queue/read_ahead_kb", TUNE_UINT,
                                TUNE_ON_DISK | TUNE_ON_MD | TUNE_ON_LV, 0, 1048576, "KiB", _RULE_MAX, NULL},
        [TUNE_STRIPE_CACHE_SIZE] = {"stripe-cache-size", "stripe_cache_size", "md/stripe_cache_size", TUNE_UINT,
                                    TUNE_ON_MD_PARITY, 1, 1048576, "pages (the kernel takes 17 to 32768)",
                                    RULE_STRIPE_CACHE,
                                    "stripe-cache-size applies to md raid4/5/6 only, not %s"},
        [TUNE_SAFE_MODE_DELAY] = {"safe-mode-delay", "safe_mode_delay", "md/safe_mode_delay", TUNE_SECONDS,
                                  TUNE_ON_MD, 0, 0, NULL, RULE_SAFE_MODE_DELAY,
                                  "safe-mode-delay applies to md arrays only, not %s"},
};

bool tune_set_any(const struct tune_set *t)
{
        for (int a = 0; a < _TUNE_MAX; a++)
                if (t->val[a])
                        return true;
        return false;
}

bool tune_on_mpath_paths(enum tune_attr a) { return a == TUNE_SCHEDULER || a == TUNE_NR_REQUESTS || a == TUNE_MAX_SECTORS_KB; }
bool tune_on_mpath_map(enum tune_attr a) { return a == TUNE_SCHEDULER || a == TUNE_MAX_SECTORS_KB || a == TUNE_READ_AHEAD_KB; }

int64_t tune_num(const struct tune_set *t, enum tune_attr a)
{
        uint64_t v;
        if (!t->val[a] || tune_defs[a].type != TUNE_UINT || parse_u64(t->val[a], &v) < 0 || v > INT64_MAX)
                return -1;
        return (int64_t)v;
}

void tune_set_copy(struct tune_set *dst, const struct tune_set *src)
{
        dst->line = src->line;
        for (int a = 0; a < _TUNE_MAX; a++) {
                dst->val[a] = xstrdup(src->val[a]);
                dst->derived[a] = xstrdup(src->derived[a]);
        }
}

void tune_set_free(struct tune_set *t)
{
        for (int a = 0; a < _TUNE_MAX; a++) {
                free(t->val[a]);
                t->val[a] = NULL;
                free(t->derived[a]);
                t->derived[a] = NULL;
        }
}
