/* SPDX-License-Identifier: GPL-2.0-or-later
 * The target's LVM devices file (RHEL 9/10 enable it by default, and the
 * installer lists only the PVs it made): after the steps, storprov's PVs are
 * added with lvmdevices --adddev when the target uses a devices file
 * (src/lvmdevices.c decides; this runs the argv). Never turns the feature off,
 * never creates the file. */
#include "apply/internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/exec.h"
#include "plan/lvmdevices.h"

/* Adds one PV unless the file lists it (by path or by the node it resolves to). */
static int add_pv(struct run *r, const char *pv, const char *text, const char *name, const char *sysdir)
{
        _cleanup_free_ char *p = dev_path(&r->dev, pv);
        char real[PATH_MAX];
        const char *kn = realpath(p, real) ? real + strlen(r->dev.root) : pv;
        if (lvmdevices_lists(text, pv, NULL) || lvmdevices_lists(text, kn, NULL)) {
                run_say(r, "LVM devices file: %s is listed already", pv);
                return 0;
        }
        char **argv = lvmdevices_adddev_argv(pv, name);
        _cleanup_free_ char *prefix = xasprintf("LVM_SYSTEM_DIR=%s ", sysdir);
        run_say_argv(r, NO_OBJ, prefix, argv);
        int rc = run_argv(argv, NULL);
        strv_free(argv);
        if (rc != 0)
                run_say(r, "LVM devices file: adding %s failed (status %d)", pv, rc);
        return rc != 0;
}

int devicesfile_sync(struct run *r)
{
        char **pvs = plan_pv_devices(r->pl);
        if (!pvs)
                return 0;
        _cleanup_free_ char *sysdir = lvmdevices_system_dir(r->o->root);
        _cleanup_free_ char *conf_path = path_join(sysdir, "lvm.conf");
        _cleanup_free_ char *conf = NULL;
        if (read_file(conf_path, &conf, NULL) < 0)
                conf = NULL;
        _cleanup_free_ char *name = lvmconf_devicesfile(conf);
        _cleanup_free_ char *file = xasprintf("%s/devices/%s", sysdir, name ? name : "system.devices");
        _cleanup_free_ char *why = NULL;
        bool want = lvmdevices_wanted(lvmconf_use_devicesfile(conf), access(file, F_OK) == 0, file, &why);
        run_say(r, "LVM devices file: %s%s", why, want ? "; adding storprov's PVs" : "");
        int fails = 0;
        if (want) {
                _cleanup_free_ char *text = NULL;
                if (read_file(file, &text, NULL) < 0)
                        text = xstrdup("");
                _cleanup_free_ char *old = xstrdup(getenv("LVM_SYSTEM_DIR"));
                setenv("LVM_SYSTEM_DIR", sysdir, 1);
                for (size_t i = 0; pvs[i]; i++)
                        fails += add_pv(r, pvs[i], text, name, sysdir);
                if (old)
                        setenv("LVM_SYSTEM_DIR", old, 1);
                else
                        unsetenv("LVM_SYSTEM_DIR");
        }
        strv_free(pvs);
        return fails;
}
