/* SPDX-License-Identifier: GPL-2.0-or-later
 * src/apply/: a plan carried out on the devices: inspect before the first write, run, verify, report.
 * Apply: carry out a plan on real block devices. */
#pragma once

#include <stdbool.h>

#include "discover/discover.h"
#include "plan/plan.h"

/* lvm --config used by every lvm call storprov makes: no lvmpolld and no
 * udev-provided device list, so that lvm works the same in an initramfs, a
 * kickstart %pre and a running system. */
#define STORPROV_LVM_CONFIG "global { use_lvmpolld = 0 } devices { obtain_device_list_from_udev = 0 }"

/* The run lock: one apply at a time. */
#define STORPROV_LOCK_FILE "/run/storprov.lock"

/* apply --dry-run: what each step and file would do, read back from the
 * node as verify reads it (filled by apply_plan when asked). */
enum dry_state { DRY_WOULD_RUN, DRY_DONE, DRY_KEPT };
struct apply_dry {
        enum dry_state *step_state; /* per plan step */
        char **step_why;            /* the check that decided it: "ok: …" or "what: expected …, found …" */
        bool *file_changes;         /* per plan file: would be written */
        char **file_why;
        size_t n_steps, n_files;
};
const char *dry_state_name(enum dry_state s); /* "would-run", "done", "kept" */
void apply_dry_free(struct apply_dry *d);

struct apply_options {
        const char *root;         /* where config files go ("/") */
        const char *sysroot;      /* where devices were discovered ("/") */
        bool yes, dry_run, wipe_all, mount;
        bool verbose;             /* --dry-run --verbose: every step's state and the whole plan after the answer */
        const char *report;       /* JSON report path or NULL */
        unsigned jobs;
        bool wait;                /* wait for another run's locks instead of failing */
        const char *lock_file;    /* NULL: STORPROV_LOCK_FILE */
        bool autorelabel;         /* write ROOT/.autorelabel when an SELinux label cannot be set */
        struct apply_dry *dry;    /* dry run: filled with each step's and file's state; may be NULL */
};

/* Returns an exit code: 0, 1 (runtime failure) or 2 (refused: unsafe target, bad state).
 * Preserved objects' found identities (UUIDs) are filled in from what
 * libblkid reads on disk, before anything is printed or rendered. */
int apply_plan(struct plan *pl, const struct sysinfo *si, const struct apply_options *o);

/* verify: the live node against the plan, read back with independent means. */
#define VERIFY_EXIT_DRIFT 3
struct verify_options {
        const char *root;         /* where the generated files are ("/") */
        const char *sysroot;      /* "/" (live) or a captured tree: only its sysfs and proc are read */
        bool json;
        bool prometheus;          /* node_exporter textfile exposition format */
};
/* Prints the report; returns 0 (everything as planned) or 3 (drift or missing). */
int verify_plan(struct plan *pl, const struct sysinfo *si, const struct verify_options *o);
