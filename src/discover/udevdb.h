/* SPDX-License-Identifier: GPL-2.0-or-later
 * The udev database of a block device, SYSROOT/run/udev/data/b<major>:<minor>
 * (udevdb.c): the one reader of it, for discovery and for inventory. */
#pragma once

/* Reads the file confined to SYSROOT as a captured tree is read
 * (read_file_under): never through a link as the file itself, never to a real
 * path out of SYSROOT, regular files only (a FIFO is refused, without waiting
 * for a writer), at most 1 MiB. 0 and the text in *ret, or -errno: -ENOENT or
 * -ENOTDIR when there is none (udev has not seen the device), -ELOOP for a
 * link, -EXDEV for a path that leaves the root, -EINVAL for anything but a
 * regular file, -EFBIG. */
int udev_db_read(const char *sysroot, unsigned major, unsigned minor, char **ret);
/* The value of property KEY (the first "E:KEY=VALUE" line) in TEXT, or NULL. */
char *udev_db_prop(const char *text, const char *key);
/* Why udev_db_read refused a file, for a warning ("it is a symbolic link"),
 * or NULL when there is no file to refuse. */
const char *udev_db_refusal(int r);
