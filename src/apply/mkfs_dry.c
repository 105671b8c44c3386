/* SPDX-License-Identifier: GPL-2.0-or-later
 * mkfs.xfs dry runs (-N: nothing is written). Before the first write, every
 * mkfs.xfs of the plan runs once as a dry run on a sparse file of its
 * device's size (mkfs_preflight), so that what mkfs.xfs refuses fails before
 * the GPT is written. At each mkfs step on a parity stripe the AG size comes
 * from a dry run too (mkfs_agsize): the preflight's own when its file had the
 * device's size, else one on the device.
 *
 * Dry runs that differ only in label, UUID and target (8 LUNs of one size
 * under one profile) give the same geometry: one runs, the others share its
 * exit status and output. A fork and exec of mkfs.xfs costs 0.1-0.2 s of CPU
 * in the test guest; 8 LUNs made 16 of them besides the 8 real ones
 * (bench/README section 4b). */
#include "apply/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/exec.h"
#include "sys/mkfs_out.h"

/* The size of the device (or, among test devices, the file) at path, or 0. */
static uint64_t dev_size_bytes(const char *path)
{
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
                return 0;
        struct stat st;
        uint64_t sz = 0;
        if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
                sz = (uint64_t)st.st_size;
        else if (ioctl(fd, BLKGETSIZE64, &sz) < 0)
                sz = 0;
        close(fd);
        return sz;
}

/* The AG geometry for step si: the preflight's, when its file had the size the device has now, else
 * from a dry run on the device. False where neither gives one. */
static bool mkfs_ag_geometry(struct run *r, size_t si, uint64_t *agsize, uint64_t *bsize, int *rc)
{
        const struct pl_obj *o = STEP_OBJ(r, si);
        const struct dry_ag *pre = r->dry_ag ? &r->dry_ag[si] : NULL;
        _cleanup_free_ char *dp = dev_path(&r->dev, o->dev);
        if (pre && pre->agsize && dev_size_bytes(dp) == pre->size_bytes) {
                *agsize = pre->agsize;
                *bsize = pre->bsize;
                return true;
        }
        char **dry = mkfs_xfs_argv(r->pl, STEP(r, si)->obj, &(struct mkfs_at_apply){.dry_run = o->dev});
        char **m = dev_argv(&r->dev, dry);
        _cleanup_free_ char *out = NULL;
        *rc = run_argv(m, &out);
        strv_free(m);
        strv_free(dry);
        return *rc == 0 && mkfs_out_ag(out, agsize, bsize);
}

/* On a parity stripe, the AG size mkfs.xfs would choose on this device and,
 * when that is not a whole number of stripes, one that is
 * (xfs_stripe_agsize_blocks). 0 where mkfs keeps its own (also when no dry
 * run gives one). */
uint64_t mkfs_agsize(struct run *r, size_t si)
{
        const struct pl_obj *o = STEP_OBJ(r, si);
        if (!mkfs_agsize_at_apply(o))
                return 0;
        uint64_t agsize = 0, bsize = 0;
        int rc = 0;
        if (!mkfs_ag_geometry(r, si, &agsize, &bsize, &rc)) {
                run_say(r, "mkfs.xfs -N on %s gave no AG geometry (exit %d); the AG size stays mkfs.xfs's own", o->dev, rc);
                return 0;
        }
        uint64_t want = xfs_stripe_agsize_blocks(agsize, bsize, &o->geom);
        if (!want)
                return 0;
        run_say(r, "%s: AG size %" PRIu64 " blocks (%" PRIu64 " full stripes of %" PRIu64 " blocks) instead of mkfs.xfs's %" PRIu64 "%s",
            o->dev, want, want / (o->geom.full_stripe_bytes / (uint64_t)bsize), o->geom.full_stripe_bytes / (uint64_t)bsize,
            agsize,
            r->ag_size_said ? "; as said above, deliberately"
                            : ", so that stripe-aligned allocations stay aligned in every AG; mkfs.xfs warns that the "
                              "AG size is a multiple of the stripe width: that is deliberate (its advice, one stripe "
                              "unit off, would put every aligned extent outside AG 0 across two stripes; the count is "
                              "coprime to sw+1 and sw+2 so that AG headers still rotate over a parity level's members: "
                              "storprov(8), mkfs.xfs), and its warning is not repeated on the console");
        r->ag_size_said = true;
        r->st[si].ag_warning_expected = true;
        return want;
}

/* One mkfs.xfs dry run of mkfs_preflight: its sparse file, and its output
 * (stdout and stderr) in a memory file, said only if it fails. A dry run
 * the same as an earlier one but for label, UUID and file (key) is not run:
 * it takes the earlier one's (leader) result. */
struct dry_run {
        size_t step;
        char *path;
        char **argv;
        char *key, *sector;
        bool skipped;             /* a leader without its file: no dry run for its key */
        size_t leader;            /* index of the dry run whose result this one takes; itself if it runs */
        uint64_t size_bytes;      /* planned; a leader's, once run: what its file had */
        int out_fd;
        pid_t pid;
        int rc;
        char *out;                /* its output, read back once it ended */
};

/* argv without its label, UUID and target, with the file's size and sector size: dry runs with the
 * same key print the same geometry. */
static char *dry_key(char *const *argv, uint64_t size, const char *sector)
{
        struct sbuf b = {0};
        size_t n = strv_len(argv);
        for (size_t k = 0; k + 1 < n; k++) {
                bool label = !strcmp(argv[k], "-L"), uuid = !strcmp(argv[k], "-m") && argv[k + 1] &&
                                                             !strncmp(argv[k + 1], "uuid=", 5) && !strchr(argv[k + 1], ',');
                if ((label || uuid) && k + 2 < n) {
                        k++;
                        continue;
                }
                sbuf_printf(&b, "%s\x1f", argv[k]);
        }
        sbuf_printf(&b, "size=%" PRIu64 " sector=%s", size, sector ? sector : "-");
        return sbuf_steal(&b);
}

/* The dry run of step i (its key; no file yet), or false (said why) where there is none. */
static bool dry_run_prepare(struct run *r, size_t i, struct dry_run *d)
{
        const struct pl_step *st = &r->pl->steps[i];
        const struct pl_obj *f = &r->pl->objs[st->obj];
        const struct pl_obj *b = f->parent != NO_OBJ ? &r->pl->objs[f->parent] : NULL;
        if (!b || !b->size_bytes) {
                run_say(r, "mkfs.xfs dry run for %s: its size is known only once it is made; mkfs.xfs checks it then",
                    f->dev);
                return false;
        }
        *d = (struct dry_run){.step = i, .out_fd = -1, .pid = -1, .rc = -1, .size_bytes = b->size_bytes};
        bool has_s = false;
        for (size_t k = 0; st->argv[k]; k++)
                has_s |= !strcmp(st->argv[k], "-s");
        d->sector = !has_s && b->sector_bytes > 512 ? xasprintf("%" PRIu64, (uint64_t)b->sector_bytes) : NULL;
        d->key = dry_key(st->argv, b->size_bytes, d->sector);
        return true;
}

/* A leader's sparse file and argv, or false (said why: it and the dry runs that share it are skipped). */
static bool dry_run_file(struct run *r, struct dry_run *d, const char *tmp)
{
        const struct pl_step *st = &r->pl->steps[d->step];
        d->path = xasprintf("%s/storprov-mkfs-XXXXXX", tmp);
        int fd = mkstemp(d->path);
        if (fd < 0 || ftruncate(fd, (off_t)d->size_bytes) < 0) {
                run_say(r, "mkfs.xfs dry run for %s skipped: no sparse file of %" PRIu64 " bytes in %s (%s)",
                    r->pl->objs[st->obj].dev, d->size_bytes, tmp, strerror(errno));
                if (fd >= 0) {
                        close(fd);
                        unlink(d->path);
                }
                free(d->path);
                d->path = NULL;
                return false;
        }
        close(fd);
        d->argv = mkfs_xfs_argv(r->pl, st->obj, &(struct mkfs_at_apply){.dry_run = d->path, .dry_sector = d->sector});
        return true;
}

/* The output of a dry run that ended, from its memory file. */
static void dry_run_read(struct dry_run *d)
{
        struct stat st;
        if (d->path && stat(d->path, &st) == 0)
                d->size_bytes = (uint64_t)st.st_size;
        struct sbuf b = {0};
        if (d->out_fd >= 0 && lseek(d->out_fd, 0, SEEK_SET) == 0) {
                char buf[4096];
                ssize_t n;
                while ((n = read(d->out_fd, buf, sizeof(buf))) > 0)
                        sbuf_printf(&b, "%.*s", (int)n, buf);
        }
        d->out = sbuf_steal(&b);
}

/* Its exit status (its leader's), and on failure what mkfs.xfs said (once per leader) and why that stops
 * the run. Keeps the AG geometry of a dry run that passed for the step (mkfs_agsize). */
static bool dry_run_finish(struct run *r, struct dry_run *v, size_t k)
{
        struct dry_run *d = &v[k], *l = &v[d->leader];
        if (l->skipped)
                return true;
        bool ok = l->rc == 0;
        uint64_t ag = 0, bs = 0;
        if (ok && mkfs_out_ag(l->out, &ag, &bs))
                r->dry_ag[d->step] = (struct dry_ag){.size_bytes = l->size_bytes, .agsize = ag, .bsize = bs};
        if (!ok) {
                const struct pl_obj *f = &r->pl->objs[r->pl->steps[d->step].obj];
                const struct pl_obj *b = &r->pl->objs[f->parent];
                if (d->leader == k && l->out) {
                        fflush(stderr);
                        fputs(l->out, stderr);
                }
                char sz[32];
                const struct pl_obj *lf = &r->pl->objs[r->pl->steps[l->step].obj];
                _cleanup_free_ char *what = d->leader == k ? xstrdup("a dry run with the plan's options")
                                                           : xasprintf("the dry run of %s, whose options differ only "
                                                                       "in label and UUID,", lf->dev);
                _cleanup_free_ char *t = xasprintf(
                        "mkfs.xfs -N (%s on a file of %s, the size of %s) failed "
                        "with exit %d: the XFS on %s cannot be made (mkfs.xfs says why above); nothing was "
                        "written. Give it a larger device or other mkfs-options",
                        what, fmt_size_human(b->size_bytes, sz), b->dev, l->rc, f->dev);
                add_event(r, EV_ERROR, d->step, t);
        }
        return ok;
}

static void dry_run_free(struct dry_run *d)
{
        if (d->path)
                unlink(d->path);
        if (d->out_fd >= 0)
                close(d->out_fd);
        free(d->path);
        free(d->key);
        free(d->sector);
        free(d->out);
        strv_free(d->argv);
}

/* Before the first write: every mkfs.xfs of the plan, as a dry run (-N) with
 * the plan's options, on a sparse file of the size its device will have (the
 * device may not exist yet: a partition, an md). A device too small for the
 * XFS log, options mkfs.xfs refuses, ... fail here, not after the GPT is
 * written. A device whose size is not known before it is made (an LV sized in
 * percent) is left to the step. Up to --jobs dry runs at once, one per key;
 * each one's output is said only if it fails, in step order. Returns how many
 * failed. */
int mkfs_preflight(struct run *r)
{
        const struct plan *pl = r->pl;
        const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        unsigned jobs = r->o->jobs ? r->o->jobs : 1;
        struct dry_run *v = xcalloc(pl->n_steps ? pl->n_steps : 1, sizeof(*v));
        size_t n = 0;
        free(r->dry_ag);
        r->dry_ag = xcalloc(pl->n_steps ? pl->n_steps : 1, sizeof(*r->dry_ag));
        for (size_t i = 0; i < pl->n_steps; i++) {
                const struct pl_step *st = &pl->steps[i];
                if (st->kind == STEP_MKFS && st->argv && st->argv[0] && st->obj != NO_OBJ &&
                    !mkfs_already_done(r, i) && dry_run_prepare(r, i, &v[n])) {
                        v[n].leader = n;
                        for (size_t k = 0; k < n; k++)
                                if (v[k].leader == k && !strcmp(v[k].key, v[n].key)) {
                                        v[n].leader = k;
                                        break;
                                }
                        n++;
                }
        }
        /* the leaders only: run, up to jobs at once */
        size_t *lead = xcalloc(n ? n : 1, sizeof(*lead)), nl = 0;
        for (size_t k = 0; k < n; k++)
                if (v[k].leader == k && !(v[k].skipped = !dry_run_file(r, &v[k], tmp)))
                        lead[nl++] = k;
        size_t started = 0, waited = 0;
        while (waited < nl) {
                while (started < nl && started - waited < jobs) {
                        struct dry_run *d = &v[lead[started++]];
                        d->out_fd = memfd_create("storprov-mkfs-dry", MFD_CLOEXEC);
                        int rc = d->out_fd < 0 ? -errno : spawn_argv_into(d->argv, d->out_fd, &d->pid);
                        if (rc < 0) {
                                d->pid = -1;
                                d->rc = 127;
                                run_say(r, "cannot run mkfs.xfs: %s", strerror(-rc));
                        }
                }
                struct dry_run *d = &v[lead[waited++]];
                if (d->pid > 0 && (d->rc = wait_argv_limited(d->pid)) == -ETIME) {
                        run_say(r, "mkfs.xfs dry run did not finish in %u s (--command-timeout) and was killed",
                            exec_command_limit() / 1000);
                        d->rc = 128 + SIGKILL;
                }
                dry_run_read(d);
        }
        size_t nk = 0;
        for (size_t k = 0; k < n; k++)
                nk += v[k].leader == k;
        if (nk < n)
                run_say(r, "%zu mkfs.xfs dry run%s for %zu filesystems: the others differ only in label and UUID", nk,
                    nk == 1 ? "" : "s", n);
        int failed = 0;
        for (size_t k = 0; k < n; k++)
                failed += !dry_run_finish(r, v, k);
        for (size_t k = 0; k < n; k++)
                dry_run_free(&v[k]);
        free(lead);
        free(v);
        return failed;
}
