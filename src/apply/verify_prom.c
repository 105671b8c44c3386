/* SPDX-License-Identifier: GPL-2.0-or-later
 * verify --format prometheus: the verify checks as node_exporter textfile
 * metrics (Prometheus text exposition format 0.0.4), for a scheduled verify
 * whose file node_exporter's textfile collector serves:
 *   storprov_verify_objects{status}       objects by their worst checked status
 *   storprov_verify_checks{status}        checks by status
 *   storprov_verify_drift{object,kind,check,status}
 *                                         1 per check that is drift or missing
 *   storprov_verify_last_run_timestamp_seconds, storprov_verify_exit_code
 *   storprov_info{version,profile}        1
 * No label carries a measured value: a value that changes (read-ahead 128, then
 * 256, then 512) would make a new series at each scrape, thousands across a
 * fleet. The label set of a drift series is fixed by the plan (object, kind,
 * check) and the status; expected and found are in a "# drift:" comment line
 * above it, which the textfile collector ignores, and in verify --format json.
 * Label values escape backslash, double quote and newline as the format
 * says; bytes that are not UTF-8 (a sysfs file may hold any) become '?'. */
#include "apply/internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/strmap.h"
#include "base/version.h"

static const char *const prom_status[] = {
        [V_OK] = "ok", [V_DRIFT] = "drift", [V_MISSING] = "missing", [V_UNCHECKED] = "not-checked",
};

/* Length of the valid UTF-8 sequence at s, or 0 if there is none. */
static size_t utf8_len(const unsigned char *s)
{
        size_t n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 && s[0] >= 0xc2 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
                                 : (s[0] & 0xf8) == 0xf0 && s[0] <= 0xf4                         ? 4
                                                                                                 : 0;
        for (size_t i = 1; i < n; i++)
                if ((s[i] & 0xc0) != 0x80)
                        return 0;
        return n;
}

/* value, escaped as a label value is (also fit for a one-line comment) */
static void put_escaped(FILE *out, const char *value)
{
        for (const unsigned char *p = (const unsigned char *)(value ? value : ""); *p;) {
                size_t n = utf8_len(p);
                if (*p == '\\')
                        fputs("\\\\", out);
                else if (*p == '"')
                        fputs("\\\"", out);
                else if (*p == '\n')
                        fputs("\\n", out);
                else if (n)
                        fwrite(p, 1, n, out);
                else
                        fputc('?', out);
                p += n ? n : 1;
        }
}

static void put_label(FILE *out, const char *name, const char *value, bool first)
{
        fprintf(out, "%s%s=\"", first ? "" : ",", name);
        put_escaped(out, value);
        fputc('"', out);
}

/* The values behind a drift series, as a comment: "# drift: OBJECT CHECK: expected "E", found "F"" */
static void put_drift_comment(FILE *out, const struct vcheck *c)
{
        fputs("# drift: ", out);
        put_escaped(out, c->object);
        fputs(" ", out);
        put_escaped(out, c->what);
        fputs(": expected \"", out);
        put_escaped(out, c->expected ? c->expected : "-");
        fputs("\", found \"", out);
        put_escaped(out, c->found ? c->found : "nothing");
        fputs("\"\n", out);
}

static void header(FILE *out, const char *name, const char *help)
{
        fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

void verify_print_prometheus(const struct vcheck *vc, size_t n, int exit_code, const char *profile, FILE *out)
{
        /* an object's status is its worst checked one, as the text report shows it */
        struct strmap seen = {0};
        enum vstatus *worst = calloc(n ? n : 1, sizeof *worst);
        size_t n_obj = 0, checks[_V_MAX] = {0}, objects[_V_MAX] = {0};
        for (size_t i = 0; i < n; i++) {
                checks[vc[i].status]++;
                size_t k = strmap_get(&seen, vc[i].object);
                if (k == (size_t)-1) {
                        k = n_obj++;
                        (void)strmap_add(&seen, vc[i].object, k, NULL);
                        worst[k] = V_OK;
                }
                if (vc[i].status != V_UNCHECKED && vc[i].status > worst[k])
                        worst[k] = vc[i].status;
        }
        for (size_t k = 0; k < n_obj; k++)
                objects[worst[k]]++;
        strmap_free(&seen);
        free(worst);

        header(out, "storprov_verify_objects", "Objects read back by the last storprov verify, by worst status.");
        for (int s = V_OK; s <= V_MISSING; s++)
                fprintf(out, "storprov_verify_objects{status=\"%s\"} %zu\n", prom_status[s], objects[s]);
        header(out, "storprov_verify_checks", "Checks of the last storprov verify, by status.");
        for (int s = 0; s < _V_MAX; s++)
                fprintf(out, "storprov_verify_checks{status=\"%s\"} %zu\n", prom_status[s], checks[s]);
        header(out, "storprov_verify_drift",
               "1 for each check the last storprov verify found drifted or missing (its values: the # drift: line above it).");
        for (size_t i = 0; i < n; i++) {
                if (vc[i].status != V_DRIFT && vc[i].status != V_MISSING)
                        continue;
                put_drift_comment(out, &vc[i]);
                fputs("storprov_verify_drift{", out);
                put_label(out, "object", vc[i].object, true);
                put_label(out, "kind", vc[i].kind, false);
                put_label(out, "check", vc[i].what, false);
                put_label(out, "status", prom_status[vc[i].status], false);
                fputs("} 1\n", out);
        }
        header(out, "storprov_verify_last_run_timestamp_seconds", "When the last storprov verify ran (Unix time).");
        fprintf(out, "storprov_verify_last_run_timestamp_seconds %lld\n", (long long)time(NULL));
        header(out, "storprov_verify_exit_code", "Exit status of the last storprov verify (0 clean, 3 drift).");
        fprintf(out, "storprov_verify_exit_code %d\n", exit_code);
        header(out, "storprov_info", "The storprov that ran the last verify, and the profile it verified.");
        fputs("storprov_info{", out);
        put_label(out, "version", storprov_version, true);
        put_label(out, "profile", profile, false);
        fputs("} 1\n", out);
}
