/* SPDX-License-Identifier: GPL-2.0-or-later
 * What md, LVM and sysfs say now: the read-only queries that inspect,
 * preserve, steps and verify all make (lvm reports, md attributes and
 * UUIDs, UUID spellings, tuning values read back). Calls no other file of
 * apply/, so those four do not call each other for them. */
#include "apply/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/exec.h"

char **lvm_query(const struct run *r, const char *cmd, const char *fields, const char *target, int *ret_rc)
{
        char **argv = lvm_report_argv(r->pl, cmd, fields, target);
        char *out = NULL;
        int rc = run_argv(argv, &out);
        strv_free(argv);
        if (ret_rc)
                *ret_rc = rc;
        char **lines = NULL;
        if (rc == 0 && out) {
                char **l = strv_split(out, "\n");
                for (size_t i = 0; l && l[i]; i++) {
                        char *s = strip(l[i]);
                        if (*s)
                                strv_push(&lines, s);
                }
                strv_free(l);
        }
        free(out);
        return lines;
}

/* "8-4-4-4-12" or "8:8:8:8" → 32 lower-case hex digits, for comparisons. */
static char *uuid_norm(const char *u)
{
        if (!u)
                return NULL;
        struct sbuf b = {0};
        for (; *u; u++)
                if (*u != '-' && *u != ':')
                        sbuf_printf(&b, "%c", (*u >= 'A' && *u <= 'F') ? *u - 'A' + 'a' : *u);
        return sbuf_steal(&b);
}

bool uuid_eq(const char *a, const char *b)
{
        char *x = uuid_norm(a), *y = uuid_norm(b);
        bool eq = x && y && !strcmp(x, y);
        free(x);
        free(y);
        return eq;
}

char *uuid_to_mdadm(const char *u)
{
        char *n = uuid_norm(u);
        if (!n || strlen(n) != 32) {
                free(n);
                return NULL;
        }
        char *r = xasprintf("%.8s:%.8s:%.8s:%.8s", n, n + 8, n + 16, n + 24);
        free(n);
        return r;
}

char *md_attr(const struct run *r, const struct pl_obj *m, const char *attr)
{
        _cleanup_free_ char *f = dev_sysfs_attr(&r->dev, m, attr);
        return f ? read_line_file(f) : NULL;
}

char *md_uuid_of(const char *path)
{
        char **argv = md_detail_argv(path);
        char *out = NULL, *uuid = NULL;
        if (run_argv(argv, &out) == 0 && out) {
                char *u = strstr(out, "MD_UUID=");
                if (u) {
                        char *e = strchr(u, '\n');
                        if (e)
                                *e = 0;
                        uuid = xstrdup(u + 8);
                }
        }
        free(out);
        strv_free(argv);
        return uuid;
}

/* Does the attribute already read back as value? */
bool tune_value_same(enum step_kind kind, enum tune_attr a, const char *cur, const char *value)
{
        if (!cur)
                return false;
        if (kind == STEP_SYSFS && a == TUNE_SCHEDULER) {
                _cleanup_free_ char *want = xasprintf("[%s]", value);
                return strstr(cur, want) != NULL || (!strchr(cur, '[') && !strcmp(cur, value));
        }
        /* safe_mode_delay reads back as "10.000" */
        char *x = NULL, *y = NULL;
        return !strcmp(cur, value) || strtod(cur, &x) == strtod(value, &y);
}

char *md_sync_text(const char *action, const char *completed, const char *speed_kbs)
{
        unsigned long long done = 0, total = 0, kbs = 0;
        if (!completed || sscanf(completed, "%llu / %llu", &done, &total) != 2 || !total || done > total)
                return xasprintf("%s running in the background (cat /proc/mdstat for its progress)",
                                 action ? action : "a resync");
        double pct = 100.0 * (double)done / (double)total;
        if (!speed_kbs || sscanf(speed_kbs, "%llu", &kbs) != 1 || !kbs)
                return xasprintf("%s running in the background: %.1f%% done", action, pct);
        /* sync_completed counts 512-byte sectors, sync_speed KiB/s */
        unsigned long long left_s = (total - done) / 2 / kbs;
        char eta[48];
        if (left_s >= 3600)
                snprintf(eta, sizeof eta, "%lluh %llum", left_s / 3600, left_s % 3600 / 60);
        else if (left_s >= 60)
                snprintf(eta, sizeof eta, "%llum %llus", left_s / 60, left_s % 60);
        else
                snprintf(eta, sizeof eta, "%llus", left_s);
        return xasprintf("%s running in the background: %.1f%% done, about %s left at %.1f MB/s", action, pct, eta,
                         (double)kbs / 1024.0);
}
