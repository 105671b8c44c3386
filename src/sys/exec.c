/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sys/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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
