/* SPDX-License-Identifier: GPL-2.0-or-later
 * storprov apply and verify: the plan carried out, or read back. */
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/render.h"
#include "render/render_ks.h"

int cmd_apply(struct args *a)
{
        struct profile p;
        struct sysinfo si;
        struct plan pl;
        int r = load_plan(a, "apply", &p, &si, &pl, NULL);
        if (r)
                return r;
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
                .wipe_all = a->wipe,
                .mount = a->mount,
                .report = a->report,
                .jobs = a->jobs ? a->jobs : 2,
                .wait = a->wait,
                .lock_file = a->lock_file,
                .autorelabel = a->autorelabel,
        };
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
                char *t = plan_format_json(&pl);
                json_object *j = json_tokener_parse(t);
                free(t);
                json_object_object_add(j, "dry_run", json_object_new_boolean(true));
                json_object_object_add(j, "exit_code", json_object_new_int(r));
                json_object_object_add(j, "refused", json_object_new_boolean(r == EXIT_USAGE));
                print_json(j);
                json_object_put(j);
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
