/* SPDX-License-Identifier: GPL-2.0-or-later
 * The controller parsers on their field fixtures changed (ctl_field.h reads
 * the fixtures): cut short, or garbled line by line. What holds for every
 * tool, the figures of a changed output never being other figures:
 *   - a parse returns 0 with no error, or -EINVAL with one error in printable
 *     ASCII that starts "<tool> output" and nothing added to the list
 *     (ctl_run);
 *   - a cut output fails; or, where the whole output parses, it gives at most
 *     the whole output's records and commands, the first ones, each record
 *     with the fields the test names the same and its identifiers the whole's
 *     or none (ctl_check_cut); a cut of an output that fails fails too;
 *   - a garbled output (a line deleted, doubled, replaced, swapped with the
 *     next, a NUL byte in it or before it, the value after its first ':'
 *     garbled: ctl_garble_lines) fails; or gives records of the whole output,
 *     each with the whole's figures or an unknown geometry (no full stripe)
 *     and a note, its identifiers the whole's or none (ctl_check_garbled).
 * What one tool allows or holds beyond that (a tw_cli controller row lost, a
 * MegaCli reconstruction, an arcconf RAID 0 losing a member, the byte a NUL
 * error names) stays in the tool's test, as do the cuts of a JSON document. */
#pragma once

#include "ctl_field.h"

/* The fields of a record that ctl_differs compares. */
enum {
        CTL_F_VD = 1u << 0,       /* controller and vd */
        CTL_F_GEOMETRY = 1u << 1, /* level, strip, drives per span, spans, data disks, full stripe */
        CTL_F_STATE = 1u << 2,
        CTL_F_REPORTED = 1u << 3, /* the tool's own full stripe */
        CTL_F_NAA = 1u << 4,
        CTL_F_OS = 1u << 5, /* the OS name */
        CTL_F_SERIAL = 1u << 6,
        CTL_F_ADDR = 1u << 7, /* the SCSI address */
        CTL_F_PCI = 1u << 8,
};

/* The first field where a is not b: of same, any difference; of kept (the
 * strings), a value of a that is not b's (a may lack it). NULL when none. */
static const char *ctl_differs(const struct ctl_vd *a, const struct ctl_vd *b, unsigned same, unsigned kept)
{
        const struct {
                unsigned f;
                const char *name, *x, *y;
        } s[] = {
                { CTL_F_VD, "controller", a->controller, b->controller },
                { CTL_F_VD, "vd", a->vd, b->vd },
                { CTL_F_GEOMETRY, "level", a->level, b->level },
                { CTL_F_STATE, "state", a->state, b->state },
                { CTL_F_NAA, "naa", a->naa, b->naa },
                { CTL_F_OS, "OS name", a->os_name, b->os_name },
                { CTL_F_SERIAL, "serial", a->serial, b->serial },
                { CTL_F_ADDR, "SCSI address", a->scsi_addr, b->scsi_addr },
                { CTL_F_PCI, "PCI address", a->pci, b->pci },
        };
        for (size_t i = 0; i < ELEMENTSOF(s); i++)
                if (((same & s[i].f) || ((kept & s[i].f) && s[i].x)) && !streq_ptr(s[i].x, s[i].y))
                        return s[i].name;
        const struct {
                unsigned f;
                const char *name;
                uint64_t x, y;
        } n[] = {
                { CTL_F_GEOMETRY, "strip", a->strip_bytes, b->strip_bytes },
                { CTL_F_GEOMETRY, "drives per span", a->drives_per_span, b->drives_per_span },
                { CTL_F_GEOMETRY, "spans", a->spans, b->spans },
                { CTL_F_GEOMETRY, "data disks", a->data_disks, b->data_disks },
                { CTL_F_GEOMETRY, "full stripe", a->full_stripe_bytes, b->full_stripe_bytes },
                { CTL_F_REPORTED, "reported full stripe", a->reported_full_stripe_bytes,
                  b->reported_full_stripe_bytes },
        };
        for (size_t i = 0; i < ELEMENTSOF(n); i++)
                if ((same & n[i].f) && n[i].x != n[i].y)
                        return n[i].name;
        return NULL;
}

/* v's figures, for a message. */
static const char *ctl_figures(const struct ctl_vd *v, char *out, size_t size)
{
        snprintf(out, size, "%s/%s %s, %u x %u drives, %u data x %llu = %llu, %s", v->controller ? v->controller : "-",
                 v->vd ? v->vd : "-", v->level ? v->level : "-", v->drives_per_span, v->spans, v->data_disks,
                 (unsigned long long)v->strip_bytes, (unsigned long long)v->full_stripe_bytes,
                 v->state ? v->state : "-");
        return out;
}

/* The record of l with controller ctl and vd id vd, or NULL. */
static const struct ctl_vd *ctl_find_vd(const struct ctl_list *l, const char *ctl, const char *vd)
{
        for (size_t i = 0; i < l->n; i++)
                if (streq_ptr(l->v[i].controller, ctl) && streq_ptr(l->v[i].vd, vd))
                        return &l->v[i];
        return NULL;
}

/* An error of tool's parser: starts "<tool> output", printable ASCII only. */
static void ctl_check_error(const char *what, const char *tool, const char *err)
{
        size_t n = strlen(tool);
        if (!err || strncmp(err, tool, n) || strncmp(err + n, " output", 7))
                fail_msg("%s: error \"%s\" does not start with \"%s output\"", what, err ? err : "(none)", tool);
        for (const char *p = err; *p; p++)
                if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
                        fail_msg("%s: byte 0x%02x in the error", what, (unsigned char)*p);
}

/* ---- one parse ------------------------------------------------------------------------- */

/* One parse (a follower: the commands) and its result. */
struct ctl_outcome {
        int r;
        char *err;
        struct ctl_list l;
        struct ctl_nexts nx;
};

/* Runs p (the parser or the follower of a ctl_field_parser) on len bytes of
 * buf, arg the controller or id its command was for; checks the result's
 * form (see the top). */
static void ctl_run(const char *what, const struct ctl_field_parser *p, const char *arg, const char *buf, size_t len,
                    struct ctl_outcome *o)
{
        *o = (struct ctl_outcome){ 0 };
        o->r = p->follow ? p->follow(buf, len, p->tool, arg, &o->nx, &o->err)
                         : p->parse(buf, len, p->tool, arg, &o->l, &o->err);
        if ((o->r != 0 && o->r != -EINVAL) || (o->r == 0) != (o->err == NULL))
                fail_msg("%s: returned %d with error \"%s\"", what, o->r, o->err ? o->err : "(none)");
        if (o->r < 0 && (o->l.n || o->nx.n))
                fail_msg("%s: a failed parse left %zu records and %zu commands", what, o->l.n, o->nx.n);
        if (o->r < 0)
                ctl_check_error(what, p->tool, o->err);
}

static void ctl_outcome_free(struct ctl_outcome *o)
{
        ctl_list_free(&o->l);
        ctl_nexts_free(&o->nx);
        free(o->err);
        *o = (struct ctl_outcome){ 0 };
}

/* The fixture field/<sub>/<name> (*len bytes), and in *full its whole parse
 * by p for arg. */
static char *ctl_whole(const char *sub, const char *name, const struct ctl_field_parser *p, const char *arg,
                       size_t *len, struct ctl_outcome *full)
{
        char *buf = ctl_field_file(sub, name, len);
        ctl_run(name, p, arg, buf, *len, full);
        return buf;
}

/* ---- cut short ------------------------------------------------------------------------- */

/* A cut output's parse against the whole's: see the top; same and kept are
 * CTL_F_ sets (ctl_differs). */
static void ctl_check_cut(const char *what, const struct ctl_outcome *full, const struct ctl_outcome *cut,
                          unsigned same, unsigned kept)
{
        if (cut->r < 0)
                return;
        if (full->r < 0)
                fail_msg("%s: parses where the whole output does not", what);
        if (cut->l.n > full->l.n || cut->nx.n > full->nx.n)
                fail_msg("%s: %zu records and %zu commands, the whole output %zu and %zu", what, cut->l.n, cut->nx.n,
                         full->l.n, full->nx.n);
        for (size_t i = 0; i < cut->l.n; i++) {
                const char *d = ctl_differs(&cut->l.v[i], &full->l.v[i], same, kept);
                char a[300], b[300];
                if (d)
                        fail_msg("%s: record %zu (%s) changed its %s (the whole output: %s)", what, i,
                                 ctl_figures(&cut->l.v[i], a, sizeof a), d, ctl_figures(&full->l.v[i], b, sizeof b));
        }
        for (size_t i = 0; i < cut->nx.n; i++)
                if (cut->nx.v[i].step != full->nx.v[i].step || strcmp(cut->nx.v[i].id, full->nx.v[i].id))
                        fail_msg("%s: command %zu changed (%u:%s)", what, i, cut->nx.v[i].step, cut->nx.v[i].id);
}

/* A tool's own rule on a cut: the cut's len bytes of the whole output's
 * whole, their parse and the whole's. */
typedef void ctl_cut_fn(const char *what, const char *buf, size_t len, size_t whole, const struct ctl_outcome *cut,
                        const struct ctl_outcome *full);

/* Where ctl_cut_all cuts, and what a cut's record keeps of the whole's. */
struct ctl_cuts {
        size_t every;     /* after every that many bytes; 0: after each line end (and at the end) */
        unsigned same;    /* CTL_F_ fields kept exactly */
        unsigned kept;    /* CTL_F_ identifiers kept or lost, never changed */
        ctl_cut_fn *also; /* or NULL */
};

/* Parses each cut of buf (from 0 or the first line end to the whole), p on
 * a copy of just those bytes, and checks it against full, the whole's parse:
 * ctl_check_cut, then c->also. */
static void ctl_cut_all(const char *name, const struct ctl_field_parser *p, const char *arg, const char *buf,
                        size_t len, const struct ctl_outcome *full, const struct ctl_cuts *c)
{
        for (size_t cut = 0; cut <= len; cut++) {
                if (cut < len && (c->every ? cut % c->every : !cut || buf[cut - 1] != '\n'))
                        continue;
                char what[400];
                snprintf(what, sizeof what, "%.200s cut after byte %zu", name, cut);
                char *part = xmalloc(cut + 1); /* its own block: a read past the cut is one past the block */
                memcpy(part, buf, cut);
                struct ctl_outcome o;
                ctl_run(what, p, arg, part, cut, &o);
                ctl_check_cut(what, full, &o, c->same, c->kept);
                if (c->also)
                        c->also(what, part, cut, len, &o, full);
                ctl_outcome_free(&o);
                free(part);
        }
}

/* ---- garbled --------------------------------------------------------------------------- */

/* What a garbled output's record keeps of the whole output's. */
struct ctl_keeps {
        unsigned always; /* CTL_F_ fields kept exactly (besides controller and vd) */
        unsigned known;  /* with a geometry, kept exactly (besides the geometry) */
        unsigned ids;    /* CTL_F_ identifiers kept or lost, never changed */
        unsigned flags;  /* CTL_K_ */
};
enum {
        CTL_K_ALL = 1u << 0,   /* every record of the whole output, in its order; else any of them */
        CTL_K_BARE = 1u << 1,  /* an unknown geometry not the whole's keeps no data disks */
        CTL_K_GAINS = 1u << 2, /* a record may get a geometry where the whole's has none */
};

/* A garbled output's parse against the whole's (see the top). */
static void ctl_check_garbled(const char *what, const struct ctl_outcome *full, const struct ctl_outcome *g,
                              const struct ctl_keeps *k)
{
        if (g->r < 0)
                return;
        if ((k->flags & CTL_K_ALL) && g->l.n != full->l.n)
                fail_msg("%s: %zu records where the whole output gives %zu", what, g->l.n, full->l.n);
        for (size_t i = 0; i < g->l.n; i++) {
                const struct ctl_vd *v = &g->l.v[i];
                const struct ctl_vd *w =
                        (k->flags & CTL_K_ALL) ? &full->l.v[i] : ctl_find_vd(&full->l, v->controller, v->vd);
                char a[300], b[300];
                if (!w)
                        fail_msg("%s: a record %s the whole output does not have", what, ctl_figures(v, a, sizeof a));
                const char *d = ctl_differs(v, w, CTL_F_VD | k->always, k->ids);
                if (d)
                        fail_msg("%s: record %zu (%s) changed its %s (the whole output: %s)", what, i,
                                 ctl_figures(v, a, sizeof a), d, ctl_figures(w, b, sizeof b));
                d = ctl_differs(v, w, CTL_F_GEOMETRY | k->known, 0);
                if (v->full_stripe_bytes && d && !((k->flags & CTL_K_GAINS) && !w->full_stripe_bytes))
                        fail_msg("%s: record %zu (%s) changed its %s (the whole output: %s)", what, i,
                                 ctl_figures(v, a, sizeof a), d, ctl_figures(w, b, sizeof b));
                if (!v->full_stripe_bytes && !v->note)
                        fail_msg("%s: record %zu (%s) has no geometry and no note", what, i,
                                 ctl_figures(v, a, sizeof a));
                if (!v->full_stripe_bytes && (k->flags & CTL_K_BARE) && v->data_disks && d)
                        fail_msg("%s: record %zu (%s) has no geometry but data disks (the whole output: %s)", what, i,
                                 ctl_figures(v, a, sizeof a), ctl_figures(w, b, sizeof b));
        }
}

/* The ways ctl_garble_lines changes a line. */
enum {
        CTL_DELETED = 1u << 0,
        CTL_DOUBLED = 1u << 1,
        CTL_REPLACED = 1u << 2,   /* by the noise line */
        CTL_SWAPPED = 1u << 3,    /* with the next line (the last line: with nothing) */
        CTL_NUL = 1u << 4,        /* its first byte (of an empty line: the newline) a NUL */
        CTL_NUL_BEFORE = 1u << 5, /* a NUL byte inserted before it */
        CTL_VALUE = 1u << 6,      /* of a line with a ':', what follows the first up to the newline: the value text */
};
struct ctl_garbling {
        unsigned kinds;    /* CTL_DELETED ... */
        const char *noise; /* CTL_REPLACED: the line that replaces it */
        const char *value; /* CTL_VALUE: the text after the ':' */
};

/* One garbled output. */
struct ctl_variant {
        const char *what; /* "<name> line N <kind> ("<the line>")", for messages */
        size_t line;      /* from 1 */
        unsigned kind;    /* CTL_DELETED ... */
        const char *text; /* the line as it was, n bytes, without its newline */
        size_t n;
        const char *buf; /* the garbled output, len bytes (and a NUL) */
        size_t len;
};
typedef void ctl_variant_fn(const struct ctl_variant *v, void *ctx);

/* buf with bytes [a, b) replaced by the rl bytes of repl; NUL-terminated. */
static char *ctl_splice(const char *buf, size_t len, size_t a, size_t b, const char *repl, size_t rl, size_t *out_len)
{
        char *o = xmalloc(len - (b - a) + rl + 1);
        memcpy(o, buf, a);
        memcpy(o + a, repl, rl);
        memcpy(o + a + rl, buf + b, len - b);
        *out_len = len - (b - a) + rl;
        o[*out_len] = 0;
        return o;
}

/* The end of the line that starts at a: past its newline, or len. */
static size_t ctl_line_end(const char *buf, size_t len, size_t a)
{
        const char *nl = memchr(buf + a, '\n', len - a);
        return nl ? (size_t)(nl - buf) + 1 : len;
}

/* Calls fn with each variant of each line of buf that g asks for. */
static void ctl_garble_lines(const char *name, const char *buf, size_t len, const struct ctl_garbling *g,
                             ctl_variant_fn *fn, void *ctx)
{
        static const char *const kinds[] = { "deleted", "doubled",    "replaced",     "swapped",
                                             "NUL",     "NUL before", "value garbled" };
        const char *noise = g->noise ? g->noise : "", *value = g->value ? g->value : "";
        size_t b;
        for (size_t a = 0, line = 1; a < len; a = b, line++) {
                b = ctl_line_end(buf, len, a);
                size_t eol = b - (buf[b - 1] == '\n'), b2 = b < len ? ctl_line_end(buf, len, b) : len;
                const char *colon = memchr(buf + a, ':', eol - a);
                for (size_t k = 0; k < ELEMENTSOF(kinds); k++) {
                        unsigned kind = 1u << k;
                        if (!(g->kinds & kind) || (kind == CTL_VALUE && !colon))
                                continue;
                        size_t vl;
                        char *v, *pair;
                        switch (kind) {
                        case CTL_DELETED:
                                v = ctl_splice(buf, len, a, b, "", 0, &vl);
                                break;
                        case CTL_DOUBLED:
                                v = ctl_splice(buf, len, b, b, buf + a, b - a, &vl);
                                break;
                        case CTL_REPLACED:
                                v = ctl_splice(buf, len, a, b, noise, strlen(noise), &vl);
                                break;
                        case CTL_SWAPPED: /* [a, b2): the next line, then this one */
                                pair = xmalloc(b2 - a + 1);
                                memcpy(pair, buf + b, b2 - b);
                                memcpy(pair + (b2 - b), buf + a, b - a);
                                v = ctl_splice(buf, len, a, b2, pair, b2 - a, &vl);
                                free(pair);
                                break;
                        case CTL_NUL:
                                v = ctl_splice(buf, len, a, a + 1, "", 1, &vl);
                                break;
                        case CTL_NUL_BEFORE:
                                v = ctl_splice(buf, len, a, a, "", 1, &vl);
                                break;
                        default:
                                v = ctl_splice(buf, len, (size_t)(colon - buf) + 1, eol, value, strlen(value), &vl);
                                break;
                        }
                        char what[400];
                        snprintf(what, sizeof what, "%.200s line %zu %s (\"%.*s\")", name, line, kinds[k],
                                 (int)(eol - a > 48 ? 48 : eol - a), buf + a);
                        const struct ctl_variant var = { what, line, kind, buf + a, eol - a, v, vl };
                        fn(&var, ctx);
                        free(v);
                }
        }
}
