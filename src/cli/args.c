/* SPDX-License-Identifier: GPL-2.0-or-later
 * The argument parser: every option, which verbs take it, and the checks made before any verb runs. */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/usage.h"
#include "discover/devnames.h"
#include "plan/geometry.h"

static const struct option all_options[] = {
        {"profile", required_argument, NULL, OPT_PROFILE},
        {"sysroot", required_argument, NULL, OPT_SYSROOT},
        {"profiles", required_argument, NULL, OPT_PROFILES},
        {"root", required_argument, NULL, OPT_ROOT},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"seed", required_argument, NULL, OPT_SEED},
        {"level", required_argument, NULL, OPT_LEVEL},
        {"members", required_argument, NULL, OPT_MEMBERS},
        {"chunk", required_argument, NULL, OPT_CHUNK},
        {"legs", required_argument, NULL, OPT_LEGS},
        {"layout", required_argument, NULL, OPT_LAYOUT},
        {"sector", required_argument, NULL, OPT_SECTOR},
        {"md", no_argument, NULL, OPT_MD},
        {"yes", no_argument, NULL, OPT_YES},
        {"dry-run", no_argument, NULL, OPT_DRY_RUN},
        {"report", required_argument, NULL, OPT_REPORT},
        {"jobs", required_argument, NULL, OPT_JOBS},
        {"wipe", no_argument, NULL, OPT_WIPE},
        {"mount", no_argument, NULL, OPT_MOUNT},
        {"mdadm-conf", required_argument, NULL, OPT_MDADM_CONF},
        {"wait", no_argument, NULL, OPT_WAIT},
        {"lock-file", required_argument, NULL, OPT_LOCK_FILE},
        {"offline", no_argument, NULL, OPT_OFFLINE},
        {"os-disks", required_argument, NULL, OPT_OS_DISKS},
        {"ks-include", required_argument, NULL, OPT_KS_INCLUDE},
        {"autorelabel", no_argument, NULL, OPT_AUTORELABEL},
        {"tuning", required_argument, NULL, OPT_TUNING},
        {"capture", required_argument, NULL, OPT_CAPTURE},
        {"command-timeout", required_argument, NULL, OPT_COMMAND_TIMEOUT},
        {"verbose", no_argument, NULL, OPT_VERBOSE},
        {"help", no_argument, NULL, OPT_HELP},
        {0},
};

static const char *verb_help(const char *v)
{
        if (!strcmp(v, "geometry"))
                return geometry_help;
        if (!strcmp(v, "validate"))
                return validate_help;
        if (!strcmp(v, "plan"))
                return plan_help;
        if (!strcmp(v, "render"))
                return render_help;
        if (!strcmp(v, "verify"))
                return verify_help;
        if (!strcmp(v, "inventory"))
                return inventory_help;
        if (!strcmp(v, "select"))
                return select_help;
        if (!strcmp(v, "controller"))
                return controller_help;
        return apply_help;
}

int usage_error(const char *verb, const char *fmt, ...)
{
        va_list ap;
        fprintf(stderr, "storprov%s%s: ", verb ? " " : "", verb ? verb : "");
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, "\nTry 'storprov %s%s--help'.\n", verb ? verb : "", verb ? " " : "");
        return EXIT_USAGE;
}

/* --root once, at the start, as an absolute path without symlinks or "..":
 * mount targets, the already-mounted check and the files all use it. */
static char root_buf[PATH_MAX];

static int canonical_root(struct args *a)
{
        char cwd[PATH_MAX];
        _cleanup_free_ char *abs = NULL;
        if (a->root[0] == '/')
                abs = xstrdup(a->root);
        else if (getcwd(cwd, sizeof cwd))
                abs = path_join(cwd, a->root);
        else
                return -1;
        /* the longest part that exists, resolved; the rest (made later) appended */
        size_t cut = strlen(abs);
        for (;;) {
                char save = abs[cut];
                abs[cut] = 0;
                bool ok = realpath(cut ? abs : "/", root_buf) != NULL;
                abs[cut] = save;
                if (ok)
                        break;
                if (errno != ENOENT)
                        return -1;
                while (cut > 0 && abs[--cut] != '/')
                        ;
        }
        for (char *rest = strtok(abs + cut, "/"); rest; rest = strtok(NULL, "/")) {
                if (!strcmp(rest, ".") || !strcmp(rest, "..")) {
                        errno = EINVAL;
                        return -1;
                }
                size_t len = strlen(root_buf);
                if (len + strlen(rest) + 2 > sizeof root_buf) {
                        errno = ENAMETOOLONG;
                        return -1;
                }
                snprintf(root_buf + len, sizeof root_buf - len, "%s%s", len > 1 ? "/" : "", rest);
        }
        a->root = root_buf;
        return 0;
}

/* "--name" of an option code, for messages: argv[optind - 1] is the value,
 * not the option, when the value came as a separate word. */
static const char *opt_name(int c, char buf[static 48])
{
        for (const struct option *o = all_options; o->name; o++)
                if (o->val == c) {
                        snprintf(buf, 48, "--%s", o->name);
                        return buf;
                }
        return "?";
}

/* --os-disks: every spelling of a disk is resolved against the machine by the
 * planner; here only what cannot be a name at all. */
static int parse_os_disks(const struct verb *v, struct args *a)
{
        strv_free(a->os_disks);
        a->os_disks = strv_split(optarg, ",");
        if (!a->os_disks)
                return usage_error(v->name, "--os-disks takes disk names (sda,sdb, /dev/sda or "
                                   "/dev/disk/by-id/...), not an empty list");
        for (size_t k = 0; a->os_disks[k]; k++) {
                const char *why = NULL;
                char *norm = devname_normalize(a->os_disks[k], &why);
                free(norm);
                if (!norm) {
                        _cleanup_free_ char *shown = comment_dup(a->os_disks[k]);
                        return usage_error(v->name, "--os-disks takes disk names (sda,sdb, /dev/sda or "
                                           "/dev/disk/by-id/...), not '%s': %s", shown, why);
                }
        }
        return 0;
}

/* The options that take a word from a list or a bounded number; 0 or EXIT_USAGE. */
static int parse_choice(const struct verb *v, int c, struct args *a)
{
        uint64_t t;
        switch (c) {
        case OPT_COMMAND_TIMEOUT:
                if (parse_uint_range(optarg, 1, 86400, &t) < 0)
                        return usage_error(v->name, "--command-timeout takes seconds from 1 to 86400, not '%s'", optarg);
                a->command_timeout_s = (unsigned)t;
                return 0;
        case OPT_TUNING:
                a->tuning_set = true;
                if (!strcmp(optarg, "udev"))
                        a->tuning = TUNING_UDEV;
                else if (!strcmp(optarg, "tuned"))
                        a->tuning = TUNING_TUNED;
                else if (!strcmp(optarg, "both"))
                        a->tuning = TUNING_BOTH;
                else
                        return usage_error(v->name, "--tuning takes udev (udev rules and sysctl.d, the default), "
                                           "tuned (a tuned profile, udev for what tuned cannot set) or both, not '%s'",
                                           optarg);
                return 0;
        case OPT_FORMAT:
                if (strcmp(optarg, "text") && strcmp(optarg, "json") &&
                    !(!strcmp(v->name, "plan") && !strcmp(optarg, "ks")) &&
                    !(!strcmp(v->name, "verify") && !strcmp(optarg, "prometheus")))
                        return usage_error(v->name, "--format takes text%s or json, not '%s'",
                                           !strcmp(v->name, "plan")     ? ", ks"
                                           : !strcmp(v->name, "verify") ? ", prometheus"
                                                                        : "",
                                           optarg);
                a->format = optarg;
                return 0;
        default:
                return 0;
        }
}

/* One option c (already known to apply to v) into a; 0 or EXIT_USAGE. */
static int parse_option(const struct verb *v, int c, struct args *a)
{
        char on[48];
        uint64_t u;
        switch (c) {
        case OPT_PROFILE: a->profile = optarg; break;
        case OPT_SYSROOT: a->sysroot = optarg; break;
        case OPT_CAPTURE: a->capture = optarg; break;
        case OPT_VERBOSE: a->verbose = true; break;
        case OPT_COMMAND_TIMEOUT:
        case OPT_TUNING:
        case OPT_FORMAT: return parse_choice(v, c, a);
        case OPT_ROOT: a->root = optarg; break;
        case OPT_SEED:
                if (parse_u64(optarg, &a->seed) < 0)
                        return usage_error(v->name, "--seed takes a whole number, not '%s'", optarg);
                a->seed_set = true;
                break;
        case OPT_LEVEL: a->level = optarg; break;
        case OPT_CHUNK: a->chunk = optarg; break;
        case OPT_LAYOUT: a->layout = optarg; break;
        case OPT_MEMBERS:
        case OPT_LEGS:
        case OPT_JOBS:
                if (parse_uint_range(optarg, 1, c == OPT_JOBS ? 4096 : GEOM_MAX_MEMBERS, &u) < 0)
                        return usage_error(v->name, "'%s' takes a whole number from 1 to %u, not '%s'",
                                           opt_name(c, on), c == OPT_JOBS ? 4096u : GEOM_MAX_MEMBERS, optarg);
                if (c == OPT_MEMBERS)
                        a->members = (unsigned)u;
                else if (c == OPT_LEGS)
                        a->legs = (unsigned)u;
                else
                        a->jobs = (unsigned)u;
                break;
        case OPT_SECTOR:
                if (parse_size(optarg, &a->sector) < 0 || !is_pow2(a->sector) || a->sector < SECTOR_BYTES)
                        return usage_error(v->name, "--sector takes a power of 2 of at least 512, not '%s'", optarg);
                break;
        case OPT_MD: a->md = true; break;
        case OPT_YES: a->yes = true; break;
        case OPT_DRY_RUN: a->dry_run = true; break;
        case OPT_WIPE: a->wipe = true; break;
        case OPT_MOUNT: a->mount = true; break;
        case OPT_REPORT: a->report = optarg; break;
        case OPT_MDADM_CONF: a->mdadm_conf = optarg; break;
        case OPT_WAIT: a->wait = true; break;
        case OPT_AUTORELABEL: a->autorelabel = true; break;
        case OPT_LOCK_FILE: a->lock_file = optarg; break;
        case OPT_OFFLINE: a->offline = true; break;
        case OPT_KS_INCLUDE: a->ks_include = optarg; break;
        case OPT_OS_DISKS: {
                int r = parse_os_disks(v, a);
                if (r)
                        return r;
                break;
        }
        case OPT_PROFILES: a->profiles = optarg; break;
        }
        return 0;
}

int parse_args(const struct verb *v, int argc, char **argv, struct args *a)
{
        optind = 1;
        opterr = 0;
        int c;
        char on[48];
        while ((c = getopt_long(argc, argv, ":h", all_options, NULL)) != -1) {
                if (c == 'h' || c == OPT_HELP) {
                        fputs(verb_help(v->name), stdout);
                        return -1;
                }
                if (c == '?')
                        return usage_error(v->name, "unknown option '%s'", argv[optind - 1]);
                if (c == ':')
                        return usage_error(v->name, "option '%s' needs a value", argv[optind - 1]);
                bool ok = false;
                for (const int *o = v->opts; *o; o++)
                        ok |= *o == c;
                if (!ok)
                        return usage_error(v->name, "option '%s' does not apply to %s", opt_name(c, on), v->name);
                int r = parse_option(v, c, a);
                if (r)
                        return r;
        }
        if (optind < argc)
                return usage_error(v->name, "unexpected argument '%s'", argv[optind]);
        if (a->root && canonical_root(a) < 0)
                return usage_error(v->name, "--root %s: %s", a->root, strerror(errno));
        if (a->offline && a->sysroot)
                return usage_error(v->name, "--offline and --sysroot exclude each other");
        if (a->os_disks && a->offline)
                return usage_error(v->name, "--os-disks names disks of this machine; --offline has none");
        return 0;
}
