/* SPDX-License-Identifier: GPL-2.0-or-later
 * The GPT step of the step table (steps.c): libparted writes the planned
 * table in process, or, with --jobs above 1 and several tables to write, in
 * a forked child; then the kernel is told and the partition nodes awaited. */
#include "apply/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/gpt.h"

/* The partitions' nodes; a table an earlier run wrote but the kernel never
 * read (the run died in between) is handed to the kernel first. */
static int gpt_nodes(struct run *r, size_t si)
{
        const struct pl_step *s = STEP(r, si);
        const struct pl_obj *d = STEP_OBJ(r, si);
        bool synced = false;
        for (size_t k = 0; k < s->n_parts; k++) {
                const struct pl_obj *p = &r->pl->objs[s->parts[k].obj];
                _cleanup_free_ char *kn = part_kname(&r->dev, r->pl, s->parts[k].obj);
                if (dev_wait(r, p->dev, kn, synced ? 10000 : 1000) == 0)
                        continue;
                if (!synced && !devices_fake(&r->dev)) {
                        _cleanup_free_ char *path = dev_path(&r->dev, d->dev);
                        char *err = NULL;
                        synced = true;
                        run_say(r, "%s did not appear: telling the kernel about the partition table of %s", p->dev, d->dev);
                        if (gpt_sync_kernel(path, &err) < 0) {
                                step_finish(r, si, OUT_FAILED, "%s", err);
                                free(err);
                                return -1;
                        }
                        k--; /* wait for this one again */
                        continue;
                }
                step_finish(r, si, OUT_FAILED, "%s did not appear", p->dev);
                return -1;
        }
        return 0;
}

/* A partitioned md that did not run before the first write (made by this
 * run, or by one that died before its GPT): inspected now, by a disk's rules.
 * Returns -1 when that refuses (a foreign table or data, no wipe allowed). */
static int gpt_inspect_md(struct run *r, size_t si)
{
        const struct pl_step *s = STEP(r, si);
        if (r->pl->objs[s->obj].kind != OBJ_MD || r->os[s->obj].inspected)
                return 0;
        size_t n_ev = r->n_ev;
        size_t before = refusals(r);
        inspect_md_now(r, s->obj);
        if (refusals(r) == before)
                return 0;
        for (size_t k = n_ev; k < r->n_ev; k++) /* the first: the table before its regions */
                if (r->ev[k].kind == EV_REFUSAL) {
                        step_finish(r, si, OUT_FAILED, "%s", r->ev[k].text);
                        return -1;
                }
        step_finish(r, si, OUT_FAILED, "refused");
        return -1;
}

/* Before the write: a table that is already ours is kept (its nodes made),
 * foreign signatures are wiped as allowed. Returns whether to write. */
static bool gpt_prepare(struct run *r, size_t si)
{
        const struct pl_step *s = STEP(r, si);
        const struct pl_obj *d = STEP_OBJ(r, si);
        const struct obj_state *os = &r->os[s->obj];
        if (d->kind == OBJ_MD) {
                int rc = lock_md(r, s->obj);
                if (rc < 0) {
                        step_finish(r, si, OUT_FAILED, "cannot lock %s: %s", d->dev, strerror(-rc));
                        return false;
                }
        }
        if (gpt_inspect_md(r, si) < 0)
                return false;
        if (os->ours && !os->repair_table) {
                if (gpt_nodes(r, si) == 0)
                        step_finish(r, si, OUT_KEPT, "the partition table already matches the plan");
                return false;
        }
        if (holder_recheck(r, si, s->obj) < 0)
                return false;
        if (wipe(r, si, s->obj) != 0) {
                step_finish(r, si, OUT_FAILED, "wipefs failed");
                return false;
        }
        strv_pushf(&r->st[si].run, "libparted: gpt on %s, %zu partitions%s", d->dev, s->n_parts,
                   os->repair_table ? " (the damaged planned table, again)" : "");
        return true;
}

static int gpt_write_step(struct run *r, size_t si, char **ret_err)
{
        const struct pl_step *s = STEP(r, si);
        const struct pl_obj *d = STEP_OBJ(r, si);
        _cleanup_free_ char *path = dev_path(&r->dev, d->dev);
        _cleanup_free_ struct gpt_part *want = xcalloc(s->n_parts ? s->n_parts : 1, sizeof(*want));
        for (size_t i = 0; i < s->n_parts; i++) {
                const struct pl_part *p = &s->parts[i];
                want[i] = (struct gpt_part){.number = p->number, .first_sector = p->first_sector,
                                            .last_sector = p->last_sector, .raid = p->type == PART_RAID,
                                            .lvm = p->type == PART_LVM, .name = p->name, .guid = p->guid};
        }
        return gpt_write(path, d->sector_bytes, s->disk_guid, want, s->n_parts, ret_err);
}

static void gpt_done(struct run *r, size_t si, int rc, const char *err)
{
        if (rc < 0)
                step_finish(r, si, OUT_FAILED, "%s", err ? err : strerror(-rc));
        else if (gpt_nodes(r, si) == 0)
                step_finish(r, si, OUT_CREATED, NULL);
}

void gpt_run(struct run *r, size_t si)
{
        if (!gpt_prepare(r, si))
                return;
        char *err = NULL;
        int rc = gpt_write_step(r, si, &err);
        gpt_done(r, si, rc, err);
        free(err);
}

/* With --jobs > 1 and several tables to write, each table is written by a
 * forked child (libparted's commit syncs and waits for udev per disk), its
 * error message coming back through a pipe; the parent makes the nodes when
 * it has exited. Returns the child's pid, or 0 when the step ended here. */
pid_t gpt_fork(struct run *r, size_t si)
{
        if (!gpt_prepare(r, si))
                return 0;
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) < 0) {
                step_finish(r, si, OUT_FAILED, "pipe: %s", strerror(errno));
                return 0;
        }
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid < 0) {
                close(fds[0]);
                close(fds[1]);
                step_finish(r, si, OUT_FAILED, "fork: %s", strerror(errno));
                return 0;
        }
        if (pid == 0) {
                close(fds[0]);
                char *err = NULL;
                int rc = gpt_write_step(r, si, &err);
                if (rc < 0) {
                        const char *m = err ? err : strerror(-rc);
                        size_t len = strlen(m);
                        while (len) {
                                ssize_t w = write(fds[1], m, len);
                                if (w <= 0)
                                        break;
                                m += w;
                                len -= (size_t)w;
                        }
                }
                _exit(rc < 0 ? 1 : 0);
        }
        close(fds[1]);
        r->st[si].forked = true;
        r->st[si].msg_fd = fds[0];
        return pid;
}

void gpt_exited(struct run *r, size_t si, int code)
{
        struct step_state *s = &r->st[si];
        struct sbuf b = {0};
        char buf[512];
        ssize_t n;
        while ((n = read(s->msg_fd, buf, sizeof(buf) - 1)) > 0) {
                buf[n] = 0;
                sbuf_puts(&b, buf);
        }
        close(s->msg_fd);
        s->forked = false;
        if (code != 0 && !b.s)
                sbuf_printf(&b, "the libparted child writing the table exited %d", code);
        gpt_done(r, si, code ? -EIO : 0, b.s);
        free(b.s);
}
