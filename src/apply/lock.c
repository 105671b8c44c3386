/* SPDX-License-Identifier: GPL-2.0-or-later
 * One run at a time. apply takes, before it inspects anything:
 *   - the run lock: flock(LOCK_EX) on a lock file (/run/storprov.lock), which
 *     also says who holds it (pid, profile, start time);
 *   - flock(LOCK_EX) on every target whole-disk node, as partitioners do
 *     (systemd.io "Locking Block Device Access"), to know that no other tool
 *     is changing it; then the lock is held shared (LOCK_SH) for the run:
 *     any other tool that follows the convention (LOCK_EX) is kept out,
 *     while udev, which takes LOCK_SH, keeps processing the disks' events
 *     that libparted and mdadm wait for.
 * A partitioned md is locked the same way by its GPT step, once the array
 * exists: udev re-reads the table of an unlocked whole device after a write
 * (BLKRRPART), which removes the partitions' nodes under the steps after it.
 * A second run says who holds the lock and exits 1 without touching
 * anything; --wait waits for it instead. The disk locks are released once the
 * steps are done (before the files and mounts), the run lock at the end. */
#include "apply/internal.h"
#include "sys/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* The pid holding a flock on fd's file, from /proc/locks, or 0. */
static long flock_holder(int fd)
{
        struct stat st;
        if (fstat(fd, &st) < 0)
                return 0;
        _cleanup_free_ char *text = NULL;
        if (read_file("/proc/locks", &text, NULL) < 0)
                return 0;
        long holder = 0;
        char *save = NULL;
        for (char *l = strtok_r(text, "\n", &save); l && !holder; l = strtok_r(NULL, "\n", &save)) {
                char kind[16], mode[16], rw[16];
                long pid;
                unsigned ma, mi;
                unsigned long ino;
                if (sscanf(l, "%*[^:]: %15s %15s %15s %ld %x:%x:%lu", kind, mode, rw, &pid, &ma, &mi, &ino) != 7)
                        continue;
                if (!strcmp(kind, "FLOCK") && ma == major(st.st_dev) && mi == minor(st.st_dev) && ino == st.st_ino &&
                    pid != getpid())
                        holder = pid;
        }
        return holder;
}

static char *describe_pid(long pid)
{
        if (!pid)
                return xstrdup("another process");
        _cleanup_free_ char *cf = xasprintf("/proc/%ld/comm", pid);
        _cleanup_free_ char *comm = read_line_file(cf);
        return xasprintf("pid %ld (%s)", pid, comm ? comm : "?");
}

/* flock(LOCK_EX) with retries: udev holds LOCK_SH for a moment per event. */
static int flock_ex(int fd, bool wait, int retry_ms)
{
        if (wait)
                return flock(fd, LOCK_EX) < 0 ? -errno : 0;
        for (int waited = 0;; waited += 100) {
                if (flock(fd, LOCK_EX | LOCK_NB) == 0)
                        return 0;
                if (errno != EWOULDBLOCK || waited >= retry_ms)
                        return -errno;
                usleep(100 * 1000);
        }
}

static int take_run_lock(struct run *r)
{
        const char *path = r->o->lock_file ? r->o->lock_file : STORPROV_LOCK_FILE;
        (void)mkdir_parents(path, 0755);
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0) {
                add_event(r, EV_ERROR, NO_OBJ, "cannot open the lock file");
                int e = errno;
                fprintf(stderr, "storprov: cannot open the lock file %s: %s%s\n", path, strerror(e),
                        e == EACCES || e == EPERM || e == EROFS
                                ? (e == EROFS ? " (a read-only /run? --lock-file names another)"
                                              : " (storprov apply must run as root)")
                                : "");
                return -1;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
                _cleanup_free_ char *who = NULL, *info = NULL;
                (void)read_file(path, &info, NULL);
                who = describe_pid(flock_holder(fd));
                for (char *c = info; c && *c; c++)
                        if (*c == '\n')
                                *c = ' ';
                if (!r->o->wait) {
                        char *t = xasprintf("%s is locked by %s: another storprov apply is running (%s); nothing was "
                                            "touched. Run again when it has ended, or pass --wait.",
                                            path, who, info ? strip(info) : "");
                        add_event(r, EV_ERROR, NO_OBJ, t);
                        free(t);
                        close(fd);
                        return -1;
                }
                run_say(r, "%s is locked by %s; waiting (--wait)", path, who);
                if (flock_ex(fd, true, 0) < 0) {
                        close(fd);
                        return -1;
                }
        }
        char *me = xasprintf("pid=%ld profile=%s started=%ld\n", (long)getpid(), r->pl->profile_name, (long)time(NULL));
        if (ftruncate(fd, 0) == 0 && pwrite(fd, me, strlen(me), 0) < 0)
                run_say(r, "cannot record this run in %s: %s", path, strerror(errno));
        free(me);
        r->lock_fd = fd;
        return 0;
}

static int take_disk_locks(struct run *r)
{
        const struct plan *pl = r->pl;
        r->disk_fds = xmalloc((pl->n_objs ? pl->n_objs : 1) * sizeof(int));
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *d = &pl->objs[i];
                r->disk_fds[i] = -1;
                if (d->kind != OBJ_DISK || d->preserve)
                        continue;
                _cleanup_free_ char *p = dev_path(&r->dev, d->dev);
                int fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
                if (fd < 0)
                        continue; /* inspection reports it */
                int rc = flock_ex(fd, r->o->wait, 5000);
                if (rc < 0) {
                        _cleanup_free_ char *who = describe_pid(flock_holder(fd));
                        char *t = xasprintf("%s (%s) is locked by %s, which is changing it; nothing was touched. Run "
                                            "again when it has ended, or pass --wait.",
                                            d->id, d->dev, who);
                        add_event(r, EV_ERROR, NO_OBJ, t);
                        free(t);
                        close(fd);
                        return -1;
                }
                /* Held shared from here on: another storprov or a partitioner (both take LOCK_EX) stays
                 * out, while udev (LOCK_SH) keeps handling the disk's events; libparted waits for udev
                 * ("udevadm settle") after it hands the kernel a new table, and an exclusive lock would
                 * make it wait out settle's timeout. */
                if (flock(fd, LOCK_SH) < 0)
                        run_say(r, "%s: cannot hold the lock shared (%s); keeping it exclusive", d->dev, strerror(errno));
                r->disk_fds[i] = fd;
        }
        return 0;
}

int lock_md(struct run *r, size_t mi)
{
        const struct pl_obj *m = &r->pl->objs[mi];
        if (!r->disk_fds || r->disk_fds[mi] >= 0)
                return 0;
        _cleanup_free_ char *p = dev_path(&r->dev, m->dev);
        int fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
                return -errno;
        int rc = flock_ex(fd, true, 0);
        if (rc < 0) {
                close(fd);
                return rc;
        }
        if (flock(fd, LOCK_SH) < 0)
                run_say(r, "%s: cannot hold the lock shared (%s); keeping it exclusive", m->dev, strerror(errno));
        r->disk_fds[mi] = fd;
        return 0;
}

/* The inspection's O_EXCL descriptor is not held through the steps: the
 * tools that write (libparted's commit and re-read, mkfs.xfs, mdadm,
 * pvcreate, wipefs) open the devices themselves, mkfs.xfs and mdadm with
 * O_EXCL, which a held descriptor would make fail. What is held for the whole
 * run is the disks' flock (above), and right before a step writes to a disk
 * or to a partition of one that no one held exclusively when it was
 * inspected, the device is opened with O_EXCL once more and closed again:
 * EBUSY then means that a holder (a mount, an array, another tool) came
 * after the inspection, and the step fails, naming it where /proc says who. */
int holder_recheck(struct run *r, size_t si, size_t obj)
{
        const struct pl_obj *o = &r->pl->objs[obj];
        size_t di = o->kind == OBJ_PART ? o->parent : obj;
        if ((o->kind != OBJ_DISK && o->kind != OBJ_PART) || di == NO_OBJ || r->pl->objs[di].kind != OBJ_DISK ||
            !r->os[di].excl_free || devices_fake(&r->dev))
                return 0;
        _cleanup_free_ char *path = dev_path(&r->dev, o->dev);
        _cleanup_free_ char *disk = dev_path(&r->dev, r->pl->objs[di].dev);
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_EXCL);
        if (fd >= 0 || errno != EBUSY) {
                if (fd >= 0)
                        close(fd);
                return 0; /* a device that is not there: the step says so */
        }
        _cleanup_free_ char *who = probe_open_by(path);
        if (!who && di != obj)
                who = probe_open_by(disk);
        step_finish(r, si, OUT_FAILED,
               "%s (%s) was taken by another exclusive holder (O_EXCL) after the inspection%s%s; storprov does "
               "not write under it",
               o->id, o->dev, who ? ": open by " : "", who ? who : "");
        return -1;
}

int holder_recheck_step(struct run *r, size_t si)
{
        const struct pl_step *st = &r->pl->steps[si];
        const struct pl_obj *o = &r->pl->objs[st->obj];
        if (st->kind == STEP_MKFS && o->parent != NO_OBJ)
                return holder_recheck(r, si, o->parent);
        if (st->kind == STEP_PVCREATE)
                return holder_recheck(r, si, st->obj);
        for (size_t k = 0; st->kind == STEP_MDADM && k < o->md.n_members; k++)
                if (holder_recheck(r, si, o->md.members[k]) < 0)
                        return -1;
        return 0;
}

int locks_take(struct run *r)
{
        r->lock_fd = -1;
        if (take_run_lock(r) < 0)
                return -1;
        return take_disk_locks(r);
}

void locks_release_disks(struct run *r)
{
        for (size_t i = 0; r->disk_fds && i < r->pl->n_objs; i++)
                if (r->disk_fds[i] >= 0) {
                        close(r->disk_fds[i]);
                        r->disk_fds[i] = -1;
                }
        free(r->disk_fds);
        r->disk_fds = NULL;
}

void locks_release(struct run *r)
{
        locks_release_disks(r);
        if (r->lock_fd >= 0) {
                close(r->lock_fd);
                r->lock_fd = -1;
        }
}
