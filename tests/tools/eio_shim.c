/* SPDX-License-Identifier: GPL-2.0-or-later
 * An LD_PRELOAD shim for tests: read(), pread() and readv()/preadv() on one
 * file or block device fail with EIO when they would touch a byte range, as
 * a bad sector does. Nothing else changes.
 *   EIO_SHIM_PATH   the file or block device (matched by device number for a
 *                   block device, by inode for a file, whatever path opened it)
 *   EIO_SHIM_RANGE  START:END in bytes (END exclusive)
 * Each refused call is counted in EIO_SHIM_LOG (a file; one line per call),
 * so a test can tell that the bad range was actually read. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static int configured = -1;
static struct stat target;
static uint64_t r_start, r_end;

static int setup(void)
{
        if (configured >= 0)
                return configured;
        const char *p = getenv("EIO_SHIM_PATH"), *rg = getenv("EIO_SHIM_RANGE");
        configured = 0;
        if (p && rg && stat(p, &target) == 0 && sscanf(rg, "%" SCNu64 ":%" SCNu64, &r_start, &r_end) == 2 &&
            r_end > r_start)
                configured = 1;
        return configured;
}

static int hits(int fd, uint64_t off, size_t len)
{
        struct stat st;
        if (!len || setup() != 1 || fstat(fd, &st) < 0)
                return 0;
        int same = S_ISBLK(target.st_mode) ? S_ISBLK(st.st_mode) && st.st_rdev == target.st_rdev
                                           : st.st_dev == target.st_dev && st.st_ino == target.st_ino;
        if (!same || off >= r_end || off + len <= r_start)
                return 0;
        const char *log = getenv("EIO_SHIM_LOG");
        if (log) {
                int lf = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
                if (lf >= 0) {
                        char line[96];
                        int n = snprintf(line, sizeof line, "%ld EIO %" PRIu64 "+%zu\n", (long)getpid(), off, len);
                        if (n > 0 && write(lf, line, (size_t)n) < 0)
                                n = 0;
                        close(lf);
                }
        }
        return 1;
}

#define REAL(name)                                                                                                     \
        static __typeof__(&name) real_##name;                                                                          \
        if (!real_##name)                                                                                              \
        real_##name = (__typeof__(&name))dlsym(RTLD_NEXT, #name)

static size_t iov_len(const struct iovec *iov, int n)
{
        size_t t = 0;
        for (int i = 0; i < n; i++)
                t += iov[i].iov_len;
        return t;
}

ssize_t read(int fd, void *buf, size_t len)
{
        REAL(read);
        off_t cur = lseek(fd, 0, SEEK_CUR);
        if (cur >= 0 && hits(fd, (uint64_t)cur, len)) {
                errno = EIO;
                return -1;
        }
        return real_read(fd, buf, len);
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
        REAL(pread);
        if (hits(fd, (uint64_t)off, len)) {
                errno = EIO;
                return -1;
        }
        return real_pread(fd, buf, len, off);
}

ssize_t pread64(int fd, void *buf, size_t len, off_t off)
{
        REAL(pread64);
        if (hits(fd, (uint64_t)off, len)) {
                errno = EIO;
                return -1;
        }
        return real_pread64(fd, buf, len, off);
}

ssize_t readv(int fd, const struct iovec *iov, int n)
{
        REAL(readv);
        off_t cur = lseek(fd, 0, SEEK_CUR);
        if (cur >= 0 && hits(fd, (uint64_t)cur, iov_len(iov, n))) {
                errno = EIO;
                return -1;
        }
        return real_readv(fd, iov, n);
}

ssize_t preadv(int fd, const struct iovec *iov, int n, off_t off)
{
        REAL(preadv);
        if (hits(fd, (uint64_t)off, iov_len(iov, n))) {
                errno = EIO;
                return -1;
        }
        return real_preadv(fd, iov, n, off);
}
