/* SPDX-License-Identifier: GPL-2.0-or-later
 * The rule registry: every rule id a diagnostic can name, with its severity and meaning (rules.def). */
#pragma once

#include <stdbool.h>

/* A rule as emitters name it: RULE_RAID1_CHUNK for "raid1-chunk". Every
 * emitter (diag_add, plan_err, plan_warn, loader_error ...) takes this enum,
 * so a rule missing from rules.def does not compile. _RULE_MAX: the count,
 * and "no rule" where a table row has none. */
#define RULE(e, id, sev, meaning) e,
enum rule_id {
#include "base/rules.def"
        _RULE_MAX
};
#undef RULE

/* How a rule is reported; BOTH: an error in one case, a warning in another. */
enum rule_severity { RULE_SEV_ERROR = 1, RULE_SEV_WARNING = 2, RULE_SEV_BOTH = 3 };

/* "raid1-chunk"; NULL for _RULE_MAX. */
const char *rule_name(enum rule_id r);
enum rule_severity rule_severity(enum rule_id r);
/* One line: what breaks the rule. */
const char *rule_meaning(enum rule_id r);
/* The rule called name, into *ret; false when there is none. */
bool rule_lookup(const char *name, enum rule_id *ret);
