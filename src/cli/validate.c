/* SPDX-License-Identifier: GPL-2.0-or-later
 * storprov validate: the profile against the machine (or made-up disks), every diagnostic at once. */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "plan/offline.h"
#include "base/version.h"

int cmd_validate(struct args *a)
{
        struct profile p;
        struct sysinfo si;
        struct plan pl;
        bool json = a->format && !strcmp(a->format, "json");
        if (json && !a->profile)
                return usage_error("validate", "--profile FILE is required");
        struct diags d = {0};
        int r = load_plan(a, "validate", &p, &si, &pl, json ? &d : NULL);
        size_t disks = 0;
        if (!r)
                for (size_t i = 0; i < pl.n_objs; i++)
                        disks += pl.objs[i].kind == OBJ_DISK;
        if (json) {
                json_object *j = json_object_new_object();
                storprov_json_header(j, &storprov_format_validate);
                json_object_object_add(j, "profile", json_object_new_string(a->profile));
                json_object_object_add(j, "valid", json_object_new_boolean(r == 0));
                json_object_object_add(j, "offline", json_object_new_boolean(a->offline));
                if (a->offline)
                        json_object_object_add(j, "not_checked", json_object_new_string(OFFLINE_UNCHECKED));
                json_object_object_add(j, "errors", json_object_new_int64((int64_t)diags_errors(&d)));
                json_object_object_add(j, "warnings", json_object_new_int64((int64_t)(d.n - diags_errors(&d))));
                if (!r) {
                        json_object_object_add(j, "disks", json_object_new_int64((int64_t)disks));
                        json_object_object_add(j, "steps", json_object_new_int64((int64_t)pl.n_steps));
                        json_object_object_add(j, "files", json_object_new_int64((int64_t)pl.n_files));
                }
                json_object_object_add(j, "diagnostics", diags_json(&d));
                print_json(j);
                json_object_put(j);
                diags_free(&d);
        } else if (!r) {
                if (a->offline)
                        printf("%s: valid offline; %zu made-up disk%s selected, %zu steps, %zu files\n"
                               "  not checked without the hardware: %s\n",
                               a->profile, disks, disks == 1 ? "" : "s", pl.n_steps, pl.n_files, OFFLINE_UNCHECKED);
                else
                        printf("%s: valid; %zu disk%s selected, %zu steps, %zu files\n", a->profile, disks,
                               disks == 1 ? "" : "s", pl.n_steps, pl.n_files);
        }
        if (r)
                return r;
        plan_free(&pl);
        sysinfo_free(&si);
        profile_free(&p);
        return 0;
}
