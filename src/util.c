/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <linux/openat2.h>
#include <unistd.h>

void freep(void *p) { free(*(void **)p); }

static void oom(void)
{
        fputs("storprov: out of memory\n", stderr);
        abort();
}

void *xmalloc(size_t n)
{
        void *p = malloc(n ? n : 1);
        if (!p)
                oom();
        return p;
}

void *xcalloc(size_t n, size_t size)
{
        void *p = calloc(n ? n : 1, size ? size : 1);
        if (!p)
                oom();
        return p;
}

void *xrealloc(void *p, size_t n)
{
        p = realloc(p, n ? n : 1);
        if (!p)
                oom();
        return p;
}

char *xstrdup(const char *s)
{
        if (!s)
                return NULL;
        char *r = strdup(s);
        if (!r)
                oom();
        return r;
}

char *xasprintf(const char *fmt, ...)
{
        struct sbuf b = {0};
        va_list ap;
        va_start(ap, fmt);
        sbuf_vprintf(&b, fmt, ap);
        va_end(ap);
        return sbuf_steal(&b);
}

void sbuf_vprintf(struct sbuf *b, const char *fmt, va_list ap)
{
        va_list aq;
        va_copy(aq, ap);
        int n = vsnprintf(NULL, 0, fmt, aq);
        va_end(aq);
        if (n < 0)
                return;
        if (b->len + (size_t)n + 1 > b->cap) {
                size_t cap = b->cap ? b->cap : 256;
                while (cap < b->len + (size_t)n + 1)
                        cap *= 2;
                b->s = xrealloc(b->s, cap);
                b->cap = cap;
        }
        vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
        b->len += (size_t)n;
}

void sbuf_printf(struct sbuf *b, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        sbuf_vprintf(b, fmt, ap);
        va_end(ap);
}

void sbuf_puts(struct sbuf *b, const char *s)
{
        sbuf_printf(b, "%s", s);
}

char *sbuf_steal(struct sbuf *b)
{
        char *s = b->s ? b->s : xstrdup("");
        *b = (struct sbuf){0};
        return s;
}

size_t strv_len(char *const *v)
{
        size_t n = 0;
        while (v && v[n])
                n++;
        return n;
}

void strv_push(char ***v, const char *s)
{
        size_t n = strv_len(*v);
        *v = xrealloc(*v, (n + 2) * sizeof(char *));
        (*v)[n] = xstrdup(s);
        (*v)[n + 1] = NULL;
}

void strv_pushf(char ***v, const char *fmt, ...)
{
        struct sbuf b = {0};
        va_list ap;
        va_start(ap, fmt);
        sbuf_vprintf(&b, fmt, ap);
        va_end(ap);
        char *s = sbuf_steal(&b);
        strv_push(v, s);
        free(s);
}

char **strv_copy(char *const *v)
{
        char **r = NULL;
        for (size_t i = 0; v && v[i]; i++)
                strv_push(&r, v[i]);
        return r;
}

void strv_free(char **v)
{
        for (size_t i = 0; v && v[i]; i++)
                free(v[i]);
        free(v);
}

char *strv_join(char *const *v, const char *sep)
{
        struct sbuf b = {0};
        for (size_t i = 0; v && v[i]; i++)
                sbuf_printf(&b, "%s%s", i ? sep : "", v[i]);
        return sbuf_steal(&b);
}

static bool shell_safe(const char *s)
{
        if (!*s)
                return false;
        for (; *s; s++)
                if (!isalnum((unsigned char)*s) && !strchr("-_./=:,+%@", *s))
                        return false;
        return true;
}

char *strv_join_shell(char *const *v)
{
        struct sbuf b = {0};
        for (size_t i = 0; v && v[i]; i++) {
                if (i)
                        sbuf_puts(&b, " ");
                if (shell_safe(v[i])) {
                        sbuf_puts(&b, v[i]);
                        continue;
                }
                sbuf_puts(&b, "'");
                for (const char *p = v[i]; *p; p++) {
                        if (*p == '\'')
                                sbuf_puts(&b, "'\\''");
                        else
                                sbuf_printf(&b, "%c", *p);
                }
                sbuf_puts(&b, "'");
        }
        return sbuf_steal(&b);
}

char **strv_split(const char *s, const char *seps)
{
        char **r = NULL;
        if (!s)
                return NULL;
        char *copy = xstrdup(s), *save = NULL;
        for (char *t = strtok_r(copy, seps, &save); t; t = strtok_r(NULL, seps, &save))
                strv_push(&r, t);
        free(copy);
        return r;
}

bool strv_contains(char *const *v, const char *s)
{
        for (size_t i = 0; v && v[i]; i++)
                if (strcmp(v[i], s) == 0)
                        return true;
        return false;
}

bool streq_ptr(const char *a, const char *b)
{
        if (!a || !b)
                return a == b;
        return strcmp(a, b) == 0;
}

bool startswith(const char *s, const char *prefix)
{
        return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

char *strip(char *s)
{
        if (!s)
                return s;
        char *p = s;
        while (isspace((unsigned char)*p))
                p++;
        memmove(s, p, strlen(p) + 1);
        size_t n = strlen(s);
        while (n > 0 && isspace((unsigned char)s[n - 1]))
                s[--n] = 0;
        return s;
}

int parse_u64(const char *s, uint64_t *ret)
{
        if (!s || !*s || !isdigit((unsigned char)*s))
                return -EINVAL;
        uint64_t v = 0;
        for (; isdigit((unsigned char)*s); s++)
                if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(*s - '0'), &v))
                        return -ERANGE;
        if (*s)
                return -EINVAL;
        *ret = v;
        return 0;
}

int parse_uint_range(const char *s, uint64_t min, uint64_t max, uint64_t *ret)
{
        uint64_t v;
        int r = parse_u64(s, &v);
        if (r < 0)
                return r;
        if (v < min || v > max)
                return -ERANGE;
        *ret = v;
        return 0;
}

int parse_bool(const char *s, bool *ret)
{
        if (!s)
                return -EINVAL;
        if (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "1")) {
                *ret = true;
                return 0;
        }
        if (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "0")) {
                *ret = false;
                return 0;
        }
        return -EINVAL;
}

int parse_size(const char *s, uint64_t *ret_bytes)
{
        static const struct {
                const char *suffix;
                uint64_t factor;
        } units[] = {
                {"", 1},          {"b", 1},          {"B", 1},
                {"s", 512},       {"S", 512},
                {"k", KiB},       {"K", KiB},        {"KiB", KiB},      {"KB", 1000},
                {"m", MiB},       {"M", MiB},        {"MiB", MiB},      {"MB", 1000000},
                {"g", GiB},       {"G", GiB},        {"GiB", GiB},      {"GB", UINT64_C(1000000000)},
                {"t", TiB},       {"T", TiB},        {"TiB", TiB},      {"TB", UINT64_C(1000000000000)},
                {"p", TiB * 1024}, {"P", TiB * 1024}, {"PiB", TiB * 1024}, {"PB", UINT64_C(1000000000000000)},
        };
        if (!s)
                return -EINVAL;
        const char *p = s;
        while (isspace((unsigned char)*p))
                p++;
        if (!isdigit((unsigned char)*p))
                return -EINVAL;
        uint64_t whole = 0, frac_num = 0, frac_den = 1;
        for (; isdigit((unsigned char)*p); p++)
                if (__builtin_mul_overflow(whole, 10, &whole) ||
                    __builtin_add_overflow(whole, (uint64_t)(*p - '0'), &whole))
                        return -ERANGE;
        if (*p == '.') {
                p++;
                if (!isdigit((unsigned char)*p))
                        return -EINVAL;
                for (; isdigit((unsigned char)*p); p++) {
                        if (frac_den >= UINT64_C(1000000000000)) {
                                if (*p != '0')
                                        return -EINVAL; /* finer than any unit resolves */
                                continue;
                        }
                        frac_num = frac_num * 10 + (uint64_t)(*p - '0');
                        frac_den *= 10;
                }
        }
        while (isspace((unsigned char)*p))
                p++;
        for (size_t i = 0; i < ELEMENTSOF(units); i++) {
                if (strcmp(p, units[i].suffix) != 0)
                        continue;
                uint64_t f = units[i].factor, v, fr;
                if (__builtin_mul_overflow(whole, f, &v))
                        return -ERANGE;
                if (frac_num) {
                        /* the fraction must come to whole bytes: "0.5k" is 512, "1.1k" is refused */
                        unsigned __int128 t = (unsigned __int128)frac_num * f;
                        if (t % frac_den)
                                return -EINVAL;
                        t /= frac_den;
                        if (t > UINT64_MAX)
                                return -ERANGE;
                        fr = (uint64_t)t;
                        if (__builtin_add_overflow(v, fr, &v))
                                return -ERANGE;
                }
                *ret_bytes = v;
                return 0;
        }
        return -EINVAL;
}

const char *fmt_size_exact(uint64_t bytes, char buf[static 32])
{
        static const char suffix[] = "kmgtp";
        int i = -1;
        uint64_t v = bytes;
        while (v && v % 1024 == 0 && i < 4) {
                v /= 1024;
                i++;
        }
        if (i < 0)
                snprintf(buf, 32, "%" PRIu64, bytes);
        else
                snprintf(buf, 32, "%" PRIu64 "%c", v, suffix[i]);
        return buf;
}

const char *fmt_size_human(uint64_t bytes, char buf[static 32])
{
        static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        int i = 0;
        long double v = (long double)bytes;
        while (v >= 1024 && i < 5) {
                v /= 1024;
                i++;
        }
        if (i == 0)
                snprintf(buf, 32, "%" PRIu64 " B", bytes);
        else if (bytes % ((uint64_t)1 << (10 * i)) == 0)
                snprintf(buf, 32, "%.0Lf %s", v, units[i]);
        else
                snprintf(buf, 32, "%.1Lf %s", v, units[i]);
        return buf;
}

uint64_t gcd_u64(uint64_t a, uint64_t b)
{
        while (b) {
                uint64_t t = a % b;
                a = b;
                b = t;
        }
        return a;
}

uint64_t lcm_u64(uint64_t a, uint64_t b)
{
        if (!a)
                return b;
        if (!b)
                return a;
        uint64_t g = gcd_u64(a, b);
        uint64_t q = a / g;
        if (q > UINT64_MAX / b)
                return 0;
        return q * b;
}

bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

uint64_t round_up(uint64_t x, uint64_t align)
{
        if (!align)
                return x;
        return (x + align - 1) / align * align;
}

uint64_t round_down(uint64_t x, uint64_t align)
{
        if (!align)
                return x;
        return x / align * align;
}

void diag_add(struct diags *d, enum diag_severity sev, const char *file, int line,
              const char *object, const char *rule, const char *fmt, ...)
{
        if (d->n == d->cap) {
                d->cap = d->cap ? d->cap * 2 : 8;
                d->v = xrealloc(d->v, d->cap * sizeof(*d->v));
        }
        struct sbuf b = {0};
        va_list ap;
        va_start(ap, fmt);
        sbuf_vprintf(&b, fmt, ap);
        va_end(ap);
        d->v[d->n++] = (struct diag){
                .severity = sev,
                .file = xstrdup(file),
                .line = line,
                .object = xstrdup(object),
                .rule = xstrdup(rule),
                .message = sbuf_steal(&b),
        };
}

size_t diags_errors(const struct diags *d)
{
        size_t n = 0;
        for (size_t i = 0; i < d->n; i++)
                n += d->v[i].severity == DIAG_ERROR;
        return n;
}

char *diag_format(const struct diag *x)
{
        struct sbuf b = {0};
        if (x->file && x->line > 0)
                sbuf_printf(&b, "%s:%d: ", x->file, x->line);
        else if (x->file)
                sbuf_printf(&b, "%s: ", x->file);
        sbuf_puts(&b, x->severity == DIAG_ERROR ? "error: " : "warning: ");
        if (x->object)
                sbuf_printf(&b, "%s: ", x->object);
        sbuf_puts(&b, x->message);
        if (x->rule)
                sbuf_printf(&b, " [%s]", x->rule);
        return sbuf_steal(&b);
}

void diags_print(const struct diags *d, FILE *f)
{
        /* in file order: a stable insertion sort by line keeps same-line order */
        size_t *idx = xmalloc((d->n ? d->n : 1) * sizeof(size_t));
        for (size_t i = 0; i < d->n; i++) {
                size_t j = i;
                while (j > 0 && d->v[idx[j - 1]].line > d->v[i].line) {
                        idx[j] = idx[j - 1];
                        j--;
                }
                idx[j] = i;
        }
        for (size_t k = 0; k < d->n; k++) {
                char *s = diag_format(&d->v[idx[k]]);
                fprintf(f, "storprov: %s\n", s);
                free(s);
        }
        free(idx);
}

void diags_free(struct diags *d)
{
        for (size_t i = 0; i < d->n; i++) {
                free(d->v[i].file);
                free(d->v[i].object);
                free(d->v[i].rule);
                free(d->v[i].message);
        }
        free(d->v);
        *d = (struct diags){0};
}

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
        return 0;
fail:
        r = -errno;
        if (fd >= 0)
                close(fd);
        unlink(tmp);
        free(tmp);
        return r;
}

char *path_join(const char *a, const char *b)
{
        if (!a || !*a)
                return xstrdup(b);
        size_t la = strlen(a);
        while (la > 1 && a[la - 1] == '/')
                la--;
        while (*b == '/')
                b++;
        if (la == 1 && a[0] == '/')
                return xasprintf("/%s", b);
        return xasprintf("%.*s/%s", (int)la, a, b);
}

/* ---- confined to a root -------------------------------------------------- */

static int openat2_dir(int rootfd, const char *rel)
{
#ifdef SYS_openat2
        if (getenv("STORPROV_NO_OPENAT2"))
                return -ENOSYS;
        struct open_how how = {
                .flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
                .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
        };
        long fd = syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
        return fd < 0 ? -errno : (int)fd;
#else
        (void)rootfd;
        (void)rel;
        return -ENOSYS;
#endif
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

int read_file_in_root(const char *root, const char *rel, char **ret, size_t *ret_len)
{
        char **dirs = NULL, *base = NULL;
        int r = split_rel(rel, &dirs, &base);
        if (r < 0)
                return r;
        int rootfd = open(root && *root ? root : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        int dfd = rootfd < 0 ? -errno : open_dirs(rootfd, dirs, false);
        int fd = -1;
        if (dfd < 0)
                r = dfd;
        else if ((fd = openat(dfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0)
                r = -errno;
        else {
                struct stat st;
                if (fstat(fd, &st) < 0)
                        r = -errno;
                else if (!S_ISREG(st.st_mode))
                        r = -EINVAL;
                else if (st.st_size > (off_t)(64 * MiB))
                        r = -EFBIG;
                else {
                        struct sbuf b = {0};
                        char tmp[8192];
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
                                if (b.len + (size_t)n > 64 * MiB) {
                                        r = -EFBIG;
                                        break;
                                }
                                sbuf_printf(&b, "%.*s", (int)n, tmp);
                        }
                        if (r < 0)
                                free(b.s);
                        else {
                                if (ret_len)
                                        *ret_len = b.len;
                                *ret = sbuf_steal(&b);
                        }
                }
        }
        if (fd >= 0)
                close(fd);
        if (dfd >= 0)
                close(dfd);
        if (rootfd >= 0)
                close(rootfd);
        strv_free(dirs);
        free(base);
        return r;
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
        char **dirs = strv_split(rel, "/");
        for (size_t i = 0; dirs && dirs[i]; i++)
                if (!strcmp(dirs[i], "..")) {
                        strv_free(dirs);
                        return -EXDEV;
                }
        int rootfd = open(root && *root ? root : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        int fd = rootfd < 0 ? -errno : open_dirs(rootfd, dirs, true);
        if (fd >= 0)
                close(fd);
        if (rootfd >= 0)
                close(rootfd);
        strv_free(dirs);
        return fd < 0 ? fd : 0;
}

int unlink_in_root(const char *root, const char *rel)
{
        char **dirs = NULL, *base = NULL;
        int r = split_rel(rel, &dirs, &base);
        if (r < 0)
                return r;
        int rootfd = open(root && *root ? root : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        int dfd = rootfd < 0 ? -errno : open_dirs(rootfd, dirs, false);
        struct stat st;
        if (dfd < 0)
                r = dfd;
        else if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
                r = -errno;
        else if (!S_ISREG(st.st_mode))
                r = S_ISLNK(st.st_mode) ? -ELOOP : -EINVAL;
        else if (unlinkat(dfd, base, 0) < 0 || fsync(dfd) < 0)
                r = -errno;
        if (dfd >= 0)
                close(dfd);
        if (rootfd >= 0)
                close(rootfd);
        strv_free(dirs);
        free(base);
        return r;
}

int write_file_in_root(const char *root, const char *rel, const char *content, size_t len, unsigned mode)
{
        char **dirs = NULL, *base = NULL;
        int r = split_rel(rel, &dirs, &base);
        if (r < 0)
                return r;
        char *tmp = NULL;
        int fd = -1;
        /* the root itself is the caller's word, made if missing */
        char *rootdir = path_join(root && *root ? root : "/", "");
        (void)mkdir_parents(rootdir, 0755);
        free(rootdir);
        int rootfd = open(root && *root ? root : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        int dfd = rootfd < 0 ? -errno : open_dirs(rootfd, dirs, true);
        if (dfd < 0) {
                r = dfd;
                goto out;
        }
        /* the file itself: a link there is refused, not replaced */
        struct stat st;
        bool exists = fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0;
        if (exists && !S_ISREG(st.st_mode)) {
                r = S_ISLNK(st.st_mode) ? -ELOOP : -EINVAL;
                goto out;
        }
        remove_stale_temps(dfd, base);
        for (int attempt = 0; fd < 0 && attempt < 100; attempt++) {
                free(tmp);
                struct timespec ts;
                clock_gettime(CLOCK_MONOTONIC, &ts);
                tmp = xasprintf(".%s.storprov-%ld-%lx-%d", base, (long)getpid(), (unsigned long)ts.tv_nsec, attempt);
                fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
                if (fd < 0 && errno != EEXIST) {
                        r = -errno;
                        goto out;
                }
        }
        if (fd < 0) {
                r = -EEXIST;
                goto out;
        }
        for (size_t off = 0; off < len;) {
                ssize_t n = write(fd, content + off, len - off);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0) {
                        r = -errno;
                        goto out_unlink;
                }
                off += (size_t)n;
        }
        /* an existing file keeps its owner and mode (a 0600 fstab stays 0600) */
        if ((exists && fchown(fd, st.st_uid, st.st_gid) < 0) || fchmod(fd, exists ? st.st_mode & 07777 : mode) < 0 ||
            fsync(fd) < 0) {
                r = -errno;
                goto out_unlink;
        }
        r = close(fd);
        fd = -1;
        if (r < 0) {
                r = -errno;
                goto out_unlink;
        }
        if (renameat(dfd, tmp, dfd, base) < 0) {
                r = -errno;
                goto out_unlink;
        }
        (void)fsync(dfd);
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

bool path_under(const char *root, const char *path)
{
        char *rr = realpath(root && *root ? root : "/", NULL);
        char *pr = rr ? realpath(path, NULL) : NULL;
        bool ok = rr && pr && real_under(rr, pr);
        free(rr);
        free(pr);
        return ok;
}

int read_file_under(const char *root, const char *path, char **ret)
{
        struct stat st;
        if (lstat(path, &st) < 0)
                return -errno;
        if (S_ISLNK(st.st_mode))
                return -ELOOP;
        if (!path_under(root, path))
                return -EXDEV;
        int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        int r = 0;
        if (fstat(fd, &st) < 0)
                r = -errno;
        else if (!S_ISREG(st.st_mode))
                r = -EINVAL;
        struct sbuf b = {0};
        char tmp[8192];
        while (r == 0) {
                ssize_t n = read(fd, tmp, sizeof(tmp));
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        r = -errno;
                else if (n == 0)
                        break;
                else if (b.len + (size_t)n > MiB)
                        r = -EFBIG;
                else
                        sbuf_printf(&b, "%.*s", (int)n, tmp);
        }
        close(fd);
        if (r < 0) {
                free(b.s);
                return r;
        }
        *ret = sbuf_steal(&b);
        return 0;
}
