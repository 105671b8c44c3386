/* SELinux labels (src/sys/labels.c): which context strings from a root's
 * file_contexts may be written into security.selinux, and how a string from
 * the root is shown in a message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/util.h"
#include "sys/labels.h"

static void test_plausible_contexts(void **state)
{
        (void)state;
        const char *good[] = {
                "system_u:object_r:etc_t:s0",
                "system_u:object_r:udev_rules_t:s0",
                "system_u:object_r:etc_t", /* no MLS */
                "unconfined_u:object_r:user_home_t:s0:c0.c1023",
                "system_u:object_r:etc_t:s0-s0:c0.c1023",
                "system_u:object_r:etc_t:s0:c1,c5",
                "user.name:object_r:my-type_t:s0",
        };
        for (size_t i = 0; i < ELEMENTSOF(good); i++)
                assert_true(label_context_plausible(good[i]));
}

static void test_implausible_contexts(void **state)
{
        (void)state;
        const char *bad[] = {
                NULL, "", "etc_t", "system_u:object_r", "system_u:object_r:", ":object_r:etc_t:s0",
                "system_u::etc_t:s0", "system_u:object_r::s0", "system_u:object_r:etc_t:",
                "system_u:object_r:etc_t:s0\x1b]0;owned\x07", "system_u:object_r:etc_t:s0\n",
                "system_u:object_r:etc_t:s0\x7f", "system_u:object_r:etc\tt:s0", "system_u:object_r:etc t:s0",
                "system_u:object_r:\xc3\xa9tc_t:s0", "system_u:object_r:etc_t:s0;rm", "system_u:object_r:etc/t:s0",
                "<<none>>",
        };
        for (size_t i = 0; i < ELEMENTSOF(bad); i++)
                assert_false(label_context_plausible(bad[i]));
        /* 4096 bytes and more: longer than the kernel takes */
        char *l = xmalloc(5000);
        memset(l, 'c', 4999);
        l[4999] = 0;
        memcpy(l, "system_u:object_r:etc_t:s0:", 27);
        assert_false(label_context_plausible(l));
        l[4000] = 0;
        assert_true(label_context_plausible(l));
        free(l);
}

static void test_escape(void **state)
{
        (void)state;
        char *e = label_escape("s0\x1b]0;x\x07\n\x7f\\\xc3\xa9 ok");
        assert_string_equal(e, "s0\\x1b]0;x\\x07\\x0a\\x7f\\x5c\\xc3\\xa9 ok");
        free(e);
        e = label_escape(NULL);
        assert_string_equal(e, "");
        free(e);
        char longs[300];
        memset(longs, 'a', sizeof(longs) - 1);
        longs[299] = 0;
        e = label_escape(longs);
        assert_int_equal(strlen(e), 203);
        assert_string_equal(e + 200, "...");
        free(e);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_plausible_contexts),
                cmocka_unit_test(test_implausible_contexts),
                cmocka_unit_test(test_escape),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
