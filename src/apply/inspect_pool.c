/* SPDX-License-Identifier: GPL-2.0-or-later
 * The disks' inspections, all at once (up to MAX_THREADS worker threads),
 * or one after the other with --jobs 1. A disk's inspection is reads and
 * libblkid's probers (small reads and CPU), and waits for udev: disks share
 * nothing there, and what it waits for is the disk, so how many disks are
 * read at once is not --jobs's to limit (that bounds the writes): on disks
 * that seek, 8 disks at --jobs 2 took four times a serial wipefs of all 8
 * (issue 43). Each disk is inspected by one worker thread at a time. What a worker writes is its disk's obj_state and those of the
 * disk's partitions (inspect.c touches no other); what it says (say,
 * refuse) is held back in the disk's slot and replayed here in disk order,
 * so that what is printed and refused, and in which order, is what the
 * serial run prints and refuses. Libraries that keep global state
 * (libparted's device list and exception handler, libblkid's tag cache) are
 * called under inspect_lib_lock. Each disk is still opened once, with
 * O_EXCL, and its descriptor held until inspect_release (inspect.c). */
#include "apply/internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t lib_lock = PTHREAD_MUTEX_INITIALIZER;

void inspect_lib_lock(void)
{
        pthread_mutex_lock(&lib_lock);
}

void inspect_lib_unlock(void)
{
        pthread_mutex_unlock(&lib_lock);
}

#define MAX_THREADS 64u
#define RENDEZVOUS_S 30

struct pool {
        struct run *r;
        const size_t *disks;
        size_t n;
        void (*inspect)(struct run *r, size_t di);
        struct event_buf *held;   /* per disk k: what its inspection said */
        pthread_mutex_t mu;       /* guards what follows */
        pthread_cond_t cv;
        size_t next;              /* the next disk to take */
        unsigned active;          /* disks being inspected now */
        unsigned rendezvous;      /* tests: STORPROV_TEST_INSPECT_RENDEZVOUS */
        bool met;
        struct timespec deadline;
};

static void inspect_one(struct run *r, size_t di, void (*inspect)(struct run *r, size_t di))
{
        double t0 = now_s(r);
        inspect(r, di);
        r->os[di].inspect_s = now_s(r) - t0;
}

/* For tests only: STORPROV_TEST_INSPECT_RENDEZVOUS=N, every inspection waits
 * (30 s at most) until N disks are being inspected at once: proof that they
 * are, which no timing can give. Called with p->mu held. */
static void rendezvous(struct pool *p)
{
        if (!p->rendezvous || p->met)
                return;
        if (p->active >= p->rendezvous) {
                p->met = true;
                pthread_cond_broadcast(&p->cv);
                return;
        }
        while (!p->met && pthread_cond_timedwait(&p->cv, &p->mu, &p->deadline) != ETIMEDOUT)
                ;
}

/* Takes the next disk (and counts it as being inspected), or returns false when none is left. */
static bool take(struct pool *p, size_t *ret_k)
{
        pthread_mutex_lock(&p->mu);
        bool got = p->next < p->n;
        if (got) {
                *ret_k = p->next++;
                p->active++;
                if (p->active > p->r->inspection.max_concurrent)
                        p->r->inspection.max_concurrent = p->active;
                rendezvous(p);
        }
        pthread_mutex_unlock(&p->mu);
        return got;
}

static void *worker(void *arg)
{
        struct pool *p = arg;
        size_t k;
        while (take(p, &k)) {
                events_capture(&p->held[k]);
                inspect_one(p->r, p->disks[k], p->inspect);
                events_capture(NULL);
                pthread_mutex_lock(&p->mu);
                p->active--;
                pthread_mutex_unlock(&p->mu);
        }
        return NULL;
}

static unsigned rendezvous_env(void)
{
        const char *e = getenv("STORPROV_TEST_INSPECT_RENDEZVOUS");
        return e && *e ? (unsigned)strtoul(e, NULL, 10) : 0;
}

/* The worker threads (up to jobs), then every disk's events in disk order. */
static void run_threads(struct run *r, const size_t *disks, size_t n, unsigned want,
                        void (*inspect)(struct run *r, size_t di))
{
        struct pool p = {.r = r, .disks = disks, .n = n, .inspect = inspect, .rendezvous = rendezvous_env()};
        p.held = xcalloc(n, sizeof(*p.held));
        pthread_mutex_init(&p.mu, NULL);
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_init(&p.cv, &ca);
        pthread_condattr_destroy(&ca);
        clock_gettime(CLOCK_MONOTONIC, &p.deadline);
        p.deadline.tv_sec += RENDEZVOUS_S;
        pthread_t tid[MAX_THREADS];
        unsigned started = 0;
        int err = 0;
        while (started < want && !(err = pthread_create(&tid[started], NULL, worker, &p)))
                started++;
        r->inspection.threads = started;
        if (!started)
                worker(&p); /* every disk is inspected all the same; the run is refused below */
        for (unsigned t = 0; t < started; t++)
                pthread_join(tid[t], NULL);
        for (size_t k = 0; k < n; k++)
                events_replay(r, &p.held[k]);
        free(p.held);
        pthread_cond_destroy(&p.cv);
        pthread_mutex_destroy(&p.mu);
        if (err)
                run_refuse(r, "cannot start inspection thread %u of %u (one per disk, up to %u): %s; the disks were inspected by %s, "
                          "but storprov does not go on from an inspection that did not run as planned. Free "
                          "resources (threads, memory) or run apply again with --jobs 1 (no threads)",
                       started + 1, want, MAX_THREADS, strerror(err),
                       started ? "the threads that did start" : "apply's own thread");
}

void inspect_pool_run(struct run *r, const size_t *disks, size_t n, void (*inspect)(struct run *r, size_t di))
{
        unsigned jobs = r->o->jobs ? r->o->jobs : 1;
        r->inspection = (struct inspect_stats){.jobs = jobs, .disks = n};
        double t0 = now_s(r);
        if (jobs < 2 || n < 2) {
                for (size_t k = 0; k < n; k++)
                        inspect_one(r, disks[k], inspect);
                r->inspection.max_concurrent = n ? 1 : 0;
        } else
                run_threads(r, disks, n, n < MAX_THREADS ? (unsigned)n : MAX_THREADS, inspect);
        r->inspection.elapsed_s = now_s(r) - t0;
}
