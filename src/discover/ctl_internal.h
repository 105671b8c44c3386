/* SPDX-License-Identifier: GPL-2.0-or-later
 * What the controller parsers (ctl_*.c) share, inside src/discover/ only. */
#pragma once

#include "discover/controller.h"

/* A new record at the end of l, zeroed, tool and controller copied. */
struct ctl_vd *ctl_add(struct ctl_list *l, const char *tool, const char *controller);
void ctl_vd_free(struct ctl_vd *v);
/* Drops the records after the first n (a parser that failed half-way). */
void ctl_truncate(struct ctl_list *l, size_t n);
/* A printable copy of at most max bytes of s (other bytes as '?'). */
char *ctl_printable(const char *s, size_t max);
/* "ab12…" lower-cased, "0x"/"naa." dropped; NULL unless 16 or 32 hex digits. */
char *ctl_naa(const char *s);
/* A level as ssacli/arcconf print it ("1+0", "5", "1ADM", "60") → "raid10" ...; NULL if none. */
const char *ctl_level_of(const char *raw);
