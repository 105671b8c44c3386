/* SPDX-License-Identifier: GPL-2.0-or-later
 * plan_build: the phases in order, and the list of files. Derivation (the
 * first phases) reads the profile; after assign_identities() and the rule
 * keys' check (which names profile lines), only the plan is read. */
#include "plan/internal.h"
#include "input/state.h"

#include <errno.h>
#include <stdlib.h>

static void add_file(struct plan *pl, enum file_kind kind, const char *path)
{
        pl->files = xrealloc(pl->files, (pl->n_files + 1) * sizeof(*pl->files));
        pl->files[pl->n_files++] = (struct pl_file){.kind = kind, .path = xstrdup(path), .mode = 0644};
}

/* Which files the plan writes; their text is rendered from the plan when needed. */
static void build_files(struct plan *pl, const struct plan_options *o)
{
        pl->fstab_path = xstrdup(o->fstab ? o->fstab : "/etc/fstab");
        pl->udev_rules_path = xstrdup(o->udev_rules ? o->udev_rules : "/etc/udev/rules.d/70-storprov.rules");
        pl->sysctl_path = xstrdup(o->sysctl_conf ? o->sysctl_conf : "/etc/sysctl.d/80-storprov.conf");
        pl->mdadm_conf_path = xstrdup(o->mdadm_conf ? o->mdadm_conf : "/etc/mdadm/mdadm.conf");
        pl->multipath_conf_path = xstrdup(o->multipath_conf ? o->multipath_conf : "/etc/multipath/conf.d/storprov.conf");
        pl->multipath_wwids_path = xstrdup(o->multipath_wwids ? o->multipath_wwids : "/etc/multipath/wwids");
        pl->tuned_conf_path = xstrdup(o->tuned_conf ? o->tuned_conf : "/etc/tuned/storprov/tuned.conf");
        pl->tuned_include = xstrdup(o->tuned_include ? o->tuned_include : "throughput-performance");
        pl->state_path = state_path_of(pl->profile_name);
        pl->tuning = o->tuning;
        pl->tuning_why = xstrdup(o->tuning_why ? o->tuning_why : "--tuning, or the default");

        bool any_fs = false, any_md = false, any_tune = false, any_mpath = false;
        for (size_t i = 0; i < pl->n_objs; i++) {
                any_mpath |= pl->objs[i].kind == OBJ_DISK && pl->objs[i].disk.n_paths;
                any_fs |= pl->objs[i].kind == OBJ_FS && pl->objs[i].fs.mountpoint;
                any_md |= pl->objs[i].kind == OBJ_MD;
                any_tune |= pl->objs[i].tune.line != 0;
        }
        if (any_fs)
                add_file(pl, FILE_FSTAB, pl->fstab_path);
        if (any_tune)
                add_file(pl, FILE_UDEV, pl->udev_rules_path);
        /* --tuning=tuned: the sysctls go in the tuned profile's [sysctl], not in sysctl.d */
        if (pl->n_sysctls && pl->tuning != TUNING_TUNED)
                add_file(pl, FILE_SYSCTL, pl->sysctl_path);
        if (pl->tuning != TUNING_UDEV && (any_tune || pl->n_sysctls))
                add_file(pl, FILE_TUNED, pl->tuned_conf_path);
        if (any_md)
                add_file(pl, FILE_MDADM, pl->mdadm_conf_path);
        if (any_mpath) {
                add_file(pl, FILE_MULTIPATH, pl->multipath_conf_path);
                add_file(pl, FILE_MPATH_WWIDS, pl->multipath_wwids_path);
        }
        /* last: written after the files it records the making of */
        add_file(pl, FILE_STATE, pl->state_path);
}

int plan_build(const struct profile *p, const struct sysinfo *si, const struct plan_options *o, struct plan *ret,
               struct diags *d)
{
        struct plan pl = {
                .profile_name = xstrdup(p->name),
                .profile_path = xstrdup(p->path),
                .lvm_config = xstrdup(o->lvm_config),
                .mem_total_bytes = si->mem_total_bytes,
        };
        struct ctx c = {.p = p, .si = si, .o = o, .pl = &pl, .d = d};
        size_t errors_before = diags_errors(d);

        /* derivation: the profile against the discovered devices */
        check_unique_names(&c);
        plan_disks(&c);
        plan_mds(&c);
        plan_vgs(&c);
        plan_fss(&c);
        check_tuning(&c);
        check_sysctls(&c);
        check_unused(&c);
        assign_identities(&c);
        check_rule_keys(&c);    /* the md UUIDs are known now */
        /* the rest reads the plan only */
        c.p = NULL;
        build_steps(&c);
        build_files(&pl, o);
        free(c.creator);
        free(c.sys_of);
        strv_free(c.failed_groups);

        if (diags_errors(d) > errors_before) {
                plan_free(&pl);
                return -EINVAL;
        }
        *ret = pl;
        return 0;
}
