/* SPDX-License-Identifier: GPL-2.0-or-later
 * The udev database of a block device (see udevdb.h). */
#include "discover/udevdb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

int udev_db_read(const char *sysroot, unsigned major, unsigned minor, char **ret)
{
        _cleanup_free_ char *rel = xasprintf("run/udev/data/b%u:%u", major, minor);
        _cleanup_free_ char *p = path_join(sysroot, rel);
        return read_file_under(sysroot, p, ret);
}

char *udev_db_prop(const char *text, const char *key)
{
        size_t kl = strlen(key);
        for (const char *l = text; l && *l;) {
                const char *nl = strchr(l, '\n');
                size_t n = nl ? (size_t)(nl - l) : strlen(l);
                if (n > kl + 2 && startswith(l, "E:") && !strncmp(l + 2, key, kl) && l[2 + kl] == '=')
                        return strndup(l + 3 + kl, n - 3 - kl);
                l = nl ? nl + 1 : NULL;
        }
        return NULL;
}

const char *udev_db_refusal(int r)
{
        switch (r) {
        case 0:
        case -ENOENT:
        case -ENOTDIR:
                return NULL;
        case -ELOOP:
                return "it is a symbolic link (never followed in a captured tree)";
        case -EXDEV:
                return "its path leads out of the tree";
        case -EINVAL:
                return "it is not a regular file";
        case -EFBIG:
                return "it is larger than 1 MiB";
        default:
                return strerror(-r);
        }
}
