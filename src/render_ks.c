/* SPDX-License-Identifier: GPL-2.0-or-later
 * The kickstart include: anaconda's view of storprov's disks.
 *
 * ignoredisk --drives= and --only-use= are mutually exclusive (pykickstart
 * rejects a kickstart with both), so the include holds exactly one of them:
 * --drives= of storprov's disks by default, or, for sites whose kickstart
 * names the OS disks, --only-use= of those disks. A clearpart is emitted only
 * with the OS disks named, and then limited to them: never a bare
 * "clearpart --all", which would wipe a spare or a USB stick. */
#include <stdlib.h>
#include <string.h>

#include "render_ks.h"

const char *ks_disk_name(const char *s)
{
        if (!s)
                return NULL;
        if (startswith(s, "/dev/"))
                s += 5;
        size_t n = strlen(s);
        if (n == 0 || n > 200)
                return NULL;
        /* no commas (the list separator), no spaces, no "..", no leading '/' */
        if (s[0] == '/' || s[0] == '.' || strstr(s, "..") || s[n - 1] == '/')
                return NULL;
        for (const char *p = s; *p; p++)
                if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                      strchr("_-.:/+", *p)))
                        return NULL;
        /* a path must be under disk/ (by-id, by-path, ...) */
        if (strchr(s, '/') && !startswith(s, "disk/"))
                return NULL;
        return s;
}

static const char *base(const char *dev)
{
        const char *b = strrchr(dev, '/');
        return b ? b + 1 : dev;
}

/* Is the OS disk name one of storprov's disks? Kernel names compare directly;
 * a by-id path cannot be resolved here (pure), so it compares with the
 * disk's udev identity where the path ends in it. */
static bool is_storprov_disk(const struct pl_obj *o, const char *name)
{
        if (!strcmp(base(o->dev), name) || !strcmp(o->dev, name))
                return true;
        /* a multipath LUN: each of its paths is it too, and so is its map by any name */
        for (size_t k = 0; k < o->disk.n_paths; k++)
                if (!strcmp(o->disk.paths[k]->name, name))
                        return true;
        if (o->disk.n_paths && !o->disk.mpath_create &&
            (!strcmp(o->disk.bd->name, name) ||
             (startswith(name, "mapper/") && o->disk.bd->dm_name && !strcmp(name + 7, o->disk.bd->dm_name))))
                return true;
        if (startswith(name, "disk/") && o->disk.udev_value) {
                const char *b = base(name);
                size_t lb = strlen(b), lv = strlen(o->disk.udev_value);
                if (lb >= lv && !strcmp(b + lb - lv, o->disk.udev_value))
                        return true;
        }
        return false;
}

char *render_ks_include(const struct plan *pl, char *const *os_disks, struct diags *d)
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
        char **os = NULL;
        for (size_t k = 0; os_disks && os_disks[k]; k++) {
                const char *n = ks_disk_name(os_disks[k]);
                if (!n) {
                        diag_add(d, DIAG_ERROR, pl->profile_path, 0, "kickstart", "os-disks",
                                 "\"%s\" is not a disk name for ignoredisk (sda, nvme0n1, disk/by-id/...)",
                                 os_disks[k]);
                        errs++;
                        continue;
                }
                for (size_t i = 0; i < pl->n_objs; i++) {
                        const struct pl_obj *o = &pl->objs[i];
                        if (o->kind == OBJ_DISK && is_storprov_disk(o, n)) {
                                diag_add(d, DIAG_ERROR, pl->profile_path, o->line, o->what, "os-disks",
                                         "OS disk %s is %s, one of the disks the profile provisions; "
                                         "anaconda would clear it",
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
                sbuf_puts(&b, "# no clearpart here: name the OS disks (--os-disks) to have them cleared\n");
        } else
                sbuf_puts(&b, "# the profile selects no disk: nothing to ignore\n");
        free(m);
        strv_free(mine);
        strv_free(os);
        return sbuf_steal(&b);
}
