/* SPDX-License-Identifier: GPL-2.0-or-later
 * storcli/perccli ("/call/vall show all J"), storcli2/perccli2 and arcconf
 * ("GETCONFIGJSON N") JSON into controller records. Pure: bytes in, records
 * or one error out. */
#include "discover/ctl_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json.h>

/* ---- json-c helpers ------------------------------------------------------ */

static json_object *jobj(json_object *o, const char *key, json_type type)
{
        json_object *v;
        if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type))
                return NULL;
        return v;
}

static const char *jstring(json_object *o, const char *key)
{
        json_object *v = jobj(o, key, json_type_string);
        return v ? json_object_get_string(v) : NULL;
}

/* key as a count: 1 found (an integer, or a string of digits), 0 absent, -1 otherwise. */
static int jcount(json_object *o, const char *key, unsigned *ret)
{
        json_object *v;
        *ret = 0;
        if (!o || !json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null))
                return 0;
        if (json_object_is_type(v, json_type_int)) {
                int64_t n = json_object_get_int64(v);
                if (n < 1 || n > 4096)
                        return -1;
                *ret = (unsigned)n;
                return 1;
        }
        const char *s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
        char *end;
        unsigned long n = s && *s >= '0' && *s <= '9' ? strtoul(s, &end, 10) : 0;
        if (!n || *end || n > 4096)
                return -1;
        *ret = (unsigned)n;
        return 1;
}

/* The controller's id in "Command Status" ("Controller": 0 or "0"), as a string. */
static char *controller_id(json_object *cs)
{
        json_object *v;
        if (!cs || !json_object_object_get_ex(cs, "Controller", &v))
                return NULL;
        if (json_object_is_type(v, json_type_int) && json_object_get_int64(v) >= 0)
                return xasprintf("%lld", (long long)json_object_get_int64(v));
        if (json_object_is_type(v, json_type_string))
                return ctl_printable(json_object_get_string(v), 32);
        return NULL;
}

struct jctx {
        const char *tool;
        char *err;
};

static int fail(struct jctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct jctx *c, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        char *m = NULL;
        if (vasprintf(&m, fmt, ap) < 0)
                m = NULL;
        va_end(ap);
        if (!c->err)
                c->err = xasprintf("%s output: %s", c->tool, m ? m : "out of memory");
        free(m);
        return -EINVAL;
}

/* The whole buffer as one JSON document (white space around it allowed;
 * with trailing_ok, anything after it). */
static json_object *parse_doc(struct jctx *c, const char *buf, size_t len, bool trailing_ok)
{
        if (len > INT32_MAX) {
                fail(c, "%zu bytes is too long to be one", len);
                return NULL;
        }
        json_tokener *t = json_tokener_new();
        json_object *j = json_tokener_parse_ex(t, buf, (int)len);
        enum json_tokener_error e = json_tokener_get_error(t);
        size_t used = json_tokener_get_parse_end(t);
        json_tokener_free(t);
        if (e == json_tokener_continue || (!j && e == json_tokener_success)) {
                fail(c, "the JSON ends early, after %zu bytes (truncated?): run the tool again", len);
                return NULL;
        }
        if (!j) {
                fail(c, "not JSON at byte %zu: %s", used, json_tokener_error_desc(e));
                return NULL;
        }
        while (used < len && strchr(" \t\r\n", buf[used]))
                used++;
        if (used < len && !trailing_ok) {
                json_object_put(j);
                fail(c, "more than one JSON document: something follows at byte %zu", used);
                return NULL;
        }
        return j;
}

/* "Optl" / "Optimal" ... → one of the states of struct ctl_vd. */
static const char *state_name(const char *raw)
{
        static const struct {
                const char *raw, *name;
        } map[] = {
                {"Optl", "optimal"},       {"Optimal", "optimal"},         {"Dgrd", "degraded"},
                {"Degraded", "degraded"},  {"Pdgd", "partially-degraded"}, {"Partially Degraded", "partially-degraded"},
                {"OfLn", "offline"},       {"Offln", "offline"},           {"Offline", "offline"},         {"Rec", "recovering"},
                {"Recovery", "recovering"}, {"Frgn", "foreign"},           {"Foreign", "foreign"},
                {"Failed", "failed"},      {"Rbld", "rebuilding"},         {"Rebuild", "rebuilding"},
        };
        for (size_t i = 0; raw && i < ELEMENTSOF(map); i++)
                if (!strcasecmp(raw, map[i].raw))
                        return map[i].name;
        return "other";
}

/* "RAID6" → "raid6"; NULL when not a level storprov knows. */
static const char *level_name(const char *raw)
{
        static const char *const lv[] = {"raid0", "raid1", "raid5", "raid6", "raid00", "raid10", "raid50", "raid60"};
        for (size_t i = 0; raw && i < ELEMENTSOF(lv); i++)
                if (!strcasecmp(raw, lv[i]))
                        return lv[i];
        return NULL;
}

/* The fields both storcli generations share: TYPE, State, Strip Size, names. */
static int fill_common(struct jctx *c, struct ctl_vd *v, const char *where, json_object *info, json_object *props)
{
        const char *type = jstring(info, "TYPE"), *state = jstring(info, "State");
        if (!type || !state)
                return fail(c, "%s has no \"TYPE\" and \"State\" strings", where);
        v->level_raw = ctl_printable(type, 32);
        v->level = xstrdup(level_name(type));
        v->state_raw = ctl_printable(state, 32);
        v->state = xstrdup(state_name(state));
        const char *strip = jstring(props, "Strip Size");
        if (strip && ctl_parse_strip(strip, &v->strip_bytes) < 0) {
                _cleanup_free_ char *p = ctl_printable(strip, 40);
                return fail(c, "%s: \"Strip Size\" is \"%s\", expected a size such as \"256 KB\"", where, p);
        }
        const char *os = jstring(props, "OS Drive Name");
        if (os && *os)
                v->os_name = ctl_printable(os, 64);
        const char *naa = jstring(props, "SCSI NAA Id");
        v->naa = ctl_naa(naa);
        if (naa && *naa && !v->naa) {
                _cleanup_free_ char *p = ctl_printable(naa, 40);
                return fail(c, "%s: \"SCSI NAA Id\" is \"%s\", expected 16 or 32 hex digits", where, p);
        }
        return 0;
}

static int counts(struct jctx *c, struct ctl_vd *v, const char *where, json_object *props, const char *per_key)
{
        if (jcount(props, per_key, &v->drives_per_span) < 0 || jcount(props, "Span Depth", &v->spans) < 0)
                return fail(c, "%s: \"%s\" and \"Span Depth\" must be counts", where, per_key);
        return 0;
}

/* ---- storcli / perccli ----------------------------------------------------- */

/* A drive of "PDs for VD N" rebuilding ("State": "Rbld"). */
static bool any_rebuilding(json_object *pds)
{
        size_t n = pds ? json_object_array_length(pds) : 0;
        for (size_t i = 0; i < n; i++)
                if (streq_ptr(jstring(json_object_array_get_idx(pds, i), "State"), "Rbld"))
                        return true;
        return false;
}

static int storcli_vd(struct jctx *c, struct ctl_list *l, const char *ctl, json_object *rd, const char *key,
                      json_object *arr)
{
        unsigned cn, vn;
        int end = 0;
        if (sscanf(key, "/c%u/v%u%n", &cn, &vn, &end) != 2 || (size_t)end != strlen(key))
                return 0; /* another table of the response */
        json_object *info = json_object_array_length(arr) ? json_object_array_get_idx(arr, 0) : NULL;
        char pk[48], dk[48];
        snprintf(pk, sizeof pk, "VD%u Properties", vn);
        snprintf(dk, sizeof dk, "PDs for VD %u", vn);
        json_object *props = jobj(rd, pk, json_type_object);
        struct ctl_vd *v = ctl_add(l, c->tool, ctl);
        v->vd = xasprintf("%u", vn);
        char where[80];
        snprintf(where, sizeof where, "controller %s, \"%s\"", ctl, key);
        if (!json_object_is_type(info, json_type_object))
                return fail(c, "%s is not an array of one VD row", where);
        if (fill_common(c, v, where, info, props) < 0 || counts(c, v, where, props, "Number of Drives Per Span") < 0)
                return -EINVAL;
        /* storcli prints a RAID10 built as one span of 4+ drives as "RAID1" */
        if (v->level && !strcmp(v->level, "raid1") && v->drives_per_span >= 4) {
                free(v->level);
                v->level = xstrdup("raid10");
        }
        if (!props)
                v->note = xasprintf("no \"%s\" in the output (not \"show all\"?)", pk);
        if (strstr(v->state, "degraded") && any_rebuilding(jobj(rd, dk, json_type_array))) {
                free(v->state);
                v->state = xstrdup("rebuilding");
        }
        ctl_vd_geometry(v);
        return 0;
}

static int storcli2_vds(struct jctx *c, struct ctl_list *l, const char *ctl, json_object *rd);

/* A "Command Status" that is not Success: no VDs (fine) or an error. */
static int status_failed(struct jctx *c, const char *ctl, json_object *cs)
{
        const char *d = jstring(cs, "Description");
        if (!d)
                d = "";
        if (strcasestr(d, "No VD") || strcasestr(d, "No Virtual Drive"))
                return 1;
        _cleanup_free_ char *p = ctl_printable(d, 120);
        return fail(c, "controller %s: the command failed: \"%s\"", ctl ? ctl : "?", p);
}

static int storcli_controller(struct jctx *c, struct ctl_list *l, json_object *e, size_t i, bool gen2)
{
        json_object *cs = jobj(e, "Command Status", json_type_object);
        _cleanup_free_ char *ctl = controller_id(cs);
        if (!ctl)
                return fail(c, "Controllers[%zu] has no \"Command Status\" with a \"Controller\"", i);
        const char *st = jstring(cs, "Status");
        if (!st)
                return fail(c, "controller %s: no \"Status\" in \"Command Status\"", ctl);
        if (strcmp(st, "Success")) {
                int r = status_failed(c, ctl, cs);
                return r > 0 ? 0 : r;
        }
        json_object *rd = jobj(e, "Response Data", json_type_object);
        if (!rd)
                return fail(c, "controller %s: no \"Response Data\" object", ctl);
        if (gen2)
                return storcli2_vds(c, l, ctl, rd);
        json_object_object_foreach(rd, key, val)
        {
                if (json_object_is_type(val, json_type_array) && storcli_vd(c, l, ctl, rd, key, val) < 0)
                        return -EINVAL;
        }
        return 0;
}

static int parse_controllers(const char *buf, size_t len, const char *tool, bool gen2, struct ctl_list *l,
                             char **ret_err)
{
        struct jctx c = {.tool = tool};
        size_t n0 = l->n;
        json_object *j = parse_doc(&c, buf, len, false);
        json_object *ctls = jobj(j, "Controllers", json_type_array);
        int r = 0;
        if (j && !ctls)
                r = fail(&c, "no \"Controllers\" array at the top (is it \"%s /call/vall show all J\"?)", tool);
        for (size_t i = 0; ctls && r == 0 && i < json_object_array_length(ctls); i++)
                r = storcli_controller(&c, l, json_object_array_get_idx(ctls, i), i, gen2);
        json_object_put(j);
        if (c.err) {
                ctl_truncate(l, n0);
                *ret_err = c.err;
                return -EINVAL;
        }
        return 0;
}

int ctl_parse_storcli(const char *buf, size_t len, const char *tool, struct ctl_list *l, char **ret_err)
{
        return parse_controllers(buf, len, tool, false, l, ret_err);
}

/* ---- storcli2 / perccli2 ----------------------------------------------------- */

static int storcli2_vd(struct jctx *c, struct ctl_list *l, const char *ctl, json_object *e, size_t i)
{
        json_object *info = jobj(e, "VD Info", json_type_object);
        json_object *props = jobj(e, "VD Properties", json_type_object);
        char where[80];
        snprintf(where, sizeof where, "controller %s, \"Virtual Drives\"[%zu]", ctl, i);
        struct ctl_vd *v = ctl_add(l, c->tool, ctl);
        const char *dgvd = jstring(info, "DG/VD");
        const char *slash = dgvd ? strchr(dgvd, '/') : NULL;
        if (!info || !slash)
                return fail(c, "%s has no \"VD Info\" with a \"DG/VD\"", where);
        v->vd = ctl_printable(slash + 1, 16);
        if (fill_common(c, v, where, info, props) < 0)
                return -EINVAL;
        unsigned drives = 0;
        if (counts(c, v, where, props, "Number of Drives Per Span") < 0 ||
            jcount(props, "Number of Drives", &drives) < 0)
                return fail(c, "%s: \"Number of Drives\" must be a count", where);
        /* "Number of Drives" is the span's when there is one span; with
         * several, only "Number of Drives Per Span" says it */
        if (!v->drives_per_span && v->spans == 1)
                v->drives_per_span = drives;
        if (!v->drives_per_span && drives)
                v->note = xasprintf("\"Number of Drives\" %u over %u spans: whether per span or in all is not "
                                    "printed", drives, v->spans);
        if (v->level && !strcmp(v->level, "raid1") && v->drives_per_span >= 4) {
                free(v->level);
                v->level = xstrdup("raid10");
        }
        ctl_vd_geometry(v);
        return 0;
}

static int storcli2_vds(struct jctx *c, struct ctl_list *l, const char *ctl, json_object *rd)
{
        json_object *vds = jobj(rd, "Virtual Drives", json_type_array);
        if (!vds)
                return 0; /* a controller without VDs */
        for (size_t i = 0; i < json_object_array_length(vds); i++)
                if (storcli2_vd(c, l, ctl, json_object_array_get_idx(vds, i), i) < 0)
                        return -EINVAL;
        return 0;
}

int ctl_parse_storcli2(const char *buf, size_t len, const char *tool, struct ctl_list *l, char **ret_err)
{
        return parse_controllers(buf, len, tool, true, l, ret_err);
}

/* ---- arcconf GETCONFIGJSON ------------------------------------------------------ */

/* "raidLevel": "5" or 5 → its text. */
static char *level_text(json_object *ld)
{
        json_object *v;
        if (!json_object_object_get_ex(ld, "raidLevel", &v))
                return NULL;
        if (json_object_is_type(v, json_type_int))
                return xasprintf("%lld", (long long)json_object_get_int64(v));
        return json_object_is_type(v, json_type_string) ? ctl_printable(json_object_get_string(v), 32) : NULL;
}

/* "state": 2 optimal, 3 critical (degraded), 1 offline; the plugin API's numbers. */
static void arc_state(struct ctl_vd *v, json_object *ld)
{
        json_object *st = jobj(ld, "state", json_type_int);
        int64_t n = st ? json_object_get_int64(st) : -1;
        v->state_raw = n >= 0 ? xasprintf("state %lld", (long long)n) : NULL;
        v->state = xstrdup(n == 2 ? "optimal" : n == 3 ? "degraded" : n == 1 ? "offline" : "other");
}

static int arc_json_ld(struct jctx *c, struct ctl_list *l, const char *ctl, json_object *ld, size_t i)
{
        char where[64];
        snprintf(where, sizeof where, "controller %s, \"LogicalDrive\"[%zu]", ctl, i);
        struct ctl_vd *v = ctl_add(l, c->tool, ctl);
        json_object *id = jobj(ld, "logicalDriveID", json_type_int);
        v->level_raw = level_text(ld);
        if (!id || !v->level_raw)
                return fail(c, "%s has no \"logicalDriveID\" and \"raidLevel\"", where);
        v->vd = xasprintf("%lld", (long long)json_object_get_int64(id));
        v->level = xstrdup(ctl_level_of(v->level_raw));
        arc_state(v, ld);
        unsigned strip_kib = 0, full_kib = 0;
        if (jcount(ld, "StripeSize", &strip_kib) < 0 || jcount(ld, "fullStripeSize", &full_kib) < 0)
                return fail(c, "%s: \"StripeSize\" and \"fullStripeSize\" must be KiB counts", where);
        v->strip_bytes = (uint64_t)strip_kib * 1024;
        v->reported_full_stripe_bytes = (uint64_t)full_kib * 1024;
        v->naa = ctl_naa(jstring(ld, "volumeUniqueID"));
        json_object *chunks = jobj(ld, "Chunk", json_type_array);
        size_t members = chunks ? json_object_array_length(chunks) : 0;
        /* the JSON has no parity groups: RAID50/60 stay unknown */
        if (members && members <= 4096 && v->level && !strstr(v->level, "50") && !strstr(v->level, "60")) {
                v->drives_per_span = (unsigned)members;
                v->spans = 1;
        } else if (v->level && (strstr(v->level, "50") || strstr(v->level, "60")))
                v->note = xstrdup("arcconf's JSON does not say how many parity groups: read \"GETCONFIG N LD\"");
        ctl_vd_geometry(v);
        return 0;
}

int ctl_parse_arcconf_json(const char *buf, size_t len, const char *controller, struct ctl_list *l, char **ret_err)
{
        struct jctx c = {.tool = "arcconf"};
        size_t n0 = l->n, at = 0;
        /* "Controllers found: N" first, "Command completed successfully." after */
        while (at < len && !(buf[at] == '{' && (at == 0 || buf[at - 1] == '\n')))
                at++;
        json_object *j = at < len ? parse_doc(&c, buf + at, len - at, true) : NULL;
        if (at == len)
                fail(&c, "no JSON object at the start of a line (is it \"arcconf GETCONFIGJSON %s\"?)", controller);
        json_object *top = jobj(j, "Controller", json_type_object);
        json_object *lds = jobj(top ? top : j, "LogicalDrive", json_type_array);
        json_object *one = lds ? NULL : jobj(top ? top : j, "LogicalDrive", json_type_object);
        if (j && !lds && !one && !top)
                fail(&c, "no \"Controller\" or \"LogicalDrive\" object at the top");
        for (size_t i = 0; lds && !c.err && i < json_object_array_length(lds); i++)
                arc_json_ld(&c, l, controller, json_object_array_get_idx(lds, i), i);
        if (one && !c.err)
                arc_json_ld(&c, l, controller, one, 0);
        json_object_put(j);
        if (c.err) {
                ctl_truncate(l, n0);
                *ret_err = c.err;
                return -EINVAL;
        }
        return 0;
}
