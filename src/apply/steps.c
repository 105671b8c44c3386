/* SPDX-License-Identifier: GPL-2.0-or-later
 * The step kinds, in one table. Each kind says in one place:
 *   precheck   is its result there already (an earlier run)? then it is kept;
 *              otherwise which command to run (create, or assemble what an
 *              earlier run created, or overwrite where wiping is allowed);
 *   run        in-process steps (libparted, sysfs, sysctl) do their work here;
 *   postcheck  after a child exited 0: wait for what it made and check it;
 *   verify     (storprov verify) read what it made back from the live node,
 *              with other means than apply used, and report drift.
 * Adding a step kind is one entry here and one builder in src/plan/steps.c. */
#include "apply/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/dmtable.h"
#include "sys/exec.h"
#include "sys/probe.h"
#include "sys/xfs_sb.h"

/* What a precheck decided. */
enum pre { PRE_DONE, PRE_RUN };

struct step_ops {
        bool child;               /* runs a command (counted against --jobs) */
        bool optional;            /* its failure does not stop the steps after it */
        enum pre (*precheck)(struct run *r, size_t si, char ***argv);
        void (*run)(struct run *r, size_t si);
        void (*postcheck)(struct run *r, size_t si);
        void (*verify)(struct run *r, size_t si);   /* verify: read the result back (verify.c) */
};

/* ---- mdadm ------------------------------------------------------------------- */

/* An array with our UUID that runs under its kernel name only: an mdadm
 * --create that a kill interrupted left it without /dev/md/NAME (no udev to
 * make the link). The link is made, so the rest of the plan finds it. */
static bool md_adopt_by_uuid(struct run *r, const struct pl_obj *m)
{
        if (devices_fake(&r->dev))
                return false;
        _cleanup_free_ char *text = NULL;
        if (read_file("/proc/mdstat", &text, NULL) < 0)
                return false;
        bool found = false;
        char *save = NULL;
        for (char *l = strtok_r(text, "\n", &save); l && !found; l = strtok_r(NULL, "\n", &save)) {
                char name[32];
                if (sscanf(l, "%31[a-z0-9_] : active", name) != 1 || strncmp(name, "md", 2))
                        continue;
                _cleanup_free_ char *node = xasprintf("/dev/%s", name);
                _cleanup_free_ char *uuid = md_uuid_of(node);
                if (!uuid || !uuid_eq(uuid, m->md.uuid.planned))
                        continue;
                _cleanup_free_ char *target = xasprintf("../%s", name);
                (void)mkdir_parents(m->dev, 0755);
                if (symlink(target, m->dev) == 0 || errno == EEXIST) {
                        run_say(r, "md %s runs as /dev/%s with our uuid (an interrupted create): linked %s", m->md.name,
                            name, m->dev);
                        found = true;
                }
        }
        return found;
}

static bool md_running_with_uuid(struct run *r, const struct pl_obj *m)
{
        if (!dev_exists(&r->dev, m->dev))
                return md_adopt_by_uuid(r, m);
        _cleanup_free_ char *dp = dev_path(&r->dev, m->dev);
        _cleanup_free_ char *uuid = md_uuid_of(dp);
        return uuid && uuid_eq(uuid, m->md.uuid.planned);
}

/* A running array against the plan (level, raid devices, chunk): NULL when
 * it matches, else what differs. Test devices have no sysfs: nothing to read. */
static char *md_mismatch(struct run *r, const struct pl_obj *o)
{
        if (!dev_has_sysfs(&r->dev, o))
                return NULL;
        _cleanup_free_ char *level = md_attr(r, o, "md/level");
        _cleanup_free_ char *disks = md_attr(r, o, "md/raid_disks");
        _cleanup_free_ char *chunk = md_attr(r, o, "md/chunk_size");
        uint64_t nd = 0, ch = 0;
        if (disks)
                (void)parse_u64(disks, &nd);
        if (chunk)
                (void)parse_u64(chunk, &ch);
        size_t want = o->md.n_members - o->md.spares;
        if (!level || strcmp(level, raid_level_name(o->md.level)))
                return xasprintf("it is %s, the plan says %s", level ? level : "unreadable", raid_level_name(o->md.level));
        if (nd != want)
                return xasprintf("it has %" PRIu64 " raid devices, the plan says %zu", nd, want);
        if (o->md.level != RAID_1 && o->md.level != RAID_0 && ch != o->md.chunk_bytes)
                return xasprintf("its chunk is %" PRIu64 " bytes, the plan says %" PRIu64, ch, o->md.chunk_bytes);
        return NULL;
}

static void md_report_sync(struct run *r, const struct pl_obj *o)
{
        _cleanup_free_ char *sync = dev_has_sysfs(&r->dev, o) ? md_attr(r, o, "md/sync_action") : NULL;
        if (!sync || !strcmp(sync, "idle"))
                return;
        _cleanup_free_ char *done = md_attr(r, o, "md/sync_completed"), *speed = md_attr(r, o, "md/sync_speed");
        _cleanup_free_ char *t = md_sync_text(sync, done, speed);
        run_say(r, "md %s: %s", o->md.name, t);
}

/* An array that runs with our uuid but holds no data (size 0: an mdadm
 * --create killed half-way left it started but not set up) is stopped, so
 * that it is assembled again from its members. Returns true when it was. */
static bool md_stop_if_empty(struct run *r, size_t si, const struct pl_obj *o)
{
        if (!dev_has_sysfs(&r->dev, o))
                return false;
        _cleanup_free_ char *size = md_attr(r, o, "size");
        if (!size || strcmp(size, "0"))
                return false;
        char **argv = md_stop_argv(r->pl, STEP(r, si)->obj);
        run_say(r, "md %s runs with our uuid but holds nothing (an interrupted create): stopping it to assemble it again",
            o->md.name);
        int rc = run_logged(r, si, argv);
        strv_free(argv);
        if (rc == 0)
                (void)unlink(o->dev);
        return rc == 0;
}

static enum pre md_precheck(struct run *r, size_t si, char ***argv)
{
        const struct pl_step *s = STEP(r, si);
        const struct pl_obj *o = STEP_OBJ(r, si);
        if (md_running_with_uuid(r, o) && !md_stop_if_empty(r, si, o)) {
                _cleanup_free_ char *why = md_mismatch(r, o);
                if (why) {
                        step_finish(r, si, OUT_FAILED, "%s is running with our uuid %s, but %s: refusing to guess; stop it and "
                                                  "wipe its members (--wipe) to make it again",
                               o->dev, o->md.uuid.planned, why);
                        return PRE_DONE;
                }
                md_report_sync(r, o);
                step_finish(r, si, OUT_KEPT, "%s is running with uuid %s", o->dev, o->md.uuid.planned);
                return PRE_DONE;
        }
        bool members_ours = o->md.n_members > 0;
        for (size_t k = 0; k < o->md.n_members; k++)
                members_ours &= r->os[o->md.members[k]].ours && !r->os[o->md.members[k]].needs_wipe;
        if (members_ours) {
                /* an earlier run created it: assemble instead of creating again */
                strv_free(*argv);
                *argv = md_assemble_argv(r->pl, s->obj, o->md.uuid.planned);
                r->os[s->obj].ours = true;
        }
        for (size_t k = 0; k < o->md.n_members; k++)
                if (wipe(r, si, o->md.members[k]) != 0) {
                        step_finish(r, si, OUT_FAILED, "wipefs failed");
                        return PRE_DONE;
                }
        return PRE_RUN;
}

static void md_postcheck(struct run *r, size_t si)
{
        const struct pl_obj *o = STEP_OBJ(r, si);
        if (dev_wait(r, o->dev, NULL, 30000) < 0) {
                step_finish(r, si, OUT_FAILED, "%s did not appear", o->dev);
                return;
        }
        _cleanup_free_ char *why = md_mismatch(r, o);
        if (why) {
                step_finish(r, si, OUT_FAILED, "%s: %s", o->dev, why);
                return;
        }
        md_report_sync(r, o);
        step_finish(r, si, OUT_CREATED, NULL);
}

/* ---- LVM --------------------------------------------------------------------- */

/* The LV's table, read back through libdevmapper: stripes, chunk, and every
 * stripe starting on a full-stripe boundary of the PVs. */
static int lv_check_table(struct run *r, size_t si)
{
        const struct pl_obj *o = STEP_OBJ(r, si);
        const struct pl_obj *vg = &r->pl->objs[o->parent];
        _cleanup_free_ char *name = dm_name(vg->vg.name, o->lv.name);
        struct dm_segment *seg = NULL;
        size_t n = 0;
        char *err = NULL;
        if (dm_table_read(name, &seg, &n, &err) < 0) {
                step_finish(r, si, OUT_FAILED, "%s", err);
                free(err);
                return -1;
        }
        unsigned want = o->lv.stripes >= 2 ? o->lv.stripes : 1;
        uint64_t chunk = o->lv.stripe_bytes / SECTOR_BYTES, align = vg->geom.full_stripe_bytes / SECTOR_BYTES;
        int rc = 0;
        for (size_t k = 0; k < n && !rc; k++) {
                bool type_ok = want > 1 ? !strcmp(seg[k].type, "striped") : !strcmp(seg[k].type, "linear");
                if (!type_ok || seg[k].stripes != want || (want > 1 && seg[k].chunk_sectors != chunk)) {
                        step_finish(r, si, OUT_FAILED,
                               "dm table of %s: segment %zu is %s with %u stripes of %" PRIu64
                               " sectors; the plan says %u x %" PRIu64,
                               name, k, seg[k].type, seg[k].stripes, seg[k].chunk_sectors, want, chunk);
                        rc = -1;
                }
                for (unsigned q = 0; !rc && align && q < seg[k].stripes; q++)
                        if (seg[k].offsets[q] % align) {
                                step_finish(r, si, OUT_FAILED,
                                       "dm table of %s: data on %s starts at sector %" PRIu64
                                       ", not on a full-stripe boundary (%" PRIu64 " sectors)",
                                       name, seg[k].devices[q], seg[k].offsets[q], align);
                                rc = -1;
                        }
        }
        if (!rc)
                run_say(r, "dm table of %s: %zu segment%s, %u stripe%s, every stripe starts on a %" PRIu64 "-sector boundary",
                    name, n, n == 1 ? "" : "s", want, want == 1 ? "" : "s", align);
        dm_segments_free(seg, n);
        return rc;
}

static enum pre pv_precheck(struct run *r, size_t si, char ***argv)
{
        (void)argv;
        const struct pl_obj *o = STEP_OBJ(r, si);
        _cleanup_free_ char *dp = dev_path(&r->dev, o->dev);
        /* A PV has an LVM2 label in its first 4 sectors, which libblkid finds; where it finds none the
         * device is no PV, and the query (an lvm command that scans every device, 0.35-0.44 s in the
         * guest, bench/README section 4) is not made. A probe that fails asks lvm. */
        struct probe_result pr = {0};
        bool maybe_pv = probe_signatures(dp, 0, 0, &pr) < 0 || probe_find(&pr, "LVM2_member");
        probe_result_free(&pr);
        char **l = maybe_pv ? lvm_query(r, "pvs", "pv_name", dp, NULL) : NULL;
        if (l) {
                strv_free(l);
                step_finish(r, si, OUT_KEPT, "%s is a PV already", o->dev);
                return PRE_DONE;
        }
        if (wipe(r, si, STEP(r, si)->obj) != 0) {
                step_finish(r, si, OUT_FAILED, "wipefs failed");
                return PRE_DONE;
        }
        return PRE_RUN;
}

static enum pre vg_precheck(struct run *r, size_t si, char ***argv)
{
        (void)argv;
        const struct pl_obj *o = STEP_OBJ(r, si);
        /* every PV made by this run (pvcreate refuses a PV of a VG): the VG is not there, and a VG of the
         * same name elsewhere is vgcreate's error to give, never ours to keep; no query */
        size_t made = 0;
        for (size_t k = 0; k < r->pl->n_steps; k++)
                for (size_t q = 0; q < o->vg.n_pvs; q++)
                        if (r->pl->steps[k].kind == STEP_PVCREATE && r->pl->steps[k].obj == o->vg.pvs[q] &&
                            r->st[k].outcome == OUT_CREATED)
                                made++;
        bool all_new = o->vg.n_pvs > 0 && made == o->vg.n_pvs;
        if (all_new)
                return PRE_RUN;
        char **l = lvm_query(r, "vgs", "vg_name,pv_count", o->vg.name, NULL);
        if (!l)
                return PRE_RUN;
        char **f = strv_split(l[0], "|");
        uint64_t n = 0;
        if (strv_len(f) == 2)
                (void)parse_u64(strip(f[1]), &n);
        strv_free(f);
        strv_free(l);
        if (n != o->vg.n_pvs)
                step_finish(r, si, OUT_FAILED, "VG %s exists with %" PRIu64 " PVs, the profile has %zu: refusing to guess",
                       o->vg.name, n, o->vg.n_pvs);
        else
                step_finish(r, si, OUT_KEPT, "VG %s exists", o->vg.name);
        return PRE_DONE;
}

static enum pre lv_precheck(struct run *r, size_t si, char ***argv)
{
        (void)argv;
        const struct pl_obj *o = STEP_OBJ(r, si);
        /* a VG this run created holds no LV yet: no query (each lvm command scans every device) */
        for (size_t k = 0; k < r->pl->n_steps; k++)
                if (r->pl->steps[k].kind == STEP_VGCREATE && r->pl->steps[k].obj == o->parent &&
                    r->st[k].outcome == OUT_CREATED)
                        return PRE_RUN;
        _cleanup_free_ char *t = xasprintf("%s/%s", r->pl->objs[o->parent].vg.name, o->lv.name);
        char **l = lvm_query(r, "lvs", "lv_name", t, NULL);
        if (!l)
                return PRE_RUN;
        strv_free(l);
        /* an LV an earlier run created: active (a killed lvcreate may leave it inactive), and with the
         * planned table */
        if (dev_has_sysfs(&r->dev, o) && dev_wait(r, o->dev, NULL, 1000) < 0) {
                char **act = lv_activate_argv(r->pl, STEP(r, si)->obj);
                run_say(r, "%s exists but is not active: activating it", o->dev);
                (void)run_logged(r, si, act);
                strv_free(act);
        }
        if (dev_has_sysfs(&r->dev, o) && (dev_wait(r, o->dev, NULL, 5000) < 0 || lv_check_table(r, si) < 0)) {
                if (r->st[si].outcome != OUT_FAILED)
                        step_finish(r, si, OUT_FAILED, "%s exists but did not appear", o->dev);
                return PRE_DONE;
        }
        step_finish(r, si, OUT_KEPT, "%s exists", o->dev);
        return PRE_DONE;
}

static void lv_postcheck(struct run *r, size_t si)
{
        const struct pl_obj *o = STEP_OBJ(r, si);
        if (dev_wait(r, o->dev, NULL, 30000) < 0) {
                step_finish(r, si, OUT_FAILED, "%s did not appear", o->dev);
                return;
        }
        if (dev_has_sysfs(&r->dev, o) && lv_check_table(r, si) < 0)
                return;
        step_finish(r, si, OUT_CREATED, NULL);
}

/* ---- mkfs -------------------------------------------------------------------- */

/* Our XFS (the planned UUID) on the device: finished and with the planned
 * geometry is done; unfinished (mkfs was interrupted: sb_inprogress) is made
 * again (*force), which the UUID proves safe; finished with other geometry is refused. */
static enum pre mkfs_ours(struct run *r, size_t si, const char *dp, bool *force)
{
        const struct pl_obj *o = STEP_OBJ(r, si);
        struct xfs_sb_info sb;
        int rc = xfs_sb_read(dp, &sb);
        if (rc < 0) {
                step_finish(r, si, OUT_FAILED, "cannot read the XFS superblock of %s: %s", o->dev, strerror(-rc));
                return PRE_DONE;
        }
        if (sb.inprogress) {
                _cleanup_free_ char *busy = probe_open_by(dp);
                if (busy) {
                        step_finish(r, si, OUT_FAILED, "%s holds an unfinished XFS and is open by %s (an earlier mkfs.xfs still "
                                                  "running?); run apply again when it has ended", o->dev, busy);
                        return PRE_DONE;
                }
                run_say(r, "%s holds our XFS (uuid %s) unfinished: mkfs.xfs was interrupted; making it again", o->dev,
                    o->fs.uuid.planned);
                *force = true;
                return PRE_RUN;
        }
        uint64_t su = (uint64_t)sb.sunit_blocks * sb.block_bytes, sw = (uint64_t)sb.swidth_blocks * sb.block_bytes;
        if (su != o->geom.su_bytes || sw != o->geom.full_stripe_bytes) {
                step_finish(r, si, OUT_FAILED,
                       "%s holds our XFS (uuid %s) with sunit %" PRIu64 " / swidth %" PRIu64 " bytes, but the plan says %" PRIu64
                       " / %" PRIu64 "; the profile changed since it was made: wipe it (wipe=\"true\" or --wipe) or restore "
                       "the profile",
                       o->dev, o->fs.uuid.planned, su, sw, o->geom.su_bytes, o->geom.full_stripe_bytes);
                return PRE_DONE;
        }
        step_finish(r, si, OUT_KEPT, "XFS with uuid %s is there, finished, sunit %u swidth %u blks", o->fs.uuid.planned,
               sb.sunit_blocks, sb.swidth_blocks);
        return PRE_DONE;
}

/* What the device carries: nothing, our XFS (mkfs_ours), or what the profile or --wipe lets mkfs.xfs
 * overwrite (*force), else refused. */
static enum pre mkfs_signatures(struct run *r, size_t si, bool *force)
{
        const struct pl_obj *o = STEP_OBJ(r, si);
        _cleanup_free_ char *dp = dev_path(&r->dev, o->dev);
        struct probe_result pr;
        int rc = probe_signatures(dp, 0, 0, &pr);
        if (rc < 0) {
                step_finish(r, si, OUT_FAILED, "cannot probe %s: %s", o->dev, strerror(-rc));
                return PRE_DONE;
        }
        const struct signature *x = probe_find(&pr, "xfs");
        bool ours = x && uuid_eq(x->uuid, o->fs.uuid.planned);
        _cleanup_free_ char *d = pr.n_sigs && !ours ? probe_describe(&pr) : NULL;
        probe_result_free(&pr);
        if (ours)
                return mkfs_ours(r, si, dp, force);
        if (!d)
                return PRE_RUN;
        /* new LVs are zeroed by lvcreate; partitions and disks were inspected up front */
        if (!r->os[o->parent].wipe_ok && !r->o->wipe_all) {
                step_finish(r, si, OUT_FAILED, "%s carries %s; not overwriting it without wipe", o->dev, d);
                return PRE_DONE;
        }
        run_say(r, "%s carries %s; overwriting as the profile allows", o->dev, d);
        *force = true;
        return PRE_RUN;
}

/* The command is the plan's, built again by mkfs_xfs_argv with what is decided now: -f, the AG size. */
static enum pre mkfs_precheck(struct run *r, size_t si, char ***argv)
{
        struct mkfs_at_apply at = {0};
        enum pre p = mkfs_signatures(r, si, &at.force);
        if (p != PRE_RUN)
                return p;
        at.agsize_blocks = mkfs_agsize(r, si);
        strv_free(*argv);
        *argv = mkfs_xfs_argv(r->pl, STEP(r, si)->obj, &at);
        return PRE_RUN;
}

static void created(struct run *r, size_t si)
{
        step_finish(r, si, OUT_CREATED, NULL);
}

/* ---- sysfs and sysctl (in process) ---------------------------------------------- */

static void write_attr(struct run *r, size_t si, const char *p)
{
        const struct pl_step *s = STEP(r, si);
        _cleanup_free_ char *cur = read_line_file(p);
        if (tune_value_same(s->kind, s->attr, cur, s->value)) {
                step_finish(r, si, OUT_UNCHANGED, "%s is %s", p, cur);
                return;
        }
        int fd = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC);
        ssize_t n = fd < 0 ? -1 : write(fd, s->value, strlen(s->value));
        int e = errno;
        if (fd >= 0)
                close(fd);
        strv_pushf(&r->st[si].run, "echo %s > %s", s->value, p);
        if (n < 0) {
                step_finish(r, si, OUT_FAILED, "writing %s to %s: %s", s->value, p, strerror(e));
                return;
        }
        _cleanup_free_ char *after = read_line_file(p);
        step_finish(r, si, OUT_APPLIED, "%s: %s -> %s", p, cur ? cur : "?", after ? after : "?");
}

static void sysfs_run(struct run *r, size_t si)
{
        const struct pl_obj *o = STEP_OBJ(r, si);
        if (STEP(r, si)->path_kname) {
                /* a path of a multipath LUN: its own queue */
                _cleanup_free_ char *p = dev_sysfs_path_attr(&r->dev, STEP(r, si)->path_kname,
                                                             tune_defs[STEP(r, si)->attr].sysfs);
                write_attr(r, si, p);
                return;
        }
        if (!dev_has_sysfs(&r->dev, o)) {
                step_finish(r, si, OUT_SKIPPED, "no sysfs for test devices");
                return;
        }
        _cleanup_free_ char *p = dev_sysfs_attr(&r->dev, o, tune_defs[STEP(r, si)->attr].sysfs);
        if (!p) {
                step_finish(r, si, OUT_FAILED, "no sysfs entry for %s", o->dev);
                return;
        }
        write_attr(r, si, p);
}

static void sysctl_run(struct run *r, size_t si)
{
        _cleanup_free_ char *p = dev_sysctl_path(&r->dev, STEP(r, si)->key);
        if (devices_fake(&r->dev) && access(p, F_OK) < 0) {
                step_finish(r, si, OUT_SKIPPED, "no %s in the test sysroot", p);
                return;
        }
        write_attr(r, si, p);
}

/* ---- multipath map (dmsetup) ------------------------------------------------------ */

static enum pre mpath_precheck(struct run *r, size_t si, char ***argv)
{
        (void)argv;
        const struct pl_obj *o = STEP_OBJ(r, si);
        if (dev_exists(&r->dev, o->dev)) {
                step_finish(r, si, OUT_KEPT, "%s is there (an earlier run, or multipathd made it)", o->dev);
                return PRE_DONE;
        }
        return PRE_RUN;
}

static void mpath_postcheck(struct run *r, size_t si)
{
        const struct pl_obj *o = STEP_OBJ(r, si);
        if (dev_wait(r, o->dev, NULL, 10000) < 0) {
                step_finish(r, si, OUT_FAILED, "%s did not appear after dmsetup create", o->dev);
                return;
        }
        step_finish(r, si, OUT_CREATED, NULL);
}

static const struct step_ops step_ops[_STEP_KIND_MAX] = {
        [STEP_GPT] = {.run = gpt_run, .verify = vfy_gpt},
        [STEP_MDADM] = {.child = true, .precheck = md_precheck, .postcheck = md_postcheck, .verify = vfy_md},
        [STEP_PVCREATE] = {.child = true, .precheck = pv_precheck, .postcheck = created, .verify = vfy_pv},
        [STEP_VGCREATE] = {.child = true, .precheck = vg_precheck, .postcheck = created, .verify = vfy_vg},
        [STEP_LVCREATE] = {.child = true, .precheck = lv_precheck, .postcheck = lv_postcheck, .verify = vfy_lv},
        [STEP_MKFS] = {.child = true, .precheck = mkfs_precheck, .postcheck = created, .verify = vfy_xfs},
        [STEP_SYSFS] = {.optional = true, .run = sysfs_run, .verify = vfy_sysfs},
        [STEP_SYSCTL] = {.optional = true, .run = sysctl_run, .verify = vfy_sysctl},
        [STEP_MPATH] = {.child = true, .precheck = mpath_precheck, .postcheck = mpath_postcheck, .verify = vfy_mpath},
};

/* ---- what the scheduler calls ----------------------------------------------------- */

void step_start(struct run *r, size_t si, pid_t *ret_pid)
{
        const struct pl_step *st = STEP(r, si);
        const struct step_ops *ops = &step_ops[st->kind];
        struct step_state *s = &r->st[si];
        *ret_pid = 0;
        s->started = now_s(r);
        add_event(r, EV_STEP_START, si, st->desc);
        if (st->kind == STEP_GPT && r->parallel_gpt) {
                *ret_pid = gpt_fork(r, si);
                if (*ret_pid > 0) {
                        run_say(r, "step %zu/%zu start: %s (libparted, child %d)", si + 1, r->pl->n_steps, st->desc,
                            (int)*ret_pid);
                        s->outcome = OUT_RUNNING;
                }
                return;
        }
        if (ops->run) {
                ops->run(r, si);
                return;
        }
        if (holder_recheck_step(r, si) < 0)
                return;
        char **argv = strv_copy(st->argv);
        if (ops->precheck && ops->precheck(r, si, &argv) == PRE_DONE) {
                strv_free(argv);
                return;
        }
        s->argv = dev_argv(&r->dev, argv);
        strv_free(argv);
        char *j = strv_join_shell(s->argv);
        strv_push(&s->run, j);
        free(j);
        run_say(r, "step %zu/%zu start: %s", si + 1, r->pl->n_steps, st->desc);
        run_say_argv(r, si, "", s->argv);
        int rc = relay_spawn(r, si, s->argv, ret_pid);
        if (rc < 0) {
                *ret_pid = 0;
                step_finish(r, si, OUT_FAILED, "cannot start %s: %s", s->argv[0], strerror(-rc));
                return;
        }
        s->outcome = OUT_RUNNING;
}

void step_exited(struct run *r, size_t si, int code)
{
        struct step_state *s = &r->st[si];
        if (s->forked)
                gpt_exited(r, si, code);
        else if (s->timed_out)
                step_finish(r, si, OUT_FAILED, "%s did not finish in %u s (--command-timeout) and was killed", s->argv[0],
                       exec_command_limit() / 1000);
        else if (code != 0)
                step_finish(r, si, OUT_FAILED, "%s exited %d", s->argv[0], code);
        else
                step_ops[STEP(r, si)->kind].postcheck(r, si);
        strv_free(s->argv);
        s->argv = NULL;
}

bool step_blocks_dependents(const struct run *r, size_t si)
{
        enum outcome o = r->st[si].outcome;
        return (o == OUT_FAILED || o == OUT_SKIPPED) && !step_ops[r->pl->steps[si].kind].optional;
}

bool step_is_child(const struct run *r, size_t si)
{
        if (r->pl->steps[si].kind == STEP_GPT && r->parallel_gpt)
                return true;
        return step_ops[r->pl->steps[si].kind].child;
}

void step_verify(struct run *r, size_t si)
{
        step_ops[STEP(r, si)->kind].verify(r, si);
}
