/* SPDX-License-Identifier: GPL-2.0-or-later
 * Broadcom (LSI, Avago) MegaRAID's current tools: storcli/perccli
 * ("/call/vall show all J") and storcli2/perccli2 JSON into controller
 * records. Pure: bytes in, records or one error out. MegaCli, their
 * predecessor, prints text: ctl_megacli.c.
 *
 * Both generations answer with {"Controllers": [{"Command Status": {...},
 * "Response Data": {...}}, ...]}, one entry per controller. The VDs are in
 * the response either as storcli 1 and perccli lay them out ("/c0/v1": [row],
 * "PDs for VD 1": [...], "VD1 Properties": {...}) or as storcli2 and perccli2
 * do ("Virtual Drives": [{"VD Info": row, "PDs": [...], "VD Properties":
 * {...}}]); "Virtual Drives" of bare rows is what "/cX/vY show J" (without
 * "all") gives. Either is read from either tool. Keys are matched in any case
 * and with any run of blanks (ctl_key_eq). */
#include "discover/ctl_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- keys in any case ------------------------------------------------------------ */

/* o[key], the key matched as ctl_key_eq does; NULL if o is no object or has none. */
static json_object *bc_get(json_object *o, const char *key)
{
        json_object *v;
        if (!o || !json_object_is_type(o, json_type_object))
                return NULL;
        if (json_object_object_get_ex(o, key, &v))
                return v;
        json_object_object_foreach(o, k, val)
        {
                if (ctl_key_eq(k, key))
                        return val;
        }
        return NULL;
}

static json_object *bc_typed(json_object *o, const char *key, json_type type)
{
        json_object *v = bc_get(o, key);
        return v && json_object_is_type(v, type) ? v : NULL;
}

static const char *bc_str(json_object *o, const char *key)
{
        json_object *v = bc_typed(o, key, json_type_string);
        return v ? json_object_get_string(v) : NULL;
}

/* o[key] as a count 1..4096 (an integer or a string of digits): 1 found, 0
 * absent or null, -1 anything else. */
static int bc_count(json_object *o, const char *key, unsigned *ret)
{
        json_object *v = bc_get(o, key);
        *ret = 0;
        if (!v || json_object_is_type(v, json_type_null))
                return 0;
        if (json_object_is_type(v, json_type_int)) {
                int64_t n = json_object_get_int64(v);
                if (n < 1 || n > 4096)
                        return -1;
                *ret = (unsigned)n;
                return 1;
        }
        const char *s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
        char *end = NULL;
        unsigned long n = s && isdigit((unsigned char)*s) ? strtoul(s, &end, 10) : 0;
        if (!n || *end || n > 4096)
                return -1;
        *ret = (unsigned)n;
        return 1;
}

/* ---- words ---------------------------------------------------------------------------- */

/* "Optl" / "Optimal" ... → one of the states of struct ctl_vd. */
static const char *bc_state(const char *raw)
{
        static const struct {
                const char *raw, *name;
        } map[] = {
                {"Optl", "optimal"},       {"Optimal", "optimal"},         {"Dgrd", "degraded"},
                {"Degraded", "degraded"},  {"Pdgd", "partially-degraded"}, {"Partially Degraded", "partially-degraded"},
                {"OfLn", "offline"},       {"Offln", "offline"},           {"Offline", "offline"},
                {"Rec", "recovering"},     {"Recovery", "recovering"},     {"Frgn", "foreign"},
                {"Foreign", "foreign"},    {"Failed", "failed"},           {"Rbld", "rebuilding"},
                {"Rebuild", "rebuilding"},
        };
        for (size_t i = 0; raw && i < ELEMENTSOF(map); i++)
                if (!strcasecmp(raw, map[i].raw))
                        return map[i].name;
        return ctl_state_of(raw);
}

/* What the tools say, in "Description", when there is nothing to read: no VD
 * on a controller ("No VD's have been configured."), no controller at all
 * ("No Controller found"), or a controller that has no VDs to show (an HBA:
 * "Un-supported command"). Anything else that is not "Success" fails. */
static bool bc_none_words(const char *d)
{
        static const char *const words[] = {"No VD",        "No Virtual Drive", "No Controller found",
                                            "No Controllers found", "Un-supported command", NULL};
        for (size_t i = 0; d && words[i]; i++)
                if (strcasestr(d, words[i]))
                        return true;
        return false;
}

/* ---- the records ------------------------------------------------------------------------- */

struct bc {
        struct ctl_json c;
        struct ctl_list *l;
        size_t n0;
};

/* A drive of the VD's drive list rebuilding ("State": "Rbld"; storcli2:
 * "Status": "Rebuild"). */
static bool bc_rebuilding(json_object *pds)
{
        size_t n = pds && json_object_is_type(pds, json_type_array) ? json_object_array_length(pds) : 0;
        for (size_t i = 0; i < n; i++) {
                json_object *pd = json_object_array_get_idx(pds, i);
                const char *st = bc_str(pd, "State"), *st2 = bc_str(pd, "Status");
                if ((st && !strcasecmp(st, "Rbld")) || (st2 && !strcasecmp(st2, "Rebuild")))
                        return true;
        }
        return false;
}

static int bc_strip(struct bc *b, struct ctl_vd *v, const char *where, json_object *props)
{
        json_object *s = bc_get(props, "Strip Size");
        if (!s || json_object_is_type(s, json_type_null))
                return 0;
        const char *t = json_object_is_type(s, json_type_string) ? json_object_get_string(s) : NULL;
        if (t && ctl_parse_strip(t, &v->strip_bytes) == 0)
                return 0;
        _cleanup_free_ char *p = ctl_printable(t ? t : json_object_to_json_string(s), 40);
        return ctl_json_fail(&b->c, "%s: \"Strip Size\" is \"%s\", expected a size such as \"256 KB\"", where, p);
}

static int bc_ids(struct bc *b, struct ctl_vd *v, const char *where, json_object *props)
{
        v->os_name = ctl_dev_word(bc_str(props, "OS Drive Name")); /* "/dev/sdb"; "" when not exposed */
        const char *naa = bc_str(props, "SCSI NAA Id");
        v->naa = ctl_naa(naa);
        if (naa && *naa && !v->naa) {
                _cleanup_free_ char *p = ctl_printable(naa, 40);
                return ctl_json_fail(&b->c, "%s: \"SCSI NAA Id\" is \"%s\", expected 16 or 32 hex digits", where, p);
        }
        return 0;
}

/* Drives per span and spans. "Number of Drives" (storcli2, and storcli for a
 * VD of one span) is the span's when there is one span; with several only
 * "Number of Drives Per Span" says it. */
static int bc_counts(struct bc *b, struct ctl_vd *v, const char *where, json_object *props)
{
        unsigned drives = 0;
        if (bc_count(props, "Number of Drives Per Span", &v->drives_per_span) < 0 ||
            bc_count(props, "Span Depth", &v->spans) < 0 || bc_count(props, "Number of Drives", &drives) < 0)
                return ctl_json_fail(&b->c, "%s: \"Number of Drives Per Span\", \"Number of Drives\" and \"Span "
                                            "Depth\" must be counts", where);
        if (!v->drives_per_span && v->spans == 1)
                v->drives_per_span = drives;
        if (!v->drives_per_span && drives)
                ctl_add_note(v, xasprintf("\"Number of Drives\" %u over %u spans: whether per span or in all is not "
                                          "printed", drives, v->spans));
        return 0;
}

/* The write cache: the row's current mode ("Cache": "RWBD"; storcli2
 * "CurrentCache": "NR,WB"), the configured one from the properties ("Write
 * Cache(initial setting)": "WriteBack"; storcli2 "DefaultCache" in the row). */
static void bc_cache(struct ctl_vd *v, json_object *info, json_object *props)
{
        struct ctl_wc w = {0};
        for (size_t i = 0; ctl_wc_storcli_keys[i].key; i++) {
                const char *k = ctl_wc_storcli_keys[i].key, *s = bc_str(info, k);
                ctl_wc_take(&w, ctl_wc_storcli_keys, k, s ? s : bc_str(props, k));
        }
        ctl_wc_end(&w, NULL, v);
}

/* One VD: info is its row (DG/VD, TYPE, State), props its properties (NULL
 * if the output has none), pds its drive list. */
static int bc_vd(struct bc *b, const char *ctl, const char *vd, const char *where, json_object *info,
                 json_object *props, json_object *pds)
{
        if (ctl_find(b->l, b->n0, ctl, vd))
                return ctl_json_fail(&b->c, "%s: VD %s of controller %s a second time: the output is garbled; run the "
                                            "tool again", where, vd, ctl);
        struct ctl_vd *v = ctl_add(b->l, b->c.tool, ctl);
        v->vd = xstrdup(vd);
        const char *type = bc_str(info, "TYPE"), *state = bc_str(info, "State");
        if (!type || !state)
                return ctl_json_fail(&b->c, "%s has no \"TYPE\" and \"State\" strings", where);
        v->level_raw = ctl_printable(type, 32);
        v->level = xstrdup(ctl_level_of(type));
        v->state_raw = ctl_printable(state, 32);
        v->state = xstrdup(bc_state(state));
        bc_cache(v, info, props);
        if (bc_strip(b, v, where, props) < 0 || bc_ids(b, v, where, props) < 0 || bc_counts(b, v, where, props) < 0)
                return -EINVAL;
        /* MegaRAID prints a RAID10 built as one span of 4 or more drives as "RAID1" */
        if (v->level && !strcmp(v->level, "raid1") && v->drives_per_span >= 4) {
                free(v->level);
                v->level = xstrdup("raid10");
        }
        if (!props)
                ctl_add_note(v, xstrdup("no VD properties in the output (not \"show all\"?)"));
        if (strstr(v->state, "degraded") && bc_rebuilding(pds)) {
                free(v->state);
                v->state = xstrdup("rebuilding");
        }
        ctl_vd_geometry(v);
        return 0;
}

/* "0/1" → "1" into vd; false if not "<digits>/<digits>". */
static bool bc_dgvd(const char *s, char vd[static 16])
{
        size_t dg = s ? strspn(s, "0123456789") : 0;
        if (!s || s[dg] != '/')
                return false;
        size_t n = strspn(s + dg + 1, "0123456789");
        if (!n || n >= 16 || s[dg + 1 + n])
                return false;
        memcpy(vd, s + dg + 1, n);
        vd[n] = 0;
        return true;
}

/* storcli 1: "/c0/v1": [row] with "VD1 Properties" and "PDs for VD 1" beside. */
static int bc_keyed(struct bc *b, const char *ctl, json_object *rd, const char *key, json_object *rows)
{
        unsigned cn, vn;
        int end = 0;
        char where[96], vd[16], dv[16], pk[40], dk[40];
        sscanf(key, "/c%u/v%u%n", &cn, &vn, &end);
        snprintf(where, sizeof where, "controller %s, \"%.40s\"", ctl, key);
        snprintf(vd, sizeof vd, "%u", vn);
        snprintf(dv, sizeof dv, "%u", cn);
        if (strcmp(ctl, dv))
                return ctl_json_fail(&b->c, "%s: a VD of controller %u in controller %s's response: the output is "
                                            "garbled", where, cn, ctl);
        json_object *row = json_object_is_type(rows, json_type_array) && json_object_array_length(rows) == 1
                                   ? json_object_array_get_idx(rows, 0)
                                   : NULL;
        if (!json_object_is_type(row, json_type_object))
                return ctl_json_fail(&b->c, "%s is not an array of one VD row", where);
        if (!bc_dgvd(bc_str(row, "DG/VD"), dv) || strcmp(dv, vd))
                return ctl_json_fail(&b->c, "%s: its row's \"DG/VD\" does not name VD %s", where, vd);
        snprintf(pk, sizeof pk, "VD%u Properties", vn);
        snprintf(dk, sizeof dk, "PDs for VD %u", vn);
        return bc_vd(b, ctl, vd, where, row, bc_typed(rd, pk, json_type_object), bc_get(rd, dk));
}

/* storcli2: "Virtual Drives": [{"VD Info": row, "PDs": [...], "VD Properties": {...}}],
 * or bare rows ("/cX/vY show J"). */
static int bc_listed(struct bc *b, const char *ctl, json_object *vds)
{
        for (size_t i = 0; i < json_object_array_length(vds); i++) {
                json_object *e = json_object_array_get_idx(vds, i);
                json_object *info = bc_typed(e, "VD Info", json_type_object);
                json_object *row = info ? info : e;
                char where[80], vd[16];
                snprintf(where, sizeof where, "controller %s, \"Virtual Drives\"[%zu]", ctl, i);
                if (!bc_dgvd(bc_str(row, "DG/VD"), vd))
                        return ctl_json_fail(&b->c, "%s has no \"DG/VD\" such as \"0/1\"", where);
                json_object *props = info ? bc_typed(e, "VD Properties", json_type_object) : NULL;
                if (bc_vd(b, ctl, vd, where, row, props, info ? bc_get(e, "PDs") : NULL) < 0)
                        return -EINVAL;
        }
        return 0;
}

static bool bc_vd_key(const char *key)
{
        unsigned cn, vn;
        int end = 0;
        return sscanf(key, "/c%u/v%u%n", &cn, &vn, &end) == 2 && (size_t)end == strlen(key);
}

/* The VDs of one controller's "Response Data"; 0 found none, 1 found a VD table. */
static int bc_response(struct bc *b, const char *ctl, json_object *rd)
{
        int found = 0;
        json_object_object_foreach(rd, key, val)
        {
                if (bc_vd_key(key)) {
                        found = 1;
                        if (bc_keyed(b, ctl, rd, key, val) < 0)
                                return -EINVAL;
                } else if (ctl_key_eq(key, "Virtual Drives") && json_object_is_type(val, json_type_array)) {
                        found = 1;
                        if (bc_listed(b, ctl, val) < 0)
                                return -EINVAL;
                }
        }
        return found;
}

/* The controller's id in "Command Status" ("Controller": 0 or "0"), as a string. */
static char *bc_controller_id(json_object *cs)
{
        json_object *v = bc_get(cs, "Controller");
        if (v && json_object_is_type(v, json_type_int) && json_object_get_int64(v) >= 0)
                return xasprintf("%lld", (long long)json_object_get_int64(v));
        const char *s = v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
        size_t n = s ? strspn(s, "0123456789") : 0;
        return n && n < 12 && !s[n] ? xstrdup(s) : NULL;
}

/* A "Command Status" that is not Success and says no words of "none". */
static int bc_failed(struct bc *b, const char *ctl, json_object *cs, const char *desc)
{
        json_object *det = bc_typed(cs, "Detailed Status", json_type_array);
        json_object *d0 = det && json_object_array_length(det) ? json_object_array_get_idx(det, 0) : NULL;
        const char *why = bc_str(d0, "ErrMsg");
        _cleanup_free_ char *p = ctl_printable(desc ? desc : "", 120);
        _cleanup_free_ char *q = ctl_printable(why ? why : "", 120);
        return ctl_json_fail(&b->c, "controller %s: the command failed: \"%s\"%s%s%s", ctl ? ctl : "?", p,
                             why ? " (\"" : "", q, why ? "\")" : "");
}

static int bc_controller(struct bc *b, json_object *e, size_t i)
{
        json_object *cs = bc_typed(e, "Command Status", json_type_object);
        if (!cs)
                return ctl_json_fail(&b->c, "Controllers[%zu] has no \"Command Status\" object", i);
        _cleanup_free_ char *ctl = bc_controller_id(cs);
        const char *st = bc_str(cs, "Status"), *desc = bc_str(cs, "Description");
        bool none = bc_none_words(desc);
        if (!st)
                return ctl_json_fail(&b->c, "Controllers[%zu]: no \"Status\" in \"Command Status\"", i);
        if (strcasecmp(st, "Success"))
                return none ? 0 : bc_failed(b, ctl, cs, desc);
        json_object *rd = bc_typed(e, "Response Data", json_type_object);
        if (!ctl && !none)
                return ctl_json_fail(&b->c, "Controllers[%zu] has no \"Controller\" in its \"Command Status\"", i);
        if (!rd && none)
                return 0;
        if (!rd)
                return ctl_json_fail(&b->c, "controller %s: no \"Response Data\" object", ctl);
        int r = ctl ? bc_response(b, ctl, rd) : 0;
        if (r == 0 && !none)
                return ctl_json_fail(&b->c, "controller %s: the response holds no VD (\"/c%s/vN\" or \"Virtual "
                                            "Drives\") and does not say there is none: is it \"%s /call/vall show "
                                            "all J\"?", ctl, ctl, b->c.tool);
        return r < 0 ? r : 0;
}

/* json-c keeps the last of two equal keys: a "/cX/vY" printed twice (two
 * captures run together, a block repeated) is found in the bytes. */
static int bc_repeated_keys(struct bc *b, const char *buf, size_t len)
{
        struct bc_key {
                unsigned c, v;
        } seen[256];
        size_t n = 0;
        for (const char *p = buf; (p = memmem(p, len - (size_t)(p - buf), "\"/c", 3)); p += 3) {
                unsigned cn, vn;
                int end = 0;
                char tail[48];
                size_t k = (size_t)(len - (size_t)(p - buf)) < sizeof tail - 1 ? len - (size_t)(p - buf)
                                                                                 : sizeof tail - 1;
                memcpy(tail, p, k);
                tail[k] = 0;
                if (sscanf(tail, "\"/c%u/v%u\"%n", &cn, &vn, &end) != 2 || !end ||
                    tail[end + strspn(tail + end, " \t\r\n")] != ':')
                        continue;
                for (size_t i = 0; i < n; i++)
                        if (seen[i].c == cn && seen[i].v == vn)
                                return ctl_json_fail(&b->c, "\"/c%u/v%u\" twice in the output: the output is garbled "
                                                            "(two outputs run together?); run the tool again",
                                                     cn, vn);
                if (n < ELEMENTSOF(seen))
                        seen[n++] = (struct bc_key){cn, vn};
        }
        return 0;
}

static int bc_parse(const char *buf, size_t len, const char *tool, struct ctl_list *l, char **ret_err)
{
        struct bc b = {.c = {.tool = tool}, .l = l, .n0 = l->n};
        json_object *j = ctl_json_doc(&b.c, buf, len, false);
        json_object *ctls = j ? bc_typed(j, "Controllers", json_type_array) : NULL;
        int r = 0;
        if (j && !ctls)
                r = ctl_json_fail(&b.c, "no \"Controllers\" array at the top (is it \"%s /call/vall show all J\"?)",
                                  tool);
        if (ctls && !json_object_array_length(ctls))
                r = ctl_json_fail(&b.c, "an empty \"Controllers\" array: the output is garbled; run the tool again");
        if (ctls && r == 0)
                r = bc_repeated_keys(&b, buf, len);
        for (size_t i = 0; ctls && r == 0 && i < json_object_array_length(ctls); i++)
                r = bc_controller(&b, json_object_array_get_idx(ctls, i), i);
        json_object_put(j);
        return ctl_json_finish(&b.c, l, b.n0, ret_err);
}

int ctl_parse_storcli(const char *buf, size_t len, const char *tool, const char *controller, struct ctl_list *l,
                      char **ret_err)
{
        (void)controller; /* the JSON names its controllers */
        return bc_parse(buf, len, tool, l, ret_err);
}

/* storcli2/perccli2: the same reader; the layouts of both generations are
 * told apart by their keys, not by the tool's name. */
int ctl_parse_storcli2(const char *buf, size_t len, const char *tool, const char *controller, struct ctl_list *l,
                       char **ret_err)
{
        (void)controller;
        return bc_parse(buf, len, tool, l, ret_err);
}
