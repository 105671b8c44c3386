/* SPDX-License-Identifier: GPL-2.0-or-later
 * The node's recorded state (discover/state.h) from a plan: what later runs
 * read to plan this node the same way. */
#pragma once

#include "plan/plan.h"

/* The state file's text: JSON, one key per line, the same bytes for the same plan. */
char *render_state(const struct plan *pl, const char *existing, struct diags *d);
/* The profile a state file names, NULL when it is not one storprov wrote. */
char *render_state_owner(const char *existing);
