/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "base/version.h"

#ifndef STORPROV_VERSION
#error "STORPROV_VERSION comes from the Makefile (scripts/version.sh)"
#endif

const char storprov_version[] = STORPROV_VERSION;

const struct storprov_format storprov_format_plan = {"storprov-plan", 2};
const struct storprov_format storprov_format_geometry = {"storprov-geometry", 2};
const struct storprov_format storprov_format_report = {"storprov-report", 2};
const struct storprov_format storprov_format_validate = {"storprov-validate", 2};
const struct storprov_format storprov_format_verify = {"storprov-verify", 2};
const struct storprov_format storprov_format_inventory = {"storprov-inventory", 2};
const struct storprov_format storprov_format_select = {"storprov-select", 1};
const struct storprov_format storprov_format_controller = {"storprov-controller", 1};

void storprov_json_header(json_object *j, const struct storprov_format *f)
{
        json_object_object_add(j, "format", json_object_new_string(f->name));
        json_object_object_add(j, "format_version", json_object_new_int(f->version));
        json_object_object_add(j, "storprov_version", json_object_new_string(storprov_version));
}
