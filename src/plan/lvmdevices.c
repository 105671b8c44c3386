/* SPDX-License-Identifier: GPL-2.0-or-later
 * LVM devices file support (see lvmdevices.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "plan/lvmdevices.h"

/* Walks lvm.conf text; calls back for every "key = value" in section
 * "devices" (value without quotes). lvm.conf is "section { key = value }"
 * with '#' comments; values are numbers, "strings" or [ lists ]. */
static void devices_settings(const char *text, const char *want, char **ret)
{
        int depth = 0;
        bool in_devices = false;
        char word[128];
        const char *p = text;
        *ret = NULL;
        while (p && *p) {
                if (*p == '#') {
                        p = strchr(p, '\n');
                        continue;
                }
                if (isspace((unsigned char)*p)) {
                        p++;
                        continue;
                }
                if (*p == '}') {
                        depth--;
                        if (depth <= 0) {
                                depth = 0;
                                in_devices = false;
                        }
                        p++;
                        continue;
                }
                if (*p == '"') { /* a stray string: skip it */
                        const char *e = strchr(p + 1, '"');
                        p = e ? e + 1 : NULL;
                        continue;
                }
                size_t n = 0;
                while (*p && (isalnum((unsigned char)*p) || *p == '_' || *p == '/') && n < sizeof word - 1)
                        word[n++] = *p++;
                word[n] = 0;
                if (!n) {
                        p++;
                        continue;
                }
                while (*p == ' ' || *p == '\t')
                        p++;
                if (*p == '{') {
                        depth++;
                        if (depth == 1)
                                in_devices = !strcmp(word, "devices");
                        p++;
                        continue;
                }
                if (*p != '=')
                        continue;
                p++;
                while (*p == ' ' || *p == '\t')
                        p++;
                const char *vs = p, *ve;
                if (*p == '"') {
                        vs = ++p;
                        ve = strchr(p, '"');
                        if (!ve)
                                return;
                        p = ve + 1;
                } else if (*p == '[') {
                        ve = strchr(p, ']');
                        if (!ve)
                                return;
                        p = ve + 1;
                } else {
                        while (*p && !isspace((unsigned char)*p) && *p != '#' && *p != '}')
                                p++;
                        ve = p;
                }
                /* "devices/use_devicesfile = 1" at top level is the same setting */
                bool match = (in_devices && depth == 1 && !strcmp(word, want)) ||
                             (depth == 0 && !strncmp(word, "devices/", 8) && !strcmp(word + 8, want));
                if (match) {
                        free(*ret);
                        *ret = strndup(vs, (size_t)(ve - vs));
                }
        }
}

int lvmconf_use_devicesfile(const char *lvm_conf)
{
        char *v = NULL;
        if (!lvm_conf)
                return -1;
        devices_settings(lvm_conf, "use_devicesfile", &v);
        int r = -1;
        if (v)
                r = strcmp(v, "0") == 0 ? 0 : strcmp(v, "1") == 0 ? 1 : -1;
        free(v);
        return r;
}

char *lvmconf_devicesfile(const char *lvm_conf)
{
        char *v = NULL;
        if (!lvm_conf)
                return NULL;
        devices_settings(lvm_conf, "devicesfile", &v);
        if (v && (!*v || strchr(v, '/'))) {
                free(v);
                return NULL;
        }
        return v;
}

bool lvmdevices_wanted(int use_devicesfile, bool file_exists, const char *file, char **why)
{
        if (use_devicesfile == 0) {
                *why = xasprintf("lvm.conf sets use_devicesfile = 0: LVM sees every device");
                return false;
        }
        if (!file_exists) {
                *why = xasprintf("no %s: LVM sees every device (storprov never creates the file)", file);
                return false;
        }
        if (use_devicesfile == 1)
                *why = xasprintf("lvm.conf sets use_devicesfile = 1 and %s exists: LVM sees only the PVs it lists",
                                 file);
        else
                *why = xasprintf("%s exists (use_devicesfile unset: 1 on EL 9 and 10): LVM may see only the PVs "
                                 "it lists",
                                 file);
        return true;
}

bool lvmdevices_lists(const char *devices_text, const char *dev, const char *idname)
{
        char **lines = strv_split(devices_text, "\n");
        bool found = false;
        for (size_t i = 0; lines && lines[i] && !found; i++) {
                if (lines[i][0] == '#')
                        continue;
                char **f = strv_split(lines[i], " \t");
                for (size_t k = 0; f && f[k]; k++) {
                        if (startswith(f[k], "DEVNAME=") && !strcmp(f[k] + 8, dev))
                                found = true;
                        if (idname && startswith(f[k], "IDNAME=") && !strcmp(f[k] + 7, idname))
                                found = true;
                }
                strv_free(f);
        }
        strv_free(lines);
        return found;
}

char **plan_pv_devices(const struct plan *pl)
{
        char **v = NULL;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                if (o->kind != OBJ_VG)
                        continue;
                for (size_t k = 0; k < o->vg.n_pvs; k++) {
                        const char *d = pl->objs[o->vg.pvs[k]].dev;
                        if (d && !strv_contains(v, d))
                                strv_push(&v, d);
                }
        }
        return v;
}

char *lvmdevices_system_dir(const char *root)
{
        if (!root || !strcmp(root, "/") || !*root)
                return xstrdup("/etc/lvm");
        size_t n = strlen(root);
        return xasprintf("%.*s/etc/lvm", (int)(root[n - 1] == '/' ? n - 1 : n), root);
}
