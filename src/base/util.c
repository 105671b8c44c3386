/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "base/util.h"

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

char *decode_escapes(const char *s, int base)
{
        if (!s)
                return NULL;
        struct sbuf b = {0};
        for (const char *p = s; *p; p++) {
                unsigned v = 0;
                size_t n = 0;
                if (p[0] == '\\' && base == 16 && p[1] == 'x' && isxdigit((unsigned char)p[2]) &&
                    isxdigit((unsigned char)p[3])) {
                        char hex[3] = {p[2], p[3], 0};
                        v = (unsigned)strtoul(hex, NULL, 16);
                        n = 3;
                } else if (p[0] == '\\' && base == 8 && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' &&
                           p[3] >= '0' && p[3] <= '7') {
                        v = (unsigned)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
                        n = 3;
                }
                if (n && v) {
                        sbuf_printf(&b, "%c", (char)v);
                        p += n;
                } else
                        sbuf_printf(&b, "%c", *p);
        }
        return sbuf_steal(&b);
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

