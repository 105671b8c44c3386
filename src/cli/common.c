/* SPDX-License-Identifier: GPL-2.0-or-later
 * What the verbs share: loading profile, machine and plan; diagnostics and JSON out. */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "discover/controller.h"
#include "input/offline.h"
#include "render/files.h"
#include "render/tuned.h"

#define CTL_TIMEOUT_S 20

/* $STORPROV_CONTROLLER_TIMEOUT (seconds, 1..3600), else 20 s; 0 when it is
 * set to something else (said why). */
unsigned controller_timeout_ms(void)
{
        const char *e = getenv("STORPROV_CONTROLLER_TIMEOUT");
        uint64_t s;
        if (!e || !*e)
                return CTL_TIMEOUT_S * 1000;
        if (parse_uint_range(e, 1, 3600, &s) == 0)
                return (unsigned)s * 1000;
        usage_error("controller", "STORPROV_CONTROLLER_TIMEOUT='%s' is not a number of seconds from 1 to 3600; "
                                  "unset it for the default 20", e);
        return 0;
}

/* The RAID controllers' logical drives, when a <hwraid> needs them:
 * from="controller" takes each disk's geometry from its VD, and a stated one
 * is checked against it. Read from the captured outputs under --sysroot,
 * else from the vendor tools found in PATH (none: nothing to check). */
static void load_controllers(const struct args *a, const struct profile *p, struct sysinfo *si)
{
        bool want = false;
        for (size_t i = 0; i < p->n_disks; i++)
                want = want || p->disks[i].hwraid.line;
        if (!want || a->offline)
                return;
        si->controllers = xcalloc(1, sizeof(*si->controllers));
        if (a->sysroot)
                ctl_collect_sysroot(si->controllers, a->sysroot);
        else {
                unsigned t = controller_timeout_ms();
                ctl_collect_live(si->controllers, t ? t : 20 * 1000);
        }
        ctl_match(si->controllers, si);
        for (size_t i = 0; si->controllers->errors && si->controllers->errors[i]; i++)
                fprintf(stderr, "storprov: warning: the RAID controller could not be read: %s\n",
                        si->controllers->errors[i]);
}

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
        load_controllers(a, p, si);
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
