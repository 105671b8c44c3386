/* SPDX-License-Identifier: GPL-2.0-or-later
 * A dependency-graph scheduler: runs n steps so that each starts after the
 * steps it depends on, with at most `jobs` children at once. It knows
 * nothing of storage: starting, waiting and outcomes come from the caller,
 * so that tests can drive it without processes. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct sched_ops {
        void *ctx;
        /* Starts step i: returns 0 when it finished in process, or a pid > 0
         * when a child was started and must be waited for. */
        pid_t (*start)(void *ctx, size_t i);
        /* Waits for any child; returns its pid and exit code, or -1 on error. */
        pid_t (*wait)(void *ctx, int *ret_code);
        /* A child of step i exited with code. */
        void (*exited)(void *ctx, size_t i, int code);
        /* Step i cannot run: a step it depends on failed. */
        void (*skip)(void *ctx, size_t i);
        /* Does step i's (final) outcome stop the steps that depend on it? */
        bool (*blocks)(void *ctx, size_t i);
        /* Does step i start a child (counted against jobs)? In-process steps run at once. */
        bool (*is_child)(void *ctx, size_t i);
};

struct sched_graph {
        size_t n;
        const size_t *const *deps;  /* deps[i]: the steps step i waits for */
        const size_t *n_deps;
};

/* Returns the number of steps that never ran (0 unless the graph has a cycle). */
size_t sched_run(const struct sched_graph *g, unsigned jobs, const struct sched_ops *ops);
