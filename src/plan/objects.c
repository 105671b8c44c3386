/* SPDX-License-Identifier: GPL-2.0-or-later
 * Object bookkeeping: names, diagnostics, new objects, references. */
#include "plan/internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const source_names[] = {
        [SRC_NONE] = "none", [SRC_PROFILE] = "profile", [SRC_DERIVED] = "derived",
        [SRC_DETECTED] = "detected", [SRC_DEFAULT] = "default", [SRC_CONTROLLER] = "controller",
};
const char *val_source_name(enum val_source s) { return source_names[s]; }

static const char *const kind_names[_OBJ_KIND_MAX] = {
        [OBJ_DISK] = "disk", [OBJ_PART] = "partition", [OBJ_MD] = "md", [OBJ_VG] = "vg",
        [OBJ_LV] = "lv", [OBJ_FS] = "xfs",
};
const char *obj_kind_name(enum obj_kind k) { return kind_names[k]; }

static const char *const step_names[_STEP_KIND_MAX] = {
        [STEP_GPT] = "gpt", [STEP_MDADM] = "mdadm", [STEP_PVCREATE] = "pvcreate",
        [STEP_VGCREATE] = "vgcreate", [STEP_LVCREATE] = "lvcreate", [STEP_MKFS] = "mkfs",
        [STEP_SYSFS] = "sysfs", [STEP_SYSCTL] = "sysctl", [STEP_MPATH] = "multipath",
};
const char *step_kind_name(enum step_kind k) { return step_names[k]; }

static void vreport(struct ctx *c, enum diag_severity sev, int line, const char *what, enum rule_id rule,
                    const char *fmt, va_list ap)
{
        struct sbuf b = {0};
        sbuf_vprintf(&b, fmt, ap);
        diag_add(c->d, sev, c->p->path, line, what, rule, "%s", b.s ? b.s : "");
        free(b.s);
}

void plan_err(struct ctx *c, int line, const char *what, enum rule_id rule, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        vreport(c, DIAG_ERROR, line, what, rule, fmt, ap);
        va_end(ap);
}

void plan_warn(struct ctx *c, int line, const char *what, enum rule_id rule, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        vreport(c, DIAG_WARNING, line, what, rule, fmt, ap);
        va_end(ap);
}

size_t new_obj(struct ctx *c, enum obj_kind kind, const char *ref, unsigned index, const char *id,
                      const char *what, int line)
{
        struct plan *pl = c->pl;
        if (!(pl->n_objs & (pl->n_objs - 1)))   /* 0, 1, 2, 4 …: double, so that N objects cost O(N) */
                pl->objs = xrealloc(pl->objs, (pl->n_objs ? 2 * pl->n_objs : 1) * sizeof(*pl->objs));
        struct pl_obj *o = &pl->objs[pl->n_objs];
        *o = (struct pl_obj){
                .kind = kind,
                .ref = xstrdup(ref),
                .index = index,
                .id = xstrdup(id),
                .what = xstrdup(what),
                .line = line,
                .parent = NO_OBJ,
                .used_by = NO_OBJ,
                .sector_bytes = SECTOR_BYTES,
                .physical_sector_bytes = SECTOR_BYTES,
                .md = {.level = RAID_NONE},
        };
        return pl->n_objs++;
}


/* All objects answering to a reference, in order. */
static size_t resolve(struct ctx *c, const char *ref, size_t **ret)
{
        size_t n = 0;
        *ret = NULL;
        for (size_t i = 0; i < c->pl->n_objs; i++) {
                if (!streq_ptr(OBJ(c, i)->ref, ref))
                        continue;
                if (!(n & (n - 1)))
                        *ret = xrealloc(*ret, (n ? 2 * n : 1) * sizeof(size_t));
                (*ret)[n++] = i;
        }
        return n;
}

size_t resolve_blocks(struct ctx *c, char **refs, size_t user, const char *attrname, int line,
                             const char *what, size_t **ret)
{
        size_t n = 0;
        *ret = NULL;
        for (size_t r = 0; refs && refs[r]; r++) {
                size_t *v = NULL;
                size_t k = resolve(c, refs[r], &v);
                const struct p_disks *sg = c->p ? system_group_of(c, refs[r]) : NULL;
                if (sg) {
                        plan_err(c, line, what, RULE_SYSTEM_DISK,
                            "%s=\"%s\" names the OS disks of <disks id=\"%s\" system=\"true\"> (line %d); storprov "
                            "never writes to a system disk: use a data group",
                            attrname, refs[r], sg->id, sg->line);
                        free(v);
                        continue;
                }
                if (!k) {
                        char *group = strndup(refs[r], strcspn(refs[r], "."));
                        bool known_failure = strv_contains(c->failed_groups, group);
                        free(group);
                        if (known_failure)
                                continue;
                        plan_err(c, line, what, RULE_REFERENCE,
                                 "%s=\"%s\": no disks, partition, md or lv is called \"%s\"", attrname, refs[r],
                                 refs[r]);
                        continue;
                }
                for (size_t j = 0; j < k; j++) {
                        struct pl_obj *o = OBJ(c, v[j]);
                        if (o->kind == OBJ_VG || o->kind == OBJ_FS) {
                                plan_err(c, line, what, RULE_REFERENCE,
                                         "%s=\"%s\" names a %s, which holds no data blocks", attrname, refs[r],
                                         obj_kind_name(o->kind));
                                continue;
                        }
                        if (o->kind == OBJ_DISK || o->kind == OBJ_MD) {
                                /* a disk or md with partitions cannot be used whole */
                                /* plan_partitions() adds a disk's or md's partitions right after it */
                                bool has_parts = v[j] + 1 < c->pl->n_objs && OBJ(c, v[j] + 1)->kind == OBJ_PART &&
                                                 OBJ(c, v[j] + 1)->parent == v[j];
                                if (has_parts) {
                                        plan_err(c, line, what, RULE_REFERENCE,
                                            "%s=\"%s\": %s %s is partitioned (<gpt>); name a partition, e.g. \"%s.%s\"",
                                            attrname, refs[r], obj_kind_name(o->kind), o->id, refs[r], "PART");
                                        continue;
                                }
                        }
                        if (o->used) {
                                plan_err(c, line, what, RULE_USED_TWICE, "%s %s (%s) is already used by %s",
                                    obj_kind_name(o->kind), o->id, o->dev ? o->dev : "", OBJ(c, o->used_by)->what);
                                continue;
                        }
                        o->used = true;
                        o->used_by = user;
                        if (!(n & (n - 1)))
                                *ret = xrealloc(*ret, (n ? 2 * n : 1) * sizeof(size_t));
                        (*ret)[n++] = v[j];
                }
                free(v);
        }
        return n;
}

char *dm_name(const char *vg, const char *lv)
{
        struct sbuf b = {0};
        for (const char *s = vg; *s; s++)
                sbuf_puts(&b, *s == '-' ? "--" : (char[]){*s, 0});
        sbuf_puts(&b, "-");
        for (const char *s = lv; *s; s++)
                sbuf_puts(&b, *s == '-' ? "--" : (char[]){*s, 0});
        return sbuf_steal(&b);
}

static void obj_free(struct pl_obj *o)
{
        free(o->ref);
        free(o->id);
        free(o->dev);
        free(o->what);
        free(o->geom_why);
        tune_set_free(&o->tune);
        free(o->disk.udev_key);
        free(o->disk.udev_value);
        free(o->disk.udev_why);
        free(o->disk.missing);
        free(o->disk.gpt_guid);
        free(o->disk.paths);
        free(o->disk.mpath_wwid);
        free(o->disk.mpath_alias);
        free(o->disk.path_udev_key);
        free(o->disk.path_udev_value);
        free(o->disk.path_udev_why);
        free(o->part.name);
        free(o->part.guid);
        free(o->md.members);
        free(o->md.name);
        free(o->md.metadata);
        free(o->md.bitmap);
        free(o->md.layout);
        free(o->md.parity);
        free(o->md.uuid.planned);
        free(o->md.uuid.found);
        free(o->vg.name);
        free(o->vg.pvs);
        free(o->lv.name);
        free(o->lv.size.text);
        free(o->fs.label);
        free(o->fs.mountpoint);
        free(o->fs.mount_options);
        strv_free(o->fs.mkfs_extra);
        free(o->fs.uuid.planned);
        free(o->fs.uuid.found);
}

void plan_free(struct plan *pl)
{
        for (size_t i = 0; i < pl->n_objs; i++)
                obj_free(&pl->objs[i]);
        for (size_t i = 0; i < pl->n_steps; i++) {
                struct pl_step *s = &pl->steps[i];
                free(s->desc);
                strv_free(s->argv);
                for (size_t k = 0; k < s->n_parts; k++) {
                        free(s->parts[k].name);
                        free(s->parts[k].guid);
                }
                free(s->disk_guid);
                free(s->parts);
                free(s->key);
                free(s->value);
                free(s->path_kname);
                free(s->deps);
        }
        for (size_t i = 0; i < pl->n_files; i++)
                free(pl->files[i].path);
        for (size_t i = 0; i < pl->n_sysctls; i++) {
                free(pl->sysctls[i].key);
                free(pl->sysctls[i].value);
        }
        free(pl->objs);
        free(pl->steps);
        free(pl->files);
        free(pl->sysctls);
        free(pl->profile_name);
        free(pl->profile_path);
        free(pl->lvm_config);
        for (int k = 0; k < _FILE_KIND_MAX; k++)
                free(pl->file_path[k]);
        free(pl->tuned_include);
        free(pl->tuning_why);
        for (size_t i = 0; i < pl->n_sysdisks; i++) {
                free(pl->sysdisks[i].paths);
                free(pl->sysdisks[i].why);
                free(pl->sysdisks[i].ks_name);
                free(pl->sysdisks[i].group);
        }
        free(pl->sysdisks);
        *pl = (struct plan){0};
}

const char *ident_get(const struct pl_ident *id)
{
        return id->found ? id->found : id->planned;
}

void ident_set_found(struct pl_ident *id, const char *found)
{
        free(id->found);
        id->found = xstrdup(found);
}

const char *obj_uuid(const struct pl_obj *o)
{
        return o->kind == OBJ_MD ? ident_get(&o->md.uuid) : o->kind == OBJ_FS ? ident_get(&o->fs.uuid) : NULL;
}

bool same_geom(const struct stripe_geom *a, const struct stripe_geom *b)
{
        return a->su_bytes == b->su_bytes && a->sw == b->sw && a->full_stripe_bytes == b->full_stripe_bytes;
}

void set_member_type(struct ctx *c, size_t obj, enum part_type t)
{
        struct pl_obj *o = OBJ(c, obj);
        if (o->kind == OBJ_PART && o->part.type == PART_AUTO)
                o->part.type = t;
}

const struct p_disks *system_group_of(const struct ctx *c, const char *ref)
{
        size_t base = strcspn(ref, ".");
        for (size_t gi = 0; gi < c->p->n_disks; gi++) {
                const struct p_disks *g = &c->p->disks[gi];
                size_t n = strlen(g->id);
                if (!g->system || base < n || strncmp(ref, g->id, n))
                        continue;
                /* the group ("os"), one of its disks ("os1"), or a partition of either */
                size_t digits = strspn(ref + n, "0123456789");
                if (base == n || (g->count > 1 && n + digits == base))
                        return g;
        }
        return NULL;
}
