#!/usr/bin/env python3
"""bench/seek.py - the inspection before the first write on disks that seek
(issue 43 item 1): the SEEK lines of bench/guest/seek.sh (the boot "seek" of
bench/run.sh) as figures.

Usage: seek.py RAW.out   prints the figures as JSON, then the table

A row is one command on one set of disks at one delay: its repetitions' wall
time, the read requests and KiB a disk that reached the dm-delay targets (and,
for storprov, the --report's inspection time, threads and the most disks
inspected at once) as median, min, max and count. Derived, per
repetition (both delays of a repetition are in one boot, minutes apart):
- added: a command's wall time at the delay minus at 0 ms, that per disk and
  per read request (what the model charged a request, in effect);
- storprov_over_wipefs: storprov's added cost per disk over `wipefs -n`'s, on
  1 disk and on all N (one wipefs after another); goal <= 2;
- n_over_1: storprov's inspection time on N disks at the default --jobs over
  its time on 1 disk, at the delay (and at 0 ms, and by wall time); goal <= 3;
- floor (tool=replay, bench/guest/rangeread.c): the read requests of one
  traced dry run replayed on N disks at once with nothing else, its own time
  (read_ms) over storprov's inspection of 1 disk, at the delay and at 0 ms:
  what the goal's ratio would be if storprov did no work but its reads.
A repetition whose command failed (blkid -p's exit 2, "nothing found", is no
failure) is left out of every figure and counted as failed.
"""
import json
import re
import sys

import benchstats as bs

GOAL_OVER_WIPEFS = 2.0
GOAL_N_OVER_1 = 3.0
FIELDS = ('tool', 'bin', 'disks', 'jobs', 'delay_ms')


num = bs.num


def parse_line(line):
    """one "SEEK k=v ..." line as a dict"""
    return {k: num(v) for k, v in re.findall(r'(\w+)=(\S+)', line[5:])}


def failed(m):
    ok = (0, 2) if m.get('tool') == 'blkid' else (0,)
    timed = {'storprov': 'insp_ms', 'replay': 'read_ms'}.get(m.get('tool'))
    return m.get('rc') not in ok or (timed is not None and not isinstance(m.get(timed), (int, float)))


def key(m):
    return tuple(m.get(f, '-') for f in FIELDS)


def _by_rep(ms, field):
    return {m['rep']: m[field] for m in ms if isinstance(m.get(field), (int, float))}


def summarize(seeks, kv=None, boot=None):
    """the figures of one boot's SEEK lines; None without any"""
    if not seeks:
        return None
    kv = kv or {}
    groups = {}
    for m in seeks:
        groups.setdefault(key(m), []).append(m)
    delays = sorted({m['delay_ms'] for m in seeks if isinstance(m.get('delay_ms'), (int, float))})
    delay = max(delays) if delays else None
    n = max(m['disks'] for m in seeks if isinstance(m.get('disks'), int))
    good = {k: [m for m in ms if not failed(m)] for k, ms in groups.items()}
    rows = []
    for k, ms in sorted(groups.items(), key=lambda x: [str(v) for v in x[0]]):
        g = good[k]
        r = dict(zip(FIELDS, k))
        r.update({'reps': len(g), 'failed': len(ms) - len(g),
                  'wall_ms': bs.rng([m['wall_ms'] for m in g], 0),
                  'wall_ms_by_rep': {str(rep): v for rep, v in sorted(_by_rep(g, 'wall_ms').items())},
                  'read_requests_per_disk': bs.rng([m['reqs'] / m['disks'] for m in g if isinstance(m.get('reqs'), int)], 1),
                  'read_kib_per_disk': bs.rng([m['rd_kib'] / m['disks'] for m in g if isinstance(m.get('rd_kib'), int)], 1)})
        if r['tool'] == 'storprov':
            r.update({'insp_ms': bs.rng([m['insp_ms'] for m in g], 0),
                      'insp_ms_by_rep': {str(rep): v for rep, v in sorted(_by_rep(g, 'insp_ms').items())},
                      'threads': sorted({m['threads'] for m in g}), 'max_concurrent': sorted({m['max_concurrent'] for m in g})})
        if r['tool'] == 'replay':
            r.update({'read_ms': bs.rng([m['read_ms'] for m in g], 0),
                      'read_ms_by_rep': {str(rep): v for rep, v in sorted(_by_rep(g, 'read_ms').items())}})
        rows.append(r)

    def rep_vals(tool, b, d, j, dl, field='wall_ms'):
        return _by_rep(good.get((tool, b, d, j, dl), []), field)

    def added(tool, b, d, j, field='wall_ms'):
        """per repetition: at the delay minus at 0 ms"""
        hi, lo = rep_vals(tool, b, d, j, delay, field), rep_vals(tool, b, d, j, 0, field)
        return {rep: hi[rep] - lo[rep] for rep in hi if rep in lo}

    add = []
    if delay:
        for k in sorted({k[:4] for k in groups}, key=lambda x: [str(v) for v in x]):
            a = added(*k)
            if not a:
                continue
            e = dict(zip(FIELDS[:4], k))
            q = rep_vals(*k, delay, 'reqs')
            e.update({'delay_ms': delay, 'reps': len(a), 'added_ms': bs.rng(list(a.values()), 0),
                      'added_ms_per_disk': bs.rng([v / k[2] for v in a.values()], 1),
                      # what the model charged a read request, in effect (timer ticks, the guest's own pace)
                      'added_ms_per_read_request': bs.rng([v / q[rep] for rep, v in a.items() if q.get(rep)], 2)})
            if k[0] == 'storprov':
                ai = added(*k, field='insp_ms')
                e['added_insp_ms'] = bs.rng(list(ai.values()), 0)
                e['added_insp_ms_per_disk'] = bs.rng([v / k[2] for v in ai.values()], 1)
            add.append(e)

    def positive(d):
        return {k: v for k, v in d.items() if v > 0}

    derived = {}
    for b in sorted({k[1] for k in groups if k[0] == 'storprov'}):
        e = {}
        if delay:
            w1 = positive(added('wipefs', '-', 1, '-'))
            wn = positive(added('wipefs', '-', n, '-'))
            e['storprov_over_wipefs_1disk'] = bs.ratio_summary(bs.paired(added('storprov', b, 1, 'default'), w1))
            e['storprov_over_wipefs_%ddisks' % n] = bs.ratio_summary(bs.paired(added('storprov', b, n, 'default'), wn))
            e['storprov_over_wipefs_1disk_inspection'] = bs.ratio_summary(
                bs.paired(added('storprov', b, 1, 'default', 'insp_ms'), w1))
        for dl in delays:
            tag = '' if dl == delay else '_%dms' % dl
            for field, what in (('insp_ms', 'inspection'), ('wall_ms', 'wall')):
                e['n_over_1_%s%s' % (what, tag)] = bs.ratio_summary(bs.paired(
                    rep_vals('storprov', b, n, 'default', dl, field), rep_vals('storprov', b, 1, 'default', dl, field)))
        if b == 'b' and any(k[0] == 'replay' for k in groups):
            for dl in delays:
                tag = '' if dl == delay else '_%dms' % dl
                one = rep_vals('storprov', b, 1, 'default', dl, 'insp_ms')
                e['floor_n_over_1_inspection%s' % tag] = bs.ratio_summary(bs.paired(
                    rep_vals('replay', '-', n, '-', dl, 'read_ms'), one))
                e['floor_1_over_1_inspection%s' % tag] = bs.ratio_summary(bs.paired(
                    rep_vals('replay', '-', 1, '-', dl, 'read_ms'), one))
        o1 = e.get('storprov_over_wipefs_1disk')
        n1 = e.get('n_over_1_inspection')
        e['goal_over_wipefs_le_2'] = o1['median'] <= GOAL_OVER_WIPEFS if o1 and delay else None
        e['goal_n_over_1_le_3'] = n1['median'] <= GOAL_N_OVER_1 if n1 and delay else None
        derived[b] = e
    return {'boot': boot, 'disks': n, 'delay_ms': delay, 'slice_gib': num(kv.get('SEEK_GIB')), 'loops': kv.get('SEEK_LOOPS'),
            'builds': {b: kv.get('SEEK_BIN_' + b.upper()) for b in derived},
            'model_check_8_direct_reads_ms': {str(dl): num(kv.get('SEEK_CHECK_%dMS_8READS_MS' % dl)) for dl in delays
                                             if kv.get('SEEK_CHECK_%dMS_8READS_MS' % dl)},
            'rows': rows, 'added': add, 'derived': derived,
            'goals': {'storprov_over_wipefs_per_disk': GOAL_OVER_WIPEFS, 'n_disks_over_1_inspection': GOAL_N_OVER_1}}


def _s(ms_by_rep):
    """a row's per-repetition ms as seconds: median [min-max] (n)"""
    return bs.fmt(bs.rng([v / 1000 for v in ms_by_rep.values()], 2))


def _label(r):
    if r['tool'] == 'wipefs':
        return '`wipefs -n`' + (', one disk after another' if r['disks'] > 1 else '')
    if r['tool'] == 'blkid':
        return '`blkid -p`'
    if r['tool'] == 'replay':
        return 'the reads alone (rangeread: one dry run\'s read requests, replayed)'
    return '`storprov apply --dry-run`%s%s' % ('' if r['jobs'] == 'default' else ' --jobs %s' % r['jobs'],
                                              '' if r['bin'] == 'b' else ' (build a)')


def _yes(x):
    return '-' if x is None else ('yes' if x else '**NO**')


def markdown(s):
    d = s['delay_ms']
    md = ['Each disk a %s GiB slice of a sparse virtio disk behind dm-delay (0 and %s ms a request, the same devices, '
          'switched with dmsetup reload) and a direct-I/O loop device; caches dropped before every command; s wall, '
          'median [min-max] (repetitions); "added" = at %s ms minus at 0 ms, per repetition, per disk; inspection = '
          'the report\'s inspection.elapsed_s (for the reads alone: rangeread\'s own time) (boot %s).' % (s['slice_gib'], d, d, s['boot']), '',
          '| command | disks | read requests a disk | wall s, 0 ms | wall s, %s ms | added ms a disk | added ms a request '
          '| inspection s, 0 ms | inspection s, %s ms | threads / most at once |' % (d, d), '|---|---:|---|---|---|---|---|---|---|---|']
    rows = {tuple(r[f] for f in FIELDS): r for r in s['rows']}
    adds = {tuple(a[f] for f in FIELDS[:4]): a for a in s['added']}
    # wipefs, blkid, then storprov: the current build (b) first, by disks, the default --jobs first
    for k in sorted({k[:4] for k in rows}, key=lambda x: ({'wipefs': 0, 'blkid': 1}.get(x[0], 2), x[1] != 'b', x[2], x[3] != 'default')):
        lo, hi = rows.get(k + (0,)), rows.get(k + (d,))
        r = lo or hi
        a = adds.get(k)
        fail = sum(x['failed'] for x in (lo, hi) if x)
        cells = [_label(r) + (' (%d failed)' % fail if fail else ''), str(r['disks']), bs.fmt((hi or lo).get('read_requests_per_disk')),
                 _s(lo['wall_ms_by_rep']) if lo else '-', _s(hi['wall_ms_by_rep']) if hi else '-',
                 bs.fmt(a['added_ms_per_disk']) if a else '-', bs.fmt(a.get('added_ms_per_read_request')) if a else '-']
        if r['tool'] == 'storprov':
            cells += [_s(lo['insp_ms_by_rep']) if lo else '-', _s(hi['insp_ms_by_rep']) if hi else '-',
                      '%s / %s' % (','.join(map(str, (hi or lo)['threads'])), ','.join(map(str, (hi or lo)['max_concurrent'])))]
        elif r['tool'] == 'replay':
            cells += [_s(lo['read_ms_by_rep']) if lo else '-', _s(hi['read_ms_by_rep']) if hi else '-', '%d / %d' % (
                r['disks'], r['disks'])]
        else:
            cells += ['-', '-', '-']
        md.append('| ' + ' | '.join(cells) + ' |')
    md.append('')
    n = s['disks']
    for b, e in s['derived'].items():
        who = 'storprov' if b == 'b' else 'storprov build a'
        md += ['%s: added cost a disk over `wipefs -n`\'s (paired by repetition): 1 disk %s (goal <= %g: %s); %d disks '
               'one after another %s; the inspection alone, 1 disk %s.' % (
                   who, bs.fmt(e.get('storprov_over_wipefs_1disk')), GOAL_OVER_WIPEFS, _yes(e.get('goal_over_wipefs_le_2')), n,
                   bs.fmt(e.get('storprov_over_wipefs_%ddisks' % n)), bs.fmt(e.get('storprov_over_wipefs_1disk_inspection'))),
               '%s: inspection of %d disks at the default --jobs over 1 disk\'s, at %s ms: %s (goal <= %g: %s); at 0 ms %s; '
               'by wall time at %s ms %s.' % (
                   who, n, d, bs.fmt(e.get('n_over_1_inspection')), GOAL_N_OVER_1, _yes(e.get('goal_n_over_1_le_3')),
                   bs.fmt(e.get('n_over_1_inspection_0ms')), d, bs.fmt(e.get('n_over_1_wall'))), '']
        if e.get('floor_n_over_1_inspection'):
            md[-1:-1] = ['The floor: the read requests of one dry run, replayed on %d disks at once with nothing else '
                         '(rangeread\'s own time), over storprov\'s inspection of 1 disk, at %s ms: %s; at 0 ms %s '
                         '(on 1 disk: %s and %s). The goal\'s ratio cannot fall below it while the inspection makes '
                         'these reads.' % (n, d, bs.fmt(e.get('floor_n_over_1_inspection')),
                                            bs.fmt(e.get('floor_n_over_1_inspection_0ms')),
                                            bs.fmt(e.get('floor_1_over_1_inspection')),
                                            bs.fmt(e.get('floor_1_over_1_inspection_0ms')))]
    return md


def main():
    seeks, kv = [], {}
    for p in sys.argv[1:]:
        with open(p, errors='replace') as fh:
            for line in fh:
                line = line.rstrip('\n')
                if line.startswith('SEEK '):
                    seeks.append(parse_line(line))
                m = re.match(r'^(SEEK_[A-Z0-9_]*)=(.*)$', line)
                if m:
                    kv[m.group(1)] = m.group(2)
    s = summarize(seeks, kv, ' '.join(sys.argv[1:]))
    if not s:
        print('no SEEK lines', file=sys.stderr)
        return 1
    json.dump(s, sys.stdout, indent=1)
    print()
    print('\n'.join(markdown(s)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
