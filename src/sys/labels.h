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
 * 0 with *ret set; or -errno with *why (allocated) saying what is missing.
 * libselinux opens nothing under the root: storprov reads the policy's
 * file_contexts and its side files (.subs_dist, .subs, .homedirs, .local)
 * with its own confined reader (regular files only, no link followed, no
 * blocking open, 64 MiB at most each) into a private directory, hands that
 * copy to selabel_open and removes it; the compiled .bin forms are not read.
 * A side file that is there but cannot be read so fails the whole open (a
 * part of the policy would give wrong labels). While open, libselinux's log
 * messages are kept (escaped) for *why rather than printed. */
int root_labels_open(const char *root, struct root_labels **ret, char **why);
void root_labels_close(struct root_labels *l);

/* Labels the file REL (relative to the root, "/etc/fstab" or "etc/fstab") as
 * the policy says, and every directory on its way that has no label yet.
 * 0, or -errno with *why (allocated). A path the policy has no context for
 * is left alone (0). */
int root_labels_apply(struct root_labels *l, const char *root, const char *rel, char **why);

/* Whether CON looks like a context: user:role:type[:level], the first three
 * of letters, digits and "_.-", the level of those and ",:", no other byte
 * (no control byte, blank or non-ASCII), under 4096 bytes. A context that is
 * not is never written into security.selinux. */
bool label_context_plausible(const char *con);
/* S for a message: bytes outside printable ASCII, and backslash, as \xHH; at
 * most 200 characters, then "...". Allocated. */
char *label_escape(const char *s);
