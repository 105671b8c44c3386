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

#include "ctl_field.h"

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

/* One parse of buf: records or commands, or the failure. */
struct outcome {
        int r;
        struct ctl_list l;
        struct ctl_nexts nx;
};

static void run(const struct ctl_field_parser *p, const char *arg, const char *buf, size_t len, struct outcome *o)
{
        char *err = NULL;
        *o = (struct outcome){ 0 };
        o->r = p->follow ? p->follow(buf, len, p->tool, arg, &o->nx, &err)
                         : p->parse(buf, len, p->tool, arg, &o->l, &err);
        if ((o->r == 0) != (err == NULL))
                fail_msg("returned %d with error \"%s\"", o->r, err ? err : "(none)");
        if (o->r < 0 && (o->l.n || o->nx.n))
                fail_msg("a failed parse left %zu records and %zu commands", o->l.n, o->nx.n);
        free(err);
}

static void outcome_free(struct outcome *o)
{
        ctl_list_free(&o->l);
        ctl_nexts_free(&o->nx);
}

static bool same_figures(const struct ctl_vd *a, const struct ctl_vd *b)
{
        return streq_ptr(a->controller, b->controller) && streq_ptr(a->vd, b->vd) && streq_ptr(a->level, b->level) &&
               a->strip_bytes == b->strip_bytes && a->drives_per_span == b->drives_per_span && a->spans == b->spans &&
               a->data_disks == b->data_disks && a->full_stripe_bytes == b->full_stripe_bytes &&
               streq_ptr(a->state, b->state);
}

static bool has_next(const struct ctl_nexts *x, const struct ctl_next *n)
{
        for (size_t i = 0; i < x->n; i++)
                if (x->v[i].step == n->step && !strcmp(x->v[i].id, n->id))
                        return true;
        return false;
}

/* A cut output: nothing, or the whole output's first records (commands) unchanged. */
static void check_cut(const char *what, const struct outcome *full, const struct outcome *cut)
{
        if (cut->r < 0)
                return;
        if (cut->l.n > full->l.n || cut->nx.n > full->nx.n)
                fail_msg("%s: more records or commands than the whole output", what);
        for (size_t i = 0; i < cut->l.n; i++)
                if (!same_figures(&cut->l.v[i], &full->l.v[i]) || !streq_ptr(cut->l.v[i].serial, full->l.v[i].serial) ||
                    !streq_ptr(cut->l.v[i].scsi_addr, full->l.v[i].scsi_addr))
                        fail_msg("%s: record %zu changed", what, i);
        for (size_t i = 0; i < cut->nx.n; i++)
                if (cut->nx.v[i].step != full->nx.v[i].step || strcmp(cut->nx.v[i].id, full->nx.v[i].id))
                        fail_msg("%s: command %zu changed (%s)", what, i, cut->nx.v[i].id);
}

/* A garbled output: nothing; or records of the whole output with the same
 * figures or an unknown geometry and a note, identifiers the same or
 * missing; or some of its commands (a controller row lost from "show" cannot
 * be told from a machine with one controller less), all of them for "ctl". */
static void check_garbled(const char *what, const char *parser, const struct outcome *full, const struct outcome *g)
{
        if (g->r < 0)
                return;
        for (size_t i = 0; i < g->l.n; i++) {
                const struct ctl_vd *v = &g->l.v[i], *w = NULL;
                for (size_t k = 0; k < full->l.n && !w; k++)
                        if (streq_ptr(full->l.v[k].controller, v->controller) && streq_ptr(full->l.v[k].vd, v->vd))
                                w = &full->l.v[k];
                if (!w)
                        fail_msg("%s: a record %s/%s the whole output does not have", what, v->controller, v->vd);
                bool unknown = !v->data_disks && !v->full_stripe_bytes && v->note;
                if (!same_figures(v, w) && !unknown)
                        fail_msg("%s: %s/%s changed figures (%s %u x %u, %u data) without a note", what, v->controller,
                                 v->vd, v->level ? v->level : "-", v->drives_per_span, v->spans, v->data_disks);
                if ((v->serial && !streq_ptr(v->serial, w->serial)) || !streq_ptr(v->scsi_addr, w->scsi_addr))
                        fail_msg("%s: %s/%s changed identifiers", what, v->controller, v->vd);
        }
        for (size_t i = 0; i < g->nx.n; i++)
                if (!has_next(&full->nx, &g->nx.v[i]))
                        fail_msg("%s: command %u:%s the whole output does not lead to", what, g->nx.v[i].step,
                                 g->nx.v[i].id);
        if (!strcmp(parser, "ctl") && g->nx.n != full->nx.n)
                fail_msg("%s: %zu units of %zu", what, g->nx.n, full->nx.n);
}

static void append(char *o, size_t *n, const char *s, size_t len)
{
        memcpy(o + *n, s, len);
        *n += len;
}

/* The garbled variants of line i: kind 0 drops it, 1 doubles it, 2 replaces
 * it with noise, 3 swaps it with the next, 4 puts a NUL at its start. NULL
 * past the last line. */
static char *garble(const char *buf, size_t len, size_t i, int kind, size_t *out_len)
{
        size_t at = 0;
        for (size_t k = 0; k < i && at < len; k++) {
                const char *nl = memchr(buf + at, '\n', len - at);
                at = nl ? (size_t)(nl - buf) + 1 : len;
        }
        if (at >= len)
                return NULL;
        const char *nl = memchr(buf + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - buf) + 1 : len;
        const char *nl2 = end < len ? memchr(buf + end, '\n', len - end) : NULL;
        size_t end2 = nl2 ? (size_t)(nl2 - buf) + 1 : len;
        static const char noise[] = "#&%$ !? 7\n";
        char *o = xmalloc(2 * len + sizeof noise);
        size_t n = 0;
        append(o, &n, buf, at);
        if (kind == 1 || kind == 4)
                append(o, &n, buf + at, end - at);
        if (kind == 1)
                append(o, &n, buf + at, end - at);
        if (kind == 2)
                append(o, &n, noise, sizeof noise - 1);
        if (kind == 3) {
                append(o, &n, buf + end, end2 - end);
                append(o, &n, buf + at, end - at);
        }
        if (kind == 4)
                o[at] = 0;
        size_t rest = kind == 3 ? end2 : end;
        append(o, &n, buf + rest, len - rest);
        *out_len = n;
        return o;
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
        struct good g[64];
        size_t n = good_fixtures(g, 64);
        assert_true(n >= 12);
        for (size_t i = 0; i < n; i++) {
                char dir[1024], path[1200], what[1400];
                ctl_field_dir("tw_cli", dir, sizeof dir);
                snprintf(path, sizeof path, "%.1023s/%.127s", dir, g[i].file);
                size_t len;
                char *buf = ctl_field_read(path, &len);
                const struct ctl_field_parser *p = ctl_field_parser(map, g[i].parser);
                const char *arg = strcmp(g[i].arg, "-") ? g[i].arg : NULL;
                struct outcome full, o;
                run(p, arg, buf, len, &full);
                assert_int_equal(full.r, 0);
                for (size_t cut = 0; cut < len; cut++) {
                        char *part = xmalloc(cut + 1);
                        memcpy(part, buf, cut);
                        snprintf(what, sizeof what, "%.127s cut at byte %zu", g[i].file, cut);
                        run(p, arg, part, cut, &o);
                        check_cut(what, &full, &o);
                        outcome_free(&o);
                        free(part);
                }
                for (size_t line = 0;; line++) {
                        size_t glen;
                        char *gb = garble(buf, len, line, 0, &glen);
                        if (!gb)
                                break;
                        free(gb);
                        for (int kind = 0; kind < 5; kind++) {
                                gb = garble(buf, len, line, kind, &glen);
                                snprintf(what, sizeof what, "%.127s line %zu garbled (%d)", g[i].file, line + 1, kind);
                                run(p, arg, gb, glen, &o);
                                check_garbled(what, g[i].parser, &full, &o);
                                outcome_free(&o);
                                free(gb);
                        }
                }
                outcome_free(&full);
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
