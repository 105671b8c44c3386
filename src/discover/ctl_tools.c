/* SPDX-License-Identifier: GPL-2.0-or-later
 * Which controller tools storprov reads, how each is run and captured: one
 * row per tool (CTL_TOOLS). A row names the executables to look for in PATH,
 * the label its records carry, and its steps: the commands (argv after the
 * executable), the file each output is kept in under
 * SYSROOT/storprov-controller/, the parser that turns an output into records
 * and the follower that says which commands it leads to. Adding a tool is
 * one row here, its parser file (ctl_<vendor>.c) and its fixtures.
 *
 * The same walk runs the tools live (by argv, each command under a time
 * limit, all of them under one overall limit, everything they start ended
 * with them) or reads a captured sysroot's files. */
#include "discover/ctl_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/exec.h"

#define CTL_MAX_STEPS 3
#define CTL_MAX_ARGS 8
/* commands of one tool in one run: 64 controllers of 32 units is 2113 for tw_cli */
#define CTL_MAX_CALLS 4096

struct ctl_step {
        const char *argv[CTL_MAX_ARGS]; /* after the executable; "%s" is the id the command is for */
        const char *capture;            /* under SYSROOT/storprov-controller/; "%s" the id, '/' as '-' */
        ctl_parse_fn *parse;            /* the records of the output, NULL: a listing */
        ctl_follow_fn *follow;          /* the commands it leads to, NULL: none */
        const char *first;              /* run at the start with this id ("" none); NULL: only when followed */
};

struct ctl_tool {
        const char *label;              /* the records' tool, and the captures' name */
        const char *names[4];           /* executables, the first one in PATH runs; none: read from captures only */
        const char *instead_of;         /* captures only: read when that tool's first capture is absent */
        struct ctl_step steps[CTL_MAX_STEPS];
};

static const struct ctl_tool CTL_TOOLS[] = {
        {"storcli", {"storcli64", "storcli"}, NULL,
         {{{"/call/vall", "show", "all", "J"}, "storcli-call-vall-show-all.json", ctl_parse_storcli, NULL, ""}}},
        {"perccli", {"perccli64", "perccli"}, NULL,
         {{{"/call/vall", "show", "all", "J"}, "perccli-call-vall-show-all.json", ctl_parse_storcli, NULL, ""}}},
        {"storcli2", {"storcli2"}, NULL,
         {{{"/call/vall", "show", "all", "J"}, "storcli2-call-vall-show-all.json", ctl_parse_storcli2, NULL, ""}}},
        {"perccli2", {"perccli2"}, NULL,
         {{{"/call/vall", "show", "all", "J"}, "perccli2-call-vall-show-all.json", ctl_parse_storcli2, NULL, ""}}},
        /* hpssacli and hpacucli are ssacli's older names, printing the same format */
        {"ssacli", {"ssacli", "hpssacli", "hpacucli"}, NULL,
         {{{"ctrl", "all", "show", "config", "detail"}, "ssacli-ctrl-all-show-config-detail.txt", ctl_parse_ssacli,
           NULL, ""}}},
        {"arcconf", {"arcconf"}, NULL,
         {{{"GETCONFIG", "%s", "LD"}, "arcconf-getconfig-%s-ld.txt", ctl_parse_arcconf, ctl_follow_arcconf, "1"}}},
        /* tw_cli: the controllers, each one's units, each unit; ids "c0", "c0/u1" */
        {"tw_cli", {"tw_cli"}, NULL,
         {{{"show"}, "tw_cli-show.txt", NULL, ctl_follow_twcli_show, ""},
          {{"/%s", "show"}, "tw_cli-%s-show.txt", NULL, ctl_follow_twcli_ctl, NULL},
          {{"/%s", "show", "all"}, "tw_cli-%s-show-all.txt", ctl_parse_twcli_unit, NULL, NULL}}},
        /* MegaCli's exit code is the adapter count: only a parse failure is a failure */
        {"megacli", {"MegaCli64", "MegaCli", "megacli"}, NULL,
         {{{"-AdpCount", "-NoLog"}, "megacli-adpcount.txt", NULL, ctl_follow_megacli_count, ""},
          {{"-LdPdInfo", "-aALL", "-NoLog"}, "megacli-ldpdinfo-aall.txt", ctl_parse_megacli_ld, NULL, NULL},
          {{"-AdpGetPciInfo", "-aALL", "-NoLog"}, "megacli-adpgetpciinfo-aall.txt", ctl_parse_megacli_pci, NULL,
           NULL}}},
        {"arcconf", {NULL}, "arcconf-getconfig-1-ld.txt",
         {{{NULL}, "arcconf-getconfigjson-%s.json", ctl_parse_arcconf_json, ctl_follow_arcconf, "1"}}},
};

/* ---- one walk over a tool's commands ---------------------------------------- */

/* Where the outputs come from: a live tool or a captured directory. */
struct ctl_source {
        const char *exe;                /* live: the executable's path; NULL: captures under dir */
        const char *dir;
        const struct ctl_limits *lim;
        long long deadline;             /* live: the end of the overall limit (ms, monotonic) */
        const char *capture_dir;        /* live: where to keep each output, NULL: nowhere */
        const char *cwd;                /* live: where the tools run (a directory of their own) */
};

/* "%s" in pattern replaced by id; '/' in id as sep (a file name) or kept. */
static char *fill(const char *pattern, const char *id, char sep)
{
        _cleanup_free_ char *v = xstrdup(id ? id : "");
        for (char *p = v; *p; p++)
                if (*p == '/')
                        *p = sep;
        const char *at = strstr(pattern, "%s");
        if (!at)
                return xstrdup(pattern);
        return xasprintf("%.*s%s%s", (int)(at - pattern), pattern, v, at + 2);
}

/* The command line of a step, as it is run and shown ("storcli64 /call/vall show all J"). */
static char **step_argv(const char *exe, const struct ctl_step *s, const char *id)
{
        char **argv = NULL;
        strv_push(&argv, exe);
        for (size_t i = 0; i < CTL_MAX_ARGS && s->argv[i]; i++) {
                _cleanup_free_ char *a = fill(s->argv[i], id, '/');
                strv_push(&argv, a);
        }
        return argv;
}

static bool id_ok(const char *id)
{
        size_t n = strlen(id);
        return n < sizeof(((struct ctl_next *)0)->id) && strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                                     "0123456789/=") == n &&
               !strstr(id, "//") && id[0] != '/';
}

/* The first line of what a failing tool said on stderr, for its error. */
static char *stderr_hint(const struct run_result *res)
{
        if (!res->err || !*res->err)
                return xstrdup("");
        size_t n = strcspn(res->err, "\n");
        _cleanup_free_ char *line = ctl_printable(res->err, n < 200 ? n : 200);
        size_t more = res->err_len - n + res->err_dropped;
        return more > 1 ? xasprintf(" (it said \"%s\", and %zu bytes more, kept to %zu)", line, more,
                                    (size_t)CTL_MAX_ERR_BYTES)
                        : xasprintf(" (it said \"%s\")", line);
}

/* Runs one command: its output in *ret (0), or -1 with an error added. */
static int run_live(const struct ctl_source *src, char **argv, struct ctl_list *l, struct run_result *ret)
{
        _cleanup_free_ char *cmd = strv_join(argv, " ");
        long long left = src->deadline - monotonic_ms();
        if (left <= 0) {
                strv_pushf(&l->errors, "%s was not run: the %u s for all controller commands of a run "
                                       "(STORPROV_CONTROLLER_TOTAL_TIMEOUT) were used up",
                           cmd, src->lim->total_ms / 1000);
                return -1;
        }
        bool overall = left < src->lim->call_ms;
        struct run_limits lim = {.timeout_ms = overall ? (unsigned)left : src->lim->call_ms,
                                 .max_out = CTL_MAX_OUT_BYTES,
                                 .max_err = CTL_MAX_ERR_BYTES,
                                 .cwd = src->cwd};
        int r = run_argv_limited(argv, &lim, ret);
        _cleanup_free_ char *hint = stderr_hint(ret);
        if (r == -ETIME)
                strv_pushf(&l->errors, "%s did not finish in %.*f s (%s) and was killed with all it started: the "
                                       "controller or its driver may hang; run it by hand to see%s",
                           cmd, lim.timeout_ms % 1000 ? 1 : 0, lim.timeout_ms / 1000.0,
                           overall ? "what was left of STORPROV_CONTROLLER_TOTAL_TIMEOUT"
                                   : "STORPROV_CONTROLLER_TIMEOUT", hint);
        else if (r == -EFBIG)
                strv_pushf(&l->errors, "%s printed more than %zu MiB and was killed", cmd,
                           (size_t)CTL_MAX_OUT_BYTES >> 20);
        else if (r < 0)
                strv_pushf(&l->errors, "%s could not be run: %s", cmd, strerror(-r));
        if (r == 0 && ret->stuck)
                strv_pushf(&l->warnings, "%s left processes behind that did not end when killed (stuck in the "
                                         "kernel: the controller's driver may hang)", cmd);
        else if (r == 0 && ret->leftovers)
                strv_pushf(&l->warnings, "%s left %u process%s running; storprov ended %s", cmd, ret->leftovers,
                           ret->leftovers == 1 ? "" : "es", ret->leftovers == 1 ? "it" : "them");
        if (r < 0) {
                run_result_free(ret);
                return -1;
        }
        return 0;
}

/* The whole file, NULs and all (read_file() stops at a NUL: a garbled
 * capture must reach the parser as it is); 0 or -errno. */
static int read_bytes(const char *path, char **ret, size_t *ret_len)
{
        FILE *f = fopen(path, "rbe");
        if (!f)
                return -errno;
        size_t cap = 65536, len = 0;
        char *buf = xmalloc(cap);
        for (;;) {
                len += fread(buf + len, 1, cap - len - 1, f);
                if (ferror(f) || len > CTL_MAX_OUT_BYTES) {
                        int r = ferror(f) ? -EIO : -EFBIG;
                        fclose(f);
                        free(buf);
                        return r;
                }
                if (feof(f))
                        break;
                if (cap - len < 2)
                        buf = xrealloc(buf, cap *= 2);
        }
        fclose(f);
        buf[len] = 0;
        *ret = buf;
        *ret_len = len;
        return 0;
}

/* Reads one captured file: 0 with its bytes, -1 with an error added (absent too). */
static int read_capture(const struct ctl_source *src, const char *name, struct run_result *ret, struct ctl_list *l)
{
        _cleanup_free_ char *p = xasprintf("%s/%s", src->dir, name);
        int r = read_bytes(p, &ret->out, &ret->out_len);
        if (r == -ENOENT)
                strv_pushf(&l->errors, "%s is not there, but the tool's outputs captured lead to it: capture it "
                                       "again (tests/fixtures/capture-sysroot.sh)", p);
        else if (r < 0)
                strv_pushf(&l->errors, "%s: %s", p, r == -EFBIG ? "larger than a controller tool prints" : strerror(-r));
        return r < 0 ? -1 : 0;
}

/* The output into the capture directory, as the tool printed it. */
static void keep_output(const struct ctl_source *src, const char *file, const struct run_result *res,
                        struct ctl_list *l)
{
        _cleanup_free_ char *p = xasprintf("%s/%s", src->capture_dir, file);
        int r = write_file_atomic(p, res->out, res->out_len, 0600);
        if (r < 0)
                strv_pushf(&l->errors, "%s: cannot keep the output: %s", p, strerror(-r));
}

/* One command of the walk: run or read, parse, follow. */
static void walk_one(const struct ctl_tool *t, const struct ctl_source *src, const struct ctl_next *call,
                     struct ctl_list *l, struct ctl_nexts *queue)
{
        const struct ctl_step *s = &t->steps[call->step];
        const char *id = *call->id ? call->id : NULL;
        _cleanup_free_ char *file = fill(s->capture, id, '-');
        char **argv = src->exe ? step_argv(src->exe, s, id) : NULL;
        _cleanup_free_ char *what = src->exe ? strv_join(argv, " ") : xasprintf("%s/%s", src->dir, file);
        struct run_result res = {0};
        int r = src->exe ? run_live(src, argv, l, &res) : read_capture(src, file, &res, l);
        strv_free(argv);
        if (r < 0)
                return;
        if (src->capture_dir)
                keep_output(src, file, &res, l);
        char *err = NULL;
        if (s->parse && s->parse(res.out, res.out_len, t->label, id, l, &err) < 0) {
                _cleanup_free_ char *hint = stderr_hint(&res);
                if (res.status) /* what it printed then is its complaint, not a format to read */
                        strv_pushf(&l->errors, "%s exited with status %d%s: run it by hand to see why", what,
                                   res.status, hint);
                else
                        strv_pushf(&l->errors, "%s: %s%s", what, err,
                                   src->exe ? "" : "; capture it again (tests/fixtures/capture-sysroot.sh)");
                free(err);
        } else if (s->follow && s->follow(res.out, res.out_len, t->label, id, queue, &err) < 0) {
                strv_pushf(&l->errors, "%s: %s", what, err);
                free(err);
        }
        run_result_free(&res);
}

static void walk(const struct ctl_tool *t, const struct ctl_source *src, struct ctl_list *l)
{
        struct ctl_nexts queue = {0};
        for (unsigned k = 0; k < CTL_MAX_STEPS; k++)
                if (t->steps[k].first)
                        ctl_nexts_add(&queue, k, t->steps[k].first);
        for (size_t i = 0; i < queue.n; i++) {
                struct ctl_next call = queue.v[i];
                if (call.step >= CTL_MAX_STEPS || !t->steps[call.step].capture || !id_ok(call.id)) {
                        _cleanup_free_ char *p = ctl_printable(call.id, 32);
                        strv_pushf(&l->errors, "%s: an output leads to step %u for \"%s\", which is not a command "
                                               "storprov runs: ignored", t->label, call.step, p);
                        continue;
                }
                if (i == CTL_MAX_CALLS) {
                        strv_pushf(&l->errors, "%s: more than %d commands for one tool; the rest was not run",
                                   t->label, CTL_MAX_CALLS);
                        break;
                }
                walk_one(t, src, &call, l, &queue);
        }
        ctl_nexts_free(&queue);
}

/* ---- live and captured -------------------------------------------------------- */


static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        (void)st;
        (void)ftw;
        return (flag == FTW_DP ? rmdir(path) : unlink(path)) < 0 ? -1 : 0;
}

/* The tools run in a directory of their own, removed after them: storcli
 * writes storcli.log, MegaCli MegaSAS.log (without -NoLog) where they start,
 * which would otherwise be the admin's directory or the installer's /. */
static char *tools_dir(struct ctl_list *l)
{
        const char *tmp = getenv("TMPDIR");
        char *d = xasprintf("%s/storprov-ctl.XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
        if (mkdtemp(d))
                return d;
        strv_pushf(&l->warnings, "cannot make %s (%s): the tools run in the current directory, where some write "
                                 "a log", d, strerror(errno));
        free(d);
        return NULL;
}

void ctl_collect_live(struct ctl_list *l, const struct ctl_limits *lim, const char *capture_dir)
{
        _cleanup_free_ char *cwd = tools_dir(l);
        struct ctl_source src = {.lim = lim, .deadline = monotonic_ms() + lim->total_ms, .capture_dir = capture_dir,
                                 .cwd = cwd};
        for (size_t i = 0; i < ELEMENTSOF(CTL_TOOLS); i++) {
                const struct ctl_tool *t = &CTL_TOOLS[i];
                _cleanup_free_ char *path = NULL;
                for (size_t k = 0; !path && k < ELEMENTSOF(t->names) && t->names[k]; k++)
                        path = exec_find(t->names[k]);
                if (!path) /* not installed, or a format read from captures only */
                        continue;
                src.exe = path;
                walk(t, &src, l);
        }
        if (cwd)
                (void)nftw(cwd, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The first step's capture of t is in dir. */
static bool captured(const struct ctl_tool *t, const char *dir)
{
        for (unsigned k = 0; k < CTL_MAX_STEPS; k++) {
                if (!t->steps[k].first)
                        continue;
                _cleanup_free_ char *f = fill(t->steps[k].capture, t->steps[k].first, '-');
                _cleanup_free_ char *p = xasprintf("%s/%s", dir, f);
                return access(p, F_OK) == 0;
        }
        return false;
}

void ctl_collect_sysroot(struct ctl_list *l, const char *sysroot)
{
        _cleanup_free_ char *dir = xasprintf("%s/%s", sysroot, CTL_CAPTURE_DIR);
        struct ctl_source src = {.dir = dir};
        for (size_t i = 0; i < ELEMENTSOF(CTL_TOOLS); i++) {
                const struct ctl_tool *t = &CTL_TOOLS[i];
                if (!captured(t, dir))
                        continue;
                if (t->instead_of) {
                        _cleanup_free_ char *p = xasprintf("%s/%s", dir, t->instead_of);
                        if (access(p, F_OK) == 0)
                                continue;
                }
                walk(t, &src, l);
        }
}
