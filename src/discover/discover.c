/* SPDX-License-Identifier: GPL-2.0-or-later
 * Discovery: read what block devices exist from sysfs, the udev database and
 * /proc/meminfo under a sysroot. Everything here is read-only and tolerant:
 * a missing or unreadable attribute leaves its field at the documented
 * default, and only an unreadable SYSROOT/sys/block is an error. */
#include "discover/discover.h"
#include "discover/controller.h"
#include "discover/devlinks.h"
#include "discover/devnames.h"
#include "base/strmap.h"
#include "discover/sysuse.h"
#include "discover/udevdb.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>


/* The sysroot being read. A captured tree comes from the field: nothing in it
 * may lead outside it. Attribute files are read only when they are not links
 * and directories are entered only when their real path stays inside (sysfs's
 * own links, sys/block/X -> ../devices/…, device, holders, resolve inside a
 * faithful capture), or inside a real sysfs mount. Discovery runs once, single-threaded, in sysinfo_load. */
static const char *cur_root = "/";
/* Where discovery's warnings go (sysinfo_load's d, NULL: nowhere). */
static struct diags *cur_diags;

/* A real sysfs (a composed test sysroot may link its sys to the live /sys):
 * it holds kernel attributes only, so reading it is what a live run does. */
static bool on_sysfs(const char *path)
{
        struct statfs sf;
        return statfs(path, &sf) == 0 && sf.f_type == SYSFS_MAGIC;
}

static bool inside(const char *path)
{
        return path_under(cur_root, path) || on_sysfs(path);
}

static int confined_read(const char *path, char **ret)
{
        int r = read_file_under(cur_root, path, ret);
        if (r == -EXDEV && on_sysfs(path))
                r = read_file_under("/", path, ret); /* still never through a link as the file itself */
        return r;
}

/* First line of PATH, stripped; NULL if missing or refused. */
static char *confined_line(const char *path)
{
        char *s = NULL;
        if (confined_read(path, &s) < 0)
                return NULL;
        char *nl = strchr(s, '\n');
        if (nl)
                *nl = 0;
        return strip(s);
}

/* ---- small file and directory helpers ---------------------------------- */

/* First line of DIR/REL, stripped; NULL if missing, unreadable or empty. */
static char *attr_str(const char *dir, const char *rel)
{
        _cleanup_free_ char *p = path_join(dir, rel);
        char *s = confined_line(p);
        if (s && !*s) {
                free(s);
                return NULL;
        }
        return s;
}

/* Unsigned decimal attribute. Returns 0 and sets *ret, or a negative errno
 * (missing file, empty, not a number) and leaves *ret alone. */
static int attr_u64(const char *dir, const char *rel, uint64_t *ret)
{
        _cleanup_free_ char *s = attr_str(dir, rel);
        if (!s)
                return -ENOENT;
        uint64_t v;
        int r = parse_u64(s, &v);
        if (r < 0)
                return r;
        *ret = v;
        return 0;
}

static uint32_t attr_u32_or(const char *dir, const char *rel, uint32_t dflt)
{
        uint64_t v;
        if (attr_u64(dir, rel, &v) < 0 || v > UINT32_MAX)
                return dflt;
        return (uint32_t)v;
}

static bool attr_bool(const char *dir, const char *rel)
{
        uint64_t v;
        return attr_u64(dir, rel, &v) == 0 && v != 0;
}

static bool is_dir(const char *path)
{
        struct stat st;
        /* follows symlinks, as sysfs is made of them, but only inside the sysroot */
        return stat(path, &st) == 0 && S_ISDIR(st.st_mode) && inside(path);
}

static bool is_file(const char *path)
{
        struct stat st;
        return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Names in PATH, without "." entries or hidden files (sysfs has none; a
 * captured tree may hold a ".keep"). Returns 0 (with *ret possibly NULL for
 * an empty directory) or -errno if PATH cannot be opened. */
static int list_dir(const char *path, char ***ret)
{
        DIR *d = opendir(path);
        if (!d)
                return -errno;
        if (!inside(path)) {
                closedir(d);
                return -EXDEV;
        }
        /* grown by doubling, not strv_push (which walks the vector): sys/block of
         * 12,000 LUNs must not cost N² */
        char **v = NULL;
        size_t n = 0, cap = 0;
        struct dirent *e;
        while ((e = readdir(d)))
                if (e->d_name[0] != '.') {
                        if (n + 2 > cap)
                                v = xrealloc(v, (cap = cap ? 2 * cap : 16) * sizeof(char *));
                        v[n++] = xstrdup(e->d_name);
                        v[n] = NULL;
                }
        closedir(d);
        *ret = v;
        return 0;
}

/* Kernel names sort as sda < sdb < … < sdz < sdaa: shorter first, then lexical. */
static int name_cmp(const char *a, const char *b)
{
        size_t la = strlen(a), lb = strlen(b);
        if (la != lb)
                return la < lb ? -1 : 1;
        return strcmp(a, b);
}

static int strp_cmp(const void *a, const void *b)
{
        return name_cmp(*(char *const *)a, *(char *const *)b);
}

static int dev_cmp(const void *a, const void *b)
{
        return name_cmp(((const struct blockdev *)a)->name, ((const struct blockdev *)b)->name);
}

/* ---- udev database ----------------------------------------------------- */

struct udev_props {
        char *id_serial, *id_serial_short, *id_scsi_serial, *id_wwn, *id_path;
        char *fs_type, *fs_uuid, *md_uuid, *md_devname, *dm_vg_name, *dm_lv_name;
        char *fs_label, *fs_label_enc, *part_uuid, *part_name;
        char **links;             /* S: lines that pass link_name_ok() */
};

static char *label_of(const struct udev_props *u)
{
        return u->fs_label_enc ? udev_decode(u->fs_label_enc) : xstrdup(u->fs_label);
}

static void udev_props_done(struct udev_props *u)
{
        free(u->id_serial);
        free(u->id_serial_short);
        free(u->id_scsi_serial);
        free(u->id_wwn);
        free(u->id_path);
        free(u->fs_type);
        free(u->fs_uuid);
        free(u->md_uuid);
        free(u->md_devname);
        free(u->dm_vg_name);
        free(u->dm_lv_name);
        free(u->fs_label);
        free(u->fs_label_enc);
        free(u->part_uuid);
        free(u->part_name);
        strv_free(u->links);
        *u = (struct udev_props){0};
}

static void set_prop(char **field, const char *value)
{
        free(*field);
        *field = *value ? xstrdup(value) : NULL;
}

/* SYSROOT/run/udev/data/b<major>:<minor>: "E:KEY=VALUE" lines are properties,
 * "S:" symlinks, the rest bookkeeping. A missing file leaves u empty. */
static void udev_props_read(const char *sysroot, unsigned major, unsigned minor, struct udev_props *u)
{
        _cleanup_free_ char *text = NULL;
        int r = udev_db_read(sysroot, major, minor, &text);
        const char *why = udev_db_refusal(r);
        if (why && cur_diags) {
                _cleanup_free_ char *p = xasprintf("%s/run/udev/data/b%u:%u", sysroot, major, minor);
                _cleanup_free_ char *shown = comment_dup(p);
                diag_add(cur_diags, DIAG_WARNING, NULL, 0, "discovery", RULE_UDEV_DATA,
                         "ignoring %s: %s; what udev knows of device %u:%u (serial, WWN, by-path, filesystem) "
                         "is left out: run udevadm trigger on that machine, or capture the tree again "
                         "(tests/fixtures/capture-sysroot.sh)",
                         shown, why, major, minor);
        }
        if (r < 0)
                return;

        char *save = NULL;
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                if (startswith(line, "S:")) {
                        if (link_name_ok(line + 2) && strv_len(u->links) < MAX_LINKS_PER_DEV &&
                            !strv_contains(u->links, line + 2))
                                strv_push(&u->links, line + 2);
                        continue;
                }
                if (!startswith(line, "E:"))
                        continue;
                char *kv = line + 2;
                char *eq = strchr(kv, '=');
                if (!eq)
                        continue;
                *eq = 0;
                const char *value = eq + 1;
                if (strcmp(kv, "ID_SERIAL") == 0)
                        set_prop(&u->id_serial, value);
                else if (strcmp(kv, "ID_SERIAL_SHORT") == 0)
                        set_prop(&u->id_serial_short, value);
                else if (strcmp(kv, "ID_SCSI_SERIAL") == 0)
                        set_prop(&u->id_scsi_serial, value);
                else if (strcmp(kv, "ID_WWN") == 0)
                        set_prop(&u->id_wwn, value);
                else if (strcmp(kv, "ID_PATH") == 0)
                        set_prop(&u->id_path, value);
                else if (strcmp(kv, "ID_FS_TYPE") == 0)
                        set_prop(&u->fs_type, value);
                else if (strcmp(kv, "ID_FS_UUID") == 0)
                        set_prop(&u->fs_uuid, value);
                else if (strcmp(kv, "MD_UUID") == 0)
                        set_prop(&u->md_uuid, value);
                else if (strcmp(kv, "MD_DEVNAME") == 0)
                        set_prop(&u->md_devname, value);
                else if (strcmp(kv, "DM_VG_NAME") == 0)
                        set_prop(&u->dm_vg_name, value);
                else if (strcmp(kv, "DM_LV_NAME") == 0)
                        set_prop(&u->dm_lv_name, value);
                else if (strcmp(kv, "ID_FS_LABEL") == 0)
                        set_prop(&u->fs_label, value);
                else if (strcmp(kv, "ID_FS_LABEL_ENC") == 0)
                        set_prop(&u->fs_label_enc, value);
                else if (strcmp(kv, "ID_PART_ENTRY_UUID") == 0)
                        set_prop(&u->part_uuid, value);
                else if (strcmp(kv, "ID_PART_ENTRY_NAME") == 0)
                        set_prop(&u->part_name, value);
        }
}

/* ---- derived attributes ------------------------------------------------ */

/* "naa.600050e0…" (kernel device/wwid) → "0x600050e0…" as udev's ID_WWN
 * would have it: udev keeps the first 64 bits there and puts the rest of
 * a 128-bit NAA 6 identifier in ID_WWN_VENDOR_EXTENSION, so we do the same.
 * Other designators (t10., eui., nvme.) give NULL. */
static char *wwn_from_wwid(const char *wwid)
{
        if (!wwid || !startswith(wwid, "naa."))
                return NULL;
        const char *h = wwid + 4;
        size_t n = strspn(h, "0123456789abcdefABCDEF");
        if ((n != 16 && n != 32) || (h[n] && !isspace((unsigned char)h[n])))
                return NULL;
        char buf[2 + 16 + 1] = "0x";
        for (size_t i = 0; i < 16; i++)
                buf[2 + i] = (char)tolower((unsigned char)h[i]);
        buf[18] = 0;
        return xstrdup(buf);
}

static bool digits(const char **c)
{
        const char *s = *c;
        while (**c >= '0' && **c <= '9')
                (*c)++;
        return *c > s;
}

bool blockdev_is_nvme(const struct blockdev *b)
{
        const char *c = b && b->name && startswith(b->name, "nvme") ? b->name + 4 : NULL;
        if (!c || !digits(&c))
                return false;
        if (*c == 'c' && (c++, !digits(&c)))
                return false;
        return *c++ == 'n' && digits(&c) && !*c;
}

enum io_hint_kind io_hint_kind_of(const struct blockdev *b)
{
        uint64_t phys = b->physical_sector_bytes ? b->physical_sector_bytes : SECTOR_BYTES;
        if (!b->io_opt_bytes && b->io_min_bytes <= phys)
                return IO_HINT_NONE;
        if (blockdev_is_nvme(b))
                return IO_HINT_NVME;
        if (b->io_min_bytes >= IO_HINT_MIN_STRIP_BYTES && b->io_opt_bytes > b->io_min_bytes)
                return IO_HINT_RAID_STRIPE;
        return IO_HINT_WRITE_GRANULARITY;
}

const char *io_hint_kind_name(enum io_hint_kind k)
{
        static const char *const names[_IO_HINT_MAX] = {
                [IO_HINT_NONE] = "none",
                [IO_HINT_WRITE_GRANULARITY] = "write-granularity",
                [IO_HINT_RAID_STRIPE] = "raid-stripe",
                [IO_HINT_NVME] = "nvme-write-granularity",
        };
        return (unsigned)k < _IO_HINT_MAX ? names[k] : NULL;
}

/* A kernel name or DEVNAME storprov will use as a path under /dev: the
 * characters kernel names are made of, no "." or ".." component, no leading
 * '/'. A captured tree could otherwise name /dev/../etc/passwd. */
static bool devname_safe(const char *s)
{
        if (!s || !*s || *s == '/' || strlen(s) > 128)
                return false;
        if (strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!_.+:/-") != strlen(s))
                return false;
        for (const char *p = s; p; p = strchr(p, '/'), p = p ? p + 1 : NULL)
                if (!strncmp(p, "..", 2) || (p[0] == '.' && (p[1] == '/' || !p[1])) || p[0] == '/' || !p[0])
                        return false;
        return true;
}

/* "/dev/" + DEVNAME from the uevent file, else the kernel name with '!'
 * turned back into '/' ("cciss!c0d0" → "/dev/cciss/c0d0"). */
static char *devnode_for(const char *dir, const char *name)
{
        _cleanup_free_ char *p = path_join(dir, "uevent");
        _cleanup_free_ char *text = NULL;
        if (confined_read(p, &text) == 0) {
                char *save = NULL;
                for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
                        if (startswith(line, "DEVNAME=") && devname_safe(line + 8))
                                return xasprintf("/dev/%s", line + 8);
        }
        char *node = xasprintf("/dev/%s", name);
        for (char *c = node + 5; *c; c++)
                if (*c == '!')
                        *c = '/';
        return node;
}

/* queue/scheduler: "[mq-deadline] kyber bfq none" or "none [mq-deadline] kyber bfq". */
static void parse_scheduler(const char *line, char **ret_active, char ***ret_all)
{
        char **words = strv_split(line, " \t");
        char **all = NULL;
        char *active = NULL;
        for (size_t i = 0; words && words[i]; i++) {
                char *w = words[i];
                size_t n = strlen(w);
                if (n >= 2 && w[0] == '[' && w[n - 1] == ']') {
                        w[n - 1] = 0;
                        w++;
                        free(active);
                        active = xstrdup(w);
                }
                if (*w)
                        strv_push(&all, w);
        }
        /* A lone unbracketed word (some older kernels print just "none") is the active one. */
        if (!active && strv_len(all) == 1)
                active = xstrdup(all[0]);
        strv_free(words);
        *ret_active = active;
        *ret_all = all;
}

static unsigned count_hw_queues(const char *dir)
{
        _cleanup_free_ char *mq = path_join(dir, "mq");
        char **names = NULL;
        if (list_dir(mq, &names) < 0)
                return 1;       /* bio-based or pre-blk-mq: one queue */
        unsigned n = 0;
        for (size_t i = 0; names && names[i]; i++) {
                _cleanup_free_ char *p = path_join(mq, names[i]);
                n += is_dir(p);
        }
        strv_free(names);
        return n ? n : 1;       /* a queue always exists even if the tree lost the dirs */
}

static bool dir_nonempty(const char *dir, const char *rel)
{
        _cleanup_free_ char *p = path_join(dir, rel);
        char **names = NULL;
        if (list_dir(p, &names) < 0)
                return false;
        bool r = names != NULL;
        strv_free(names);
        return r;
}

/* Subdirectories of DIR that contain a "partition" file, sorted. */
static char **list_partitions(const char *dir)
{
        char **names = NULL, **parts = NULL;
        if (list_dir(dir, &names) < 0)
                return NULL;
        for (size_t i = 0; names && names[i]; i++) {
                _cleanup_free_ char *sub = path_join(dir, names[i]);
                _cleanup_free_ char *pf = path_join(sub, "partition");
                if (is_dir(sub) && is_file(pf))
                        strv_push(&parts, names[i]);
        }
        strv_free(names);
        if (parts)
                qsort(parts, strv_len(parts), sizeof(char *), strp_cmp);
        return parts;
}

/* The udev data of each partition (its filesystem signature, for preserved objects). */
static void read_partinfo(const char *sysroot, const char *dir, struct blockdev *b)
{
        b->n_partinfo = strv_len(b->parts);
        b->partinfo = b->n_partinfo ? xcalloc(b->n_partinfo, sizeof(*b->partinfo)) : NULL;
        for (size_t i = 0; i < b->n_partinfo; i++) {
                struct blockpart *p = &b->partinfo[i];
                p->name = xstrdup(b->parts[i]);
                _cleanup_free_ char *rel = xasprintf("%s/dev", b->parts[i]);
                _cleanup_free_ char *dev = attr_str(dir, rel);
                if (!dev || sscanf(dev, "%u:%u", &p->major, &p->minor) != 2)
                        continue;
                struct udev_props u = {0};
                udev_props_read(sysroot, p->major, p->minor, &u);
                p->fs_type = xstrdup(u.fs_type);
                p->fs_uuid = xstrdup(u.fs_uuid);
                p->fs_label = label_of(&u);
                p->part_uuid = xstrdup(u.part_uuid);
                p->part_name = udev_decode(u.part_name);
                p->devlinks = u.links;
                u.links = NULL;
                udev_props_done(&u);
        }
}

/* ---- one device -------------------------------------------------------- */

/* dev: "MAJOR:MINOR", nothing after; whether b->major/minor were read. */
static bool read_dev_number(const char *dir, struct blockdev *b)
{
        _cleanup_free_ char *dev = attr_str(dir, "dev");
        if (!dev)
                return false;
        unsigned ma, mi;
        char extra;
        if (sscanf(dev, "%u:%u%c", &ma, &mi, &extra) != 2)
                return false;
        b->major = ma;
        b->minor = mi;
        return true;
}

/* Size, sector sizes, exported io hints, alignment offset, rotational, removable and read-only. */
static void read_geometry(const char *dir, struct blockdev *b)
{
        uint64_t sectors;
        if (attr_u64(dir, "size", &sectors) == 0 && sectors <= UINT64_MAX / SECTOR_BYTES)
                b->size_bytes = sectors * SECTOR_BYTES;   /* always 512-byte units, whatever the LBA size */

        b->logical_sector_bytes = attr_u32_or(dir, "queue/logical_block_size", 0);
        if (!b->logical_sector_bytes)
                b->logical_sector_bytes = SECTOR_BYTES;
        b->physical_sector_bytes = attr_u32_or(dir, "queue/physical_block_size", 0);
        if (!b->physical_sector_bytes)
                b->physical_sector_bytes = SECTOR_BYTES;

        uint64_t v;
        if (attr_u64(dir, "queue/minimum_io_size", &v) == 0)
                b->io_min_bytes = v;
        if (attr_u64(dir, "queue/optimal_io_size", &v) == 0)
                b->io_opt_bytes = v;
        /* The kernel prints -1 when the device cannot be aligned; parse_u64
         * refuses it and we keep 0. */
        if (attr_u64(dir, "alignment_offset", &v) == 0)
                b->alignment_offset_bytes = v;

        b->rotational = -1;
        if (attr_u64(dir, "queue/rotational", &v) == 0)
                b->rotational = v ? 1 : 0;
        b->removable = attr_bool(dir, "removable");
        b->readonly = attr_bool(dir, "ro");
}

/* The WWN: udev's ID_WWN, else derived from sysfs's wwid. */
static char *wwn_of(const char *dir, const struct blockdev *b, const struct udev_props *u)
{
        if (u->id_wwn)
                return xstrdup(u->id_wwn);
        _cleanup_free_ char *wwid = attr_str(dir, "device/wwid");
        if (!wwid)
                wwid = attr_str(dir, "wwid");
        /* an NVMe namespace's ID_WWN is its wwid as the kernel prints it (60-persistent-storage.rules) */
        return blockdev_is_nvme(b) && wwid && (startswith(wwid, "eui.") || startswith(wwid, "nvme.") ||
                                               startswith(wwid, "uuid."))
                       ? xstrdup(wwid)
                       : wwn_from_wwid(wwid);
}

/* Vendor and model, then what udev's database says (read when the device number is known): serials, WWN,
 * by-path, signatures, md and LVM names, links. */
static void read_identity(const char *sysroot, const char *dir, bool have_dev, struct blockdev *b)
{
        b->vendor = attr_str(dir, "device/vendor");
        b->model = attr_str(dir, "device/model");

        struct udev_props u = {0};
        if (have_dev)
                udev_props_read(sysroot, b->major, b->minor, &u);

        if (u.id_serial_short)
                b->serial = xstrdup(u.id_serial_short);
        else if (u.id_serial)
                b->serial = xstrdup(u.id_serial);
        else if (!(b->serial = attr_str(dir, "device/serial")))
                b->serial = attr_str(dir, "serial");
        b->id_serial = xstrdup(u.id_serial);
        b->unit_serial = xstrdup(u.id_scsi_serial);

        b->wwn = wwn_of(dir, b, &u);
        b->wwid = attr_str(dir, "device/wwid");
        if (!b->wwid)
                b->wwid = attr_str(dir, "wwid");
        b->id_path = xstrdup(u.id_path);
        b->fs_type = xstrdup(u.fs_type);
        b->fs_uuid = xstrdup(u.fs_uuid);
        b->md_uuid = xstrdup(u.md_uuid);
        b->md_devname = xstrdup(u.md_devname);
        b->dm_vg_name = xstrdup(u.dm_vg_name);
        b->dm_lv_name = xstrdup(u.dm_lv_name);
        b->fs_label = label_of(&u);
        b->devlinks = u.links;
        u.links = NULL;
        udev_props_done(&u);
}

/* The request queue's limits, its scheduler and its hardware queues. */
static void read_queue(const char *dir, struct blockdev *b)
{
        b->max_hw_sectors_kb = attr_u32_or(dir, "queue/max_hw_sectors_kb", 0);
        b->max_sectors_kb = attr_u32_or(dir, "queue/max_sectors_kb", 0);
        b->max_segments = attr_u32_or(dir, "queue/max_segments", 0);
        b->max_segment_size = attr_u32_or(dir, "queue/max_segment_size", 0);
        b->nr_requests = attr_u32_or(dir, "queue/nr_requests", 0);
        b->read_ahead_kb = attr_u32_or(dir, "queue/read_ahead_kb", 0);

        _cleanup_free_ char *sched = attr_str(dir, "queue/scheduler");
        if (sched)
                parse_scheduler(sched, &b->scheduler, &b->schedulers);

        b->nr_hw_queues = count_hw_queues(dir);
}

/* What is stacked on it (holders, partitions) and what it is built on (md level, dm, slaves). */
static void read_stacking(const char *sysroot, const char *dir, struct blockdev *b)
{
        b->has_holders = dir_nonempty(dir, "holders");
        b->parts = list_partitions(dir);
        read_partinfo(sysroot, dir, b);
        b->md_level = attr_str(dir, "md/level");
        b->dm_uuid = attr_str(dir, "dm/uuid");
        b->dm_name = attr_str(dir, "dm/name");
        /* what it is built on (a map's paths, an md's members, an LV's PVs): which disks the system
         * runs from is found through them */
        _cleanup_free_ char *sl = path_join(dir, "slaves");
        if (list_dir(sl, &b->slaves) == 0 && b->slaves)
                qsort(b->slaves, strv_len(b->slaves), sizeof(char *), strp_cmp);
}

/* One device's sysfs directory and udev data, read in this order: device number, geometry, identity,
 * queue, stacking. */
static void load_dev(const char *sysroot, const char *dir, const char *name, struct blockdev *b)
{
        *b = (struct blockdev){0};
        b->name = xstrdup(name);
        b->devnode = devnode_for(dir, name);
        bool have_dev = read_dev_number(dir, b);
        read_geometry(dir, b);
        read_identity(sysroot, dir, have_dev, b);
        read_queue(dir, b);
        read_stacking(sysroot, dir, b);
}

/* "naa.600a0b80…" → "3600a0b80…", as scsi_id prints an NAA designator (the WWID
 * multipath uses when udev gave no ID_SERIAL). */
static char *mpath_wwid_from_sysfs(const char *wwid)
{
        if (!wwid || !startswith(wwid, "naa."))
                return NULL;
        char *w = xasprintf("3%s", wwid + 4);
        for (char *c = w; *c; c++)
                *c = (char)tolower((unsigned char)*c);
        return w;
}

/* Multipath: a map (dm/uuid "mpath-WWID") and the paths under it (its
 * slaves/). A path not under a map gets the WWID multipath would give it. */
static void link_multipath(struct sysinfo *s)
{
        for (size_t i = 0; i < s->n_devs; i++) {
                struct blockdev *m = &s->devs[i];
                if (!m->dm_uuid || !startswith(m->dm_uuid, "mpath-") || !m->dm_uuid[6])
                        continue;
                m->mpath_wwid = xstrdup(m->dm_uuid + 6);
                for (size_t k = 0; m->slaves && m->slaves[k]; k++)
                        for (size_t j = 0; j < s->n_devs; j++)
                                if (!strcmp(s->devs[j].name, m->slaves[k]) && !s->devs[j].mpath_map) {
                                        s->devs[j].mpath_map = xstrdup(m->name);
                                        free(s->devs[j].mpath_wwid);
                                        s->devs[j].mpath_wwid = xstrdup(m->mpath_wwid);
                                }
        }
        for (size_t i = 0; i < s->n_devs; i++) {
                struct blockdev *b = &s->devs[i];
                if (b->mpath_wwid || b->dm_uuid || startswith(b->name, "md") || startswith(b->name, "loop"))
                        continue;
                if (blockdev_is_nvme(b)) /* multipath-tools' uid_attrs for nvme: ID_WWN */
                        b->mpath_wwid = xstrdup(b->wwn);
                else
                        b->mpath_wwid = b->id_serial ? xstrdup(b->id_serial) : mpath_wwid_from_sysfs(b->wwid);
        }
}

/* Loop devices count only with a backing file; RAM disks never. */
static bool skip_entry(const char *dir, const char *name)
{
        if (startswith(name, "ram") || startswith(name, "zram"))
                return true;
        if (startswith(name, "loop")) {
                _cleanup_free_ char *backing = attr_str(dir, "loop/backing_file");
                return backing == NULL;
        }
        return false;
}

/* ---- the machine ------------------------------------------------------- */

static uint64_t read_mem_total(const char *sysroot)
{
        _cleanup_free_ char *p = path_join(sysroot, "proc/meminfo");
        _cleanup_free_ char *text = NULL;
        if (confined_read(p, &text) < 0)
                return 0;
        char *save = NULL;
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                uint64_t kib;
                if (sscanf(line, "MemTotal: %" SCNu64 " kB", &kib) == 1)
                        return kib <= UINT64_MAX / KiB ? kib * KiB : 0;
        }
        return 0;
}

static bool is_live_root(const char *sysroot)
{
        for (const char *c = sysroot; *c; c++)
                if (*c != '/')
                        return false;
        return true;
}

/* The live system knows its page size; a captured tree may carry the
 * "KernelPageSize:" line of proc/self/smaps (capture-sysroot.sh writes it). */
static long read_page_size(const char *sysroot)
{
        if (is_live_root(sysroot)) {
                long ps = sysconf(_SC_PAGESIZE);
                return ps > 0 ? ps : 4096;
        }
        _cleanup_free_ char *p = path_join(sysroot, "proc/self/smaps");
        _cleanup_free_ char *text = NULL;
        if (confined_read(p, &text) == 0) {
                char *save = NULL;
                for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                        unsigned long kib;
                        if (sscanf(line, "KernelPageSize: %lu kB", &kib) == 1 && kib > 0 && kib <= 1024 * 1024)
                                return (long)(kib * 1024);
                }
        }
        return 4096;
}

/* ---- the system's own disks ---------------------------------------------- */

#define PROC_TEXT_MAX (64 * MiB)

/* SYSROOT/proc/self/mountinfo, proc/swaps and proc/cmdline, as bytes, to sysuse_mark(). A file that
 * is not there tells nothing; one that is there but cannot be read is an error (which disks the
 * system runs from is then not known, and the planner refuses). */
static void read_system_use(const char *sysroot, struct sysinfo *s)
{
        static const char *const rels[] = {"proc/self/mountinfo", "proc/swaps", "proc/cmdline"};
        char *text[3] = {0};
        size_t len[3] = {0};
        for (size_t i = 0; i < 3; i++) {
                _cleanup_free_ char *p = path_join(sysroot, rels[i]);
                int r = read_file_under_len(sysroot, p, PROC_TEXT_MAX, &text[i], &len[i]);
                if (r == -ENOENT || r == -ENOTDIR)
                        text[i] = NULL;
                else if (r < 0)
                        strv_pushf(&s->system_errors, "%s cannot be read: %s", rels[i],
                                   r == -EFBIG ? "larger than 64 MiB" : r == -ELOOP ? "it is a symbolic link"
                                                                   : r == -EXDEV ? "it leads out of the tree"
                                                                                 : strerror(-r));
        }
        struct sysuse_input in = {.mountinfo = text[0], .mountinfo_len = len[0], .swaps = text[1], .swaps_len = len[1],
                                  .cmdline = text[2], .cmdline_len = len[2]};
        sysuse_mark(s, &in);
        for (size_t i = 0; i < 3; i++)
                free(text[i]);
}

int sysinfo_load(const char *sysroot, struct sysinfo *ret, struct diags *d)
{
        if (!sysroot || !*sysroot)
                sysroot = "/";

        cur_root = sysroot;
        cur_diags = d;
        _cleanup_free_ char *blockdir = path_join(sysroot, "sys/block");
        char **names = NULL;
        int r = list_dir(blockdir, &names);
        if (r < 0) {
                if (d)
                        diag_add(d, DIAG_ERROR, NULL, 0, "discovery", RULE_SYSFS_UNREADABLE,
                                 "cannot read %s: %s; give the root of a live system or of a captured tree "
                                 "(tests/fixtures/capture-sysroot.sh)", blockdir, strerror(-r));
                cur_root = "/";
                cur_diags = NULL;
                return r;
        }

        struct sysinfo s = {
                .sysroot = xstrdup(sysroot),
                .devs = xcalloc(strv_len(names) + 1, sizeof(struct blockdev)),
        };
        for (size_t i = 0; names && names[i]; i++) {
                _cleanup_free_ char *dir = path_join(blockdir, names[i]);
                if (!is_dir(dir) || skip_entry(dir, names[i]))
                        continue;
                if (!devname_safe(names[i]) || strchr(names[i], '/')) {
                        if (d) {
                                struct sbuf shown = {0};
                                for (const char *c = names[i]; *c && shown.len < 64; c++)
                                        sbuf_printf(&shown, "%c", (unsigned char)*c >= 0x20 && (unsigned char)*c < 0x7f ? *c : '?');
                                diag_add(d, DIAG_WARNING, NULL, 0, "discovery", RULE_DEVICE_NAME,
                                         "ignoring sys/block/%s: not a kernel device name", shown.s ? shown.s : "");
                                free(shown.s);
                        }
                        continue;
                }
                load_dev(sysroot, dir, names[i], &s.devs[s.n_devs++]);
        }
        strv_free(names);
        if (s.n_devs)
                qsort(s.devs, s.n_devs, sizeof(*s.devs), dev_cmp);
        link_multipath(&s);
        read_dev_links(sysroot, &s);
        sort_links(&s);
        read_system_use(sysroot, &s);

        s.mem_total_bytes = read_mem_total(sysroot);
        s.page_size = read_page_size(sysroot);

        cur_root = "/";
        cur_diags = NULL;
        *ret = s;
        return 0;
}

static void blockdev_done(struct blockdev *b)
{
        free(b->name);
        free(b->devnode);
        free(b->vendor);
        free(b->model);
        free(b->serial);
        free(b->id_serial);
        free(b->unit_serial);
        free(b->wwn);
        free(b->id_path);
        free(b->wwid);
        free(b->scheduler);
        strv_free(b->schedulers);
        strv_free(b->parts);
        free(b->md_level);
        free(b->fs_type);
        free(b->fs_uuid);
        free(b->md_uuid);
        free(b->md_devname);
        free(b->dm_vg_name);
        free(b->dm_lv_name);
        for (size_t i = 0; i < b->n_partinfo; i++) {
                free(b->partinfo[i].name);
                free(b->partinfo[i].fs_type);
                free(b->partinfo[i].fs_uuid);
                free(b->partinfo[i].fs_label);
                free(b->partinfo[i].part_uuid);
                free(b->partinfo[i].part_name);
                strv_free(b->partinfo[i].devlinks);
        }
        free(b->partinfo);
        free(b->dm_uuid);
        free(b->dm_name);
        strv_free(b->slaves);
        free(b->mpath_wwid);
        free(b->mpath_map);
        strv_free(b->devlinks);
        free(b->fs_label);
        free(b->system_use);
}

void sysinfo_free(struct sysinfo *s)
{
        if (!s)
                return;
        for (size_t i = 0; i < s->n_devs; i++)
                blockdev_done(&s->devs[i]);
        free(s->devs);
        free(s->sysroot);
        strv_free(s->system_errors);
        sys_mounts_free(s);
        if (s->controllers) {
                ctl_list_free(s->controllers);
                free(s->controllers);
        }
        *s = (struct sysinfo){0};
}

/* By kernel name ("sdb") or device node ("/dev/sdb"). */
const struct blockdev *sysinfo_find(const struct sysinfo *s, const char *name)
{
        if (!s || !name)
                return NULL;
        for (size_t i = 0; i < s->n_devs; i++)
                if (streq_ptr(s->devs[i].name, name) || streq_ptr(s->devs[i].devnode, name))
                        return &s->devs[i];
        return NULL;
}
