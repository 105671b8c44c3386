/* SPDX-License-Identifier: GPL-2.0-or-later
 * mdadm.conf: an ARRAY line per planned md array, by its UUID, in a managed
 * block merged into the target's own mdadm.conf (merge.c); a foreign ARRAY
 * line for one of the arrays is commented out. */
#include "render/render.h"
#include "render/merge.h"

#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"

/* An ARRAY line for a planned array's device or UUID. */
static bool mdadm_conflict(const struct plan *pl, char **f, size_t nf)
{
        if (nf < 2 || strcmp(f[0], "ARRAY"))
                return false;
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                if (o->kind != OBJ_MD)
                        continue;
                if (!strcmp(f[1], o->dev))
                        return true;
                for (size_t k = 2; k < nf; k++)
                        if ((startswith(f[k], "UUID=") || startswith(f[k], "uuid=")) && obj_uuid(o) &&
                            !strcasecmp(f[k] + 5, obj_uuid(o)))
                                return true;
        }
        return false;
}

const struct merge_rule mdadm_merge_rule = {.conflict = mdadm_conflict};

char *render_mdadm_conf(const struct plan *pl, const char *existing, struct diags *d)
{
        struct sbuf b = {0};
        render_begin_mark(&b, pl);
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                if (o->kind != OBJ_MD)
                        continue;
                /* mdadm.conf has no escapes: every word is checked */
                bool meta_ok = o->md.metadata && strspn(o->md.metadata, "0123456789.") == strlen(o->md.metadata) &&
                               *o->md.metadata;
                if (mdadm_dev_safe(o->dev) && meta_ok && uuid_safe(obj_uuid(o)))
                        sbuf_printf(&b, "ARRAY %s metadata=%s UUID=%s\n", o->dev, o->md.metadata, obj_uuid(o));
                else {
                        sbuf_puts(&b, "# storprov: not written, a word cannot be put in mdadm.conf safely: ");
                        comment_text(&b, o->id);
                        sbuf_puts(&b, "\n");
                        if (d)
                                diag_add(d, DIAG_ERROR, pl->file_path[FILE_MDADM], 0, o->id, RULE_MDADM_CONF_FIELD,
                                         "the array's device, metadata or UUID holds characters mdadm.conf cannot carry");
                }
        }
        sbuf_printf(&b, "%s\n", END_MARK);
        char *block = sbuf_steal(&b);
        char *r = merge_managed(pl, existing, block, &mdadm_merge_rule, pl->file_path[FILE_MDADM], d);
        free(block);
        return r;
}
