/* SPDX-License-Identifier: GPL-2.0-or-later
 * XFS: stripe geometry checks, log stripe unit, mount options. */
#include "plan/internal.h"
#include "base/sanitize.h"
#include "base/strmap.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const struct {
        const char *opt;
        const char *why;
} rejected_mount_opts[] = {
        {"nobarrier", "removed in Linux 4.19; current kernels fail the mount"},
        {"barrier", "removed in Linux 4.19; current kernels fail the mount"},
        {"delaylog", "removed in Linux 4.0"},
        {"nodelaylog", "removed in Linux 4.0"},
        {"ihashsize", "removed in Linux 4.0"},
        {"irixsgid", "removed in Linux 4.0"},
        {"osyncisdsync", "removed in Linux 4.0"},
        {"osyncisosync", "removed in Linux 4.0"},
        {"ikeep", "deprecated, scheduled for removal (Linux 6.18)"},
        {"noikeep", "deprecated, scheduled for removal (Linux 6.18)"},
        {"attr2", "deprecated, scheduled for removal (Linux 6.18)"},
        {"noattr2", "deprecated and always rejected on V5 filesystems"},
        {"sunit", "stripe geometry is stored in the superblock by mkfs; in fstab it breaks when layouts change"},
        {"swidth", "stripe geometry is stored in the superblock by mkfs; in fstab it breaks when layouts change"},
};

static char *expand_template(const char *t, unsigned index)
{
        if (!t)
                return NULL;
        struct sbuf b = {0};
        for (const char *s = t; *s; s++) {
                if (s[0] == '%' && s[1] == 'n') {
                        sbuf_printf(&b, "%u", index);
                        s++;
                } else
                        sbuf_printf(&b, "%c", *s);
        }
        return sbuf_steal(&b);
}

/* Builds the mount options: the profile's, checked, plus logbufs, logbsize
 * and swalloc where the geometry calls for them. */
static char *fs_mount_options(struct ctx *c, const struct p_xfs *f, const char *what, struct pl_obj *fs)
{
        char **opts = strv_split(f->mount_options, ",");
        char **out = NULL;
        bool has_logbufs = false, has_logbsize = false, has_swalloc = false;
        char a[32], b[32];
        for (size_t i = 0; opts && opts[i]; i++) {
                char *key = xstrdup(opts[i]);
                char *eq = strchr(key, '=');
                const char *val = eq ? eq + 1 : NULL;
                if (eq)
                        *eq = 0;
                bool bad = false;
                for (size_t k = 0; k < ELEMENTSOF(rejected_mount_opts); k++)
                        if (strcmp(key, rejected_mount_opts[k].opt) == 0) {
                                plan_err(c, f->line, what, RULE_MOUNT_OPTION, "mount option \"%s\": %s", opts[i],
                                    rejected_mount_opts[k].why);
                                bad = true;
                        }
                if (!strcmp(key, "logbufs")) {
                        uint64_t v = 0;
                        has_logbufs = true;
                        if (!val || parse_u64(val, &v) < 0 || v < 2 || v > 8) {
                                plan_err(c, f->line, what, RULE_MOUNT_OPTION, "logbufs=%s: the kernel accepts 2 to 8",
                                    val ? val : "");
                                bad = true;
                        }
                }
                if (!strcmp(key, "logbsize")) {
                        uint64_t v = 0;
                        has_logbsize = true;
                        if (!val || parse_size(val, &v) < 0 || !is_pow2(v) || v < 16 * KiB || v > 256 * KiB) {
                                plan_err(c, f->line, what, RULE_MOUNT_OPTION,
                                    "logbsize=%s: must be a power of 2 from 16k to 256k", val ? val : "");
                                bad = true;
                        } else if (v < fs->fs.log_su_bytes) {
                                plan_err(c, f->line, what, RULE_LOGBSIZE,
                                    "logbsize=%s is smaller than the log stripe unit %s; the mount would fail "
                                    "(\"logbuf size must be greater than or equal to log stripe size\")",
                                    val, fmt_size_exact(fs->fs.log_su_bytes, a));
                                bad = true;
                        }
                }
                if (!strcmp(key, "swalloc")) {
                        has_swalloc = true;
                        if (f->swalloc == 0) {
                                plan_err(c, f->line, what, RULE_SWALLOC,
                                    "mount option \"swalloc\" with swalloc=\"false\": choose one");
                                bad = true;
                        }
                }
                if (!bad)
                        strv_push(&out, opts[i]);
                free(key);
        }
        strv_free(opts);
        if (!has_logbufs)
                strv_push(&out, "logbufs=8");
        if (!has_logbsize)
                strv_pushf(&out, "logbsize=%s", fmt_size_exact(xfs_logbsize_bytes(fs->fs.log_su_bytes), b));
        /* swalloc: on parity stripes unless the profile says swalloc="false";
         * swalloc="true" on any stripe */
        if (!has_swalloc && fs->geom.su_bytes && (f->swalloc == 1 || (f->swalloc < 0 && fs->geom.parity)))
                strv_push(&out, "swalloc");
        char *r = strv_join(out, ",");
        strv_free(out);
        return r;
}

static void check_mkfs_options(struct ctx *c, const struct p_xfs *f, const char *what, char **extra)
{
        /* geometry is derived; a hand-written su/sw would fight it */
        const char *section = "";
        for (size_t i = 0; extra && extra[i]; i++) {
                const char *s = extra[i];
                if (s[0] == '-') {
                        section = s;
                        if (!strcmp(s, "-N"))
                                plan_err(c, f->line, what, RULE_MKFS_OPTION,
                                         "-N (dry run) in mkfs-options would make nothing");
                        continue;
                }
                if (strcmp(section, "-d") && strcmp(section, "-l"))
                        continue;
                char **kv = strv_split(s, ",");
                for (size_t k = 0; kv && kv[k]; k++)
                        if (startswith(kv[k], "su=") || startswith(kv[k], "sw=") || startswith(kv[k], "sunit=") ||
                            startswith(kv[k], "swidth=") || !strcmp(kv[k], "noalign"))
                                plan_err(c, f->line, what, RULE_MKFS_STRIPE,
                                    "mkfs-options \"%s %s\": stripe geometry is derived from the RAID layout; remove it "
                                    "(and describe the hardware with <hwraid> if it is wrong)",
                                    section, kv[k]);
                strv_free(kv);
        }
}

/* The OS's own mountpoints that every EL install has: a data filesystem
 * mounted on one (or on a directory above one) hides or replaces the running
 * system's files. /usr, /var, /etc and /home count when the target root's
 * fstab has them (render/fstab.c checks those). */
static const char *const os_mountpoints[] = {"/", "/boot", "/boot/efi", NULL};

/* Why disk `name` is a system disk (the running system's use of it, or
 * what declared it an OS disk), or NULL: it is not one. */
static const char *system_disk_why(const struct ctx *c, const char *name)
{
        const struct blockdev *b = sysinfo_find(c->si, name);
        if (!b)
                return NULL;
        size_t i = (size_t)(b - c->si->devs);
        if (c->sys_of && c->sys_of[i] != NO_OBJ)
                return c->pl->sysdisks[c->sys_of[i]].why;
        return b->system_kind ? b->system_use : NULL;
}

/* A mountpoint as the target root sees it: the installer's /mnt/sysimage/opt (or
 * below /sysroot, /mnt/sysroot) is the installed system's /opt. NULL: no such prefix. */
static const char *target_relative(const char *mp)
{
        static const char *const prefixes[] = {"/sysroot", "/mnt/sysimage", "/mnt/sysroot"};
        for (size_t p = 0; p < ELEMENTSOF(prefixes); p++) {
                size_t n = strlen(prefixes[p]);
                if (!strncmp(mp, prefixes[p], n) && mp[n] == '/')
                        return mp + n;
        }
        return NULL;
}

/* The running system's mounts from its own disks (proc/self/mountinfo, as discovery read it):
 * a data filesystem at (or above) one of them, /opt say, hides the node's files at the next
 * boot, as on the fixed list above. */
static void check_live_system_mounts(struct ctx *c, const struct p_xfs *f, const char *what, const char *mp)
{
        for (size_t k = 0; k < c->si->n_mounts; k++) {
                const struct sys_mount *m = &c->si->mounts[k];
                const char *rel = target_relative(m->mountpoint);
                const char *hit = path_covers(mp, m->mountpoint) ? m->mountpoint
                                  : rel && path_covers(mp, rel)  ? rel
                                                                 : NULL;
                const char *disk = NULL, *why = NULL;
                for (size_t d = 0; hit && !why && m->disks && m->disks[d]; d++)
                        why = system_disk_why(c, disk = m->disks[d]);
                if (!why)
                        continue;
                _cleanup_free_ char *shown = comment_dup(m->mountpoint), *shown_hit = comment_dup(hit);
                plan_err(c, f->line, what, RULE_SYSTEM_MOUNTPOINT,
                    "mountpoint %s %s the OS's own %s: the running system mounts %s from %s (line %u of "
                    "%s/proc/self/mountinfo), on the system disk %s (%s); a data filesystem there hides the "
                    "node's files from the next boot on: choose a mountpoint below it (such as %s/data) or "
                    "elsewhere (such as /storage/data%%n), or add system=\"true\" to this <xfs> if it "
                    "deliberately takes over that system mountpoint",
                    mp, strcmp(mp, hit) ? "lies above" : "is", shown_hit, shown, m->device, m->line,
                    c->o->sysroot && strcmp(c->o->sysroot, "/") ? c->o->sysroot : "", disk, why, shown_hit);
                return;
        }
}

void plan_fss(struct ctx *c)
{
        /* keys borrowed from the objects' mountpoints, which do not move when objs is reallocated */
        struct strmap mountpoints = {0};
        for (size_t fi = 0; fi < c->p->n_fss; fi++) {
                const struct p_xfs *f = &c->p->fss[fi];
                char *ref0 = strv_join(f->on, " ");
                char *what = xasprintf("xfs on %s", ref0);
                size_t placeholder = new_obj(c, OBJ_FS, "", 0, "", what, f->line); /* claims targets */
                size_t *tg = NULL;
                size_t n = resolve_blocks(c, f->on, placeholder, "on", f->line, what, &tg);
                char **extra = strv_split(f->mkfs_options, " \t");
                check_mkfs_options(c, f, what, extra);
                if (n > 1 && f->mountpoint && !strstr(f->mountpoint, "%n"))
                        plan_err(c, f->line, what, RULE_TEMPLATE,
                            "on=\"%s\" names %zu devices; the mountpoint needs %%n (the disk's number) to stay unique",
                            ref0, n);
                if (n > 1 && f->label && !strstr(f->label, "%n"))
                        plan_err(c, f->line, what, RULE_TEMPLATE,
                            "on=\"%s\" names %zu devices; the label needs %%n (the disk's number) to stay unique", ref0, n);

                for (size_t k = 0; k < n; k++) {
                        size_t oi = k == 0 ? placeholder : new_obj(c, OBJ_FS, "", 0, "", what, f->line);
                        struct pl_obj *t = OBJ(c, tg[k]);
                        unsigned index = t->index ? t->index : (unsigned)k + 1;
                        t->used_by = oi;
                        struct pl_obj *o = OBJ(c, oi);
                        o->parent = tg[k];
                        o->dev = xstrdup(t->dev);
                        o->geom = t->geom;
                        o->geom_src = t->geom_src;
                        o->geom_why = xstrdup(t->geom_why);
                        o->physical_sector_bytes = t->physical_sector_bytes;
                        o->fs.label = expand_template(f->label, index);
                        o->fs.mountpoint = expand_template(f->mountpoint, index);
                        o->fs.mkfs_extra = strv_copy(extra);
                        o->preserve = f->preserve;
                        free(o->id);
                        o->id = xasprintf("fs:%s", o->fs.mountpoint ? o->fs.mountpoint : o->fs.label ? o->fs.label : t->id);
                        free(o->ref);
                        o->ref = xstrdup(o->id);
                        if (t->preserve && !f->preserve)
                                plan_err(c, f->line, what, RULE_PRESERVE,
                                    "%s is preserved, so the filesystem on it must be preserve=\"true\" too", t->id);
                        if (f->preserve && !t->preserve && t->kind != OBJ_LV)
                                plan_err(c, f->line, what, RULE_PRESERVE,
                                    "the filesystem is preserved but %s under it is not; mark it preserve=\"true\"", t->id);
                        if (o->fs.label && strlen(o->fs.label) > 12)
                                plan_err(c, f->line, what, RULE_LABEL,
                                         "label \"%s\" is longer than XFS's 12 characters", o->fs.label);

                        char *e = NULL;
                        if (xfs_validate_stripe(o->geom.su_bytes, o->geom.sw, o->physical_sector_bytes, &e) < 0) {
                                plan_err(c, f->line, what, RULE_MKFS_STRIPE, "%s (from %s)", e, t->id);
                                free(e);
                                o->geom = (struct stripe_geom){0};
                        }
                        o->fs.log_su_bytes = xfs_log_su_bytes(&o->geom, f->log_stripe_unit);
                        char sz[32];
                        if (t->size_bytes && t->size_bytes < 300 * 1000 * 1000)
                                plan_err(c, f->line, what, RULE_XFS_SIZE,
                                    "%s (%s) holds about %s; mkfs.xfs needs a data section of at least 300 MB", t->id,
                                    t->dev, fmt_size_human(t->size_bytes, sz));
                        o->fs.mount_options = fs_mount_options(c, f, what, o);
                        o->fs.nofail = !f->boot_critical;
                        o->fs.system = f->system;
                        const char *os = NULL;
                        for (size_t m = 0; o->fs.mountpoint && !os && os_mountpoints[m]; m++)
                                if (path_covers(o->fs.mountpoint, os_mountpoints[m]))
                                        os = os_mountpoints[m];
                        if (os && !f->system)
                                plan_err(c, f->line, what, RULE_SYSTEM_MOUNTPOINT,
                                    "mountpoint %s %s the OS's own %s; a data filesystem there hides the running "
                                    "system's files: choose a mountpoint outside /, /boot, /boot/efi, /usr, /var, "
                                    "/etc and /home (such as /storage/data%%n), or add system=\"true\" to this "
                                    "<xfs> if it really is an OS filesystem",
                                    o->fs.mountpoint, strcmp(os, o->fs.mountpoint) ? "lies above" : "is", os);
                        else if (o->fs.mountpoint && !f->system)
                                check_live_system_mounts(c, f, what, o->fs.mountpoint);
                        if (o->fs.mountpoint && !strmap_add(&mountpoints, o->fs.mountpoint, oi, NULL))
                                plan_err(c, f->line, what, RULE_MOUNTPOINT, "mountpoint %s is used twice",
                                         o->fs.mountpoint);
                }
                strv_free(extra);
                free(tg);
                free(ref0);
                free(what);
        }
        strmap_free(&mountpoints);
}

