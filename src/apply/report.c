/* SPDX-License-Identifier: GPL-2.0-or-later
 * The event list: everything apply has to say goes through add_event(),
 * which prints it to stderr as it happens and keeps it for the JSON report.
 * Library functions (probe, gpt, dmtable, files) return results; the
 * functions here are the only ones that print. */
#include "apply/internal.h"
#include "base/jsonv.h"
#include "base/version.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const outcome_names[_OUT_MAX] = {
        [OUT_PENDING] = "pending", [OUT_RUNNING] = "running", [OUT_CREATED] = "created", [OUT_KEPT] = "kept",
        [OUT_APPLIED] = "applied", [OUT_UNCHANGED] = "unchanged", [OUT_SKIPPED] = "skipped", [OUT_FAILED] = "failed",
};
const char *outcome_name(enum outcome o) { return outcome_names[o]; }

static const char *const event_names[] = {
        [EV_SAY] = "info", [EV_REFUSAL] = "refusal", [EV_STEP] = "step", [EV_FILE] = "file", [EV_MOUNT] = "mount",
        [EV_ERROR] = "error", [EV_STEP_START] = "step-start",
};

double now_s(const struct run *r)
{
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return (double)(t.tv_sec - r->t0.tv_sec) + (double)(t.tv_nsec - r->t0.tv_nsec) / 1e9;
}

/* A worker thread's events (inspect_pool.c), kept apart until replayed. */
static _Thread_local struct event_buf *capture;

void events_capture(struct event_buf *b)
{
        capture = b;
}

/* e into the run's list; printed as it happens (refusals are printed together,
 * once inspection is over; a step's start is for the JSON report: its end is printed) */
static void keep_event(struct run *r, const struct event *e)
{
        r->ev = xrealloc(r->ev, (r->n_ev + 1) * sizeof(*r->ev));
        r->ev[r->n_ev++] = *e;
        if (e->kind != EV_REFUSAL && e->kind != EV_STEP_START)
                fprintf(stderr, "storprov: [%6.1fs] %s\n", e->t, e->text);
}

void add_event(struct run *r, enum event_kind kind, size_t step, const char *text)
{
        struct event e = {.kind = kind, .t = now_s(r), .step = step, .text = xstrdup(text)};
        if (!capture) {
                keep_event(r, &e);
                return;
        }
        capture->ev = xrealloc(capture->ev, (capture->n + 1) * sizeof(*capture->ev));
        capture->ev[capture->n++] = e;
}

void events_replay(struct run *r, struct event_buf *b)
{
        for (size_t i = 0; i < b->n; i++)
                keep_event(r, &b->ev[i]);
        free(b->ev);
        *b = (struct event_buf){0};
}

static void vevent(struct run *r, enum event_kind kind, size_t step, const char *fmt, va_list ap)
{
        struct sbuf b = {0};
        sbuf_vprintf(&b, fmt, ap);
        add_event(r, kind, step, b.s ? b.s : "");
        free(b.s);
}

void run_say(struct run *r, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        vevent(r, EV_SAY, NO_OBJ, fmt, ap);
        va_end(ap);
}

void run_say_argv(struct run *r, size_t step, const char *prefix, char *const *argv)
{
        _cleanup_free_ char *cmd = strv_join_shell(argv);
        _cleanup_free_ char *t = xasprintf("%s$ %s", prefix, cmd);
        add_event(r, EV_SAY, step, t);
}

void run_refuse(struct run *r, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        vevent(r, EV_REFUSAL, NO_OBJ, fmt, ap);
        va_end(ap);
}

size_t refusals(const struct run *r)
{
        size_t n = 0;
        for (size_t i = 0; i < r->n_ev; i++)
                n += r->ev[i].kind == EV_REFUSAL;
        return n;
}

void print_refusals(const struct run *r)
{
        for (size_t i = 0; i < r->n_ev; i++)
                if (r->ev[i].kind == EV_REFUSAL)
                        fprintf(stderr, "storprov: refused: %s\n", r->ev[i].text);
        fprintf(stderr, "storprov: nothing was written\n");
}

void step_finish(struct run *r, size_t si, enum outcome out, const char *fmt, ...)
{
        struct step_state *s = &r->st[si];
        s->outcome = out;
        s->elapsed = now_s(r) - s->started;
        if (fmt) {
                struct sbuf b = {0};
                va_list ap;
                va_start(ap, fmt);
                sbuf_vprintf(&b, fmt, ap);
                va_end(ap);
                free(s->message);
                s->message = sbuf_steal(&b);
        }
        char *t = xasprintf("step %zu/%zu %s: %s (%.1fs)%s%s", si + 1, r->pl->n_steps, outcome_names[out],
                            r->pl->steps[si].desc, s->elapsed,
                            s->message ? ": " : "", s->message ? s->message : "");
        add_event(r, out == OUT_FAILED ? EV_ERROR : EV_STEP, si, t);
        free(t);
}

void events_free(struct run *r)
{
        for (size_t i = 0; i < r->n_ev; i++)
                free(r->ev[i].text);
        free(r->ev);
        r->ev = NULL;
        r->n_ev = 0;
}

/* ---- the JSON report ------------------------------------------------------- */


static json_object *step_json(const struct run *r, size_t k)
{
        const struct step_state *s = &r->st[k];
        json_object *js = json_object_new_object();
        json_object_object_add(js, "step", json_object_new_int((int)k + 1));
        json_object_object_add(js, "kind", jstr(step_kind_name(r->pl->steps[k].kind)));
        json_object_object_add(js, "action", jstr(outcome_names[s->outcome]));
        json_object *argvs = json_object_new_array();
        for (size_t q = 0; s->run && s->run[q]; q++)
                json_object_array_add(argvs, jstr(s->run[q]));
        json_object_object_add(js, "argv", argvs);
        json_object_object_add(js, "elapsed_s", json_object_new_double(s->elapsed));
        if (s->message)
                json_object_object_add(js, "message", jstr(s->message));
        return js;
}

static json_object *object_json(const struct run *r, size_t i)
{
        const struct plan *pl = r->pl;
        const struct pl_obj *o = &pl->objs[i];
        json_object *j = json_object_new_object();
        json_object_object_add(j, "id", jstr(o->id));
        json_object_object_add(j, "kind", jstr(obj_kind_name(o->kind)));
        if (o->dev)
                json_object_object_add(j, "device", jstr(o->dev));
        if (obj_uuid(o))
                json_object_object_add(j, "uuid", jstr(obj_uuid(o)));
        json_object_object_add(j, "preserve", json_object_new_boolean(o->preserve));
        /* the object's action: that of the step that creates it */
        const char *action = o->preserve ? "verified" : "kept";
        json_object *steps = json_object_new_array();
        for (size_t k = 0; k < pl->n_steps; k++) {
                bool mine = pl->steps[k].obj == i;
                for (size_t q = 0; !mine && q < pl->steps[k].n_parts; q++)
                        mine = pl->steps[k].parts[q].obj == i;
                if (!mine)
                        continue;
                json_object_array_add(steps, step_json(r, k));
                if (pl->steps[k].kind != STEP_SYSFS)
                        action = outcome_names[r->st[k].outcome];
        }
        json_object_object_add(j, "action", jstr(action));
        json_object_object_add(j, "steps", steps);
        return j;
}

/* How the disks were inspected before the first write: --jobs, the worker
 * threads (0: in apply's own thread), the most disks inspected at once, and
 * each disk's time. Absent when the run ended before the inspection. */
static json_object *inspection_json(const struct run *r)
{
        const struct inspect_stats *st = &r->inspection;
        json_object *j = json_object_new_object();
        json_object_object_add(j, "jobs", json_object_new_int((int)st->jobs));
        json_object_object_add(j, "threads", json_object_new_int((int)st->threads));
        json_object_object_add(j, "max_concurrent", json_object_new_int((int)st->max_concurrent));
        json_object_object_add(j, "elapsed_s", json_object_new_double(st->elapsed_s));
        json_object *disks = json_object_new_array();
        for (size_t i = 0; i < r->pl->n_objs; i++) {
                const struct pl_obj *o = &r->pl->objs[i];
                if (o->kind != OBJ_DISK || r->os[i].inspect_s < 0)
                        continue;
                json_object *d = json_object_new_object();
                json_object_object_add(d, "id", jstr(o->id));
                if (o->dev)
                        json_object_object_add(d, "device", jstr(o->dev));
                json_object_object_add(d, "elapsed_s", json_object_new_double(r->os[i].inspect_s));
                json_object_array_add(disks, d);
        }
        json_object_object_add(j, "disks", disks);
        return j;
}

/* Refusals, and every event in order. */
static void events_json(const struct run *r, json_object *root)
{
        json_object *refs = json_object_new_array(), *events = json_object_new_array();
        for (size_t i = 0; i < r->n_ev; i++) {
                const struct event *e = &r->ev[i];
                if (e->kind == EV_REFUSAL)
                        json_object_array_add(refs, jstr(e->text));
                json_object *je = json_object_new_object();
                json_object_object_add(je, "t", json_object_new_double(e->t));
                json_object_object_add(je, "kind", jstr(event_names[e->kind]));
                if (e->step != NO_OBJ)
                        json_object_object_add(je, "step", json_object_new_int((int)e->step + 1));
                json_object_object_add(je, "text", jstr(e->text));
                json_object_array_add(events, je);
        }
        json_object_object_add(root, "refusals", refs);
        json_object_object_add(root, "events", events);
}

/* ---- before the run: the report can be written, and no earlier one is left ---- */

/* The nearest directory that exists at or above dir (the report's parent
 * directories are made when it is written): 0, or -errno (-ENOTDIR: a
 * component is a file). */
static int nearest_dir(char *dir)
{
        struct stat st;
        while (stat(dir, &st) < 0) {
                if (errno != ENOENT && errno != ENOTDIR) /* ENOTDIR: walk up to the file that is in the way */
                        return -errno;
                char *slash = strrchr(dir, '/');
                if (!slash)
                        strcpy(dir, "."); /* fits: dir had a name */
                else
                        *(slash == dir ? slash + 1 : slash) = 0;
        }
        return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

/* Can a file be made in dir (the one that exists)? A temporary one is made
 * and removed: that finds a read-only mount, an immutable directory and
 * missing permissions alike. */
static int dir_writable(const char *dir)
{
        _cleanup_free_ char *tmp = xasprintf("%s/.storprov-report-XXXXXX", dir);
        int fd = mkostemp(tmp, O_CLOEXEC);
        if (fd < 0)
                return -errno;
        close(fd);
        return unlink(tmp) < 0 ? -errno : 0;
}

static int report_check(const char *path, const char **ret_what, char **ret_dir)
{
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
                *ret_what = "it is a directory";
                return -EISDIR;
        }
        char *dir = xstrdup(path);
        char *slash = strrchr(dir, '/');
        if (!slash)
                strcpy(dir, ".");
        else
                *(slash == dir ? slash + 1 : slash) = 0;
        *ret_dir = dir;
        int rc = nearest_dir(dir);
        if (rc < 0) {
                *ret_what = rc == -ENOTDIR ? "a component of its directory is not a directory" :
                                             "its directory cannot be looked up";
                return rc;
        }
        *ret_what = "no file can be made in its directory";
        if ((rc = dir_writable(dir)) < 0)
                return rc;
        /* an earlier run's report must not outlive this run: removed now, written at the end */
        *ret_what = "the earlier report there cannot be removed";
        if (unlink(path) < 0 && errno != ENOENT)
                return -errno;
        return 0;
}

int report_preflight(struct run *r)
{
        const char *path = r->o->report;
        if (!path)
                return 0;
        const char *what = NULL;
        _cleanup_free_ char *dir = NULL;
        int rc = report_check(path, &what, &dir);
        if (rc < 0) {
                struct stat st;
                bool stale = lstat(path, &st) == 0 && !S_ISDIR(st.st_mode);
                run_refuse(r, "--report %s cannot be written: %s%s%s%s (%s)%s; give a --report path in a writable "
                          "directory, or make that one writable",
                       path, what, dir ? " (" : "", dir ? dir : "", dir ? ")" : "", strerror(-rc),
                       stale ? "; the file there is an earlier run's report, not this one's" : "");
        }
        return rc;
}

int write_report(struct run *r, int exit_code)
{
        if (!r->o->report)
                return 0;
        const struct plan *pl = r->pl;
        json_object *root = json_object_new_object();
        storprov_json_header(root, &storprov_format_report);
        json_object_object_add(root, "profile", jstr(pl->profile_name));
        json_object_object_add(root, "exit_code", json_object_new_int(exit_code));
        json_object_object_add(root, "elapsed_s", json_object_new_double(now_s(r)));
        json_object *objs = json_object_new_array();
        for (size_t i = 0; i < pl->n_objs; i++)
                json_object_array_add(objs, object_json(r, i));
        json_object_object_add(root, "objects", objs);
        if (r->inspection.jobs)
                json_object_object_add(root, "inspection", inspection_json(r));
        json_object *sysctls = json_object_new_array();
        for (size_t k = 0; k < pl->n_steps; k++) {
                if (pl->steps[k].kind != STEP_SYSCTL)
                        continue;
                json_object *js = json_object_new_object();
                json_object_object_add(js, "key", jstr(pl->steps[k].key));
                json_object_object_add(js, "value", jstr(pl->steps[k].value));
                json_object_object_add(js, "action", jstr(outcome_names[r->st[k].outcome]));
                json_object_array_add(sysctls, js);
        }
        json_object_object_add(root, "sysctls", sysctls);
        events_json(r, root);
        json_object_object_add(root, "files", json_object_get(r->report_files));
        json_object_object_add(root, "mounts", json_object_get(r->report_mounts));
        const char *s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                                     JSON_C_TO_STRING_NOSLASHESCAPE);
        int rc = write_file_atomic(r->o->report, s, strlen(s), 0644);
        if (rc < 0)
                fprintf(stderr,
                        "storprov: cannot write the report %s: %s; no report is left there (exit 1). The run "
                        "itself %s; fix the cause and run apply again to get a report\n",
                        r->o->report, strerror(-rc), exit_code == 0 ? "succeeded" : "failed as printed above");
        json_object_put(root);
        return rc;
}
