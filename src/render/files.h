/* SPDX-License-Identifier: GPL-2.0-or-later
 * Writing the plan's config files under a root: the one place where rendered
 * text meets the filesystem. */
#pragma once

#include "plan/plan.h"

enum file_action { FILE_UNCHANGED, FILE_WRITTEN, FILE_FAILED, FILE_REMOVED };
/* "unchanged", "wrote", "failed", "removed" */
const char *file_action_verb(enum file_action a);

struct file_result {
        char *path;               /* with the root */
        enum file_action action;
};

/* Renders every file of the plan from its objects (so identities found on
 * disk count) and writes the ones whose content differs, atomically, under
 * root; fstab and mdadm.conf are merged with what is there. Files (or
 * blocks) this profile wrote before but no longer asks for are removed, and
 * reported as FILE_REMOVED. Returns -EPERM, having written nothing, when a file
 * belongs to another profile or another profile's block manages the same
 * things (details in d). On a root with SELinux (etc/selinux/config) every
 * file gets the label the root's policy gives it (labels.h); a label that
 * cannot be set is a warning in d, and with autorelabel ROOT/.autorelabel is
 * written then. Returns the number
 * of failures (details in d); ret/n (optional) get one result per file. Prints
 * nothing: the caller reports. */
int render_files(const struct plan *pl, const char *root, bool autorelabel, struct diags *d, struct file_result **ret,
                 size_t *n);
void file_results_free(struct file_result *v, size_t n);
/* The check render_files() starts with, alone: false (with the reasons in d)
 * when the files cannot be written for this profile. Reads only. */
bool render_files_preflight(const struct plan *pl, const char *root, struct diags *d);

/* Whether ROOT is an EL or Fedora system: etc/redhat-release, or rhel, fedora
 * or centos as ID or in ID_LIKE of etc/os-release or usr/lib/os-release. */
bool root_is_el(const char *root);
/* Where mdadm.conf lives in ROOT: the file the root has (mdadm reads
 * /etc/mdadm.conf first, then /etc/mdadm/mdadm.conf), else /etc/mdadm.conf on
 * EL and Fedora, /etc/mdadm/mdadm.conf elsewhere (Debian). */
const char *root_mdadm_conf(const char *root);
