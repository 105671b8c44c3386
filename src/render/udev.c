/* SPDX-License-Identifier: GPL-2.0-or-later
 * The udev rules file (storprov owns it whole): each tuned device's queue
 * attributes, set by a rule that matches its identity (a disk's ID_WWN or
 * ID_SERIAL, an md's MD_UUID, an LV's DM_NAME, a multipath map and its
 * paths), and an md array's membership rules (udev_md.c). A value no udev
 * rule can match safely is never printed: the device gets a comment. */
#include "render/render.h"
#include "render/merge.h"

#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"
#include "render/tuned.h"

/* "# TEXT\n" with TEXT as comment text. */
static void comment_line(struct sbuf *b, const char *fmt_a, const char *a, const char *fmt_b, const char *bb, int line)
{
        sbuf_puts(b, "\n# ");
        sbuf_puts(b, fmt_a);
        comment_text(b, a);
        sbuf_puts(b, " (");
        comment_text(b, bb);
        sbuf_puts(b, fmt_b);
        if (line)
                sbuf_printf(b, ", profile line %d", line);
        sbuf_puts(b, "\n");
}

/* which: 0 every attribute; 1 a multipath map's; 2 its paths' */
static void udev_attrs_of(struct sbuf *b, const struct pl_obj *o, int which)
{
        /* in the table's order: the scheduler first, switching it resets nr_requests */
        for (int a = 0; a < _TUNE_MAX; a++)
                if (o->tune.val[a] && (which == 0 || (which == 1 && tune_on_mpath_map(a)) ||
                                       (which == 2 && tune_on_mpath_paths(a))))
                        sbuf_printf(b, ", ATTR{%s}=\"%s\"", tune_defs[a].sysfs, o->tune.val[a]);
}

/* Every attribute of o but those the tuned profile carries (--tuning=tuned|both). */
static void udev_attrs(struct sbuf *b, const struct plan *pl, const struct pl_obj *o)
{
        for (int a = 0; a < _TUNE_MAX; a++)
                if (o->tune.val[a] && !tuned_takes(pl, o, (enum tune_attr)a))
                        sbuf_printf(b, ", ATTR{%s}=\"%s\"", tune_defs[a].sysfs, o->tune.val[a]);
}

/* "# ID (DEV): scheduler, read_ahead_kb in the tuned profile PATH", after o's
 * rule (lead: o has no rule, a blank line first) */
static void udev_tuned_note(struct sbuf *b, const struct plan *pl, const struct pl_obj *o, bool lead)
{
        struct sbuf names = {0};
        for (int a = 0; a < _TUNE_MAX; a++)
                if (tuned_takes(pl, o, (enum tune_attr)a))
                        sbuf_printf(&names, "%s%s", names.len ? ", " : "", tune_defs[a].name);
        const char *why = tuned_skip_why(o);
        if (pl->tuning != TUNING_UDEV && why && (o->tune.val[TUNE_SCHEDULER] || o->tune.val[TUNE_READ_AHEAD_KB])) {
                sbuf_puts(b, lead ? "\n# " : "# ");
                comment_text(b, o->kind == OBJ_MD ? o->md.name : o->id);
                sbuf_printf(b, ": here, not in the tuned profile: %s\n", why);
        }
        if (names.len) {
                sbuf_puts(b, lead ? "\n# " : "# ");
                comment_text(b, o->id);
                if (o->kind != OBJ_DISK) { /* a disk's kernel name moves at boot */
                        sbuf_puts(b, " (");
                        comment_text(b, o->dev);
                        sbuf_puts(b, ")");
                }
                sbuf_printf(b, ": %s in the tuned profile ", names.s);
                comment_text(b, pl->file_path[FILE_TUNED]);
                sbuf_puts(b, "\n");
        }
        free(names.s);
}

/* A multipath LUN: the map by its dm uuid, the paths by the identity they share. */
static void udev_mpath(struct sbuf *b, const struct pl_obj *o)
{
        struct sbuf ma = {0}, pa = {0};
        udev_attrs_of(&ma, o, 1);
        udev_attrs_of(&pa, o, 2);
        if (ma.len) {
                if (!o->disk.udev_value || !udev_value_safe(o->disk.udev_value))
                        comment_line(b, "multipath ", o->id, "): its wwid cannot be matched safely, not persisted", o->dev, 0);
                else {
                        comment_line(b, "multipath ", o->id, ", the map)", o->dev, o->tune.line);
                        sbuf_printf(b, "ACTION==\"add|change\", SUBSYSTEM==\"block\", KERNEL==\"dm-*\", ENV{DM_UUID}==\"%s\"%s\n",
                                    o->disk.udev_value, ma.s);
                }
        }
        if (pa.len) {
                const char *mk = udev_match_key(o->disk.path_udev_key);
                if (!mk || !udev_value_safe(o->disk.path_udev_value))
                        comment_line(b, "multipath ", o->id, ", its paths): no identity that a udev rule can match safely, not persisted",
                                     o->dev, 0);
                else {
                        comment_line(b, "multipath ", o->id, ", its paths)", o->dev, o->tune.line);
                        sbuf_printf(b, "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\", KERNEL!=\"dm-*\", %s==\"%s\"%s\n",
                                    mk, o->disk.path_udev_value, pa.s);
                }
        }
        free(ma.s);
        free(pa.s);
}

/* A disk's rule, by the identity the planner picked for it; a multipath LUN's, by its map and its paths. */
static void udev_disk_rule(struct sbuf *b, const struct pl_obj *o, const char *attrs)
{
        if (o->disk.n_paths) {
                udev_mpath(b, o);
                return;
        }
        const char *mk = udev_match_key(o->disk.udev_key);
        if (!mk || !udev_value_safe(o->disk.udev_value)) {
                comment_line(b, "", o->id, "): no stable identity that a udev rule can match safely, not persisted",
                             o->dev, 0);
                return;
        }
        /* the disk by its id and profile line: its kernel name at planning time moves at boot,
         * and a comment that names it would make the file differ from verify's render */
        sbuf_puts(b, "\n# ");
        comment_text(b, o->id);
        sbuf_printf(b, ", profile line %d\n", o->tune.line);
        sbuf_printf(b, "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\", %s==\"%s\"%s\n",
                    mk, o->disk.udev_value, attrs);
}

static void udev_md_rule(struct sbuf *b, const struct pl_obj *o, const char *attrs)
{
        if (!uuid_safe(obj_uuid(o)) || !udev_value_safe(obj_uuid(o))) {
                comment_line(b, "md ", o->md.name, "): its UUID cannot be matched safely, not persisted", o->dev, 0);
                return;
        }
        comment_line(b, "md ", o->md.name, ")", o->dev, o->tune.line);
        sbuf_printf(b, "ACTION==\"add|change\", SUBSYSTEM==\"block\", KERNEL==\"md*\", ENV{DEVTYPE}==\"disk\", ENV{MD_UUID}==\"%s\"%s\n",
                    obj_uuid(o), attrs);
}

static void udev_lv_rule(struct sbuf *b, const struct plan *pl, const struct pl_obj *o, const char *attrs)
{
        const struct pl_obj *vg = &pl->objs[o->parent];
        char *dn = dm_name(vg->vg.name, o->lv.name);
        char *what = xasprintf("%s/%s", vg->vg.name, o->lv.name);
        if (!udev_value_safe(dn)) {
                comment_line(b, "lv ", what, "): its DM name cannot be matched safely, not persisted", o->dev, 0);
        } else {
                comment_line(b, "lv ", what, ")", o->dev, o->tune.line);
                sbuf_printf(b,
                            "ACTION==\"add|change\", SUBSYSTEM==\"block\", KERNEL==\"dm-*\", "
                            "ENV{DM_UDEV_DISABLE_OTHER_RULES_FLAG}!=\"1\", ENV{DM_NAME}==\"%s\"%s\n",
                            dn, attrs);
        }
        free(what);
        free(dn);
}

/* A tuned object's rule and what the tuned profile carries of it. */
static void udev_tuned_obj(struct sbuf *b, const struct plan *pl, const struct pl_obj *o)
{
        struct sbuf attrs = {0};
        udev_attrs(&attrs, pl, o);
        if (!attrs.len) {
                udev_tuned_note(b, pl, o, true);
                return;
        }
        /* Match values are globs without a quoting every udev knows:
         * a value that is not plainly safe is never printed. */
        if (o->kind == OBJ_DISK)
                udev_disk_rule(b, o, attrs.s);
        else if (o->kind == OBJ_MD)
                udev_md_rule(b, o, attrs.s);
        else if (o->kind == OBJ_LV)
                udev_lv_rule(b, pl, o, attrs.s);
        udev_tuned_note(b, pl, o, false);
        free(attrs.s);
}

char *render_udev_rules(const struct plan *pl, const char *existing, struct diags *d)
{
        (void)existing;
        (void)d;
        struct sbuf b = {0};
        render_header(&b, pl, "Block device tuning");
        sbuf_puts(&b, "# Numbered >= 70: ID_WWN/ID_SERIAL and an md member's ID_FS_TYPE/ID_FS_UUID (60-persistent-storage),\n"
                      "# MD_UUID (63-md-raid-arrays) and DM_NAME (55-dm / 10-dm) are set by then.\n");
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                if (o->kind == OBJ_MD)
                        render_udev_md_members(&b, pl, o);
                if (o->tune.line)
                        udev_tuned_obj(&b, pl, o);
        }
        return sbuf_steal(&b);
}
