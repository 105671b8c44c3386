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

/* What select found: the profiles read, those that match, and the others
 * with why not, closest first. */
struct miss {
        char *path;
        char **why;
        unsigned distance;
};
struct selection {
        char **files;
        size_t nf, bad, invalid;
        char **hits;
        struct miss *misses;
        size_t n_miss;
};

/* The *.xml files of dir, sorted; -1 (said why) when dir cannot be read. */
static int profile_files(const char *dir_path, char ***ret)
{
        DIR *dir = opendir(dir_path);
        if (!dir) {
                fprintf(stderr, "storprov select: %s: %s\n", dir_path, strerror(errno));
                return -1;
        }
        char **files = NULL;
        for (struct dirent *e; (e = readdir(dir));) {
                size_t n = strlen(e->d_name);
                if (e->d_name[0] != '.' && n > 4 && !strcmp(e->d_name + n - 4, ".xml"))
                        strv_pushf(&files, "%s%s%s", dir_path, dir_path[strlen(dir_path) - 1] == '/' ? "" : "/",
                                   e->d_name);
        }
        closedir(dir);
        size_t nf = strv_len(files);
        if (nf)
                qsort(files, nf, sizeof(char *), strp_cmp);
        *ret = files;
        return 0;
}

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

static void select_match(struct selection *x, const struct sysinfo *si)
{
        x->misses = xcalloc(x->nf ? x->nf : 1, sizeof(*x->misses));
        for (size_t i = 0; i < x->nf; i++) {
                char **why = NULL;
                unsigned dist = 0;
                int v = select_one(x->files[i], si, &why, &dist);
                if (v == 1)
                        strv_push(&x->hits, x->files[i]);
                x->bad += v < 0;
                x->invalid += v == -2;
                if (v >= 0 && (why || dist))
                        x->misses[x->n_miss++] = (struct miss){xstrdup(x->files[i]), why, dist};
                else
                        strv_free(why);
        }
        if (x->invalid) {
                strv_free(x->hits);
                x->hits = NULL;
        }
        /* closest first: the smallest count difference */
        for (size_t i = 1; i < x->n_miss; i++)
                for (size_t j = i; j > 0 && x->misses[j - 1].distance > x->misses[j].distance; j--) {
                        struct miss t = x->misses[j];
                        x->misses[j] = x->misses[j - 1];
                        x->misses[j - 1] = t;
                }
}

static void select_json(const struct args *a, const struct selection *x)
{
        size_t nh = strv_len(x->hits);
        json_object *j = json_object_new_object();
        storprov_json_header(j, &storprov_format_select);
        json_object_object_add(j, "profiles", json_object_new_string(a->profiles));
        json_object_object_add(j, "selected", nh == 1 ? json_object_new_string(x->hits[0]) : NULL);
        json_object *ma = json_object_new_array();
        for (size_t i = 0; i < nh; i++)
                json_object_array_add(ma, json_object_new_string(x->hits[i]));
        json_object_object_add(j, "matches", ma);
        json_object_object_add(j, "considered", json_object_new_int64((int64_t)(x->nf - x->bad)));
        json_object_object_add(j, "not_loaded", json_object_new_int64((int64_t)x->bad));
        json_object *na = json_object_new_array();
        for (size_t i = 0; nh == 0 && i < x->n_miss; i++) {
                const struct miss *mi = &x->misses[i];
                json_object *m = json_object_new_object();
                json_object_object_add(m, "profile", json_object_new_string(mi->path));
                json_object_object_add(m, "distance",
                                       mi->distance == UINT_MAX ? NULL : json_object_new_int64(mi->distance));
                json_object *w = json_object_new_array();
                for (size_t k = 0; mi->why && mi->why[k]; k++)
                        json_object_array_add(w, json_object_new_string(mi->why[k]));
                json_object_object_add(m, "reasons", w);
                json_object_array_add(na, m);
        }
        json_object_object_add(j, "near_misses", na);
        print_json(j);
        json_object_put(j);
}

/* The verdict: the one match on stdout, else why not on stderr; the exit code. */
static int select_verdict(const struct args *a, const struct selection *x)
{
        size_t nh = strv_len(x->hits);
        if (x->invalid) {
                fprintf(stderr, "storprov select: %zu profile%s in %s that may match this node do%s not validate; "
                                "refusing to choose\n", x->invalid, x->invalid == 1 ? "" : "s", a->profiles,
                        x->invalid == 1 ? "es" : "");
                return EXIT_USAGE;
        }
        if (nh == 1) {
                if (!a->format || strcmp(a->format, "json"))
                        puts(x->hits[0]);
                return 0;
        }
        if (nh > 1) {
                _cleanup_free_ char *l = strv_join(x->hits, ", ");
                fprintf(stderr, "storprov select: %zu profiles in %s match this node: %s; refusing to choose (make their "
                                "<match> rules exclusive)\n", nh, a->profiles, l);
                return EXIT_USAGE;
        }
        fprintf(stderr, "storprov select: no profile in %s matches this node (%zu considered%s)%s\n", a->profiles,
                x->nf - x->bad, x->bad ? ", some did not load" : "", x->n_miss ? "; near misses, closest first:" : "");
        for (size_t i = 0; i < x->n_miss; i++) {
                fprintf(stderr, "  %s:\n", x->misses[i].path);
                for (size_t k = 0; x->misses[i].why && x->misses[i].why[k]; k++)
                        fprintf(stderr, "    %s\n", x->misses[i].why[k]);
        }
        return EXIT_USAGE;
}

int cmd_select(struct args *a)
{
        if (!a->profiles)
                return usage_error("select", "--profiles DIR is required");
        struct selection x = {0};
        if (profile_files(a->profiles, &x.files) < 0)
                return EXIT_USAGE;
        x.nf = strv_len(x.files);
        struct sysinfo si;
        int r = load_sysinfo(a, &si);
        if (r) {
                strv_free(x.files);
                return r;
        }
        select_match(&x, &si);
        if (a->format && !strcmp(a->format, "json"))
                select_json(a, &x);
        r = select_verdict(a, &x);
        for (size_t i = 0; i < x.n_miss; i++) {
                free(x.misses[i].path);
                strv_free(x.misses[i].why);
        }
        free(x.misses);
        strv_free(x.hits);
        strv_free(x.files);
        sysinfo_free(&si);
        return r;
}
