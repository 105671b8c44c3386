/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "files.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

int render_files(const struct plan *pl, const char *root, struct diags *d, struct file_result **ret, size_t *n)
{
        int failed = 0;
        if (ret) {
                *ret = xcalloc(pl->n_files ? pl->n_files : 1, sizeof(**ret));
                *n = pl->n_files;
        }
        for (size_t i = 0; i < pl->n_files; i++) {
                const struct pl_file *f = &pl->files[i];
                char *path = path_join(root, f->path);
                char *existing = NULL;
                enum file_action action = FILE_WRITTEN;
                /* confined: no link under root is followed, on the way or at the end */
                int r = read_file_in_root(root, f->path, &existing, NULL);
                if (r < 0 && r != -ENOENT) {
                        diag_add(d, DIAG_ERROR, path, 0, NULL, "io", "cannot read: %s",
                                 r == -ELOOP    ? "a symbolic link is on the way or is the file; storprov follows no link "
                                                  "under --root"
                                 : r == -EINVAL ? "not a regular file"
                                                : strerror(-r));
                        action = FILE_FAILED;
                } else {
                        char *content = render_file(pl, f->kind, existing, d);
                        if (existing && !strcmp(existing, content))
                                action = FILE_UNCHANGED;
                        else if ((r = write_file_in_root(root, f->path, content, strlen(content), f->mode)) < 0) {
                                diag_add(d, DIAG_ERROR, path, 0, NULL, "io", "cannot write: %s",
                                         r == -ELOOP ? "a symbolic link is on the way or is the file; storprov follows no "
                                                       "link under --root"
                                                     : strerror(-r));
                                action = FILE_FAILED;
                        }
                        free(content);
                }
                failed += action == FILE_FAILED;
                free(existing);
                if (ret)
                        (*ret)[i] = (struct file_result){.path = path, .action = action};
                else
                        free(path);
        }
        return failed;
}

void file_results_free(struct file_result *v, size_t n)
{
        for (size_t i = 0; i < n; i++)
                free(v[i].path);
        free(v);
}
