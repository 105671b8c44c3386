/* Units: the inspection's shadow (src/sys/probe.c). It stores only the
 * non-zero blocks it is given and answers a probe of a window without any of
 * them itself ("nothing there"), without libblkid. That rests on a premise
 * about libblkid, checked first here on libblkid itself: on bytes that are
 * all zero no prober (filesystem, RAID, LVM, partition table) finds anything.
 * A swap header built byte by byte stands in for a signature. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/text.h"
#include "sys/probe.h"
#include "sys/sbcopy.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

/* a swap v1 header in a 4 KiB page: version 1, a last page, SWAPSPACE2 at the page's end */
static void swap_page(uint8_t *p)
{
        memset(p, 0, 4096);
        p[1024] = 1;               /* version */
        p[1028] = 0xff;            /* last_page */
        p[1029] = 0x0f;
        memcpy(p + 4096 - 10, "SWAPSPACE2", 10);
}

/* The premise: all-zero devices of several sizes, whole and in windows, with
 * every prober and with md's alone, carry nothing libblkid names. */
static void test_zeros_carry_nothing(void **state)
{
        (void)state;
        static const uint64_t sizes[] = {64 * KiB, 1 * MiB, 129 * MiB, 2 * GiB, 16ull * 1024 * GiB};
        for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
                int fd = memfd_create("zeros", MFD_CLOEXEC);
                assert_true(fd >= 0);
                assert_int_equal(ftruncate(fd, (off_t)sizes[i]), 0);
                const uint64_t offs[] = {0, 17408, 32256, 1 * MiB, sizes[i] / 2};
                for (size_t k = 0; k < sizeof(offs) / sizeof(*offs); k++) {
                        struct probe_result pr;
                        assert_int_equal(probe_signatures_fd(fd, offs[k], sizes[i] - offs[k], &pr), 0);
                        assert_int_equal(pr.n_sigs, 0);
                        probe_result_free(&pr);
                }
                close(fd);
        }
}

/* The stand-in is found by libblkid at all: otherwise the tests below prove nothing. */
static void test_swap_page_is_a_signature(void **state)
{
        (void)state;
        struct shadow sh;
        assert_int_equal(shadow_open(&sh, 64 * MiB), 0);
        uint8_t page[4096];
        swap_page(page);
        assert_int_equal(shadow_put(&sh, 0, page, sizeof(page)), 0);
        struct probe_result pr;
        assert_int_equal(probe_shadow(&sh, 0, 0, NULL, &pr), 0);
        assert_int_equal(pr.n_sigs, 1);
        assert_string_equal(pr.sigs[0].type, "swap");
        probe_result_free(&pr);
        assert_int_equal(sh.skipped, 0);
        shadow_close(&sh);
}

/* Zero blocks are not stored; a window without stored data is answered
 * without libblkid; a window that holds the signature, anywhere in it, is
 * probed and finds it at its offset within the window. */
static void test_windows(void **state)
{
        (void)state;
        struct shadow sh;
        const uint64_t size = 2 * GiB;
        assert_int_equal(shadow_open(&sh, size), 0);
        size_t len = 1 * MiB;
        uint8_t *buf = calloc(1, len);
        assert_non_null(buf);
        assert_int_equal(shadow_put(&sh, 0, buf, len), 0);
        assert_int_equal(sh.n_nz, 0);
        assert_false(shadow_has_data(&sh, 0, size));
        /* a swap page 48 KiB into a 1 MiB read at 16 MiB */
        swap_page(buf + 48 * KiB);
        assert_int_equal(shadow_put(&sh, 16 * MiB, buf, len), 0);
        assert_int_equal(sh.n_nz, 1);
        assert_true(shadow_has_data(&sh, 16 * MiB + 48 * KiB, 4096));
        assert_false(shadow_has_data(&sh, 16 * MiB, 48 * KiB));
        assert_false(shadow_has_data(&sh, 16 * MiB + 52 * KiB, len));

        struct probe_result pr;
        assert_int_equal(probe_shadow(&sh, 0, 16 * MiB, NULL, &pr), 0); /* before it */
        assert_int_equal(pr.n_sigs, 0);
        assert_int_equal(probe_shadow(&sh, 32 * MiB, 0, NULL, &pr), 0); /* after it, to the end */
        assert_int_equal(pr.n_sigs, 0);
        assert_int_equal(sh.skipped, 2);
        assert_int_equal(probe_shadow(&sh, 16 * MiB + 48 * KiB, 0, NULL, &pr), 0);
        assert_int_equal(sh.skipped, 2);
        assert_int_equal(pr.n_sigs, 1);
        assert_string_equal(pr.sigs[0].type, "swap");
        assert_int_equal(pr.sigs[0].offset_bytes, 4096 - 10);
        probe_result_free(&pr);
        assert_int_equal(sh.probes, 3);

        /* zeros read again over stored data replace it (the device changed): probed, nothing found */
        memset(buf, 0, len);
        assert_int_equal(shadow_put(&sh, 16 * MiB, buf, len), 0);
        assert_int_equal(probe_shadow(&sh, 16 * MiB + 48 * KiB, 0, NULL, &pr), 0);
        assert_int_equal(sh.skipped, 2);
        assert_int_equal(pr.n_sigs, 0);
        free(buf);
        shadow_close(&sh);
}

/* A put that is not a whole number of blocks, at an odd offset: its last
 * partial block is stored too. */
static void test_partial_block(void **state)
{
        (void)state;
        struct shadow sh;
        assert_int_equal(shadow_open(&sh, 8 * MiB), 0);
        uint8_t buf[4096 + 512];
        memset(buf, 0, sizeof(buf));
        buf[4096 + 511] = 0xa5;
        assert_int_equal(shadow_put(&sh, 512, buf, sizeof(buf)), 0);
        assert_true(shadow_has_data(&sh, 512 + 4096 + 511, 1));
        assert_false(shadow_has_data(&sh, 512, 4096));
        uint8_t back = 0;
        assert_int_equal(pread(sh.fd, &back, 1, 512 + 4096 + 511), 1);
        assert_int_equal(back, 0xa5);
        shadow_close(&sh);
}

/* What holds a disk, read from a captured tree: a partition mounted at a path with a blank (mountinfo
 * escapes it as \040, the mount-table reader decodes it), and proc/swaps a FIFO, refused without
 * waiting for a writer (alarm: a read that blocks fails the test instead of hanging it). */
static void test_in_use(void **state)
{
        (void)state;
        char root[] = "/tmp/storprov-inuse-XXXXXX";
        assert_non_null(mkdtemp(root));
        char cmd[512];
        snprintf(cmd, sizeof cmd,
                 "cd '%s' && mkdir -p sys/block/sdb/sdb1 sys/dev/block proc/self && touch sys/block/sdb/sdb1/partition && "
                 "echo 8:17 >sys/block/sdb/sdb1/dev && ln -s ../../block/sdb sys/dev/block/8:16 && "
                 "printf '30 1 8:17 / /srv/my\\134040data rw - xfs /dev/sdb1 rw\\n' >proc/self/mountinfo && "
                 "mkfifo proc/swaps",
                 root);
        assert_int_equal(system(cmd), 0);
        alarm(30);
        char *why = probe_in_use(root, 8, 16);
        alarm(0);
        assert_non_null(why);
        assert_string_equal(why, "sdb1 is mounted at /srv/my data");
        free(why);
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
        assert_int_equal(system(cmd), 0);
}

/* shadow_read_ranges reads each byte once: overlapping and touching ranges
 * merge into one read call, apart ones stay apart; then the copies of a btrfs
 * at 0 are found from the shadow (its mirror at 64 MiB), and not once its
 * primary is in the shadow too (that is the filesystem itself). */
static void test_read_ranges_and_copies(void **state)
{
        (void)state;
        int fd = memfd_create("test-disk", 0);
        assert_true(fd >= 0);
        assert_int_equal(ftruncate(fd, 1 * GiB), 0);
        uint8_t sb[4096] = {0};
        sb[0x30 + 3] = 0x04; /* bytenr 64 MiB, little-endian */
        memcpy(sb + 0x40, "_BHRfS_M", 8);
        sb[0x70 + 4] = 0x01; /* total_bytes 4 GiB */
        sb[0x90 + 1] = 0x10; /* sector 4096 */
        sb[0x94 + 1] = 0x40; /* node 16384 */
        assert_int_equal(pwrite(fd, sb, sizeof(sb), (off_t)(64 * MiB)), (ssize_t)sizeof(sb));
        struct shadow sh;
        assert_int_equal(shadow_open(&sh, 1 * GiB), 0);
        struct shadow_extent v[] = {{64 * MiB, 4096}, {64 * MiB + 2048, 4096}, {64 * MiB + 6144, 2048},
                                    {128 * MiB, 4096}, {0, 128 * KiB}};
        struct sbuf err = {0};
        shadow_read_ranges(fd, &sh, v, sizeof(v) / sizeof(*v), &err);
        assert_int_equal(err.len, 0);
        assert_int_equal(sh.reads, 3);
        assert_int_equal(sh.bytes_read, 8192 + 4096 + 128 * KiB);
        uint64_t places[SBCOPY_MAX_PLACES];
        size_t np = sbcopy_places(0, NULL, 0, 1 * GiB, 512, places, SBCOPY_MAX_PLACES);
        struct sb_copy c[3];
        assert_int_equal(shadow_sb_copies(&sh, 0, places, np, c), 1);
        assert_int_equal(c[0].fmt, SB_BTRFS);
        assert_int_equal(c[0].at, 64 * MiB);
        /* its primary at 64 KiB: the same filesystem, no copy to name */
        sb[0x30 + 3] = 0;
        sb[0x30 + 2] = 0x01; /* bytenr 64 KiB */
        assert_int_equal(shadow_put(&sh, 64 * KiB, sb, sizeof(sb)), 0);
        assert_int_equal(shadow_sb_copies(&sh, 0, places, np, c), 0);
        /* a read past the end is said */
        struct shadow_extent past[] = {{1 * GiB - 4096, 8192}};
        shadow_read_ranges(fd, &sh, past, 1, &err);
        assert_non_null(strstr(err.s, "short read"));
        free(err.s);
        shadow_close(&sh);
        close(fd);
}

/* probe_shadow_head leaves out the probers that find a magic only far from a
 * region's start. The premise, on libblkid itself: a Promise FastTrack and an
 * Intel (isw) RAID signature written where those formats keep them (a sector
 * 63 sectors and one 2 sectors before a 64 MiB region's end) are found by the
 * full probe, at offsets beyond the first 128 KiB; probe_shadow_head finds
 * what has its magic there (a swap header) and not those; a region too short
 * to be sure of (4 MiB) is probed in full. */
static void test_head_leaves_out_far_probers(void **state)
{
        (void)state;
        const uint64_t size = 64 * MiB;
        struct shadow sh;
        assert_int_equal(shadow_open(&sh, size), 0);
        uint8_t page[4096];
        swap_page(page);
        assert_int_equal(shadow_put(&sh, 0, page, sizeof(page)), 0);
        uint8_t sec[512] = {0};
        memcpy(sec, "Promise Technology, Inc.", 24);
        assert_int_equal(shadow_put(&sh, size - 63 * 512, sec, sizeof(sec)), 0);
        memset(sec, 0, sizeof(sec));
        memcpy(sec, "Intel Raid ISM Cfg Sig. 1.0.00", 30);
        assert_int_equal(shadow_put(&sh, size - 2 * 512, sec, sizeof(sec)), 0);
        struct probe_result pr;
        assert_int_equal(probe_shadow(&sh, 0, 0, NULL, &pr), 0);
        const struct signature *pdc = probe_find(&pr, "promise_fasttrack_raid_member");
        const struct signature *isw = probe_find(&pr, "isw_raid_member");
        assert_non_null(pdc);
        assert_non_null(isw);
        assert_non_null(probe_find(&pr, "swap"));
        assert_true(pdc->offset_bytes >= 128 * KiB && isw->offset_bytes >= 128 * KiB);
        probe_result_free(&pr);
        assert_int_equal(probe_shadow_head(&sh, 0, 0, 128 * KiB, &pr), 0);
        assert_int_equal(pr.n_sigs, 1);
        assert_string_equal(pr.sigs[0].type, "swap");
        probe_result_free(&pr);
        /* 4 MiB: the end is within 128 KiB + 4 MiB of the start, every prober runs */
        assert_int_equal(probe_shadow_head(&sh, size - 4 * MiB, 0, 128 * KiB, &pr), 0);
        assert_non_null(probe_find(&pr, "promise_fasttrack_raid_member"));
        probe_result_free(&pr);
        shadow_close(&sh);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_zeros_carry_nothing),
                cmocka_unit_test(test_swap_page_is_a_signature),
                cmocka_unit_test(test_windows),
                cmocka_unit_test(test_partial_block),
                cmocka_unit_test(test_read_ranges_and_copies),
                cmocka_unit_test(test_in_use),
                cmocka_unit_test(test_head_leaves_out_far_probers),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
