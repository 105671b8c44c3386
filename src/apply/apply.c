/* SPDX-License-Identifier: GPL-2.0-or-later
 * apply: inspect every target first (read-only), refuse before the first
 * write if anything is unsafe, then run the plan's steps as a dependency
 * graph with at most --jobs children at once, then write the files and
 * mount. Each step first checks whether its result is already there
 * (created by an earlier run): that makes a second run a no-op and lets a
 * run that died resume. */
#include "apply/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "apply/sched.h"
#include "sys/exec.h"
#include "sys/mounttab.h"
#include "render/files.h"

/* ---- the scheduler's view of the steps ------------------------------------------ */

static pid_t op_start(void *ctx, size_t i)
{
        pid_t pid = 0;
        step_start(ctx, i, &pid);
        return pid;
}

static pid_t op_wait(void *ctx, int *ret_code) { return relay_wait(ctx, ret_code); }

static void op_exited(void *ctx, size_t i, int code) { step_exited(ctx, i, code); }

static void op_skip(void *ctx, size_t i)
{
        struct run *r = ctx;
        r->st[i].started = now_s(r);
        step_finish(r, i, OUT_SKIPPED, "a step it depends on failed");
}

static bool op_blocks(void *ctx, size_t i) { return step_blocks_dependents(ctx, i); }
static bool op_is_child(void *ctx, size_t i) { return step_is_child(ctx, i); }

static void execute(struct run *r)
{
        const struct plan *pl = r->pl;
        size_t **deps = xcalloc(pl->n_steps ? pl->n_steps : 1, sizeof(*deps));
        size_t *n_deps = xcalloc(pl->n_steps ? pl->n_steps : 1, sizeof(*n_deps));
        for (size_t i = 0; i < pl->n_steps; i++) {
                deps[i] = pl->steps[i].deps;
                n_deps[i] = pl->steps[i].n_deps;
        }
        size_t n_gpt = 0;
        for (size_t i = 0; i < pl->n_steps; i++)
                n_gpt += pl->steps[i].kind == STEP_GPT;
        r->parallel_gpt = r->o->jobs > 1 && n_gpt > 1;
        struct sched_graph g = {.n = pl->n_steps, .deps = (const size_t *const *)deps, .n_deps = n_deps};
        struct sched_ops ops = {
                .ctx = r, .start = op_start, .wait = op_wait, .exited = op_exited, .skip = op_skip,
                .blocks = op_blocks, .is_child = op_is_child,
        };
        int rb = relay_begin(r);
        if (rb < 0)
                run_say(r, "cannot relay the tools' output with their objects (%s): it passes through as it comes",
                    strerror(-rb));
        size_t left = sched_run(&g, r->o->jobs ? r->o->jobs : 1, &ops);
        relay_end(r);
        if (left)
                run_say(r, "%zu steps could not be ordered; they did not run", left);
        free(deps);
        free(n_deps);
}

/* ---- files and mounts ---------------------------------------------------------------- */

static int write_files(struct run *r, bool *changed)
{
        static const char *const names[] = {[FILE_UNCHANGED] = "unchanged", [FILE_WRITTEN] = "written",
                                            [FILE_FAILED] = "failed", [FILE_REMOVED] = "removed"};
        struct diags d = {0};
        struct file_result *res = NULL;
        size_t n = 0;
        int failures = render_files(r->pl, r->o->root, r->o->autorelabel, &d, &res, &n);
        for (size_t i = 0; i < d.n; i++) {
                char *t = diag_format(&d.v[i]);
                add_event(r, d.v[i].severity == DIAG_ERROR ? EV_ERROR : EV_SAY, NO_OBJ, t);
                free(t);
        }
        for (size_t i = 0; i < n; i++) {
                json_object *j = json_object_new_object();
                json_object_object_add(j, "path", json_object_new_string(res[i].path));
                json_object_object_add(j, "action", json_object_new_string(names[res[i].action]));
                json_object_array_add(r->report_files, j);
                *changed |= res[i].action != FILE_UNCHANGED;
                char *t = xasprintf("%s %s", file_action_verb(res[i].action), res[i].path);
                add_event(r, res[i].action == FILE_FAILED ? EV_ERROR : EV_FILE, NO_OBJ, t);
                free(t);
        }
        file_results_free(res, n);
        diags_free(&d);
        return failures;
}

/* Whether something is mounted at TARGET, by this system's proc/self/mountinfo (libmount, escapes decoded). */
static bool mounted_at(const char *target)
{
        struct mount_entry *v = NULL;
        size_t n = 0;
        char **errors = NULL;
        bool found = false;
        if (mounttab_read(MOUNTTAB_MOUNTINFO, "/", "proc/self/mountinfo", false, &v, &n, &errors) == 0)
                for (size_t i = 0; i < n && !found; i++)
                        found = !strcmp(v[i].mountpoint, target);
        mount_entries_free(v, n);
        strv_free(errors);
        return found;
}

static void do_mounts(struct run *r, int *failures)
{
        const struct plan *pl = r->pl;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *f = &pl->objs[i];
                if (f->kind != OBJ_FS || !f->fs.mountpoint)
                        continue;
                char *target = path_join(r->o->root, f->fs.mountpoint);
                struct json_object *j = json_object_new_object();
                json_object_object_add(j, "device", json_object_new_string(f->dev));
                json_object_object_add(j, "target", json_object_new_string(target));
                if (mounted_at(target)) {
                        run_say(r, "%s is mounted already", target);
                        json_object_object_add(j, "action", json_object_new_string("kept"));
                } else if (mkdir_in_root(r->o->root, f->fs.mountpoint) < 0 || !path_under(r->o->root, target)) {
                        /* confined like the files: no link under --root leads the mount elsewhere */
                        run_say(r, "not mounting %s: it cannot be made inside %s without following a link", target,
                            r->o->root);
                        json_object_object_add(j, "action", json_object_new_string("failed"));
                        (*failures)++;
                } else {
                        char **argv = NULL;
                        strv_push(&argv, "mount");
                        strv_push(&argv, "-t");
                        strv_push(&argv, "xfs");
                        strv_push(&argv, "-o");
                        strv_push(&argv, f->fs.mount_options);
                        /* the device this plan made, not UUID=: a clone elsewhere may carry the same UUID */
                        strv_push(&argv, f->dev);
                        strv_push(&argv, target);
                        run_say_argv(r, NO_OBJ, "", argv);
                        int rc = run_argv(argv, NULL);
                        char *j2 = strv_join_shell(argv);
                        json_object_object_add(j, "argv", json_object_new_string(j2));
                        free(j2);
                        strv_free(argv);
                        json_object_object_add(j, "action", json_object_new_string(rc == 0 ? "created" : "failed"));
                        if (rc != 0)
                                (*failures)++;
                }
                json_object_array_add(r->report_mounts, j);
                free(target);
        }
}

static bool confirm(struct run *r)
{
        if (r->o->yes)
                return true;
        if (!isatty(STDIN_FILENO)) {
                add_event(r, EV_ERROR, NO_OBJ, "refusing to write without --yes: standard input is not a terminal");
                return false;
        }
        fprintf(stderr, "storprov: apply this plan to the devices above? Type 'yes' to continue: ");
        char line[32];
        if (!fgets(line, sizeof line, stdin))
                return false;
        return !strcmp(strip(line), "yes");
}

/* ---- the run ---------------------------------------------------------------------- */

static int count_failed(const struct run *r, int *ret_changed)
{
        int failed = 0, changed = 0;
        for (size_t i = 0; i < r->pl->n_steps; i++) {
                failed += r->st[i].outcome == OUT_FAILED || step_blocks_dependents(r, i);
                changed += r->st[i].outcome == OUT_CREATED || r->st[i].outcome == OUT_APPLIED;
        }
        *ret_changed = changed;
        return failed;
}

/* Everything after the confirmation: steps, files, mounts. */
static int carry_out(struct run *r)
{
        int changed = 0;
        execute(r);
        int failed = count_failed(r, &changed);
        locks_release_disks(r); /* udev may see the disks again */
        if (failed) {
                run_say(r, "%d step%s failed or could not run; config files not written. Fix the cause and run "
                       "storprov apply again: it resumes where it stopped.",
                    failed, failed == 1 ? "" : "s");
                return 1;
        }
        if (devicesfile_sync(r))
                return 1;
        bool files_changed = false;
        int ff = write_files(r, &files_changed);
        if (r->o->mount && ff >= 0)
                do_mounts(r, &ff);
        if (ff < 0)
                return 2;
        if (ff)
                return 1;
        int n = changed + (files_changed ? 1 : 0);
        if (!n)
                run_say(r, "nothing to do: every object and file already matches the profile");
        else
                run_say(r, "done: %d change%s applied", n, n == 1 ? "" : "s");
        return 0;
}

/* A disk this user may not open (EACCES, EPERM: not root) refuses the run
 * with that one reason, before the inspection would say it once per object
 * and suggest --wipe for a disk it never read. Returns whether it refused. */
static bool permission_refused(struct run *r)
{
        const struct plan *pl = r->pl;
        bool refused = false;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                if (o->kind != OBJ_DISK || !o->dev)
                        continue;
                _cleanup_free_ char *dp = dev_path(&r->dev, o->dev);
                int fd = open(dp, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
                if (fd >= 0) {
                        close(fd);
                        continue;
                }
                if (errno != EACCES && errno != EPERM)
                        continue; /* the inspection says what else is wrong */
                run_refuse(r, "%s (%s): %s: storprov %s opens the disks to inspect%s them and must run as root (uid %u "
                          "here); 'storprov plan' shows the plan without root",
                       o->id, o->dev, strerror(errno), r->o->dry_run ? "apply --dry-run" : "apply",
                       r->o->dry_run ? "" : " and write", (unsigned)geteuid());
                refused = true;
        }
        return refused;
}

/* apply --dry-run: the answer first, what would change (the steps that would
 * run, the files that would be written), read back from the node as verify
 * reads it; every step's state and the whole plan after it with --verbose. */
static void print_dry_states(struct run *r)
{
        const struct plan *pl = r->pl;
        struct apply_dry local = {0}, *d = r->o->dry ? r->o->dry : &local;
        dry_run_states(r, d);
        size_t run = 0, files = 0;
        for (size_t i = 0; i < d->n_steps; i++)
                run += d->step_state[i] == DRY_WOULD_RUN;
        for (size_t i = 0; i < d->n_files; i++)
                files += d->file_changes[i];
        printf("What would change: %zu of %zu steps would run, %zu of %zu files would be written (read back from "
               "the node as 'storprov verify' reads it)\n",
               run, d->n_steps, files, d->n_files);
        for (size_t i = 0; i < d->n_steps; i++)
                if (r->o->verbose || d->step_state[i] == DRY_WOULD_RUN)
                        printf("  %3zu. %-9s %s: %s\n", i + 1, dry_state_name(d->step_state[i]), pl->steps[i].desc,
                               d->step_why[i]);
        for (size_t i = 0; i < d->n_files; i++)
                if (r->o->verbose || d->file_changes[i])
                        printf("       %-11s %s: %s\n", d->file_changes[i] ? "would-write" : "unchanged",
                               pl->files[i].path, d->file_why[i]);
        if (!r->o->verbose && (run < d->n_steps || files < d->n_files))
                printf("  (%zu step%s done or kept, %zu file%s unchanged: --verbose lists them, and the plan)\n",
                       d->n_steps - run, d->n_steps - run == 1 ? "" : "s", d->n_files - files,
                       d->n_files - files == 1 ? "" : "s");
        if (r->o->verbose) {
                char *t = plan_format_text(pl);
                printf("\n%s", t);
                free(t);
        }
        if (d == &local)
                apply_dry_free(&local);
}

static int inspect_and_confirm(struct run *r)
{
        const struct plan *pl = r->pl;
        if (permission_refused(r)) {
                print_refusals(r);
                return 2;
        }
        inspect_all(r);
        if (!refusals(r))
                verify_preserved(r);
        if (!refusals(r))
                inspect_md_partitions(r);
        /* the files too: a file another profile owns refuses the run before any disk is written */
        struct diags fd = {0};
        if (!r->o->dry_run && !render_files_preflight(pl, r->o->root, &fd))
                for (size_t i = 0; i < fd.n; i++)
                        if (fd.v[i].severity == DIAG_ERROR) {
                                char *t = diag_format(&fd.v[i]);
                                run_refuse(r, "%s", t);
                                free(t);
                        }
        diags_free(&fd);
        tools_check(r);
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct obj_state *os = &r->os[i];
                if (os->needs_wipe)
                        run_say(r, "%s (%s) carries %s: it will be wiped (allowed by %s)", pl->objs[i].id, pl->objs[i].dev,
                            os->found ? os->found : "signatures", r->o->wipe_all ? "--wipe" : "the profile");
                else if (os->ours)
                        run_say(r, "%s (%s) already carries what the plan puts there", pl->objs[i].id, pl->objs[i].dev);
        }
        if (refusals(r)) {
                print_refusals(r);
                return 2;
        }
        /* what can fail before the first write fails here (exit 1, as a failed step would) */
        int nf = mkfs_preflight(r);
        if (nf) {
                run_say(r, "%d mkfs.xfs dry run%s failed: nothing was written", nf, nf == 1 ? "" : "s");
                return 1;
        }
        if (!r->o->dry_run && !r->o->yes) {
                char *t = plan_format_text(pl);
                fputs(t, stderr);
                free(t);
        }
        if (r->o->dry_run) {
                print_dry_states(r);
                run_say(r, "dry run: nothing was written");
                return -1;
        }
        return confirm(r) ? 0 : 2;
}

/* For tests only: STORPROV_TEST_BEFORE_WRITES, a shell command run between
 * the inspection and the first step (a holder that appears there). */
static void before_writes_hook(struct run *r)
{
        const char *cmd = getenv("STORPROV_TEST_BEFORE_WRITES");
        if (!cmd || !*cmd)
                return;
        char *argv[] = {"/bin/sh", "-c", (char *)cmd, NULL};
        int rc = run_argv(argv, NULL);
        run_say(r, "STORPROV_TEST_BEFORE_WRITES exited %d", rc);
}

int apply_plan(struct plan *pl, const struct sysinfo *si, const struct apply_options *o)
{
        struct run r = {.pl = pl, .si = si, .o = o};
        clock_gettime(CLOCK_MONOTONIC, &r.t0);
        devices_init(&r.dev, o->sysroot);
        r.st = xcalloc(pl->n_steps ? pl->n_steps : 1, sizeof(*r.st));
        r.os = xcalloc(pl->n_objs ? pl->n_objs : 1, sizeof(*r.os));
        r.report_files = json_object_new_array();
        r.report_mounts = json_object_new_array();

        int exit_code;
        r.lock_fd = -1;
        bool report_ok = report_preflight(&r) == 0;
        if (!report_ok) {
                print_refusals(&r);
                exit_code = 2;
        } else if (!o->dry_run && locks_take(&r) < 0)
                exit_code = 1;
        else if ((exit_code = inspect_and_confirm(&r)) == 0) {
                inspect_release(&r);
                before_writes_hook(&r);
                exit_code = carry_out(&r);
        } else if (exit_code < 0)
                exit_code = 0; /* dry run */
        inspect_release(&r);
        locks_release(&r);
        /* a run whose report cannot be written is no success: its caller reads the report */
        if (report_ok && write_report(&r, exit_code) < 0 && exit_code == 0)
                exit_code = 1;

        json_object_put(r.report_files);
        json_object_put(r.report_mounts);
        for (size_t i = 0; i < pl->n_steps; i++) {
                strv_free(r.st[i].run);
                free(r.st[i].message);
                strv_free(r.st[i].argv);
        }
        for (size_t i = 0; i < pl->n_objs; i++) {
                free(r.os[i].found);
                free(r.os[i].in_use);
        }
        free(r.st);
        free(r.os);
        free(r.dry_ag);
        events_free(&r);
        return exit_code;
}
