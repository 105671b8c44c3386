/* SPDX-License-Identifier: GPL-2.0-or-later
 * Stripe geometry: pure arithmetic from a RAID description to su/sw, full
 * stripe, partition alignment, PV alignment, VG extent size, XFS log stripe
 * unit and AG size. Sizes are bytes everywhere; conversion to KiB / sectors /
 * fs blocks happens only where an argv (plan/argv.c) or a message is built. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "input/raid.h"

#define XFS_BLOCK_BYTES        UINT64_C(4096)
#define XFS_LOG_SU_MAX_BYTES   (UINT64_C(256) * 1024)   /* XLOG_MAX_RECORD_BSIZE */
#define PARTITION_GRAIN_BYTES  (UINT64_C(1024) * 1024)  /* the 1 MiB everyone aligns to */
#define VG_EXTENT_MIN_BYTES    (UINT64_C(4) * 1024 * 1024)
/* Ranges every product below is checked against (profiles are held to the
 * same at load: members <= 1024, chunk 4 KiB .. 1 GiB). */
#define GEOM_MAX_MEMBERS          1024u
#define GEOM_MAX_CHUNK_BYTES      (UINT64_C(1) << 30)
#define GEOM_MAX_FULL_STRIPE_BYTES (UINT64_C(1) << 40)

struct raid_desc {
        enum raid_level level;
        unsigned members;          /* all members, data + parity (not spares) */
        uint64_t chunk_bytes;      /* per-disk strip; ignored for RAID1 */
        unsigned legs;             /* RAID50/60: number of parity groups; 0 = 1 */
        unsigned near_copies;      /* RAID10: 0 = 2; 1 for the far and offset layouts */
        unsigned copies;           /* RAID10: copies of each chunk (n2/f2/o2: 2); 0 = near_copies */
        bool md;                   /* Linux md (raid4/5/6/10 chunk must be a power of 2) */
};

struct stripe_geom {
        uint64_t su_bytes;          /* 0: no stripe geometry */
        unsigned sw;                /* data disks per full stripe */
        uint64_t full_stripe_bytes; /* su × sw */
        bool parity;                /* writes smaller than a full stripe pay read-modify-write */
};

/* Fills ret from d. On a rule violation returns -EINVAL and sets *ret_err to
 * a malloc'ed sentence naming the rule and the figures. */
int raid_geometry(const struct raid_desc *d, struct stripe_geom *ret, char **ret_err);

/* Striping with `data_legs` data legs (md RAID0/4/5/6/10 over members, or a
 * striped LV over PVs) in chunks of c, over devices of geometry `lower` (full
 * stripe F). One rule for every level: su = c and sw = the data legs, except
 * over parity devices with c a divisor of F smaller than it, where sw = legs x
 * F / c, so that each leg's share of an upper stripe is a whole stripe of its
 * device. The result has parity when the upper level or the devices below have
 * it. A chunk that straddles F (neither divides nor is a multiple of it) is
 * refused over parity devices (-EINVAL, *ret_err says why); over devices whose
 * stripe is only an exported hint it returns 1 with the reason in *ret_err
 * (a warning) and keeps su = c, sw = legs. Returns 0 otherwise. */
int stack_geometry(const struct stripe_geom *lower, unsigned data_legs, uint64_t chunk_bytes, bool parity_upper,
                   struct stripe_geom *ret, char **ret_err);

/* The chunk to stripe with over `lower` when the profile gives none: one full
 * stripe F of the devices below when it is a power of 2 of at least 4 KiB and
 * at most limit_bytes (0: no limit), so each leg's share of an upper stripe
 * is one whole lower stripe in one piece; else the lower su when it is a power
 * of 2 of at least 4 KiB; else the largest power of 2 dividing F (at least
 * 4 KiB); 0 when there is none. Over parity devices whose F cannot be the
 * chunk, the largest power of 2 that divides F and is at most
 * PLUG_GATHER_MAX_BYTES: dm-stripe and md RAID0 send each chunk-sized piece
 * as its own bio, and the block layer's plug merges a leg's consecutive
 * pieces into one request per device, but it dispatches the plug whenever a
 * request is added while the last one holds 128 KiB or more
 * (BLK_PLUG_FLUSH_SIZE, the same from EL8's 4.18 to 6.x). Pieces of 128 KiB
 * therefore reach a LUN one by one and a write-through controller (or md)
 * takes each as a partial-stripe write; measured in the VM, LV over 4 LUNs
 * of RAID5 4 x 128K (F 384K): 128K pieces, 1,061 LUN requests of 128 KiB
 * and a member-read ratio of 0.026-0.050; 64K pieces, one 384 KiB request
 * per LUN stripe (tests/vm/46-rmw-sweep.bats, L<i>_SP_LOOP_WRITES). Under an upper level with parity (md
 * raid4/5/6) it is the largest power of 2 of at most 512 KiB (mdadm's default
 * chunk) that divides F: md gathers a stripe in 4 KiB rows, chunk / 4 KiB of
 * them, in a stripe cache of 256 rows by default, so a chunk as wide as a
 * LUN's full stripe (2 MiB) leaves concurrent writes half gathered and md
 * reads to complete them (measured in the VM, md RAID5 over RAID6 10 x 256K
 * LUNs: member-read ratio 2.98 with a 2 MiB chunk); and when that is not F
 * itself and the devices below have parity, at most PLUG_GATHER_MAX_BYTES,
 * for the same reason as above: a leg writes each stripe of its device in
 * F / chunk pieces that must merge into one request (measured, md RAID5
 * over 4 LUNs of RAID6 5 x 128K, F 384K: 0.46 with a 128K chunk, 0.0077
 * with 64K). Over parity devices sw then widens so each leg still writes
 * whole stripes below (stack_geometry).
 * *ret_why says which and why (malloc'ed). */
#define PARITY_MD_MAX_CHUNK_BYTES (UINT64_C(512) * 1024)
#define PLUG_GATHER_MAX_BYTES (UINT64_C(64) * 1024)
uint64_t stack_chunk_bytes(const struct stripe_geom *lower, uint64_t limit_bytes, bool parity_upper, char **ret_why);
/* md raid0's chunk over parity devices whose full stripe F is not a power of 2 (which LVM stripes and
 * parity md chunks cannot be): F itself, when it is a multiple of 4 KiB of at most 512 KiB; else 0, and
 * stack_chunk_bytes decides. Measured (bench/parity-md.sh, 3 x RAID6 5 x 128K LUNs, F 384K): buffered
 * writes with fsync read 0.004-0.05 of what they wrote at chunk 384K (the LUNs' stripe caches at 256 or
 * 4096), 0.06-0.14 at 64K. */
uint64_t md0_chunk_bytes(const struct stripe_geom *lower, char **ret_why);

/* A warning (malloc'ed) when a chunk given by the profile is a divisor of the
 * parity devices' full stripe F below it while F itself could have been the
 * chunk (a power of 2 within limit_bytes, and within PARITY_MD_MAX_CHUNK_BYTES
 * under a parity md: see stack_chunk_bytes), or when F cannot be the chunk
 * and the chunk is above PLUG_GATHER_MAX_BYTES (its pieces reach the device
 * one by one); NULL otherwise. The same at every level above (md raid0,
 * raid10, striped LVs), except that under a parity md a chunk of at most
 * PLUG_GATHER_MAX_BYTES is not warned about (its pieces gather). */
char *stack_chunk_advice(const struct stripe_geom *lower, uint64_t chunk_bytes, uint64_t limit_bytes,
                         bool parity_upper);

/* lcm(1 MiB, full stripe, physical sector); 0 when it overflows 64 bits (the
 * caller refuses the plan: never a silent fallback). */
uint64_t partition_align_bytes(const struct stripe_geom *g, uint64_t physical_sector_bytes);

/* pvcreate --dataalignment: lcm(1 MiB, the full stripe), as partitions start;
 * 0 for no stripe (the LVM default, 1 MiB) or on overflow. */
uint64_t pv_data_alignment_bytes(const struct stripe_geom *g);

/* Smallest multiple of the full stripe (of lcm(full stripes) of every PV) that is
 * at least 4 MiB and that vgcreate accepts (a power of 2 or a multiple of 128 KiB). */
uint64_t vg_extent_bytes(uint64_t full_stripe_bytes);   /* 0 on overflow */

/* XFS log stripe unit. striped: the largest power of 2 that divides su and is
 * at most 256 KiB (every log write padded to it); choice (an <xfs>'s
 * log-stripe-unit: 1 true, 0 false, -1 unset) false, or unset on a parity
 * stripe: one 4 KiB block. XFS pads each log write to its log su, and on a
 * parity stripe a log write is a partial-stripe write whatever its size, so a
 * padded one only makes the RAID read more: stripe-sized buffered files read
 * 0.34 against 0.30 with 4 KiB, full-stripe O_DIRECT writes 0.0013 against
 * 0.0002-0.0005 (bench/README.md section 1e). Without -l su a v2 log would
 * inherit the data sunit, so 4 KiB is given explicitly. 0 when there is no
 * stripe geometry. */
uint64_t xfs_log_su_bytes(const struct stripe_geom *g, int choice);

/* Checks su/sw the way mkfs.xfs would: su a multiple of the fs block and the
 * sector size, sw ≥ 1, sunit/swidth within 32 bits of 512-byte sectors. */
int xfs_validate_stripe(uint64_t su_bytes, unsigned sw, uint64_t sector_bytes, char **ret_err);

/* The logbsize for fstab: 256 KiB, the largest v2 log buffer, which is >= every
 * log su storprov derives (they are capped at 256 KiB) and suits streaming. */
uint64_t xfs_logbsize_bytes(uint64_t log_su_bytes);

/* The AG size (in fs blocks) to give mkfs.xfs instead of its own choice
 * (agsize_blocks) on a parity stripe, or 0 to keep it. XFS aligns allocations
 * to the stripe width relative to the start of their AG, and mkfs.xfs rounds
 * its AG size to the stripe unit only, so AG k starts k × agsize mod swidth into
 * a stripe and every "aligned" extent in it straddles two stripes. The answer is
 * S whole stripes per AG, S nearest agsize / swidth (the AG count stays mkfs's)
 * and coprime to sw + 1 and sw + 2, so that on a RAID5 or RAID6 whose parity
 * rotates every stripe the AG headers still rotate over the members (what mkfs's
 * own one-su offset is for). Within [16 MiB, 1 TiB] per AG, as XFS requires.
 * Per level: the coprime count matters where the level itself rotates parity
 * (md raid4/5/6, hardware RAID5/6/50/60). On a striped LV, md raid0 or raid10
 * over parity LUNs every AG of whole stripes starts on the first leg whatever S
 * is: there the whole stripes are the point, and the coprime S is the same rule
 * kept for one rule's sake (storprov(8) says so). */
uint64_t xfs_stripe_agsize_blocks(uint64_t agsize_blocks, uint64_t block_bytes, const struct stripe_geom *g);
