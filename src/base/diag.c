/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void diag_add(struct diags *d, enum diag_severity sev, const char *file, int line,
              const char *object, enum rule_id rule, const char *fmt, ...)
{
        if (d->n == d->cap) {
                d->cap = d->cap ? d->cap * 2 : 8;
                d->v = xrealloc(d->v, d->cap * sizeof(*d->v));
        }
        struct sbuf b = {0};
        va_list ap;
        va_start(ap, fmt);
        sbuf_vprintf(&b, fmt, ap);
        va_end(ap);
        d->v[d->n++] = (struct diag){
                .severity = sev,
                .file = xstrdup(file),
                .line = line,
                .object = xstrdup(object),
                .rule = rule,
                .message = sbuf_steal(&b),
        };
}

size_t diags_errors(const struct diags *d)
{
        size_t n = 0;
        for (size_t i = 0; i < d->n; i++)
                n += d->v[i].severity == DIAG_ERROR;
        return n;
}

char *diag_format(const struct diag *x)
{
        struct sbuf b = {0};
        if (x->file && x->line > 0)
                sbuf_printf(&b, "%s:%d: ", x->file, x->line);
        else if (x->file)
                sbuf_printf(&b, "%s: ", x->file);
        sbuf_puts(&b, x->severity == DIAG_ERROR ? "error: " : "warning: ");
        if (x->object)
                sbuf_printf(&b, "%s: ", x->object);
        sbuf_puts(&b, x->message);
        if (rule_name(x->rule))
                sbuf_printf(&b, " [%s]", rule_name(x->rule));
        return sbuf_steal(&b);
}

void diags_print(const struct diags *d, FILE *f)
{
        /* in file order: a stable insertion sort by line keeps same-line order */
        size_t *idx = xmalloc((d->n ? d->n : 1) * sizeof(size_t));
        for (size_t i = 0; i < d->n; i++) {
                size_t j = i;
                while (j > 0 && d->v[idx[j - 1]].line > d->v[i].line) {
                        idx[j] = idx[j - 1];
                        j--;
                }
                idx[j] = i;
        }
        for (size_t k = 0; k < d->n; k++) {
                char *s = diag_format(&d->v[idx[k]]);
                fprintf(f, "storprov: %s\n", s);
                free(s);
        }
        free(idx);
}

void diags_free(struct diags *d)
{
        for (size_t i = 0; i < d->n; i++) {
                free(d->v[i].file);
                free(d->v[i].object);
                free(d->v[i].message);
        }
        free(d->v);
        *d = (struct diags){0};
}
