/* SPDX-License-Identifier: GPL-2.0-or-later
 * inventory: what an admin writes a profile from and a provisioning server
 * collects — every disk storprov can see, with its stable ids, geometry,
 * io hints, holders, signatures and mount use. Read-only, under a sysroot. */
#pragma once

#include <stdio.h>

#include "discover/discover.h"

/* Prints si's disks (md and dm devices appear as holders, not as disks). */
void inventory_print(const struct sysinfo *si, bool json, FILE *f);
