/* SPDX-License-Identifier: GPL-2.0-or-later
 * The node's recorded state as JSON (json-c): the profile, the seed, the
 * tuning mode, and each disk the plan selected with the identity its udev
 * rule matches, its size, sectors and stripe geometry. Nothing that moves
 * between boots (kernel names) is in it, so that verify finds it unchanged
 * on an unchanged node. */
#include "render/state.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json.h>

#include "discover/state.h"

static const char *tuning_name(enum tuning_mode t)
{
        return t == TUNING_TUNED ? "tuned" : t == TUNING_BOTH ? "both" : "udev";
}

static json_object *disk_json(const struct pl_obj *o)
{
        json_object *j = json_object_new_object();
        json_object_object_add(j, "id", json_object_new_string(o->id));
        json_object_object_add(j, "group", json_object_new_string(o->ref));
        json_object_object_add(j, "key", json_object_new_string(o->disk.udev_key));
        json_object_object_add(j, "value", json_object_new_string(o->disk.udev_value));
        json_object_object_add(j, "size_bytes", json_object_new_int64((int64_t)o->size_bytes));
        json_object_object_add(j, "logical_sector_bytes", json_object_new_int64((int64_t)o->sector_bytes));
        json_object_object_add(j, "physical_sector_bytes", json_object_new_int64((int64_t)o->physical_sector_bytes));
        json_object_object_add(j, "su_bytes", json_object_new_int64((int64_t)o->geom.su_bytes));
        json_object_object_add(j, "sw", json_object_new_int64(o->geom.sw));
        json_object_object_add(j, "full_stripe_bytes", json_object_new_int64((int64_t)o->geom.full_stripe_bytes));
        json_object_object_add(j, "parity", json_object_new_boolean(o->geom.parity));
        return j;
}

char *render_state(const struct plan *pl, const char *existing, struct diags *d)
{
        (void)existing;
        (void)d;
        json_object *j = json_object_new_object();
        char seed[24];
        snprintf(seed, sizeof seed, "%" PRIu64, pl->seed);
        json_object_object_add(j, "format", json_object_new_string(STATE_FORMAT));
        json_object_object_add(j, "format_version", json_object_new_int(STATE_FORMAT_VERSION));
        json_object_object_add(j, "comment", json_object_new_string(
                "written by storprov render and apply; read by every later render, apply and verify: do not edit"));
        json_object_object_add(j, "profile", json_object_new_string(pl->profile_name));
        json_object_object_add(j, "seed", json_object_new_string(seed));
        json_object_object_add(j, "tuning", json_object_new_string(tuning_name(pl->tuning)));
        json_object *a = json_object_new_array();
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                /* a disk no udev rule can key (no stable identity) is not recorded: nothing would find it again */
                if (o->kind == OBJ_DISK && o->disk.udev_key && o->disk.udev_value)
                        json_object_array_add(a, disk_json(o));
        }
        json_object_object_add(j, "disks", a);
        char *s = xasprintf("%s\n", json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
                                                                          JSON_C_TO_STRING_SPACED |
                                                                          JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(j);
        return s;
}

char *render_state_owner(const char *existing)
{
        json_object *j = existing ? json_tokener_parse(existing) : NULL, *f, *p;
        char *owner = NULL;
        if (j && json_object_object_get_ex(j, "format", &f) && json_object_is_type(f, json_type_string) &&
            !strcmp(json_object_get_string(f), STATE_FORMAT) && json_object_object_get_ex(j, "profile", &p) &&
            json_object_is_type(p, json_type_string))
                owner = xstrdup(json_object_get_string(p));
        json_object_put(j);
        return owner;
}
