#!/usr/bin/env python3
"""tests/vm/rmw-layouts.py - draw parity layouts for the RMW sweep (issue 17).

Usage: rmw-layouts.py --seed S [--count N] [--first K] [--out DIR]
                      [--write-mib M] [--min-upper-mib M] [--uppers LIST]
                      [--max-full-k K]

Layout i (i = K .. K+N-1, default 1 .. N) is drawn from random.Random("S:i")
alone, so one layout of a seed replays without the others (--first i
--count 1) and a sweep split over several VM boots draws the same layouts.

Each layout: hardware RAID LUNs, emulated in the guest as md RAID5 (3-8
members) or RAID6 (4-10 members) with a strip of 16K-256K (md needs a power
of 2; the data widths 2-8 make full stripes such as 384K, 640K or 1792K),
each exported through a loop device (no exported stripe, like a real LUN),
and one upper layer, declared with <hwraid level members chunk/> or (4 in 10)
not declared, the LUNs exporting io_min = strip and io_opt = full stripe
(sysfs values bind-mounted over the loop devices' own, which export none):

  lv    LVM striped LV over 2-4 LUNs (stripe size left to storprov)
  md0   md RAID0 over 2-4 LUNs (chunk left to storprov)
  md5   md RAID5 over 3-4 LUNs (chunk left to storprov)
  xfs   XFS directly on one LUN (half the time on a GPT partition)

Without --out it prints, per layout, the guest-side shell parameters and the
profile XML (a "# ---- layout i" line before each). With --out DIR it writes
DIR/layouts.env (all parameters, sourced by tests/vm/scenarios/rmw-sweep.sh)
and DIR/L<i>.xml (the profiles).

The member size is drawn from 64-128 MiB and raised when the upper device
would be smaller than --min-upper-mib (default 1024: mkfs.xfs refuses small
data sections with a striped log, and 1 GiB keeps its stripe logic in play);
images are sparse. The EXP_* values are what the geometry rules of issue 17
give (informative; the guest records what storprov planned):
  F = strip x data disks; chunk = F if F is a power of 2, else the strip;
  LV / md0: su = chunk, sw = LUNs x F/chunk; md5: sw = (LUNs-1) x F/chunk;
  XFS on a LUN: su = strip, sw = data disks; PV data alignment lcm(1 MiB, F).
"""
import argparse
import math
import os
import random
import sys

STRIPS_K = [16, 32, 64, 128, 256]
UPPERS = ['lv', 'md0', 'md5', 'xfs']
# The emulated LUN's full stripe is drawn at most 1 MiB (--max-full-k)
# under XFS alone, and at most 512 KiB under a layer that stripes over the
# LUNs (md RAID0/RAID5, an LVM striped LV). The LUN is an md array behind a
# loop device: a loop request is at most 1280 KiB or 128 segments, and each
# one is a separate direct I/O to that md, which completes a stripe without
# reading only when all its pieces arrive while it is in the stripe cache.
# A controller's write-back cache joins the pieces; md does only sometimes.
# A layer above splits its writes at its chunk (md RAID5 even into 4 KiB
# pages, so 128 segments = 512 KiB), so a LUN stripe wider than 512 KiB
# reaches the LUN in pieces however the chunk is chosen. Measured, with the
# layer above reading nothing itself (its own reads 0.0017 and 0.0000 of
# what it wrote, extents on the stripe): md RAID5 over RAID5 5 x 256K LUNs
# (full stripe 1 MiB, chunk 512k) 0.34; md RAID0 over RAID6 9 x 128K LUNs
# (896 KiB, chunk 128k) 0.084, the naive layout 0.078 on the same LUNs; with
# a chunk of the whole 1-2 MiB LUN stripe md RAID5 reads 0.09-0.13 itself
# (stripe_cache_size 4096). That is the emulation's limit, not evidence on
# the layout either way (bench/README.md).
MAX_FULL_K = 1024
MAX_FULL_K_UNDER_A_LAYER = 512
MAX_LUNS = 4


def pow2(x):
    return x > 0 and x & (x - 1) == 0


def draw(seed, i, min_upper_mib, uppers=None, max_full_k=MAX_FULL_K):
    r = random.Random('%s:%d' % (seed, i))
    upper = r.choice(uppers or UPPERS)
    limit = max_full_k if upper == 'xfs' else min(max_full_k, MAX_FULL_K_UNDER_A_LAYER)
    while True:   # a LUN whose full stripe fits the emulation (see MAX_FULL_K)
        level = r.choice([5, 6])
        members = r.randint(3, 8) if level == 5 else r.randint(4, 10)
        strip = r.choice(STRIPS_K)
        if strip * (members - (2 if level == 6 else 1)) <= limit:
            break
    nluns = {'lv': r.randint(2, 4), 'md0': r.randint(2, 4), 'md5': r.randint(3, 4), 'xfs': 1}[upper]
    part = r.randint(0, 1) if upper == 'xfs' else 0
    member = r.randrange(64, 129, 16)
    data = members - (2 if level == 6 else 1)
    luns_of_data = nluns - 1 if upper == 'md5' else nluns
    need = -(-min_upper_mib // (luns_of_data * data))
    if member < need:
        member = -(-need // 16) * 16
    F = strip * data
    low = F & -F                      # the largest power of 2 dividing F
    if upper == 'md5':
        chunk = min(low, 512)         # a parity md gathers chunks up to 512K
        if chunk < F:
            chunk = min(chunk, 64)    # and pieces of a LUN stripe below 128K
    elif upper == 'md0' and F <= 512:
        chunk = F                     # md raid0 takes any multiple of 4K (issue 32)
    else:
        chunk = F if pow2(F) else min(low, 64)   # pieces below 128K are merged
    if upper == 'xfs':
        su, sw = strip, data
    else:
        su, sw = chunk, luns_of_data * (F // chunk)
    lcm_k = F * 1024 // math.gcd(F, 1024)
    # drawn last, so that the fields above stay what earlier seeds drew: the LUNs
    # only export their stripe (io_min strip, io_opt full stripe, as a controller's
    # Block Limits page does) and the profile has no <hwraid>; storprov plans such
    # a stripe as parity (issue 30), so the expected figures are the same
    hinted = 1 if r.random() < 0.4 else 0
    # the writers (issue 32: no rule proven on one probe): 1, 2 or 4 O_DIRECT
    # writers of 1, 2 or 4 of storprov's full stripes a write, from buffers in
    # huge pages or in 4 KiB pages (a request of 4 KiB pages is cut at
    # max_segments pages, 128 x 4 KiB = 512 KiB on the loop LUNs)
    writers = r.choice([1, 2, 4])
    bs_mult = r.choice([1, 2, 4])
    fio_huge = r.choice([0, 1])
    if F > 512:
        # 128 segments of 4 KiB hold 512 KiB: such a stripe reaches the LUN
        # in two requests from 4 KiB pages whatever the layout (storprov says
        # so, lun-request-size), which the emulated LUN gathers only sometimes
        fio_huge = 1
    return {
        'LUN_LEVEL': level, 'LUN_MEMBERS': members, 'STRIP_K': strip, 'LUNS': nluns,
        'UPPER': upper, 'PART': part, 'MEMBER_MIB': member, 'DATA': data, 'FULL_K': F,
        'EXP_CHUNK_K': chunk if upper in ('lv', 'md0', 'md5') else 0,
        'EXP_SU_K': su, 'EXP_SW': sw, 'EXP_FULL_K': su * sw,
        'EXP_PV_ALIGN_K': lcm_k if upper == 'lv' else 0,
        'HINTED': hinted,
        'WRITERS': writers, 'BS_MULT': bs_mult, 'FIO_HUGE': fio_huge,
    }


def describe(L):
    up = {'lv': 'LVM striped LV over %d LUNs' % L['LUNS'],
          'md0': 'md RAID0 over %d LUNs' % L['LUNS'],
          'md5': 'md RAID5 over %d LUNs' % L['LUNS'],
          'xfs': 'XFS on one LUN' + (' (GPT partition)' if L['PART'] else ' (whole LUN)')}[L['UPPER']]
    return ('%s; LUN = RAID%d %d x %dK (%d data, full stripe %dK)%s, members %d MiB; '
            '%d writer%s of %d full stripe%s, %s buffers'
            % (up, L['LUN_LEVEL'], L['LUN_MEMBERS'], L['STRIP_K'], L['DATA'], L['FULL_K'],
               ' exporting its stripe, not declared' if L['HINTED'] else ', declared', L['MEMBER_MIB'],
               L['WRITERS'], '' if L['WRITERS'] == 1 else 's', L['BS_MULT'], '' if L['BS_MULT'] == 1 else 's',
               'huge-page' if L['FIO_HUGE'] else '4 KiB-page'))


def profile(seed, i, L):
    n = L['LUNS']
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<!-- RMW sweep (tests/vm/rmw-layouts.py), seed %s, layout %d: %s.' % (seed, i, describe(L)),
           '     The LUNs are loop devices over md arrays built in the guest (no',
           '     exported stripe); the only loop devices when this is applied. -->',
           '<profile version="1" name="rmw-%d">' % i,
           '  <disks id="lun" count="%d">' % n,
           '    <match name="loop*"/>']
    if L['HINTED']:
        out.append('    <!-- no <hwraid>: the LUNs export io_min %dK / io_opt %dK -->' % (L['STRIP_K'], L['FULL_K']))
    else:
        out.append('    <hwraid level="%d" members="%d" chunk="%dK"/>' % (L['LUN_LEVEL'], L['LUN_MEMBERS'], L['STRIP_K']))
    return '\n'.join(out + upper_xml(L)) + '\n'


def upper_xml(L):
    """the profile from the LUN group's partition table on: the upper layer, XFS
    (also used by tests/vm/partial-layouts.py)"""
    out = []
    if L['UPPER'] == 'xfs' and L['PART']:
        out += ['    <gpt>', '      <partition id="data" size="100%"/>', '    </gpt>']
    out.append('  </disks>')
    if L['UPPER'] == 'lv':
        out += ['  <vg id="sp" name="sp" pvs="lun">',
                '    <lv name="vol" size="90%%VG" stripes="%d"/>' % L['LUNS'],
                '  </vg>']
        on = 'sp/vol'
    elif L['UPPER'] in ('md0', 'md5'):
        out.append('  <md id="up" name="up" level="%s" devices="lun"/>' % L['UPPER'][2])
        on = 'up'
    else:
        on = 'lun.data' if L['PART'] else 'lun'
    return out + ['  <xfs on="%s" label="sp" mountpoint="/sp" mount-options="noatime"/>' % on, '</profile>']


def shell(i, L):
    lines = ['L%d_%s=%s' % (i, k, v) for k, v in L.items()]
    lines.append("L%d_DESC='%s'" % (i, describe(L)))
    return '\n'.join(lines) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--seed', required=True)
    ap.add_argument('--count', type=int, default=2)
    ap.add_argument('--first', type=int, default=1)
    ap.add_argument('--out')
    ap.add_argument('--write-mib', type=int, default=128, help='MiB written per layout and side (default 128)')
    ap.add_argument('--min-upper-mib', type=int, default=1024)
    ap.add_argument('--max-full-k', type=int, default=MAX_FULL_K,
                    help='largest LUN full stripe drawn, KiB (default %d; %d under a layer)'
                    % (MAX_FULL_K, MAX_FULL_K_UNDER_A_LAYER))
    ap.add_argument('--uppers', help='comma-separated subset of %s to draw from (the draws then '
                    'differ from a run without it)' % ','.join(UPPERS))
    a = ap.parse_args()
    uppers = a.uppers.split(',') if a.uppers else None
    if uppers and not set(uppers) <= set(UPPERS):
        ap.error('--uppers: not in %s: %s' % (','.join(UPPERS), a.uppers))
    idx = list(range(a.first, a.first + a.count))
    lays = {i: draw(a.seed, i, a.min_upper_mib, uppers, a.max_full_k) for i in idx}
    disks = max(L['LUN_MEMBERS'] for L in lays.values())
    part = max(L['MEMBER_MIB'] for L in lays.values()) + 16
    # the member disks' table, made on the host (tests/vm/lib.bash vm_disks_gpt):
    # partition j+1, "l<j>", from 1 + j * part MiB to 1 + (j + 1) * part MiB
    parted = ' '.join('mkpart l%d %dMiB %dMiB' % (j, 1 + j * part, 1 + (j + 1) * part) for j in range(MAX_LUNS))
    head = ('RMW_SEED=%s\nRMW_LAYOUTS="%s"\nRMW_DISKS=%d\nRMW_MAX_LUNS=%d\nRMW_PART_MIB=%d\nRMW_WRITE_MIB=%d\n'
            'RMW_PARTED=(%s)\n'
            % (a.seed, ' '.join(map(str, idx)), disks, MAX_LUNS, part, a.write_mib, parted))
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        with open(os.path.join(a.out, 'layouts.env'), 'w') as f:
            f.write(head + ''.join(shell(i, lays[i]) for i in idx))
        for i in idx:
            with open(os.path.join(a.out, 'L%d.xml' % i), 'w') as f:
                f.write(profile(a.seed, i, lays[i]))
        return 0
    sys.stdout.write(head)
    for i in idx:
        sys.stdout.write('# ---- layout %d: %s\n' % (i, describe(lays[i])))
        sys.stdout.write(shell(i, lays[i]))
        sys.stdout.write(profile(a.seed, i, lays[i]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
