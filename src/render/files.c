/* SPDX-License-Identifier: GPL-2.0-or-later
 * Writing the plan's config files under a root: the one place where rendered
 * text meets the filesystem. Every path is resolved inside the root (no link
 * under it is followed); a file another profile owns is not overwritten; a
 * file this profile wrote but no longer asks for is removed (its block, in
 * the files storprov shares). */
#include "render/files.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sys/labels.h"
#include "render/file_ops.h"
#include "render/merge.h"
#include "render/render.h"
#include "base/sanitize.h"

static const char *io_why(int r)
{
        return r == -ELOOP    ? "a symbolic link is on the way or is the file; storprov follows no link under --root"
               : r == -EINVAL ? "not a regular file"
                              : strerror(-r);
}

/* The profile that wrote a file storprov owns whole, from its row (its
 * header, or the state file's "profile"); NULL for the shared kinds and
 * foreign files. */
static char *file_owner(enum file_kind k, const char *existing)
{
        const struct file_ops *ops = file_ops_of(k);
        return ops->owner ? ops->owner(existing) : NULL;
}

/* storprov merges text: a NUL byte (a zero-filled block a crash left) would
 * end the text there and drop every line after it. Such a file is refused,
 * whole, with where the byte is; other bytes (invalid UTF-8 included) are
 * kept as they are. Returns false after adding the error. */
static bool text_ok(const char *path, const char *existing, size_t len, struct diags *d)
{
        const char *z = existing ? memchr(existing, 0, len) : NULL;
        if (!z)
                return true;
        diag_add(d, DIAG_ERROR, path, 0, NULL, RULE_NUL_BYTE,
                 "holds a NUL byte at offset %zu (of %zu bytes; a zero-filled block after a crash?): storprov keeps "
                 "every line outside its managed block and cannot merge around it; restore the file from a backup "
                 "or remove the NUL bytes (tr -d '\\000'), check what remains, and run again; nothing was written",
                 (size_t)(z - existing), len);
        return false;
}

/* A file the plan writes: rendered, and written when it differs. */
static enum file_action write_one(const struct plan *pl, const char *root, const struct pl_file *f, const char *path,
                                  struct diags *d)
{
        _cleanup_free_ char *existing = NULL;
        size_t len = 0;
        int r = read_file_in_root(root, f->path, &existing, &len);
        if (r < 0 && r != -ENOENT) {
                diag_add(d, DIAG_ERROR, path, 0, NULL, RULE_IO, "cannot read: %s", io_why(r));
                return FILE_FAILED;
        }
        if (!text_ok(path, existing, len, d))
                return FILE_FAILED;
        _cleanup_free_ char *owner = file_owner(f->kind, existing);
        if (owner && strcmp(owner, pl->profile_name)) {
                diag_add(d, DIAG_ERROR, path, 0, NULL, RULE_OWNED_BY_ANOTHER_PROFILE,
                         "written by storprov for profile \"%s\"; one profile owns this file: render that profile, "
                         "or remove the file first",
                         owner);
                return FILE_FAILED;
        }
        size_t errors = diags_errors(d);
        _cleanup_free_ char *content = render_file(pl, f->kind, existing, d);
        if (diags_errors(d) > errors)
                return FILE_FAILED; /* a line the file cannot carry, or a clash: nothing written */
        if (existing && !strcmp(existing, content))
                return FILE_UNCHANGED;
        const char *stage = NULL;
        if ((r = write_file_in_root(root, f->path, content, strlen(content), f->mode, &stage)) < 0) {
                diag_add(d, DIAG_ERROR, path, 0, NULL, RULE_IO, "cannot write (%s): %s", stage ? stage : "?",
                         io_why(r));
                return FILE_FAILED;
        }
        return FILE_WRITTEN;
}

/* A file the plan does not write (the profile dropped its <tune>, <sysctl>,
 * filesystems or arrays): this profile's own file goes, its block in a shared
 * file goes; anything else stays. Returns false when there was nothing of ours. */
static bool drop_one(const struct plan *pl, const char *root, enum file_kind k, struct diags *d,
                     enum file_action *ret)
{
        const struct file_ops *ops = file_ops_of(k);
        const char *rel = pl->file_path[k];
        _cleanup_free_ char *existing = NULL;
        size_t len = 0;
        if (!rel || read_file_in_root(root, rel, &existing, &len) < 0)
                return false;
        _cleanup_free_ char *path = path_join(root, rel);
        if (ops->merge && memchr(existing, 0, len)) {
                /* a block of ours may sit after the NUL, out of strstr's sight */
                if (!memmem(existing, len, BEGIN_MARK, sizeof BEGIN_MARK - 1))
                        return false;
                text_ok(path, existing, len, d);
                *ret = FILE_FAILED;
                return true;
        }
        if (!ops->merge) {
                _cleanup_free_ char *owner = file_owner(k, existing);
                if (!owner || strcmp(owner, pl->profile_name))
                        return false;
                int r = unlink_in_root(root, rel);
                if (r < 0)
                        diag_add(d, DIAG_ERROR, path, 0, NULL, RULE_IO, "cannot remove: %s", io_why(r));
                *ret = r < 0 ? FILE_FAILED : FILE_REMOVED;
                return true;
        }
        if (!render_has_block(pl, existing))
                return false;
        _cleanup_free_ char *content = render_without(pl, k, existing, d);
        const char *stage = NULL;
        int r = write_file_in_root(root, rel, content, strlen(content), 0644, &stage);
        if (r < 0)
                diag_add(d, DIAG_ERROR, path, 0, NULL, RULE_IO, "cannot write (%s): %s", stage ? stage : "?",
                         io_why(r));
        *ret = r < 0 ? FILE_FAILED : FILE_REMOVED;
        return true;
}

/* The profile's <xfs> whose mountpoint is path (canonical), or NULL. */
static const struct pl_obj *fs_at(const struct plan *pl, const char *path)
{
        for (size_t k = 0; k < pl->n_objs; k++) {
                const struct pl_obj *o = &pl->objs[k];
                if (o->kind == OBJ_FS && o->fs.mountpoint && !strcmp(o->fs.mountpoint, path))
                        return o;
        }
        return NULL;
}

static void mount_unit_clash(const struct plan *pl, const char *root, const char *rel, int lineno,
                             const struct pl_obj *o, const char *how, struct diags *d)
{
        _cleanup_free_ char *path = path_join(root, rel), *how_c = comment_dup(how);
        diag_add(d, DIAG_ERROR, path, lineno, o->id, RULE_MOUNT_UNIT,
                 "%s is the profile's mountpoint %s: systemd would mount this unit's device there as well as the "
                 "fstab line storprov writes; remove or mask the unit, or give the <xfs> (%s line %d) another "
                 "mountpoint",
                 how_c, o->fs.mountpoint, pl->profile_path, o->line);
}

/* A systemd .mount unit in the target root (etc/systemd/system, run/systemd/system,
 * usr/lib/systemd/system) for a mountpoint the profile puts in fstab, by its
 * Where= (a plain path, compared canonically) or, without one, by its name
 * (systemd-escape --path reversed): systemd would mount the unit's What= there,
 * or the two would fight. storprov does not edit unit files, so the render is
 * refused. */
static void check_mount_units(const struct plan *pl, const char *root, struct diags *d)
{
        static const char *const dirs[] = {"etc/systemd/system", "run/systemd/system", "usr/lib/systemd/system"};
        for (size_t di = 0; di < ELEMENTSOF(dirs); di++) {
                char **names = NULL;
                if (list_dir_in_root(root, dirs[di], &names) < 0)
                        continue;
                for (size_t i = 0; names && names[i]; i++) {
                        _cleanup_free_ char *by_name = mount_unit_path(names[i]);
                        if (!by_name)
                                continue;
                        _cleanup_free_ char *rel = xasprintf("%s/%s", dirs[di], names[i]), *text = NULL;
                        if (read_file_in_root(root, rel, &text, NULL) < 0)
                                continue;
                        int lineno = 0;
                        bool has_where = false;
                        for (char *l = text, *e; l && *l; l = e ? e + 1 : NULL) {
                                e = strchr(l, '\n');
                                if (e)
                                        *e = 0;
                                lineno++;
                                l += strspn(l, " \t");
                                if (!startswith(l, "Where"))
                                        continue;
                                char *v = l + 5;
                                v += strspn(v, " \t");
                                if (*v != '=')
                                        continue;
                                v++;
                                v += strspn(v, " \t");
                                v[strcspn(v, " \t\r")] = 0;
                                has_where = true;
                                _cleanup_free_ char *canon = path_canonical(v);
                                const struct pl_obj *w = fs_at(pl, canon);
                                if (w) {
                                        _cleanup_free_ char *how = xasprintf("Where=%s", v);
                                        mount_unit_clash(pl, root, rel, lineno, w, how, d);
                                }
                        }
                        /* without Where=, the unit's name says where it mounts */
                        const struct pl_obj *o = has_where ? NULL : fs_at(pl, by_name);
                        if (o) {
                                _cleanup_free_ char *how = xasprintf("the unit's name (no Where=: %s)", by_name);
                                mount_unit_clash(pl, root, rel, 0, o, how, d);
                        }
                }
                strv_free(names);
        }
}

/* Before anything is written: a file another profile owns, or a line another
 * profile's block manages, refuses the whole render (exit 2), so that no file
 * is half-updated for a plan that cannot be carried out. */
bool render_files_preflight(const struct plan *pl, const char *root, struct diags *d)
{
        size_t errors = diags_errors(d);
        check_mount_units(pl, root, d);
        for (size_t i = 0; i < pl->n_files; i++) {
                const struct pl_file *f = &pl->files[i];
                _cleanup_free_ char *existing = NULL, *path = path_join(root, f->path);
                size_t len = 0;
                if (read_file_in_root(root, f->path, &existing, &len) < 0)
                        continue; /* missing, or reported when it is written */
                if (!text_ok(path, existing, len, d))
                        continue;
                _cleanup_free_ char *owner = file_owner(f->kind, existing);
                if (owner && strcmp(owner, pl->profile_name))
                        diag_add(d, DIAG_ERROR, path, 0, NULL, RULE_OWNED_BY_ANOTHER_PROFILE,
                                 "written by storprov for profile \"%s\"; one profile owns this file: render that "
                                 "profile, or remove the file first",
                                 owner);
                else if (file_ops_of(f->kind)->merge)
                        free(render_file(pl, f->kind, existing, d)); /* clashes with other profiles' blocks */
        }
        return diags_errors(d) == errors;
}

/* SELinux: every file written (or found as it should be) gets the label the
 * root's policy gives it, and the directories on its way that have none.
 * When a label cannot be set, a warning says which and what to do; with
 * autorelabel, ROOT/.autorelabel asks for a relabel at the next boot. */
static void label_files(const struct plan *pl, const char *root, const struct file_result *res, size_t nres,
                        bool autorelabel, struct diags *d)
{
        struct root_labels *l = NULL;
        _cleanup_free_ char *why = NULL;
        size_t nbad = 0;
        if (root_labels_open(root, &l, &why) < 0)
                nbad = nres;
        else if (!l)
                return; /* no SELinux on this root */
        for (size_t i = 0; l && i < pl->n_files && i < nres; i++) {
                if (res[i].action == FILE_FAILED || res[i].action == FILE_REMOVED)
                        continue;
                char *w = NULL;
                if (root_labels_apply(l, root, pl->files[i].path, &w) < 0) {
                        nbad++;
                        if (!why)
                                why = w;
                        else
                                free(w);
                }
        }
        root_labels_close(l);
        if (!nbad)
                return;
        bool relabel = false;
        if (autorelabel) {
                const char *stage = NULL;
                int r = write_file_in_root(root, ".autorelabel", "", 0, 0644, &stage);
                relabel = r >= 0;
                if (r < 0)
                        diag_add(d, DIAG_WARNING, root, 0, NULL, RULE_SELINUX_LABEL,
                                 "cannot write %s/.autorelabel (%s): %s", root, stage ? stage : "?", strerror(-r));
        }
        diag_add(d, DIAG_WARNING, root, 0, NULL, RULE_SELINUX_LABEL,
                 "SELinux labels could not be set on %zu file%s (%s); under an enforcing policy udev and systemd may "
                 "be denied reading them and the tuning lost at boot: %s",
                 nbad, nbad == 1 ? "" : "s", why ? why : "?",
                 relabel ? "wrote .autorelabel, the root is relabeled at its next boot"
                         : "run restorecon -RF on them once the system runs, or pass --autorelabel");
}

int render_files(const struct plan *pl, const char *root, bool autorelabel, struct diags *d, struct file_result **ret,
                 size_t *n)
{
        if (!render_files_preflight(pl, root, d)) {
                if (ret) {
                        *ret = NULL;
                        *n = 0;
                }
                return -EPERM;
        }
        int failed = 0;
        struct file_result *res = xcalloc(pl->n_files + _FILE_KIND_MAX, sizeof(*res));
        size_t nres = 0;
        bool planned[_FILE_KIND_MAX] = {false};
        for (size_t i = 0; i < pl->n_files; i++) {
                const struct pl_file *f = &pl->files[i];
                char *path = path_join(root, f->path);
                enum file_action a = write_one(pl, root, f, path, d);
                planned[f->kind] = true;
                failed += a == FILE_FAILED;
                res[nres++] = (struct file_result){.path = path, .action = a};
        }
        for (int k = 0; k < _FILE_KIND_MAX; k++) {
                enum file_action a;
                if (planned[k] || !drop_one(pl, root, (enum file_kind)k, d, &a))
                        continue;
                failed += a == FILE_FAILED;
                res[nres++] = (struct file_result){.path = path_join(root, pl->file_path[k]), .action = a};
        }
        label_files(pl, root, res, nres, autorelabel, d);
        if (ret) {
                *ret = res;
                *n = nres;
        } else
                file_results_free(res, nres);
        return failed;
}

const char *file_action_verb(enum file_action a)
{
        static const char *const verbs[] = {[FILE_UNCHANGED] = "unchanged", [FILE_WRITTEN] = "wrote",
                                            [FILE_FAILED] = "failed", [FILE_REMOVED] = "removed"};
        return verbs[a];
}

void file_results_free(struct file_result *v, size_t n)
{
        for (size_t i = 0; i < n; i++)
                free(v[i].path);
        free(v);
}

/* ---- the distribution of a root ------------------------------------------ */

static bool in_root_file(const char *root, const char *rel, char **ret)
{
        size_t len;
        char *t = NULL;
        if (read_file_in_root(root, rel, &t, &len) < 0)
                return false;
        if (ret)
                *ret = t;
        else
                free(t);
        return true;
}

/* Whether the os-release text names rhel or fedora (or centos) as ID or in
 * ID_LIKE: a space-separated list, quoted or not (os-release(5)). */
static bool os_release_el(const char *t)
{
        for (const char *l = t; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
                size_t skip = !strncmp(l, "ID=", 3) ? 3 : !strncmp(l, "ID_LIKE=", 8) ? 8 : 0;
                if (!skip)
                        continue;
                const char *v = l + skip, *end = strchr(v, '\n');
                size_t n = end ? (size_t)(end - v) : strlen(v);
                for (size_t i = 0; i < n;) {
                        while (i < n && (v[i] == ' ' || v[i] == '"' || v[i] == '\''))
                                i++;
                        size_t w = i;
                        while (w < n && v[w] != ' ' && v[w] != '"' && v[w] != '\'')
                                w++;
                        if ((w - i == 4 && !strncmp(v + i, "rhel", 4)) || (w - i == 6 && !strncmp(v + i, "fedora", 6)) ||
                            (w - i == 6 && !strncmp(v + i, "centos", 6)))
                                return true;
                        i = w;
                }
        }
        return false;
}

bool root_is_el(const char *root)
{
        if (in_root_file(root, "etc/redhat-release", NULL))
                return true;
        /* etc/os-release is usually a link to ../usr/lib/os-release, and no
         * link under the root is followed: read both */
        static const char *const rels[] = {"etc/os-release", "usr/lib/os-release"};
        for (size_t i = 0; i < ELEMENTSOF(rels); i++) {
                char *t = NULL;
                if (!in_root_file(root, rels[i], &t))
                        continue;
                bool el = os_release_el(t);
                free(t);
                if (el)
                        return true;
        }
        return false;
}

const char *root_mdadm_conf(const char *root)
{
        if (in_root_file(root, "etc/mdadm.conf", NULL))
                return "/etc/mdadm.conf";
        if (in_root_file(root, "etc/mdadm/mdadm.conf", NULL))
                return "/etc/mdadm/mdadm.conf";
        return root_is_el(root) ? "/etc/mdadm.conf" : "/etc/mdadm/mdadm.conf";
}
