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

static int cmp_u64(const void *a, const void *b)
{
        uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
        return x < y ? -1 : x > y;
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

/* The profile element whose wipe="true" covers d (a disk, an md, or a partition of either). */
static const char *wipe_elem(const struct plan *pl, const struct pl_obj *d)
{
        if (d->kind == OBJ_PART && d->parent != NO_OBJ)
                d = &pl->objs[d->parent];
        return d->kind == OBJ_DISK ? "disks" : "md";
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

/* Classifies what obj (whole device or a planned region of its disk) carries.
 * A lone protective MBR on a disk the plan partitions is a partition table an
 * interrupted run began (libparted writes it first): nothing to keep. */
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
                if (sig_is_ours(r, obj, &pr.sigs[i]))
                        os->ours = true;
                else if ((o->kind == OBJ_DISK || o->kind == OBJ_MD) && off == 0 && !strcmp(pr.sigs[i].type, "PMBR") &&
                         pr.n_sigs == 1 &&
                         !o->preserve)
                        say(r, "%s (%s) carries a protective MBR without a GPT: an unfinished partition table; it "
                               "will be written again",
                            o->id, o->dev);
                else
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
                               o->id, o->dev, os->found, wipe_elem(r->pl, o));
        }
        probe_result_free(&pr);
}

/* Where partitions and filesystems usually start: a filesystem whose
 * partition table was erased still sits at one of these. */
static size_t scan_offsets(const struct plan *pl, size_t di, const struct gpt_part *have, size_t n_have,
                           uint64_t **ret)
{
        const struct pl_obj *d = &pl->objs[di];
        uint64_t sec = d->sector_bytes ? d->sector_bytes : SECTOR_BYTES;
        uint64_t *v = NULL;
        size_t n = 0;
#define ADD(x)                                                                                                         \
        do {                                                                                                           \
                v = xrealloc(v, (n + 1) * sizeof(*v));                                                                 \
                v[n++] = (x);                                                                                          \
        } while (0)
        ADD(34 * sec);
        ADD(63 * sec);
        ADD(128 * sec);
        for (uint64_t m = 1; m <= 16; m++)
                ADD(m * MiB);
        for (uint64_t m = 32; m <= 64; m += 16)
                ADD(m * MiB);
        for (uint64_t a = d->align_bytes; a && a <= 64 * MiB; a += d->align_bytes)
                ADD(a);
        for (size_t i = 0; i < pl->n_objs; i++)
                if (pl->objs[i].kind == OBJ_PART && pl->objs[i].parent == di)
                        ADD(pl->objs[i].part.start_bytes);
        for (size_t i = 0; i < n_have; i++)
                ADD(have[i].first_sector * sec);
#undef ADD
        *ret = v;
        return n;
}

/* The planned partition that starts at off, or NO_OBJ. */
static size_t part_at(const struct plan *pl, size_t di, uint64_t off)
{
        for (size_t i = 0; i < pl->n_objs; i++)
                if (pl->objs[i].kind == OBJ_PART && pl->objs[i].parent == di && pl->objs[i].part.start_bytes == off)
                        return i;
        return NO_OBJ;
}

/* Foreign data wherever it starts: before anything is written to a disk whose
 * partition table is not (or no longer) the planned one, every usual start is
 * probed. What is found there is refused unless wiping is allowed; what is
 * ours (our UUID at a planned start) is kept. Raw data without a signature
 * cannot be found this way (storprov(8) says so). */
static void deep_scan(struct run *r, size_t di, const char *path, const struct gpt_part *have, size_t n_have)
{
        const struct plan *pl = r->pl;
        const struct pl_obj *d = &pl->objs[di];
        struct obj_state *os = &r->os[di];
        uint64_t *off = NULL;
        size_t n = scan_offsets(pl, di, have, n_have, &off);
        struct sbuf found = {0};
        qsort(off, n, sizeof(*off), cmp_u64);
        /* the windows to probe: each start once, at least 64 KiB before the end, 8 MiB long at most */
        uint64_t *w = xcalloc(n ? n : 1, sizeof(uint64_t)), *len = xcalloc(n ? n : 1, sizeof(uint64_t));
        size_t nw = 0;
        for (size_t k = 0; k < n; k++) {
                if ((nw && off[k] == w[nw - 1]) || !d->size_bytes || off[k] + 64 * KiB > d->size_bytes)
                        continue;
                w[nw] = off[k];
                len[nw++] = d->size_bytes - off[k] < 8 * MiB ? d->size_bytes - off[k] : 8 * MiB;
        }
        /* probed --jobs at a time (libblkid's probers are CPU and small reads: on a slow or emulated
         * machine this scan is most of apply's time), then weighed in offset order */
        struct probe_result *prs = xcalloc(nw ? nw : 1, sizeof(*prs));
        int *rcs = xcalloc(nw ? nw : 1, sizeof(int));
        probe_signatures_many(path, w, len, nw, r->o->jobs ? r->o->jobs : 1, prs, rcs);
        for (size_t k = 0; k < nw; k++) {
                struct probe_result *pr = &prs[k];
                if (rcs[k] < 0)
                        continue;
                size_t q = part_at(pl, di, w[k]);
                for (size_t i = 0; i < pr->n_sigs; i++) {
                        const struct signature *sg = &pr->sigs[i];
                        if (!strcmp(sg->type, "PMBR") || (q != NO_OBJ && sig_is_ours(r, q, sg)))
                                continue;
                        /* a filesystem's backup superblocks show further in: name it once */
                        _cleanup_free_ char *what = xasprintf("%s%s%s", sg->type, sg->uuid ? " uuid " : "",
                                                             sg->uuid ? sg->uuid : "");
                        if (found.s && strstr(found.s, what))
                                continue;
                        char h[32];
                        sbuf_printf(&found, "%s%s at offset %" PRIu64 " (%s)", found.len ? ", " : "", what, w[k],
                                    fmt_size_human(w[k], h));
                }
                probe_result_free(pr);
        }
        free(prs);
        free(rcs);
        free(w);
        free(len);
        free(off);
        if (found.len && os->wipe_ok) {
                os->needs_wipe = true;
                free(os->found);
                os->found = sbuf_steal(&found);
        } else if (found.len) {
                refuse(r,
                       "%s (%s) carries %s, where no partition table points (an erased table?); the profile does not "
                       "allow wiping it (add wipe=\"true\" to <%s>, or pass --wipe)",
                       d->id, d->dev, found.s, wipe_elem(pl, d));
        }
        free(found.s);
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

static void find_in_use(struct run *r, size_t di)
{
        const struct pl_obj *d = &r->pl->objs[di];
        struct obj_state *os = &r->os[di];
        if (devices_fake(&r->dev) || !d->disk.bd)
                return;
        os->in_use = probe_in_use(r->o->sysroot, d->disk.bd->major, d->disk.bd->minor);
        char *boot = probe_boot_device(r->o->sysroot, d->disk.bd->major, d->disk.bd->minor);
        if (boot) {
                char *both = os->in_use ? xasprintf("%s; %s", os->in_use, boot) : xstrdup(boot);
                free(os->in_use);
                free(boot);
                os->in_use = both;
        }
}

/* The partitions the plan puts on disk di (also when preserved: no step). */
static struct pl_part *planned_parts(const struct plan *pl, size_t di, size_t *ret_n)
{
        struct pl_part *want = NULL;
        size_t n = 0;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *q = &pl->objs[i];
                if (q->kind != OBJ_PART || q->parent != di)
                        continue;
                want = xrealloc(want, (n + 1) * sizeof(*want));
                want[n] = (struct pl_part){.number = q->part.number, .name = q->part.name};
                part_sectors(pl, i, &want[n].first_sector, &want[n].last_sector);
                n++;
        }
        *ret_n = n;
        return want;
}

/* storprov's own table (the planned disk GUID) on a disk that has grown since
 * it was written: every partition starts where planned and only the last ends
 * before its planned end. --wipe is then the wrong advice (it destroys the
 * data); what is true is how to grow by hand to the planned table, which
 * apply then keeps. NULL when it is not that case. */
static char *grown_advice(struct run *r, size_t di, const char *path, const char *label, const struct gpt_part *have,
                          size_t n_have)
{
        const struct plan *pl = r->pl;
        const struct pl_obj *d = &pl->objs[di];
        char guid[37];
        if (strcmp(label, "gpt") || !d->disk.gpt_guid || gpt_disk_guid(path, d->sector_bytes, guid) < 0 ||
            !uuid_eq(guid, d->disk.gpt_guid))
                return NULL;
        size_t n_want, last = 0;
        _cleanup_free_ struct pl_part *want = planned_parts(pl, di, &n_want);
        if (!n_want || n_want != n_have)
                return NULL;
        for (size_t i = 1; i < n_want; i++)
                if (want[i].first_sector > want[last].first_sector)
                        last = i;
        const struct gpt_part *hl = NULL;
        for (size_t i = 0; i < n_want; i++) {
                const struct gpt_part *h = NULL;
                for (size_t k = 0; k < n_have && !h; k++)
                        if (have[k].number == want[i].number)
                                h = &have[k];
                if (!h || h->first_sector != want[i].first_sector)
                        return NULL;
                if (i == last)
                        hl = h;
                else if (h->last_sector != want[i].last_sector)
                        return NULL;
        }
        if (!hl || hl->last_sector >= want[last].last_sector)
                return NULL;
        /* what the last partition holds, and how that grows */
        const char *part_dev = "", *what = NULL;
        _cleanup_free_ char *grow = NULL;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *q = &pl->objs[i];
                if (q->kind == OBJ_PART && q->parent == di && q->part.number == want[last].number)
                        part_dev = q->dev;
        }
        for (size_t i = 0; i < pl->n_objs && !what; i++) {
                const struct pl_obj *q = &pl->objs[i];
                if (q->kind == OBJ_FS && q->parent != NO_OBJ && streq_ptr(pl->objs[q->parent].dev, part_dev)) {
                        what = "its XFS";
                        grow = q->fs.mountpoint ? xasprintf("xfs_growfs %s (mounted)", q->fs.mountpoint)
                                                : xasprintf("xfs_growfs on it, mounted");
                }
        }
        if (!what) {
                what = "what it holds";
                grow = xasprintf("grow what %s holds (pvresize %s for a PV; an md member only once every member has "
                                 "grown: mdadm --grow --size=max)",
                                 part_dev, part_dev);
        }
        return xasprintf("%s (%s) carries storprov's own partition table (disk GUID %s), written when the disk was "
                         "smaller: it has grown since, and partition %u (%s) ends at sector %" PRIu64 " where the plan "
                         "now puts sector %" PRIu64 ". storprov does not grow partitions or filesystems, and --wipe "
                         "or wipe=\"true\" would destroy %s and its data. To keep the data and use the new space, "
                         "grow it by hand to the planned table: sgdisk -e %s (the backup table to the new end); "
                         "parted -s %s unit s resizepart %u %" PRIu64 "s; then %s. apply then finds the planned table "
                         "and keeps it",
                         d->id, d->dev, guid, want[last].number, part_dev, hl->last_sector, want[last].last_sector,
                         what, d->dev, d->dev, want[last].number, want[last].last_sector, grow);
}

/* The partition table of a disk the plan partitions. Ours (the planned
 * partitions) is kept; ours but damaged (a run died between the primary and
 * the backup) is written again without --wipe; anything else is foreign. */
static void inspect_table(struct run *r, size_t di, const char *path, struct gpt_part **have, size_t *n_have)
{
        const struct pl_obj *d = &r->pl->objs[di];
        struct obj_state *os = &r->os[di];
        _cleanup_free_ char *label = NULL, *err = NULL, *damage = NULL;
        int rc = gpt_read_lenient(path, &label, have, n_have, &damage, &err);
        if (rc == -ENOMEDIUM) {
                if (d->preserve)
                        refuse(r, "%s (%s) is preserved, but it has no partition table", d->id, d->dev);
                /* other signatures on the bare disk (a whole-disk filesystem, md, LVM, a lone protective MBR) */
                inspect_region(r, di, path, 0, 0);
                return;
        }
        char guid[37];
        if (rc < 0 && !d->preserve && d->disk.gpt_guid && gpt_unfinished(path, d->sector_bytes) &&
            gpt_disk_guid(path, d->sector_bytes, guid) == 0 && uuid_eq(guid, d->disk.gpt_guid)) {
                say(r, "%s (%s) carries our GPT header (disk GUID %s) without entries or backup: an unfinished "
                       "partition table; it will be written again",
                    d->id, d->dev, guid);
                return;
        }
        if (rc < 0) {
                if (os->wipe_ok && !d->preserve) {
                        os->needs_wipe = true;
                        os->found = xasprintf("an unreadable partition table (%s)", err ? err : strerror(-rc));
                } else
                        refuse(r, "%s (%s): %s; the profile does not allow wiping it (add wipe=\"true\" to <%s>, or "
                                  "pass --wipe)",
                               d->id, d->dev, err ? err : strerror(-rc), wipe_elem(r->pl, d));
                return;
        }
        size_t n_want;
        struct pl_part *want = planned_parts(r->pl, di, &n_want);
        bool ours = !strcmp(label, "gpt") && gpt_matches(*have, *n_have, want, n_want);
        free(want);
        _cleanup_free_ char *grown = NULL;
        if (ours && damage && d->preserve)
                refuse(r, "%s (%s) is preserved, but its partition table is damaged (%s); repair it first (sgdisk -e or "
                          "gdisk), storprov does not write to preserved disks",
                       d->id, d->dev, damage);
        else if (ours && damage) {
                os->repair_table = true;
                say(r, "%s (%s) carries the planned partition table, damaged (%s): an interrupted write; it will be "
                       "written again",
                    d->id, d->dev, damage);
        } else if (ours)
                os->ours = true;
        else if ((d->preserve || !os->wipe_ok) && (grown = grown_advice(r, di, path, label, *have, *n_have)))
                refuse(r, "%s", grown);
        else if (d->preserve)
                refuse(r, "%s (%s) is preserved, but its partition table (%s, %zu partitions) is not the planned one",
                       d->id, d->dev, label, *n_have);
        else if (os->wipe_ok) {
                os->needs_wipe = true;
                os->found = xasprintf("a %s%s partition table with %zu partition%s", damage ? "damaged " : "", label,
                                      *n_have, *n_have == 1 ? "" : "s");
        } else
                refuse(r,
                       "%s (%s) carries a %s%s partition table with %zu partition%s that is not the planned one; "
                       "the profile does not allow wiping it (add wipe=\"true\" to <%s>, or pass --wipe)",
                       d->id, d->dev, damage ? "damaged " : "", label, *n_have, *n_have == 1 ? "" : "s",
                       wipe_elem(r->pl, d));
}

/* The planned partition regions: stale signatures from an older layout, or
 * what an earlier run of this plan made there. */
static void inspect_partitions(struct run *r, size_t di, const char *path)
{
        const struct plan *pl = r->pl;
        const struct obj_state *os = &r->os[di];
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *q = &pl->objs[i];
                if (q->kind != OBJ_PART || q->parent != di || !q->size_bytes)
                        continue;
                r->os[i].wipe_ok = os->wipe_ok;
                _cleanup_free_ char *pp = dev_path(&r->dev, q->dev);
                _cleanup_free_ char *kn = part_kname(&r->dev, r->pl, i);
                if (os->ours && dev_wait(r, q->dev, kn, 2000) == 0)
                        inspect_region(r, i, pp, 0, 0);
                else
                        inspect_region(r, i, path, q->part.start_bytes, q->size_bytes);
        }
}

/* A disk, or a partitioned md (its partitions' rules are a disk's). */
static void inspect_disk(struct run *r, size_t di)
{
        const struct plan *pl = r->pl;
        const struct pl_obj *d = &pl->objs[di];
        struct obj_state *os = &r->os[di];
        os->inspected = true;
        /* a multipath LUN whose map apply makes: what is on it is read through its first path */
        _cleanup_free_ char *path = dev_path(&r->dev, d->disk.mpath_create ? d->disk.paths[0]->devnode : d->dev);
        find_in_use(r, di);
        bool partitioned = false;
        for (size_t i = 0; i < pl->n_objs; i++)
                partitioned |= pl->objs[i].kind == OBJ_PART && pl->objs[i].parent == di;
        struct gpt_part *have = NULL;
        size_t n_have = 0;
        if (partitioned) {
                inspect_table(r, di, path, &have, &n_have);
                inspect_partitions(r, di, path);
        } else
                inspect_region(r, di, path, 0, 0);
        /* a disk that is not (yet) ours may still hold data where no table points */
        if (!d->preserve && !os->ours && !os->needs_wipe)
                deep_scan(r, di, path, have, n_have);
        gpt_parts_free(have, n_have);
        refuse_in_use(r, di);
}

/* Has md mi partitions in the plan (plan_partitions puts them right after it)? */
bool md_partitioned(const struct plan *pl, size_t mi)
{
        return pl->objs[mi].kind == OBJ_MD && mi + 1 < pl->n_objs && pl->objs[mi + 1].kind == OBJ_PART &&
               pl->objs[mi + 1].parent == mi;
}

/* A partitioned md is inspected like a disk once it runs: before the first
 * write when it runs already (preserved, or made by an earlier run: our
 * uuid), otherwise by its GPT step right after mdadm made it. */
void inspect_md_partitions(struct run *r)
{
        const struct plan *pl = r->pl;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *m = &pl->objs[i];
                if (!md_partitioned(pl, i) || r->os[i].inspected)
                        continue;
                if (!m->preserve) {
                        if (devices_fake(&r->dev) || !dev_exists(&r->dev, m->dev))
                                continue;
                        _cleanup_free_ char *dp = dev_path(&r->dev, m->dev);
                        _cleanup_free_ char *uuid = md_uuid_of(dp);
                        if (!uuid || !uuid_eq(uuid, m->md.uuid.planned))
                                continue; /* not (yet) ours: its mdadm step decides */
                }
                inspect_md_now(r, i);
        }
}

void inspect_md_now(struct run *r, size_t mi)
{
        inspect_disk(r, mi);
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
