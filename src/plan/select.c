/* SPDX-License-Identifier: GPL-2.0-or-later
 * Selection: does a profile's <match> rules fit a node exactly (every
 * <disks> group finds exactly its count of disks, groups claiming in profile
 * order as plan_disks() does)? And when not, by how much. Pure: a profile
 * and a discovered node in, a verdict out. disks.c selects with the same
 * match_failures(), so select and plan cannot disagree. */
#include "plan/plan.h"
#include "base/sanitize.h"
#include "base/strmap.h"

#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static bool glob_ok(const char *pattern, const char *value)
{
        return !pattern || (value && fnmatch(pattern, value, 0) == 0);
}

unsigned match_failures(const struct p_match *m, const struct blockdev *b)
{
        unsigned f = 0;
        if (!glob_ok(m->vendor, b->vendor))
                f |= MATCH_VENDOR;
        if (!glob_ok(m->model, b->model))
                f |= MATCH_MODEL;
        if (!glob_ok(m->serial, b->serial))
                f |= MATCH_SERIAL;
        if (!glob_ok(m->wwn, b->wwn))
                f |= MATCH_WWN;
        if (!glob_ok(m->path, b->id_path))
                f |= MATCH_PATH;
        if (!glob_ok(m->name, b->name))
                f |= MATCH_NAME;
        if (m->min_size_bytes && b->size_bytes < m->min_size_bytes)
                f |= MATCH_MIN_SIZE;
        if (m->max_size_bytes && b->size_bytes > m->max_size_bytes)
                f |= MATCH_MAX_SIZE;
        if (m->rotational >= 0 && b->rotational != m->rotational)
                f |= MATCH_ROTATIONAL;
        return f;
}

bool disk_is_input(const struct blockdev *b)
{
        return !b->is_partition && !startswith(b->name, "md") && !startswith(b->name, "dm-");
}

size_t mpath_luns(const struct sysinfo *si, const bool *claimed, struct mpath_lun **ret)
{
        struct mpath_lun *l = NULL;
        size_t n = 0;
        struct strmap by_wwid = {0}, by_name = {0};
        for (size_t i = 0; i < si->n_devs; i++)
                if (si->devs[i].name)
                        strmap_add(&by_name, si->devs[i].name, i, NULL);
        for (size_t i = 0; i < si->n_devs; i++) {
                const struct blockdev *b = &si->devs[i];
                if ((claimed && claimed[i]) || !disk_is_input(b) || !b->mpath_wwid)
                        continue;
                size_t k = strmap_get(&by_wwid, b->mpath_wwid);
                if (k == (size_t)-1) {
                        if (!(n & (n - 1)))
                                l = xrealloc(l, (n ? 2 * n : 1) * sizeof(*l));
                        k = n++;
                        l[k] = (struct mpath_lun){.wwid = b->mpath_wwid, .map = NO_OBJ};
                        strmap_add(&by_wwid, b->mpath_wwid, k, NULL);
                }
                struct mpath_lun *x = &l[k];
                x->paths = xrealloc(x->paths, (x->n_paths + 1) * sizeof(size_t));
                x->paths[x->n_paths++] = i;
                if (b->mpath_map && x->map == NO_OBJ) {
                        size_t j = strmap_get(&by_name, b->mpath_map);
                        if (j != (size_t)-1)
                                x->map = j;
                }
        }
        strmap_free(&by_wwid);
        strmap_free(&by_name);
        *ret = l;
        return n;
}

void mpath_luns_free(struct mpath_lun *l, size_t n)
{
        for (size_t i = 0; i < n; i++)
                free(l[i].paths);
        free(l);
}

unsigned mpath_lun_failures(const struct p_match *m, const struct sysinfo *si, const struct mpath_lun *l)
{
        const unsigned any = MATCH_PATH | MATCH_NAME;
        unsigned every = 0, some = any;
        for (size_t k = 0; k < l->n_paths; k++) {
                unsigned f = match_failures(m, &si->devs[l->paths[k]]);
                every |= f & ~any;
                some &= f & any;
        }
        return every | some;
}

char *mpath_lun_describe(const struct sysinfo *si, const struct mpath_lun *l)
{
        struct sbuf b = {0};
        sbuf_puts(&b, "LUN wwid ");
        comment_text(&b, l->wwid);
        sbuf_printf(&b, " (%zu path%s: ", l->n_paths, l->n_paths == 1 ? "" : "s");
        for (size_t k = 0; k < l->n_paths; k++)
                sbuf_printf(&b, "%s%s", k ? ", " : "", si->devs[l->paths[k]].name);
        if (l->map != NO_OBJ) {
                sbuf_printf(&b, "; map %s \"", si->devs[l->map].name);
                comment_text(&b, si->devs[l->map].dm_name);
                sbuf_puts(&b, "\")");
        } else
                sbuf_puts(&b, "; no multipath map yet)");
        return sbuf_steal(&b);
}

/* "model=\"9550SX*\" (it is \"9650SE\")": one failed rule of m for b. */
static char *describe_failure(const struct p_match *m, const struct blockdev *b, unsigned bit)
{
        char x[32], y[32], z[32];
        switch (bit) {
        case MATCH_VENDOR: return xasprintf("vendor=\"%s\" (it is \"%s\")", m->vendor, b->vendor ? b->vendor : "");
        case MATCH_MODEL: return xasprintf("model=\"%s\" (it is \"%s\")", m->model, b->model ? b->model : "");
        case MATCH_SERIAL: return xasprintf("serial=\"%s\" (it is \"%s\")", m->serial, b->serial ? b->serial : "");
        case MATCH_WWN: return xasprintf("wwn=\"%s\" (it is \"%s\")", m->wwn, b->wwn ? b->wwn : "");
        case MATCH_PATH: return xasprintf("path=\"%s\" (it is \"%s\")", m->path, b->id_path ? b->id_path : "");
        case MATCH_NAME: return xasprintf("name=\"%s\" (it is \"%s\")", m->name, b->name);
        case MATCH_MIN_SIZE:
                return xasprintf("min-size %s: it has %s, %s short", fmt_size_human(m->min_size_bytes, x),
                                 fmt_size_human(b->size_bytes, y), fmt_size_human(m->min_size_bytes - b->size_bytes, z));
        case MATCH_MAX_SIZE:
                return xasprintf("max-size %s: it has %s, %s over", fmt_size_human(m->max_size_bytes, x),
                                 fmt_size_human(b->size_bytes, y), fmt_size_human(b->size_bytes - m->max_size_bytes, z));
        case MATCH_ROTATIONAL:
                return xasprintf("rotational=\"%s\" (it is %s)", m->rotational ? "true" : "false",
                                 b->rotational == 1 ? "rotational" : b->rotational == 0 ? "not rotational" : "unknown");
        }
        return xstrdup("?");
}

static unsigned popcount(unsigned x)
{
        unsigned n = 0;
        for (; x; x &= x - 1)
                n++;
        return n;
}

char *match_near_misses(const struct p_match *m, const struct sysinfo *si, const bool *claimed)
{
        struct sbuf b = {0};
        for (size_t i = 0; i < si->n_devs; i++) {
                const struct blockdev *d = &si->devs[i];
                if ((claimed && claimed[i]) || !disk_is_input(d))
                        continue;
                unsigned f = match_failures(m, d);
                if (popcount(f) != 1)
                        continue;
                char *why = describe_failure(m, d, f);
                sbuf_printf(&b, "\n    %s fails only %s", d->name, why);
                free(why);
        }
        return b.len ? sbuf_steal(&b) : (free(b.s), NULL);
}

/* A multipath="true" group counts LUNs, not paths. Returns its distance. */
static unsigned select_multipath(const struct p_disks *g, const struct sysinfo *si, bool *claimed, char ***misses)
{
        struct mpath_lun *l = NULL;
        size_t n = mpath_luns(si, claimed, &l), found = 0;
        unsigned *fails = xcalloc(n ? n : 1, sizeof(unsigned));
        for (size_t k = 0; k < n; k++)
                found += (fails[k] = mpath_lun_failures(&g->match, si, &l[k])) == 0;
        int line = g->match.line ? g->match.line : g->line;
        unsigned distance = 0;
        if (found == g->count) {
                for (size_t k = 0; k < n; k++)
                        for (size_t j = 0; !fails[k] && j < l[k].n_paths; j++)
                                claimed[l[k].paths[j]] = true;
        } else {
                size_t diff = found > g->count ? found - g->count : g->count - found;
                distance = (unsigned)diff;
                strv_pushf(misses, "disks %s (line %d): expected %u multipath LUN%s, found %zu (%zu %s)", g->id, line,
                           g->count, g->count == 1 ? "" : "s", found, diff, found > g->count ? "too many" : "missing");
                for (size_t k = 0; k < n; k++) {
                        if (found > g->count ? fails[k] != 0 : popcount(fails[k]) != 1)
                                continue;
                        char *d = mpath_lun_describe(si, &l[k]);
                        char *why = fails[k] ? describe_failure(&g->match, &si->devs[l[k].paths[0]], fails[k]) : NULL;
                        strv_pushf(misses, "    %s %s%s", why ? "" : "matched", d, why ? " fails only " : "");
                        if (why) {
                                size_t last = strv_len(*misses) - 1;
                                char *x = xasprintf("%s%s", (*misses)[last], why);
                                free((*misses)[last]);
                                (*misses)[last] = x;
                        }
                        free(why);
                        free(d);
                }
        }
        free(fails);
        mpath_luns_free(l, n);
        return distance;
}

int profile_select(const struct profile *p, const struct sysinfo *si, char ***ret_misses, unsigned *ret_distance)
{
        bool *claimed = xcalloc(si->n_devs ? si->n_devs : 1, sizeof(bool));
        unsigned *fails = xcalloc(si->n_devs ? si->n_devs : 1, sizeof(unsigned));
        char **misses = NULL;
        unsigned distance = 0;
        /* as plan_disks: the system="true" groups first, then the data groups around them and around
         * every disk the running system uses */
        size_t *order = xcalloc(p->n_disks ? p->n_disks : 1, sizeof(size_t)), n_order = 0;
        for (int pass = 0; pass < 2; pass++)
                for (size_t gi = 0; gi < p->n_disks; gi++)
                        if (p->disks[gi].system == !pass)
                                order[n_order++] = gi;
        for (size_t oi = 0; oi < n_order; oi++) {
                const struct p_disks *g = &p->disks[order[oi]];
                if (!g->system && (oi == 0 || p->disks[order[oi - 1]].system))
                        for (size_t i = 0; i < si->n_devs; i++)
                                claimed[i] |= si->devs[i].system_use != NULL;
                size_t found = 0;
                if (g->multipath) {
                        distance += select_multipath(g, si, claimed, &misses);
                        continue;
                }
                for (size_t i = 0; i < si->n_devs; i++) {
                        fails[i] = claimed[i] || !disk_is_input(&si->devs[i]) ? ~0u
                                                                              : match_failures(&g->match, &si->devs[i]);
                        found += fails[i] == 0;
                }
                int line = g->match.line ? g->match.line : g->line;
                if (found == g->count) {
                        for (size_t i = 0; i < si->n_devs; i++)
                                claimed[i] |= fails[i] == 0;
                        continue;
                }
                size_t diff = found > g->count ? found - g->count : g->count - found;
                distance += (unsigned)diff;
                strv_pushf(&misses, "disks %s (line %d): expected %u disk%s, found %zu (%zu %s)", g->id, line, g->count,
                           g->count == 1 ? "" : "s", found, diff, found > g->count ? "too many" : "missing");
                if (found > g->count) {
                        /* which ones, so that the rule can be tightened */
                        for (size_t i = 0; i < si->n_devs; i++)
                                if (fails[i] == 0)
                                        strv_pushf(&misses, "    matched %s", si->devs[i].name);
                } else {
                        /* disks that fail one rule only: the near misses */
                        _cleanup_free_ char *near = match_near_misses(&g->match, si, claimed);
                        for (char *save = NULL, *l = near ? strtok_r(near, "\n", &save) : NULL; l;
                             l = strtok_r(NULL, "\n", &save))
                                strv_push(&misses, l);
                }
                /* the group claims nothing: later groups see the same disks as plan would not, but
                 * a failed group fails the profile anyway */
        }
        free(claimed);
        free(fails);
        free(order);
        if (ret_distance)
                *ret_distance = distance;
        if (ret_misses)
                *ret_misses = misses;
        else
                strv_free(misses);
        return distance == 0 ? 0 : -1;
}
