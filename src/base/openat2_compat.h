/* SPDX-License-Identifier: GPL-2.0-or-later
 * openat2(2) where the headers predate it: EL 8 builds against kernel 4.18
 * headers (no <linux/openat2.h>) and glibc 2.28 (no SYS_openat2). The struct
 * and flags are the kernel's ABI (include/uapi/linux/openat2.h, Linux 5.6);
 * the syscall number is 437 on every architecture (the unified table since
 * Linux 5.1). A kernel without openat2 returns ENOSYS and rootfs.c walks the
 * path itself. STORPROV_NO_OPENAT2_H forces the fallback (tests). */
#pragma once

#include <stdint.h>
#include <sys/syscall.h>

#if !defined(STORPROV_NO_OPENAT2_H) && defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define STORPROV_HAVE_OPENAT2_H 1
#endif
#endif

#ifndef STORPROV_HAVE_OPENAT2_H
struct open_how {
        uint64_t flags;
        uint64_t mode;
        uint64_t resolve;
};
#define RESOLVE_NO_XDEV 0x01
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_NO_SYMLINKS 0x04
#define RESOLVE_BENEATH 0x08
#define RESOLVE_IN_ROOT 0x10
#endif

#ifndef SYS_openat2
#define SYS_openat2 437
#endif
