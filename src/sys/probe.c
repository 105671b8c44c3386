/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sys/probe.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <blkid.h>

#include "base/numbers.h"
#include "base/text.h"
#include "base/util.h"
#include "sys/mounttab.h"
#include "sys/sbcopy.h"

static void add_sig(struct probe_result *r, const char *type, const char *uuid, const char *label, uint64_t off,
                    bool table)
{
        r->sigs = xrealloc(r->sigs, (r->n_sigs + 1) * sizeof(*r->sigs));
        r->sigs[r->n_sigs++] = (struct signature){.type = xstrdup(type),
                                                  .uuid = xstrdup(uuid),
                                                  .label = xstrdup(label),
                                                  .offset_bytes = off,
                                                  .table = table};
}

/* Every signature libblkid finds in fd's window (offset, size; 0: to the end), as wipefs -n lists
 * them; only_type limits the probers to one superblock type, skip (NULL-terminated) leaves those out. */
static int probe_fd(int fd, uint64_t offset, uint64_t size, const char *only_type, const char *const *skip,
                    struct probe_result *ret)
{
        *ret = (struct probe_result){0};
        blkid_probe pr = blkid_new_probe();
        if (!pr)
                return -ENOMEM;
        int r = 0;
        if (blkid_probe_set_device(pr, fd, (blkid_loff_t)offset, (blkid_loff_t)size) < 0) {
                r = -EINVAL;
                goto out;
        }
        blkid_probe_enable_superblocks(pr, 1);
        blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_UUID | BLKID_SUBLKS_LABEL |
                                                      BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_BADCSUM);
        if (only_type) {
                char *names[] = {(char *)only_type, NULL};
                blkid_probe_filter_superblocks_type(pr, BLKID_FLTR_ONLYIN, names);
        } else {
                if (skip)
                        blkid_probe_filter_superblocks_type(pr, BLKID_FLTR_NOTIN, (char **)skip);
                blkid_probe_enable_partitions(pr, 1);
                blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
        }
        /* every signature, not just the first (as wipefs -n lists them) */
        for (;;) {
                int rc = blkid_do_probe(pr);
                if (rc == 1)
                        break;
                if (rc < 0) {
                        r = -EIO;
                        break;
                }
                const char *type = NULL, *uuid = NULL, *label = NULL, *off = NULL;
                bool table = false;
                if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) < 0)
                        table = blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0;
                blkid_probe_lookup_value(pr, "UUID", &uuid, NULL);
                blkid_probe_lookup_value(pr, "LABEL", &label, NULL);
                if (blkid_probe_lookup_value(pr, "SBMAGIC_OFFSET", &off, NULL) < 0)
                        blkid_probe_lookup_value(pr, "PTMAGIC_OFFSET", &off, NULL);
                uint64_t o = 0;
                if (off)
                        (void)parse_u64(off, &o);
                if (type)
                        add_sig(ret, type, uuid, label, o, table);
        }
out:
        blkid_free_probe(pr);
        if (r < 0)
                probe_result_free(ret);
        return r;
}

int probe_signatures_fd(int fd, uint64_t offset, uint64_t size, struct probe_result *ret)
{
        return probe_fd(fd, offset, size, NULL, NULL, ret);
}

int probe_signatures(const char *path, uint64_t offset, uint64_t size, struct probe_result *ret)
{
        *ret = (struct probe_result){0};
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        int r = probe_fd(fd, offset, size, NULL, NULL, ret);
        close(fd);
        return r;
}

int shadow_open(struct shadow *s, uint64_t size)
{
        *s = (struct shadow){.size = size};
        s->fd = memfd_create("storprov-shadow", MFD_CLOEXEC);
        if (s->fd < 0)
                return -errno;
        if (ftruncate(s->fd, (off_t)size) < 0) {
                int e = -errno;
                shadow_close(s);
                return e;
        }
        return 0;
}

bool shadow_has_data(const struct shadow *s, uint64_t off, uint64_t len)
{
        for (size_t i = 0; i < s->n_nz; i++)
                if (s->nz[i].off < off + len && off < s->nz[i].off + s->nz[i].len)
                        return true;
        return false;
}

static void shadow_mark(struct shadow *s, uint64_t off, uint64_t len)
{
        if (s->n_nz && s->nz[s->n_nz - 1].off + s->nz[s->n_nz - 1].len == off) {
                s->nz[s->n_nz - 1].len += len;
                return;
        }
        s->nz = xrealloc(s->nz, (s->n_nz + 1) * sizeof(*s->nz));
        s->nz[s->n_nz++] = (struct shadow_extent){off, len};
}

static bool all_zero(const uint8_t *p, size_t len)
{
        return !len || (p[0] == 0 && !memcmp(p, p + 1, len - 1));
}

static int shadow_write(struct shadow *s, uint64_t off, const uint8_t *buf, size_t len)
{
        for (size_t done = 0; done < len;) {
                ssize_t n = pwrite(s->fd, buf + done, len - done, (off_t)(off + done));
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        return n < 0 ? -errno : -EIO;
                done += (size_t)n;
        }
        return 0;
}

/* Stores the non-zero blocks of buf (one write per run of them) and marks
 * them; a zero block is written only over something stored before (the
 * memory file reads as zeros everywhere else already). */
int shadow_put(struct shadow *s, uint64_t off, const void *buf_, size_t len)
{
        const uint8_t *buf = buf_;
        size_t run = 0, run_len = 0; /* the pending run of blocks to write */
        for (size_t at = 0; at < len; at += SHADOW_BLOCK) {
                size_t bl = len - at < SHADOW_BLOCK ? len - at : SHADOW_BLOCK;
                bool nz = !all_zero(buf + at, bl);
                if (nz || shadow_has_data(s, off + at, bl)) {
                        if (!run_len)
                                run = at;
                        run_len += bl;
                        if (nz)
                                shadow_mark(s, off + at, bl);
                        continue;
                }
                if (run_len) {
                        int r = shadow_write(s, off + run, buf + run, run_len);
                        if (r < 0)
                                return r;
                        run_len = 0;
                }
        }
        return run_len ? shadow_write(s, off + run, buf + run, run_len) : 0;
}

static int shadow_probe(struct shadow *s, uint64_t offset, uint64_t size, const char *only_type,
                        const char *const *skip, struct probe_result *ret)
{
        s->probes++;
        uint64_t end = size && offset + size < s->size ? offset + size : s->size;
        if (offset < end && !shadow_has_data(s, offset, end - offset)) {
                *ret = (struct probe_result){0};
                s->skipped++;
                return 0;
        }
        return probe_fd(s->fd, offset, size, only_type, skip, ret);
}

int probe_shadow(struct shadow *s, uint64_t offset, uint64_t size, const char *only_type,
                 struct probe_result *ret)
{
        return shadow_probe(s, offset, size, only_type, NULL, ret);
}

/* libblkid 2.x's probers whose magic is never within the first PROBE_FAR_END
 * bytes of a region longer than that plus PROBE_END_ZONE: firmware RAID and
 * DRBD metadata in the last 3087 sectors (Promise's deepest copy), ZFS's
 * uberblocks 128 KiB into a label, VMFS at 1 MiB and more. Each reads its
 * own sectors (Promise 13 of them), near the end, on every probe. */
static const char *const far_types[] = {
        "promise_fasttrack_raid_member", "ddf_raid_member", "isw_raid_member", "lsi_mega_raid_member",
        "via_raid_member", "silicon_medley_raid_member", "nvidia_raid_member", "hpt45x_raid_member",
        "adaptec_raid_member", "jmicron_raid_member", "drbd", "zfs_member", "VMFS_volume_member", "VMFS", NULL,
};
#define PROBE_END_ZONE (4ull << 20)

int probe_shadow_head(struct shadow *s, uint64_t offset, uint64_t size, uint64_t near, struct probe_result *ret)
{
        uint64_t len = size ? size : (offset < s->size ? s->size - offset : 0);
        bool far = near <= 128 * 1024 && len >= near + PROBE_END_ZONE;
        return shadow_probe(s, offset, size, NULL, far ? far_types : NULL, ret);
}

static int cmp_range(const void *a, const void *b)
{
        const struct shadow_extent *x = a, *y = b;
        return x->off < y->off ? -1 : x->off > y->off;
}

void probe_prefetch(int fd, uint64_t off, uint64_t len)
{
        /* a hint: the page cache may drop it, and a read then goes to the disk */
        (void)posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_WILLNEED);
}

int probe_read_at(int fd, uint64_t off, size_t len, uint8_t *buf, struct sbuf *err)
{
        for (size_t done = 0; done < len;) {
                ssize_t n = pread(fd, buf + done, len - done, (off_t)(off + done));
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0) {
                        char h[32];
                        sbuf_printf(err, "%s%" PRIu64 " bytes at offset %" PRIu64 " (%s): %s", err->len ? "; " : "",
                                    (uint64_t)(len - done), off + done, fmt_size_human(off + done, h),
                                    n < 0 ? strerror(errno) : "short read");
                        return -EIO;
                }
                done += (size_t)n;
        }
        return 0;
}

void shadow_read_ranges(int fd, struct shadow *sh, struct shadow_extent *v, size_t n, struct sbuf *err)
{
        qsort(v, n, sizeof(*v), cmp_range);
        size_t m = 0;
        for (size_t k = 0; k < n; k++) {
                if (!v[k].len)
                        continue;
                if (m && v[k].off <= v[m - 1].off + v[m - 1].len) {
                        uint64_t end = v[k].off + v[k].len;
                        if (end > v[m - 1].off + v[m - 1].len)
                                v[m - 1].len = end - v[m - 1].off;
                } else
                        v[m++] = v[k];
        }
        /* every range asked for before the first is waited on: the disk gets them
         * together (in flight at once, in its order), not one seek per read */
        for (size_t k = 0; k < m; k++)
                probe_prefetch(fd, v[k].off, v[k].len);
        for (size_t k = 0; k < m; k++) {
                uint8_t *buf = xmalloc(v[k].len);
                sh->reads++;
                sh->bytes_read += v[k].len;
                if (probe_read_at(fd, v[k].off, v[k].len, buf, err) == 0 && shadow_put(sh, v[k].off, buf, v[k].len) < 0)
                        sbuf_printf(err, "%scannot keep what was read (%s)", err->len ? "; " : "", strerror(ENOMEM));
                free(buf);
        }
}

/* What the shadow holds at [off, off + len) into buf (zeros where nothing was read). */
static bool shadow_get(const struct shadow *s, uint64_t off, uint8_t *buf, size_t len)
{
        return off < s->size && s->size - off >= len && pread(s->fd, buf, len, (off_t)off) == (ssize_t)len;
}

size_t shadow_sb_copies(const struct shadow *s, uint64_t start, const uint64_t *places, size_t n_places,
                        struct sb_copy *out)
{
        uint8_t *head = xcalloc(1, SHADOW_HEAD), blk[SBCOPY_READ];
        size_t hl = s->size - start < SHADOW_HEAD ? (size_t)(s->size - start) : SHADOW_HEAD, n = 0;
        if (start >= s->size || !shadow_get(s, start, head, hl)) {
                free(head);
                return 0;
        }
        if (sbcopy_xfs_unmagicked(head, hl, start, &out[n]))
                n++;
        for (size_t i = 0; i < n_places; i++) {
                struct sb_copy c;
                if (!shadow_has_data(s, places[i], SBCOPY_READ) || !shadow_get(s, places[i], blk, sizeof(blk)) ||
                    !sbcopy_match(blk, sizeof(blk), places[i], start, &c) || sbcopy_primary(head, hl, c.fmt))
                        continue;
                bool seen = false; /* one copy per format: the first */
                for (size_t k = 0; k < n; k++)
                        seen |= out[k].fmt == c.fmt;
                if (!seen && n < 3)
                        out[n++] = c;
        }
        free(head);
        return n;
}

void shadow_close(struct shadow *s)
{
        if (s->fd >= 0)
                close(s->fd);
        s->fd = -1;
        free(s->nz);
        s->nz = NULL;
        s->n_nz = 0;
}

void probe_result_free(struct probe_result *r)
{
        for (size_t i = 0; i < r->n_sigs; i++) {
                free(r->sigs[i].type);
                free(r->sigs[i].uuid);
                free(r->sigs[i].label);
        }
        free(r->sigs);
        *r = (struct probe_result){0};
}

const struct signature *probe_find(const struct probe_result *r, const char *type)
{
        for (size_t i = 0; i < r->n_sigs; i++)
                if (streq_ptr(r->sigs[i].type, type))
                        return &r->sigs[i];
        return NULL;
}

char *probe_describe(const struct probe_result *r)
{
        struct sbuf b = {0};
        for (size_t i = 0; i < r->n_sigs; i++) {
                const struct signature *s = &r->sigs[i];
                sbuf_printf(&b, "%s%s", i ? ", " : "", s->type);
                if (s->uuid || s->label) {
                        sbuf_puts(&b, " (");
                        if (s->label)
                                sbuf_printf(&b, "label %s%s", s->label, s->uuid ? ", " : "");
                        if (s->uuid)
                                sbuf_printf(&b, "uuid %s", s->uuid);
                        sbuf_puts(&b, ")");
                }
        }
        return sbuf_steal(&b);
}

/* major:minor of every partition of the device, plus the device itself. */
static size_t family(const char *sysroot, unsigned major, unsigned minor, dev_t **ret, char ***ret_names)
{
        size_t n = 0;
        *ret = NULL;
        *ret_names = NULL;
        char rel[64];
        snprintf(rel, sizeof rel, "sys/dev/block/%u:%u", major, minor);
        char *dir = path_join(sysroot, rel);
        char *real = realpath(dir, NULL);
        *ret = xrealloc(*ret, sizeof(dev_t));
        (*ret)[n++] = makedev(major, minor);
        const char *base = real ? strrchr(real, '/') : NULL;
        strv_push(ret_names, base ? base + 1 : "?");
        DIR *d = real ? opendir(real) : NULL;
        struct dirent *de;
        while (d && (de = readdir(d))) {
                if (de->d_name[0] == '.')
                        continue;
                char *pf = xasprintf("%s/%s/partition", real, de->d_name);
                char *devf = xasprintf("%s/%s/dev", real, de->d_name);
                unsigned ma, mi;
                char *v = access(pf, F_OK) == 0 ? read_line_file(devf) : NULL;
                if (v && sscanf(v, "%u:%u", &ma, &mi) == 2) {
                        *ret = xrealloc(*ret, (n + 1) * sizeof(dev_t));
                        (*ret)[n++] = makedev(ma, mi);
                        strv_push(ret_names, de->d_name);
                }
                free(v);
                free(pf);
                free(devf);
        }
        if (d)
                closedir(d);
        free(real);
        free(dir);
        return n;
}

char *probe_in_use(const char *sysroot, unsigned major, unsigned minor)
{
        dev_t *devs;
        char **names;
        size_t n = family(sysroot, major, minor, &devs, &names);
        struct sbuf b = {0};

        /* mounted: by the device number of each mountinfo line (sys/mounttab.h) */
        struct mount_entry *mv = NULL;
        size_t nmv = 0;
        char **errors = NULL;
        (void)mounttab_read(MOUNTTAB_MOUNTINFO, sysroot, "proc/self/mountinfo", false, &mv, &nmv, &errors);
        strv_free(errors);
        for (size_t k = 0; k < nmv; k++)
                for (size_t i = 0; i < n; i++)
                        if (makedev(mv[k].major, mv[k].minor) == devs[i]) {
                                _cleanup_free_ char *mp = comment_dup(mv[k].mountpoint);
                                sbuf_printf(&b, "%s%s is mounted at %s", b.len ? "; " : "", names[i], mp);
                        }
        mount_entries_free(mv, nmv);

        /* swap: /proc/swaps names device paths (read confined, as the mount table: never through a
         * link as the file itself, never a FIFO waited on) */
        char *sw_path = path_join(sysroot, "proc/swaps");
        char *swaps = NULL;
        size_t sw_len;
        if (read_file_under_len(sysroot, sw_path, MiB, &swaps, &sw_len) < 0)
                swaps = NULL;
        for (char *save = NULL, *line = swaps ? strtok_r(swaps, "\n", &save) : NULL; line;
             line = strtok_r(NULL, "\n", &save)) {
                char dev[1024];
                struct stat st;
                if (sscanf(line, "%1023s", dev) != 1 || dev[0] != '/' || stat(dev, &st) < 0 || !S_ISBLK(st.st_mode))
                        continue;
                for (size_t i = 0; i < n; i++)
                        if (st.st_rdev == devs[i])
                                sbuf_printf(&b, "%s%s is active swap", b.len ? "; " : "", names[i]);
        }
        free(swaps);
        free(sw_path);

        /* holders: md or dm built on it */
        for (size_t i = 0; i < n; i++) {
                char rel[96];
                snprintf(rel, sizeof rel, "sys/dev/block/%u:%u/holders", major(devs[i]), minor(devs[i]));
                char *hp = path_join(sysroot, rel);
                DIR *d = opendir(hp);
                struct dirent *de;
                while (d && (de = readdir(d)))
                        if (de->d_name[0] != '.')
                                sbuf_printf(&b, "%s%s is held by %s", b.len ? "; " : "", names[i], de->d_name);
                if (d)
                        closedir(d);
                free(hp);
        }
        free(devs);
        strv_free(names);
        return b.len ? sbuf_steal(&b) : (free(b.s), NULL);
}

/* "LABEL=x", "UUID=y", "/dev/sda2", "hd:LABEL=x:/path" → a device path, or NULL */
static char *resolve_spec(const char *spec)
{
        char *s = xstrdup(spec);
        if (startswith(s, "hd:")) {
                memmove(s, s + 3, strlen(s + 3) + 1);
                /* hd:DEV:PATH — the path part follows the last ':' after the device spec */
                char *colon = strchr(startswith(s, "/dev/") ? s : (strchr(s, '=') ? strchr(s, '=') : s), ':');
                if (colon)
                        *colon = 0;
        }
        char *dev = NULL;
        if (s[0] == '/')
                dev = xstrdup(s);
        else if (strchr(s, '=')) {
                char *v = blkid_evaluate_tag(s, NULL, NULL);
                dev = xstrdup(v);
                free(v);
        }
        free(s);
        return dev;
}

char *probe_boot_device(const char *sysroot, unsigned major, unsigned minor)
{
        char *cmdline_path = path_join(sysroot, "proc/cmdline");
        char *cmdline = read_line_file(cmdline_path);
        free(cmdline_path);
        if (!cmdline)
                return NULL;
        static const char *const keys[] = {"root=", "inst.stage2=", "inst.repo=", "inst.ks=", "rd.live.image.dev="};
        dev_t *devs;
        char **names;
        size_t n = family(sysroot, major, minor, &devs, &names);
        char *found = NULL;
        char **words = strv_split(cmdline, " ");
        for (size_t w = 0; words && words[w] && !found; w++) {
                for (size_t k = 0; k < ELEMENTSOF(keys) && !found; k++) {
                        if (!startswith(words[w], keys[k]))
                                continue;
                        const char *spec = words[w] + strlen(keys[k]);
                        if (!strcmp(keys[k], "inst.stage2=") || !strcmp(keys[k], "inst.repo=") ||
                            !strcmp(keys[k], "inst.ks="))
                                if (!startswith(spec, "hd:"))
                                        continue;
                        char *dev = resolve_spec(spec);
                        struct stat st;
                        if (dev && stat(dev, &st) == 0 && S_ISBLK(st.st_mode))
                                for (size_t i = 0; i < n; i++)
                                        if (st.st_rdev == devs[i])
                                                found = xasprintf("%s is the boot device (%s on the kernel command line)",
                                                                  names[i], words[w]);
                        free(dev);
                }
        }
        strv_free(words);
        free(devs);
        strv_free(names);
        free(cmdline);
        return found;
}

/* Which of devs (n of them) the descriptor entry `name` of the directory fds is, or -1;
 * with no devs (a plain file, as under STORPROV_DEVROOT), whether it is that file. */
static ssize_t fd_matches(DIR *fds, const char *name, const struct stat *want, const dev_t *devs, size_t n)
{
        struct stat st;
        if (fstatat(dirfd(fds), name, &st, 0) < 0)
                return -1;
        if (!n)
                return st.st_dev == want->st_dev && st.st_ino == want->st_ino ? 0 : -1;
        for (size_t i = 0; S_ISBLK(st.st_mode) && i < n; i++)
                if (st.st_rdev == devs[i])
                        return (ssize_t)i;
        return -1;
}

char *probe_open_by(const char *path)
{
        struct stat want;
        if (stat(path, &want) < 0)
                return NULL;
        /* a block device: it and each of its partitions (an O_EXCL holder of a partition
         * keeps the whole disk from an exclusive open too) */
        dev_t *devs = NULL;
        char **names = NULL;
        size_t n = S_ISBLK(want.st_mode) ? family("/", major(want.st_rdev), minor(want.st_rdev), &devs, &names) : 0;
        DIR *proc = opendir("/proc");
        if (!proc) {
                free(devs);
                strv_free(names);
                return NULL;
        }
        struct sbuf b = {0};
        pid_t self = getpid();
        for (struct dirent *e; (e = readdir(proc));) {
                char *end = NULL;
                long pid = strtol(e->d_name, &end, 10);
                if (!end || *end || pid <= 0 || pid == self)
                        continue;
                _cleanup_free_ char *fddir = xasprintf("/proc/%ld/fd", pid);
                DIR *fds = opendir(fddir);
                if (!fds)
                        continue;
                char **on = NULL;   /* the partitions it has open; the device itself shows as no name */
                bool has = false;
                for (struct dirent *f; (f = readdir(fds));) {
                        ssize_t k = f->d_name[0] == '.' ? -1 : fd_matches(fds, f->d_name, &want, devs, n);
                        if (k < 0)
                                continue;
                        has = true;
                        if (k > 0 && !strv_contains(on, names[k]))
                                strv_push(&on, names[k]);
                }
                closedir(fds);
                if (has) {
                        _cleanup_free_ char *cf = xasprintf("/proc/%ld/comm", pid);
                        _cleanup_free_ char *comm = read_line_file(cf);
                        _cleanup_free_ char *parts = on ? strv_join(on, ", ") : NULL;
                        sbuf_printf(&b, "%spid %ld (%s)%s%s", b.len ? ", " : "", pid, comm ? comm : "?",
                                    parts ? " on its partition " : "", parts ? parts : "");
                }
                strv_free(on);
        }
        closedir(proc);
        free(devs);
        strv_free(names);
        return b.s;
}
