/* SPDX-License-Identifier: GPL-2.0-or-later
 * The node's recorded state (state.h), read with json-c: a file another
 * program could have written, checked field by field. */
#include "discover/state.h"

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "base/sanitize.h"

struct sctx {
        const char *path;
        struct diags *d;
        bool failed;
};

static void bad(struct sctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bad(struct sctx *c, const char *fmt, ...)
{
        if (c->failed)
                return;
        va_list ap;
        va_start(ap, fmt);
        char *m = NULL;
        if (vasprintf(&m, fmt, ap) < 0)
                m = NULL;
        va_end(ap);
        diag_add(c->d, DIAG_ERROR, c->path, 0, NULL, RULE_STATE_FILE,
                 "%s; storprov writes this file with the others (render, apply): restore it from a backup, or remove "
                 "it and run storprov render with the seed and tuning mode the node was made with",
                 m ? m : "out of memory");
        free(m);
        c->failed = true;
}

/* A printable string of 1..max bytes, else NULL after an error. */
static char *text_field(struct sctx *c, json_object *o, const char *where, const char *key, size_t max)
{
        json_object *v;
        if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string)) {
                bad(c, "%s has no \"%s\" string", where, key);
                return NULL;
        }
        const char *s = json_object_get_string(v);
        size_t n = strlen(s);
        bool printable = n == (size_t)json_object_get_string_len(v);
        for (size_t i = 0; printable && i < n; i++)
                printable = s[i] >= 0x20 && s[i] < 0x7f;
        if (!n || n > max || !printable) {
                bad(c, "%s: \"%s\" is not printable text of 1 to %zu bytes", where, key, max);
                return NULL;
        }
        return xstrdup(s);
}

static bool int_field(struct sctx *c, json_object *o, const char *where, const char *key, int64_t lo, int64_t hi,
                      int64_t *ret)
{
        json_object *v;
        if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int)) {
                bad(c, "%s has no \"%s\" integer", where, key);
                return false;
        }
        errno = 0;
        int64_t n = json_object_get_int64(v);
        if (errno || n < lo || n > hi) {
                bad(c, "%s: \"%s\" is not from %" PRId64 " to %" PRId64, where, key, lo, hi);
                return false;
        }
        *ret = n;
        return true;
}

static bool sector_ok(int64_t s)
{
        return s >= 512 && s <= 65536 && !(s & (s - 1));
}

static void read_disk(struct sctx *c, json_object *o, size_t i, struct state_disk *sd)
{
        char where[48];
        snprintf(where, sizeof where, "disks[%zu]", i);
        if (!json_object_is_type(o, json_type_object)) {
                bad(c, "%s is not an object", where);
                return;
        }
        sd->id = text_field(c, o, where, "id", 64);
        sd->group = text_field(c, o, where, "group", 64);
        sd->key = text_field(c, o, where, "key", 32);
        sd->value = text_field(c, o, where, "value", 256);
        /* a plain disk's key, or a multipath LUN's map ("DM_UUID", "mpath-<wwid>") */
        if (sd->key && !udev_match_key(sd->key) && strcmp(sd->key, "DM_UUID"))
                bad(c, "%s: \"key\" %s is not an identity storprov keys a disk by", where, sd->key);
        int64_t size, lss, pss, su, sw, full;
        json_object *par;
        if (int_field(c, o, where, "size_bytes", 1, INT64_MAX, &size) &&
            int_field(c, o, where, "logical_sector_bytes", 512, 65536, &lss) &&
            int_field(c, o, where, "physical_sector_bytes", 512, 65536, &pss) &&
            int_field(c, o, where, "su_bytes", 0, INT64_MAX, &su) && int_field(c, o, where, "sw", 0, 4096, &sw) &&
            int_field(c, o, where, "full_stripe_bytes", 0, INT64_MAX, &full)) {
                if (!sector_ok(lss) || !sector_ok(pss) || pss < lss || (uint64_t)full != (uint64_t)su * (uint64_t)sw)
                        bad(c, "%s: sectors that are not powers of 2 (physical >= logical), or a full stripe that "
                               "is not su x sw", where);
                sd->size_bytes = (uint64_t)size;
                sd->logical_sector_bytes = (uint32_t)lss;
                sd->physical_sector_bytes = (uint32_t)pss;
                sd->su_bytes = (uint64_t)su;
                sd->sw = (unsigned)sw;
                sd->full_stripe_bytes = (uint64_t)full;
        }
        if (!json_object_object_get_ex(o, "parity", &par) || !json_object_is_type(par, json_type_boolean))
                bad(c, "%s has no \"parity\" true or false", where);
        else
                sd->parity = json_object_get_boolean(par);
}

static void read_top(struct sctx *c, json_object *j, struct node_state *s)
{
        json_object *v;
        if (!json_object_is_type(j, json_type_object) || !json_object_object_get_ex(j, "format", &v) ||
            !json_object_is_type(v, json_type_string) || strcmp(json_object_get_string(v), STATE_FORMAT)) {
                bad(c, "not a storprov state file (no \"format\": \"" STATE_FORMAT "\")");
                return;
        }
        int64_t ver;
        if (!int_field(c, j, "the file", "format_version", 1, INT32_MAX, &ver))
                return;
        if (ver != STATE_FORMAT_VERSION) {
                bad(c, "format_version %" PRId64 ": this storprov reads version %d only (a newer storprov wrote it?)",
                    ver, STATE_FORMAT_VERSION);
                return;
        }
        s->profile = text_field(c, j, "the file", "profile", 256);
        s->tuning = text_field(c, j, "the file", "tuning", 16);
        if (s->tuning && strcmp(s->tuning, "udev") && strcmp(s->tuning, "tuned") && strcmp(s->tuning, "both"))
                bad(c, "\"tuning\" is \"%s\", not udev, tuned or both", s->tuning);
        _cleanup_free_ char *seed = text_field(c, j, "the file", "seed", 20);
        if (seed && parse_u64(seed, &s->seed) < 0)
                bad(c, "\"seed\" \"%s\" is not a whole number", seed);
        json_object *disks;
        if (!json_object_object_get_ex(j, "disks", &disks) || !json_object_is_type(disks, json_type_array)) {
                bad(c, "no \"disks\" array");
                return;
        }
        size_t n = json_object_array_length(disks);
        if (n > 65536) {
                bad(c, "%zu disks: more than storprov records", n);
                return;
        }
        s->disks = xcalloc(n ? n : 1, sizeof *s->disks);
        for (size_t i = 0; i < n && !c->failed; i++) {
                read_disk(c, json_object_array_get_idx(disks, i), i, &s->disks[i]);
                s->n_disks = i + 1;
                for (size_t k = 0; k < i && !c->failed; k++)
                        if (streq_ptr(s->disks[k].id, s->disks[i].id))
                                bad(c, "disks[%zu]: the id %s twice", i, s->disks[i].id);
        }
}

int state_parse(const char *text, size_t len, const char *path, struct node_state *ret, struct diags *d)
{
        struct sctx c = {.path = path, .d = d};
        *ret = (struct node_state){.path = xstrdup(path)};
        json_tokener *t = json_tokener_new();
        json_object *j = len <= INT32_MAX ? json_tokener_parse_ex(t, text, (int)len) : NULL;
        enum json_tokener_error e = json_tokener_get_error(t);
        size_t end = json_tokener_get_parse_end(t);
        json_tokener_free(t);
        while (j && end < len && strchr(" \t\r\n", text[end]))
                end++;
        if (!j || e != json_tokener_success || end != len)
                bad(&c, "not one JSON document (%s at byte %zu: cut short, or edited by hand?)",
                    j ? "something after it" : json_tokener_error_desc(e), end);
        else
                read_top(&c, j, ret);
        json_object_put(j);
        if (c.failed) {
                state_free(ret);
                return -EINVAL;
        }
        return 1;
}

char *state_path_of(const char *profile)
{
        char name[65];
        size_t n = 0;
        for (; profile && profile[n] && n < 64; n++)
                name[n] = strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+-", profile[n])
                                  ? profile[n]
                                  : '_';
        name[n] = 0;
        return xasprintf("%s/%s.json", STATE_DIR, n ? name : "_");
}

int state_load(const char *root, const char *profile, struct node_state *ret, struct diags *d)
{
        _cleanup_free_ char *rel = state_path_of(profile);
        _cleanup_free_ char *text = NULL, *shown = path_join(root, rel);
        size_t len = 0;
        *ret = (struct node_state){0};
        int r = read_file_in_root(root, rel, &text, &len);
        if (r == -ENOENT)
                return 0;
        if (r < 0) {
                diag_add(d, DIAG_ERROR, shown, 0, NULL, RULE_STATE_FILE, "cannot read: %s", strerror(-r));
                return -EINVAL;
        }
        return state_parse(text, len, shown, ret, d);
}

const struct state_disk *state_disk_of(const struct node_state *s, const char *id)
{
        for (size_t i = 0; s && i < s->n_disks; i++)
                if (streq_ptr(s->disks[i].id, id))
                        return &s->disks[i];
        return NULL;
}

void state_free(struct node_state *s)
{
        for (size_t i = 0; i < s->n_disks; i++) {
                struct state_disk *d = &s->disks[i];
                free(d->id);
                free(d->group);
                free(d->key);
                free(d->value);
        }
        free(s->disks);
        free(s->path);
        free(s->profile);
        free(s->tuning);
        *s = (struct node_state){0};
}
