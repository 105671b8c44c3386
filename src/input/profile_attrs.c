/* SPDX-License-Identifier: GPL-2.0-or-later
 * The attribute table: every value's accepted form and range, checked before
 * RELAX NG so that each error names the line, the attribute, the value given
 * and the form expected; and the loader's error primitives profile.c shares.
 * Calls nothing in profile.c (profile.c -> profile_attrs.c, one way). */
#include "input/profile_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"
#include "input/schema_names.h"

/* ---- errors and lines: the loader's primitives, used by profile.c too ------ */

/* Adds an error; the same line and message are reported once. */
void loader_error(struct loader *l, int line, const char *obj, enum rule_id rule, const char *msg)
{
        for (size_t i = 0; i < l->d->n; i++) {
                const struct diag *x = &l->d->v[i];
                if (x->line == line && streq_ptr(x->message, msg) && streq_ptr(x->file, l->path))
                        return;
        }
        diag_add(l->d, DIAG_ERROR, l->path, line, obj, rule, "%s", msg);
        l->errors++;
}

int line_of(xmlNode *n)
{
        return n ? (int)xmlGetLineNo(n) : 0;
}

/* ---- the attribute table: every value's accepted form and range ----------- */

enum akind { A_COUNT, A_SIZE, A_LVSIZE, A_IDENT, A_REFS, A_BOOL, A_ENUM, A_GLOB, A_TEXT, A_WORD,
             A_MOUNTPOINT, A_MOUNTOPTS, A_LABEL, A_SYSCTL_KEY, A_SYSCTL_VALUE };

struct attr_rule {
        const char *elem, *attr;  /* elem "*": any element */
        enum akind kind;
        uint64_t min, max;        /* A_COUNT, A_SIZE: the range; A_GLOB/A_TEXT/A_WORD: length */
        const char *form;         /* the accepted form, for messages; A_ENUM: the values, blank-separated */
};

#define K4 (4 * KiB)
static const struct attr_rule attr_rules[] = {
        {"profile", "name", A_IDENT, 0, 0, NULL},
        {"disks", "id", A_IDENT, 0, 0, NULL},
        {"disks", "count", A_COUNT, 1, 1024, NULL},
        {"match", "vendor", A_GLOB, 0, 256, NULL},
        {"match", "model", A_GLOB, 0, 256, NULL},
        {"match", "serial", A_GLOB, 0, 256, NULL},
        {"match", "wwn", A_GLOB, 0, 256, NULL},
        {"match", "path", A_GLOB, 0, 256, NULL},
        {"match", "name", A_GLOB, 0, 256, NULL},
        {"match", "min-size", A_SIZE, 0, UINT64_MAX, NULL},
        {"match", "max-size", A_SIZE, 0, UINT64_MAX, NULL},
        {"match", "rotational", A_BOOL, 0, 0, NULL},
        {"hwraid", "level", A_ENUM, 0, 0, "0 1 5 6 10 50 60"},
        {"hwraid", "from", A_ENUM, 0, 0, "controller"},
        {"hwraid", "members", A_COUNT, 1, 1024, NULL},
        {"hwraid", "legs", A_COUNT, 1, 1024, NULL},
        {"hwraid", "chunk", A_SIZE, K4, GiB, NULL},
        {"partition", "id", A_IDENT, 0, 0, NULL},
        {"partition", "size", A_LVSIZE, 0, 0, NULL},
        {"partition", "type", A_ENUM, 0, 0, "linux raid lvm"},
        {"partition", "name", A_TEXT, 1, 36, NULL},
        {"md", "id", A_IDENT, 0, 0, NULL},
        {"md", "name", A_IDENT, 0, 0, NULL},
        {"md", "level", A_ENUM, 0, 0, "0 1 4 5 6 10"},
        {"md", "devices", A_REFS, 0, 0, NULL},
        {"md", "chunk", A_SIZE, K4, GiB, NULL},
        {"md", "metadata", A_ENUM, 0, 0, "1.0 1.1 1.2"},
        {"md", "bitmap", A_ENUM, 0, 0, "internal none"},
        {"md", "layout", A_WORD, 1, 32, NULL},
        {"md", "parity", A_WORD, 1, 32, NULL},
        {"md", "spares", A_COUNT, 0, 1024, NULL},
        {"vg", "id", A_IDENT, 0, 0, NULL},
        {"vg", "name", A_IDENT, 0, 0, NULL},
        {"vg", "pvs", A_REFS, 0, 0, NULL},
        {"vg", "data-alignment", A_SIZE, K4, GiB, NULL},
        {"vg", "extent-size", A_SIZE, 128 * KiB, 16 * GiB, NULL},
        {"lv", "name", A_IDENT, 0, 0, NULL},
        {"lv", "size", A_LVSIZE, 0, 0, NULL},
        {"lv", "stripes", A_COUNT, 1, 1024, NULL},
        {"lv", "stripe-size", A_SIZE, K4, GiB, NULL},
        /* <tune>: from the tune table (src/tune.c), see tune_rule() */
        {"xfs", "on", A_REFS, 0, 0, NULL},
        {"xfs", "label", A_LABEL, 0, 0, NULL},
        {"xfs", "mountpoint", A_MOUNTPOINT, 0, 0, NULL},
        {"xfs", "mount-options", A_MOUNTOPTS, 0, 0, NULL},
        {"xfs", "mkfs-options", A_TEXT, 1, 1024, NULL},
        {"xfs", "system", A_BOOL, 0, 0, NULL},
        {"xfs", "swalloc", A_BOOL, 0, 0, NULL},
        {"xfs", "log-stripe-unit", A_BOOL, 0, 0, NULL},
        {"sysctl", "key", A_SYSCTL_KEY, 0, 0, NULL},
        {"sysctl", "value", A_SYSCTL_VALUE, 0, 0, NULL},
        {"allow", "rule", A_ENUM, 0, 0, "queue-memory topology-mismatch sysctl-key"},
        {"allow", "reason", A_TEXT, 0, 1024, NULL},
        {"disks", "multipath", A_BOOL, 0, 0, NULL},
        {"disks", "system", A_BOOL, 0, 0, NULL},
        {"*", "wipe", A_BOOL, 0, 0, NULL},
        {"*", "preserve", A_BOOL, 0, 0, NULL},
};

static bool ident_ok(const char *v)
{
        size_t n = strlen(v);
        if (!n || n > 64 || !((*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z')))
                return false;
        return strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+-") == n;
}

static bool ref_ok(const char *v)
{
        /* ident, or ident.ident / ident/ident */
        const char *sep = v + strcspn(v, "./");
        char *a = strndup(v, (size_t)(sep - v));
        bool ok = a && ident_ok(a) && (!*sep || ident_ok(sep + 1));
        free(a);
        return ok;
}

static bool printable(const char *v, uint64_t min, uint64_t max)
{
        size_t n = strlen(v);
        if (n < min || n > max)
                return false;
        for (const char *p = v; *p; p++)
                if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
                        return false;
        return true;
}

static bool enum_ok(const char *v, const char *values)
{
        size_t n = strlen(v);
        for (const char *p = values; *p;) {
                size_t k = strcspn(p, " ");
                if (k == n && !strncmp(p, v, n))
                        return true;
                p += k + (p[k] == ' ');
        }
        return false;
}

static const char *size_form(uint64_t min, uint64_t max, char *buf, size_t len)
{
        char a[32], b[32];
        if (!min && max == UINT64_MAX)
                return "a size: digits, an optional fraction that comes to whole bytes, and a unit "
                       "(K M G T P or KiB…PiB binary, KB…PB decimal, s for 512-byte sectors), such as 64K or 4TB";
        snprintf(buf, len, "a size from %s to %s, such as 64K", fmt_size_exact(min, a), fmt_size_exact(max, b));
        return buf;
}

/* An LV size= that is neither a percentage (of the VG or its free space) nor
 * a size above 0: the accepted form, and why into *why; NULL when it is one. */
static const char *lvsize_problem(const char *v, const char **why)
{
        uint64_t u;
        int rc;
        const char *pct = strchr(v, '%');
        if (pct) {
                char *num = strndup(v, (size_t)(pct - v));
                bool ok = num && parse_uint_range(num, 1, 100, &u) == 0 &&
                          (!strcmp(pct, "%") || !strcmp(pct, "%VG") || !strcmp(pct, "%FREE"));
                free(num);
                if (!ok)
                        return "a percentage from 1% to 100%, optionally followed by VG or FREE (50%FREE)";
        } else if ((rc = parse_size(v, &u)) < 0 || u == 0) {
                *why = rc == -ERANGE ? "is out of range" : "is not a size";
                return "a size above 0 such as 500G or 4TB, or a percentage such as 100% or 50%FREE";
        }
        return NULL;
}

static bool refs_ok(const char *v)
{
        char **refs = strv_split(v, " \t\n");
        bool ok = refs != NULL && strv_len(refs) <= 1024;
        for (size_t i = 0; ok && refs[i]; i++)
                ok = ref_ok(refs[i]);
        strv_free(refs);
        return ok;
}

/* v against a numeric rule (A_COUNT, A_SIZE, A_LVSIZE): NULL when it passes,
 * else the accepted form (written into form when it has numbers in it), and
 * why it failed into *why. */
static const char *number_problem(const struct attr_rule *r, const char *v, char *form, size_t len, const char **why)
{
        uint64_t u;
        int rc;
        switch (r->kind) {
        case A_COUNT:
                if ((rc = parse_uint_range(v, r->min, r->max, &u)) < 0) {
                        *why = rc == -ERANGE ? "is out of range" : "is not a whole number";
                        snprintf(form, len, "a whole number from %" PRIu64 " to %" PRIu64 "%s%s", r->min,
                                 r->max, r->form ? " " : "", r->form ? r->form : "");
                        return form;
                }
                return NULL;
        case A_SIZE:
                if ((rc = parse_size(v, &u)) < 0 || u < r->min || u > r->max) {
                        *why = rc == -ERANGE || (rc == 0) ? "is out of range" : "is not a size";
                        return size_form(r->min, r->max, form, len);
                }
                return NULL;
        case A_LVSIZE:
                return lvsize_problem(v, why);
        default:
                return NULL;
        }
}

/* v against a rule for words, names, paths and text (every kind but the
 * numeric ones): NULL when it passes, else the accepted form (written into
 * form when it quotes the rule). */
static const char *text_problem(const struct attr_rule *r, const char *v, char *form, size_t len)
{
        switch (r->kind) {
        case A_IDENT:
                return ident_ok(v) ? NULL : "an identifier: a letter, then up to 63 letters, digits, _ + or -";
        case A_REFS:
                return refs_ok(v) ? NULL : "1 to 1024 blank-separated references: an id, or id.part / vg/lv";
        case A_BOOL:
                return !strcmp(v, "true") || !strcmp(v, "false") ? NULL : "true or false";
        case A_ENUM:
                if (enum_ok(v, r->form))
                        return NULL;
                snprintf(form, len, "one of: %s", r->form);
                return form;
        case A_GLOB:
        case A_TEXT:
                if (printable(v, r->min, r->max))
                        return NULL;
                snprintf(form, len, "%" PRIu64 " to %" PRIu64 " printable ASCII characters, no control characters",
                         r->min, r->max);
                return form;
        case A_WORD:
                if (!printable(v, r->min, r->max) || strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(v))
                        return "a word of lower-case letters, digits and - (such as left-symmetric)";
                return NULL;
        case A_MOUNTPOINT: {
                const char *w = NULL;
                char *norm = mountpoint_normalize(v, &w);
                free(norm);
                if (norm)
                        return NULL;
                snprintf(form, len, "an absolute path inside the root (%s)", w);
                return form;
        }
        case A_MOUNTOPTS:
                return mount_options_safe(v) ? NULL
                                             : "comma-separated mount options of letters, digits and ._=:/+@- (no "
                                               "blanks; fstab fields cannot hold them)";
        case A_LABEL:
                if (!printable(v, 1, 12) ||
                    strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-%") != strlen(v))
                        return "1 to 12 letters, digits, _ - or %n";
                return NULL;
        case A_SYSCTL_KEY:
                return sysctl_key_safe(v) ? NULL
                                          : "a sysctl key: lower-case words joined by dots, such as vm.dirty_ratio";
        case A_SYSCTL_VALUE:
                return sysctl_value_safe(v) ? NULL
                                            : "1 to 256 printable ASCII characters, no leading or trailing blank";
        default:
                return NULL;
        }
}

/* Checks one attribute against its rule; on failure reports the line, the
 * attribute, the value given and the accepted form. */
static void check_attr(struct loader *l, xmlNode *n, const struct attr_rule *r, const char *v)
{
        char form[256];
        const char *accepted, *why = "is not valid";
        bool numeric = r->kind == A_COUNT || r->kind == A_SIZE || r->kind == A_LVSIZE;
        accepted = numeric ? number_problem(r, v, form, sizeof(form), &why) : text_problem(r, v, form, sizeof(form));
        if (!accepted)
                return;
        char *obj = xasprintf("<%s>", (const char *)n->name);
        char *shown = comment_dup(v);
        char *msg = xasprintf("attribute %s=\"%s\" %s: expected %s", r->attr, shown, why, accepted);
        loader_error(l, line_of(n), obj, r->kind == A_COUNT || r->kind == A_SIZE ? RULE_RANGE : RULE_SCHEMA, msg);
        l->bad_lines = xrealloc(l->bad_lines, (l->n_bad_lines + 1) * sizeof(int));
        l->bad_lines[l->n_bad_lines++] = line_of(n);
        free(msg);
        free(shown);
        free(obj);
}

/* The rule of a <tune> attribute, from the one tune table. */
static const struct attr_rule *tune_rule(const char *elem, const char *attr, struct attr_rule *buf)
{
        if (strcmp(elem, "tune"))
                return NULL;
        for (int a = 0; a < _TUNE_MAX; a++) {
                const struct tune_def *d = &tune_defs[a];
                if (strcmp(d->xml, attr) || d->type == TUNE_SECONDS) /* seconds: the schema's pattern */
                        continue;
                *buf = (struct attr_rule){.elem = "tune", .attr = d->xml, .min = d->min, .max = d->max, .form = d->form,
                                          .kind = d->type == TUNE_UINT ? A_COUNT : A_ENUM};
                return buf;
        }
        return NULL;
}

/* An element the schema does not allow in its parent, or an attribute it does
 * not allow on the element, named with its line and the nearest allowed name
 * (libxml2 says "Extra element tune in interleave" for a misspelt attribute
 * of <tune>). Returns whether it reported. */
static bool check_names(struct loader *l, xmlNode *n)
{
        const char *name = (const char *)n->name;
        xmlNode *p = n->parent;
        bool said = false;
        if (p && p->type == XML_ELEMENT_NODE && schema_elem_known((const char *)p->name)) {
                char *const *kids = schema_elem_children((const char *)p->name);
                if (!schema_name_in(kids, name)) {
                        _cleanup_free_ char *shown = comment_dup(name), *list = strv_join(kids, ", ");
                        const char *near = schema_nearest(kids, name);
                        _cleanup_free_ char *msg = xasprintf(
                                "<%s> is not an element of <%s>%s%s%s (it takes %s)", shown, (const char *)p->name,
                                near ? ": did you mean <" : "", near ? near : "", near ? ">?" : "",
                                list && *list ? list : "no elements");
                        loader_error(l, line_of(n), NULL, RULE_UNKNOWN_ELEMENT, msg);
                        said = true;
                }
        }
        if (!schema_elem_known(name))
                return said;
        char *const *attrs = schema_elem_attrs(name);
        for (xmlAttr *a = n->properties; a; a = a->next) {
                const char *an = (const char *)a->name;
                if (a->ns || schema_name_in(attrs, an))
                        continue;
                _cleanup_free_ char *shown = comment_dup(an), *list = strv_join(attrs, ", ");
                const char *near = schema_nearest(attrs, an);
                _cleanup_free_ char *obj = xasprintf("<%s>", name);
                _cleanup_free_ char *msg = xasprintf("<%s> has no attribute %s%s%s%s (it takes %s)", name, shown,
                                                     near ? ": did you mean " : "", near ? near : "", near ? "?" : "",
                                                     list && *list ? list : "none");
                loader_error(l, line_of(n), obj, RULE_UNKNOWN_ATTRIBUTE, msg);
                said = true;
        }
        return said;
}

/* Every attribute of every element against the table, before RELAX NG, so
 * that a bad value is reported with its form rather than as "failed to
 * validate attributes". Counts the elements; returns false past the cap. */
bool check_tree(struct loader *l, xmlNode *n, size_t *count)
{
        for (; n; n = n->next) {
                if (n->type != XML_ELEMENT_NODE)
                        continue;
                if (++*count > PROFILE_MAX_ELEMENTS)
                        return false;
                if (!l->match_only && check_names(l, n)) {
                        /* RELAX NG's vaguer word on the same line is not repeated */
                        l->bad_lines = xrealloc(l->bad_lines, (l->n_bad_lines + 1) * sizeof(int));
                        l->bad_lines[l->n_bad_lines++] = line_of(n);
                }
                for (xmlAttr *a = l->match_only ? NULL : n->properties; a; a = a->next) {
                        struct attr_rule tr;
                        const struct attr_rule *rule = tune_rule((const char *)n->name, (const char *)a->name, &tr);
                        for (size_t i = 0; i < ELEMENTSOF(attr_rules) && !rule; i++)
                                if ((!strcmp(attr_rules[i].elem, "*") || !strcmp(attr_rules[i].elem, (const char *)n->name)) &&
                                    !strcmp(attr_rules[i].attr, (const char *)a->name))
                                        rule = &attr_rules[i];
                        if (!rule)
                                continue; /* RELAX NG names unknown attributes */
                        xmlChar *v = xmlNodeListGetString(n->doc, a->children, 1);
                        check_attr(l, n, rule, v ? (const char *)v : "");
                        xmlFree(v);
                }
                if (!check_tree(l, n->children, count))
                        return false;
        }
        return true;
}

