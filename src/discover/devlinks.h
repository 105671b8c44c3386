/* SPDX-License-Identifier: GPL-2.0-or-later
 * The links under SYSROOT/dev, read into the discovered devices (devlinks.c). */
#pragma once

#include <stdbool.h>

#include "discover/discover.h"

#define MAX_LINKS_PER_DEV 64      /* a disk has a handful (by-id, by-path, by-uuid, …) */
#define MAX_LINKS_TOTAL 1000000   /* SYSROOT/dev read at most this far */

/* A link name below /dev storprov keeps (udev's characters, relative, no "."
 * or ".." component, at most 1024 bytes). */
bool link_name_ok(const char *s);
/* Every link under sysroot/dev into s's devices' links. */
void read_dev_links(const char *sysroot, struct sysinfo *s);
/* Each device's links in one order. */
void sort_links(struct sysinfo *s);
