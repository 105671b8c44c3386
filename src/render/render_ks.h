/* SPDX-License-Identifier: GPL-2.0-or-later
 * The kickstart include storprov hands anaconda from %pre: which disks anaconda
 * must leave alone. A pure renderer: plan in, text out. */
#pragma once

#include "discover/devnames.h"
#include "plan/plan.h"

/* Renders the include for the plan's disks.
 * No OS disk declared: "ignoredisk --drives=<storprov's disks>" and no
 *   clearpart (the kickstart must not clear what it cannot name).
 * OS disks declared (plan.sysdisks from --os-disks or <disks system="true">):
 *   "ignoredisk --only-use=<os disks>" (which leaves storprov's disks out) and
 *   "clearpart --all --initlabel --drives=<os disks>"; an OS disk that is one
 *   of storprov's, or without a name a kickstart can carry, is an error.
 * Returns the text, or NULL with the errors in d. */
char *render_ks_include(const struct plan *pl, struct diags *d);
