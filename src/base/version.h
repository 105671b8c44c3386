/* SPDX-License-Identifier: GPL-2.0-or-later
 * storprov's version (from VERSION / git describe, see scripts/version.sh) and
 * the header every JSON output carries, first, in this order: "format" names
 * the document, "format_version" its revision, "storprov_version" the program
 * that wrote it. Each format has a JSON Schema, doc/schema/FORMAT.schema.json. */
#pragma once

#include <json.h>

extern const char storprov_version[];

struct storprov_format {
        const char *name;
        int version;
};

/* The formats. Bump the version when a field changes meaning or goes away;
 * new fields do not bump it. Version 2 of the first five: "format" lost its
 * "/1" suffix, "format_version" and "storprov_version" replaced verify's and
 * inventory's "tool" and "tool_version". */
extern const struct storprov_format storprov_format_plan, storprov_format_geometry, storprov_format_report,
        storprov_format_validate, storprov_format_verify, storprov_format_inventory, storprov_format_select,
        storprov_format_controller;

/* Adds "format", "format_version" and "storprov_version" to the object j. */
void storprov_json_header(json_object *j, const struct storprov_format *f);
