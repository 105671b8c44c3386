/* SPDX-License-Identifier: GPL-2.0-or-later
 * Mount tables, the one reader of them (mounttab.c): proc/self/mountinfo, and
 * the tables of fstab's shape (an fstab, /proc/mounts), parsed by libmount,
 * the reference parser of these files (octal escapes, mountinfo's optional
 * fields and its " - " separator). The bytes come from the caller (a captured
 * file, a fuzzer) or from a file read confined to a root (base/rootfs.h):
 * libmount never opens a path itself. The parsers take a length, not a C
 * string: a NUL byte, which the kernel never writes, makes its line malformed;
 * so does an escaped NUL ("\000"). A missing final newline or a line of
 * megabytes is read like any other. Malformed lines are messages naming the
 * line ("line 7 is not a mountinfo line: \"…\""), the others are kept. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

enum mounttab_kind {
        MOUNTTAB_MOUNTINFO,       /* proc/self/mountinfo */
        MOUNTTAB_FSTAB,           /* an fstab or /proc/mounts: SOURCE TARGET TYPE [OPTIONS [FREQ [PASSNO]]] */
};

struct mount_entry {
        unsigned line;            /* its line in the file */
        unsigned major, minor;    /* mountinfo's MAJ:MIN; 0:0 in an fstab */
        char *mountpoint;         /* the target, octal escapes decoded */
        char *source;             /* the mount source ("/dev/sda2", "UUID=…", "none"), decoded */
        char *fstype;
        char *options;            /* mountinfo: the mount's and the superblock's, merged */
};

/* TEXT (LEN bytes) as a table of KIND. Returns the entries (*ret, *ret_n) in
 * the file's order and the malformed lines as messages ("line 7: …", at most
 * eight and a line saying more were left out) in *ret_errors (NULL: none). */
void mounttab_parse(enum mounttab_kind kind, const char *text, size_t len, struct mount_entry **ret, size_t *ret_n,
                    char ***ret_errors);
/* REL ("proc/self/mountinfo", "/etc/fstab") under ROOT, read confined: with
 * in_root, as if ROOT were "/" (read_file_in_root: for a target root, no link
 * anywhere on the way); otherwise as a captured tree is read
 * (read_file_under_len: the file itself never a link, its real path inside
 * ROOT, at most 64 MiB). 0, or -errno of the read (nothing returned). */
int mounttab_read(enum mounttab_kind kind, const char *root, const char *rel, bool in_root, struct mount_entry **ret,
                  size_t *ret_n, char ***ret_errors);
/* The mounts of the system at SYSROOT ("/" or a captured tree), as
 * SYSROOT/proc/mounts has them; where that is the kernel's link to
 * self/mounts (a live /proc), through SYSROOT/proc/self/mounts. */
int mounttab_read_mounts(const char *sysroot, struct mount_entry **ret, size_t *ret_n, char ***ret_errors);
void mount_entries_free(struct mount_entry *v, size_t n);

/* proc/self/mountinfo: mounttab_parse(MOUNTTAB_MOUNTINFO, …). */
void mountinfo_parse(const char *text, size_t len, struct mount_entry **ret, size_t *ret_n, char ***ret_errors);
