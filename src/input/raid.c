/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "input/raid.h"

#include <errno.h>
#include <stdint.h>
#include <strings.h>

#include "base/util.h"

static const struct {
        enum raid_level level;
        const char *name;
} level_names[] = {
        {RAID_0, "raid0"},   {RAID_1, "raid1"},   {RAID_4, "raid4"},   {RAID_5, "raid5"},
        {RAID_6, "raid6"},   {RAID_10, "raid10"}, {RAID_50, "raid50"}, {RAID_60, "raid60"},
};

int raid_level_parse(const char *s, enum raid_level *ret)
{
        if (!s)
                return -EINVAL;
        if (strncasecmp(s, "raid", 4) == 0)
                s += 4;
        uint64_t v;
        if (parse_u64(s, &v) < 0)
                return -EINVAL;
        for (size_t i = 0; i < ELEMENTSOF(level_names); i++)
                if ((uint64_t)level_names[i].level == v) {
                        *ret = level_names[i].level;
                        return 0;
                }
        return -EINVAL;
}

int raid10_layout_parse(const char *L, unsigned *ret_copies, unsigned *ret_near)
{
        if (!L) {
                *ret_copies = *ret_near = 2;
                return 0;
        }
        if (!(L[0] == 'n' || L[0] == 'f' || L[0] == 'o') || L[1] < '2' || L[1] > '9' || L[2])
                return -EINVAL;
        *ret_copies = (unsigned)(L[1] - '0');
        *ret_near = L[0] == 'n' ? *ret_copies : 1;
        return 0;
}

const char *raid_level_name(enum raid_level l)
{
        for (size_t i = 0; i < ELEMENTSOF(level_names); i++)
                if (level_names[i].level == l)
                        return level_names[i].name;
        return "none";
}

bool raid_level_has_parity(enum raid_level l)
{
        return l == RAID_4 || l == RAID_5 || l == RAID_6 || l == RAID_50 || l == RAID_60;
}
