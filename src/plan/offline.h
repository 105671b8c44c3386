/* SPDX-License-Identifier: GPL-2.0-or-later
 * validate --offline: a machine made up from the profile, so that every rule
 * that does not depend on the real disks can be checked on a workstation. */
#pragma once

#include "discover/discover.h"
#include "input/profile.h"

/* Fills ret with synthetic whole disks: for each <disks> group, `count` disks
 * that its <match> selects (vendor, model, serial, wwn, path and name made
 * from the globs, a size within min-size..max-size, the rotational flag),
 * 512-byte sectors, no exported topology. Limits the real hardware sets
 * (max_hw_sectors_kb, the offered schedulers, MemTotal) are left unknown, so
 * the planner skips the rules that need them; OFFLINE_UNCHECKED names them.
 * Returns 0, or -EINVAL with an error in d when a glob admits no example. */
int sysinfo_synthesize(const struct profile *p, struct sysinfo *ret, struct diags *d);

#define OFFLINE_UNCHECKED \
        "max-sectors-kb against the hardware limit, the scheduler against those the kernel offers, " \
        "queue memory against MemTotal, and what is on the disks now"

/* An example string that matches the fnmatch(3) glob, with `n` standing in for
 * '*' (so examples differ); NULL when none is found. Exposed for tests. */
char *glob_example(const char *glob, unsigned n);
