/* SPDX-License-Identifier: GPL-2.0-or-later
 * Device names (see devnames.h): one resolver for every spelling, so that
 * --os-disks, the kernel command line, /proc/swaps and mountinfo sources all
 * name a disk the same way whatever form they use. */
#include "discover/devnames.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DEVNAME_MAX 4096

char *devname_normalize(const char *spelling, const char **ret_why)
{
        const char *why = NULL;
        if (!spelling || !*spelling)
                why = "it is empty";
        else if (strlen(spelling) > DEVNAME_MAX)
                why = "it is longer than 4096 bytes";
        else
                for (const unsigned char *p = (const unsigned char *)spelling; *p && !why; p++)
                        if (*p < 0x20 || *p == 0x7f)
                                why = "it holds a control character";
        const char *s = spelling;
        if (!why && s[0] == '/') {
                /* absolute: must be /dev or below ("//dev///sda" is "/dev/sda" to the kernel) */
                while (*s == '/')
                        s++;
                if (strncmp(s, "dev", 3) || (s[3] && s[3] != '/'))
                        why = "an absolute path must be below /dev";
                else
                        s += 3;
        }
        if (why) {
                if (ret_why)
                        *ret_why = why;
                return NULL;
        }
        char **parts = strv_split(s, "/");
        char **out = NULL;
        size_t n = 0;
        for (size_t i = 0; parts && parts[i] && !why; i++) {
                if (!strcmp(parts[i], "."))
                        continue;
                if (!strcmp(parts[i], "..")) {
                        if (!n)
                                why = "its \"..\" leaves /dev";
                        else
                                free(out[--n]), out[n] = NULL;
                        continue;
                }
                out = xrealloc(out, (n + 2) * sizeof(char *));
                out[n++] = xstrdup(parts[i]);
                out[n] = NULL;
        }
        strv_free(parts);
        char *norm = NULL;
        if (!why && !n)
                why = "it names /dev itself";
        if (!why)
                norm = strv_join(out, "/");
        strv_free(out);
        if (!norm && ret_why)
                *ret_why = why;
        return norm;
}

bool devname_is_glob(const char *norm)
{
        return norm && strpbrk(norm, "*?[") != NULL;
}

char *udev_decode(const char *s)
{
        return decode_escapes(s, 16);
}

struct hits {
        struct devname_hit *v;
        size_t n;
};

static void add_hit(struct hits *h, size_t dev, size_t part)
{
        for (size_t i = 0; i < h->n; i++)
                if (h->v[i].dev == dev && h->v[i].part == part)
                        return;
        h->v = xrealloc(h->v, (h->n + 1) * sizeof(*h->v));
        h->v[h->n++] = (struct devname_hit){dev, part};
}

static int hit_cmp(const void *a, const void *b)
{
        const struct devname_hit *x = a, *y = b;
        if (x->dev != y->dev)
                return x->dev < y->dev ? -1 : 1;
        if (x->part == y->part)
                return 0;
        /* the whole device first */
        return x->part == DEVNAME_WHOLE ? -1 : y->part == DEVNAME_WHOLE ? 1 : x->part < y->part ? -1 : 1;
}

static ssize_t finish(struct hits *h, struct devname_hit **ret)
{
        if (h->n > 1)
                qsort(h->v, h->n, sizeof(*h->v), hit_cmp);
        *ret = h->v;
        return (ssize_t)h->n;
}

/* The last component of a disk/by-*\/ link, or NULL. */
static const char *by_base(const char *link)
{
        if (strncmp(link, "disk/by-", 8))
                return NULL;
        const char *slash = strchr(link + 8, '/');
        return slash && slash[1] && !strchr(slash + 1, '/') ? slash + 1 : NULL;
}

/* One name of a device or partition against the normalized spelling. */
static bool name_is(const char *norm, bool glob, const char *name)
{
        if (!name)
                return false;
        return glob ? fnmatch(norm, name, FNM_PATHNAME) == 0 : !strcmp(norm, name);
}

static bool links_match(const char *norm, bool glob, bool bare, char *const *links)
{
        for (size_t k = 0; links && links[k]; k++) {
                if (name_is(norm, glob, links[k]))
                        return true;
                if (bare && name_is(norm, glob, by_base(links[k])))
                        return true;
        }
        return false;
}

static bool dev_match(const struct blockdev *b, const char *norm, bool glob, bool bare)
{
        if (name_is(norm, glob, b->name) || (b->devnode && startswith(b->devnode, "/dev/") &&
                                              name_is(norm, glob, b->devnode + 5)))
                return true;
        if (links_match(norm, glob, bare, b->devlinks))
                return true;
        if (b->dm_name) {
                if (bare && name_is(norm, glob, b->dm_name))
                        return true;
                if (startswith(norm, "mapper/") && name_is(norm + 7, glob, b->dm_name))
                        return true;
        }
        if (b->md_devname && startswith(norm, "md/") && name_is(norm + 3, glob, b->md_devname))
                return true;
        return false;
}

ssize_t devname_resolve(const struct sysinfo *si, const char *spelling, struct devname_hit **ret,
                        const char **ret_why)
{
        *ret = NULL;
        const char *why = NULL;
        _cleanup_free_ char *norm = devname_normalize(spelling, &why);
        if (!norm) {
                if (ret_why)
                        *ret_why = why;
                return -EINVAL;
        }
        /* "by-id/x" is disk/by-id/x, as the links live under /dev/disk */
        if (startswith(norm, "by-")) {
                char *t = xasprintf("disk/%s", norm);
                free(norm);
                norm = t;
        }
        bool glob = devname_is_glob(norm);
        bool bare = !strchr(norm, '/');
        struct hits h = {0};
        /* a LUN by the name anaconda and udev give its map, with or without the map */
        const char *mp = startswith(norm, "disk/by-id/dm-uuid-mpath-") ? norm + 25
                         : bare && startswith(norm, "dm-uuid-mpath-") ? norm + 14
                                                                    : NULL;
        for (size_t i = 0; i < si->n_devs; i++) {
                const struct blockdev *b = &si->devs[i];
                if (mp && *mp && !glob && streq_ptr(b->mpath_wwid, mp)) {
                        add_hit(&h, i, DEVNAME_WHOLE);
                        continue;
                }
                if (dev_match(b, norm, glob, bare))
                        add_hit(&h, i, DEVNAME_WHOLE);
                if (glob)
                        continue; /* a glob names whole devices only */
                for (size_t j = 0; j < b->n_partinfo; j++) {
                        const struct blockpart *p = &b->partinfo[j];
                        if (name_is(norm, false, p->name) || links_match(norm, false, bare, p->devlinks))
                                add_hit(&h, i, j);
                }
        }
        return finish(&h, ret);
}

static bool tag_eq(const char *a, const char *b, bool nocase)
{
        return a && b && (nocase ? !strcasecmp(a, b) : !strcmp(a, b));
}

ssize_t devname_resolve_spec(const struct sysinfo *si, const char *spec, struct devname_hit **ret)
{
        static const struct {
                const char *prefix;
                int field; /* 0 label, 1 fs uuid, 2 part uuid, 3 part name */
        } tags[] = {{"LABEL=", 0}, {"CDLABEL=", 0}, {"UUID=", 1}, {"PARTUUID=", 2}, {"PARTLABEL=", 3}};
        *ret = NULL;
        for (size_t t = 0; t < ELEMENTSOF(tags); t++) {
                if (!startswith(spec, tags[t].prefix))
                        continue;
                const char *v = spec + strlen(tags[t].prefix);
                struct hits h = {0};
                if (!*v)
                        return 0;
                for (size_t i = 0; i < si->n_devs; i++) {
                        const struct blockdev *b = &si->devs[i];
                        if ((tags[t].field == 0 && tag_eq(b->fs_label, v, false)) ||
                            (tags[t].field == 1 && tag_eq(b->fs_uuid, v, true)))
                                add_hit(&h, i, DEVNAME_WHOLE);
                        for (size_t j = 0; j < b->n_partinfo; j++) {
                                const struct blockpart *p = &b->partinfo[j];
                                const char *have = tags[t].field == 0   ? p->fs_label
                                                   : tags[t].field == 1 ? p->fs_uuid
                                                   : tags[t].field == 2 ? p->part_uuid
                                                                        : p->part_name;
                                if (tag_eq(have, v, tags[t].field == 1 || tags[t].field == 2))
                                        add_hit(&h, i, j);
                        }
                }
                return finish(&h, ret);
        }
        const char *why;
        if (strpbrk(spec, "*?["))
                return 0;
        ssize_t n = devname_resolve(si, spec, ret, &why);
        return n < 0 ? 0 : n;
}

const char *ks_disk_name(const char *s)
{
        if (!s)
                return NULL;
        if (startswith(s, "/dev/"))
                s += 5;
        size_t n = strlen(s);
        if (n == 0 || n > 200)
                return NULL;
        /* no commas (the list separator), no spaces, no "..", no leading '/' */
        if (s[0] == '/' || s[0] == '.' || strstr(s, "..") || s[n - 1] == '/')
                return NULL;
        for (const char *p = s; *p; p++)
                if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                      strchr("_-.:/+", *p)))
                        return NULL;
        /* a path must be under disk/ (by-id, by-path, ...) */
        if (strchr(s, '/') && !startswith(s, "disk/"))
                return NULL;
        return s;
}
