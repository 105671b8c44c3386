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
#include <strings.h>

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
        char **s[] = {&v->tool,    &v->controller, &v->vd,        &v->level,     &v->level_raw,
                      &v->state,   &v->state_raw,  &v->write_cache_raw,
                      &v->os_name, &v->naa,        &v->serial,    &v->scsi_addr, &v->pci,
                      &v->device,  &v->matched_by, &v->note};
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

/* The disk's place as udev's ID_PATH gives it: the controller's PCI address
 * (the last "pci-" part) and "channel:target:lun" (the "-scsi-H:C:T:L" part
 * without the host, which path_id already counts from the controller's first). */
static bool disk_place(const struct blockdev *b, char *pci, size_t pci_size, char *addr, size_t addr_size)
{
        const char *path = b->id_path, *scsi = NULL, *p;
        for (p = path; p && (p = strstr(p, "-scsi-")); p++)
                scsi = p;
        unsigned h, c, t, l;
        int end = 0;
        if (!scsi || sscanf(scsi, "-scsi-%u:%u:%u:%u%n", &h, &c, &t, &l, &end) != 4 || scsi[end])
                return false;
        snprintf(addr, addr_size, "%u:%u:%u", c, t, l);
        const char *last = NULL;
        for (p = path; (p = strstr(p, "pci-")) && p < scsi; p++)
                if (p == path || p[-1] == '-')
                        last = p + 4;
        size_t n = last ? (size_t)(scsi - last) : 0;
        snprintf(pci, pci_size, "%.*s", n < pci_size ? (int)n : 0, last ? last : "");
        return true;
}

enum id_kind { ID_NAA, ID_OS_NAME, ID_SERIAL, ID_ADDR, _ID_MAX };
static const char *const id_kind_name[_ID_MAX] = {"wwn", "os-name", "serial", "scsi-address"};
static const char *const id_kind_label[_ID_MAX] = {"WWN", "the name", "serial", "SCSI address"};

/* The disk's serial is the unit's: as it is, or behind the T10 vendor id
 * 3ware's 9xxx firmware puts before it in its VPD page 0x83 designator, which
 * udev keeps (ID_SERIAL "1AMCC_<serial>", ID_SERIAL_SHORT "AMCC_<serial>";
 * the GLPI agent matches tw_cli's serial the same way), or, where the
 * firmware gives the unit an NAA (newer 3ware, ID_SERIAL "3600050e0..."), the
 * unit's VPD page 0x80 serial udev keeps in ID_SCSI_SERIAL. Whole strings only. */
static bool serial_is(const struct blockdev *b, const char *serial)
{
        const char *s = b->serial;
        if (s && startswith(s, "AMCC_"))
                s += 5;
        if ((s && !strcmp(s, serial)) || streq_ptr(b->unit_serial, serial))
                return true;
        return b->id_serial && startswith(b->id_serial, "1AMCC_") && !strcmp(b->id_serial + 6, serial);
}

/* Does whole disk b carry the record's identifier of kind k? */
static bool disk_has(const struct ctl_vd *v, const struct blockdev *b, enum id_kind k)
{
        switch (k) {
        case ID_NAA: {
                _cleanup_free_ char *w = b->wwid && startswith(b->wwid, "naa.") ? ctl_naa(b->wwid) : NULL;
                _cleanup_free_ char *n = ctl_naa(b->wwn);
                return streq_ptr(w, v->naa) || streq_ptr(n, v->naa);
        }
        case ID_OS_NAME:
                return startswith(v->os_name, "/dev/") && !strchr(v->os_name + 5, '/') &&
                       !strcmp(b->name, v->os_name + 5);
        case ID_SERIAL:
                return serial_is(b, v->serial);
        case ID_ADDR: {
                char pci[64], addr[48];
                return disk_place(b, pci, sizeof pci, addr, sizeof addr) && !strcmp(addr, v->scsi_addr) &&
                       (!v->pci || !strcasecmp(pci, v->pci));
        }
        default:
                return false;
        }
}

static const char *id_value(const struct ctl_vd *v, enum id_kind k)
{
        const char *val[_ID_MAX] = {v->naa, v->os_name, v->serial, v->scsi_addr};
        return val[k];
}

/* The whole disks carrying the identifier: 0, 1 (*ret), or 2 (several; *ret, *second). */
static unsigned disks_with(const struct ctl_vd *v, const struct sysinfo *si, enum id_kind k,
                           const struct blockdev **ret, const struct blockdev **second)
{
        unsigned n = 0;
        for (size_t i = 0; i < si->n_devs && n < 2; i++) {
                const struct blockdev *b = &si->devs[i];
                if (b->is_partition || !disk_has(v, b, k))
                        continue;
                *(n++ ? second : ret) = b;
        }
        return n;
}

/* Each identifier the tool printed names one disk, or several among which
 * another identifier names one (a unit serial beside a SCSI address that two
 * controllers have), and all agree; a disk named by the tool but carrying
 * another NAA (not even the 64-bit start of this one, which is all udev's
 * ID_WWN keeps) is another disk. Anything else leaves the record unmatched,
 * with the reason. */
static void match_one(struct ctl_vd *v, const struct sysinfo *si)
{
        const struct blockdev *found = NULL, *b = NULL, *b2 = NULL, *several[2] = {NULL, NULL};
        enum id_kind by = ID_NAA, vague = ID_NAA;
        bool any_vague = false;
        char what[160] = "";
        for (enum id_kind k = 0; k < _ID_MAX; k++) {
                const char *val = id_value(v, k);
                if (!val)
                        continue;
                size_t o = strlen(what);
                snprintf(what + o, sizeof what - o, "%s%s %s", o ? " or " : "", id_kind_label[k], val);
                unsigned n = disks_with(v, si, k, &b, &b2);
                if (n == 2 && !any_vague) {
                        any_vague = true;
                        vague = k;
                        several[0] = b;
                        several[1] = b2;
                } else if (n == 1 && found && found != b) {
                        ctl_add_note(v, xasprintf("%s %s is %s but %s %s is %s: device left unmatched",
                                                  id_kind_label[by], id_value(v, by), found->name, id_kind_label[k], val,
                                                  b->name));
                        return;
                } else if (n == 1 && !found) {
                        found = b;
                        by = k;
                }
        }
        if (any_vague && (!found || !disk_has(v, found, vague))) {
                ctl_add_note(v, xasprintf("%s %s is that of several disks (%s, %s, ...)%s%s: which one is not known; "
                                          "device left unmatched", id_kind_label[vague], id_value(v, vague),
                                          several[0]->name, several[1]->name, found ? ", none of them " : "",
                                          found ? found->name : ""));
                return;
        }
        if (!found) {
                ctl_add_note(v, xasprintf("no disk has %s: device unknown",
                                          *what ? what : "an identifier the tool printed"));
                return;
        }
        _cleanup_free_ char *d_naa = disk_naa(found);
        if (v->naa && by != ID_NAA && d_naa && !startswith(v->naa, d_naa)) {
                _cleanup_free_ char *named = by == ID_OS_NAME ? xstrdup(v->os_name)
                                                              : xasprintf("%s (%s %s)", found->name, id_kind_label[by],
                                                                          id_value(v, by));
                ctl_add_note(v, xasprintf("the tool names %s, whose WWN %s is not the VD's NAA %s: device left "
                                          "unmatched", named, d_naa, v->naa));
                return;
        }
        v->device = xstrdup(found->name);
        v->matched_by = xstrdup(id_kind_name[by]);
}

bool ctl_vd_same_geometry(const struct ctl_vd *a, const struct ctl_vd *b)
{
        return streq_ptr(a->level, b->level) && a->strip_bytes == b->strip_bytes && a->data_disks == b->data_disks &&
               a->full_stripe_bytes == b->full_stripe_bytes;
}

static char *vd_short(const struct ctl_vd *v)
{
        char s[32];
        return xasprintf("%s controller %s VD %s (%s, strip %s, %u data disks)", v->tool, v->controller,
                         v->vd ? v->vd : "?", v->level ? v->level : v->level_raw ? v->level_raw : "level unknown",
                         v->strip_bytes ? fmt_size_exact(v->strip_bytes, s) : "unknown", v->data_disks);
}

/* Two records of one disk (two tools, two controllers) that disagree: each says so. */
static void mark_conflicts(struct ctl_list *l)
{
        for (size_t i = 0; i < l->n; i++)
                for (size_t j = i + 1; l->v[i].device && j < l->n; j++) {
                        struct ctl_vd *a = &l->v[i], *b = &l->v[j];
                        if (!streq_ptr(a->device, b->device) || ctl_vd_same_geometry(a, b))
                                continue;
                        _cleanup_free_ char *sa = vd_short(a), *sb = vd_short(b);
                        ctl_add_note(a, xasprintf("conflict: %s is also %s", a->device, sb));
                        ctl_add_note(b, xasprintf("conflict: %s is also %s", b->device, sa));
                }
}

void ctl_match(struct ctl_list *l, const struct sysinfo *si)
{
        for (size_t i = 0; i < l->n; i++) {
                free(l->v[i].device);
                free(l->v[i].matched_by);
                l->v[i].device = l->v[i].matched_by = NULL;
                match_one(&l->v[i], si);
        }
        mark_conflicts(l);
}

size_t ctl_vds_for_device(const struct ctl_list *l, const char *name, const struct ctl_vd **out, size_t max)
{
        size_t n = 0;
        for (size_t i = 0; i < l->n; i++)
                if (streq_ptr(l->v[i].device, name) && n < max)
                        out[n++] = &l->v[i];
        return n;
}

const struct ctl_vd *ctl_vd_for_device(const struct ctl_list *l, const char *name)
{
        for (size_t i = 0; i < l->n; i++)
                if (streq_ptr(l->v[i].device, name))
                        return &l->v[i];
        return NULL;
}
