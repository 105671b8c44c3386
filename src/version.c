/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "version.h"

#ifndef STORPROV_VERSION
#error "STORPROV_VERSION comes from the Makefile (scripts/version.sh)"
#endif

const char storprov_version[] = STORPROV_VERSION;

void storprov_json_header(json_object *j, const char *format)
{
        json_object_object_add(j, "format", json_object_new_string(format));
        json_object_object_add(j, "storprov_version", json_object_new_string(storprov_version));
}
