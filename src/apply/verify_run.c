/* SPDX-License-Identifier: GPL-2.0-or-later
 * storprov verify: every step's .verify (steps.c's table, verify.c's
 * operations), the preserved objects no step makes, the generated files,
 * then the report as text, JSON or Prometheus text. */
#include "apply/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json.h>

#include "base/strmap.h"
#include "base/version.h"
#include "render/file_ops.h"
#include "render/render.h"

static const char *const vstatus_names[] = {
        [V_OK] = "ok", [V_DRIFT] = "drift", [V_MISSING] = "missing", [V_UNCHECKED] = "not-checked",
};

/* ---- files ---------------------------------------------------------------------- */

/* text without the lines the file kind's row leaves to other checks (fstab:
 * a planned filesystem's own line, its "fstab entry" check). */
static char *without_lines_checked_apart(const struct plan *pl, const struct file_ops *ops, const char *text)
{
        struct sbuf b = {0};
        for (const char *l = text; *l;) {
                size_t n = strcspn(l, "\n");
                if (!ops->checked_apart(pl, l, n))
                        sbuf_printf(&b, "%.*s\n", (int)n, l);
                l += n + (l[n] == '\n');
        }
        return sbuf_steal(&b);
}

/* The check names the file by its path on the target (/etc/fstab), never
 * with --root: the same node verified from its root or from a rescue mount
 * gives the same series. */
static void verify_one_file(struct run *r, const struct pl_file *f)
{
        _cleanup_free_ char *p = path_join(r->o->root, f->path);
        _cleanup_free_ char *have = NULL;
        size_t len;
        _cleanup_free_ char *id = xasprintf("file:%s", f->path);
        if (read_file(p, &have, &len) < 0) {
                vcheck(r, id, "file", f->path, V_MISSING, "as render writes it", NULL);
                return;
        }
        _cleanup_free_ char *want = render_file(r->pl, f->kind, have, NULL);
        if (!strcmp(want, have)) {
                vcheck(r, id, "file", f->path, V_OK, "as render writes it", "the same");
                return;
        }
        /* verify's report only: apply's dry run asks whether the file will be written, and it will */
        const struct file_ops *ops = file_ops_of(f->kind);
        if (ops->checked_apart && !r->st) {
                _cleanup_free_ char *w = without_lines_checked_apart(r->pl, ops, want);
                _cleanup_free_ char *h = without_lines_checked_apart(r->pl, ops, have);
                if (!strcmp(w, h)) {
                        _cleanup_free_ char *same =
                                xasprintf("the same but for lines %s report", ops->checked_apart_by);
                        vcheck(r, id, "file", f->path, V_OK, "as render writes it", same);
                        return;
                }
        }
        /* the first line that differs */
        size_t line = 1, k = 0;
        while (want[k] && want[k] == have[k]) {
                if (want[k] == '\n')
                        line++;
                k++;
        }
        size_t ws = k, hs = k;
        while (ws > 0 && want[ws - 1] != '\n')
                ws--;
        while (hs > 0 && have[hs - 1] != '\n')
                hs--;
        _cleanup_free_ char *e = xasprintf("line %zu: %.*s", line, (int)strcspn(want + ws, "\n"), want + ws);
        _cleanup_free_ char *g = xasprintf("line %zu: %.*s", line, (int)strcspn(have + hs, "\n"), have + hs);
        vcheck(r, id, "file", f->path, V_DRIFT, e, g);
}

static void verify_files(struct run *r)
{
        for (size_t i = 0; i < r->pl->n_files; i++)
                verify_one_file(r, &r->pl->files[i]);
}

/* ---- apply --dry-run: each step's state, as verify reads it -------------------------- */

static const char *const dry_names[] = {[DRY_WOULD_RUN] = "would-run", [DRY_DONE] = "done", [DRY_KEPT] = "kept"};
const char *dry_state_name(enum dry_state s) { return dry_names[s]; }

void apply_dry_free(struct apply_dry *d)
{
        if (!d)
                return;
        for (size_t i = 0; i < d->n_steps; i++)
                free(d->step_why[i]);
        for (size_t i = 0; i < d->n_files; i++)
                free(d->file_why[i]);
        free(d->step_state);
        free(d->step_why);
        free(d->file_changes);
        free(d->file_why);
        *d = (struct apply_dry){0};
}

/* Checks that a filesystem's verify makes but its mkfs step does not decide:
 * the mount (apply --mount, or the next boot) and the fstab line (a file). */
static bool not_the_steps(const struct vcheck *v)
{
        return startswith(v->what, "mount options") || startswith(v->what, "fstab entry");
}

/* The checks r->vc[from..] as one state: done when there are some and all are ok. */
static enum dry_state checks_state(const struct run *r, size_t from, char **ret_why)
{
        size_t n = 0;
        for (size_t k = from; k < r->n_vc; k++) {
                const struct vcheck *v = &r->vc[k];
                if (not_the_steps(v))
                        continue;
                n++;
                if (v->status == V_OK)
                        continue;
                *ret_why = v->status == V_MISSING
                                   ? xasprintf("%s: not there (expected %s)", v->what, v->expected ? v->expected : "it")
                           : v->status == V_UNCHECKED
                                   ? xasprintf("%s: cannot be read back here", v->what)
                                   : xasprintf("%s: expected %s, found %s", v->what, v->expected ? v->expected : "?",
                                               v->found ? v->found : "?");
                return DRY_WOULD_RUN;
        }
        if (!n) {
                *ret_why = xstrdup("nothing can be read back before it runs");
                return DRY_WOULD_RUN;
        }
        *ret_why = xasprintf("%s: as planned (%zu check%s ok)", r->vc[from].what, n, n == 1 ? "" : "s");
        return DRY_DONE;
}

static void vc_free_all(struct run *r)
{
        for (size_t i = 0; i < r->n_vc; i++) {
                free(r->vc[i].object);
                free(r->vc[i].kind);
                free(r->vc[i].what);
                free(r->vc[i].expected);
                free(r->vc[i].found);
        }
        free(r->vc);
        r->vc = NULL;
        r->n_vc = 0;
}

void dry_run_states(struct run *r, struct apply_dry *d)
{
        const struct plan *pl = r->pl;
        *d = (struct apply_dry){.n_steps = pl->n_steps, .n_files = pl->n_files};
        d->step_state = xcalloc(pl->n_steps ? pl->n_steps : 1, sizeof(*d->step_state));
        d->step_why = xcalloc(pl->n_steps ? pl->n_steps : 1, sizeof(*d->step_why));
        d->file_changes = xcalloc(pl->n_files ? pl->n_files : 1, sizeof(*d->file_changes));
        d->file_why = xcalloc(pl->n_files ? pl->n_files : 1, sizeof(*d->file_why));
        for (size_t i = 0; i < pl->n_steps; i++) {
                const struct pl_obj *o = pl->steps[i].obj != NO_OBJ ? STEP_OBJ(r, i) : NULL; /* a sysctl: none */
                size_t from = r->n_vc;
                if (o && o->preserve) {
                        d->step_state[i] = DRY_KEPT;
                        d->step_why[i] = xstrdup("preserve=\"true\": verified, never written");
                        continue;
                }
                step_verify(r, i);
                d->step_state[i] = checks_state(r, from, &d->step_why[i]);
        }
        for (size_t i = 0; i < pl->n_files; i++) {
                size_t from = r->n_vc;
                verify_one_file(r, &pl->files[i]);
                enum dry_state st = checks_state(r, from, &d->file_why[i]);
                d->file_changes[i] = st != DRY_DONE;
        }
        vcache_free();
        vc_free_all(r);
}

/* ---- the report ------------------------------------------------------------------- */

static const char *const tuning_mode_names[] = {[TUNING_UDEV] = "udev", [TUNING_TUNED] = "tuned",
                                                 [TUNING_BOTH] = "both"};

static void print_text(const struct run *r, const size_t *count)
{
        printf("tuning mode: %s (%s)\n", tuning_mode_names[r->pl->tuning], r->pl->tuning_why);
        /* by object, in the order objects were first checked; an object's status is its worst
         * check's. Checks are bucketed by object in one pass (linear at thousands of objects). */
        struct strmap seen = {0};
        size_t n_obj = 0, nv = r->n_vc ? r->n_vc : 1;
        size_t *obj_of = xmalloc(nv * sizeof(size_t)), *start = xcalloc(nv + 1, sizeof(size_t));
        size_t *order = xmalloc(nv * sizeof(size_t)), *fill = xcalloc(nv + 1, sizeof(size_t));
        for (size_t i = 0; i < r->n_vc; i++) {
                size_t k = strmap_get(&seen, r->vc[i].object);
                if (k == (size_t)-1) {
                        k = n_obj++;
                        (void)strmap_add(&seen, r->vc[i].object, k, NULL);
                }
                obj_of[i] = k;
                start[k + 1]++;
        }
        for (size_t k = 0; k < n_obj; k++)
                start[k + 1] += start[k];
        for (size_t i = 0; i < r->n_vc; i++)
                order[start[obj_of[i]] + fill[obj_of[i]]++] = i;
        for (size_t k = 0; k < n_obj; k++) {
                const struct vcheck *f = &r->vc[order[start[k]]];
                size_t n = start[k + 1] - start[k];
                enum vstatus worst = V_OK;
                for (size_t j = start[k]; j < start[k + 1]; j++)
                        if (r->vc[order[j]].status != V_UNCHECKED && r->vc[order[j]].status > worst)
                                worst = r->vc[order[j]].status;
                printf("%-8s %s %s (%zu check%s)\n", vstatus_names[worst], f->kind, f->object, n, n == 1 ? "" : "s");
                for (size_t j = start[k]; j < start[k + 1]; j++) {
                        const struct vcheck *c = &r->vc[order[j]];
                        if (c->status == V_OK)
                                continue;
                        if (c->status == V_UNCHECKED)
                                printf("           %s: not checked (%s)\n", c->what, c->found ? c->found : "captured tree");
                        else
                                printf("           %s %s: expected %s, found %s\n", vstatus_names[c->status], c->what,
                                       c->expected ? c->expected : "-", c->found ? c->found : "nothing");
                }
        }
        strmap_free(&seen);
        free(obj_of);
        free(start);
        free(order);
        free(fill);
        printf("%zu checks: %zu ok, %zu drift, %zu missing, %zu not checked\n", r->n_vc, count[V_OK], count[V_DRIFT],
               count[V_MISSING], count[V_UNCHECKED]);
}

static void print_json(const struct run *r, const size_t *count)
{
        json_object *root = json_object_new_object();
        char host[256] = "";
        (void)gethostname(host, sizeof host - 1);
        char ts[32];
        time_t t = time(NULL);
        strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
        storprov_json_header(root, &storprov_format_verify);
        json_object_object_add(root, "host", json_object_new_string(host));
        json_object_object_add(root, "time", json_object_new_string(ts));
        json_object_object_add(root, "profile", json_object_new_string(r->pl->profile_name));
        json_object_object_add(root, "profile_path", json_object_new_string(r->pl->profile_path));
        json_object_object_add(root, "sysroot", json_object_new_string(r->o->sysroot));
        json_object_object_add(root, "root", json_object_new_string(r->o->root));
        json_object *tm = json_object_new_object();
        json_object_object_add(tm, "mode", json_object_new_string(tuning_mode_names[r->pl->tuning]));
        json_object_object_add(tm, "why", json_object_new_string(r->pl->tuning_why));
        json_object_object_add(root, "tuning", tm);
        json_object_object_add(root, "status",
                               json_object_new_string(count[V_DRIFT] + count[V_MISSING] ? "drift" : "clean"));
        json_object *sum = json_object_new_object();
        for (int s = 0; s < _V_MAX; s++)
                json_object_object_add(sum, vstatus_names[s], json_object_new_int64((int64_t)count[s]));
        json_object_object_add(root, "summary", sum);
        json_object *a = json_object_new_array();
        for (size_t i = 0; i < r->n_vc; i++) {
                const struct vcheck *c = &r->vc[i];
                json_object *j = json_object_new_object();
                json_object_object_add(j, "object", json_object_new_string(c->object));
                json_object_object_add(j, "kind", json_object_new_string(c->kind));
                json_object_object_add(j, "check", json_object_new_string(c->what));
                json_object_object_add(j, "status", json_object_new_string(vstatus_names[c->status]));
                json_object_object_add(j, "expected", c->expected ? json_object_new_string(c->expected) : NULL);
                json_object_object_add(j, "found", c->found ? json_object_new_string(c->found) : NULL);
                json_object_array_add(a, j);
        }
        json_object_object_add(root, "checks", a);
        puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                          JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(root);
}

int verify_plan(struct plan *pl, const struct sysinfo *si, const struct verify_options *vo)
{
        struct apply_options ao = {.root = vo->root ? vo->root : "/", .sysroot = vo->sysroot ? vo->sysroot : "/"};
        struct run r = {.pl = pl, .si = si, .o = &ao, .lock_fd = -1};
        devices_init(&r.dev, ao.sysroot);
        /* a recorded disk that is gone (plan/disks.c): first, with the rule it no longer meets */
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                if (o->kind == OBJ_DISK && o->disk.missing) {
                        _cleanup_free_ char *want = xasprintf("a disk with %s %s", o->disk.udev_key, o->disk.udev_value);
                        vcheck(&r, o->id, "disk", "present", V_MISSING, want, o->disk.missing);
                }
        }
        for (size_t i = 0; i < pl->n_steps; i++)
                step_verify(&r, i);
        /* preserved arrays and filesystems have no step that makes them: read them back the same way */
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                if (o->preserve && o->kind == OBJ_MD)
                        verify_md_obj(&r, o);
                else if (o->preserve && o->kind == OBJ_FS && o->parent != NO_OBJ)
                        verify_xfs_obj(&r, o);
        }
        verify_files(&r);
        verify_tuned(&r);
        vcache_free();
        size_t count[_V_MAX] = {0};
        for (size_t i = 0; i < r.n_vc; i++)
                count[r.vc[i].status]++;
        int rc = count[V_DRIFT] + count[V_MISSING] ? VERIFY_EXIT_DRIFT : 0;
        if (vo->prometheus)
                verify_print_prometheus(r.vc, r.n_vc, rc, r.pl->profile_name, stdout);
        else if (vo->json)
                print_json(&r, count);
        else
                print_text(&r, count);
        for (size_t i = 0; i < r.n_vc; i++) {
                free(r.vc[i].object);
                free(r.vc[i].kind);
                free(r.vc[i].what);
                free(r.vc[i].expected);
                free(r.vc[i].found);
        }
        free(r.vc);
        fflush(stdout);
        return rc;
}
