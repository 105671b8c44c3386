/* SPDX-License-Identifier: GPL-2.0-or-later
 * Strings: growable buffers, NULL-terminated vectors, escapes, paths, and text made safe for a comment. */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* A new formatted string (never NULL). */
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

/* s with its escapes decoded: base 16 "\xHH" (udev, systemd unit names),
 * base 8 "\ooo" (fstab as libmount reads it). An escape of a NUL byte and
 * anything that is not a whole escape are kept as they are. NULL for NULL. */
char *decode_escapes(const char *s, int base);
char *path_join(const char *a, const char *b);

/* Appends s to b with every byte outside printable ASCII (and so every
 * newline) replaced by '?'; at most 200 characters, then "...". NULL as
 * "(none)". */
void comment_text(struct sbuf *b, const char *s);
/* The same into a new string. */
char *comment_dup(const char *s);
