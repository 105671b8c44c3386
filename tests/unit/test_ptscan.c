/* Units: where an erased partition table pointed (src/sys/ptscan.c). The tables
 * are built here byte by byte from the UEFI and MBR layouts, independently of
 * the parser; the CRCs come from zlib. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <cmocka.h>

#include "sys/ptscan.h"

#define SEC 512u
#define MiB (1024u * 1024u)
static const uint64_t DISK = 1024ull * MiB; /* 1 GiB */

static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void put64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }

/* a GPT entry: a non-zero type GUID, first and last LBA */
static void entry(uint8_t *arr, unsigned i, uint64_t first, uint64_t last)
{
        uint8_t *e = arr + 128 * i;
        memset(e, 0, 128);
        e[0] = 0xaf; e[1] = 0x3d; e[15] = 0x42; /* any type GUID */
        put64(e + 32, first);
        put64(e + 40, last);
}

static void header(uint8_t *sec, uint64_t my, uint64_t alt, uint64_t entries, const uint8_t *arr, bool magic)
{
        memset(sec, 0, SEC);
        if (magic)
                memcpy(sec, "EFI PART", 8);
        put32(sec + 8, 0x00010000);
        put32(sec + 12, 92);
        put64(sec + 24, my);
        put64(sec + 32, alt);
        put64(sec + 72, entries);
        put32(sec + 80, 128);
        put32(sec + 84, 128);
        put32(sec + 88, (uint32_t)crc32(0L, arr, 128 * 128));
}

struct disk {
        uint8_t head[34 * SEC];
        uint8_t tail[33 * SEC];
};

/* a 1 GiB disk with two partitions in both arrays: 17 MiB..+64 MiB and 129 MiB..+200 MiB */
static void gpt_disk(struct disk *d, bool magic)
{
        memset(d, 0, sizeof *d);
        uint8_t arr[128 * 128] = {0};
        entry(arr, 0, 17 * MiB / SEC, 81 * MiB / SEC - 1);
        entry(arr, 1, 129 * MiB / SEC, 329 * MiB / SEC - 1);
        uint64_t last = DISK / SEC - 1;
        memcpy(d->head + 2 * SEC, arr, sizeof arr);
        header(d->head + SEC, 1, last, 2, arr, magic);
        memcpy(d->tail, arr, sizeof arr);
        header(d->tail + 32 * SEC, last, 1, last - 32, arr, magic);
}

static bool has(const struct pt_scan *s, uint64_t start, uint64_t end, const char *src)
{
        for (size_t i = 0; i < s->n; i++)
                if (s->v[i].start == start && s->v[i].end == end && (!src || strstr(s->v[i].src, src)))
                        return true;
        return false;
}

static void test_gpt_wiped_magic(void **state)
{
        (void)state;
        static struct disk d;
        gpt_disk(&d, false); /* wipefs -a: the magic gone, the rest of the headers kept */
        struct pt_scan s = {0};
        pt_scan_tables(d.head, sizeof d.head, d.tail, sizeof d.tail, DISK, SEC, &s);
        assert_int_equal(s.n, 2); /* the backup names the same regions: once */
        assert_true(has(&s, 17 * MiB, 81 * MiB, "primary GPT entry 1 (entry CRC ok)"));
        assert_true(has(&s, 129 * MiB, 329 * MiB, "primary GPT entry 2 (entry CRC ok)"));
        pt_scan_free(&s);
}

static void test_gpt_head_zeroed(void **state)
{
        (void)state;
        static struct disk d;
        gpt_disk(&d, true);
        memset(d.head, 0, sizeof d.head); /* the first MiB zeroed: only the backup is left */
        struct pt_scan s = {0};
        pt_scan_tables(d.head, sizeof d.head, d.tail, sizeof d.tail, DISK, SEC, &s);
        assert_int_equal(s.n, 2);
        assert_true(has(&s, 17 * MiB, 81 * MiB, "backup GPT entry 1 (entry CRC ok)"));
        assert_true(has(&s, 129 * MiB, 329 * MiB, "backup GPT entry 2"));
        /* the backup header zeroed as well: the array is still read at its usual place */
        memset(d.tail + 32 * SEC, 0, SEC);
        pt_scan_free(&s);
        pt_scan_tables(d.head, sizeof d.head, d.tail, sizeof d.tail, DISK, SEC, &s);
        assert_int_equal(s.n, 2);
        assert_true(has(&s, 17 * MiB, 81 * MiB, "backup GPT entry 1 (no header)"));
        pt_scan_free(&s);
        /* both ends zeroed: nothing */
        memset(d.tail, 0, sizeof d.tail);
        pt_scan_tables(d.head, sizeof d.head, d.tail, sizeof d.tail, DISK, SEC, &s);
        assert_int_equal(s.n, 0);
        pt_scan_free(&s);
}

static void test_gpt_crc_mismatch_kept(void **state)
{
        (void)state;
        static struct disk d;
        gpt_disk(&d, true);
        d.head[2 * SEC + 128 + 40] ^= 0x01; /* entry 2's last LBA changed: the CRC no longer matches */
        struct pt_scan s = {0};
        pt_scan_tables(d.head, sizeof d.head, NULL, 0, DISK, SEC, &s);
        assert_true(has(&s, 17 * MiB, 81 * MiB, "(entry CRC mismatch)"));
        assert_int_equal(s.n, 2);
        pt_scan_free(&s);
}

static void test_gpt_bad_entries_dropped(void **state)
{
        (void)state;
        static struct disk d;
        gpt_disk(&d, false);
        entry(d.head + 2 * SEC, 2, 100, 50);                 /* first > last */
        entry(d.head + 2 * SEC, 3, 2048, DISK / SEC);        /* past the end */
        entry(d.head + 2 * SEC, 4, 0, 10);                   /* LBA 0 */
        struct pt_scan s = {0};
        pt_scan_tables(d.head, sizeof d.head, NULL, 0, DISK, SEC, &s);
        assert_int_equal(s.n, 2);
        pt_scan_free(&s);
}

static void test_gpt_header_lba_overflow(void **state)
{
        (void)state;
        static struct disk d;
        gpt_disk(&d, false);
        /* a header left plausible but pointing at LBA 2^63: not followed (no wrapped offset), the
         * array is still read at its usual place (the asan suite's UBSan catches a wrap) */
        put64(d.head + SEC + 72, 1ull << 63);
        struct pt_scan s = {0};
        pt_scan_tables(d.head, sizeof d.head, NULL, 0, DISK, SEC, &s);
        assert_int_equal(s.n, 2);
        assert_true(has(&s, 17 * MiB, 81 * MiB, "primary GPT entry 1 (no header)"));
        pt_scan_free(&s);
}

static void mbr_entry(uint8_t *sec, unsigned i, uint8_t type, uint32_t lba, uint32_t num)
{
        uint8_t *e = sec + 446 + 16 * i;
        memset(e, 0, 16);
        e[4] = type;
        put32(e + 8, lba);
        put32(e + 12, num);
}

static void test_mbr_and_ebr(void **state)
{
        (void)state;
        static uint8_t head[34 * SEC];
        memset(head, 0, sizeof head);
        /* 0x55AA wiped (wipefs -a): entries are still read */
        mbr_entry(head, 0, 0x07, 34816, 65536);             /* 17 MiB, 32 MiB */
        mbr_entry(head, 1, 0x05, 200 * MiB / SEC, 100 * MiB / SEC); /* extended at 200 MiB */
        mbr_entry(head, 2, 0xee, 1, 1000);                   /* protective: not a region */
        struct pt_scan s = {0};
        pt_scan_tables(head, sizeof head, NULL, 0, DISK, SEC, &s);
        assert_true(has(&s, 17 * MiB, 49 * MiB, "MBR entry 1"));
        assert_true(has(&s, 200 * MiB, 300 * MiB, "MBR entry 2"));
        assert_int_equal(s.n, 2);
        assert_int_equal(s.n_ebr, 1);
        assert_int_equal(s.ebr[0], 200 * MiB);
        /* the first EBR: a logical at +2048 sectors of it, the next EBR at ext + 50 MiB */
        uint8_t ebr[SEC] = {0};
        mbr_entry(ebr, 0, 0x83, 2048, 10 * MiB / SEC);
        mbr_entry(ebr, 1, 0x05, 50 * MiB / SEC, 20 * MiB / SEC);
        s.n_ebr = 0;
        pt_scan_ebr(ebr, SEC, 200 * MiB, DISK, &s);
        assert_true(has(&s, 201 * MiB, 211 * MiB, "EBR 1 entry 1"));
        assert_int_equal(s.n_ebr, 1);
        assert_int_equal(s.ebr[0], 250 * MiB);
        /* a chain that points at itself ends */
        mbr_entry(ebr, 1, 0x05, 0, 20 * MiB / SEC);
        for (int i = 0; i < 200 && s.n_ebr; i++) {
                uint64_t at = s.ebr[--s.n_ebr];
                pt_scan_ebr(ebr, SEC, at, DISK, &s);
        }
        assert_int_equal(s.n_ebr, 0);
        pt_scan_free(&s);
}

static void test_md_offsets(void **state)
{
        (void)state;
        /* mdadm's rules: 0.90 at (size & ~64K) - 64K, 1.0 at (size - 8K) & ~4K */
        assert_int_equal(pt_md090_offset(MiB, MiB + 100 * MiB + 5000), MiB + 100 * MiB - 64 * 1024);
        assert_int_equal(pt_md10_offset(MiB, MiB + 100 * MiB + 5000), MiB + 100 * MiB - 4096);
        assert_int_equal(pt_md10_offset(0, 64 * 1024), 56 * 1024);
        assert_int_equal(pt_md090_offset(0, 64 * 1024), 0);
}

static void test_garbage(void **state)
{
        (void)state;
        /* random bytes: anything found must lie inside the disk */
        static uint8_t head[34 * SEC], tail[33 * SEC];
        srand(18);
        for (int round = 0; round < 200; round++) {
                for (size_t i = 0; i < sizeof head; i++)
                        head[i] = (uint8_t)rand();
                for (size_t i = 0; i < sizeof tail; i++)
                        tail[i] = (uint8_t)rand();
                struct pt_scan s = {0};
                pt_scan_tables(head, sizeof head, tail, sizeof tail, DISK, SEC, &s);
                for (size_t i = 0; i < s.n; i++)
                        assert_true(s.v[i].start < s.v[i].end && s.v[i].end <= DISK);
                pt_scan_free(&s);
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_gpt_wiped_magic),       cmocka_unit_test(test_gpt_head_zeroed),
                cmocka_unit_test(test_gpt_crc_mismatch_kept), cmocka_unit_test(test_gpt_bad_entries_dropped),
                cmocka_unit_test(test_mbr_and_ebr),           cmocka_unit_test(test_md_offsets),
                cmocka_unit_test(test_garbage),               cmocka_unit_test(test_gpt_header_lba_overflow),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
