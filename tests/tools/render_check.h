/* SPDX-License-Identifier: GPL-2.0-or-later
 * A strict reader of rendered files, independent of src/input/sanitize.c. */
#pragma once
#include <stdbool.h>
#include <stddef.h>

enum rc_kind { RC_UDEV, RC_FSTAB, RC_SYSCTL, RC_MDADM, RC_MULTIPATH, RC_WWIDS, RC_TUNED };
/* NULL when every line of text is one storprov may write; else the reason,
 * written into buf. */
const char *render_check(enum rc_kind kind, const char *text, char *buf, size_t bn);
