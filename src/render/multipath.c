/* SPDX-License-Identifier: GPL-2.0-or-later
 * Multipath: the conf.d file (storprov owns it whole) that names each
 * multipath LUN and excepts it from a blacklist, and the LUNs' WWIDs in a
 * managed block of multipath's own wwids file (merge.c). multipath.conf and
 * the wwids file have no escapes: a word that is not plainly safe is left
 * out with an error. */
#include "render/render.h"
#include "render/merge.h"

#include <stdlib.h>
#include <string.h>

char *render_multipath_conf(const struct plan *pl, const char *existing, struct diags *d)
{
        (void)existing;
        struct sbuf b = {0};
        render_header(&b, pl, "Multipath LUNs");
        sbuf_puts(&b, "# Read by multipath and multipathd from config_dir (default /etc/multipath/conf.d).\n"
                      "# Each LUN keeps the name the profile gives it; the exception keeps it usable\n"
                      "# where /etc/multipath.conf blacklists by default.\n");
        struct sbuf ex = {0}, mp = {0};
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                if (o->kind != OBJ_DISK || !o->disk.n_paths)
                        continue;
                /* multipath.conf quotes with '"' and has no escape: every word is checked */
                const char *w = o->disk.mpath_wwid, *al = o->disk.mpath_alias;
                bool ok = w && al && *w && *al && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-") == strlen(w) &&
                          strspn(al, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+-") == strlen(al);
                if (!ok) {
                        sbuf_puts(&mp, "\t# storprov: not written, a word cannot be put in multipath.conf safely: ");
                        comment_text(&mp, o->id);
                        sbuf_puts(&mp, "\n");
                        if (d)
                                diag_add(d, DIAG_ERROR, pl->file_path[FILE_MULTIPATH], 0, o->id, RULE_MULTIPATH_CONF_FIELD,
                                         "the LUN's wwid or alias holds characters multipath.conf cannot carry");
                        continue;
                }
                sbuf_printf(&ex, "\twwid \"^%s$\"\n", w);
                sbuf_printf(&mp, "\tmultipath {\n\t\twwid \"%s\"\n\t\talias \"%s\"\n\t}\n", w, al);
        }
        sbuf_printf(&b, "blacklist_exceptions {\n%s}\nmultipaths {\n%s}\n", ex.s ? ex.s : "", mp.s ? mp.s : "");
        free(ex.s);
        free(mp.s);
        return sbuf_steal(&b);
}

/* /etc/multipath/wwids: multipath's own list of the WWIDs it multipaths. Under
 * find_multipaths "strict" (the compiled-in default of multipath-tools 0.8+)
 * and "on" with a single path, a LUN is multipathed at boot only when its WWID
 * is listed here; the multipaths section of the config does not count. The
 * installed system's first boot has no such line (the map was made in the
 * installer), and its paths would be mounted directly. storprov's lines go in
 * a managed block; multipath reads only lines starting with '/'. */
/* A "/WWID/" line outside the block (multipathd remembers the maps it makes)
 * states the same fact as ours: kept as it is, never a conflict. */
static bool wwids_conflict(const struct plan *pl, char **f, size_t nf)
{
        (void)pl;
        (void)f;
        (void)nf;
        return false;
}

const struct merge_rule wwids_merge_rule = {.conflict = wwids_conflict};

char *render_multipath_wwids(const struct plan *pl, const char *existing, struct diags *d)
{
        struct sbuf b = {0};
        render_begin_mark(&b, pl);
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                if (o->kind != OBJ_DISK || !o->disk.n_paths)
                        continue;
                const char *w = o->disk.mpath_wwid;
                if (w && *w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-") == strlen(w))
                        sbuf_printf(&b, "/%s/\n", w);
                else {
                        sbuf_puts(&b, "# storprov: not written, the wwid cannot be put in the wwids file safely: ");
                        comment_text(&b, o->id);
                        sbuf_puts(&b, "\n");
                        if (d)
                                diag_add(d, DIAG_ERROR, pl->file_path[FILE_MPATH_WWIDS], 0, o->id,
                                         RULE_MULTIPATH_CONF_FIELD,
                                         "the LUN's wwid holds characters the wwids file cannot carry");
                }
        }
        sbuf_printf(&b, "%s\n", END_MARK);
        char *block = sbuf_steal(&b);
        /* a new file gets multipath's own header, so that multipath keeps appending to it */
        const char *base = existing ? existing
                                    : "# Multipath wwids, Version : 1.0\n"
                                      "# NOTE: This file is automatically maintained by multipath and multipathd.\n"
                                      "# You should not need to edit this file in normal circumstances.\n"
                                      "#\n"
                                      "# Valid WWIDs:\n";
        char *r = merge_managed(pl, base, block, &wwids_merge_rule, pl->file_path[FILE_MPATH_WWIDS], d);
        free(block);
        return r;
}

