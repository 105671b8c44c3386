/* SPDX-License-Identifier: GPL-2.0-or-later
 * verify with --tuning=tuned|both: tuned's own verdict. The rendered
 * tuned.conf is compared like every file (verify_run.c); this asks tuned
 * whether the running system matches its active profile: `tuned-adm verify`
 * (by argv, no shell, with a timeout), on the running system only (--root /).
 * Exit 0 is ok, "Verification failed" is drift; anything else (no tuned-adm,
 * no daemon, a timeout) is reported as not checked, with why. */
#include "apply/internal.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sys/exec.h"

#define TUNED_ADM_TIMEOUT_S 30   /* tuned-adm's own D-Bus timeout is 25 s */

/* Runs argv with its output into a memory file; the exit status, 128+signal,
 * -ETIME after the timeout (the child killed), or -errno. */
static int run_timed(char *const *argv, char **ret_out)
{
        *ret_out = NULL;
        int fd = memfd_create("storprov-tuned-adm", MFD_CLOEXEC);
        if (fd < 0)
                return -errno;
        pid_t pid;
        int r = spawn_argv_into(argv, fd, &pid);
        if (r < 0) {
                close(fd);
                return r;
        }
        int status = 0;
        for (int ms = 0;; ms += 50) {
                pid_t w = waitpid(pid, &status, WNOHANG);
                if (w == pid)
                        break;
                if (w < 0 && errno != EINTR) {
                        close(fd);
                        return -errno;
                }
                if (ms >= TUNED_ADM_TIMEOUT_S * 1000) {
                        kill(pid, SIGKILL);
                        (void)waitpid(pid, &status, 0);
                        close(fd);
                        return -ETIME;
                }
                nanosleep(&(struct timespec){.tv_nsec = 50 * 1000 * 1000}, NULL);
        }
        char buf[4096];
        ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
        close(fd);
        buf[n > 0 ? n : 0] = 0;
        *ret_out = xstrdup(buf);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The first line of text that says something, as comment text. */
static char *first_line(const char *text)
{
        const char *s = text ? text + strspn(text, " \t\n") : "";
        _cleanup_free_ char *l = strndup(s, strcspn(s, "\n"));
        return comment_dup(*l ? l : "no output");
}

void verify_tuned(struct run *r)
{
        static const char what[] = "tuned-adm verify";
        if (r->pl->tuning == TUNING_UDEV)
                return;
        const char *id = "tuned:active profile";
        if (strcmp(r->o->root, "/")) {
                vcheck(r, id, "tuned", what, V_UNCHECKED, "verification succeeded",
                       "--root is not /: tuned's verdict is about the running system");
                return;
        }
        _cleanup_free_ char *exe = exec_find("tuned-adm");
        if (!exe) {
                vcheck(r, id, "tuned", what, V_UNCHECKED, "verification succeeded",
                       "unavailable: no tuned-adm in PATH (install tuned)");
                return;
        }
        char *argv[] = {exe, "verify", NULL};
        _cleanup_free_ char *out = NULL;
        int rc = run_timed(argv, &out);
        _cleanup_free_ char *line = first_line(out);
        if (rc == 0)
                vcheck(r, id, "tuned", what, V_OK, "verification succeeded", line);
        else if (rc == 1 && out && strstr(out, "Verification failed"))
                vcheck(r, id, "tuned", what, V_DRIFT, "verification succeeded",
                       "failed: the system differs from tuned's active profile (its log, /var/log/tuned/tuned.log, "
                       "names what; `tuned-adm profile storprov` or `systemctl restart tuned` applies it again)");
        else {
                _cleanup_free_ char *why = rc == -ETIME ? xasprintf("unavailable: timed out after %d s", TUNED_ADM_TIMEOUT_S)
                                           : rc < 0     ? xasprintf("unavailable: cannot run %s: %s", exe, strerror(-rc))
                                                        : xasprintf("unavailable: exit %d: %s", rc, line);
                vcheck(r, id, "tuned", what, V_UNCHECKED, "verification succeeded", why);
        }
}
