/* SPDX-License-Identifier: GPL-2.0-or-later
 * The profile loader's state, shared by profile.c (parsing, limits, RELAX NG)
 * and profile_attrs.c (every attribute's form and range, and the error
 * primitives below): the two libxml2 users. Nothing else includes it. */
#pragma once

#include <libxml/tree.h>

#include "input/profile.h"

#define PROFILE_MAX_ELEMENTS 10000

struct loader {
        const char *path;
        struct diags *d;
        int errors;
        int last_line;            /* of the last error with a line: for libxml2's line-less ones */
        int *bad_lines;           /* lines our own attribute checks reported */
        size_t n_bad_lines;
        char **pending;           /* line-less libxml2 messages, waiting for the next one with a line */
        bool match_only;          /* profile_load_match: elements counted, attributes not checked */
};

/* profile_attrs.c. Adds an error; the same line and message are reported once. */
void loader_error(struct loader *l, int line, const char *obj, enum rule_id rule, const char *msg);
int line_of(xmlNode *n);
char *attr(xmlNode *n, const char *name);
void bad_value(struct loader *l, xmlNode *n, const char *what, const char *value, enum rule_id rule);
uint64_t size_attr(struct loader *l, xmlNode *n, const char *name);
uint64_t uint_attr(struct loader *l, xmlNode *n, const char *name, uint64_t dflt);

/* Every attribute of every element against the attribute table (before RELAX
 * NG, so that a bad value is named with its accepted form); counts the
 * elements and returns false past PROFILE_MAX_ELEMENTS. */
bool check_tree(struct loader *l, xmlNode *n, size_t *count);
