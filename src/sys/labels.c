/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sys/labels.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <selinux/label.h>
#include <selinux/selinux.h>

struct root_labels {
        struct selabel_handle *h;
};

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

int root_labels_open(const char *root, struct root_labels **ret, char **why)
{
        *ret = NULL;
        *why = NULL;
        _cleanup_free_ char *cfg = NULL;
        size_t len;
        int r = read_file_in_root(root, "etc/selinux/config", &cfg, &len);
        if (r == -ENOENT)
                return 0;
        if (r < 0) {
                *why = xasprintf("%s/etc/selinux/config: %s", root, strerror(-r));
                return r;
        }
        _cleanup_free_ char *mode = config_value(cfg, "SELINUX");
        _cleanup_free_ char *type = config_value(cfg, "SELINUXTYPE");
        if (mode && !strcmp(mode, "disabled"))
                return 0;
        if (!type || strchr(type, '/') || !strcmp(type, "..") || !strcmp(type, ".")) {
                *why = xasprintf("%s/etc/selinux/config names no usable SELINUXTYPE", root);
                return -EINVAL;
        }
        _cleanup_free_ char *rel = xasprintf("etc/selinux/%s/contexts/files/file_contexts", type);
        _cleanup_free_ char *path = path_join(root, rel);
        /* libselinux opens the path itself: it must stay inside the root */
        struct stat st;
        if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
                *why = xasprintf("the root's policy (%s) has no %s", type, path);
                return -ENOENT;
        }
        if (!path_under(root, path)) {
                *why = xasprintf("%s leads outside the root", path);
                return -EXDEV;
        }
        struct selinux_opt opt = {SELABEL_OPT_PATH, path};
        struct selabel_handle *h = selabel_open(SELABEL_CTX_FILE, &opt, 1);
        if (!h) {
                r = -errno;
                *why = xasprintf("cannot load %s: %s", path, strerror(errno));
                return r ? r : -EINVAL;
        }
        *ret = xcalloc(1, sizeof(**ret));
        (*ret)->h = h;
        return 0;
}

void root_labels_close(struct root_labels *l)
{
        if (!l)
                return;
        selabel_close(l->h);
        free(l);
}

/* Labels one path: the file itself always (storprov wrote it), a directory
 * only when it has no label. */
static int label_one(struct root_labels *l, const char *root, const char *abs, bool dir, char **why)
{
        char *con = NULL;
        if (selabel_lookup_raw(l->h, &con, abs, dir ? S_IFDIR : S_IFREG) < 0) {
                if (errno == ENOENT)
                        return 0; /* the policy has no context for it */
                int r = -errno;
                *why = xasprintf("%s: no label from the root's policy: %s", abs, strerror(errno));
                return r;
        }
        int r = label_in_root(root, abs, con, dir);
        if (r < 0)
                *why = xasprintf("%s%s: cannot set the label %s: %s", root, abs, con, strerror(-r));
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
