/* SPDX-License-Identifier: GPL-2.0-or-later
 * storprov plan and render: the plan as text, JSON or a kickstart include; the files under --root. */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/files.h"
#include "render/render.h"
#include "render/render_ks.h"

int cmd_plan(struct args *a)
{
        struct profile p;
        struct sysinfo si;
        struct plan pl;
        int r = load_plan(a, "plan", &p, &si, &pl, NULL);
        if (r)
                return r;
        if (a->format && !strcmp(a->format, "json")) {
                plan_write_json(&pl, stdout);
                plan_free(&pl);
                sysinfo_free(&si);
                profile_free(&p);
                return fflush(stdout) == 0 ? 0 : EXIT_RUNTIME;
        }
        char *out;
        if (a->format && !strcmp(a->format, "ks")) {
                struct diags d = {0};
                out = render_ks_include(&pl, &d);
                diags_print(&d, stderr);
                diags_free(&d);
                if (!out) {
                        plan_free(&pl);
                        sysinfo_free(&si);
                        profile_free(&p);
                        return EXIT_USAGE;
                }
        } else
                out = plan_format_text(&pl);
        fputs(out, stdout);
        if (out[0] && out[strlen(out) - 1] != '\n')
                fputc('\n', stdout);
        free(out);
        plan_free(&pl);
        sysinfo_free(&si);
        profile_free(&p);
        return 0;
}

int cmd_render(struct args *a)
{
        if (!a->root)
                return usage_error("render", "--root DIR is required (use --root / for the running system)");
        struct profile p;
        struct sysinfo si;
        struct plan pl;
        int r = load_plan(a, "render", &p, &si, &pl, NULL);
        if (r)
                return r;
        struct diags d = {0};
        struct file_result *res = NULL;
        size_t n = 0;
        r = render_files(&pl, a->root, a->autorelabel, &d, &res, &n);
        diags_print(&d, stderr);
        diags_free(&d);
        for (size_t i = 0; i < n; i++)
                fprintf(stderr, "storprov: %s %s\n", file_action_verb(res[i].action), res[i].path);
        file_results_free(res, n);
        if (r < 0)
                fprintf(stderr, "storprov: render refused: nothing was written\n");
        plan_free(&pl);
        sysinfo_free(&si);
        profile_free(&p);
        return r < 0 ? EXIT_USAGE : r ? EXIT_RUNTIME : 0;
}
