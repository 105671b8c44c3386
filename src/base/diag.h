/* SPDX-License-Identifier: GPL-2.0-or-later
 * Diagnostics: problems with file, line, object and rule, collected to be reported at once. */
#pragma once

#include <stddef.h>
#include <stdio.h>

#include "base/rules.h"

/* Diagnostics: every problem found in a profile or plan, with where it came
 * from and the rule it broke, collected so that all are reported at once. */
enum diag_severity { DIAG_WARNING, DIAG_ERROR };
struct diag {
        enum diag_severity severity;
        char *file;     /* profile path, or NULL */
        int line;       /* 0 if unknown */
        char *object;   /* "md data", "disks lun", … or NULL */
        enum rule_id rule; /* its rule in the registry (base/rules.def): RULE_QUEUE_MEMORY, … */
        char *message;
};
struct diags {
        struct diag *v;
        size_t n, cap;
};
void diag_add(struct diags *d, enum diag_severity sev, const char *file, int line,
              const char *object, enum rule_id rule, const char *fmt, ...)
        __attribute__((format(printf, 7, 8)));
size_t diags_errors(const struct diags *d);
/* "FILE:LINE: error: [rule] object: message" */
char *diag_format(const struct diag *x);
void diags_print(const struct diags *d, FILE *f);
void diags_free(struct diags *d);
