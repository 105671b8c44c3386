/* SPDX-License-Identifier: GPL-2.0-or-later
 * src/base/: memory, strings, sizes, integer maths, diagnostics, string maps, root-confined files; no other room.
 * storprov — small helpers shared by every layer: memory, string buffers,
 * string vectors, sizes with units, integer maths, diagnostics. No I/O here
 * except the atomic file writer and the file slurper at the bottom. */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define KiB UINT64_C(1024)
#define MiB (KiB * 1024)
#define GiB (MiB * 1024)
#define TiB (GiB * 1024)

/* The unit of sysfs sizes, mkfs sunit/swidth, lvcreate -r and dm tables, and the
 * logical sector a device has when it does not say. */
#define SECTOR_BYTES UINT64_C(512)

#define ELEMENTSOF(a) (sizeof(a) / sizeof((a)[0]))

/* Cleanup attribute in the systemd style: free on scope exit. */
void freep(void *p);
#define _cleanup_free_ __attribute__((cleanup(freep)))

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);          /* NULL stays NULL */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Growable string buffer. */
struct sbuf {
        char *s;
        size_t len, cap;
};
void sbuf_puts(struct sbuf *b, const char *s);
void sbuf_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sbuf_vprintf(struct sbuf *b, const char *fmt, va_list ap);
char *sbuf_steal(struct sbuf *b);      /* returns "" rather than NULL */

/* NULL-terminated string vectors. */
size_t strv_len(char *const *v);
void strv_push(char ***v, const char *s);          /* copies s */
void strv_pushf(char ***v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char **strv_copy(char *const *v);
void strv_free(char **v);
char *strv_join(char *const *v, const char *sep);
/* Join for logs: arguments with spaces or shell specials are single-quoted. */
char *strv_join_shell(char *const *v);
char **strv_split(const char *s, const char *seps); /* drops empty fields */
bool strv_contains(char *const *v, const char *s);

bool streq_ptr(const char *a, const char *b);
bool startswith(const char *s, const char *prefix);
char *strip(char *s);                  /* in place, returns s */

/* Sizes. Accepts "512", "64K", "64k", "64KiB", "11M", "5.5T" (binary units:
 * K/M/G/T/P and KiB/MiB/…), "500GB"/"5.5TB" (decimal: KB/MB/GB/TB/PB) and
 * a trailing "s" for 512-byte sectors ("2048s"). A fraction must come to whole
 * bytes ("0.5k" yes, "1.1k" -EINVAL). Checked: a value past 2^64-1 is -ERANGE,
 * never wrapped. Returns 0 or -EINVAL/-ERANGE. */
int parse_size(const char *s, uint64_t *ret_bytes);
/* Shortest exact form with a lower-case binary suffix for mkfs and mount:
 * 65536 -> "64k", 11534336 -> "11m", 1000 -> "1000". buf needs 32 bytes. */
const char *fmt_size_exact(uint64_t bytes, char buf[static 32]);
/* Human form with one decimal for messages: "5.5 TiB". buf needs 32 bytes. */
const char *fmt_size_human(uint64_t bytes, char buf[static 32]);
/* The one checked parser for counts: decimal digits only (no sign, no blank),
 * overflow gives -ERANGE, never a wrapped value. */
int parse_u64(const char *s, uint64_t *ret);
/* parse_u64 within [min, max]: -ERANGE outside. */
int parse_uint_range(const char *s, uint64_t min, uint64_t max, uint64_t *ret);
/* Saturating arithmetic for guards: UINT64_MAX instead of a wrap. */
static inline uint64_t mul_sat_u64(uint64_t a, uint64_t b)
{
        uint64_t r;
        return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}
static inline uint64_t add_sat_u64(uint64_t a, uint64_t b)
{
        uint64_t r;
        return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}
int parse_bool(const char *s, bool *ret);

uint64_t gcd_u64(uint64_t a, uint64_t b);
/* lcm, or 0 on overflow. lcm(0, x) = x. */
uint64_t lcm_u64(uint64_t a, uint64_t b);
bool is_pow2(uint64_t x);
uint64_t round_up(uint64_t x, uint64_t align);
uint64_t round_down(uint64_t x, uint64_t align);

/* Diagnostics: every problem found in a profile or plan, with where it came
 * from and the rule it broke, collected so that all are reported at once. */
enum diag_severity { DIAG_WARNING, DIAG_ERROR };
struct diag {
        enum diag_severity severity;
        char *file;     /* profile path, or NULL */
        int line;       /* 0 if unknown */
        char *object;   /* "md data", "disks lun", … or NULL */
        char *rule;     /* short rule id: "queue-memory", "raid1-chunk", … */
        char *message;
};
struct diags {
        struct diag *v;
        size_t n, cap;
};
void diag_add(struct diags *d, enum diag_severity sev, const char *file, int line,
              const char *object, const char *rule, const char *fmt, ...)
        __attribute__((format(printf, 7, 8)));
size_t diags_errors(const struct diags *d);
/* "FILE:LINE: error: [rule] object: message" */
char *diag_format(const struct diag *x);
void diags_print(const struct diags *d, FILE *f);
void diags_free(struct diags *d);

/* File helpers. */
int read_file(const char *path, char **ret, size_t *ret_len);  /* -errno */
/* First line of a small file, stripped; NULL if missing. */
char *read_line_file(const char *path);
/* Write via temp file + fsync + rename in the same directory + fsync of the
 * directory; creates missing parent directories (0755). Returns 0 or -errno
 * (an fsync error included). */
int write_file_atomic(const char *path, const char *content, size_t len, unsigned mode);
int mkdir_parents(const char *path, unsigned mode);

/* Confined to a root: REL is a path inside ROOT ("etc/fstab" or "/etc/fstab"),
 * resolved as if ROOT were "/" and never through a symbolic link, with
 * openat2(RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS) or,
 * where the kernel lacks openat2 (before 5.6; or STORPROV_NO_OPENAT2=1 in the
 * environment, for tests), a walk with openat(O_NOFOLLOW | O_DIRECTORY) per
 * component. A ".." component is refused (-EXDEV), a link anywhere on the way
 * or as the file itself gives -ELOOP, anything but a regular file -EINVAL.
 * read: *ret NUL-terminated; files over 64 MiB give -EFBIG. */
int read_file_in_root(const char *root, const char *rel, char **ret, size_t *ret_len);
/* Reading a captured tree: PATH (a path under ROOT, the root included) is
 * read only when the file itself is not a symbolic link and its real path
 * (links on the way resolved, as sysfs is made of them) stays inside ROOT's
 * real path. -ELOOP for a link, -EXDEV for a path that leaves ROOT. Regular
 * files only (-EINVAL), at most 1 MiB (-EFBIG). */
int read_file_under(const char *root, const char *path, char **ret);
/* read_file_under, with every byte kept (NUL included: *ret_len tells the
 * length; *ret is NUL-terminated beyond it) and a cap of max bytes (-EFBIG). */
int read_file_under_len(const char *root, const char *path, size_t max, char **ret, size_t *ret_len);
/* Whether PATH resolves (links followed) to a place inside ROOT. */
bool path_under(const char *root, const char *path);
/* Makes the directory rel under root (every component, 0755, no link followed); -errno. */
int mkdir_in_root(const char *root, const char *rel);
/* The names in directory REL under ROOT (no link followed, no "." or ".."),
 * NULL-terminated (NULL: empty); -errno. */
int list_dir_in_root(const char *root, const char *rel, char ***ret);
/* Sets the SELinux label (the security.selinux extended attribute) of REL
 * under ROOT, confined like the others (no link followed); with
 * only_unlabeled, leaves a file or directory that has a label alone. 1 when
 * set, 0 when left as it was, -errno. */
int label_in_root(const char *root, const char *rel, const char *label, bool only_unlabeled);
/* Removes a regular file under root (confined like the others); -errno. */
int unlink_in_root(const char *root, const char *rel);
/* write: temp file + fsync + renameat + fsync of the directory, in the same
 * (confined) directory; missing parent directories are made 0755 whatever the
 * umask, one component at a time; an existing file keeps its owner and mode;
 * temp files a killed writer left (".NAME.storprov-PID-…", PID gone) are removed.
 * On an error, *ret_stage (if not NULL) says at which stage ("fsync of its
 * directory (…)"): an fsync error is an error, never ignored. */
int write_file_in_root(const char *root, const char *rel, const char *content, size_t len, unsigned mode,
                       const char **ret_stage);
/* s with its escapes decoded: base 16 "\xHH" (udev, systemd unit names),
 * base 8 "\ooo" (fstab as libmount reads it). An escape of a NUL byte and
 * anything that is not a whole escape are kept as they are. NULL for NULL. */
char *decode_escapes(const char *s, int base);
char *path_join(const char *a, const char *b);
