/* SPDX-License-Identifier: GPL-2.0-or-later
 * Which disks a <disks> group takes: its <match> over the disks no earlier
 * group claimed, a path of a multipath LUN refused, and a count that differs
 * from the profile's explained (with the system disk a broad match would
 * have taken). Used by disks.c for the data groups and by system.c for the
 * system ones. */
#include "plan/internal.h"
#include "base/sanitize.h"
#include "base/strmap.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

char *describe_disk(const struct blockdev *b)
{
        char sz[32];
        return xasprintf("%s (%s %s, %s, serial %s, wwn %s%s)", b->name, b->vendor ? b->vendor : "?",
                         b->model ? b->model : "?", fmt_size_human(b->size_bytes, sz), b->serial ? b->serial : "-",
                         b->wwn ? b->wwn : "-", b->rotational == 1 ? ", rotational" : b->rotational == 0 ? ", ssd" : "");
}

/* A word multipath.conf, a dm name and a udev rule all carry as it is. */
bool mpath_word_safe(const char *v)
{
        size_t n = v ? strlen(v) : 0;
        return n && n <= 128 && strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-") == n &&
               v[0] != '-' && v[0] != '.';
}

/* The input disks no earlier group claimed that g's <match> takes, in the
 * order of si->devs; ret_n their count. */
static size_t *matching_disks(const struct ctx *c, const struct p_disks *g, const bool *claimed, size_t *ret_n)
{
        const struct sysinfo *si = c->si;
        size_t *found = NULL, n_found = 0;
        for (size_t i = 0; i < si->n_devs; i++) {
                const struct blockdev *b = &si->devs[i];
                if (claimed[i] || !disk_is_input(b))
                        continue;
                if (match_failures(&g->match, b))
                        continue;
                if (!(n_found & (n_found - 1)))   /* 0, 1, 2, 4 …: double */
                        found = xrealloc(found, (n_found ? 2 * n_found : 1) * sizeof(size_t));
                found[n_found++] = i;
        }
        *ret_n = n_found;
        return found;
}

/* Without a map: another device of the same size with the same well-formed wwid (a garbage
 * serial two disks share is not taken for a LUN identity). One pass with a map keyed by
 * wwid and size: per device the first other holder of its key (linear at thousands of LUNs).
 * NULL when no device found is an unmapped path with a wwid. */
static size_t *wwid_twins(const struct sysinfo *si, const size_t *found, size_t n_found)
{
        size_t *twin_of = NULL;
        for (size_t k = 0; k < n_found && !twin_of; k++)
                if (!si->devs[found[k]].mpath_map && si->devs[found[k]].mpath_wwid)
                        twin_of = xmalloc(si->n_devs * sizeof(size_t));
        if (!twin_of)
                return NULL;
        struct strmap first = {0};
        char **keys = xcalloc(si->n_devs, sizeof(char *));
        for (size_t j = 0; j < si->n_devs; j++) {
                const struct blockdev *d = &si->devs[j];
                twin_of[j] = NO_OBJ;
                if (!disk_is_input(d) || !mpath_word_safe(d->mpath_wwid))
                        continue;
                keys[j] = xasprintf("%s/%" PRIu64, d->mpath_wwid, d->size_bytes);
                size_t old;
                if (strmap_add(&first, keys[j], j, &old))
                        continue;
                twin_of[j] = old;               /* the first holder */
                if (twin_of[old] == NO_OBJ)
                        twin_of[old] = j;       /* the first's: the second holder */
        }
        strmap_free(&first);
        for (size_t j = 0; j < si->n_devs; j++)
                free(keys[j]);
        free(keys);
        return twin_of;
}

/* A path of a LUN is never the disk: writing it bypasses the map (and the other paths).
 * Reports every found device that is a path of a map or shares its wwid with another;
 * returns whether any was. */
static bool refuse_lun_paths(struct ctx *c, const struct p_disks *g, const char *what, const bool *claimed,
                             const size_t *found, size_t n_found)
{
        const struct sysinfo *si = c->si;
        bool path_refused = false;
        size_t *twin_of = wwid_twins(si, found, n_found);
        for (size_t k = 0; k < n_found; k++) {
                const struct blockdev *b = &si->devs[found[k]];
                const struct blockdev *twin =
                        !b->mpath_map && twin_of && twin_of[found[k]] != NO_OBJ ? &si->devs[twin_of[found[k]]] : NULL;
                if (!b->mpath_map && !twin)
                        continue;
                if (twin && twin < b && !claimed[twin - si->devs] && !match_failures(&g->match, twin))
                        continue; /* the pair is named once, at its first */
                _cleanup_free_ char *wwid = comment_dup(b->mpath_wwid);
                if (b->mpath_map)
                        plan_err(c, g->match.line ? g->match.line : g->line, what, RULE_MULTIPATH_PATH,
                            "%s is a path of the multipath map %s (wwid %s); storprov never writes to a path: select "
                            "the LUN with <disks id=\"%s\" multipath=\"true\">",
                            b->name, b->mpath_map, wwid, g->id);
                else
                        plan_err(c, g->match.line ? g->match.line : g->line, what, RULE_MULTIPATH_PATH,
                            "%s and %s carry the same wwid %s: two paths to one LUN; select the LUN with "
                            "<disks id=\"%s\" multipath=\"true\">",
                            b->name, twin->name, wwid, g->id);
                path_refused = true;
        }
        free(twin_of);
        return path_refused;
}

/* The error for a count that differs from the profile's: the disks matched,
 * or every disk present when none did, the near misses of a short match and
 * the system disk a broad match would have taken. */
static void report_disk_count(struct ctx *c, const struct p_disks *g, const char *what, const bool *claimed,
                              const size_t *found, size_t n_found)
{
        const struct sysinfo *si = c->si;
        struct sbuf b = {0};
        for (size_t i = 0; i < n_found; i++) {
                char *s = describe_disk(&si->devs[found[i]]);
                sbuf_printf(&b, "\n    matched: %s", s);
                free(s);
        }
        if (!n_found) {
                sbuf_puts(&b, "\n    no disk matched; disks present:");
                for (size_t i = 0; i < si->n_devs; i++) {
                        if (si->devs[i].is_partition)
                                continue;
                        char *s = describe_disk(&si->devs[i]);
                        bool sys = c->sys_of && c->sys_of[i] != NO_OBJ;
                        sbuf_printf(&b, "\n      %s%s", s,
                                    sys ? " [a system disk]" : claimed[i] ? " [taken by an earlier <disks>]" : "");
                        free(s);
                }
        }
        /* a data group that comes up short while a system disk fits its <match>: that is the
         * disk a broad match would have taken (a data disk missing, the OS disk filling in) */
        _cleanup_free_ char *left = g->system ? NULL : system_left_out(c, g);
        _cleanup_free_ char *near = n_found < g->count ? match_near_misses(&g->match, c->si, claimed) : NULL;
        plan_err(c, g->match.line ? g->match.line : g->line, what, left ? RULE_SYSTEM_DISK : RULE_DISK_COUNT,
            "expected %u disk%s, found %zu%s%s%s", g->count, g->count == 1 ? "" : "s", n_found,
            b.s ? b.s : "", near ? near : "", left ? left : "");
        free(b.s);
}

/* The disks of group g, not claimed by an earlier group. Reports a count
 * that differs from the profile's (fewer is fine with short_ok: the caller
 * knows which disks are gone); returns the matches (ret) and their count. */
bool select_disks(struct ctx *c, const struct p_disks *g, const char *what, const bool *claimed, bool short_ok,
                  size_t **ret, size_t *ret_n)
{
        size_t n_found;
        size_t *found = matching_disks(c, g, claimed, &n_found);
        if (refuse_lun_paths(c, g, what, claimed, found, n_found)) {
                free(found);
                strv_push(&c->failed_groups, g->id);
                return false;
        }
        if (n_found > g->count || (n_found < g->count && !short_ok)) {
                report_disk_count(c, g, what, claimed, found, n_found);
                free(found);
                strv_push(&c->failed_groups, g->id);
                return false;
        }
        *ret = found;
        *ret_n = n_found;
        return true;
}

char *system_left_out(struct ctx *c, const struct p_disks *g)
{
        const struct sysinfo *si = c->si;
        if (!c->sys_of || !c->pl->n_sysdisks)
                return NULL;
        struct sbuf b = {0};
        bool *told = xcalloc(c->pl->n_sysdisks, sizeof(bool));
        for (size_t i = 0; i < si->n_devs; i++) {
                size_t e = c->sys_of[i];
                if (e == NO_OBJ || told[e] || !disk_is_input(&si->devs[i]))
                        continue;
                const struct pl_sysdisk *s = &c->pl->sysdisks[e];
                unsigned f;
                if (s->n_paths) {
                        /* a LUN: path= and name= need one path, the rest every path */
                        struct mpath_lun l = {.wwid = s->paths[0]->mpath_wwid, .map = NO_OBJ, .n_paths = s->n_paths};
                        l.paths = xcalloc(s->n_paths, sizeof(size_t));
                        for (size_t j = 0; j < s->n_paths; j++)
                                l.paths[j] = (size_t)(s->paths[j] - si->devs);
                        f = mpath_lun_failures(&g->match, si, &l);
                        free(l.paths);
                } else
                        f = match_failures(&g->match, &si->devs[i]);
                if (f)
                        continue;
                told[e] = true;
                struct sbuf paths = {0};
                for (size_t j = 0; j < s->n_paths; j++)
                        sbuf_printf(&paths, "%s%s", j ? ", " : " (the LUN of paths ", s->paths[j]->name);
                sbuf_printf(&b, "\n    left out: %s%s%s matches too, but it is a system disk (%s); storprov never "
                                "selects one. Narrow the <match>, or find the missing disk",
                            s->bd->name, paths.s ? paths.s : "", paths.s ? ")" : "", s->why ? s->why : "?");
                free(paths.s);
        }
        free(told);
        return b.len ? sbuf_steal(&b) : (free(b.s), NULL);
}
