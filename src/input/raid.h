/* SPDX-License-Identifier: GPL-2.0-or-later
 * The profile's RAID vocabulary: the levels <hwraid level> and <md level>
 * name, and md raid10's layouts. What a level means for a stripe (su, sw,
 * alignment) is the planner's (plan/geometry.h). */
#pragma once

#include <stdbool.h>

enum raid_level {
        RAID_NONE = -1,   /* a plain disk: no striping known */
        RAID_0 = 0,
        RAID_1 = 1,
        RAID_4 = 4,
        RAID_5 = 5,
        RAID_6 = 6,
        RAID_10 = 10,
        RAID_50 = 50,
        RAID_60 = 60,
};

/* Parses "0", "raid5", "RAID6", "10", "50"… Returns 0 or -EINVAL. */
int raid_level_parse(const char *s, enum raid_level *ret);
const char *raid_level_name(enum raid_level l);   /* "raid5" */
/* md raid10's layout "n2".."n9", "f2".."f9", "o2".."o9" (NULL: mdadm's n2):
 * the copies of each chunk and the near copies (1 for far and offset, whose
 * copies sit on other stripes). Returns 0 or -EINVAL. */
int raid10_layout_parse(const char *layout, unsigned *ret_copies, unsigned *ret_near);
bool raid_level_has_parity(enum raid_level l);    /* 4, 5, 6, 50, 60 */
