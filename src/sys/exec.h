/* SPDX-License-Identifier: GPL-2.0-or-later
 * src/sys/: thin adapters to the kernel and tools: exec, libblkid, libparted, libdevmapper, SELinux, XFS superblock.
 * Children by argv, never by shell string. The caller logs each command (apply's
 * event list) with the quoting the plan shows, so plan, log and test fakes read alike. */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

/* Runs argv, waits, returns the exit status (0..255), 128+signal, or -errno
 * when it could not be started. With ret_out, stdout is captured (stderr
 * passes through); otherwise both pass through. stdin is /dev/null. Under a
 * command limit (exec_set_command_limit), a command still running at it is
 * killed with its process group, said on stderr, and -ETIME returned. */
int run_argv(char *const *argv, char **ret_out);
/* wait_argv under the command limit from now: -ETIME (the child killed) past it. */
int wait_argv_limited(pid_t pid);
/* The limit every run_argv command of this process runs under (ms, 0: none). */
void exec_set_command_limit(unsigned ms);
unsigned exec_command_limit(void);

/* Starts argv without waiting; stdout and stderr pass through (stdout goes
 * to stderr, so that storprov's own stdout stays machine-readable). */
int spawn_argv(char *const *argv, pid_t *ret_pid);

/* Starts argv without waiting, its stdout and stderr both into out_fd. */
int spawn_argv_into(char *const *argv, int out_fd, pid_t *ret_pid);

/* Starts argv without waiting, its stdout and stderr both into a new pipe
 * whose read end (close-on-exec, non-blocking) is *ret_fd. */
int spawn_argv_pipe(char *const *argv, pid_t *ret_pid, int *ret_fd);

/* Waits for a child spawn_argv* started: its exit status, 128+signal, or -errno. */
int wait_argv(pid_t pid);


/* name looked up in PATH (default /usr/sbin:/usr/bin:/sbin:/bin): the path of
 * the first regular executable file, or NULL. */
char *exec_find(const char *name);

/* CLOCK_MONOTONIC in milliseconds. */
long long monotonic_ms(void);

/* Limits for run_argv_limited. */
struct run_limits {
        unsigned timeout_ms;      /* the command and all it started are killed after it */
        size_t max_out;           /* stdout: past it the command is killed (-EFBIG) */
        size_t max_err;           /* stderr: the first max_err bytes are kept, the rest counted and dropped */
        const char *cwd;          /* where it runs (tools that write logs where they start), NULL: here */
};

struct run_result {
        int status;               /* exit status 0..255, or 128+signal */
        char *out;                /* stdout, NUL-terminated; may hold NULs (out_len bytes) */
        size_t out_len;
        char *err;                /* the first max_err bytes of stderr, NUL-terminated */
        size_t err_len, err_dropped;
        unsigned leftovers;       /* processes the command left running (in its process group, or escaped
                                   * from it with setsid() or by double fork) that were killed after it */
        unsigned stuck;           /* 1 if some of them did not end within 2 s (stuck in the kernel) */
};

/* Runs argv with stdin /dev/null, stdout and stderr captured, in a process
 * group of its own, with storprov its subreaper while it runs; when it ends
 * (or at the timeout, or past the stdout cap) everything it started is
 * killed and reaped, setsid() children and background children of a
 * successful run too. 0 with *res filled (status, out, err), or -ETIME,
 * -EFBIG, -errno with res->err filled (what stderr said) and no out.
 * Not while other children of storprov run: they would be taken for its own. */
int run_argv_limited(char *const *argv, const struct run_limits *lim, struct run_result *res);
void run_result_free(struct run_result *res);
