/* SPDX-License-Identifier: GPL-2.0-or-later
 * libxml2 is used for parsing and for RELAX NG validation (structure, value
 * shapes, enumerations): a maintained validator with line numbers beats
 * hand-written structure checks. */
#include "input/profile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/tree.h>

#include "input/profile_internal.h"
#include "base/sanitize.h"

/* Input limits: a profile is a short hand-written file. */
#define PROFILE_MAX_BYTES (4 * MiB)
#define PROFILE_MAX_SYSCTLS 256


static bool line_reported(const struct loader *l, int line)
{
        for (size_t i = 0; i < l->n_bad_lines; i++)
                if (l->bad_lines[i] == line)
                        return true;
        return false;
}

static void on_xml_error(void *data, xmlError *e)
{
        struct loader *l = data;
        char *raw = xstrdup(e->message ? e->message : "invalid");
        strip(raw);
        char *msg = comment_dup(raw);
        free(raw);
        const char *elem = NULL;
        int line = e->line;
        if (e->node && ((xmlNode *)e->node)->type == XML_ELEMENT_NODE) {
                elem = (const char *)((xmlNode *)e->node)->name;
                if (line <= 0)
                        line = (int)xmlGetLineNo((xmlNode *)e->node);
        }
        /* libxml2 gives some RELAX NG errors no line ("Extra element hwraid in
         * interleave"); the error that follows names the element: they take its line */
        if (line <= 0) {
                if (strv_len(l->pending) < 16)
                        strv_push(&l->pending, msg);
                free(msg);
                return;
        }
        l->last_line = line;
        /* an attribute or element our own check already explained needs no second, vaguer word
         * (nor do the line-less ones that take this line) */
        bool explained = e->domain == XML_FROM_RELAXNGV && line_reported(l, line);
        for (size_t i = 0; !explained && l->pending && l->pending[i]; i++)
                loader_error(l, line, NULL, RULE_SCHEMA, l->pending[i]);
        strv_free(l->pending);
        l->pending = NULL;
        if (explained) {
                free(msg);
                return;
        }
        char *obj = elem ? xasprintf("<%s>", elem) : NULL;
        loader_error(l, line, obj, e->domain == XML_FROM_RELAXNGV ? RULE_SCHEMA : RULE_XML, msg);
        free(obj);
        free(msg);
}

char *attr(xmlNode *n, const char *name)
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

void bad_value(struct loader *l, xmlNode *n, const char *what, const char *value, enum rule_id rule)
{
        char *obj = xasprintf("<%s>", (const char *)n->name);
        char *v = comment_dup(value);
        char *msg = xasprintf("%s=\"%s\" is not valid", what, v);
        loader_error(l, line_of(n), obj, rule, msg);
        free(msg);
        free(v);
        free(obj);
}

/* Values were checked against attr_rules before these run; the checks here
 * only keep a value that slipped through from wrapping. */
uint64_t size_attr(struct loader *l, xmlNode *n, const char *name)
{
        _cleanup_free_ char *v = attr(n, name);
        uint64_t b = 0;
        if (v && parse_size(v, &b) < 0)
                bad_value(l, n, name, v, RULE_SIZE);
        return b;
}

uint64_t uint_attr(struct loader *l, xmlNode *n, const char *name, uint64_t dflt)
{
        _cleanup_free_ char *v = attr(n, name);
        uint64_t u = dflt;
        if (v && parse_uint_range(v, 0, UINT32_MAX, &u) < 0)
                bad_value(l, n, name, v, RULE_RANGE);
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
                        bad_value(l, n, "size", t, RULE_SIZE_PERCENT);
                free(num);
                s->percent = (unsigned)v;
                s->kind = strcmp(pct, "%FREE") == 0 ? SIZE_PERCENT_FREE : SIZE_PERCENT;
        } else if (len) {
                s->kind = SIZE_BYTES;
                if (parse_size(t, &s->bytes) < 0 || s->bytes == 0)
                        bad_value(l, n, "size", t, RULE_SIZE);
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

/* The array doubles when n reaches a power of two (its capacity then), so a
 * long list is not copied once an element: 9000 <sysctl> took 6 s under ASan,
 * whose realloc always copies and quarantines the old block. FIT trims it to
 * n once parsed, so that ASan sees the true end of each array. */
#define APPEND(arr, n) \
        (((n) & ((n) - 1)) == 0 ? (void)(arr = xrealloc(arr, ((n) ? 2 * (n) : 1) * sizeof(*(arr)))) : (void)0, \
         memset(&(arr)[n], 0, sizeof(*(arr))), &(arr)[(n)++])
#define FIT(arr, n) ((arr) ? (void)(arr = xrealloc(arr, ((n) ? (n) : 1) * sizeof(*(arr)))) : (void)0)

static void profile_fit(struct profile *p)
{
        for (size_t i = 0; i < p->n_disks; i++)
                FIT(p->disks[i].parts, p->disks[i].n_parts);
        for (size_t i = 0; i < p->n_mds; i++)
                FIT(p->mds[i].parts, p->mds[i].n_parts);
        for (size_t i = 0; i < p->n_vgs; i++)
                FIT(p->vgs[i].lvs, p->vgs[i].n_lvs);
        FIT(p->disks, p->n_disks);
        FIT(p->mds, p->n_mds);
        FIT(p->vgs, p->n_vgs);
        FIT(p->fss, p->n_fss);
        FIT(p->sysctls, p->n_sysctls);
        FIT(p->allows, p->n_allows);
}

/* <gpt> of a <disks> or an <md>: its partitions */
static void parse_gpt(struct loader *l, xmlNode *n, struct p_partition **parts, size_t *n_parts)
{
        for (xmlNode *pc = n->children; pc; pc = pc->next) {
                if (!is_elem(pc, "partition"))
                        continue;
                struct p_partition *pp = APPEND(*parts, *n_parts);
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

static void parse_disks(struct loader *l, xmlNode *n, struct profile *p)
{
        struct p_disks *g = APPEND(p->disks, p->n_disks);
        g->line = line_of(n);
        g->id = attr(n, "id");
        g->count = (unsigned)uint_attr(l, n, "count", 1);
        g->wipe = bool_attr(n, "wipe");
        g->preserve = bool_attr(n, "preserve");
        g->multipath = bool_attr(n, "multipath");
        g->system = bool_attr(n, "system");
        g->hwraid.level = RAID_NONE;
        g->match.rotational = -1;
        if (l->match_only && !g->id)
                g->id = xstrdup("?");
        for (xmlNode *c = n->children; c; c = c->next) {
                if (l->match_only && !is_elem(c, "match"))
                        continue;
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
                        _cleanup_free_ char *from = attr(c, "from");
                        h->from_controller = streq_ptr(from, "controller");
                        _cleanup_free_ char *lv = attr(c, "level");
                        if (!h->from_controller && raid_level_parse(lv, &h->level) < 0)
                                bad_value(l, c, "level", lv, RULE_RAID_LEVEL);
                        h->members = (unsigned)uint_attr(l, c, "members", 0);
                        h->legs = (unsigned)uint_attr(l, c, "legs", 0);
                        h->chunk_bytes = size_attr(l, c, "chunk");
                } else if (is_elem(c, "tune")) {
                        parse_tune(l, c, &g->tune);
                } else if (is_elem(c, "gpt")) {
                        g->gpt = true;
                        parse_gpt(l, c, &g->parts, &g->n_parts);
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
                bad_value(l, n, "level", lv, RULE_RAID_LEVEL);
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
        for (xmlNode *c = n->children; c; c = c->next) {
                if (is_elem(c, "tune"))
                        parse_tune(l, c, &m->tune);
                else if (is_elem(c, "gpt")) {
                        m->gpt = true;
                        parse_gpt(l, c, &m->parts, &m->n_parts);
                }
        }
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
        v->data_alignment_bytes = size_attr(l, n, "data-alignment");
        v->extent_bytes = size_attr(l, n, "extent-size");
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
        struct p_xfs *f = APPEND(p->fss, p->n_fss);
        f->line = line_of(n);
        _cleanup_free_ char *on = attr(n, "on");
        f->on = strv_split(on, " \t\n");
        f->label = attr(n, "label");
        _cleanup_free_ char *mp = attr(n, "mountpoint");
        if (mp) {
                const char *why = NULL;
                f->mountpoint = mountpoint_normalize(mp, &why);   /* "/d1/" is "/d1" */
                if (!f->mountpoint)
                        bad_value(l, n, "mountpoint", mp, RULE_MOUNTPOINT);
        }
        f->mkfs_options = attr(n, "mkfs-options");
        f->mount_options = attr(n, "mount-options");
        f->preserve = bool_attr(n, "preserve");
        f->system = bool_attr(n, "system");
        _cleanup_free_ char *bc = attr(n, "boot-critical");
        f->boot_critical = !bc || strcmp(bc, "false") != 0;
        _cleanup_free_ char *sw = attr(n, "swalloc");
        f->swalloc = sw ? bool_attr(n, "swalloc") : -1;
        _cleanup_free_ char *lsu = attr(n, "log-stripe-unit");
        f->log_stripe_unit = lsu ? bool_attr(n, "log-stripe-unit") : -1;
}

/* Reads the profile, refusing what no profile needs: more than 4 MiB, NUL
 * bytes (binary, or UTF-16 that would hide a DOCTYPE from the scan below), and
 * any DOCTYPE or entity declaration (entity expansion is how a 110 KB file
 * becomes gigabytes). Returns 0 or -errno / -EINVAL with a diagnostic. */
static int read_profile(struct loader *l, char **ret, size_t *ret_len)
{
        int fd = open(l->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0) {
                int r = -errno;
                diag_add(l->d, DIAG_ERROR, l->path, 0, NULL, RULE_IO, "cannot open the profile: %s", strerror(-r));
                return r;
        }
        struct stat st;
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
                close(fd);
                loader_error(l, 1, NULL, RULE_INPUT, "the profile is not a regular file");
                return -EINVAL;
        }
        struct sbuf b = {0};
        char tmp[65536];
        for (;;) {
                ssize_t n = read(fd, tmp, sizeof(tmp));
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        break;
                if (b.len + (size_t)n > PROFILE_MAX_BYTES) {
                        close(fd);
                        free(b.s);
                        char *m = xasprintf("the profile is larger than %d MiB (%" PRIu64 " bytes); a profile is a short "
                                            "hand-written file", (int)(PROFILE_MAX_BYTES / MiB), (uint64_t)st.st_size);
                        loader_error(l, 1, NULL, RULE_INPUT_SIZE, m);
                        free(m);
                        return -EINVAL;
                }
                if (b.len + (size_t)n + 1 > b.cap) {
                        b.cap = (b.len + (size_t)n + 1) * 2;
                        b.s = xrealloc(b.s, b.cap);
                }
                memcpy(b.s + b.len, tmp, (size_t)n);
                b.len += (size_t)n;
                b.s[b.len] = 0;
        }
        close(fd);
        if (!b.len) {
                free(b.s);
                loader_error(l, 1, NULL, RULE_INPUT, "the profile is empty: expected <profile version=\"1\">");
                return -EINVAL;
        }
        const char *nul = memchr(b.s, 0, b.len);
        if (nul) {
                int line = 1;
                for (const char *p = b.s; p < nul; p++)
                        line += *p == '\n';
                free(b.s);
                loader_error(l, line, NULL, RULE_INPUT,
                             "the profile holds a NUL byte: it is binary or not UTF-8 (expected a UTF-8 XML text file)");
                return -EINVAL;
        }
        static const char *const refused[] = {"<!DOCTYPE", "<!ENTITY"};
        for (size_t k = 0; k < ELEMENTSOF(refused); k++) {
                const char *at = strstr(b.s, refused[k]);
                if (!at)
                        continue;
                int line = 1;
                for (const char *p = b.s; p < at; p++)
                        line += *p == '\n';
                free(b.s);
                char *m = xasprintf("%s is refused: a profile needs no document type and no entities (entity "
                                    "expansion can make a small file use gigabytes)", refused[k]);
                loader_error(l, line, NULL, RULE_DOCTYPE, m);
                free(m);
                return -EINVAL;
        }
        *ret = b.s;
        *ret_len = b.len;
        return 0;
}

/* A set of strings for linear duplicate checks: open addressing, FNV-1a. */
struct strset {
        const char **keys;
        int *lines;
        size_t cap;
};

static int strset_add(struct strset *s, const char *key, int line)
{
        uint64_t h = UINT64_C(1469598103934665603);
        for (const char *p = key; *p; p++)
                h = (h ^ (unsigned char)*p) * UINT64_C(1099511628211);
        for (size_t i = h & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
                if (!s->keys[i]) {
                        s->keys[i] = key;
                        s->lines[i] = line;
                        return 0;
                }
                if (!strcmp(s->keys[i], key))
                        return s->lines[i];
        }
}

/* Sysctls, at load: how many, which keys, each key once (linear). */
static void check_sysctls_load(struct loader *l, const struct profile *p)
{
        if (p->n_sysctls > PROFILE_MAX_SYSCTLS) {
                char *m = xasprintf("%zu <sysctl> elements; a profile sets at most %d", p->n_sysctls, PROFILE_MAX_SYSCTLS);
                loader_error(l, p->sysctls[PROFILE_MAX_SYSCTLS].line, "sysctl", RULE_SYSCTL_COUNT, m);
                free(m);
                return;
        }
        bool allow_any = profile_allows(p, RULE_SYSCTL_KEY);
        struct strset set = {.cap = 512};
        set.keys = xcalloc(set.cap, sizeof(*set.keys));
        set.lines = xcalloc(set.cap, sizeof(*set.lines));
        for (size_t i = 0; i < p->n_sysctls; i++) {
                const struct p_sysctl *x = &p->sysctls[i];
                if (!x->key || !x->value)
                        continue;
                if (!allow_any && !sysctl_key_allowed(x->key)) {
                        char *k = comment_dup(x->key);
                        char *m = xasprintf("sysctl key %s is not on the storage allow-list (%s); to set it anyway add "
                                            "<allow rule=\"sysctl-key\" reason=\"...\"/>",
                                            k, sysctl_allowed_text);
                        loader_error(l, x->line, "sysctl", RULE_SYSCTL_KEY, m);
                        free(m);
                        free(k);
                }
                int prev = strset_add(&set, x->key, x->line);
                if (prev) {
                        char *k = comment_dup(x->key);
                        char *m = xasprintf("%s is set twice (also line %d)", k, prev);
                        loader_error(l, x->line, "sysctl", RULE_SYSCTL_DUPLICATE, m);
                        free(m);
                        free(k);
                }
        }
        free(set.keys);
        free(set.lines);
}

/* RELAX NG validation with the built-in schema; errors into l. */
static int validate_schema(struct loader *l, xmlDoc *doc, xmlNode *root, xmlRelaxNGValidCtxt **ret_vctx,
                           xmlRelaxNGParserCtxt **ret_pctx)
{
        xmlRelaxNGParserCtxt *pctx = NULL;
        xmlRelaxNGValidCtxt *vctx = NULL;
        int r = 0;
        /* the built-in schema is compiled once per process (it does not change) */
        static xmlRelaxNG *compiled;
        if (!compiled) {
                pctx = xmlRelaxNGNewMemParserCtxt(storprov_schema_rng, (int)strlen(storprov_schema_rng));
                compiled = pctx ? xmlRelaxNGParse(pctx) : NULL;
        }
        vctx = compiled ? xmlRelaxNGNewValidCtxt(compiled) : NULL;
        if (!vctx) {
                diag_add(l->d, DIAG_ERROR, NULL, 0, NULL, RULE_INTERNAL, "the built-in schema does not load");
                r = -EINVAL;
                goto done;
        }
        xmlRelaxNGSetValidStructuredErrors(vctx, (xmlStructuredErrorFunc)on_xml_error, l);
        int valid = xmlRelaxNGValidateDoc(vctx, doc);
        for (size_t i = 0; l->pending && l->pending[i]; i++)
                loader_error(l, l->last_line > 0 ? l->last_line : line_of(root), NULL, RULE_SCHEMA, l->pending[i]);
        strv_free(l->pending);
        l->pending = NULL;
        if (valid != 0 || l->errors) {
                if (!l->errors)
                        loader_error(l, line_of(root), "<profile>", RULE_SCHEMA,
                                     "the profile does not follow the schema");
                r = -EINVAL;
                goto done;
        }

done:
        *ret_vctx = vctx;
        *ret_pctx = pctx;
        return r;
}

/* The validated document into the profile structures. */
static void parse_root(struct loader *l, xmlNode *root, const char *path, struct profile *ret)
{
        ret->name = attr(root, "name");
        for (xmlNode *n = root->children; n; n = n->next) {
                if (is_elem(n, "description")) {
                        xmlChar *t = xmlNodeGetContent(n);
                        ret->description = strip(xstrdup((const char *)t));
                        xmlFree(t);
                } else if (is_elem(n, "disks"))
                        parse_disks(l, n, ret);
                else if (l->match_only)
                        continue;
                else if (is_elem(n, "md"))
                        parse_md(l, n, ret);
                else if (is_elem(n, "vg"))
                        parse_vg(l, n, ret);
                else if (is_elem(n, "xfs"))
                        parse_xfs(l, n, ret);
                else if (is_elem(n, "sysctl")) {
                        struct p_sysctl *s = APPEND(ret->sysctls, ret->n_sysctls);
                        s->line = line_of(n);
                        s->key = attr(n, "key");
                        s->value = attr(n, "value");
                } else if (is_elem(n, "allow")) {
                        struct p_allow *a = APPEND(ret->allows, ret->n_allows);
                        a->line = line_of(n);
                        a->rule = attr(n, "rule");
                        a->reason = attr(n, "reason");
                }
        }
        if (!l->match_only)
                check_sysctls_load(l, ret);
        if (!ret->name) {
                /* default: the file name without directory and .xml, as an identifier
                 * (it is printed into comments of generated files) */
                const char *b = strrchr(path, '/');
                b = b ? b + 1 : path;
                ret->name = comment_dup(b);
                char *dot = strrchr(ret->name, '.');
                if (dot && strcmp(dot, ".xml") == 0)
                        *dot = 0;
        }
}

static int load(const char *path, struct profile *ret, struct diags *d, bool match_only)
{
        struct loader l = {.path = path, .d = d, .match_only = match_only};
        struct profile p = {.path = xstrdup(path)};
        int r = 0;

        xmlDoc *doc = NULL;
        xmlRelaxNGParserCtxt *pctx = NULL;
        xmlRelaxNGValidCtxt *vctx = NULL;
        xmlParserCtxt *ctx = NULL;
        char *text = NULL;
        size_t text_len = 0;

        if ((r = read_profile(&l, &text, &text_len)) < 0)
                goto out;
        ctx = xmlNewParserCtxt();
        if (!ctx) {
                r = -ENOMEM;
                goto out;
        }
        /* libxml2 2.9 has no per-context handler for parse errors; the global
         * one is set for the duration of this call only. The encoding is
         * fixed: a declaration cannot switch to one the DOCTYPE scan misses.
         * No DTD is loaded, no entity substituted, nothing fetched. */
        xmlSetStructuredErrorFunc(&l, (xmlStructuredErrorFunc)on_xml_error);
        doc = xmlCtxtReadMemory(ctx, text, (int)text_len, path, "UTF-8", XML_PARSE_NONET | XML_PARSE_NOWARNING);
        xmlSetStructuredErrorFunc(NULL, NULL);
        if (!doc) {
                if (!l.errors)
                        loader_error(&l, 1, NULL, RULE_XML, "cannot parse the profile as XML");
                r = -EINVAL;
                goto out;
        }
        if (doc->intSubset || doc->extSubset) {
                loader_error(&l, 1, NULL, RULE_DOCTYPE, "a DOCTYPE is refused: a profile needs no document type");
                r = -EINVAL;
                goto out;
        }
        xmlNode *root = xmlDocGetRootElement(doc);
        size_t n_elems = 0;
        if (!check_tree(&l, root, &n_elems)) {
                char *m = xasprintf("the profile has more than %d elements; a profile is a short hand-written file",
                                    PROFILE_MAX_ELEMENTS);
                loader_error(&l, 1, NULL, RULE_INPUT_SIZE, m);
                free(m);
                r = -EINVAL;
                goto out;
        }

        if (!match_only && (r = validate_schema(&l, doc, root, &vctx, &pctx)) < 0)
                goto out;
        parse_root(&l, root, path, &p);
        profile_fit(&p);
        if (l.errors)
                r = match_only ? 1 : -EINVAL;
out:
        if (vctx)
                xmlRelaxNGFreeValidCtxt(vctx);
        if (pctx)
                xmlRelaxNGFreeParserCtxt(pctx);
        if (doc)
                xmlFreeDoc(doc);
        if (ctx)
                xmlFreeParserCtxt(ctx);
        free(text);
        free(l.bad_lines);
        strv_free(l.pending);
        if (r < 0)
                profile_free(&p);
        else
                *ret = p;
        return r;
}

int profile_load(const char *path, struct profile *ret, struct diags *d)
{
        return load(path, ret, d, false);
}

int profile_load_match(const char *path, struct profile *ret, struct diags *d)
{
        return load(path, ret, d, true);
}


static void psize_free(struct p_size *s) { free(s->text); }

static void parts_free(struct p_partition *parts, size_t n)
{
        for (size_t j = 0; j < n; j++) {
                free(parts[j].id);
                free(parts[j].name);
                psize_free(&parts[j].size);
        }
        free(parts);
}

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
                parts_free(g->parts, g->n_parts);
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
                parts_free(m->parts, m->n_parts);
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

bool profile_allows(const struct profile *p, enum rule_id rule)
{
        for (size_t i = 0; i < p->n_allows; i++)
                if (streq_ptr(p->allows[i].rule, rule_name(rule)))
                        return true;
        return false;
}
