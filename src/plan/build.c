/* SPDX-License-Identifier: GPL-2.0-or-later
 * plan_build: the phases in order. Derivation (the first phases) reads the
 * profile; after assign_identities() and the rule keys' check (which names
 * profile lines), only the plan is read. The files the plan writes are
 * render's table's to list (render/file_ops.c), from the plan alone. */
#include "plan/internal.h"

#include <errno.h>
#include <stdlib.h>

/* The tuning options as the plan keeps them (render reads them back). */
static void build_tuning(struct plan *pl, const struct plan_options *o)
{
        pl->tuned_include = xstrdup(o->tuned_include ? o->tuned_include : "throughput-performance");
        pl->tuning = o->tuning;
        pl->tuning_why = xstrdup(o->tuning_why ? o->tuning_why : "--tuning, or the default");
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
        build_tuning(&pl, o);
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
