/* SPDX-License-Identifier: GPL-2.0-or-later
 * storprov apply and verify: the plan carried out, or read back. */
#include "cli/cli.h"
#include "sys/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/render.h"
#include "render/render_ks.h"

/* The dry run's state of each step ("state", "state_why") and file ("would_write", "why"). */
static void add_dry_states(json_object *j, const struct apply_dry *d)
{
        json_object *steps = NULL, *files = NULL;
        if (!d->step_state || !json_object_object_get_ex(j, "steps", &steps) ||
            !json_object_object_get_ex(j, "files", &files))
                return;
        for (size_t i = 0; i < d->n_steps && i < json_object_array_length(steps); i++) {
                json_object *s = json_object_array_get_idx(steps, i);
                json_object_object_add(s, "state", json_object_new_string(dry_state_name(d->step_state[i])));
                json_object_object_add(s, "state_why", json_object_new_string(d->step_why[i]));
        }
        for (size_t i = 0; i < d->n_files && i < json_object_array_length(files); i++) {
                json_object *f = json_object_array_get_idx(files, i);
                json_object_object_add(f, "would_write", json_object_new_boolean(d->file_changes[i]));
                json_object_object_add(f, "state_why", json_object_new_string(d->file_why[i]));
        }
}

/* apply --dry-run --format json: the plan, each step's and file's state, and the verdict. */
static void print_dry_json(const struct plan *pl, struct apply_dry *dry, int r)
{
        char *t = plan_format_json(pl);
        json_object *j = json_tokener_parse(t);
        free(t);
        json_object_object_add(j, "dry_run", json_object_new_boolean(true));
        add_dry_states(j, dry);
        apply_dry_free(dry);
        json_object_object_add(j, "exit_code", json_object_new_int(r));
        json_object_object_add(j, "refused", json_object_new_boolean(r == EXIT_USAGE));
        print_json(j);
        json_object_put(j);
}

int cmd_apply(struct args *a)
{
        struct profile p;
        struct sysinfo si;
        struct plan pl;
        int r = load_plan(a, "apply", &p, &si, &pl, NULL);
        if (r)
                return r;
        /* mkfs.xfs on a large LUN takes minutes; a tool hung on a dead device takes forever */
        exec_set_command_limit((a->command_timeout_s ? a->command_timeout_s : APPLY_COMMAND_TIMEOUT_S) * 1000u);
        /* The include is rendered before anything is touched, so that a bad
         * --os-disks (one of the profile's disks) refuses up front. */
        char *ks = NULL;
        if (a->ks_include) {
                struct diags d = {0};
                ks = render_ks_include(&pl, &d);
                diags_print(&d, stderr);
                diags_free(&d);
                if (!ks) {
                        fprintf(stderr, "storprov: nothing was touched\n");
                        plan_free(&pl);
                        sysinfo_free(&si);
                        profile_free(&p);
                        return EXIT_USAGE;
                }
        }
        bool dry_json = a->dry_run && a->format && !strcmp(a->format, "json");
        struct apply_options o = {
                .root = a->root ? a->root : "/",
                .sysroot = a->sysroot ? a->sysroot : "/",
                .yes = a->yes,
                .dry_run = a->dry_run,
                .verbose = a->verbose,
                .wipe_all = a->wipe,
                .mount = a->mount,
                .report = a->report,
                .jobs = a->jobs ? a->jobs : 2,
                .wait = a->wait,
                .lock_file = a->lock_file,
                .autorelabel = a->autorelabel,
        };
        struct apply_dry dry = {0};
        if (dry_json)
                o.dry = &dry;
        int saved = -1;
        if (dry_json) {
                /* apply's dry run prints the plan as text on stdout (its only
                 * stdout output): send that away and print the JSON instead. */
                fflush(stdout);
                saved = dup(STDOUT_FILENO);
                int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
                if (saved < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0) {
                        fprintf(stderr, "storprov: cannot redirect stdout: %s\n", strerror(errno));
                        return EXIT_RUNTIME;
                }
                close(null);
        }
        r = apply_plan(&pl, &si, &o);
        if (dry_json) {
                fflush(stdout);
                dup2(saved, STDOUT_FILENO);
                close(saved);
                print_dry_json(&pl, &dry, r);
        }
        if (ks && r == 0 && !a->dry_run) {
                int w = write_file_atomic(a->ks_include, ks, strlen(ks), 0644);
                if (w < 0) {
                        fprintf(stderr, "storprov: cannot write the kickstart include %s: %s\n", a->ks_include,
                                strerror(-w));
                        r = EXIT_RUNTIME;
                } else
                        fprintf(stderr, "storprov: wrote the kickstart include %s\n", a->ks_include);
        }
        free(ks);
        plan_free(&pl);
        sysinfo_free(&si);
        profile_free(&p);
        return r;
}

int cmd_verify(struct args *a)
{
        struct profile p;
        struct sysinfo si;
        struct plan pl;
        int r = load_plan(a, "verify", &p, &si, &pl, NULL);
        if (r)
                return r;
        /* a daily check: lvm or mdadm blocked on a LUN gone away (queue_if_no_path) must not hang it */
        exec_set_command_limit((a->command_timeout_s ? a->command_timeout_s : VERIFY_COMMAND_TIMEOUT_S) * 1000u);
        struct verify_options o = {
                .root = a->root ? a->root : "/",
                .sysroot = a->sysroot ? a->sysroot : "/",
                .json = a->format && !strcmp(a->format, "json"),
                .prometheus = a->format && !strcmp(a->format, "prometheus"),
        };
        r = verify_plan(&pl, &si, &o);
        plan_free(&pl);
        sysinfo_free(&si);
        profile_free(&p);
        return r;
}
