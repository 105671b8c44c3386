/* SPDX-License-Identifier: GPL-2.0-or-later
 * The field fixtures of the controller parsers: outputs in the layout and
 * spelling that public captures and vendor manuals show, tool by tool and
 * version by version (tests/fixtures/controller/field/<tool>/, each directory's
 * README names every file's tool, version and public source), checked against
 * figures computed by hand in that directory's expected.tsv.
 *
 * expected.tsv: '#' lines are comments; other lines are TAB-separated:
 *   file parser arg controller vd level strip per spans data full state ids wcache wcache_raw
 *     one row per record the parser must give, in order: file under the
 *     directory; parser, a name of the caller's table; arg, the controller the
 *     command was for ("-": NULL); then the record: level "-" for NULL, sizes in
 *     bytes, 0 for unknown; ids "-" or comma-separated naa=, os=, serial=,
 *     addr=, pci= (each one the record must carry; the others NULL); the
 *     write cache ("write-back" ...) and the lines it comes from, exactly,
 *     "-" for NULL (both, when the tool prints no cache line)
 *   file parser arg !none        the tool says in its own words there is nothing: 0 records
 *   file parser arg !error TEXT  the parse fails, its error holding TEXT
 *   file parser arg !next STEPS  a follower: the commands it leads to, "step:id" blank-separated
 * A file's rows must be consecutive (rows after another file's parse it
 * again, and the record count no longer holds). Every file under the directory (but
 * README.md and expected.tsv) must have rows: a fixture nobody checks fails. */
#pragma once

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discover/controller.h"

struct ctl_field_parser {
        const char *name;
        ctl_parse_fn *parse;     /* NULL for a follower */
        ctl_follow_fn *follow;   /* NULL for a parser */
        const char *tool;        /* the label the records get */
};

static char *ctl_field_read(const char *path, size_t *len)
{
        FILE *f = fopen(path, "rb");
        if (!f)
                fail_msg("cannot read %s", path);
        size_t cap = 1 << 16, n = 0;
        char *buf = xmalloc(cap);
        size_t got;
        while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0)
                if ((n += got) + 1 == cap)
                        buf = xrealloc(buf, cap *= 2);
        fclose(f);
        buf[n] = 0;
        *len = n;
        return buf;
}

static const char *ctl_field_dir(const char *sub, char *out, size_t size)
{
        const char *top = getenv("STORPROV_TOP");
        snprintf(out, size, "%s/tests/fixtures/controller/field/%s", top && *top ? top : ".", sub);
        return out;
}

/* A file of a fixture directory that is a fixture (not README.md, expected.tsv
 * or a hidden file). */
static bool ctl_field_fixture(const char *name)
{
        return name[0] != '.' && strcmp(name, "README.md") && strcmp(name, "expected.tsv");
}

/* The fixture field/<sub>/<name>, NUL-terminated, its size in *len. */
static char *ctl_field_file(const char *sub, const char *name, size_t *len)
{
        char dir[1024], path[1400];
        snprintf(path, sizeof path, "%s/%s", ctl_field_dir(sub, dir, sizeof dir), name);
        return ctl_field_read(path, len);
}

/* The fixtures of field/<sub>/ that want takes (NULL: all), in the
 * directory's order; a NULL-terminated list (strv_free). */
static char **ctl_field_fixtures(const char *sub, bool (*want)(const char *name))
{
        char dir[1024];
        DIR *d = opendir(ctl_field_dir(sub, dir, sizeof dir));
        if (!d)
                fail_msg("cannot list %s", dir);
        char **names = NULL;
        for (struct dirent *e; (e = readdir(d));)
                if (ctl_field_fixture(e->d_name) && (!want || want(e->d_name)))
                        strv_push(&names, e->d_name);
        closedir(d);
        if (!names)
                fail_msg("no fixture in %s", dir);
        return names;
}

/* The commands of nx as expected.tsv's !next column spells them: "step:id",
 * blank-separated. */
static const char *ctl_field_nexts(const struct ctl_nexts *nx, char *out, size_t size)
{
        out[0] = 0;
        for (size_t i = 0; i < nx->n; i++) {
                size_t o = strlen(out);
                snprintf(out + o, size - o, "%s%u:%s", i ? " " : "", nx->v[i].step, nx->v[i].id);
        }
        return out;
}

/* One id of the ids column against the record. */
static void ctl_field_ids(const char *where, const struct ctl_vd *v, const char *ids)
{
        const char *want[5] = {0};
        static const char *const keys[5] = {"naa", "os", "serial", "addr", "pci"};
        char *copy = xstrdup(ids), *save = NULL;
        if (strcmp(ids, "-"))
                for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
                        char *eq = strchr(w, '=');
                        size_t k = 0;
                        for (; eq && k < 5; k++)
                                if ((size_t)(eq - w) == strlen(keys[k]) && !strncmp(w, keys[k], (size_t)(eq - w)))
                                        break;
                        if (!eq || k == 5)
                                fail_msg("%s: ids column: \"%s\" is not naa=, os=, serial=, addr= or pci=", where, w);
                        want[k] = eq + 1;
                }
        const char *have[5] = {v->naa, v->os_name, v->serial, v->scsi_addr, v->pci};
        for (size_t k = 0; k < 5; k++)
                if (!streq_ptr(want[k], have[k]))
                        fail_msg("%s: %s is \"%s\", the table says \"%s\"", where, keys[k], have[k] ? have[k] : "(null)",
                                 want[k] ? want[k] : "(null)");
        free(copy);
}

static unsigned long long ctl_field_num(const char *where, const char *s)
{
        char *end;
        unsigned long long v = strtoull(s, &end, 10);
        if (*end || !*s)
                fail_msg("%s: \"%s\" is not a number", where, s);
        return v;
}

/* Checks one record against the columns from "controller" on. */
static void ctl_field_record(const char *where, const struct ctl_vd *v, char **col)
{
        char msg[2400];
#define CF_STR(have, want)                                                                                            \
        do {                                                                                                          \
                const char *w_ = !strcmp(want, "-") ? NULL : want;                                                    \
                if (!streq_ptr(have, w_)) {                                                                           \
                        snprintf(msg, sizeof msg, "%s: " #have " is \"%s\", the table says \"%s\"", where,            \
                                 (have) ? (have) : "(null)", w_ ? w_ : "(null)");                                     \
                        fail_msg("%s", msg);                                                                          \
                }                                                                                                     \
        } while (0)
#define CF_NUM(have, want)                                                                                            \
        do {                                                                                                          \
                if ((unsigned long long)(have) != ctl_field_num(where, want))                                         \
                        fail_msg("%s: " #have " is %llu, the table says %s", where, (unsigned long long)(have), want); \
        } while (0)
        CF_STR(v->controller, col[0]);
        CF_STR(v->vd, col[1]);
        CF_STR(v->level, col[2]);
        CF_NUM(v->strip_bytes, col[3]);
        CF_NUM(v->drives_per_span, col[4]);
        CF_NUM(v->spans, col[5]);
        CF_NUM(v->data_disks, col[6]);
        CF_NUM(v->full_stripe_bytes, col[7]);
        CF_STR(v->state, col[8]);
#undef CF_NUM
        ctl_field_ids(where, v, col[9]);
        CF_STR(ctl_cache_name(v->cache), col[10]);
        CF_STR(v->write_cache_raw, col[11]);
#undef CF_STR
}

/* Splits line at TABs into at most max columns; the count. */
static size_t ctl_field_split(char *line, char **col, size_t max)
{
        size_t n = 0;
        line[strcspn(line, "\r\n")] = 0;
        for (char *p = line; n < max;) {
                col[n++] = p;
                char *tab = strchr(p, '\t');
                if (!tab)
                        break;
                *tab = 0;
                p = tab + 1;
        }
        return n;
}

static const struct ctl_field_parser *ctl_field_parser(const struct ctl_field_parser *map, const char *name)
{
        for (size_t i = 0; map[i].name; i++)
                if (!strcmp(map[i].name, name))
                        return &map[i];
        fail_msg("parser \"%s\" is not in the test's table", name);
        return NULL;
}

struct ctl_field_run {
        char file[256], parser[64], arg[64];
        struct ctl_list l;
        size_t next_record;
        char *err;
        int r;
        bool follower;
        struct ctl_nexts nx;
};

static void ctl_field_end(struct ctl_field_run *run, const char *where)
{
        if (!run->file[0])
                return;
        if (!run->follower && run->r == 0 && run->next_record != run->l.n)
                fail_msg("%s: %s gives %zu records, the table lists %zu", where, run->file, run->l.n, run->next_record);
        ctl_list_free(&run->l);
        ctl_nexts_free(&run->nx);
        free(run->err);
        run->err = NULL;
        run->file[0] = 0;
}

/* Runs every row of field/<sub>/expected.tsv; returns the number of files checked. */
static size_t ctl_field_check(const char *sub, const struct ctl_field_parser *map)
{
        char dir[1024], path[1400];
        ctl_field_dir(sub, dir, sizeof dir);
        snprintf(path, sizeof path, "%s/expected.tsv", dir);
        FILE *f = fopen(path, "r");
        if (!f)
                fail_msg("cannot read %s", path);
        char line[4096], where[1600];
        struct ctl_field_run run = {0};
        char seen[256][128];
        size_t n_seen = 0;
        for (unsigned no = 1; fgets(line, sizeof line, f); no++) {
                if (line[0] == '#' || line[0] == '\n')
                        continue;
                char *col[16];
                size_t n = ctl_field_split(line, col, 16);
                snprintf(where, sizeof where, "%s:%u (%s)", path, no, n ? col[0] : "");
                if (n < 4)
                        fail_msg("%s: fewer than 4 columns", where);
                if (strcmp(run.file, col[0]) || strcmp(run.parser, col[1]) || strcmp(run.arg, col[2])) {
                        ctl_field_end(&run, where);
                        if (n_seen < 256)
                                snprintf(seen[n_seen++], sizeof seen[0], "%s", col[0]);
                        snprintf(run.file, sizeof run.file, "%s", col[0]);
                        snprintf(run.parser, sizeof run.parser, "%s", col[1]);
                        snprintf(run.arg, sizeof run.arg, "%s", col[2]);
                        const struct ctl_field_parser *p = ctl_field_parser(map, col[1]);
                        size_t len;
                        char *buf = ctl_field_file(sub, col[0], &len);
                        const char *arg = strcmp(col[2], "-") ? col[2] : NULL;
                        run.follower = p->follow != NULL;
                        run.r = p->follow ? p->follow(buf, len, p->tool, arg, &run.nx, &run.err)
                                          : p->parse(buf, len, p->tool, arg, &run.l, &run.err);
                        run.next_record = 0;
                        free(buf);
                        if ((run.r == 0) != (run.err == NULL))
                                fail_msg("%s: returned %d with error \"%s\"", where, run.r, run.err ? run.err : "(none)");
                        if (run.r < 0 && strcmp(col[3], "!error"))
                                fail_msg("%s: the parse failed: %s", where, run.err);
                }
                if (!strcmp(col[3], "!error")) {
                        if (run.r != -EINVAL || n < 5 || !strstr(run.err, col[4]))
                                fail_msg("%s: expected an error holding \"%s\", got %d \"%s\"", where, n < 5 ? "" : col[4],
                                         run.r, run.err ? run.err : "(none)");
                } else if (!strcmp(col[3], "!none")) {
                        if (run.l.n)
                                fail_msg("%s: expected no record, got %zu", where, run.l.n);
                } else if (!strcmp(col[3], "!next")) {
                        char got[2048];
                        if (strcmp(ctl_field_nexts(&run.nx, got, sizeof got), n < 5 ? "" : col[4]))
                                fail_msg("%s: leads to \"%s\", the table says \"%s\"", where, got, n < 5 ? "" : col[4]);
                } else {
                        if (n != 15)
                                fail_msg("%s: a record row has 15 columns, this one %zu", where, n);
                        if (run.next_record >= run.l.n)
                                fail_msg("%s: the parse gave only %zu records", where, run.l.n);
                        ctl_field_record(where, &run.l.v[run.next_record++], &col[3]);
                }
        }
        ctl_field_end(&run, path);
        fclose(f);
        /* every fixture of the directory is in the table */
        char **names = ctl_field_fixtures(sub, NULL);
        for (size_t k = 0; names[k]; k++) {
                bool found = false;
                for (size_t i = 0; i < n_seen && !found; i++)
                        found = !strcmp(seen[i], names[k]);
                if (!found)
                        fail_msg("%s/%s has no row in expected.tsv", dir, names[k]);
        }
        strv_free(names);
        return n_seen;
}
