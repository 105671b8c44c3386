/* SPDX-License-Identifier: GPL-2.0-or-later
 * libparted for partition tables: it knows GPT's layout, backup header, CRCs
 * and the BLKPG dance with the kernel, none of which we want to hand-write. */
#include "sys/gpt.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <parted/parted.h>

#include "base/util.h"

/* libparted reports problems through exceptions and would ask on a terminal;
 * record the message and take the safe answer. */
static struct sbuf exc_msgs;
/* Lenient reading: take the copy libparted offers (a primary without its
 * backup, or the reverse) and note that the table is damaged. */
static bool exc_lenient, exc_damaged;
static char last_damage[512];

static PedExceptionOption on_exception(PedException *ex)
{
        sbuf_printf(&exc_msgs, "%s%s", exc_msgs.len ? "; " : "", ex->message);
        if (exc_lenient && ex->type >= PED_EXCEPTION_WARNING) {
                exc_damaged = true;
                if (ex->options & PED_EXCEPTION_OK)
                        return PED_EXCEPTION_OK;
                if (ex->options & PED_EXCEPTION_IGNORE)
                        return PED_EXCEPTION_IGNORE;
        }
        if (ex->options & PED_EXCEPTION_CANCEL)
                return PED_EXCEPTION_CANCEL;
        if (ex->options & PED_EXCEPTION_NO)
                return PED_EXCEPTION_NO;
        return PED_EXCEPTION_UNHANDLED;
}

static void exc_begin(void)
{
        free(exc_msgs.s);
        exc_msgs = (struct sbuf){0};
        ped_exception_set_handler(on_exception);
}

static char *exc_take(const char *what)
{
        char *s = xasprintf("%s%s%s", what, exc_msgs.len ? ": " : "", exc_msgs.s ? exc_msgs.s : "");
        free(exc_msgs.s);
        exc_msgs = (struct sbuf){0};
        return s;
}

static int read_table(const char *dev, char **ret_label, struct gpt_part **ret_parts, size_t *ret_n,
                      uint64_t *ret_sector_bytes, char **ret_err)
{
        *ret_label = NULL;
        *ret_parts = NULL;
        *ret_n = 0;
        PedDevice *d = ped_device_get(dev);
        if (!d) {
                *ret_err = exc_take("cannot open device");
                return -ENODEV;
        }
        if (ret_sector_bytes)
                *ret_sector_bytes = (uint64_t)d->sector_size;
        PedDiskType *t = ped_disk_probe(d);
        /* libparted calls a bare filesystem a "loop" label: that is no partition table */
        if (!t || !strcmp(t->name, "loop")) {
                ped_device_destroy(d);
                free(exc_take(""));
                return -ENOMEDIUM;
        }
        PedDisk *disk = ped_disk_new(d);
        if (!disk) {
                *ret_err = exc_take("cannot read the partition table");
                ped_device_destroy(d);
                return -EIO;
        }
        *ret_label = xstrdup(t->name);
        for (PedPartition *p = ped_disk_next_partition(disk, NULL); p; p = ped_disk_next_partition(disk, p)) {
                if (p->num < 1 || !(p->type == PED_PARTITION_NORMAL || p->type == PED_PARTITION_LOGICAL))
                        continue;
                *ret_parts = xrealloc(*ret_parts, (*ret_n + 1) * sizeof(struct gpt_part));
                struct gpt_part *g = &(*ret_parts)[(*ret_n)++];
                *g = (struct gpt_part){
                        .number = (unsigned)p->num,
                        .first_sector = (uint64_t)p->geom.start,
                        .last_sector = (uint64_t)p->geom.end,
                };
                if (ped_partition_is_flag_available(p, PED_PARTITION_RAID))
                        g->raid = ped_partition_get_flag(p, PED_PARTITION_RAID);
                if (ped_partition_is_flag_available(p, PED_PARTITION_LVM))
                        g->lvm = ped_partition_get_flag(p, PED_PARTITION_LVM);
                if (ped_disk_type_check_feature(disk->type, PED_DISK_TYPE_PARTITION_NAME))
                        g->name = xstrdup(ped_partition_get_name(p));
        }
        ped_disk_destroy(disk);
        ped_device_destroy(d);
        snprintf(last_damage, sizeof last_damage, "%s", exc_msgs.s ? exc_msgs.s : "");
        free(exc_take(""));
        return 0;
}

int gpt_read(const char *dev, char **ret_label, struct gpt_part **ret_parts, size_t *ret_n, uint64_t *ret_sector_bytes,
             char **ret_err)
{
        exc_begin();
        exc_lenient = false;
        return read_table(dev, ret_label, ret_parts, ret_n, ret_sector_bytes, ret_err);
}

int gpt_read_lenient(const char *dev, char **ret_label, struct gpt_part **ret_parts, size_t *ret_n, char **ret_damage,
                     char **ret_err)
{
        exc_begin();
        exc_lenient = true;
        exc_damaged = false;
        *ret_damage = NULL;
        /* read_table() takes the messages; keep them when the table was damaged */
        int r = read_table(dev, ret_label, ret_parts, ret_n, NULL, ret_err);
        if (r == 0 && exc_damaged)
                *ret_damage = xstrdup(last_damage);
        exc_lenient = false;
        return r;
}

bool gpt_unfinished(const char *dev, uint64_t sector_bytes)
{
        int fd = open(dev, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return false;
        uint64_t sec = sector_bytes ? sector_bytes : 512;
        unsigned char hdr[8], *ents = xmalloc(16384);
        off_t size = lseek(fd, 0, SEEK_END);
        bool primary = pread(fd, hdr, 8, (off_t)sec) == 8 && !memcmp(hdr, "EFI PART", 8);
        bool backup = size > (off_t)sec && pread(fd, hdr, 8, size - (off_t)sec) == 8 && !memcmp(hdr, "EFI PART", 8);
        bool empty = pread(fd, ents, 16384, (off_t)(2 * sec)) == 16384;
        for (size_t i = 0; empty && i < 16384; i++)
                empty = ents[i] == 0;
        free(ents);
        close(fd);
        return primary && !backup && empty;
}

int gpt_sync_kernel(const char *dev, char **ret_err)
{
        exc_begin();
        exc_lenient = false;
        PedDevice *d = ped_device_get(dev);
        if (!d) {
                *ret_err = exc_take("cannot open device");
                return -ENODEV;
        }
        int r = 0;
        PedDisk *disk = ped_disk_new(d);
        if (!disk) {
                *ret_err = exc_take("cannot read the partition table");
                r = -EIO;
        } else if (!ped_disk_commit_to_os(disk)) {
                *ret_err = exc_take("the kernel did not take the partition table (is a partition in use?)");
                r = -EBUSY;
        }
        if (disk)
                ped_disk_destroy(disk);
        ped_device_destroy(d);
        free(exc_take(""));
        return r;
}

void gpt_parts_free(struct gpt_part *p, size_t n)
{
        for (size_t i = 0; i < n; i++)
                free(p[i].name);
        free(p);
}

bool gpt_matches(const struct gpt_part *have, size_t n_have, const struct gpt_part *want, size_t n_want)
{
        if (n_have != n_want)
                return false;
        for (size_t i = 0; i < n_want; i++) {
                bool found = false;
                for (size_t k = 0; k < n_have; k++)
                        if (have[k].number == want[i].number && have[k].first_sector == want[i].first_sector &&
                            have[k].last_sector == want[i].last_sector &&
                            (!want[i].name || !have[k].name || !strcmp(want[i].name, have[k].name)))
                                found = true;
                if (!found)
                        return false;
        }
        return true;
}

/* ---- planned GUIDs ---------------------------------------------------------------
 * libparted (3.5) has no call to set the disk GUID or a partition's unique
 * GUID: it asks libuuid's uuid_generate() for each, the disk's first (in
 * ped_disk_new_fresh), then each partition's (in ped_partition_new). This
 * executable defines uuid_generate, which the dynamic linker binds libparted's
 * calls to: while gpt_write() runs, it hands out the planned GUIDs in that
 * order, so the table carries them from its first written byte (a header
 * whose entries never made it still says whose it is); at any other time it
 * returns random version-4 UUIDs, as libuuid would. */
static unsigned char guid_queue[1 + 128][16];
static size_t guid_n, guid_next;

static bool guid_parse(const char *s, unsigned char out[16])
{
        size_t k = 0;
        for (; s && *s && k < 32; s++) {
                if (*s == '-')
                        continue;
                int v = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
                        : *s >= 'A' && *s <= 'F' ? *s - 'A' + 10 : -1;
                if (v < 0)
                        return false;
                out[k / 2] = (unsigned char)(k % 2 ? (out[k / 2] << 4) | v : v);
                k++;
        }
        return k == 32 && (!s || !*s);
}

void uuid_generate(unsigned char out[16]);
void uuid_generate(unsigned char out[16])
{
        if (guid_next < guid_n) {
                memcpy(out, guid_queue[guid_next++], 16);
                return;
        }
        if (getrandom(out, 16, 0) != 16)
                for (int i = 0; i < 16; i++)
                        out[i] = (unsigned char)rand();
        out[6] = (unsigned char)((out[6] & 0x0f) | 0x40);
        out[8] = (unsigned char)((out[8] & 0x3f) | 0x80);
}

static void guids_queue(const char *disk_guid, const struct gpt_part *parts, size_t n)
{
        guid_n = guid_next = 0;
        if (!disk_guid || n + 1 > ELEMENTSOF(guid_queue) || !guid_parse(disk_guid, guid_queue[0]))
                return;
        for (size_t i = 0; i < n; i++)
                if (!parts[i].guid || !guid_parse(parts[i].guid, guid_queue[1 + i]))
                        return;
        guid_n = n + 1;
}

int gpt_disk_guid(const char *dev, uint64_t sector_bytes, char ret[static 37])
{
        unsigned char h[128];
        int fd = open(dev, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        ssize_t k = pread(fd, h, sizeof h, (off_t)(sector_bytes ? sector_bytes : 512));
        close(fd);
        if (k != (ssize_t)sizeof h || memcmp(h, "EFI PART", 8))
                return -ENOENT;
        const unsigned char *g = h + 56; /* DiskGUID: the first three fields little-endian */
        snprintf(ret, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", g[3], g[2], g[1],
                 g[0], g[5], g[4], g[7], g[6], g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
        return 0;
}

int gpt_write(const char *dev, uint64_t sector_bytes, const char *disk_guid, const struct gpt_part *parts, size_t n,
              char **ret_err)
{
        int r = 0;
        exc_begin();
        guids_queue(disk_guid, parts, n);
        PedDevice *d = ped_device_get(dev);
        if (!d) {
                *ret_err = exc_take("cannot open device");
                return -ENODEV;
        }
        PedDisk *disk = NULL;
        if ((uint64_t)d->sector_size != sector_bytes) {
                *ret_err = xasprintf("device has %lld-byte sectors, the plan was made for %" PRIu64,
                                     d->sector_size, sector_bytes);
                r = -EINVAL;
                goto out;
        }
        if (!ped_device_open(d)) {
                *ret_err = exc_take("cannot open device for writing");
                r = -EIO;
                goto out;
        }
        disk = ped_disk_new_fresh(d, ped_disk_type_get("gpt"));
        if (!disk) {
                *ret_err = exc_take("cannot create a GPT label");
                r = -EIO;
                goto close;
        }
        for (size_t i = 0; i < n; i++) {
                const struct gpt_part *p = &parts[i];
                if (p->last_sector >= (uint64_t)d->length) {
                        *ret_err = xasprintf("partition %u ends at sector %" PRIu64 " beyond the device (%lld sectors)",
                                             p->number, p->last_sector, d->length);
                        r = -ERANGE;
                        goto close;
                }
                PedPartition *pp = ped_partition_new(disk, PED_PARTITION_NORMAL, NULL, (PedSector)p->first_sector,
                                                     (PedSector)p->last_sector);
                if (!pp) {
                        *ret_err = exc_take("cannot create partition");
                        r = -EIO;
                        goto close;
                }
                if (p->raid)
                        ped_partition_set_flag(pp, PED_PARTITION_RAID, 1);
                else if (p->lvm)
                        ped_partition_set_flag(pp, PED_PARTITION_LVM, 1);
                if (p->name)
                        ped_partition_set_name(pp, p->name);
                /* exactly where the plan says: an exact constraint, no nudging */
                PedConstraint *c = ped_constraint_exact(&pp->geom);
                int ok = ped_disk_add_partition(disk, pp, c);
                ped_constraint_destroy(c);
                if (!ok || (uint64_t)pp->geom.start != p->first_sector || (uint64_t)pp->geom.end != p->last_sector) {
                        *ret_err = exc_take("libparted would not place the partition at the planned sectors");
                        r = -EIO;
                        goto close;
                }
                if ((unsigned)pp->num != p->number) {
                        *ret_err = xasprintf("libparted numbered partition %d, the plan says %u", pp->num, p->number);
                        r = -EIO;
                        goto close;
                }
        }
        if (!ped_disk_commit_to_dev(disk)) {
                *ret_err = exc_take("writing the partition table failed");
                r = -EIO;
                goto close;
        }
        if (!ped_disk_commit_to_os(disk)) {
                *ret_err = exc_take("the kernel did not take the new partition table (is a partition in use?)");
                r = -EBUSY;
                goto close;
        }
close:
        if (disk)
                ped_disk_destroy(disk);
        ped_device_close(d);
out:
        ped_device_destroy(d);
        free(exc_take(""));
        guid_n = guid_next = 0;
        return r;
}
