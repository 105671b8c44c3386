/* SPDX-License-Identifier: GPL-2.0-or-later
 * Adaptec (Microsemi, Microchip) arcconf, 1.x to 4.x: "GETCONFIG N LD" and
 * "GETCONFIG N AL" text, "GETCONFIGJSON N" JSON, into controller records; and
 * the commands the first output leads to ("Controllers found: 3": controllers
 * 2 and 3). Pure: bytes in, records or one error out.
 *
 * The text is sections: a dashed line, a name, a dashed line ("Controller
 * information", "Logical device information", "Physical Device information",
 * "maxCache 3.0 information"...). Logical devices are blocks in their own
 * section only, from "Logical device number N" to the next block or section;
 * the maxCache section prints a device with the same fields ("RAID level",
 * "Stripe-unit size", "Segment N") that must never be read as one. Each
 * version spells the names its own way (arcconf_spellings below). */
#include "discover/ctl_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Far more than any controller holds: a bigger figure is a garbled output. */
#define ARC_MAX_CONTROLLERS 64
#define ARC_MAX_MEMBERS 4096

/* ---- the words ---------------------------------------------------------------- */

/* The fields of a logical device that storprov reads; each may be printed once. */
enum arc_field {
        ARC_LEVEL,
        ARC_STRIP,
        ARC_FULL,
        ARC_STATUS,
        ARC_DISK,
        ARC_UID,
        ARC_VUID,
        ARC_NSEG,
        ARC_SIZE,
        ARC_PARITY,
        ARC_N_FIELDS,
        ARC_SEGMENT = ARC_N_FIELDS, /* "Segment 0", "Group 1, Segment 0" */
        ARC_DEVICE,                 /* "Device 8" under "Array Physical Device Information" (3.x, 4.x) */
        ARC_NOT_LD,                 /* any other line */
};

/* Every spelling the public captures show, matched in any case and spacing:
 *   1.x (and IBM's 9.x): "Logical device number 0", "RAID level",
 *     "Status of logical device", "Stripe-unit size", "Segment 0",
 *     "Group 0, Segment 1"; IBM ServeRAID 8k: "Logical drive number 1",
 *     "Status of logical drive", "Number of segments" (or "of chunks");
 *   2.x: "Logical Device number 0", "Logical Device Number 0", "RAID Level",
 *     "Status of Logical Device", "Stripe-unit Size", "Unique Identifier";
 *   3.x, 4.x: "Disk Name", "Full Stripe Size", "Volume Unique Identifier",
 *     "Device 8" (the array's drives);
 *   1.x, 2.x: "Size" and "Parity space" ("Parity Space" in 2.00), in MB. */
static const struct {
        enum arc_field field;
        const char *name;
} arcconf_spellings[] = {
        {ARC_LEVEL, "RAID level"},
        {ARC_STRIP, "Stripe-unit size"},
        {ARC_STRIP, "Stripe unit size"},
        {ARC_FULL, "Full Stripe Size"},
        {ARC_STATUS, "Status of logical device"},
        {ARC_STATUS, "Status of logical drive"},
        {ARC_DISK, "Disk Name"},
        {ARC_DISK, "OS Name"},
        {ARC_UID, "Unique Identifier"},
        {ARC_VUID, "Volume Unique Identifier"},
        {ARC_NSEG, "Number of segments"},
        {ARC_NSEG, "Number of chunks"},
        {ARC_SIZE, "Size"},
        {ARC_PARITY, "Parity space"},
};

static const char *const arc_field_names[ARC_N_FIELDS] = {
        "RAID level", "Stripe-unit size", "Full Stripe Size", "Status of Logical Device", "Disk Name",
        "Unique Identifier", "Volume Unique Identifier", "Number of segments", "Size", "Parity space",
};

/* The sections of the output. */
enum arc_section {
        SEC_PRE,   /* before the first section name */
        SEC_LD,    /* "Logical device information": the blocks */
        SEC_OTHER, /* a section storprov knows holds no logical device */
        SEC_UNKNOWN,
};

static const char *const arc_ld_sections[] = {"Logical device information", "Logical drive information", NULL};
static const char *const arc_other_sections[] = {
        "Controller information", "Physical Device information", "Physical drive information", "Array Information",
        "Connector information",  "Enclosure information",       NULL,
};
/* The parts of one logical device's block. */
static const char *const arc_member_parts[] = {
        "Logical device segment information", "Logical drive segment information", "Array Physical Device Information",
        NULL,
};

/* Leading blanks, then digits (up to 9): *p moves past them. */
static bool arc_num(const char **p, unsigned *ret)
{
        const char *s = *p + strspn(*p, " \t");
        if (!isdigit((unsigned char)*s))
                return false;
        unsigned long n = 0;
        size_t k = 0;
        for (; isdigit((unsigned char)s[k]); k++)
                if (k < 9)
                        n = n * 10 + (unsigned long)(s[k] - '0');
        if (k > 9)
                return false;
        *ret = (unsigned)n;
        *p = s + k;
        return true;
}

/* Only blanks left. */
static bool arc_end_of(const char *p)
{
        return !p[strspn(p, " \t")];
}

/* "Logical device number 3" (any case), "Logical drive number 1": true, *no = 3. */
static bool arc_ld_header(const char *line, unsigned *no)
{
        const char *rest;
        return (ctl_key_prefix(line, "Logical device number", &rest) ||
                ctl_key_prefix(line, "Logical drive number", &rest)) &&
               (*rest == ' ' || *rest == '\t') && arc_num(&rest, no) && arc_end_of(rest);
}

/* "maxCache 3.0 information", "MaxCache 3.0 information", "maxCache information". */
static bool arc_maxcache_section(const char *line)
{
        size_t n = strlen(line);
        return !strncasecmp(line, "maxcache", 8) && n >= 20 && !strcasecmp(line + n - 11, "information");
}

/* Which field a "key : value" line is; the member's numbers in *a, *b. */
static enum arc_field arc_field_of(const char *key, unsigned *a, unsigned *b)
{
        for (size_t i = 0; i < ELEMENTSOF(arcconf_spellings); i++)
                if (ctl_key_eq(key, arcconf_spellings[i].name))
                        return arcconf_spellings[i].field;
        const char *p;
        *a = 0;
        if (ctl_key_prefix(key, "Group", &p)) { /* "Group 1, Segment 0" */
                if (!arc_num(&p, a))
                        return ARC_NOT_LD;
                p += strspn(p, " \t");
                if (*p++ != ',')
                        return ARC_NOT_LD;
                p += strspn(p, " \t");
                if (ctl_key_prefix(p, "Segment", &p) && arc_num(&p, b) && arc_end_of(p))
                        return ARC_SEGMENT;
                return ARC_NOT_LD;
        }
        if (ctl_key_prefix(key, "Segment", &p) && arc_num(&p, b) && arc_end_of(p))
                return ARC_SEGMENT;
        if (ctl_key_prefix(key, "Device", &p) && arc_num(&p, b) && arc_end_of(p))
                return ARC_DEVICE;
        return ARC_NOT_LD;
}

/* A field that says what a logical device is (not only what it is called or
 * how big): outside a block, in a section or in a part of a block storprov does
 * not know, it cannot be read as part of none. */
static bool arc_layout_field(enum arc_field f)
{
        return f != ARC_DISK && f != ARC_UID && f != ARC_VUID && f != ARC_SIZE && f != ARC_PARITY;
}

/* ---- one logical device ------------------------------------------------------------ */

struct arc_ld {
        struct ctl_vd *v;
        unsigned line;                     /* its header's */
        unsigned field_line[ARC_N_FIELDS]; /* where each field was printed, 0: not yet */
        unsigned *seg;                     /* members of each group, groups in order */
        size_t groups;
        unsigned *dev;                     /* the "Device N" ids */
        size_t devs;
        unsigned nseg;                     /* "Number of segments" */
        uint64_t size_mb, parity_mb;       /* "Size", "Parity space" (1.x, 2.x); 0: not printed or not "N MB" */
        char *disorder;                    /* why the members' numbering gives no layout, NULL */
        bool in_unknown_part;              /* under a part of the block storprov does not know */
        unsigned part_line;
        char *part;
        struct ctl_wc wc;                  /* its "Write-cache ..." or "Caching" lines */
        const struct ctl_wc *ctl_wc;       /* the controller's "Cache Status" (3.x, 4.x) */
};

static void arc_ld_clear(struct arc_ld *ld)
{
        free(ld->seg);
        free(ld->dev);
        free(ld->disorder);
        free(ld->part);
        ctl_wc_clear(&ld->wc);
        *ld = (struct arc_ld){0};
}

static void arc_disorder(struct arc_ld *ld, char *why)
{
        if (ld->disorder)
                free(why);
        else
                ld->disorder = why;
}

/* A "Segment N" or "Group G, Segment N" line: members are numbered 0, 1, 2...
 * in each group and groups 0, 1, 2... in order; a number twice is an error,
 * a gap leaves the layout unknown. */
static int arc_segment(struct ctl_text *c, struct arc_ld *ld, unsigned group, unsigned index)
{
        if (group == ld->groups && group < ARC_MAX_MEMBERS) {
                ld->seg = xrealloc(ld->seg, (ld->groups + 1) * sizeof *ld->seg);
                ld->seg[ld->groups++] = 0;
        }
        if (group >= ld->groups) {
                arc_disorder(ld, xasprintf("group %u is listed after group %zu (line %u): the layout is not in order",
                                           group, ld->groups ? ld->groups - 1 : 0, c->no));
                return 0;
        }
        if (index < ld->seg[group])
                return ctl_text_fail(c, "segment %u of group %u of logical device %s is listed twice: the output is "
                                        "garbled; run the tool again", index, group, ld->v->vd);
        if (index > ld->seg[group])
                arc_disorder(ld, xasprintf("segment %u of group %u follows segment %u (line %u): a member is "
                                           "not listed", index, group, ld->seg[group] ? ld->seg[group] - 1 : 0, c->no));
        else
                ld->seg[group]++;
        return 0;
}

static int arc_device(struct ctl_text *c, struct arc_ld *ld, unsigned id)
{
        for (size_t i = 0; i < ld->devs; i++)
                if (ld->dev[i] == id)
                        return ctl_text_fail(c, "device %u of logical device %s is listed twice: the output is "
                                                "garbled; run the tool again", id, ld->v->vd);
        if (ld->devs < ARC_MAX_MEMBERS) {
                ld->dev = xrealloc(ld->dev, (ld->devs + 1) * sizeof *ld->dev);
                ld->dev[ld->devs++] = id;
        }
        return 0;
}

/* "4766710 MB": the figure; anything else leaves *ret 0 (the sizes only check the layout). */
static void arc_mb(const char *value, uint64_t *ret)
{
        unsigned n;
        const char *p = value;
        *ret = 0;
        if (arc_num(&p, &n) && ctl_key_eq(p + strspn(p, " \t"), "MB"))
                *ret = n;
}

/* A field printed once: its value into the record. */
static int arc_value(struct ctl_text *c, struct arc_ld *ld, enum arc_field f, const char *value)
{
        struct ctl_vd *v = ld->v;
        char *naa;
        switch (f) {
        case ARC_LEVEL:
                ctl_set_str(&v->level_raw, value, 40);
                v->level = xstrdup(ctl_level_of(value));
                return 0;
        case ARC_STRIP:
                return ctl_field_size(c, arc_field_names[f], value, &v->strip_bytes);
        case ARC_FULL:
                return ctl_field_size(c, arc_field_names[f], value, &v->reported_full_stripe_bytes);
        case ARC_STATUS:
                ctl_set_str(&v->state_raw, value, 48);
                v->state = xstrdup(ctl_state_of(value));
                return 0;
        case ARC_DISK:
                v->os_name = ctl_dev_word(value);
                return 0;
        case ARC_UID: /* a short serial ("DADDB828") on most versions: an NAA only when it is one */
        case ARC_VUID:
                naa = ctl_naa(value);
                if (naa && (!v->naa || f == ARC_VUID)) {
                        free(v->naa);
                        v->naa = naa;
                } else
                        free(naa);
                return 0;
        case ARC_NSEG:
                return ctl_field_count(c, arc_field_names[f], value, &ld->nseg);
        case ARC_SIZE:
        case ARC_PARITY:
                arc_mb(value, f == ARC_SIZE ? &ld->size_mb : &ld->parity_mb);
                return 0;
        default:
                return 0;
        }
}

/* A line of the block that names one of its fields or members. */
static int arc_ld_line(struct ctl_text *c, struct arc_ld *ld, enum arc_field f, unsigned a, unsigned b,
                       const char *value)
{
        if (ld->in_unknown_part && !arc_layout_field(f))
                return 0;
        if (ld->in_unknown_part)
                return ctl_text_fail(c, "\"%s\" under \"%s\" (line %u), a part of logical device %s storprov does "
                                        "not know: it cannot tell what it means for the layout",
                                     f < ARC_N_FIELDS ? arc_field_names[f] : f == ARC_SEGMENT ? "Segment" : "Device",
                                     ld->part, ld->part_line, ld->v->vd);
        if (f == ARC_SEGMENT)
                return arc_segment(c, ld, a, b);
        if (f == ARC_DEVICE)
                return arc_device(c, ld, b);
        if (ld->field_line[f])
                return ctl_text_fail(c, "\"%s\" of logical device %s is printed a second time (first at line %u): "
                                        "two blocks run together; run the tool again",
                                     arc_field_names[f], ld->v->vd, ld->field_line[f]);
        ld->field_line[f] = c->no;
        return arc_value(c, ld, f, value ? value : "");
}

/* The members the block lists, from whichever of its ways it prints them;
 * two ways that disagree, or groups of different sizes: unknown (a note,
 * false). */
static bool arc_layout(struct arc_ld *ld)
{
        struct ctl_vd *v = ld->v;
        unsigned segs = 0;
        for (size_t g = 0; g < ld->groups; g++)
                segs += ld->seg[g];
        unsigned counts[3] = {segs, (unsigned)ld->devs, ld->nseg}, members = 0;
        for (size_t i = 0; i < 3; i++) {
                if (counts[i] && members && counts[i] != members) {
                        ctl_add_note(v, xasprintf("arcconf lists %u members one way and %u another: geometry unknown",
                                                  members, counts[i]));
                        return false;
                }
                members = counts[i] ? counts[i] : members;
        }
        if (ld->disorder) {
                ctl_add_note(v, ld->disorder);
                ld->disorder = NULL;
                return false;
        }
        for (size_t g = 1; g < ld->groups; g++)
                if (ld->seg[g] != ld->seg[0]) {
                        ctl_add_note(v, xasprintf("group 0 has %u members and group %zu has %u: geometry unknown",
                                                  ld->seg[0], g, ld->seg[g]));
                        return false;
                }
        bool nested = v->level && (!strcmp(v->level, "raid50") || !strcmp(v->level, "raid60"));
        if (ld->groups > 1 || (segs && !nested)) {
                v->drives_per_span = ld->seg[0];
                v->spans = (unsigned)ld->groups;
        } else if (members && !nested) { /* no groups printed: one span (RAID 10: pairs, data is half either way) */
                v->drives_per_span = members;
                v->spans = 1;
        } else if (members) {
                ctl_add_note(v, xasprintf("arcconf prints %u members of this %s but not its parity groups: "
                                          "geometry unknown", members, v->level));
                return false;
        }
        return true;
}

/* arcconf's own "Full Stripe Size" must be what storprov derives (for RAID
 * 50/60 it may be one parity group's, as ssacli prints it); if not, no figure. */
static void arc_check_full(struct ctl_vd *v)
{
        uint64_t r = v->reported_full_stripe_bytes, f = v->full_stripe_bytes;
        if (!r || !f)
                return;
        bool nested = v->level && (!strcmp(v->level, "raid50") || !strcmp(v->level, "raid60"));
        if (r == f || (nested && v->spans && r * v->spans == f))
                return;
        ctl_add_note(v, xasprintf("arcconf's Full Stripe Size (%llu KiB) is not the strip (%llu KiB) times the %u data "
                                  "disks of this %s: geometry unknown",
                                  (unsigned long long)(r >> 10), (unsigned long long)(v->strip_bytes >> 10),
                                  v->data_disks, v->level));
        v->data_disks = 0;
        v->full_stripe_bytes = 0;
}

/* 1.x and 2.x print the space parity takes beside the size: for RAID 5, 6, 50
 * and 60, size / parity space is the data disks per parity disk. A member
 * line lost or garbled shows there; then no figure. */
static void arc_check_parity(struct arc_ld *ld)
{
        struct ctl_vd *v = ld->v;
        if (!v->data_disks || !ld->size_mb || !ld->parity_mb || !v->level)
                return;
        unsigned per_group = !strcmp(v->level, "raid5") || !strcmp(v->level, "raid50")   ? 1
                             : !strcmp(v->level, "raid6") || !strcmp(v->level, "raid60") ? 2
                                                                                         : 0;
        if (!per_group)
                return;
        /* size × parity disks = parity space × data disks, to MB rounding (0.5 %) */
        uint64_t a = ld->size_mb * per_group * v->spans, b = ld->parity_mb * v->data_disks;
        uint64_t diff = a > b ? a - b : b - a;
        if (diff * 200 <= a)
                return;
        ctl_add_note(v, xasprintf("arcconf's Size (%llu MB) and Parity space (%llu MB) do not fit %u data disks in "
                                  "%u member%s: a member line is missing or garbled; geometry unknown",
                                  (unsigned long long)ld->size_mb, (unsigned long long)ld->parity_mb, v->data_disks,
                                  v->drives_per_span * v->spans, v->drives_per_span * v->spans == 1 ? "" : "s"));
        v->data_disks = 0;
        v->full_stripe_bytes = 0;
}

/* The block is over: what it said becomes the record's geometry. */
static int arc_ld_end(struct ctl_text *c, struct arc_ld *ld)
{
        if (!ld->v)
                return 0;
        if (!ld->field_line[ARC_LEVEL] || !ld->field_line[ARC_STATUS]) {
                int r = ctl_text_fail(c, "logical device %s ends without its \"%s\" line (its header at line %u): the "
                                         "output is cut short or garbled; run the tool again",
                                      ld->v->vd, !ld->field_line[ARC_LEVEL] ? "RAID level" : "Status of Logical Device",
                                      ld->line);
                arc_ld_clear(ld);
                return r;
        }
        ctl_wc_end(&ld->wc, ld->ctl_wc, ld->v);
        if (arc_layout(ld))
                ctl_vd_geometry(ld->v);
        arc_check_full(ld->v);
        arc_check_parity(ld);
        arc_ld_clear(ld);
        return 0;
}

/* ---- the whole output ----------------------------------------------------------- */

struct arc_parse {
        struct ctl_text c;
        struct ctl_list *l;
        const char *ctl;
        size_t n0;
        enum arc_section sec;
        char *sec_name;                    /* as printed, for messages */
        struct arc_ld ld;
        struct ctl_wc ctl_wc;              /* "Controller information"'s cache lines */
        unsigned *ld_lines;                /* the header line of each record this parse added */
        bool prev_dash;                    /* the last line with words was a dashed line */
        char *cand;                        /* a line after a dashed line: a section name if a dashed line follows */
        unsigned cand_indent, cand_line;
        bool has_found, has_count;
        unsigned found, found_line;        /* "Controllers found: N" */
        unsigned count, count_line;        /* "Logical devices/Failed/Degraded : N/0/0" */
        unsigned none_line;                /* "No logical devices configured" */
        char *last_text;                   /* the last line of words: what "Command aborted." follows */
        bool done, unsupported;
};

static bool arc_dashes(const char *raw)
{
        const char *s = raw + strspn(raw, " \t");
        size_t n = strspn(s, "-");
        return n >= 10 && arc_end_of(s + n);
}

static int arc_section_starts(struct arc_parse *p, enum arc_section sec, const char *name)
{
        if (arc_ld_end(&p->c, &p->ld) < 0)
                return -EINVAL;
        p->sec = sec;
        free(p->sec_name);
        p->sec_name = ctl_printable(name, 60);
        return 0;
}

/* A name between two dashed lines that no list here holds: a new section if
 * it starts the line, else a part of the section or block it is in. */
static int arc_unknown_header(struct arc_parse *p)
{
        _cleanup_free_ char *name = p->cand;
        p->cand = NULL;
        if (p->cand_indent == 0)
                return arc_section_starts(p, SEC_UNKNOWN, name);
        if (p->ld.v) {
                free(p->ld.part);
                p->ld.part = ctl_printable(name, 60);
                p->ld.part_line = p->cand_line;
                p->ld.in_unknown_part = true;
        }
        return 0;
}

static int arc_new_ld(struct arc_parse *p, unsigned no)
{
        struct ctl_text *c = &p->c;
        if (p->sec == SEC_OTHER || p->sec == SEC_UNKNOWN)
                return ctl_text_fail(c, "a logical device's header in the \"%s\" section: storprov does not know "
                                        "this layout", p->sec_name);
        if (arc_ld_end(c, &p->ld) < 0)
                return -EINVAL;
        char id[16];
        snprintf(id, sizeof id, "%u", no);
        struct ctl_vd *dup = ctl_find(p->l, p->n0, p->ctl, id);
        if (dup)
                return ctl_text_fail(c, "logical device %s is listed a second time (first at line %u): the output is "
                                        "two outputs run together or garbled; run the tool again",
                                     id, p->ld_lines[dup - (p->l->v + p->n0)]);
        size_t k = p->l->n - p->n0;
        p->ld_lines = xrealloc(p->ld_lines, (k + 1) * sizeof *p->ld_lines);
        p->ld_lines[k] = c->no;
        p->ld.v = ctl_add(p->l, c->tool, p->ctl);
        p->ld.v->vd = xstrdup(id);
        p->ld.line = c->no;
        p->ld.ctl_wc = &p->ctl_wc;
        return 0;
}

/* "Command aborted.": the words before it say why; on an HBA ("The requested
 * feature is not supported on this controller.") there is no logical device. */
static int arc_aborted(struct arc_parse *p)
{
        if (arc_ld_end(&p->c, &p->ld) < 0)
                return -EINVAL;
        p->done = true;
        if ((p->last_text && ctl_key_eq(p->last_text, "The requested feature is not supported on this controller.")) ||
            (p->has_found && p->found == 0)) {
                p->unsupported = true;
                return 0;
        }
        _cleanup_free_ char *why = ctl_printable(p->last_text ? p->last_text : "", 80);
        return ctl_text_fail(&p->c, "arcconf says \"%s\" and \"Command aborted.\": the command failed; run \"arcconf "
                                    "GETCONFIG %s LD\" by hand to see why",
                             why, p->ctl);
}

/* A line without a ':'. */
static int arc_words(struct arc_parse *p, const struct ctl_line *t, bool after_dashes)
{
        const char *s = t->key;
        unsigned no;
        if (ctl_key_eq(s, "Command completed successfully.")) {
                p->done = true;
                return arc_ld_end(&p->c, &p->ld);
        }
        if (ctl_key_eq(s, "Command aborted."))
                return arc_aborted(p);
        if (arc_ld_header(s, &no))
                return arc_new_ld(p, no);
        if (ctl_key_in(s, arc_ld_sections))
                return arc_section_starts(p, SEC_LD, s);
        if (ctl_key_in(s, arc_other_sections) || arc_maxcache_section(s))
                return arc_section_starts(p, SEC_OTHER, s);
        if (ctl_key_in(s, arc_member_parts)) {
                p->ld.in_unknown_part = false;
                return 0;
        }
        if (ctl_key_eq(s, "No logical devices configured")) {
                p->none_line = p->c.no;
                return arc_ld_end(&p->c, &p->ld);
        }
        if (after_dashes && *s) {
                p->cand = xstrdup(s);
                p->cand_indent = t->indent;
                p->cand_line = t->no;
        }
        return 0;
}

/* "Controllers found: 2" (any case): once, a count up to 64, and at least the
 * controller this output is for. */
static int arc_found(struct arc_parse *p, const char *value)
{
        struct ctl_text *c = &p->c;
        unsigned n;
        const char *v = value;
        if (p->has_found)
                return ctl_text_fail(c, "a second \"Controllers found\" line (the first at line %u): two outputs run "
                                        "together; run the tool again", p->found_line);
        if (!arc_num(&v, &n) || !arc_end_of(v) || n > ARC_MAX_CONTROLLERS) {
                _cleanup_free_ char *w = ctl_printable(value, 40);
                return ctl_text_fail(c, "\"Controllers found: %s\" is not a count from 0 to %d", w,
                                     ARC_MAX_CONTROLLERS);
        }
        p->has_found = true;
        p->found = n;
        p->found_line = c->no;
        const char *me = p->ctl;
        unsigned mine;
        if (n && arc_num(&me, &mine) && arc_end_of(me) && mine > n)
                return ctl_text_fail(c, "this output is for controller %u, but arcconf found %u: is it the capture "
                                        "of another node?",
                                     mine, n);
        return 0;
}

/* "Logical devices/Failed/Degraded : 2/0/0" (1.x to 4.x), "Logical
 * drives/Offline/Critical : 1/0/0" (IBM's 9.x): the controller's own count. */
static int arc_count(struct arc_parse *p, const char *value)
{
        const char *v = value;
        if (!arc_num(&v, &p->count) || (*v != '/' && !arc_end_of(v))) {
                _cleanup_free_ char *w = ctl_printable(value, 40);
                return ctl_text_fail(&p->c, "the count of logical devices \"%s\" is not \"N/N/N\"", w);
        }
        p->has_count = true;
        p->count_line = p->c.no;
        return 0;
}

static int arc_line(struct arc_parse *p, const struct ctl_line *t)
{
        if (!*t->raw)
                return 0;
        if (p->done)
                return ctl_text_fail(&p->c, "text after \"Command completed successfully.\": two outputs run together; "
                                            "run the tool again");
        if (arc_dashes(t->raw)) {
                p->prev_dash = true;
                return p->cand ? arc_unknown_header(p) : 0;
        }
        bool after_dashes = p->prev_dash;
        p->prev_dash = false;
        free(p->cand);
        p->cand = NULL;
        if (t->value || !ctl_key_eq(t->key, "Command aborted.")) {
                free(p->last_text);
                p->last_text = xstrdup(t->raw + strspn(t->raw, " \t"));
        }
        if (!t->value)
                return arc_words(p, t, after_dashes);
        if (ctl_key_eq(t->key, "Controllers found"))
                return arc_found(p, t->value);
        if (ctl_key_prefix(t->key, "Logical devices/", NULL) || ctl_key_prefix(t->key, "Logical drives/", NULL))
                return arc_count(p, t->value);
        if (p->ld.v && !p->ld.in_unknown_part ? ctl_wc_take(&p->ld.wc, ctl_wc_arcconf_keys, t->key, t->value)
            : p->sec == SEC_OTHER && ctl_key_eq(p->sec_name, "Controller information") &&
                      ctl_wc_take(&p->ctl_wc, ctl_wc_smart_ctl_keys, t->key, t->value))
                return 0;
        unsigned a = 0, b = 0;
        enum arc_field f = arc_field_of(t->key, &a, &b);
        if (f == ARC_NOT_LD || p->sec == SEC_OTHER || (!p->ld.v && !arc_layout_field(f)))
                return 0;
        if (p->sec == SEC_UNKNOWN)
                return ctl_text_fail(&p->c, "\"%s\" in the section \"%s\", which storprov does not know: it cannot "
                                            "tell which logical device it belongs to",
                                     f < ARC_N_FIELDS ? arc_field_names[f] : "a member", p->sec_name);
        if (!p->ld.v)
                return ctl_text_fail(&p->c, "\"%s\" outside any logical device (no \"Logical device number N\" "
                                            "line before it)", f < ARC_N_FIELDS ? arc_field_names[f] : "a member");
        return arc_ld_line(&p->c, &p->ld, f, a, b, t->value);
}

/* The output read to its end: no logical device is an error unless arcconf
 * says so in its own words. */
static void arc_finish(struct arc_parse *p)
{
        struct ctl_text *c = &p->c;
        size_t n = p->l->n - p->n0;
        if (!p->done) {
                ctl_text_fail(c, "the output ends without \"Command completed successfully.\": it is cut short or the "
                                 "command failed; run \"arcconf GETCONFIG %s LD\" again",
                              p->ctl);
                return;
        }
        if (p->has_count && p->count != n) {
                ctl_text_fail(c, "the controller counts %u logical device%s (line %u), the output lists %zu: a "
                                 "logical device is missing or not one storprov can read; run \"arcconf GETCONFIG %s "
                                 "LD\" again",
                              p->count, p->count == 1 ? "" : "s", p->count_line, n, p->ctl);
                return;
        }
        if (n && p->none_line) {
                ctl_text_fail(c, "arcconf says \"No logical devices configured\" (line %u) after listing %zu: the "
                                 "output contradicts itself; run the tool again",
                              p->none_line, n);
                return;
        }
        bool says_none = p->unsupported || p->none_line || (p->has_count && p->count == 0) ||
                         (p->has_found && p->found == 0);
        if (!n && !says_none)
                ctl_text_fail(c, "no logical device, and arcconf does not say there is none (\"No logical devices "
                                 "configured\"): is it \"arcconf GETCONFIG %s LD\"?",
                              p->ctl);
}

int ctl_parse_arcconf(const char *buf, size_t len, const char *tool, const char *controller, struct ctl_list *l,
                      char **ret_err)
{
        struct arc_parse p = {.l = l, .ctl = controller ? controller : "1", .n0 = l->n};
        ctl_text_init(&p.c, tool, buf, len);
        struct ctl_line t;
        while (ctl_text_next(&p.c, &t, ':') > 0)
                if (arc_line(&p, &t) < 0)
                        break;
        if (!p.c.err)
                arc_finish(&p);
        arc_ld_clear(&p.ld);
        ctl_wc_clear(&p.ctl_wc);
        free(p.ld_lines);
        free(p.sec_name);
        free(p.cand);
        free(p.last_text);
        return ctl_text_finish(&p.c, l, p.n0, ret_err);
}

/* ---- what the first output leads to ------------------------------------------ */

/* The first "Controllers found: N" of an output (text or JSON): 0 and *n, or
 * -EINVAL with *ret_err. */
static int arc_controllers(const char *buf, size_t len, const char *tool, unsigned *n, char **ret_err)
{
        struct ctl_text c;
        ctl_text_init(&c, tool, buf, len);
        struct ctl_line t;
        bool found = false;
        while (!found && ctl_text_next(&c, &t, ':') > 0) {
                if (!t.value || !ctl_key_eq(t.key, "Controllers found"))
                        continue;
                const char *v = t.value;
                found = arc_num(&v, n) && arc_end_of(v);
                if (!found) {
                        _cleanup_free_ char *w = ctl_printable(t.value, 40);
                        ctl_text_fail(&c, "\"Controllers found: %s\" is not a count", w);
                        break;
                }
                if (*n > ARC_MAX_CONTROLLERS)
                        ctl_text_fail(&c, "arcconf found %u controllers; storprov reads at most %d (a bigger count is "
                                          "a garbled output)",
                                      *n, ARC_MAX_CONTROLLERS);
        }
        if (!found && !c.err)
                ctl_text_fail(&c, "no \"Controllers found: N\" line: is it arcconf's output?");
        struct ctl_list none = {0};
        return ctl_text_finish(&c, &none, 0, ret_err);
}

int ctl_follow_arcconf(const char *buf, size_t len, const char *tool, const char *id, struct ctl_nexts *next,
                       char **ret_err)
{
        if (id && strcmp(id, "1")) /* every output counts all controllers: the first one leads on */
                return 0;
        unsigned n = 0;
        if (arc_controllers(buf, len, tool, &n, ret_err) < 0)
                return -EINVAL;
        for (unsigned k = 2; k <= n; k++) {
                char s[16];
                snprintf(s, sizeof s, "%u", k);
                ctl_nexts_add(next, 0, s);
        }
        return 0;
}

unsigned ctl_arcconf_count(const char *buf, size_t len)
{
        unsigned n = 0;
        char *err = NULL;
        if (arc_controllers(buf, len, "arcconf", &n, &err) < 0) {
                free(err);
                return 0;
        }
        return n;
}

/* ---- arcconf GETCONFIGJSON ------------------------------------------------------ */

/* The JSON arcconf 3.x and 4.x print (the spellings libstoragemgmt's arcconf
 * plugin reads): {"Controller": {..., "LogicalDrive": [{"logicalDriveID": 0,
 * "raidLevel": "1+0", "state": 2, "StripeSize": 256 (KiB), "fullStripeSize":
 * 512 (KiB), "volumeUniqueID": "600508B1...", "Chunk": [{"deviceID": 4, ...},
 * ...]}]}}, or {"LogicalDrive": {...}} for one logical drive. */

/* "raidLevel": "5" or 5 → its text. */
static char *arc_json_level(json_object *ld)
{
        json_object *v;
        if (!json_object_object_get_ex(ld, "raidLevel", &v))
                return NULL;
        if (json_object_is_type(v, json_type_int))
                return xasprintf("%lld", (long long)json_object_get_int64(v));
        return json_object_is_type(v, json_type_string) ? ctl_printable(json_object_get_string(v), 40) : NULL;
}

/* "state": 2 optimal, 3 critical (degraded), 1 offline: the numbers of
 * libstoragemgmt's plugin; a word where a version prints one. */
static void arc_json_state(struct ctl_vd *v, json_object *ld)
{
        json_object *st = NULL;
        json_object_object_get_ex(ld, "state", &st);
        if (json_object_is_type(st, json_type_string)) {
                v->state_raw = ctl_printable(json_object_get_string(st), 48);
                v->state = xstrdup(ctl_state_of(v->state_raw));
                return;
        }
        int64_t n = json_object_is_type(st, json_type_int) ? json_object_get_int64(st) : -1;
        v->state_raw = n >= 0 ? xasprintf("state %lld", (long long)n) : NULL;
        v->state = xstrdup(n == 2 ? "optimal" : n == 3 ? "degraded" : n == 1 ? "offline" : "other");
}

/* A size in KiB (an integer or a string of digits; 0 is "not known"): 0, or
 * -1 for anything else. */
static int arc_json_kib(json_object *ld, const char *key, uint64_t *ret)
{
        json_object *v;
        *ret = 0;
        if (!json_object_object_get_ex(ld, key, &v) || json_object_is_type(v, json_type_null))
                return 0;
        int64_t n = -1;
        if (json_object_is_type(v, json_type_int))
                n = json_object_get_int64(v);
        else if (json_object_is_type(v, json_type_string)) {
                const char *s = json_object_get_string(v);
                unsigned u;
                if (arc_num(&s, &u) && !*s)
                        n = u;
        }
        if (n < 0 || n > (INT64_C(1) << 30))
                return -1;
        *ret = (uint64_t)n * 1024;
        return 0;
}

static int arc_json_ld(struct ctl_json *c, struct ctl_list *l, size_t n0, const char *ctl, json_object *ld,
                       size_t i)
{
        char where[64];
        snprintf(where, sizeof where, "controller %s, \"LogicalDrive\"[%zu]", ctl, i);
        json_object *id = ctl_jobj(ld, "logicalDriveID", json_type_int);
        _cleanup_free_ char *level = arc_json_level(ld);
        if (!id || !level || json_object_get_int64(id) < 0 || json_object_get_int64(id) > 65535)
                return ctl_json_fail(c, "%s has no \"logicalDriveID\" and \"raidLevel\"", where);
        char vd[16];
        snprintf(vd, sizeof vd, "%lld", (long long)json_object_get_int64(id));
        if (ctl_find(l, n0, ctl, vd))
                return ctl_json_fail(c, "%s: logical drive %s is listed a second time: run the tool again", where, vd);
        struct ctl_vd *v = ctl_add(l, c->tool, ctl);
        v->vd = xstrdup(vd);
        v->level_raw = level;
        level = NULL;
        v->level = xstrdup(ctl_level_of(v->level_raw));
        arc_json_state(v, ld);
        if (arc_json_kib(ld, "StripeSize", &v->strip_bytes) < 0 ||
            arc_json_kib(ld, "fullStripeSize", &v->reported_full_stripe_bytes) < 0)
                return ctl_json_fail(c, "%s: \"StripeSize\" and \"fullStripeSize\" must be sizes in KiB", where);
        v->naa = ctl_naa(ctl_jstring(ld, "volumeUniqueID"));
        json_object *chunks = ctl_jobj(ld, "Chunk", json_type_array);
        size_t members = chunks ? json_object_array_length(chunks) : 0;
        bool nested = v->level && (!strcmp(v->level, "raid50") || !strcmp(v->level, "raid60"));
        if (nested) /* the JSON has no parity groups */
                v->note = xstrdup("arcconf's JSON does not say how many parity groups: read \"GETCONFIG N LD\"");
        else if (members && members <= ARC_MAX_MEMBERS) {
                /* a chunk without a "deviceID" is a missing drive: it keeps its place in the layout */
                v->drives_per_span = (unsigned)members;
                v->spans = 1;
        }
        if (!nested)
                ctl_vd_geometry(v);
        arc_check_full(v);
        return 0;
}

/* Where the JSON starts: the first '{' at the start of a line, after arcconf's
 * "Controllers found: N" (and a byte-order mark); len if none. */
static size_t arc_json_start(const char *buf, size_t len)
{
        size_t at = len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3) ? 3 : 0, first = at;
        while (at < len && !(buf[at] == '{' && (at == first || buf[at - 1] == '\n')))
                at++;
        return at;
}

int ctl_parse_arcconf_json(const char *buf, size_t len, const char *tool, const char *controller,
                           struct ctl_list *l, char **ret_err)
{
        struct ctl_json c = {.tool = tool};
        const char *ctl = controller ? controller : "1";
        size_t n0 = l->n, at = arc_json_start(buf, len);
        json_object *j = at < len ? ctl_json_doc(&c, buf + at, len - at, true) : NULL;
        if (at == len)
                ctl_json_fail(&c, "no JSON object at the start of a line (is it \"arcconf GETCONFIGJSON %s\"?)", ctl);
        json_object *top = ctl_jobj(j, "Controller", json_type_object);
        json_object *holder = top ? top : j, *lds = NULL, *one = NULL;
        if (holder && json_object_object_get_ex(holder, "LogicalDrive", &lds)) {
                one = json_object_is_type(lds, json_type_object) ? lds : NULL;
                lds = json_object_is_type(lds, json_type_array) ? lds : NULL;
                if (!lds && !one)
                        ctl_json_fail(&c, "\"LogicalDrive\" is neither an array nor an object");
        } else if (j && top) /* "LogicalDrive": [] is arcconf's "none"; no member says nothing */
                ctl_json_fail(&c, "controller %s has no \"LogicalDrive\" member: arcconf does not say whether it has "
                                  "logical drives; read \"arcconf GETCONFIG %s LD\"",
                              ctl, ctl);
        else if (j)
                ctl_json_fail(&c, "no \"Controller\" or \"LogicalDrive\" object at the top");
        for (size_t i = 0; lds && !c.err && i < json_object_array_length(lds); i++)
                arc_json_ld(&c, l, n0, ctl, json_object_array_get_idx(lds, i), i);
        if (one && !c.err)
                arc_json_ld(&c, l, n0, ctl, one, 0);
        json_object_put(j);
        return ctl_json_finish(&c, l, n0, ret_err);
}
