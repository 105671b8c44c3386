/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "base/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void freep(void *p) { free(*(void **)p); }

static void oom(void)
{
        fputs("storprov: out of memory\n", stderr);
        abort();
}

void *xmalloc(size_t n)
{
        void *p = malloc(n ? n : 1);
        if (!p)
                oom();
        return p;
}

void *xcalloc(size_t n, size_t size)
{
        void *p = calloc(n ? n : 1, size ? size : 1);
        if (!p)
                oom();
        return p;
}

void *xrealloc(void *p, size_t n)
{
        p = realloc(p, n ? n : 1);
        if (!p)
                oom();
        return p;
}

char *xstrdup(const char *s)
{
        if (!s)
                return NULL;
        char *r = strdup(s);
        if (!r)
                oom();
        return r;
}
