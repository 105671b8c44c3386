/* SPDX-License-Identifier: GPL-2.0-or-later
 * The tw_cli reader (src/discover/ctl_3ware.c) on the field fixtures of
 * tests/fixtures/controller/field/tw_cli/ (the layouts of published captures
 * and of the 3ware CLI guide, figures computed by hand in expected.tsv), then
 * every good fixture cut at every byte and garbled line by line: the parse
 * fails, or gives what the whole output gives (a cut: its first records), or
 * keeps the geometry unknown with a note. Never a changed figure. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "ctl_variants.h"

static const struct ctl_field_parser map[] = {
        { "show", NULL, ctl_follow_twcli_show, "tw_cli" },
        { "ctl", NULL, ctl_follow_twcli_ctl, "tw_cli" },
        { "unit", ctl_parse_twcli_unit, NULL, "tw_cli" },
        { NULL, NULL, NULL, NULL },
};

static void field(void **state)
{
        (void)state;
        assert_true(ctl_field_check("tw_cli", map) >= 8);
}

static bool has_next(const struct ctl_nexts *x, const struct ctl_next *n)
{
        for (size_t i = 0; i < x->n; i++)
                if (x->v[i].step == n->step && !strcmp(x->v[i].id, n->id))
                        return true;
        return false;
}

/* A garbled output: nothing; or records of the whole output with the same
 * figures and state or an unknown geometry (no data disks either) and a
 * note, the SCSI address the same, the serial the same or missing; or some
 * of its commands (a controller row lost from "show" cannot be told from a
 * machine with one controller less), all of them for "ctl". */
struct garbled {
        const struct ctl_field_parser *p;
        const char *arg;
        const struct ctl_outcome *full;
};

static void check_garbled(const struct ctl_variant *v, void *ctx)
{
        static const struct ctl_keeps keeps = { CTL_F_ADDR, CTL_F_STATE, CTL_F_SERIAL, CTL_K_BARE };
        const struct garbled *g = ctx;
        struct ctl_outcome o;
        ctl_run(v->what, g->p, g->arg, v->buf, v->len, &o);
        ctl_check_garbled(v->what, g->full, &o, &keeps);
        for (size_t i = 0; o.r == 0 && i < o.nx.n; i++)
                if (!has_next(&g->full->nx, &o.nx.v[i]))
                        fail_msg("%s: command %u:%s the whole output does not lead to", v->what, o.nx.v[i].step,
                                 o.nx.v[i].id);
        if (o.r == 0 && !strcmp(g->p->name, "ctl") && o.nx.n != g->full->nx.n)
                fail_msg("%s: %zu units of %zu", v->what, o.nx.n, g->full->nx.n);
        ctl_outcome_free(&o);
}

/* The good fixtures of expected.tsv: file, parser and argument of each. */
struct good {
        char file[128], parser[16], arg[32];
};

static size_t good_fixtures(struct good *g, size_t max)
{
        char dir[1024], path[1200], line[4096];
        ctl_field_dir("tw_cli", dir, sizeof dir);
        snprintf(path, sizeof path, "%s/expected.tsv", dir);
        FILE *f = fopen(path, "r");
        if (!f)
                fail_msg("cannot read %s", path);
        size_t n = 0;
        while (fgets(line, sizeof line, f) && n < max) {
                char *col[16];
                if (line[0] == '#' || line[0] == '\n' || ctl_field_split(line, col, 16) < 4 ||
                    !strcmp(col[3], "!error"))
                        continue;
                if (n && !strcmp(g[n - 1].file, col[0]) && !strcmp(g[n - 1].parser, col[1]) &&
                    !strcmp(g[n - 1].arg, col[2]))
                        continue;
                snprintf(g[n].file, sizeof g[n].file, "%s", col[0]);
                snprintf(g[n].parser, sizeof g[n].parser, "%s", col[1]);
                snprintf(g[n].arg, sizeof g[n].arg, "%s", col[2]);
                n++;
        }
        fclose(f);
        return n;
}

static void cut_and_garbled(void **state)
{
        (void)state;
        static const struct ctl_garbling how = { CTL_DELETED | CTL_DOUBLED | CTL_REPLACED | CTL_SWAPPED | CTL_NUL,
                                                 "#&%$ !? 7\n", NULL };
        /* a cut: its first records unchanged, the serial and SCSI address too */
        static const struct ctl_cuts cuts = { 1, CTL_F_VD | CTL_F_GEOMETRY | CTL_F_STATE | CTL_F_SERIAL | CTL_F_ADDR, 0,
                                              NULL };
        struct good g[64];
        size_t n = good_fixtures(g, 64);
        assert_true(n >= 12);
        for (size_t i = 0; i < n; i++) {
                const struct ctl_field_parser *p = ctl_field_parser(map, g[i].parser);
                const char *arg = strcmp(g[i].arg, "-") ? g[i].arg : NULL;
                size_t len;
                struct ctl_outcome full;
                char *buf = ctl_whole("tw_cli", g[i].file, p, arg, &len, &full);
                assert_int_equal(full.r, 0);
                ctl_cut_all(g[i].file, p, arg, buf, len, &full, &cuts);
                struct garbled ctx = { p, arg, &full };
                ctl_garble_lines(g[i].file, buf, len, &how, check_garbled, &ctx);
                ctl_outcome_free(&full);
                free(buf);
        }
}

/* Keys, headers and words in any case and spacing; BOM and CRLF. */
static void any_case_and_spacing(void **state)
{
        (void)state;
        static const char out[] = "\xef\xbb\xbf\r\n"
                                  "/C0/U2   SERIAL    NUMBER   =   ABCD1234EFGH5678IJKL\r\n"
                                  "/c0/u2 parity number = 2\r\n"
                                  "\r\n"
                                  "UNIT  unittype STATUS %RCmpl %V/I/M VPORT STRIPE SIZE(GB)\r\n"
                                  "-------------------------------------------------------\r\n"
                                  "U2 raid-6 ok - - - 128k 1000.00\r\n"
                                  "u2-0 disk ok - - p0 - 250.00\r\n"
                                  "u2-1 disk ok - - p1 - 250.00\r\n"
                                  "u2-2 disk ok - - p2 - 250.00\r\n"
                                  "u2-3 disk ok - - p3 - 250.00\r\n"
                                  "u2-4 disk ok - - p4 - 250.00\r\n"
                                  "u2-5 disk ok - - p5 - 250.00\r\n"
                                  "\r\n";
        struct ctl_list l = { 0 };
        char *err = NULL;
        assert_int_equal(ctl_parse_twcli_unit(out, sizeof out - 1, "tw_cli", "c0/u2", &l, &err), 0);
        assert_int_equal(l.n, 1);
        assert_string_equal(l.v[0].level, "raid6");
        assert_int_equal(l.v[0].strip_bytes, 128 * 1024);
        assert_int_equal(l.v[0].data_disks, 4);
        assert_int_equal(l.v[0].full_stripe_bytes, 4 * 128 * 1024);
        assert_string_equal(l.v[0].state, "optimal");
        assert_string_equal(l.v[0].serial, "ABCD1234EFGH5678IJKL");
        assert_string_equal(l.v[0].scsi_addr, "0:2:0");
        ctl_list_free(&l);
}

/* The words tw_cli prints for a unit's state, and the checks between the
 * unit's lines: a Parity Number against the type, a size that does not fit. */
static void states_and_checks(void **state)
{
        (void)state;
        static const struct {
                const char *status, *state;
        } words[] = {
                { "OK", "optimal" },
                { "VERIFYING", "optimal" },
                { "VERIFY-PAUSED", "optimal" },
                { "INITIALIZING", "other" },
                { "INIT-PAUSED", "other" },
                { "REBUILDING", "rebuilding" },
                { "REBUILD-PAUSED", "rebuilding" },
                { "REBUILD-VERIFY", "rebuilding" },
                { "DEGRADED", "degraded" },
                { "DEGRADED*", "degraded" },
                { "RECOVERY", "recovering" },
                { "INOPERABLE", "failed" },
                { "UNKNOWN", "other" },
        };
        for (size_t i = 0; i < ELEMENTSOF(words); i++) {
                char *out = xasprintf("\nUnit UnitType Status %%RCmpl %%V/I/M Port Stripe Size(GB)\n------\n"
                                      "u0 RAID-5 %s - - - 64K 200.00\nu0-0 DISK OK - - p0 - 100.00\n"
                                      "u0-1 DISK OK - - p1 - 100.00\nu0-2 DISK OK - - p2 - 100.00\n\n",
                                      words[i].status);
                struct ctl_list l = { 0 };
                char *err = NULL;
                assert_int_equal(ctl_parse_twcli_unit(out, strlen(out), "tw_cli", "c0/u0", &l, &err), 0);
                assert_string_equal(l.v[0].state, words[i].state);
                assert_string_equal(l.v[0].state_raw, words[i].status);
                assert_int_equal(l.v[0].full_stripe_bytes, 2 * 65536);
                ctl_list_free(&l);
                free(out);
        }
        /* RAID-5 with "Parity Number = 2": an error; a unit of 3 drives the size of 4: unknown */
        static const char parity[] = "/c0/u0 Parity Number = 2\n\nUnit UnitType Status %RCmpl %V/I/M Port Stripe "
                                     "Size(GB)\n------\nu0 RAID-5 OK - - - 64K 200.00\nu0-0 DISK OK - - p0 - 100.00\n"
                                     "u0-1 DISK OK - - p1 - 100.00\nu0-2 DISK OK - - p2 - 100.00\n\n";
        struct ctl_list l = { 0 };
        char *err = NULL;
        assert_int_equal(ctl_parse_twcli_unit(parity, sizeof parity - 1, "tw_cli", "c0/u0", &l, &err), -EINVAL);
        assert_non_null(strstr(err, "Parity Number = 2"));
        free(err);
        err = NULL;
        static const char size[] = "\nUnit UnitType Status %RCmpl %V/I/M Port Stripe Size(GB)\n------\n"
                                   "u0 RAID-5 OK - - - 64K 300.00\nu0-0 DISK OK - - p0 - 100.00\n"
                                   "u0-1 DISK OK - - p1 - 100.00\nu0-2 DISK OK - - p2 - 100.00\n\n";
        assert_int_equal(ctl_parse_twcli_unit(size, sizeof size - 1, "tw_cli", "c0/u0", &l, &err), 0);
        assert_int_equal(l.v[0].full_stripe_bytes, 0);
        assert_non_null(strstr(l.v[0].note, "a row of its table is missing"));
        ctl_list_free(&l);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(field),
                cmocka_unit_test(cut_and_garbled),
                cmocka_unit_test(any_case_and_spacing),
                cmocka_unit_test(states_and_checks),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
