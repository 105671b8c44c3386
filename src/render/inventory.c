/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "render/inventory.h"
#include "base/jsonv.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "discover/udevdb.h"
#include "plan/plan.h"
#include "base/sanitize.h"
#include "base/util.h"
#include "base/version.h"
#include "sys/mounttab.h"

/* Entries of SYSROOT/sys/block/NAME/REL (holders), sorted. */
static char **list_names(const char *sysroot, const char *name, const char *rel)
{
        _cleanup_free_ char *p = xasprintf("%s/sys/block/%s/%s", sysroot, name, rel);
        DIR *d = opendir(p);
        char **v = NULL;
        if (!d)
                return NULL;
        for (struct dirent *e; (e = readdir(d));)
                if (e->d_name[0] != '.')
                        strv_push(&v, e->d_name);
        closedir(d);
        size_t n = strv_len(v);
        for (size_t i = 1; i < n; i++) /* insertion sort: a handful of entries */
                for (size_t j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
                        char *t = v[j];
                        v[j] = v[j - 1];
                        v[j - 1] = t;
                }
        return v;
}

/* A udev property of a block device node (E:KEY=VALUE in run/udev/data), through discovery's
 * confined reader: a file it refuses was warned about when discovery read the tree. */
static char *udev_prop(const char *sysroot, unsigned major, unsigned minor, const char *key)
{
        _cleanup_free_ char *text = NULL;
        if (udev_db_read(sysroot, major, minor, &text) < 0)
                return NULL;
        return udev_db_prop(text, key);
}

struct mount_ent {
        char *src, *target, *type;
};

static void push_ent(struct mount_ent **m, size_t *n, const char *src, const char *target, const char *type)
{
        *m = xrealloc(*m, (*n + 1) * sizeof(**m));
        (*m)[(*n)++] = (struct mount_ent){xstrdup(src), xstrdup(target), xstrdup(type)};
}

/* The mounts from a device (sys/mounttab.h: proc/mounts, confined) and the active swap devices. */
static struct mount_ent *read_mounts(const char *sysroot, size_t *ret_n)
{
        _cleanup_free_ char *q = path_join(sysroot, "proc/swaps");
        _cleanup_free_ char *swaps = NULL;
        size_t len, n = 0, nv = 0;
        struct mount_ent *m = NULL;
        struct mount_entry *v = NULL;
        char **errors = NULL;
        if (mounttab_read_mounts(sysroot, &v, &nv, &errors) == 0)
                for (size_t i = 0; i < nv; i++)
                        if (v[i].source[0] == '/')
                                push_ent(&m, &n, v[i].source, v[i].mountpoint, v[i].fstype);
        mount_entries_free(v, nv);
        strv_free(errors);
        if (read_file_under_len(sysroot, q, MiB, &swaps, &len) == 0)
                for (char *save = NULL, *l = strtok_r(swaps, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
                        char src[512];
                        if (sscanf(l, "%511s", src) == 1 && src[0] == '/')
                                push_ent(&m, &n, src, "[swap]", "swap");
                }
        *ret_n = n;
        return m;
}

/* The names a device appears under in /proc/mounts: /dev/NAME, and for dm
 * /dev/mapper/DMNAME, for md /dev/md/MDNAME. */
static bool mount_is(const char *sysroot, const struct mount_ent *m, const char *kname)
{
        const char *base = strrchr(m->src, '/') ? strrchr(m->src, '/') + 1 : m->src;
        if (!strcmp(base, kname))
                return true;
        _cleanup_free_ char *dmp = xasprintf("%s/sys/block/%s/dm/name", sysroot, kname);
        _cleanup_free_ char *dmname = startswith(kname, "dm-") ? read_line_file(dmp) : NULL;
        if (dmname && startswith(m->src, "/dev/mapper/") && !strcmp(m->src + 12, dmname))
                return true;
        return false;
}

struct disk_use {
        char **holders;           /* kernel names of the disk's and its partitions' holders */
        char **signatures;        /* "gpt", "xfs on sdb1", … */
        char **mounts;            /* "sdb1 on /data (xfs)" */
};

static void disk_use(const struct sysinfo *si, const struct blockdev *b, const struct mount_ent *m, size_t nm,
                     struct disk_use *u)
{
        *u = (struct disk_use){0};
        char **names = NULL;   /* the disk, its partitions, their holders */
        strv_push(&names, b->name);
        char *pt = udev_prop(si->sysroot, b->major, b->minor, "ID_PART_TABLE_TYPE");
        if (pt)
                strv_pushf(&u->signatures, "%s partition table", pt);
        free(pt);
        if (b->fs_type)
                strv_pushf(&u->signatures, "%s", b->fs_type);
        for (size_t k = 0; k < b->n_partinfo; k++) {
                strv_push(&names, b->partinfo[k].name);
                if (b->partinfo[k].fs_type)
                        strv_pushf(&u->signatures, "%s on %s", b->partinfo[k].fs_type, b->partinfo[k].name);
        }
        /* holders of the disk and of each partition (sys/block/sdb/sdb1/holders) */
        size_t n_direct = strv_len(names);
        for (size_t k = 0; k < n_direct; k++) {
                _cleanup_free_ char *rel = k ? xasprintf("%s/holders", names[k]) : xstrdup("holders");
                char **h = list_names(si->sysroot, b->name, rel);
                for (size_t q = 0; h && h[q]; q++)
                        if (!strv_contains(u->holders, h[q])) {
                                strv_push(&u->holders, h[q]);
                                strv_push(&names, h[q]);
                        }
                strv_free(h);
        }
        for (size_t i = 0; i < nm; i++)
                for (size_t k = 0; names[k]; k++)
                        if (mount_is(si->sysroot, &m[i], names[k])) {
                                /* decoded by libmount: a control byte in a path (a newline) is shown as "?" */
                                _cleanup_free_ char *t = comment_dup(m[i].target), *ty = comment_dup(m[i].type);
                                strv_pushf(&u->mounts, "%s on %s (%s)", names[k], t, ty);
                        }
        strv_free(names);
}

static void disk_use_free(struct disk_use *u)
{
        strv_free(u->holders);
        strv_free(u->signatures);
        strv_free(u->mounts);
}

/* "16 KiB", "1 MiB", "448 KiB", "3000 bytes": exact, as a datasheet gives it */
static const char *kib_exact(uint64_t v, char buf[static 32])
{
        if (v && v % MiB == 0)
                snprintf(buf, 32, "%" PRIu64 " MiB", v / MiB);
        else if (v && v % KiB == 0)
                snprintf(buf, 32, "%" PRIu64 " KiB", v / KiB);
        else
                snprintf(buf, 32, "%" PRIu64 " bytes", v);
        return buf;
}

/* What io_min / io_opt are (io_hint_kind_of, the planner's rule), as one line. */
static void print_io_hint(FILE *f, const struct blockdev *b)
{
        char a[32], o[32];
        switch (io_hint_kind_of(b)) {
        case IO_HINT_NVME:
                fprintf(f, "    io hint: write granularity %s, optimal write %s (NPWG/NOWS of an NVMe namespace)\n",
                        kib_exact(b->io_min_bytes, a), b->io_opt_bytes ? kib_exact(b->io_opt_bytes, o) : "not given");
                break;
        case IO_HINT_RAID_STRIPE:
                fprintf(f, "    io hint: a RAID stripe, strip %s, full stripe %s (%" PRIu64 " strips%s); parity "
                           "unknown: planned as parity unless <hwraid> says otherwise\n",
                        kib_exact(b->io_min_bytes, a), kib_exact(b->io_opt_bytes, o), b->io_opt_bytes / b->io_min_bytes,
                        b->io_opt_bytes % b->io_min_bytes ? ", not whole" : "");
                break;
        case IO_HINT_WRITE_GRANULARITY:
                fprintf(f, "    io hint: write granularity %s, optimal %s (not a RAID strip)\n",
                        kib_exact(b->io_min_bytes, a), b->io_opt_bytes ? kib_exact(b->io_opt_bytes, o) : "not given");
                break;
        default:
                fputs("    io hint: none\n", f);
        }
}

/* One disk as a JSON object (the inventory schema's "disks" element). */
static json_object *inventory_disk_json(const struct blockdev *b, const struct disk_use *u, const char *unit_serial,
                                        const char *by_path)
{
        json_object *j = json_object_new_object();
        json_object_object_add(j, "name", jstr(b->name));
        json_object_object_add(j, "device", jstr(b->devnode));
        json_object_object_add(j, "wwn", jstr(b->wwn));
        json_object_object_add(j, "serial", jstr(b->serial));
        json_object_object_add(j, "id_serial", jstr(b->id_serial));
        json_object_object_add(j, "unit_serial", jstr(unit_serial));
        json_object_object_add(j, "id_path", jstr(b->id_path));
        json_object_object_add(j, "by_path", jstr(by_path));
        json_object_object_add(j, "vendor", jstr(b->vendor));
        json_object_object_add(j, "model", jstr(b->model));
        json_object_object_add(j, "size_bytes", ju64(b->size_bytes));
        json_object_object_add(j, "logical_sector_bytes", ju64(b->logical_sector_bytes));
        json_object_object_add(j, "physical_sector_bytes", ju64(b->physical_sector_bytes));
        json_object_object_add(j, "io_min_bytes", ju64(b->io_min_bytes));
        json_object_object_add(j, "io_opt_bytes", ju64(b->io_opt_bytes));
        json_object_object_add(j, "io_hint_kind", jstr(io_hint_kind_name(io_hint_kind_of(b))));
        json_object_object_add(j, "alignment_offset_bytes", ju64(b->alignment_offset_bytes));
        json_object_object_add(j, "rotational", b->rotational < 0 ? NULL : json_object_new_boolean(b->rotational));
        json_object_object_add(j, "removable", json_object_new_boolean(b->removable));
        json_object_object_add(j, "max_hw_sectors_kb", ju64(b->max_hw_sectors_kb));
        json_object_object_add(j, "scheduler", jstr(b->scheduler));
        json_object_object_add(j, "partitions", jstrv(b->parts));
        json_object_object_add(j, "holders", jstrv(u->holders));
        json_object_object_add(j, "signatures", jstrv(u->signatures));
        json_object_object_add(j, "mounts", jstrv(u->mounts));
        json_object_object_add(j, "in_use", json_object_new_boolean(u->mounts || u->holders));
        json_object_object_add(j, "links", jstrv(b->devlinks));
        json_object_object_add(j, "system_use", jstr(b->system_use));
        json_object_object_add(j, "multipath_wwid", jstr(b->mpath_wwid));
        json_object_object_add(j, "multipath_map", jstr(b->mpath_map));
        return j;
}

/* The text record's first lines: what the disk is (name, vendor, size, identities, sectors, io hint). */
static void inventory_disk_text_identity(FILE *f, const struct blockdev *b, const char *unit_serial,
                                         const char *by_path)
{
        char sz[32];
        fprintf(f, "%s  %s  %s %s  %s (%" PRIu64 " bytes)\n", b->name, b->devnode, b->vendor ? b->vendor : "?",
                b->model ? b->model : "?", fmt_size_human(b->size_bytes, sz), b->size_bytes);
        fprintf(f, "    wwn %s  serial %s%s%s\n", b->wwn ? b->wwn : "-", b->serial ? b->serial : "-",
                unit_serial ? "  unit serial " : "", unit_serial ? unit_serial : "");
        fprintf(f, "    by-path %s\n", by_path ? by_path : "-");
        fprintf(f, "    sectors %u logical / %u physical; io_min %" PRIu64 " io_opt %" PRIu64
                   " alignment_offset %" PRIu64 "; %s\n",
                b->logical_sector_bytes, b->physical_sector_bytes, b->io_min_bytes, b->io_opt_bytes,
                b->alignment_offset_bytes,
                b->rotational == 1 ? "rotational" : b->rotational == 0 ? "non-rotational" : "rotational unknown");
        print_io_hint(f, b);
}

/* The text record's last lines: what uses the disk (holders, signatures, mounts), every name it answers
 * to, and whether the system or a multipath map has it. */
static void inventory_disk_text_use(FILE *f, const struct sysinfo *si, const struct blockdev *b,
                                    const struct disk_use *u)
{
        _cleanup_free_ char *h = u->holders ? strv_join(u->holders, ", ") : xstrdup("none");
        _cleanup_free_ char *s = u->signatures ? strv_join(u->signatures, ", ") : xstrdup("none");
        _cleanup_free_ char *mm = u->mounts ? strv_join(u->mounts, ", ") : xstrdup("none");
        fprintf(f, "    holders: %s\n    signatures: %s\n    mounted: %s\n", h, s, mm);
        /* every name --os-disks takes for it */
        fprintf(f, "    names: %s", b->name);
        for (size_t k = 0; b->devlinks && b->devlinks[k]; k++)
                fprintf(f, ", /dev/%s", b->devlinks[k]);
        fputs("\n", f);
        if (b->system_use) {
                _cleanup_free_ char *su = comment_dup(b->system_use);
                fprintf(f, "    system disk: %s (storprov never selects it)\n", su);
        }
        if (b->mpath_map) {
                const struct blockdev *mp = sysinfo_find(si, b->mpath_map);
                _cleanup_free_ char *mn = comment_dup(mp ? mp->dm_name : NULL);
                _cleanup_free_ char *w = comment_dup(b->mpath_wwid);
                fprintf(f, "    multipath: a path of %s (%s), wwid %s: select the LUN with "
                           "<disks multipath=\"true\">\n",
                        b->mpath_map, mn, w);
        }
}

/* One input disk: appended to DISKS (json), or printed to F (text). */
static void inventory_disk(const struct sysinfo *si, const struct blockdev *b, const struct mount_ent *m, size_t nm,
                           bool json, json_object *disks, FILE *f)
{
        struct disk_use u;
        disk_use(si, b, m, nm, &u);
        _cleanup_free_ char *by_path = b->id_path ? xasprintf("/dev/disk/by-path/%s", b->id_path) : NULL;
        /* the unit's own serial (VPD page 0x80) where udev's ID_SERIAL is the WWN (scsi_id) */
        _cleanup_free_ char *unit_serial = udev_prop(si->sysroot, b->major, b->minor, "ID_SCSI_SERIAL");
        if (json)
                json_object_array_add(disks, inventory_disk_json(b, &u, unit_serial, by_path));
        else {
                inventory_disk_text_identity(f, b, unit_serial, by_path);
                inventory_disk_text_use(f, si, b, &u);
        }
        disk_use_free(&u);
}

static void mount_ents_free(struct mount_ent *m, size_t nm)
{
        for (size_t i = 0; i < nm; i++) {
                free(m[i].src);
                free(m[i].target);
                free(m[i].type);
        }
        free(m);
}

void inventory_print(const struct sysinfo *si, bool json, FILE *f)
{
        size_t nm = 0;
        struct mount_ent *m = read_mounts(si->sysroot, &nm);
        json_object *root = NULL, *disks = NULL;
        if (json) {
                root = json_object_new_object();
                storprov_json_header(root, &storprov_format_inventory);
                json_object_object_add(root, "sysroot", jstr(si->sysroot));
                json_object_object_add(root, "mem_total_bytes", ju64(si->mem_total_bytes));
                disks = json_object_new_array();
        }
        size_t count = 0;
        for (size_t i = 0; i < si->n_devs; i++) {
                if (!disk_is_input(&si->devs[i]))
                        continue;
                count++;
                inventory_disk(si, &si->devs[i], m, nm, json, disks, f);
        }
        if (json) {
                json_object_object_add(root, "disks", disks);
                fprintf(f, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                                             JSON_C_TO_STRING_NOSLASHESCAPE));
                json_object_put(root);
        } else
                fprintf(f, "%zu disk%s\n", count, count == 1 ? "" : "s");
        for (size_t k = 0; si->system_errors && si->system_errors[k]; k++) {
                _cleanup_free_ char *e = comment_dup(si->system_errors[k]);
                fprintf(stderr, "storprov inventory: warning: %s; which disks the system runs from is not known\n", e);
        }
        mount_ents_free(m, nm);
}
