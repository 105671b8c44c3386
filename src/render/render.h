/* SPDX-License-Identifier: GPL-2.0-or-later
 * src/render/: the plan as text: config files, kickstart include, plan and inventory output, their write under --root.
 * Renderers: pure functions from a plan (and, for files storprov shares with
 * others, the existing content) to the text of a config file, one file of
 * render/ per file kind, each the renderer of its kind's row in the table
 * (file_ops.h). Writing is files.c's business (atomic, under --root). Every
 * renderer takes (plan, existing, diags), the table's shape: a file storprov
 * owns whole ignores `existing`. */
#pragma once

#include "plan/plan.h"

/* fstab: the managed block (by UUID, never with sunit/swidth) merged into
 * `existing` (NULL: an empty file). Foreign lines are kept; a foreign line for
 * a mountpoint or device storprov now manages is commented out, with a
 * warning in d (if d is not NULL). Blocks are keyed by profile: another
 * profile's block is kept, and an error if it manages the same things. */
char *render_fstab(const struct plan *pl, const char *existing, struct diags *d);
/* Whether an fstab line (len bytes) is a planned filesystem's own: its
 * mountpoint is one the profile mounts (verify's "fstab entry" check reads it). */
bool render_fstab_fs_line(const struct plan *pl, const char *line, size_t len);
/* The udev rules file (storprov owns it whole). Besides each tuned device's
 * rule by its identity, every md array whose members are disks or partitions
 * of disks gets two membership rules (ENV{ID_FS_TYPE}=="linux_raid_member"
 * and ENV{ID_FS_UUID} = its UUID as blkid spells it; a whole disk, and a
 * partition through ATTR{../queue/...}): a drive that replaces a member gets
 * the members' tuning when mdadm --add writes its superblock, and at boot. */
char *render_udev_rules(const struct plan *pl, const char *existing, struct diags *d);
/* The tuning a disk or partition gets when it joins md array md (its
 * membership rules): per attribute, the value the disks of all its planned
 * members are tuned to, NULL where one is not tuned or they differ. False
 * (every value NULL) when a member is not a disk or a partition of one (a
 * multipath LUN, an md's partition): such an array has no membership rules. */
bool render_md_member_tune(const struct plan *pl, const struct pl_obj *md, const char *vals[_TUNE_MAX]);
/* md's two membership rules (a whole disk; a partition, whose disk's queue is
 * ATTR{../queue/...}), or the comment that says why it has none, added to b. */
void render_udev_md_members(struct sbuf *b, const struct plan *pl, const struct pl_obj *md);
/* The sysctl.d file (storprov owns it whole). */
char *render_sysctl(const struct plan *pl, const char *existing, struct diags *d);
/* /etc/multipath/conf.d/storprov.conf: a multipaths entry (wwid, alias) and a
 * blacklist exception per multipath LUN; a word multipath.conf cannot carry is
 * left out with an error in d. */
char *render_multipath_conf(const struct plan *pl, const char *existing, struct diags *d);
/* /etc/multipath/wwids merged: this profile's "/WWID/" lines in a managed block
 * (multipath multipaths a LUN at boot under find_multipaths "strict" only when
 * its WWID is listed there). */
char *render_multipath_wwids(const struct plan *pl, const char *existing, struct diags *d);
/* mdadm.conf: ARRAY lines in a managed block, merged like fstab. */
char *render_mdadm_conf(const struct plan *pl, const char *existing, struct diags *d);

/* Which profile wrote an owned-whole file (udev rules, sysctl.d), from its
 * header; NULL when storprov did not write it. */
char *render_owner(const char *existing);
/* Whether `existing` holds this profile's managed block. */
bool render_has_block(const struct plan *pl, const char *existing);
/* A shared file (fstab, mdadm.conf, wwids) without this profile's block, for a
 * profile that no longer asks for it; NULL for the owned-whole kinds (delete
 * them). By the kind's row (file_ops.h). */
char *render_without(const struct plan *pl, enum file_kind kind, const char *existing, struct diags *d);

/* The text of a file of kind `kind`, by its row's renderer; `existing` is
 * used by the shared kinds only. */
char *render_file(const struct plan *pl, enum file_kind kind, const char *existing, struct diags *d);
