/* SPDX-License-Identifier: GPL-2.0-or-later
 * SELinux labels for the files storprov writes under a root, from that root's
 * own policy (etc/selinux/config, etc/selinux/TYPE/contexts/files/file_contexts),
 * set as the security.selinux attribute: at install time (the dracut
 * pre-pivot hook, anaconda's %post into /mnt/sysimage) no policy of the
 * target is loaded, and a file created then would stay unlabeled. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

struct root_labels;

/* The root's file contexts. Returns 0 with *ret NULL when the root has no
 * SELinux (no etc/selinux/config, or SELINUX=disabled): nothing to label;
 * 0 with *ret set; or -errno with *why (allocated) saying what is missing. */
int root_labels_open(const char *root, struct root_labels **ret, char **why);
void root_labels_close(struct root_labels *l);

/* Labels the file REL (relative to the root, "/etc/fstab" or "etc/fstab") as
 * the policy says, and every directory on its way that has no label yet.
 * 0, or -errno with *why (allocated). A path the policy has no context for
 * is left alone (0). */
int root_labels_apply(struct root_labels *l, const char *root, const char *rel, char **why);
