/* SPDX-License-Identifier: GPL-2.0-or-later
 * What the verbs share: loading profile, machine and plan; diagnostics and JSON out. */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "input/offline.h"
#include "render/files.h"
#include "render/tuned.h"

/* Loads the profile, the machine (or, with --offline, made-up disks) and
 * builds the plan. Diagnostics are printed on stderr, or, with keep, moved
 * there for the caller (validate --format json). */
int load_plan(const struct args *a, const char *verb, struct profile *p, struct sysinfo *si, struct plan *pl,
                     struct diags *keep)
{
        struct diags d = {0};
        if (!a->profile)
                return usage_error(verb, "--profile FILE is required");
        int r = profile_load(a->profile, p, &d);
        if (r < 0) {
                if (!d.n)
                        diag_add(&d, DIAG_ERROR, a->profile, 0, NULL, "read", "%s", strerror(-r));
                if (keep) {
                        *keep = d;
                        return EXIT_USAGE;
                }
                diags_print(&d, stderr);
                fprintf(stderr, "storprov: %s: %zu error%s; nothing was touched\n", a->profile, diags_errors(&d),
                        diags_errors(&d) == 1 ? "" : "s");
                diags_free(&d);
                return EXIT_USAGE;
        }
        const char *sysroot = a->sysroot ? a->sysroot : "/";
        r = a->offline ? sysinfo_synthesize(p, si, &d) : sysinfo_load(sysroot, si, &d);
        if (r < 0) {
                if (keep)
                        *keep = d;
                else {
                        diags_print(&d, stderr);
                        diags_free(&d);
                }
                profile_free(p);
                return a->sysroot || a->offline ? EXIT_USAGE : EXIT_RUNTIME;
        }
        _cleanup_free_ char *include = a->tuning != TUNING_UDEV ? root_tuned_include(a->root ? a->root : "/") : NULL;
        struct plan_options o = {
                .sysroot = a->offline ? "(offline)" : sysroot,
                .os_disks = a->os_disks,
                .seed = a->seed,
                .seed_set = a->seed_set,
                /* the file the target root's distribution reads (--root, else
                 * this system: plan and validate show what apply would write) */
                .mdadm_conf = a->mdadm_conf ? a->mdadm_conf : root_mdadm_conf(a->root ? a->root : "/"),
                .lvm_config = STORPROV_LVM_CONFIG,
                .tuning = a->tuning,
                .tuned_include = include,
        };
        r = plan_build(p, si, &o, pl, &d);
        if (keep)
                *keep = d;
        else
                diags_print(&d, stderr);
        if (r < 0) {
                if (!keep) {
                        fprintf(stderr, "storprov: %s: %zu error%s; nothing was touched\n", a->profile,
                                diags_errors(&d), diags_errors(&d) == 1 ? "" : "s");
                        diags_free(&d);
                }
                sysinfo_free(si);
                profile_free(p);
                return EXIT_USAGE;
        }
        if (!keep)
                diags_free(&d);
        return 0;
}

json_object *diags_json(const struct diags *d)
{
        json_object *a = json_object_new_array();
        for (size_t i = 0; i < d->n; i++) {
                const struct diag *x = &d->v[i];
                json_object *j = json_object_new_object();
                json_object_object_add(j, "severity",
                                       json_object_new_string(x->severity == DIAG_ERROR ? "error" : "warning"));
                if (x->file)
                        json_object_object_add(j, "file", json_object_new_string(x->file));
                json_object_object_add(j, "line", json_object_new_int(x->line));
                if (x->object)
                        json_object_object_add(j, "object", json_object_new_string(x->object));
                if (x->rule)
                        json_object_object_add(j, "rule", json_object_new_string(x->rule));
                json_object_object_add(j, "message", json_object_new_string(x->message ? x->message : ""));
                json_object_array_add(a, j);
        }
        return a;
}

void print_json(json_object *j)
{
        puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                       JSON_C_TO_STRING_NOSLASHESCAPE));
}


int load_sysinfo(const struct args *a, struct sysinfo *si)
{
        struct diags d = {0};
        int r = sysinfo_load(a->sysroot ? a->sysroot : "/", si, &d);
        diags_print(&d, stderr);
        diags_free(&d);
        if (r < 0)
                return a->sysroot ? EXIT_USAGE : EXIT_RUNTIME;
        return 0;
}
