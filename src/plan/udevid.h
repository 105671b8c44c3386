/* SPDX-License-Identifier: GPL-2.0-or-later
 * The udev identity picker: which key and value a disk's rule
 * (ENV{DEVTYPE}=="disk", KEY=="value") matches it by, chosen so that no
 * other device of the node carries it. Pure: a node's devices in, a choice
 * and its reasons out. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "discover/discover.h"
#include "base/strmap.h"
#include "base/util.h"

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
