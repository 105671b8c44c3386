/* SPDX-License-Identifier: GPL-2.0-or-later
 * storprov — command line. Parses options into a struct, then runs the
 * pipeline: profile → discovery → plan → output / render / apply.
 * Exit codes: 0 success, 1 runtime failure, 2 bad input or usage. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <sys/stat.h>
#include <unistd.h>
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <limits.h>

#include <json.h>

#include "apply/apply.h"
#include "discover/discover.h"
#include "input/geometry.h"
#include "plan/plan.h"
#include "input/profile.h"
#include "sys/exec.h"
#include "render/files.h"
#include "plan/lvmdevices.h"
#include "input/offline.h"
#include "render/render_ks.h"
#include "render/inventory.h"
#include "render/render.h"
#include "input/sanitize.h"
#include "base/util.h"
#include "base/version.h"

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
        bool yes, dry_run, wipe, mount, wait, autorelabel;
        const char *lock_file;
        const char *profiles;
        unsigned jobs;
        /* geometry */
        const char *level, *chunk;
        unsigned members, legs;
        uint64_t sector;
        bool md;
};

#include "cli/usage.h"

enum {
        OPT_PROFILE = 0x100, OPT_SYSROOT, OPT_ROOT, OPT_FORMAT, OPT_SEED, OPT_LEVEL, OPT_MEMBERS, OPT_CHUNK,
        OPT_LEGS, OPT_SECTOR, OPT_MD, OPT_YES, OPT_DRY_RUN, OPT_REPORT, OPT_JOBS, OPT_WIPE, OPT_MOUNT,
        OPT_MDADM_CONF, OPT_WAIT, OPT_LOCK_FILE, OPT_OFFLINE, OPT_OS_DISKS, OPT_KS_INCLUDE, OPT_PROFILES, OPT_AUTORELABEL, OPT_HELP,
};

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
        {"help", no_argument, NULL, OPT_HELP},
        {0},
};

/* Which options each verb takes. */
static const struct verb {
        const char *name;
        const char *help;
        const int *opts;
} verbs[] = {
        {"geometry", NULL, (const int[]){OPT_LEVEL, OPT_MEMBERS, OPT_CHUNK, OPT_LEGS, OPT_SECTOR, OPT_MD, OPT_FORMAT, 0}},
        {"validate", NULL,
         (const int[]){OPT_PROFILE, OPT_SYSROOT, OPT_SEED, OPT_MDADM_CONF, OPT_OFFLINE, OPT_FORMAT, OPT_OS_DISKS, 0}},
        {"plan", NULL, (const int[]){OPT_PROFILE, OPT_SYSROOT, OPT_SEED, OPT_FORMAT, OPT_MDADM_CONF, OPT_OS_DISKS, 0}},
        {"render", NULL,
         (const int[]){OPT_PROFILE, OPT_SYSROOT, OPT_ROOT, OPT_SEED, OPT_MDADM_CONF, OPT_OS_DISKS, OPT_AUTORELABEL, 0}},
        {"apply", NULL, (const int[]){OPT_PROFILE, OPT_SYSROOT, OPT_ROOT, OPT_SEED, OPT_YES, OPT_DRY_RUN, OPT_REPORT,
                                      OPT_JOBS, OPT_WIPE, OPT_MOUNT, OPT_MDADM_CONF, OPT_FORMAT, OPT_WAIT, OPT_LOCK_FILE,
                                      OPT_KS_INCLUDE, OPT_OS_DISKS, OPT_AUTORELABEL, 0}},
        {"verify", NULL,
         (const int[]){OPT_PROFILE, OPT_SYSROOT, OPT_ROOT, OPT_SEED, OPT_FORMAT, OPT_MDADM_CONF, OPT_OS_DISKS, 0}},
        {"inventory", NULL, (const int[]){OPT_SYSROOT, OPT_FORMAT, 0}},
        {"select", NULL, (const int[]){OPT_PROFILES, OPT_SYSROOT, OPT_FORMAT, 0}},
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
        return apply_help;
}

static int usage_error(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(const char *verb, const char *fmt, ...)
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

static int parse_args(const struct verb *v, int argc, char **argv, struct args *a)
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
                uint64_t u;
                switch (c) {
                case OPT_PROFILE: a->profile = optarg; break;
                case OPT_SYSROOT: a->sysroot = optarg; break;
                case OPT_ROOT: a->root = optarg; break;
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
                        break;
                case OPT_SEED:
                        if (parse_u64(optarg, &a->seed) < 0)
                                return usage_error(v->name, "--seed takes a whole number, not '%s'", optarg);
                        a->seed_set = true;
                        break;
                case OPT_LEVEL: a->level = optarg; break;
                case OPT_CHUNK: a->chunk = optarg; break;
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
                        /* every spelling of a disk is resolved against the machine by the planner;
                         * here only what cannot be a name at all */
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
                        break;
                }
                case OPT_PROFILES: a->profiles = optarg; break;
                }
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

/* ---- geometry ------------------------------------------------------------ */

static int cmd_geometry(struct args *a)
{
        if (!a->level || !a->members)
                return usage_error("geometry", "--level and --members are required");
        struct raid_desc d = {.members = a->members, .legs = a->legs, .md = a->md};
        if (raid_level_parse(a->level, &d.level) < 0)
                return usage_error("geometry", "--level takes 0, 1, 4, 5, 6, 10, 50 or 60, not '%s'", a->level);
        if (a->chunk && parse_size(a->chunk, &d.chunk_bytes) < 0)
                return usage_error("geometry", "--chunk takes a size such as 64K, not '%s'", a->chunk);
        if (d.level != RAID_1 && !a->chunk)
                return usage_error("geometry", "--chunk is required for %s", raid_level_name(d.level));
        struct stripe_geom g;
        char *e = NULL;
        if (raid_geometry(&d, &g, &e) < 0) {
                fprintf(stderr, "storprov geometry: %s\n", e);
                free(e);
                return EXIT_USAGE;
        }
        uint64_t sector = a->sector ? a->sector : SECTOR_BYTES;
        if (xfs_validate_stripe(g.su_bytes, g.sw, sector, &e) < 0) {
                fprintf(stderr, "storprov geometry: %s\n", e);
                free(e);
                return EXIT_USAGE;
        }
        uint64_t align = partition_align_bytes(&g, sector);
        uint64_t lsu = xfs_log_su_bytes(&g);
        uint64_t ext = vg_extent_bytes(pv_data_alignment_bytes(&g));
        if (!align || !ext) {
                fprintf(stderr, "storprov geometry: the alignment (lcm of 1 MiB, the full stripe and the sector) or the "
                                "extent size does not fit in 64 bits\n");
                return EXIT_USAGE;
        }
        char **mkfs = NULL;
        xfs_stripe_args(&g, &mkfs);
        char mo[96], x1[32], x2[32], x3[32], x4[32];
        snprintf(mo, sizeof mo, "logbufs=8,logbsize=%s%s", fmt_size_exact(xfs_logbsize_bytes(lsu), x1),
                 g.parity ? ",swalloc" : "");

        if (a->format && !strcmp(a->format, "json")) {
                json_object *j = json_object_new_object();
                storprov_json_header(j, &storprov_format_geometry);
                json_object_object_add(j, "level", json_object_new_string(raid_level_name(d.level)));
                json_object_object_add(j, "members", json_object_new_int64(d.members));
                json_object_object_add(j, "legs", json_object_new_int64(d.legs ? d.legs : 1));
                json_object_object_add(j, "chunk_bytes", json_object_new_int64((int64_t)d.chunk_bytes));
                json_object_object_add(j, "su_bytes", json_object_new_int64((int64_t)g.su_bytes));
                json_object_object_add(j, "sw", json_object_new_int64(g.sw));
                json_object_object_add(j, "full_stripe_bytes", json_object_new_int64((int64_t)g.full_stripe_bytes));
                json_object_object_add(j, "parity", json_object_new_boolean(g.parity));
                json_object_object_add(j, "partition_align_bytes", json_object_new_int64((int64_t)align));
                json_object_object_add(j, "pv_data_alignment_bytes",
                                       json_object_new_int64((int64_t)pv_data_alignment_bytes(&g)));
                json_object_object_add(j, "vg_extent_bytes", json_object_new_int64((int64_t)ext));
                json_object_object_add(j, "log_su_bytes", json_object_new_int64((int64_t)lsu));
                json_object_object_add(j, "xfs_sunit_blocks", json_object_new_int64((int64_t)(g.su_bytes / XFS_BLOCK_BYTES)));
                json_object_object_add(j, "xfs_swidth_blocks",
                                       json_object_new_int64((int64_t)(g.full_stripe_bytes / XFS_BLOCK_BYTES)));
                json_object_object_add(j, "mkfs_sunit_sectors", json_object_new_int64((int64_t)(g.su_bytes / 512)));
                json_object_object_add(j, "mkfs_swidth_sectors",
                                       json_object_new_int64((int64_t)(g.full_stripe_bytes / SECTOR_BYTES)));
                json_object_object_add(j, "mdadm_chunk_kib",
                                       json_object_new_int64((int64_t)(d.level == RAID_1 ? 0 : d.chunk_bytes / KiB)));
                json_object *ma = json_object_new_array();
                for (size_t i = 0; mkfs && mkfs[i]; i++)
                        json_object_array_add(ma, json_object_new_string(mkfs[i]));
                json_object_object_add(j, "mkfs_args", ma);
                json_object_object_add(j, "mount_options", json_object_new_string(mo));
                puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                               JSON_C_TO_STRING_NOSLASHESCAPE));
                json_object_put(j);
        } else {
                char *m = strv_join_shell(mkfs);
                printf("%s, %u members%s%s%s\n", raid_level_name(d.level), d.members, d.legs > 1 ? " in " : "",
                       d.legs > 1 ? (snprintf(x4, sizeof x4, "%u legs", d.legs), x4) : "",
                       d.level == RAID_1 ? "" : (snprintf(x3, sizeof x3, ", chunk %s", fmt_size_exact(d.chunk_bytes, x2)), x3));
                if (g.su_bytes) {
                        printf("  su %s, sw %u, full stripe %s%s\n", fmt_size_exact(g.su_bytes, x1), g.sw,
                               fmt_size_exact(g.full_stripe_bytes, x2), g.parity ? " (parity: partial writes pay read-modify-write)" : "");
                        printf("  xfs_info: sunit=%" PRIu64 " swidth=%" PRIu64 " blks (4 KiB blocks); mkfs sunit=%" PRIu64
                               " swidth=%" PRIu64 " (512-byte sectors)\n",
                               g.su_bytes / XFS_BLOCK_BYTES, g.full_stripe_bytes / XFS_BLOCK_BYTES, g.su_bytes / SECTOR_BYTES,
                               g.full_stripe_bytes / SECTOR_BYTES);
                } else
                        printf("  no stripe geometry (mirrors): mkfs.xfs gets no su/sw\n");
                printf("  partition alignment: %s (%" PRIu64 " bytes) = lcm(1m, full stripe, sector %" PRIu64 ")\n",
                       fmt_size_exact(align, x1), align, sector);
                if (g.su_bytes) {
                        printf("  pvcreate --dataalignment=%s; vgcreate --physicalextentsize=%s\n",
                               fmt_size_exact(pv_data_alignment_bytes(&g), x1), fmt_size_exact(ext, x2));
                        printf("  log stripe unit %s\n", fmt_size_exact(lsu, x1));
                }
                if (d.level != RAID_1)
                        printf("  mdadm --chunk=%" PRIu64 " (KiB)\n", d.chunk_bytes / KiB);
                printf("  mkfs.xfs %s\n", m);
                printf("  mount options: %s\n", mo);
                free(m);
        }
        strv_free(mkfs);
        return 0;
}

/* ---- profile → plan ------------------------------------------------------ */

/* Loads the profile, the machine (or, with --offline, made-up disks) and
 * builds the plan. Diagnostics are printed on stderr, or, with keep, moved
 * there for the caller (validate --format json). */
static int load_plan(const struct args *a, const char *verb, struct profile *p, struct sysinfo *si, struct plan *pl,
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
        struct plan_options o = {
                .sysroot = a->offline ? "(offline)" : sysroot,
                .os_disks = a->os_disks,
                .seed = a->seed,
                .seed_set = a->seed_set,
                /* the file the target root's distribution reads (--root, else
                 * this system: plan and validate show what apply would write) */
                .mdadm_conf = a->mdadm_conf ? a->mdadm_conf : root_mdadm_conf(a->root ? a->root : "/"),
                .lvm_config = STORPROV_LVM_CONFIG,
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

static json_object *diags_json(const struct diags *d)
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

static void print_json(json_object *j)
{
        puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                       JSON_C_TO_STRING_NOSLASHESCAPE));
}

static int cmd_validate(struct args *a)
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

static int cmd_plan(struct args *a)
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

static int cmd_render(struct args *a)
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

static int cmd_apply(struct args *a)
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

static int cmd_verify(struct args *a)
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

static int load_sysinfo(const struct args *a, struct sysinfo *si)
{
        struct diags d = {0};
        int r = sysinfo_load(a->sysroot ? a->sysroot : "/", si, &d);
        diags_print(&d, stderr);
        diags_free(&d);
        if (r < 0)
                return a->sysroot ? EXIT_USAGE : EXIT_RUNTIME;
        return 0;
}

static int cmd_inventory(struct args *a)
{
        struct sysinfo si;
        int r = load_sysinfo(a, &si);
        if (r)
                return r;
        inventory_print(&si, a->format && !strcmp(a->format, "json"), stdout);
        sysinfo_free(&si);
        return fflush(stdout) == 0 ? 0 : EXIT_RUNTIME;
}

static int strp_cmp(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* One profile for select, validated lazily: the cheap match first (no schema), the
 * full load only for a profile that may match. 1 a match; 0 not (*why, *dist
 * say why); -1 no XML (reported, not considered); -2 it may match but does not
 * validate (reported with file:line:rule). */
static int select_one(const char *file, const struct sysinfo *si, char ***why, unsigned *dist)
{
        struct profile p;
        struct diags d = {0};
        int lr = profile_load_match(file, &p, &d), v = 0;
        if (lr == 0 && !p.n_disks) {
                strv_push(why, "no <disks> group: it selects nothing");
                *dist = UINT_MAX;
        } else if (lr == 0 && profile_select(&p, si, why, dist) < 0) {
                v = 0;
        } else if (lr >= 0) {
                strv_free(*why);
                *why = NULL;
                profile_free(&p);
                diags_free(&d);
                d = (struct diags){0};
                lr = profile_load(file, &p, &d);
                v = lr < 0 ? -2 : profile_select(&p, si, why, dist) == 0;
        } else
                v = -1;
        if (v < 0) {
                diags_print(&d, stderr);
                fprintf(stderr, "storprov select: %s %s\n", file,
                        v == -2 ? "may match this node but does not validate" : "does not load; not considered");
        } else
                profile_free(&p);
        diags_free(&d);
        return v;
}

static int cmd_select(struct args *a)
{
        if (!a->profiles)
                return usage_error("select", "--profiles DIR is required");
        DIR *dir = opendir(a->profiles);
        if (!dir) {
                fprintf(stderr, "storprov select: %s: %s\n", a->profiles, strerror(errno));
                return EXIT_USAGE;
        }
        char **files = NULL;
        for (struct dirent *e; (e = readdir(dir));) {
                size_t n = strlen(e->d_name);
                if (e->d_name[0] != '.' && n > 4 && !strcmp(e->d_name + n - 4, ".xml"))
                        strv_pushf(&files, "%s%s%s", a->profiles,
                                   a->profiles[strlen(a->profiles) - 1] == '/' ? "" : "/", e->d_name);
        }
        closedir(dir);
        size_t nf = strv_len(files);
        if (nf)
                qsort(files, nf, sizeof(char *), strp_cmp);
        struct sysinfo si;
        int r = load_sysinfo(a, &si);
        if (r) {
                strv_free(files);
                return r;
        }
        char **hits = NULL;
        struct miss {
                char *path;
                char **why;
                unsigned distance;
        } *misses = xcalloc(nf ? nf : 1, sizeof(*misses));
        size_t n_miss = 0, bad = 0, invalid = 0;
        for (size_t i = 0; i < nf; i++) {
                char **why = NULL;
                unsigned dist = 0;
                int v = select_one(files[i], &si, &why, &dist);
                if (v == 1)
                        strv_push(&hits, files[i]);
                bad += v < 0;
                invalid += v == -2;
                if (v >= 0 && (why || dist))
                        misses[n_miss++] = (struct miss){xstrdup(files[i]), why, dist};
                else
                        strv_free(why);
        }
        size_t nh = strv_len(hits);
        if (invalid)
                nh = 0, strv_free(hits), hits = NULL;
        /* closest first: the smallest count difference */
        for (size_t i = 1; i < n_miss; i++)
                for (size_t j = i; j > 0 && misses[j - 1].distance > misses[j].distance; j--) {
                        struct miss t = misses[j];
                        misses[j] = misses[j - 1];
                        misses[j - 1] = t;
                }
        if (a->format && !strcmp(a->format, "json")) {
                json_object *j = json_object_new_object();
                storprov_json_header(j, &storprov_format_select);
                json_object_object_add(j, "profiles", json_object_new_string(a->profiles));
                json_object_object_add(j, "selected", nh == 1 ? json_object_new_string(hits[0]) : NULL);
                json_object *ma = json_object_new_array();
                for (size_t i = 0; i < nh; i++)
                        json_object_array_add(ma, json_object_new_string(hits[i]));
                json_object_object_add(j, "matches", ma);
                json_object_object_add(j, "considered", json_object_new_int64((int64_t)(nf - bad)));
                json_object_object_add(j, "not_loaded", json_object_new_int64((int64_t)bad));
                json_object *na = json_object_new_array();
                for (size_t i = 0; nh == 0 && i < n_miss; i++) {
                        json_object *m = json_object_new_object();
                        json_object_object_add(m, "profile", json_object_new_string(misses[i].path));
                        json_object_object_add(m, "distance", misses[i].distance == UINT_MAX
                                                                      ? NULL
                                                                      : json_object_new_int64(misses[i].distance));
                        json_object *w = json_object_new_array();
                        for (size_t k = 0; misses[i].why && misses[i].why[k]; k++)
                                json_object_array_add(w, json_object_new_string(misses[i].why[k]));
                        json_object_object_add(m, "reasons", w);
                        json_object_array_add(na, m);
                }
                json_object_object_add(j, "near_misses", na);
                print_json(j);
                json_object_put(j);
        }
        if (invalid) {
                fprintf(stderr, "storprov select: %zu profile%s in %s that may match this node do%s not validate; "
                                "refusing to choose\n", invalid, invalid == 1 ? "" : "s", a->profiles, invalid == 1 ? "es" : "");
                r = EXIT_USAGE;
        } else if (nh == 1) {
                if (!a->format || strcmp(a->format, "json"))
                        puts(hits[0]);
                r = 0;
        } else if (nh > 1) {
                _cleanup_free_ char *l = strv_join(hits, ", ");
                fprintf(stderr, "storprov select: %zu profiles in %s match this node: %s; refusing to choose (make their "
                                "<match> rules exclusive)\n", nh, a->profiles, l);
                r = EXIT_USAGE;
        } else {
                fprintf(stderr, "storprov select: no profile in %s matches this node (%zu considered%s)%s\n", a->profiles,
                        nf - bad, bad ? ", some did not load" : "", n_miss ? "; near misses, closest first:" : "");
                for (size_t i = 0; i < n_miss; i++) {
                        fprintf(stderr, "  %s:\n", misses[i].path);
                        for (size_t k = 0; misses[i].why && misses[i].why[k]; k++)
                                fprintf(stderr, "    %s\n", misses[i].why[k]);
                }
                r = EXIT_USAGE;
        }
        for (size_t i = 0; i < n_miss; i++) {
                free(misses[i].path);
                strv_free(misses[i].why);
        }
        free(misses);
        strv_free(hits);
        strv_free(files);
        sysinfo_free(&si);
        return r;
}

int main(int argc, char **argv)
{
        if (argc < 2)
                return usage_error(NULL, "a verb is required (geometry, validate, plan, render, apply, verify, inventory, "
                                         "select)");
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
                r = !strcmp(verb, "geometry")    ? cmd_geometry(&a)
                    : !strcmp(verb, "validate")  ? cmd_validate(&a)
                    : !strcmp(verb, "plan")      ? cmd_plan(&a)
                    : !strcmp(verb, "render")    ? cmd_render(&a)
                    : !strcmp(verb, "verify")    ? cmd_verify(&a)
                    : !strcmp(verb, "inventory") ? cmd_inventory(&a)
                    : !strcmp(verb, "select")    ? cmd_select(&a)
                                                 : cmd_apply(&a);
        else if (r < 0)
                r = 0; /* --help */
        strv_free(a.os_disks);
        return r;
}
