/* SPDX-License-Identifier: GPL-2.0-or-later
 * libxml2 is used for parsing and for RELAX NG validation (structure, value
 * shapes, enumerations): a maintained validator with line numbers beats
 * hand-written structure checks. */
#include "profile.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/tree.h>

struct loader {
        const char *path;
        struct diags *d;
        int errors;
};

static int line_of(xmlNode *n)
{
        return n ? (int)xmlGetLineNo(n) : 0;
}

static void on_xml_error(void *data, xmlError *e)
{
        struct loader *l = data;
        char *msg = xstrdup(e->message ? e->message : "invalid");
        strip(msg);
        const char *elem = NULL;
        if (e->node && ((xmlNode *)e->node)->type == XML_ELEMENT_NODE)
                elem = (const char *)((xmlNode *)e->node)->name;
        char *obj = elem ? xasprintf("<%s>", elem) : NULL;
        diag_add(l->d, DIAG_ERROR, l->path, e->line, obj, "schema", "%s", msg);
        free(obj);
        free(msg);
        l->errors++;
}

static char *attr(xmlNode *n, const char *name)
{
        xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
        if (!v)
                return NULL;
        char *r = xstrdup((const char *)v);
        xmlFree(v);
        return r;
}

static bool is_elem(xmlNode *n, const char *name)
{
        return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

static void bad_value(struct loader *l, xmlNode *n, const char *what, const char *value, const char *rule)
{
        char *obj = xasprintf("<%s>", (const char *)n->name);
        diag_add(l->d, DIAG_ERROR, l->path, line_of(n), obj, rule, "%s \"%s\" is not valid", what, value);
        free(obj);
        l->errors++;
}

static uint64_t size_attr(struct loader *l, xmlNode *n, const char *name)
{
        _cleanup_free_ char *v = attr(n, name);
        uint64_t b = 0;
        if (v && parse_size(v, &b) < 0)
                bad_value(l, n, name, v, "size");
        return b;
}

static uint64_t uint_attr(struct loader *l, xmlNode *n, const char *name, uint64_t dflt)
{
        _cleanup_free_ char *v = attr(n, name);
        uint64_t u = dflt;
        if (v && parse_u64(v, &u) < 0)
                bad_value(l, n, name, v, "number");
        return u;
}

static bool bool_attr(xmlNode *n, const char *name)
{
        _cleanup_free_ char *v = attr(n, name);
        bool b = false;
        if (v)
                (void)parse_bool(v, &b);
        return b;
}

static void parse_psize(struct loader *l, xmlNode *n, struct p_size *s)
{
        s->text = attr(n, "size");
        const char *t = s->text;
        size_t len = t ? strlen(t) : 0;
        const char *pct = t ? strchr(t, '%') : NULL;
        if (pct) {
                uint64_t v = 0;
                char *num = strndup(t, (size_t)(pct - t));
                if (parse_u64(num, &v) < 0 || v < 1 || v > 100)
                        bad_value(l, n, "size", t, "size-percent");
                free(num);
                s->percent = (unsigned)v;
                s->kind = strcmp(pct, "%FREE") == 0 ? SIZE_PERCENT_FREE : SIZE_PERCENT;
        } else if (len) {
                s->kind = SIZE_BYTES;
                if (parse_size(t, &s->bytes) < 0 || s->bytes == 0)
                        bad_value(l, n, "size", t, "size");
        }
}

/* <tune>: every attribute of the tune table, numbers in canonical decimal. */
static void parse_tune(struct loader *l, xmlNode *n, struct tune_set *t)
{
        t->line = line_of(n);
        for (int a = 0; a < _TUNE_MAX; a++) {
                const struct tune_def *def = &tune_defs[a];
                if (def->type == TUNE_UINT) {
                        uint64_t v = uint_attr(l, n, def->xml, UINT64_MAX);
                        t->val[a] = v == UINT64_MAX ? NULL : xasprintf("%" PRIu64, v);
                } else
                        t->val[a] = attr(n, def->xml);
        }
}

#define APPEND(arr, n) (arr = xrealloc(arr, ((n) + 1) * sizeof(*(arr))), memset(&(arr)[n], 0, sizeof(*(arr))), &(arr)[(n)++])

static void parse_disks(struct loader *l, xmlNode *n, struct profile *p)
{
        struct p_disks *g = APPEND(p->disks, p->n_disks);
        g->line = line_of(n);
        g->id = attr(n, "id");
        g->count = (unsigned)uint_attr(l, n, "count", 1);
        g->wipe = bool_attr(n, "wipe");
        g->preserve = bool_attr(n, "preserve");
        g->hwraid.level = RAID_NONE;
        g->match.rotational = -1;
        for (xmlNode *c = n->children; c; c = c->next) {
                if (is_elem(c, "match")) {
                        struct p_match *m = &g->match;
                        m->line = line_of(c);
                        m->vendor = attr(c, "vendor");
                        m->model = attr(c, "model");
                        m->serial = attr(c, "serial");
                        m->wwn = attr(c, "wwn");
                        m->path = attr(c, "path");
                        m->name = attr(c, "name");
                        m->min_size_bytes = size_attr(l, c, "min-size");
                        m->max_size_bytes = size_attr(l, c, "max-size");
                        _cleanup_free_ char *rot = attr(c, "rotational");
                        if (rot)
                                m->rotational = streq_ptr(rot, "true");
                } else if (is_elem(c, "hwraid")) {
                        struct p_hwraid *h = &g->hwraid;
                        h->line = line_of(c);
                        _cleanup_free_ char *lv = attr(c, "level");
                        if (raid_level_parse(lv, &h->level) < 0)
                                bad_value(l, c, "level", lv, "raid-level");
                        h->members = (unsigned)uint_attr(l, c, "members", 0);
                        h->legs = (unsigned)uint_attr(l, c, "legs", 0);
                        h->chunk_bytes = size_attr(l, c, "chunk");
                } else if (is_elem(c, "tune")) {
                        parse_tune(l, c, &g->tune);
                } else if (is_elem(c, "gpt")) {
                        g->gpt = true;
                        for (xmlNode *pc = c->children; pc; pc = pc->next) {
                                if (!is_elem(pc, "partition"))
                                        continue;
                                struct p_partition *pp = APPEND(g->parts, g->n_parts);
                                pp->line = line_of(pc);
                                pp->id = attr(pc, "id");
                                pp->name = attr(pc, "name");
                                parse_psize(l, pc, &pp->size);
                                _cleanup_free_ char *ty = attr(pc, "type");
                                pp->type = !ty                      ? PART_AUTO
                                           : streq_ptr(ty, "raid")  ? PART_RAID
                                           : streq_ptr(ty, "lvm")   ? PART_LVM
                                                                    : PART_LINUX;
                        }
                }
        }
}

static void parse_md(struct loader *l, xmlNode *n, struct profile *p)
{
        struct p_md *m = APPEND(p->mds, p->n_mds);
        m->line = line_of(n);
        m->id = attr(n, "id");
        m->name = attr(n, "name");
        if (!m->name)
                m->name = xstrdup(m->id);
        _cleanup_free_ char *lv = attr(n, "level");
        if (raid_level_parse(lv, &m->level) < 0)
                bad_value(l, n, "level", lv, "raid-level");
        _cleanup_free_ char *devs = attr(n, "devices");
        m->devices = strv_split(devs, " \t\n");
        m->chunk_bytes = size_attr(l, n, "chunk");
        m->chunk_line = m->line;
        m->metadata = attr(n, "metadata");
        m->bitmap = attr(n, "bitmap");
        m->layout = attr(n, "layout");
        m->parity = attr(n, "parity");
        m->spares = (unsigned)uint_attr(l, n, "spares", 0);
        m->wipe = bool_attr(n, "wipe");
        m->preserve = bool_attr(n, "preserve");
        for (xmlNode *c = n->children; c; c = c->next)
                if (is_elem(c, "tune"))
                        parse_tune(l, c, &m->tune);
}

static void parse_vg(struct loader *l, xmlNode *n, struct profile *p)
{
        struct p_vg *v = APPEND(p->vgs, p->n_vgs);
        v->line = line_of(n);
        v->id = attr(n, "id");
        v->name = attr(n, "name");
        if (!v->name)
                v->name = xstrdup(v->id);
        _cleanup_free_ char *pvs = attr(n, "pvs");
        v->pvs = strv_split(pvs, " \t\n");
        v->wipe = bool_attr(n, "wipe");
        v->preserve = bool_attr(n, "preserve");
        for (xmlNode *c = n->children; c; c = c->next) {
                if (!is_elem(c, "lv"))
                        continue;
                struct p_lv *lvp = APPEND(v->lvs, v->n_lvs);
                lvp->line = line_of(c);
                lvp->name = attr(c, "name");
                parse_psize(l, c, &lvp->size);
                lvp->stripes = (unsigned)uint_attr(l, c, "stripes", 0);
                lvp->stripe_bytes = size_attr(l, c, "stripe-size");
                for (xmlNode *t = c->children; t; t = t->next)
                        if (is_elem(t, "tune"))
                                parse_tune(l, t, &lvp->tune);
        }
}

static void parse_xfs(struct loader *l, xmlNode *n, struct profile *p)
{
        (void)l;
        struct p_xfs *f = APPEND(p->fss, p->n_fss);
        f->line = line_of(n);
        _cleanup_free_ char *on = attr(n, "on");
        f->on = strv_split(on, " \t\n");
        f->label = attr(n, "label");
        f->mountpoint = attr(n, "mountpoint");
        f->mkfs_options = attr(n, "mkfs-options");
        f->mount_options = attr(n, "mount-options");
        f->preserve = bool_attr(n, "preserve");
}

int profile_load(const char *path, struct profile *ret, struct diags *d)
{
        struct loader l = {.path = path, .d = d};
        struct profile p = {.path = xstrdup(path)};
        int r = 0;

        xmlDoc *doc = NULL;
        xmlRelaxNGParserCtxt *pctx = NULL;
        xmlRelaxNGValidCtxt *vctx = NULL;

        xmlParserCtxt *ctx = xmlNewParserCtxt();
        if (!ctx) {
                r = -ENOMEM;
                goto out;
        }
        /* libxml2 2.9 has no per-context handler for parse errors; the global
         * one is set for the duration of this call only. */
        xmlSetStructuredErrorFunc(&l, (xmlStructuredErrorFunc)on_xml_error);
        doc = xmlCtxtReadFile(ctx, path, NULL, XML_PARSE_NONET | XML_PARSE_NOWARNING);
        xmlSetStructuredErrorFunc(NULL, NULL);
        if (!doc) {
                if (!l.errors)
                        diag_add(d, DIAG_ERROR, path, 0, NULL, "xml", "cannot read or parse the profile");
                r = -EINVAL;
                goto out;
        }

        /* the built-in schema is compiled once per process (it does not change) */
        static xmlRelaxNG *compiled;
        if (!compiled) {
                pctx = xmlRelaxNGNewMemParserCtxt(storprov_schema_rng, (int)strlen(storprov_schema_rng));
                compiled = pctx ? xmlRelaxNGParse(pctx) : NULL;
        }
        vctx = compiled ? xmlRelaxNGNewValidCtxt(compiled) : NULL;
        if (!vctx) {
                diag_add(d, DIAG_ERROR, NULL, 0, NULL, "internal", "the built-in schema does not load");
                r = -EINVAL;
                goto out;
        }
        xmlRelaxNGSetValidStructuredErrors(vctx, (xmlStructuredErrorFunc)on_xml_error, &l);
        if (xmlRelaxNGValidateDoc(vctx, doc) != 0 || l.errors) {
                r = -EINVAL;
                goto out;
        }

        xmlNode *root = xmlDocGetRootElement(doc);
        p.name = attr(root, "name");
        for (xmlNode *n = root->children; n; n = n->next) {
                if (is_elem(n, "description")) {
                        xmlChar *t = xmlNodeGetContent(n);
                        p.description = strip(xstrdup((const char *)t));
                        xmlFree(t);
                } else if (is_elem(n, "disks"))
                        parse_disks(&l, n, &p);
                else if (is_elem(n, "md"))
                        parse_md(&l, n, &p);
                else if (is_elem(n, "vg"))
                        parse_vg(&l, n, &p);
                else if (is_elem(n, "xfs"))
                        parse_xfs(&l, n, &p);
                else if (is_elem(n, "sysctl")) {
                        struct p_sysctl *s = APPEND(p.sysctls, p.n_sysctls);
                        s->line = line_of(n);
                        s->key = attr(n, "key");
                        s->value = attr(n, "value");
                } else if (is_elem(n, "allow")) {
                        struct p_allow *a = APPEND(p.allows, p.n_allows);
                        a->line = line_of(n);
                        a->rule = attr(n, "rule");
                        a->reason = attr(n, "reason");
                }
        }
        if (!p.name) {
                /* default: the file name without directory and .xml */
                const char *b = strrchr(path, '/');
                b = b ? b + 1 : path;
                p.name = xstrdup(b);
                char *dot = strrchr(p.name, '.');
                if (dot && strcmp(dot, ".xml") == 0)
                        *dot = 0;
        }
        if (l.errors)
                r = -EINVAL;
out:
        if (vctx)
                xmlRelaxNGFreeValidCtxt(vctx);
        if (pctx)
                xmlRelaxNGFreeParserCtxt(pctx);
        if (doc)
                xmlFreeDoc(doc);
        if (ctx)
                xmlFreeParserCtxt(ctx);
        if (r < 0)
                profile_free(&p);
        else
                *ret = p;
        return r;
}


static void psize_free(struct p_size *s) { free(s->text); }

void profile_free(struct profile *p)
{
        for (size_t i = 0; i < p->n_disks; i++) {
                struct p_disks *g = &p->disks[i];
                free(g->id);
                free(g->match.vendor);
                free(g->match.model);
                free(g->match.serial);
                free(g->match.wwn);
                free(g->match.path);
                free(g->match.name);
                tune_set_free(&g->tune);
                for (size_t j = 0; j < g->n_parts; j++) {
                        free(g->parts[j].id);
                        free(g->parts[j].name);
                        psize_free(&g->parts[j].size);
                }
                free(g->parts);
        }
        for (size_t i = 0; i < p->n_mds; i++) {
                struct p_md *m = &p->mds[i];
                free(m->id);
                free(m->name);
                strv_free(m->devices);
                free(m->metadata);
                free(m->bitmap);
                free(m->layout);
                free(m->parity);
                tune_set_free(&m->tune);
        }
        for (size_t i = 0; i < p->n_vgs; i++) {
                struct p_vg *v = &p->vgs[i];
                free(v->id);
                free(v->name);
                strv_free(v->pvs);
                for (size_t j = 0; j < v->n_lvs; j++) {
                        free(v->lvs[j].name);
                        psize_free(&v->lvs[j].size);
                        tune_set_free(&v->lvs[j].tune);
                }
                free(v->lvs);
        }
        for (size_t i = 0; i < p->n_fss; i++) {
                struct p_xfs *f = &p->fss[i];
                strv_free(f->on);
                free(f->label);
                free(f->mountpoint);
                free(f->mkfs_options);
                free(f->mount_options);
        }
        for (size_t i = 0; i < p->n_sysctls; i++) {
                free(p->sysctls[i].key);
                free(p->sysctls[i].value);
        }
        for (size_t i = 0; i < p->n_allows; i++) {
                free(p->allows[i].rule);
                free(p->allows[i].reason);
        }
        free(p->disks);
        free(p->mds);
        free(p->vgs);
        free(p->fss);
        free(p->sysctls);
        free(p->allows);
        free(p->path);
        free(p->name);
        free(p->description);
        *p = (struct profile){0};
}

bool profile_allows(const struct profile *p, const char *rule)
{
        for (size_t i = 0; i < p->n_allows; i++)
                if (streq_ptr(p->allows[i].rule, rule))
                        return true;
        return false;
}
