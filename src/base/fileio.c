/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int read_file(const char *path, char **ret, size_t *ret_len)
{
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        struct sbuf b = {0};
        char tmp[8192];
        for (;;) {
                ssize_t n = read(fd, tmp, sizeof(tmp));
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        int r = -errno;
                        close(fd);
                        free(b.s);
                        return r;
                }
                if (n == 0)
                        break;
                sbuf_printf(&b, "%.*s", (int)n, tmp);
        }
        close(fd);
        if (ret_len)
                *ret_len = b.len;
        *ret = sbuf_steal(&b);
        return 0;
}

char *read_line_file(const char *path)
{
        char *s = NULL;
        if (read_file(path, &s, NULL) < 0)
                return NULL;
        char *nl = strchr(s, '\n');
        if (nl)
                *nl = 0;
        return strip(s);
}

int mkdir_parents(const char *path, unsigned mode)
{
        char *p = xstrdup(path);
        for (char *s = p + 1; *s; s++) {
                if (*s != '/')
                        continue;
                *s = 0;
                if (mkdir(p, mode) == 0)
                        (void)chmod(p, mode); /* the mode asked for, whatever the umask */
                else if (errno != EEXIST) {
                        int r = -errno;
                        free(p);
                        return r;
                }
                *s = '/';
        }
        free(p);
        return 0;
}

static int fsync_parent(const char *path)
{
        char *dir = xstrdup(path);
        char *slash = strrchr(dir, '/');
        if (slash)
                *(slash == dir ? slash + 1 : slash) = 0;
        int r = 0, dfd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0 || fsync(dfd) < 0)
                r = -errno;
        if (dfd >= 0)
                close(dfd);
        free(dir);
        return r;
}

int write_file_atomic(const char *path, const char *content, size_t len, unsigned mode)
{
        int r = mkdir_parents(path, 0755);
        if (r < 0)
                return r;
        char *tmp = xasprintf("%s.storprov-XXXXXX", path);
        int fd = mkostemp(tmp, O_CLOEXEC);
        if (fd < 0) {
                r = -errno;
                free(tmp);
                return r;
        }
        size_t off = 0;
        while (off < len) {
                ssize_t n = write(fd, content + off, len - off);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        goto fail;
                }
                off += (size_t)n;
        }
        if (fchmod(fd, mode) < 0 || fsync(fd) < 0)
                goto fail;
        if (close(fd) < 0) {
                fd = -1;
                goto fail;
        }
        fd = -1;
        if (rename(tmp, path) < 0)
                goto fail;
        free(tmp);
        /* the new name is durable once its directory is: an error there is an error */
        return fsync_parent(path);
fail:
        r = -errno;
        if (fd >= 0)
                close(fd);
        unlink(tmp);
        free(tmp);
        return r;
}
