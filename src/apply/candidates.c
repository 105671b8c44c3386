/* SPDX-License-Identifier: GPL-2.0-or-later
 * The foreign-data scan's candidate regions (inspect.c's deep_scan): where a
 * partition may have started or ended on a disk whose table is not the
 * planned one. Pure: the plan, the current table and what an erased table
 * still names in, a sorted list out. */
#include "apply/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/gpt.h"
#include "sys/probe.h"
#include "sys/ptscan.h"

static void add_cand(struct cand **v, size_t *n, uint64_t start, uint64_t end, const char *src)
{
        *v = xrealloc(*v, (*n + 1) * sizeof(**v));
        (*v)[*n] = (struct cand){.start = start, .end = end};
        snprintf((*v)[*n].src, sizeof((*v)[*n].src), "%s", src);
        (*n)++;
}

static int cmp_cand(const void *a, const void *b)
{
        const struct cand *x = a, *y = b;
        if (x->start != y->start)
                return x->start < y->start ? -1 : 1;
        return x->end < y->end ? -1 : x->end > y->end; /* the same region twice: next to each other */
}

/* Candidate starts (and ends, where a table names them): what an erased table
 * still names, the usual starts, this profile's own planned starts and the
 * partitions the current table has. */
size_t scan_candidates(const struct plan *pl, size_t di, const struct gpt_part *have, size_t n_have,
                              const struct pt_scan *t, struct cand **ret)
{
        const struct pl_obj *d = &pl->objs[di];
        uint64_t sec = d->sector_bytes ? d->sector_bytes : SECTOR_BYTES;
        struct cand *v = NULL;
        size_t n = 0;
        for (size_t i = 0; i < t->n; i++)
                add_cand(&v, &n, t->v[i].start, t->v[i].end, t->v[i].src);
        for (size_t i = 0; i < n_have; i++)
                add_cand(&v, &n, have[i].first_sector * sec, (have[i].last_sector + 1) * sec, "the partition table");
        add_cand(&v, &n, 34 * sec, 0, "a usual start");
        add_cand(&v, &n, 63 * sec, 0, "a usual start");
        add_cand(&v, &n, 128 * sec, 0, "a usual start");
        for (uint64_t m = 1; m <= 16; m++)
                add_cand(&v, &n, m * MiB, 0, "a usual start");
        static const uint64_t more[] = {17, 32, 48, 64, 129};
        for (size_t k = 0; k < ELEMENTSOF(more); k++)
                add_cand(&v, &n, more[k] * MiB, 0, "a usual start");
        /* where installers start the partition after their ESP and /boot: 512 MiB ESP (Debian, older
         * Ubuntu), 600 MiB ESP (Anaconda), 1 GiB ESP (Ubuntu), 600 MiB ESP + 1 GiB /boot (RHEL, Fedora),
         * 2 GiB; the figures of the bounded probe are in storprov-apply(8) */
        static const uint64_t installer[] = {513, 601, 1025, 1601, 1625, 2049};
        for (size_t k = 0; k < ELEMENTSOF(installer); k++)
                add_cand(&v, &n, installer[k] * MiB, 0, "an installer's usual start");
        /* where a last partition ends (sfdisk and parted at 100%: the last usable sector of a GPT; gdisk and
         * parted's optimal alignment: that rounded down to 1 MiB), so that an md 1.0 or 0.90 member whose
         * table is gone entirely is still found by its superblock near that end (region from 0: both
         * superblocks sit at places that do not depend on a 64 KiB-aligned start) */
        uint64_t gpt_tail = sec * (1 + (16384 + sec - 1) / sec), size = d->size_bytes;
        if (size > gpt_tail + 2 * MiB) {
                uint64_t e = size - gpt_tail;
                add_cand(&v, &n, 0, e, "a usual end");
                v[n - 1].end_only = true;
                add_cand(&v, &n, 0, e / MiB * MiB, "a usual end");
                v[n - 1].end_only = true;
        }
        for (size_t i = 0; i < pl->n_objs; i++)
                if (pl->objs[i].kind == OBJ_PART && pl->objs[i].parent == di)
                        add_cand(&v, &n, pl->objs[i].part.start_bytes,
                                 pl->objs[i].size_bytes ? pl->objs[i].part.start_bytes + pl->objs[i].size_bytes : 0,
                                 "a planned partition");
        qsort(v, n, sizeof(*v), cmp_cand);
        *ret = v;
        return n;
}


/* An md 1.0 superblock records its own place from the member's start
 * (super_offset, in sectors, at byte 144 of struct mdp_superblock_1), and
 * libblkid checks it against the region it probes: a usual end's region
 * (from 0) only finds one whose member starts at 0. Where the bytes read at
 * a usual end hold such a superblock, the region starts where it says. */
void usual_end_starts(const struct shadow *sh, struct cand *c, size_t n)
{
        bool moved = false;
        for (size_t k = 0; k < n; k++) {
                if (c[k].start || !c[k].end_only || c[k].end < 16 * 512)
                        continue;
                uint64_t at = (c[k].end / 512 - 16) / 8 * 8 * 512; /* (sectors - 16) & ~7: where md 1.0 puts it */
                uint8_t b[152];
                if (at + sizeof b > sh->size || !shadow_has_data(sh, at, sizeof b) ||
                    pread(sh->fd, b, sizeof b, (off_t)at) != (ssize_t)sizeof b)
                        continue;
                uint32_t magic = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
                uint32_t major = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
                uint64_t so = 0;
                for (int i = 7; i >= 0; i--)
                        so = so << 8 | b[144 + i];
                if (magic != 0xa92b4efc || major != 1 || so > at / 512)
                        continue;
                c[k].start = at - so * 512;
                moved = true;
        }
        if (moved)
                qsort(c, n, sizeof(*c), cmp_cand);
}
