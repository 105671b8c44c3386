/* SPDX-License-Identifier: GPL-2.0-or-later
 * Checks src/openat2_compat.h: prints the ABI it defines (built once with
 * the system's <linux/openat2.h>, once with -DSTORPROV_NO_OPENAT2_H, and the
 * two outputs compared), then calls openat2 through it under ROOT: a ".."
 * that would leave ROOT stays inside it (RESOLVE_IN_ROOT), a symbolic link
 * is refused (RESOLVE_NO_SYMLINKS). Usage: openat2-check ROOT, where ROOT has
 * etc/marker and a link "up" -> "..". */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/openat2_compat.h"

static long try_open(int rootfd, const char *rel, uint64_t resolve)
{
        struct open_how how = {.flags = O_RDONLY | O_CLOEXEC, .resolve = resolve};
        long fd = syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
        return fd < 0 ? -errno : fd;
}

int main(int argc, char **argv)
{
        printf("sizeof=%zu flags@%zu mode@%zu resolve@%zu\n", sizeof(struct open_how),
               offsetof(struct open_how, flags), offsetof(struct open_how, mode), offsetof(struct open_how, resolve));
        printf("NO_XDEV=%#x NO_MAGICLINKS=%#x NO_SYMLINKS=%#x BENEATH=%#x IN_ROOT=%#x SYS_openat2=%d\n",
               (unsigned)RESOLVE_NO_XDEV, (unsigned)RESOLVE_NO_MAGICLINKS, (unsigned)RESOLVE_NO_SYMLINKS,
               (unsigned)RESOLVE_BENEATH, (unsigned)RESOLVE_IN_ROOT, (int)SYS_openat2);
        if (argc < 2)
                return 0;
        int rootfd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (rootfd < 0)
                return perror(argv[1]), 2;
        long fd = try_open(rootfd, "../../../etc/marker", RESOLVE_IN_ROOT);
        if (fd == -ENOSYS) {
                puts("openat2: ENOSYS (kernel before 5.6)");
                return 0;
        }
        char buf[64] = {0};
        if (fd < 0 || read((int)fd, buf, sizeof buf - 1) < 0)
                return printf("in-root: %s\n", strerror((int)-fd)), 1;
        printf("in-root: %s", buf);
        fd = try_open(rootfd, "up/etc/marker", RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS);
        printf("no-symlinks: %s\n", fd == -ELOOP ? "ELOOP" : "opened");
        return fd == -ELOOP ? 0 : 1;
}
