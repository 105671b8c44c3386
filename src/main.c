/* SPDX-License-Identifier: GPL-2.0-or-later
 * storprov — command line: finds the verb and hands it its parsed options
 * (src/cli/: the parser in args.c, each verb in its own file). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/usage.h"
#include "base/version.h"

/* Which options each verb takes. */
static const struct verb verbs[] = {
        {"geometry", cmd_geometry, (const int[]){OPT_LEVEL, OPT_MEMBERS, OPT_CHUNK, OPT_LEGS, OPT_LAYOUT, OPT_SECTOR, OPT_MD, OPT_FORMAT, 0}},
        {"validate", cmd_validate,
         (const int[]){OPT_PROFILE, OPT_SYSROOT, OPT_SEED, OPT_MDADM_CONF, OPT_OFFLINE, OPT_FORMAT, OPT_OS_DISKS, 0}},
        {"plan", cmd_plan,
         (const int[]){OPT_PROFILE, OPT_SYSROOT, OPT_SEED, OPT_FORMAT, OPT_MDADM_CONF, OPT_OS_DISKS, OPT_TUNING, 0}},
        {"render", cmd_render,
         (const int[]){OPT_PROFILE, OPT_SYSROOT, OPT_ROOT, OPT_SEED, OPT_MDADM_CONF, OPT_OS_DISKS, OPT_AUTORELABEL, OPT_TUNING, 0}},
        {"apply", cmd_apply, (const int[]){OPT_PROFILE, OPT_SYSROOT, OPT_ROOT, OPT_SEED, OPT_YES, OPT_DRY_RUN, OPT_REPORT,
                                      OPT_JOBS, OPT_WIPE, OPT_MOUNT, OPT_MDADM_CONF, OPT_FORMAT, OPT_WAIT, OPT_LOCK_FILE,
                                      OPT_KS_INCLUDE, OPT_OS_DISKS, OPT_AUTORELABEL, OPT_TUNING, OPT_COMMAND_TIMEOUT,
                                      OPT_VERBOSE, 0}},
        {"verify", cmd_verify,
         (const int[]){OPT_PROFILE, OPT_SYSROOT, OPT_ROOT, OPT_SEED, OPT_FORMAT, OPT_MDADM_CONF, OPT_OS_DISKS, OPT_TUNING,
                       OPT_COMMAND_TIMEOUT, 0}},
        {"inventory", cmd_inventory, (const int[]){OPT_SYSROOT, OPT_FORMAT, 0}},
        {"select", cmd_select, (const int[]){OPT_PROFILES, OPT_SYSROOT, OPT_FORMAT, 0}},
        {"controller", cmd_controller, (const int[]){OPT_SYSROOT, OPT_FORMAT, OPT_CAPTURE, 0}},
};

int main(int argc, char **argv)
{
        if (argc < 2)
                return usage_error(NULL, "a verb is required (geometry, validate, plan, render, apply, verify, inventory, "
                                         "select, controller)");
        const char *verb = argv[1];
        if (!strcmp(verb, "--help") || !strcmp(verb, "-h") || !strcmp(verb, "help")) {
                fputs(main_help, stdout);
                return 0;
        }
        if (!strcmp(verb, "--version")) {
                printf("storprov %s\n", storprov_version);
                return 0;
        }
        const struct verb *v = NULL;
        for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
                if (!strcmp(verbs[i].name, verb))
                        v = &verbs[i];
        if (!v)
                return usage_error(NULL, "unknown verb '%s'", verb);
        struct args a = {0};
        int r = parse_args(v, argc - 1, argv + 1, &a);
        if (r == 0)
                r = v->run(&a);
        else if (r < 0)
                r = 0; /* --help */
        strv_free(a.os_disks);
        return r;
}
