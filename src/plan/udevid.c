/* SPDX-License-Identifier: GPL-2.0-or-later
 * The identity a disk's udev rule matches it by, and which other devices of
 * the node carry the same value (see udevid.h). */
#include "plan/udevid.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"

static const char *id_of(const struct blockdev *b, enum udev_id k)
{
        switch (k) {
        case UDEV_ID_WWN:
                return b->wwn;
        case UDEV_ID_SERIAL:
                return b->id_serial;
        case UDEV_ID_PATH:
                return b->id_path;
        case UDEV_ID_WWID:
                return b->wwid;
        default:
                return NULL;
        }
}

static const char *const id_key[_UDEV_ID_MAX] = {"ID_WWN", "ID_SERIAL", "ID_PATH", "wwid"};

void udev_ids_init(struct udev_ids *x, const struct sysinfo *si)
{
        size_t n = si ? si->n_devs : 0;
        *x = (struct udev_ids){.si = si};
        size_t *last = xcalloc(n ? n : 1, sizeof(size_t));
        for (int k = 0; k < _UDEV_ID_MAX; k++) {
                x->next[k] = xcalloc(n ? n : 1, sizeof(size_t));
                for (size_t i = 0; i < n; i++) {
                        const char *v = id_of(&si->devs[i], (enum udev_id)k);
                        size_t first;
                        x->next[k][i] = (size_t)-1;
                        if (!v)
                                continue;
                        if (strmap_add(&x->head[k], v, i, &first))
                                last[i] = i;
                        else {
                                x->next[k][last[first]] = i;
                                last[first] = i;
                        }
                }
        }
        free(last);
}

void udev_ids_free(struct udev_ids *x)
{
        for (int k = 0; k < _UDEV_ID_MAX; k++) {
                strmap_free(&x->head[k]);
                free(x->next[k]);
        }
}

static bool in_set(const struct blockdev *b, const struct blockdev *const *set, size_t n)
{
        for (size_t i = 0; i < n; i++)
                if (set[i] == b)
                        return true;
        return false;
}

size_t udev_id_others(const struct udev_ids *x, enum udev_id k, const char *v, const struct blockdev *const *targets,
                      size_t n_targets, bool skip_dm, struct sbuf *names)
{
        size_t n = 0;
        size_t i = v ? strmap_get(&x->head[k], v) : (size_t)-1;
        for (; i != (size_t)-1; i = x->next[k][i]) {
                const struct blockdev *b = &x->si->devs[i];
                if (in_set(b, targets, n_targets) || (skip_dm && startswith(b->name, "dm-")))
                        continue;
                if (names && n < 3)
                        sbuf_printf(names, "%s%s%s", n ? ", " : "", b->name,
                                    b->system_use ? " (a system disk)" : "");
                n++;
        }
        if (names && n > 3)
                sbuf_printf(names, " and %zu more", n - 3);
        return n;
}

bool udev_pick_identity(const struct udev_ids *x, const struct blockdev *b, char **ret_key, char **ret_value,
                        char **ret_why)
{
        struct sbuf why = {0};
        const char *key = NULL, *value = NULL;
        *ret_key = *ret_value = *ret_why = NULL;
        for (int k = 0; k < _UDEV_ID_MAX && !key; k++) {
                const char *v = id_of(b, (enum udev_id)k);
                if (!v)
                        continue;
                if (!udev_value_safe(v)) {
                        sbuf_printf(&why, "%s%s is no value a udev rule can match safely", why.len ? "; " : "",
                                    id_key[k]);
                        continue;
                }
                struct sbuf names = {0};
                size_t n = udev_id_others(x, (enum udev_id)k, v, &b, 1, false, &names);
                if (n)
                        sbuf_printf(&why, "%s%s %s is shared with %s", why.len ? "; " : "", id_key[k], v, names.s);
                else
                        key = id_key[k], value = v;
                free(names.s);
        }
        if (!key && udev_value_safe(b->name)) {
                /* the last resort: unique now, but a kernel name can move at boot (the caller warns) */
                key = "KERNEL", value = b->name;
                sbuf_printf(&why, "%sno stable identity is unique to %s", why.len ? "; " : "", b->name);
        }
        *ret_why = why.len ? sbuf_steal(&why) : NULL;
        free(why.s);
        if (!key)
                return false;
        *ret_key = xstrdup(key);
        *ret_value = xstrdup(value);
        return true;
}
