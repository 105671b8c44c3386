/* SPDX-License-Identifier: GPL-2.0-or-later
 * Broadcom (LSI, Avago) MegaRAID's current tools: storcli/perccli
 * ("/call/vall show all J") and storcli2/perccli2 JSON into controller
 * records. Pure: bytes in, records or one error out. MegaCli, their
 * predecessor, prints text: ctl_megacli.c. */
#include "discover/ctl_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
static int fill_common(struct ctl_json *c, struct ctl_vd *v, const char *where, json_object *info, json_object *props)
{
        const char *type = ctl_jstring(info, "TYPE"), *state = ctl_jstring(info, "State");
        if (!type || !state)
                return ctl_json_fail(c, "%s has no \"TYPE\" and \"State\" strings", where);
        v->level_raw = ctl_printable(type, 32);
        v->level = xstrdup(level_name(type));
        v->state_raw = ctl_printable(state, 32);
        v->state = xstrdup(state_name(state));
        const char *strip = ctl_jstring(props, "Strip Size");
        if (strip && ctl_parse_strip(strip, &v->strip_bytes) < 0) {
                _cleanup_free_ char *p = ctl_printable(strip, 40);
                return ctl_json_fail(c, "%s: \"Strip Size\" is \"%s\", expected a size such as \"256 KB\"", where, p);
        }
        const char *os = ctl_jstring(props, "OS Drive Name");
        if (os && *os)
                v->os_name = ctl_printable(os, 64);
        const char *naa = ctl_jstring(props, "SCSI NAA Id");
        v->naa = ctl_naa(naa);
        if (naa && *naa && !v->naa) {
                _cleanup_free_ char *p = ctl_printable(naa, 40);
                return ctl_json_fail(c, "%s: \"SCSI NAA Id\" is \"%s\", expected 16 or 32 hex digits", where, p);
        }
        return 0;
}

static int counts(struct ctl_json *c, struct ctl_vd *v, const char *where, json_object *props, const char *per_key)
{
        if (ctl_jcount(props, per_key, &v->drives_per_span) < 0 || ctl_jcount(props, "Span Depth", &v->spans) < 0)
                return ctl_json_fail(c, "%s: \"%s\" and \"Span Depth\" must be counts", where, per_key);
        return 0;
}

/* ---- storcli / perccli ----------------------------------------------------- */

/* A drive of "PDs for VD N" rebuilding ("State": "Rbld"). */
static bool any_rebuilding(json_object *pds)
{
        size_t n = pds ? json_object_array_length(pds) : 0;
        for (size_t i = 0; i < n; i++)
                if (streq_ptr(ctl_jstring(json_object_array_get_idx(pds, i), "State"), "Rbld"))
                        return true;
        return false;
}

static int storcli_vd(struct ctl_json *c, struct ctl_list *l, const char *ctl, json_object *rd, const char *key,
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
        json_object *props = ctl_jobj(rd, pk, json_type_object);
        struct ctl_vd *v = ctl_add(l, c->tool, ctl);
        v->vd = xasprintf("%u", vn);
        char where[80];
        snprintf(where, sizeof where, "controller %s, \"%s\"", ctl, key);
        if (!json_object_is_type(info, json_type_object))
                return ctl_json_fail(c, "%s is not an array of one VD row", where);
        if (fill_common(c, v, where, info, props) < 0 || counts(c, v, where, props, "Number of Drives Per Span") < 0)
                return -EINVAL;
        /* storcli prints a RAID10 built as one span of 4+ drives as "RAID1" */
        if (v->level && !strcmp(v->level, "raid1") && v->drives_per_span >= 4) {
                free(v->level);
                v->level = xstrdup("raid10");
        }
        if (!props)
                v->note = xasprintf("no \"%s\" in the output (not \"show all\"?)", pk);
        if (strstr(v->state, "degraded") && any_rebuilding(ctl_jobj(rd, dk, json_type_array))) {
                free(v->state);
                v->state = xstrdup("rebuilding");
        }
        ctl_vd_geometry(v);
        return 0;
}

static int storcli2_vds(struct ctl_json *c, struct ctl_list *l, const char *ctl, json_object *rd);

/* A "Command Status" that is not Success: no VDs (fine) or an error. */
static int status_failed(struct ctl_json *c, const char *ctl, json_object *cs)
{
        const char *d = ctl_jstring(cs, "Description");
        if (!d)
                d = "";
        if (strcasestr(d, "No VD") || strcasestr(d, "No Virtual Drive"))
                return 1;
        _cleanup_free_ char *p = ctl_printable(d, 120);
        return ctl_json_fail(c, "controller %s: the command failed: \"%s\"", ctl ? ctl : "?", p);
}

static int storcli_controller(struct ctl_json *c, struct ctl_list *l, json_object *e, size_t i, bool gen2)
{
        json_object *cs = ctl_jobj(e, "Command Status", json_type_object);
        _cleanup_free_ char *ctl = controller_id(cs);
        if (!ctl)
                return ctl_json_fail(c, "Controllers[%zu] has no \"Command Status\" with a \"Controller\"", i);
        const char *st = ctl_jstring(cs, "Status");
        if (!st)
                return ctl_json_fail(c, "controller %s: no \"Status\" in \"Command Status\"", ctl);
        if (strcmp(st, "Success")) {
                int r = status_failed(c, ctl, cs);
                return r > 0 ? 0 : r;
        }
        json_object *rd = ctl_jobj(e, "Response Data", json_type_object);
        if (!rd)
                return ctl_json_fail(c, "controller %s: no \"Response Data\" object", ctl);
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
        struct ctl_json c = {.tool = tool};
        size_t n0 = l->n;
        json_object *j = ctl_json_doc(&c, buf, len, false);
        json_object *ctls = ctl_jobj(j, "Controllers", json_type_array);
        int r = 0;
        if (j && !ctls)
                r = ctl_json_fail(&c, "no \"Controllers\" array at the top (is it \"%s /call/vall show all J\"?)", tool);
        for (size_t i = 0; ctls && r == 0 && i < json_object_array_length(ctls); i++)
                r = storcli_controller(&c, l, json_object_array_get_idx(ctls, i), i, gen2);
        json_object_put(j);
        return ctl_json_finish(&c, l, n0, ret_err);
}

int ctl_parse_storcli(const char *buf, size_t len, const char *tool, const char *controller, struct ctl_list *l,
                      char **ret_err)
{
        (void)controller; /* the JSON names its controllers */
        return parse_controllers(buf, len, tool, false, l, ret_err);
}

/* ---- storcli2 / perccli2 ----------------------------------------------------- */

static int storcli2_vd(struct ctl_json *c, struct ctl_list *l, const char *ctl, json_object *e, size_t i)
{
        json_object *info = ctl_jobj(e, "VD Info", json_type_object);
        json_object *props = ctl_jobj(e, "VD Properties", json_type_object);
        char where[80];
        snprintf(where, sizeof where, "controller %s, \"Virtual Drives\"[%zu]", ctl, i);
        struct ctl_vd *v = ctl_add(l, c->tool, ctl);
        const char *dgvd = ctl_jstring(info, "DG/VD");
        const char *slash = dgvd ? strchr(dgvd, '/') : NULL;
        if (!info || !slash)
                return ctl_json_fail(c, "%s has no \"VD Info\" with a \"DG/VD\"", where);
        v->vd = ctl_printable(slash + 1, 16);
        if (fill_common(c, v, where, info, props) < 0)
                return -EINVAL;
        unsigned drives = 0;
        if (counts(c, v, where, props, "Number of Drives Per Span") < 0 ||
            ctl_jcount(props, "Number of Drives", &drives) < 0)
                return ctl_json_fail(c, "%s: \"Number of Drives\" must be a count", where);
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

static int storcli2_vds(struct ctl_json *c, struct ctl_list *l, const char *ctl, json_object *rd)
{
        json_object *vds = ctl_jobj(rd, "Virtual Drives", json_type_array);
        if (!vds)
                return 0; /* a controller without VDs */
        for (size_t i = 0; i < json_object_array_length(vds); i++)
                if (storcli2_vd(c, l, ctl, json_object_array_get_idx(vds, i), i) < 0)
                        return -EINVAL;
        return 0;
}

int ctl_parse_storcli2(const char *buf, size_t len, const char *tool, const char *controller, struct ctl_list *l,
                       char **ret_err)
{
        (void)controller;
        return parse_controllers(buf, len, tool, true, l, ret_err);
}

