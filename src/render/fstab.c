/* SPDX-License-Identifier: GPL-2.0-or-later
 * fstab: this profile's filesystems, by UUID, in a managed block merged into
 * the target's own fstab (merge.c). A foreign line for a mountpoint or device
 * the profile now manages is commented out; a foreign line the merge would
 * take from the node (its OS's /usr, a mount of a device that is not the
 * plan's) refuses the plan instead. */
#include "render/render.h"
#include "render/merge.h"

#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"

/* Lines of the shape storprov writes in its block: UUID= and xfs. */
static bool fstab_own(char **f, size_t nf)
{
        return nf >= 3 && startswith(f[0], "UUID=") && !strcmp(f[2], "xfs");
}

/* A line for a planned filesystem's mountpoint, or for its UUID, label or device. */
static bool fstab_conflict(const struct plan *pl, char **f, size_t nf)
{
        if (nf < 2)
                return false;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                if (o->kind != OBJ_FS || !o->fs.mountpoint)
                        continue;
                /* "/d1/", "//d1", "/d1/." and "/d\0611" are /d1 to mount(8) and systemd: octal
                 * escapes decoded as libmount does, then canonical; a profile mountpoint needs no escape */
                _cleanup_free_ char *mp = fstab_unescape(f[1]), *dev = fstab_unescape(f[0]);
                _cleanup_free_ char *canon = path_canonical(mp);
                if (!strcmp(canon, o->fs.mountpoint))
                        return true;
                if (obj_uuid(o) && startswith(dev, "UUID=") && !strcasecmp(dev + 5, obj_uuid(o)))
                        return true;
                if (o->fs.label && startswith(dev, "LABEL=") && !strcmp(dev + 6, o->fs.label))
                        return true;
                if (o->dev && !strcmp(dev, o->dev))
                        return true;
        }
        return false;
}

const struct merge_rule fstab_merge_rule = {.conflict = fstab_conflict, .own = fstab_own};

static bool fstab_has_option(const char *opts, const char *opt)
{
        char **v = strv_split(opts, ",");
        bool r = strv_contains(v, opt);
        strv_free(v);
        return r;
}

/* The OS mountpoints the target root's fstab may have (/, /boot and
 * /boot/efi are refused by the planner whatever the root holds). */
static const char *const os_fstab_mountpoints[] = {"/usr", "/var", "/etc", "/home", NULL};

/* Does an fstab device field name one of the plan's own devices: a disk, partition, md or LV
 * node it makes or uses, or a filesystem's UUID or label (as UUID=, LABEL= or their
 * /dev/disk/by-uuid, by-label links)? */
static bool fstab_dev_ours(const struct plan *pl, const char *dev)
{
        const char *uuid = startswith(dev, "UUID=") ? dev + 5 : startswith(dev, "/dev/disk/by-uuid/") ? dev + 18 : NULL;
        const char *label = startswith(dev, "LABEL=") ? dev + 6 : startswith(dev, "/dev/disk/by-label/") ? dev + 19 : NULL;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                if (o->dev && !strcmp(dev, o->dev))
                        return true;
                if (o->kind != OBJ_FS)
                        continue;
                if (uuid && obj_uuid(o) && !strcasecmp(uuid, obj_uuid(o)))
                        return true;
                if (label && o->fs.label && !strcmp(label, o->fs.label))
                        return true;
        }
        return false;
}

/* One foreign fstab line (mountpoint canon, device dev) against every planned filesystem that
 * is not system="true": one of the OS's mountpoints above is refused whatever mounts it; any
 * other mountpoint when the line mounts a device that is not the plan's (the node's /opt from
 * its OS disk, an NFS export), since the merge would comment that line out and the node would
 * lose what it mounts there at the next boot. */
static void check_fstab_line(const struct plan *pl, const char *canon, const char *dev, int lineno,
                             struct diags *d)
{
        bool os = false;
        for (size_t m = 0; os_fstab_mountpoints[m]; m++)
                os |= !strcmp(canon, os_fstab_mountpoints[m]);
        if (!os && fstab_dev_ours(pl, dev))
                return;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                if (o->kind != OBJ_FS || !o->fs.mountpoint || o->fs.system || !path_covers(o->fs.mountpoint, canon))
                        continue;
                const char *rel = strcmp(o->fs.mountpoint, canon) ? "lies above" : "is";
                const char *fstab = pl->file_path[FILE_FSTAB];
                if (os)
                        diag_add(d, DIAG_ERROR, pl->profile_path, o->line, o->id, RULE_SYSTEM_MOUNTPOINT,
                                 "mountpoint %s %s the OS's own %s (line %d of %s mounts it); a data "
                                 "filesystem there hides the running system's files: choose another "
                                 "mountpoint (such as /storage/data%%n), or add system=\"true\" to this "
                                 "<xfs> if it really replaces that OS filesystem",
                                 o->fs.mountpoint, rel, canon, lineno, fstab);
                else {
                        _cleanup_free_ char *shown = comment_dup(dev), *shown_mp = comment_dup(canon);
                        diag_add(d, DIAG_ERROR, pl->profile_path, o->line, o->id, RULE_SYSTEM_MOUNTPOINT,
                                 "mountpoint %s %s the node's own %s: line %d of %s mounts it from %s, which is "
                                 "not a device of this profile, and the merge would comment that line out, so "
                                 "the node would lose what it mounts there at the next boot: choose a "
                                 "mountpoint below it or elsewhere (such as /storage/data%%n), add "
                                 "system=\"true\" to this <xfs> if it deliberately takes over that "
                                 "mountpoint, or remove the line from %s if %s is gone for good",
                                 o->fs.mountpoint, rel, shown_mp, lineno, fstab, shown, fstab, shown);
                }
        }
}

/* Every foreign line of the target root's fstab (outside storprov's block) through check_fstab_line. */
static void check_os_mountpoints(const struct plan *pl, const char *existing, struct diags *d)
{
        if (!existing || !d)
                return;
        int depth = 0, lineno = 0;
        const char *s = existing;
        while (*s) {
                const char *e = strchr(s, '\n');
                size_t len = e ? (size_t)(e - s) : strlen(s);
                char *l = strndup(s, len);
                s += len + (e ? 1 : 0);
                lineno++;
                if (startswith(l, BEGIN_MARK))
                        depth = 1;
                else if (startswith(l, END_MARK))
                        depth = 0;
                char *f[3] = {0};
                size_t nf = depth || l[0] == '#' ? 0 : text_fields(l, f, 3);
                if (nf >= 2) {
                        _cleanup_free_ char *mp = fstab_unescape(f[1]), *dev = fstab_unescape(f[0]);
                        _cleanup_free_ char *canon = path_canonical(mp);
                        if (canon)
                                check_fstab_line(pl, canon, dev, lineno, d);
                }
                text_fields_free(f, nf);
                free(l);
        }
}

/* Filesystem o's line of the block: by UUID (storprov assigns it at mkfs
 * time, so it is known now and survives device renames), else by label.
 * Every field is escaped or checked, so no value can add a field or a line;
 * one that cannot be written is a comment and an error. */
static void fstab_entry(struct sbuf *b, const struct plan *pl, const struct pl_obj *o, struct diags *d)
{
        const char *opts = o->fs.mount_options && *o->fs.mount_options ? o->fs.mount_options : "defaults";
        /* not needed for boot (boot-critical="false"): a missing device must not stop it */
        bool nofail = o->fs.nofail && !fstab_has_option(opts, "nofail");
        struct sbuf line = {0};
        bool ok;
        if (obj_uuid(o))
                ok = uuid_safe(obj_uuid(o)) && (sbuf_printf(&line, "UUID=%s", obj_uuid(o)), true);
        else {
                sbuf_puts(&line, "LABEL=");
                ok = fstab_escape(&line, o->fs.label);
        }
        sbuf_puts(&line, "\t");
        ok = ok && fstab_escape(&line, o->fs.mountpoint);
        sbuf_puts(&line, "\txfs\t");
        ok = ok && mount_options_safe(opts) && fstab_escape(&line, opts);
        if (nofail)
                sbuf_puts(&line, ",nofail");
        if (ok)
                sbuf_printf(b, "%s\t0 0\n", line.s);
        else {
                sbuf_puts(b, "# storprov: not written, a field cannot be put in fstab safely: ");
                comment_text(b, o->id);
                sbuf_puts(b, "\n");
                if (d)
                        diag_add(d, DIAG_ERROR, pl->file_path[FILE_FSTAB], 0, o->id, RULE_FSTAB_FIELD,
                                 "a field of this filesystem's fstab line holds characters fstab cannot carry");
        }
        free(line.s);
}

char *render_fstab(const struct plan *pl, const char *existing, struct diags *d)
{
        check_os_mountpoints(pl, existing, d);
        struct sbuf b = {0};
        render_begin_mark(&b, pl);
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                if (o->kind == OBJ_FS && o->fs.mountpoint)
                        fstab_entry(&b, pl, o, d);
        }
        sbuf_printf(&b, "%s\n", END_MARK);
        char *block = sbuf_steal(&b);
        char *r = merge_managed(pl, existing, block, &fstab_merge_rule, pl->file_path[FILE_FSTAB], d);
        free(block);
        return r;
}

/* Whether an fstab line is one a filesystem's own "fstab entry" check reads
 * (its mountpoint is a planned filesystem's): a change there is that check's
 * drift, and the file's check must not report it a second time. */
bool render_fstab_fs_line(const struct plan *pl, const char *line, size_t len)
{
        _cleanup_free_ char *copy = strndup(line, len);
        char *save = NULL, *src = strtok_r(copy, " \t", &save), *mp = src ? strtok_r(NULL, " \t", &save) : NULL;
        if (!mp || src[0] == '#')
                return false;
        _cleanup_free_ char *decoded = decode_escapes(mp, 8);
        for (size_t i = 0; i < pl->n_objs; i++)
                if (pl->objs[i].kind == OBJ_FS && streq_ptr(pl->objs[i].fs.mountpoint, decoded))
                        return true;
        return false;
}
