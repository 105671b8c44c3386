/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sys/dmtable.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libdevmapper.h>

#include "base/util.h"

int dm_parse_params(const char *type, const char *params, struct dm_segment *seg)
{
        char **f = strv_split(params, " ");
        size_t n = strv_len(f);
        int r = 0;
        seg->type = xstrdup(type);
        if (!strcmp(type, "linear")) {
                uint64_t off;
                if (n != 2 || parse_u64(f[1], &off) < 0) {
                        r = -EINVAL;
                        goto out;
                }
                seg->stripes = 1;
                strv_push(&seg->devices, f[0]);
                seg->offsets = xmalloc(sizeof(uint64_t));
                seg->offsets[0] = off;
        } else if (!strcmp(type, "striped")) {
                /* "<stripes> <chunk sectors> <dev> <offset> [<dev> <offset>]…" */
                uint64_t k, chunk;
                if (n < 4 || parse_u64(f[0], &k) < 0 || parse_u64(f[1], &chunk) < 0 || n != 2 + 2 * k) {
                        r = -EINVAL;
                        goto out;
                }
                seg->stripes = (unsigned)k;
                seg->chunk_sectors = chunk;
                seg->offsets = xcalloc(k, sizeof(uint64_t));
                for (uint64_t i = 0; i < k; i++) {
                        strv_push(&seg->devices, f[2 + 2 * i]);
                        if (parse_u64(f[3 + 2 * i], &seg->offsets[i]) < 0)
                                r = -EINVAL;
                }
        }
out:
        strv_free(f);
        return r;
}

int dm_table_read(const char *dm_name, struct dm_segment **ret, size_t *ret_n, char **ret_err)
{
        *ret = NULL;
        *ret_n = 0;
        struct dm_task *t = dm_task_create(DM_DEVICE_TABLE);
        if (!t) {
                *ret_err = xstrdup("dm_task_create failed");
                return -ENOMEM;
        }
        int r = 0;
        if (!dm_task_set_name(t, dm_name) || !dm_task_run(t)) {
                *ret_err = xasprintf("no device-mapper table for %s", dm_name);
                r = -ENOENT;
                goto out;
        }
        struct dm_info info;
        if (!dm_task_get_info(t, &info) || !info.exists) {
                *ret_err = xasprintf("device-mapper device %s does not exist", dm_name);
                r = -ENOENT;
                goto out;
        }
        void *next = NULL;
        do {
                uint64_t start = 0, len = 0;
                char *type = NULL, *params = NULL;
                next = dm_get_next_target(t, next, &start, &len, &type, &params);
                if (!type)
                        break;
                *ret = xrealloc(*ret, (*ret_n + 1) * sizeof(struct dm_segment));
                struct dm_segment *s = &(*ret)[(*ret_n)++];
                *s = (struct dm_segment){.start_sector = start, .length_sectors = len};
                if (dm_parse_params(type, params ? params : "", s) < 0) {
                        *ret_err = xasprintf("cannot parse %s table \"%s\"", type, params ? params : "");
                        r = -EINVAL;
                }
        } while (next);
out:
        dm_task_destroy(t);
        if (r < 0) {
                dm_segments_free(*ret, *ret_n);
                *ret = NULL;
                *ret_n = 0;
        }
        return r;
}

void dm_segments_free(struct dm_segment *s, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                free(s[i].type);
                strv_free(s[i].devices);
                free(s[i].offsets);
        }
        free(s);
}
