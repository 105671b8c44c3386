/* SPDX-License-Identifier: GPL-2.0-or-later
 * Selection: does a profile's <match> rules fit a node exactly (every
 * <disks> group finds exactly its count of disks, groups claiming in profile
 * order as plan_disks() does)? And when not, by how much. Pure: a profile
 * and a discovered node in, a verdict out. disks.c selects with the same
 * match_failures(), so select and plan cannot disagree. */
#include "plan/plan.h"

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

int profile_select(const struct profile *p, const struct sysinfo *si, char ***ret_misses, unsigned *ret_distance)
{
        bool *claimed = xcalloc(si->n_devs ? si->n_devs : 1, sizeof(bool));
        unsigned *fails = xcalloc(si->n_devs ? si->n_devs : 1, sizeof(unsigned));
        char **misses = NULL;
        unsigned distance = 0;
        for (size_t gi = 0; gi < p->n_disks; gi++) {
                const struct p_disks *g = &p->disks[gi];
                size_t found = 0;
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
                        for (size_t i = 0; i < si->n_devs; i++) {
                                if (fails[i] == ~0u || popcount(fails[i]) != 1)
                                        continue;
                                char *why = describe_failure(&g->match, &si->devs[i], fails[i]);
                                strv_pushf(&misses, "    %s fails only %s", si->devs[i].name, why);
                                free(why);
                        }
                }
                /* the group claims nothing: later groups see the same disks as plan would not, but
                 * a failed group fails the profile anyway */
        }
        free(claimed);
        free(fails);
        if (ret_distance)
                *ret_distance = distance;
        if (ret_misses)
                *ret_misses = misses;
        else
                strv_free(misses);
        return distance == 0 ? 0 : -1;
}
