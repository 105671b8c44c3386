/* SPDX-License-Identifier: GPL-2.0-or-later
 * The names the built-in RELAX NG schema allows: per element, its attributes
 * and its child elements, read from the schema itself (so the list cannot
 * drift from it), and the nearest allowed name to a misspelt one. libxml2's
 * RELAX NG messages say "Extra element tune in interleave" for a misspelt
 * attribute; the loader names the attribute, its line and the name meant. */
#include "input/schema_names.h"

#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "input/profile.h"
#include "base/util.h"

struct elem_names {
        char *name;
        char **attrs;    /* NULL-terminated, may be NULL */
        char **children; /* NULL-terminated, may be NULL */
};

static struct elem_names *elems;
static size_t n_elems;
static bool loaded;

static bool rng_is(const xmlNode *n, const char *what)
{
        return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, what);
}

static char *rng_name(const xmlNode *n)
{
        xmlChar *v = xmlGetProp(n, (const xmlChar *)"name");
        char *r = v ? xstrdup((const char *)v) : NULL;
        xmlFree(v);
        return r;
}

static struct elem_names *elem_entry(const char *name)
{
        for (size_t i = 0; i < n_elems; i++)
                if (!strcmp(elems[i].name, name))
                        return &elems[i];
        elems = xrealloc(elems, (n_elems + 1) * sizeof(*elems));
        elems[n_elems] = (struct elem_names){.name = xstrdup(name)};
        return &elems[n_elems++];
}

static void push_once(char ***v, const char *s)
{
        for (size_t i = 0; *v && (*v)[i]; i++)
                if (!strcmp((*v)[i], s))
                        return;
        strv_push(v, s);
}

static const xmlNode *find_define(const xmlNode *grammar, const char *name)
{
        for (const xmlNode *c = grammar ? grammar->children : NULL; c; c = c->next)
                if (rng_is(c, "define")) {
                        _cleanup_free_ char *dn = rng_name(c);
                        if (dn && !strcmp(dn, name))
                                return c;
                }
        return NULL;
}

/* The attributes and direct child elements in pattern p of element e (refs
 * followed, never into a nested element's content; depth bounds a ref cycle). */
static void collect(const xmlNode *grammar, const xmlNode *p, struct elem_names *e, unsigned depth)
{
        if (depth > 32)
                return;
        for (const xmlNode *c = p->children; c; c = c->next) {
                if (c->type != XML_ELEMENT_NODE)
                        continue;
                _cleanup_free_ char *name = rng_name(c);
                if (rng_is(c, "attribute") && name)
                        push_once(&e->attrs, name);
                else if (rng_is(c, "element") && name)
                        push_once(&e->children, name);
                else if (rng_is(c, "ref") && name) {
                        const xmlNode *d = find_define(grammar, name);
                        if (d)
                                collect(grammar, d, e, depth + 1);
                } else if (!rng_is(c, "attribute") && !rng_is(c, "element"))
                        collect(grammar, c, e, depth + 1); /* optional, interleave, group, choice, … */
        }
}

/* Every <element name> of the schema, wherever it is defined. */
static void walk(const xmlNode *grammar, const xmlNode *n)
{
        for (const xmlNode *c = n->children; c; c = c->next) {
                if (c->type != XML_ELEMENT_NODE)
                        continue;
                if (rng_is(c, "element")) {
                        _cleanup_free_ char *name = rng_name(c);
                        if (name)
                                collect(grammar, c, elem_entry(name), 0); /* collect adds no entry */
                }
                walk(grammar, c);
        }
}

static void load(void)
{
        if (loaded)
                return;
        loaded = true;
        xmlDoc *doc = xmlReadMemory(storprov_schema_rng, (int)strlen(storprov_schema_rng), "storprov.rng", NULL,
                                    XML_PARSE_NONET | XML_PARSE_NOBLANKS);
        xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
        if (root)
                walk(root, root);
        xmlFreeDoc(doc);
}

static const struct elem_names *lookup(const char *elem)
{
        load();
        for (size_t i = 0; i < n_elems; i++)
                if (!strcmp(elems[i].name, elem))
                        return &elems[i];
        return NULL;
}

bool schema_elem_known(const char *elem)
{
        return lookup(elem) != NULL;
}

char *const *schema_elem_attrs(const char *elem)
{
        const struct elem_names *e = lookup(elem);
        return e ? e->attrs : NULL;
}

char *const *schema_elem_children(const char *elem)
{
        const struct elem_names *e = lookup(elem);
        return e ? e->children : NULL;
}

bool schema_name_in(char *const *names, const char *name)
{
        for (size_t i = 0; names && names[i]; i++)
                if (!strcmp(names[i], name))
                        return true;
        return false;
}

/* Levenshtein distance, bounded: names are short (the schema's are < 32). */
static size_t edit_distance(const char *a, const char *b)
{
        size_t la = strlen(a), lb = strlen(b);
        if (la > 64 || lb > 64)
                return SIZE_MAX;
        size_t row[65];
        for (size_t j = 0; j <= lb; j++)
                row[j] = j;
        for (size_t i = 1; i <= la; i++) {
                size_t diag = row[0];
                row[0] = i;
                for (size_t j = 1; j <= lb; j++) {
                        size_t up = row[j];
                        size_t sub = diag + (a[i - 1] != b[j - 1]);
                        size_t best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
                        row[j] = sub < best ? sub : best;
                        diag = up;
                }
        }
        return row[lb];
}

const char *schema_nearest(char *const *names, const char *word)
{
        const char *best = NULL;
        size_t bd = SIZE_MAX, len = strlen(word);
        size_t limit = len < 6 ? 2 : len / 3 + 1; /* a typo, not another word */
        for (size_t i = 0; names && names[i]; i++) {
                size_t d = edit_distance(word, names[i]);
                if (d < bd) {
                        bd = d;
                        best = names[i];
                }
        }
        return bd <= limit ? best : NULL;
}
