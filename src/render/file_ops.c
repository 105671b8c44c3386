/* SPDX-License-Identifier: GPL-2.0-or-later
 * The output files' table (file_ops.h), and what reads it for every kind
 * alike: the list of a plan's files, the text of a file, and a shared file
 * without this profile's block. A new kind is a value of enum file_kind, its
 * row here and its renderer's file. */
#include "render/file_ops.h"
#include "render/merge.h"
#include "render/render.h"
#include "render/state.h"
#include "render/tuned.h"

#include "discover/state.h"

#include <stdlib.h>

/* ---- when a plan writes each kind ------------------------------------------ */

static bool any_obj(const struct plan *pl, bool (*is)(const struct pl_obj *o))
{
        for (size_t i = 0; i < pl->n_objs; i++)
                if (is(&pl->objs[i]))
                        return true;
        return false;
}

static bool is_mounted_fs(const struct pl_obj *o)
{
        return o->kind == OBJ_FS && o->fs.mountpoint;
}

static bool is_tuned(const struct pl_obj *o)
{
        return o->tune.line != 0;
}

static bool is_md(const struct pl_obj *o)
{
        return o->kind == OBJ_MD;
}

static bool is_multipath_lun(const struct pl_obj *o)
{
        return o->kind == OBJ_DISK && o->disk.n_paths;
}

static bool wants_fstab(const struct plan *pl)
{
        return any_obj(pl, is_mounted_fs);
}

static bool wants_udev(const struct plan *pl)
{
        return any_obj(pl, is_tuned);
}

/* --tuning=tuned: the sysctls go in the tuned profile's [sysctl], not in sysctl.d */
static bool wants_sysctl(const struct plan *pl)
{
        return pl->n_sysctls && pl->tuning != TUNING_TUNED;
}

static bool wants_tuned(const struct plan *pl)
{
        return pl->tuning != TUNING_UDEV && (any_obj(pl, is_tuned) || pl->n_sysctls);
}

static bool wants_mdadm(const struct plan *pl)
{
        return any_obj(pl, is_md);
}

static bool wants_multipath(const struct plan *pl)
{
        return any_obj(pl, is_multipath_lun);
}

static bool always(const struct plan *pl)
{
        (void)pl;
        return true;
}

/* ---- the table ------------------------------------------------------------- */

const struct file_ops file_ops_table[] = {
        {.kind = FILE_FSTAB, .name = "fstab", .path = "/etc/fstab", .wanted = wants_fstab, .render = render_fstab,
         .selinux_type = "etc_t", .merge = &fstab_merge_rule, .checked_apart = render_fstab_fs_line,
         .checked_apart_by = "the filesystems' fstab entry checks"},
        {.kind = FILE_UDEV, .name = "udev-rules", .path = "/etc/udev/rules.d/70-storprov.rules", .wanted = wants_udev,
         .render = render_udev_rules, .selinux_type = "udev_rules_t", .owner = render_owner},
        {.kind = FILE_SYSCTL, .name = "sysctl", .path = "/etc/sysctl.d/80-storprov.conf", .wanted = wants_sysctl,
         .render = render_sysctl, .selinux_type = "system_conf_t", .owner = render_owner},
        {.kind = FILE_TUNED, .name = "tuned", .path = "/etc/tuned/storprov/tuned.conf", .wanted = wants_tuned,
         .render = render_tuned_conf, .selinux_type = "tuned_etc_t", .owner = render_owner},
        /* EL reads /etc/mdadm.conf: the CLI gives the root's (root_mdadm_conf) */
        {.kind = FILE_MDADM, .name = "mdadm-conf", .path = "/etc/mdadm/mdadm.conf", .wanted = wants_mdadm,
         .render = render_mdadm_conf, .selinux_type = "mdadm_conf_t", .merge = &mdadm_merge_rule},
        {.kind = FILE_MULTIPATH, .name = "multipath-conf", .path = "/etc/multipath/conf.d/storprov.conf",
         .wanted = wants_multipath, .render = render_multipath_conf, .selinux_type = "lvm_metadata_t",
         .owner = render_owner},
        {.kind = FILE_MPATH_WWIDS, .name = "multipath-wwids", .path = "/etc/multipath/wwids", .wanted = wants_multipath,
         .render = render_multipath_wwids, .selinux_type = "lvm_metadata_t", .merge = &wwids_merge_rule},
        /* last: written after the files it records the making of */
        {.kind = FILE_STATE, .name = "state", .path_of = state_path_of, .wanted = always, .render = render_state,
         .selinux_type = "var_lib_t", .owner = render_state_owner},
};
const size_t file_ops_count = ELEMENTSOF(file_ops_table);
_Static_assert(ELEMENTSOF(file_ops_table) == _FILE_KIND_MAX, "one file_ops row per file kind");

const struct file_ops *file_ops_of(enum file_kind k)
{
        for (size_t i = 0; i < file_ops_count; i++)
                if (file_ops_table[i].kind == k)
                        return &file_ops_table[i];
        abort(); /* the unit test (tests/unit/test_files.c) sees every kind has its row */
}

static void add_file(struct plan *pl, enum file_kind kind, const char *path)
{
        pl->files = xrealloc(pl->files, (pl->n_files + 1) * sizeof(*pl->files));
        pl->files[pl->n_files++] = (struct pl_file){.kind = kind, .path = xstrdup(path), .mode = 0644};
}

void file_ops_list(struct plan *pl, const char *const path[_FILE_KIND_MAX])
{
        for (size_t i = 0; i < file_ops_count; i++) {
                const struct file_ops *ops = &file_ops_table[i];
                const char *given = path ? path[ops->kind] : NULL;
                pl->file_path[ops->kind] = given ? xstrdup(given) : ops->path ? xstrdup(ops->path)
                                                                              : ops->path_of(pl->profile_name);
                if (ops->wanted(pl))
                        add_file(pl, ops->kind, pl->file_path[ops->kind]);
        }
}

char *render_file(const struct plan *pl, enum file_kind kind, const char *existing, struct diags *d)
{
        return file_ops_of(kind)->render(pl, existing, d);
}

char *render_without(const struct plan *pl, enum file_kind kind, const char *existing, struct diags *d)
{
        const struct file_ops *ops = file_ops_of(kind);
        return ops->merge ? merge_managed(pl, existing, "", ops->merge, pl->file_path[kind], d) : NULL;
}
