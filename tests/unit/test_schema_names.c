/* SPDX-License-Identifier: GPL-2.0-or-later
 * The schema's own names (input/schema_names.c): read from the built-in
 * RELAX NG, and the nearest name to a typo. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "input/schema_names.h"

static void test_names_from_the_schema(void **state)
{
        (void)state;
        assert_true(schema_elem_known("tune"));
        assert_true(schema_elem_known("profile"));
        assert_false(schema_elem_known("tnue"));
        /* <tune>'s attributes, reached through the schema's define */
        assert_true(schema_name_in(schema_elem_attrs("tune"), "read-ahead-kb"));
        assert_true(schema_name_in(schema_elem_attrs("tune"), "safe-mode-delay"));
        assert_false(schema_name_in(schema_elem_attrs("tune"), "read-ahed-kb"));
        /* attributes through <ref name="safety"/> (wipe, preserve) */
        assert_true(schema_name_in(schema_elem_attrs("disks"), "wipe"));
        /* children through refs, not a nested element's own children */
        assert_true(schema_name_in(schema_elem_children("disks"), "tune"));
        assert_true(schema_name_in(schema_elem_children("disks"), "hwraid"));
        assert_false(schema_name_in(schema_elem_children("disks"), "partition"));
        assert_true(schema_name_in(schema_elem_children("profile"), "xfs"));
        assert_null(schema_elem_attrs("no-such-element"));
}

static void test_nearest(void **state)
{
        (void)state;
        char *const *t = schema_elem_attrs("tune");
        assert_string_equal(schema_nearest(t, "read-ahed-kb"), "read-ahead-kb");
        assert_string_equal(schema_nearest(t, "readahead-kb"), "read-ahead-kb");
        assert_string_equal(schema_nearest(t, "nr_requests"), "nr-requests");
        assert_string_equal(schema_nearest(t, "sheduler"), "scheduler");
        assert_null(schema_nearest(t, "colour"));          /* not a typo of any */
        assert_null(schema_nearest(t, ""));
        char long_word[200];
        memset(long_word, 'x', sizeof long_word - 1);
        long_word[sizeof long_word - 1] = 0;
        assert_null(schema_nearest(t, long_word));          /* bounded, never a guess */
        assert_null(schema_nearest(NULL, "scheduler"));
        assert_string_equal(schema_nearest(schema_elem_children("disks"), "hwriad"), "hwraid");
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_names_from_the_schema),
                cmocka_unit_test(test_nearest),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
