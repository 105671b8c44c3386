/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sys/exec.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

static void child_exec(char *const *argv, int out_fd, int err_fd)
{
        int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (null >= 0)
                dup2(null, STDIN_FILENO);
        dup2(out_fd, STDOUT_FILENO);
        if (err_fd != STDERR_FILENO)
                dup2(err_fd, STDERR_FILENO);
        /* mdadm and lvm must never stop to ask */
        setenv("LVM_SUPPRESS_FD_WARNINGS", "1", 1);
        execvp(argv[0], argv);
        fprintf(stderr, "storprov: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
}

int wait_argv(pid_t pid)
{
        int st;
        while (waitpid(pid, &st, 0) < 0)
                if (errno != EINTR)
                        return -errno;
        if (WIFEXITED(st))
                return WEXITSTATUS(st);
        return 128 + WTERMSIG(st);
}

int spawn_argv(char *const *argv, pid_t *ret_pid)
{
        return spawn_argv_into(argv, STDERR_FILENO, ret_pid);
}

int spawn_argv_into(char *const *argv, int out_fd, pid_t *ret_pid)
{
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid < 0)
                return -errno;
        if (pid == 0)
                child_exec(argv, out_fd, out_fd);
        *ret_pid = pid;
        return 0;
}

int spawn_argv_pipe(char *const *argv, pid_t *ret_pid, int *ret_fd)
{
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) < 0)
                return -errno;
        int r = spawn_argv_into(argv, fds[1], ret_pid);
        close(fds[1]);
        if (r < 0) {
                close(fds[0]);
                return r;
        }
        int fl = fcntl(fds[0], F_GETFL);
        if (fl >= 0)
                (void)fcntl(fds[0], F_SETFL, fl | O_NONBLOCK);
        *ret_fd = fds[0];
        return 0;
}

static unsigned command_limit_ms; /* exec_set_command_limit */

void exec_set_command_limit(unsigned ms)
{
        command_limit_ms = ms;
}

unsigned exec_command_limit(void)
{
        return command_limit_ms;
}

/* Waits for pid until deadline (0: none); kills it and its group after it. */
static int wait_until_deadline(pid_t pid, long long deadline)
{
        for (;;) {
                int st;
                pid_t w = waitpid(pid, &st, deadline ? WNOHANG : 0);
                if (w == pid)
                        return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
                if (w < 0 && errno != EINTR)
                        return -errno;
                if (deadline && monotonic_ms() >= deadline) {
                        kill(-pid, SIGKILL);
                        kill(pid, SIGKILL);
                        /* a process in an uninterruptible wait (I/O on a LUN gone behind
                         * queue_if_no_path) dies only when the I/O ends: it is not waited for */
                        for (int ms = 0; ms < 2000 && waitpid(pid, &st, WNOHANG) == 0; ms += 10)
                                nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
                        return -ETIME;
                }
                if (deadline)
                        nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
        }
}

int wait_argv_limited(pid_t pid)
{
        return wait_until_deadline(pid, command_limit_ms ? monotonic_ms() + command_limit_ms : 0);
}

int run_argv(char *const *argv, char **ret_out)
{
        int fds[2] = {-1, -1};
        if (ret_out && pipe2(fds, O_CLOEXEC) < 0)
                return -errno;
        fflush(stdout);
        fflush(stderr);
        long long deadline = command_limit_ms ? monotonic_ms() + command_limit_ms : 0;
        pid_t pid = fork();
        if (pid < 0) {
                int r = -errno;
                if (ret_out) {
                        close(fds[0]);
                        close(fds[1]);
                }
                return r;
        }
        if (pid == 0) {
                if (deadline)
                        setpgid(0, 0); /* killed with what it started at the deadline */
                child_exec(argv, ret_out ? fds[1] : STDERR_FILENO, STDERR_FILENO);
        }
        if (deadline)
                setpgid(pid, pid);
        if (ret_out) {
                close(fds[1]);
                struct sbuf b = {0};
                char buf[4096];
                for (;;) {
                        if (deadline) {
                                long long left = deadline - monotonic_ms();
                                struct pollfd p = {.fd = fds[0], .events = POLLIN};
                                if (left <= 0 || (poll(&p, 1, (int)(left > 1000 ? 1000 : left)) == 0 &&
                                                  monotonic_ms() >= deadline))
                                        break;
                        }
                        ssize_t n = read(fds[0], buf, sizeof buf);
                        if (n == 0)
                                break;
                        if (n < 0) {
                                if (errno == EINTR || errno == EAGAIN)
                                        continue;
                                break;
                        }
                        sbuf_printf(&b, "%.*s", (int)n, buf);
                }
                close(fds[0]);
                *ret_out = sbuf_steal(&b);
        }
        int rc = wait_until_deadline(pid, deadline);
        if (rc == -ETIME) {
                _cleanup_free_ char *cmd = strv_join(argv, " ");
                fprintf(stderr, "storprov: %s did not finish in %u s and was killed (--command-timeout)\n", cmd,
                        command_limit_ms / 1000);
        }
        return rc;
}

char *exec_find(const char *name)
{
        if (strchr(name, '/'))
                return access(name, X_OK) == 0 ? xstrdup(name) : NULL;
        const char *path = getenv("PATH");
        _cleanup_free_ char *copy = xstrdup(path && *path ? path : "/usr/sbin:/usr/bin:/sbin:/bin");
        for (char *save = NULL, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
                char *p = xasprintf("%s/%s", *d ? d : ".", name);
                struct stat st;
                if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0)
                        return p;
                free(p);
        }
        return NULL;
}

long long monotonic_ms(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One stream of the child: what is kept of it and what was dropped. */
struct capture {
        int fd;
        char *s;
        size_t len, cap, keep;
        size_t dropped;
        bool eof;
};

/* Reads what fd has now (non-blocking): 0, or -EFBIG once more than kill_past bytes came. */
static int drain(struct capture *c, size_t kill_past)
{
        for (;;) {
                char buf[16384];
                ssize_t n = read(c->fd, buf, sizeof buf);
                if (n == 0) {
                        c->eof = true;
                        return 0;
                }
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return 0; /* EAGAIN: nothing more now */
                }
                size_t take = (size_t)n;
                if (c->len + take > c->keep)
                        take = c->len < c->keep ? c->keep - c->len : 0;
                if (take) {
                        if (c->len + take + 1 > c->cap) {
                                c->cap = c->len + take + 1 > 2 * c->cap ? c->len + take + 1 : 2 * c->cap;
                                c->s = xrealloc(c->s, c->cap);
                        }
                        memcpy(c->s + c->len, buf, take);
                        c->len += take;
                        c->s[c->len] = 0;
                }
                c->dropped += (size_t)n - take;
                if (kill_past && c->len + c->dropped > kill_past)
                        return -EFBIG;
        }
}

/* The pid's parent and process group from /proc/PID/stat; -1 if it cannot be read. */
static pid_t parent_of(pid_t pid, pid_t *ret_pgrp)
{
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return -1;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0)
                return -1;
        buf[n] = 0;
        const char *rp = strrchr(buf, ')'); /* the command name may hold blanks and parentheses */
        int ppid, pgrp;
        char state;
        if (!rp || sscanf(rp + 1, " %c %d %d", &state, &ppid, &pgrp) != 3)
                return -1;
        if (ret_pgrp)
                *ret_pgrp = pgrp;
        return ppid;
}

/* Our own children now (with pgrp 0), or the members of process group pgrp:
 * to tell what a command leaves behind, and to count it. */
static size_t list_procs(pid_t pgrp, pid_t **ret)
{
        DIR *d = opendir("/proc");
        pid_t *v = NULL, self = getpid();
        size_t n = 0;
        for (struct dirent *e; d && (e = readdir(d));) {
                char *end;
                long pid = strtol(e->d_name, &end, 10);
                pid_t g = -1;
                if (*end || pid <= 0)
                        continue;
                pid_t pp = parent_of((pid_t)pid, &g);
                if (pgrp ? g != pgrp : pp != self)
                        continue;
                v = xrealloc(v, (n + 1) * sizeof *v);
                v[n++] = (pid_t)pid;
        }
        if (d)
                closedir(d);
        *ret = v;
        return n;
}

static bool in_set(pid_t p, const pid_t *v, size_t n)
{
        for (size_t i = 0; i < n; i++)
                if (v[i] == p)
                        return true;
        return false;
}

/* Ends everything the command started: its process group, and (storprov being
 * their subreaper while it ran) whatever left the group with setsid() or was
 * orphaned, found as our children that were not there before. Returns how
 * many were killed; *ret_stuck: how many did not end within 2 s (a process in
 * an uninterruptible wait in the kernel, a hung controller driver). */
static unsigned end_leftovers(pid_t pgid, const pid_t *before, size_t n_before, unsigned *ret_stuck)
{
        pid_t *members;
        unsigned killed = (unsigned)list_procs(pgid, &members);
        free(members);
        long long until = monotonic_ms() + 2000;
        pid_t *waiting = NULL;
        size_t n_waiting = 0;
        (void)kill(-pgid, SIGKILL);
        for (;;) {
                pid_t *kids;
                size_t n = list_procs(0, &kids);
                bool any = false;
                for (size_t i = 0; i < n; i++) {
                        if (in_set(kids[i], before, n_before))
                                continue;
                        any = true;
                        if (!in_set(kids[i], waiting, n_waiting)) {
                                pid_t g = -1;
                                (void)parent_of(kids[i], &g);
                                kill(kids[i], SIGKILL);
                                killed += g != pgid; /* the group's were counted */
                                waiting = xrealloc(waiting, (n_waiting + 1) * sizeof *waiting);
                                waiting[n_waiting++] = kids[i];
                        }
                        (void)waitpid(kids[i], NULL, WNOHANG);
                }
                free(kids);
                bool group_left = kill(-pgid, 0) == 0;
                if ((!any && !group_left) || monotonic_ms() >= until) {
                        *ret_stuck = any || group_left;
                        break;
                }
                struct timespec ts = {0, 5 * 1000 * 1000};
                nanosleep(&ts, NULL);
        }
        free(waiting);
        return killed;
}

static int nonblocking_pipe(int fds[2])
{
        if (pipe2(fds, O_CLOEXEC) < 0)
                return -errno;
        int fl = fcntl(fds[0], F_GETFL);
        if (fl >= 0)
                (void)fcntl(fds[0], F_SETFL, fl | O_NONBLOCK);
        return 0;
}

/* Reads both streams until the child ends (then what they hold, even if a
 * background child keeps them open), the deadline, or the stdout cap. */
static int supervise(pid_t pid, long long deadline, const struct run_limits *lim, struct capture *out,
                     struct capture *err, int *ret_status)
{
        for (;;) {
                int st;
                pid_t w = waitpid(pid, &st, WNOHANG);
                bool ended = w == pid;
                if (drain(out, lim->max_out) < 0)
                        return -EFBIG;
                drain(err, 0);
                if (ended) {
                        *ret_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
                        return 0;
                }
                if (w < 0 && errno != EINTR)
                        return -errno;
                long long left = deadline - monotonic_ms();
                if (left <= 0)
                        return -ETIME;
                struct pollfd p[2] = {{.fd = out->eof ? -1 : out->fd, .events = POLLIN},
                                      {.fd = err->eof ? -1 : err->fd, .events = POLLIN}};
                /* the child's end is not a pollable event before Linux 5.3 (pidfd): look every 20 ms */
                if (poll(p, 2, (int)(left > 20 ? 20 : left)) < 0 && errno != EINTR)
                        return -errno;
        }
}

int run_argv_limited(char *const *argv, const struct run_limits *lim, struct run_result *res)
{
        *res = (struct run_result){0};
        int o[2], e[2], r;
        if ((r = nonblocking_pipe(o)) < 0)
                return r;
        if ((r = nonblocking_pipe(e)) < 0) {
                close(o[0]);
                close(o[1]);
                return r;
        }
        pid_t *before;
        size_t n_before = list_procs(0, &before);
        int was_reaper = 0;
        (void)prctl(PR_GET_CHILD_SUBREAPER, &was_reaper);
        (void)prctl(PR_SET_CHILD_SUBREAPER, 1);
        fflush(stdout);
        fflush(stderr);
        long long deadline = monotonic_ms() + lim->timeout_ms;
        pid_t pid = fork();
        if (pid == 0) {
                setpgid(0, 0);
                if (lim->cwd && chdir(lim->cwd) < 0) {
                        dprintf(e[1], "storprov: cannot enter %s: %s\n", lim->cwd, strerror(errno));
                        _exit(127);
                }
                child_exec(argv, o[1], e[1]);
        }
        r = pid < 0 ? -errno : 0;
        close(o[1]);
        close(e[1]);
        struct capture out = {.fd = o[0], .keep = lim->max_out}, err = {.fd = e[0], .keep = lim->max_err};
        if (pid > 0) {
                setpgid(pid, pid);
                r = supervise(pid, deadline, lim, &out, &err, &res->status);
                if (r < 0) {
                        kill(-pid, SIGKILL);
                        kill(pid, SIGKILL);
                        (void)wait_argv(pid);
                }
                res->leftovers = end_leftovers(pid, before, n_before, &res->stuck);
        }
        (void)prctl(PR_SET_CHILD_SUBREAPER, was_reaper);
        free(before);
        close(o[0]);
        close(e[0]);
        res->err = err.s ? err.s : xstrdup("");
        res->err_len = err.len;
        res->err_dropped = err.dropped;
        if (r < 0) {
                free(out.s);
                return r;
        }
        res->out = out.s ? out.s : xstrdup("");
        res->out_len = out.len;
        return 0;
}

void run_result_free(struct run_result *res)
{
        free(res->out);
        free(res->err);
        *res = (struct run_result){0};
}
