/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sanitize.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "discover.h"

static bool all_in(const char *s, const char *extra, size_t min, size_t max)
{
        if (!s)
                return false;
        size_t n = 0;
        for (const char *p = s; *p; p++, n++) {
                unsigned char c = (unsigned char)*p;
                bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                          (c && strchr(extra, c));
                if (!ok || n >= max)
                        return false;
        }
        return n >= min;
}

/* ---- udev ---------------------------------------------------------------- */

bool udev_value_safe(const char *v)
{
        return all_in(v, "._:+@/-", 1, 255);
}

static bool unique_by(const struct sysinfo *si, const struct blockdev *b, size_t off)
{
        const char *v = *(char *const *)((const char *)b + off);
        for (size_t i = 0; si && i < si->n_devs; i++) {
                const struct blockdev *o = &si->devs[i];
                if (o != b && streq_ptr(*(char *const *)((const char *)o + off), v))
                        return false;
        }
        return true;
}

bool udev_pick_identity(const struct sysinfo *si, const struct blockdev *b, char **ret_key, char **ret_value)
{
        return udev_pick_identity_known(b, unique_by(si, b, offsetof(struct blockdev, wwn)),
                                        unique_by(si, b, offsetof(struct blockdev, wwid)), ret_key, ret_value);
}

bool udev_pick_identity_known(const struct blockdev *b, bool wwn_unique, bool wwid_unique, char **ret_key,
                              char **ret_value)
{
        *ret_key = *ret_value = NULL;
        const char *key = NULL, *value = NULL;
        /* ID_WWN only if no other device shares it (some controllers give every LUN the HBA's) */
        if (udev_value_safe(b->wwn) && wwn_unique)
                key = "ID_WWN", value = b->wwn;
        else if (udev_value_safe(b->id_serial))
                key = "ID_SERIAL", value = b->id_serial;
        else if (udev_value_safe(b->id_path))
                key = "ID_PATH", value = b->id_path;
        else if (udev_value_safe(b->wwid) && wwid_unique)
                key = "wwid", value = b->wwid;
        if (!key)
                return false;
        *ret_key = xstrdup(key);
        *ret_value = xstrdup(value);
        return true;
}

const char *udev_match_key(const char *key)
{
        static const char *const map[][2] = {
                {"ID_WWN", "ENV{ID_WWN}"},
                {"ID_SERIAL", "ENV{ID_SERIAL}"},
                {"ID_PATH", "ENV{ID_PATH}"},
                {"wwid", "ATTRS{wwid}"},
        };
        for (size_t i = 0; i < ELEMENTSOF(map); i++)
                if (streq_ptr(key, map[i][0]))
                        return map[i][1];
        return NULL;
}

/* ---- fstab --------------------------------------------------------------- */

bool fstab_escape(struct sbuf *b, const char *s)
{
        if (!s || !*s)
                return false;
        for (const char *p = s; *p; p++) {
                unsigned char c = (unsigned char)*p;
                if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
                        return false;
        }
        for (const char *p = s; *p; p++) {
                switch (*p) {
                case ' ':
                        sbuf_puts(b, "\\040");
                        break;
                case '\t':
                        sbuf_puts(b, "\\011");
                        break;
                case '\n':
                        sbuf_puts(b, "\\012");
                        break;
                case '\\':
                        sbuf_puts(b, "\\134");
                        break;
                default:
                        sbuf_printf(b, "%c", *p);
                }
        }
        return true;
}

bool mount_options_safe(const char *s)
{
        return all_in(s, "._,=:/+@-", 1, 1024);
}

char *path_canonical(const char *s)
{
        if (!s || s[0] != '/')
                return xstrdup(s ? s : "");
        struct sbuf b = {0};
        const char *p = s;
        while (*p) {
                while (*p == '/')
                        p++;
                if (!*p)
                        break;
                const char *e = p;
                while (*e && *e != '/')
                        e++;
                size_t n = (size_t)(e - p);
                if (!(n == 1 && p[0] == '.'))
                        sbuf_printf(&b, "/%.*s", (int)n, p);
                p = e;
        }
        if (!b.len)
                sbuf_puts(&b, "/");
        return sbuf_steal(&b);
}

bool path_covers(const char *mp, const char *other)
{
        if (mp[0] != '/' || other[0] != '/')
                return !strcmp(mp, other);
        size_t n = strlen(mp);
        return !strcmp(mp, other) || !strcmp(mp, "/") || (!strncmp(mp, other, n) && other[n] == '/');
}

char *mountpoint_normalize(const char *s, const char **ret_why)
{
        *ret_why = NULL;
        if (!s || s[0] != '/') {
                *ret_why = "a mountpoint is an absolute path: it starts with /";
                return NULL;
        }
        if (strlen(s) > 1024) {
                *ret_why = "a mountpoint has at most 1024 characters";
                return NULL;
        }
        struct sbuf b = {0};
        const char *p = s;
        while (*p) {
                while (*p == '/')
                        p++;
                if (!*p)
                        break;
                const char *e = p;
                while (*e && *e != '/')
                        e++;
                size_t n = (size_t)(e - p);
                if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) {
                        *ret_why = "a mountpoint has no \".\" or \"..\" component: it must stay inside the root";
                        free(b.s);
                        return NULL;
                }
                for (const char *c = p; c < e; c++) {
                        unsigned char ch = (unsigned char)*c;
                        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                                  strchr("._+@:,=%-", ch);
                        if (!ok || !ch) {
                                *ret_why = ch <= ' ' || ch == 0x7f
                                                   ? "a mountpoint has no blanks or control characters"
                                                   : "a mountpoint is made of letters, digits and ._+@:,=%- only";
                                free(b.s);
                                return NULL;
                        }
                }
                sbuf_printf(&b, "/%.*s", (int)n, p);
                p = e;
        }
        if (!b.len)
                sbuf_puts(&b, "/");
        return sbuf_steal(&b);
}

/* ---- mdadm.conf and sysctl.d --------------------------------------------- */

bool mdadm_dev_safe(const char *s)
{
        return s && startswith(s, "/dev/") && all_in(s + 5, "._+/-", 1, 200) && !strstr(s, "..");
}

bool uuid_safe(const char *s)
{
        if (!s || !*s || strlen(s) > 64)
                return false;
        for (const char *p = s; *p; p++)
                if (!strchr("0123456789abcdefABCDEF:-", *p))
                        return false;
        return true;
}

bool sysctl_key_safe(const char *s)
{
        if (!s || strlen(s) > 128)
                return false;
        const char *p = s;
        size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_");
        if (!n)
                return false;
        p += n;
        int parts = 0;
        while (*p == '.') {
                p++;
                n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_-");
                if (!n)
                        return false;
                p += n;
                parts++;
        }
        return !*p && parts > 0;
}

bool sysctl_value_safe(const char *s)
{
        if (!s || !*s || strlen(s) > 256)
                return false;
        for (const char *p = s; *p; p++)
                if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
                        return false;
        return s[0] != ' ' && s[strlen(s) - 1] != ' ';
}

const char sysctl_allowed_text[] =
        "vm.dirty_*, vm.dirtytime_expire_seconds, vm.vfs_cache_pressure, vm.min_free_kbytes, "
        "vm.watermark_scale_factor, vm.swappiness, vm.zone_reclaim_mode, dev.raid.speed_limit_min, "
        "dev.raid.speed_limit_max";

bool sysctl_key_allowed(const char *key)
{
        static const char *const exact[] = {
                "vm.dirtytime_expire_seconds", "vm.vfs_cache_pressure", "vm.min_free_kbytes",
                "vm.watermark_scale_factor",   "vm.swappiness",         "vm.zone_reclaim_mode",
                "dev.raid.speed_limit_min",    "dev.raid.speed_limit_max",
        };
        if (!sysctl_key_safe(key))
                return false;
        if (startswith(key, "vm.dirty_") && !strchr(key + 3, '.'))
                return true;
        for (size_t i = 0; i < ELEMENTSOF(exact); i++)
                if (!strcmp(key, exact[i]))
                        return true;
        return false;
}

/* ---- comments ------------------------------------------------------------ */

void comment_text(struct sbuf *b, const char *s)
{
        if (!s) {
                sbuf_puts(b, "(none)");
                return;
        }
        size_t n = 0;
        for (const char *p = s; *p; p++, n++) {
                if (n == 200) {
                        sbuf_puts(b, "...");
                        return;
                }
                unsigned char c = (unsigned char)*p;
                sbuf_printf(b, "%c", c >= 0x20 && c < 0x7f ? (char)c : '?');
        }
}

char *comment_dup(const char *s)
{
        struct sbuf b = {0};
        comment_text(&b, s);
        return sbuf_steal(&b);
}
