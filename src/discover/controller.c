/* SPDX-License-Identifier: GPL-2.0-or-later
 * The controller records: their geometry, their block devices, their memory.
 * The parsers are one file per vendor (ctl_<vendor>.c), over the line reader
 * of ctl_lines.c or the JSON helpers of ctl_jsondoc.c; which tools there are,
 * how each is run and captured, in the table of ctl_tools.c. */
#include "discover/ctl_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/numbers.h"

struct ctl_vd *ctl_add(struct ctl_list *l, const char *tool, const char *controller)
{
        l->v = xrealloc(l->v, (l->n + 1) * sizeof *l->v);
        struct ctl_vd *v = &l->v[l->n++];
        *v = (struct ctl_vd){.tool = xstrdup(tool), .controller = xstrdup(controller)};
        return v;
}

void ctl_vd_free(struct ctl_vd *v)
{
        char **s[] = {&v->tool, &v->controller, &v->vd, &v->level, &v->level_raw, &v->state, &v->state_raw,
                      &v->os_name, &v->naa, &v->serial, &v->scsi_addr, &v->pci, &v->device,
                      &v->matched_by, &v->note};
        for (size_t i = 0; i < ELEMENTSOF(s); i++) {
                free(*s[i]);
                *s[i] = NULL;
        }
}

void ctl_truncate(struct ctl_list *l, size_t n)
{
        while (l->n > n)
                ctl_vd_free(&l->v[--l->n]);
        if (!l->n) { /* as it was before the first record */
                free(l->v);
                l->v = NULL;
        }
}

void ctl_nexts_add(struct ctl_nexts *x, unsigned step, const char *id)
{
        x->v = xrealloc(x->v, (x->n + 1) * sizeof *x->v);
        struct ctl_next *n = &x->v[x->n++];
        n->step = step;
        snprintf(n->id, sizeof n->id, "%s", id ? id : "");
}

void ctl_nexts_free(struct ctl_nexts *x)
{
        free(x->v);
        *x = (struct ctl_nexts){0};
}

struct ctl_vd *ctl_find(struct ctl_list *l, size_t n0, const char *controller, const char *vd)
{
        for (size_t i = n0; i < l->n; i++)
                if (streq_ptr(l->v[i].controller, controller) && streq_ptr(l->v[i].vd, vd))
                        return &l->v[i];
        return NULL;
}

void ctl_list_free(struct ctl_list *l)
{
        ctl_truncate(l, 0);
        strv_free(l->errors);
        strv_free(l->warnings);
        *l = (struct ctl_list){0};
}

char *ctl_printable(const char *s, size_t max)
{
        size_t n = strnlen(s, max);
        char *o = xmalloc(n + 1);
        for (size_t i = 0; i < n; i++)
                o[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
        o[n] = 0;
        return o;
}

char *ctl_naa(const char *s)
{
        if (!s)
                return NULL;
        if (!strncasecmp(s, "0x", 2))
                s += 2;
        else if (!strncasecmp(s, "naa.", 4))
                s += 4;
        size_t n = strspn(s, "0123456789abcdefABCDEF");
        if ((n != 16 && n != 32) || (s[n] && !isspace((unsigned char)s[n])))
                return NULL;
        char *o = xmalloc(n + 1);
        for (size_t i = 0; i < n; i++)
                o[i] = (char)tolower((unsigned char)s[i]);
        o[n] = 0;
        return o;
}

int ctl_parse_strip(const char *s, uint64_t *ret_bytes)
{
        char *end;
        if (!s || !isdigit((unsigned char)*s))
                return -EINVAL;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (errno || v == 0 || v > (1ULL << 30))
                return -EINVAL;
        while (*end == ' ')
                end++;
        static const struct {
                const char *unit;
                uint64_t mul;
        } units[] = {{"KB", 1024},     {"KiB", 1024},     {"K", 1024}, {"MB", 1 << 20},
                     {"MiB", 1 << 20}, {"M", 1 << 20},    {"Bytes", 1}, {"B", 1}};
        for (size_t i = 0; i < ELEMENTSOF(units); i++)
                if (!strcasecmp(end, units[i].unit)) {
                        *ret_bytes = v * units[i].mul;
                        return 0;
                }
        return -EINVAL;
}

void ctl_add_note(struct ctl_vd *v, char *note)
{
        if (v->note) {
                char *both = xasprintf("%s; %s", v->note, note);
                free(note);
                note = both;
        }
        free(v->note);
        v->note = note;
}

/* Data drives per span of the level, 0 when n drives cannot make one. */
static unsigned data_per_span(const char *level, unsigned n, unsigned spans)
{
        if (!strcmp(level, "raid0") || !strcmp(level, "raid00"))
                return n;
        if (!strcmp(level, "raid1"))
                return n >= 2 && spans == 1 ? 1 : 0;
        if (!strcmp(level, "raid1-triple"))
                return n == 3 && spans == 1 ? 1 : 0;
        if (!strcmp(level, "raid10"))
                return n >= 2 && n % 2 == 0 ? n / 2 : 0;
        if (!strcmp(level, "raid10-triple"))
                return n >= 3 && n % 3 == 0 ? n / 3 : 0;
        if (!strcmp(level, "raid5") || !strcmp(level, "raid6")) {
                if (spans != 1)
                        return 0;
                return !strcmp(level, "raid5") ? (n >= 3 ? n - 1 : 0) : (n >= 4 ? n - 2 : 0);
        }
        if (!strcmp(level, "raid50"))
                return n >= 3 ? n - 1 : 0;
        if (!strcmp(level, "raid60"))
                return n >= 4 ? n - 2 : 0;
        return 0;
}

void ctl_vd_geometry(struct ctl_vd *v)
{
        v->data_disks = 0;
        v->full_stripe_bytes = 0;
        if (!v->level) {
                ctl_add_note(v, xasprintf("RAID level '%s' is not one storprov derives a stripe for: geometry unknown",
                                      v->level_raw ? v->level_raw : "(not printed)"));
                return;
        }
        if (!strcmp(v->level, "simple") || !strcmp(v->level, "spanned")) {
                ctl_add_note(v, xasprintf("a %s volume has no stripe: nothing to align beyond the drives' own sectors",
                                          v->level));
                return;
        }
        if (!strcmp(v->level, "raid1e") || !strcmp(v->level, "raid5ee")) {
                ctl_add_note(v, xasprintf("%s (printed '%s') spreads its rows over the drives without a fixed set of "
                                          "data disks: storprov derives no stripe for it",
                                          v->level, v->level_raw ? v->level_raw : "?"));
                return;
        }
        if (!v->drives_per_span || !v->spans) {
                ctl_add_note(v, xstrdup("the tool did not print the drives per span and the spans: geometry unknown"));
                return;
        }
        unsigned per = data_per_span(v->level, v->drives_per_span, v->spans);
        if (!per) {
                ctl_add_note(v, xasprintf("%s with %u drive%s per span and %u span%s is not a layout storprov knows: "
                                      "geometry unknown",
                                      v->level, v->drives_per_span, v->drives_per_span == 1 ? "" : "s", v->spans,
                                      v->spans == 1 ? "" : "s"));
                return;
        }
        v->data_disks = per * v->spans;
        if (!v->strip_bytes) {
                ctl_add_note(v, xstrdup("the tool did not print a strip size: full stripe unknown"));
                return;
        }
        v->full_stripe_bytes = mul_sat_u64(v->strip_bytes, v->data_disks);
}

/* ---- which block device a record is ------------------------------------- */

/* The NAA a disk carries: its device/wwid "naa.…", else its WWN. */
static char *disk_naa(const struct blockdev *b)
{
        char *n = b->wwid && startswith(b->wwid, "naa.") ? ctl_naa(b->wwid) : NULL;
        return n ? n : ctl_naa(b->wwn);
}

/* The one whole disk whose WWID or WWN is naa in full; NULL, with *several
 * set, when more than one is (paths of one LUN). */
static const struct blockdev *by_naa(const struct sysinfo *si, const char *naa, const struct blockdev **second)
{
        const struct blockdev *found = NULL;
        *second = NULL;
        for (size_t i = 0; i < si->n_devs; i++) {
                const struct blockdev *b = &si->devs[i];
                if (b->is_partition)
                        continue;
                _cleanup_free_ char *w = b->wwid && startswith(b->wwid, "naa.") ? ctl_naa(b->wwid) : NULL;
                _cleanup_free_ char *n = ctl_naa(b->wwn);
                if (!streq_ptr(w, naa) && !streq_ptr(n, naa))
                        continue;
                if (found) {
                        *second = b;
                        return NULL;
                }
                found = b;
        }
        return found;
}

static const struct blockdev *by_os_name(const struct sysinfo *si, const char *os_name)
{
        if (!os_name || !startswith(os_name, "/dev/") || strchr(os_name + 5, '/'))
                return NULL;
        /* a plain search, not sysinfo_find: discover.c frees the controllers with the sysinfo, so this file
         * calls nothing there (no call circle between the two) */
        for (size_t i = 0; i < si->n_devs; i++)
                if (!strcmp(si->devs[i].name, os_name + 5))
                        return &si->devs[i];
        return NULL;
}

/* A disk named by the tool but carrying another NAA (not even the 64-bit
 * start of this one, which is all udev's ID_WWN keeps) is another disk. */
static void match_one(struct ctl_vd *v, const struct sysinfo *si)
{
        const struct blockdev *second = NULL;
        const struct blockdev *a = v->naa ? by_naa(si, v->naa, &second) : NULL;
        const struct blockdev *o = by_os_name(si, v->os_name);
        _cleanup_free_ char *o_naa = o ? disk_naa(o) : NULL;
        if (second)
                ctl_add_note(v, xasprintf("NAA %s is the WWN of several disks (%s, ...): which one is not known; "
                                      "device left unmatched", v->naa, second->name));
        else if (a && o && a != o)
                ctl_add_note(v, xasprintf("NAA %s is %s but the tool names %s: device left unmatched", v->naa, a->name,
                                      v->os_name));
        else if (!a && o && v->naa && o_naa && !startswith(v->naa, o_naa))
                ctl_add_note(v, xasprintf("the tool names %s, whose WWN %s is not the VD's NAA %s: device left unmatched",
                                      v->os_name, o_naa, v->naa));
        else if (a || o) {
                v->device = xstrdup((a ? a : o)->name);
                v->matched_by = xstrdup(a ? "wwn" : "os-name");
        } else
                ctl_add_note(v, xasprintf("no disk has %s%s%s%s: device unknown", v->naa ? "WWN " : "",
                                      v->naa ? v->naa : "", v->naa && v->os_name ? " or the name " : "",
                                      v->os_name ? v->os_name : v->naa ? "" : "an identifier the tool printed"));
}

void ctl_match(struct ctl_list *l, const struct sysinfo *si)
{
        for (size_t i = 0; i < l->n; i++) {
                free(l->v[i].device);
                free(l->v[i].matched_by);
                l->v[i].device = l->v[i].matched_by = NULL;
                match_one(&l->v[i], si);
        }
}

const struct ctl_vd *ctl_vd_for_device(const struct ctl_list *l, const char *name)
{
        for (size_t i = 0; i < l->n; i++)
                if (streq_ptr(l->v[i].device, name))
                        return &l->v[i];
        return NULL;
}
