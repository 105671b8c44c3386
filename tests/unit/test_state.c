/* SPDX-License-Identifier: GPL-2.0-or-later
 * The node's recorded state (src/discover/state.c): a file storprov writes and
 * reads back on every later run, read as input: every field checked, every
 * refusal naming the file and the field. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "discover/state.h"

#define DISK(id, key, value)                                                                                          \
        "{\"id\": \"" id "\", \"group\": \"lun\", \"key\": \"" key "\", \"value\": \"" value "\", "                    \
        "\"size_bytes\": 8249876152320, \"logical_sector_bytes\": 512, \"physical_sector_bytes\": 4096, "             \
        "\"su_bytes\": 65536, \"sw\": 11, \"full_stripe_bytes\": 720896, \"parity\": true}"
#define STATE(disks)                                                                                                  \
        "{\"format\": \"storprov-state\", \"format_version\": 1, \"profile\": \"grid\", \"seed\": "                   \
        "\"18446744073709551615\", \"tuning\": \"tuned\", \"disks\": [" disks "]}\n"

static void reads_what_was_written(void **state)
{
        (void)state;
        static const char text[] = STATE(DISK("lun1", "ID_WWN", "0x600050e04ab71d00") ", "
                                         DISK("lun2", "DM_UUID", "mpath-3600c0ff000530a3b1f2e6a6501000000"));
        struct node_state st;
        struct diags d = {0};
        assert_int_equal(state_parse(text, strlen(text), "s.json", &st, &d), 1);
        assert_string_equal(st.profile, "grid");
        assert_true(st.seed == UINT64_MAX); /* a u64 as a string: JSON numbers lose it */
        assert_string_equal(st.tuning, "tuned");
        assert_int_equal(st.n_disks, 2);
        const struct state_disk *sd = state_disk_of(&st, "lun2");
        assert_non_null(sd);
        assert_string_equal(sd->key, "DM_UUID");
        assert_int_equal(sd->physical_sector_bytes, 4096);
        assert_int_equal(sd->full_stripe_bytes, 720896);
        assert_true(sd->parity);
        assert_null(state_disk_of(&st, "lun3"));
        state_free(&st);
        assert_int_equal(d.n, 0);
        _cleanup_free_ char *p = state_path_of("grid 3/ware..\x01");
        assert_string_equal(p, "/var/lib/storprov/grid_3_ware___.json");
}

static void refuses_what_it_did_not_write(void **state)
{
        (void)state;
        static const struct {
                const char *text, *why;
        } bad[] = {
                {"", "not one JSON document"},
                {"{\"format\": \"storprov-state\"", "not one JSON document"},
                {STATE("") "{}", "something after it"},
                {"{\"format\": \"other\"}", "not a storprov state file"},
                {"{\"format\": \"storprov-state\", \"format_version\": 2}", "format_version 2"},
                {"{\"format\": \"storprov-state\", \"format_version\": 1, \"profile\": \"p\", \"tuning\": \"fast\", "
                 "\"seed\": \"1\", \"disks\": []}",
                 "\"tuning\" is \"fast\""},
                {"{\"format\": \"storprov-state\", \"format_version\": 1, \"profile\": \"p\", \"tuning\": \"udev\", "
                 "\"seed\": \"-1\", \"disks\": []}",
                 "\"seed\" \"-1\" is not a whole number"},
                {"{\"format\": \"storprov-state\", \"format_version\": 1, \"profile\": \"p\\u0001\", \"tuning\": "
                 "\"udev\", \"seed\": \"1\", \"disks\": []}",
                 "\"profile\" is not printable text"},
                {STATE(DISK("lun1", "ID_WWN", "a") ", " DISK("lun1", "ID_WWN", "b")), "the id lun1 twice"},
                {STATE(DISK("lun1", "RUN", "x")), "\"key\" RUN is not an identity"},
                {STATE("{\"id\": \"lun1\"}"), "has no \"group\" string"},
                {STATE("3"), "disks[0] is not an object"},
        };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
                struct node_state st;
                struct diags d = {0};
                if (state_parse(bad[i].text, strlen(bad[i].text), "s.json", &st, &d) != -EINVAL)
                        fail_msg("%zu: read: %s", i, bad[i].text);
                if (d.n != 1 || !strstr(d.v[0].message, bad[i].why) || strcmp(d.v[0].file, "s.json") ||
                    d.v[0].rule != RULE_STATE_FILE)
                        fail_msg("%zu: said \"%s\", not \"%s\"", i, d.n ? d.v[0].message : "nothing", bad[i].why);
                assert_null(st.profile);
                diags_free(&d);
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(reads_what_was_written),
                cmocka_unit_test(refuses_what_it_did_not_write),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
