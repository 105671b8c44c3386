/* SPDX-License-Identifier: GPL-2.0-or-later
 * The udev rules that tune an md array's members by their membership, not
 * by each drive's identity (render_udev_rules writes them beside the rest).
 * A member's udev event carries, from 60-persistent-storage's blkid (the
 * member's md superblock), ID_FS_TYPE=linux_raid_member and ID_FS_UUID = the
 * array's UUID as "8-4-4-4-12" (the hex digits of mdadm's "8:8:8:8", metadata
 * 1.x). A blank disk has neither; mdadm --add writes the superblock and closes
 * the device, and udev's inotify watch (60-block) sends a change event that
 * has them. So a rule keyed by them tunes any disk, or the disk of any
 * partition, that joins the array, at once and at every boot. */
#include "render/render.h"

#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"
#include "render/tuned.h"

/* The member disk of md member object m: the disk itself, or a partition's
 * disk; NULL for anything else (a multipath LUN, an md's partition). */
static const struct pl_obj *member_disk(const struct plan *pl, const struct pl_obj *m)
{
        const struct pl_obj *d = m->kind == OBJ_PART && m->parent != NO_OBJ ? &pl->objs[m->parent] : m;
        return d->kind == OBJ_DISK && !d->disk.n_paths ? d : NULL;
}

bool render_md_member_tune(const struct plan *pl, const struct pl_obj *md, const char *vals[_TUNE_MAX])
{
        for (int a = 0; a < _TUNE_MAX; a++)
                vals[a] = NULL;
        if (md->kind != OBJ_MD || !md->md.n_members)
                return false;
        for (size_t k = 0; k < md->md.n_members; k++)
                if (!member_disk(pl, &pl->objs[md->md.members[k]]))
                        return false;
        for (int a = 0; a < _TUNE_MAX; a++) {
                const char *v = member_disk(pl, &pl->objs[md->md.members[0]])->tune.val[a];
                for (size_t k = 1; v && k < md->md.n_members; k++)
                        if (!streq_ptr(v, member_disk(pl, &pl->objs[md->md.members[k]])->tune.val[a]))
                                v = NULL;
                vals[a] = v;
        }
        return true;
}

/* "8-4-4-4-12" in lower case, as blkid spells the UUID of an md 1.x member, from
 * mdadm's "8:8:8:8"; NULL if it is not 32 hex digits. */
static char *md_uuid_blkid(const char *u)
{
        char hex[33];
        size_t n = 0;
        for (; u && *u; u++) {
                if (*u == ':' || *u == '-')
                        continue;
                if (n == 32 || !strchr("0123456789abcdefABCDEF", *u))
                        return NULL;
                hex[n++] = (char)(*u >= 'A' && *u <= 'F' ? *u - 'A' + 'a' : *u);
        }
        if (n != 32)
                return NULL;
        hex[32] = 0;
        return xasprintf("%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12, hex + 16, hex + 20);
}

/* An attribute of md's members that udev sets (not the tuned profile): on no member has tuned taken it. */
static bool member_attr_in_udev(const struct plan *pl, const struct pl_obj *md, enum tune_attr a)
{
        for (size_t k = 0; k < md->md.n_members; k++)
                if (tuned_takes(pl, member_disk(pl, &pl->objs[md->md.members[k]]), a))
                        return false;
        return true;
}

/* "# md NAME (DEV): TEXT" */
static void md_note(struct sbuf *b, const struct pl_obj *md, const char *text)
{
        sbuf_puts(b, "\n# md ");
        comment_text(b, md->md.name);
        sbuf_puts(b, " (");
        comment_text(b, md->dev);
        sbuf_printf(b, "): %s\n", text);
}

void render_udev_md_members(struct sbuf *b, const struct plan *pl, const struct pl_obj *md)
{
        bool any = false;
        int line = 0;
        for (size_t k = 0; k < md->md.n_members; k++) {
                const struct pl_obj *m = &pl->objs[md->md.members[k]], *d = member_disk(pl, m);
                any = any || tune_set_any(&(d ? d : m)->tune);
                if (d && !line)
                        line = d->tune.line;
        }
        if (!any)
                return;
        const char *vals[_TUNE_MAX];
        if (!render_md_member_tune(pl, md, vals)) {
                md_note(b, md, "its members are multipath LUNs or partitions of an md: a member that joins it is not tuned");
                return;
        }
        struct sbuf disk = {0}, part = {0}, differ = {0}, tuned = {0};
        for (int a = 0; a < _TUNE_MAX; a++) {
                if (!vals[a]) {
                        for (size_t k = 0; k < md->md.n_members; k++)
                                if (member_disk(pl, &pl->objs[md->md.members[k]])->tune.val[a]) {
                                        sbuf_printf(&differ, "%s%s", differ.len ? ", " : "", tune_defs[a].name);
                                        break;
                                }
                } else if (!member_attr_in_udev(pl, md, (enum tune_attr)a))
                        sbuf_printf(&tuned, "%s%s", tuned.len ? ", " : "", tune_defs[a].name);
                else {
                        sbuf_printf(&disk, ", ATTR{%s}=\"%s\"", tune_defs[a].sysfs, vals[a]);
                        sbuf_printf(&part, ", ATTR{../%s}=\"%s\"", tune_defs[a].sysfs, vals[a]);
                }
        }
        if (differ.len) {
                _cleanup_free_ char *t = xasprintf("its members are tuned differently (%s): a member that joins it gets "
                                                   "what they share", differ.s);
                md_note(b, md, t);
        }
        if (tuned.len) {
                _cleanup_free_ char *t = xasprintf("%s of a member that joins it: not set, the tuned profile keys each "
                                                   "drive by its identity", tuned.s);
                md_note(b, md, t);
        }
        _cleanup_free_ char *uuid = md_uuid_blkid(obj_uuid(md));
        if (disk.len && (!uuid || !udev_value_safe(uuid)))
                md_note(b, md, "its UUID cannot be matched safely: a member that joins it is not tuned");
        else if (disk.len) {
                sbuf_puts(b, "\n# md ");
                comment_text(b, md->md.name);
                sbuf_puts(b, " (");
                comment_text(b, md->dev);
                sbuf_printf(b, "): its members' tuning, for any disk or partition that is a member or joins it "
                               "later, profile line %d\n", line);
                sbuf_printf(b, "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\", KERNEL!=\"dm-*\", "
                               "ENV{ID_FS_UUID}==\"%s\", ENV{ID_FS_TYPE}==\"linux_raid_member\"%s\n",
                            uuid, disk.s);
                sbuf_printf(b, "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"partition\", "
                               "ENV{ID_FS_UUID}==\"%s\", ENV{ID_FS_TYPE}==\"linux_raid_member\"%s\n",
                            uuid, part.s);
        }
        free(disk.s);
        free(part.s);
        free(differ.s);
        free(tuned.s);
}
