/* SPDX-License-Identifier: GPL-2.0-or-later
 * The links under SYSROOT/dev (by-id, by-path, by-uuid, mapper, md) and the
 * names of them storprov keeps: read without following a link out of the
 * sysroot, attached to the devices they point at, sorted. */
#include "discover/devlinks.h"
#include "discover/devnames.h"
#include "base/strmap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A link name below /dev storprov keeps: the characters udev leaves as they are
 * in link names (0-9 A-Z a-z # + - . : = @ _, and '\' of its \xNN escapes for
 * everything else) and '/', relative, no "." or ".." component, at most 1024
 * bytes. Others are dropped: no name storprov prints or resolves carries a
 * blank, a quote or a control character. */
bool link_name_ok(const char *s)
{
        size_t n = strlen(s);
        if (!n || n > 1024 || s[0] == '/' || s[n - 1] == '/')
                return false;
        if (strspn(s, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#+-.:=@_\\/") != n)
                return false;
        for (const char *p = s; p; p = strchr(p, '/'), p = p ? p + 1 : NULL)
                if (p[0] == '/' || (p[0] == '.' && (p[1] == '/' || !p[1] || (p[1] == '.' && (p[2] == '/' || !p[2])))))
                        return false;
        return true;
}

/* ---- links under SYSROOT/dev ------------------------------------------- */

#define DEV_PART_SLOTS 4096

/* The target of the link REL (below dev/), read without following any link on the way
 * (each directory opened O_NOFOLLOW from devfd). NULL if it is not a link. */
static char *dev_readlink(int devfd, const char *rel)
{
        char **comp = strv_split(rel, "/");
        size_t n = strv_len(comp);
        int fd = devfd;
        char *target = NULL;
        for (size_t i = 0; n && i + 1 < n && fd >= 0; i++) {
                int next = openat(fd, comp[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (fd != devfd)
                        close(fd);
                fd = next;
        }
        if (n && fd >= 0) {
                char buf[4097];
                ssize_t k = readlinkat(fd, comp[n - 1], buf, sizeof buf - 1);
                if (k > 0 && memchr(buf, 0, (size_t)k) == NULL) {
                        buf[k] = 0;
                        target = xstrdup(buf);
                }
        }
        if (fd >= 0 && fd != devfd)
                close(fd);
        strv_free(comp);
        return target;
}

/* Where the link REL (below dev/) leads, as a name below dev/, following links up to 8 deep and
 * never out of dev/ (an absolute target is read as inside the sysroot). NULL otherwise. */
static char *dev_link_target(int devfd, const char *rel)
{
        char *cur = xstrdup(rel);
        for (int hop = 0; hop < 8; hop++) {
                _cleanup_free_ char *t = dev_readlink(devfd, cur);
                if (!t)
                        return cur; /* not a link (any more): the end */
                char *joined;
                if (t[0] == '/')
                        joined = xstrdup(t);
                else {
                        char *slash = strrchr(cur, '/');
                        joined = slash ? xasprintf("/dev/%.*s/%s", (int)(slash - cur), cur, t) : xasprintf("/dev/%s", t);
                }
                free(cur);
                cur = devname_normalize(joined, NULL);
                free(joined);
                if (!cur)
                        return NULL; /* out of /dev, or not a name */
        }
        free(cur);
        return NULL; /* a loop, or too deep */
}

static void add_link(char ***links, const char *name)
{
        if (strv_len(*links) < MAX_LINKS_PER_DEV && !strv_contains(*links, name))
                strv_push(links, name);
}

/* The links below SYSROOT/dev (the top level, disk/by-*, mapper, md) to devices and partitions
 * discovery knows: what a by-id or site link names when the udev database says nothing. */
void read_dev_links(const char *sysroot, struct sysinfo *s)
{
        _cleanup_free_ char *devdir = path_join(sysroot, "dev");
        int devfd = open(devdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (devfd < 0)
                return;
        if (!path_under(sysroot, devdir)) {
                close(devfd);
                return;
        }
        struct strmap names = {0};
        for (size_t i = 0; i < s->n_devs; i++) {
                const struct blockdev *b = &s->devs[i];
                strmap_add(&names, b->name, i * DEV_PART_SLOTS, NULL);
                if (b->devnode && startswith(b->devnode, "/dev/"))
                        strmap_add(&names, b->devnode + 5, i * DEV_PART_SLOTS, NULL);
                for (size_t j = 0; j < b->n_partinfo && j + 1 < DEV_PART_SLOTS; j++)
                        strmap_add(&names, b->partinfo[j].name, i * DEV_PART_SLOTS + j + 1, NULL);
        }
        char **dirs = NULL;
        strv_push(&dirs, "");
        strv_push(&dirs, "mapper");
        strv_push(&dirs, "md");
        int diskfd = openat(devfd, "disk", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (diskfd >= 0) {
                DIR *dd = fdopendir(diskfd);
                for (struct dirent *e; dd && (e = readdir(dd));)
                        if (startswith(e->d_name, "by-") && link_name_ok(e->d_name))
                                strv_pushf(&dirs, "disk/%s", e->d_name);
                if (dd)
                        closedir(dd);
                else
                        close(diskfd);
        }
        size_t seen = 0;
        for (size_t k = 0; dirs[k] && seen < MAX_LINKS_TOTAL; k++) {
                int fd = *dirs[k] ? -1 : dup(devfd);
                if (*dirs[k]) {
                        /* one component at a time, none a link */
                        char **comp = strv_split(dirs[k], "/");
                        fd = devfd;
                        for (size_t c = 0; comp && comp[c] && fd >= 0; c++) {
                                int next = openat(fd, comp[c], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                                if (fd != devfd)
                                        close(fd);
                                fd = next;
                        }
                        strv_free(comp);
                        if (fd == devfd)
                                fd = -1;
                }
                DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
                if (!d) {
                        if (fd >= 0)
                                close(fd);
                        continue;
                }
                for (struct dirent *e; (e = readdir(d)) && seen < MAX_LINKS_TOTAL;) {
                        struct stat st;
                        if (e->d_name[0] == '.' || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
                            !S_ISLNK(st.st_mode))
                                continue;
                        seen++;
                        _cleanup_free_ char *rel = *dirs[k] ? xasprintf("%s/%s", dirs[k], e->d_name) : xstrdup(e->d_name);
                        if (!link_name_ok(rel))
                                continue;
                        _cleanup_free_ char *to = dev_link_target(devfd, rel);
                        size_t v = to ? strmap_get(&names, to) : (size_t)-1;
                        if (v == (size_t)-1)
                                continue;
                        struct blockdev *b = &s->devs[v / DEV_PART_SLOTS];
                        if (v % DEV_PART_SLOTS)
                                add_link(&b->partinfo[v % DEV_PART_SLOTS - 1].devlinks, rel);
                        else
                                add_link(&b->devlinks, rel);
                }
                closedir(d);
        }
        strv_free(dirs);
        strmap_free(&names);
        close(devfd);
}

static int lex_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

void sort_links(struct sysinfo *s)
{
        for (size_t i = 0; i < s->n_devs; i++) {
                struct blockdev *b = &s->devs[i];
                if (b->devlinks)
                        qsort(b->devlinks, strv_len(b->devlinks), sizeof(char *), lex_cmp);
                for (size_t j = 0; j < b->n_partinfo; j++)
                        if (b->partinfo[j].devlinks)
                                qsort(b->partinfo[j].devlinks, strv_len(b->partinfo[j].devlinks), sizeof(char *),
                                      lex_cmp);
        }
}
