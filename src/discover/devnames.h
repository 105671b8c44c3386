/* SPDX-License-Identifier: GPL-2.0-or-later
 * Device names: every spelling an admin or a file gives a block device,
 * resolved over the discovered machine. "sda", "/dev/sda", "/dev//sda/",
 * "/dev/disk/by-id/wwn-0x…", "disk/by-id/wwn-0x…", a bare "wwn-0x…",
 * "/dev/disk/by-path/…", "/dev/disk/by-id/../../sda", "mapper/mpatha",
 * "md/root", a site link under /dev, a glob ("sd[ab]", "disk/by-id/ata-*"),
 * and LABEL= / UUID= / PARTUUID= / PARTLABEL= specs all end here. Pure: the
 * links were read by discovery (struct blockdev.devlinks). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "discover/discover.h"

#define DEVNAME_WHOLE ((size_t)-1)

struct devname_hit {
        size_t dev;               /* index into sysinfo.devs */
        size_t part;              /* index into devs[dev].partinfo, DEVNAME_WHOLE: the device itself */
};

/* The path below /dev a spelling names, lexically: "/dev/" and "/dev" in
 * front, empty and "." components, trailing slashes dropped, ".." applied
 * ("/dev/disk/by-id/../../sda" is "sda"). NULL, with *ret_why, for an empty
 * spelling, one longer than 4096 bytes, with a control character, an absolute
 * path outside /dev, or one whose ".." leaves /dev. */
char *devname_normalize(const char *spelling, const char **ret_why);

/* Whether a normalized name is a glob (holds *, ? or [). */
bool devname_is_glob(const char *norm);

/* Every device or partition the spelling names. Exact names compare with the
 * kernel name, the device node, every link of devlinks, the last component of
 * a disk/by-*\/ link (a bare "wwn-0x…"), a dm name ("mpatha", "mapper/mpatha"),
 * an md name ("md/root"), and "disk/by-id/dm-uuid-mpath-WWID" names every path
 * of that LUN even before its map exists. A glob (fnmatch, '/' matched only by
 * '/') names every whole device (never a partition) whose kernel name or link
 * it matches. Returns the count (0: nothing answers), hits sorted and unique in
 * *ret (free()), or -EINVAL with *ret_why when the spelling is not a name. */
ssize_t devname_resolve(const struct sysinfo *si, const char *spelling, struct devname_hit **ret,
                        const char **ret_why);

/* A boot spec as the kernel command line gives it: "LABEL=x", "CDLABEL=x",
 * "UUID=x", "PARTUUID=x", "PARTLABEL=x" (compared with what udev recorded, UUIDs
 * without regard to case) or a device path (devname_resolve; the kernel knows
 * no globs, so a spec with *, ? or [ names nothing). Returns the count. */
ssize_t devname_resolve_spec(const struct sysinfo *si, const char *spec, struct devname_hit **ret);

/* udev's escapes: "\x20" → ' ' (ID_FS_LABEL_ENC, ID_PART_ENTRY_NAME). */
char *udev_decode(const char *s);

/* Whether a name can go into ignoredisk/clearpart as it is: a kernel name
 * ("sda", "nvme0n1") or a path below /dev/disk ("disk/by-id/wwn-0x5000c5..."),
 * with "/dev/" allowed in front, of [A-Za-z0-9_.:+/-] only. Returns the name
 * without "/dev/", or NULL. */
const char *ks_disk_name(const char *s);
