/* SPDX-License-Identifier: GPL-2.0-or-later
 * Memory: allocation that never returns NULL (an exhausted heap ends the run), and _cleanup_free_. */
#pragma once

#include <stddef.h>

#define ELEMENTSOF(a) (sizeof(a) / sizeof((a)[0]))

/* Cleanup attribute in the systemd style: free on scope exit. */
void freep(void *p);
#define _cleanup_free_ __attribute__((cleanup(freep)))

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);          /* NULL stays NULL */
