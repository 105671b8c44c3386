/* Units: parsing and printing sizes, integer maths. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/strmap.h"
#include "base/util.h"

static void test_parse_size(void **state)
{
        (void)state;
        struct { const char *s; int rc; uint64_t v; } t[] = {
                {"512", 0, 512},           {"64K", 0, 65536},         {"64k", 0, 65536},
                {"64KiB", 0, 65536},       {"1M", 0, 1048576},        {"11m", 0, 11534336},
                {"2048s", 0, 1048576},     {"5TB", 0, 5000000000000}, {"5T", 0, 5497558138880},
                {"1.5G", 0, 1610612736},   {"500GB", 0, 500000000000}, {"0.5k", 0, 512},
                {"", -EINVAL, 0},          {"k", -EINVAL, 0},         {"12X", -EINVAL, 0},
                {"-1", -EINVAL, 0},        {"1.5", -EINVAL, 0},       {"99999999999999999999", -ERANGE, 0},
        };
        for (size_t i = 0; i < ELEMENTSOF(t); i++) {
                uint64_t v = 0;
                int rc = parse_size(t[i].s, &v);
                if (rc != t[i].rc)
                        fail_msg("parse_size(\"%s\") = %d, expected %d", t[i].s, rc, t[i].rc);
                if (!rc)
                        assert_int_equal(v, t[i].v);
        }
}

static void test_fmt(void **state)
{
        (void)state;
        char b[32];
        assert_string_equal(fmt_size_exact(65536, b), "64k");
        assert_string_equal(fmt_size_exact(720896, b), "704k");
        assert_string_equal(fmt_size_exact(11534336, b), "11m");
        assert_string_equal(fmt_size_exact(1000, b), "1000");
        assert_string_equal(fmt_size_exact(3 * GiB, b), "3g");
        assert_string_equal(fmt_size_human(4143337472, b), "3.9 GiB");
        assert_string_equal(fmt_size_human(4 * MiB, b), "4 MiB");
}

static void test_math(void **state)
{
        (void)state;
        assert_int_equal(lcm_u64(MiB, 704 * KiB), 11 * MiB);
        assert_int_equal(lcm_u64(MiB, 640 * KiB), 5 * MiB);
        assert_int_equal(lcm_u64(0, 7), 7);
        assert_int_equal(lcm_u64(UINT64_MAX, UINT64_MAX - 1), 0); /* overflow */
        assert_int_equal(gcd_u64(704, 1024), 64);
        assert_int_equal(round_up(1, 4096), 4096);
        assert_int_equal(round_down(8191, 4096), 4096);
        assert_true(is_pow2(4096));
        assert_false(is_pow2(0));
        assert_false(is_pow2(704 * KiB));
}

static void test_strv(void **state)
{
        (void)state;
        char **v = strv_split(" -i  size=512 -d agcount=4 ", " ");
        assert_int_equal(strv_len(v), 4);
        char *s = strv_join(v, "|");
        assert_string_equal(s, "-i|size=512|-d|agcount=4");
        free(s);
        strv_push(&v, "it's here");
        s = strv_join_shell(v);
        assert_string_equal(s, "-i size=512 -d agcount=4 'it'\\''s here'");
        free(s);
        strv_free(v);
}

static void test_diag(void **state)
{
        (void)state;
        struct diags d = {0};
        diag_add(&d, DIAG_ERROR, "p.xml", 12, "md data", RULE_RAID1_CHUNK, "chunk on raid1");
        diag_add(&d, DIAG_WARNING, NULL, 0, NULL, RULE_UNUSED, "just so");
        assert_int_equal(diags_errors(&d), 1);
        char *s = diag_format(&d.v[0]);
        assert_string_equal(s, "p.xml:12: error: md data: chunk on raid1 [raid1-chunk]");
        free(s);
        s = diag_format(&d.v[1]);
        assert_string_equal(s, "warning: just so [unused]");
        free(s);
        diags_free(&d);
}

/* The registry: every row found again by its id, ids unique and spelt as ids,
 * a severity and a one-line meaning each. (tests/bats/rules.bats holds it
 * against the man page, the expected outputs and the emitters.) */
static void test_rules(void **state)
{
        (void)state;
        for (unsigned r = 0; r < _RULE_MAX; r++) {
                const char *name = rule_name(r), *meaning = rule_meaning(r);
                enum rule_id back;
                assert_non_null(name);
                assert_true(rule_lookup(name, &back));
                assert_int_equal(back, r); /* the first row of that name: ids are unique */
                assert_true(name[0] >= 'a' && name[0] <= 'z');
                assert_int_equal(strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-"), strlen(name));
                assert_null(strstr(name, "--"));
                assert_true(name[strlen(name) - 1] != '-');
                assert_true(rule_severity(r) == RULE_SEV_ERROR || rule_severity(r) == RULE_SEV_WARNING ||
                            rule_severity(r) == RULE_SEV_BOTH);
                assert_non_null(meaning);
                assert_true(*meaning && !strchr(meaning, '\n') && meaning[strlen(meaning) - 1] != '.');
        }
        enum rule_id r;
        assert_true(rule_lookup("raid1-chunk", &r));
        assert_int_equal(r, RULE_RAID1_CHUNK);
        assert_int_equal(rule_severity(RULE_RAID1_CHUNK), RULE_SEV_BOTH);
        assert_int_equal(rule_severity(RULE_QUEUE_MEMORY), RULE_SEV_ERROR);
        assert_int_equal(rule_severity(RULE_UNUSED), RULE_SEV_WARNING);
        assert_false(rule_lookup("raid1-chunck", &r));
        assert_false(rule_lookup(NULL, &r));
        assert_null(rule_name(_RULE_MAX));
}

/* the map the planner's uniqueness passes use: every key found, duplicates refused with the first value */
static void test_strmap(void **state)
{
        (void)state;
        struct strmap m = {0};
        char **keys = NULL;
        for (unsigned i = 0; i < 5000; i++)
                strv_pushf(&keys, "lun%u", i);
        for (unsigned i = 0; i < 5000; i++)
                assert_true(strmap_add(&m, keys[i], i, NULL));
        assert_int_equal(m.n, 5000);
        for (unsigned i = 0; i < 5000; i++)
                assert_int_equal(strmap_get(&m, keys[i]), i);
        size_t old = 0;
        assert_false(strmap_add(&m, "lun42", 7, &old));
        assert_int_equal(old, 42);
        assert_int_equal(strmap_get(&m, "lun5000"), (size_t)-1);
        assert_int_equal(strmap_get(&m, NULL), (size_t)-1);
        strmap_free(&m);
        assert_int_equal(strmap_get(&m, "lun1"), (size_t)-1);
        strv_free(keys);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_parse_size), cmocka_unit_test(test_fmt), cmocka_unit_test(test_math),
                cmocka_unit_test(test_strv),       cmocka_unit_test(test_diag),
                cmocka_unit_test(test_rules),
                cmocka_unit_test(test_strmap),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
