/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sys/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
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

int run_argv(char *const *argv, char **ret_out)
{
        int fds[2] = {-1, -1};
        if (ret_out && pipe2(fds, O_CLOEXEC) < 0)
                return -errno;
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid < 0) {
                int r = -errno;
                if (ret_out) {
                        close(fds[0]);
                        close(fds[1]);
                }
                return r;
        }
        if (pid == 0)
                child_exec(argv, ret_out ? fds[1] : STDERR_FILENO, STDERR_FILENO);
        if (ret_out) {
                close(fds[1]);
                struct sbuf b = {0};
                char buf[4096];
                ssize_t n;
                while ((n = read(fds[0], buf, sizeof buf)) != 0) {
                        if (n < 0) {
                                if (errno == EINTR)
                                        continue;
                                break;
                        }
                        sbuf_printf(&b, "%.*s", (int)n, buf);
                }
                close(fds[0]);
                *ret_out = sbuf_steal(&b);
        }
        return wait_argv(pid);
}

static long long now_ms(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct capture {
        char *s;
        size_t len, cap, max;
};

/* Reads fd into c until EOF, the deadline or the cap: 0, -ETIME or -EFBIG. */
static int read_until(int fd, long long deadline, struct capture *c)
{
        for (;;) {
                long long left = deadline - now_ms();
                if (left <= 0)
                        return -ETIME;
                struct pollfd p = {.fd = fd, .events = POLLIN};
                int r = poll(&p, 1, (int)(left > 1000 ? 1000 : left));
                if (r < 0 && errno != EINTR)
                        return -errno;
                if (r <= 0)
                        continue;
                if (c->cap - c->len < 4097) {
                        c->cap = c->cap ? 2 * c->cap : 65536;
                        c->s = xrealloc(c->s, c->cap);
                }
                ssize_t n = read(fd, c->s + c->len, c->cap - c->len - 1);
                if (n == 0)
                        return 0;
                if (n < 0) {
                        if (errno == EINTR || errno == EAGAIN)
                                continue;
                        return -errno;
                }
                c->len += (size_t)n;
                c->s[c->len] = 0;
                if (c->len > c->max)
                        return -EFBIG;
        }
}

/* Waits for pid until the deadline: its status as wait_argv, or -ETIME. */
static int wait_until(pid_t pid, long long deadline)
{
        for (;;) {
                int st;
                pid_t r = waitpid(pid, &st, WNOHANG);
                if (r < 0 && errno != EINTR)
                        return -errno;
                if (r == pid)
                        return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
                if (now_ms() >= deadline)
                        return -ETIME;
                struct timespec ts = {0, 10 * 1000 * 1000};
                nanosleep(&ts, NULL);
        }
}

int run_argv_timeout(char *const *argv, unsigned timeout_ms, size_t max_out, char **ret_out, size_t *ret_len)
{
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) < 0)
                return -errno;
        fflush(stdout);
        fflush(stderr);
        long long deadline = now_ms() + timeout_ms;
        pid_t pid = fork();
        if (pid < 0) {
                int r = -errno;
                close(fds[0]);
                close(fds[1]);
                return r;
        }
        if (pid == 0) {
                setpgid(0, 0);
                child_exec(argv, fds[1], STDERR_FILENO);
        }
        setpgid(pid, pid);
        close(fds[1]);
        struct capture c = {.max = max_out};
        int r = read_until(fds[0], deadline, &c);
        close(fds[0]);
        if (r == 0)
                r = wait_until(pid, deadline);
        if (r < 0) {
                kill(-pid, SIGKILL);
                kill(pid, SIGKILL);
                wait_argv(pid);
                free(c.s);
                return r;
        }
        *ret_out = c.s ? c.s : xstrdup("");
        *ret_len = c.len;
        return r;
}
