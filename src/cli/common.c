/* SPDX-License-Identifier: GPL-2.0-or-later
 * What the verbs share: loading profile, machine and plan; diagnostics and JSON out. */
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "discover/controller.h"
#include "plan/offline.h"
#include "render/file_ops.h"
#include "render/files.h"
#include "render/tuned.h"

/* One limit from the environment: seconds 1..3600, or def when unset. */
static int limit_env(const char *verb, const char *name, unsigned def_s, unsigned *ret_ms)
{
        const char *e = getenv(name);
        uint64_t s = def_s;
        if (e && *e && parse_uint_range(e, 1, 3600, &s) < 0) {
                _cleanup_free_ char *p = comment_dup(e);
                return usage_error(verb, "%s='%s' is not a number of seconds from 1 to 3600; unset it for the "
                                         "default %u", name, p, def_s);
        }
        *ret_ms = (unsigned)s * 1000;
        return 0;
}

int controller_limits(const char *verb, struct ctl_limits *ret)
{
        int r = limit_env(verb, "STORPROV_CONTROLLER_TIMEOUT", CTL_CALL_TIMEOUT_S, &ret->call_ms);
        if (!r)
                r = limit_env(verb, "STORPROV_CONTROLLER_TOTAL_TIMEOUT", CTL_TOTAL_TIMEOUT_S, &ret->total_ms);
        return r;
}

/* The RAID controllers' logical drives, when a <hwraid> needs them:
 * from="controller" takes each disk's geometry from its VD, and a stated one
 * is checked against it. Read from the captured outputs under --sysroot,
 * else from the vendor tools found in PATH (none: nothing to check). */
static void load_controllers(const struct args *a, const struct profile *p, const struct ctl_limits *lim,
                             struct sysinfo *si)
{
        bool want = false;
        for (size_t i = 0; i < p->n_disks; i++)
                want = want || p->disks[i].hwraid.line;
        if (!want || a->offline)
                return;
        si->controllers = xcalloc(1, sizeof(*si->controllers));
        if (a->sysroot)
                ctl_collect_sysroot(si->controllers, a->sysroot);
        else
                ctl_collect_live(si->controllers, lim, NULL);
        ctl_match(si->controllers, si);
        for (size_t i = 0; si->controllers->errors && si->controllers->errors[i]; i++)
                fprintf(stderr, "storprov: warning: the RAID controller could not be read: %s\n",
                        si->controllers->errors[i]);
        for (size_t i = 0; si->controllers->warnings && si->controllers->warnings[i]; i++)
                fprintf(stderr, "storprov: warning: %s\n", si->controllers->warnings[i]);
}

static const char *const tuning_names[] = {[TUNING_UDEV] = "udev", [TUNING_TUNED] = "tuned", [TUNING_BOTH] = "both"};

/* What a switch of the tuning mode removes: the files the recorded mode
 * wrote that the new one does not (udev rules stay in every mode). */
static void tuning_switch(const struct node_state *st, enum tuning_mode from, enum tuning_mode to, struct diags *d)
{
        bool tuned_goes = from != TUNING_UDEV && to == TUNING_UDEV;
        bool sysctl_goes = from != TUNING_TUNED && to == TUNING_TUNED;
        diag_add(d, DIAG_WARNING, st->path, 0, NULL, RULE_TUNING_MODE_SWITCH,
                 "the node's tuning mode is %s (recorded here); --tuning %s switches it%s%s%s%s", tuning_names[from],
                 tuning_names[to], tuned_goes || sysctl_goes ? ": render and apply remove " : "",
                 tuned_goes ? "the tuned profile (/etc/tuned/storprov/tuned.conf; run tuned-adm profile with another "
                              "profile)" : "",
                 tuned_goes && sysctl_goes ? " and " : "", sysctl_goes ? "the sysctl.d file" : "");
}

/* The root whose recorded state a run reads: --root, else / on a live node;
 * none for a captured tree or made-up disks. */
static const char *state_root(const struct args *a)
{
        return a->root ? a->root : a->sysroot || a->offline ? NULL : "/";
}

/* The node's recorded state (discover/state.h): its seed unless --seed is given,
 * its tuning mode unless --tuning is (then a switch, said with what it
 * removes). A state another profile wrote is not used (said). -1 when the
 * file cannot be read (the error in d). */
static int recorded_state(const struct args *a, const struct profile *p, struct node_state *st,
                          enum tuning_mode *tuning, bool *recorded_seed, char **tuning_why, struct diags *d)
{
        const char *root = state_root(a);
        int r = root ? state_load(root, p->name, st, d) : 0;
        if (r <= 0)
                return r;
        if (strcmp(st->profile, p->name)) {
                diag_add(d, DIAG_WARNING, st->path, 0, NULL, RULE_STATE_OTHER_PROFILE,
                         "recorded by profile \"%s\", not \"%s\": its seed and tuning mode are not used", st->profile,
                         p->name);
                state_free(st);
                return 0;
        }
        *recorded_seed = !a->seed_set;
        enum tuning_mode was = !strcmp(st->tuning, "tuned") ? TUNING_TUNED
                               : !strcmp(st->tuning, "both") ? TUNING_BOTH
                                                             : TUNING_UDEV;
        if (!a->tuning_set) {
                *tuning = was;
                *tuning_why = xasprintf("recorded in %s", st->path);
        } else if (a->tuning != was) {
                tuning_switch(st, was, a->tuning, d);
                *tuning_why = xasprintf("--tuning; the node's recorded mode is %s", tuning_names[was]);
        }
        return 1;
}

/* The plan of p on si, with the node's recorded state read first: plan_build's
 * result, or -EINVAL with *state_failed when the state cannot be read. */
static int build_with_state(const struct args *a, const char *verb, const struct profile *p,
                            const struct sysinfo *si, struct plan *pl, struct diags *d, bool *state_failed)
{
        struct node_state st = {0};
        enum tuning_mode tuning = a->tuning;
        bool recorded_seed = false;
        _cleanup_free_ char *tuning_why = NULL;
        if (recorded_state(a, p, &st, &tuning, &recorded_seed, &tuning_why, d) < 0) {
                *state_failed = true;
                return -EINVAL;
        }
        _cleanup_free_ char *include = tuning != TUNING_UDEV ? root_tuned_include(a->root ? a->root : "/") : NULL;
        struct plan_options o = {
                .sysroot = a->offline ? "(offline)" : a->sysroot ? a->sysroot : "/",
                .os_disks = a->os_disks,
                .seed = recorded_seed ? st.seed : a->seed,
                .seed_set = a->seed_set || recorded_seed,
                .seed_recorded = recorded_seed,
                .state = st.profile ? &st : NULL,
                .verify = !strcmp(verb, "verify"),
                .lvm_config = STORPROV_LVM_CONFIG,
                .tuning = tuning,
                .tuning_why = tuning_why,
                .tuned_include = include,
        };
        int r = plan_build(p, si, &o, pl, d);
        state_free(&st);
        if (r < 0)
                return r;
        /* the mdadm.conf the target root's distribution reads (--root, else
         * this system: plan and validate show what apply would write) */
        const char *path[_FILE_KIND_MAX] = {
                [FILE_MDADM] = a->mdadm_conf ? a->mdadm_conf : root_mdadm_conf(a->root ? a->root : "/"),
        };
        file_ops_list(pl, path);
        return r;
}

/* Loads the profile, the machine (or, with --offline, made-up disks) and
 * builds the plan. Diagnostics are printed on stderr, or, with keep, moved
 * there for the caller (validate --format json). */
int load_plan(const struct args *a, const char *verb, struct profile *p, struct sysinfo *si, struct plan *pl,
                     struct diags *keep)
{
        struct diags d = {0};
        struct ctl_limits lim;
        if (!a->profile)
                return usage_error(verb, "--profile FILE is required");
        if (controller_limits(verb, &lim))
                return EXIT_USAGE;
        int r = profile_load(a->profile, p, &d);
        if (r < 0) {
                if (!d.n)
                        diag_add(&d, DIAG_ERROR, a->profile, 0, NULL, RULE_READ, "%s", strerror(-r));
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
        load_controllers(a, p, &lim, si);
        bool state_failed = false;
        r = build_with_state(a, verb, p, si, pl, &d, &state_failed);
        if (state_failed) {
                if (keep)
                        *keep = d;
                else {
                        diags_print(&d, stderr);
                        fprintf(stderr, "storprov: %s: the node's recorded state cannot be read; nothing was touched\n",
                                a->profile);
                        diags_free(&d);
                }
                sysinfo_free(si);
                profile_free(p);
                return EXIT_USAGE;
        }
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
                if (rule_name(x->rule))
                        json_object_object_add(j, "rule", json_object_new_string(rule_name(x->rule)));
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
