/* SPDX-License-Identifier: GPL-2.0-or-later
 * 3ware (AMCC, later LSI) tw_cli into the commands one output leads to and
 * the records of a unit. Pure: bytes in, commands or records or one error out.
 *
 * The steps (the tw_cli row of ctl_tools.c): 0 "tw_cli show" lists the
 * controllers ("c0", "c2"), 1 "tw_cli /cX show" a controller's units, 2
 * "tw_cli /cX/uY show all" one unit: its "/cX/uY key = value" lines, then its
 * table of subunits (a RAID-5's drives, a RAID-10's mirrors and their drives).
 *
 * What every tw_cli version from 9.3 to 10.2 prints (7xxx/8xxx, 9500S,
 * 9550SX, 9650SE, 9690SA, 9750; tests/fixtures/controller/field/tw_cli/
 * names the captures each layout follows):
 *  - tables of a header, a rule of dashes, rows of one word per column, and
 *    the blank line tw_cli prints after each table: a table that ends without
 *    it is cut short. Columns are found by their header words, which differ
 *    by version ("%Cmpl" or "%RCmpl %V/I/M", "Port" or "VPort", "Blocks");
 *  - "No controller found." when there is none; "Error: (CLI:003) ..." when a
 *    command fails.
 * The drivers (3w-xxxx, 3w-9xxx, 3w-sas) put unit Y on SCSI channel 0, target
 * Y, and its volume K (autocarving) at LUN K. */
#include "discover/ctl_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define TW_MAX_ROWS 512 /* a 9750 has at most 128 drives, 32 per unit */

enum tw_table { TW_NONE, TW_CTL, TW_UNIT, TW_PORT, TW_OTHER };
enum tw_event { TW_EV_LINE, TW_EV_ROW, TW_EV_END };

/* The line reader with tw_cli's tables on top. */
struct tw_reader {
        struct ctl_text c;
        enum tw_table table; /* the table being read (TW_NONE outside one) */
        enum tw_table ended; /* at TW_EV_END: the table that ended */
        bool ruled;          /* its rule of dashes has been read */
        unsigned head_line;
        size_t rows;
        struct ctl_words head, row;
};

static void tw_init(struct tw_reader *r, const char *tool, const char *buf, size_t len)
{
        *r = (struct tw_reader){ 0 };
        ctl_text_init(&r->c, tool, buf, len);
}

static int tw_finish(struct tw_reader *r, struct ctl_list *l, size_t n0, char **ret_err)
{
        free(r->head.copy);
        free(r->row.copy);
        r->head.copy = r->row.copy = NULL;
        struct ctl_list none = { 0 };
        return ctl_text_finish(&r->c, l ? l : &none, n0, ret_err);
}

/* "-----": the rule under a table's header. */
static bool tw_rule(const char *s)
{
        size_t n = strspn(s, "-");
        return n >= 4 && !s[n];
}

static enum tw_table tw_header(const struct ctl_words *h)
{
        if (h->n < 2 || h->n > CTL_WORDS)
                return TW_NONE;
        if (!strcasecmp(h->w[0], "Ctl") && !strcasecmp(h->w[1], "Model"))
                return TW_CTL;
        if (!strcasecmp(h->w[0], "Unit") && !strcasecmp(h->w[1], "UnitType"))
                return TW_UNIT;
        if ((!strcasecmp(h->w[0], "Port") || !strcasecmp(h->w[0], "VPort")) && !strcasecmp(h->w[1], "Status"))
                return TW_PORT;
        return TW_NONE;
}

/* "Error: (CLI:003) Specified controller does not exist.": tw_cli's own failure. */
static bool tw_error_line(const char *s)
{
        if (strncasecmp(s, "error", 5))
                return false;
        s += 5;
        return s[strspn(s, " \t")] == ':';
}

static const char *tw_table_name(enum tw_table t)
{
        return t == TW_CTL ? "controller" : t == TW_UNIT ? "unit" : "drive";
}

/* The next line that matters: TW_EV_LINE outside a table, TW_EV_ROW for a row
 * of a known table (words in r->row), TW_EV_END when one ends (r->ended,
 * r->rows). Tables of other headers (BBU, enclosure) are skipped. 1, 0 at
 * the end, -EINVAL. */
static int tw_next(struct tw_reader *r, struct ctl_line *t, enum tw_event *ev)
{
        for (;;) {
                int k = ctl_text_next(&r->c, t, '=');
                if (k < 0)
                        return k;
                if (k == 0) {
                        if (r->table == TW_NONE || r->table == TW_OTHER)
                                return 0;
                        return ctl_text_fail(&r->c,
                                             "the %s table of line %u ends without the blank line tw_cli prints "
                                             "after a table: the output is cut short; run the command again",
                                             tw_table_name(r->table), r->head_line);
                }
                const char *s = t->raw + strspn(t->raw, " \t");
                if (tw_error_line(s)) {
                        _cleanup_free_ char *p = ctl_printable(s, 160);
                        return ctl_text_fail(&r->c, "tw_cli failed: \"%s\"", p);
                }
                if (r->table != TW_NONE && !r->ruled) {
                        if (!tw_rule(s))
                                return ctl_text_fail(&r->c,
                                                     "the %s table header of line %u is not followed by its rule "
                                                     "of dashes: the output is garbled",
                                                     tw_table_name(r->table), r->head_line);
                        r->ruled = true;
                        continue;
                }
                if (!*s) {
                        if (r->table == TW_NONE)
                                continue;
                        r->ended = r->table;
                        r->table = TW_NONE;
                        if (r->ended == TW_OTHER)
                                continue;
                        *ev = TW_EV_END;
                        return 1;
                }
                if (r->table == TW_OTHER)
                        continue;
                if (r->table != TW_NONE) {
                        if (++r->rows > TW_MAX_ROWS)
                                return ctl_text_fail(&r->c,
                                                     "more than %d rows in the table of line %u: the output is "
                                                     "garbled",
                                                     TW_MAX_ROWS, r->head_line);
                        ctl_words_split(&r->row, s);
                        *ev = TW_EV_ROW;
                        return 1;
                }
                if (tw_rule(s)) { /* under a header this file does not read (BBU, enclosure): skip that table */
                        r->table = TW_OTHER;
                        r->ruled = true;
                        r->head_line = t->no - 1;
                        continue;
                }
                ctl_words_split(&r->head, s);
                enum tw_table h = tw_header(&r->head);
                if (h != TW_NONE) {
                        r->table = h;
                        r->ruled = false;
                        r->rows = 0;
                        r->head_line = t->no;
                        continue;
                }
                *ev = TW_EV_LINE;
                return 1;
        }
}

/* "12" of s[0..n): 0 to 9999 in decimal without a leading zero ("c9999/u9999" stays short for an argv). */
static bool tw_num(const char *s, size_t n, unsigned *ret)
{
        if (!n || n > 4 || (n > 1 && s[0] == '0'))
                return false;
        unsigned v = 0;
        for (size_t i = 0; i < n; i++) {
                if (!isdigit((unsigned char)s[i]))
                        return false;
                v = v * 10 + (unsigned)(s[i] - '0');
        }
        *ret = v;
        return true;
}

/* "c12" with letter 'c' (either case): 12. */
static bool tw_id(const char *w, char letter, unsigned *ret)
{
        return w && tolower((unsigned char)w[0]) == letter && tw_num(w + 1, strlen(w + 1), ret);
}

/* The object a "/c0/u1 serial number = ..." line is about: its controller,
 * its unit (*has_unit false for "/c0 Model = ..." or "/c0/p1 ..."). False
 * for lines that do not start with "/cN". */
static bool tw_path(const char *key, unsigned *ctl, unsigned *unit, bool *has_unit)
{
        *has_unit = false;
        if (key[0] != '/' || tolower((unsigned char)key[1]) != 'c')
                return false;
        const char *s = key + 2;
        size_t n = strspn(s, "0123456789");
        if (!tw_num(s, n, ctl) || (s[n] && !strchr(" \t/", s[n])))
                return false;
        s += n;
        if (s[0] == '/' && tolower((unsigned char)s[1]) == 'u') {
                size_t m = strspn(s + 2, "0123456789");
                *has_unit = tw_num(s + 2, m, unit) && (!s[2 + m] || strchr(" \t", s[2 + m]));
        }
        return true;
}

/* The first word of a line, at most 7 bytes of it: enough to tell "c12" or "u3-1". */
static void tw_first_word(const char *raw, char w[static 8])
{
        snprintf(w, 8, "%s", raw + strspn(raw, " \t"));
        w[strcspn(w, " \t")] = 0;
}

static bool tw_says_no_controller(const char *raw)
{
        const char *s = raw + strspn(raw, " \t");
        return ctl_key_prefix(s, "No controller found", NULL);
}

/* ---- step 0: "tw_cli show" ------------------------------------------------------------ */

static int tw_show_row(struct tw_reader *r, struct ctl_nexts *found)
{
        unsigned no;
        if (!tw_id(r->row.w[0], 'c', &no)) {
                _cleanup_free_ char *p = ctl_printable(r->row.n ? r->row.w[0] : "", 40);
                return ctl_text_fail(&r->c,
                                     "\"%s\" in the controller table is not a controller id such as \"c0\": the "
                                     "output is garbled",
                                     p);
        }
        char id[16];
        snprintf(id, sizeof id, "c%u", no);
        for (size_t i = 0; i < found->n; i++)
                if (!strcmp(found->v[i].id, id))
                        return ctl_text_fail(&r->c, "controller %s is listed twice: the output is garbled", id);
        ctl_nexts_add(found, 1, id);
        return 0;
}

int ctl_follow_twcli_show(const char *buf, size_t len, const char *tool, const char *id, struct ctl_nexts *next,
                          char **ret_err)
{
        (void)id; /* the first command */
        struct tw_reader r;
        tw_init(&r, tool, buf, len);
        struct ctl_nexts found = { 0 };
        bool none_said = false;
        struct ctl_line t;
        enum tw_event ev;
        unsigned no;
        int k;
        while ((k = tw_next(&r, &t, &ev)) > 0) {
                if (ev == TW_EV_LINE) {
                        none_said = none_said || tw_says_no_controller(t.raw);
                        char w[8];
                        tw_first_word(t.raw, w);
                        if (tw_id(w, 'c', &no) && ctl_text_fail(&r.c,
                                                                "controller row \"%s\" outside the controller "
                                                                "table: the output is garbled",
                                                                w) < 0)
                                break;
                } else if (r.table == TW_CTL && ev == TW_EV_ROW) {
                        if (tw_show_row(&r, &found) < 0)
                                break;
                } else if (ev == TW_EV_END && r.ended == TW_CTL && !r.rows) {
                        ctl_text_fail(&r.c,
                                      "the controller table of line %u has no row: the output is cut short; run "
                                      "\"tw_cli show\" again",
                                      r.head_line);
                        break;
                }
        }
        if (k == 0 && !found.n && !none_said)
                ctl_text_fail(&r.c,
                              "no controller table (\"Ctl Model ...\") and no \"No controller found.\": is it the "
                              "output of \"tw_cli show\"?");
        else if (k == 0 && found.n && none_said)
                ctl_text_fail(&r.c, "both controllers and \"No controller found.\": the output is garbled");
        int ret = tw_finish(&r, NULL, 0, ret_err);
        for (size_t i = 0; ret == 0 && i < found.n; i++)
                ctl_nexts_add(next, found.v[i].step, found.v[i].id);
        ctl_nexts_free(&found);
        return ret;
}

/* ---- step 1: "tw_cli /cX show" ----------------------------------------------------------- */

struct tw_ctl {
        unsigned ctl;
        struct ctl_nexts units;
        unsigned *named; /* the units the drive table names */
        size_t n_named;
        size_t unit_col; /* the drive table's "Unit" column, SIZE_MAX: none */
        bool unit_header, drives_done;
        unsigned unit_header_line;
};

static bool tw_has_unit(const struct tw_ctl *x, unsigned u)
{
        char id[24];
        snprintf(id, sizeof id, "c%u/u%u", x->ctl, u);
        for (size_t i = 0; i < x->units.n; i++)
                if (!strcmp(x->units.v[i].id, id))
                        return true;
        return false;
}

static int tw_ctl_unit_row(struct tw_reader *r, struct tw_ctl *x)
{
        unsigned u;
        if (!tw_id(r->row.w[0], 'u', &u)) {
                _cleanup_free_ char *p = ctl_printable(r->row.n ? r->row.w[0] : "", 40);
                return ctl_text_fail(&r->c,
                                     "\"%s\" in the unit table is not a unit id such as \"u0\": is it the output "
                                     "of \"tw_cli /c%u show\"?",
                                     p, x->ctl);
        }
        if (r->row.n != r->head.n)
                return ctl_text_fail(&r->c,
                                     "unit u%u has %zu fields, its table's header (line %u) %zu: the output is "
                                     "garbled",
                                     u, r->row.n, r->head_line, r->head.n);
        if (tw_has_unit(x, u))
                return ctl_text_fail(&r->c, "unit u%u is listed twice: the output is garbled", u);
        char id[24];
        snprintf(id, sizeof id, "c%u/u%u", x->ctl, u);
        ctl_nexts_add(&x->units, 2, id);
        return 0;
}

/* A drive row: which unit the drive belongs to ("-": none). The columns
 * before "Unit" (Port, Status) are one word each; "Size" after it is two. */
static void tw_ctl_port_row(struct tw_reader *r, struct tw_ctl *x)
{
        if (r->rows == 1) {
                x->unit_col = SIZE_MAX;
                for (size_t i = 2; i < r->head.n && i < CTL_WORDS && x->unit_col == SIZE_MAX; i++)
                        if (!strcasecmp(r->head.w[i], "Unit"))
                                x->unit_col = i;
        }
        unsigned u;
        if (x->unit_col < r->row.n && r->row.n <= CTL_WORDS && tw_id(r->row.w[x->unit_col], 'u', &u)) {
                x->named = xrealloc(x->named, (x->n_named + 1) * sizeof *x->named);
                x->named[x->n_named++] = u;
        }
}

static int tw_ctl_event(struct tw_reader *r, struct tw_ctl *x, const struct ctl_line *t, enum tw_event ev)
{
        unsigned c, u;
        bool has_unit;
        if (ev == TW_EV_LINE) {
                if (tw_path(t->key, &c, &u, &has_unit) && c != x->ctl)
                        return ctl_text_fail(&r->c, "the line is about /c%u, but the command was for c%u", c, x->ctl);
                char w[8];
                tw_first_word(t->raw, w);
                if (tw_id(w, 'u', &u))
                        return ctl_text_fail(&r->c, "unit row \"u%u\" outside the unit table: the output is garbled",
                                             u);
                return 0;
        }
        if (ev == TW_EV_ROW && r->table == TW_UNIT)
                return tw_ctl_unit_row(r, x);
        if (ev == TW_EV_ROW && r->table == TW_PORT)
                tw_ctl_port_row(r, x);
        if (ev == TW_EV_END && r->ended == TW_UNIT) {
                if (x->unit_header)
                        return ctl_text_fail(&r->c, "a second unit table: the output is garbled");
                x->unit_header = true;
                x->unit_header_line = r->head_line;
        }
        if (ev == TW_EV_END && r->ended == TW_PORT)
                x->drives_done = true;
        return 0;
}

/* Every unit a drive names is in the unit table; no unit at all only when
 * the drive table, complete, names none (tw_cli prints no unit table then). */
static void tw_ctl_check(struct tw_reader *r, struct tw_ctl *x)
{
        for (size_t i = 0; i < x->n_named; i++)
                if (!tw_has_unit(x, x->named[i])) {
                        ctl_text_fail(&r->c,
                                      "the drive table names unit u%u, which the unit table does not list: the "
                                      "output is cut short or garbled; run \"tw_cli /c%u show\" again",
                                      x->named[i], x->ctl);
                        return;
                }
        if (x->units.n || x->drives_done)
                return;
        if (x->unit_header)
                ctl_text_fail(&r->c,
                              "the unit table of line %u has no row and no drive table follows: the output is "
                              "cut short; run \"tw_cli /c%u show\" again",
                              x->unit_header_line, x->ctl);
        else
                ctl_text_fail(&r->c,
                              "neither a unit table (\"Unit UnitType ...\") nor a drive table (\"Port Status "
                              "...\", \"VPort Status ...\"): is it the output of \"tw_cli /c%u show\"?",
                              x->ctl);
}

int ctl_follow_twcli_ctl(const char *buf, size_t len, const char *tool, const char *id, struct ctl_nexts *next,
                         char **ret_err)
{
        struct tw_reader r;
        tw_init(&r, tool, buf, len);
        struct tw_ctl x = { .unit_col = SIZE_MAX };
        struct ctl_line t;
        enum tw_event ev;
        int k = -EINVAL;
        if (!tw_id(id, 'c', &x.ctl)) {
                _cleanup_free_ char *p = ctl_printable(id ? id : "(none)", 24);
                ctl_text_fail(&r.c, "the controller id \"%s\" is not one such as \"c0\"", p);
        } else
                while ((k = tw_next(&r, &t, &ev)) > 0)
                        if (tw_ctl_event(&r, &x, &t, ev) < 0)
                                break;
        if (k == 0)
                tw_ctl_check(&r, &x);
        int ret = tw_finish(&r, NULL, 0, ret_err);
        for (size_t i = 0; ret == 0 && i < x.units.n; i++)
                ctl_nexts_add(next, x.units.v[i].step, x.units.v[i].id);
        ctl_nexts_free(&x.units);
        free(x.named);
        return ret;
}

/* ---- step 2: "tw_cli /cX/uY show all" ---------------------------------------------------- */

struct tw_group {
        unsigned no, disks;
        char *type;
};

/* What the output says of the unit. */
struct tw_unit {
        unsigned ctl, unit;
        bool ctl_known, unit_known;
        unsigned ctl_line, unit_line; /* the lines that named them, 0: the command */
        char *serial;
        unsigned serial_line, parity, parity_line, volumes;
        /* its table */
        size_t col_type, col_status, col_port, col_stripe, col_size;
        bool table, table_done, have_row;
        unsigned table_line, row_line;
        char *type, *status, *port;
        uint64_t strip;
        double size, disk_size; /* GB as printed, 0: not a number; the smallest drive's */
        unsigned direct, volume_rows;
        struct tw_group *groups;
        size_t n_groups;
        char **ids; /* the row ids seen */
        size_t n_ids;
        struct ctl_wc wc; /* "Write Cache = on" */
};

static void tw_unit_free(struct tw_unit *u)
{
        free(u->serial);
        free(u->type);
        free(u->status);
        free(u->port);
        for (size_t i = 0; i < u->n_groups; i++)
                free(u->groups[i].type);
        free(u->groups);
        for (size_t i = 0; i < u->n_ids; i++)
                free(u->ids[i]);
        free(u->ids);
        ctl_wc_clear(&u->wc);
}

static const char *tw_source(unsigned line, char buf[static 24])
{
        if (!line)
                return "the command";
        snprintf(buf, 24, "line %u", line);
        return buf;
}

/* The controller and unit named at line (0: the command) agree with what
 * the command and the lines before named. */
static int tw_expect(struct tw_reader *r, struct tw_unit *u, const unsigned *ctl, const unsigned *unit, unsigned line)
{
        char a[24], b[24];
        if (ctl && u->ctl_known && *ctl != u->ctl)
                return ctl_text_fail(&r->c,
                                     "%s is about controller c%u, but %s about c%u: the output is not the one of "
                                     "this command",
                                     tw_source(line, a), *ctl, tw_source(u->ctl_line, b), u->ctl);
        if (unit && u->unit_known && *unit != u->unit)
                return ctl_text_fail(&r->c,
                                     "%s is about unit u%u, but %s about u%u: the output is not the one of this "
                                     "command",
                                     tw_source(line, a), *unit, tw_source(u->unit_line, b), u->unit);
        if (ctl && !u->ctl_known) {
                u->ctl = *ctl;
                u->ctl_known = true;
                u->ctl_line = line;
        }
        if (unit && !u->unit_known) {
                u->unit = *unit;
                u->unit_known = true;
                u->unit_line = line;
        }
        return 0;
}

/* The command's id: "c0/u1", or "c0" (the unit then from the output). */
static int tw_unit_arg(struct tw_reader *r, struct tw_unit *u, const char *id)
{
        unsigned c, n;
        bool has_unit;
        char canon[24] = "";
        _cleanup_free_ char *path = xasprintf("/%s", id);
        if (tw_path(path, &c, &n, &has_unit))
                snprintf(canon, sizeof canon, has_unit ? "c%u/u%u" : "c%u", c, n);
        if (!*canon || strcasecmp(canon, id)) {
                _cleanup_free_ char *p = ctl_printable(id, 24);
                return ctl_text_fail(&r->c, "the unit id \"%s\" is not one such as \"c0/u1\"", p);
        }
        return tw_expect(r, u, &c, has_unit ? &n : NULL, 0);
}

/* "1117.56": a size in GB as tw_cli prints it (no locale), 0 if not one. */
static double tw_gb(const char *s)
{
        double v = 0, scale = 1;
        bool dot = false, digit = false;
        for (; *s; s++) {
                if (*s == '.' && !dot)
                        dot = true;
                else if (isdigit((unsigned char)*s) && v < 1e12) {
                        digit = true;
                        if (dot)
                                v += (scale /= 10) * (*s - '0');
                        else
                                v = v * 10 + (*s - '0');
                } else
                        return 0;
        }
        return digit ? v : 0;
}

/* "/c0/u1 serial number = ...", "/c0/u1 Parity Number = 2", "/c0/u1 volume(s) = 1". */
static int tw_unit_key(struct tw_reader *r, struct tw_unit *u, const struct ctl_line *t)
{
        unsigned c, n;
        bool has_unit;
        if (!tw_path(t->key, &c, &n, &has_unit))
                return 0;
        if (tw_expect(r, u, &c, has_unit ? &n : NULL, t->no) < 0)
                return -EINVAL;
        const char *key = t->key + strcspn(t->key, " \t");
        key += strspn(key, " \t");
        if (!has_unit || !t->value)
                return 0;
        if (ctl_key_eq(key, "serial number")) {
                if (u->serial && strcmp(u->serial, t->value))
                        return ctl_text_fail(&r->c,
                                             "a second serial number, other than the one of line %u: the output "
                                             "is garbled",
                                             u->serial_line);
                free(u->serial);
                u->serial = xstrdup(t->value);
                u->serial_line = t->no;
        } else if (ctl_key_eq(key, "Parity Number")) { /* a RAID-6's 2; other words ("N/A") say nothing */
                if (tw_num(t->value, strlen(t->value), &u->parity))
                        u->parity_line = t->no;
        } else if (ctl_key_eq(key, "volume(s)") && !tw_num(t->value, strlen(t->value), &u->volumes))
                u->volumes = 0;
        ctl_wc_take(&u->wc, ctl_wc_twcli_keys, key, t->value);
        return 0;
}

static size_t tw_col(const struct ctl_words *h, const char *const *names)
{
        for (size_t i = 0; i < h->n && i < CTL_WORDS; i++)
                for (size_t k = 0; names[k]; k++)
                        if (!strcasecmp(h->w[i], names[k]))
                                return i;
        return SIZE_MAX;
}

/* The columns of the unit's table; a table without (V)Port is the
 * controller's unit summary ("/cX show"), not the unit's own. */
static int tw_unit_header(struct tw_reader *r, struct tw_unit *u)
{
        if (u->table)
                return ctl_text_fail(&r->c,
                                     "a second unit table (line %u) after the one of line %u: the output is garbled",
                                     r->head_line, u->table_line);
        u->table = true;
        u->table_line = r->head_line;
        u->col_type = 1;
        u->col_status = tw_col(&r->head, (const char *const[]){ "Status", NULL });
        u->col_port = tw_col(&r->head, (const char *const[]){ "Port", "VPort", NULL });
        u->col_stripe = tw_col(&r->head, (const char *const[]){ "Stripe", NULL });
        u->col_size = SIZE_MAX;
        for (size_t i = 0; i < r->head.n && i < CTL_WORDS && u->col_size == SIZE_MAX; i++)
                if (!strncasecmp(r->head.w[i], "Size", 4))
                        u->col_size = i;
        if (u->col_status == SIZE_MAX || u->col_stripe == SIZE_MAX)
                return ctl_text_fail(&r->c,
                                     "the unit table of line %u has no \"Status\" or \"Stripe\" column: the output "
                                     "is garbled",
                                     r->head_line);
        if (u->col_port == SIZE_MAX)
                return ctl_text_fail(&r->c,
                                     "the unit table of line %u has no \"Port\" or \"VPort\" column: it is the "
                                     "controller's summary (\"tw_cli /cX show\"), not \"tw_cli /cX/uY show all\"",
                                     r->head_line);
        return 0;
}

/* A row's first word: "u0" (depth 0), "u0-2" (1), "u0-2-1" (2), "u0/v1". */
struct tw_rowid {
        unsigned unit, a, b, depth;
        bool volume;
};

static bool tw_rowid(const char *w, struct tw_rowid *id)
{
        *id = (struct tw_rowid){ 0 };
        if (tolower((unsigned char)w[0]) != 'u')
                return false;
        const char *s = w + 1;
        size_t n = strspn(s, "0123456789");
        if (!tw_num(s, n, &id->unit))
                return false;
        s += n;
        if (s[0] == '/' && tolower((unsigned char)s[1]) == 'v') {
                id->volume = true;
                return tw_num(s + 2, strlen(s + 2), &id->a);
        }
        unsigned *part[2] = { &id->a, &id->b };
        while (*s == '-' && id->depth < 2) {
                s++;
                n = strspn(s, "0123456789");
                if (!tw_num(s, n, part[id->depth]))
                        return false;
                id->depth++;
                s += n;
        }
        return !*s;
}

static struct tw_group *tw_group(struct tw_unit *u, unsigned no)
{
        for (size_t i = 0; i < u->n_groups; i++)
                if (u->groups[i].no == no)
                        return &u->groups[i];
        return NULL;
}

/* A drive (DISK) of the unit: its size for the size check. */
static void tw_unit_disk(struct tw_unit *u, const struct ctl_words *w)
{
        double gb = u->col_size < w->n ? tw_gb(w->w[u->col_size]) : 0;
        if (gb > 0 && (u->disk_size == 0 || gb < u->disk_size))
                u->disk_size = gb;
}

/* The unit's own row, the first of its table. */
static int tw_unit_own_row(struct tw_reader *r, struct tw_unit *u, const struct tw_rowid *id)
{
        const struct ctl_words *w = &r->row;
        if (id->depth || id->volume)
                return ctl_text_fail(&r->c,
                                     "the unit table starts with \"%s\", not with the unit's own row: the output "
                                     "is garbled",
                                     w->w[0]);
        if (tw_expect(r, u, NULL, &id->unit, r->c.no) < 0)
                return -EINVAL;
        const char *stripe = w->w[u->col_stripe];
        if (strcmp(stripe, "-") && strcasecmp(stripe, "N/A") && ctl_field_size(&r->c, "Stripe", stripe, &u->strip) < 0)
                return -EINVAL;
        u->type = xstrdup(w->w[u->col_type]);
        u->status = xstrdup(w->w[u->col_status]);
        u->port = xstrdup(w->w[u->col_port]);
        u->size = u->col_size < w->n ? tw_gb(w->w[u->col_size]) : 0;
        u->have_row = true;
        u->row_line = r->c.no;
        return 0;
}

static int tw_unit_row(struct tw_reader *r, struct tw_unit *u)
{
        const struct ctl_words *w = &r->row;
        struct tw_rowid id;
        if (w->n != r->head.n)
                return ctl_text_fail(&r->c,
                                     "the row has %zu fields, the header of its table (line %u) %zu: the output "
                                     "is garbled",
                                     w->n, r->head_line, r->head.n);
        _cleanup_free_ char *name = ctl_printable(w->w[0], 24);
        if (!tw_rowid(w->w[0], &id))
                return ctl_text_fail(&r->c,
                                     "\"%s\" is not a row of a unit's table (uN, uN-M, uN-M-K, uN/vK): the output "
                                     "is garbled",
                                     name);
        for (size_t i = 0; i < u->n_ids; i++)
                if (!strcasecmp(u->ids[i], w->w[0]))
                        return ctl_text_fail(&r->c, "row \"%s\" appears twice: the output is garbled", name);
        u->ids = xrealloc(u->ids, (u->n_ids + 1) * sizeof *u->ids);
        u->ids[u->n_ids++] = xstrdup(w->w[0]);
        if (!u->have_row)
                return tw_unit_own_row(r, u, &id);
        if (id.unit != u->unit)
                return ctl_text_fail(&r->c, "row \"%s\" is not of unit u%u: the output is garbled", name, u->unit);
        const char *type = w->w[u->col_type];
        bool disk = !strcasecmp(type, "DISK");
        if (id.volume) {
                u->volume_rows++;
        } else if (id.depth == 1 && disk) {
                u->direct++;
                tw_unit_disk(u, w);
        } else if (id.depth == 1) {
                u->groups = xrealloc(u->groups, (u->n_groups + 1) * sizeof *u->groups);
                u->groups[u->n_groups++] = (struct tw_group){ .no = id.a, .type = ctl_printable(type, 16) };
        } else {
                struct tw_group *g = tw_group(u, id.a);
                if (!g)
                        return ctl_text_fail(&r->c,
                                             "drive row \"%s\" comes before its subunit u%u-%u: the output is "
                                             "garbled",
                                             name, u->unit, id.a);
                if (!disk)
                        return ctl_text_fail(&r->c, "\"%s\" is not a drive (DISK), the only kind under a subunit",
                                             name);
                g->disks++;
                tw_unit_disk(u, w);
        }
        return 0;
}

static int tw_unit_event(struct tw_reader *r, struct tw_unit *u, const struct ctl_line *t, enum tw_event ev)
{
        if (ev == TW_EV_LINE) {
                if (tw_unit_key(r, u, t) < 0)
                        return -EINVAL;
                char w[24];
                snprintf(w, sizeof w, "%s", t->raw + strspn(t->raw, " \t"));
                w[strcspn(w, " \t")] = 0;
                struct tw_rowid id;
                if (u->unit_known && tw_rowid(w, &id) && id.unit == u->unit) {
                        _cleanup_free_ char *p = ctl_printable(w, 24);
                        return ctl_text_fail(&r->c, "row \"%s\" outside the unit table: the output is garbled", p);
                }
                return 0;
        }
        if (ev == TW_EV_ROW && r->table == TW_UNIT) {
                if (r->rows == 1 && tw_unit_header(r, u) < 0)
                        return -EINVAL;
                return tw_unit_row(r, u);
        }
        if (ev == TW_EV_END && r->ended == TW_UNIT) {
                if (!r->rows)
                        return ctl_text_fail(&r->c,
                                             "the unit table of line %u has no row: the output is cut short; run "
                                             "the command again",
                                             r->head_line);
                u->table_done = true;
        }
        return 0;
}

static bool tw_level_is(const struct ctl_vd *v, const char *level)
{
        return v->level && !strcmp(v->level, level);
}

/* Drives per span and spans from the subunit rows: a RAID-0/1/5/6 lists its
 * drives (u0-0 DISK ...), a RAID-10/50 its mirrors or parity groups (u0-0
 * RAID-1) and their drives (u0-0-0 DISK). Anything else stays unknown. */
static void tw_layout(const struct tw_unit *u, struct ctl_vd *v)
{
        bool nested = tw_level_is(v, "raid10") || tw_level_is(v, "raid50") || tw_level_is(v, "raid60");
        const char *group_type = tw_level_is(v, "raid10") ? "RAID-1" : tw_level_is(v, "raid50") ? "RAID-5" : "RAID-6";
        if (!strncasecmp(u->status, "MIGRAT", 6) || !strcasecmp(u->type, "Migrator")) {
                ctl_add_note(v, xstrdup("the unit is migrating to another layout: its geometry is known only when the "
                                        "migration ends; run storprov again then"));
                return;
        }
        if (tw_level_is(v, "simple")) {
                unsigned p;
                if (tw_id(u->port, 'p', &p))
                        v->drives_per_span = v->spans = 1;
                return;
        }
        if (!v->level)
                return;
        if (nested && !u->direct && u->n_groups) {
                for (size_t i = 0; i < u->n_groups; i++)
                        if (strcasecmp(u->groups[i].type, group_type) || !u->groups[i].disks ||
                            u->groups[i].disks != u->groups[0].disks) {
                                ctl_add_note(v, xasprintf("subunit u%u-%u is a %s of %u drives, not a %s like the "
                                                          "others: geometry unknown",
                                                          u->unit, u->groups[i].no, u->groups[i].type,
                                                          u->groups[i].disks, group_type));
                                return;
                        }
                v->drives_per_span = u->groups[0].disks;
                v->spans = (unsigned)u->n_groups;
        } else if (!nested && !u->n_groups && u->direct) {
                v->drives_per_span = u->direct;
                v->spans = 1;
        } else
                ctl_add_note(v, xasprintf("a %s whose table lists %u drives and %zu subunits is not a layout tw_cli "
                                          "shows: geometry unknown",
                                          v->level, u->direct, u->n_groups));
}

/* The unit's size against its drives': a row lost from the table (a garbled
 * capture) would change the count, never the sizes tw_cli printed. A unit is
 * its data drives × the smallest member; 2 % covers tw_cli's rounding and is
 * less than one drive of 32. */
static void tw_size_check(const struct tw_unit *u, struct ctl_vd *v)
{
        if (!v->data_disks || u->size <= 0 || u->disk_size <= 0)
                return;
        double want = u->disk_size * v->data_disks;
        if (u->size > want * 1.02 || u->size < want * 0.98) {
                ctl_add_note(v,
                             xasprintf("the unit's size (%.2f GB) is not its %u data drives of %.2f GB: a row of its "
                                       "table is missing or garbled; geometry unknown",
                                       u->size, v->data_disks, u->disk_size));
                v->drives_per_span = v->spans = v->data_disks = 0;
                v->full_stripe_bytes = 0;
        }
}

static int tw_unit_record(struct tw_reader *r, struct tw_unit *u, struct ctl_list *l)
{
        if (!strcasecmp(u->type, "SPARE")) /* a hot spare: no block device, not a logical drive */
                return 0;
        char ctl[16];
        snprintf(ctl, sizeof ctl, "c%u", u->ctl);
        struct ctl_vd *v = ctl_add(l, r->c.tool, ctl);
        v->vd = xasprintf("u%u", u->unit);
        v->level_raw = ctl_printable(u->type, 32);
        v->level = xstrdup(ctl_level_of(u->type));
        v->state_raw = ctl_printable(u->status, 32);
        v->state = xstrdup(ctl_state_of(u->status));
        ctl_wc_end(&u->wc, NULL, v);
        v->strip_bytes = u->strip;
        if (u->serial && *u->serial)
                v->serial = ctl_printable(u->serial, 64);
        v->scsi_addr = xasprintf("0:%u:0", u->unit);
        bool raid6 = tw_level_is(v, "raid6"), raid5 = tw_level_is(v, "raid5") || tw_level_is(v, "raid50");
        if (u->parity_line && ((raid6 && u->parity != 2) || (raid5 && u->parity == 2)))
                return ctl_text_fail(&r->c,
                                     "line %u says \"Parity Number = %u\", but the unit is a %s (line %u): the "
                                     "output is garbled",
                                     u->parity_line, u->parity, v->level_raw, u->row_line);
        tw_layout(u, v);
        unsigned volumes = u->volumes > u->volume_rows ? u->volumes : u->volume_rows;
        if (volumes > 1)
                ctl_add_note(v, xasprintf("the unit is carved into %u volumes, each its own disk (LUN 0 to %u of "
                                          "target %u): this record is volume 0; the others start where the one before "
                                          "ends, which storprov does not align",
                                          volumes, volumes - 1, u->unit));
        ctl_vd_geometry(v);
        tw_size_check(u, v);
        return 0;
}

int ctl_parse_twcli_unit(const char *buf, size_t len, const char *tool, const char *controller, struct ctl_list *l,
                         char **ret_err)
{
        struct tw_reader r;
        tw_init(&r, tool, buf, len);
        struct tw_unit u = { .col_size = SIZE_MAX };
        size_t n0 = l->n;
        struct ctl_line t;
        enum tw_event ev;
        int k = controller ? tw_unit_arg(&r, &u, controller) : 0;
        while (k == 0 && (k = tw_next(&r, &t, &ev)) > 0)
                k = tw_unit_event(&r, &u, &t, ev);
        if (k == 0 && !u.table_done)
                ctl_text_fail(&r.c, "no unit table (\"Unit UnitType Status ...\"): the output is cut short, or not the "
                                    "one of \"tw_cli /cX/uY show all\"");
        else if (k == 0 && !u.ctl_known)
                ctl_text_fail(&r.c, "neither the command nor the output says which controller the unit is on");
        else if (k == 0)
                tw_unit_record(&r, &u, l);
        tw_unit_free(&u);
        return tw_finish(&r, l, n0, ret_err);
}
