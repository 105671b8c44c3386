/* SPDX-License-Identifier: GPL-2.0-or-later
 * The erased-table parser (src/sys/ptscan.c) on any bytes: the input is a
 * disk's first 34 sectors, then its last 33 sectors, then sectors read as
 * EBRs (for the extended chain), on a disk of 1 GiB of 512-byte sectors.
 * What must hold: every region lies inside the disk and is not empty, at most
 * 1024 regions, every EBR offset lies inside the disk, every source is
 * printable, and an EBR chain ends (at most 64 EBRs) whatever the bytes. */
#include <stdint.h>
#include <string.h>

#define FUZZ_NO_SYSROOTS
#include "fuzz_common.h"
#include "sys/ptscan.h"

#define SEC 512u
#define DISK (1024ull * 1024 * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        size_t head = size < 34 * SEC ? size : 34 * SEC;
        size_t rest = size - head;
        size_t tail = rest < 33 * SEC ? rest : 33 * SEC;
        tail -= tail % SEC;
        struct pt_scan s = {0};
        pt_scan_tables(data, head, data + head, tail, DISK, SEC, &s);
        const uint8_t *ebrs = data + head + tail;
        size_t n_ebrs = (size - head - tail) / SEC, k = 0;
        unsigned reads = 0;
        while (s.n_ebr) {
                uint64_t at = s.ebr[--s.n_ebr];
                if (at + SEC > DISK)
                        FUZZ_FAIL("EBR at %llu past the end", (unsigned long long)at);
                static const uint8_t zero[SEC];
                pt_scan_ebr(n_ebrs ? ebrs + SEC * (k++ % n_ebrs) : zero, SEC, at, DISK, &s);
                if (++reads > 64 + 64)
                        FUZZ_FAIL("an EBR chain that does not end");
        }
        if (s.n > 1024)
                FUZZ_FAIL("%zu regions", s.n);
        for (size_t i = 0; i < s.n; i++) {
                if (s.v[i].start >= s.v[i].end || s.v[i].end > DISK)
                        FUZZ_FAIL("region %zu: %llu..%llu", i, (unsigned long long)s.v[i].start,
                                  (unsigned long long)s.v[i].end);
                for (const char *c = s.v[i].src; *c; c++)
                        if (*c < 0x20 || *c > 0x7e)
                                FUZZ_FAIL("region %zu: unprintable source", i);
        }
        pt_scan_free(&s);
        return 0;
}
