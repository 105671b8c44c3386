#!/usr/bin/env python3
"""Where the LVM steps' time goes (issue 34 item 3), from a prov-par boot run
with BENCH_LVM_TRACE=1 (bench/guest/prov-par.sh):

  python3 bench/lvm_steps.py bench/results/raw/prov-lvm/prov-par.out

For each case, disk state, --jobs and tool, per lvm subcommand (pvcreate,
vgcreate, lvcreate) summed over one run: the lvm command's own wall time
(the shim's start to end, LVMCMD lines), the step's time (PSTEP: storprov's
report elapsed_s; the scripts' command plus its udevadm settle), and the
difference (storprov: its precheck, postcheck and waiting; the scripts: the
settle). Then how many lvm commands started while an md resync ran. Median
[min-max] over the rounds, in ms."""
import re
import statistics
import sys

KINDS = ('pvcreate', 'vgcreate', 'lvcreate')


def kv(line):
    head = line.split(' cmd=', 1)
    d = dict(re.findall(r'(\w+)=(\S+)', head[0]))
    d['cmd'] = head[1] if len(head) > 1 else ''
    return d


def rng(xs):
    if not xs:
        return '-'
    xs = sorted(xs)
    return '%d [%d-%d]' % (statistics.median(xs), xs[0], xs[-1])


def main(path):
    lvm, step = {}, {}
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('LVMCMD '):
            d = kv(line)
            kind = d['cmd'].split(' ')[0]
            if kind not in KINDS:
                continue
            k = (d['case'], d['disks'], d['jobs'], d['tool'], d['rep'])
            e = lvm.setdefault(k, {})
            dur = int(d['end_ms']) - int(d['start_ms'])
            e.setdefault(kind, []).append(dur)
            e.setdefault('resync', []).append(int(d['resync']))
        elif line.startswith('PSTEP '):
            d = kv(line)
            cmd = d['cmd']
            kind = next((x for x in KINDS if cmd.startswith(x + ':') or cmd.startswith('lvm ' + x)), None)
            if not kind:
                continue
            k = (d['case'], d['disks'], d['jobs'], d['tool'], d['rep'])
            step.setdefault(k, {}).setdefault(kind, []).append(int(d['ms']))
    if not lvm:
        sys.exit('%s: no LVMCMD lines (was the boot run with BENCH_LVM_TRACE=1?)' % path)
    groups = {}
    for k in sorted(set(lvm) | set(step)):
        g = groups.setdefault(k[:4], {})
        for kind in KINDS:
            a = sum(lvm.get(k, {}).get(kind, [])) if kind in lvm.get(k, {}) else None
            b = sum(step.get(k, {}).get(kind, [])) if kind in step.get(k, {}) else None
            r = g.setdefault(kind, {'lvm': [], 'step': [], 'extra': []})
            if a is not None:
                r['lvm'].append(a)
            if b is not None:
                r['step'].append(b)
            if a is not None and b is not None:
                r['extra'].append(b - a)
        rs = lvm.get(k, {}).get('resync', [])
        g.setdefault('resync', []).append((sum(rs), len(rs)))
    print('| case disks jobs | tool | lvm subcommand | rounds | lvm command ms | step ms | step - command ms |')
    print('|---|---|---|---:|---:|---:|---:|')
    for (case, disks, jobs, tool), g in sorted(groups.items()):
        for kind in KINDS:
            r = g.get(kind)
            if not r or not r['lvm']:
                continue
            print('| %s %s jobs=%s | %s | %s | %d | %s | %s | %s |' % (
                case, disks, jobs, tool, kind, len(r['lvm']), rng(r['lvm']), rng(r['step']), rng(r['extra'])))
    print()
    for (case, disks, jobs, tool), g in sorted(groups.items()):
        n = sum(x[1] for x in g['resync'])
        print('%s %s jobs=%s %s: %d of %d lvm commands started during an md resync' % (
            case, disks, jobs, tool, sum(x[0] for x in g['resync']), n))


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
