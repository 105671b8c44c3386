/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sys/labels.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <selinux/label.h>
#include <selinux/selinux.h>

struct root_labels {
        struct selabel_handle *h;
        union selinux_callback saved_log; /* restored at close */
};

/* The files libselinux (label_file.c, 3.x) reads for a SELABEL_OPT_PATH of
 * file_contexts: the file and its side files. The compiled forms (.bin next
 * to each) are left out on purpose: libselinux takes the newer of a .bin and
 * its text, and a .bin carries serialized PCRE2 code, which PCRE2 itself says
 * must come from a trusted source; the text is the policy, and the copy
 * storprov hands over has none, so the text is what is read. */
static const char *const policy_suffixes[] = {"", ".subs_dist", ".subs", ".homedirs", ".local"};

/* ---- messages: no byte from the root reaches the terminal raw ------------------------ */

char *label_escape(const char *s)
{
        struct sbuf b = {0};
        size_t n = 0;
        for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++, n++) {
                if (n == 200) {
                        sbuf_puts(&b, "...");
                        break;
                }
                if (*p < 0x20 || *p >= 0x7f || *p == '\\')
                        sbuf_printf(&b, "\\x%02x", *p);
                else
                        sbuf_printf(&b, "%c", *p);
        }
        return sbuf_steal(&b);
}

/* libselinux logs to stderr through a callback that takes no context of its
 * own: while a root's labels are open, its messages are kept here (the
 * last one, escaped, the private copy's directory named as the root's). */
static char selinux_msg[512];
static const char *msg_copy_dir, *msg_root_dir;

static int keep_selinux_msg(int type, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int keep_selinux_msg(int type, const char *fmt, ...)
{
        if (type != SELINUX_ERROR && type != SELINUX_WARNING)
                return 0;
        char raw[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(raw, sizeof(raw), fmt, ap);
        va_end(ap);
        raw[strcspn(raw, "\n")] = 0;
        const char *rest = raw;
        size_t cl = msg_copy_dir ? strlen(msg_copy_dir) : 0;
        if (cl && !strncmp(raw, msg_copy_dir, cl))
                rest = raw + cl;
        _cleanup_free_ char *e = label_escape(rest);
        snprintf(selinux_msg, sizeof(selinux_msg), "%s%s", rest != raw ? msg_root_dir : "", e);
        return 0;
}

/* " (libselinux: MSG)" when libselinux said something since the last reset, else "". */
static char *selinux_said(void)
{
        return *selinux_msg ? xasprintf(" (libselinux: %s)", selinux_msg) : xasprintf("%s", "");
}

/* ---- the root's config ---------------------------------------------------------------- */

/* VALUE of KEY= in selinux/config text (KEY=VALUE lines, # comments), or NULL. */
static char *config_value(const char *text, const char *key)
{
        size_t kl = strlen(key);
        for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
                while (*l == ' ' || *l == '\t')
                        l++;
                if (strncmp(l, key, kl) || l[kl] != '=')
                        continue;
                const char *v = l + kl + 1;
                size_t n = strcspn(v, " \t\r\n#");
                return n ? xasprintf("%.*s", (int)n, v) : NULL;
        }
        return NULL;
}

/* A policy name as a directory under etc/selinux: letters, digits, "_.-", not "." or "..". */
static bool policy_name_ok(const char *type)
{
        if (!type || !*type || !strcmp(type, ".") || !strcmp(type, ".."))
                return false;
        return strspn(type, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") == strlen(type);
}

/* The policy's directory of file contexts, relative to the root
 * ("etc/selinux/targeted/contexts/files"); 0 with *ret NULL when the root has
 * no SELinux; -errno with *why. */
static int policy_dir(const char *root, char **ret, char **why)
{
        *ret = NULL;
        _cleanup_free_ char *cfg = NULL, *eroot = label_escape(root);
        size_t len;
        int r = read_file_in_root(root, "etc/selinux/config", &cfg, &len);
        if (r == -ENOENT)
                return 0;
        if (r < 0) {
                *why = xasprintf("%s/etc/selinux/config: %s", eroot, strerror(-r));
                return r;
        }
        _cleanup_free_ char *mode = config_value(cfg, "SELINUX");
        _cleanup_free_ char *type = config_value(cfg, "SELINUXTYPE");
        if (mode && !strcmp(mode, "disabled"))
                return 0;
        if (!policy_name_ok(type)) {
                _cleanup_free_ char *et = label_escape(type);
                *why = xasprintf("%s/etc/selinux/config names no usable SELINUXTYPE (\"%s\": letters, digits and "
                                 "\"_.-\" only)", eroot, type ? et : "");
                return -EINVAL;
        }
        *ret = xasprintf("etc/selinux/%s/contexts/files", type);
        return 0;
}

/* ---- the private copy ----------------------------------------------------------------- */

/* Why the policy file REL under ROOT could not be read (r < 0), for the warning. */
static char *read_refusal(const char *root, const char *rel, int r)
{
        _cleanup_free_ char *eroot = label_escape(root);
        switch (r) {
        case -ELOOP:
                return xasprintf("%s/%s is a symbolic link, or one is on its way: the root's policy is read without "
                                 "following links (put the file itself there)", eroot, rel);
        case -EINVAL:
                return xasprintf("%s/%s is not a regular file (a FIFO, a device or a directory): not read as a "
                                 "policy file", eroot, rel);
        default:
                return xasprintf("%s/%s: cannot read it: %s", eroot, rel, strerror(-r));
        }
}

/* NAME in the private directory dfd, new (never an existing file or a link), 0600. */
static int write_copy(int dfd, const char *name, const char *buf, size_t len)
{
        int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
                return -errno;
        int r = 0;
        for (size_t off = 0; off < len && !r;) {
                ssize_t n = write(fd, buf + off, len - off);
                if (n < 0 && errno != EINTR)
                        r = -errno;
                else if (n == 0)
                        r = -EIO; /* no progress: never loop on it */
                else if (n > 0)
                        off += (size_t)n;
        }
        if (close(fd) < 0 && !r)
                r = -errno;
        return r;
}

/* Removes the copy: its files, then the directory. */
static void remove_copy(char *dir)
{
        if (!dir)
                return;
        int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        for (size_t i = 0; dfd >= 0 && i < ELEMENTSOF(policy_suffixes); i++) {
                _cleanup_free_ char *name = xasprintf("file_contexts%s", policy_suffixes[i]);
                (void)unlinkat(dfd, name, 0);
        }
        if (dfd >= 0)
                close(dfd);
        (void)rmdir(dir);
        free(dir);
}

/* Copies the policy files under ROOT's DIR (read confined: regular files
 * only, no link followed, at most 64 MiB each, never a blocking open) into a
 * new private directory (mode 0700, under $TMPDIR or /tmp), its path in *ret.
 * A missing side file is no file; a missing file_contexts is -ENOENT. */
static int copy_policy(const char *root, const char *dir, char **ret, char **why)
{
        const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        char *copy = xasprintf("%s/storprov-policy-XXXXXX", tmp);
        if (!mkdtemp(copy)) {
                int r = -errno;
                *why = xasprintf("cannot make a private directory for the root's policy in %s: %s", tmp, strerror(errno));
                free(copy);
                return r;
        }
        int dfd = open(copy, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), r = dfd < 0 ? -errno : 0;
        if (r < 0)
                *why = xasprintf("cannot open the private directory %s for the root's policy: %s", copy, strerror(-r));
        for (size_t i = 0; !r && i < ELEMENTSOF(policy_suffixes); i++) {
                _cleanup_free_ char *name = xasprintf("file_contexts%s", policy_suffixes[i]);
                _cleanup_free_ char *rel = xasprintf("%s/%s", dir, name), *text = NULL;
                size_t len = 0;
                r = read_file_in_root(root, rel, &text, &len);
                if (r == -ENOENT && i > 0) {
                        r = 0;
                        continue;
                }
                if (r == -ENOENT) {
                        _cleanup_free_ char *eroot = label_escape(root);
                        *why = xasprintf("the root's policy has no %s/%s", eroot, rel);
                } else if (r < 0)
                        *why = read_refusal(root, rel, r);
                else if ((r = write_copy(dfd, name, text, len)) < 0)
                        *why = xasprintf("cannot copy the root's %s to %s: %s", rel, copy, strerror(-r));
        }
        if (dfd >= 0)
                close(dfd);
        if (r < 0) {
                remove_copy(copy);
                return r;
        }
        *ret = copy;
        return 0;
}

/* ---- open, close ---------------------------------------------------------------------- */

/* The handle on the copy in COPY; the messages name ROOT's DIR. */
static int open_copy(const char *root, const char *dir, const char *copy, struct root_labels **ret, char **why)
{
        _cleanup_free_ char *path = xasprintf("%s/file_contexts", copy);
        _cleanup_free_ char *eroot = label_escape(root), *shown = xasprintf("%s/%s", eroot, dir);
        msg_copy_dir = copy;
        msg_root_dir = shown;
        *selinux_msg = 0;
        struct selinux_opt opt = {SELABEL_OPT_PATH, path};
        struct selabel_handle *h = selabel_open(SELABEL_CTX_FILE, &opt, 1);
        int r = h ? 0 : errno ? -errno : -EINVAL;
        msg_copy_dir = msg_root_dir = NULL;
        if (!h) {
                _cleanup_free_ char *said = selinux_said();
                *why = xasprintf("cannot load the root's policy %s/file_contexts: %s%s", shown, strerror(-r), said);
                return r;
        }
        *ret = xcalloc(1, sizeof(**ret));
        (*ret)->h = h;
        return 0;
}

int root_labels_open(const char *root, struct root_labels **ret, char **why)
{
        *ret = NULL;
        *why = NULL;
        _cleanup_free_ char *dir = NULL;
        int r = policy_dir(root, &dir, why);
        if (r < 0 || !dir)
                return r;
        char *copy = NULL;
        r = copy_policy(root, dir, &copy, why);
        if (r < 0)
                return r;
        union selinux_callback saved = selinux_get_callback(SELINUX_CB_LOG);
        selinux_set_callback(SELINUX_CB_LOG, (union selinux_callback){.func_log = keep_selinux_msg});
        r = open_copy(root, dir, copy, ret, why);
        remove_copy(copy); /* libselinux read it all at open */
        if (r < 0)
                selinux_set_callback(SELINUX_CB_LOG, saved);
        else
                (*ret)->saved_log = saved;
        return r;
}

void root_labels_close(struct root_labels *l)
{
        if (!l)
                return;
        selabel_close(l->h);
        selinux_set_callback(SELINUX_CB_LOG, l->saved_log);
        free(l);
}

/* ---- labels --------------------------------------------------------------------------- */

static bool ident_ok(const char *s, size_t n, const char *extra)
{
        if (!n)
                return false;
        for (size_t i = 0; i < n; i++) {
                unsigned char c = (unsigned char)s[i];
                bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
                if (!alnum && !strchr(extra, c))
                        return false;
        }
        return true;
}

bool label_context_plausible(const char *con)
{
        if (!con || strlen(con) >= 4096)
                return false;
        const char *p = con;
        for (int field = 0; field < 3; field++) { /* user, role, type */
                size_t n = strcspn(p, ":");
                if (!ident_ok(p, n, "_.-"))
                        return false;
                p += n;
                if (field < 2 && *p++ != ':')
                        return false;
        }
        if (!*p)
                return true;
        p++; /* the level: s0, s0-s0:c0.c1023, s0:c1,c5 */
        return ident_ok(p, strlen(p), "_.-:,");
}

/* Labels one path: the file itself always (storprov wrote it), a directory
 * only when it has no label. */
static int label_one(struct root_labels *l, const char *root, const char *abs, bool dir, char **why)
{
        char *con = NULL;
        *selinux_msg = 0;
        _cleanup_free_ char *where = xasprintf("%s%s", root, abs), *ewhere = label_escape(where);
        if (selabel_lookup_raw(l->h, &con, abs, dir ? S_IFDIR : S_IFREG) < 0) {
                if (errno == ENOENT)
                        return 0; /* the policy has no context for it */
                int r = -errno;
                _cleanup_free_ char *said = selinux_said();
                *why = xasprintf("%s: no label from the root's policy: %s%s", ewhere, strerror(-r), said);
                return r;
        }
        int r = -EINVAL;
        if (!label_context_plausible(con)) {
                _cleanup_free_ char *econ = label_escape(con);
                *why = xasprintf("%s: the root's policy gives \"%s\", not a plausible user:role:type[:level] context "
                                 "(letters, digits, \"_.-\", and \",:\" in the level): left unlabeled",
                                 ewhere, econ);
        } else if ((r = label_in_root(root, abs, con, dir)) < 0)
                *why = xasprintf("%s: cannot set the label %s: %s", ewhere, con, strerror(-r));
        freecon(con);
        return r < 0 ? r : 0;
}

int root_labels_apply(struct root_labels *l, const char *root, const char *rel, char **why)
{
        *why = NULL;
        while (*rel == '/')
                rel++;
        _cleanup_free_ char *abs = xasprintf("/%s", rel);
        /* the directories on the way, from the top: /etc, /etc/udev, ... */
        for (char *s = strchr(abs + 1, '/'); s; s = strchr(s + 1, '/')) {
                *s = 0;
                int r = label_one(l, root, abs, true, why);
                *s = '/';
                if (r < 0)
                        return r;
        }
        return label_one(l, root, abs, false, why);
}
