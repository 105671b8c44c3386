/* SPDX-License-Identifier: GPL-2.0-or-later
 * Hostile input: what may go into a generated file, and how.
 *
 * Every value that storprov prints into a file another root tool reads
 * (udev rules, fstab, mdadm.conf, sysctl.d) passes one of these first. A
 * format that has an escape gets escaped (fstab: octal, as getmntent(3)
 * decodes it); a format that has none gets a whitelist, and what fails it is
 * refused, never "cleaned" into something the profile did not ask for.
 * Text that only goes into comments is sanitised instead (control
 * characters and non-ASCII become '?'). Pure functions, no I/O. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/* ---- udev ---------------------------------------------------------------- */

/* A udev match value is a glob and has no quoting that every udev accepts
 * (EL 8's udev knows no \" and no e"…"): the value must be 1..255 characters
 * of [A-Za-z0-9._:+@/-]. '*', '?', '[', ']', '|', '"', '\\', blanks and
 * control characters are refused. */
bool udev_value_safe(const char *v);

/* The udev match expression for a key udev_pick_identity (plan/udevid.h) returns:
 * "ENV{ID_WWN}", …, "ATTRS{wwid}", "KERNEL". NULL for a key it does not know. */
const char *udev_match_key(const char *key);

/* ---- fstab --------------------------------------------------------------- */

/* Appends s to b with space, tab, newline and backslash as \040 \011 \012
 * \134 (fstab(5)). Returns false and appends nothing when s is empty or holds
 * another control character (getmntent has no escape for those). */
bool fstab_escape(struct sbuf *b, const char *s);

/* Mount options: 1..1024 characters of [A-Za-z0-9._,=:/+@-]. */
bool mount_options_safe(const char *s);

/* Mountpoints, at profile load: absolute, made of [A-Za-z0-9._+@:,=%-] path
 * components (%n is the disk-number template), no "." or ".." component, at
 * most 1024 characters. Repeated and trailing slashes are dropped ("/d1/" and
 * "/d1" are one mountpoint). Returns the normalised copy, or NULL with a
 * static reason in *ret_why. */
char *mountpoint_normalize(const char *s, const char **ret_why);

/* Any path, as mount(8) and systemd resolve it: repeated slashes collapsed,
 * "." components and a trailing slash dropped ("//a/./b/" is "/a/b"); ".."
 * and every other byte are kept. A relative path (fstab's "none", "swap")
 * comes back unchanged. Never NULL. */
char *path_canonical(const char *s);

/* An fstab field as libmount (systemd-fstab-generator, mount(8)) reads it:
 * every backslash and three octal digits is that byte ("\040" a space,
 * "\141" an "a"), not only the four fstab(5) names; a "\000" and other
 * backslashes are kept as they are. Never NULL. */
char *fstab_unescape(const char *s);

/* The path a systemd .mount unit's name stands for (systemd-escape --path
 * reversed: "-" a "/", "\x2d" a "-"), canonical: "storage-data1.mount" is
 * "/storage/data1", "-.mount" "/". NULL when name does not end in ".mount". */
char *mount_unit_path(const char *name);

/* True when `mp` equals `other` or is a directory above it (both canonical). */
bool path_covers(const char *mp, const char *other);

/* ---- mdadm.conf and sysctl.d --------------------------------------------- */

/* An ARRAY device: "/dev/" then [A-Za-z0-9._+/-], no "..". */
bool mdadm_dev_safe(const char *s);
/* A UUID as mdadm prints it or as blkid does: hex digits, ':' and '-'. */
bool uuid_safe(const char *s);
/* A sysctl key: [a-z0-9_]+ then one or more .[a-z0-9_-]+ parts, ≤ 128. */
bool sysctl_key_safe(const char *s);
/* A sysctl value: 1..256 printable ASCII characters, no leading or trailing
 * blank (sysctl.d strips them), no control characters. */
bool sysctl_value_safe(const char *s);
/* Keys that storage tuning needs and that storprov accepts without
 * <allow rule="sysctl-key"/>: vm.dirty_*, vm.dirtytime_expire_seconds,
 * vm.vfs_cache_pressure, vm.min_free_kbytes, vm.watermark_scale_factor,
 * vm.swappiness, vm.zone_reclaim_mode, dev.raid.speed_limit_min/max. */
bool sysctl_key_allowed(const char *key);
/* The allow-list as text for messages. */
extern const char sysctl_allowed_text[];

/* ---- comments ------------------------------------------------------------ */

