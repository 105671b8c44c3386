/* SPDX-License-Identifier: GPL-2.0-or-later
 * The sysctl.d file (storprov owns it whole): the profile's <sysctl> keys and
 * values; one that is not a plain key and value is a comment. */
#include "render/render.h"
#include "render/merge.h"

#include "base/sanitize.h"

char *render_sysctl(const struct plan *pl, const char *existing, struct diags *d)
{
        (void)existing;
        (void)d;
        struct sbuf b = {0};
        render_header(&b, pl, "Kernel settings");
        for (size_t i = 0; i < pl->n_sysctls; i++) {
                const struct pl_sysctl *s = &pl->sysctls[i];
                if (sysctl_key_safe(s->key) && sysctl_value_safe(s->value))
                        sbuf_printf(&b, "%s = %s\n", s->key, s->value);
                else {
                        sbuf_puts(&b, "# storprov: not written, not a plain key and value: ");
                        comment_text(&b, s->key);
                        sbuf_puts(&b, "\n");
                }
        }
        return sbuf_steal(&b);
}
