/* Geometry: table-driven over levels, member counts and chunks. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "plan/argv.h"
#include "plan/geometry.h"
#include "base/util.h"

struct row {
        enum raid_level level;
        unsigned members, legs;
        uint64_t chunk;
        bool md;
        /* expected */
        int rc;
        uint64_t su;
        unsigned sw;
        uint64_t full, align;
        bool parity;
};

static const struct row rows[] = {
        /* seed 000: 12 disks RAID5 64 KiB → su 64k sw 11, 704 KiB stripe, 11 MiB alignment */
        {RAID_5, 12, 0, 64 * KiB, false, 0, 64 * KiB, 11, 704 * KiB, 11 * MiB, true},
        {RAID_5, 4, 0, 64 * KiB, true, 0, 64 * KiB, 3, 192 * KiB, 3 * MiB, true},
        {RAID_5, 3, 0, 512 * KiB, true, 0, 512 * KiB, 2, 1 * MiB, 1 * MiB, true},
        {RAID_4, 5, 0, 64 * KiB, true, 0, 64 * KiB, 4, 256 * KiB, 1 * MiB, true},
        {RAID_6, 6, 0, 64 * KiB, true, 0, 64 * KiB, 4, 256 * KiB, 1 * MiB, true},
        {RAID_6, 12, 0, 64 * KiB, false, 0, 64 * KiB, 10, 640 * KiB, 5 * MiB, true},
        {RAID_6, 8, 0, 128 * KiB, true, 0, 128 * KiB, 6, 768 * KiB, 3 * MiB, true},
        {RAID_0, 3, 0, 64 * KiB, false, 0, 64 * KiB, 3, 192 * KiB, 3 * MiB, false},
        {RAID_0, 2, 0, 512 * KiB, true, 0, 512 * KiB, 2, 1 * MiB, 1 * MiB, false},
        {RAID_10, 4, 0, 64 * KiB, true, 0, 64 * KiB, 2, 128 * KiB, 1 * MiB, false},
        {RAID_10, 6, 0, 256 * KiB, true, 0, 256 * KiB, 3, 768 * KiB, 3 * MiB, false},
        {RAID_10, 3, 0, 64 * KiB, true, 0, 64 * KiB, 3, 192 * KiB, 3 * MiB, false}, /* odd count: raid_disks */
        {RAID_1, 2, 0, 0, true, 0, 0, 0, 0, 1 * MiB, false},
        {RAID_1, 3, 0, 0, false, 0, 0, 0, 0, 1 * MiB, false},
        /* RAID50: 2 legs of 6 → sw = 2 × 5 */
        {RAID_50, 12, 2, 64 * KiB, false, 0, 64 * KiB, 10, 640 * KiB, 5 * MiB, true},
        /* RAID60: 3 legs of 8 → sw = 3 × 6 */
        {RAID_60, 24, 3, 128 * KiB, false, 0, 128 * KiB, 18, 2304 * KiB, 9 * MiB, true},
        /* rules */
        {RAID_1, 2, 0, 64 * KiB, true, -EINVAL, 0, 0, 0, 0, false},       /* chunk on RAID1 */
        {RAID_5, 2, 0, 64 * KiB, true, -EINVAL, 0, 0, 0, 0, false},       /* too few members */
        {RAID_6, 3, 0, 64 * KiB, true, -EINVAL, 0, 0, 0, 0, false},
        {RAID_0, 1, 0, 64 * KiB, true, -EINVAL, 0, 0, 0, 0, false},
        {RAID_5, 4, 0, 0, true, -EINVAL, 0, 0, 0, 0, false},              /* no chunk */
        {RAID_5, 4, 0, 6 * KiB, false, -EINVAL, 0, 0, 0, 0, false},       /* not 4 KiB multiple (mkfs.xfs rejects su=6k) */
        {RAID_5, 4, 0, 96 * KiB, true, -EINVAL, 0, 0, 0, 0, false},       /* md needs a power of 2 */
        {RAID_6, 5, 0, 384 * KiB, true, -EINVAL, 0, 0, 0, 0, false},      /* ... on raid4/5/6/10 */
        {RAID_10, 4, 0, 384 * KiB, true, -EINVAL, 0, 0, 0, 0, false},
        {RAID_0, 3, 0, 384 * KiB, true, 0, 384 * KiB, 3, 1152 * KiB, 9 * MiB, false}, /* md raid0 takes any 4k multiple */
        {RAID_5, 4, 0, 96 * KiB, false, 0, 96 * KiB, 3, 288 * KiB, 9 * MiB, true}, /* hw strip may be odd */
        {RAID_50, 12, 1, 64 * KiB, false, -EINVAL, 0, 0, 0, 0, false},    /* legs < 2 */
        {RAID_50, 13, 2, 64 * KiB, false, -EINVAL, 0, 0, 0, 0, false},    /* uneven legs */
        {RAID_60, 6, 2, 64 * KiB, false, -EINVAL, 0, 0, 0, 0, false},     /* legs of 3 too small for RAID6 */
        {RAID_5, 6, 2, 64 * KiB, false, -EINVAL, 0, 0, 0, 0, false},      /* legs on a non-nested level */
};

static void test_table(void **state)
{
        (void)state;
        for (size_t i = 0; i < ELEMENTSOF(rows); i++) {
                const struct row *r = &rows[i];
                struct raid_desc d = {.level = r->level, .members = r->members, .legs = r->legs,
                                      .chunk_bytes = r->chunk, .md = r->md};
                struct stripe_geom g = {0};
                char *e = NULL;
                int rc = raid_geometry(&d, &g, &e);
                if (rc != r->rc)
                        fail_msg("row %zu: %s x %u chunk %llu: rc %d, expected %d (%s)", i, raid_level_name(r->level),
                                 r->members, (unsigned long long)r->chunk, rc, r->rc, e ? e : "");
                if (rc < 0) {
                        assert_non_null(e);
                        assert_true(strlen(e) > 10);
                        free(e);
                        continue;
                }
                assert_int_equal(g.su_bytes, r->su);
                assert_int_equal(g.sw, r->sw);
                assert_int_equal(g.full_stripe_bytes, r->full);
                assert_int_equal(g.parity, r->parity);
                assert_int_equal(partition_align_bytes(&g, 512), r->align);
        }
}

static void test_seed000_xfs_units(void **state)
{
        (void)state;
        struct raid_desc d = {.level = RAID_5, .members = 12, .chunk_bytes = 64 * KiB};
        struct stripe_geom g;
        assert_int_equal(raid_geometry(&d, &g, NULL), 0);
        /* xfs_info reports fs blocks: sunit=16 swidth=176 */
        assert_int_equal(g.su_bytes / XFS_BLOCK_BYTES, 16);
        assert_int_equal(g.full_stripe_bytes / XFS_BLOCK_BYTES, 176);
        /* mkfs -d sunit/swidth are 512-byte sectors: 128/1408 */
        assert_int_equal(g.su_bytes / 512, 128);
        assert_int_equal(g.full_stripe_bytes / 512, 1408);
        char **argv = NULL;
        /* a RAID5: no log stripe unit unless the profile asks (log-stripe-unit="true") */
        xfs_stripe_args(&g, xfs_log_su_bytes(&g, -1), &argv);
        char *s = strv_join(argv, " ");
        assert_string_equal(s, "-d su=64k,sw=11 -l version=2,su=4k");
        free(s);
        strv_free(argv);
        argv = NULL;
        xfs_stripe_args(&g, xfs_log_su_bytes(&g, 1), &argv);
        s = strv_join(argv, " ");
        assert_string_equal(s, "-d su=64k,sw=11 -l version=2,su=64k");
        free(s);
        strv_free(argv);
}

static void test_log_su(void **state)
{
        (void)state;
        struct { uint64_t su; uint64_t want; } t[] = {
                {64 * KiB, 64 * KiB},  {256 * KiB, 256 * KiB}, {512 * KiB, 256 * KiB}, /* mdadm default chunk */
                {1 * MiB, 256 * KiB},  {96 * KiB, 32 * KiB},   {4 * KiB, 4 * KiB},     {0, 0},
        };
        for (size_t i = 0; i < ELEMENTSOF(t); i++) {
                struct stripe_geom g = {.su_bytes = t[i].su, .sw = 2, .full_stripe_bytes = 2 * t[i].su};
                uint64_t l = xfs_log_su_bytes(&g, -1);
                assert_int_equal(l, t[i].want);
                /* the same stripe with parity: one block, unless the profile says true; false: one block */
                struct stripe_geom p = g;
                p.parity = true;
                assert_int_equal(xfs_log_su_bytes(&p, -1), t[i].su ? 4096 : 0);
                assert_int_equal(xfs_log_su_bytes(&p, 1), t[i].want);
                assert_int_equal(xfs_log_su_bytes(&g, 0), t[i].su ? 4096 : 0);
                if (l) {
                        assert_true(l <= XFS_LOG_SU_MAX_BYTES);
                        assert_int_equal(l % 4096, 0);
                        assert_true(xfs_logbsize_bytes(l) >= l);
                }
        }
}

/* -d agsize on parity stripes: whole stripes per AG, the count nearest mkfs's
 * and coprime to sw+1 and sw+2 (the member counts of a RAID5 and a RAID6). */
static void test_agsize(void **state)
{
        (void)state;
        struct stripe_geom r5 = {.su_bytes = 64 * KiB, .sw = 3, .full_stripe_bytes = 192 * KiB, .parity = true};
        struct stripe_geom r6 = {.su_bytes = 64 * KiB, .sw = 4, .full_stripe_bytes = 256 * KiB, .parity = true};
        struct stripe_geom r0 = {.su_bytes = 64 * KiB, .sw = 4, .full_stripe_bytes = 256 * KiB, .parity = false};
        /* RAID5 4 x 64K, swidth 48 blocks. 20 GiB: mkfs picks 16 AGs of 327680 blocks,
         * 6826.67 stripes; nearest 6827 (odd, 6827 mod 5 = 2): 6827 x 48 = 327696,
         * and 5242880 / 327696 = 15.9995, so still 16 AGs */
        assert_int_equal(xfs_stripe_agsize_blocks(327680, 4096, &r5), 327696);
        assert_int_equal((5242880 + 327696 - 1) / 327696, 16);
        /* 600 GiB: mkfs's 4915184 is 102400 stripes less one su (its own rotation);
         * 102400 is even (gcd with 4 = 4), 102401 is odd and 1 mod 5: 4915248 */
        assert_int_equal(xfs_stripe_agsize_blocks(4915184, 4096, &r5), 4915248);
        /* already whole stripes and coprime to 4 and 5: kept */
        assert_int_equal(xfs_stripe_agsize_blocks(327696, 4096, &r5), 0);
        /* RAID6 6 x 64K, swidth 64: 327680 = 5120 stripes, a multiple of 5;
         * 5121 = 3 x 1707 shares 3 with 6; 5119 is odd, 1 mod 3 and 4 mod 5: 327616 */
        assert_int_equal(xfs_stripe_agsize_blocks(327680, 4096, &r6), 327616);
        /* no parity, no stripe, blocks that do not divide the stripe: mkfs decides */
        assert_int_equal(xfs_stripe_agsize_blocks(327680, 4096, &r0), 0);
        assert_int_equal(xfs_stripe_agsize_blocks(327680, 4096, &(struct stripe_geom){0}), 0);
        struct stripe_geom odd = {.su_bytes = 6 * KiB, .sw = 1, .full_stripe_bytes = 6 * KiB, .parity = true};
        assert_int_equal(xfs_stripe_agsize_blocks(327680, 4096, &odd), 0);
        /* an AG under 16 MiB (86 stripes of 192 KiB) is never proposed */
        assert_int_equal(xfs_stripe_agsize_blocks(1000, 4096, &r5), 0);
        /* every answer: whole stripes, AG headers rotating */
        for (uint64_t a = 4096; a < 4096 + 3 * 48 * 20; a += 16) {
                uint64_t n = xfs_stripe_agsize_blocks(a, 4096, &r5);
                uint64_t got = n ? n : a;
                assert_int_equal(got % 48, 0);
                assert_int_equal(gcd_u64(got / 48, 4), 1);
                assert_int_equal(gcd_u64(got / 48, 5), 1);
                assert_true(got + 3 * 48 >= a && got <= a + 3 * 48);
        }
}

static void test_extent(void **state)
{
        (void)state;
        struct { uint64_t full; uint64_t want; } t[] = {
                {0, 4 * MiB},           {256 * KiB, 4 * MiB},  {704 * KiB, 4224 * KiB}, /* 6 x 704k, 33 x 128k */
                {192 * KiB, 4224 * KiB}, {640 * KiB, 4480 * KiB},  {8 * MiB, 8 * MiB},
                {2304 * KiB, 4608 * KiB},
        };
        for (size_t i = 0; i < ELEMENTSOF(t); i++) {
                uint64_t e = vg_extent_bytes(t[i].full);
                assert_int_equal(e, t[i].want);
                if (t[i].full)
                        assert_int_equal(e % t[i].full, 0);
                assert_true(is_pow2(e) || e % (128 * KiB) == 0);
                assert_true(e >= 4 * MiB);
        }
}

static void test_stack(void **state)
{
        (void)state;
        /* md RAID0 over 4 hardware RAID6 LUNs (6 x 64k, full 256k) */
        struct stripe_geom lun = {.su_bytes = 64 * KiB, .sw = 4, .full_stripe_bytes = 256 * KiB, .parity = true};
        struct stripe_geom g;
        char *e = NULL;
        /* chunk = one lower full stripe: su = chunk, sw = legs (what md exports: io_min 256k, io_opt 1m) */
        assert_int_equal(stack_geometry(&lun, 4, 256 * KiB, false, &g, &e), 0);
        assert_int_equal(g.su_bytes, 256 * KiB);
        assert_int_equal(g.sw, 4);
        assert_int_equal(g.full_stripe_bytes, 1 * MiB);
        assert_true(g.parity); /* from the LUNs, though raid0 itself has none */
        /* a larger multiple: su = chunk, sw = legs */
        assert_int_equal(stack_geometry(&lun, 4, 512 * KiB, false, &g, &e), 0);
        assert_int_equal(g.su_bytes, 512 * KiB);
        assert_int_equal(g.sw, 4);
        assert_int_equal(g.full_stripe_bytes, 2 * MiB);
        /* a divisor: 128k chunks, two make one LUN stripe: sw = 4 x 256k / 128k = 8, full 1m */
        assert_int_equal(stack_geometry(&lun, 4, 128 * KiB, false, &g, &e), 0);
        assert_int_equal(g.su_bytes, 128 * KiB);
        assert_int_equal(g.sw, 8);
        assert_int_equal(g.full_stripe_bytes, 1 * MiB);
        /* ... and the advice: 256k (one LUN stripe, a power of 2) would reach each LUN in one piece */
        e = stack_chunk_advice(&lun, 128 * KiB, 0, false);
        assert_non_null(e);
        assert_non_null(strstr(e, "2 pieces"));
        free(e);
        assert_null(stack_chunk_advice(&lun, 256 * KiB, 0, false));
        assert_null(stack_chunk_advice(&lun, 64 * KiB, 128 * KiB, false)); /* 256k is over the limit: 64k is gathered */
        /* F over the limit and a chunk of 128 KiB or more: each piece its own request; 64k is advised */
        e = stack_chunk_advice(&lun, 128 * KiB, 128 * KiB, false);
        assert_non_null(e);
        assert_non_null(strstr(e, "separate request"));
        assert_non_null(strstr(e, "; 64k gathers"));
        free(e);
        /* md RAID5 of 4 such LUNs (3 data legs), chunk 64k: sw = 3 x 256k / 64k = 12 */
        assert_int_equal(stack_geometry(&lun, 3, 64 * KiB, true, &g, &e), 0);
        assert_int_equal(g.sw, 12);
        assert_int_equal(g.full_stripe_bytes, 768 * KiB);
        /* neither (192k vs 256k): refused, naming both */
        assert_int_equal(stack_geometry(&lun, 4, 192 * KiB, false, &g, &e), -EINVAL);
        assert_non_null(strstr(e, "straddle"));
        assert_non_null(strstr(e, "192k"));
        assert_non_null(strstr(e, "256k"));
        free(e);
        /* plain disks: su = chunk, sw = legs */
        assert_int_equal(stack_geometry(NULL, 3, 64 * KiB, false, &g, &e), 0);
        assert_int_equal(g.su_bytes, 64 * KiB);
        assert_int_equal(g.sw, 3);
        assert_false(g.parity);
        /* members exporting a hint, no parity (an NVMe's io_min 4k / io_opt 1m): md RAID5 of 4 x 64k
         * keeps its own width, su 64k sw 3, with parity from the level */
        struct stripe_geom hint = {.su_bytes = 4 * KiB, .sw = 256, .full_stripe_bytes = 1 * MiB};
        assert_int_equal(stack_geometry(&hint, 3, 64 * KiB, true, &g, &e), 0);
        assert_int_equal(g.su_bytes, 64 * KiB);
        assert_int_equal(g.sw, 3);
        assert_true(g.parity);
        /* a chunk that straddles a hint is a warning (1), not a refusal */
        struct stripe_geom hint96 = {.su_bytes = 32 * KiB, .sw = 3, .full_stripe_bytes = 96 * KiB};
        assert_int_equal(stack_geometry(&hint96, 3, 64 * KiB, true, &g, &e), 1);
        assert_non_null(strstr(e, "not followed"));
        free(e);
        assert_int_equal(g.sw, 3);
        /* the derived chunk: the lower full stripe when it is a power of 2 ... */
        assert_int_equal(stack_chunk_bytes(&lun, 0, false, &e), 256 * KiB);
        free(e);
        /* ... within the limit (an LV's extent), else the lower su when it is a power of 2 ... */
        assert_int_equal(stack_chunk_bytes(&lun, 128 * KiB, false, &e), 64 * KiB);
        free(e);
        /* ... over parity devices whose F cannot be the chunk, the largest power of 2 of at most 64k
         * dividing F: 4 x 96k = 384k = 3 x 128k gives 64k, pieces the block layer still gathers */
        struct stripe_geom odd = {.su_bytes = 96 * KiB, .sw = 4, .full_stripe_bytes = 384 * KiB, .parity = true};
        assert_int_equal(stack_chunk_bytes(&odd, 0, false, &e), 64 * KiB);
        assert_non_null(strstr(e, "below 128 KiB"));
        free(e);
        /* ... and without parity below (an exported hint), the su when it is a power of 2, else the
         * largest power of 2 dividing F */
        struct stripe_geom hint384 = {.su_bytes = 128 * KiB, .sw = 3, .full_stripe_bytes = 384 * KiB};
        assert_int_equal(stack_chunk_bytes(&hint384, 0, false, &e), 128 * KiB);
        free(e);
        struct stripe_geom hintodd = {.su_bytes = 96 * KiB, .sw = 4, .full_stripe_bytes = 384 * KiB};
        assert_int_equal(stack_chunk_bytes(&hintodd, 0, false, &e), 128 * KiB);
        assert_non_null(strstr(e, "largest power of 2"));
        free(e);
        /* a parity md above (raid4/5/6): F itself when it is a power of 2 of at most 512k, else the
         * largest power of 2 of at most 64k dividing F, so that a leg's pieces of one LUN stripe merge
         * into one request. RAID6 10 x 256K LUNs (F 2 MiB): 64k (a 2 MiB chunk measured 2.98 in the VM);
         * F 256k: 256k itself; F 384k (3 x 128k): 64k (128k measured 0.46 and 0.53 in the VM sweep,
         * seed 1796344185); F 64k x 5 = 320k: 64k */
        struct stripe_geom lun2m = {.su_bytes = 256 * KiB, .sw = 8, .full_stripe_bytes = 2 * MiB, .parity = true};
        assert_int_equal(stack_chunk_bytes(&lun2m, 0, true, &e), 64 * KiB);
        assert_non_null(strstr(e, "below 128 KiB"));
        free(e);
        assert_int_equal(stack_chunk_bytes(&lun2m, 0, false, &e), 2 * MiB);
        free(e);
        assert_int_equal(stack_chunk_bytes(&lun, 0, true, &e), 256 * KiB);
        free(e);
        assert_int_equal(stack_chunk_bytes(&odd, 0, true, &e), 64 * KiB);
        free(e);
        struct stripe_geom five = {.su_bytes = 64 * KiB, .sw = 5, .full_stripe_bytes = 320 * KiB, .parity = true};
        assert_int_equal(stack_chunk_bytes(&five, 0, true, &e), 64 * KiB);
        free(e);
        /* md raid0 (issue 32): a parity stripe that is not a power of 2 is its own chunk up to 512k (320k,
         * 384k); a power of 2 (256k), one above 512k (2 MiB; 640k) or a stripe with no parity: 0, the
         * stacking rule decides */
        assert_int_equal(md0_chunk_bytes(&five, &e), 320 * KiB);
        assert_non_null(strstr(e, "md raid0 takes any multiple of 4 KiB"));
        free(e);
        assert_int_equal(md0_chunk_bytes(&lun, &e), 0);
        assert_null(e);
        assert_int_equal(md0_chunk_bytes(&lun2m, &e), 0);
        struct stripe_geom wide = {.su_bytes = 128 * KiB, .sw = 5, .full_stripe_bytes = 640 * KiB, .parity = true};
        assert_int_equal(md0_chunk_bytes(&wide, &e), 0);
        struct stripe_geom nopar = {.su_bytes = 128 * KiB, .sw = 3, .full_stripe_bytes = 384 * KiB};
        assert_int_equal(md0_chunk_bytes(&nopar, &e), 0);
        /* members with only a hint (no parity below): the 512k cap alone */
        struct stripe_geom hint1m = {.su_bytes = 4 * KiB, .sw = 256, .full_stripe_bytes = 1 * MiB};
        assert_int_equal(stack_chunk_bytes(&hint1m, 0, true, &e), 512 * KiB);
        free(e);
        /* a stated chunk that pays read-modify-write warns under a parity md as at every level (issue 30):
         * 512k pieces of a 2 MiB LUN stripe and 128k pieces of a 384k one reach the LUN one by one; 64k and
         * below gather (not warned); F itself when it is a power of 2 of at most 512k is not warned */
        e = stack_chunk_advice(&lun2m, 512 * KiB, 0, true);
        assert_non_null(e);
        assert_non_null(strstr(e, "64k gathers"));
        free(e);
        e = stack_chunk_advice(&odd, 128 * KiB, 0, true);
        assert_non_null(e);
        free(e);
        assert_null(stack_chunk_advice(&odd, 64 * KiB, 0, true));
        assert_null(stack_chunk_advice(&lun2m, 64 * KiB, 0, true));
        assert_null(stack_chunk_advice(&lun, 256 * KiB, 0, true));
        e = stack_chunk_advice(&lun2m, 512 * KiB, 0, false);
        assert_non_null(e);
        free(e);
        assert_int_equal(stack_geometry(&odd, 2, 128 * KiB, false, &g, &e), 0);
        assert_int_equal(g.sw, 6); /* 2 x 384k / 128k */
        assert_int_equal(g.full_stripe_bytes, 768 * KiB);
}

/* RAID60/RAID50 over hardware RAID LUNs, striped by LVM (-i n, stripe size
 * derived) or md RAID0 (chunk derived): every figure worked out by hand in
 * the comment of its row. F = data disks x strip; the derived chunk is F when
 * F is a power of 2 (each LUN gets one whole stripe per chunk: su = F, sw =
 * n), else the strip (su = strip, sw = n x F / strip); full = n x F; PV data
 * alignment = lcm(1 MiB, F); extent = the smallest multiple of that of at
 * least 4 MiB (all are multiples of 128 KiB, which vgcreate takes). */
static void test_stack_table(void **state)
{
        (void)state;
        static const struct {
                enum raid_level level;
                unsigned disks, n;
                uint64_t strip, chunk, full, pv_align, extent;
                unsigned sw;
        } t[] = {
                /* RAID6 6 disks: 4 data; F = 4 strips, a power of 2: chunk F, sw n */
                {RAID_6, 6, 2, 64 * KiB, 256 * KiB, 512 * KiB, 1 * MiB, 4 * MiB, 2},   /* F 256k; lcm(1m,256k) = 1m */
                {RAID_6, 6, 3, 64 * KiB, 256 * KiB, 768 * KiB, 1 * MiB, 4 * MiB, 3},   /* 3 x 256k */
                {RAID_6, 6, 4, 64 * KiB, 256 * KiB, 1 * MiB, 1 * MiB, 4 * MiB, 4},     /* 4 x 256k */
                {RAID_6, 6, 2, 128 * KiB, 512 * KiB, 1 * MiB, 1 * MiB, 4 * MiB, 2},    /* F 512k */
                {RAID_6, 6, 4, 256 * KiB, 1 * MiB, 4 * MiB, 1 * MiB, 4 * MiB, 4},      /* F 1m */
                /* RAID6 8 disks: 6 data; F = 6 strips, never a power of 2: chunk = the largest power of 2
                 * of at most 64k dividing F (the strip up to 64k), sw = n x F / chunk */
                {RAID_6, 8, 2, 64 * KiB, 64 * KiB, 768 * KiB, 3 * MiB, 6 * MiB, 12},   /* F 384k = 2^7 x 3k: lcm(2^10k, ...) = 3m; 2 x 3m = 6m */
                {RAID_6, 8, 3, 64 * KiB, 64 * KiB, 1152 * KiB, 3 * MiB, 6 * MiB, 18},  /* 3 x 384k */
                {RAID_6, 8, 4, 64 * KiB, 64 * KiB, 1536 * KiB, 3 * MiB, 6 * MiB, 24},  /* 4 x 384k */
                {RAID_6, 8, 2, 128 * KiB, 64 * KiB, 1536 * KiB, 3 * MiB, 6 * MiB, 24}, /* F 768k = 2^8 x 3k: lcm 3m */
                {RAID_6, 8, 3, 256 * KiB, 64 * KiB, 4608 * KiB, 3 * MiB, 6 * MiB, 72}, /* F 1536k = 2^9 x 3k: lcm 3m */
                /* RAID5 4 disks of 128k (F 384k): 64k pieces, one 384k request per LUN (the 128k strip measured
                 * 0.026-0.050 in the VM, every piece its own request) */
                {RAID_5, 4, 4, 128 * KiB, 64 * KiB, 1536 * KiB, 3 * MiB, 6 * MiB, 24},
                /* RAID6 10 disks: 8 data, F a power of 2 */
                {RAID_6, 10, 2, 64 * KiB, 512 * KiB, 1 * MiB, 1 * MiB, 4 * MiB, 2},   /* F 512k */
                {RAID_6, 10, 3, 128 * KiB, 1 * MiB, 3 * MiB, 1 * MiB, 4 * MiB, 3},    /* F 1m */
                {RAID_6, 10, 4, 256 * KiB, 2 * MiB, 8 * MiB, 2 * MiB, 4 * MiB, 4},    /* F 2m: lcm(1m, 2m) = 2m; 2 x 2m */
                /* RAID50: RAID5 LUNs of 5 disks (4 data) and 9 disks (8 data) */
                {RAID_5, 5, 2, 64 * KiB, 256 * KiB, 512 * KiB, 1 * MiB, 4 * MiB, 2},    /* F 256k */
                {RAID_5, 5, 3, 64 * KiB, 256 * KiB, 768 * KiB, 1 * MiB, 4 * MiB, 3},
                {RAID_5, 9, 3, 64 * KiB, 512 * KiB, 1536 * KiB, 1 * MiB, 4 * MiB, 3},   /* F 512k */
                {RAID_5, 9, 2, 128 * KiB, 1 * MiB, 2 * MiB, 1 * MiB, 4 * MiB, 2},       /* F 1m */
                /* RAID5 of 4 disks (3 data): F = 3 strips, not a power of 2 */
                {RAID_5, 4, 2, 64 * KiB, 64 * KiB, 384 * KiB, 3 * MiB, 6 * MiB, 6},     /* F 192k: lcm 3m */
        };
        for (size_t i = 0; i < ELEMENTSOF(t); i++) {
                struct raid_desc d = {.level = t[i].level, .members = t[i].disks, .chunk_bytes = t[i].strip};
                struct stripe_geom lun, g;
                char *e = NULL;
                assert_int_equal(raid_geometry(&d, &lun, &e), 0);
                assert_int_equal(pv_data_alignment_bytes(&lun), t[i].pv_align);
                assert_int_equal(vg_extent_bytes(t[i].pv_align), t[i].extent);
                uint64_t c = stack_chunk_bytes(&lun, t[i].extent, false, &e);
                free(e);
                e = NULL;
                assert_int_equal(c, t[i].chunk);
                /* LVM stripes and md RAID0 alike: n legs, chunk c */
                assert_int_equal(stack_geometry(&lun, t[i].n, c, false, &g, &e), 0);
                assert_int_equal(g.su_bytes, t[i].chunk);
                assert_int_equal(g.sw, t[i].sw);
                assert_int_equal(g.full_stripe_bytes, t[i].full);
                assert_true(g.parity);
                /* mkfs.xfs takes it: su a multiple of the sector, sunit x sw within 32 bits */
                assert_int_equal(xfs_validate_stripe(g.su_bytes, g.sw, 512, &e), 0);
                /* the strip as the chunk still covers whole LUN stripes: sw = n x F / strip */
                assert_int_equal(stack_geometry(&lun, t[i].n, t[i].strip, false, &g, &e), 0);
                assert_int_equal(g.su_bytes, t[i].strip);
                assert_int_equal(g.sw, t[i].n * lun.sw);
                assert_int_equal(g.full_stripe_bytes, t[i].full);
        }
}

static void test_validate_stripe(void **state)
{
        (void)state;
        char *e = NULL;
        assert_int_equal(xfs_validate_stripe(64 * KiB, 11, 512, &e), 0);
        assert_int_equal(xfs_validate_stripe(6 * KiB, 2, 512, &e), -EINVAL); /* mkfs: not a multiple of 4096 */
        free(e);
        e = NULL;
        assert_int_equal(xfs_validate_stripe(64 * KiB, 0, 512, &e), -EINVAL);
        free(e);
        e = NULL;
        assert_int_equal(xfs_validate_stripe(4 * KiB, 3, 8192, &e), -EINVAL); /* sector larger than su */
        free(e);
        assert_int_equal(xfs_validate_stripe(0, 0, 512, NULL), 0);
}

static void test_level_parse(void **state)
{
        (void)state;
        enum raid_level l;
        assert_int_equal(raid_level_parse("raid6", &l), 0);
        assert_int_equal(l, RAID_6);
        assert_int_equal(raid_level_parse("RAID10", &l), 0);
        assert_int_equal(l, RAID_10);
        assert_int_equal(raid_level_parse("60", &l), 0);
        assert_int_equal(l, RAID_60);
        assert_int_equal(raid_level_parse("7", &l), -EINVAL);
        assert_int_equal(raid_level_parse("raid", &l), -EINVAL);
        assert_int_equal(raid_level_parse("", &l), -EINVAL);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_table),         cmocka_unit_test(test_seed000_xfs_units),
                cmocka_unit_test(test_log_su),        cmocka_unit_test(test_extent),
                cmocka_unit_test(test_stack),         cmocka_unit_test(test_stack_table),         cmocka_unit_test(test_validate_stripe),
                cmocka_unit_test(test_level_parse),          cmocka_unit_test(test_agsize),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
