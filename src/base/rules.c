/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "base/rules.h"

#include <string.h>

static const struct {
        const char *name;
        enum rule_severity severity;
        const char *meaning;
} rules[] = {
#define RULE(e, id, sev, meaning) [e] = {id, RULE_SEV_##sev, meaning},
#include "base/rules.def"
#undef RULE
};

const char *rule_name(enum rule_id r)
{
        return (unsigned)r < _RULE_MAX ? rules[r].name : NULL;
}

enum rule_severity rule_severity(enum rule_id r)
{
        return (unsigned)r < _RULE_MAX ? rules[r].severity : RULE_SEV_BOTH;
}

const char *rule_meaning(enum rule_id r)
{
        return (unsigned)r < _RULE_MAX ? rules[r].meaning : NULL;
}

bool rule_lookup(const char *name, enum rule_id *ret)
{
        for (unsigned r = 0; name && r < _RULE_MAX; r++)
                if (!strcmp(rules[r].name, name)) {
                        *ret = (enum rule_id)r;
                        return true;
                }
        return false;
}
