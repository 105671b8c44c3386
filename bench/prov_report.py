#!/usr/bin/env python3
"""bench/prov_report.py RAWDIR OUT.md: provisioning, storprov apply against a
serial sfdisk + mkfs.xfs script of the same layout, from RAWDIR/prov-loop.json
(bench/loop-prov.sh, host loop LUNs) and RAWDIR/prov-vm.json (BENCH_ONLY=prov-jobs
bench/run.sh, the VM). Per --jobs value: the median of the paired ratios
(storprov / script) with min-max, the two times, and storprov's inspection
(process start to the first step's start), per state of the disks where the
file has it (reused: wipefs'd, the last run's metadata behind; fresh: zeroed
where the scan reads). Figures of one file only: one
run, one code version, never pooled.
bench/prov_report.py --from-guest GUEST.out prov-vm.json LOAD_START LOAD_END COMMIT
turns the guest's PROVJOBS lines into prov-vm.json (bench/run.sh does)."""
import json
import os
import statistics
import sys
import time


def rng(v, fmt='%.2f'):
    return (fmt + ' (' + fmt + '-' + fmt + ')') % (statistics.median(v), min(v), max(v))


def section(doc, title):
    out = ['## ' + title, '',
           'Commit %s, %s; host load (1/5/15 min) %s at start, %s at end. %s.' % (
               doc['commit'], doc['time'], doc['load_start'], doc['load_end'], doc.get('where', '')), '',
           '| disks | --jobs | pairs | ratio storprov/script, median (min-max) | storprov s | script s | inspection s |',
           '|---|---:|---:|---|---|---|---|']
    reps = doc['reps']
    for d in sorted({r.get('disks', 'reused') for r in reps}, reverse=True):
        for j in sorted({r['jobs'] for r in reps}):
            rs = [r for r in reps if r['jobs'] == j and r.get('disks', 'reused') == d]
            if not rs:
                continue
            insp = [r['inspect_s'] for r in rs if r.get('inspect_s') is not None]
            out.append('| %s | %d | %d | %s | %s | %s | %s |' % (
                d, j, len(rs), rng([r['ratio'] for r in rs]), rng([r['sp_s'] for r in rs]),
                rng([r['script_s'] for r in rs]), rng(insp, '%.3f') if insp else 'n/a'))
    return out + ['']


def from_guest(out, js, ls, le, commit):
    """The guest's PROVJOBS lines (bench/guest/prov-jobs.sh) into prov-vm.json."""
    reps = []
    for line in open(out, errors='replace'):
        if not line.startswith('PROVJOBS '):
            continue
        kv = dict(f.split('=', 1) for f in line.split()[1:])
        a, b = int(kv['sp_ms']), int(kv['script_ms'])
        insp = kv.get('inspect_s')
        reps.append({'rep': int(kv['rep']), 'jobs': int(kv['jobs']), 'disks': kv.get('disks', 'reused'),
                     'sp_s': a / 1000, 'script_s': b / 1000,
                     'ratio': round(a / b, 4), 'inspect_s': float(insp) if insp not in (None, '', 'null') else None})
    json.dump({'where': '8 x 1 GiB virtio disks in the QEMU TCG guest (bench/guest/prov-jobs.sh)', 'commit': commit,
               'time': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()), 'load_start': ls, 'load_end': le,
               'reps': reps}, open(js, 'w'), indent=1)


def main(raw, md):
    lines = ['# Provisioning: storprov apply against a serial sfdisk + mkfs.xfs script', '',
             'Paired repetitions: each pair runs both on the same freshly wiped disks, in alternating order. '
             'How each figure is measured: bench/README.md, "Provisioning". Every pair is in the JSON named.', '']
    for name, title in (('prov-loop.json', '8 loop LUNs on the host (`bench/loop-prov.sh`)'),
                        ('prov-vm.json', '8 LUNs in the QEMU guest (`BENCH_ONLY=prov-jobs bench/run.sh`)')):
        p = os.path.join(raw, name)
        if os.path.exists(p):
            lines += section(json.load(open(p)), title + ', ' + name)
    open(md, 'w').write('\n'.join(lines))
    print(open(md).read())


if __name__ == '__main__':
    if len(sys.argv) == 7 and sys.argv[1] == '--from-guest':
        sys.exit(from_guest(*sys.argv[2:]))
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
