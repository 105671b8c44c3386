/* SPDX-License-Identifier: GPL-2.0-or-later
 * The plan as text (for people, and the dry run) and as JSON (for tools and
 * tests). json-c builds the JSON: escaping by hand is where bugs live. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "plan/argv.h"
#include "plan/plan.h"
#include "base/jsonv.h"
#include "render/render.h"
#include "base/version.h"

static const char *part_type_name(enum part_type t)
{
        switch (t) {
        case PART_RAID:
                return "raid";
        case PART_LVM:
                return "lvm";
        default:
                return "linux";
        }
}

static void text_geom(struct sbuf *b, const struct pl_obj *o)
{
        char a[32], c[32];
        if (!o->geom.su_bytes) {
                if (o->geom_why)
                        sbuf_printf(b, "      geometry: none (%s)\n", o->geom_why);
                return;
        }
        sbuf_printf(b, "      geometry: su %s, sw %u, full stripe %s%s [%s: %s]\n", fmt_size_exact(o->geom.su_bytes, a),
                    o->geom.sw, fmt_size_exact(o->geom.full_stripe_bytes, c), o->geom.parity ? ", parity" : "",
                    val_source_name(o->geom_src), o->geom_why ? o->geom_why : "");
}

static void text_tune(struct sbuf *b, const struct pl_obj *o)
{
        if (!o->tune.line)
                return;
        bool given = false;
        for (int a = 0; a < _TUNE_MAX; a++)
                if (o->tune.val[a] && !o->tune.derived[a]) {
                        sbuf_puts(b, given ? "" : "      tune:");
                        sbuf_printf(b, " %s %s", tune_defs[a].name, o->tune.val[a]);
                        given = true;
                }
        if (given)
                sbuf_printf(b, " [profile line %d]\n", o->tune.line);
        for (int a = 0; a < _TUNE_MAX; a++)
                if (o->tune.val[a] && o->tune.derived[a])
                        sbuf_printf(b, "      tune: %s %s [derived: %s]\n", tune_defs[a].name, o->tune.val[a],
                                    o->tune.derived[a]);
}

/* " (found on disk; planned X)" after an identity that is there already */
#define FOUND_TEXT(id) (id)->found ? " (found on disk; planned " : "", (id)->found ? (id)->planned : "", \
                       (id)->found ? ")" : ""

/* A partitioned md: its partitions follow it in the object list. */
static bool md_is_partitioned(const struct plan *pl, const struct pl_obj *o)
{
        return o + 1 < pl->objs + pl->n_objs && o[1].kind == OBJ_PART && o[1].parent == (size_t)(o - pl->objs);
}

/* A multipath disk's map: wwid, alias, whether apply creates it, the paths and their udev identity. */
static void text_disk_multipath(struct sbuf *b, const struct pl_obj *o)
{
        sbuf_printf(b, "      multipath wwid %s, alias %s, %s, paths:", o->disk.mpath_wwid ? o->disk.mpath_wwid : "?",
                    o->disk.mpath_alias, o->disk.mpath_create ? "no map yet (apply makes it)" : "map there");
        for (size_t k = 0; k < o->disk.n_paths; k++)
                sbuf_printf(b, " %s", o->disk.paths[k]->name);
        sbuf_printf(b, "%s%s%s%s\n", o->disk.path_udev_key ? ", udev " : " (no udev identity)",
                    o->disk.path_udev_key ? o->disk.path_udev_key : "",
                    o->disk.path_udev_key ? "=" : "",
                    o->disk.path_udev_value ? o->disk.path_udev_value : "");
        if (o->disk.path_udev_why)
                sbuf_printf(b, "      paths' udev key %s: %s\n",
                            o->disk.path_udev_key ? o->disk.path_udev_key : "refused",
                            o->disk.path_udev_why);
}

static void text_disk(struct sbuf *b, const struct pl_obj *o)
{
        char a[32], c[32];
        const struct blockdev *d = o->disk.bd;
        const struct blockdev *inq = o->disk.n_paths ? o->disk.paths[0] : d; /* a map has no INQUIRY data */
        if (o->disk.missing) {
                sbuf_printf(b, "  disk %s MISSING: %s, udev %s=%s [line %d]\n      %s\n", o->id,
                            fmt_size_human(o->size_bytes, a), o->disk.udev_key, o->disk.udev_value, o->line,
                            o->disk.missing);
                return;
        }
        sbuf_printf(b, "  disk %s %s: %s %s, %s%s%s%s%s [line %d]\n", o->id, o->dev,
                    inq->vendor ? inq->vendor : "?", inq->model ? inq->model : "?",
                    fmt_size_human(o->size_bytes, a), o->disk.udev_key ? ", udev " : "",
                    o->disk.udev_key ? o->disk.udev_key : "", o->disk.udev_key ? "=" : "",
                    o->disk.udev_value ? o->disk.udev_value : "", o->line);
        if (o->disk.udev_why)
                sbuf_printf(b, "      udev key %s: %s\n", o->disk.udev_key ? o->disk.udev_key : "refused",
                            o->disk.udev_why);
        if (o->disk.n_paths)
                text_disk_multipath(b, o);
        text_geom(b, o);
        sbuf_printf(b, "      topology exported: io_min %" PRIu64 ", io_opt %" PRIu64 "%s\n",
                    d->io_min_bytes, d->io_opt_bytes,
                    !d->io_opt_bytes ? " (no stripe hints: the profile is the source of truth)" : "");
        sbuf_printf(b, "      partition alignment: %s = lcm(1m, full stripe %s, sector %" PRIu64 ") [derived]\n",
                    fmt_size_exact(o->align_bytes, a), fmt_size_exact(o->geom.full_stripe_bytes, c),
                    o->physical_sector_bytes);
        text_tune(b, o);
}

static void text_part(struct sbuf *b, const struct pl_obj *o)
{
        char a[32], c[32];
        sbuf_printf(b, "  partition %s %s: start %s (sector %" PRIu64 "), size %s, type %s [line %d]\n",
                    o->id, o->dev, fmt_size_exact(o->part.start_bytes, a), o->part.start_bytes / o->sector_bytes,
                    fmt_size_human(o->size_bytes, c), part_type_name(o->part.type), o->line);
        text_geom(b, o);
}

static void text_md(struct sbuf *b, const struct plan *pl, const struct pl_obj *o)
{
        char a[32], c[32];
        sbuf_printf(b, "  md %s %s: %s over %zu devices (%u spare), metadata %s, bitmap %s, uuid %s%s%s%s [line %d]\n",
                    o->id, o->dev, raid_level_name(o->md.level), o->md.n_members, o->md.spares,
                    o->md.metadata, o->md.bitmap, obj_uuid(o), FOUND_TEXT(&o->md.uuid), o->line);
        sbuf_puts(b, "      members:");
        for (size_t k = 0; k < o->md.n_members; k++)
                sbuf_printf(b, " %s", pl->objs[o->md.members[k]].dev);
        sbuf_puts(b, "\n");
        text_geom(b, o);
        if (md_is_partitioned(pl, o))
                sbuf_printf(b, "      size estimated %s (after mdadm's data offset); partition alignment: %s = "
                               "lcm(1m, full stripe %s, sector %" PRIu64 ") [derived]\n",
                            fmt_size_human(o->size_bytes, a), fmt_size_exact(o->align_bytes, c),
                            fmt_size_exact(o->geom.full_stripe_bytes, (char[32]){0}), o->physical_sector_bytes);
        text_tune(b, o);
}

static void text_vg(struct sbuf *b, const struct pl_obj *o)
{
        char a[32], c[32];
        sbuf_printf(b, "  vg %s: name %s, extent %s, PV data alignment %s [line %d]\n", o->id,
                    o->vg.name, fmt_size_exact(o->vg.extent_bytes, a),
                    o->vg.pv_align_bytes ? fmt_size_exact(o->vg.pv_align_bytes, c) : "LVM default (1m)",
                    o->line);
        if (o->geom_why)
                sbuf_printf(b, "      %s [derived]\n", o->geom_why);
}

static void text_lv(struct sbuf *b, const struct pl_obj *o)
{
        char a[32];
        sbuf_printf(b, "  lv %s %s", o->id, o->dev);
        if (o->lv.stripes >= 2)
                sbuf_printf(b, ": %u stripes x %s", o->lv.stripes, fmt_size_exact(o->lv.stripe_bytes, a));
        else
                sbuf_puts(b, ": linear");
        sbuf_printf(b, " [line %d]\n", o->line);
        text_geom(b, o);
        text_tune(b, o);
}

static void text_fs(struct sbuf *b, const struct pl_obj *o)
{
        char a[32];
        sbuf_printf(b, "  xfs %s on %s: label %s, uuid %s%s%s%s%s [line %d]\n", o->id, o->dev,
                    o->fs.label ? o->fs.label : "-", obj_uuid(o), FOUND_TEXT(&o->fs.uuid),
                    o->preserve ? ", preserved" : "", o->line);
        text_geom(b, o);
        if (o->geom.su_bytes)
                sbuf_printf(b, "      xfs_info will show: sunit=%" PRIu64 " swidth=%" PRIu64
                                " blks; log sunit=%" PRIu64 " blks (log su %s)\n",
                            o->geom.su_bytes / XFS_BLOCK_BYTES, o->geom.full_stripe_bytes / XFS_BLOCK_BYTES,
                            o->fs.log_su_bytes / XFS_BLOCK_BYTES, fmt_size_exact(o->fs.log_su_bytes, a));
        if (o->fs.mountpoint)
                sbuf_printf(b, "      mount: %s xfs %s%s\n", o->fs.mountpoint, o->fs.mount_options,
                            o->fs.nofail ? " (not boot-critical: fstab adds nofail)" : "");
}

static void text_obj(struct sbuf *b, const struct plan *pl, const struct pl_obj *o)
{
        switch (o->kind) {
        case OBJ_DISK:
                text_disk(b, o);
                break;
        case OBJ_PART:
                text_part(b, o);
                break;
        case OBJ_MD:
                text_md(b, pl, o);
                break;
        case OBJ_VG:
                text_vg(b, o);
                break;
        case OBJ_LV:
                text_lv(b, o);
                break;
        case OBJ_FS:
                text_fs(b, o);
                break;
        default:
                break;
        }
}

char *plan_format_text(const struct plan *pl)
{
        struct sbuf b = {0};
        char a[32], c[32], e[32];
        sbuf_printf(&b, "Plan for profile \"%s\" (%s)\n", pl->profile_name, pl->profile_path);
        if (pl->seed_src == SRC_PROFILE)
                sbuf_printf(&b, "  identities: seed %" PRIu64 " (from --seed)\n", pl->seed);
        else
                sbuf_printf(&b, "  identities: seed %" PRIu64 " (derived from the profile name and the disks' WWN/serial)\n",
                            pl->seed);
        if (pl->mem_total_bytes)
                sbuf_printf(&b, "  memory: MemTotal %s; queue depth tuning may pin %s (refused above 1/8 = %s)\n",
                            fmt_size_human(pl->mem_total_bytes, a), fmt_size_human(pl->queue_mem_bytes, c),
                            fmt_size_human(pl->mem_total_bytes / 8, e));

        if (pl->n_sysdisks) {
                sbuf_puts(&b, "\nSystem disks (never selected, never written)\n");
                for (size_t i = 0; i < pl->n_sysdisks; i++) {
                        const struct pl_sysdisk *s = &pl->sysdisks[i];
                        sbuf_printf(&b, "  %s: %s\n", s->bd->name, s->why ? s->why : "?");
                        if (s->n_paths) {
                                sbuf_puts(&b, "      paths:");
                                for (size_t k = 0; k < s->n_paths; k++)
                                        sbuf_printf(&b, " %s", s->paths[k]->name);
                                sbuf_puts(&b, "\n");
                        }
                        if (s->ks_name)
                                sbuf_printf(&b, "      OS disk: the kickstart include names it %s\n", s->ks_name);
                }
        }

        sbuf_puts(&b, "\nObjects\n");
        for (size_t i = 0; i < pl->n_objs; i++)
                text_obj(&b, pl, &pl->objs[i]);

        sbuf_puts(&b, "\nSteps\n");
        for (size_t i = 0; i < pl->n_steps; i++) {
                const struct pl_step *s = &pl->steps[i];
                sbuf_printf(&b, "  %2zu. [%s] %s", i + 1, step_kind_name(s->kind), s->desc);
                if (s->n_deps) {
                        sbuf_puts(&b, " (after");
                        for (size_t k = 0; k < s->n_deps; k++)
                                sbuf_printf(&b, "%s %zu", k ? "," : "", s->deps[k] + 1);
                        sbuf_puts(&b, ")");
                }
                sbuf_puts(&b, "\n");
                if (s->argv) {
                        char *cmd = strv_join_shell(s->argv);
                        sbuf_printf(&b, "      $ %s\n", cmd);
                        free(cmd);
                }
                const char *later = step_at_apply_note(pl, i);
                if (later)
                        sbuf_printf(&b, "      %s\n", later);
                for (size_t k = 0; k < s->n_parts; k++) {
                        const struct pl_part *p = &s->parts[k];
                        sbuf_printf(&b, "      partition %u: sectors %" PRIu64 "-%" PRIu64 " (start %s, size %s), type %s, name \"%s\"\n",
                                    p->number, p->first_sector, p->last_sector, fmt_size_exact(p->start_bytes, a),
                                    fmt_size_exact(p->size_bytes, c), part_type_name(p->type), p->name);
                }
        }

        sbuf_puts(&b, "\nFiles\n");
        for (size_t i = 0; i < pl->n_files; i++) {
                char *content = render_file(pl, pl->files[i].kind, NULL, NULL);
                sbuf_printf(&b, "--- %s\n%s", pl->files[i].path, content);
                free(content);
        }
        return sbuf_steal(&b);
}

/* ---- JSON ---------------------------------------------------------------- */


static json_object *jgeom(const struct pl_obj *o)
{
        json_object *g = json_object_new_object();
        json_object_object_add(g, "su_bytes", ju64(o->geom.su_bytes));
        json_object_object_add(g, "sw", ju64(o->geom.sw));
        json_object_object_add(g, "full_stripe_bytes", ju64(o->geom.full_stripe_bytes));
        json_object_object_add(g, "parity", json_object_new_boolean(o->geom.parity));
        json_object_object_add(g, "source", jstr(val_source_name(o->geom_src)));
        if (o->geom_why)
                json_object_object_add(g, "why", jstr(o->geom_why));
        return g;
}

/* Both identities, where one was found on disk (the plain "uuid" is the one in use). */
static void jident(json_object *j, const struct pl_ident *id)
{
        if (!id->found)
                return;
        json_object_object_add(j, "uuid_found", jstr(id->found));
        json_object_object_add(j, "uuid_planned", jstr(id->planned));
}

static json_object *jtune(const struct tune_set *t)
{
        json_object *j = json_object_new_object();
        json_object_object_add(j, "line", json_object_new_int(t->line));
        for (int a = 0; a < _TUNE_MAX; a++) {
                if (!t->val[a])
                        continue;
                int64_t n = tune_num(t, a);
                json_object_object_add(j, tune_defs[a].name, n >= 0 ? ju64((uint64_t)n) : jstr(t->val[a]));
                if (t->derived[a]) {
                        json_object *d = NULL;
                        if (!json_object_object_get_ex(j, "derived", &d)) {
                                d = json_object_new_object();
                                json_object_object_add(j, "derived", d);
                        }
                        json_object_object_add(d, tune_defs[a].name, jstr(t->derived[a]));
                }
        }
        return j;
}

static json_object *jdisk_multipath(const struct pl_obj *o)
{
        json_object *mp = json_object_new_object();
        json_object_object_add(mp, "wwid", jstr(o->disk.mpath_wwid));
        json_object_object_add(mp, "alias", jstr(o->disk.mpath_alias));
        json_object_object_add(mp, "map_exists", json_object_new_boolean(!o->disk.mpath_create));
        json_object *paths = json_object_new_array();
        for (size_t k = 0; k < o->disk.n_paths; k++)
                json_object_array_add(paths, jstr(o->disk.paths[k]->name));
        json_object_object_add(mp, "paths", paths);
        if (o->disk.path_udev_key) {
                json_object_object_add(mp, "path_udev_key", jstr(o->disk.path_udev_key));
                json_object_object_add(mp, "path_udev_value", jstr(o->disk.path_udev_value));
        }
        if (o->disk.path_udev_why)
                json_object_object_add(mp, "path_udev_why", jstr(o->disk.path_udev_why));
        return mp;
}

/* Each j<kind>_fields adds that kind's members to J, after the ones every object has (jobj). */
static void jdisk_fields(json_object *j, const struct pl_obj *o)
{
        json_object_object_add(j, "kernel_name", o->disk.bd ? jstr(o->disk.bd->name) : NULL);
        if (o->disk.missing)
                json_object_object_add(j, "missing", jstr(o->disk.missing));
        json_object_object_add(j, "partition_align_bytes", ju64(o->align_bytes));
        if (o->disk.gpt_guid)
                json_object_object_add(j, "gpt_guid", jstr(o->disk.gpt_guid));
        if (o->disk.udev_key) {
                json_object_object_add(j, "udev_key", jstr(o->disk.udev_key));
                json_object_object_add(j, "udev_value", jstr(o->disk.udev_value));
        }
        if (o->disk.udev_why)
                json_object_object_add(j, "udev_why", jstr(o->disk.udev_why));
        if (o->disk.n_paths)
                json_object_object_add(j, "multipath", jdisk_multipath(o));
}

static void jpart_fields(json_object *j, const struct plan *pl, const struct pl_obj *o)
{
        json_object_object_add(j, "number", ju64(o->part.number));
        json_object_object_add(j, "start_bytes", ju64(o->part.start_bytes));
        json_object_object_add(j, "partuuid", jstr(o->part.guid));
        json_object_object_add(j, "parent", jstr(pl->objs[o->parent].id));
}

/* An md's members or a VG's PVs, by device name. */
static json_object *jmembers(const struct plan *pl, const size_t *idx, size_t n)
{
        json_object *m = json_object_new_array();
        for (size_t k = 0; k < n; k++)
                json_object_array_add(m, jstr(pl->objs[idx[k]].dev));
        return m;
}

static void jmd_fields(json_object *j, const struct plan *pl, const struct pl_obj *o)
{
        /* a partitioned md: where its partitions are laid, and the GPT's disk GUID */
        if (md_is_partitioned(pl, o))
                json_object_object_add(j, "partition_align_bytes", ju64(o->align_bytes));
        if (o->disk.gpt_guid)
                json_object_object_add(j, "gpt_guid", jstr(o->disk.gpt_guid));
        json_object_object_add(j, "level", jstr(raid_level_name(o->md.level)));
        json_object_object_add(j, "name", jstr(o->md.name));
        json_object_object_add(j, "uuid", jstr(obj_uuid(o)));
        jident(j, &o->md.uuid);
        json_object_object_add(j, "chunk_bytes", ju64(o->md.chunk_bytes));
        json_object_object_add(j, "metadata", jstr(o->md.metadata));
        if (o->md.data_offset_bytes)
                json_object_object_add(j, "data_offset_bytes", ju64(o->md.data_offset_bytes));
        json_object_object_add(j, "bitmap", jstr(o->md.bitmap));
        json_object_object_add(j, "spares", ju64(o->md.spares));
        json_object_object_add(j, "members", jmembers(pl, o->md.members, o->md.n_members));
}

static void jvg_fields(json_object *j, const struct plan *pl, const struct pl_obj *o)
{
        json_object_object_add(j, "pvs", jmembers(pl, o->vg.pvs, o->vg.n_pvs));
        json_object_object_add(j, "name", jstr(o->vg.name));
        json_object_object_add(j, "extent_bytes", ju64(o->vg.extent_bytes));
        json_object_object_add(j, "pv_data_alignment_bytes", ju64(o->vg.pv_align_bytes));
}

static void jlv_fields(json_object *j, const struct plan *pl, const struct pl_obj *o)
{
        json_object_object_add(j, "name", jstr(o->lv.name));
        json_object_object_add(j, "vg", jstr(pl->objs[o->parent].vg.name));
        json_object_object_add(j, "stripes", ju64(o->lv.stripes ? o->lv.stripes : 1));
        json_object_object_add(j, "stripe_size_bytes", ju64(o->lv.stripes >= 2 ? o->lv.stripe_bytes : 0));
}

static void jfs_fields(json_object *j, const struct pl_obj *o)
{
        json_object_object_add(j, "uuid", jstr(obj_uuid(o)));
        jident(j, &o->fs.uuid);
        if (o->fs.label)
                json_object_object_add(j, "label", jstr(o->fs.label));
        if (o->fs.mountpoint)
                json_object_object_add(j, "mountpoint", jstr(o->fs.mountpoint));
        json_object_object_add(j, "mount_options", jstr(o->fs.mount_options));
        json_object_object_add(j, "log_su_bytes", ju64(o->fs.log_su_bytes));
        if (o->fs.nofail)
                json_object_object_add(j, "boot_critical", json_object_new_boolean(false));
}

static json_object *jobj(const struct plan *pl, const struct pl_obj *o)
{
        json_object *j = json_object_new_object();
        json_object_object_add(j, "kind", jstr(obj_kind_name(o->kind)));
        json_object_object_add(j, "id", jstr(o->id));
        json_object_object_add(j, "ref", jstr(o->ref));
        if (o->dev)
                json_object_object_add(j, "device", jstr(o->dev));
        json_object_object_add(j, "line", json_object_new_int(o->line));
        json_object_object_add(j, "preserve", json_object_new_boolean(o->preserve));
        if (o->kind != OBJ_VG)
                json_object_object_add(j, "geometry", jgeom(o));
        if (o->size_bytes)
                json_object_object_add(j, "size_bytes", ju64(o->size_bytes));
        switch (o->kind) {
        case OBJ_DISK:
                jdisk_fields(j, o);
                break;
        case OBJ_PART:
                jpart_fields(j, pl, o);
                break;
        case OBJ_MD:
                jmd_fields(j, pl, o);
                break;
        case OBJ_VG:
                jvg_fields(j, pl, o);
                break;
        case OBJ_LV:
                jlv_fields(j, pl, o);
                break;
        case OBJ_FS:
                jfs_fields(j, o);
                break;
        default:
                break;
        }
        if (o->tune.line)
                json_object_object_add(j, "tune", jtune(&o->tune));
        return j;
}

/* One element of an array, on one line, then freed: the document is never
 * held whole (12,000 LUNs make tens of MB of JSON). */
static void put_elem(FILE *f, json_object *j, bool *first)
{
        fprintf(f, "%s\n    %s", *first ? "" : ",",
                json_object_to_json_string_ext(j, JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE));
        *first = false;
        json_object_put(j);
}

static void put_member(FILE *f, const char *key, json_object *v)
{
        json_object *k = json_object_new_string(key);
        fprintf(f, "  %s: %s,\n", json_object_to_json_string_ext(k, JSON_C_TO_STRING_NOSLASHESCAPE),
                v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_NOSLASHESCAPE) : "null");
        json_object_put(k);
        json_object_put(v);
}

static json_object *jstep(const struct plan *pl, size_t i)
{
        const struct pl_step *s = &pl->steps[i];
        json_object *j = json_object_new_object();
        json_object_object_add(j, "index", ju64(i + 1));
        json_object_object_add(j, "kind", jstr(step_kind_name(s->kind)));
        if (s->obj != NO_OBJ)
                json_object_object_add(j, "object", jstr(pl->objs[s->obj].id));
        json_object_object_add(j, "description", jstr(s->desc));
        if (s->argv)
                json_object_object_add(j, "argv", jstrv(s->argv));
        if (s->kind == STEP_GPT) {
                json_object_object_add(j, "device", jstr(pl->objs[s->obj].dev));
                json_object_object_add(j, "sector_bytes", ju64(pl->objs[s->obj].sector_bytes));
                json_object *parts = json_object_new_array();
                for (size_t k = 0; k < s->n_parts; k++) {
                        const struct pl_part *p = &s->parts[k];
                        json_object *pj = json_object_new_object();
                        json_object_object_add(pj, "number", ju64(p->number));
                        json_object_object_add(pj, "first_sector", ju64(p->first_sector));
                        json_object_object_add(pj, "last_sector", ju64(p->last_sector));
                        json_object_object_add(pj, "start_bytes", ju64(p->start_bytes));
                        json_object_object_add(pj, "size_bytes", ju64(p->size_bytes));
                        json_object_object_add(pj, "type", jstr(part_type_name(p->type)));
                        json_object_object_add(pj, "name", jstr(p->name));
                        json_object_array_add(parts, pj);
                }
                json_object_object_add(j, "partitions", parts);
        }
        if (s->kind == STEP_SYSCTL) {
                json_object_object_add(j, "key", jstr(s->key));
                json_object_object_add(j, "value", jstr(s->value));
        }
        if (s->kind == STEP_SYSFS) {
                _cleanup_free_ char *pd = s->path_kname ? xasprintf("/dev/%s", s->path_kname) : NULL;
                json_object_object_add(j, "device", jstr(pd ? pd : pl->objs[s->obj].dev));
                json_object_object_add(j, "attribute", jstr(tune_defs[s->attr].sysfs));
                json_object_object_add(j, "value", jstr(s->value));
        }
        json_object *deps = json_object_new_array();
        for (size_t k = 0; k < s->n_deps; k++)
                json_object_array_add(deps, ju64(s->deps[k] + 1));
        json_object_object_add(j, "after", deps);
        return j;
}

void plan_write_json(const struct plan *pl, FILE *f)
{
        fputs("{\n", f);
        put_member(f, "format", jstr(storprov_format_plan.name));
        put_member(f, "format_version", json_object_new_int(storprov_format_plan.version));
        put_member(f, "storprov_version", jstr(storprov_version));
        put_member(f, "profile", jstr(pl->profile_name));
        put_member(f, "profile_path", jstr(pl->profile_path));
        put_member(f, "seed", ju64(pl->seed));
        put_member(f, "seed_source", jstr(pl->seed_src == SRC_PROFILE ? "option" : "derived"));
        put_member(f, "mem_total_bytes", ju64(pl->mem_total_bytes));
        put_member(f, "queue_mem_bytes", ju64(pl->queue_mem_bytes));
        if (pl->n_sysdisks) {
                json_object *a = json_object_new_array();
                for (size_t i = 0; i < pl->n_sysdisks; i++) {
                        const struct pl_sysdisk *s = &pl->sysdisks[i];
                        json_object *j = json_object_new_object();
                        json_object_object_add(j, "name", jstr(s->bd->name));
                        json_object_object_add(j, "device", jstr(s->bd->devnode));
                        json_object *paths = json_object_new_array();
                        for (size_t k = 0; k < s->n_paths; k++)
                                json_object_array_add(paths, jstr(s->paths[k]->name));
                        json_object_object_add(j, "paths", paths);
                        json_object *how = json_object_new_array();
                        if (s->how & SYSDISK_FOUND)
                                json_object_array_add(how, jstr("found"));
                        if (s->how & SYSDISK_GROUP)
                                json_object_array_add(how, jstr("system-group"));
                        if (s->how & SYSDISK_OS_DISKS)
                                json_object_array_add(how, jstr("os-disks"));
                        json_object_object_add(j, "source", how);
                        json_object_object_add(j, "why", jstr(s->why));
                        json_object_object_add(j, "group", jstr(s->group));
                        json_object_object_add(j, "kickstart_name", jstr(s->ks_name));
                        json_object_array_add(a, j);
                }
                put_member(f, "system_disks", a);
        }
        bool first = true;
        fputs("  \"objects\": [", f);
        for (size_t i = 0; i < pl->n_objs; i++)
                put_elem(f, jobj(pl, &pl->objs[i]), &first);
        fputs("\n  ],\n  \"steps\": [", f);
        first = true;
        for (size_t i = 0; i < pl->n_steps; i++)
                put_elem(f, jstep(pl, i), &first);
        fputs("\n  ],\n  \"files\": [", f);
        first = true;
        for (size_t i = 0; i < pl->n_files; i++) {
                json_object *j = json_object_new_object();
                json_object_object_add(j, "path", jstr(pl->files[i].path));
                char *content = render_file(pl, pl->files[i].kind, NULL, NULL);
                json_object_object_add(j, "content", jstr(content));
                free(content);
                put_elem(f, j, &first);
        }
        fputs("\n  ]\n}\n", f);
}

char *plan_format_json(const struct plan *pl)
{
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (!f)
                abort();
        plan_write_json(pl, f);
        fclose(f);
        return buf;
}
