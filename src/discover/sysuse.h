/* SPDX-License-Identifier: GPL-2.0-or-later
 * The running system's own disks: which disks hold /, /boot, /usr, /var (or
 * the same below /sysroot or /mnt/sysimage), active swap, and what the system
 * or installer booted from, read from the texts of proc/self/mountinfo,
 * proc/swaps and proc/cmdline. The parsers take the bytes as they are (a
 * length, not a C string): a NUL byte, which the kernel never writes, makes a
 * line malformed; a CR or a byte that is not UTF-8 is part of a path, as it
 * can be in a real one; a missing final newline or a line of megabytes is
 * read like any other. Pure: discovery reads the files and hands the bytes. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "discover/discover.h"
#include "sys/mounttab.h"

/* proc/self/mountinfo: mountinfo_parse() and struct mount_entry of sys/mounttab.h (libmount). */

/* proc/swaps: the Filename of every "partition" line (decoded), the lines of
 * swap files left out. */
void swaps_parse(const char *text, size_t len, char ***ret_devices, unsigned **ret_lines, char ***ret_errors);

/* proc/cmdline split as the kernel splits it (blanks outside double quotes;
 * the quotes removed). A NUL byte is an error. */
char **cmdline_words(const char *text, size_t len, char ***ret_errors);

/* The device spec of a boot-source word, or NULL: root= (live: dropped),
 * resume=, and inst.stage2=, inst.repo=, inst.ks=, inst.updates=, inst.dd=
 * (and the forms without "inst.") with an hd: source, the path after the
 * device cut ("hd:LABEL=x:/iso" gives "LABEL=x"). *ret_kind: SYS_ROOT,
 * SYS_SWAP or SYS_BOOTSRC. */
char *boot_word_spec(const char *word, unsigned *ret_kind);

/* Which SYS_* a mountpoint means: SYS_ROOT for /, /boot, /boot/efi, /efi, /usr,
 * /var and the same below /sysroot, /mnt/sysimage and /mnt/sysroot;
 * SYS_BOOTSRC below /run/install and /run/initramfs/live; 0 otherwise. */
unsigned mountpoint_system_kind(const char *mountpoint);

struct sysuse_input {
        const char *mountinfo, *swaps, *cmdline;   /* NULL: the file is not there */
        size_t mountinfo_len, swaps_len, cmdline_len;
};

/* Sets system_kind and system_use on every input disk under what the texts
 * name (through partitions, md and dm: slaves, recursively), keeps every
 * mount from a known device in si->mounts (with the disks under it), and adds
 * each malformed line to si->system_errors ("proc/swaps line 3: …"). */
void sysuse_mark(struct sysinfo *si, const struct sysuse_input *in);
/* Frees si->mounts (and empties it). */
void sys_mounts_free(struct sysinfo *si);
