/* SPDX-License-Identifier: GPL-2.0-or-later
 * Files under a root, confined: openat2(RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS)
 * where the kernel has it, else a walk one component at a time with
 * O_NOFOLLOW. No link under the root is followed, on the way or at the end. */
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "base/openat2_compat.h"

/* ---- confined to a root -------------------------------------------------- */

static int openat2_dir(int rootfd, const char *rel)
{
        if (getenv("STORPROV_NO_OPENAT2"))
                return -ENOSYS;
        struct open_how how = {
                .flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
                .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
        };
        long fd = syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
        return fd < 0 ? -errno : (int)fd;
}

/* Splits REL into its directory components and the last name; refuses "..". */
static int split_rel(const char *rel, char ***ret_dirs, char **ret_base)
{
        char **parts = strv_split(rel, "/");
        size_t n = strv_len(parts);
        for (size_t i = 0; i < n; i++)
                if (!strcmp(parts[i], "..")) {
                        strv_free(parts);
                        return -EXDEV;
                }
        if (!n || !strcmp(parts[n - 1], ".")) {
                strv_free(parts);
                return -EINVAL;
        }
        *ret_base = parts[n - 1];
        parts[n - 1] = NULL;
        *ret_dirs = parts;
        return 0;
}

/* The directory made of DIRS under rootfd, as an fd; -errno. */
static int open_dirs(int rootfd, char **dirs, bool create)
{
        char *joined = strv_join(dirs, "/");
        int fd = openat2_dir(rootfd, *joined ? joined : ".");
        free(joined);
        if (fd >= 0 || (fd != -ENOSYS && !(fd == -ENOENT && create)))
                return fd;
        /* the walk: one component at a time, never following a link */
        int cur = fcntl(rootfd, F_DUPFD_CLOEXEC, 3);
        if (cur < 0)
                return -errno;
        for (size_t i = 0; dirs && dirs[i]; i++) {
                if (!strcmp(dirs[i], "."))
                        continue;
                int next = openat(cur, dirs[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (next < 0 && errno == ENOENT && create) {
                        if (mkdirat(cur, dirs[i], 0755) < 0 && errno != EEXIST) {
                                int r = -errno;
                                close(cur);
                                return r;
                        }
                        (void)fchmodat(cur, dirs[i], 0755, 0); /* 0755 whatever the umask (just made: no link) */
                        next = openat(cur, dirs[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                }
                if (next < 0) {
                        /* a symlink to a directory gives ENOTDIR with O_NOFOLLOW | O_DIRECTORY */
                        int r = errno == ENOTDIR ? -ELOOP : -errno;
                        struct stat st;
                        if (r == -ELOOP && fstatat(cur, dirs[i], &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISLNK(st.st_mode))
                                r = -ENOTDIR;
                        close(cur);
                        return r;
                }
                close(cur);
                cur = next;
        }
        return cur;
}

/* The directory REL's last component is in, under ROOT (every component
 * confined, none created): an fd, with the last component in *ret_base
 * (allocated); or -errno. */
static int open_parent_in_root(const char *root, const char *rel, char **ret_base)
{
        char **dirs = NULL, *base = NULL;
        int r = split_rel(rel, &dirs, &base);
        if (r < 0)
                return r;
        int rootfd = open(root && *root ? root : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        int dfd = rootfd < 0 ? -errno : open_dirs(rootfd, dirs, false);
        if (rootfd >= 0)
                close(rootfd);
        strv_free(dirs);
        if (dfd < 0)
                free(base);
        else
                *ret_base = base;
        return dfd;
}

/* REL under ROOT (the directories on the way confined, the last component
 * not followed either), opened read-only; an fd or -errno. */
static int open_in_root(const char *root, const char *rel)
{
        _cleanup_free_ char *base = NULL;
        int dfd = open_parent_in_root(root, rel, &base);
        if (dfd < 0)
                return dfd;
        int fd = openat(dfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
                fd = -errno;
        close(dfd);
        return fd;
}

int read_file_in_root(const char *root, const char *rel, char **ret, size_t *ret_len)
{
        int r = 0;
        int fd = open_in_root(root, rel);
        if (fd < 0)
                r = fd;
        else {
                struct stat st;
                if (fstat(fd, &st) < 0)
                        r = -errno;
                else if (!S_ISREG(st.st_mode))
                        r = -EINVAL;
                else if (st.st_size > (off_t)(64 * MiB))
                        r = -EFBIG;
                else {
                        /* bytes, not a string: a NUL (a zero-filled block
                         * after a crash) must not end the text early */
                        char *buf = NULL, tmp[8192];
                        size_t len = 0, cap = 0;
                        for (;;) {
                                ssize_t n = read(fd, tmp, sizeof(tmp));
                                if (n < 0 && errno == EINTR)
                                        continue;
                                if (n < 0) {
                                        r = -errno;
                                        break;
                                }
                                if (n == 0)
                                        break;
                                if (len + (size_t)n > 64 * MiB) {
                                        r = -EFBIG;
                                        break;
                                }
                                if (len + (size_t)n + 1 > cap)
                                        buf = xrealloc(buf, cap = 2 * (len + (size_t)n + 1));
                                memcpy(buf + len, tmp, (size_t)n);
                                len += (size_t)n;
                        }
                        if (r < 0)
                                free(buf);
                        else {
                                if (!buf)
                                        buf = xrealloc(NULL, 1);
                                buf[len] = 0;
                                if (ret_len)
                                        *ret_len = len;
                                *ret = buf;
                        }
                }
        }
        if (fd >= 0)
                close(fd);
        return r;
}

/* The directory rel under root (every component confined, no ".."), opened
 * (created first when `create`); an fd or -errno (-EXDEV for ".."). */
static int open_dir_in_root(const char *root, const char *rel, bool create)
{
        char **dirs = strv_split(rel, "/");
        for (size_t i = 0; dirs && dirs[i]; i++)
                if (!strcmp(dirs[i], "..")) {
                        strv_free(dirs);
                        return -EXDEV;
                }
        int rootfd = open(root && *root ? root : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        int fd = rootfd < 0 ? -errno : open_dirs(rootfd, dirs, create);
        if (rootfd >= 0)
                close(rootfd);
        strv_free(dirs);
        return fd;
}

int list_dir_in_root(const char *root, const char *rel, char ***ret)
{
        int dfd = open_dir_in_root(root, rel, false);
        if (dfd < 0)
                return dfd;
        DIR *dir = fdopendir(dfd);
        if (!dir) {
                int r = -errno;
                close(dfd);
                return r;
        }
        char **v = NULL;
        size_t n = 0;
        for (struct dirent *e; (e = readdir(dir));) {
                if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                        continue;
                v = xrealloc(v, (n + 2) * sizeof(char *));
                v[n++] = xstrdup(e->d_name);
                v[n] = NULL;
        }
        closedir(dir);
        *ret = v;
        return 0;
}

/* Temp files of our pattern (".BASE.storprov-PID-…") whose writer is gone: a
 * run killed between create and rename left them. A live writer's are kept. */
static void remove_stale_temps(int dfd, const char *base)
{
        int fd = fcntl(dfd, F_DUPFD_CLOEXEC, 3);
        DIR *dir = fd < 0 ? NULL : fdopendir(fd);
        if (!dir) {
                if (fd >= 0)
                        close(fd);
                return;
        }
        _cleanup_free_ char *prefix = xasprintf(".%s.storprov-", base);
        size_t pl = strlen(prefix);
        for (struct dirent *e; (e = readdir(dir));) {
                if (strncmp(e->d_name, prefix, pl))
                        continue;
                char *end = NULL;
                long pid = strtol(e->d_name + pl, &end, 10);
                if (!end || *end != '-' || pid <= 0)
                        continue;
                if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
                        (void)unlinkat(dirfd(dir), e->d_name, 0);
        }
        closedir(dir);
}

int mkdir_in_root(const char *root, const char *rel)
{
        int fd = open_dir_in_root(root, rel, true);
        if (fd >= 0)
                close(fd);
        return fd < 0 ? fd : 0;
}

int unlink_in_root(const char *root, const char *rel)
{
        _cleanup_free_ char *base = NULL;
        int dfd = open_parent_in_root(root, rel, &base), r = 0;
        if (dfd < 0)
                return dfd;
        struct stat st;
        if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
                r = -errno;
        else if (!S_ISREG(st.st_mode))
                r = S_ISLNK(st.st_mode) ? -ELOOP : -EINVAL;
        else if (unlinkat(dfd, base, 0) < 0 || fsync(dfd) < 0)
                r = -errno;
        close(dfd);
        return r;
}

/* write_file_in_root, phase 1: the directory that will hold the file, each component created as needed and
 * confined under the root; the root itself is the caller's word, made if missing. The root's fd goes to
 * *ret_rootfd (-1 when it could not be opened) and stays open until the caller's cleanup. The directory's fd
 * or -errno. */
static int write_open_dir(const char *root, char **dirs, int *ret_rootfd)
{
        char *rootdir = path_join(root && *root ? root : "/", "");
        (void)mkdir_parents(rootdir, 0755);
        free(rootdir);
        int rootfd = open(root && *root ? root : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        *ret_rootfd = rootfd;
        return rootfd < 0 ? -errno : open_dirs(rootfd, dirs, true);
}

/* Phase 2: the file itself, if there: a link there is refused, not replaced. *ret_exists says whether a
 * regular file is there (its stat in *st); 0, -ELOOP (a link) or -EINVAL (not a regular file). */
static int write_check_target(int dfd, const char *base, struct stat *st, bool *ret_exists)
{
        bool exists = fstatat(dfd, base, st, AT_SYMLINK_NOFOLLOW) == 0;
        *ret_exists = exists;
        if (exists && !S_ISREG(st->st_mode))
                return S_ISLNK(st->st_mode) ? -ELOOP : -EINVAL;
        return 0;
}

/* Phase 3: a new temp file beside BASE (".BASE.storprov-PID-NSEC-ATTEMPT", O_EXCL, mode 0600, up to 100
 * names). Its fd, or -errno (-EEXIST when every name was taken); *tmp holds the last name tried either way
 * (the caller frees it). */
static int write_create_temp(int dfd, const char *base, char **tmp)
{
        int fd = -1;
        for (int attempt = 0; fd < 0 && attempt < 100; attempt++) {
                free(*tmp);
                struct timespec ts;
                clock_gettime(CLOCK_MONOTONIC, &ts);
                *tmp = xasprintf(".%s.storprov-%ld-%lx-%d", base, (long)getpid(), (unsigned long)ts.tv_nsec, attempt);
                fd = openat(dfd, *tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
                if (fd < 0 && errno != EEXIST)
                        return -errno;
        }
        return fd < 0 ? -EEXIST : fd;
}

/* Phase 4: the temp file filled, given its owner and mode, and fsync'd (still open: the caller closes it).
 * An existing file (EXISTING, else NULL) keeps its owner and mode (a 0600 fstab stays 0600); a new one gets
 * MODE. 0 or -errno, with *stage naming the step that failed. */
static int write_fill_temp(int fd, const char *content, size_t len, const struct stat *existing, unsigned mode,
                           const char **stage)
{
        *stage = "writing the temp file";
        for (size_t off = 0; off < len;) {
                ssize_t n = write(fd, content + off, len - off);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        return -errno;
                off += (size_t)n;
        }
        *stage = "setting its owner and mode";
        if ((existing && fchown(fd, existing->st_uid, existing->st_gid) < 0) ||
            fchmod(fd, existing ? existing->st_mode & 07777 : mode) < 0)
                return -errno;
        *stage = "fsync of the temp file (the file was not replaced)";
        if (fsync(fd) < 0)
                return -errno;
        return 0;
}

/* The phases, in order: open the directory (write_open_dir), check what is there (write_check_target), remove
 * temps of dead writers, create the temp file (write_create_temp), fill, chown/chmod and fsync it
 * (write_fill_temp), close it, rename it over the name, fsync the directory. A failure after the temp file
 * exists and before the rename unlinks it. */
int write_file_in_root(const char *root, const char *rel, const char *content, size_t len, unsigned mode,
                       const char **ret_stage)
{
        const char *stage_buf, **stage = ret_stage ? ret_stage : &stage_buf;
        *stage = "opening its directory";
        char **dirs = NULL, *base = NULL;
        int r = split_rel(rel, &dirs, &base);
        if (r < 0)
                return r;
        char *tmp = NULL;
        int fd = -1, rootfd = -1;
        struct stat st;
        bool exists = false;
        int dfd = write_open_dir(root, dirs, &rootfd);
        if (dfd < 0) {
                r = dfd;
                goto out;
        }
        r = write_check_target(dfd, base, &st, &exists);
        if (r < 0)
                goto out;
        remove_stale_temps(dfd, base);
        *stage = "creating the temp file";
        fd = write_create_temp(dfd, base, &tmp);
        if (fd < 0) {
                r = fd;
                goto out;
        }
        r = write_fill_temp(fd, content, len, exists ? &st : NULL, mode, stage);
        if (r < 0)
                goto out_unlink;
        r = close(fd);
        fd = -1;
        if (r < 0) {
                r = -errno;
                goto out_unlink;
        }
        *stage = "renaming the temp file over it";
        if (renameat(dfd, tmp, dfd, base) < 0) {
                r = -errno;
                goto out_unlink;
        }
        /* the new name is durable only once the directory is: an error here is an error */
        *stage = "fsync of its directory (the new file is in place but may not survive a crash)";
        if (fsync(dfd) < 0) {
                r = -errno;
                goto out;
        }
        *stage = NULL;
        r = 0;
        goto out;
out_unlink:
        unlinkat(dfd, tmp, 0);
out:
        if (fd >= 0)
                close(fd);
        if (dfd >= 0)
                close(dfd);
        if (rootfd >= 0)
                close(rootfd);
        free(tmp);
        strv_free(dirs);
        free(base);
        return r;
}

static bool real_under(const char *root_real, const char *real)
{
        size_t n = strlen(root_real);
        if (n == 1 && root_real[0] == '/')
                return true;
        return !strncmp(real, root_real, n) && (real[n] == '/' || real[n] == 0);
}

/* PATH as a name relative to ROOT when it is textually below it ("." for ROOT
 * itself), else NULL. */
static const char *rel_below(const char *root, const char *path)
{
        size_t n = strlen(root);
        while (n > 1 && root[n - 1] == '/')
                n--;
        if (n == 1 && root[0] == '/')
                n = 0;
        if (strncmp(path, root, n) || (path[n] != '/' && path[n] != 0))
                return NULL;
        while (path[n] == '/')
                n++;
        return path[n] ? path + n : ".";
}

/* The quick answer for path_under and read_file_under: PATH opened with FLAGS
 * by one openat2(RESOLVE_BENEATH) from ROOT, so the kernel follows the links
 * on the way (sysfs is made of them) and refuses any step out of ROOT, with
 * no readlink() of every component as realpath() does. An fd or -errno; on
 * any error the caller takes the realpath() way, which decides alike (an
 * absolute link back into ROOT, refused here, is judged there). */
static int open_beneath(const char *root, const char *path, int flags)
{
        if (getenv("STORPROV_NO_OPENAT2"))
                return -ENOSYS;
        const char *rel = rel_below(root && *root ? root : "/", path);
        if (!rel)
                return -EXDEV;
        int rootfd = open(root && *root ? root : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (rootfd < 0)
                return -errno;
        struct open_how how = {.flags = (uint64_t)flags, .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS};
        long fd = syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
        int r = fd < 0 ? -errno : (int)fd;
        close(rootfd);
        return r;
}

bool path_under(const char *root, const char *path)
{
        int fd = open_beneath(root, path, O_PATH | O_CLOEXEC);
        if (fd >= 0) {
                close(fd);
                return true;
        }
        char *rr = realpath(root && *root ? root : "/", NULL);
        char *pr = rr ? realpath(path, NULL) : NULL;
        bool ok = rr && pr && real_under(rr, pr);
        free(rr);
        free(pr);
        return ok;
}

/* The one confined reader: every byte kept (NUL included), at most max bytes. */
int read_file_under_len(const char *root, const char *path, size_t max, char **ret, size_t *ret_len)
{
        struct stat st;
        int fd = open_beneath(root, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) {
                if (lstat(path, &st) < 0)
                        return -errno;
                if (S_ISLNK(st.st_mode))
                        return -ELOOP;
                if (!path_under(root, path))
                        return -EXDEV;
                fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
                if (fd < 0)
                        return -errno;
        }
        int r = 0;
        if (fstat(fd, &st) < 0)
                r = -errno;
        else if (!S_ISREG(st.st_mode))
                r = -EINVAL;
        char *buf = NULL;
        size_t len = 0, cap = 0;
        char tmp[8192];
        while (r == 0) {
                ssize_t n = read(fd, tmp, sizeof(tmp));
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        r = -errno;
                else if (n == 0)
                        break;
                else if (len + (size_t)n > max)
                        r = -EFBIG;
                else {
                        if (len + (size_t)n + 1 > cap)
                                buf = xrealloc(buf, cap = 2 * (len + (size_t)n + 1));
                        memcpy(buf + len, tmp, (size_t)n);
                        len += (size_t)n;
                }
        }
        close(fd);
        if (r < 0) {
                free(buf);
                return r;
        }
        if (!buf)
                buf = xmalloc(1);
        buf[len] = 0;
        *ret = buf;
        if (ret_len)
                *ret_len = len;
        return 0;
}

int read_file_under(const char *root, const char *path, char **ret)
{
        return read_file_under_len(root, path, MiB, ret, NULL);
}

int label_in_root(const char *root, const char *rel, const char *label, bool only_unlabeled)
{
        int fd = open_in_root(root, rel), r;
        if (fd < 0)
                return fd;
        char cur[256];
        ssize_t n = fgetxattr(fd, "security.selinux", cur, sizeof cur - 1);
        size_t want = strlen(label);
        if (only_unlabeled && n > 0)
                r = 0;
        else if (n > 0 && (size_t)n >= want && !memcmp(cur, label, want) && ((size_t)n == want || cur[want] == 0))
                r = 0; /* already so */
        else
                r = fsetxattr(fd, "security.selinux", label, want + 1, 0) < 0 ? -errno : 1;
        close(fd);
        return r;
}
