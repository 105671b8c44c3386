/* Units: what mkfs.xfs -N printed (src/sys/mkfs_out.c). The good case is what
 * mkfs.xfs 6.1.0 -N -d su=64k,sw=4 printed for a 10 GiB file; the bad ones
 * are that output garbled the ways a wrapper, a locale or another version
 * could garble it: each is refused, never read as a wrong size. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sys/mkfs_out.h"

#define OUT_FMT                                                                                                        \
        "meta-data=/tmp/mo.img            isize=512    agcount=16, agsize=%s blks\n"                                   \
        "         =                       sectsz=512   attr=2, projid32bit=1\n"                                        \
        "         =                       crc=1        finobt=1, sparse=1, rmapbt=0\n"                                 \
        "data     =                       bsize=%s   blocks=2621184, imaxpct=25\n"                                     \
        "         =                       sunit=16     swidth=64 blks\n"                                               \
        "naming   =version 2              bsize=4096   ascii-ci=0, ftype=1\n"                                          \
        "log      =internal log           bsize=4096   blocks=16384, version=2\n"

static bool parse(const char *ag, const char *bs, uint64_t *agsize, uint64_t *bsize)
{
        char out[1024];
        snprintf(out, sizeof(out), OUT_FMT, ag, bs);
        *agsize = *bsize = 7;
        return mkfs_out_ag(out, agsize, bsize);
}

static void test_real_output(void **state)
{
        (void)state;
        uint64_t ag, bs;
        assert_true(parse("163824", "4096", &ag, &bs));
        assert_int_equal(ag, 163824);
        assert_int_equal(bs, 4096);
        /* the smallest AG (16 MiB) and the largest (1 TiB) XFS allows, at 4 KiB and 64 KiB blocks */
        assert_true(parse("4096", "4096", &ag, &bs));
        assert_true(parse("268435456", "4096", &ag, &bs));
        assert_true(parse("16777216", "65536", &ag, &bs));
        assert_true(parse("32768", "512", &ag, &bs));
}

static void test_garbled_refused(void **state)
{
        (void)state;
        uint64_t ag, bs;
        static const char *const bad[][2] = {
                {"-1", "4096"},                   /* sscanf's %llu took this as 2^64 - 1 */
                {"18446744073709551616", "4096"}, /* one past 2^64 - 1 */
                {"99999999999999999999999", "4096"},
                {"163824x", "4096"},
                {"0x10000", "4096"},
                {"", "4096"},
                {"163824", "0"},
                {"163824", "3000"},               /* not a power of 2 */
                {"163824", "256"},
                {"163824", "131072"},
                {"4095", "4096"},                 /* under 16 MiB */
                {"268435457", "4096"},            /* over 1 TiB */
                {"1152921504606846976", "4096"},  /* 2^60 blocks: the product wraps */
        };
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                if (parse(bad[i][0], bad[i][1], &ag, &bs))
                        fail_msg("agsize=%s bsize=%s was read as %llu, %llu", bad[i][0], bad[i][1],
                                 (unsigned long long)ag, (unsigned long long)bs);
                assert_int_equal(ag, 7); /* untouched */
        }
        /* a field missing, or only outside its own lines */
        assert_false(mkfs_out_ag(NULL, &ag, &bs));
        assert_false(mkfs_out_ag("", &ag, &bs));
        assert_false(mkfs_out_ag("agsize=163824\ndata = bsize=4096\n", &ag, &bs));
        assert_false(mkfs_out_ag("meta-data=x agsize=163824 blks\n", &ag, &bs));
        assert_false(mkfs_out_ag("data     = bsize=4096\nmeta-data=x agsize=163824 blks\n", &ag, &bs));
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_real_output),
                cmocka_unit_test(test_garbled_refused),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
