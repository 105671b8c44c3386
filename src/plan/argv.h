/* SPDX-License-Identifier: GPL-2.0-or-later
 * Every command line storprov runs to make or read storage, built in one
 * place from the plan's objects: mkfs.xfs, mdadm, lvm, wipefs and dmsetup.
 * The planner puts them in its steps (plan/steps.c); apply builds what it
 * decides at run time with the same functions (an mdadm --assemble instead
 * of --create, mkfs.xfs with -f where wiping is allowed and with the AG size
 * on a parity stripe, a dry run), and never edits an argv itself. So the
 * plan prints what apply runs, and what apply adds is said in the plan
 * (mkfs_agsize_at_apply). Partitions are written by libparted in process,
 * not by a command: their sectors are part_sectors'. Pure functions. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/plan.h"

/* ---- mkfs.xfs ----------------------------------------------------------------- */

/* Appends "-d su=…,sw=…" and "-l version=2,su=<log_su_bytes>" to *argv (strv).
 * Nothing is added for a geometry without stripes; no -l for log_su_bytes 0. */
void xfs_stripe_args(const struct stripe_geom *g, uint64_t log_su_bytes, char ***argv);

/* What apply decides about an mkfs.xfs at run time; all zero is the plan's
 * own command (its step's argv). */
struct mkfs_at_apply {
        bool force;               /* -f before the device: it carries what the profile or --wipe lets apply overwrite */
        uint64_t agsize_blocks;   /* -d agsize=Nb before the device (mkfs_agsize_at_apply); 0: mkfs.xfs's own */
        const char *dry_run;      /* not NULL: mkfs.xfs -N on this file or device instead, with -f, never an AG size */
        const char *dry_sector;   /* a dry run's "-s size=" (the device's sector size), NULL: none */
};
/* mkfs.xfs of filesystem object fi: -L, -m uuid=, the stripe (xfs_stripe_args),
 * the profile's mkfs-options, then what `at` adds (NULL: nothing), the device last. */
char **mkfs_xfs_argv(const struct plan *pl, size_t fi, const struct mkfs_at_apply *at);
/* Does apply give filesystem object f an AG size of its own? On a parity
 * stripe whose mkfs-options set neither agsize nor agcount: mkfs.xfs's own
 * AG size on the device (a dry run at apply time: it depends on the device's
 * size and the mkfs.xfs version), made whole full stripes
 * (xfs_stripe_agsize_blocks). The plan shows the command without it and says so. */
bool mkfs_agsize_at_apply(const struct pl_obj *f);
/* What apply adds to step si's command that the plan cannot know, as a line
 * for the printed plan under the command; NULL: apply runs it as printed
 * (but for -f, which depends on what the device carries then). */
const char *step_at_apply_note(const struct plan *pl, size_t si);

/* ---- mdadm -------------------------------------------------------------------- */

/* mdadm --create of md object mi, every option explicit (chunk and data offset in KiB). */
char **md_create_argv(const struct plan *pl, size_t mi);
/* mdadm --assemble of md object mi by uuid (an array an earlier run or another system made). */
char **md_assemble_argv(const struct plan *pl, size_t mi, const char *uuid);
/* mdadm --stop of md object mi. */
char **md_stop_argv(const struct plan *pl, size_t mi);
/* mdadm --detail --export of the array at path (a read-only query). */
char **md_detail_argv(const char *path);

/* ---- lvm ---------------------------------------------------------------------- */

/* Every lvm call is "lvm CMD [--config TEXT]" (the plan's lvm_config). */
/* pvcreate of object pvi, a PV of VG object vi, with the VG's data alignment. */
char **pv_create_argv(const struct plan *pl, size_t vi, size_t pvi);
/* vgcreate of VG object vi over its PVs, with its extent size. */
char **vg_create_argv(const struct plan *pl, size_t vi);
/* lvcreate of LV object li: size or extents, stripes, read-ahead (in 512-byte sectors). */
char **lv_create_argv(const struct plan *pl, size_t li);
/* vgchange --activate=y of VG object vi; lvchange --activate=y of LV object li. */
char **vg_activate_argv(const struct plan *pl, size_t vi);
char **lv_activate_argv(const struct plan *pl, size_t li);
/* An lvm report (pvs, vgs, lvs) of fields, one line per item, no headings, bytes; target NULL: all. */
char **lvm_report_argv(const struct plan *pl, const char *cmd, const char *fields, const char *target);
/* lvm lvmdevices --config ... --devicesfile NAME --adddev DEV (plan/lvmdevices.h says when). */
char **lvmdevices_adddev_argv(const char *dev, const char *devicesfile);

/* ---- the rest ----------------------------------------------------------------- */

/* wipefs --all of object oi. */
char **wipefs_argv(const struct plan *pl, size_t oi);
/* dmsetup create of multipath disk object di's map, as multipathd would make it. */
char **mpath_create_argv(const struct plan *pl, size_t di);
/* First and last sector (inclusive) of a partition object, in its disk's logical sectors. */
void part_sectors(const struct plan *pl, size_t pi, uint64_t *ret_first, uint64_t *ret_last);
