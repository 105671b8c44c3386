/* SPDX-License-Identifier: GPL-2.0-or-later
 * HPE Smart Array: ssacli ("ctrl all show config detail"), and hpssacli and
 * hpacucli before it, which print the same format, into controller records.
 * Pure: bytes in, records or one error out. */
#include "discover/ctl_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

static int ssa_end(struct ctl_text *c, struct ssa_ld *ld)
{
        if (!ld->v)
                return 0;
        if (!ld->has_level || !ld->has_status)
                return ctl_text_fail(c, "logical drive %s (line %u) ends without its \"Fault Tolerance\" and \"Status\" "
                                "lines: the output is cut short; run the tool again",
                             ld->v->vd, ld->line);
        ssa_geometry(ld->v);
        ld->v = NULL;
        return 0;
}

static int ssa_field(struct ctl_text *c, struct ssa_ld *ld, const struct ctl_line *t)
{
        struct ctl_vd *v = ld->v;
        if (!strcmp(t->key, "Fault Tolerance")) {
                ctl_set_str(&v->level_raw, t->value, 32);
                free(v->level);
                v->level = xstrdup(ctl_level_of(t->value));
                ld->has_level = true;
        } else if (!strcmp(t->key, "Strip Size"))
                return ctl_field_size(c, t->key, t->value, &v->strip_bytes);
        else if (!strcmp(t->key, "Full Stripe Size"))
                return ctl_field_size(c, t->key, t->value, &v->reported_full_stripe_bytes);
        else if (!strcmp(t->key, "Number of Parity Groups")) {
                char *end;
                unsigned long n = strtoul(t->value, &end, 10);
                if (!isdigit((unsigned char)*t->value) || *end || !n || n > 4096)
                        return ctl_text_fail(c, "\"Number of Parity Groups\" is not a count");
                v->spans = (unsigned)n;
        } else if (!strcmp(t->key, "Status")) {
                ctl_set_str(&v->state_raw, t->value, 48);
                free(v->state);
                v->state = xstrdup(ctl_state_of(t->value));
                ld->has_status = true;
        } else if (!strcmp(t->key, "Unique Identifier")) {
                free(v->naa);
                v->naa = ctl_naa(t->value);
        } else if (!strcmp(t->key, "Disk Name")) {
                free(v->os_name);
                v->os_name = ctl_dev_word(t->value);
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

static int ssa_line(struct ctl_text *c, struct ctl_list *l, char **ctl, struct ssa_ld *ld, const struct ctl_line *t)
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
                        return ctl_text_fail(c, "a logical drive before any controller line (\"... in Slot N\")");
                if (ssa_end(c, ld) < 0) /* one nested deeper than the last */
                        return -EINVAL;
                *ld = (struct ssa_ld){.v = ctl_add(l, c->tool, *ctl), .indent = t->indent, .line = t->no};
                ld->v->vd = ctl_printable(t->value, 16);
                return 0;
        }
        return ld->v && t->value ? ssa_field(c, ld, t) : 0;
}

int ctl_parse_ssacli(const char *buf, size_t len, const char *tool, const char *controller, struct ctl_list *l,
                     char **ret_err)
{
        (void)controller; /* the output names its controllers ("... in Slot N") */
        struct ctl_text c;
        ctl_text_init(&c, tool, buf, len);
        struct ssa_ld ld = {0};
        _cleanup_free_ char *ctl = NULL;
        size_t n0 = l->n;
        bool any = false;
        struct ctl_line t;
        int r;
        while ((r = ctl_text_next(&c, &t, ':')) > 0) {
                if ((r = ssa_line(&c, l, &ctl, &ld, &t)) < 0)
                        break;
                any = any || ctl;
        }
        if (r == 0 && ssa_end(&c, &ld) == 0 && !any)
                ctl_text_fail(&c, "no controller line (\"Smart Array ... in Slot N\"): is it \"ssacli ctrl all show config "
                          "detail\"?");
        return ctl_text_finish(&c, l, n0, ret_err);
}

