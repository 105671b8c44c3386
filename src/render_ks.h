/* SPDX-License-Identifier: GPL-2.0-or-later
 * The kickstart include storprov hands anaconda from %pre: which disks anaconda
 * must leave alone. A pure renderer: plan in, text out. */
#pragma once

#include "plan/plan.h"

/* Checks an OS disk name for ignoredisk/clearpart: a kernel name ("sda",
 * "nvme0n1") or a /dev/disk path below /dev ("disk/by-id/wwn-0x5000c5..."),
 * with "/dev/" allowed in front. Returns the name without "/dev/", or NULL. */
const char *ks_disk_name(const char *s);

/* Renders the include for the plan's disks.
 * os_disks NULL or empty: "ignoredisk --drives=<storprov's disks>" and no
 *   clearpart (the kickstart must not clear what it cannot name).
 * os_disks set: "ignoredisk --only-use=<os disks>" (which leaves storprov's
 *   disks out) and "clearpart --all --initlabel --drives=<os disks>"; an OS
 *   disk that is one of storprov's, or a name that is not a disk name, is an
 *   error.
 * Returns the text, or NULL with the errors in d. */
char *render_ks_include(const struct plan *pl, char *const *os_disks, struct diags *d);
