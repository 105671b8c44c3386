/* SPDX-License-Identifier: GPL-2.0-or-later
 * verify: the live node read back with means independent of the ones apply
 * used, step kind by step kind (the .verify operation of the step_ops table
 * in steps.c), plus what no step makes: the mounts (verify_run.c runs them
 * all, checks the generated files and writes the report).
 *   partitions   sysfs start/size of each partition
 *   md           sysfs md/ level, raid_disks, chunk_size, bitmap, members;
 *                mdadm --detail for the uuid
 *   PV, VG       lvm pvs pe_start, vgs extent size and PV count
 *   LV           the device-mapper table through libdevmapper
 *   XFS          XFS_IOC_FSGEOMETRY on the mounted filesystem, else the
 *                superblock; /proc/mounts options; the fstab line
 *   tuning       the sysfs attributes and /proc/sys values
 *   files        every file under --root against what render writes now
 * With a captured --sysroot only what the tree holds (sysfs, proc) is read;
 * device-level checks are reported as not checked. */
#include "apply/internal.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/dmtable.h"
#include "sys/exec.h"
#include "sys/mounttab.h"
#include "base/strmap.h"
#include "render/render.h"
#include "sys/xfs_sb.h"

void vcheck(struct run *r, const char *object, const char *kind, const char *what, enum vstatus st,
            const char *expected, const char *found)
{
        if (!(r->n_vc & (r->n_vc - 1)))
                r->vc = xrealloc(r->vc, (r->n_vc ? 2 * r->n_vc : 1) * sizeof(*r->vc));
        r->vc[r->n_vc++] = (struct vcheck){
                .object = xstrdup(object), .kind = xstrdup(kind), .what = xstrdup(what), .status = st,
                .expected = xstrdup(expected), .found = xstrdup(found),
        };
}

/* expected against found: ok when equal, missing when found is NULL */
static void vcompare(struct run *r, const struct pl_obj *o, const char *what, const char *expected, const char *found)
{
        vcheck(r, o->id, obj_kind_name(o->kind), what, !found ? V_MISSING : streq_ptr(expected, found) ? V_OK : V_DRIFT,
               expected, found);
}

static void vcompare_u64(struct run *r, const struct pl_obj *o, const char *what, uint64_t expected, const char *found)
{
        char e[32];
        snprintf(e, sizeof e, "%" PRIu64, expected);
        uint64_t f;
        if (found && parse_u64(found, &f) == 0 && f == expected)
                vcompare(r, o, what, e, e);
        else
                vcompare(r, o, what, e, found);
}

/* The "found" of a check whose command ran past the limit (static: vcheck copies it). */
static const char *timed_out(const char *cmd)
{
        static char buf[160];
        snprintf(buf, sizeof buf, "%s did not answer in %u s and was killed (--command-timeout): a device it "
                                  "waits on may be gone",
                 cmd, exec_command_limit() / 1000);
        return buf;
}

bool verify_live(const struct run *r)
{
        return !strcmp(r->dev.sysroot, "/") && !devices_fake(&r->dev);
}

/* SYSFS/attr of an object: on a live node through its device number; in a
 * captured tree through the discovered device of the same identity. */
static char *vsysfs(const struct run *r, const struct pl_obj *o, const char *attr)
{
        if (verify_live(r))
                return dev_sysfs_attr(&r->dev, o, attr);
        const char *kname = NULL;
        _cleanup_free_ char *sub = NULL;
        const struct sysinfo *si = r->si;
        if (o->kind == OBJ_DISK && o->disk.bd)
                kname = o->disk.bd->name;
        else if (o->kind == OBJ_PART && o->parent != NO_OBJ && r->pl->objs[o->parent].disk.bd) {
                kname = r->pl->objs[o->parent].disk.bd->name;
                sub = xstrdup(kname_of(o->dev));
        } else if (o->kind == OBJ_PART && o->parent != NO_OBJ && r->pl->objs[o->parent].kind == OBJ_MD) {
                /* an md's partition: md127p1 under the array of that name */
                for (size_t k = 0; k < si->n_devs && !kname; k++)
                        if (streq_ptr(si->devs[k].md_devname, r->pl->objs[o->parent].md.name)) {
                                kname = si->devs[k].name;
                                sub = xasprintf("%sp%u", kname, o->part.number);
                        }
        } else
                for (size_t k = 0; k < si->n_devs && !kname; k++) {
                        const struct blockdev *b = &si->devs[k];
                        if ((o->kind == OBJ_MD && streq_ptr(b->md_devname, o->md.name)) ||
                            (o->kind == OBJ_LV && streq_ptr(b->dm_lv_name, o->lv.name) &&
                             streq_ptr(b->dm_vg_name, r->pl->objs[o->parent].vg.name)))
                                kname = b->name;
                }
        if (!kname)
                return NULL;
        return xasprintf("%s/sys/block/%s%s%s/%s", strcmp(si->sysroot, "/") ? si->sysroot : "", kname, sub ? "/" : "",
                         sub ? sub : "", attr);
}

static char *vattr(const struct run *r, const struct pl_obj *o, const char *attr)
{
        _cleanup_free_ char *p = vsysfs(r, o, attr);
        return p ? read_line_file(p) : NULL;
}

static char *dev_sysfs_attr_read(const struct run *r, const struct pl_obj *o, const char *attr)
{
        _cleanup_free_ char *p = dev_sysfs_attr(&r->dev, o, attr);
        return p ? read_line_file(p) : NULL;
}

/* ---- partitions ---------------------------------------------------------------- */

void vfy_gpt(struct run *r, size_t si)
{
        const struct pl_step *s = &r->pl->steps[si];
        const struct pl_obj *d = &r->pl->objs[s->obj];
        uint64_t per = d->sector_bytes / SECTOR_BYTES;   /* sysfs counts 512-byte sectors */
        for (size_t k = 0; k < s->n_parts; k++) {
                const struct pl_part *p = &s->parts[k];
                const struct pl_obj *po = &r->pl->objs[p->obj];
                _cleanup_free_ char *start = vattr(r, po, "start");
                _cleanup_free_ char *size = vattr(r, po, "size");
                _cleanup_free_ char *w1 = xasprintf("%s start (512-byte sectors, aligned to %" PRIu64 " bytes)",
                                                    kname_of(po->dev), d->align_bytes);
                _cleanup_free_ char *w2 = xasprintf("%s size (512-byte sectors)", kname_of(po->dev));
                vcompare_u64(r, po, w1, p->first_sector * per, start);
                if (start)
                        vcompare_u64(r, po, w2, (p->last_sector - p->first_sector + 1) * per, size);
        }
}

/* ---- md --------------------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The kernel name of a plan device path (/dev/md/data → md127), live. */
static char *live_kname(const char *path)
{
        char buf[PATH_MAX];
        if (!realpath(path, buf))
                return xstrdup(kname_of(path));
        return xstrdup(kname_of(buf));
}


/* The scheduler reads back as "none [mq-deadline] kyber": the active one, NULL if none is bracketed. */
static char *active_word(const char *cur)
{
        const char *o = cur ? strchr(cur, '[') : NULL;
        return o ? strndup(o + 1, strcspn(o + 1, "]")) : NULL;
}

/* A member of md that the plan does not know (a drive mdadm --add put in a
 * member's place): it must carry the members' tuning, which the membership
 * rules of the udev rules file give it (render_md_member_tune), read from its
 * disk's queue (a partition's disk). Checks of md, one per attribute. */
static void verify_joined_member(struct run *r, const struct pl_obj *md, const char *kname)
{
        const char *vals[_TUNE_MAX];
        render_md_member_tune(r->pl, md, vals);
        const char *disk = NULL;
        for (size_t k = 0; k < r->si->n_devs && !disk; k++) {
                const struct blockdev *b = &r->si->devs[k];
                if (!strcmp(b->name, kname) || strv_contains(b->parts, kname))
                        disk = b->name;
        }
        for (int a = 0; a < _TUNE_MAX; a++) {
                if (!vals[a])
                        continue;
                _cleanup_free_ char *what =
                        disk && strcmp(disk, kname)
                                ? xasprintf("%s (joined, not in the plan): its disk %s %s", kname, disk, tune_defs[a].sysfs)
                                : xasprintf("%s (joined, not in the plan) %s", kname, tune_defs[a].sysfs);
                if (!disk) {
                        vcheck(r, md->id, "md", what, V_UNCHECKED, vals[a], "not a disk or partition of one");
                        continue;
                }
                _cleanup_free_ char *p = xasprintf("%s/sys/block/%s/%s", strcmp(r->si->sysroot, "/") ? r->si->sysroot : "",
                                                   disk, tune_defs[a].sysfs);
                _cleanup_free_ char *cur = read_line_file(p);
                _cleanup_free_ char *shown = a == TUNE_SCHEDULER ? active_word(cur) : NULL;
                vcheck(r, md->id, "md", what,
                       !cur ? V_MISSING : tune_value_same(STEP_SYSFS, (enum tune_attr)a, cur, vals[a]) ? V_OK : V_DRIFT,
                       vals[a], shown ? shown : cur);
        }
}

void vfy_md(struct run *r, size_t si)
{
        verify_md_obj(r, &r->pl->objs[r->pl->steps[si].obj]);
}

void verify_md_obj(struct run *r, const struct pl_obj *o)
{
        _cleanup_free_ char *level = vattr(r, o, "md/level");
        if (!level) {
                vcheck(r, o->id, "md", "array", V_MISSING, o->dev, NULL);
                return;
        }
        vcompare(r, o, "md/level", raid_level_name(o->md.level), level);
        _cleanup_free_ char *nd = vattr(r, o, "md/raid_disks");
        vcompare_u64(r, o, "md/raid_disks", o->md.n_members - o->md.spares, nd);
        if (o->md.level != RAID_1) {
                _cleanup_free_ char *ch = vattr(r, o, "md/chunk_size");
                vcompare_u64(r, o, "md/chunk_size (bytes)", o->md.chunk_bytes, ch);
        }
        if (o->md.level != RAID_0) {
                _cleanup_free_ char *loc = vattr(r, o, "md/bitmap/location");
                const char *found = !loc ? "none" : !strcmp(loc, "none") ? "none" : "internal";
                vcompare(r, o, "bitmap (md/bitmap/location)", strcmp(o->md.bitmap, "none") ? "internal" : "none", found);
        }
        /* members: md/dev-X/block points at each member's sysfs directory */
        _cleanup_free_ char *mdir = vsysfs(r, o, "md");
        char **want = NULL, **have = NULL;
        for (size_t k = 0; k < o->md.n_members; k++) {
                const struct pl_obj *m = &r->pl->objs[o->md.members[k]];
                if (verify_live(r)) {
                        _cleanup_free_ char *dp = dev_path(&r->dev, m->dev);
                        _cleanup_free_ char *kn = live_kname(dp);
                        strv_push(&want, kn);
                } else
                        strv_push(&want, kname_of(m->dev));
        }
        if (mdir) {
                DIR *dd = opendir(mdir);
                for (struct dirent *e; dd && (e = readdir(dd));)
                        if (startswith(e->d_name, "dev-"))
                                strv_push(&have, e->d_name + 4);
                if (dd)
                        closedir(dd);
                /* where the data starts on each member (md/dev-X/offset, sectors), when the
                 * plan chose it to start on a whole member stripe */
                for (size_t k = 0; o->md.data_offset_bytes && have && have[k]; k++) {
                        _cleanup_free_ char *p = xasprintf("%s/dev-%s/offset", mdir, have[k]);
                        _cleanup_free_ char *off = read_line_file(p);
                        _cleanup_free_ char *what = xasprintf("data offset of %s (md/dev-%s/offset, sectors)",
                                                              have[k], have[k]);
                        vcompare_u64(r, o, what, o->md.data_offset_bytes / SECTOR_BYTES, off);
                }
        }
        size_t nw = strv_len(want), nh = strv_len(have);
        if (nw)
                qsort(want, nw, sizeof(char *), cmp_str);
        if (nh)
                qsort(have, nh, sizeof(char *), cmp_str);
        _cleanup_free_ char *w = strv_join(want, " "), *h = strv_join(have, " ");
        /* A member the plan does not know is a drive that took a member's place (mdadm --add): the
         * array's as much as the others, so with as many members as planned the set is as planned. */
        char **joined = NULL;
        for (size_t k = 0; k < nh; k++)
                if (!strv_contains(want, have[k]))
                        strv_push(&joined, have[k]);
        if (joined && nh == nw) {
                _cleanup_free_ char *j = strv_join(joined, " ");
                _cleanup_free_ char *f = xasprintf("%s (%s joined it, not in the plan: counted as the array's)", h, j);
                vcheck(r, o->id, "md", "members (md/dev-*)", V_OK, w, f);
        } else
                vcompare(r, o, "members (md/dev-*)", w, h);
        /* verify only: apply's dry run asks whether the steps that make the array are done, and no step
         * of apply tunes a drive the plan does not know (the membership rules do) */
        for (size_t k = 0; !r->st && joined && joined[k]; k++)
                verify_joined_member(r, o, joined[k]);
        strv_free(joined);
        strv_free(want);
        strv_free(have);
        if (!verify_live(r)) {
                vcheck(r, o->id, "md", "uuid (mdadm --detail)", V_UNCHECKED, o->md.uuid.planned, NULL);
                return;
        }
        _cleanup_free_ char *dp = dev_path(&r->dev, o->dev);
        char **argv = md_detail_argv(dp);
        char *out = NULL;
        _cleanup_free_ char *uuid = NULL;
        int rc = run_argv(argv, &out);
        if (rc == 0 && out) {
                char *u = strstr(out, "MD_UUID=");
                if (u)
                        uuid = strndup(u + 8, strcspn(u + 8, "\n"));
        }
        free(out);
        strv_free(argv);
        const char *want_uuid = ident_get(&o->md.uuid);
        if (rc == -ETIME) {
                vcheck(r, o->id, "md", "uuid (mdadm --detail)", V_UNCHECKED, want_uuid, timed_out("mdadm --detail"));
                return;
        }
        vcompare(r, o, "uuid (mdadm --detail)", want_uuid, uuid && uuid_eq(uuid, want_uuid) ? want_uuid : uuid);
}

/* ---- LVM ------------------------------------------------------------------------ */

void vfy_pv(struct run *r, size_t si)
{
        const struct pl_obj *o = &r->pl->objs[r->pl->steps[si].obj];
        static const struct pl_obj none = {.kind = OBJ_DISK};
        const struct pl_obj *vg = o->used_by != NO_OBJ ? &r->pl->objs[o->used_by] : &none;
        if (!verify_live(r)) {
                vcheck(r, o->id, "pv", "pe_start (lvm pvs)", V_UNCHECKED, NULL, NULL);
                return;
        }
        _cleanup_free_ char *dp = dev_path(&r->dev, o->dev);
        int rc = 0;
        char **l = lvm_query(r, "pvs", "pe_start,vg_name", dp, &rc);
        if (!l) {
                vcheck(r, o->id, "pv", "PV label (lvm pvs)", rc == -ETIME ? V_UNCHECKED : V_MISSING, o->dev,
                       rc == -ETIME ? timed_out("lvm pvs") : NULL);
                return;
        }
        char **f = strv_split(l[0], "|");
        uint64_t pe = 0;
        bool ok = strv_len(f) >= 1 && parse_u64(strip(f[0]), &pe) == 0;
        char e[64];
        uint64_t align = vg->kind == OBJ_VG ? vg->vg.pv_align_bytes : 0;
        snprintf(e, sizeof e, "a multiple of %" PRIu64 " bytes", align);
        if (!align)
                snprintf(e, sizeof e, "any");
        vcheck(r, o->id, "pv", "pe_start (bytes, lvm pvs)", ok && (!align || pe % align == 0) ? V_OK : V_DRIFT, e,
               f && f[0] ? strip(f[0]) : "?");
        if (vg->kind == OBJ_VG)
                vcompare(r, o, "VG (lvm pvs)", vg->vg.name, strv_len(f) >= 2 ? strip(f[1]) : "");
        strv_free(f);
        strv_free(l);
}

void vfy_vg(struct run *r, size_t si)
{
        const struct pl_obj *o = &r->pl->objs[r->pl->steps[si].obj];
        if (!verify_live(r)) {
                vcheck(r, o->id, "vg", "extent size (lvm vgs)", V_UNCHECKED, NULL, NULL);
                return;
        }
        int rc = 0;
        char **l = lvm_query(r, "vgs", "vg_extent_size,pv_count", o->vg.name, &rc);
        if (!l) {
                vcheck(r, o->id, "vg", "VG (lvm vgs)", rc == -ETIME ? V_UNCHECKED : V_MISSING, o->vg.name,
                       rc == -ETIME ? timed_out("lvm vgs") : NULL);
                return;
        }
        char **f = strv_split(l[0], "|");
        vcompare_u64(r, o, "extent size (bytes, lvm vgs)", o->vg.extent_bytes, strv_len(f) >= 1 ? strip(f[0]) : NULL);
        vcompare_u64(r, o, "PV count (lvm vgs)", o->vg.n_pvs, strv_len(f) >= 2 ? strip(f[1]) : NULL);
        strv_free(f);
        strv_free(l);
}

void vfy_lv(struct run *r, size_t si)
{
        const struct pl_obj *o = &r->pl->objs[r->pl->steps[si].obj];
        const struct pl_obj *vg = &r->pl->objs[o->parent];
        _cleanup_free_ char *name = dm_name(vg->vg.name, o->lv.name);
        if (!verify_live(r)) {
                vcheck(r, o->id, "lv", "dm table (libdevmapper)", V_UNCHECKED, NULL, NULL);
                return;
        }
        struct dm_segment *seg = NULL;
        size_t n = 0;
        char *err = NULL;
        if (dm_table_read(name, &seg, &n, &err) < 0) {
                vcheck(r, o->id, "lv", "dm table (libdevmapper)", V_MISSING, name, err);
                free(err);
                return;
        }
        unsigned want = o->lv.stripes >= 2 ? o->lv.stripes : 1;
        uint64_t chunk = want > 1 ? o->lv.stripe_bytes / SECTOR_BYTES : 0, align = vg->geom.full_stripe_bytes / SECTOR_BYTES;
        _cleanup_free_ char *e = xasprintf("%s, %u stripe%s, chunk %" PRIu64 " sectors", want > 1 ? "striped" : "linear",
                                           want, want == 1 ? "" : "s", chunk);
        for (size_t k = 0; k < n; k++) {
                _cleanup_free_ char *f = xasprintf("%s, %u stripe%s, chunk %" PRIu64 " sectors", seg[k].type,
                                                   seg[k].stripes, seg[k].stripes == 1 ? "" : "s", seg[k].chunk_sectors);
                _cleanup_free_ char *w = xasprintf("dm table segment %zu (libdevmapper)", k);
                vcompare(r, o, w, e, f);
                for (unsigned q = 0; align && q < seg[k].stripes; q++) {
                        _cleanup_free_ char *w2 = xasprintf("segment %zu data on %s: start on a %" PRIu64 "-sector boundary",
                                                            k, seg[k].devices[q], align);
                        _cleanup_free_ char *f2 = xasprintf("sector %" PRIu64, seg[k].offsets[q]);
                        vcheck(r, o->id, "lv", w2, seg[k].offsets[q] % align ? V_DRIFT : V_OK, "a multiple", f2);
                }
        }
        dm_segments_free(seg, n);
}

/* ---- XFS and its mount ---------------------------------------------------------- */

/* /proc/mounts and the fstab under --root (sys/mounttab.h, libmount), each read once per verify
 * run and looked up by mountpoint (thousands of filesystems stay linear). A line that cannot be
 * read is left out, as if it were not there (the check then finds no mount or no fstab line). */
static struct {
        struct mount_entry *m;
        size_t n;
        struct strmap by_target;
        struct mount_entry *fstab;
        size_t n_fstab;
        struct strmap fstab_by_target;
        bool loaded;
} vcache;

static void vcache_load(const struct run *r)
{
        if (vcache.loaded)
                return;
        vcache.loaded = true;
        char **errors = NULL;
        (void)mounttab_read_mounts(r->si->sysroot, &vcache.m, &vcache.n, &errors);
        strv_free(errors);
        /* the last mount on a target is the visible one, the last fstab line the one that counts:
         * added from the end, the first added wins */
        for (size_t i = vcache.n; i-- > 0;)
                (void)strmap_add(&vcache.by_target, vcache.m[i].mountpoint, i, NULL);
        errors = NULL;
        (void)mounttab_read(MOUNTTAB_FSTAB, r->o->root, r->pl->file_path[FILE_FSTAB], true, &vcache.fstab,
                            &vcache.n_fstab, &errors);
        strv_free(errors);
        for (size_t i = vcache.n_fstab; i-- > 0;)
                (void)strmap_add(&vcache.fstab_by_target, vcache.fstab[i].mountpoint, i, NULL);
}

void vcache_free(void)
{
        mount_entries_free(vcache.m, vcache.n);
        mount_entries_free(vcache.fstab, vcache.n_fstab);
        strmap_free(&vcache.by_target);
        strmap_free(&vcache.fstab_by_target);
        memset(&vcache, 0, sizeof vcache);
}

/* Options only mount(8) or systemd read, never shown in /proc/mounts. */
static bool userspace_option(const char *o)
{
        static const char *const u[] = {"defaults", "nofail", "noauto", "auto", "user", "nouser", "users", "owner",
                                        "_netdev", "group"};
        for (size_t i = 0; i < ELEMENTSOF(u); i++)
                if (!strcmp(o, u[i]))
                        return true;
        return startswith(o, "x-") || startswith(o, "comment=");
}

static void verify_mount(struct run *r, const struct pl_obj *o, const struct mount_entry *m)
{
        /* every planned option the kernel shows must be there, with its value */
        char **want = strv_split(o->fs.mount_options, ","), **have = strv_split(m->options ? m->options : "", ",");
        char **miss = NULL;
        for (size_t i = 0; want && want[i]; i++)
                if (!userspace_option(want[i]) && !strv_contains(have, want[i]))
                        strv_push(&miss, want[i]);
        _cleanup_free_ char *w = xasprintf("%s mounted with %s", o->fs.mountpoint, o->fs.mount_options);
        _cleanup_free_ char *mj = miss ? strv_join(miss, ",") : NULL;
        _cleanup_free_ char *f = miss ? xasprintf("%s (without %s)", m->options, mj) : xstrdup(w);
        vcheck(r, o->id, "xfs", "mount options (/proc/mounts)", miss ? V_DRIFT : V_OK, w, miss ? f : w);
        strv_free(want);
        strv_free(have);
        strv_free(miss);
}

/* The fstab line of the filesystem under --root: UUID= and the planned options. */
static void verify_fstab_line(struct run *r, const struct pl_obj *o)
{
        vcache_load(r);
        _cleanup_free_ char *want = xasprintf("UUID=%s %s xfs %s", obj_uuid(o), o->fs.mountpoint, o->fs.mount_options);
        size_t k = strmap_get(&vcache.fstab_by_target, o->fs.mountpoint);
        const struct mount_entry *e = k == (size_t)-1 ? NULL : &vcache.fstab[k];
        /* no options field: mount(8) takes the defaults */
        _cleanup_free_ char *found = e ? xasprintf("%s %s %s %s", e->source, e->mountpoint, e->fstype,
                                                   e->options ? e->options : "defaults")
                                       : NULL;
        vcompare(r, o, "fstab entry", want, found);
}


void vfy_xfs(struct run *r, size_t si)
{
        verify_xfs_obj(r, &r->pl->objs[r->pl->steps[si].obj]);
}

void verify_xfs_obj(struct run *r, const struct pl_obj *o)
{
        vcache_load(r);
        const struct mount_entry *mine = NULL;
        if (o->fs.mountpoint) {
                /* mounted under --root (an installer's /mnt/sysimage) or where it will live */
                _cleanup_free_ char *rooted = path_join(r->o->root, o->fs.mountpoint);
                size_t k = strmap_get(&vcache.by_target, rooted);
                if (k == (size_t)-1)
                        k = strmap_get(&vcache.by_target, o->fs.mountpoint);
                mine = k == (size_t)-1 ? NULL : &vcache.m[k];
        }
        struct xfs_sb_info sb;
        int rc = -ENOENT;
        const char *how = NULL;
        if (mine && verify_live(r)) {
                rc = xfs_geom_ioctl(mine->mountpoint, &sb);
                how = "XFS_IOC_FSGEOMETRY";
        } else if (verify_live(r) || devices_fake(&r->dev)) {
                _cleanup_free_ char *dp = dev_path(&r->dev, o->dev);
                rc = xfs_sb_read(dp, &sb);
                how = "superblock";
        }
        if (!how)
                vcheck(r, o->id, "xfs", "geometry", V_UNCHECKED, NULL, NULL);
        else if (rc < 0) {
                _cleanup_free_ char *w = xasprintf("XFS (%s)", how);
                vcheck(r, o->id, "xfs", w, V_MISSING, o->dev, strerror(-rc));
        } else {
                _cleanup_free_ char *w1 = xasprintf("uuid (%s)", how);
                const char *u = obj_uuid(o);
                vcompare(r, o, w1, u, uuid_eq(u, sb.uuid) ? u : sb.uuid);
                _cleanup_free_ char *w2 = xasprintf("sunit/swidth (bytes, %s)", how);
                _cleanup_free_ char *e = xasprintf("%" PRIu64 "/%" PRIu64, o->geom.su_bytes, o->geom.full_stripe_bytes);
                _cleanup_free_ char *f = xasprintf("%" PRIu64 "/%" PRIu64, (uint64_t)sb.sunit_blocks * sb.block_bytes,
                                                   (uint64_t)sb.swidth_blocks * sb.block_bytes);
                vcompare(r, o, w2, e, f);
        }
        if (o->fs.mountpoint) {
                if (mine)
                        verify_mount(r, o, mine);
                else
                        vcheck(r, o->id, "xfs", "mount options (/proc/mounts)", V_MISSING, o->fs.mountpoint, NULL);
                verify_fstab_line(r, o);
        }
}

/* ---- tuning --------------------------------------------------------------------- */

void vfy_sysfs(struct run *r, size_t si)
{
        const struct pl_step *s = &r->pl->steps[si];
        const struct pl_obj *o = &r->pl->objs[s->obj];
        _cleanup_free_ char *pp = s->path_kname ? xasprintf("%s/sys/block/%s/%s", strcmp(r->si->sysroot, "/") ? r->si->sysroot : "",
                                                            s->path_kname, tune_defs[s->attr].sysfs)
                                                : NULL;
        _cleanup_free_ char *cur = pp ? read_line_file(pp) : vattr(r, o, tune_defs[s->attr].sysfs);
        _cleanup_free_ char *shown = s->attr == TUNE_SCHEDULER ? active_word(cur) : NULL;
        _cleanup_free_ char *what = s->path_kname ? xasprintf("%s (path) %s", s->path_kname, tune_defs[s->attr].sysfs)
                                                  : xstrdup(tune_defs[s->attr].sysfs);
        vcheck(r, o->id, obj_kind_name(o->kind), what,
               !cur ? V_MISSING : tune_value_same(s->kind, s->attr, cur, s->value) ? V_OK : V_DRIFT, s->value,
               shown ? shown : cur);
}

/* The map a run made: there, with the multipath uuid (the paths under it are the kernel's business). */
void vfy_mpath(struct run *r, size_t si)
{
        const struct pl_obj *o = &r->pl->objs[r->pl->steps[si].obj];
        _cleanup_free_ char *want = xasprintf("mpath-%s", o->disk.mpath_wwid);
        _cleanup_free_ char *uuid = NULL;
        if (verify_live(r) && dev_exists(&r->dev, o->dev))
                uuid = dev_sysfs_attr_read(r, o, "dm/uuid");
        vcompare(r, o, "dm/uuid", want, uuid);
}

void vfy_sysctl(struct run *r, size_t si)
{
        const struct pl_step *s = &r->pl->steps[si];
        _cleanup_free_ char *rel = xasprintf("proc/sys/%s", s->key);
        for (char *c = rel + 9; *c; c++)
                if (*c == '.')
                        *c = '/';
        _cleanup_free_ char *p = path_join(r->si->sysroot, rel);
        _cleanup_free_ char *cur = read_line_file(p);
        _cleanup_free_ char *w = xasprintf("/%s", rel);
        vcheck(r, s->key, "sysctl", w,
               !cur ? V_MISSING : tune_value_same(s->kind, s->attr, cur, s->value) ? V_OK : V_DRIFT, s->value, cur);
}
