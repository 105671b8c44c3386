/* SPDX-License-Identifier: GPL-2.0-or-later
 * Files confined to a root (rootfs.c): no link followed, no way out of the root. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* Confined to a root: REL is a path inside ROOT ("etc/fstab" or "/etc/fstab"),
 * resolved as if ROOT were "/" and never through a symbolic link, with
 * openat2(RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS) or,
 * where the kernel lacks openat2 (before 5.6; or STORPROV_NO_OPENAT2=1 in the
 * environment, for tests), a walk with openat(O_NOFOLLOW | O_DIRECTORY) per
 * component. A ".." component is refused (-EXDEV), a link anywhere on the way
 * or as the file itself gives -ELOOP, anything but a regular file -EINVAL.
 * read: *ret NUL-terminated; files over 64 MiB give -EFBIG. */
int read_file_in_root(const char *root, const char *rel, char **ret, size_t *ret_len);
/* Reading a captured tree: PATH (a path under ROOT, the root included) is
 * read only when the file itself is not a symbolic link and its real path
 * (links on the way resolved, as sysfs is made of them) stays inside ROOT's
 * real path. -ELOOP for a link, -EXDEV for a path that leaves ROOT. Regular
 * files only (-EINVAL), at most 1 MiB (-EFBIG). */
int read_file_under(const char *root, const char *path, char **ret);
/* read_file_under, with every byte kept (NUL included: *ret_len tells the
 * length; *ret is NUL-terminated beyond it) and a cap of max bytes (-EFBIG). */
int read_file_under_len(const char *root, const char *path, size_t max, char **ret, size_t *ret_len);
/* Whether PATH resolves (links followed) to a place inside ROOT. */
bool path_under(const char *root, const char *path);
/* Makes the directory rel under root (every component, 0755, no link followed); -errno. */
int mkdir_in_root(const char *root, const char *rel);
/* The names in directory REL under ROOT (no link followed, no "." or ".."),
 * NULL-terminated (NULL: empty); -errno. */
int list_dir_in_root(const char *root, const char *rel, char ***ret);
/* Sets the SELinux label (the security.selinux extended attribute) of REL
 * under ROOT, confined like the others (no link followed); with
 * only_unlabeled, leaves a file or directory that has a label alone. 1 when
 * set, 0 when left as it was, -errno. */
int label_in_root(const char *root, const char *rel, const char *label, bool only_unlabeled);
/* Removes a regular file under root (confined like the others); -errno. */
int unlink_in_root(const char *root, const char *rel);
/* write: temp file + fsync + renameat + fsync of the directory, in the same
 * (confined) directory; missing parent directories are made 0755 whatever the
 * umask, one component at a time; an existing file keeps its owner and mode;
 * temp files a killed writer left (".NAME.storprov-PID-…", PID gone) are removed.
 * On an error, *ret_stage (if not NULL) says at which stage ("fsync of its
 * directory (…)"): an fsync error is an error, never ignored. */
int write_file_in_root(const char *root, const char *rel, const char *content, size_t len, unsigned mode,
                       const char **ret_stage);
