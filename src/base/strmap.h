/* SPDX-License-Identifier: GPL-2.0-or-later
 * A string → index map (open addressing, FNV-1a), for the planner's
 * uniqueness and lookup passes that must stay linear at thousands of disks.
 * Keys are borrowed, not copied: they must outlive the map. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

struct strmap {
        const char **keys;
        size_t *vals;
        size_t cap, n;
};

/* Adds key → val unless key is there; returns true if added, else false
 * with *ret_old (if not NULL) set to the value already stored. */
bool strmap_add(struct strmap *m, const char *key, size_t val, size_t *ret_old);
/* The value of key, or (size_t)-1. */
size_t strmap_get(const struct strmap *m, const char *key);
void strmap_free(struct strmap *m);
