/* SPDX-License-Identifier: GPL-2.0-or-later
 * HPE Smart Array: ssacli ("ctrl all show config detail"), and hpssacli and
 * hpacucli before it, which print the same format, into controller records.
 * Pure: bytes in, records or one error out.
 *
 * The output is a tree drawn by indentation: a controller line at column 0
 * ("Smart Array P440ar in Slot 0 (Embedded)"), its own "key: value" lines,
 * then sections ("Array: A", "unassigned", "SEP (...)", "Port Name: 1I",
 * "Internal Drive Cage at Port 1I, Box 1, OK"...); an array holds its
 * logical drives ("Logical Drive: 1", or "logicaldrive 1 (...)" in the short
 * listings), then its physical drives. A logical drive's block is the lines
 * indented deeper than its own line: a line at its level or above, or a
 * section header however indented, ends it, so that no field of a physical
 * drive, an enclosure or the next drive is ever read as its own. */
#include "discover/ctl_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- ssacli ------------------------------------------------------------------ */

/* The fields of a logical drive that are read, each at most once. */
enum ssa_seen {
        SEEN_LEVEL = 1 << 0,
        SEEN_STATUS = 1 << 1,
        SEEN_STRIP = 1 << 2,
        SEEN_FULL = 1 << 3,
        SEEN_GROUPS = 1 << 4,
        SEEN_NAA = 1 << 5,
        SEEN_NAME = 1 << 6,
};

/* The member list a logical drive prints: "Mirror Group N:" (RAID 1, 1+0,
 * 1ADM, 1+0ADM) or "Parity Group N:" (RAID 50, 60), each followed by its
 * "physicaldrive ..." lines. */
struct ssa_members {
        char kind;               /* 'm' mirror, 'p' parity, 0 none printed */
        bool open;               /* the last line was a group header or one of its drives */
        bool mixed, unequal;     /* both kinds; groups of different sizes */
        unsigned groups, drives; /* all groups, all drives */
        unsigned first, cur;     /* drives of the first and of the current group */
};

struct ssa_ld {
        struct ctl_vd *v;
        unsigned indent, line, seen;
        bool short_form;         /* "logicaldrive 1 (...)": no strip, no drive count */
        struct ssa_members m;
        struct ctl_wc wc;        /* its "Caching" */
};

struct ssa_array {
        bool open, detail;       /* "Array: A" (the detail listing) or "array A" */
        bool drives_after;       /* a physical drive follows its last logical drive */
        unsigned indent, line, lds;
        char name[16];
};

struct ssa {
        struct ctl_text c;
        struct ctl_list *l;
        size_t n0;
        char *ctl, *pci;         /* "slot=0" and the PCI address of the controller being read */
        unsigned ctl_line, ctl_lds;
        bool ctl_sections;       /* a section of it (array, drives, enclosure...) was seen */
        bool ctl_proof;          /* it lists unassigned or HBA-mode drives or its SEP: its listing is whole */
        bool content, message;   /* a non-blank line; inside a "Note:"/"Warning:" paragraph */
        unsigned none_line;      /* the tool's own "no controller" / "no logical drive" line */
        struct ssa_array a;
        struct ssa_ld ld;
        struct ctl_wc ctl_wc;    /* the controller's "Cache Status" and "Cache Ratio" */
};

/* Columns of indentation (a tab to the next multiple of 8: hpssacli on
 * some systems indents with tabs). */
static unsigned ssa_indent(const char *raw)
{
        unsigned col = 0;
        for (; *raw == ' ' || *raw == '\t'; raw++)
                col = *raw == '\t' ? (col / 8 + 1) * 8 : col + 1;
        return col;
}

static bool ssa_starts_word(const char *text, const char *word)
{
        size_t n = strlen(word);
        return !strncasecmp(text, word, n) && (text[n] == ' ' || text[n] == '\t' || !text[n]);
}

/* ---- a logical drive's geometry ---------------------------------------------- */

/* Drives of one parity group from its data drives, by level. */
static unsigned ssa_drives_for_data(const char *lv, uint64_t d)
{
        uint64_t per = !strcmp(lv, "raid1") || !strcmp(lv, "raid10")   ? 2 * d
                       : strstr(lv, "triple")                          ? 3 * d
                       : !strcmp(lv, "raid5") || !strcmp(lv, "raid50") ? d + 1
                       : !strcmp(lv, "raid6") || !strcmp(lv, "raid60") ? d + 2
                       : !strcmp(lv, "raid0")                          ? d
                                                                       : 0;
        return per <= 4096 ? (unsigned)per : 0;
}

static bool ssa_spanned(const char *lv)
{
        return lv && (!strcmp(lv, "raid50") || !strcmp(lv, "raid60"));
}

static void ssa_group_close(struct ssa_members *m)
{
        if (m->groups == 1)
                m->first = m->cur;
        else if (m->groups > 1 && m->cur != m->first)
                m->unequal = true;
}

/* Drives per span and spans from the member list; 0 when it says nothing
 * certain (no list, both kinds, groups of different sizes, or a kind that
 * does not fit the level). */
static unsigned ssa_members_per(const struct ctl_vd *v, const struct ssa_members *m, unsigned *spans)
{
        *spans = 0;
        if (!m->kind || !v->level || m->mixed || m->unequal || !m->first)
                return 0;
        if (m->kind == 'p' && ssa_spanned(v->level)) {
                *spans = m->groups;
                return m->first;
        }
        if (m->kind == 'm' && !ssa_spanned(v->level) && m->groups >= 2) {
                *spans = 1;
                return m->drives;
        }
        return 0;
}

/* The tool's own full stripe is one parity group's: strip × data drives of
 * one group. A derived figure that does not give it back is not shown. */
static void ssa_check_full(struct ctl_vd *v)
{
        if (!v->full_stripe_bytes || !v->reported_full_stripe_bytes || !v->spans)
                return;
        uint64_t group = v->full_stripe_bytes / v->spans;
        if (group == v->reported_full_stripe_bytes && v->full_stripe_bytes % v->spans == 0)
                return;
        ctl_add_note(v, xasprintf("%s over %u drive%s per group has a full stripe of %llu KiB per group, the tool "
                                  "prints %llu KiB: geometry unknown",
                                  v->level, v->drives_per_span, v->drives_per_span == 1 ? "" : "s",
                                  (unsigned long long)(group >> 10),
                                  (unsigned long long)(v->reported_full_stripe_bytes >> 10)));
        v->data_disks = 0;
        v->full_stripe_bytes = 0;
}

static void ssa_geometry(struct ssa_ld *ld)
{
        struct ctl_vd *v = ld->v;
        unsigned from_full = 0, m_spans = 0;
        if (v->level && v->strip_bytes && v->reported_full_stripe_bytes &&
            v->reported_full_stripe_bytes % v->strip_bytes == 0)
                from_full = ssa_drives_for_data(v->level, v->reported_full_stripe_bytes / v->strip_bytes);
        ssa_group_close(&ld->m);
        unsigned from_members = ssa_members_per(v, &ld->m, &m_spans);
        if (v->level && !ssa_spanned(v->level))
                v->spans = 1;
        if (from_members && v->spans && m_spans != v->spans) {
                ctl_add_note(v, xasprintf("\"Number of Parity Groups\" is %u but %u groups are listed", v->spans,
                                          m_spans));
                v->spans = 0;
        } else if (from_members)
                v->spans = m_spans;
        if (from_full && from_members && from_full != from_members)
                ctl_add_note(v, xasprintf("the full stripe makes %u drives per group, the member list %u", from_full,
                                          from_members));
        else
                v->drives_per_span = from_full ? from_full : from_members;
        if (ld->short_form)
                ctl_add_note(v, xstrdup("the short listing prints no strip size or drive count (read \"ctrl all show "
                                        "config detail\")"));
        ctl_vd_geometry(v);
        ssa_check_full(v);
}

/* ---- a logical drive's block ------------------------------------------------- */

/* The end of a logical drive's block: it must have printed its level and
 * status, or the output was cut inside it. */
static int ssa_end_ld(struct ssa *s)
{
        struct ssa_ld *ld = &s->ld;
        if (!ld->v)
                return 0;
        if ((ld->seen & (SEEN_LEVEL | SEEN_STATUS)) != (SEEN_LEVEL | SEEN_STATUS))
                return ctl_text_fail(&s->c, "logical drive %s (line %u) ends without its \"Fault Tolerance\" and "
                                            "\"Status\" lines: the output is cut short; run the tool again",
                                     ld->v->vd, ld->line);
        ssa_geometry(ld);
        ctl_wc_end(&ld->wc, &s->ctl_wc, ld->v);
        *ld = (struct ssa_ld){0};
        return 0;
}

/* A field read twice in one block means two drives' lines run together (a
 * "Logical Drive:" line lost): the second drive's identity would be taken
 * for the first's. */
static int ssa_once(struct ssa *s, unsigned bit, const char *key)
{
        if (s->ld.seen & bit) {
                _cleanup_free_ char *k = ctl_printable(key, 40);
                return ctl_text_fail(&s->c, "\"%s\" a second time in logical drive %s (line %u): two drives' lines "
                                            "run together; the output is garbled, run the tool again",
                                     k, s->ld.v->vd, s->ld.line);
        }
        s->ld.seen |= bit;
        return 0;
}

static void ssa_set_level(struct ctl_vd *v, const char *value)
{
        ctl_set_str(&v->level_raw, value, 32);
        free(v->level);
        v->level = xstrdup(ctl_level_of(value));
}

static void ssa_set_status(struct ctl_vd *v, const char *value)
{
        ctl_set_str(&v->state_raw, value, 48);
        free(v->state);
        v->state = xstrdup(ctl_state_of(value));
}

/* The field names read, every spelling the versions print (any case, any
 * run of blanks: ctl_key_eq). "Stripe Size" is hpacucli's older name of the
 * per-drive strip, as its "stripesize=" option was. */
static const char *const k_level[] = {"Fault Tolerance", NULL};
static const char *const k_strip[] = {"Strip Size", "Stripe Size", NULL};
static const char *const k_full[] = {"Full Stripe Size", NULL};
static const char *const k_groups[] = {"Number of Parity Groups", NULL};
static const char *const k_status[] = {"Status", NULL};
static const char *const k_naa[] = {"Unique Identifier", NULL};
static const char *const k_name[] = {"Disk Name", NULL};

static int ssa_field(struct ssa *s, const struct ctl_line *t)
{
        struct ctl_vd *v = s->ld.v;
        struct ctl_text *c = &s->c;
        if (!t->value || ctl_wc_take(&s->ld.wc, ctl_wc_smart_ld_keys, t->key, t->value))
                return 0;
        if (ctl_key_in(t->key, k_level)) {
                if (ssa_once(s, SEEN_LEVEL, t->key) < 0)
                        return -EINVAL;
                ssa_set_level(v, t->value);
        } else if (ctl_key_in(t->key, k_strip))
                return ssa_once(s, SEEN_STRIP, t->key) < 0 ? -EINVAL
                                                            : ctl_field_size(c, t->key, t->value, &v->strip_bytes);
        else if (ctl_key_in(t->key, k_full))
                return ssa_once(s, SEEN_FULL, t->key) < 0
                               ? -EINVAL
                               : ctl_field_size(c, t->key, t->value, &v->reported_full_stripe_bytes);
        else if (ctl_key_in(t->key, k_groups))
                return ssa_once(s, SEEN_GROUPS, t->key) < 0 ? -EINVAL
                                                             : ctl_field_count(c, t->key, t->value, &v->spans);
        else if (ctl_key_in(t->key, k_status)) {
                if (ssa_once(s, SEEN_STATUS, t->key) < 0)
                        return -EINVAL;
                ssa_set_status(v, t->value);
        } else if (ctl_key_in(t->key, k_naa)) {
                if (ssa_once(s, SEEN_NAA, t->key) < 0)
                        return -EINVAL;
                v->naa = ctl_naa(t->value);
        } else if (ctl_key_in(t->key, k_name)) {
                if (ssa_once(s, SEEN_NAME, t->key) < 0)
                        return -EINVAL;
                /* hpssacli 2.x could print "Mount Points: ..." on the same line: the first word only */
                v->os_name = ctl_dev_word(t->value);
        }
        return 0;
}

/* "Mirror Group 0:" / "Parity Group 1:": 'm', 'p', or 0. */
static char ssa_group_line(const struct ctl_line *t)
{
        const char *rest;
        char kind = ctl_key_prefix(t->key, "Mirror Group ", &rest)   ? 'm'
                    : ctl_key_prefix(t->key, "Parity Group ", &rest) ? 'p'
                                                                     : 0;
        if (!kind || !isdigit((unsigned char)*rest) || rest[strspn(rest, "0123456789")] || (t->value && *t->value))
                return 0;
        return kind;
}

static void ssa_group_start(struct ssa_members *m, char kind)
{
        ssa_group_close(m);
        if (m->kind && m->kind != kind)
                m->mixed = true;
        m->kind = kind;
        m->groups++;
        m->cur = 0;
        m->open = true;
}

/* ---- section headers ---------------------------------------------------------- */

/* "Array: A", "array A", "Array A", "array B (Failed)", "array A (SAS, Unused
 * Space: 0 MB)": 1 with the name, 0 not an array line ("Array Type: Data"),
 * -1 a garbled "Array:" line. */
static int ssa_array_line(const char *text, char name[static 16], bool *detail)
{
        if (!ssa_starts_word(text, "array") && strncasecmp(text, "array:", 6))
                return 0;
        const char *p = text + 5;
        *detail = *p == ':';
        p += strspn(p, ": \t");
        size_t n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789");
        const char *after = p + n + strspn(p + n, " \t");
        if (!n || n >= 16 || (*after && *after != '('))
                return *detail ? -1 : 0;
        memcpy(name, p, n);
        name[n] = 0;
        return 1;
}

/* "Logical Drive: 3" (detail) or "logicaldrive 3 (...)" (short listings). */
static bool ssa_ld_line(const struct ctl_line *t, const char *text)
{
        return (ctl_key_eq(t->key, "Logical Drive") && t->value) || ssa_starts_word(text, "logicaldrive");
}

/* The sections that show a controller's listing whole without an array. */
static bool ssa_section_proof(const char *text)
{
        return ssa_starts_word(text, "unassigned") || !strcasecmp(text, "HBA Drives") || ssa_starts_word(text, "SEP") ||
               ssa_starts_word(text, "Enclosure SEP");
}

static bool ssa_section_other(const char *text)
{
        return ssa_starts_word(text, "physicaldrive") || ssa_starts_word(text, "Expander") ||
               !strcasecmp(text, "Physical Drives") || !strncasecmp(text, "Port Name:", 10) ||
               strstr(text, " Drive Cage at Port ") || strstr(text, " Enclosure at Port ");
}

static bool ssa_header(const struct ctl_line *t, const char *text)
{
        char name[16];
        bool detail;
        return ssa_ld_line(t, text) || ssa_array_line(text, name, &detail) || ssa_section_proof(text) ||
               ssa_section_other(text);
}

/* ---- controllers ---------------------------------------------------------------- */

/* "Smart Array P440ar in Slot 0 (Embedded)", "Dynamic Smart Array B140i in
 * Slot 0b", "MSCC SmartRAID 3154-8e in Slot 2085" → "slot=0"; NULL for a
 * controller line that names no slot ("MSA1500 CS in MY STORAGE"). */
static char *ssa_slot(const char *line)
{
        const char *s = strcasestr(line, " in Slot ");
        if (!s)
                return NULL;
        s += strlen(" in Slot ");
        size_t n = strcspn(s, " \t(");
        if (!n || n > 24)
                return NULL;
        _cleanup_free_ char *w = ctl_printable(s, n);
        return xasprintf("slot=%s", w);
}

/* "PCI Address (Domain:Bus:Device.Function): 0000:0B:00.0" in the
 * controller's own lines: its address in lower case. */
static void ssa_pci(struct ssa *s, const char *text)
{
        const char *rest;
        unsigned dom, bus, dev, fn;
        int end = 0;
        if (!ctl_key_prefix(text, "PCI Address (Domain:Bus:Device.Function):", &rest))
                return;
        rest += strspn(rest, " \t");
        if (strlen(rest) != 12 || sscanf(rest, "%4x:%2x:%2x.%1x%n", &dom, &bus, &dev, &fn, &end) != 4 || end != 12 ||
            strspn(rest, "0123456789abcdefABCDEF:.") != 12)
                return;
        free(s->pci);
        s->pci = xasprintf("%04x:%02x:%02x.%x", dom, bus, dev, fn);
}

/* The end of the output inside a controller's block: one that lists no
 * logical drive must show its listing whole (a controller followed by the
 * next one's line is whole). */
static int ssa_end_controller(struct ssa *s)
{
        if (!s->ctl_line || s->ctl_lds || s->ctl_proof || s->none_line)
                return 0;
        return ctl_text_fail(&s->c, "controller %s (line %u) lists no logical drive and no unassigned drive or SEP: "
                                    "the output is cut short; run the tool again",
                             s->ctl ? s->ctl : "(no slot)", s->ctl_line);
}

static int ssa_controller(struct ssa *s, const char *text)
{
        free(s->ctl);
        free(s->pci);
        s->ctl = ssa_slot(text);
        s->pci = NULL;
        ctl_wc_clear(&s->ctl_wc);
        s->ctl_line = s->c.no;
        s->ctl_lds = 0;
        s->ctl_sections = s->ctl_proof = false;
        return 0;
}

/* A line at column 0 that is no section: a controller's ("<model> in Slot
 * N", "<model> in <chassis name>"), or, before the first, whatever the
 * capture holds ahead of the output (a shell prompt). */
static int ssa_top(struct ssa *s, const char *text)
{
        if (strstr(text, " in "))
                return ssa_controller(s, text);
        if (!s->ctl_line)
                return 0;
        _cleanup_free_ char *p = ctl_printable(text, 40);
        return ctl_text_fail(&s->c, "\"%s\" at the start of a line is neither a controller (\"... in Slot N\") nor a "
                                    "section: the output is garbled; run the tool again", p);
}

/* "Note: ...", "Warning: ...", "FIRMWARE UPGRADE REQUIRED: ...": a message
 * paragraph, to the next blank line. */
static bool ssa_message(const char *text)
{
        if (!strncasecmp(text, "Note:", 5) || !strncasecmp(text, "Warning:", 8))
                return true;
        size_t n = strcspn(text, ":"), letters = 0;
        for (size_t i = 0; i < n; i++) {
                if (islower((unsigned char)text[i]))
                        return false;
                letters += isupper((unsigned char)text[i]) != 0;
        }
        return text[n] == ':' && letters >= 3;
}

/* "Error: ...": the tool's own "none" (no controller, or no logical drive on
 * the one asked), anything else a failure. 1 taken, 0 not an error line. */
static int ssa_error(struct ssa *s, const char *text)
{
        if (strncasecmp(text, "Error:", 6))
                return 0;
        if (strcasestr(text, "No controllers detected") || strcasestr(text, "does not have any logical drive")) {
                s->none_line = s->c.no;
                return 1;
        }
        _cleanup_free_ char *p = ctl_printable(text, 120);
        return ctl_text_fail(&s->c, "the tool reports \"%s\"", p);
}

/* ---- the lines ------------------------------------------------------------------ */

static int ssa_end_array(struct ssa *s)
{
        struct ssa_array *a = &s->a;
        if (!a->open)
                return 0;
        a->open = false;
        if (!a->lds)
                return ctl_text_fail(&s->c, "array %s (line %u) holds no logical drive: the output is cut short or "
                                            "garbled; run the tool again",
                                     a->name, a->line);
        /* the detail listing prints an array's physical drives after its logical drives */
        if (a->detail && !a->drives_after)
                return ctl_text_fail(&s->c, "array %s (line %u) ends without its physical drives: the output is cut "
                                            "short; run the tool again",
                                     a->name, a->line);
        return 0;
}

static int ssa_open_array(struct ssa *s, const char *text, unsigned ind)
{
        struct ssa_array a = {.open = true, .indent = ind, .line = s->c.no};
        int r = ssa_array_line(text, a.name, &a.detail);
        if (r < 0) {
                _cleanup_free_ char *p = ctl_printable(text, 40);
                return ctl_text_fail(&s->c, "\"%s\" is not an array line such as \"Array: A\": the output is garbled",
                                     p);
        }
        if (!s->ctl_line)
                return ctl_text_fail(&s->c, "an array before any controller line (\"... in Slot N\")");
        if (ssa_end_array(s) < 0)
                return -EINVAL;
        s->a = a;
        s->ctl_sections = true;
        return 0;
}

/* "logicaldrive 2 (43.7 TB, RAID 50, Recovering, 42% complete)" or, from
 * "ld all show status", "logicaldrive 1 (931.48 GB, RAID 1): OK". */
static int ssa_short(struct ssa *s, struct ctl_vd *v, const char *text)
{
        const char *open = strchr(text, '('), *close = strrchr(text, ')');
        _cleanup_free_ char *in = open && close > open ? ctl_printable(open + 1, (size_t)(close - open - 1)) : NULL;
        char *lv = in ? strstr(in, ", ") : NULL;
        char *st = lv ? strstr(lv + 2, ", ") : NULL;
        const char *after = close ? close + 1 + strspn(close + 1, " \t") : "";
        if (st)
                *st = 0;
        if (!lv || (!st && *after != ':') || (st && *after)) {
                _cleanup_free_ char *p = ctl_printable(text, 60);
                return ctl_text_fail(&s->c, "\"%s\" is not \"logicaldrive N (size, RAID level, status)\"", p);
        }
        ssa_set_level(v, ctl_trim(lv + 2));
        const char *status = st ? st + 2 : after + 1;
        ssa_set_status(v, status + strspn(status, " \t"));
        s->ld.seen = SEEN_LEVEL | SEEN_STATUS;
        s->ld.short_form = true;
        return 0;
}

static int ssa_start_ld(struct ssa *s, const struct ctl_line *t, const char *text, unsigned ind)
{
        bool short_form = !(ctl_key_eq(t->key, "Logical Drive") && t->value);
        const char *id = short_form ? text + strlen("logicaldrive") + strspn(text + strlen("logicaldrive"), " \t")
                                    : t->value;
        size_t n = strspn(id, "0123456789");
        if (!n || n > 6 || (!short_form && id[n]) || (short_form && id[n] != ' ')) {
                _cleanup_free_ char *p = ctl_printable(text, 40);
                return ctl_text_fail(&s->c, "\"%s\" does not name a logical drive by its number", p);
        }
        if (!s->ctl)
                return s->ctl_line ? ctl_text_fail(&s->c, "a logical drive under the controller line %u, which names "
                                                          "no slot (\"... in Slot N\")", s->ctl_line)
                                   : ctl_text_fail(&s->c, "a logical drive before any controller line (\"... in Slot "
                                                          "N\")");
        _cleanup_free_ char *vd = ctl_printable(id, n);
        if (ctl_find(s->l, s->n0, s->ctl, vd))
                return ctl_text_fail(&s->c, "logical drive %s of controller %s a second time: the output is garbled "
                                            "(a block repeated); run the tool again", vd, s->ctl);
        s->ld = (struct ssa_ld){.v = ctl_add(s->l, s->c.tool, s->ctl), .indent = ind, .line = s->c.no};
        s->ld.v->vd = xstrdup(vd);
        s->ld.v->pci = s->pci ? xstrdup(s->pci) : NULL;
        s->a.lds += s->a.open;
        s->a.drives_after = false;
        s->ctl_lds++;
        s->ctl_sections = true;
        return short_form ? ssa_short(s, s->ld.v, text) : 0;
}

/* A line while a logical drive is open: 1 taken into it, 0 it ends the
 * drive (the line is then read as what it is). */
static int ssa_in_ld(struct ssa *s, const struct ctl_line *t, const char *text, unsigned ind)
{
        struct ssa_ld *ld = &s->ld;
        char kind = ssa_group_line(t);
        if (kind) { /* at any indentation: hpssacli misplaced these lines */
                ssa_group_start(&ld->m, kind);
                return 1;
        }
        if (ld->m.open && ssa_starts_word(text, "physicaldrive")) {
                ld->m.cur++;
                ld->m.drives++;
                return 1;
        }
        ld->m.open = false;
        if (ind > ld->indent && !ssa_header(t, text))
                return ssa_field(s, t) < 0 ? -EINVAL : 1;
        return ssa_end_ld(s) < 0 ? -EINVAL : 0;
}

/* A controller's own "Slot: N" repeats its line's slot, before its sections:
 * anywhere else, a controller line was lost and what follows would be taken
 * for the one before. */
static int ssa_slot_line(struct ssa *s, const char *value)
{
        _cleanup_free_ char *p = ctl_printable(value, 24);
        _cleanup_free_ char *want = xasprintf("slot=%s", p);
        if (!s->ctl_sections && streq_ptr(s->ctl, want))
                return 0;
        return ctl_text_fail(&s->c, "\"Slot: %s\" under the controller line %u (%s): a controller line is lost or "
                                    "garbled; run the tool again", p, s->ctl_line, s->ctl ? s->ctl : "no slot");
}

static int ssa_section(struct ssa *s, const struct ctl_line *t, const char *text, unsigned ind)
{
        char name[16];
        bool detail;
        if (ssa_ld_line(t, text))
                return ssa_start_ld(s, t, text, ind);
        if (ssa_array_line(text, name, &detail))
                return ssa_open_array(s, text, ind);
        if (ssa_starts_word(text, "physicaldrive") && s->a.open && s->a.lds)
                s->a.drives_after = true;
        if (ssa_section_proof(text))
                s->ctl_sections = s->ctl_proof = true;
        else if (ssa_section_other(text))
                s->ctl_sections = true;
        else if (ctl_key_eq(t->key, "Slot") && t->value && s->ctl_line)
                return ssa_slot_line(s, t->value);
        else if (s->ctl_line && !s->ctl_sections &&
                 !ctl_wc_take(&s->ctl_wc, ctl_wc_smart_ctl_keys, t->key, t->value))
                ssa_pci(s, text);
        return 0;
}

static int ssa_line(struct ssa *s, const struct ctl_line *t)
{
        const char *text = t->raw + strspn(t->raw, " \t");
        unsigned ind = ssa_indent(t->raw);
        int r;
        if (!*text) { /* ends a message paragraph and a member list */
                s->message = false;
                s->ld.m.open = false;
                return 0;
        }
        s->content = true;
        if (s->message)
                return 0;
        if ((r = ssa_error(s, text)) != 0)
                return r < 0 ? r : 0;
        if (s->ld.v && (r = ssa_in_ld(s, t, text, ind)) != 0)
                return r < 0 ? r : 0;
        if (s->a.open && ind <= s->a.indent && ssa_end_array(s) < 0)
                return -EINVAL;
        if (ind == 0 && ssa_message(text)) {
                s->message = true;
                return 0;
        }
        if (ind == 0 && !ssa_header(t, text))
                return ssa_top(s, text);
        return ssa_section(s, t, text, ind);
}

static void ssa_finish(struct ssa *s, int r)
{
        if (r < 0 || ssa_end_ld(s) < 0 || ssa_end_array(s) < 0 || ssa_end_controller(s) < 0)
                return;
        size_t found = s->l->n - s->n0;
        if (!s->content)
                ctl_text_fail(&s->c, "the output is empty: run \"%s ctrl all show config detail\" again", s->c.tool);
        else if (found && s->none_line)
                ctl_text_fail(&s->c, "line %u says there is none, yet %zu logical drive%s listed: the output is "
                                     "garbled", s->none_line, found, found == 1 ? " is" : "s are");
        else if (!found && !s->none_line && !s->ctl_line)
                ctl_text_fail(&s->c, "no controller line (\"Smart Array ... in Slot N\"): is it \"%s ctrl all show "
                                     "config detail\"?", s->c.tool);
}

int ctl_parse_ssacli(const char *buf, size_t len, const char *tool, const char *controller, struct ctl_list *l,
                     char **ret_err)
{
        (void)controller; /* the output names its controllers ("... in Slot N") */
        struct ssa s = {.l = l, .n0 = l->n};
        ctl_text_init(&s.c, tool, buf, len);
        struct ctl_line t;
        int r;
        while ((r = ctl_text_next(&s.c, &t, ':')) > 0)
                if ((r = ssa_line(&s, &t)) < 0)
                        break;
        ssa_finish(&s, r);
        free(s.ctl);
        free(s.pci);
        ctl_wc_clear(&s.ld.wc); /* a drive left open by a failure */
        ctl_wc_clear(&s.ctl_wc);
        return ctl_text_finish(&s.c, l, s.n0, ret_err);
}
