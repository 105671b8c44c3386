/* SPDX-License-Identifier: GPL-2.0-or-later
 * The output files' table: one row per file kind (enum file_kind,
 * plan/plan.h) with everything storprov knows about that file: where it is,
 * when a plan writes it, how it is rendered, labeled, owned, merged and
 * removed. file_ops_list, files.c, output.c and verify read each kind's row
 * and never its kind. A new kind: its value in enum file_kind, its row in
 * file_ops.c, its renderer's file in render/ (doc/HACKING.md). */
#pragma once

#include "plan/plan.h"

struct merge_rule;                /* render/merge.h */

struct file_ops {
        enum file_kind kind;
        /* Its name, unique: "fstab", "udev-rules" ... */
        const char *name;
        /* Its path on the target, absolute, unless file_ops_list is given
         * another (the CLI gives mdadm.conf's, the root's distribution's);
         * NULL: path_of says. */
        const char *path;
        char *(*path_of)(const char *profile_name);
        /* Whether the plan writes the file; when it does not, a file of this
         * kind an earlier run wrote is removed (owner) or loses its block
         * (merge). */
        bool (*wanted)(const struct plan *pl);
        /* The file's text from the plan: the whole file, or (a shared file)
         * `existing` (NULL: no file yet) with this profile's managed block
         * merged in. A line the file cannot carry, or a clash with another
         * profile, is an error in d (d may be NULL). */
        char *(*render)(const struct plan *pl, const char *existing, struct diags *d);
        /* The SELinux type EL 9's targeted policy gives the file where EL
         * keeps it. Not what files.c sets: every file written gets the label
         * the target root's own policy gives its path (sys/labels.c), which
         * a type fixed here must not overrule; this is what that is expected
         * to be, for the docs and tests/bats/selinux.bats. */
        const char *selinux_type;
        /* A file storprov owns whole: the profile that wrote `existing`, NULL
         * when storprov did not write it. Another profile's file is never
         * overwritten; this profile's is unlinked when the plan no longer
         * writes it. NULL for a shared file. */
        char *(*owner)(const char *existing);
        /* A file storprov shares with others (fstab, mdadm.conf): the rule its
         * managed block is merged by (render/merge.h). When the plan no longer
         * writes it, the block goes and every other line stays. NULL for a
         * file storprov owns whole. */
        const struct merge_rule *merge;
        /* For verify: whether a line of the file is one another check reads
         * (fstab: a planned filesystem's own line, its "fstab entry" check);
         * the file's check leaves such lines to it. NULL: none. */
        bool (*checked_apart)(const struct plan *pl, const char *line, size_t len);
        /* which checks those are, for verify's report */
        const char *checked_apart_by;
};

/* The rows, in the order the plan writes the files (the state file last). */
extern const struct file_ops file_ops_table[];
extern const size_t file_ops_count;
/* The row of kind k. */
const struct file_ops *file_ops_of(enum file_kind k);

/* Lists the files a built plan writes (pl->files, in the table's order) and
 * sets every kind's path (pl->file_path), path[k] where it is not NULL, else
 * the row's. Reads the plan alone; the CLI calls it right after plan_build. */
void file_ops_list(struct plan *pl, const char *const path[_FILE_KIND_MAX]);
