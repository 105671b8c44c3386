/* SPDX-License-Identifier: GPL-2.0-or-later
 * The DAG scheduler, driven without processes: start() hands out fake pids,
 * wait() finishes the oldest running child, and the test watches order,
 * concurrency and what happens after a failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "apply/sched.h"

#define N_MAX 16

struct fake {
        size_t n;
        bool child[N_MAX];
        int exit_code[N_MAX];     /* what step i's child exits with */
        bool inproc_fails[N_MAX]; /* an in-process step that fails */
        bool optional[N_MAX];     /* its failure does not block */
        /* observed */
        int order[N_MAX], n_order; /* start order */
        bool started[N_MAX], done[N_MAX], failed[N_MAX], skipped[N_MAX];
        pid_t running[N_MAX];
        size_t n_running;
        unsigned max_running;
        pid_t next_pid;
        size_t pid_step[64];
};

static pid_t f_start(void *ctx, size_t i)
{
        struct fake *f = ctx;
        f->started[i] = true;
        f->order[f->n_order++] = (int)i;
        if (!f->child[i]) {
                f->done[i] = true;
                f->failed[i] = f->inproc_fails[i];
                return 0;
        }
        pid_t pid = ++f->next_pid;
        f->pid_step[pid] = i;
        f->running[f->n_running++] = pid;
        if (f->n_running > f->max_running)
                f->max_running = (unsigned)f->n_running;
        return pid;
}

static pid_t f_wait(void *ctx, int *ret_code)
{
        struct fake *f = ctx;
        if (!f->n_running)
                return -1;
        pid_t pid = f->running[0];
        memmove(f->running, f->running + 1, --f->n_running * sizeof(pid_t));
        *ret_code = f->exit_code[f->pid_step[pid]];
        return pid;
}

static void f_exited(void *ctx, size_t i, int code)
{
        struct fake *f = ctx;
        f->done[i] = true;
        f->failed[i] = code != 0;
}

static void f_skip(void *ctx, size_t i)
{
        struct fake *f = ctx;
        f->done[i] = f->skipped[i] = true;
}

static bool f_blocks(void *ctx, size_t i)
{
        struct fake *f = ctx;
        return (f->failed[i] || f->skipped[i]) && !f->optional[i];
}

static bool f_is_child(void *ctx, size_t i) { return ((struct fake *)ctx)->child[i]; }

static size_t run(struct fake *f, const size_t *const *deps, const size_t *n_deps, unsigned jobs)
{
        struct sched_graph g = {.n = f->n, .deps = deps, .n_deps = n_deps};
        struct sched_ops ops = {.ctx = f, .start = f_start, .wait = f_wait, .exited = f_exited, .skip = f_skip,
                                .blocks = f_blocks, .is_child = f_is_child};
        return sched_run(&g, jobs, &ops);
}

static int pos(const struct fake *f, size_t step)
{
        for (int k = 0; k < f->n_order; k++)
                if (f->order[k] == (int)step)
                        return k;
        return -1;
}

/* 8 independent children (seed 001's LUNs): at most `jobs` at once, all run. */
static void test_jobs_bound(void **state)
{
        (void)state;
        static const size_t none[1];
        const size_t *deps[8];
        size_t n_deps[8] = {0};
        for (unsigned jobs = 1; jobs <= 8; jobs *= 2) {
                struct fake f = {.n = 8};
                for (size_t i = 0; i < 8; i++) {
                        f.child[i] = true;
                        deps[i] = none;
                }
                assert_int_equal(run(&f, deps, n_deps, jobs), 0);
                assert_int_equal(f.max_running, jobs);
                for (size_t i = 0; i < 8; i++)
                        assert_true(f.done[i] && !f.failed[i]);
        }
}

/* gpt(0, in process) -> md(1) -> pv(2) -> vg(3) -> lv(4) -> mkfs(5); sysfs(6) on the disk:
 * every step starts after what it depends on, in-process steps too. */
static void test_order(void **state)
{
        (void)state;
        static const size_t d1[] = {0}, d2[] = {1}, d3[] = {2}, d4[] = {3}, d5[] = {4}, d6[] = {0};
        const size_t *deps[7] = {NULL, d1, d2, d3, d4, d5, d6};
        size_t n_deps[7] = {0, 1, 1, 1, 1, 1, 1};
        struct fake f = {.n = 7, .child = {false, true, true, true, true, true, false}};
        assert_int_equal(run(&f, deps, n_deps, 4), 0);
        for (size_t i = 1; i < 7; i++)
                assert_true(pos(&f, i) > pos(&f, deps[i][0]));
        assert_int_equal(f.max_running, 1); /* a chain never runs two at once */
}

/* A failed child skips everything after it, transitively; its siblings still run.
 * An optional step (sysfs) that fails blocks nothing. */
static void test_failure_skips_dependents(void **state)
{
        (void)state;
        /* 0 fails -> 1 skipped -> 2 skipped; 3 independent; 4 optional fails -> 5 runs */
        static const size_t d0[] = {0}, d1[] = {1}, d4[] = {4};
        const size_t *deps[6] = {NULL, d0, d1, NULL, NULL, d4};
        size_t n_deps[6] = {0, 1, 1, 0, 0, 1};
        struct fake f = {.n = 6, .child = {true, true, true, true, false, true}, .exit_code = {1},
                         .inproc_fails = {[4] = true}, .optional = {[4] = true}};
        assert_int_equal(run(&f, deps, n_deps, 2), 0);
        assert_true(f.failed[0]);
        assert_true(f.skipped[1] && !f.started[1]);
        assert_true(f.skipped[2] && !f.started[2]);
        assert_true(f.done[3] && !f.failed[3]);
        assert_true(f.failed[4]);
        assert_true(f.started[5] && f.done[5] && !f.skipped[5]);
}

/* A cycle cannot run: the scheduler stops and says how many steps never ran. */
static void test_cycle(void **state)
{
        (void)state;
        static const size_t d0[] = {1}, d1[] = {0};
        const size_t *deps[3] = {d0, d1, NULL};
        size_t n_deps[3] = {1, 1, 0};
        struct fake f = {.n = 3, .child = {true, true, true}};
        assert_int_equal(run(&f, deps, n_deps, 2), 2);
        assert_true(f.done[2]);
        assert_false(f.started[0] || f.started[1]);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_jobs_bound),
                cmocka_unit_test(test_order),
                cmocka_unit_test(test_failure_skips_dependents),
                cmocka_unit_test(test_cycle),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
