/* SPDX-License-Identifier: GPL-2.0-or-later
 * apply's own state, shared by the files of src/apply/ and nothing else:
 *   apply.c    orchestration: inspect, confirm, run the steps, files, mounts
 *   inspect.c  what every target carries, before the first write
 *   preserve.c preserved objects: verified, never written
 *   steps.c    one table of step kinds: precheck, run, postcheck
 *   inspect_pool.c  the disks' inspections, at most --jobs threads at once
 *   sched.c    the dependency graph, at most --jobs children at once
 *   report.c   the event list: stderr as it happens, and the JSON report
 *   devices.c  where plan paths live (the only place that knows test roots)
 *   lock.c     one run at a time: the run lock and the disks' flocks */
#pragma once

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <json.h>
#include <time.h>

#include "apply/apply.h"
#include "plan/argv.h"
#include "base/text.h"

enum outcome {
        OUT_PENDING, OUT_RUNNING, OUT_CREATED, OUT_KEPT, OUT_APPLIED, OUT_UNCHANGED, OUT_SKIPPED, OUT_FAILED,
        _OUT_MAX
};
const char *outcome_name(enum outcome o);

struct step_state {
        enum outcome outcome;
        char **run;               /* every command run for this step, for the report */
        double started, elapsed;
        char *message;
        char **argv;              /* the child being waited for */
        bool forked;              /* an in-process step run in a forked child (parallel GPT writes) */
        bool timed_out;           /* its command ran past --command-timeout and was killed */
        double killed_at;         /* when (run time, s); a child that does not die is given up 5 s later */
        bool given_up;
        bool ag_warning_expected; /* mkfs with storprov's AG size: mkfs.xfs's warning about it, said once, is dropped */
        int msg_fd;               /* forked: the read end of the child's error message pipe */
        /* a tool's stdout and stderr, relayed line by line with the step's object (relay.c) */
        bool out_open;
        int out_fd;
        pid_t pid;
        struct sbuf out_line;     /* the line being gathered */
};

struct obj_state {
        bool wipe_ok;             /* the profile or --wipe allows wiping it */
        bool needs_wipe;          /* carries foreign signatures, to be wiped before use */
        char *found;              /* what the probe found, for messages */
        bool ours;                /* carries what this plan creates (an earlier run) */
        bool repair_table;        /* carries the planned GPT, damaged: written again without wipe */
        char *in_use;             /* mounted, swap, held: refused unless nothing is to be written */
        bool inspected;           /* a disk or partitioned md whose table and partitions were inspected */
        int fd;                   /* the disk's descriptor held from inspect_all to inspect_release, or -1 */
        bool excl_free;           /* a disk no one held exclusively (O_EXCL) when it was inspected */
        double inspect_s;         /* a disk's inspection took this long (the report); -1: not inspected */
};

/* EV_STEP: a step finished; EV_STEP_START: a step began (JSON report only, not printed) */
enum event_kind { EV_SAY, EV_REFUSAL, EV_STEP, EV_FILE, EV_MOUNT, EV_ERROR, EV_STEP_START };

struct event {
        enum event_kind kind;
        double t;
        size_t step;              /* EV_STEP, EV_STEP_START: the step; otherwise NO_OBJ */
        char *text;
};

/* What one thread said, held back (events_capture) and replayed in order */
struct event_buf {
        struct event *ev;
        size_t n;
};

/* How the disks were inspected, for the report (inspect_pool.c) */
struct inspect_stats {
        unsigned jobs;            /* --jobs */
        unsigned threads;         /* worker threads started; 0: the disks were inspected in apply's own thread */
        unsigned max_concurrent;  /* the most disks being inspected at one time */
        size_t disks;             /* disks inspected */
        double elapsed_s;         /* from the first disk's start to the last one's end */
};

/* Where plan paths (/dev/…) are found. Normally they are themselves; with
 * STORPROV_DEVROOT (tests only) every /dev path lives under that directory
 * as a plain file, and nothing that needs a kernel (sysfs, md, dm) exists. */
struct devices {
        const char *root;         /* "" normally */
        const char *sysroot;      /* where the plan's sysfs was read */
};

/* verify: one comparison of the live node with the plan */
enum vstatus { V_OK, V_DRIFT, V_MISSING, V_UNCHECKED, _V_MAX };
struct vcheck {
        char *object, *kind, *what;
        enum vstatus status;
        char *expected, *found;
};
/* verify --format prometheus (verify_prom.c): the checks as node_exporter textfile metrics */
void verify_print_prometheus(const struct vcheck *vc, size_t n, int exit_code, const char *profile, FILE *out);

/* What a step's mkfs.xfs dry run printed, for a file of size_bytes (agsize 0: none). */
struct dry_ag {
        uint64_t size_bytes;
        uint64_t agsize, bsize;
};

struct run {
        bool parallel_gpt;        /* --jobs > 1 and several tables to write: each in a child */
        bool ag_size_said;        /* the AG size's full reason was said once this run (steps.c) */
        struct plan *pl;
        const struct sysinfo *si;
        const struct apply_options *o;
        struct devices dev;
        struct step_state *st;
        struct obj_state *os;
        struct timespec t0;
        struct event *ev;
        size_t n_ev;
        json_object *report_files, *report_mounts;   /* arrays for the JSON report */
        int lock_fd;              /* the run lock, -1: not held */
        bool holding;             /* inspect_all: the disks' descriptors are kept until inspect_release */
        struct inspect_stats inspection;
        int *disk_fds;            /* per object: the flock'ed whole-disk node, -1: none */
        struct vcheck *vc;        /* verify only */
        size_t n_vc;
        struct dry_ag *dry_ag;    /* per step: the AG geometry of its mkfs.xfs dry run (mkfs_dry.c) */
};

/* report.c */
double now_s(const struct run *r);

/* relay.c: a step's tool output, each line prefixed with the step's object,
 * so that tools run in parallel do not interleave unnamed. relay_begin and
 * relay_end bracket the steps (a SIGCHLD self-pipe wakes the wait). */
int relay_begin(struct run *r);
void relay_end(struct run *r);
/* Starts step si's argv with its output relayed; 0 or -errno. */
int relay_spawn(struct run *r, size_t si, char *const *argv, pid_t *ret_pid);
/* Waits for any child, relaying output meanwhile; its pid (its output all
 * relayed) and exit code, or -1 when there is none. */
pid_t relay_wait(struct run *r, int *ret_code);
void run_say(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "$ CMD ARGS", quoted as the plan shows it */
void run_say_argv(struct run *r, size_t step, const char *prefix, char *const *argv);
void run_refuse(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* tools.c: every program the plan runs is in PATH (else a refusal naming its EL and Debian package);
 * an mkfs step whose XFS is there, finished, with the planned UUID needs no mkfs.xfs. */
void tools_check(struct run *r);
bool mkfs_already_done(struct run *r, size_t si);
size_t refusals(const struct run *r);
void print_refusals(const struct run *r);
void step_finish(struct run *r, size_t si, enum outcome out, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void add_event(struct run *r, enum event_kind kind, size_t step, const char *text);
/* From now on this thread's events (say, refuse, ...) go to b, not to the
 * run nor stderr; NULL: to the run again. For worker threads, whose b is
 * replayed by the main thread. */
void events_capture(struct event_buf *b);
/* b's events into the run, each printed as add_event prints it (its own time), in order; b is emptied. */
void events_replay(struct run *r, struct event_buf *b);
/* Before anything else: refuses (returns -errno) when --report's directory
 * cannot take a file, and removes an earlier report so that none outlives a
 * run that cannot write its own. */
int report_preflight(struct run *r);
/* The report, atomically; 0 or -errno (said on stderr). */
int write_report(struct run *r, int exit_code);
void events_free(struct run *r);

/* devices.c */
void devices_init(struct devices *d, const char *sysroot);
bool devices_fake(const struct devices *d);
char *dev_path(const struct devices *d, const char *plan_path);
bool dev_exists(const struct devices *d, const char *plan_path);
int dev_wait(struct run *r, const char *plan_path, const char *kname, int timeout_ms);
char *dev_sysfs_attr(const struct devices *d, const struct pl_obj *o, const char *attr);
/* Has o a sysfs directory (test devices have none, except the captured disks)? */
bool dev_has_sysfs(const struct devices *d, const struct pl_obj *o);
/* SYSROOT/sys/block/KNAME/ATTR: a captured disk, or a path of a multipath disk. */
char *dev_sysfs_path_attr(const struct devices *d, const char *kname, const char *attr);
char *dev_sysctl_path(const struct devices *d, const char *key);
char **dev_argv(const struct devices *d, char *const *argv);
const char *kname_of(const char *plan_path);
/* The kernel name of partition object pi: sdb1 from /dev/sdb1; an md's md127p1 (its node
 * /dev/md/NAME1 is udev's link) from the array's live name. */
char *part_kname(const struct devices *d, const struct plan *pl, size_t pi);

/* lock.c: returns 0, or -1 after reporting who holds a lock */
int locks_take(struct run *r);
void locks_release_disks(struct run *r);
/* The whole-device lock of a partitioned md (taken by its GPT step), held like the disks'. */
int lock_md(struct run *r, size_t mi);
/* Right before step si writes to obj (a disk or a partition of one): -1, the
 * step failed, when an exclusive holder appeared there since the inspection. */
int holder_recheck(struct run *r, size_t si, size_t obj);
/* The same for what a child step writes to (mkfs: its device; pvcreate: the
 * PV; mdadm: the members), before its precheck (which may wipe). */
int holder_recheck_step(struct run *r, size_t si);
void locks_release(struct run *r);

/* query.c: what md, LVM and sysfs say now (read-only, shared) */
/* lvm CMD's lines (NULL: none, or the command failed; *ret_rc, when asked: its exit status, or
 * -ETIME when it ran past the command limit and was killed) */
char **lvm_query(const struct run *r, const char *cmd, const char *fields, const char *target, int *ret_rc);
bool uuid_eq(const char *a, const char *b);
char *uuid_to_mdadm(const char *u);
char *md_attr(const struct run *r, const struct pl_obj *m, const char *attr);
/* query.c: "resync running in the background: 3.2% done, about 2h 10m left at 85.0 MB/s" from
 * md/sync_action, md/sync_completed ("done / total" sectors) and md/sync_speed (KiB/s); pure. */
char *md_sync_text(const char *action, const char *completed, const char *speed_kbs);
/* The MD_UUID mdadm --detail reports for the array node path, or NULL. */
char *md_uuid_of(const char *path);
/* Does the attribute read back as value (scheduler "[x]", "10.000" for 10)? */
bool tune_value_same(enum step_kind kind, enum tune_attr a, const char *cur, const char *value);

/* inspect.c */
void inspect_all(struct run *r);
/* Closes the disks' descriptors inspect_all held (exclusively): before the first step, whose tools
 * (mkfs.xfs, mdadm, pvcreate) open them or their partitions with O_EXCL themselves. */
void inspect_release(struct run *r);
/* Partitioned md arrays that run already (after verify_preserved assembled the preserved ones). */
void inspect_md_partitions(struct run *r);
/* One partitioned md, now (its GPT step, when the array did not run before the first write). */
void inspect_md_now(struct run *r, size_t mi);
bool md_partitioned(const struct plan *pl, size_t mi);

/* inspect_pool.c: inspect(r, disks[k]) for every k, at most --jobs at once in
 * worker threads (one disk per thread at a time); each disk's events held
 * back and replayed in the order of disks[], so that what is printed and
 * refused is what the serial run prints and refuses. With --jobs 1 or one
 * disk, in this thread, one after the other. Fills r->inspection and each
 * disk's inspect_s. A worker that cannot be started refuses the run (the
 * disks are all inspected all the same). */
void inspect_pool_run(struct run *r, const size_t *disks, size_t n, void (*inspect)(struct run *r, size_t di));
/* Around a library that is not thread-safe (libparted, libblkid's cache): one thread at a time. */
void inspect_lib_lock(void);
void inspect_lib_unlock(void);

/* devicesfile.c: storprov's PVs into the target's LVM devices file; returns the failures */
int devicesfile_sync(struct run *r);

/* preserve.c */
void verify_preserved(struct run *r);

/* steps.c */
#define STEP(r, si) (&(r)->pl->steps[(si)])
#define STEP_OBJ(r, si) (&(r)->pl->objs[(r)->pl->steps[(si)].obj])
/* Runs the step in process, or starts its child (ret_pid > 0). */
void step_start(struct run *r, size_t si, pid_t *ret_pid);
void step_exited(struct run *r, size_t si, int code);
bool step_blocks_dependents(const struct run *r, size_t si);
bool step_is_child(const struct run *r, size_t si);
/* Every mkfs.xfs of the plan as a dry run, before the first write; the number that failed. */
int mkfs_preflight(struct run *r);
/* mkfs_dry.c: on a parity stripe (mkfs_agsize_at_apply), an AG size of whole stripes from a dry run, for
 * mkfs_xfs_argv; 0: mkfs.xfs keeps its own. */
uint64_t mkfs_agsize(struct run *r, size_t si);
/* The step kind's .verify: what the step made, read back (verify.c implements them). */
void step_verify(struct run *r, size_t si);

/* wipe.c: argv run and logged for step si; wipefs --all of obj when its inspection asked for it */
int run_logged(struct run *r, size_t si, char **argv);
int wipe(struct run *r, size_t si, size_t obj);

/* steps_gpt.c: the GPT step's run (in process), fork (its child) and exit */
void gpt_run(struct run *r, size_t si);
pid_t gpt_fork(struct run *r, size_t si);
void gpt_exited(struct run *r, size_t si, int code);

/* verify.c: the .verify operation of each step kind */
void vcheck(struct run *r, const char *object, const char *kind, const char *what, enum vstatus st,
            const char *expected, const char *found);
bool verify_live(const struct run *r);
/* An md array or an XFS read back as its step's .verify does (verify_run.c: the preserved ones). */
/* verify_tuned.c: with --tuning=tuned|both, tuned-adm verify's verdict as a check. */
void verify_tuned(struct run *r);
void verify_md_obj(struct run *r, const struct pl_obj *o);
void verify_xfs_obj(struct run *r, const struct pl_obj *o);
/* The mount table verify read once, freed. */
void vcache_free(void);
void vfy_gpt(struct run *r, size_t si);
void vfy_md(struct run *r, size_t si);
void vfy_pv(struct run *r, size_t si);
void vfy_vg(struct run *r, size_t si);
void vfy_lv(struct run *r, size_t si);
void vfy_xfs(struct run *r, size_t si);
void vfy_sysfs(struct run *r, size_t si);
void vfy_sysctl(struct run *r, size_t si);
void vfy_mpath(struct run *r, size_t si);

/* verify_run.c: apply --dry-run's state of every step and file, read back
 * from the node by the steps' verify operations: a step all of whose checks
 * are ok is done, one on a preserved object is kept, any other would run
 * (d's arrays allocated here). Prints nothing. */
void dry_run_states(struct run *r, struct apply_dry *d);

/* candidates.c: the regions deep_scan looks at, sorted by start then end:
 * what an erased table still names (t), the current table (have), the usual
 * and installers' starts, the usual ends of a last partition (from 0), and
 * the plan's own partitions of disk di. */
struct cand {
        uint64_t start, end;     /* end: 0 for a bare start */
        bool end_only;           /* a usual end: probed for md at its end, never at its start */
        char src[80];
};
struct gpt_part;
struct pt_scan;
size_t scan_candidates(const struct plan *pl, size_t di, const struct gpt_part *have, size_t n_have,
                       const struct pt_scan *t, struct cand **ret);
/* candidates.c: after the reads, a usual end whose bytes hold an md 1.0
 * superblock starts where that superblock says its member starts (sorted again). */
struct shadow;
void usual_end_starts(const struct shadow *sh, struct cand *c, size_t n);
