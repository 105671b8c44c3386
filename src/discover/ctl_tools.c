/* SPDX-License-Identifier: GPL-2.0-or-later
 * Where the controller outputs come from: the vendor tools found in PATH,
 * run by argv with a timeout, or the files a capture left in a sysroot. */
#include "discover/ctl_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/exec.h"

/* 64 MiB: far more than any controller prints; a tool that goes on is broken. */
#define CTL_MAX_OUT ((size_t)64 << 20)

enum family { FAM_STORCLI, FAM_STORCLI2, FAM_SSACLI, FAM_ARCCONF, FAM_ARCCONF_JSON };

static const struct tool {
        enum family fam;
        const char *label;
        const char *names[3];     /* executables, the first one in PATH is run */
        const char *capture;      /* the file under SYSROOT/storprov-controller/ */
} tools[] = {
        {FAM_STORCLI, "storcli", {"storcli64", "storcli", NULL}, "storcli-call-vall-show-all.json"},
        {FAM_STORCLI, "perccli", {"perccli64", "perccli", NULL}, "perccli-call-vall-show-all.json"},
        {FAM_STORCLI2, "storcli2", {"storcli2", NULL}, "storcli2-call-vall-show-all.json"},
        {FAM_STORCLI2, "perccli2", {"perccli2", NULL}, "perccli2-call-vall-show-all.json"},
        {FAM_SSACLI, "ssacli", {"ssacli", NULL}, "ssacli-ctrl-all-show-config-detail.txt"},
        {FAM_ARCCONF, "arcconf", {"arcconf", NULL}, "arcconf-getconfig-%u-ld.txt"},
        /* read from a capture only, when it has no arcconf text */
        {FAM_ARCCONF_JSON, "arcconf", {NULL}, "arcconf-getconfigjson-%u.json"},
};

static int parse(const struct tool *t, const char *buf, size_t len, unsigned ctl, struct ctl_list *l, char **err)
{
        char c[16];
        switch (t->fam) {
        case FAM_STORCLI:
                return ctl_parse_storcli(buf, len, t->label, NULL, l, err);
        case FAM_STORCLI2:
                return ctl_parse_storcli2(buf, len, t->label, NULL, l, err);
        case FAM_SSACLI:
                return ctl_parse_ssacli(buf, len, t->label, NULL, l, err);
        default:
                snprintf(c, sizeof c, "%u", ctl);
                if (t->fam == FAM_ARCCONF_JSON)
                        return ctl_parse_arcconf_json(buf, len, t->label, c, l, err);
                return ctl_parse_arcconf(buf, len, t->label, c, l, err);
        }
}

/* The tool's argv (ctl: the arcconf controller number, written into num). */
static void tool_argv(const struct tool *t, const char *path, unsigned ctl, char num[static 16], const char *argv[8])
{
        snprintf(num, 16, "%u", ctl);
        const char *const *tail = t->fam == FAM_SSACLI    ? (const char *const[]){"ctrl", "all", "show", "config", "detail", NULL}
                                  : t->fam == FAM_ARCCONF ? (const char *const[]){"GETCONFIG", num, "LD", NULL}
                                                          : (const char *const[]){"/call/vall", "show", "all", "J", NULL};
        argv[0] = path;
        size_t i = 0;
        for (; tail[i]; i++)
                argv[i + 1] = tail[i];
        argv[i + 1] = NULL;
}

/* name looked up in PATH: the executable's path, NULL if none. */
static char *in_path(const char *name)
{
        const char *path = getenv("PATH");
        _cleanup_free_ char *copy = xstrdup(path ? path : "/usr/sbin:/usr/bin:/sbin:/bin");
        for (char *save = NULL, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
                char *p = xasprintf("%s/%s", *d ? d : ".", name);
                struct stat st;
                if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0)
                        return p;
                free(p);
        }
        return NULL;
}

/* Runs one command of the tool and parses it; 0, or -1 with an error added. */
static int run_one(const struct tool *t, const char *path, unsigned ctl, unsigned timeout_ms, struct ctl_list *l,
                   char **ret_out, size_t *ret_len)
{
        char num[16];
        const char *argv[8];
        tool_argv(t, path, ctl, num, argv);
        _cleanup_free_ char *cmd = strv_join((char *const *)argv, " ");
        char *out = NULL, *err = NULL;
        size_t len = 0;
        int r = run_argv_timeout((char *const *)argv, timeout_ms, CTL_MAX_OUT, &out, &len);
        if (r == -ETIME)
                strv_pushf(&l->errors, "%s did not finish in %u s and was killed: the controller or its driver may "
                                       "hang; run it by hand to see",
                           cmd, timeout_ms / 1000);
        else if (r == -EFBIG)
                strv_pushf(&l->errors, "%s printed more than %zu MiB and was killed", cmd, CTL_MAX_OUT >> 20);
        else if (r < 0)
                strv_pushf(&l->errors, "%s could not be run: %s", cmd, strerror(-r));
        else if (parse(t, out, len, ctl, l, &err) < 0) {
                /* storcli exits non-zero when a controller's command fails,
                 * and says so in its JSON: the exit status alone is no error */
                if (r)
                        strv_pushf(&l->errors, "%s exited with status %d: run it by hand to see why", cmd, r);
                else
                        strv_pushf(&l->errors, "%s: %s", cmd, err);
                free(err);
                r = -1;
        }
        if (r >= 0 && ret_out) {
                *ret_out = out;
                *ret_len = len;
        } else
                free(out);
        return r < 0 ? -1 : 0;
}

void ctl_collect_live(struct ctl_list *l, unsigned timeout_ms)
{
        for (size_t i = 0; i < ELEMENTSOF(tools); i++) {
                const struct tool *t = &tools[i];
                _cleanup_free_ char *path = NULL;
                for (size_t k = 0; !path && t->names[k]; k++)
                        path = in_path(t->names[k]);
                if (!path) /* also a capture-only format */
                        continue;
                char *out = NULL;
                size_t len = 0;
                if (run_one(t, path, 1, timeout_ms, l, t->fam == FAM_ARCCONF ? &out : NULL, &len) < 0)
                        continue;
                unsigned n = out ? ctl_arcconf_count(out, len) : 0;
                free(out);
                for (unsigned c = 2; c <= n; c++)
                        run_one(t, path, c, timeout_ms, l, NULL, NULL);
        }
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
                if (ferror(f) || len > CTL_MAX_OUT) {
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

/* Reads and parses one captured file: 1 done, 0 absent, -1 error added. */
static int read_one(const struct tool *t, const char *dir, unsigned ctl, struct ctl_list *l, unsigned *ret_count)
{
        char name[64];
        snprintf(name, sizeof name, t->capture, ctl);
        _cleanup_free_ char *p = xasprintf("%s/%s", dir, name);
        _cleanup_free_ char *buf = NULL;
        size_t len = 0;
        char *err = NULL;
        int r = read_bytes(p, &buf, &len);
        if (r == -ENOENT)
                return 0;
        if (r < 0) {
                strv_pushf(&l->errors, "%s: %s", p, strerror(-r));
                return -1;
        }
        if (parse(t, buf, len, ctl, l, &err) < 0) {
                strv_pushf(&l->errors, "%s: %s; capture it again (tests/fixtures/capture-sysroot.sh)", p, err);
                free(err);
                return -1;
        }
        if (ret_count)
                *ret_count = ctl_arcconf_count(buf, len);
        return 1;
}

void ctl_collect_sysroot(struct ctl_list *l, const char *sysroot)
{
        _cleanup_free_ char *dir = xasprintf("%s/%s", sysroot, CTL_CAPTURE_DIR);
        bool arcconf_text = false;
        for (size_t i = 0; i < ELEMENTSOF(tools); i++) {
                const struct tool *t = &tools[i];
                unsigned n = 0;
                bool arc = t->fam == FAM_ARCCONF || t->fam == FAM_ARCCONF_JSON;
                if ((t->fam == FAM_ARCCONF_JSON && arcconf_text) || read_one(t, dir, 1, l, arc ? &n : NULL) <= 0)
                        continue;
                arcconf_text = arcconf_text || t->fam == FAM_ARCCONF;
                for (unsigned c = 2; c <= n; c++) {
                        char first[64], name[64];
                        snprintf(first, sizeof first, t->capture, 1u);
                        snprintf(name, sizeof name, t->capture, c);
                        if (read_one(t, dir, c, l, NULL) == 0)
                                strv_pushf(&l->errors, "%s/%s says %u controllers, but %s is not there: capture it",
                                           dir, first, n, name);
                }
        }
}
