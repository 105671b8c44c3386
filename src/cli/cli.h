/* SPDX-License-Identifier: GPL-2.0-or-later
 * src/cli/: the command line: the argument parser, the usage texts, and one file per verb or verb family.
 * Parses options into a struct args, then runs the verb's pipeline: profile →
 * discovery → plan → output / render / apply. main.c only dispatches.
 * Exit codes: 0 success, 1 runtime failure, 2 bad input or usage. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include <json.h>

#include "apply/apply.h"
#include "discover/discover.h"
#include "input/profile.h"
#include "plan/plan.h"
#include "base/util.h"

#define EXIT_RUNTIME 1
#define EXIT_USAGE 2
#define EXIT_DRIFT 3

struct args {
        const char *profile;
        const char *sysroot;
        const char *root;
        const char *format;
        const char *report;
        const char *mdadm_conf;
        const char *ks_include;
        char **os_disks;
        bool offline;
        uint64_t seed;
        bool seed_set;
        bool yes, dry_run, wipe, mount, wait, autorelabel, verbose;
        enum tuning_mode tuning;  /* --tuning */
        bool tuning_set;          /* --tuning was given: a mode other than the recorded one is a switch */
        const char *lock_file;
        const char *profiles;
        const char *capture;      /* controller --capture DIR */
        unsigned command_timeout_s; /* --command-timeout, 0: the verb's default */
        unsigned jobs;
        /* geometry */
        const char *level, *chunk, *layout;
        unsigned members, legs;
        uint64_t sector;
        bool md;
};

/* --command-timeout's defaults: each external command of apply, of verify. */
#define APPLY_COMMAND_TIMEOUT_S 1800
#define VERIFY_COMMAND_TIMEOUT_S 120

/* The option codes (args.c names them for getopt). */
enum {
        OPT_PROFILE = 0x100, OPT_SYSROOT, OPT_ROOT, OPT_FORMAT, OPT_SEED, OPT_LEVEL, OPT_MEMBERS, OPT_CHUNK,
        OPT_LEGS, OPT_SECTOR, OPT_MD, OPT_YES, OPT_DRY_RUN, OPT_REPORT, OPT_JOBS, OPT_WIPE, OPT_MOUNT,
        OPT_MDADM_CONF, OPT_WAIT, OPT_LOCK_FILE, OPT_OFFLINE, OPT_OS_DISKS, OPT_KS_INCLUDE, OPT_PROFILES, OPT_AUTORELABEL, OPT_LAYOUT, OPT_TUNING, OPT_CAPTURE, OPT_COMMAND_TIMEOUT, OPT_VERBOSE,
        OPT_HELP,
};

/* A verb, its command, and the options it takes (0-terminated OPT_* codes, args.c). */
struct verb {
        const char *name;
        int (*run)(struct args *a);
        const int *opts;
};

/* args.c: options into a; 0, -1 after --help (printed), or EXIT_USAGE (said why). */
int parse_args(const struct verb *v, int argc, char **argv, struct args *a);
/* args.c: "storprov VERB: message" and where to look; returns EXIT_USAGE. */
int usage_error(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* common.c: the profile, the machine (or, with --offline, made-up disks) and
 * the plan; diagnostics on stderr, or moved to keep for the caller. */
int load_plan(const struct args *a, const char *verb, struct profile *p, struct sysinfo *si, struct plan *pl,
              struct diags *keep);
/* common.c: $STORPROV_CONTROLLER_TIMEOUT (one command, default CTL_CALL_TIMEOUT_S) and
 * $STORPROV_CONTROLLER_TOTAL_TIMEOUT (all of a run, CTL_TOTAL_TIMEOUT_S) into *ret;
 * EXIT_USAGE, said under verb, when either is not seconds from 1 to 3600. */
struct ctl_limits;
int controller_limits(const char *verb, struct ctl_limits *ret);

/* common.c: the machine alone (inventory, select). */
int load_sysinfo(const struct args *a, struct sysinfo *si);
json_object *diags_json(const struct diags *d);
void print_json(json_object *j);

/* One function per verb (geometry.c, validate.c, plan.c, apply.c, select.c, controller.c). */
int cmd_geometry(struct args *a);
int cmd_validate(struct args *a);
int cmd_plan(struct args *a);
int cmd_render(struct args *a);
int cmd_apply(struct args *a);
int cmd_verify(struct args *a);
int cmd_inventory(struct args *a);
int cmd_select(struct args *a);
int cmd_controller(struct args *a); /* controller.c */
