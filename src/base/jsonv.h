/* SPDX-License-Identifier: GPL-2.0-or-later
 * Small json-c value makers shared by the JSON writers (plan, inventory, the
 * apply report): a string or null, an unsigned 64-bit number, a string array. */
#pragma once

#include <json.h>
#include <stdint.h>

static inline json_object *jstr(const char *s) { return s ? json_object_new_string(s) : NULL; }
/* json_object_new_uint64 (json-c >= 0.14): values above 2^63 print unsigned, never negative */
static inline json_object *ju64(uint64_t v) { return json_object_new_uint64(v); }
static inline json_object *jstrv(char **v)
{
        json_object *a = json_object_new_array();
        for (size_t i = 0; v && v[i]; i++)
                json_object_array_add(a, json_object_new_string(v[i]));
        return a;
}
