/* SPDX-License-Identifier: GPL-2.0-or-later
 * System disks: the disks storprov never selects and never writes. Three
 * sources, merged per disk (a multipath LUN counts once, by all its paths):
 *   - the machine: discovery found a disk under /, /boot, /usr, /var (also
 *     below /sysroot or /mnt/sysimage), swap, or what the system or installer
 *     booted from (struct blockdev.system_kind);
 *   - --os-disks: the admin's names, in any spelling devnames.c resolves;
 *   - <disks system="true">: the profile's OS disks, selected by <match> with
 *     an exact count, before every other group.
 * The declared ones (the last two) are the kickstart's OS disks. Pure: the
 * machine is what discovery put in sysinfo. */
#include "plan/internal.h"
#include "discover/devnames.h"
#include "base/sanitize.h"

#include <stdlib.h>
#include <string.h>

/* Which devices are one LUN with which (paths of one multipath LUN, and its map):
 * lun_of[i] is an index into luns, or NO_OBJ for a disk that stands alone. */
struct lun_index {
        struct mpath_lun *luns;
        size_t n;
        size_t *lun_of;
};

static void lun_index_init(struct lun_index *x, const struct sysinfo *si)
{
        x->n = mpath_luns(si, NULL, &x->luns);
        x->lun_of = xmalloc((si->n_devs ? si->n_devs : 1) * sizeof(size_t));
        for (size_t i = 0; i < si->n_devs; i++)
                x->lun_of[i] = NO_OBJ;
        for (size_t k = 0; k < x->n; k++) {
                const struct mpath_lun *l = &x->luns[k];
                /* several paths of one size (a garbage serial two disks share is not a LUN), or a map */
                bool same = true;
                for (size_t j = 1; j < l->n_paths; j++)
                        same &= si->devs[l->paths[j]].size_bytes == si->devs[l->paths[0]].size_bytes;
                if ((l->n_paths < 2 || !same) && l->map == NO_OBJ)
                        continue;
                for (size_t j = 0; j < l->n_paths; j++)
                        x->lun_of[l->paths[j]] = k;
                if (l->map != NO_OBJ)
                        x->lun_of[l->map] = k;
        }
        /* a map whose paths udev gave no serial: its dm uuid still names the LUN */
        for (size_t i = 0; i < si->n_devs; i++) {
                const struct blockdev *b = &si->devs[i];
                if (x->lun_of[i] != NO_OBJ || !b->mpath_wwid || !b->dm_uuid)
                        continue;
                for (size_t k = 0; k < x->n; k++)
                        if (!strcmp(x->luns[k].wwid, b->mpath_wwid))
                                x->lun_of[i] = k;
        }
}

static void lun_index_free(struct lun_index *x)
{
        mpath_luns_free(x->luns, x->n);
        free(x->lun_of);
}

/* A name for the kickstart: the disk's most stable link, else its kernel name. */
static char *stable_name(const struct sysinfo *si, const struct blockdev *b, const struct mpath_lun *lun)
{
        if (lun && lun->wwid) {
                _cleanup_free_ char *n = xasprintf("disk/by-id/dm-uuid-mpath-%s", lun->wwid);
                if (ks_disk_name(n))
                        return xstrdup(n);
        }
        static const char *const prefs[] = {"disk/by-id/wwn-", "disk/by-id/nvme-eui.", "disk/by-id/scsi-",
                                            "disk/by-id/nvme-", "disk/by-id/ata-",    "disk/by-id/",
                                            "disk/by-path/"};
        for (size_t p = 0; p < ELEMENTSOF(prefs); p++)
                for (size_t k = 0; b->devlinks && b->devlinks[k]; k++) {
                        const char *n = b->devlinks[k];
                        if (!startswith(n, prefs[p]) || startswith(n, "disk/by-id/dm-") ||
                            startswith(n, "disk/by-id/md-") || startswith(n, "disk/by-id/lvm-pv-") || !ks_disk_name(n))
                                continue;
                        return xstrdup(n);
                }
        (void)si;
        if (ks_disk_name(b->name))
                return xstrdup(b->name);
        if (b->devnode && ks_disk_name(b->devnode))
                return xstrdup(ks_disk_name(b->devnode));
        return NULL;
}

/* Adds (or merges into) the entry of device i and its LUN. */
static size_t sys_add(struct ctx *c, const struct lun_index *x, size_t i, unsigned how, const char *why,
                      const char *ks_name, const char *group, int line)
{
        const struct sysinfo *si = c->si;
        struct plan *pl = c->pl;
        size_t k = x->lun_of[i];
        const struct mpath_lun *l = k != NO_OBJ ? &x->luns[k] : NULL;
        size_t e = c->sys_of[i];
        if (e == NO_OBJ && l)
                for (size_t j = 0; j < l->n_paths && e == NO_OBJ; j++)
                        e = c->sys_of[l->paths[j]];
        if (e == NO_OBJ) {
                pl->sysdisks = xrealloc(pl->sysdisks, (pl->n_sysdisks + 1) * sizeof(*pl->sysdisks));
                e = pl->n_sysdisks++;
                struct pl_sysdisk *s = &pl->sysdisks[e];
                *s = (struct pl_sysdisk){.bd = &si->devs[i]};
                if (l) {
                        s->bd = &si->devs[l->map != NO_OBJ ? l->map : l->paths[0]];
                        s->n_paths = l->n_paths;
                        s->paths = xcalloc(l->n_paths, sizeof(*s->paths));
                        for (size_t j = 0; j < l->n_paths; j++)
                                s->paths[j] = &si->devs[l->paths[j]];
                }
        }
        struct pl_sysdisk *s = &pl->sysdisks[e];
        /* the command line's spelling over the group's stable name: the admin's own word for the include */
        if (ks_name && s->ks_name && (how & SYSDISK_OS_DISKS) && !(s->how & SYSDISK_OS_DISKS)) {
                free(s->ks_name);
                s->ks_name = NULL;
        }
        s->how |= how;
        if (why && (!s->why || !strstr(s->why, why))) {
                char *t = s->why ? xasprintf("%s; %s", s->why, why) : xstrdup(why);
                free(s->why);
                s->why = t;
        }
        if (ks_name && !s->ks_name)
                s->ks_name = xstrdup(ks_name);
        if (group && !s->group) {
                s->group = xstrdup(group);
                s->line = line;
        }
        c->sys_of[i] = e;
        if (l) {
                for (size_t j = 0; j < l->n_paths; j++)
                        c->sys_of[l->paths[j]] = e;
                if (l->map != NO_OBJ)
                        c->sys_of[l->map] = e;
        }
        return e;
}

/* "sda2, sdb2" → their disks "sda,sdb", for the message that asks for disks. */
static char *disks_under(const struct sysinfo *si, const struct blockdev *b)
{
        char **names = NULL;
        for (size_t k = 0; b->slaves && b->slaves[k]; k++)
                for (size_t i = 0; i < si->n_devs; i++) {
                        const struct blockdev *d = &si->devs[i];
                        bool is = !strcmp(d->name, b->slaves[k]);
                        for (size_t j = 0; !is && j < d->n_partinfo; j++)
                                is = !strcmp(d->partinfo[j].name, b->slaves[k]);
                        if (is && !strv_contains(names, d->name))
                                strv_push(&names, d->name);
                }
        char *s = names ? strv_join(names, ",") : xstrdup("?");
        strv_free(names);
        return s;
}

static void os_disks(struct ctx *c, const struct lun_index *x)
{
        const struct sysinfo *si = c->si;
        for (size_t k = 0; c->o->os_disks && c->o->os_disks[k]; k++) {
                const char *spelling = c->o->os_disks[k];
                _cleanup_free_ char *shown = comment_dup(spelling);
                const char *why = NULL;
                struct devname_hit *h = NULL;
                ssize_t n = devname_resolve(si, spelling, &h, &why);
                _cleanup_free_ char *norm = devname_normalize(spelling, NULL);
                bool glob = devname_is_glob(norm);
                if (n < 0) {
                        diag_add(c->d, DIAG_ERROR, NULL, 0, "--os-disks", RULE_OS_DISKS,
                                 "\"%s\" is not a device name: %s; give a kernel name (sda), /dev/sda or a "
                                 "/dev/disk/by-id/ path",
                                 shown, why);
                        continue;
                }
                if (n == 0) {
                        diag_add(c->d, DIAG_ERROR, NULL, 0, "--os-disks", RULE_OS_DISKS,
                                 glob ? "\"%s\" matches no disk of %s" :
                                        "no disk of %s answers to \"%s\" (kernel names, device nodes, the links below "
                                        "/dev/disk and /dev/mapper were compared); 'storprov inventory' lists the disks",
                                 glob ? shown : c->o->sysroot, glob ? c->o->sysroot : shown);
                        free(h);
                        continue;
                }
                /* an exact name that several disks answer to (a bare link name two disks share); the
                 * paths and the map of one LUN are one disk */
                size_t units = 0;
                for (ssize_t j = 0; j < n; j++) {
                        if (h[j].part != DEVNAME_WHOLE)
                                continue;
                        bool again = false;
                        for (ssize_t q = 0; q < j && !again; q++)
                                again = h[q].part == DEVNAME_WHOLE && x->lun_of[h[j].dev] != NO_OBJ &&
                                        x->lun_of[h[q].dev] == x->lun_of[h[j].dev];
                        units += !again;
                }
                if (!glob && units > 1) {
                        struct sbuf b = {0};
                        for (ssize_t j = 0; j < n; j++)
                                sbuf_printf(&b, "%s%s", j ? ", " : "", si->devs[h[j].dev].name);
                        diag_add(c->d, DIAG_ERROR, NULL, 0, "--os-disks", RULE_OS_DISKS,
                                 "\"%s\" names %zu disks (%s); give the full /dev/disk/by-id/ path", shown, units,
                                 b.s);
                        free(b.s);
                        free(h);
                        continue;
                }
                for (ssize_t j = 0; j < n; j++) {
                        const struct blockdev *b = &si->devs[h[j].dev];
                        if (h[j].part != DEVNAME_WHOLE) {
                                if (!glob)
                                        diag_add(c->d, DIAG_ERROR, NULL, 0, "--os-disks", RULE_OS_DISKS,
                                                 "\"%s\" is the partition %s of %s; name the disk (%s): clearpart "
                                                 "clears whole disks",
                                                 shown, b->partinfo[h[j].part].name, b->name, b->name);
                                continue;
                        }
                        size_t lun = x->lun_of[h[j].dev];
                        if (!disk_is_input(b) && lun == NO_OBJ) {
                                _cleanup_free_ char *under = disks_under(si, b);
                                diag_add(c->d, DIAG_ERROR, NULL, 0, "--os-disks", RULE_OS_DISKS,
                                         "\"%s\" is %s, %s over %s; name its disks (%s)", shown, b->name,
                                         startswith(b->name, "md") ? "an md array" : "a device-mapper device",
                                         under, under);
                                continue;
                        }
                        const struct mpath_lun *l = lun != NO_OBJ ? &x->luns[lun] : NULL;
                        /* the admin's own spelling where the installer knows it as it is (the kernel
                         * name, a link below /dev/disk); a LUN, a glob, a site link elsewhere in /dev
                         * by the disk's stable name */
                        bool own = !glob && !l && ks_disk_name(norm) &&
                                   (!strcmp(norm, b->name) || (b->devnode && !strcmp(b->devnode + 5, norm)) ||
                                    (startswith(norm, "disk/") && strv_contains(b->devlinks, norm)));
                        _cleanup_free_ char *ks = own ? xstrdup(ks_disk_name(norm)) : stable_name(si, b, l);
                        _cleanup_free_ char *w = xasprintf("--os-disks %s", shown);
                        if (!ks)
                                diag_add(c->d, DIAG_ERROR, NULL, 0, "--os-disks", RULE_OS_DISKS,
                                         "%s (\"%s\") has no name a kickstart can carry (no /dev/disk/by-id link, and "
                                         "its kernel name is outside [A-Za-z0-9_.:+-])",
                                         b->name, shown);
                        sys_add(c, x, h[j].dev, SYSDISK_OS_DISKS, w, ks, NULL, 0);
                }
                free(h);
        }
}

static void system_groups(struct ctx *c, const struct lun_index *x, bool *claimed)
{
        const struct sysinfo *si = c->si;
        for (size_t gi = 0; gi < c->p->n_disks; gi++) {
                const struct p_disks *g = &c->p->disks[gi];
                if (!g->system)
                        continue;
                _cleanup_free_ char *what = xasprintf("disks %s", g->id);
                const char *elem = g->gpt ? "<gpt>" : g->hwraid.line ? "<hwraid>" : tune_set_any(&g->tune) ? "<tune>" : NULL;
                if (elem) {
                        plan_err(c, g->line, what, RULE_SYSTEM_DISK,
                            "%s on a system=\"true\" group: storprov never partitions, describes or tunes the OS "
                            "disks (the installer owns them); a system group holds <match> only",
                            elem);
                }
                if (g->wipe) {
                        plan_err(c, g->line, what, RULE_SYSTEM_DISK,
                            "wipe=\"true\" on a system=\"true\" group: storprov never writes to the OS disks; the "
                            "installer's clearpart clears them");
                }
                /* refused or not, the group's disks stay out of every data group's reach */
                _cleanup_free_ char *why = xasprintf("the system=\"true\" group %s, line %d", g->id, g->line);
                int line = g->match.line ? g->match.line : g->line;
                if (g->multipath) {
                        struct mpath_lun *l = NULL;
                        size_t n = mpath_luns(si, claimed, &l), found = 0;
                        for (size_t k = 0; k < n; k++)
                                found += !mpath_lun_failures(&g->match, si, &l[k]);
                        if (found != g->count) {
                                plan_err(c, line, what, RULE_DISK_COUNT, "expected %u multipath LUN%s, found %zu",
                                         g->count, g->count == 1 ? "" : "s", found);
                                strv_push(&c->failed_groups, g->id);
                        } else
                                for (size_t k = 0; k < n; k++) {
                                        if (mpath_lun_failures(&g->match, si, &l[k]))
                                                continue;
                                        size_t i = l[k].map != NO_OBJ ? l[k].map : l[k].paths[0];
                                        size_t lk = x->lun_of[i];
                                        _cleanup_free_ char *ks = stable_name(si, &si->devs[i], lk != NO_OBJ ? &x->luns[lk] : &l[k]);
                                        sys_add(c, x, i, SYSDISK_GROUP, why, ks, g->id, g->line);
                                        for (size_t j = 0; j < l[k].n_paths; j++)
                                                claimed[l[k].paths[j]] = true;
                                }
                        mpath_luns_free(l, n);
                        continue;
                }
                size_t *found = NULL, n_found = 0;
                if (!select_disks(c, g, what, claimed, false, &found, &n_found))
                        continue;
                for (size_t k = 0; k < n_found; k++) {
                        size_t i = found[k];
                        size_t lk = x->lun_of[i];
                        _cleanup_free_ char *ks = stable_name(si, &si->devs[i], lk != NO_OBJ ? &x->luns[lk] : NULL);
                        if (!ks)
                                plan_err(c, line, what, RULE_SYSTEM_DISK,
                                    "%s has no name a kickstart can carry (no /dev/disk/by-id link, and its kernel "
                                    "name is outside [A-Za-z0-9_.:+-])",
                                    si->devs[i].name);
                        sys_add(c, x, i, SYSDISK_GROUP, why, ks, g->id, g->line);
                        claimed[i] = true;
                }
                free(found);
        }
}

/* The declared OS disks must agree with each other and with the machine. */
static void check_declared(struct ctx *c)
{
        const struct plan *pl = c->pl;
        char **by_group = NULL, **by_flag = NULL;
        for (size_t e = 0; e < pl->n_sysdisks; e++) {
                const struct pl_sysdisk *s = &pl->sysdisks[e];
                if (s->how & SYSDISK_GROUP)
                        strv_push(&by_group, s->bd->name);
                if (s->how & SYSDISK_OS_DISKS)
                        strv_push(&by_flag, s->bd->name);
                /* the installer's own source as an OS disk: clearpart would wipe the install media */
                unsigned kind = s->bd->system_kind;
                const char *use = s->bd->system_use;
                for (size_t j = 0; j < s->n_paths; j++)
                        if (s->paths[j]->system_kind & SYS_BOOTSRC) {
                                kind |= SYS_BOOTSRC;
                                use = s->paths[j]->system_use;
                        }
                if ((s->how & (SYSDISK_GROUP | SYSDISK_OS_DISKS)) && (kind & SYS_BOOTSRC))
                        diag_add(c->d, DIAG_ERROR, s->group ? c->p->path : NULL, s->line,
                                 s->group ? "disks" : "--os-disks", RULE_OS_DISKS,
                                 "%s is named as an OS disk (%s), but it is what the system or installer booted "
                                 "from: %s; the kickstart's clearpart would wipe it",
                                 s->bd->name, s->why, use ? use : "?");
        }
        bool same = strv_len(by_group) == strv_len(by_flag);
        for (size_t k = 0; same && by_group && by_group[k]; k++)
                same = strv_contains(by_flag, by_group[k]);
        if (by_group && by_flag && !same) {
                _cleanup_free_ char *a = strv_join(by_flag, ", ");
                _cleanup_free_ char *b = strv_join(by_group, ", ");
                diag_add(c->d, DIAG_ERROR, NULL, 0, "--os-disks", RULE_OS_DISKS,
                         "--os-disks names %s, but the profile's system=\"true\" groups select %s; name the same "
                         "disks in both, or drop one",
                         a, b);
        }
        strv_free(by_group);
        strv_free(by_flag);
}

void plan_system(struct ctx *c, bool *claimed)
{
        const struct sysinfo *si = c->si;
        c->sys_of = xmalloc((si->n_devs ? si->n_devs : 1) * sizeof(size_t));
        for (size_t i = 0; i < si->n_devs; i++)
                c->sys_of[i] = NO_OBJ;
        for (size_t k = 0; si->system_errors && si->system_errors[k]; k++) {
                _cleanup_free_ char *m = comment_dup(si->system_errors[k]);
                diag_add(c->d, DIAG_ERROR, c->o->sysroot, 0, "discovery", RULE_SYSTEM_PROBE,
                         "%s; which disks the system runs from is not known, and storprov does not choose disks "
                         "blind (capture the machine again, or repair the file)",
                         m);
        }
        struct lun_index x;
        lun_index_init(&x, si);
        /* the groups first, so that --os-disks naming the same disks agrees rather than competes */
        system_groups(c, &x, claimed);
        os_disks(c, &x);
        for (size_t i = 0; i < si->n_devs; i++) {
                const struct blockdev *b = &si->devs[i];
                if (b->system_use && (disk_is_input(b) || x.lun_of[i] != NO_OBJ))
                        sys_add(c, &x, i, SYSDISK_FOUND, b->system_use, NULL, NULL, 0);
        }
        for (size_t i = 0; i < si->n_devs; i++)
                if (c->sys_of[i] != NO_OBJ)
                        claimed[i] = true;
        check_declared(c);
        lun_index_free(&x);
}
