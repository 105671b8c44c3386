/* SPDX-License-Identifier: GPL-2.0-or-later
 * apply: inspect every target first (read-only), refuse before the first write
 * if anything is unsafe, then run the plan's steps as a dependency graph with
 * at most --jobs children at once. Each step first checks whether its result
 * is already there (created by an earlier run): that makes a second run a
 * no-op and lets a run that died resume.
 *
 * STORPROV_DEVROOT (tests only): a directory under which every /dev path of
 * the plan is looked up, so that fake mdadm/lvm/mkfs executables and sparse
 * image files can stand in for devices without root. */
#include "apply.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dmtable.h"
#include "exec.h"
#include "files.h"
#include "gpt.h"
#include "probe.h"
#include "render.h"

enum outcome {
        OUT_PENDING, OUT_RUNNING, OUT_CREATED, OUT_KEPT, OUT_APPLIED, OUT_UNCHANGED, OUT_SKIPPED, OUT_FAILED,
        _OUT_MAX
};
static const char *const outcome_names[_OUT_MAX] = {
        [OUT_PENDING] = "pending", [OUT_RUNNING] = "running", [OUT_CREATED] = "created", [OUT_KEPT] = "kept",
        [OUT_APPLIED] = "applied", [OUT_UNCHANGED] = "unchanged", [OUT_SKIPPED] = "skipped", [OUT_FAILED] = "failed",
};

struct step_state {
        enum outcome outcome;
        char **run;               /* every argv run for this step, joined for the report */
        double started, elapsed;
        char *message;
        pid_t pid;
        char **pending_argv;      /* the child being waited for */
};

struct obj_state {
        bool wipe_ok;             /* the profile or --wipe allows wiping it */
        bool needs_wipe;          /* carries foreign signatures, to be wiped before use */
        char *found;              /* what the probe found, for messages */
        bool ours;                /* carries what this plan creates (an earlier run) */
        char *in_use;             /* mounted, swap, held: refused unless nothing is to be written */
        char *actual_uuid;        /* preserved or resumed objects: the identity on disk */
};

struct run {
        struct plan *pl;
        const struct sysinfo *si;
        const struct apply_options *o;
        const char *devroot;      /* "" normally */
        struct step_state *st;
        struct obj_state *os;
        struct timespec t0;
        char **refusals;
};

static double now_s(const struct run *r)
{
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return (double)(t.tv_sec - r->t0.tv_sec) + (double)(t.tv_nsec - r->t0.tv_nsec) / 1e9;
}

static void say(const struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const struct run *r, const char *fmt, ...)
{
        va_list ap;
        fprintf(stderr, "storprov: [%6.1fs] ", now_s(r));
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
}

/* A plan path as this process sees it. */
static char *dev_path(const struct run *r, const char *p)
{
        return xasprintf("%s%s", r->devroot, p);
}

static bool is_blockish(const struct run *r, const char *path)
{
        struct stat st;
        if (stat(path, &st) < 0)
                return false;
        return *r->devroot ? true : S_ISBLK(st.st_mode);
}

/* Waits for a device node, creating it from sysfs where no udev does. */
static int wait_for_node(const struct run *r, const char *plan_path, const char *kname, int timeout_ms)
{
        char *p = dev_path(r, plan_path);
        int waited = 0;
        int rc = -ETIMEDOUT;
        while (waited <= timeout_ms) {
                if (is_blockish(r, p)) {
                        rc = 0;
                        break;
                }
                if (kname && *r->devroot) {
                        /* test devices are files: no kernel makes partitions of them */
                        int fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
                        if (fd >= 0)
                                close(fd);
                        continue;
                }
                if (kname && !*r->devroot && waited >= 200) {
                        char *devf = xasprintf("/sys/class/block/%s/dev", kname);
                        char *v = read_line_file(devf);
                        unsigned ma, mi;
                        if (v && sscanf(v, "%u:%u", &ma, &mi) == 2) {
                                (void)mkdir_parents(p, 0755);
                                if (mknod(p, S_IFBLK | 0660, makedev(ma, mi)) == 0)
                                        say(r, "created %s (%u:%u): no udev made it", p, ma, mi);
                        }
                        free(v);
                        free(devf);
                }
                usleep(50 * 1000);
                waited += 50;
        }
        free(p);
        return rc;
}

static const char *basename_of(const char *p)
{
        const char *s = strrchr(p, '/');
        return s ? s + 1 : p;
}

/* "8-4-4-4-12" or "8:8:8:8" → 32 lower-case hex digits, for comparisons. */
static char *uuid_norm(const char *u)
{
        if (!u)
                return NULL;
        struct sbuf b = {0};
        for (; *u; u++)
                if (*u != '-' && *u != ':')
                        sbuf_printf(&b, "%c", (*u >= 'A' && *u <= 'F') ? *u - 'A' + 'a' : *u);
        return sbuf_steal(&b);
}

static bool uuid_eq(const char *a, const char *b)
{
        char *x = uuid_norm(a), *y = uuid_norm(b);
        bool eq = x && y && !strcmp(x, y);
        free(x);
        free(y);
        return eq;
}

static char *uuid_to_mdadm(const char *u)
{
        char *n = uuid_norm(u);
        if (!n || strlen(n) != 32) {
                free(n);
                return NULL;
        }
        char *r = xasprintf("%.8s:%.8s:%.8s:%.8s", n, n + 8, n + 16, n + 24);
        free(n);
        return r;
}

/* ---- lvm queries ---------------------------------------------------------- */

static char **lvm_query(const struct run *r, const char *cmd, const char *fields, const char *target)
{
        char **argv = NULL;
        strv_push(&argv, "lvm");
        strv_push(&argv, cmd);
        strv_push(&argv, "--config");
        strv_push(&argv, STORPROV_LVM_CONFIG);
        strv_push(&argv, "--noheadings");
        strv_push(&argv, "--nosuffix");
        strv_push(&argv, "--units=b");
        strv_push(&argv, "--separator=|");
        strv_pushf(&argv, "--options=%s", fields);
        if (target)
                strv_push(&argv, target);
        char *out = NULL;
        int rc = run_argv(argv, &out);
        strv_free(argv);
        (void)r;
        char **lines = NULL;
        if (rc == 0 && out) {
                char **l = strv_split(out, "\n");
                for (size_t i = 0; l && l[i]; i++) {
                        char *s = strip(l[i]);
                        if (*s)
                                strv_push(&lines, s);
                }
                strv_free(l);
        }
        free(out);
        return lines;
}

/* ---- inspection ------------------------------------------------------------ */

static void refuse(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void refuse(struct run *r, const char *fmt, ...)
{
        struct sbuf b = {0};
        va_list ap;
        va_start(ap, fmt);
        sbuf_vprintf(&b, fmt, ap);
        va_end(ap);
        strv_push(&r->refusals, b.s);
        free(b.s);
}

/* Does a signature belong to what this plan puts on obj? */
static bool sig_is_ours(struct run *r, size_t obj, const struct signature *s)
{
        const struct plan *pl = r->pl;
        size_t user = pl->objs[obj].used_by;
        if (user == NO_OBJ)
                return false;
        const struct pl_obj *u = &pl->objs[user];
        if (!strcmp(s->type, "xfs") && u->kind == OBJ_FS)
                return uuid_eq(s->uuid, u->uuid) || u->preserve;
        if (!strcmp(s->type, "linux_raid_member") && u->kind == OBJ_MD)
                return uuid_eq(s->uuid, u->uuid) || u->preserve;
        if (!strcmp(s->type, "LVM2_member") && u->kind == OBJ_VG) {
                char *dp = dev_path(r, pl->objs[obj].dev);
                char **l = lvm_query(r, "pvs", "vg_name", dp);
                bool ours = l && streq_ptr(l[0], u->vg_name);
                strv_free(l);
                free(dp);
                return ours || u->preserve;
        }
        return false;
}

/* Classifies what obj (whole device or a planned region of its disk) carries. */
static void inspect_region(struct run *r, size_t obj, const char *path, uint64_t off, uint64_t size)
{
        struct obj_state *os = &r->os[obj];
        const struct pl_obj *o = &r->pl->objs[obj];
        struct probe_result pr;
        int rc = probe_signatures(path, off, size, &pr);
        if (rc < 0) {
                refuse(r, "%s: cannot probe %s: %s", o->id, path, strerror(-rc));
                return;
        }
        bool foreign = false;
        for (size_t i = 0; i < pr.n_sigs; i++) {
                if (sig_is_ours(r, obj, &pr.sigs[i])) {
                        os->ours = true;
                        free(os->actual_uuid);
                        os->actual_uuid = xstrdup(pr.sigs[i].uuid);
                } else
                        foreign = true;
        }
        if (foreign) {
                os->found = probe_describe(&pr);
                if (o->preserve)
                        ; /* verified elsewhere */
                else if (os->wipe_ok)
                        os->needs_wipe = true;
                else
                        refuse(r,
                               "%s (%s) carries %s; the profile does not allow wiping it (add wipe=\"true\" to the "
                               "profile's <%s> element, or pass --wipe)",
                               o->id, o->dev, os->found, o->kind == OBJ_PART || o->kind == OBJ_DISK ? "disks" : "md");
        }
        probe_result_free(&pr);
}

/* In use (mounted, swap, held by md/dm) is fine only where nothing will be
 * written: checked for every disk, with or without planned partitions. */
static void refuse_in_use(struct run *r, size_t di)
{
        const struct plan *pl = r->pl;
        const struct pl_obj *d = &pl->objs[di];
        const struct obj_state *os = &r->os[di];
        if (!os->in_use || d->preserve)
                return;
        bool writes = !os->ours || os->needs_wipe;
        for (size_t i = 0; i < pl->n_objs; i++)
                if (pl->objs[i].kind == OBJ_PART && pl->objs[i].parent == di && (!r->os[i].ours || r->os[i].needs_wipe))
                        writes = true;
        if (writes)
                refuse(r, "%s (%s) is in use: %s; storprov never writes to a device in use", d->id, d->dev, os->in_use);
}

static void inspect_disk(struct run *r, size_t di)
{
        struct plan *pl = r->pl;
        struct pl_obj *d = &pl->objs[di];
        struct obj_state *os = &r->os[di];
        char *path = dev_path(r, d->dev);

        if (!*r->devroot && d->bd) {
                os->in_use = probe_in_use(r->o->sysroot, d->bd->major, d->bd->minor);
                char *boot = probe_boot_device(r->o->sysroot, d->bd->major, d->bd->minor);
                if (boot) {
                        char *both = os->in_use ? xasprintf("%s; %s", os->in_use, boot) : xstrdup(boot);
                        free(os->in_use);
                        free(boot);
                        os->in_use = both;
                }
        }

        /* planned partitions on it? */
        const struct pl_step *gs = NULL;
        for (size_t i = 0; i < pl->n_steps; i++)
                if (pl->steps[i].kind == STEP_GPT && pl->steps[i].obj == di)
                        gs = &pl->steps[i];
        bool partitioned = false;
        for (size_t i = 0; i < pl->n_objs; i++)
                partitioned |= pl->objs[i].kind == OBJ_PART && pl->objs[i].parent == di;

        if (!partitioned) {
                inspect_region(r, di, path, 0, 0);
                free(path);
                refuse_in_use(r, di);
                return;
        }
        char *label = NULL, *err = NULL;
        struct gpt_part *have = NULL;
        size_t n_have = 0;
        int rc = gpt_read(path, &label, &have, &n_have, NULL, &err);
        bool table_ours = false;
        if (rc == 0) {
                /* collect the planned partitions (also when preserved: no step) */
                struct pl_part *want = NULL;
                size_t n_want = 0;
                for (size_t i = 0; i < pl->n_objs; i++) {
                        const struct pl_obj *q = &pl->objs[i];
                        if (q->kind != OBJ_PART || q->parent != di)
                                continue;
                        want = xrealloc(want, (n_want + 1) * sizeof(*want));
                        want[n_want++] = (struct pl_part){
                                .number = q->partno,
                                .first_sector = q->start_bytes / q->sector_bytes,
                                .last_sector = (q->start_bytes + q->size_bytes) / q->sector_bytes - 1,
                        };
                }
                table_ours = !strcmp(label, "gpt") && gpt_matches(have, n_have, want, n_want);
                free(want);
                if (table_ours)
                        os->ours = true;
                else if (d->preserve)
                        refuse(r, "%s (%s) is preserved, but its partition table (%s, %zu partitions) is not the planned one",
                               d->id, d->dev, label, n_have);
                else if (os->wipe_ok)
                        os->needs_wipe = true, os->found = xasprintf("a %s partition table with %zu partition%s", label, n_have,
                                                                   n_have == 1 ? "" : "s");
                else
                        refuse(r,
                               "%s (%s) carries a %s partition table with %zu partition%s that is not the planned one; "
                               "the profile does not allow wiping it (add wipe=\"true\" to <disks>, or pass --wipe)",
                               d->id, d->dev, label, n_have, n_have == 1 ? "" : "s");
        } else if (rc == -ENOMEDIUM) {
                if (d->preserve)
                        refuse(r, "%s (%s) is preserved, but it has no partition table", d->id, d->dev);
                /* other signatures on the bare disk (a whole-disk filesystem, md, LVM) */
                inspect_region(r, di, path, 0, 0);
        } else {
                refuse(r, "%s (%s): %s", d->id, d->dev, err ? err : strerror(-rc));
        }
        free(err);
        free(label);
        gpt_parts_free(have, n_have);

        /* the planned partition regions: stale signatures from an older layout */
        if (!table_ours || gs == NULL) {
                for (size_t i = 0; i < pl->n_objs; i++) {
                        const struct pl_obj *q = &pl->objs[i];
                        if (q->kind != OBJ_PART || q->parent != di || !q->size_bytes)
                                continue;
                        r->os[i].wipe_ok = os->wipe_ok;
                        inspect_region(r, i, path, q->start_bytes, q->size_bytes);
                }
        } else {
                for (size_t i = 0; i < pl->n_objs; i++) {
                        const struct pl_obj *q = &pl->objs[i];
                        if (q->kind != OBJ_PART || q->parent != di)
                                continue;
                        r->os[i].wipe_ok = os->wipe_ok;
                        char *pp = dev_path(r, q->dev);
                        if (wait_for_node(r, q->dev, basename_of(q->dev), 2000) == 0)
                                inspect_region(r, i, pp, 0, 0);
                        else
                                inspect_region(r, i, path, q->start_bytes, q->size_bytes);
                        free(pp);
                }
        }
        free(path);
        refuse_in_use(r, di);
}

/* ---- preserve: verify, never write -------------------------------------------- */

static char *sysfs_of(const struct run *r, const char *plan_path)
{
        char *p = dev_path(r, plan_path);
        struct stat st;
        char *res = NULL;
        if (stat(p, &st) == 0 && S_ISBLK(st.st_mode))
                res = xasprintf("/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
        free(p);
        return res;
}

static char *md_attr(const struct run *r, const char *mddev, const char *attr)
{
        char *s = sysfs_of(r, mddev);
        if (!s)
                return NULL;
        char *f = xasprintf("%s/%s", s, attr);
        char *v = read_line_file(f);
        free(f);
        free(s);
        return v;
}

static void verify_md(struct run *r, size_t mi)
{
        struct pl_obj *m = &r->pl->objs[mi];
        char *first = dev_path(r, r->pl->objs[m->members[0]].dev);
        struct probe_result pr;
        char *uuid = NULL;
        if (probe_signatures(first, 0, 0, &pr) == 0) {
                const struct signature *s = probe_find(&pr, "linux_raid_member");
                uuid = s ? uuid_to_mdadm(s->uuid) : NULL;
                probe_result_free(&pr);
        }
        free(first);
        if (!uuid) {
                refuse(r, "md %s is preserved, but %s carries no md superblock", m->md_name, r->pl->objs[m->members[0]].dev);
                return;
        }
        char *dp = dev_path(r, m->dev);
        if (!is_blockish(r, dp)) {
                char **argv = NULL;
                strv_push(&argv, "mdadm");
                strv_push(&argv, "--assemble");
                strv_push(&argv, m->dev);
                strv_pushf(&argv, "--uuid=%s", uuid);
                strv_push(&argv, "--run");
                for (size_t k = 0; k < m->n_members; k++)
                        strv_push(&argv, r->pl->objs[m->members[k]].dev);
                log_argv("preserve: ", argv);
                if (run_argv(argv, NULL) != 0)
                        refuse(r, "md %s is preserved, but mdadm could not assemble it", m->md_name);
                strv_free(argv);
                (void)wait_for_node(r, m->dev, NULL, 10000);
        }
        free(dp);
        char *level = md_attr(r, m->dev, "md/level");
        char *disks = md_attr(r, m->dev, "md/raid_disks");
        char *chunk = md_attr(r, m->dev, "md/chunk_size");
        uint64_t ch = 0, nd = 0;
        if (chunk)
                (void)parse_u64(chunk, &ch);
        if (disks)
                (void)parse_u64(disks, &nd);
        if (!level || strcmp(level, raid_level_name(m->level)))
                refuse(r, "md %s is preserved, but it is %s, not %s", m->md_name, level ? level : "not running",
                       raid_level_name(m->level));
        else if (nd != m->n_members - m->spares)
                refuse(r, "md %s is preserved, but it has %" PRIu64 " raid devices, not %zu", m->md_name, nd,
                       m->n_members - m->spares);
        else if (m->level != RAID_1 && ch != m->stripe_bytes)
                refuse(r, "md %s is preserved, but its chunk is %" PRIu64 " bytes, not %" PRIu64, m->md_name, ch,
                       m->stripe_bytes);
        else
                say(r, "preserve: md %s verified: %s, %" PRIu64 " devices, chunk %" PRIu64 ", uuid %s", m->md_name, level,
                    nd, ch, uuid);
        free(m->uuid);
        m->uuid = uuid; /* mdadm.conf and the udev rules name the array that is there */
        free(level);
        free(disks);
        free(chunk);
}

static void verify_vg(struct run *r, size_t vi)
{
        struct pl_obj *v = &r->pl->objs[vi];
        char **argv = NULL;
        strv_push(&argv, "lvm");
        strv_push(&argv, "vgchange");
        strv_push(&argv, "--config");
        strv_push(&argv, STORPROV_LVM_CONFIG);
        strv_push(&argv, "--activate=y");
        strv_push(&argv, v->vg_name);
        log_argv("preserve: ", argv);
        int rc = run_argv(argv, NULL);
        strv_free(argv);
        if (rc != 0) {
                refuse(r, "vg %s is preserved, but it cannot be activated", v->vg_name);
                return;
        }
        for (size_t i = 0; i < r->pl->n_objs; i++) {
                struct pl_obj *l = &r->pl->objs[i];
                if (l->kind != OBJ_LV || l->parent != vi)
                        continue;
                char *t = xasprintf("%s/%s", v->vg_name, l->lv_name);
                char **out = lvm_query(r, "lvs", "lv_name,stripes,stripe_size", t);
                char **f = out ? strv_split(out[0], "|") : NULL;
                uint64_t stripes = 0, ssz = 0;
                if (strv_len(f) == 3) {
                        (void)parse_u64(strip(f[1]), &stripes);
                        (void)parse_u64(strip(f[2]), &ssz);
                }
                unsigned want = l->stripes >= 2 ? l->stripes : 1;
                if (!out)
                        refuse(r, "lv %s is preserved, but it does not exist", t);
                else if (stripes != want || (want > 1 && ssz != l->stripe_bytes))
                        refuse(r, "lv %s is preserved, but it has %" PRIu64 " stripes of %" PRIu64 " bytes, not %u", t,
                               stripes, ssz, want);
                else
                        say(r, "preserve: lv %s verified: %" PRIu64 " stripe%s", t, stripes, stripes == 1 ? "" : "s");
                strv_free(f);
                strv_free(out);
                free(t);
                (void)wait_for_node(r, l->dev, NULL, 5000);
        }
}

static void verify_fs(struct run *r, size_t fi)
{
        struct pl_obj *f = &r->pl->objs[fi];
        char *dp = dev_path(r, f->dev);
        struct probe_result pr;
        if (probe_signatures(dp, 0, 0, &pr) < 0) {
                refuse(r, "%s is preserved, but %s cannot be read", f->id, f->dev);
                free(dp);
                return;
        }
        const struct signature *s = probe_find(&pr, "xfs");
        if (!s) {
                char *d = probe_describe(&pr);
                refuse(r, "%s is preserved, but %s holds %s, not XFS", f->id, f->dev, *d ? d : "nothing");
                free(d);
        } else {
                free(f->uuid);
                f->uuid = xstrdup(s->uuid);
                char **argv = NULL;
                strv_push(&argv, "xfs_info");
                strv_push(&argv, dp);
                char *out = NULL;
                int rc = run_argv(argv, &out);
                strv_free(argv);
                unsigned long su = 0, sw = 0;
                const char *p = out ? strstr(out, "sunit=") : NULL;
                if (rc != 0 || !p || sscanf(p, "sunit=%lu swidth=%lu", &su, &sw) != 2)
                        refuse(r, "%s is preserved, but xfs_info %s failed", f->id, f->dev);
                else if (su * XFS_BLOCK_BYTES != f->geom.su_bytes || sw * XFS_BLOCK_BYTES != f->geom.full_stripe_bytes)
                        refuse(r, "%s is preserved, but its geometry is sunit=%lu swidth=%lu blks, the plan says %" PRIu64
                                  "/%" PRIu64,
                               f->id, su, sw, f->geom.su_bytes / XFS_BLOCK_BYTES, f->geom.full_stripe_bytes / XFS_BLOCK_BYTES);
                else
                        say(r, "preserve: %s verified: XFS uuid %s, sunit=%lu swidth=%lu blks", f->id, f->uuid, su, sw);
                free(out);
        }
        probe_result_free(&pr);
        free(dp);
}

/* ---- steps ------------------------------------------------------------------- */

static void finish(struct run *r, size_t si, enum outcome out, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void finish(struct run *r, size_t si, enum outcome out, const char *fmt, ...)
{
        struct step_state *s = &r->st[si];
        s->outcome = out;
        s->elapsed = now_s(r) - s->started;
        if (fmt) {
                struct sbuf b = {0};
                va_list ap;
                va_start(ap, fmt);
                sbuf_vprintf(&b, fmt, ap);
                va_end(ap);
                free(s->message);
                s->message = sbuf_steal(&b);
        }
        say(r, "step %zu %s: %s (%.1fs)%s%s", si + 1, outcome_names[out], r->pl->steps[si].desc, s->elapsed,
            s->message ? ": " : "", s->message ? s->message : "");
}

/* Runs argv to completion, recording it. */
static int run_logged(struct run *r, size_t si, char **argv)
{
        char *j = strv_join_shell(argv);
        strv_push(&r->st[si].run, j);
        free(j);
        log_argv("", argv);
        return run_argv(argv, NULL);
}

static char **mapped_argv(const struct run *r, char *const *argv)
{
        char **out = NULL;
        for (size_t i = 0; argv && argv[i]; i++) {
                if (*r->devroot && startswith(argv[i], "/dev/"))
                        strv_pushf(&out, "%s%s", r->devroot, argv[i]);
                else
                        strv_push(&out, argv[i]);
        }
        return out;
}

static int wipe(struct run *r, size_t si, size_t obj)
{
        struct obj_state *os = &r->os[obj];
        if (!os->needs_wipe)
                return 0;
        char **argv = NULL;
        strv_push(&argv, "wipefs");
        strv_push(&argv, "--all");
        strv_push(&argv, r->pl->objs[obj].dev);
        char **m = mapped_argv(r, argv);
        say(r, "wiping %s (%s), as %s allows: it carried %s", r->pl->objs[obj].id, r->pl->objs[obj].dev,
            r->o->wipe_all ? "--wipe" : "the profile", os->found ? os->found : "signatures");
        int rc = run_logged(r, si, m);
        strv_free(m);
        strv_free(argv);
        if (rc == 0)
                os->needs_wipe = false;
        return rc;
}

static void step_gpt(struct run *r, size_t si)
{
        const struct pl_step *s = &r->pl->steps[si];
        const struct pl_obj *d = &r->pl->objs[s->obj];
        if (r->os[s->obj].ours) {
                finish(r, si, OUT_KEPT, "the partition table already matches the plan");
        } else {
                if (wipe(r, si, s->obj) != 0) {
                        finish(r, si, OUT_FAILED, "wipefs failed");
                        return;
                }
                char *path = dev_path(r, d->dev);
                char *err = NULL;
                strv_pushf(&r->st[si].run, "libparted: gpt on %s, %zu partitions", d->dev, s->n_parts);
                int rc = gpt_write(path, d->sector_bytes, s->parts, s->n_parts, &err);
                free(path);
                if (rc < 0) {
                        finish(r, si, OUT_FAILED, "%s", err ? err : strerror(-rc));
                        free(err);
                        return;
                }
                r->st[si].outcome = OUT_CREATED;
        }
        for (size_t k = 0; k < s->n_parts; k++) {
                const struct pl_obj *p = &r->pl->objs[s->parts[k].obj];
                if (wait_for_node(r, p->dev, basename_of(p->dev), 10000) < 0) {
                        finish(r, si, OUT_FAILED, "%s did not appear", p->dev);
                        return;
                }
        }
        if (r->st[si].outcome == OUT_CREATED)
                finish(r, si, OUT_CREATED, NULL);
}

static bool md_running_with_uuid(struct run *r, const struct pl_obj *m)
{
        char *dp = dev_path(r, m->dev);
        bool ok = false;
        if (is_blockish(r, dp)) {
                char **argv = NULL;
                strv_push(&argv, "mdadm");
                strv_push(&argv, "--detail");
                strv_push(&argv, "--export");
                strv_push(&argv, dp);
                char *out = NULL;
                if (run_argv(argv, &out) == 0 && out) {
                        char *u = strstr(out, "MD_UUID=");
                        if (u) {
                                char *e = strchr(u, '\n');
                                if (e)
                                        *e = 0;
                                ok = uuid_eq(u + 8, m->uuid);
                        }
                }
                free(out);
                strv_free(argv);
        }
        free(dp);
        return ok;
}

/* Returns true when the step is already done (nothing to start). */
static bool precheck_argv_step(struct run *r, size_t si, char ***argv)
{
        const struct pl_step *s = &r->pl->steps[si];
        const struct pl_obj *o = &r->pl->objs[s->obj];
        switch (s->kind) {
        case STEP_MDADM: {
                if (md_running_with_uuid(r, o)) {
                        finish(r, si, OUT_KEPT, "%s is running with uuid %s", o->dev, o->uuid);
                        return true;
                }
                bool members_ours = o->n_members > 0;
                for (size_t k = 0; k < o->n_members; k++)
                        members_ours &= r->os[o->members[k]].ours && !r->os[o->members[k]].needs_wipe;
                if (members_ours) {
                        /* an earlier run created it: assemble instead of creating again */
                        strv_free(*argv);
                        *argv = NULL;
                        strv_push(argv, "mdadm");
                        strv_push(argv, "--assemble");
                        strv_push(argv, o->dev);
                        strv_pushf(argv, "--uuid=%s", o->uuid);
                        strv_push(argv, "--run");
                        for (size_t k = 0; k < o->n_members; k++)
                                strv_push(argv, r->pl->objs[o->members[k]].dev);
                        r->os[s->obj].ours = true;
                }
                for (size_t k = 0; k < o->n_members; k++)
                        if (wipe(r, si, o->members[k]) != 0) {
                                finish(r, si, OUT_FAILED, "wipefs failed");
                                return true;
                        }
                return false;
        }
        case STEP_PVCREATE: {
                char *dp = dev_path(r, o->dev);
                char **l = lvm_query(r, "pvs", "pv_name", dp);
                free(dp);
                if (l) {
                        strv_free(l);
                        finish(r, si, OUT_KEPT, "%s is a PV already", o->dev);
                        return true;
                }
                if (wipe(r, si, s->obj) != 0) {
                        finish(r, si, OUT_FAILED, "wipefs failed");
                        return true;
                }
                return false;
        }
        case STEP_VGCREATE: {
                char **l = lvm_query(r, "vgs", "vg_name,pv_count", o->vg_name);
                if (l) {
                        char **f = strv_split(l[0], "|");
                        uint64_t n = 0;
                        if (strv_len(f) == 2)
                                (void)parse_u64(strip(f[1]), &n);
                        strv_free(f);
                        strv_free(l);
                        if (n != o->n_members) {
                                finish(r, si, OUT_FAILED,
                                       "VG %s exists with %" PRIu64 " PVs, the profile has %zu: refusing to guess",
                                       o->vg_name, n, o->n_members);
                                return true;
                        }
                        finish(r, si, OUT_KEPT, "VG %s exists", o->vg_name);
                        return true;
                }
                return false;
        }
        case STEP_LVCREATE: {
                char *t = xasprintf("%s/%s", r->pl->objs[o->parent].vg_name, o->lv_name);
                char **l = lvm_query(r, "lvs", "lv_name", t);
                free(t);
                if (l) {
                        strv_free(l);
                        finish(r, si, OUT_KEPT, "%s exists", o->dev);
                        return true;
                }
                return false;
        }
        case STEP_MKFS: {
                char *dp = dev_path(r, o->dev);
                struct probe_result pr;
                int rc = probe_signatures(dp, 0, 0, &pr);
                free(dp);
                if (rc < 0) {
                        finish(r, si, OUT_FAILED, "cannot probe %s: %s", o->dev, strerror(-rc));
                        return true;
                }
                const struct signature *x = probe_find(&pr, "xfs");
                if (x && uuid_eq(x->uuid, o->uuid)) {
                        probe_result_free(&pr);
                        finish(r, si, OUT_KEPT, "XFS with uuid %s is there", o->uuid);
                        return true;
                }
                if (pr.n_sigs) {
                        /* new LVs are zeroed by lvcreate; partitions and disks were inspected up front */
                        size_t parent = o->parent;
                        bool allowed = r->os[parent].wipe_ok || r->o->wipe_all;
                        char *d = probe_describe(&pr);
                        probe_result_free(&pr);
                        if (!allowed) {
                                finish(r, si, OUT_FAILED, "%s carries %s; not overwriting it without wipe", o->dev, d);
                                free(d);
                                return true;
                        }
                        say(r, "%s carries %s; overwriting as the profile allows", o->dev, d);
                        free(d);
                        /* mkfs.xfs -f, just before the device argument */
                        size_t n = strv_len(*argv);
                        char **nv = NULL;
                        for (size_t k = 0; k < n; k++) {
                                if (k == n - 1)
                                        strv_push(&nv, "-f");
                                strv_push(&nv, (*argv)[k]);
                        }
                        strv_free(*argv);
                        *argv = nv;
                        return false;
                }
                probe_result_free(&pr);
                return false;
        }
        default:
                return false;
        }
}

/* After a child finished well: wait for what it made and check it. */
static void postcheck_argv_step(struct run *r, size_t si)
{
        const struct pl_step *s = &r->pl->steps[si];
        const struct pl_obj *o = &r->pl->objs[s->obj];
        if (s->kind == STEP_MDADM || s->kind == STEP_LVCREATE) {
                if (wait_for_node(r, o->dev, NULL, 30000) < 0) {
                        finish(r, si, OUT_FAILED, "%s did not appear", o->dev);
                        return;
                }
        }
        if (s->kind == STEP_MDADM && !*r->devroot) {
                char *sync = md_attr(r, o->dev, "md/sync_action");
                if (sync && strcmp(sync, "idle"))
                        say(r, "md %s: %s running in the background", o->md_name, sync);
                free(sync);
        }
        if (s->kind == STEP_LVCREATE && !*r->devroot) {
                /* read the table back through libdevmapper */
                const struct pl_obj *vg = &r->pl->objs[o->parent];
                char *name = dm_name(vg->vg_name, o->lv_name);
                struct dm_segment *seg = NULL;
                size_t n = 0;
                char *err = NULL;
                int rc = dm_table_read(name, &seg, &n, &err);
                if (rc < 0) {
                        finish(r, si, OUT_FAILED, "%s", err);
                        free(err);
                        free(name);
                        return;
                }
                unsigned want = o->stripes >= 2 ? o->stripes : 1;
                uint64_t align = vg->geom.full_stripe_bytes / 512;
                for (size_t k = 0; k < n; k++) {
                        bool type_ok = want > 1 ? !strcmp(seg[k].type, "striped") : !strcmp(seg[k].type, "linear");
                        if (!type_ok || seg[k].stripes != want ||
                            (want > 1 && seg[k].chunk_sectors != o->stripe_bytes / 512)) {
                                finish(r, si, OUT_FAILED,
                                       "dm table of %s: segment %zu is %s with %u stripes of %" PRIu64
                                       " sectors; the plan says %u x %" PRIu64,
                                       name, k, seg[k].type, seg[k].stripes, seg[k].chunk_sectors, want,
                                       o->stripe_bytes / 512);
                                break;
                        }
                        for (unsigned q = 0; align && q < seg[k].stripes; q++)
                                if (seg[k].offsets[q] % align) {
                                        finish(r, si, OUT_FAILED,
                                               "dm table of %s: data on %s starts at sector %" PRIu64
                                               ", not on a full-stripe boundary (%" PRIu64 " sectors)",
                                               name, seg[k].devices[q], seg[k].offsets[q], align);
                                        break;
                                }
                }
                if (r->st[si].outcome != OUT_FAILED)
                        say(r, "dm table of %s: %zu segment%s, %u stripe%s, every stripe starts on a %" PRIu64
                               "-sector boundary",
                            name, n, n == 1 ? "" : "s", want, want == 1 ? "" : "s", align);
                dm_segments_free(seg, n);
                free(name);
        }
        if (r->st[si].outcome != OUT_FAILED)
                finish(r, si, OUT_CREATED, NULL);
}

static char *tune_path(const struct run *r, const struct pl_obj *o, const char *attr)
{
        char *base = NULL;
        if (o->kind == OBJ_DISK && o->bd && *r->devroot)
                base = xasprintf("%s/sys/block/%s", strcmp(r->o->sysroot, "/") ? r->o->sysroot : "", o->bd->name);
        else
                base = sysfs_of(r, o->dev);
        if (!base)
                return NULL;
        char *p = xasprintf("%s/%s", base, attr);
        free(base);
        return p;
}

/* /proc/sys path of a sysctl key: "vm.dirty_ratio" -> ROOT/proc/sys/vm/dirty_ratio */
static char *sysctl_path(const struct run *r, const char *key)
{
        char *rel = xasprintf("proc/sys/%s", key);
        for (char *c = rel + 9; *c; c++)
                if (*c == '.')
                        *c = '/';
        char *p = path_join(*r->devroot ? r->o->sysroot : "/", rel);
        free(rel);
        return p;
}

/* Writes a sysfs attribute (STEP_SYSFS) or a sysctl (STEP_SYSCTL) unless it already holds the value. */
static void step_sysfs(struct run *r, size_t si)
{
        const struct pl_step *s = &r->pl->steps[si];
        const struct pl_obj *o = s->obj != NO_OBJ ? &r->pl->objs[s->obj] : NULL;
        char *p;
        if (s->kind == STEP_SYSCTL) {
                p = sysctl_path(r, s->attr);
        } else {
                if (*r->devroot && o->kind != OBJ_DISK) {
                        finish(r, si, OUT_SKIPPED, "no sysfs for test devices");
                        return;
                }
                p = tune_path(r, o, s->attr);
                if (!p) {
                        finish(r, si, OUT_FAILED, "no sysfs entry for %s", o->dev);
                        return;
                }
        }
        if (*r->devroot && s->kind == STEP_SYSCTL && access(p, F_OK) < 0) {
                finish(r, si, OUT_SKIPPED, "no %s in the test sysroot", p);
                free(p);
                return;
        }
        char *cur = read_line_file(p);
        bool same = false;
        if (cur && !strcmp(s->attr, "queue/scheduler")) {
                char *want = xasprintf("[%s]", s->value);
                same = strstr(cur, want) != NULL || (!strchr(cur, '[') && !strcmp(cur, s->value));
                free(want);
        } else if (cur) {
                /* safe_mode_delay reads back as "10.000" */
                char *a = NULL, *b = NULL;
                same = !strcmp(cur, s->value) || strtod(cur, &a) == strtod(s->value, &b);
        }
        if (same) {
                finish(r, si, OUT_UNCHANGED, "%s is %s", p, cur);
        } else {
                int fd = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC);
                ssize_t n = fd < 0 ? -1 : write(fd, s->value, strlen(s->value));
                int e = errno;
                if (fd >= 0)
                        close(fd);
                strv_pushf(&r->st[si].run, "echo %s > %s", s->value, p);
                if (n < 0)
                        finish(r, si, OUT_FAILED, "writing %s to %s: %s", s->value, p, strerror(e));
                else {
                        char *after = read_line_file(p);
                        finish(r, si, OUT_APPLIED, "%s: %s -> %s", p, cur ? cur : "?", after ? after : "?");
                        free(after);
                }
        }
        free(cur);
        free(p);
}

/* ---- the run ---------------------------------------------------------------- */

static bool deps_state(const struct run *r, size_t si, bool *failed)
{
        const struct pl_step *s = &r->pl->steps[si];
        *failed = false;
        for (size_t k = 0; k < s->n_deps; k++) {
                enum outcome o = r->st[s->deps[k]].outcome;
                if (o == OUT_FAILED || o == OUT_SKIPPED) {
                        if (r->pl->steps[s->deps[k]].kind != STEP_SYSFS)
                                *failed = true;
                }
                if (o == OUT_PENDING || o == OUT_RUNNING)
                        return false;
        }
        return true;
}

static void execute(struct run *r)
{
        const struct plan *pl = r->pl;
        unsigned running = 0, jobs = r->o->jobs ? r->o->jobs : 1;
        for (;;) {
                bool progress = false, all_done = true;
                for (size_t i = 0; i < pl->n_steps; i++) {
                        struct step_state *s = &r->st[i];
                        if (s->outcome != OUT_PENDING)
                                continue;
                        all_done = false;
                        bool failed;
                        if (!deps_state(r, i, &failed))
                                continue;
                        if (failed) {
                                s->started = now_s(r);
                                finish(r, i, OUT_SKIPPED, "a step it depends on failed");
                                progress = true;
                                continue;
                        }
                        const struct pl_step *st = &pl->steps[i];
                        if (st->kind == STEP_GPT) {
                                s->started = now_s(r);
                                step_gpt(r, i);
                                progress = true;
                                continue;
                        }
                        if (st->kind == STEP_SYSFS || st->kind == STEP_SYSCTL) {
                                s->started = now_s(r);
                                step_sysfs(r, i);
                                progress = true;
                                continue;
                        }
                        if (running >= jobs)
                                continue;
                        s->started = now_s(r);
                        char **argv = strv_copy(st->argv);
                        if (precheck_argv_step(r, i, &argv)) {
                                strv_free(argv);
                                progress = true;
                                continue;
                        }
                        char **m = mapped_argv(r, argv);
                        strv_free(argv);
                        char *j = strv_join_shell(m);
                        strv_push(&s->run, j);
                        free(j);
                        say(r, "step %zu start: %s", i + 1, st->desc);
                        log_argv("", m);
                        int rc = spawn_argv(m, &s->pid);
                        if (rc < 0) {
                                finish(r, i, OUT_FAILED, "cannot start %s: %s", m[0], strerror(-rc));
                                strv_free(m);
                                continue;
                        }
                        s->pending_argv = m;
                        s->outcome = OUT_RUNNING;
                        running++;
                        progress = true;
                }
                if (all_done && !running)
                        break;
                if (progress)
                        continue;
                if (!running)
                        break; /* nothing can run (should not happen: deps are acyclic) */
                int status;
                pid_t pid = waitpid(-1, &status, 0);
                if (pid < 0) {
                        if (errno == EINTR)
                                continue;
                        break;
                }
                for (size_t i = 0; i < pl->n_steps; i++) {
                        struct step_state *s = &r->st[i];
                        if (s->outcome != OUT_RUNNING || s->pid != pid)
                                continue;
                        running--;
                        int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
                        if (code != 0)
                                finish(r, i, OUT_FAILED, "%s exited %d", s->pending_argv[0], code);
                        else
                                postcheck_argv_step(r, i);
                        strv_free(s->pending_argv);
                        s->pending_argv = NULL;
                }
        }
}

static void do_mounts(struct run *r, struct json_object *jmounts, int *failures)
{
        const struct plan *pl = r->pl;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *f = &pl->objs[i];
                if (f->kind != OBJ_FS || !f->mountpoint)
                        continue;
                char *target = path_join(r->o->root, f->mountpoint);
                struct json_object *j = json_object_new_object();
                json_object_object_add(j, "device", json_object_new_string(f->dev));
                json_object_object_add(j, "target", json_object_new_string(target));
                char *mi = NULL;
                bool mounted = false;
                if (read_file("/proc/self/mountinfo", &mi, NULL) == 0) {
                        char *needle = xasprintf(" %s ", target);
                        mounted = strstr(mi, needle) != NULL;
                        free(needle);
                }
                free(mi);
                if (mounted) {
                        say(r, "%s is mounted already", target);
                        json_object_object_add(j, "action", json_object_new_string("kept"));
                } else {
                        char *dir = xasprintf("%s/", target);
                        (void)mkdir_parents(dir, 0755);
                        free(dir);
                        char **argv = NULL;
                        strv_push(&argv, "mount");
                        strv_push(&argv, "-t");
                        strv_push(&argv, "xfs");
                        strv_push(&argv, "-o");
                        strv_push(&argv, f->mount_options);
                        strv_pushf(&argv, "UUID=%s", f->uuid);
                        strv_push(&argv, target);
                        log_argv("", argv);
                        int rc = run_argv(argv, NULL);
                        char *j2 = strv_join_shell(argv);
                        json_object_object_add(j, "argv", json_object_new_string(j2));
                        free(j2);
                        strv_free(argv);
                        json_object_object_add(j, "action", json_object_new_string(rc == 0 ? "created" : "failed"));
                        if (rc != 0)
                                (*failures)++;
                }
                json_object_array_add(jmounts, j);
                free(target);
        }
}

static int write_files(struct run *r, struct json_object *jfiles, bool *changed)
{
        static const char *const names[] = {[FILE_UNCHANGED] = "unchanged", [FILE_WRITTEN] = "written",
                                            [FILE_FAILED] = "failed"};
        struct diags d = {0};
        struct file_result *res = NULL;
        size_t n = 0;
        int failures = render_files(r->pl, r->o->root, &d, &res, &n);
        for (size_t i = 0; i < n; i++) {
                struct json_object *j = json_object_new_object();
                json_object_object_add(j, "path", json_object_new_string(res[i].path));
                json_object_object_add(j, "action", json_object_new_string(names[res[i].action]));
                json_object_array_add(jfiles, j);
                *changed |= res[i].action != FILE_UNCHANGED;
        }
        file_results_free(res, n);
        diags_print(&d, stderr);
        diags_free(&d);
        return failures;
}

static bool confirm(const struct run *r)
{
        if (r->o->yes)
                return true;
        if (!isatty(STDIN_FILENO)) {
                fprintf(stderr, "storprov: refusing to write without --yes: standard input is not a terminal\n");
                return false;
        }
        fprintf(stderr, "storprov: apply this plan to the devices above? Type 'yes' to continue: ");
        char line[32];
        if (!fgets(line, sizeof line, stdin))
                return false;
        return !strcmp(strip(line), "yes");
}

static void write_report(struct run *r, struct json_object *jfiles, struct json_object *jmounts, int exit_code)
{
        if (!r->o->report)
                return;
        const struct plan *pl = r->pl;
        struct json_object *root = json_object_new_object();
        json_object_object_add(root, "profile", json_object_new_string(pl->profile_name));
        json_object_object_add(root, "exit_code", json_object_new_int(exit_code));
        json_object_object_add(root, "elapsed_s", json_object_new_double(now_s(r)));
        struct json_object *objs = json_object_new_array();
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                struct json_object *j = json_object_new_object();
                json_object_object_add(j, "id", json_object_new_string(o->id));
                json_object_object_add(j, "kind", json_object_new_string(obj_kind_name(o->kind)));
                if (o->dev)
                        json_object_object_add(j, "device", json_object_new_string(o->dev));
                if (o->uuid)
                        json_object_object_add(j, "uuid", json_object_new_string(o->uuid));
                json_object_object_add(j, "preserve", json_object_new_boolean(o->preserve));
                /* the object's action: that of the step that creates it */
                const char *action = o->preserve ? "verified" : "kept";
                struct json_object *steps = json_object_new_array();
                for (size_t k = 0; k < pl->n_steps; k++) {
                        bool mine = pl->steps[k].obj == i;
                        for (size_t q = 0; !mine && q < pl->steps[k].n_parts; q++)
                                mine = pl->steps[k].parts[q].obj == i;
                        if (!mine)
                                continue;
                        const struct step_state *s = &r->st[k];
                        struct json_object *js = json_object_new_object();
                        json_object_object_add(js, "step", json_object_new_int((int)k + 1));
                        json_object_object_add(js, "kind", json_object_new_string(step_kind_name(pl->steps[k].kind)));
                        json_object_object_add(js, "action", json_object_new_string(outcome_names[s->outcome]));
                        struct json_object *argvs = json_object_new_array();
                        for (size_t q = 0; s->run && s->run[q]; q++)
                                json_object_array_add(argvs, json_object_new_string(s->run[q]));
                        json_object_object_add(js, "argv", argvs);
                        json_object_object_add(js, "elapsed_s", json_object_new_double(s->elapsed));
                        if (s->message)
                                json_object_object_add(js, "message", json_object_new_string(s->message));
                        json_object_array_add(steps, js);
                        if (pl->steps[k].kind != STEP_SYSFS)
                                action = outcome_names[s->outcome];
                }
                json_object_object_add(j, "action", json_object_new_string(action));
                json_object_object_add(j, "steps", steps);
                json_object_array_add(objs, j);
        }
        json_object_object_add(root, "objects", objs);
        struct json_object *sysctls = json_object_new_array();
        for (size_t k = 0; k < pl->n_steps; k++) {
                if (pl->steps[k].kind != STEP_SYSCTL)
                        continue;
                struct json_object *js = json_object_new_object();
                json_object_object_add(js, "key", json_object_new_string(pl->steps[k].attr));
                json_object_object_add(js, "value", json_object_new_string(pl->steps[k].value));
                json_object_object_add(js, "action", json_object_new_string(outcome_names[r->st[k].outcome]));
                json_object_array_add(sysctls, js);
        }
        json_object_object_add(root, "sysctls", sysctls);
        json_object_object_add(root, "files", json_object_get(jfiles));
        json_object_object_add(root, "mounts", json_object_get(jmounts));
        struct json_object *ref = json_object_new_array();
        for (size_t i = 0; r->refusals && r->refusals[i]; i++)
                json_object_array_add(ref, json_object_new_string(r->refusals[i]));
        json_object_object_add(root, "refusals", ref);
        const char *s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                                     JSON_C_TO_STRING_NOSLASHESCAPE);
        int rc = write_file_atomic(r->o->report, s, strlen(s), 0644);
        if (rc < 0)
                fprintf(stderr, "storprov: cannot write report %s: %s\n", r->o->report, strerror(-rc));
        json_object_put(root);
}

int apply_plan(struct plan *pl, const struct sysinfo *si, const struct apply_options *o)
{
        struct run r = {.pl = pl, .si = si, .o = o};
        clock_gettime(CLOCK_MONOTONIC, &r.t0);
        const char *dr = getenv("STORPROV_DEVROOT");
        r.devroot = dr ? dr : "";
        r.st = xcalloc(pl->n_steps ? pl->n_steps : 1, sizeof(*r.st));
        r.os = xcalloc(pl->n_objs ? pl->n_objs : 1, sizeof(*r.os));
        struct json_object *jfiles = json_object_new_array(), *jmounts = json_object_new_array();
        int exit_code = 0;

        /* who may be wiped: the profile's wipe="true" on an object covers what it is made of */
        for (size_t i = 0; i < pl->n_objs; i++)
                r.os[i].wipe_ok = o->wipe_all || pl->objs[i].wipe;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *x = &pl->objs[i];
                if ((x->kind == OBJ_MD || x->kind == OBJ_VG) && x->wipe)
                        for (size_t k = 0; k < x->n_members; k++) {
                                size_t m = x->members[k];
                                r.os[m].wipe_ok = true;
                                if (pl->objs[m].kind == OBJ_PART)
                                        r.os[pl->objs[m].parent].wipe_ok = true;
                        }
        }
        /* ... and what is built from it: a new md made only of devices that may be
         * wiped shows whatever was on them at its data offset (an old array's
         * filesystem); mkfs may overwrite that. Members come first in the plan. */
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *x = &pl->objs[i];
                if (x->kind != OBJ_MD || x->preserve || !x->n_members || r.os[i].wipe_ok)
                        continue;
                bool all = true;
                for (size_t k = 0; k < x->n_members; k++)
                        all &= r.os[x->members[k]].wipe_ok;
                r.os[i].wipe_ok = all;
        }

        /* 1. inspect, read-only */
        say(&r, "inspecting %zu objects before any write", pl->n_objs);
        for (size_t i = 0; i < pl->n_objs; i++)
                if (pl->objs[i].kind == OBJ_DISK)
                        inspect_disk(&r, i);
        for (size_t i = 0; i < pl->n_objs && !r.refusals; i++) {
                if (!pl->objs[i].preserve)
                        continue;
                if (pl->objs[i].kind == OBJ_MD)
                        verify_md(&r, i);
                else if (pl->objs[i].kind == OBJ_VG)
                        verify_vg(&r, i);
        }
        for (size_t i = 0; i < pl->n_objs && !r.refusals; i++)
                if (pl->objs[i].preserve && pl->objs[i].kind == OBJ_FS)
                        verify_fs(&r, i);
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct obj_state *os = &r.os[i];
                if (os->needs_wipe)
                        say(&r, "%s (%s) carries %s: it will be wiped (allowed by %s)", pl->objs[i].id, pl->objs[i].dev,
                            os->found ? os->found : "signatures", o->wipe_all ? "--wipe" : "the profile");
                else if (os->ours)
                        say(&r, "%s (%s) already carries what the plan puts there", pl->objs[i].id, pl->objs[i].dev);
        }
        if (r.refusals) {
                for (size_t i = 0; r.refusals[i]; i++)
                        fprintf(stderr, "storprov: refused: %s\n", r.refusals[i]);
                fprintf(stderr, "storprov: nothing was written\n");
                exit_code = 2;
                goto out;
        }

        if (o->dry_run) {
                char *t = plan_format_text(pl);
                fputs(t, stdout);
                free(t);
                say(&r, "dry run: nothing was written");
                goto out;
        }
        if (!o->yes) {
                char *t = plan_format_text(pl);
                fputs(t, stderr);
                free(t);
        }
        if (!confirm(&r)) {
                exit_code = 2;
                goto out;
        }

        /* 2. the steps */
        execute(&r);
        int failed = 0, changed = 0;
        for (size_t i = 0; i < pl->n_steps; i++) {
                failed += r.st[i].outcome == OUT_FAILED ||
                          (r.st[i].outcome == OUT_SKIPPED && pl->steps[i].kind != STEP_SYSFS &&
                           pl->steps[i].kind != STEP_SYSCTL);
                changed += r.st[i].outcome == OUT_CREATED || r.st[i].outcome == OUT_APPLIED;
        }
        if (failed) {
                say(&r, "%d step%s failed or could not run; config files not written. Fix the cause and run "
                        "storprov apply again: it resumes where it stopped.",
                    failed, failed == 1 ? "" : "s");
                exit_code = 1;
                goto out;
        }

        /* 3. files, 4. mounts */
        bool files_changed = false;
        int ff = write_files(&r, jfiles, &files_changed);
        if (o->mount)
                do_mounts(&r, jmounts, &ff);
        if (ff)
                exit_code = 1;
        else if (!changed && !files_changed)
                say(&r, "nothing to do: every object and file already matches the profile");
        else
                say(&r, "done: %d change%s applied", changed + (files_changed ? 1 : 0),
                    changed + (files_changed ? 1 : 0) == 1 ? "" : "s");
out:
        write_report(&r, jfiles, jmounts, exit_code);
        json_object_put(jfiles);
        json_object_put(jmounts);
        for (size_t i = 0; i < pl->n_steps; i++) {
                strv_free(r.st[i].run);
                free(r.st[i].message);
                strv_free(r.st[i].pending_argv);
        }
        for (size_t i = 0; i < pl->n_objs; i++) {
                free(r.os[i].found);
                free(r.os[i].actual_uuid);
                free(r.os[i].in_use);
        }
        free(r.st);
        free(r.os);
        strv_free(r.refusals);
        return exit_code;
}
