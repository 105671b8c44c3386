/* SPDX-License-Identifier: GPL-2.0-or-later
 * An independent, strict reader of the files storprov renders: it does not
 * use storprov's sanitizer, only the formats' own grammars, and says whether
 * a file holds anything but what storprov may write. Used by the fuzzers
 * (linked in) and by tests/bats/bad-sysroots.bats (as build/tests/render-check).
 *
 *   udev:   every rule line is KEY[{ATTR}]OP"VALUE" items joined by ", ";
 *           values hold no '"', '\\' or control character; match values hold
 *           no glob character except in the fixed items storprov writes
 *           (ACTION=="add|change", KERNEL=="md*" / "dm-*"); the line matches
 *           exactly one identity (ENV{ID_WWN|ID_SERIAL|ID_PATH|MD_UUID|DM_NAME},
 *           ATTRS{wwid}, or a KERNEL=="name" that is no glob) and assigns only ATTR{queue/NAME} /
 *           ATTR{md/NAME} (NAME of [a-z0-9_]); nothing like RUN, PROGRAM, IMPORT, GOTO or LABEL.
 *           ENV{DEVTYPE} is "disk" or "partition", the latter only in an md
 *           member's rule: ENV{ID_FS_UUID}=="8-4-4-4-12" (lower-case hex, the
 *           identity) with ENV{ID_FS_TYPE}=="linux_raid_member", which on
 *           ENV{DEVTYPE}=="disk" says KERNEL!="dm-*" and sets ATTR{queue/NAME}
 *           only, and on ENV{DEVTYPE}=="partition" sets its disk's
 *           ATTR{../queue/NAME} only.
 *   fstab:  every line that is not a comment has exactly 6 fields; the
 *           mountpoint is absolute without "." or ".." components; only the
 *           four fstab(5) escapes appear.
 *   sysctl: "key = value" with a lower-case dotted key and printable value.
 *   mdadm:  "ARRAY /dev/… metadata=N UUID=hex" and comments, DEVICE lines.
 *   multipath: the section lines "blacklist_exceptions {", "multipaths {",
 *           "multipath {", "}", and inside them only wwid "[A-Za-z0-9._:^$-]"
 *           and alias "[A-Za-z0-9_+-]" (multipath.conf has no escape), with
 *           balanced braces and wwid/alias only inside a section.
 *   wwids:  "/WWID/" lines of [A-Za-z0-9._:-] and comments.
 *   tuned:  "[name]" sections of [A-Za-z0-9._-] and key=value lines; no '%'
 *           (tuned's ConfigParser interpolates), '#', ';' or "${" (a tuned
 *           variable) anywhere; [main] takes summary and include, a disk
 *           section type=disk, an integer priority, devices_udev_regex,
 *           elevator (a word) and readahead (a number), [sysctl] drop= and
 *           lower-case dotted keys.
 */
#include "render_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *fail_at(char *buf, size_t n, int line, const char *why)
{
        snprintf(buf, n, "line %d: %s", line, why);
        return buf;
}

static bool has_glob(const char *v, size_t n)
{
        for (size_t i = 0; i < n; i++)
                if (strchr("*?[]|", v[i]))
                        return true;
        return false;
}

/* the n bytes at s are exactly the string w */
static bool is(const char *s, size_t n, const char *w)
{
        return strlen(w) == n && !strncmp(s, w, n);
}

static bool in(const char *s, size_t n, const char *const *set)
{
        for (; *set; set++)
                if (strlen(*set) == n && !strncmp(s, *set, n))
                        return true;
        return false;
}

/* "8-4-4-4-12" lower-case hex: an md member's ID_FS_UUID as blkid spells it */
static bool blkid_uuid(const char *v, size_t n)
{
        if (n != 36)
                return false;
        for (size_t i = 0; i < n; i++)
                if (i == 8 || i == 13 || i == 18 || i == 23 ? v[i] != '-' : !strchr("0123456789abcdef", v[i]))
                        return false;
        return true;
}

/* ATTR{PREFIX[a-z0-9_]+}: an attribute name under the given directory, nothing else (no "..", no "/") */
static bool attr_under(const char *k, size_t klen, const char *prefix)
{
        size_t pl = strlen(prefix);
        if (klen < pl + 2 || strncmp(k, prefix, pl) || k[klen - 1] != '}')
                return false;
        for (size_t i = pl; i < klen - 1; i++)
                if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789_", k[i]))
                        return false;
        return true;
}

static const char *check_udev_line(const char *l, size_t len, char *buf, size_t bn, int ln)
{
        static const char *const fixed_globs[] = {"ACTION==\"add|change\"", "KERNEL==\"md*\"", "KERNEL==\"dm-*\"",
                                                  "KERNEL!=\"dm-*\"", NULL};
        static const char *const identities[] = {"ENV{ID_WWN}", "ENV{ID_SERIAL}", "ENV{ID_PATH}", "ENV{MD_UUID}",
                                                 "ENV{DM_NAME}", "ENV{DM_UUID}", "ATTRS{wwid}", NULL};
        static const char *const plain_matches[] = {"SUBSYSTEM", "ENV{DEVTYPE}", "ENV{DM_UDEV_DISABLE_OTHER_RULES_FLAG}",
                                                    "ACTION", "KERNEL", NULL};
        const char *p = l, *end = l + len;
        int n_ident = 0, n_assign = 0;
        /* an md member by its superblock: ENV{ID_FS_UUID} (the identity) with ENV{ID_FS_TYPE}=="linux_raid_member";
         * on a whole disk (ENV{DEVTYPE}=="disk", KERNEL!="dm-*") it sets ATTR{queue/...}, on a partition
         * (ENV{DEVTYPE}=="partition") its disk's ATTR{../queue/...}, and nothing else */
        int n_fs_uuid = 0, n_fs_type = 0, n_queue = 0, n_parent_queue = 0, n_md = 0, devtype = 0;
        bool not_dm = false;
        while (p < end) {
                const char *ks = p;
                while (p < end && ((*p >= 'A' && *p <= 'Z') || *p == '_'))
                        p++;
                if (p == ks)
                        return fail_at(buf, bn, ln, "an item does not start with a key");
                if (p < end && *p == '{') {
                        while (p < end && *p != '}') {
                                if (*p == '"' || *p == ' ' || (unsigned char)*p < 0x20)
                                        return fail_at(buf, bn, ln, "bad character in a key's attribute");
                                p++;
                        }
                        if (p == end)
                                return fail_at(buf, bn, ln, "unterminated {");
                        p++;
                }
                size_t klen = (size_t)(p - ks);
                const char *os = p;
                while (p < end && strchr("=!+:-", *p))
                        p++;
                size_t olen = (size_t)(p - os);
                bool match = (olen == 2 && !strncmp(os, "==", 2)) || (olen == 2 && !strncmp(os, "!=", 2));
                bool assign = olen == 1 && *os == '=';
                if (!match && !assign)
                        return fail_at(buf, bn, ln, "an operator other than == != =");
                if (p >= end || *p != '"')
                        return fail_at(buf, bn, ln, "a value is not quoted");
                const char *vs = ++p;
                while (p < end && *p != '"') {
                        if (*p == '\\' || (unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
                                return fail_at(buf, bn, ln, "a backslash or control character in a value");
                        p++;
                }
                if (p == end)
                        return fail_at(buf, bn, ln, "unterminated value");
                size_t vlen = (size_t)(p - vs);
                p++;
                size_t item_len = (size_t)(p - ks);
                bool eq = olen == 2 && !strncmp(os, "==", 2);
                /* KERNEL=="sdb": the kernel name as the identity of last resort (not one of the fixed globs) */
                bool kernel_ident = klen == 6 && !strncmp(ks, "KERNEL", 6) && eq && !in(ks, item_len, fixed_globs);
                if (match) {
                        if (is(ks, klen, "ENV{ID_FS_UUID}")) {
                                if (!eq || !blkid_uuid(vs, vlen))
                                        return fail_at(buf, bn, ln, "ENV{ID_FS_UUID} is not ==\"8-4-4-4-12\" (lower-case hex)");
                                n_ident++;
                                n_fs_uuid++;
                        } else if (is(ks, klen, "ENV{ID_FS_TYPE}")) {
                                if (!eq || !is(vs, vlen, "linux_raid_member"))
                                        return fail_at(buf, bn, ln, "ENV{ID_FS_TYPE} other than ==\"linux_raid_member\"");
                                n_fs_type++;
                        } else if (in(ks, klen, identities) || kernel_ident) {
                                n_ident++;
                                if (!vlen || has_glob(vs, vlen))
                                        return fail_at(buf, bn, ln, "an identity value is empty or a glob");
                        } else if (!in(ks, klen, plain_matches))
                                return fail_at(buf, bn, ln, "a match on a key storprov never matches");
                        else if (has_glob(vs, vlen) && !in(ks, item_len, fixed_globs))
                                return fail_at(buf, bn, ln, "a glob in a match value");
                        if (is(ks, klen, "ENV{DEVTYPE}")) {
                                if (!eq || devtype)
                                        return fail_at(buf, bn, ln, "ENV{DEVTYPE} not matched once with ==");
                                devtype = is(vs, vlen, "disk") ? 1 : is(vs, vlen, "partition") ? 2 : -1;
                                if (devtype < 0)
                                        return fail_at(buf, bn, ln, "ENV{DEVTYPE} other than disk or partition");
                        }
                        not_dm = not_dm || is(ks, item_len, "KERNEL!=\"dm-*\"");
                } else {
                        if (attr_under(ks, klen, "ATTR{queue/"))
                                n_queue++;
                        else if (attr_under(ks, klen, "ATTR{../queue/"))
                                n_parent_queue++;
                        else if (attr_under(ks, klen, "ATTR{md/"))
                                n_md++;
                        else
                                return fail_at(buf, bn, ln,
                                               "an assignment other than ATTR{queue/NAME}, ATTR{md/NAME} or ATTR{../queue/NAME}");
                        n_assign++;
                        for (size_t i = 0; i < vlen; i++)
                                if (!strchr("0123456789abcdefghijklmnopqrstuvwxyz-.", vs[i]))
                                        return fail_at(buf, bn, ln, "an attribute value that is not a plain word");
                }
                if (p == end)
                        break;
                if (end - p < 2 || p[0] != ',' || p[1] != ' ')
                        return fail_at(buf, bn, ln, "items are not joined by \", \"");
                p += 2;
        }
        if (n_ident != 1)
                return fail_at(buf, bn, ln, "a rule does not match exactly one identity");
        if (!n_assign)
                return fail_at(buf, bn, ln, "a rule assigns nothing");
        if (n_fs_uuid || n_fs_type) {
                if (n_fs_uuid != 1 || n_fs_type != 1)
                        return fail_at(buf, bn, ln, "ENV{ID_FS_UUID} without ENV{ID_FS_TYPE}==\"linux_raid_member\", or the reverse");
                if (devtype == 1 && (!not_dm || n_parent_queue || n_md))
                        return fail_at(buf, bn, ln, "an md member disk's rule: not KERNEL!=\"dm-*\" with ATTR{queue/...} only");
                if (devtype == 2 && (n_queue || n_md))
                        return fail_at(buf, bn, ln, "an md member partition's rule sets other than its disk's ATTR{../queue/...}");
                if (devtype != 1 && devtype != 2)
                        return fail_at(buf, bn, ln, "an md member's rule without ENV{DEVTYPE}");
        } else if (n_parent_queue || devtype == 2)
                return fail_at(buf, bn, ln, "ATTR{../queue/...} or a partition outside an md member's rule");
        return NULL;
}

static const char *check_fstab_line(const char *l, size_t len, char *buf, size_t bn, int ln)
{
        char *s = strndup(l, len);
        char *f[8] = {0};
        int nf = 0;
        for (char *save = NULL, *t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
                if (nf < 8)
                        f[nf++] = t;
                else
                        nf++;
        const char *why = NULL;
        if (nf != 6)
                why = "not 6 fields";
        else if (f[1][0] != '/' || strstr(f[1], "/../") || strstr(f[1], "/./") ||
                 (strlen(f[1]) >= 3 && !strcmp(f[1] + strlen(f[1]) - 3, "/..")))
                why = "a mountpoint that is not absolute or leaves the root";
        for (int i = 0; !why && i < nf && i < 6; i++)
                for (char *c = f[i]; *c; c++)
                        if (*c == '\\' && strncmp(c, "\\040", 4) && strncmp(c, "\\011", 4) && strncmp(c, "\\012", 4) &&
                            strncmp(c, "\\134", 4))
                                why = "a backslash that is not an fstab(5) escape";
        free(s);
        return why ? fail_at(buf, bn, ln, why) : NULL;
}

static const char *check_sysctl_line(const char *l, size_t len, char *buf, size_t bn, int ln)
{
        size_t k = 0;
        while (k < len && strchr("abcdefghijklmnopqrstuvwxyz0123456789_.-", l[k]))
                k++;
        if (!k || len < k + 4 || strncmp(l + k, " = ", 3))
                return fail_at(buf, bn, ln, "not \"key = value\"");
        return NULL;
}

static const char *check_mdadm_line(const char *l, size_t len, char *buf, size_t bn, int ln)
{
        if (len >= 7 && !strncmp(l, "DEVICE ", 7))
                return NULL;
        char *s = strndup(l, len);
        char *f[6] = {0};
        int nf = 0;
        for (char *save = NULL, *t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
                if (nf < 6)
                        f[nf++] = t;
                else
                        nf++;
        const char *why = NULL;
        if (nf != 4 || strcmp(f[0], "ARRAY") || strncmp(f[1], "/dev/", 5) || strncmp(f[2], "metadata=", 9) ||
            strncmp(f[3], "UUID=", 5) || strspn(f[3] + 5, "0123456789abcdefABCDEF:-") != strlen(f[3] + 5))
                why = "not \"ARRAY /dev/... metadata=... UUID=...\"";
        free(s);
        return why ? fail_at(buf, bn, ln, why) : NULL;
}

/* depth: the open sections so far (a line is checked in order) */
static const char *check_multipath_line(const char *l, size_t len, char *buf, size_t bn, int ln, int *depth)
{
        while (len && (*l == ' ' || *l == '\t')) {
                l++;
                len--;
        }
        while (len && (l[len - 1] == ' ' || l[len - 1] == '\t'))
                len--;
        static const char *const opens[] = {"blacklist_exceptions {", "multipaths {", "multipath {", NULL};
        if (in(l, len, opens)) {
                if (++*depth > 2)
                        return fail_at(buf, bn, ln, "sections nested too deep");
                return NULL;
        }
        if (len == 1 && *l == '}') {
                if (--*depth < 0)
                        return fail_at(buf, bn, ln, "a } without a section");
                return NULL;
        }
        const char *allowed;
        size_t kl;
        if (len > 6 && !strncmp(l, "wwid \"", 6)) {
                kl = 6;
                allowed = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:^$-";
        } else if (len > 7 && !strncmp(l, "alias \"", 7)) {
                kl = 7;
                allowed = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+-";
        } else
                return fail_at(buf, bn, ln, "not a section, wwid \"...\" or alias \"...\"");
        if (!*depth)
                return fail_at(buf, bn, ln, "a value outside a section");
        if (l[len - 1] != '"' || len - kl < 2)
                return fail_at(buf, bn, ln, "a value is not quoted");
        for (size_t i = kl; i < len - 1; i++)
                if (!strchr(allowed, l[i]))
                        return fail_at(buf, bn, ln, "a character multipath.conf cannot carry in a value");
        return NULL;
}

/* section: the current [name] (0: none, 1: main, 2: a disk, 3: sysctl) */
static const char *check_tuned_line(const char *l, size_t len, char *buf, size_t bn, int ln, int *section)
{
        static const char name_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-";
        for (size_t i = 0; i < len; i++)
                if (strchr("%#;", l[i]) || (l[i] == '$' && i + 1 < len && l[i + 1] == '{'))
                        return fail_at(buf, bn, ln, "a character tuned's profile parser would interpret");
        if (l[0] == '[') {
                if (len < 3 || l[len - 1] != ']' || strspn(l + 1, name_chars) != len - 2)
                        return fail_at(buf, bn, ln, "not a [section]");
                *section = !strncmp(l, "[main]", len)     ? 1
                           : !strncmp(l, "[sysctl]", len) ? 3
                           : !strncmp(l, "[disk]", len) || !strncmp(l, "[storprov-", 10) ? 2 : -1;
                return *section < 0 ? fail_at(buf, bn, ln, "a section storprov does not write") : NULL;
        }
        const char *eq = memchr(l, '=', len);
        if (!eq || eq == l)
                return fail_at(buf, bn, ln, "not key=value");
        size_t kl = (size_t)(eq - l), vl = len - kl - 1;
        const char *v = eq + 1;
        static const char *const main_keys[] = {"summary", "include", NULL};
        if (*section == 1)
                return in(l, kl, main_keys) && vl ? NULL : fail_at(buf, bn, ln, "a [main] key storprov does not write");
        if (*section == 3) {
                if (strspn(l, "abcdefghijklmnopqrstuvwxyz0123456789_.") != kl || !vl)
                        return fail_at(buf, bn, ln, "not a sysctl key=value");
                return kl == 4 && !strncmp(l, "drop", 4) && strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_.,") != vl
                               ? fail_at(buf, bn, ln, "drop= is not a list of keys")
                               : NULL;
        }
        if (*section != 2)
                return fail_at(buf, bn, ln, "a value outside a section");
        const char *allowed = kl == 4 && !strncmp(l, "type", 4)         ? "disk"
                              : kl == 8 && !strncmp(l, "priority", 8)   ? "-0123456789"
                              : kl == 8 && !strncmp(l, "elevator", 8)   ? "abcdefghijklmnopqrstuvwxyz-"
                              : kl == 9 && !strncmp(l, "readahead", 9)  ? "0123456789"
                              : kl == 18 && !strncmp(l, "devices_udev_regex", 18)
                                      ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_=\\.:^$|()?![]*-"
                                      : NULL;
        if (!allowed)
                return fail_at(buf, bn, ln, "a disk key storprov does not write");
        if (!vl || strspn(v, allowed) != vl)
                return fail_at(buf, bn, ln, "a disk value with a character it cannot hold");
        return NULL;
}

const char *render_check(enum rc_kind kind, const char *text, char *buf, size_t bn)
{
        int ln = 0, depth = 0;
        for (const char *s = text; *s;) {
                const char *e = strchr(s, '\n');
                size_t len = e ? (size_t)(e - s) : strlen(s);
                ln++;
                const char *why = NULL;
                for (size_t i = 0; i < len && !why; i++)
                        if (((unsigned char)s[i] < 0x20 && s[i] != '\t') || (unsigned char)s[i] == 0x7f)
                                why = fail_at(buf, bn, ln, "a control character");
                if (!why && len && s[0] != '#') {
                        switch (kind) {
                        case RC_UDEV:
                                why = check_udev_line(s, len, buf, bn, ln);
                                break;
                        case RC_FSTAB:
                                why = check_fstab_line(s, len, buf, bn, ln);
                                break;
                        case RC_SYSCTL:
                                why = check_sysctl_line(s, len, buf, bn, ln);
                                break;
                        case RC_MDADM:
                                why = check_mdadm_line(s, len, buf, bn, ln);
                                break;
                        case RC_MULTIPATH:
                                why = check_multipath_line(s, len, buf, bn, ln, &depth);
                                break;
                        case RC_TUNED:
                                why = check_tuned_line(s, len, buf, bn, ln, &depth);
                                break;
                        case RC_WWIDS:
                                if (len < 3 || s[0] != '/' || s[len - 1] != '/' ||
                                    strspn(s + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-") != len - 2)
                                        why = fail_at(buf, bn, ln, "not \"/WWID/\"");
                                break;
                        }
                }
                if (why)
                        return why;
                s += len + (e ? 1 : 0);
        }
        if (kind == RC_MULTIPATH && depth)
                return fail_at(buf, bn, ln, "a section is not closed");
        return NULL;
}

#ifdef RENDER_CHECK_MAIN
/* render-check KIND FILE: exit 0 when FILE is clean, 1 (with the reason) if not. */
int main(int argc, char **argv)
{
        if (argc != 3) {
                fprintf(stderr, "usage: render-check udev|fstab|sysctl|mdadm|multipath|wwids|tuned FILE\n");
                return 2;
        }
        enum rc_kind k = !strcmp(argv[1], "udev")     ? RC_UDEV
                         : !strcmp(argv[1], "fstab")  ? RC_FSTAB
                         : !strcmp(argv[1], "sysctl") ? RC_SYSCTL
                         : !strcmp(argv[1], "multipath") ? RC_MULTIPATH
                         : !strcmp(argv[1], "wwids") ? RC_WWIDS
                         : !strcmp(argv[1], "tuned") ? RC_TUNED
                                                      : RC_MDADM;
        FILE *f = fopen(argv[2], "r");
        if (!f) {
                perror(argv[2]);
                return 2;
        }
        char *text = NULL;
        size_t cap = 0;
        ssize_t n = getdelim(&text, &cap, '\0', f);
        fclose(f);
        if (n < 0)
                text = strdup("");
        if ((size_t)(n < 0 ? 0 : n) != strlen(text)) {
                fprintf(stderr, "%s: holds a NUL byte\n", argv[2]);
                return 1;
        }
        char buf[256];
        const char *why = render_check(k, text, buf, sizeof(buf));
        free(text);
        if (why) {
                fprintf(stderr, "%s: %s\n", argv[2], why);
                return 1;
        }
        return 0;
}
#endif
