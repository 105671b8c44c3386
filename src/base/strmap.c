/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "base/strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static uint64_t hash(const char *s)
{
        uint64_t h = UINT64_C(1469598103934665603);
        for (; *s; s++)
                h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
        return h;
}

static size_t slot(const struct strmap *m, const char *key)
{
        size_t i = (size_t)hash(key) & (m->cap - 1);
        while (m->keys[i] && strcmp(m->keys[i], key))
                i = (i + 1) & (m->cap - 1);
        return i;
}

static void grow(struct strmap *m)
{
        struct strmap g = {.cap = m->cap ? m->cap * 2 : 16};
        g.keys = xcalloc(g.cap, sizeof(*g.keys));
        g.vals = xcalloc(g.cap, sizeof(*g.vals));
        for (size_t i = 0; i < m->cap; i++)
                if (m->keys[i]) {
                        size_t j = slot(&g, m->keys[i]);
                        g.keys[j] = m->keys[i];
                        g.vals[j] = m->vals[i];
                }
        g.n = m->n;
        free(m->keys);
        free(m->vals);
        *m = g;
}

bool strmap_add(struct strmap *m, const char *key, size_t val, size_t *ret_old)
{
        if ((m->n + 1) * 2 > m->cap)
                grow(m);
        size_t i = slot(m, key);
        if (m->keys[i]) {
                if (ret_old)
                        *ret_old = m->vals[i];
                return false;
        }
        m->keys[i] = key;
        m->vals[i] = val;
        m->n++;
        return true;
}

size_t strmap_get(const struct strmap *m, const char *key)
{
        if (!m->cap || !key)
                return (size_t)-1;
        size_t i = slot(m, key);
        return m->keys[i] ? m->vals[i] : (size_t)-1;
}

void strmap_free(struct strmap *m)
{
        free(m->keys);
        free(m->vals);
        *m = (struct strmap){0};
}
