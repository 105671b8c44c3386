/* SPDX-License-Identifier: GPL-2.0-or-later
 * ssacli ("ctrl all show config detail") and arcconf ("GETCONFIG N LD") text
 * into controller records. Pure: bytes in, records or one error out. */
#include "discover/ctl_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One line of the output: its number, indentation, and "key: value" split
 * at the first colon (both trimmed; value NULL when there is no colon). */
struct tline {
        unsigned no, indent;
        char *key, *value;
};

struct tctx {
        const char *tool;
        const char *buf;
        size_t len, pos;
        unsigned no;
        char *line;
        char *err;
};

static int tfail(struct tctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int tfail(struct tctx *c, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        char *m = NULL;
        if (vasprintf(&m, fmt, ap) < 0)
                m = NULL;
        va_end(ap);
        if (!c->err)
                c->err = xasprintf("%s output line %u: %s", c->tool, c->no, m ? m : "out of memory");
        free(m);
        return -EINVAL;
}

static char *trim(char *s)
{
        while (*s == ' ' || *s == '\t')
                s++;
        size_t n = strlen(s);
        while (n && isspace((unsigned char)s[n - 1]))
                s[--n] = 0;
        return s;
}

/* The next line into t: 1, 0 at the end, -EINVAL for a byte that is not text. */
static int next_line(struct tctx *c, struct tline *t)
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
                        return tfail(c, "byte 0x%02x in the text: the output is garbled", (unsigned char)s[i]);
        free(c->line);
        c->line = xmalloc(n + 1);
        memcpy(c->line, s, n);
        c->line[n] = 0;
        *t = (struct tline){.no = c->no, .indent = (unsigned)strspn(c->line, " \t")};
        char *colon = strchr(c->line, ':');
        if (colon)
                *colon = 0;
        t->key = trim(c->line);
        t->value = colon ? trim(colon + 1) : NULL;
        return 1;
}

static int strip_field(struct tctx *c, const char *value, uint64_t *ret)
{
        if (ctl_parse_strip(value, ret) < 0) {
                _cleanup_free_ char *p = ctl_printable(value, 40);
                return tfail(c, "\"%s\" is not a size such as \"256 KB\"", p);
        }
        return 0;
}

/* "1+0 (ADM)" → "1+0adm": lower case, no blanks, no parentheses. */
static void squash(const char *s, char *out, size_t size)
{
        size_t o = 0;
        for (; *s && o + 1 < size; s++)
                if (!strchr(" ()\t", *s))
                        out[o++] = (char)tolower((unsigned char)*s);
        out[o] = 0;
}

const char *ctl_level_of(const char *raw)
{
        static const struct {
                const char *raw, *level;
        } map[] = {
                {"0", "raid0"},          {"1", "raid1"},       {"1+0", "raid10"},      {"10", "raid10"},
                {"5", "raid5"},          {"6", "raid6"},       {"6adg", "raid6"},      {"50", "raid50"},
                {"60", "raid60"},        {"00", "raid00"},     {"1adm", "raid1-triple"}, {"1triple", "raid1-triple"},
                {"1+0adm", "raid10-triple"}, {"10triple", "raid10-triple"},
        };
        char s[32];
        squash(raw, s, sizeof s);
        for (size_t i = 0; i < ELEMENTSOF(map); i++)
                if (!strcmp(s, map[i].raw))
                        return map[i].level;
        return NULL;
}

static const char *state_of(const char *raw)
{
        static const struct {
                const char *word, *state;
        } map[] = {
                {"rebuild", "rebuilding"}, {"recovering", "rebuilding"}, {"interim recovery", "degraded"},
                {"degraded", "degraded"},  {"impacted", "degraded"},     {"failed", "failed"},
                {"offline", "offline"},    {"foreign", "foreign"},       {"optimal", "optimal"},
        };
        if (!strcasecmp(raw, "OK"))
                return "optimal";
        for (size_t i = 0; i < ELEMENTSOF(map); i++)
                if (strcasestr(raw, map[i].word))
                        return map[i].state;
        return "other";
}

static void set_str(char **p, const char *v, size_t max)
{
        free(*p);
        *p = ctl_printable(v, max);
}

/* "/dev/sda (Disk0) ..." → "/dev/sda"; NULL unless it starts with /dev/. */
static char *dev_word(const char *v)
{
        if (!startswith(v, "/dev/"))
                return NULL;
        char *w = ctl_printable(v, 64);
        w[strcspn(w, " \t")] = 0;
        return w;
}

/* ---- ssacli ------------------------------------------------------------------ */

struct ssa_ld {
        struct ctl_vd *v;
        unsigned indent, line;
        bool has_level, has_status;
};

/* From the tool's own figures: data drives of one parity group = its full
 * stripe / strip; the drives of a group follow from the level. */
static void ssa_geometry(struct ctl_vd *v)
{
        if (v->level && v->strip_bytes && v->reported_full_stripe_bytes &&
            v->reported_full_stripe_bytes % v->strip_bytes == 0) {
                uint64_t d = v->reported_full_stripe_bytes / v->strip_bytes;
                const char *lv = v->level;
                uint64_t per = !strcmp(lv, "raid1") || !strcmp(lv, "raid10")               ? 2 * d
                               : strstr(lv, "triple")                                      ? 3 * d
                               : !strcmp(lv, "raid5") || !strcmp(lv, "raid50")             ? d + 1
                               : !strcmp(lv, "raid6") || !strcmp(lv, "raid60")             ? d + 2
                                                                                            : d;
                v->drives_per_span = per <= 4096 ? (unsigned)per : 0;
                if (!v->spans && strcmp(lv, "raid50") && strcmp(lv, "raid60"))
                        v->spans = 1;
        }
        ctl_vd_geometry(v);
}

static int ssa_end(struct tctx *c, struct ssa_ld *ld)
{
        if (!ld->v)
                return 0;
        if (!ld->has_level || !ld->has_status)
                return tfail(c, "logical drive %s (line %u) ends without its \"Fault Tolerance\" and \"Status\" "
                                "lines: the output is cut short; run the tool again",
                             ld->v->vd, ld->line);
        ssa_geometry(ld->v);
        ld->v = NULL;
        return 0;
}

static int ssa_field(struct tctx *c, struct ssa_ld *ld, const struct tline *t)
{
        struct ctl_vd *v = ld->v;
        if (!strcmp(t->key, "Fault Tolerance")) {
                set_str(&v->level_raw, t->value, 32);
                free(v->level);
                v->level = xstrdup(ctl_level_of(t->value));
                ld->has_level = true;
        } else if (!strcmp(t->key, "Strip Size"))
                return strip_field(c, t->value, &v->strip_bytes);
        else if (!strcmp(t->key, "Full Stripe Size"))
                return strip_field(c, t->value, &v->reported_full_stripe_bytes);
        else if (!strcmp(t->key, "Number of Parity Groups")) {
                char *end;
                unsigned long n = strtoul(t->value, &end, 10);
                if (!isdigit((unsigned char)*t->value) || *end || !n || n > 4096)
                        return tfail(c, "\"Number of Parity Groups\" is not a count");
                v->spans = (unsigned)n;
        } else if (!strcmp(t->key, "Status")) {
                set_str(&v->state_raw, t->value, 48);
                free(v->state);
                v->state = xstrdup(state_of(t->value));
                ld->has_status = true;
        } else if (!strcmp(t->key, "Unique Identifier")) {
                free(v->naa);
                v->naa = ctl_naa(t->value);
        } else if (!strcmp(t->key, "Disk Name")) {
                free(v->os_name);
                v->os_name = dev_word(t->value);
        }
        return 0;
}

/* "Smart Array P440ar in Slot 0 (Embedded)" → "slot=0", NULL for other lines. */
static char *ssa_slot(const char *line)
{
        const char *s = strstr(line, " in Slot ");
        if (!s)
                return NULL;
        s += strlen(" in Slot ");
        size_t n = strcspn(s, " \t(");
        if (!n || n > 16)
                return NULL;
        _cleanup_free_ char *w = ctl_printable(s, n);
        return xasprintf("slot=%s", w);
}

static int ssa_line(struct tctx *c, struct ctl_list *l, char **ctl, struct ssa_ld *ld, const struct tline *t)
{
        if (ld->v && t->indent <= ld->indent && *t->key && ssa_end(c, ld) < 0)
                return -EINVAL;
        if (t->indent == 0 && *t->key) {
                _cleanup_free_ char *whole = xasprintf("%s%s%s", t->key, t->value ? ":" : "", t->value ? t->value : "");
                char *slot = ssa_slot(whole);
                if (slot) {
                        free(*ctl);
                        *ctl = slot;
                }
                return 0;
        }
        if (!strcmp(t->key, "Logical Drive") && t->value) {
                if (!*ctl)
                        return tfail(c, "a logical drive before any controller line (\"... in Slot N\")");
                if (ssa_end(c, ld) < 0) /* one nested deeper than the last */
                        return -EINVAL;
                *ld = (struct ssa_ld){.v = ctl_add(l, "ssacli", *ctl), .indent = t->indent, .line = t->no};
                ld->v->vd = ctl_printable(t->value, 16);
                return 0;
        }
        return ld->v && t->value ? ssa_field(c, ld, t) : 0;
}

int ctl_parse_ssacli(const char *buf, size_t len, struct ctl_list *l, char **ret_err)
{
        struct tctx c = {.tool = "ssacli", .buf = buf, .len = len};
        struct ssa_ld ld = {0};
        _cleanup_free_ char *ctl = NULL;
        size_t n0 = l->n;
        bool any = false;
        struct tline t;
        int r;
        while ((r = next_line(&c, &t)) > 0) {
                if ((r = ssa_line(&c, l, &ctl, &ld, &t)) < 0)
                        break;
                any = any || ctl;
        }
        if (r == 0 && ssa_end(&c, &ld) == 0 && !any)
                tfail(&c, "no controller line (\"Smart Array ... in Slot N\"): is it \"ssacli ctrl all show config "
                          "detail\"?");
        free(c.line);
        if (c.err) {
                ctl_truncate(l, n0);
                *ret_err = c.err;
                return -EINVAL;
        }
        return 0;
}

/* ---- arcconf ------------------------------------------------------------------ */

struct arc_ld {
        struct ctl_vd *v;
        unsigned segments, groups;
        bool has_level, has_status;
};

/* "Segment 3", "Group 1, Segment 0", "Device 2": a member line; sets *group. */
static bool arc_member(const char *key, unsigned *group)
{
        unsigned g, s;
        int n = 0;
        *group = 0;
        if (sscanf(key, "Group %u, Segment %u%n", &g, &s, &n) == 2 && !key[n]) {
                *group = g;
                return true;
        }
        if ((sscanf(key, "Segment %u%n", &s, &n) == 1 || sscanf(key, "Device %u%n", &s, &n) == 1) && !key[n])
                return true;
        return false;
}

static int arc_end(struct tctx *c, struct arc_ld *ld)
{
        struct ctl_vd *v = ld->v;
        if (!v)
                return 0;
        if (!ld->has_level || !ld->has_status)
                return tfail(c, "logical device %s ends without its \"RAID level\" and \"Status of Logical Device\" "
                                "lines: the output is cut short; run the tool again", v->vd);
        if (ld->segments && ld->segments % ld->groups == 0) {
                v->spans = ld->groups;
                v->drives_per_span = ld->segments / ld->groups;
        }
        ctl_vd_geometry(v);
        ld->v = NULL;
        return 0;
}

static int arc_field(struct tctx *c, struct arc_ld *ld, const struct tline *t)
{
        struct ctl_vd *v = ld->v;
        unsigned g;
        if (!strcmp(t->key, "RAID level")) {
                set_str(&v->level_raw, t->value, 32);
                free(v->level);
                v->level = xstrdup(ctl_level_of(t->value));
                ld->has_level = true;
        } else if (!strcmp(t->key, "Stripe-unit size"))
                return strip_field(c, t->value, &v->strip_bytes);
        else if (!strcmp(t->key, "Full Stripe Size"))
                return strip_field(c, t->value, &v->reported_full_stripe_bytes);
        else if (!strcmp(t->key, "Status of Logical Device")) {
                set_str(&v->state_raw, t->value, 48);
                free(v->state);
                v->state = xstrdup(state_of(t->value));
                ld->has_status = true;
        } else if (!strcmp(t->key, "Disk Name")) {
                free(v->os_name);
                v->os_name = dev_word(t->value);
        } else if (!strcmp(t->key, "Unique Identifier") || !strcmp(t->key, "Volume Unique Identifier")) {
                /* the first is a short serial on most arcconf versions: an NAA only when it is one */
                char *naa = ctl_naa(t->value);
                if (naa) {
                        free(v->naa);
                        v->naa = naa;
                }
        } else if (arc_member(t->key, &g)) {
                ld->segments++;
                if (g + 1 > ld->groups && g < 4096)
                        ld->groups = g + 1;
        }
        return 0;
}

unsigned ctl_arcconf_count(const char *buf, size_t len)
{
        struct tctx c = {.tool = "arcconf", .buf = buf, .len = len};
        struct tline t;
        unsigned n = 0;
        while (next_line(&c, &t) > 0)
                if (!strcmp(t.key, "Controllers found") && t.value) {
                        char *end;
                        unsigned long v = strtoul(t.value, &end, 10);
                        n = !*end && v <= 64 ? (unsigned)v : 0;
                        break;
                }
        free(c.line);
        free(c.err);
        return n;
}

static int arc_line(struct tctx *c, struct ctl_list *l, const char *ctl, struct arc_ld *ld, const struct tline *t,
                    bool *done)
{
        unsigned no;
        int n = 0;
        if (!strcasecmp(t->key, "Command completed successfully.")) {
                *done = true;
                return arc_end(c, ld);
        }
        if (sscanf(t->key, "Logical Device number %u%n", &no, &n) == 1 && !t->key[n]) {
                if (arc_end(c, ld) < 0)
                        return -EINVAL;
                *ld = (struct arc_ld){.v = ctl_add(l, "arcconf", ctl), .groups = 1};
                ld->v->vd = xasprintf("%u", no);
                return 0;
        }
        return ld->v && t->value ? arc_field(c, ld, t) : 0;
}

int ctl_parse_arcconf(const char *buf, size_t len, const char *controller, struct ctl_list *l, char **ret_err)
{
        struct tctx c = {.tool = "arcconf", .buf = buf, .len = len};
        struct arc_ld ld = {0};
        size_t n0 = l->n;
        bool done = false;
        struct tline t;
        int r;
        while (!done && (r = next_line(&c, &t)) > 0)
                if (arc_line(&c, l, controller, &ld, &t, &done) < 0)
                        break;
        if (!c.err && !done)
                tfail(&c, "the output ends before \"Command completed successfully.\": it is cut short or the "
                          "command failed; run \"arcconf GETCONFIG %s LD\" again",
                      controller);
        free(c.line);
        if (c.err) {
                ctl_truncate(l, n0);
                *ret_err = c.err;
                return -EINVAL;
        }
        return 0;
}
