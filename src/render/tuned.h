/* SPDX-License-Identifier: GPL-2.0-or-later
 * The tuned profile (--tuning=tuned|both): /etc/tuned/storprov/tuned.conf,
 * and the split of the tuning between it and the udev rules. tuned's disk
 * plugin sets a queue's elevator and readahead; nr_requests, max_sectors_kb
 * and the md attributes stay in udev, and so does every attribute of a
 * device tuned cannot key safely (tuned_skip_why). Each value is written in
 * one file only. */
#pragma once

#include "plan/plan.h"

/* Why tuned's disk plugin cannot carry o's tuning (a static text), NULL: it
 * can (a plain disk with ID_WWN or ID_SERIAL, not removable). */
const char *tuned_skip_why(const struct pl_obj *o);
/* Whether attribute a of o goes to the tuned profile (and not to udev). */
bool tuned_takes(const struct plan *pl, const struct pl_obj *o, enum tune_attr a);
/* Whether a sysctl goes to the tuned profile's [sysctl] (and not to sysctl.d). */
bool tuned_takes_sysctl(const struct plan *pl);
/* The text of tuned.conf (storprov owns it whole). */
char *render_tuned_conf(const struct plan *pl, const char *existing, struct diags *d);
/* The profile the storprov profile includes, for ROOT: its active profile
 * (etc/tuned/active_profile) unless that is storprov itself, then the include
 * the storprov profile there already has, else "throughput-performance".
 * Returns a new string. */
char *root_tuned_include(const char *root);
