/* SPDX-License-Identifier: GPL-2.0-or-later
 * storprov's version (from VERSION / git describe, see scripts/version.sh) and
 * the header every JSON output carries: "format" names the document and its
 * revision, "storprov_version" the program that wrote it. */
#pragma once

#include <json.h>

extern const char storprov_version[];

/* "format" values. Bump the number when a field changes meaning or goes away;
 * new fields do not bump it. */
#define STORPROV_FORMAT_PLAN "storprov-plan/1"
#define STORPROV_FORMAT_GEOMETRY "storprov-geometry/1"
#define STORPROV_FORMAT_REPORT "storprov-report/1"
#define STORPROV_FORMAT_VALIDATE "storprov-validate/1"

/* Adds "format" and "storprov_version" to the object j. */
void storprov_json_header(json_object *j, const char *format);
