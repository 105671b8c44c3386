/* SPDX-License-Identifier: GPL-2.0-or-later
 * storprov controller: the RAID controllers' logical drives, as their own
 * tools report them, each with the block device it is. */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonv.h"
#include "base/numbers.h"
#include "base/version.h"
#include "discover/controller.h"

static json_object *jcount_or_null(uint64_t v) { return v ? ju64(v) : NULL; }

static json_object *vd_json(const struct ctl_vd *v)
{
        json_object *j = json_object_new_object();
        json_object_object_add(j, "tool", jstr(v->tool));
        json_object_object_add(j, "controller", jstr(v->controller));
        json_object_object_add(j, "vd", jstr(v->vd));
        json_object_object_add(j, "level", jstr(v->level));
        json_object_object_add(j, "level_raw", jstr(v->level_raw));
        json_object_object_add(j, "strip_bytes", jcount_or_null(v->strip_bytes));
        json_object_object_add(j, "drives_per_span", jcount_or_null(v->drives_per_span));
        json_object_object_add(j, "spans", jcount_or_null(v->spans));
        json_object_object_add(j, "data_disks", jcount_or_null(v->data_disks));
        json_object_object_add(j, "full_stripe_bytes", jcount_or_null(v->full_stripe_bytes));
        json_object_object_add(j, "reported_full_stripe_bytes", jcount_or_null(v->reported_full_stripe_bytes));
        json_object_object_add(j, "state", jstr(v->state ? v->state : "other"));
        json_object_object_add(j, "state_raw", jstr(v->state_raw));
        json_object_object_add(j, "write_cache", jstr(ctl_cache_name(v->cache)));
        json_object_object_add(j, "write_cache_raw", jstr(v->write_cache_raw));
        json_object_object_add(j, "os_name", jstr(v->os_name));
        json_object_object_add(j, "naa", jstr(v->naa));
        json_object_object_add(j, "serial", jstr(v->serial));
        json_object_object_add(j, "scsi_address", jstr(v->scsi_addr));
        json_object_object_add(j, "pci", jstr(v->pci));
        json_object_object_add(j, "device", jstr(v->device));
        json_object_object_add(j, "matched_by", jstr(v->matched_by));
        json_object_object_add(j, "note", jstr(v->note));
        return j;
}

static void print_json_doc(const struct ctl_list *l, const char *sysroot)
{
        json_object *j = json_object_new_object();
        storprov_json_header(j, &storprov_format_controller);
        json_object_object_add(j, "sysroot", jstr(sysroot));
        json_object *a = json_object_new_array();
        for (size_t i = 0; i < l->n; i++)
                json_object_array_add(a, vd_json(&l->v[i]));
        json_object_object_add(j, "logical_drives", a);
        json_object_object_add(j, "errors", jstrv(l->errors));
        json_object_object_add(j, "warnings", jstrv(l->warnings));
        print_json(j);
        json_object_put(j);
}

static const char *num(uint64_t v, char buf[static 24])
{
        if (!v)
                return "?";
        snprintf(buf, 24, "%llu", (unsigned long long)v);
        return buf;
}

static void print_text(const struct ctl_list *l, const char *sysroot)
{
        if (!l->n) {
                if (sysroot)
                        printf("no logical drive in the captured outputs under %s/%s\n", sysroot, CTL_CAPTURE_DIR);
                else
                        printf("no logical drive: no controller tool in PATH (storcli, perccli, storcli2, perccli2, "
                               "ssacli, hpssacli, hpacucli, arcconf, tw_cli, MegaCli) reported one\n");
                return;
        }
        printf("%-9s %-7s %-4s %-13s %-8s %6s %5s %4s %-11s %-18s %-19s %s\n", "TOOL", "CTL", "VD", "LEVEL",
               "STRIP", "DRIVES", "SPANS", "DATA", "FULLSTRIPE", "STATE", "WRITECACHE", "DEVICE");
        for (size_t i = 0; i < l->n; i++) {
                const struct ctl_vd *v = &l->v[i];
                char s1[32], s2[32], b1[24], b2[24], b3[24];
                printf("%-9s %-7s %-4s %-13s %-8s %6s %5s %4s %-11s %-18s %-19s %s\n", v->tool, v->controller,
                       v->vd ? v->vd : "?", v->level ? v->level : v->level_raw ? v->level_raw : "?",
                       v->strip_bytes ? fmt_size_exact(v->strip_bytes, s1) : "?", num(v->drives_per_span, b1),
                       num(v->spans, b2), num(v->data_disks, b3),
                       v->full_stripe_bytes ? fmt_size_exact(v->full_stripe_bytes, s2) : "?",
                       v->state ? v->state : "other", v->cache ? ctl_cache_name(v->cache) : "-",
                       v->device ? v->device : "-");
        }
        for (size_t i = 0; i < l->n; i++)
                if (l->v[i].note)
                        printf("note: %s controller %s VD %s: %s\n", l->v[i].tool, l->v[i].controller,
                               l->v[i].vd ? l->v[i].vd : "?", l->v[i].note);
}

int cmd_controller(struct args *a)
{
        struct ctl_limits lim;
        if (controller_limits("controller", &lim))
                return EXIT_USAGE;
        if (a->capture && a->sysroot)
                return usage_error("controller", "--capture runs the tools of this machine; --sysroot reads "
                                                 "what was captured: not both");
        struct sysinfo si;
        int r = load_sysinfo(a, &si);
        if (r)
                return r;
        struct ctl_list l = {0};
        if (a->sysroot)
                ctl_collect_sysroot(&l, a->sysroot);
        else
                ctl_collect_live(&l, &lim, a->capture);
        ctl_match(&l, &si);
        if (a->format && !strcmp(a->format, "json"))
                print_json_doc(&l, a->sysroot);
        else
                print_text(&l, a->sysroot);
        for (size_t i = 0; l.errors && l.errors[i]; i++)
                fprintf(stderr, "storprov controller: %s\n", l.errors[i]);
        for (size_t i = 0; l.warnings && l.warnings[i]; i++)
                fprintf(stderr, "storprov controller: warning: %s\n", l.warnings[i]);
        r = l.errors ? EXIT_RUNTIME : 0;
        ctl_list_free(&l);
        sysinfo_free(&si);
        return fflush(stdout) == 0 ? r : EXIT_RUNTIME;
}
