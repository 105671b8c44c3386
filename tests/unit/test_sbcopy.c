/* Units: superblock copies (src/sys/sbcopy.c). The superblocks are built here
 * field by field from the on-disk layouts (btrfs_super_block, xfs_dsb and
 * xfs_agf/xfs_agi, ext2_super_block), independently of the recogniser; the
 * AG sizes are what mkfs.xfs 6.1.0 -N printed for files of those sizes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sys/sbcopy.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

static uint8_t buf[16384];

static void le16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void le32(uint8_t *p, uint32_t v) { le16(p, (uint16_t)v); le16(p + 2, (uint16_t)(v >> 16)); }
static void le64(uint8_t *p, uint64_t v) { le32(p, (uint32_t)v); le32(p + 4, (uint32_t)(v >> 32)); }
static void be16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void be32(uint8_t *p, uint32_t v) { be16(p, (uint16_t)(v >> 16)); be16(p + 2, (uint16_t)v); }
static void be64(uint8_t *p, uint64_t v) { be32(p, (uint32_t)(v >> 32)); be32(p + 4, (uint32_t)v); }

static const uint8_t UUID[16] = {0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0,
                                 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
#define UUID_S "12345678-9abc-def0-0123-456789abcdef"

/* a btrfs superblock as mkfs.btrfs writes it at bytenr (1 GiB device, 4 KiB sectors, 16 KiB nodes) */
static void btrfs_sb(uint64_t bytenr)
{
        memset(buf, 0, sizeof(buf));
        memcpy(buf + 0x20, UUID, 16);
        le64(buf + 0x30, bytenr);
        memcpy(buf + 0x40, "_BHRfS_M", 8);
        le64(buf + 0x70, 1 * GiB);
        le32(buf + 0x90, 4096);
        le32(buf + 0x94, 16384);
        memcpy(buf + 0x12b, "data", 4);
}

/* an XFS superblock of agcount AGs of agblocks 4 KiB blocks, 512-byte sectors */
static void xfs_sb(uint32_t agblocks, uint32_t agcount, uint64_t dblocks)
{
        memset(buf, 0, sizeof(buf));
        memcpy(buf, "XFSB", 4);
        be32(buf + 4, 4096);
        be64(buf + 8, dblocks);
        memcpy(buf + 32, UUID, 16);
        be32(buf + 84, agblocks);
        be32(buf + 88, agcount);
        be16(buf + 102, 512);
        memcpy(buf + 108, "xlabel", 6);
        buf[120] = 12; /* blocklog */
        buf[121] = 9;  /* sectlog */
        unsigned l = 0;
        while ((1u << l) < agblocks)
                l++;
        buf[124] = (uint8_t)l; /* agblklog: log2 rounded up */
}

/* AG 0's AGF and AGI (sectors 1 and 2) */
static void xfs_ag0(uint32_t length)
{
        for (int i = 1; i <= 2; i++) {
                uint8_t *h = buf + 512 * i;
                memcpy(h, i == 1 ? "XAGF" : "XAGI", 4);
                be32(h + 4, 1);
                be32(h + 8, 0);
                be32(h + 12, length);
        }
}

/* an ext4 backup superblock of group `group` (log: 0 for 1 KiB blocks, 2 for 4 KiB) */
static void ext_sb(unsigned log, uint16_t group, uint32_t blocks)
{
        memset(buf, 0, sizeof(buf));
        le32(buf + 0x00, 65536);                            /* inodes */
        le32(buf + 0x04, blocks);                           /* blocks_count_lo */
        le32(buf + 0x14, log == 0);                         /* first_data_block */
        le32(buf + 0x18, log);                              /* log_block_size */
        le32(buf + 0x20, 8192u << log);                     /* blocks_per_group: 8 x block size */
        le16(buf + 0x38, 0xEF53);
        le32(buf + 0x4c, 1);                                /* rev_level */
        le16(buf + 0x5a, group);
        le32(buf + 0x5c, 0x4);                              /* has_journal */
        le32(buf + 0x60, 0x40 | 0x200);                     /* extents, flex_bg */
        memcpy(buf + 0x68, UUID, 16);
        memcpy(buf + 0x78, "ext", 3);
}

static void btrfs_mirrors(void **state)
{
        (void)state;
        struct sb_copy c;
        btrfs_sb(64 * MiB);
        assert_true(sbcopy_match(buf, 4096, 64 * MiB, 0, &c));
        assert_int_equal(c.fmt, SB_BTRFS);
        assert_string_equal(c.type, "btrfs");
        assert_int_equal(c.index, 1);
        assert_string_equal(c.uuid, UUID_S);
        assert_string_equal(c.label, "data");
        assert_int_equal(c.at, 64 * MiB);
        assert_int_equal(c.fs_start, 0);
        /* the same copy seen from a start 1 MiB in: its bytenr (64 MiB) is right for a start at 1 MiB */
        assert_true(sbcopy_match(buf, 4096, 65 * MiB, 1 * MiB, &c));
        assert_int_equal(c.fs_start, 1 * MiB);
        /* ... and wrong for any other start */
        assert_false(sbcopy_match(buf, 4096, 65 * MiB, 0, &c));
        assert_false(sbcopy_match(buf, 4096, 64 * MiB, 1 * MiB, &c));
        /* mirror 2 at 256 GiB needs a device that large */
        btrfs_sb(256 * GiB);
        assert_false(sbcopy_match(buf, 4096, 256 * GiB, 0, &c));
        le64(buf + 0x70, 512 * GiB);
        assert_true(sbcopy_match(buf, 4096, 256 * GiB, 0, &c));
        assert_int_equal(c.index, 2);
}

static void btrfs_garbled(void **state)
{
        (void)state;
        struct sb_copy c;
        btrfs_sb(64 * MiB);
        assert_false(sbcopy_match(buf, 4095, 64 * MiB, 0, &c)); /* truncated */
        assert_false(sbcopy_match(NULL, 4096, 64 * MiB, 0, &c));
        btrfs_sb(64 * MiB);
        buf[0x47] ^= 1; /* magic */
        assert_false(sbcopy_match(buf, 4096, 64 * MiB, 0, &c));
        btrfs_sb(64 * MiB);
        le32(buf + 0x90, 3000); /* sector size not a power of 2 */
        assert_false(sbcopy_match(buf, 4096, 64 * MiB, 0, &c));
        btrfs_sb(64 * MiB);
        le32(buf + 0x94, 2048); /* node below the sector */
        assert_false(sbcopy_match(buf, 4096, 64 * MiB, 0, &c));
        btrfs_sb(32 * MiB); /* consistent, but no mirror sits at 32 MiB */
        assert_false(sbcopy_match(buf, 4096, 32 * MiB, 0, &c));
        btrfs_sb(64 * KiB); /* the primary is no copy */
        assert_false(sbcopy_match(buf, 4096, 64 * KiB, 0, &c));
}

static void xfs_secondaries(void **state)
{
        (void)state;
        struct sb_copy c;
        xfs_sb(65536, 4, 262144); /* 1 GiB */
        assert_true(sbcopy_match(buf, 512, 256 * MiB, 0, &c));
        assert_int_equal(c.fmt, SB_XFS);
        assert_int_equal(c.index, 1);
        assert_string_equal(c.uuid, UUID_S);
        assert_string_equal(c.label, "xlabel");
        assert_true(sbcopy_match(buf, 512, 3 * 256 * MiB + 1 * MiB, 1 * MiB, &c));
        assert_int_equal(c.index, 3);
        assert_false(sbcopy_match(buf, 512, 4 * 256 * MiB, 0, &c));  /* AG 4 of 4 AGs */
        assert_false(sbcopy_match(buf, 512, 256 * MiB + 4096, 0, &c)); /* not at an AG's start */
        assert_false(sbcopy_match(buf, 512, 256 * MiB, 4096, &c));
        /* the last AG may be short */
        xfs_sb(65535, 4, 262139);
        assert_true(sbcopy_match(buf, 512, 65535 * 4096ull, 0, &c));
}

static void xfs_garbled(void **state)
{
        (void)state;
        struct sb_copy c;
        xfs_sb(65536, 4, 262144);
        assert_false(sbcopy_match(buf, 511, 256 * MiB, 0, &c));
        buf[120] = 11; /* blocklog disagrees with the block size */
        assert_false(sbcopy_match(buf, 512, 256 * MiB, 0, &c));
        xfs_sb(65536, 4, 262144 + 65536); /* more blocks than the AGs hold */
        assert_false(sbcopy_match(buf, 512, 256 * MiB, 0, &c));
        xfs_sb(65536, 4, 3 * 65536); /* the AGs would end before dblocks */
        assert_false(sbcopy_match(buf, 512, 256 * MiB, 0, &c));
        xfs_sb(65536, 4, 262144);
        buf[124] = 17; /* agblklog */
        assert_false(sbcopy_match(buf, 512, 256 * MiB, 0, &c));
        xfs_sb(65536, 0, 262144);
        assert_false(sbcopy_match(buf, 512, 256 * MiB, 0, &c));
        xfs_sb(65536, 4, 262144);
        be16(buf + 102, 8192); /* sector above the block */
        buf[121] = 13;
        assert_false(sbcopy_match(buf, 512, 256 * MiB, 0, &c));
}

static void xfs_unmagicked(void **state)
{
        (void)state;
        struct sb_copy c;
        xfs_sb(65536, 4, 262144);
        memset(buf, 0, 4); /* what wipefs -a clears */
        xfs_ag0(65536);
        assert_true(sbcopy_xfs_unmagicked(buf, 3 * 512, 1 * MiB, &c));
        assert_int_equal(c.fmt, SB_XFS);
        assert_int_equal(c.index, 0);
        assert_int_equal(c.at, 1 * MiB);
        assert_int_equal(c.fs_start, 1 * MiB);
        assert_string_equal(c.uuid, UUID_S);
        assert_false(sbcopy_xfs_unmagicked(buf, 3 * 512 - 1, 0, &c)); /* truncated: no AGI */
        assert_false(sbcopy_xfs_unmagicked(NULL, 3 * 512, 0, &c));
        memcpy(buf, "XFSB", 4); /* intact: the primary itself, not this case */
        assert_false(sbcopy_xfs_unmagicked(buf, 3 * 512, 0, &c));
        memset(buf, 0, 4);
        be32(buf + 512 + 8, 1); /* an AGF of AG 1 */
        assert_false(sbcopy_xfs_unmagicked(buf, 3 * 512, 0, &c));
        xfs_ag0(65536);
        memcpy(buf + 1024, "XAGF", 4); /* no AGI */
        assert_false(sbcopy_xfs_unmagicked(buf, 3 * 512, 0, &c));
        xfs_ag0(65535); /* AG 0's length is not the superblock's AG size */
        assert_false(sbcopy_xfs_unmagicked(buf, 3 * 512, 0, &c));
        memset(buf, 0, sizeof(buf)); /* a blank region */
        assert_false(sbcopy_xfs_unmagicked(buf, sizeof(buf), 0, &c));
}

static void ext_backups(void **state)
{
        (void)state;
        struct sb_copy c;
        ext_sb(2, 1, 262144); /* 4 KiB blocks, 1 GiB */
        assert_true(sbcopy_match(buf, 1024, 128 * MiB, 0, &c));
        assert_int_equal(c.fmt, SB_EXT);
        assert_string_equal(c.type, "ext4");
        assert_int_equal(c.index, 1);
        assert_int_equal(c.block, 4096);
        assert_string_equal(c.label, "ext");
        char how[96];
        assert_string_equal(sbcopy_recover(&c, how, sizeof(how)), "`e2fsck -b 32768 -B 4096`");
        ext_sb(2, 3, 262144);
        assert_true(sbcopy_match(buf, 1024, 17 * MiB + 384 * MiB, 17 * MiB, &c));
        assert_int_equal(c.index, 3);
        ext_sb(0, 1, 65536); /* 1 KiB blocks: group 1 at block 8193 */
        assert_true(sbcopy_match(buf, 1024, 8 * MiB + 1 * KiB, 0, &c));
        assert_string_equal(sbcopy_recover(&c, how, sizeof(how)), "`e2fsck -b 8193 -B 1024`");
        assert_false(sbcopy_match(buf, 1024, 8 * MiB, 0, &c));
        ext_sb(1, 1, 65536); /* 2 KiB blocks: group 1 at 32 MiB */
        assert_true(sbcopy_match(buf, 1024, 32 * MiB, 0, &c));
        le32(buf + 0x5c, 0);
        le32(buf + 0x60, 0);
        assert_true(sbcopy_match(buf, 1024, 32 * MiB, 0, &c));
        assert_string_equal(c.type, "ext2");
}

static void ext_garbled(void **state)
{
        (void)state;
        struct sb_copy c;
        ext_sb(2, 1, 262144);
        assert_false(sbcopy_match(buf, 1023, 128 * MiB, 0, &c));
        assert_false(sbcopy_match(buf, 1024, 256 * MiB, 0, &c)); /* group 1 read where group 2 sits */
        ext_sb(2, 0, 262144); /* group 0 is the primary */
        assert_false(sbcopy_match(buf, 1024, 128 * MiB, 0, &c));
        ext_sb(2, 1, 32768); /* the filesystem ends before its group 1 */
        assert_false(sbcopy_match(buf, 1024, 128 * MiB, 0, &c));
        ext_sb(2, 1, 262144);
        le32(buf + 0x14, 1); /* first data block 1 with 4 KiB blocks */
        assert_false(sbcopy_match(buf, 1024, 128 * MiB + 4096, 0, &c));
        ext_sb(2, 1, 262144);
        le32(buf + 0x18, 7); /* 128 KiB blocks */
        assert_false(sbcopy_match(buf, 1024, 128 * MiB, 0, &c));
        ext_sb(2, 1, 262144);
        le32(buf + 0x20, 32768 * 2); /* more blocks per group than a bitmap block maps */
        assert_false(sbcopy_match(buf, 1024, 256 * MiB, 0, &c));
        ext_sb(2, 1, 262144);
        le32(buf + 0x00, 0); /* no inodes */
        assert_false(sbcopy_match(buf, 1024, 128 * MiB, 0, &c));
}

/* what mkfs.xfs 6.1.0 -N printed (agsize) for files of these sizes: plain, and with -d su=4k,sw=1 */
static void xfs_ag_sizes(void **state)
{
        (void)state;
        static const struct {
                uint64_t dblocks, single, multi;
        } t[] = {
                {76800, 19200, 0},                      /* 300 MiB */
                {262144, 65536, 32768},                 /* 1 GiB */
                {262139, 65535, 32768},                 /* 1 GiB less a backup GPT */
                {261888, 65472, 32736},                 /* ... rounded down to 1 MiB */
                {786432, 196608, 98304},                /* 3 GiB */
                {1220703, 305176, 152588},              /* 5 GB */
                {2621440, 655360, 163840},              /* 10 GiB */
                {26214400, 6553600, 1638400},           /* 100 GiB */
                {268435456, 67108864, 8388608},         /* 1 TiB */
                {1342177280, 268435455, 41943040},      /* 5 TiB: the largest AG */
        };
        for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
                assert_int_equal(sbcopy_xfs_agblocks(12, t[i].dblocks, false), t[i].single);
                if (t[i].multi)
                        assert_int_equal(sbcopy_xfs_agblocks(12, t[i].dblocks, true), t[i].multi);
        }
        assert_int_equal(sbcopy_xfs_agblocks(12, 0, false), 0);
        assert_int_equal(sbcopy_xfs_agblocks(40, 1000, false), 0);
        /* below 16 MiB one AG holds everything (no AG 1) */
        assert_int_equal(sbcopy_xfs_agblocks(12, 1000, false), 1000);
}

static bool has(const uint64_t *v, size_t n, uint64_t x)
{
        for (size_t i = 0; i < n; i++)
                if (v[i] == x)
                        return true;
        return false;
}

static void places(void **state)
{
        (void)state;
        uint64_t v[SBCOPY_MAX_PLACES];
        size_t n = sbcopy_places(0, NULL, 0, 1 * GiB, 512, v, SBCOPY_MAX_PLACES);
        assert_true(n > 6);
        for (size_t i = 0; i < n; i++) {
                assert_true(v[i] + SBCOPY_READ <= 1 * GiB);
                if (i)
                        assert_true(v[i - 1] < v[i]); /* ascending, distinct */
        }
        assert_true(has(v, n, 64 * MiB));             /* btrfs mirror 1 */
        assert_false(has(v, n, 256 * GiB));           /* past the end */
        assert_true(has(v, n, 8 * MiB + 1 * KiB));    /* ext, 1 KiB blocks */
        assert_true(has(v, n, 32 * MiB));             /* ext, 2 KiB blocks */
        assert_true(has(v, n, 128 * MiB));            /* ext, 4 KiB blocks, group 1 */
        assert_true(has(v, n, 384 * MiB));            /* ... group 3 */
        assert_true(has(v, n, 256 * MiB));            /* XFS AG 1 of the whole disk */
        assert_true(has(v, n, 65535 * 4096ull));      /* ... of a partition to the last usable sector */
        /* a table's region at 1 MiB of 400 MiB: its AG 1 */
        uint64_t reg = 400 * MiB;
        n = sbcopy_places(1 * MiB, &reg, 1, 1 * GiB, 512, v, SBCOPY_MAX_PLACES);
        assert_true(has(v, n, 1 * MiB + 100 * MiB));
        assert_true(has(v, n, 65 * MiB));
        /* 4 KiB sectors: the backup GPT is 5 sectors */
        n = sbcopy_places(0, NULL, 0, 1 * GiB, 4096, v, SBCOPY_MAX_PLACES);
        assert_true(has(v, n, (262144 - 5 + 3) / 4 * 4096ull));
        /* near the end, or at it: nothing outside the disk */
        n = sbcopy_places(1 * GiB - 64 * MiB, NULL, 0, 1 * GiB, 512, v, SBCOPY_MAX_PLACES);
        for (size_t i = 0; i < n; i++)
                assert_true(v[i] + SBCOPY_READ <= 1 * GiB);
        assert_int_equal(sbcopy_places(1 * GiB, NULL, 0, 1 * GiB, 512, v, SBCOPY_MAX_PLACES), 0);
        assert_int_equal(sbcopy_places(0, NULL, 0, 1 * GiB, 0, v, SBCOPY_MAX_PLACES), 0);
        /* room for fewer than all */
        assert_int_equal(sbcopy_places(0, NULL, 0, 1 * GiB, 512, v, 2), 2);
}

/* random bytes, and random bytes under each magic, are never a copy */
static void random_noise(void **state)
{
        (void)state;
        uint64_t x = 0x9e3779b97f4a7c15ull;
        struct sb_copy c;
        for (int round = 0; round < 3000; round++) {
                for (size_t i = 0; i < sizeof(buf); i++) {
                        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                        buf[i] = (uint8_t)x;
                }
                if (round % 3 == 1)
                        memcpy(buf + 0x40, "_BHRfS_M", 8);
                if (round % 3 == 2)
                        memcpy(buf, "XFSB", 4);
                le16(buf + 0x38, round % 2 ? 0xEF53 : 0);
                assert_false(sbcopy_match(buf, sizeof(buf), 64 * MiB, 0, &c));
                assert_false(sbcopy_match(buf, sizeof(buf), 128 * MiB, 0, &c));
                assert_false(sbcopy_match(buf, sizeof(buf), 256 * MiB, 0, &c));
                memset(buf, 0, 4);
                assert_false(sbcopy_xfs_unmagicked(buf, sizeof(buf), 0, &c));
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(btrfs_mirrors),  cmocka_unit_test(btrfs_garbled), cmocka_unit_test(xfs_secondaries),
                cmocka_unit_test(xfs_garbled),    cmocka_unit_test(xfs_unmagicked), cmocka_unit_test(ext_backups),
                cmocka_unit_test(ext_garbled),    cmocka_unit_test(xfs_ag_sizes),  cmocka_unit_test(places),
                cmocka_unit_test(random_noise),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
