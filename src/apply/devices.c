/* SPDX-License-Identifier: GPL-2.0-or-later
 * Where the plan's device paths are. This is the only file that knows the
 * test device root (STORPROV_DEVROOT): there, every /dev path of the plan
 * is a plain file under that directory, so that fake mdadm/lvm/mkfs
 * executables and sparse images can stand in for devices without root, and
 * nothing that needs a kernel (sysfs of md/dm, device nodes) exists. */
#include "apply/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

void devices_init(struct devices *d, const char *sysroot)
{
        const char *dr = getenv("STORPROV_DEVROOT");
        d->root = dr ? dr : "";
        d->sysroot = sysroot;
}

bool devices_fake(const struct devices *d)
{
        return *d->root != 0;
}

char *dev_path(const struct devices *d, const char *plan_path)
{
        return xasprintf("%s%s", d->root, plan_path);
}

const char *kname_of(const char *plan_path)
{
        const char *s = strrchr(plan_path, '/');
        return s ? s + 1 : plan_path;
}

char *part_kname(const struct devices *d, const struct plan *pl, size_t pi)
{
        const struct pl_obj *q = &pl->objs[pi];
        const struct pl_obj *par = q->parent != NO_OBJ ? &pl->objs[q->parent] : NULL;
        if (!par || par->kind != OBJ_MD || devices_fake(d))
                return xstrdup(kname_of(q->dev));
        _cleanup_free_ char *p = dev_path(d, par->dev);
        char buf[PATH_MAX];
        if (!realpath(p, buf))
                return xstrdup(kname_of(q->dev));
        return xasprintf("%sp%u", kname_of(buf), q->part.number);
}

bool dev_exists(const struct devices *d, const char *plan_path)
{
        _cleanup_free_ char *p = dev_path(d, plan_path);
        struct stat st;
        if (stat(p, &st) < 0)
                return false;
        return devices_fake(d) ? true : S_ISBLK(st.st_mode);
}

/* The kernel made the device but no udev made its node (an initramfs without
 * udev): make it from sysfs. */
static void mknod_from_sysfs(struct run *r, const char *path, const char *kname)
{
        _cleanup_free_ char *devf = xasprintf("/sys/class/block/%s/dev", kname);
        _cleanup_free_ char *v = read_line_file(devf);
        unsigned ma, mi;
        if (v && sscanf(v, "%u:%u", &ma, &mi) == 2) {
                (void)mkdir_parents(path, 0755);
                if (mknod(path, S_IFBLK | 0660, makedev(ma, mi)) == 0)
                        run_say(r, "created %s (%u:%u): no udev made it", path, ma, mi);
        }
}

int dev_wait(struct run *r, const char *plan_path, const char *kname, int timeout_ms)
{
        const struct devices *d = &r->dev;
        _cleanup_free_ char *p = dev_path(d, plan_path);
        if (devices_fake(d) && kname) {
                /* test devices are files: no kernel makes partitions of them */
                int fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
                if (fd >= 0)
                        close(fd);
        }
        for (int waited = 0; waited <= timeout_ms; waited += 50) {
                if (dev_exists(d, plan_path))
                        return 0;
                if (kname && !devices_fake(d) && waited >= 200)
                        mknod_from_sysfs(r, p, kname);
                usleep(50 * 1000);
        }
        return -ETIMEDOUT;
}

/* SYSFS/ATTR of o's block device: a disk's from the sysroot it was found in
 * (a captured tree in tests), anything else's from its device number. */
char *dev_sysfs_attr(const struct devices *d, const struct pl_obj *o, const char *attr)
{
        char *base = NULL;
        if (o->kind == OBJ_DISK && o->disk.bd && devices_fake(d)) {
                return dev_sysfs_path_attr(d, o->disk.bd->name, attr);
        } else if (!devices_fake(d)) {
                _cleanup_free_ char *p = dev_path(d, o->dev);
                struct stat st;
                if (stat(p, &st) == 0 && S_ISBLK(st.st_mode))
                        base = xasprintf("/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
        }
        if (!base)
                return NULL;
        char *p = xasprintf("%s/%s", base, attr);
        free(base);
        return p;
}

bool dev_has_sysfs(const struct devices *d, const struct pl_obj *o)
{
        /* a multipath map apply makes has no sysfs among test devices */
        return !devices_fake(d) || (o->kind == OBJ_DISK && !o->disk.mpath_create);
}

char *dev_sysfs_path_attr(const struct devices *d, const char *kname, const char *attr)
{
        return xasprintf("%s/sys/block/%s/%s", strcmp(d->sysroot, "/") ? d->sysroot : "", kname, attr);
}

/* /proc/sys path of a sysctl key: "vm.dirty_ratio" -> ROOT/proc/sys/vm/dirty_ratio */
char *dev_sysctl_path(const struct devices *d, const char *key)
{
        char *rel = xasprintf("proc/sys/%s", key);
        for (char *c = rel + 9; *c; c++)
                if (*c == '.')
                        *c = '/';
        char *p = path_join(devices_fake(d) ? d->sysroot : "/", rel);
        free(rel);
        return p;
}

char **dev_argv(const struct devices *d, char *const *argv)
{
        char **out = NULL;
        for (size_t i = 0; argv && argv[i]; i++) {
                if (devices_fake(d) && startswith(argv[i], "/dev/"))
                        strv_pushf(&out, "%s%s", d->root, argv[i]);
                else
                        strv_push(&out, argv[i]);
        }
        return out;
}
