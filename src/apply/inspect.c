/* SPDX-License-Identifier: GPL-2.0-or-later
 * Inspection, read-only and before the first write: what every target disk,
 * partition region and device carries, whether it is ours (an earlier run),
 * foreign (refused unless wiping is allowed) or in use. */
#include "apply/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/exec.h"
#include "sys/gpt.h"
#include "sys/probe.h"
#include "sys/ptscan.h"
#include "sys/sbcopy.h"

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
                char **l = lvm_query(r, "pvs", "vg_name", dp, NULL);
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
static void classify_region(struct run *r, size_t obj, uint64_t off, struct probe_result *pr_);

static void inspect_region(struct run *r, size_t obj, const char *path, uint64_t off, uint64_t size)
{
        const struct pl_obj *o = &r->pl->objs[obj];
        struct probe_result pr;
        int rc = probe_signatures(path, off, size, &pr);
        if (rc < 0) {
                run_refuse(r, "%s: cannot probe %s: %s", o->id, path, strerror(-rc));
                return;
        }
        classify_region(r, obj, off, &pr);
}

/* Does the plan lay partitions on obj (so that a GPT step writes its table)? */
static bool plans_partitions(const struct plan *pl, size_t obj)
{
        for (size_t i = 0; i < pl->n_objs; i++)
                if (pl->objs[i].kind == OBJ_PART && pl->objs[i].parent == obj)
                        return true;
        return false;
}

/* What a probe of obj found: ours, an unfinished table of ours, or foreign.
 * A protective MBR alone is an unfinished table of ours only where the plan
 * writes a GPT; on a whole-disk PV or filesystem it is a partition table
 * like any other (pvcreate refuses a "partitioned" device). Frees *pr_. */
static void classify_region(struct run *r, size_t obj, uint64_t off, struct probe_result *pr_)
{
        struct obj_state *os = &r->os[obj];
        const struct pl_obj *o = &r->pl->objs[obj];
        struct probe_result pr = *pr_;
        bool foreign = false;
        for (size_t i = 0; i < pr.n_sigs; i++) {
                if (sig_is_ours(r, obj, &pr.sigs[i]))
                        os->ours = true;
                else if ((o->kind == OBJ_DISK || o->kind == OBJ_MD) && off == 0 && !strcmp(pr.sigs[i].type, "PMBR") &&
                         pr.n_sigs == 1 && !o->preserve && plans_partitions(r->pl, obj))
                        run_say(r, "%s (%s) carries a protective MBR without a GPT: an unfinished partition table; it "
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
                        run_refuse(r,
                               "%s (%s) carries %s; the profile does not allow wiping it (add wipe=\"true\" to the "
                               "profile's <%s> element, or pass --wipe)",
                               o->id, o->dev, os->found, wipe_elem(r->pl, o));
        }
        probe_result_free(pr_);
}

/* What the scan reads at each candidate start: the magic of every format
 * libblkid finds at a partition's start lies in its first 128 KiB (ext*, XFS,
 * btrfs at 64 KiB, md 1.1/1.2, LVM2, swap up to 64 KiB pages, ISO 9660,
 * ReiserFS, JFS, NTFS, FAT, exFAT, bcache), and at each candidate end the last
 * 128 KiB (md 0.90 and 1.0); UDF's anchor further in (scan_reads). ZFS (its
 * uberblocks at 128 KiB of a label) and VMFS (1 MiB) are found only by the
 * probe at 0 and the partitions' own probes. */
#define SCAN_WINDOW (128 * KiB)
#define UDF_ANCHOR_END (1 * MiB + 4 * KiB) /* block 256 at 4 KiB blocks, and that block */
#define SCAN_HEAD (160 * KiB) /* the MBR, the primary GPT array, and the 34- and 63-sector starts' windows */

/* The planned partition that starts at off, or NO_OBJ. */
static size_t part_at(const struct plan *pl, size_t di, uint64_t off)
{
        for (size_t i = 0; i < pl->n_objs; i++)
                if (pl->objs[i].kind == OBJ_PART && pl->objs[i].parent == di && pl->objs[i].part.start_bytes == off)
                        return i;
        return NO_OBJ;
}

/* Names a signature once (backup superblocks show at usual starts), except where
 * a table entry names a region there (members of one array, a LUKS2 header seen
 * from an extended partition's start through its secondary copy). */
static void found_sig(struct sbuf *found, const struct signature *sg, uint64_t at, uint64_t size, const char *src)
{
        _cleanup_free_ char *what = xasprintf("%s%s%s%s%s", sg->type, sg->label ? " label " : "",
                                             sg->label ? sg->label : "", sg->uuid ? " uuid " : "",
                                             sg->uuid ? sg->uuid : "");
        bool entry = strncmp(src, "a usual start", 13) && strncmp(src, "a planned partition", 19);
        if (found->s && strstr(found->s, what) && !entry)
                return;
        char h[32], hs[32];
        sbuf_printf(found, "%s%s at offset %" PRIu64 " (%s", found->len ? ", " : "", what, at, fmt_size_human(at, h));
        if (size)
                sbuf_printf(found, ", %s long", fmt_size_human(size, hs));
        sbuf_printf(found, ", from %s)", src);
}

/* Does the window at start hold UDF's recognition sequence (NSR02/NSR03 from 32 KiB)? */
static bool udf_vrs_at(const struct shadow *sh, uint64_t start, uint64_t size)
{
        if (start + SCAN_WINDOW > size || !shadow_has_data(sh, start + 32 * KiB, SCAN_WINDOW - 32 * KiB))
                return false;
        uint8_t *w = xmalloc(SCAN_WINDOW - 32 * KiB);
        bool vrs = false;
        if (pread(sh->fd, w, SCAN_WINDOW - 32 * KiB, (off_t)(start + 32 * KiB)) == (ssize_t)(SCAN_WINDOW - 32 * KiB))
                for (size_t o = 0; o + 6 <= SCAN_WINDOW - 32 * KiB && !vrs; o += 512)
                        vrs = !memcmp(w + o + 1, "NSR02", 5) || !memcmp(w + o + 1, "NSR03", 5);
        free(w);
        return vrs;
}

/* Where superblock copies of a filesystem starting at candidate k's start (k
 * == n: at 0, the whole disk's) may sit; 0 places for a start seen before. The
 * regions a table or the plan names there size XFS's AGs (sbcopy_places). */
static size_t copy_places(const struct cand *c, size_t n, size_t k, uint64_t size, uint64_t sec, uint64_t *start,
                          uint64_t *pl)
{
        *start = k < n ? c[k].start : 0;
        if ((k < n && k && c[k - 1].start == c[k].start) || (k == n && n && c[0].start == 0))
                return 0;
        uint64_t reg[16];
        size_t nr = 0;
        for (size_t j = k; j < n && c[j].start == *start && nr < 16; j++)
                if (c[j].end > c[j].start)
                        reg[nr++] = c[j].end - c[j].start;
        return sbcopy_places(*start, reg, nr, size, sec, pl, SBCOPY_MAX_PLACES);
}

/* One bounded read at each candidate start and end, into the shadow; UDF's
 * anchor (block 256: up to 1 MiB in) only where the window holds UDF's VRS. */
static void scan_reads(int fd, struct shadow *sh, const struct cand *c, size_t n, uint64_t size, uint64_t sec,
                       uint64_t head, uint64_t tail, struct sbuf *err)
{
        struct shadow_extent *rv = xcalloc(2 * n + 1 + (n + 1) * SBCOPY_MAX_PLACES, sizeof(*rv));
        size_t nr = 0;
        /* one block at each place a superblock copy may sit, where the head and tail reads do not hold it */
        for (size_t k = 0; k <= n; k++) {
                uint64_t start, pl[SBCOPY_MAX_PLACES];
                size_t np = copy_places(c, n, k, size, sec, &start, pl);
                for (size_t i = 0; i < np; i++)
                        if (pl[i] + SBCOPY_READ > head && pl[i] < size - tail)
                                rv[nr++] = (struct shadow_extent){pl[i], SBCOPY_READ};
        }
        for (size_t k = 0; k < n; k++) {
                if (c[k].start >= size)
                        continue;
                uint64_t len = size - c[k].start < SCAN_WINDOW ? size - c[k].start : SCAN_WINDOW;
                if (c[k].start + len > head && c[k].start < size - tail)
                        rv[nr++] = (struct shadow_extent){c[k].start, len};
                /* the end's window, unless the tail read holds all of it (a region that ends near the disk's end
                 * has its md 0.90 superblock up to 128 KiB before its end, maybe before the tail) */
                if (c[k].end && c[k].end <= size && c[k].end - c[k].start > SCAN_WINDOW &&
                    c[k].end - SCAN_WINDOW < size - tail)
                        rv[nr++] = (struct shadow_extent){c[k].end - SCAN_WINDOW, SCAN_WINDOW};
        }
        shadow_read_ranges(fd, sh, rv, nr, err);
        nr = 0;
        for (size_t k = 0; k < n && !err->len; k++)
                if ((!k || c[k].start != c[k - 1].start) && udf_vrs_at(sh, c[k].start, size) &&
                    c[k].start + UDF_ANCHOR_END <= size)
                        rv[nr++] = (struct shadow_extent){c[k].start + SCAN_WINDOW, UDF_ANCHOR_END - SCAN_WINDOW};
        if (nr)
                shadow_read_ranges(fd, sh, rv, nr, err);
        free(rv);
}

/* deep_scan: what probing at candidate k's start found (pr). Ours at a planned
 * start is kept; something else at a planned start is that partition's finding
 * (mine[q]); anywhere else it is the disk's (found). */
static void start_sigs(struct run *r, size_t di, const struct cand *c, size_t n, size_t k,
                       const struct probe_result *pr, bool *mine, struct sbuf *found)
{
        const struct plan *pl = r->pl;
        size_t q = part_at(pl, di, c[k].start);
        for (size_t i = 0; i < pr->n_sigs; i++) {
                const struct signature *sg = &pr->sigs[i];
                if (sg->offset_bytes >= SCAN_WINDOW || !strcmp(sg->type, "PMBR"))
                        continue;
                if (q != NO_OBJ && sig_is_ours(r, q, sg)) {
                        r->os[q].ours = true; /* what an earlier run made at a planned start */
                        continue;
                }
                if (q != NO_OBJ) {
                        /* at a planned start: the partition's own finding, as probing its
                         * region says it (wiped before use where allowed, else refused) */
                        struct sbuf pf = {0};
                        if (r->os[q].found)
                                sbuf_puts(&pf, r->os[q].found);
                        found_sig(&pf, sg, c[k].start, 0, c[k].src);
                        free(r->os[q].found);
                        r->os[q].found = sbuf_steal(&pf);
                        mine[q] = true;
                        continue;
                }
                /* the largest region a table names here, for its size */
                uint64_t len = 0;
                const char *src = c[k].src;
                for (size_t j = k; j < n && c[j].start == c[k].start; j++)
                        if (c[j].end && c[j].end - c[j].start > len) {
                                len = c[j].end - c[j].start;
                                src = c[j].src;
                        }
                found_sig(found, sg, c[k].start, len, src);
        }
}

/* How a superblock copy is named: "btrfs superblock copy (mirror 1) at offset
 * 67108864 (64 MiB) of a btrfs uuid ... starting at 0 (from the disk's start),
 * its primary erased: recoverable with `btrfs rescue super-recover`". */
static char *copy_text(const struct sb_copy *y, const char *src)
{
        char w[96], how[96], h[32], hs[40] = "";
        if (y->fs_start)
                snprintf(hs, sizeof(hs), "%s, ", fmt_size_human(y->fs_start, h));
        return xasprintf("%s at offset %" PRIu64 " (%s) of a%s %s uuid %s%s%s starting at %" PRIu64
                         " (%sfrom %s), its primary erased: recoverable with %s",
                         sbcopy_what(y, w, sizeof(w)), y->at, fmt_size_human(y->at, h), y->fmt == SB_BTRFS ? "" : "n",
                         y->type, y->uuid, *y->label ? " label " : "", y->label, y->fs_start, hs, src,
                         sbcopy_recover(y, how, sizeof(how)));
}

/* deep_scan: the superblock copies at each candidate start and at 0 (btrfs
 * mirrors, XFS secondaries, ext backups, an XFS without its magic) whose
 * primary is gone: a filesystem libblkid does not see from its start. A copy
 * of a filesystem named already (its UUID) is that one; ours at a planned
 * start stays ours. At a planned start it is that partition's finding. */
static void scan_copies(struct run *r, size_t di, const struct shadow *sh, const struct cand *c, size_t n,
                        uint64_t sec, bool *mine, struct sbuf *found)
{
        for (size_t k = 0; k <= n; k++) {
                uint64_t start, pl[SBCOPY_MAX_PLACES];
                size_t np = copy_places(c, n, k, sh->size, sec, &start, pl);
                struct sb_copy cp[3];
                size_t ncp = np ? shadow_sb_copies(sh, start, pl, np, cp) : 0;
                size_t q = part_at(r->pl, di, start);
                const char *src = k < n ? c[k].src : "the disk's start";
                for (size_t j = k; j < n && c[j].start == start; j++)
                        if (c[j].end)
                                src = c[j].src; /* what a table names here rather than "a usual start" */
                for (size_t i = 0; i < ncp; i++) {
                        struct signature sg = {.type = (char *)cp[i].type, .uuid = cp[i].uuid};
                        const char *part = q != NO_OBJ ? r->os[q].found : NULL;
                        if ((q != NO_OBJ && sig_is_ours(r, q, &sg)) || (found->s && strstr(found->s, cp[i].uuid)) ||
                            (part && strstr(part, cp[i].uuid)))
                                continue;
                        _cleanup_free_ char *what = copy_text(&cp[i], src);
                        if (q == NO_OBJ) {
                                sbuf_printf(found, "%s%s", found->len ? ", " : "", what);
                                continue;
                        }
                        char *both = part ? xasprintf("%s, %s", part, what) : xstrdup(what);
                        free(r->os[q].found);
                        r->os[q].found = both;
                        mine[q] = true;
                }
        }
}

/* deep_scan's verdict: partitions with a finding (mine) and the disk's own
 * finding (found) or what could not be read (err) are wiped where allowed,
 * else refused. */
static void scan_verdict(struct run *r, size_t di, const bool *mine, struct sbuf *found, const struct sbuf *err)
{
        const struct plan *pl = r->pl;
        const struct pl_obj *d = &pl->objs[di];
        struct obj_state *os = &r->os[di];
        for (size_t i = 0; i < pl->n_objs && !err->len; i++) {
                const struct pl_obj *q = &pl->objs[i];
                if (!mine[i] || r->os[i].ours)
                        continue;
                if (os->wipe_ok)
                        r->os[i].needs_wipe = true;
                else
                        run_refuse(r,
                               "%s (%s) carries %s; the profile does not allow wiping it (add wipe=\"true\" to the "
                               "profile's <%s> element, or pass --wipe)",
                               q->id, q->dev, r->os[i].found, wipe_elem(pl, q));
        }
        if (err->len) {
                if (os->wipe_ok) {
                        os->needs_wipe = true;
                        free(os->found);
                        os->found = xasprintf("%s%swhat could not be read: %s", found->len ? found->s : "",
                                              found->len ? "; " : "", err->s);
                } else
                        run_refuse(r,
                               "%s (%s) cannot be read in full where data may be (%s)%s%s; storprov does not write to "
                               "a disk it could not inspect (wipe=\"true\" on <%s>, or --wipe, allows it)",
                               d->id, d->dev, err->s, found->len ? "; it carries " : "", found->len ? found->s : "",
                               wipe_elem(pl, d));
        } else if (found->len && os->wipe_ok) {
                os->needs_wipe = true;
                free(os->found);
                os->found = sbuf_steal(found);
        } else if (found->len) {
                run_refuse(r,
                       "%s (%s) carries %s, where no partition table points (an erased table?); the profile does not "
                       "allow wiping it (add wipe=\"true\" to <%s>, or pass --wipe)",
                       d->id, d->dev, found->s, wipe_elem(pl, d));
        }
}

/* Foreign data wherever it starts: before anything is written to a disk whose
 * partition table is not (or no longer) the planned one. One pass over the
 * held descriptor: the head and the tail (what an erased table still names),
 * then one bounded read per candidate start and end, all into a shadow that
 * libblkid probes without reading the disk again. Anything that cannot be read
 * refuses the disk (unless wiping is allowed; then it is said). What is found
 * is refused unless wiping is allowed; what is ours (our UUID at a planned
 * start) is kept. Raw data without a signature cannot be found this way
 * (storprov-apply(8) says so). */
static void deep_scan(struct run *r, size_t di, int fd, const struct gpt_part *have, size_t n_have)
{
        const struct plan *pl = r->pl;
        const struct pl_obj *d = &pl->objs[di];
        uint64_t size = d->size_bytes, sec = d->sector_bytes ? d->sector_bytes : SECTOR_BYTES;
        if (!size || size < 4 * sec)
                return;
        struct sbuf err = {0}, found = {0};
        struct shadow sh;
        int rc = shadow_open(&sh, size);
        if (rc < 0) {
                run_refuse(r, "%s (%s): cannot make room to inspect it: %s", d->id, d->dev, strerror(-rc));
                return;
        }
        /* the head and the tail, then what their tables name */
        uint64_t head = size < SCAN_HEAD ? size : SCAN_HEAD;
        uint64_t tail = size < SCAN_WINDOW ? size - size % sec : SCAN_WINDOW;
        struct shadow_extent ht[2] = {{0, head}, {size - tail, tail}};
        shadow_read_ranges(fd, &sh, ht, 2, &err);
        uint8_t *hb = xcalloc(1, head), *tb = xcalloc(1, tail);
        if (pread(sh.fd, hb, head, 0) != (ssize_t)head || pread(sh.fd, tb, tail, (off_t)(size - tail)) != (ssize_t)tail)
                sbuf_printf(&err, "%scannot read back what was read", err.len ? "; " : "");
        struct pt_scan t = {0};
        pt_scan_tables(hb, head, tb, tail, size, sec, &t);
        free(hb);
        free(tb);
        uint8_t *eb = xmalloc(sec);
        while (t.n_ebr) {
                uint64_t at = t.ebr[--t.n_ebr];
                if (probe_read_at(fd, at, sec, eb, &err) < 0)
                        break;
                (void)shadow_put(&sh, at, eb, sec);
                pt_scan_ebr(eb, sec, at, size, &t);
        }
        free(eb);
        struct cand *c = NULL;
        size_t n = scan_candidates(pl, di, have, n_have, &t, &c);
        pt_scan_free(&t);
        scan_reads(fd, &sh, c, n, size, sec, head, tail, &err);
        usual_end_starts(&sh, c, n);
        bool *mine = xcalloc(pl->n_objs ? pl->n_objs : 1, sizeof(bool)); /* partitions this scan found something in */
        /* probed from the shadow: at each start what has its magic in the window, at each end md; a usual
         * end's region is there for md at its end alone (its start, 0 or an md 1.0 member's, is not a
         * place a partition is known to start: at 0 the disk's own table would be named as foreign) */
        uint64_t probed = UINT64_MAX;
        for (size_t k = 0; k < n && !err.len; k++) {
                if (c[k].start >= size || (k && c[k].start == c[k - 1].start && c[k].end == c[k - 1].end))
                        continue;
                struct probe_result pr;
                bool at_start = !c[k].end_only && c[k].start != probed;
                if (at_start) {
                        probed = c[k].start;
                        rc = probe_shadow_head(&sh, c[k].start, size - c[k].start, SCAN_WINDOW, &pr);
                        if (rc < 0) {
                                sbuf_printf(&err, "%sprobing at offset %" PRIu64 " failed: %s", err.len ? "; " : "",
                                            c[k].start, strerror(-rc));
                                break;
                        }
                        start_sigs(r, di, c, n, k, &pr, mine, &found);
                        probe_result_free(&pr);
                }
                if (!c[k].end || c[k].end > size)
                        continue;
                uint64_t span = c[k].end - c[k].start;
                rc = probe_shadow(&sh, c[k].start, span, "linux_raid_member", &pr);
                if (rc < 0) {
                        sbuf_printf(&err, "%sprobing the end at offset %" PRIu64 " failed: %s", err.len ? "; " : "",
                                    c[k].end, strerror(-rc));
                        break;
                }
                for (size_t i = 0; i < pr.n_sigs; i++) {
                        const struct signature *sg = &pr.sigs[i];
                        if (sg->offset_bytes + SCAN_WINDOW < span)
                                continue; /* at the start: seen there */
                        size_t q = part_at(pl, di, c[k].start);
                        if (q != NO_OBJ && sig_is_ours(r, q, sg))
                                continue;
                        found_sig(&found, sg, c[k].start + sg->offset_bytes, span, c[k].src);
                }
                probe_result_free(&pr);
        }
        if (!err.len)
                scan_copies(r, di, &sh, c, n, sec, mine, &found);
        free(c);
        shadow_close(&sh);
        scan_verdict(r, di, mine, &found, &err);
        free(mine);
        free(found.s);
        free(err.s);
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
                run_refuse(r, "%s (%s) is in use: %s; storprov never writes to a device in use", d->id, d->dev, os->in_use);
}

static void find_in_use(struct run *r, size_t di)
{
        const struct pl_obj *d = &r->pl->objs[di];
        struct obj_state *os = &r->os[di];
        if (devices_fake(&r->dev) || !d->disk.bd)
                return;
        inspect_lib_lock(); /* libblkid's tag cache (the boot device's LABEL=, UUID=) */
        os->in_use = probe_in_use(r->o->sysroot, d->disk.bd->major, d->disk.bd->minor);
        char *boot = probe_boot_device(r->o->sysroot, d->disk.bd->major, d->disk.bd->minor);
        inspect_lib_unlock();
        if (boot) {
                char *both = os->in_use ? xasprintf("%s; %s", os->in_use, boot) : xstrdup(boot);
                free(os->in_use);
                free(boot);
                os->in_use = both;
        }
}

/* The partitions the plan puts on disk di (also when preserved: no step). */
static struct gpt_part *planned_parts(const struct plan *pl, size_t di, size_t *ret_n)
{
        struct gpt_part *want = NULL;
        size_t n = 0;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *q = &pl->objs[i];
                if (q->kind != OBJ_PART || q->parent != di)
                        continue;
                want = xrealloc(want, (n + 1) * sizeof(*want));
                want[n] = (struct gpt_part){.number = q->part.number, .name = q->part.name};
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
        _cleanup_free_ struct gpt_part *want = planned_parts(pl, di, &n_want);
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
        inspect_lib_lock(); /* libparted: one device list, one exception handler */
        int rc = gpt_read_lenient(path, &label, have, n_have, &damage, &err);
        inspect_lib_unlock();
        if (rc == -ENOMEDIUM) {
                if (d->preserve)
                        run_refuse(r, "%s (%s) is preserved, but it has no partition table", d->id, d->dev);
                /* other signatures on the bare disk (a whole-disk filesystem, md, LVM, a lone protective MBR) */
                inspect_region(r, di, path, 0, 0);
                return;
        }
        char guid[37];
        if (rc < 0 && !d->preserve && d->disk.gpt_guid && gpt_unfinished(path, d->sector_bytes) &&
            gpt_disk_guid(path, d->sector_bytes, guid) == 0 && uuid_eq(guid, d->disk.gpt_guid)) {
                run_say(r, "%s (%s) carries our GPT header (disk GUID %s) without entries or backup: an unfinished "
                       "partition table; it will be written again",
                    d->id, d->dev, guid);
                return;
        }
        if (rc < 0) {
                if (os->wipe_ok && !d->preserve) {
                        os->needs_wipe = true;
                        os->found = xasprintf("an unreadable partition table (%s)", err ? err : strerror(-rc));
                } else
                        run_refuse(r, "%s (%s): %s; the profile does not allow wiping it (add wipe=\"true\" to <%s>, or "
                                  "pass --wipe)",
                               d->id, d->dev, err ? err : strerror(-rc), wipe_elem(r->pl, d));
                return;
        }
        size_t n_want;
        struct gpt_part *want = planned_parts(r->pl, di, &n_want);
        bool ours = !strcmp(label, "gpt") && gpt_matches(*have, *n_have, want, n_want);
        free(want);
        _cleanup_free_ char *grown = NULL;
        if (ours && damage && d->preserve)
                run_refuse(r, "%s (%s) is preserved, but its partition table is damaged (%s); repair it first (sgdisk -e or "
                          "gdisk), storprov does not write to preserved disks",
                       d->id, d->dev, damage);
        else if (ours && damage) {
                os->repair_table = true;
                run_say(r, "%s (%s) carries the planned partition table, damaged (%s): an interrupted write; it will be "
                       "written again",
                    d->id, d->dev, damage);
        } else if (ours)
                os->ours = true;
        else if ((d->preserve || !os->wipe_ok) && (grown = grown_advice(r, di, path, label, *have, *n_have)))
                run_refuse(r, "%s", grown);
        else if (d->preserve)
                run_refuse(r, "%s (%s) is preserved, but its partition table (%s, %zu partitions) is not the planned one",
                       d->id, d->dev, label, *n_have);
        else if (os->wipe_ok) {
                os->needs_wipe = true;
                os->found = xasprintf("a %s%s partition table with %zu partition%s", damage ? "damaged " : "", label,
                                      *n_have, *n_have == 1 ? "" : "s");
        } else
                run_refuse(r,
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

/* Opens the disk for inspection, once, exclusively (O_EXCL) where it can:
 * another exclusive holder (a mount, md, dm, mkfs, another tool) makes that
 * fail with EBUSY, and is named (sysfs holders and mounts as find_in_use
 * says, else the processes that have it open). The disk is then opened
 * without O_EXCL to inspect it, and refuse_in_use refuses every write to it,
 * --wipe or not. Returns the descriptor, or -1 (a refusal says why). */
static int open_exclusive(struct run *r, size_t di, const char *path)
{
        const struct pl_obj *d = &r->pl->objs[di];
        struct obj_state *os = &r->os[di];
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_EXCL);
        os->excl_free = fd >= 0 && !d->disk.mpath_create;
        if (fd >= 0 || errno != EBUSY) {
                if (fd < 0)
                        run_refuse(r, "%s (%s): cannot open %s to inspect it: %s", d->id, d->dev, path, strerror(errno));
                return fd;
        }
        if (!os->in_use) {
                _cleanup_free_ char *who = probe_open_by(path);
                os->in_use = who ? xasprintf("another process holds it exclusively (O_EXCL); open by %s", who)
                                 : xstrdup("another holder has it open exclusively (O_EXCL), but no process has it "
                                           "or any of its partitions open (/proc/*/fd), and neither sysfs holders/ "
                                           "(md, dm), the mount table nor the active swaps name one for it: a kernel "
                                           "user (a loop device or an NBD export over it, a dm table being set "
                                           "up?); find it with 'lsblk' and 'dmsetup ls', free the disk, and run "
                                           "apply again");
        }
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                run_refuse(r, "%s (%s): cannot open %s to inspect it: %s", d->id, d->dev, path, strerror(errno));
        return fd;
}

/* Where libblkid's probers read a whole disk (util-linux 2.38, strace of
 * blkid -p on a blank disk): its first 512 KiB, 1, 2 and 4 MiB in, and its
 * last 2 MiB (firmware RAID metadata up to 3087 sectors before the end).
 * Asked for at once before the probe: each read that follows finds its
 * sectors there, or on their way, instead of waiting for a seek of its own
 * (bench/guest/seek.sh measures it on disks with a latency). */
static void prefetch_probe_regions(int fd, uint64_t size)
{
        static const struct {
                uint64_t off, len;
        } head[] = {{0, 512 * KiB}, {1 * MiB, 128 * KiB}, {2 * MiB, 128 * KiB}, {4 * MiB, 128 * KiB}};
        for (size_t i = 0; i < ELEMENTSOF(head); i++)
                if (head[i].off < size)
                        probe_prefetch(fd, head[i].off, head[i].len);
        uint64_t tail = 2 * MiB < size ? 2 * MiB : size;
        probe_prefetch(fd, size - tail, tail);
}

/* A disk, or a partitioned md (its partitions' rules are a disk's). The
 * descriptor of a disk that may be written is held (os->fd) until
 * inspect_release: no other exclusive opener can come between the inspection
 * and the confirmation. */
static void inspect_disk(struct run *r, size_t di)
{
        const struct pl_obj *d = &r->pl->objs[di];
        const struct plan *pl = r->pl;
        struct obj_state *os = &r->os[di];
        os->inspected = true;
        /* a multipath LUN whose map apply makes: what is on it is read through its first path */
        _cleanup_free_ char *path = dev_path(&r->dev, d->disk.mpath_create ? d->disk.paths[0]->devnode : d->dev);
        find_in_use(r, di);
        int fd = open_exclusive(r, di, path);
        bool partitioned = plans_partitions(pl, di);
        struct gpt_part *have = NULL;
        size_t n_have = 0;
        /* one full probe at 0 on the held descriptor (superblocks and partition tables) */
        if (fd >= 0 && d->size_bytes)
                prefetch_probe_regions(fd, d->size_bytes);
        struct probe_result pr0 = {0};
        int rc0 = fd >= 0 ? probe_signatures_fd(fd, 0, 0, &pr0) : -EBADF;
        if (rc0 < 0 && fd >= 0)
                run_refuse(r, "%s (%s): cannot probe it: %s; storprov does not write to a disk it could not inspect",
                       d->id, d->dev, strerror(-rc0));
        bool table = rc0 < 0;
        for (size_t i = 0; i < pr0.n_sigs; i++)
                table |= pr0.sigs[i].table;
        bool scan = fd >= 0 && !d->preserve;
        if (partitioned && table) {
                probe_result_free(&pr0);
                inspect_table(r, di, path, &have, &n_have);
                inspect_partitions(r, di, path);
        } else if (partitioned) {
                /* no table at all: what the bare disk carries; the planned regions are probed by the scan */
                if (d->preserve)
                        run_refuse(r, "%s (%s) is preserved, but it has no partition table", d->id, d->dev);
                classify_region(r, di, 0, &pr0);
                if (!scan || os->ours || os->needs_wipe)
                        inspect_partitions(r, di, path);
                else
                        for (size_t i = 0; i < pl->n_objs; i++)
                                if (pl->objs[i].kind == OBJ_PART && pl->objs[i].parent == di)
                                        r->os[i].wipe_ok = os->wipe_ok;
        } else if (rc0 == 0)
                classify_region(r, di, 0, &pr0);
        /* a disk that is not (yet) ours may still hold data where no table points */
        if (scan && !os->ours && !os->needs_wipe)
                deep_scan(r, di, fd, have, n_have);
        gpt_parts_free(have, n_have);
        refuse_in_use(r, di);
        /* a preserved disk is never written, and its arrays are assembled (mdadm opens the members
         * exclusively) right after the inspection: not held */
        if (fd >= 0 && r->holding && d->kind == OBJ_DISK && !d->preserve)
                os->fd = fd;
        else if (fd >= 0)
                close(fd);
}

void inspect_release(struct run *r)
{
        if (!r->holding)
                return;
        for (size_t i = 0; i < r->pl->n_objs; i++)
                if (r->os[i].fd >= 0) {
                        close(r->os[i].fd);
                        r->os[i].fd = -1;
                }
        r->holding = false;
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

/* Every disk at once, or one at a time with --jobs 1 (inspect_pool.c): inspect_disk touches its
 * disk's state and its partitions' only, and says everything through
 * say/refuse, which the pool replays in disk order. */
void inspect_all(struct run *r)
{
        const struct plan *pl = r->pl;
        wipe_permissions(r);
        run_say(r, "inspecting %zu objects before any write", pl->n_objs);
        size_t *disks = xcalloc(pl->n_objs ? pl->n_objs : 1, sizeof(*disks)), n = 0;
        for (size_t i = 0; i < pl->n_objs; i++) {
                r->os[i].fd = -1;
                r->os[i].inspect_s = -1;
                if (pl->objs[i].kind == OBJ_DISK)
                        disks[n++] = i;
        }
        r->holding = true;
        inspect_pool_run(r, disks, n, inspect_disk);
        free(disks);
        const struct inspect_stats *st = &r->inspection;
        if (st->threads)
                run_say(r, "inspected %zu disks in %.1fs, up to %u at a time (--jobs %u)", n, st->elapsed_s, st->threads,
                    st->jobs);
        else
                run_say(r, "inspected %zu disk%s in %.1fs, one at a time (--jobs %u)", n, n == 1 ? "" : "s", st->elapsed_s,
                    st->jobs);
}
