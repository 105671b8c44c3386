/* SPDX-License-Identifier: GPL-2.0-or-later
 * The steps' tool output, relayed: each tool's stdout and stderr go into a
 * pipe of its own, and every line is printed as "storprov: [  t] OBJECT: line",
 * so that mkfs.xfs runs on 60 LUNs at once do not interleave unnamed. The
 * wait for a child polls those pipes and a SIGCHLD self-pipe (EL8's 4.18 has
 * no pidfd), so a child's exit is seen at once. */
#include "apply/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/exec.h"

#define RELAY_MAX_LINE 4096 /* a longer line is printed in pieces */

static int chld_pipe[2] = {-1, -1};
static struct sigaction old_chld;

static void on_sigchld(int sig)
{
        (void)sig;
        int e = errno;
        if (chld_pipe[1] >= 0)
                (void)!write(chld_pipe[1], "c", 1);
        errno = e;
}

int relay_begin(struct run *r)
{
        (void)r;
        if (pipe2(chld_pipe, O_CLOEXEC | O_NONBLOCK) < 0) {
                chld_pipe[0] = chld_pipe[1] = -1;
                return -errno;
        }
        struct sigaction sa = {.sa_handler = on_sigchld, .sa_flags = SA_RESTART | SA_NOCLDSTOP};
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGCHLD, &sa, &old_chld) < 0) {
                int e = -errno;
                close(chld_pipe[0]);
                close(chld_pipe[1]);
                chld_pipe[0] = chld_pipe[1] = -1;
                return e;
        }
        return 0;
}

void relay_end(struct run *r)
{
        (void)r;
        if (chld_pipe[0] < 0)
                return;
        (void)sigaction(SIGCHLD, &old_chld, NULL);
        close(chld_pipe[0]);
        close(chld_pipe[1]);
        chld_pipe[0] = chld_pipe[1] = -1;
}

/* mkfs.xfs's three lines about an AG size that is a multiple of the stripe
 * width: storprov chose that size and said why once, before the first mkfs
 * (mkfs_agsize); on an installer's console they would come once per LUN. */
static bool ag_warning_line(const char *text, size_t len)
{
        static const char *const lines[] = {
                "Warning: AG size is a multiple of stripe width",
                "problems by aligning all AGs on the same disk",
                "an AG size that is one stripe unit smaller or larger",
        };
        for (size_t i = 0; i < ELEMENTSOF(lines); i++)
                if (len >= strlen(lines[i]) && !strncmp(text, lines[i], strlen(lines[i])))
                        return true;
        return false;
}

/* One whole line (or a piece of a long one) of step si, with its object. */
static void put_line(struct run *r, size_t si, const char *text, size_t len)
{
        if (r->st[si].ag_warning_expected && ag_warning_line(text, len))
                return;
        const char *who = r->pl->steps[si].obj != NO_OBJ ? STEP_OBJ(r, si)->id : r->pl->steps[si].desc;
        fprintf(stderr, "storprov: [%6.1fs] %s: %.*s\n", now_s(r), who, (int)len, text);
}

/* Prints the complete lines gathered for si; with flush, the rest too. */
static void put_lines(struct run *r, size_t si, bool flush)
{
        struct step_state *s = &r->st[si];
        size_t start = 0;
        for (size_t i = 0; i < s->out_line.len; i++)
                if (s->out_line.s[i] == '\n' || i - start + 1 >= RELAY_MAX_LINE) {
                        size_t end = s->out_line.s[i] == '\n' ? i : i + 1;
                        put_line(r, si, s->out_line.s + start, end - start);
                        start = i + 1;
                }
        if (flush && start < s->out_line.len) {
                put_line(r, si, s->out_line.s + start, s->out_line.len - start);
                start = s->out_line.len;
        }
        if (!s->out_line.s)
                return; /* nothing gathered yet */
        memmove(s->out_line.s, s->out_line.s + start, s->out_line.len - start);
        s->out_line.len -= start;
        s->out_line.s[s->out_line.len] = 0;
}

/* Reads what si's pipe holds now; at end of file (or an error) closes it. */
static void drain(struct run *r, size_t si)
{
        struct step_state *s = &r->st[si];
        char buf[4096];
        for (;;) {
                ssize_t n = read(s->out_fd, buf, sizeof buf);
                if (n > 0) {
                        for (ssize_t k = 0; k < n; k++)
                                if (buf[k] == '\r')
                                        buf[k] = '\n'; /* progress dots and bars: one line each */
                        struct sbuf *b = &s->out_line;
                        if (b->len + (size_t)n + 1 > b->cap) {
                                b->cap = b->len + (size_t)n + 1;
                                b->s = xrealloc(b->s, b->cap);
                        }
                        memcpy(b->s + b->len, buf, (size_t)n);
                        b->len += (size_t)n;
                        b->s[b->len] = 0;
                        put_lines(r, si, false);
                        continue;
                }
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0 && errno == EAGAIN)
                        return;
                /* end of file, or nothing more can be read */
                put_lines(r, si, true);
                close(s->out_fd);
                s->out_open = false;
                free(s->out_line.s);
                s->out_line = (struct sbuf){0};
                return;
        }
}

int relay_spawn(struct run *r, size_t si, char *const *argv, pid_t *ret_pid)
{
        struct step_state *s = &r->st[si];
        if (chld_pipe[0] < 0) {
                int rc = spawn_argv(argv, ret_pid);
                s->pid = rc < 0 ? 0 : *ret_pid;
                return rc;
        }
        int fd;
        int rc = spawn_argv_pipe(argv, ret_pid, &fd);
        if (rc < 0)
                return rc;
        s->out_fd = fd;
        s->out_open = true;
        s->pid = *ret_pid;
        return 0;
}

/* The step whose tool is pid, or SIZE_MAX. */
static size_t step_of_pid(const struct run *r, pid_t pid)
{
        for (size_t i = 0; i < r->pl->n_steps; i++)
                if (r->st[i].out_open && r->st[i].pid == pid)
                        return i;
        return SIZE_MAX;
}

/* A finished child's output: what is left in its pipe, then its last line.
 * A grandchild that keeps the pipe open (a daemon) does not hold the run:
 * what it has not written by now is not waited for. */
static void finish_output(struct run *r, pid_t pid)
{
        size_t si = step_of_pid(r, pid);
        if (si == SIZE_MAX)
                return;
        drain(r, si);
        if (r->st[si].out_open) {
                put_lines(r, si, true);
                close(r->st[si].out_fd);
                r->st[si].out_open = false;
                free(r->st[si].out_line.s);
                r->st[si].out_line = (struct sbuf){0};
        }
}

/* A step's command still running past the command limit is killed (its
 * exit then reports it as such): a hung tool never holds the run. */
static void kill_overdue(struct run *r)
{
        unsigned limit = exec_command_limit();
        if (!limit)
                return;
        double now = now_s(r);
        for (size_t i = 0; i < r->pl->n_steps; i++) {
                struct step_state *s = &r->st[i];
                if (s->outcome == OUT_RUNNING && s->pid > 0 && !s->timed_out && now - s->started > limit / 1000.0) {
                        kill(s->pid, SIGKILL);
                        s->timed_out = true;
                        s->killed_at = now;
                }
        }
}

/* A killed step's child that has not died 5 s later (an uninterruptible
 * wait on a device that stopped answering) is given up: its step ends as
 * failed, and the run goes on without reaping it. The pid, or 0. */
static pid_t given_up(struct run *r, int *ret_code)
{
        for (size_t i = 0; i < r->pl->n_steps; i++) {
                struct step_state *s = &r->st[i];
                if (s->timed_out && !s->given_up && s->outcome == OUT_RUNNING && now_s(r) - s->killed_at > 5.0) {
                        s->given_up = true;
                        finish_output(r, s->pid);
                        *ret_code = 128 + SIGKILL;
                        return s->pid;
                }
        }
        return 0;
}

pid_t relay_wait(struct run *r, int *ret_code)
{
        for (;;) {
                kill_overdue(r);
                pid_t gone = given_up(r, ret_code);
                if (gone)
                        return gone;
                int status;
                pid_t pid = waitpid(-1, &status, WNOHANG);
                if (pid > 0) {
                        finish_output(r, pid);
                        *ret_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
                        return pid;
                }
                if (pid < 0 && errno != EINTR)
                        return -1; /* no child left */
                if (chld_pipe[0] < 0) {
                        /* no self-pipe: the plain blocking wait, output passes through */
                        do
                                pid = waitpid(-1, &status, 0);
                        while (pid < 0 && errno == EINTR);
                        if (pid > 0)
                                *ret_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
                        return pid;
                }
                size_t n = 1;
                for (size_t i = 0; i < r->pl->n_steps; i++)
                        n += r->st[i].out_open;
                struct pollfd *p = xcalloc(n, sizeof(*p));
                size_t *owner = xcalloc(n, sizeof(*owner));
                p[0] = (struct pollfd){.fd = chld_pipe[0], .events = POLLIN};
                for (size_t i = 0, k = 1; i < r->pl->n_steps; i++)
                        if (r->st[i].out_open) {
                                p[k] = (struct pollfd){.fd = r->st[i].out_fd, .events = POLLIN};
                                owner[k++] = i;
                        }
                /* the timeout only guards a SIGCHLD that came before the handler was set */
                int pr = poll(p, n, 1000);
                if (pr > 0) {
                        if (p[0].revents) {
                                char buf[64];
                                while (read(chld_pipe[0], buf, sizeof buf) > 0)
                                        ;
                        }
                        for (size_t k = 1; k < n; k++)
                                if (p[k].revents)
                                        drain(r, owner[k]);
                }
                free(p);
                free(owner);
        }
}
