/* SPDX-License-Identifier: GPL-2.0-or-later
 * The controller parsers (src/discover/ctl_json.c, ctl_text.c) on the
 * fixtures of tests/fixtures/controller/ (written from the tools' documented
 * formats: every level, several spans, the storcli RAID1-of-4 quirk, KB and
 * KiB, ssacli's per-parity-group full stripe, arcconf text and JSON, two
 * controllers in one output,
 * degraded/rebuilding/offline VDs, outputs cut short or garbled), the
 * geometry of every level, the matching to block devices, and the words of
 * each tool's write cache lines (ctl_cache.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discover/controller.h"
#include "discover/ctl_internal.h" /* the write cache's reader (ctl_cache.c) */

#define KiB UINT64_C(1024)
#define MiB (KiB * 1024)
#define NAA_A "600605b00a5e2f60261c6b0c1b2f6d0"
#define NAA_B "600605b00b6f3a70271d7c1d2c3e7e0"

static char *fixture(const char *name, size_t *len)
{
        const char *top = getenv("STORPROV_TOP");
        char *p = xasprintf("%s/tests/fixtures/controller/%s", top && *top ? top : ".", name);
        /* not read_file(): it stops at a NUL, and the garbled fixtures hold some */
        FILE *f = fopen(p, "rb");
        if (!f)
                fail_msg("cannot read %s", p);
        char *buf = xmalloc(1 << 20);
        *len = fread(buf, 1, (1 << 20) - 1, f);
        buf[*len] = 0;
        fclose(f);
        free(p);
        return buf;
}

/* One record's figures, as the table of a test lists them. */
struct want {
        const char *controller, *vd, *level;
        uint64_t strip;
        unsigned per, spans, data;
        uint64_t full;
        const char *state;
};

static void check(const struct ctl_vd *v, const struct want *w)
{
        assert_string_equal(v->controller, w->controller);
        assert_string_equal(v->vd, w->vd);
        if (w->level)
                assert_string_equal(v->level, w->level);
        else
                assert_null(v->level);
        assert_int_equal(v->strip_bytes, w->strip);
        assert_int_equal(v->drives_per_span, w->per);
        assert_int_equal(v->spans, w->spans);
        assert_int_equal(v->data_disks, w->data);
        assert_int_equal(v->full_stripe_bytes, w->full);
        assert_string_equal(v->state, w->state);
}

static void check_all(const struct ctl_list *l, const struct want *w, size_t n)
{
        assert_int_equal(l->n, n);
        for (size_t i = 0; i < n; i++)
                check(&l->v[i], &w[i]);
}

/* ---- storcli / perccli ----------------------------------------------------- */

static void storcli_two_controllers(void **state)
{
        (void)state;
        size_t len;
        char *buf = fixture("storcli-two-controllers.json", &len), *err = NULL;
        struct ctl_list l = {0};
        assert_int_equal(ctl_parse_storcli(buf, len, "storcli", NULL, &l, &err), 0);
        assert_null(err);
        static const struct want w[] = {
                {"0", "0", "raid6", 256 * KiB, 10, 1, 8, 2 * MiB, "optimal"},
                /* TYPE RAID1 over one span of 4 drives: storcli's RAID10 */
                {"0", "1", "raid10", 64 * KiB, 4, 1, 2, 128 * KiB, "optimal"},
                /* Dgrd with a drive in Rbld */
                {"0", "2", "raid60", 128 * KiB, 8, 2, 12, 1536 * KiB, "rebuilding"},
                /* no Strip Size printed: data disks known, full stripe not */
                {"0", "3", "raid0", 0, 2, 1, 2, 0, "optimal"},
                {"1", "0", "raid50", 256 * KiB, 5, 3, 12, 3 * MiB, "partially-degraded"},
                {"1", "1", "raid00", 1 * MiB, 3, 2, 6, 6 * MiB, "optimal"},
                {"1", "2", "raid10", 256 * KiB, 2, 3, 3, 768 * KiB, "optimal"},
                {"1", "3", "raid5", 64 * KiB, 4, 1, 3, 192 * KiB, "offline"},
        };
        check_all(&l, w, sizeof w / sizeof w[0]);
        assert_string_equal(l.v[1].level_raw, "RAID1");
        assert_string_equal(l.v[0].os_name, "/dev/sdb");
        assert_string_equal(l.v[0].naa, NAA_A "1");
        assert_string_equal(l.v[0].tool, "storcli");
        assert_non_null(strstr(l.v[3].note, "strip size"));
        assert_null(l.v[3].os_name);
        assert_null(l.v[5].naa);
        assert_null(l.v[7].os_name); /* printed as "" */
        assert_string_equal(l.v[2].state_raw, "Dgrd");
        ctl_list_free(&l);
        free(buf);
}

/* The parser fails with err containing each of the words, and leaves l as it was. */
static void expect_error(int (*parse)(const char *, size_t, struct ctl_list *, char **), const char *file,
                         const char *const *words)
{
        size_t len;
        char *buf = fixture(file, &len), *err = NULL;
        struct ctl_list l = {0};
        int r = parse(buf, len, &l, &err);
        assert_int_equal(r, -EINVAL);
        assert_non_null(err);
        for (size_t i = 0; words[i]; i++)
                if (!strstr(err, words[i]))
                        fail_msg("%s: \"%s\" not in: %s", file, words[i], err);
        assert_int_equal(l.n, 0);
        free(err);
        free(buf);
}

static int storcli(const char *b, size_t n, struct ctl_list *l, char **e) { return ctl_parse_storcli(b, n, "storcli", NULL, l, e); }
static int storcli2(const char *b, size_t n, struct ctl_list *l, char **e) { return ctl_parse_storcli2(b, n, "storcli2", NULL, l, e); }
static int arcconf(const char *b, size_t n, struct ctl_list *l, char **e) { return ctl_parse_arcconf(b, n, "arcconf", "1", l, e); }

static void storcli_broken(void **state)
{
        (void)state;
        expect_error(storcli, "storcli-truncated.json", (const char *const[]){"storcli output", "ends early", NULL});
        expect_error(storcli, "storcli-garbled-strip.json",
                     (const char *const[]){"controller 0", "\"/c0/v1\"", "Strip Size", "\"64 KBB\"", NULL});
        expect_error(storcli, "storcli-failed.json",
                     (const char *const[]){"controller 0", "the command failed", "Controller 0 not found", NULL});
        /* the text output (no J) and an empty output */
        static const char text[] = "CLI Version = 007.2408\nStatus = Success\n";
        char *err = NULL;
        struct ctl_list l = {0};
        assert_int_equal(ctl_parse_storcli(text, sizeof text - 1, "storcli", NULL, &l, &err), -EINVAL);
        assert_non_null(strstr(err, "not JSON"));
        free(err);
        err = NULL;
        assert_int_equal(ctl_parse_storcli("", 0, "storcli", NULL, &l, &err), -EINVAL);
        assert_non_null(strstr(err, "ends early"));
        free(err);
        err = NULL;
        static const char other[] = "{\"Controllers\": 3}";
        assert_int_equal(ctl_parse_storcli(other, sizeof other - 1, "perccli", NULL, &l, &err), -EINVAL);
        assert_non_null(strstr(err, "perccli output: no \"Controllers\" array"));
        free(err);
        assert_int_equal(l.n, 0);
}

/* A failed parse takes back only its own records. */
static void storcli_error_keeps_earlier(void **state)
{
        (void)state;
        size_t len, len2;
        char *good = fixture("storcli2.json", &len), *bad = fixture("storcli-garbled-strip.json", &len2), *err = NULL;
        struct ctl_list l = {0};
        assert_int_equal(ctl_parse_storcli2(good, len, "storcli2", NULL, &l, &err), 0);
        assert_int_equal(l.n, 3);
        assert_int_equal(ctl_parse_storcli(bad, len2, "storcli", NULL, &l, &err), -EINVAL);
        assert_int_equal(l.n, 3);
        assert_string_equal(l.v[2].tool, "storcli2");
        free(err);
        ctl_list_free(&l);
        free(good);
        free(bad);
}

static void storcli2_kib(void **state)
{
        (void)state;
        size_t len;
        char *buf = fixture("storcli2.json", &len), *err = NULL;
        struct ctl_list l = {0};
        assert_int_equal(ctl_parse_storcli2(buf, len, "storcli2", NULL, &l, &err), 0);
        static const struct want w[] = {
                {"0", "0", "raid5", 256 * KiB, 5, 1, 4, 1 * MiB, "optimal"},
                /* 16 drives over 2 spans: per span or in all is not printed */
                {"0", "1", "raid60", 64 * KiB, 0, 2, 0, 0, "optimal"},
                {"0", "2", "raid1", 64 * KiB, 2, 1, 1, 64 * KiB, "degraded"},
        };
        check_all(&l, w, 3);
        assert_non_null(strstr(l.v[1].note, "whether per span or in all"));
        assert_string_equal(l.v[0].naa, "6000c0b0e6d4a0101234567890abcd01");
        ctl_list_free(&l);
        free(buf);
        expect_error(storcli2, "storcli-truncated.json", (const char *const[]){"storcli2 output", "ends early", NULL});
}

/* ---- ssacli ------------------------------------------------------------------ */

static int ssacli(const char *b, size_t n, struct ctl_list *l, char **e) { return ctl_parse_ssacli(b, n, "ssacli", NULL, l, e); }

static void ssacli_two_controllers(void **state)
{
        (void)state;
        size_t len;
        char *buf = fixture("ssacli-two-controllers.txt", &len), *err = NULL;
        struct ctl_list l = {0};
        assert_int_equal(ctl_parse_ssacli(buf, len, "ssacli", NULL, &l, &err), 0);
        static const struct want w[] = {
                {"slot=0", "1", "raid10", 256 * KiB, 4, 1, 2, 512 * KiB, "optimal"},
                /* Full Stripe Size 768 KB is one parity group's: 6 data of 8, × 2 groups */
                {"slot=0", "2", "raid60", 128 * KiB, 8, 2, 12, 1536 * KiB, "optimal"},
                {"slot=3", "1", "raid5", 64 * KiB, 4, 1, 3, 192 * KiB, "degraded"},
                {"slot=3", "2", "raid50", 256 * KiB, 5, 3, 12, 3 * MiB, "rebuilding"},
                {"slot=3", "3", "raid1-triple", 256 * KiB, 3, 1, 1, 256 * KiB, "optimal"},
        };
        check_all(&l, w, 5);
        assert_int_equal(l.v[1].reported_full_stripe_bytes, 768 * KiB);
        assert_string_equal(l.v[0].naa, "600508b1001c5b3f1e2d3c4b5a697801");
        assert_string_equal(l.v[0].os_name, "/dev/sda");
        assert_string_equal(l.v[2].state_raw, "Interim Recovery Mode");
        assert_string_equal(l.v[0].level_raw, "1+0");
        ctl_list_free(&l);
        free(buf);
}

static void ssacli_broken(void **state)
{
        (void)state;
        expect_error(ssacli, "ssacli-truncated.txt",
                     (const char *const[]){"ssacli output line", "logical drive 1", "cut short", NULL});
        expect_error(ssacli, "ssacli-garbled-strip.txt",
                     (const char *const[]){"ssacli output line 90", "\"sixty-four\"", NULL});
        expect_error(ssacli, "storcli-two-controllers.json", (const char *const[]){"no controller line", NULL});
        static const char nul[] = "Smart Array P440ar in Slot 0\n   Logical Drive: 1\n\0\0\n";
        char *err = NULL;
        struct ctl_list l = {0};
        assert_int_equal(ctl_parse_ssacli(nul, sizeof nul - 1, "ssacli", NULL, &l, &err), -EINVAL);
        assert_non_null(strstr(err, "line 3: byte 0x00"));
        free(err);
}

/* ---- arcconf ------------------------------------------------------------------ */

static void arcconf_text(void **state)
{
        (void)state;
        size_t len;
        char *buf = fixture("arcconf-c1.txt", &len), *err = NULL;
        struct ctl_list l = {0};
        assert_int_equal(ctl_parse_arcconf(buf, len, "arcconf", "1", &l, &err), 0);
        static const struct want w[] = {
                {"1", "0", "raid5", 256 * KiB, 4, 1, 3, 768 * KiB, "optimal"},
                {"1", "1", "raid60", 128 * KiB, 6, 2, 8, 1 * MiB, "rebuilding"},
                {"1", "2", "raid1", 256 * KiB, 2, 1, 1, 256 * KiB, "optimal"},
                {"1", "3", "raid10", 256 * KiB, 2, 2, 2, 512 * KiB, "failed"},
        };
        check_all(&l, w, 4);
        assert_string_equal(l.v[0].os_name, "/dev/sdb");
        assert_string_equal(l.v[0].naa, "600508b1001c0e8d4f3a6b2c1d0e9f01");
        assert_null(l.v[1].naa); /* "5AB2E3C4"-style ids are no NAA */
        assert_null(l.v[3].os_name);
        assert_int_equal(ctl_arcconf_count(buf, len), 1);
        ctl_list_free(&l);
        free(buf);
}

static void arcconf_broken(void **state)
{
        (void)state;
        expect_error(arcconf, "arcconf-truncated.txt",
                     (const char *const[]){"arcconf output", "Command completed successfully", "cut short", NULL});
        expect_error(arcconf, "arcconf-garbled.txt", (const char *const[]){"line 6", "byte 0x00", "garbled", NULL});
        static const char no_status[] = "Controllers found: 1\nLogical Device number 0\n   RAID level : 5\n"
                                        "Command completed successfully.\n";
        char *err = NULL;
        struct ctl_list l = {0};
        assert_int_equal(ctl_parse_arcconf(no_status, sizeof no_status - 1, "arcconf", "1", &l, &err), -EINVAL);
        assert_non_null(strstr(err, "logical device 0 ends without"));
        free(err);
        assert_int_equal(l.n, 0);
}

static int arcconf_json(const char *b, size_t n, struct ctl_list *l, char **e) { return ctl_parse_arcconf_json(b, n, "arcconf", "1", l, e); }

static void arcconf_getconfigjson(void **state)
{
        (void)state;
        size_t len;
        char *buf = fixture("arcconf-getconfigjson-1.json", &len), *err = NULL;
        struct ctl_list l = {0};
        assert_int_equal(ctl_parse_arcconf_json(buf, len, "arcconf", "1", &l, &err), 0);
        static const struct want w[] = {
                /* StripeSize and fullStripeSize are KiB; members are the Chunk entries */
                {"1", "0", "raid6", 256 * KiB, 8, 1, 6, 1536 * KiB, "optimal"},
                /* a missing member (no deviceID) still holds its place in the layout */
                {"1", "1", "raid10", 128 * KiB, 4, 1, 2, 256 * KiB, "degraded"},
                /* no parity-group count in the JSON: unknown, not guessed */
                {"1", "2", "raid60", 128 * KiB, 0, 0, 0, 0, "optimal"},
                {"1", "3", "raid1-triple", 256 * KiB, 3, 1, 1, 256 * KiB, "offline"},
        };
        check_all(&l, w, 4);
        assert_string_equal(l.v[0].naa, "600508b1001c0e8d4f3a6b2c1d0e9f11");
        assert_int_equal(l.v[2].reported_full_stripe_bytes, 512 * KiB);
        assert_non_null(strstr(l.v[2].note, "parity groups"));
        assert_null(l.v[3].naa);
        assert_string_equal(l.v[3].state_raw, "state 1");
        ctl_list_free(&l);
        free(buf);
        expect_error(arcconf_json, "arcconf-json-truncated.json", (const char *const[]){"arcconf output", "ends early", NULL});
        expect_error(arcconf_json, "arcconf-c1.txt", (const char *const[]){"no JSON object", "GETCONFIGJSON 1", NULL});
}

/* ---- geometry of every level, and sizes ------------------------------------- */

static void geometry_levels(void **state)
{
        (void)state;
        static const struct {
                const char *level;
                unsigned per, spans, data;
        } t[] = {
                {"raid0", 4, 1, 4},   {"raid00", 3, 2, 6},  {"raid1", 2, 1, 1},        {"raid1-triple", 3, 1, 1},
                {"raid10", 4, 1, 2},  {"raid10", 2, 4, 4},  {"raid10-triple", 6, 1, 2}, {"raid5", 5, 1, 4},
                {"raid6", 10, 1, 8},  {"raid50", 5, 3, 12}, {"raid60", 8, 2, 12},
                /* layouts that cannot be: unknown, never a number */
                {"raid5", 2, 1, 0},   {"raid6", 3, 1, 0},   {"raid1", 2, 2, 0},        {"raid10", 3, 1, 0},
                {"raid5", 4, 2, 0},   {"raid60", 3, 2, 0},
        };
        for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
                struct ctl_vd v = {.level = (char *)t[i].level, .drives_per_span = t[i].per, .spans = t[i].spans,
                                   .strip_bytes = 64 * KiB};
                ctl_vd_geometry(&v);
                if (v.data_disks != t[i].data)
                        fail_msg("%s %u×%u: %u data disks, want %u", t[i].level, t[i].per, t[i].spans, v.data_disks,
                                 t[i].data);
                assert_int_equal(v.full_stripe_bytes, 64 * KiB * t[i].data);
                assert_true(t[i].data ? v.note == NULL : v.note != NULL);
                free(v.note);
        }
        struct ctl_vd v = {.level_raw = (char *)"RAID1E", .drives_per_span = 3, .spans = 1};
        ctl_vd_geometry(&v);
        assert_int_equal(v.data_disks, 0);
        assert_non_null(strstr(v.note, "'RAID1E'"));
        free(v.note);
}

static void strip_sizes(void **state)
{
        (void)state;
        static const struct {
                const char *s;
                uint64_t bytes;
        } ok[] = {{"256 KB", 256 * KiB}, {"256 KiB", 256 * KiB}, {"64K", 64 * KiB}, {"1 MB", MiB}, {"1 MiB", MiB},
                 {"512 Bytes", 512}};
        for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
                uint64_t b = 0;
                assert_int_equal(ctl_parse_strip(ok[i].s, &b), 0);
                assert_int_equal(b, ok[i].bytes);
        }
        static const char *const bad[] = {"", "KB", "0 KB", "256", "256 GB", "-64 KB", "64 KBB", "256 KB ", NULL};
        for (size_t i = 0; bad[i]; i++) {
                uint64_t b = 0;
                if (ctl_parse_strip(bad[i], &b) != -EINVAL)
                        fail_msg("\"%s\" taken as %llu", bad[i], (unsigned long long)b);
        }
}

/* ---- matching to block devices --------------------------------------------- */

static struct ctl_vd vd(const char *naa, const char *os)
{
        return (struct ctl_vd){.tool = xstrdup("storcli"), .controller = xstrdup("0"), .vd = xstrdup("0"),
                               .naa = xstrdup(naa), .os_name = xstrdup(os)};
}

static void matching(void **state)
{
        (void)state;
        struct blockdev devs[] = {
                {.name = (char *)"sdb", .wwid = (char *)"naa." NAA_A "1"},
                {.name = (char *)"sdc", .wwn = (char *)"0x" NAA_A "2"},
                {.name = (char *)"sdd"},
                /* the first 64 bits of NAA_A "4" only: never a match */
                {.name = (char *)"sde", .wwid = (char *)"naa.600605b00a5e2f60", .wwn = (char *)"0x600605b00a5e2f60"},
                {.name = (char *)"sdh", .wwid = (char *)"naa." NAA_B "9"},
                {.name = (char *)"sdx", .wwid = (char *)"naa." NAA_B "7"},
                {.name = (char *)"sdy", .wwid = (char *)"naa." NAA_B "7"},
        };
        struct sysinfo si = {.devs = devs, .n_devs = sizeof devs / sizeof devs[0]};
        struct ctl_vd v[] = {
                vd(NAA_A "1", NULL),        vd(NAA_A "2", "/dev/sdc"), vd(NULL, "/dev/sdd"),
                vd(NAA_A "4", NULL),        vd(NAA_B "3", "/dev/sdh"), vd(NAA_A "1", "/dev/sdc"),
                vd(NAA_B "7", NULL),        vd(NULL, "/dev/../sdb"),
        };
        struct ctl_list l = {.v = v, .n = sizeof v / sizeof v[0]};
        ctl_match(&l, &si);
        static const struct {
                const char *device, *by, *note;
        } want[] = {
                {"sdb", "wwn", NULL},
                {"sdc", "wwn", NULL},
                {"sdd", "os-name", NULL},
                {NULL, NULL, "no disk has WWN " NAA_A "4"},
                {NULL, NULL, "is not the VD's NAA"},
                {NULL, NULL, "is sdb but the name /dev/sdc is sdc: device left unmatched"},
                {NULL, NULL, "is that of several disks"},
                {NULL, NULL, "device unknown"},
        };
        for (size_t i = 0; i < l.n; i++) {
                if (!streq_ptr(l.v[i].device, want[i].device) || !streq_ptr(l.v[i].matched_by, want[i].by))
                        fail_msg("record %zu: device %s by %s, want %s by %s", i, l.v[i].device, l.v[i].matched_by,
                                 want[i].device, want[i].by);
                if (want[i].note && (!l.v[i].note || !strstr(l.v[i].note, want[i].note)))
                        fail_msg("record %zu: note \"%s\" lacks \"%s\"", i, l.v[i].note, want[i].note);
        }
        assert_ptr_equal(ctl_vd_for_device(&l, "sdc"), &l.v[1]);
        assert_null(ctl_vd_for_device(&l, "sdh"));
        l.v = xmalloc(sizeof v);
        memcpy(l.v, v, sizeof v);
        ctl_list_free(&l);
}

/* The write cache from each tool's cache lines (ctl_cache.c), word by word:
 * the VD's lines, then its controller's ("" ends each list), the mode and the
 * lines kept (NULL, NULL: nothing printed). */
static void write_cache_words(void **state)
{
        (void)state;
        static const struct {
                const struct ctl_wc_key *keys;
                const char *ld[6], *ctl[6], *mode, *raw;
        } cases[] = {
                {ctl_wc_storcli_keys, {"Cache", "RWBD", ""}, {""}, "write-back", "Cache: RWBD"},
                {ctl_wc_storcli_keys, {"Cache", "NRWTD", "Write Cache(initial setting)", "WriteThrough", ""}, {""},
                 "write-through", "Cache: NRWTD; Write Cache(initial setting): WriteThrough"},
                {ctl_wc_storcli_keys, {"Cache", "RWTD", "Write Cache(initial setting)", "Always WriteBack", ""}, {""},
                 "write-back-disabled", "Cache: RWTD; Write Cache(initial setting): Always WriteBack"},
                /* "RA": R then AWB; "Ra": Read Ahead Adaptive then WB; no read-ahead or I/O letter */
                {ctl_wc_storcli_keys, {"Cache", "RAWBC", ""}, {""}, "write-back", "Cache: RAWBC"},
                {ctl_wc_storcli_keys, {"Cache", "RaWTD", ""}, {""}, "write-through", "Cache: RaWTD"},
                {ctl_wc_storcli_keys, {"Cache", "WB", ""}, {""}, "write-back", "Cache: WB"},
                {ctl_wc_storcli_keys, {"Cache", "RWBX", ""}, {""}, "unknown", "Cache: RWBX"},
                {ctl_wc_storcli_keys, {"Cache", "", ""}, {""}, "unknown", "Cache: "},
                {ctl_wc_storcli_keys, {"Cache", "R\xff\x7f" "BD", ""}, {""}, "unknown", "Cache: R??BD"},
                /* only the configured mode printed: what the VD does now is not known */
                {ctl_wc_storcli_keys, {"Write Cache(initial setting)", "WriteBack", ""}, {""}, "unknown",
                 "Write Cache(initial setting): WriteBack"},
                {ctl_wc_storcli_keys, {"CurrentCache", "NR,WT", "DefaultCache", "NR,WB", ""}, {""},
                 "write-back-disabled", "CurrentCache: NR,WT; DefaultCache: NR,WB"},
                {ctl_wc_megacli_keys,
                 {"Current Cache Policy", "WriteThrough, ReadAheadNone, Direct, Write Cache OK if Bad BBU", ""},
                 {""}, "write-through",
                 "Current Cache Policy: WriteThrough, ReadAheadNone, Direct, Write Cache OK if Bad BBU"},
                {ctl_wc_megacli_keys, {"current  cache policy", "ReadAhead, Always WriteBack", ""}, {""},
                 "write-back", "current  cache policy: ReadAhead, Always WriteBack"},
                {ctl_wc_arcconf_keys, {"Write-cache mode", "Enabled (write-back)", ""}, {""}, "write-back",
                 "Write-cache mode: Enabled (write-back)"},
                {ctl_wc_arcconf_keys,
                 {"Write-cache setting", "Enabled (write-back) when protected by battery", "Write-cache status",
                  "Off", ""},
                 {""}, "write-back-disabled",
                 "Write-cache setting: Enabled (write-back) when protected by battery; Write-cache status: Off"},
                {ctl_wc_arcconf_keys, {"Write-cache status", "Sometimes", ""}, {""}, "unknown",
                 "Write-cache status: Sometimes"},
                {ctl_wc_smart_ld_keys, {"Caching", "Enabled", ""}, {"Cache Status", "Permanently Disabled", ""},
                 "write-back-disabled", "Caching: Enabled; controller: Cache Status: Permanently Disabled"},
                {ctl_wc_smart_ld_keys, {"Caching", "Enabled", ""}, {"Cache Status", "Not Configured", ""},
                 "write-through", "Caching: Enabled; controller: Cache Status: Not Configured"},
                {ctl_wc_smart_ld_keys, {"Caching", "Enabled", ""},
                 {"Cache Status", "OK", "Cache Ratio", "0% Read / 100% Write", ""}, "write-back",
                 "Caching: Enabled; controller: Cache Status: OK; Cache Ratio: 0% Read / 100% Write"},
                {ctl_wc_smart_ld_keys, {"Caching", "Enabled", ""},
                 {"Cache Status", "Ok", "Write Cache Percentage", "0 percent", ""}, "write-through",
                 "Caching: Enabled; controller: Cache Status: Ok; Write Cache Percentage: 0 percent"},
                {ctl_wc_smart_ld_keys, {"Caching", "Enabled", ""}, {"Cache Status", "Recharging?", ""}, "unknown",
                 "Caching: Enabled; controller: Cache Status: Recharging?"},
                {ctl_wc_smart_ld_keys, {"Caching", "Maybe", ""}, {"Cache Status", "OK", ""}, "unknown",
                 "Caching: Maybe"},
                {ctl_wc_twcli_keys, {"Write Cache", "off", ""}, {""}, "write-through", "Write Cache: off"},
                /* lines of other keys are not the cache's: nothing printed */
                {ctl_wc_twcli_keys, {"Read Cache", "Intelligent", ""}, {""}, NULL, NULL},
                {ctl_wc_storcli_keys, {"Cachebypass Mode", "Cachebypass Intelligent", ""}, {""}, NULL, NULL},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
                struct ctl_wc w = {0}, c = {0};
                for (size_t k = 0; *cases[i].ld[k]; k += 2)
                        if (ctl_wc_take(&w, cases[i].keys, cases[i].ld[k], cases[i].ld[k + 1]) !=
                            (cases[i].mode != NULL))
                                fail_msg("case %zu: line \"%s\" taken or not, wrongly", i, cases[i].ld[k]);
                for (size_t k = 0; *cases[i].ctl[k]; k += 2)
                        assert_true(ctl_wc_take(&c, ctl_wc_smart_ctl_keys, cases[i].ctl[k], cases[i].ctl[k + 1]));
                struct ctl_vd v = {0};
                ctl_wc_end(&w, &c, &v);
                if (!streq_ptr(ctl_cache_name(v.cache), cases[i].mode) || !streq_ptr(v.write_cache_raw, cases[i].raw))
                        fail_msg("case %zu: %s (%s), want %s (%s)", i, ctl_cache_name(v.cache), v.write_cache_raw,
                                 cases[i].mode, cases[i].raw);
                assert_null(w.raw);
                ctl_wc_clear(&c);
                ctl_vd_free(&v);
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(storcli_two_controllers), cmocka_unit_test(storcli_broken),
                cmocka_unit_test(storcli_error_keeps_earlier), cmocka_unit_test(storcli2_kib),
                cmocka_unit_test(ssacli_two_controllers), cmocka_unit_test(ssacli_broken),
                cmocka_unit_test(arcconf_text), cmocka_unit_test(arcconf_broken),
                cmocka_unit_test(arcconf_getconfigjson),
                cmocka_unit_test(geometry_levels), cmocka_unit_test(strip_sizes),
                cmocka_unit_test(matching), cmocka_unit_test(write_cache_words),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
