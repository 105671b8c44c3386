/* SPDX-License-Identifier: GPL-2.0-or-later
 * The kickstart include: anaconda's view of storprov's disks.
 *
 * ignoredisk --drives= and --only-use= are mutually exclusive (pykickstart
 * rejects a kickstart with both), so the include holds exactly one of them:
 * --drives= of storprov's disks by default, or, for sites whose kickstart
 * names the OS disks (--os-disks or <disks system="true">), --only-use= of
 * those disks. A clearpart is emitted only with the OS disks named, and then
 * limited to them: never a bare "clearpart --all", which would wipe a spare or
 * a USB stick. */
#include <stdlib.h>
#include <string.h>

#include "render/render_ks.h"

static const char *base(const char *dev)
{
        const char *b = strrchr(dev, '/');
        return b ? b + 1 : dev;
}

char *render_ks_include(const struct plan *pl, struct diags *d)
{
        char **mine = NULL;
        size_t errs = 0;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                if (o->kind == OBJ_DISK && o->disk.n_paths) {
                        /* a multipath LUN: the map by its dm uuid (whatever anaconda's multipathd names
                         * it), and every path */
                        if (o->disk.mpath_wwid)
                                strv_pushf(&mine, "disk/by-id/dm-uuid-mpath-%s", o->disk.mpath_wwid);
                        for (size_t k = 0; k < o->disk.n_paths; k++)
                                if (!strv_contains(mine, o->disk.paths[k]->name))
                                        strv_push(&mine, o->disk.paths[k]->name);
                } else if (o->kind == OBJ_DISK && o->dev && !strv_contains(mine, base(o->dev)))
                        strv_push(&mine, base(o->dev));
        }
        /* the OS disks: --os-disks and the system="true" groups, resolved by the planner (which
         * never lets a data group take one); the disks only found in use are not the kickstart's */
        char **os = NULL;
        for (size_t e = 0; e < pl->n_sysdisks; e++) {
                const struct pl_sysdisk *s = &pl->sysdisks[e];
                if (!(s->how & (SYSDISK_GROUP | SYSDISK_OS_DISKS)))
                        continue;
                const char *n = s->ks_name ? ks_disk_name(s->ks_name) : NULL;
                if (!n) {
                        diag_add(d, DIAG_ERROR, pl->profile_path, s->line, "kickstart", RULE_OS_DISKS,
                                 "OS disk %s has no name a kickstart can carry", s->bd->name);
                        errs++;
                        continue;
                }
                /* never one of storprov's own (the planner makes sure; a second look costs nothing) */
                for (size_t i = 0; i < pl->n_objs; i++) {
                        const struct pl_obj *o = &pl->objs[i];
                        bool same = o->kind == OBJ_DISK && o->disk.bd == s->bd;
                        for (size_t k = 0; o->kind == OBJ_DISK && k < o->disk.n_paths && !same; k++)
                                for (size_t j = 0; j < s->n_paths && !same; j++)
                                        same = o->disk.paths[k] == s->paths[j];
                        if (same) {
                                diag_add(d, DIAG_ERROR, pl->profile_path, o->line, o->what, RULE_OS_DISKS,
                                         "OS disk %s is %s, one of the disks the profile provisions; anaconda would "
                                         "clear it",
                                         n, o->id);
                                errs++;
                        }
                }
                if (!strv_contains(os, n))
                        strv_push(&os, n);
        }
        if (errs) {
                strv_free(mine);
                strv_free(os);
                return NULL;
        }

        struct sbuf b = {0};
        sbuf_printf(&b, "# kickstart include written by storprov for profile \"%s\" (%s)\n", pl->profile_name,
                    pl->profile_path);
        char *m = strv_join(mine, ",");
        if (os) {
                char *o = strv_join(os, ",");
                sbuf_printf(&b, "# the OS goes on %s only; storprov's disks (%s) stay invisible to anaconda\n", o,
                            mine ? m : "none");
                sbuf_printf(&b, "ignoredisk --only-use=%s\n", o);
                sbuf_printf(&b, "clearpart --all --initlabel --drives=%s\n", o);
                free(o);
        } else if (mine) {
                sbuf_puts(&b, "# anaconda must leave storprov's disks alone\n");
                sbuf_printf(&b, "ignoredisk --drives=%s\n", m);
                sbuf_puts(&b, "# no clearpart here: name the OS disks (--os-disks, or <disks system=\"true\">) to have "
                              "them cleared\n");
        } else
                sbuf_puts(&b, "# the profile selects no disk: nothing to ignore\n");
        free(m);
        strv_free(mine);
        strv_free(os);
        return sbuf_steal(&b);
}
