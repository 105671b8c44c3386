/* SPDX-License-Identifier: GPL-2.0-or-later
 * Adaptec (Microsemi, Microchip) arcconf: "GETCONFIG N LD" (or AL) text and
 * "GETCONFIGJSON N" into controller records.
 * Pure: bytes in, records or one error out. */
#include "discover/ctl_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

static int arc_end(struct ctl_text *c, struct arc_ld *ld)
{
        struct ctl_vd *v = ld->v;
        if (!v)
                return 0;
        if (!ld->has_level || !ld->has_status)
                return ctl_text_fail(c, "logical device %s ends without its \"RAID level\" and \"Status of Logical Device\" "
                                "lines: the output is cut short; run the tool again", v->vd);
        if (ld->segments && ld->segments % ld->groups == 0) {
                v->spans = ld->groups;
                v->drives_per_span = ld->segments / ld->groups;
        }
        ctl_vd_geometry(v);
        ld->v = NULL;
        return 0;
}

static int arc_field(struct ctl_text *c, struct arc_ld *ld, const struct ctl_line *t)
{
        struct ctl_vd *v = ld->v;
        unsigned g;
        if (!strcmp(t->key, "RAID level")) {
                ctl_set_str(&v->level_raw, t->value, 32);
                free(v->level);
                v->level = xstrdup(ctl_level_of(t->value));
                ld->has_level = true;
        } else if (!strcmp(t->key, "Stripe-unit size"))
                return ctl_field_size(c, t->key, t->value, &v->strip_bytes);
        else if (!strcmp(t->key, "Full Stripe Size"))
                return ctl_field_size(c, t->key, t->value, &v->reported_full_stripe_bytes);
        else if (!strcmp(t->key, "Status of Logical Device")) {
                ctl_set_str(&v->state_raw, t->value, 48);
                free(v->state);
                v->state = xstrdup(ctl_state_of(t->value));
                ld->has_status = true;
        } else if (!strcmp(t->key, "Disk Name")) {
                free(v->os_name);
                v->os_name = ctl_dev_word(t->value);
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
        struct ctl_text c;
        ctl_text_init(&c, "arcconf", buf, len);
        struct ctl_line t;
        unsigned n = 0;
        while (ctl_text_next(&c, &t, ':') > 0)
                if (!strcmp(t.key, "Controllers found") && t.value) {
                        char *end;
                        unsigned long v = strtoul(t.value, &end, 10);
                        n = !*end && v <= 64 ? (unsigned)v : 0;
                        break;
                }
        struct ctl_list none = {0};
        char *e = NULL;
        ctl_text_finish(&c, &none, 0, &e);
        free(e);
        return n;
}

static int arc_line(struct ctl_text *c, struct ctl_list *l, const char *ctl, struct arc_ld *ld, const struct ctl_line *t,
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
                *ld = (struct arc_ld){.v = ctl_add(l, c->tool, ctl), .groups = 1};
                ld->v->vd = xasprintf("%u", no);
                return 0;
        }
        return ld->v && t->value ? arc_field(c, ld, t) : 0;
}

int ctl_parse_arcconf(const char *buf, size_t len, const char *tool, const char *controller, struct ctl_list *l,
                      char **ret_err)
{
        struct ctl_text c;
        ctl_text_init(&c, tool, buf, len);
        struct arc_ld ld = {0};
        size_t n0 = l->n;
        bool done = false;
        struct ctl_line t;
        int r;
        while (!done && (r = ctl_text_next(&c, &t, ':')) > 0)
                if (arc_line(&c, l, controller, &ld, &t, &done) < 0)
                        break;
        if (!c.err && !done)
                ctl_text_fail(&c, "the output ends before \"Command completed successfully.\": it is cut short or the "
                          "command failed; run \"arcconf GETCONFIG %s LD\" again",
                      controller);
        return ctl_text_finish(&c, l, n0, ret_err);
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
        json_object *st = ctl_jobj(ld, "state", json_type_int);
        int64_t n = st ? json_object_get_int64(st) : -1;
        v->state_raw = n >= 0 ? xasprintf("state %lld", (long long)n) : NULL;
        v->state = xstrdup(n == 2 ? "optimal" : n == 3 ? "degraded" : n == 1 ? "offline" : "other");
}

static int arc_json_ld(struct ctl_json *c, struct ctl_list *l, const char *ctl, json_object *ld, size_t i)
{
        char where[64];
        snprintf(where, sizeof where, "controller %s, \"LogicalDrive\"[%zu]", ctl, i);
        struct ctl_vd *v = ctl_add(l, c->tool, ctl);
        json_object *id = ctl_jobj(ld, "logicalDriveID", json_type_int);
        v->level_raw = level_text(ld);
        if (!id || !v->level_raw)
                return ctl_json_fail(c, "%s has no \"logicalDriveID\" and \"raidLevel\"", where);
        v->vd = xasprintf("%lld", (long long)json_object_get_int64(id));
        v->level = xstrdup(ctl_level_of(v->level_raw));
        arc_state(v, ld);
        unsigned strip_kib = 0, full_kib = 0;
        if (ctl_jcount(ld, "StripeSize", &strip_kib) < 0 || ctl_jcount(ld, "fullStripeSize", &full_kib) < 0)
                return ctl_json_fail(c, "%s: \"StripeSize\" and \"fullStripeSize\" must be KiB counts", where);
        v->strip_bytes = (uint64_t)strip_kib * 1024;
        v->reported_full_stripe_bytes = (uint64_t)full_kib * 1024;
        v->naa = ctl_naa(ctl_jstring(ld, "volumeUniqueID"));
        json_object *chunks = ctl_jobj(ld, "Chunk", json_type_array);
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

int ctl_parse_arcconf_json(const char *buf, size_t len, const char *tool, const char *controller,
                           struct ctl_list *l, char **ret_err)
{
        struct ctl_json c = {.tool = tool};
        size_t n0 = l->n, at = 0;
        /* "Controllers found: N" first, "Command completed successfully." after */
        while (at < len && !(buf[at] == '{' && (at == 0 || buf[at - 1] == '\n')))
                at++;
        json_object *j = at < len ? ctl_json_doc(&c, buf + at, len - at, true) : NULL;
        if (at == len)
                ctl_json_fail(&c, "no JSON object at the start of a line (is it \"arcconf GETCONFIGJSON %s\"?)", controller);
        json_object *top = ctl_jobj(j, "Controller", json_type_object);
        json_object *lds = ctl_jobj(top ? top : j, "LogicalDrive", json_type_array);
        json_object *one = lds ? NULL : ctl_jobj(top ? top : j, "LogicalDrive", json_type_object);
        if (j && !lds && !one && !top)
                ctl_json_fail(&c, "no \"Controller\" or \"LogicalDrive\" object at the top");
        for (size_t i = 0; lds && !c.err && i < json_object_array_length(lds); i++)
                arc_json_ld(&c, l, controller, json_object_array_get_idx(lds, i), i);
        if (one && !c.err)
                arc_json_ld(&c, l, controller, one, 0);
        json_object_put(j);
        return ctl_json_finish(&c, l, n0, ret_err);
}
