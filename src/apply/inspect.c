/* SPDX-License-Identifier: GPL-2.0-or-later
 * Inspection, read-only and before the first write: what every target disk,
 * partition region and device carries, whether it is ours (an earlier run),
 * foreign (refused unless wiping is allowed) or in use. */
#include "apply/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "gpt.h"
#include "probe.h"

char **lvm_query(const struct run *r, const char *cmd, const char *fields, const char *target)
{
        char **argv = NULL;
        lvm_argv_head(r->pl, &argv, cmd);
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

bool uuid_eq(const char *a, const char *b)
{
        char *x = uuid_norm(a), *y = uuid_norm(b);
        bool eq = x && y && !strcmp(x, y);
        free(x);
        free(y);
        return eq;
}

char *uuid_to_mdadm(const char *u)
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

/* Does a signature belong to what this plan puts on obj? */
static bool sig_is_ours(struct run *r, size_t obj, const struct signature *s)
{
        const struct plan *pl = r->pl;
        size_t user = pl->objs[obj].used_by;
        if (user == NO_OBJ)
                return false;
        const struct pl_obj *u = &pl->objs[user];
        if (!strcmp(s->type, "xfs") && u->kind == OBJ_FS)
                return uuid_eq(s->uuid, obj_uuid(u)) || u->preserve;
        if (!strcmp(s->type, "linux_raid_member") && u->kind == OBJ_MD)
                return uuid_eq(s->uuid, obj_uuid(u)) || u->preserve;
        if (!strcmp(s->type, "LVM2_member") && u->kind == OBJ_VG) {
                char *dp = dev_path(&r->dev, pl->objs[obj].dev);
                char **l = lvm_query(r, "pvs", "vg_name", dp);
                bool ours = l && streq_ptr(l[0], u->vg.name);
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
        char *path = dev_path(&r->dev, d->dev);

        if (!devices_fake(&r->dev) && d->disk.bd) {
                os->in_use = probe_in_use(r->o->sysroot, d->disk.bd->major, d->disk.bd->minor);
                char *boot = probe_boot_device(r->o->sysroot, d->disk.bd->major, d->disk.bd->minor);
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
                        want[n_want] = (struct pl_part){.number = q->part.number};
                        part_sectors(pl, i, &want[n_want].first_sector, &want[n_want].last_sector);
                        n_want++;
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
                        inspect_region(r, i, path, q->part.start_bytes, q->size_bytes);
                }
        } else {
                for (size_t i = 0; i < pl->n_objs; i++) {
                        const struct pl_obj *q = &pl->objs[i];
                        if (q->kind != OBJ_PART || q->parent != di)
                                continue;
                        r->os[i].wipe_ok = os->wipe_ok;
                        char *pp = dev_path(&r->dev, q->dev);
                        if (dev_wait(r, q->dev, kname_of(q->dev), 2000) == 0)
                                inspect_region(r, i, pp, 0, 0);
                        else
                                inspect_region(r, i, path, q->part.start_bytes, q->size_bytes);
                        free(pp);
                }
        }
        free(path);
        refuse_in_use(r, di);
}


/* Who may be wiped: the profile's wipe="true" on an object covers what it is
 * made of; --wipe covers everything. */
static void wipe_permissions(struct run *r)
{
        const struct plan *pl = r->pl;
        for (size_t i = 0; i < pl->n_objs; i++)
                r->os[i].wipe_ok = r->o->wipe_all || pl->objs[i].wipe;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *x = &pl->objs[i];
                if (!x->wipe || (x->kind != OBJ_MD && x->kind != OBJ_VG))
                        continue;
                size_t n = x->kind == OBJ_MD ? x->md.n_members : x->vg.n_pvs;
                const size_t *mem = x->kind == OBJ_MD ? x->md.members : x->vg.pvs;
                for (size_t k = 0; k < n; k++) {
                        r->os[mem[k]].wipe_ok = true;
                        if (pl->objs[mem[k]].kind == OBJ_PART)
                                r->os[pl->objs[mem[k]].parent].wipe_ok = true;
                }
        }
        /* ... and what is built from it: a new md made only of devices that may be
         * wiped shows whatever was on them at its data offset (an old array's
         * filesystem); mkfs may overwrite that. Members come first in the plan. */
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *x = &pl->objs[i];
                if (x->kind != OBJ_MD || x->preserve || !x->md.n_members || r->os[i].wipe_ok)
                        continue;
                bool all = true;
                for (size_t k = 0; k < x->md.n_members; k++)
                        all &= r->os[x->md.members[k]].wipe_ok;
                r->os[i].wipe_ok = all;
        }
}

void inspect_all(struct run *r)
{
        const struct plan *pl = r->pl;
        wipe_permissions(r);
        say(r, "inspecting %zu objects before any write", pl->n_objs);
        for (size_t i = 0; i < pl->n_objs; i++)
                if (pl->objs[i].kind == OBJ_DISK)
                        inspect_disk(r, i);
}
