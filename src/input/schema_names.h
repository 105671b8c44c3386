/* SPDX-License-Identifier: GPL-2.0-or-later
 * The element and attribute names the built-in schema allows (read from the
 * schema itself), and the nearest one to a misspelt name. */
#pragma once

#include <stdbool.h>

/* Is elem an element the schema defines anywhere? */
bool schema_elem_known(const char *elem);
/* The attributes / child elements the schema allows on elem (NULL-terminated;
 * NULL when it allows none or elem is unknown). Owned by the module. */
char *const *schema_elem_attrs(const char *elem);
char *const *schema_elem_children(const char *elem);
bool schema_name_in(char *const *names, const char *name);
/* The name of names nearest to word within a typo's distance, or NULL. */
const char *schema_nearest(char *const *names, const char *word);
