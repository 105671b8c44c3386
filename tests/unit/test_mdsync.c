/* SPDX-License-Identifier: GPL-2.0-or-later
 * The md resync line apply says after creating or finding an array
 * (apply/query.c md_sync_text): percentage and time left from sysfs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "apply/internal.h"

static void expect(const char *action, const char *completed, const char *speed, const char *want)
{
        char *t = md_sync_text(action, completed, speed);
        if (strcmp(t, want))
                fail_msg("md_sync_text(%s, %s, %s) = \"%s\", want \"%s\"", action, completed, speed, t, want);
        free(t);
}

static void test_progress(void **state)
{
        (void)state;
        /* 1 TiB member (2^31 sectors), 5% done, 100 MiB/s: 0.95 TiB / 100 MiB/s = 9961 s */
        expect("resync", "107374182 / 2147483648", "102400",
               "resync running in the background: 5.0% done, about 2h 46m left at 100.0 MB/s");
        expect("recover", "1000 / 2000", "500", "recover running in the background: 50.0% done, about 1s left at 0.5 MB/s");
        expect("resync", "0 / 2000000", "1000", "resync running in the background: 0.0% done, about 16m 40s left at 1.0 MB/s");
        /* no speed yet (just started): the percentage alone */
        expect("resync", "10 / 1000", "none", "resync running in the background: 1.0% done");
        expect("resync", "10 / 1000", NULL, "resync running in the background: 1.0% done");
        /* what sysfs says when it is not a count: no figures rather than wrong ones */
        expect("resync", "none", "0", "resync running in the background (cat /proc/mdstat for its progress)");
        expect("resync", "delayed", NULL, "resync running in the background (cat /proc/mdstat for its progress)");
        expect("resync", "5 / 0", "10", "resync running in the background (cat /proc/mdstat for its progress)");
        expect("resync", "9 / 5", "10", "resync running in the background (cat /proc/mdstat for its progress)");
        expect(NULL, NULL, NULL, "a resync running in the background (cat /proc/mdstat for its progress)");
}

int main(void)
{
        const struct CMUnitTest tests[] = {cmocka_unit_test(test_progress)};
        return cmocka_run_group_tests(tests, NULL, NULL);
}
