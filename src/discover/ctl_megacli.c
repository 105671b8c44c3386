/* SPDX-License-Identifier: GPL-2.0-or-later
 * LSI MegaCli / MegaCli64 (and the Dell, IBM, Intel builds of it): the text of
 * "-LdPdInfo -aALL" and "-LDInfo -Lall -aALL" into controller records, and
 * "-AdpGetPciInfo -aALL" onto them. Pure: bytes in, records or one error out.
 *
 * What the public captures show (the fixtures' README names each source):
 *  - An adapter opens with "Adapter N -- Virtual Drive Information:" (LDInfo)
 *    or "Adapter #N" then "Number of Virtual Disks: K" (LdPdInfo); a VD with
 *    "Virtual Drive: V (Target Id: T)", in old builds "Virtual Disk: V (Target
 *    Id: T)" or "(target id: T)"; a CacheCade cache with "CacheCade Virtual
 *    Drive: ..." (no disk of the host: no record). In LdPdInfo a VD's fields
 *    end at its PD list ("PD: 0 Information"), where "Span: S - Number of PDs:
 *    N" lines are interleaved; every output ends "Exit Code: 0xNN".
 *  - Keys come as "RAID Level          : ...", "RAID Level: ..." or "Number Of
 *    Drives:2", in any case: Strip Size (8.x) or Stripe Size (8.0x and older:
 *    "64 KB", "64kB", newer "1.0 MB"); "Number Of Drives per span:N" when Span
 *    Depth > 1 in 8.x, a bare "Number Of Drives" with several spans in older
 *    builds (per span or in all: not said, so only LdPdInfo's span lines tell).
 *  - "RAID Level : Primary-P, Secondary-S, RAID Level Qualifier-Q" are the SNIA
 *    DDF codes (mdadm super-ddf.c): P the level, S 0 striped or 3 spanned, Q
 *    the layout (RAID1 0: a two-disk mirror, RAID5/6 3: rotating parity with
 *    data continuation). RAID10/50/60 are printed with Secondary-3 by old
 *    builds and Secondary-0 with Span Depth > 1 by 8.x; a RAID1 over 4+ drives
 *    in one span is one of mirrored pairs striped, as storcli's "RAID1" of 4+.
 *  - The megaraid_sas driver puts LD target T at channel 2 + T / 128, id
 *    T % 128, lun 0 of its SCSI host (megasas_add_remove_devices:
 *    MEGASAS_MAX_PD_CHANNELS 2, MEGASAS_MAX_DEV_PER_CHANNEL 128).
 *  - -AdpGetPciInfo prints "Bus Number", "Device Number", "Function Number" in
 *    hex without 0x ("3b"), and no PCI domain. */
#include "discover/ctl_internal.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MC_MAX_ADAPTER    999
#define MC_MAX_LD_TARGETS 256 /* MEGASAS_MAX_LD_CHANNELS (2) x MEGASAS_MAX_DEV_PER_CHANNEL (128) */

enum mc_field { MC_LEVEL, MC_STRIP, MC_DRIVES, MC_PER_SPAN, MC_DEPTH, MC_NSPANS, MC_STATE, MC_NFIELDS };

static const struct {
        enum mc_field f;
        const char *const names[3];
} mc_fields[] = {
        { MC_LEVEL, { "RAID Level", NULL } },
        { MC_STRIP, { "Strip Size", "Stripe Size", NULL } },
        { MC_DRIVES, { "Number Of Drives", NULL } },
        { MC_PER_SPAN, { "Number Of Drives per span", NULL } },
        { MC_DEPTH, { "Span Depth", NULL } },
        { MC_NSPANS, { "Number of Spans", NULL } },
        { MC_STATE, { "State", NULL } },
};

struct mc_vd {
        struct ctl_vd *v;
        unsigned line, target;
        bool in_pds;                /* in its PD list: no VD field from here on */
        bool has[MC_NFIELDS];       /* each field once */
        unsigned count[MC_NFIELDS]; /* the counts as printed */
        bool raid_ok;               /* RAID Level read as Primary/Secondary/Qualifier */
        unsigned prim, sec, qual;
        unsigned span_lines, span_pds;
        bool spans_differ, rebuild, reconstruction;
        struct ctl_wc wc;           /* "Current Cache Policy", "Default Cache Policy" */
};

struct mc_adapter {
        bool open, none;
        char id[8];
        unsigned no, line, vds, caches;
        size_t first;  /* its first record in the list */
        long declared; /* "Number of Virtual Disks", -1 when not printed */
};

struct mc_parse {
        struct ctl_text c;
        struct ctl_list *l;
        struct mc_adapter adp;
        struct mc_vd vd;
        bool in_cache; /* in a CacheCade drive's lines */
        bool seen[MC_MAX_ADAPTER + 1];
        unsigned adapters;
        bool done; /* "Exit Code" read */
};

/* s is all decimal digits, at most max: *ret. */
static bool mc_number(const char *s, unsigned long max, unsigned *ret)
{
        if (!s || !isdigit((unsigned char)*s) || strlen(s) > 9)
                return false;
        char *end;
        unsigned long n = strtoul(s, &end, 10);
        if (*end || n > max)
                return false;
        *ret = (unsigned)n;
        return true;
}

/* Digits at *s (at most 9), then blanks skipped: the number, or false. */
static bool mc_digits(const char **s, unsigned *ret)
{
        size_t n = strspn(*s, "0123456789");
        if (!n || n > 9)
                return false;
        *ret = (unsigned)strtoul(*s, NULL, 10);
        *s += n;
        *s += strspn(*s, " \t");
        return true;
}

/* "name" then blanks, the character sep and blanks at *s. */
static bool mc_word(const char **s, const char *name, char sep)
{
        const char *r = *s;
        if (name && !ctl_key_prefix(r, name, &r))
                return false;
        r += strspn(r, " \t");
        if (*r != sep)
                return false;
        r++;
        *s = r + strspn(r, " \t");
        return true;
}

/* "0x00", "0X1f", "00": the exit code, or false. */
static bool mc_exit_value(const char *s, unsigned *ret)
{
        if (s && (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2)))
                s += 2;
        size_t n = s ? strspn(s, "0123456789abcdefABCDEF") : 0;
        if (!n || n > 8 || s[n])
                return false;
        *ret = (unsigned)strtoul(s, NULL, 16);
        return true;
}

/* The closing "Exit Code: 0xNN": anything but 0x00 is a failed command. */
static int mc_exit(struct ctl_text *c, const char *value)
{
        unsigned code;
        if (!mc_exit_value(value, &code)) {
                _cleanup_free_ char *p = ctl_printable(value ? value : "", 40);
                return ctl_text_fail(c, "\"Exit Code: %s\" is not MegaCli's \"Exit Code: 0xNN\": the output is garbled",
                                     p);
        }
        if (code)
                return ctl_text_fail(c,
                                     "MegaCli ended with \"Exit Code: 0x%02x\": the command failed; run it by hand "
                                     "to see why",
                                     code);
        return 0;
}

/* ---- the RAID level ------------------------------------------------------------ */

/* "Primary-5, Secondary-0, RAID Level Qualifier-3" into prim, sec, qual. */
static bool mc_raid_codes(const char *s, unsigned *prim, unsigned *sec, unsigned *qual)
{
        static const char *const part[] = { "Primary", "Secondary", "RAID Level Qualifier" };
        unsigned *out[] = { prim, sec, qual };
        for (size_t i = 0; i < 3; i++) {
                if (!mc_word(&s, part[i], '-') || !mc_digits(&s, out[i]) || *out[i] > 255)
                        return false;
                if (i < 2 && !mc_word(&s, NULL, ','))
                        return false;
        }
        return !*s;
}

/* The level of the DDF codes MegaCli prints (see the head of the file); NULL
 * for a combination the public record does not show. */
static const char *mc_level(const struct mc_vd *vd, unsigned spans, unsigned per)
{
        if (!vd->raid_ok || (vd->sec != 0 && vd->sec != 3))
                return NULL;
        bool nested = vd->sec == 3 || spans > 1;
        if (vd->prim == 0 && vd->qual == 0)
                return nested ? "raid00" : "raid0";
        if (vd->prim == 1 && vd->qual == 0)
                return nested || per >= 3 ? "raid10" : "raid1";
        if (vd->prim == 5 && vd->qual == 3)
                return nested ? "raid50" : "raid5";
        if (vd->prim == 6 && vd->qual == 3)
                return nested ? "raid60" : "raid6";
        return NULL;
}

/* ---- one VD ------------------------------------------------------------------------ */

/* "64 KB", "64kB", "1.0 MB" (newer builds print strips of 1 MB and more so): bytes. */
static int mc_strip(struct ctl_text *c, const char *key, const char *value, uint64_t *ret)
{
        const char *dot = value ? strchr(value, '.') : NULL;
        if (!dot)
                return ctl_field_size(c, key, value, ret);
        size_t zeros = strspn(dot + 1, "0");
        if (!zeros || isdigit((unsigned char)dot[1 + zeros]))
                return ctl_field_size(c, key, value, ret); /* "1.5 MB": not a whole size, refused there */
        _cleanup_free_ char *whole = xasprintf("%.*s%s", (int)(dot - value), value, dot + 1 + zeros);
        return ctl_field_size(c, key, whole, ret);
}

/* "Span: 1 - Number of PDs: 2", among a VD's fields or its PD list. */
static int mc_span(struct ctl_text *c, struct mc_vd *vd, const char *value)
{
        const char *s = value;
        unsigned no, pds;
        if (!mc_digits(&s, &no) || !mc_word(&s, NULL, '-') || !mc_word(&s, "Number of PDs", ':') ||
            !mc_digits(&s, &pds) || *s || !pds || pds > 4096) {
                _cleanup_free_ char *p = ctl_printable(value, 40);
                return ctl_text_fail(c, "\"Span: %s\" is not \"Span: S - Number of PDs: N\": the output is garbled", p);
        }
        if (no != vd->span_lines)
                return ctl_text_fail(c, "span %u of virtual drive %s follows %u span line%s: the output is garbled", no,
                                     vd->v->vd, vd->span_lines, vd->span_lines == 1 ? "" : "s");
        if (vd->span_lines && pds != vd->span_pds)
                vd->spans_differ = true;
        vd->span_pds = pds;
        vd->span_lines++;
        return 0;
}

static int mc_field(struct ctl_text *c, struct mc_vd *vd, enum mc_field f, const char *name, const char *value)
{
        struct ctl_vd *v = vd->v;
        if (vd->has[f])
                return ctl_text_fail(c,
                                     "\"%s\" a second time in virtual drive %s (line %u): a VD header is missing; "
                                     "the output is garbled",
                                     name, v->vd, vd->line);
        vd->has[f] = true;
        switch (f) {
        case MC_LEVEL:
                ctl_set_str(&v->level_raw, value, 64);
                vd->raid_ok = mc_raid_codes(value, &vd->prim, &vd->sec, &vd->qual);
                return 0;
        case MC_STRIP:
                return mc_strip(c, name, value, &v->strip_bytes);
        case MC_STATE:
                ctl_set_str(&v->state_raw, value, 48);
                free(v->state);
                v->state = xstrdup(ctl_state_of(value));
                return 0;
        default:
                return ctl_field_count(c, name, value, &vd->count[f]);
        }
}

/* A line of an open VD: its fields, its span lines, its PD list. */
static int mc_vd_line(struct ctl_text *c, struct mc_vd *vd, const struct ctl_line *t)
{
        if (!t->value)
                return 0;
        if (ctl_key_eq(t->key, "PD")) {
                vd->in_pds = true;
                return 0;
        }
        if (ctl_key_eq(t->key, "Span"))
                return mc_span(c, vd, t->value);
        if (vd->in_pds) {
                if (ctl_key_eq(t->key, "Firmware state") && strcasestr(t->value, "Rebuild"))
                        vd->rebuild = true;
                return 0;
        }
        if (ctl_wc_take(&vd->wc, ctl_wc_megacli_keys, t->key, t->value))
                return 0;
        if (ctl_key_eq(t->key, "Reconstruction")) /* under "Ongoing Progresses:" */
                vd->reconstruction = true;
        for (size_t i = 0; i < ELEMENTSOF(mc_fields); i++)
                if (ctl_key_in(t->key, mc_fields[i].names))
                        return mc_field(c, vd, mc_fields[i].f, mc_fields[i].names[0], t->value);
        return 0;
}

/* The spans: Span Depth, Number of Spans and the span lines, which must agree. */
static int mc_spans(struct ctl_text *c, const struct mc_vd *vd, unsigned *ret)
{
        unsigned depth = vd->has[MC_DEPTH] ? vd->count[MC_DEPTH] : 0;
        unsigned nspans = vd->has[MC_NSPANS] ? vd->count[MC_NSPANS] : 0;
        if (depth && nspans && depth != nspans)
                return ctl_text_fail(c,
                                     "virtual drive %s (line %u): \"Span Depth\" %u but \"Number of Spans\" %u: "
                                     "the output is garbled",
                                     vd->v->vd, vd->line, depth, nspans);
        unsigned spans = depth ? depth : nspans ? nspans : vd->span_lines;
        if (vd->span_lines && vd->span_lines != spans)
                return ctl_text_fail(c,
                                     "virtual drive %s (line %u) has %u span%s but %u \"Span:\" line%s: the output "
                                     "is cut short or garbled",
                                     vd->v->vd, vd->line, spans, spans == 1 ? "" : "s", vd->span_lines,
                                     vd->span_lines == 1 ? "" : "s");
        *ret = spans;
        return 0;
}

/* Drives of one span: "Number Of Drives per span", a bare "Number Of Drives"
 * when there is one span, else the span lines of LdPdInfo. */
static int mc_per_span(struct ctl_text *c, struct mc_vd *vd, unsigned spans, unsigned *ret)
{
        unsigned per = vd->has[MC_PER_SPAN] ? vd->count[MC_PER_SPAN] : 0;
        unsigned drives = vd->has[MC_DRIVES] ? vd->count[MC_DRIVES] : 0;
        unsigned lines = vd->span_lines && !vd->spans_differ ? vd->span_pds : 0;
        if (!per && drives && spans == 1)
                per = drives;
        if (per && lines && per != lines)
                return ctl_text_fail(c,
                                     "virtual drive %s (line %u): %u drives per span but \"Span:\" lines of %u: "
                                     "the output is garbled",
                                     vd->v->vd, vd->line, per, lines);
        if (!per && lines && drives && drives != lines && drives != lines * spans)
                return ctl_text_fail(c,
                                     "virtual drive %s (line %u): \"Number Of Drives\" %u fits no span of %u: "
                                     "the output is garbled",
                                     vd->v->vd, vd->line, drives, lines);
        if (!per)
                per = lines;
        if (vd->spans_differ)
                ctl_add_note(vd->v, xstrdup("its spans hold different numbers of drives: geometry unknown"));
        else if (!per && drives && spans > 1)
                ctl_add_note(vd->v, xasprintf("\"Number Of Drives\" %u over %u spans: this MegaCli does not say per "
                                              "span or in all; \"-LdPdInfo -aALL\" prints the spans' drives",
                                              drives, spans));
        *ret = per;
        return 0;
}

static void mc_scsi_addr(struct ctl_vd *v, unsigned target)
{
        if (target >= MC_MAX_LD_TARGETS) {
                ctl_add_note(v,
                             xasprintf("target id %u is beyond the %u the megaraid_sas driver places: no SCSI address",
                                       target, MC_MAX_LD_TARGETS));
                return;
        }
        v->scsi_addr = xasprintf("%u:%u:0", 2 + target / 128, target % 128);
}

static int mc_vd_end(struct mc_parse *p)
{
        struct mc_vd *vd = &p->vd;
        struct ctl_vd *v = vd->v;
        unsigned spans = 0, per = 0;
        if (!v)
                return 0;
        ctl_wc_end(&vd->wc, NULL, v);
        int r = mc_spans(&p->c, vd, &spans) < 0 || mc_per_span(&p->c, vd, spans, &per) < 0 ? -EINVAL : 0;
        vd->v = NULL;
        if (r < 0)
                return r;
        v->spans = spans;
        v->drives_per_span = per;
        v->level = xstrdup(mc_level(vd, spans, per));
        if (!vd->has[MC_LEVEL])
                ctl_add_note(v, xstrdup("MegaCli printed no \"RAID Level\" for it (some builds print it for the first "
                                        "VD of -LdPdInfo only): run \"-LDInfo -Lall -aALL\""));
        if (!v->state)
                v->state = xstrdup("other");
        if (vd->rebuild && strstr(v->state, "degraded")) {
                free(v->state);
                v->state = xstrdup("rebuilding");
        }
        ctl_vd_geometry(v);
        if (vd->reconstruction) {
                v->data_disks = 0;
                v->full_stripe_bytes = 0;
                ctl_add_note(v, xstrdup("MegaCli reports a reconstruction (level migration or expansion) under way: "
                                        "the layout is changing, geometry unknown until it ends"));
        }
        mc_scsi_addr(v, vd->target);
        return 0;
}

/* ---- adapters and VD headers ------------------------------------------------------ */

static int mc_adapter_end(struct mc_parse *p)
{
        struct mc_adapter *a = &p->adp;
        if (!a->open)
                return 0;
        a->open = false;
        if (!a->vds && !a->caches && !a->none)
                return ctl_text_fail(&p->c,
                                     "adapter %s (line %u) lists no virtual drive and does not say it has none "
                                     "(\"No Virtual Drive Configured\"): the output is cut short or garbled",
                                     a->id, a->line);
        if (a->declared >= 0 && (a->vds + a->caches < a->declared || a->vds > a->declared))
                return ctl_text_fail(&p->c,
                                     "adapter %s: \"Number of Virtual Disks: %ld\" but %u listed: the output is "
                                     "cut short or garbled",
                                     a->id, a->declared, a->vds + a->caches);
        return 0;
}

static int mc_adapter_open(struct mc_parse *p, unsigned no)
{
        if (mc_vd_end(p) < 0 || mc_adapter_end(p) < 0)
                return -EINVAL;
        if (p->seen[no])
                return ctl_text_fail(&p->c, "adapter %u a second time: the output is garbled", no);
        p->seen[no] = true;
        p->adapters++;
        p->in_cache = false;
        p->adp = (struct mc_adapter){ .open = true, .no = no, .line = p->c.no, .first = p->l->n, .declared = -1 };
        snprintf(p->adp.id, sizeof p->adp.id, "%u", no);
        return 0;
}

/* "Adapter 0: No Virtual Drive Configured.": the tool's own words for none. */
static bool mc_none_words(const char *value)
{
        return ctl_key_eq(value, "No Virtual Drive Configured.") || ctl_key_eq(value, "No Virtual Drive Configured");
}

/* "Adapter #0", "Adapter 0 -- Virtual Drive Information:", "Adapter 0: ...";
 * 0 if the line is none of them, 1 if it was taken, -EINVAL. */
static int mc_adapter_line(struct mc_parse *p, const struct ctl_line *t)
{
        const char *s;
        unsigned no;
        if (!ctl_key_prefix(t->key, "Adapter", &s) || (*s != ' ' && *s != '\t' && *s != '#'))
                return 0;
        s += strspn(s, " \t");
        bool hash = *s == '#';
        s += hash;
        if (!mc_digits(&s, &no) || no > MC_MAX_ADAPTER)
                return 0;
        if (!*s && hash && !t->value)
                return mc_adapter_open(p, no) < 0 ? -EINVAL : 1;
        if (!hash && ctl_key_eq(s, "-- Virtual Drive Information") && t->value && !*t->value)
                return mc_adapter_open(p, no) < 0 ? -EINVAL : 1;
        if (*s || hash || !t->value) /* a header with more or less than MegaCli prints */
                return ctl_text_fail(&p->c,
                                     "an adapter line (adapter %u) that is neither \"Adapter #N\" nor \"Adapter N "
                                     "-- Virtual Drive Information:\": the output is garbled",
                                     no);
        _cleanup_free_ char *msg = ctl_printable(t->value, 80);
        if (!mc_none_words(t->value))
                return ctl_text_fail(&p->c, "MegaCli says of adapter %u: \"%s\"; expected its virtual drives", no, msg);
        if (!p->adp.open || p->adp.no != no) {
                if (mc_adapter_open(p, no) < 0)
                        return -EINVAL;
        } else if (mc_vd_end(p) < 0)
                return -EINVAL;
        if (p->adp.vds || p->adp.caches)
                return ctl_text_fail(&p->c, "adapter %u lists virtual drives, then says \"%s\": the output is garbled",
                                     no, msg);
        p->adp.none = true;
        return 1;
}

/* "Virtual Drive: 0 (Target Id: 0)", "Virtual Disk: 0 (target id: 0)". */
static int mc_vd_start(struct mc_parse *p, const struct ctl_line *t)
{
        const char *s = t->value;
        unsigned no, target;
        if (!mc_digits(&s, &no) || !mc_word(&s, NULL, '(') || !mc_word(&s, "Target Id", ':') ||
            !mc_digits(&s, &target) || !mc_word(&s, NULL, ')') || *s || no > 65535 || target > 65535) {
                _cleanup_free_ char *v = ctl_printable(t->value, 40);
                return ctl_text_fail(&p->c,
                                     "\"%s\" after \"Virtual Drive:\" is not \"N (Target Id: T)\": the output "
                                     "is garbled",
                                     v);
        }
        if (!p->adp.open)
                return ctl_text_fail(&p->c, "a virtual drive before any adapter line (\"Adapter #N\" or \"Adapter N -- "
                                            "Virtual Drive Information:\"): is it \"MegaCli64 -LdPdInfo -aALL\"?");
        if (mc_vd_end(p) < 0)
                return -EINVAL;
        char id[16];
        snprintf(id, sizeof id, "%u", no);
        if (ctl_find(p->l, p->adp.first, p->adp.id, id))
                return ctl_text_fail(&p->c, "virtual drive %u of adapter %s a second time: the output is garbled", no,
                                     p->adp.id);
        if (p->adp.none)
                return ctl_text_fail(&p->c,
                                     "adapter %s said it has no virtual drive, then lists one: the output is "
                                     "garbled",
                                     p->adp.id);
        p->in_cache = false;
        p->vd = (struct mc_vd){ .v = ctl_add(p->l, p->c.tool, p->adp.id), .line = p->c.no, .target = target };
        p->vd.v->vd = xstrdup(id);
        p->adp.vds++;
        return 0;
}

/* "Number of Virtual Disks: K" after "Adapter #N" (LdPdInfo). */
static int mc_declared(struct mc_parse *p, const char *value)
{
        unsigned n;
        if (!p->adp.open || p->adp.vds || p->adp.caches || p->adp.declared >= 0)
                return ctl_text_fail(&p->c, "\"Number of Virtual Disks\" out of place: the output is garbled");
        if (!mc_number(value, 65535, &n)) {
                _cleanup_free_ char *v = ctl_printable(value, 40);
                return ctl_text_fail(&p->c, "\"Number of Virtual Disks: %s\" is not a count", v);
        }
        p->adp.declared = n;
        p->adp.none = n == 0; /* the tool's own words for none in LdPdInfo */
        return 0;
}

static int mc_line(struct mc_parse *p, const struct ctl_line *t)
{
        bool blank = !*t->key && (!t->value || !*t->value);
        if (p->done)
                return blank ? 0 : ctl_text_fail(&p->c, "text after \"Exit Code\": the output is garbled");
        if (blank)
                return 0;
        if (ctl_key_eq(t->key, "Exit Code")) {
                if (mc_exit(&p->c, t->value) < 0 || mc_vd_end(p) < 0 || mc_adapter_end(p) < 0)
                        return -EINVAL;
                p->done = true;
                return 0;
        }
        int r = mc_adapter_line(p, t);
        if (r)
                return r < 0 ? r : 0;
        if (t->value && (ctl_key_eq(t->key, "Virtual Drive") || ctl_key_eq(t->key, "Virtual Disk")))
                return mc_vd_start(p, t);
        if (t->value && ctl_key_eq(t->key, "CacheCade Virtual Drive")) {
                /* an SSD cache, not a disk of the host: its lines are skipped */
                if (!p->adp.open)
                        return ctl_text_fail(&p->c, "a CacheCade drive before any adapter line");
                p->adp.caches++;
                p->in_cache = true;
                return mc_vd_end(p);
        }
        if (t->value && ctl_key_eq(t->key, "Number of Virtual Disks"))
                return mc_declared(p, t->value);
        if (p->vd.v)
                return mc_vd_line(&p->c, &p->vd, t);
        for (size_t i = 0; !p->in_cache && t->value && i < ELEMENTSOF(mc_fields); i++)
                if (ctl_key_in(t->key, mc_fields[i].names))
                        return ctl_text_fail(&p->c,
                                             "\"%s\" outside any virtual drive: its \"Virtual Drive: N "
                                             "(Target Id: T)\" line is missing; the output is garbled",
                                             mc_fields[i].names[0]);
        return 0;
}

int ctl_parse_megacli_ld(const char *buf, size_t len, const char *tool, const char *controller, struct ctl_list *l,
                         char **ret_err)
{
        (void)controller; /* the output names its adapters */
        struct mc_parse *p = xmalloc(sizeof *p);
        *p = (struct mc_parse){ .l = l };
        ctl_text_init(&p->c, tool, buf, len);
        size_t n0 = l->n;
        bool any = false;
        struct ctl_line t;
        int r;
        while ((r = ctl_text_next(&p->c, &t, ':')) > 0) {
                any = any || *t.key || (t.value && *t.value);
                if (mc_line(p, &t) < 0)
                        break;
        }
        if (!p->c.err && !any)
                ctl_text_fail(&p->c, "the output is empty: MegaCli printed nothing; run it by hand");
        else if (!p->c.err && !p->done)
                ctl_text_fail(&p->c,
                              "the output ends here without MegaCli's closing \"Exit Code: 0x00\": it is cut "
                              "short (or from a MegaCli too old to print one); run \"MegaCli64 -LdPdInfo -aALL\" "
                              "again");
        else if (!p->c.err && !p->adapters)
                ctl_text_fail(&p->c, "MegaCli printed no adapter, only its exit code: it sees no MegaRAID controller "
                                     "(none there, driver not loaded, or not run as root); \"MegaCli64 -AdpCount\" "
                                     "tells");
        r = ctl_text_finish(&p->c, l, n0, ret_err);
        ctl_wc_clear(&p->vd.wc); /* a VD left open by a failure */
        free(p);
        return r;
}

/* ---- -AdpGetPciInfo ------------------------------------------------------------------ */

struct mc_pci {
        unsigned adapter, line;
        unsigned v[3]; /* bus, device, function */
        bool has[3];
};

struct mc_pcis {
        struct mc_pci *v;
        size_t n;
};

static int mc_pci_complete(struct ctl_text *c, const struct mc_pcis *x)
{
        const struct mc_pci *e = x->n ? &x->v[x->n - 1] : NULL;
        if (e && !(e->has[0] && e->has[1] && e->has[2]))
                return ctl_text_fail(c,
                                     "controller %u (line %u) lacks one of \"Bus Number\", \"Device Number\", "
                                     "\"Function Number\": the output is cut short or garbled",
                                     e->adapter, e->line);
        return 0;
}

static int mc_pci_field(struct ctl_text *c, struct mc_pcis *x, const struct ctl_line *t, size_t i)
{
        static const char *const what[3] = { "bus", "device", "function" };
        static const unsigned max[3] = { 0xff, 0x1f, 0x7 };
        struct mc_pci *e = x->n ? &x->v[x->n - 1] : NULL;
        size_t n = t->value ? strspn(t->value, "0123456789abcdefABCDEF") : 0;
        unsigned long v = n && n <= 4 && !t->value[n] ? strtoul(t->value, NULL, 16) : ULONG_MAX;
        if (!e || e->has[i])
                return ctl_text_fail(c, "a PCI %s number out of place: the output is garbled", what[i]);
        if (v > max[i]) {
                _cleanup_free_ char *p = ctl_printable(t->value ? t->value : "", 40);
                return ctl_text_fail(c, "\"%s\" is not a PCI %s number (hex, at most %x)", p, what[i], max[i]);
        }
        e->v[i] = (unsigned)v;
        e->has[i] = true;
        return 0;
}

static int mc_pci_line(struct ctl_text *c, struct mc_pcis *x, const struct ctl_line *t, bool *done)
{
        static const char *const keys[3] = { "Bus Number", "Device Number", "Function Number" };
        const char *s;
        unsigned no;
        if (*done)
                return *t->key || t->value ? ctl_text_fail(c, "text after \"Exit Code\": the output is garbled") : 0;
        if (ctl_key_eq(t->key, "Exit Code")) {
                *done = true;
                return mc_exit(c, t->value) < 0 ? -EINVAL : mc_pci_complete(c, x);
        }
        if (!t->value && ctl_key_prefix(t->key, "PCI information for Controller", &s)) {
                s += strspn(s, " \t");
                if (!mc_digits(&s, &no) || *s || no > MC_MAX_ADAPTER)
                        return ctl_text_fail(c, "\"PCI information for Controller\" names no controller number: the "
                                                "output is garbled");
                if (mc_pci_complete(c, x) < 0)
                        return -EINVAL;
                for (size_t i = 0; i < x->n; i++)
                        if (x->v[i].adapter == no)
                                return ctl_text_fail(c, "controller %u a second time: the output is garbled", no);
                x->v = xrealloc(x->v, (x->n + 1) * sizeof *x->v);
                x->v[x->n++] = (struct mc_pci){ .adapter = no, .line = c->no };
                return 0;
        }
        for (size_t i = 0; i < 3; i++)
                if (ctl_key_eq(t->key, keys[i]))
                        return mc_pci_field(c, x, t, i);
        _cleanup_free_ char *key = ctl_printable(t->key, 40);
        if (x->n && t->value)
                return ctl_text_fail(c,
                                     "\"%s\" in the PCI information of controller %u: not a line MegaCli prints "
                                     "there; the output is garbled",
                                     key, x->v[x->n - 1].adapter);
        return 0; /* the "-----" rule, the leading CR line */
}

/* Sets pci on the records of each controller; none set unless all can be. */
static int mc_pci_apply(struct ctl_text *c, const struct mc_pcis *x, const char *tool, struct ctl_list *l)
{
        char **addr = xmalloc((x->n ? x->n : 1) * sizeof *addr);
        int r = 0;
        for (size_t i = 0; i < x->n; i++) {
                const struct mc_pci *e = &x->v[i];
                /* MegaCli prints no PCI domain: the matcher confirms the device is a megaraid_sas one */
                addr[i] = xasprintf("0000:%02x:%02x.%x", e->v[0], e->v[1], e->v[2]);
                char id[16];
                snprintf(id, sizeof id, "%u", e->adapter);
                for (size_t k = 0; k < l->n && !r; k++)
                        if (streq_ptr(l->v[k].tool, tool) && streq_ptr(l->v[k].controller, id) && l->v[k].pci &&
                            strcmp(l->v[k].pci, addr[i]))
                                r = ctl_text_fail(c, "controller %u is at %s, but its records already say %s",
                                                  e->adapter, addr[i], l->v[k].pci);
        }
        for (size_t i = 0; i < x->n; i++) {
                char id[16];
                snprintf(id, sizeof id, "%u", x->v[i].adapter);
                for (size_t k = 0; k < l->n && !r; k++)
                        if (streq_ptr(l->v[k].tool, tool) && streq_ptr(l->v[k].controller, id))
                                ctl_set_str(&l->v[k].pci, addr[i], 16);
                free(addr[i]);
        }
        free(addr);
        return r;
}

int ctl_parse_megacli_pci(const char *buf, size_t len, const char *tool, const char *controller, struct ctl_list *l,
                          char **ret_err)
{
        (void)controller; /* the output names its controllers */
        struct ctl_text c;
        ctl_text_init(&c, tool, buf, len);
        struct mc_pcis x = { 0 };
        bool done = false;
        size_t n0 = l->n;
        struct ctl_line t;
        int r;
        while ((r = ctl_text_next(&c, &t, ':')) > 0)
                if (mc_pci_line(&c, &x, &t, &done) < 0)
                        break;
        if (!c.err && !done)
                ctl_text_fail(&c,
                              "the output ends here without MegaCli's closing \"Exit Code: 0x00\": it is cut short; "
                              "run \"MegaCli64 -AdpGetPciInfo -aALL\" again");
        else if (!c.err && !x.n)
                ctl_text_fail(&c, "no \"PCI information for Controller N\": is it \"MegaCli64 -AdpGetPciInfo -aALL\"?");
        if (!c.err)
                mc_pci_apply(&c, &x, tool, l);
        free(x.v);
        return ctl_text_finish(&c, l, n0, ret_err);
}

/* ---- -AdpCount: is there a MegaRAID adapter at all ----------------------------- */

/* "Controller Count: N." then "Exit Code: 0xNN", where MegaCli makes the exit
 * code the count (0x01 for one adapter: not a failure). A node with MegaCli
 * installed and no adapter says "Controller Count: 0.", and its -LdPdInfo
 * prints nothing but "Exit Code: 0x00", which cannot be told from a cut-short
 * output: the count is asked first, and the rest only when it is not 0. */
int ctl_follow_megacli_count(const char *buf, size_t len, const char *tool, const char *id, struct ctl_nexts *next,
                             char **ret_err)
{
        (void)id;
        struct ctl_text c;
        ctl_text_init(&c, tool, buf, len);
        struct ctl_line t;
        bool counted = false, ended = false;
        unsigned count = 0, code = 0;
        int r;
        while ((r = ctl_text_next(&c, &t, ':')) > 0 && !c.err) {
                const char *v = t.value ? t.value : "";
                if (!*t.key && !t.value)
                        continue;
                if (ctl_key_eq(t.key, "Controller Count") && !counted) {
                        char num[16];
                        size_t n = strspn(v, "0123456789");
                        snprintf(num, sizeof num, "%.*s", n < sizeof num ? (int)n : 0, v);
                        if (!n || n > 3 || (v[n] && strcmp(v + n, ".")))
                                ctl_text_fail(&c, "\"Controller Count\" is not a count such as \"1.\"");
                        count = (unsigned)strtoul(num, NULL, 10);
                        counted = true;
                } else if (ctl_key_eq(t.key, "Exit Code") && counted && !ended) {
                        if (!mc_exit_value(v, &code) || code != count)
                                ctl_text_fail(&c, "\"Exit Code\" is not the count (MegaCli exits with the number "
                                                  "of adapters it counted)");
                        ended = true;
                } else
                        ctl_text_fail(&c, "a line that is not MegaCli's \"Controller Count: N.\" and \"Exit Code\"");
        }
        if (!c.err && (!counted || !ended))
                ctl_text_fail(&c, "no \"Controller Count: N.\" with its \"Exit Code\": is it \"MegaCli64 -AdpCount\"?");
        struct ctl_list none = {0};
        if (ctl_text_finish(&c, &none, 0, ret_err) < 0)
                return -EINVAL;
        if (count) { /* -LdPdInfo -aALL, then -AdpGetPciInfo -aALL */
                ctl_nexts_add(next, 1, "");
                ctl_nexts_add(next, 2, "");
        }
        return 0;
}
