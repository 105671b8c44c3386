/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "apply/sched.h"

#include <stdlib.h>

#include "base/util.h"

enum st { ST_PENDING, ST_RUNNING, ST_DONE };

/* 1: every dependency is done, 0: some are not, -1: one blocks. */
static int ready(const struct sched_graph *g, const enum st *st, const struct sched_ops *ops, size_t i)
{
        int r = 1;
        for (size_t k = 0; k < g->n_deps[i]; k++) {
                size_t d = g->deps[i][k];
                if (st[d] != ST_DONE)
                        return 0;
                if (ops->blocks(ops->ctx, d))
                        r = -1;
        }
        return r;
}

/* Starts everything that can start; returns whether anything changed. */
static bool start_ready(const struct sched_graph *g, enum st *st, pid_t *pids, unsigned jobs, unsigned *running,
                        const struct sched_ops *ops)
{
        bool progress = false;
        for (size_t i = 0; i < g->n; i++) {
                if (st[i] != ST_PENDING)
                        continue;
                int rd = ready(g, st, ops, i);
                if (rd == 0)
                        continue;
                if (rd < 0) {
                        ops->skip(ops->ctx, i);
                        st[i] = ST_DONE;
                        progress = true;
                        continue;
                }
                bool child = ops->is_child(ops->ctx, i);
                if (child && *running >= jobs)
                        continue;
                pid_t pid = ops->start(ops->ctx, i);
                progress = true;
                if (pid > 0) {
                        pids[i] = pid;
                        st[i] = ST_RUNNING;
                        (*running)++;
                } else
                        st[i] = ST_DONE;
        }
        return progress;
}

size_t sched_run(const struct sched_graph *g, unsigned jobs, const struct sched_ops *ops)
{
        enum st *st = xcalloc(g->n ? g->n : 1, sizeof(*st));
        pid_t *pids = xcalloc(g->n ? g->n : 1, sizeof(*pids));
        unsigned running = 0;
        if (!jobs)
                jobs = 1;
        for (;;) {
                if (start_ready(g, st, pids, jobs, &running, ops))
                        continue;
                if (!running)
                        break; /* done, or nothing can start (a cycle) */
                int code = 0;
                pid_t pid = ops->wait(ops->ctx, &code);
                if (pid < 0)
                        break;
                for (size_t i = 0; i < g->n; i++)
                        if (st[i] == ST_RUNNING && pids[i] == pid) {
                                running--;
                                st[i] = ST_DONE;
                                ops->exited(ops->ctx, i, code);
                        }
        }
        size_t left = 0;
        for (size_t i = 0; i < g->n; i++)
                left += st[i] != ST_DONE;
        free(st);
        free(pids);
        return left;
}
