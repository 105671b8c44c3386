/* SPDX-License-Identifier: GPL-2.0-or-later
 * The block-device tuning attributes, in one table: the profile reads them
 * by their XML names, the planner checks which objects each applies to, the
 * renderers and outputs print them, and apply writes them to sysfs. The
 * table order is the order they are applied in: the scheduler first, since
 * switching it resets nr_requests. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/util.h"

enum tune_attr {
        TUNE_SCHEDULER,
        TUNE_NR_REQUESTS,
        TUNE_MAX_SECTORS_KB,
        TUNE_READ_AHEAD_KB,
        TUNE_STRIPE_CACHE_SIZE,
        TUNE_SAFE_MODE_DELAY,
        _TUNE_MAX
};

/* What a tuning attribute can be set on. */
enum {
        TUNE_ON_DISK = 1 << 0,    /* drives and LUNs: request-based queues */
        TUNE_ON_MD = 1 << 1,      /* any md array */
        TUNE_ON_MD_PARITY = 1 << 2, /* md raid4/5/6 only */
        TUNE_ON_LV = 1 << 3,      /* device-mapper (bio-based) */
};

enum tune_type { TUNE_UINT, TUNE_WORD, TUNE_SECONDS };

struct tune_def {
        const char *xml;          /* <tune> attribute: "read-ahead-kb" */
        const char *name;         /* plans, reports, JSON: "read_ahead_kb" */
        const char *sysfs;        /* under /sys/block/X: "queue/read_ahead_kb" */
        enum tune_type type;
        unsigned on;              /* TUNE_ON_* */
        uint64_t min, max;        /* TUNE_UINT: the range the profile may give */
        const char *form;         /* TUNE_UINT: the unit; TUNE_WORD: the values, blank-separated */
        enum rule_id rule;        /* the rule when set where it does not apply (_RULE_MAX: it applies everywhere) */
        const char *why_not;      /* that message, a format taking what it was set on ("md", "raid1") */
};

extern const struct tune_def tune_defs[_TUNE_MAX];

/* Values as the profile wrote them (numbers canonical decimal), NULL: leave alone. */
struct tune_set {
        int line;                 /* profile line of <tune> (or of the object a value was derived for), 0: none */
        char *val[_TUNE_MAX];
        char *derived[_TUNE_MAX]; /* why the planner chose a value the profile left out, NULL: the profile's */
};

bool tune_set_any(const struct tune_set *t);
/* Where an attribute set on a multipath LUN goes. The paths carry the request
 * queues at the hardware's depth (nr_requests) and the hardware limit; the map
 * is what the filesystem reads through (read_ahead_kb). The scheduler goes to
 * both: request-based dm-multipath has an elevator of its own (on 6.1 a map's
 * queue/scheduler reads "[mq-deadline] none", tests/vm/80-multipath.bats), where
 * the filesystem's requests are merged and sorted before they are cloned into
 * the paths, so a profile's choice ("none" for flash) must hold on both.
 * max_sectors_kb goes to both, the map never above its paths: a clone larger
 * than a path's max_sectors is failed by blk_insert_cloned_request. */
bool tune_on_mpath_paths(enum tune_attr a);
bool tune_on_mpath_map(enum tune_attr a);
/* The number of a TUNE_UINT attribute, or -1 when unset. */
int64_t tune_num(const struct tune_set *t, enum tune_attr a);
void tune_set_copy(struct tune_set *dst, const struct tune_set *src);
void tune_set_free(struct tune_set *t);
