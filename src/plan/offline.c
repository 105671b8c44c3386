/* SPDX-License-Identifier: GPL-2.0-or-later
 * Synthetic disks for validate --offline (see offline.h). */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "plan/offline.h"

char *glob_example(const char *glob, unsigned n)
{
        struct sbuf b = {0};
        for (const char *p = glob; *p; p++) {
                if (*p == '*') {
                        sbuf_printf(&b, "%u", n);
                } else if (*p == '?') {
                        sbuf_puts(&b, "0");
                } else if (*p == '\\' && p[1]) {
                        p++;
                        sbuf_printf(&b, "%c", *p);
                } else if (*p == '[') {
                        const char *end = strchr(p + 2, ']');
                        if (!end) {
                                sbuf_puts(&b, "[");
                                continue;
                        }
                        /* a character the class admits: try the likely ones */
                        char cls[260];
                        size_t len = (size_t)(end - p) + 1;
                        if (len >= sizeof cls - 1)
                                len = sizeof cls - 2;
                        memcpy(cls, p, len);
                        cls[len] = 0;
                        const char *cands = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_.:";
                        char pick = 0;
                        for (const char *c = cands; *c && !pick; c++)
                                if (fnmatch(cls, (char[]){*c, 0}, 0) == 0)
                                        pick = *c;
                        if (!pick) {
                                free(sbuf_steal(&b));
                                return NULL;
                        }
                        sbuf_printf(&b, "%c", pick);
                        p = end;
                } else
                        sbuf_printf(&b, "%c", *p);
        }
        char *s = sbuf_steal(&b);
        if (fnmatch(glob, s, 0) != 0) {
                free(s);
                return NULL;
        }
        return s;
}

static bool name_used(const struct sysinfo *si, const char *name)
{
        return sysinfo_find(si, name) != NULL;
}

/* "sdb", "sdc", … "sdz", "sdaa", …: the kernel's sd naming from index 1 up */
static char *sd_name(const char *prefix, unsigned i)
{
        char t[8];
        int k = 0;
        unsigned v = i + 1;
        while (v) {
                v--;
                t[k++] = (char)('a' + v % 26);
                v /= 26;
        }
        struct sbuf b = {0};
        sbuf_puts(&b, prefix);
        while (k)
                sbuf_printf(&b, "%c", t[--k]);
        return sbuf_steal(&b);
}

/* A kernel name that is free and that the name glob (if any) admits. */
static char *pick_name(const struct sysinfo *si, const char *glob, unsigned *next_sd)
{
        if (!glob) {
                for (;;) {
                        char *n = sd_name("sd", (*next_sd)++);
                        if (!name_used(si, n))
                                return n;
                        free(n);
                }
        }
        static const char *const prefixes[] = {"sd", "vd", "xvd", "hd"};
        for (size_t p = 0; p < ELEMENTSOF(prefixes); p++)
                for (unsigned i = 0; i < 26 * 27; i++) {
                        char *n = sd_name(prefixes[p], i);
                        if (fnmatch(glob, n, 0) == 0 && !name_used(si, n))
                                return n;
                        free(n);
                }
        for (unsigned i = 0; i < 256; i++) {
                char *n = xasprintf("nvme%un1", i);
                if (fnmatch(glob, n, 0) == 0 && !name_used(si, n))
                        return n;
                free(n);
        }
        for (unsigned i = 0; i < 64; i++) {
                char *n = glob_example(glob, i);
                if (n && !name_used(si, n))
                        return n;
                free(n);
        }
        return NULL;
}

/* sda < sdb < … < sdz < sdaa, as discovery sorts */
static int devcmp(const void *a, const void *b)
{
        const struct blockdev *x = a, *y = b;
        size_t lx = strlen(x->name), ly = strlen(y->name);
        if (lx != ly)
                return lx < ly ? -1 : 1;
        return strcmp(x->name, y->name);
}

/* one field from a glob, or a made-up unique value */
static int field(const char *glob, unsigned n, char *dflt, char **ret, struct diags *d, const struct p_disks *g,
                 const char *path, const char *what)
{
        if (!glob) {
                *ret = dflt;
                return 0;
        }
        free(dflt);
        *ret = glob_example(glob, n);
        if (*ret)
                return 0;
        diag_add(d, DIAG_ERROR, path, g->match.line, "match", RULE_OFFLINE,
                 "disks %s: cannot make up a %s that matches \"%s\"", g->id, what, glob);
        return -EINVAL;
}

int sysinfo_synthesize(const struct profile *p, struct sysinfo *ret, struct diags *d)
{
        struct sysinfo si = {.sysroot = xstrdup("(offline)"), .page_size = 4096};
        unsigned next_sd = 1; /* sda is left for the OS disk */
        unsigned serial_no = 0;
        int r = 0;
        for (size_t gi = 0; gi < p->n_disks; gi++) {
                const struct p_disks *g = &p->disks[gi];
                const struct p_match *m = &g->match;
                unsigned count = g->count ? g->count : 1;
                for (unsigned k = 0; k < count; k++) {
                        unsigned n = ++serial_no;
                        struct blockdev b = {0};
                        b.name = pick_name(&si, m->name, &next_sd);
                        if (!b.name) {
                                diag_add(d, DIAG_ERROR, p->path, m->line, "match", RULE_OFFLINE,
                                         "disks %s: cannot make up a kernel name that matches \"%s\"", g->id,
                                         m->name);
                                r = -EINVAL;
                                break;
                        }
                        b.devnode = xasprintf("/dev/%s", b.name);
                        b.major = 8;
                        b.minor = 16 * n;
                        if (field(m->vendor, n, xstrdup("OFFLINE"), &b.vendor, d, g, p->path, "vendor") < 0 ||
                            field(m->model, n, xasprintf("DISK-%s", g->id), &b.model, d, g, p->path, "model") < 0 ||
                            field(m->serial, n, xasprintf("SP%06u", n), &b.serial, d, g, p->path, "serial") < 0 ||
                            field(m->wwn, n, xasprintf("0x5000000000%06x", n), &b.wwn, d, g, p->path, "wwn") < 0 ||
                            field(m->path, n, xasprintf("pci-0000:00:10.0-scsi-0:0:%u:0", n), &b.id_path, d, g,
                                  p->path, "path") < 0) {
                                free(b.name);
                                free(b.devnode);
                                free(b.vendor);
                                free(b.model);
                                free(b.serial);
                                free(b.wwn);
                                free(b.id_path);
                                r = -EINVAL;
                                break;
                        }
                        b.id_serial = xasprintf("%s_%s_%s", b.vendor, b.model, b.serial);
                        if (g->multipath) /* one path per made-up LUN, by a made-up wwid */
                                b.mpath_wwid = xasprintf("3offline%06u", n);
                        uint64_t size = 4 * TiB;
                        if (m->min_size_bytes && m->max_size_bytes)
                                size = m->min_size_bytes + (m->max_size_bytes - m->min_size_bytes) / 2;
                        else if (m->min_size_bytes)
                                size = m->min_size_bytes > 4 * TiB ? m->min_size_bytes : 4 * TiB;
                        else if (m->max_size_bytes && m->max_size_bytes < size)
                                size = m->max_size_bytes;
                        /* whole MiB, still inside the bounds */
                        uint64_t down = size / MiB * MiB, up = (size + MiB - 1) / MiB * MiB;
                        if (down >= m->min_size_bytes && down)
                                size = down;
                        else if (!m->max_size_bytes || up <= m->max_size_bytes)
                                size = up;
                        b.size_bytes = size;
                        b.logical_sector_bytes = b.physical_sector_bytes = 512;
                        b.rotational = m->rotational >= 0 ? m->rotational : 1;
                        b.nr_hw_queues = 1;
                        si.devs = xrealloc(si.devs, (si.n_devs + 1) * sizeof *si.devs);
                        si.devs[si.n_devs++] = b;
                }
                if (r < 0)
                        break;
        }
        if (si.n_devs)
                qsort(si.devs, si.n_devs, sizeof *si.devs, devcmp);
        if (r < 0) {
                sysinfo_free(&si);
                return r;
        }
        *ret = si;
        return 0;
}
