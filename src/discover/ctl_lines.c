/* SPDX-License-Identifier: GPL-2.0-or-later
 * What the controller text parsers share: a reader of the tools' output line
 * by line ("key : value", "key = value" or a table row), keys matched as the
 * vendors print them across versions (any case, any run of blanks), and the
 * words every tool uses for sizes, levels and states. Pure. */
#include "discover/ctl_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void ctl_text_init(struct ctl_text *c, const char *tool, const char *buf, size_t len)
{
        *c = (struct ctl_text){.tool = tool, .buf = buf, .len = len};
        if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) /* a UTF-8 byte-order mark (a capture saved on Windows) */
                c->pos = 3;
}

int ctl_text_fail(struct ctl_text *c, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        char *m = NULL;
        if (vasprintf(&m, fmt, ap) < 0)
                m = NULL;
        va_end(ap);
        if (!c->err)
                c->err = c->no ? xasprintf("%s output line %u: %s", c->tool, c->no, m ? m : "out of memory")
                               : xasprintf("%s output: %s", c->tool, m ? m : "out of memory");
        free(m);
        return -EINVAL;
}

char *ctl_trim(char *s)
{
        while (*s == ' ' || *s == '\t')
                s++;
        size_t n = strlen(s);
        while (n && isspace((unsigned char)s[n - 1]))
                s[--n] = 0;
        return s;
}

int ctl_text_next(struct ctl_text *c, struct ctl_line *t, char sep)
{
        if (c->pos >= c->len)
                return 0;
        const char *s = c->buf + c->pos;
        const char *nl = memchr(s, '\n', c->len - c->pos);
        size_t n = nl ? (size_t)(nl - s) : c->len - c->pos;
        c->pos += n + (nl ? 1 : 0);
        c->no++;
        for (size_t i = 0; i < n; i++)
                if ((unsigned char)s[i] < 0x20 && s[i] != '\t' && s[i] != '\r')
                        return ctl_text_fail(c, "byte 0x%02x in the text: the output is garbled", (unsigned char)s[i]);
        free(c->line);
        free(c->raw);
        c->line = xmalloc(n + 1);
        memcpy(c->line, s, n);
        c->line[n] = 0;
        c->raw = xstrdup(c->line);
        ctl_trim(c->raw + strspn(c->raw, " \t")); /* the right end only: the indent stays */
        *t = (struct ctl_line){.no = c->no, .indent = (unsigned)strspn(c->line, " \t"), .raw = c->raw};
        char *at = sep ? strchr(c->line, sep) : NULL;
        if (at)
                *at = 0;
        t->key = ctl_trim(c->line);
        t->value = at ? ctl_trim(at + 1) : NULL;
        return 1;
}

int ctl_text_finish(struct ctl_text *c, struct ctl_list *l, size_t n0, char **ret_err)
{
        free(c->line);
        free(c->raw);
        c->line = c->raw = NULL;
        if (!c->err)
                return 0;
        ctl_truncate(l, n0);
        *ret_err = c->err;
        c->err = NULL;
        return -EINVAL;
}

bool ctl_key_eq(const char *key, const char *name)
{
        if (!key)
                return false;
        for (;;) {
                bool kb = *key == ' ' || *key == '\t', nb = *name == ' ';
                if (kb != nb)
                        return false;
                if (kb) {
                        key += strspn(key, " \t");
                        name += strspn(name, " ");
                        continue;
                }
                if (tolower((unsigned char)*key) != tolower((unsigned char)*name))
                        return false;
                if (!*key)
                        return true;
                key++;
                name++;
        }
}

bool ctl_key_in(const char *key, const char *const *names)
{
        for (size_t i = 0; names[i]; i++)
                if (ctl_key_eq(key, names[i]))
                        return true;
        return false;
}

bool ctl_key_prefix(const char *key, const char *prefix, const char **ret_rest)
{
        /* as ctl_key_eq, over the prefix's length */
        const char *k = key, *p = prefix;
        while (*p) {
                bool kb = *k == ' ' || *k == '\t', pb = *p == ' ';
                if (kb != pb)
                        return false;
                if (kb) {
                        k += strspn(k, " \t");
                        p += strspn(p, " ");
                        continue;
                }
                if (tolower((unsigned char)*k) != tolower((unsigned char)*p))
                        return false;
                k++;
                p++;
        }
        if (ret_rest)
                *ret_rest = k;
        return true;
}

int ctl_field_size(struct ctl_text *c, const char *what, const char *value, uint64_t *ret)
{
        if (ctl_parse_strip(value, ret) < 0) {
                _cleanup_free_ char *p = ctl_printable(value ? value : "", 40), *w = ctl_printable(what, 40);
                return ctl_text_fail(c, "%s \"%s\" is not a size such as \"256 KB\"", w, p);
        }
        return 0;
}

int ctl_field_count(struct ctl_text *c, const char *what, const char *value, unsigned *ret)
{
        char *end;
        errno = 0;
        unsigned long n = value && isdigit((unsigned char)*value) ? strtoul(value, &end, 10) : 0;
        if (!n || errno || *ctl_trim(end) || n > 4096) {
                _cleanup_free_ char *p = ctl_printable(value ? value : "", 40), *w = ctl_printable(what, 40);
                return ctl_text_fail(c, "%s \"%s\" is not a count from 1 to 4096", w, p);
        }
        *ret = (unsigned)n;
        return 0;
}

/* "1+0 (ADM)" → "1+0adm": lower case, no blanks, no parentheses, no "raid"/"raid-" in front. */
static void squash(const char *s, char out[static 40])
{
        size_t o = 0;
        if (!strncasecmp(s, "raid", 4)) {
                s += 4;
                s += strspn(s, " -_");
        }
        for (; *s && o + 1 < 40; s++)
                if (!strchr(" ()\t", *s))
                        out[o++] = (char)tolower((unsigned char)*s);
        out[o] = 0;
}

const char *ctl_level_of(const char *raw)
{
        static const struct {
                const char *raw, *level;
        } map[] = {
                {"0", "raid0"},           {"1", "raid1"},           {"1+0", "raid10"},
                {"10", "raid10"},         {"5", "raid5"},           {"6", "raid6"},
                {"6adg", "raid6"},        {"6reed-solomon", "raid6"}, {"50", "raid50"},
                {"5+0", "raid50"},        {"60", "raid60"},         {"6+0", "raid60"},
                {"6reedsolomon", "raid6"}, {"60reed-solomon", "raid60"}, {"60reedsolomon", "raid60"},
                {"00", "raid00"},         {"1adm", "raid1-triple"}, {"1triple", "raid1-triple"},
                {"1+0adm", "raid10-triple"}, {"10adm", "raid10-triple"}, {"10triple", "raid10-triple"},
                {"1e", "raid1e"},         {"5ee", "raid5ee"},       {"simple_volume", "simple"},
                {"simplevolume", "simple"}, {"simple", "simple"},   {"spanned_volume", "spanned"},
                {"spannedvolume", "spanned"}, {"spanned", "spanned"}, {"single", "simple"},
                {"jbod", "simple"},
        };
        if (!raw)
                return NULL;
        char s[40];
        squash(raw, s);
        for (size_t i = 0; i < ELEMENTSOF(map); i++)
                if (!strcmp(s, map[i].raw))
                        return map[i].level;
        return NULL;
}

const char *ctl_state_of(const char *raw)
{
        /* in this order: "REBUILD-VERIFY" is a rebuild, "Interim Recovery Mode" (ssacli) a degraded
         * array, tw_cli's "RECOVERY" a recovering one; "Ready for Rebuild" (ssacli) waits for a drive */
        static const struct {
                const char *word, *state;
        } map[] = {
                {"ready for rebuild", "degraded"},  {"rebuild", "rebuilding"},       {"recovering", "rebuilding"},
                {"interim recovery", "degraded"},   {"recovery", "recovering"},
                {"partially degraded", "partially-degraded"},                        {"degraded", "degraded"},
                {"impacted", "degraded"},           {"critical", "degraded"},        {"failed", "failed"},
                {"inoperable", "failed"},           {"offline", "offline"},          {"foreign", "foreign"},
                {"optimal", "optimal"},             {"verify", "optimal"},           {"verifying", "optimal"},
        };
        if (!raw)
                return "other";
        char s[64]; /* tw_cli marks a drive error with a '*' after the state ("OK*") */
        snprintf(s, sizeof s, "%s", raw);
        s[strcspn(s, "*")] = 0;
        if (!strcasecmp(s, "OK") || !strcasecmp(s, "Okay") || !strcasecmp(s, "Normal"))
                return "optimal";
        for (size_t i = 0; i < ELEMENTSOF(map); i++)
                if (strcasestr(s, map[i].word))
                        return map[i].state;
        return "other";
}

void ctl_words_split(struct ctl_words *x, const char *s)
{
        free(x->copy);
        *x = (struct ctl_words){.copy = xstrdup(s)};
        char *save = NULL;
        for (char *w = strtok_r(x->copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
                if (x->n == CTL_WORDS) {
                        x->n++;
                        break;
                }
                x->w[x->n++] = w;
        }
}

void ctl_words_free(struct ctl_words *x)
{
        free(x->copy);
        *x = (struct ctl_words){0};
}

void ctl_set_str(char **p, const char *v, size_t max)
{
        free(*p);
        *p = ctl_printable(v ? v : "", max);
}

char *ctl_dev_word(const char *v)
{
        if (!v || !startswith(v, "/dev/"))
                return NULL;
        char *w = ctl_printable(v, 64);
        w[strcspn(w, " \t")] = 0;
        return w;
}
