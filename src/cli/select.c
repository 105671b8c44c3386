/* SPDX-License-Identifier: GPL-2.0-or-later
 * storprov inventory and select: the machine as it is, and which profile of a folder fits it. */
#include "cli/cli.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/inventory.h"
#include "base/version.h"

int cmd_inventory(struct args *a)
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

int cmd_select(struct args *a)
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
