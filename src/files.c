/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

/* Writes every file of the plan under root; merged files are merged with what is there. */
int render_files(const struct plan *pl, const char *root, struct diags *d)
{
        int failed = 0;
        for (size_t i = 0; i < pl->n_files; i++) {
                const struct pl_file *f = &pl->files[i];
                char *path = path_join(root, f->path);
                char *content = NULL;
                if (f->kind == FILE_FSTAB || f->kind == FILE_MDADM) {
                        char *existing = NULL;
                        int r = read_file(path, &existing, NULL);
                        if (r < 0 && r != -ENOENT) {
                                diag_add(d, DIAG_ERROR, path, 0, NULL, "io", "cannot read: %s", strerror(-r));
                                failed++;
                                free(path);
                                continue;
                        }
                        content = f->kind == FILE_FSTAB ? render_fstab(pl, existing, d) : render_mdadm_conf(pl, existing, d);
                        free(existing);
                } else
                        content = xstrdup(f->content);
                int r = write_file_atomic(path, content, strlen(content), f->mode);
                if (r < 0) {
                        diag_add(d, DIAG_ERROR, path, 0, NULL, "io", "cannot write: %s", strerror(-r));
                        failed++;
                } else
                        fprintf(stderr, "storprov: wrote %s\n", path);
                free(content);
                free(path);
        }
        return failed ? -EIO : 0;
}

