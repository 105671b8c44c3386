/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "base/sanitize.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>


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

const char *udev_match_key(const char *key)
{
        static const char *const map[][2] = {
                {"ID_WWN", "ENV{ID_WWN}"},
                {"ID_SERIAL", "ENV{ID_SERIAL}"},
                {"ID_PATH", "ENV{ID_PATH}"},
                {"wwid", "ATTRS{wwid}"},
                {"KERNEL", "KERNEL"},
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

/* The one component walker: absolute path s split at its slashes (any number),
 * rebuilt with one slash per component and "." components dropped; "/" when
 * nothing is left. A component for which refuse (may be NULL) names a reason
 * ends the walk: NULL, with the reason in *ret_why. */
static char *walk_components(const char *s, const char *(*refuse)(const char *c, size_t n), const char **ret_why)
{
        struct sbuf b = {0};
        for (const char *p = s; *p;) {
                while (*p == '/')
                        p++;
                if (!*p)
                        break;
                const char *e = p + strcspn(p, "/");
                size_t n = (size_t)(e - p);
                const char *why = refuse ? refuse(p, n) : NULL;
                if (why) {
                        *ret_why = why;
                        free(b.s);
                        return NULL;
                }
                if (!(n == 1 && p[0] == '.'))
                        sbuf_printf(&b, "/%.*s", (int)n, p);
                p = e;
        }
        if (!b.len)
                sbuf_puts(&b, "/");
        return sbuf_steal(&b);
}

char *path_canonical(const char *s)
{
        if (!s || s[0] != '/')
                return xstrdup(s ? s : "");
        return walk_components(s, NULL, NULL);
}

char *fstab_unescape(const char *s)
{
        return decode_escapes(s ? s : "", 8);
}

char *mount_unit_path(const char *name)
{
        size_t n = name ? strlen(name) : 0;
        if (n <= 6 || strcmp(name + n - 6, ".mount"))
                return NULL;
        if (n == 7 && name[0] == '-')
                return xstrdup("/");
        /* "-" is "/" before the \xHH escapes are decoded ("\x2d" stays a "-") */
        char *raw = xasprintf("/%.*s", (int)(n - 6), name);
        for (char *p = raw; *p; p++)
                if (*p == '-')
                        *p = '/';
        char *dec = decode_escapes(raw, 16);
        char *canon = path_canonical(dec);
        free(raw);
        free(dec);
        return canon;
}

bool path_covers(const char *mp, const char *other)
{
        if (mp[0] != '/' || other[0] != '/')
                return !strcmp(mp, other);
        size_t n = strlen(mp);
        return !strcmp(mp, other) || !strcmp(mp, "/") || (!strncmp(mp, other, n) && other[n] == '/');
}

/* Why a mountpoint component is refused, or NULL. */
static const char *mountpoint_component_refused(const char *p, size_t n)
{
        if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
                return "a mountpoint has no \".\" or \"..\" component: it must stay inside the root";
        for (const char *c = p; c < p + n; c++) {
                unsigned char ch = (unsigned char)*c;
                bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                          strchr("._+@:,=%-", ch);
                if (!ok || !ch)
                        return ch <= ' ' || ch == 0x7f ? "a mountpoint has no blanks or control characters"
                                                       : "a mountpoint is made of letters, digits and ._+@:,=%- only";
        }
        return NULL;
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
        return walk_components(s, mountpoint_component_refused, ret_why);
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
