/* SPDX-License-Identifier: GPL-2.0-or-later
 * src/base/: memory, strings, sizes, integer maths, diagnostics, string maps, root-confined files; no other room.
 * storprov — small helpers shared by every layer, one header per piece:
 * memory (mem.h), strings (text.h), sizes and integer maths (numbers.h),
 * the rule registry (rules.h, rules.def), diagnostics (diag.h), plain files
 * (fileio.h), files under a root (rootfs.h); strmap.h and version.h stand apart. */
#pragma once

/* Every piece of the room; a file includes this one and gets them all. */
#include "base/mem.h"
#include "base/text.h"
#include "base/numbers.h"
#include "base/rules.h"
#include "base/diag.h"
#include "base/fileio.h"
#include "base/rootfs.h"
