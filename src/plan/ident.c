/* SPDX-License-Identifier: GPL-2.0-or-later
 * Identities: UUIDs derived from the seed, and those found on disk. */
#include "plan/internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static uint64_t fnv1a(uint64_t h, const char *s)
{
        for (; s && *s; s++) {
                h ^= (unsigned char)*s;
                h *= UINT64_C(0x100000001b3);
        }
        return h;
}

static uint64_t splitmix(uint64_t *x)
{
        uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        return z ^ (z >> 31);
}

static void uuid_bytes(uint64_t seed, const char *what, uint8_t u[16])
{
        uint64_t x = fnv1a(UINT64_C(0xcbf29ce484222325) ^ seed, what);
        uint64_t a = splitmix(&x), b = splitmix(&x);
        for (int i = 0; i < 8; i++) {
                u[i] = (uint8_t)(a >> (8 * i));
                u[8 + i] = (uint8_t)(b >> (8 * i));
        }
        u[6] = (uint8_t)((u[6] & 0x0f) | 0x40); /* version 4 */
        u[8] = (uint8_t)((u[8] & 0x3f) | 0x80); /* RFC 4122 variant */
}

static char *uuid_rfc(uint64_t seed, const char *what)
{
        uint8_t u[16];
        uuid_bytes(seed, what, u);
        return xasprintf("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2],
                         u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

static char *uuid_mdadm(uint64_t seed, const char *what)
{
        uint8_t u[16];
        uuid_bytes(seed, what, u);
        return xasprintf("%02x%02x%02x%02x:%02x%02x%02x%02x:%02x%02x%02x%02x:%02x%02x%02x%02x", u[0], u[1], u[2],
                         u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

/* "8-4-4-4-12" or "8:8:8:8" → mdadm's "8:8:8:8"; NULL if it is not 32 hex digits. */
static char *uuid_as_mdadm(const char *u)
{
        char hex[33];
        size_t n = 0;
        for (; u && *u; u++) {
                if (*u == '-' || *u == ':')
                        continue;
                if (!((*u >= '0' && *u <= '9') || (*u >= 'a' && *u <= 'f') || (*u >= 'A' && *u <= 'F')) || n == 32)
                        return NULL;
                hex[n++] = (char)(*u >= 'A' && *u <= 'F' ? *u - 'A' + 'a' : *u);
        }
        if (n != 32)
                return NULL;
        hex[32] = 0;
        return xasprintf("%.8s:%.8s:%.8s:%.8s", hex, hex + 8, hex + 16, hex + 24);
}

/* What discovery read from the udev database for the block device of obj:
 * its filesystem type and UUID. */
static bool found_fs(const struct ctx *c, size_t obj, const char **ret_type, const char **ret_uuid)
{
        const struct pl_obj *o = &c->pl->objs[obj];
        const struct blockdev *b = NULL;
        *ret_type = *ret_uuid = NULL;
        switch (o->kind) {
        case OBJ_DISK:
                b = o->disk.bd;
                break;
        case OBJ_PART: {
                const struct pl_obj *par = &c->pl->objs[o->parent];
                const struct blockdev *d = par->disk.bd;
                const char *kname = strrchr(o->dev, '/') ? strrchr(o->dev, '/') + 1 : o->dev;
                _cleanup_free_ char *mdk = NULL;
                /* an md's partitions: md127p1 under the kernel name of the array called NAME */
                for (size_t k = 0; par->kind == OBJ_MD && k < c->si->n_devs && !d; k++)
                        if (streq_ptr(c->si->devs[k].md_devname, par->md.name)) {
                                d = &c->si->devs[k];
                                kname = mdk = xasprintf("%sp%u", d->name, o->part.number);
                        }
                for (size_t k = 0; d && k < d->n_partinfo; k++)
                        if (streq_ptr(d->partinfo[k].name, kname)) {
                                *ret_type = d->partinfo[k].fs_type;
                                *ret_uuid = d->partinfo[k].fs_uuid;
                                return *ret_uuid != NULL;
                        }
                return false;
        }
        case OBJ_MD:
                for (size_t k = 0; k < c->si->n_devs && !b; k++)
                        if (streq_ptr(c->si->devs[k].md_devname, o->md.name))
                                b = &c->si->devs[k];
                break;
        case OBJ_LV: {
                const char *vg = c->pl->objs[o->parent].vg.name;
                for (size_t k = 0; k < c->si->n_devs && !b; k++)
                        if (streq_ptr(c->si->devs[k].dm_vg_name, vg) && streq_ptr(c->si->devs[k].dm_lv_name, o->lv.name))
                                b = &c->si->devs[k];
                break;
        }
        default:
                break;
        }
        if (!b)
                return false;
        *ret_type = b->fs_type;
        *ret_uuid = b->fs_uuid;
        return *ret_uuid != NULL;
}

/* Preserved arrays and filesystems keep the identity they have: an md's
 * from its members' superblocks (or the running array), a filesystem's from
 * its device. */
static void find_identities(struct ctx *c)
{
        for (size_t i = 0; i < c->pl->n_objs; i++) {
                struct pl_obj *o = OBJ(c, i);
                const char *type, *uuid;
                if (!o->preserve)
                        continue;
                if (o->kind == OBJ_MD) {
                        for (size_t k = 0; k < o->md.n_members && !o->md.uuid.found; k++)
                                if (found_fs(c, o->md.members[k], &type, &uuid) && streq_ptr(type, "linux_raid_member"))
                                        o->md.uuid.found = uuid_as_mdadm(uuid);
                        for (size_t k = 0; k < c->si->n_devs && !o->md.uuid.found; k++)
                                if (streq_ptr(c->si->devs[k].md_devname, o->md.name) && c->si->devs[k].md_uuid)
                                        o->md.uuid.found = uuid_as_mdadm(c->si->devs[k].md_uuid);
                } else if (o->kind == OBJ_FS && o->parent != NO_OBJ) {
                        if (found_fs(c, o->parent, &type, &uuid) && streq_ptr(type, "xfs"))
                                o->fs.uuid.found = xstrdup(uuid);
                }
        }
}

void assign_identities(struct ctx *c)
{
        struct plan *pl = c->pl;
        if (c->o->seed_set) {
                pl->seed = c->o->seed;
                pl->seed_src = c->o->seed_recorded ? SRC_DETECTED : SRC_PROFILE;
        } else {
                /* reproducible on this node (re-runs and resumes find the same UUIDs), different across nodes */
                uint64_t h = fnv1a(UINT64_C(0xcbf29ce484222325), pl->profile_name);
                for (size_t i = 0; i < pl->n_objs; i++) {
                        const struct blockdev *b = OBJ(c, i)->disk.bd;
                        if (OBJ(c, i)->kind != OBJ_DISK)
                                continue;
                        h = fnv1a(h, b->wwn);
                        h = fnv1a(h, b->serial);
                        h = fnv1a(h, b->id_path);
                        h = fnv1a(h, b->name);
                }
                pl->seed = h;
                pl->seed_src = SRC_DERIVED;
        }
        for (size_t i = 0; i < pl->n_objs; i++) {
                struct pl_obj *o = OBJ(c, i);
                if (o->kind == OBJ_MD)
                        o->md.uuid.planned = uuid_mdadm(pl->seed, o->id);
                else if (o->kind == OBJ_FS)
                        o->fs.uuid.planned = uuid_rfc(pl->seed, o->id);
                else if (o->kind == OBJ_PART) {
                        /* the GPT storprov writes is known by its GUIDs, derived like the others */
                        _cleanup_free_ char *key = xasprintf("partition %s", o->id);
                        o->part.guid = uuid_rfc(pl->seed, key);
                        struct pl_obj *d = OBJ(c, o->parent);
                        if (!d->disk.gpt_guid && !d->preserve) {
                                _cleanup_free_ char *dk = xasprintf("gpt %s", d->id);
                                d->disk.gpt_guid = uuid_rfc(pl->seed, dk);
                        }
                }
        }
        find_identities(c);
}
