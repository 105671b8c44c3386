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

#include "base/strmap.h"
#include "base/util.h"

struct sysinfo;
struct blockdev;

/* ---- udev ---------------------------------------------------------------- */

/* A udev match value is a glob and has no quoting that every udev accepts
 * (EL 8's udev knows no \" and no e"…"): the value must be 1..255 characters
 * of [A-Za-z0-9._:+@/-]. '*', '?', '[', ']', '|', '"', '\\', blanks and
 * control characters are refused. */
bool udev_value_safe(const char *v);

/* Which devices of a node carry each ID_WWN, ID_SERIAL, ID_PATH and wwid
 * value: one pass with a map, so that checking every rule's key against every
 * device stays linear at thousands of LUNs. Every device of si counts (the OS
 * disk, multipath paths and maps, md and dm devices); partitions are not in
 * si->devs and no rule storprov writes reaches them (ENV{DEVTYPE}=="disk"). */
enum udev_id { UDEV_ID_WWN, UDEV_ID_SERIAL, UDEV_ID_PATH, UDEV_ID_WWID, _UDEV_ID_MAX };
struct udev_ids {
        const struct sysinfo *si;
        struct strmap head[_UDEV_ID_MAX];   /* value -> the first device carrying it */
        size_t *next[_UDEV_ID_MAX];         /* per device: the next carrying the same value, (size_t)-1 */
};
void udev_ids_init(struct udev_ids *x, const struct sysinfo *si);
void udev_ids_free(struct udev_ids *x);
/* How many devices outside targets (and, with skip_dm, outside dm-*) carry
 * value v of key k; the first three named in names (if not NULL). */
size_t udev_id_others(const struct udev_ids *x, enum udev_id k, const char *v, const struct blockdev *const *targets,
                      size_t n_targets, bool skip_dm, struct sbuf *names);

/* The identity a disk's rule (ENV{DEVTYPE}=="disk", KEY=="value") matches it
 * by: the first of ID_WWN, ID_SERIAL, ID_PATH, wwid (the kernel's
 * device/wwid, udev ATTRS{wwid}) that is udev_value_safe and that no other
 * device of the node carries; else the kernel name ("KERNEL", unique now but
 * not stable across boots: the caller warns). *ret_why says which keys were
 * passed over and why ("ID_WWN 0x… is shared with sda (a system disk), sdc"),
 * NULL when the first present key was taken. Returns true with malloc'ed
 * strings, or false (key and value NULL) when not even the kernel name can be
 * matched safely. */
bool udev_pick_identity(const struct udev_ids *x, const struct blockdev *b, char **ret_key, char **ret_value,
                        char **ret_why);

/* The udev match expression for a key udev_pick_identity returns:
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

