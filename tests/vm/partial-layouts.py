#!/usr/bin/env python3
"""tests/vm/partial-layouts.py - draw layouts for the request-level partial-stripe check (issue 34 item 5).

Usage: partial-layouts.py --seed S [--count N] [--first K] [--fixed] [--out DIR] [--write-mib M]

No parity emulation: each LUN is a plain virtio disk (what a hardware RAID LUN
is to the host), declared with <hwraid level members chunk/> in the profile;
its geometry is only what the profile says. Layout i is drawn from
random.Random("S:i") alone (a layout replays without the others).

A LUN: RAID5 (3-16 members) or RAID6 (4-16) with a strip of 16K-1M, full
stripe F = strip x data disks from 64 KiB to 4 MiB. With --fixed, layouts 1
and 2 are not drawn: 1 = RAID5 12 x 256K (F 2.75 MiB, under an LVM striped LV
over 2 LUNs), 2 = RAID6 10 x 1M (F 8 MiB, over the 4088 KiB a request of 4 KiB
pages holds on the stand-in LUN, under md RAID0 over 2 LUNs: the case where
strict coverage is impossible and storprov warns lun-request-size); the
upper layer of each fixed layout is fixed too, the writers are drawn.

Upper layers: lv (LVM striped LV over 2-4 LUNs), md0 (md RAID0 over 2-4), md5
(md RAID5 over 3-4), xfs (XFS on one LUN, half the time on a GPT partition).
Writers: O_DIRECT, 1, 2 or 4 writers of 1, 2 or 4 of storprov's XFS full
stripes a write (buffers in huge or 4 KiB pages), and a buffered shape (1 or 2
writers of 1 MiB writes, fsync at the end).

--out DIR writes DIR/layouts.env (PS_* and L<i>_* shell parameters) and
DIR/L<i>.xml (profiles matching the disks by serial, ps0..ps3).
"""
import argparse
import importlib.util
import os
import random
import sys

# the profile's upper layers are the RMW sweep's (tests/vm/rmw-layouts.py)
_spec = importlib.util.spec_from_file_location('rmw_layouts', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'rmw-layouts.py'))
RMW = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(RMW)

STRIPS_K = [16, 32, 64, 128, 256, 512, 1024]
UPPERS = ['lv', 'md0', 'md5', 'xfs']
MAX_LUNS = 4
FIXED = {1: (5, 12, 256, 'lv', 2), 2: (6, 10, 1024, 'md0', 2)}


def draw(seed, i, fixed):
    r = random.Random('%s:%d' % (seed, i))
    upper = r.choice(UPPERS)
    while True:
        level = r.choice([5, 6])
        members = r.randint(3, 16) if level == 5 else r.randint(4, 16)
        strip = r.choice(STRIPS_K)
        F = strip * (members - (2 if level == 6 else 1))
        if 64 <= F <= 4096:
            break
    nluns = {'lv': r.randint(2, 4), 'md0': r.randint(2, 4), 'md5': r.randint(3, 4), 'xfs': 1}[upper]
    part = r.randint(0, 1) if upper == 'xfs' else 0
    writers, bs_mult, huge = r.choice([1, 2, 4]), r.choice([1, 2, 4]), r.choice([0, 1])
    bwriters = r.choice([1, 2])
    if fixed and i in FIXED:
        level, members, strip, upper, nluns = FIXED[i]
        part = 0
    data = members - (2 if level == 6 else 1)
    F = strip * data
    return {'LUN_LEVEL': level, 'LUN_MEMBERS': members, 'STRIP_K': strip, 'DATA': data, 'FULL_K': F,
            'UPPER': upper, 'LUNS': nluns, 'PART': part, 'WRITERS': writers, 'BS_MULT': bs_mult,
            'FIO_HUGE': huge, 'BWRITERS': bwriters}


def describe(L):
    up = {'lv': 'LVM striped LV over %d LUNs' % L['LUNS'], 'md0': 'md RAID0 over %d LUNs' % L['LUNS'],
          'md5': 'md RAID5 over %d LUNs' % L['LUNS'],
          'xfs': 'XFS on one LUN' + (' (GPT partition)' if L['PART'] else ' (whole LUN)')}[L['UPPER']]
    return ('%s; LUN = RAID%d %d x %dK (full stripe %dK); O_DIRECT %d x %d full stripes (%s), buffered %d x 1M'
            % (up, L['LUN_LEVEL'], L['LUN_MEMBERS'], L['STRIP_K'], L['FULL_K'], L['WRITERS'], L['BS_MULT'],
               'huge pages' if L['FIO_HUGE'] else '4 KiB pages', L['BWRITERS']))


def profile(seed, i, L):
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<!-- partial-stripe check (tests/vm/partial-layouts.py), seed %s, layout %d: %s -->' % (seed, i, describe(L)),
           '<profile version="1" name="ps-%d">' % i,
           '  <!-- the stand-in LUN\'s virtqueue of 1024 (queue_size=1024, for requests of 1022 pages) gives',
           '       nr_requests 1024 per queue; with the derived max_sectors_kb that is more queue memory than',
           '       1/8 of the 2 GiB guest; the workloads here are 64 MiB -->',
           '  <allow rule="queue-memory" reason="test VM: stand-in LUN with a 1024-deep virtqueue"/>',
           '  <disks id="lun" count="%d">' % L['LUNS'],
           '    <match serial="ps[0-%d]"/>' % (L['LUNS'] - 1),
           '    <hwraid level="%d" members="%d" chunk="%dK"/>' % (L['LUN_LEVEL'], L['LUN_MEMBERS'], L['STRIP_K'])]
    return '\n'.join(out + RMW.upper_xml(L)) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--seed', required=True)
    ap.add_argument('--count', type=int, default=2)
    ap.add_argument('--first', type=int, default=1)
    ap.add_argument('--fixed', action='store_true', help='layouts 1 and 2 are 12 x 256K RAID5 and 10 x 1M RAID6')
    ap.add_argument('--write-mib', type=int, default=64, help='MiB written per workload and side (default 64)')
    ap.add_argument('--out')
    a = ap.parse_args()
    idx = list(range(a.first, a.first + a.count))
    lays = {i: draw(a.seed, i, a.fixed) for i in idx}
    head = 'PS_SEED=%s\nPS_LAYOUTS="%s"\nPS_WRITE_MIB=%d\nPS_MAX_LUNS=%d\n' % (a.seed, ' '.join(map(str, idx)), a.write_mib, MAX_LUNS)
    env = head + ''.join(''.join('L%d_%s=%s\n' % (i, k, v) for k, v in lays[i].items())
                         + "L%d_DESC='%s'\n" % (i, describe(lays[i])) for i in idx)
    if not a.out:
        sys.stdout.write(env)
        return 0
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, 'layouts.env'), 'w') as f:
        f.write(env)
    for i in idx:
        with open(os.path.join(a.out, 'L%d.xml' % i), 'w') as f:
            f.write(profile(a.seed, i, lays[i]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
