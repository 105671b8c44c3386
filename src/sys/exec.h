/* SPDX-License-Identifier: GPL-2.0-or-later
 * src/sys/: thin adapters to the kernel and tools: exec, libblkid, libparted, libdevmapper, SELinux, XFS superblock.
 * Children by argv, never by shell string. The caller logs each command (apply's
 * event list) with the quoting the plan shows, so plan, log and test fakes read alike. */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

/* Runs argv, waits, returns the exit status (0..255), 128+signal, or -errno
 * when it could not be started. With ret_out, stdout is captured (stderr
 * passes through); otherwise both pass through. stdin is /dev/null. */
int run_argv(char *const *argv, char **ret_out);

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


/* As run_argv with ret_out, but the child (and what it started: it runs in
 * its own process group) is killed after timeout_ms, and its stdout is
 * capped at max_out bytes. Returns the exit status as run_argv does,
 * -ETIME after the timeout, -EFBIG past the cap; *ret_out (NUL-terminated,
 * *ret_len bytes, which may hold NULs) only on >= 0. */
int run_argv_timeout(char *const *argv, unsigned timeout_ms, size_t max_out, char **ret_out, size_t *ret_len);
