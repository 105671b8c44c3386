/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "base/util.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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



void comment_text(struct sbuf *b, const char *s)
{
        if (!s) {
                sbuf_puts(b, "(none)");
                return;
        }
        size_t n = 0;
        for (const char *p = s; *p; p++, n++) {
                if (n == 200) {
                        sbuf_puts(b, "...");
                        return;
                }
                unsigned char c = (unsigned char)*p;
                sbuf_printf(b, "%c", c >= 0x20 && c < 0x7f ? (char)c : '?');
        }
}

char *comment_dup(const char *s)
{
        struct sbuf b = {0};
        comment_text(&b, s);
        return sbuf_steal(&b);
}
