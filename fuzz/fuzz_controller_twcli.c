/* SPDX-License-Identifier: GPL-2.0-or-later
 * The tw_cli readers (src/discover/ctl_3ware.c) on any bytes: the unit parser
 * ("/cX/uY show all", with the unit named by the command and by the output
 * alone) under the invariants of fuzz_controller.h, and the two followers
 * ("show", "/cX show"): 0 and no error, or -EINVAL with one printable error
 * and the list as it was; every command of step 1 or 2, its id [A-Za-z0-9/]
 * only and shorter than 24 bytes. */
#include "fuzz_controller.h"

static int unit_c0u0(const char *b, size_t n, struct ctl_list *l, char **e)
{
        return ctl_parse_twcli_unit(b, n, "tw_cli", "c0/u0", l, e);
}

static int unit_any(const char *b, size_t n, struct ctl_list *l, char **e)
{
        return ctl_parse_twcli_unit(b, n, "tw_cli", NULL, l, e);
}

/* What fuzz_controller.h does not look at: the unit's identifiers. */
static void unit_ids(const uint8_t *data, size_t size)
{
        struct ctl_list l = { 0 };
        char *err = NULL;
        if (ctl_parse_twcli_unit((const char *)data, size, "tw_cli", NULL, &l, &err) == 0)
                for (size_t i = 0; i < l.n; i++) {
                        const struct ctl_vd *v = &l.v[i];
                        unsigned c, u, t;
                        int n = 0;
                        ctl_printable_or_null("a serial", v->serial);
                        if (sscanf(v->controller, "c%u%n", &c, &n) != 1 || v->controller[n] ||
                            sscanf(v->vd, "u%u%n", &u, &n) != 1 || v->vd[n])
                                FUZZ_FAIL("controller \"%s\", unit \"%s\"", v->controller, v->vd);
                        if (!v->scsi_addr || sscanf(v->scsi_addr, "0:%u:0%n", &t, &n) != 1 || v->scsi_addr[n] || t != u)
                                FUZZ_FAIL("SCSI address \"%s\" for u%u", v->scsi_addr ? v->scsi_addr : "(null)", u);
                }
        free(err);
        ctl_list_free(&l);
}

/* Beyond fuzz_controller.h: every command of the one step, for an id that
 * is not empty. */
static void follow_one(ctl_follow_fn *follow, const char *id, unsigned want_step, const uint8_t *data, size_t size)
{
        struct ctl_nexts nx;
        ctl_fuzz_follow(follow, "tw_cli", data, size, id, 1u << want_step, &nx);
        for (size_t i = 1; i < nx.n; i++)
                if (!nx.v[i].id[0])
                        FUZZ_FAIL("an empty command id");
        ctl_nexts_free(&nx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        ctl_fuzz_one(unit_c0u0, data, size, &fuzz_si[0]);
        ctl_fuzz_one(unit_any, data, size, &fuzz_si[0]);
        unit_ids(data, size);
        follow_one(ctl_follow_twcli_show, NULL, 1, data, size);
        follow_one(ctl_follow_twcli_ctl, "c0", 2, data, size);
        return 0;
}
