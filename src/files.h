/* SPDX-License-Identifier: GPL-2.0-or-later
 * Writing the plan's config files under a root: the one place where rendered
 * text meets the filesystem. */
#pragma once

#include "plan.h"

/* Writes every file of the plan under root, atomically; fstab and mdadm.conf
 * are merged with what is there. Returns 0 or -EIO with errors in d. */
int render_files(const struct plan *pl, const char *root, struct diags *d);
