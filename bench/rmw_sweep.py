#!/usr/bin/env python3
"""bench/rmw_sweep.py RAWDIR OUTDIR: the RMW sweep (issue 17 item 4) as
OUTDIR/rmw-sweep.json and OUTDIR/rmw-sweep.md, from RAWDIR/rmw-sweep-*.out
(the guest output of tests/vm/scenarios/rmw-sweep.sh, one file per boot,
written by bench/run.sh). bench/report.py imports it for a summary section
of latest.md.

Per layout: what tests/vm/rmw-layouts.py drew, what storprov planned and
the tools read back, storprov's and the naive layout's member-read ratio
under full-stripe O_DIRECT writes. The bench's goal: storprov's ratio
<= 0.01 on every layout; the VM test (tests/vm/46-rmw-sweep.bats) holds
<= 0.02 and <= 1/4 of the naive ratio when the naive one is above 0.02."""
import json
import os
import re
import statistics
import sys

GOAL = 0.01
TEST_LIMIT = 0.02


def _num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def parse(raw):
    """The sweep's layouts from every rmw-sweep-*.out in raw, by layout number."""
    lays, seeds, boots = {}, [], []
    for f in sorted(os.listdir(raw)) if os.path.isdir(raw) else []:
        if not (f.startswith('rmw-sweep') and f.endswith('.out')):
            continue
        kv = {}
        with open(os.path.join(raw, f), errors='replace') as fh:
            for line in fh:
                line = line.rstrip('\n')
                m = re.match(r'^([A-Z][A-Z0-9_]*)=(.*)$', line)
                if m:
                    kv[m.group(1)] = m.group(2)
                elif line.startswith('BOOT '):
                    b = dict(re.findall(r'(\w+)=(\S+)', line[5:]))
                    boots.append({'name': b.get('name'), 'rc': int(b.get('rc', -1)), 'wall_s': int(b.get('wall_s', 0))})
        if 'RMW_SEED' in kv and kv['RMW_SEED'] not in seeds:
            seeds.append(kv['RMW_SEED'])
        for i in kv.get('RMW_LAYOUTS', '').split():
            p = 'L%s_' % i
            d = {k[len(p):]: v for k, v in kv.items() if k.startswith(p)}
            d['layout'] = int(i)
            d['boot'] = f[:-4]
            lays[int(i)] = d
    return {'seeds': seeds, 'boots': boots, 'layouts': [lays[i] for i in sorted(lays)]}


def _geom(d, side):
    su, sw, bs = d.get(side + '_SUNIT'), d.get(side + '_SWIDTH'), d.get(side + '_BSIZE')
    if not su or not bs or su == '0':
        return 'none'
    su_k = int(su) * int(bs) // 1024
    return '%sK x %d' % (su_k, int(sw) // int(su))


def _notes(d):
    n = []
    if d.get('SP_ERROR'):
        n.append('storprov side: ' + d['SP_ERROR'])
    if d.get('DEF_ERROR'):
        n.append('naive side: ' + d['DEF_ERROR'])
    full = re.search(r'full=(\d+)K', d.get('LUN', ''))
    off = d.get('SP_MD_DATA_OFFSET', '').split()
    if full and off:
        F = int(full.group(1)) * 2  # sectors
        bad = [o for o in off if int(o) % F]
        n.append('md data offset %s sectors%s' % (' '.join(off), ' = not a multiple of the LUN full stripe' if bad else ''))
    if d.get('SP_PE_STARTS'):
        n.append('pe_start %s' % d['SP_PE_STARTS'].split()[0])
    if d.get('SP_EXTENTS_OFF_STRIPE') not in (None, '0'):
        n.append('%s of %s extents off a full stripe' % (d['SP_EXTENTS_OFF_STRIPE'], d.get('SP_EXTENTS')))
    if d.get('PROBE_RATIO'):
        n.append('probe, the same md with data offset %sK: %s%s' % (
            d.get('PROBE_DATA_OFFSET_K'), d['PROBE_RATIO'],
            ', and stripe_cache_size 4096: %s' % d['PROBE_SC_RATIO'] if d.get('PROBE_SC_RATIO') else ''))
    return '; '.join(n)


def summarize(res):
    lays = res['layouts']
    for d in lays:
        s, n = _num(d.get('SP_RATIO')), _num(d.get('DEF_RATIO'))
        d['sp_ratio'], d['def_ratio'] = s, n
        d['goal'] = s is not None and s <= GOAL
        d['test_pass'] = (s is not None and n is not None and 0 <= s <= TEST_LIMIT and (n <= TEST_LIMIT or s <= n / 4))
    sp = sorted(d['sp_ratio'] for d in lays if d['sp_ratio'] is not None)
    res['summary'] = {
        'layouts': len(lays),
        'measured': len(sp),
        'sp_ratio_min': sp[0] if sp else None,
        'sp_ratio_median': round(statistics.median(sp), 4) if sp else None,
        'sp_ratio_max': sp[-1] if sp else None,
        'def_ratio_median': round(statistics.median([d['def_ratio'] for d in lays if d['def_ratio'] is not None]), 4)
        if any(d['def_ratio'] is not None for d in lays) else None,
        'goal_met': sum(1 for d in lays if d['goal']),
        'test_criteria_met': sum(1 for d in lays if d['test_pass']),
        'wall_s': sum(b['wall_s'] for b in res['boots']),
    }
    return res


def table(res):
    md = ['| # | LUNs | upper layer | storprov planned (XFS su x sw) | write | storprov | naive | naive XFS su x sw | <= %s | notes |' % GOAL,
          '|---|---|---|---|---|---|---|---|---|---|']
    for d in res['layouts']:
        lun = d.get('LUN', '')
        m = re.match(r'raid(\d) (\d+)x(\d+)K luns=(\d+) full=(\d+)K', lun)
        lund = '%s x RAID%s %s x %sK (F %sK)' % (m.group(4), m.group(1), m.group(2), m.group(3), m.group(5)) if m else lun
        upper = re.sub(r'; LUN = .*', '', d.get('DESC', ''))
        write = '%s x %sK' % (d.get('SP_WRITERS', '4'), d.get('BS_K', '?'))
        if 'SP_FIO_MEM' in d:
            write += ' (%s)' % ('4K pages' if d['SP_FIO_MEM'] == 'malloc' else 'huge pages')
        md.append('| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            d['layout'], lund, upper, _geom(d, 'SP'), write, d.get('SP_RATIO', '-'), d.get('DEF_RATIO', '-'),
            _geom(d, 'DEF'), 'yes' if d['goal'] else '**no**', _notes(d)))
    return md


def markdown(res, head=True):
    s = res['summary']
    md = []
    if head:
        md += ['# RMW sweep: storprov against a naive layout on random parity LUN layouts', '',
               'Generated by `make bench` (bench/run.sh, step `rmw-sweep`; tests/vm/rmw-layouts.py draws the layouts, '
               'tests/vm/scenarios/rmw-sweep.sh runs them in the QEMU TCG guest). Ratio = member sectors read / sectors '
               'written to the file system\'s device under O_DIRECT writers (1, 2 or 4, each writing 1, 2 or 4 XFS full '
               'stripes of storprov\'s su x sw a write, from huge or 4 KiB pages, drawn per layout: the write column, '
               'writers x write size), files preallocated; the naive layout gets the same writes. See bench/README.md.', '']
    md += ['Seed %s (replay: `RMW_SEED=%s BENCH_ONLY=rmw-sweep bench/run.sh`), %d layouts in %d boot(s), %d s of VM wall time.' % (
        ', '.join(res['seeds']) or '?', res['seeds'][0] if res['seeds'] else 'N', s['layouts'], len(res['boots']), s['wall_s']), '',
        'storprov\'s ratio over the %d measured layouts: min %s, median %s, max %s (naive median %s). '
        'Goal <= %s on every layout: **%s** (%d of %d); the VM test\'s criteria (<= %s and <= 1/4 of a naive ratio above %s): %d of %d.' % (
            s['measured'], s['sp_ratio_min'], s['sp_ratio_median'], s['sp_ratio_max'], s['def_ratio_median'], GOAL,
            'yes' if s['goal_met'] == s['layouts'] and s['layouts'] else 'NO', s['goal_met'], s['layouts'],
            TEST_LIMIT, TEST_LIMIT, s['test_criteria_met'], s['layouts']), '']
    md += table(res)
    bad = [d for d in res['layouts'] if not d['goal']]
    if head and bad:
        md += ['', '### Layouts over the goal: what storprov planned', '']
        for d in bad:
            md += ['- **%d** %s: storprov %s, naive %s. Planned: %s; `%s`; `%s`.' % (
                d['layout'], d.get('DESC', ''), d.get('SP_RATIO'), d.get('DEF_RATIO'), d.get('SP_PLAN', '?'),
                d.get('SP_CREATE', '').strip(';'), d.get('SP_MKFS', ''))]
    failed = [b for b in res['boots'] if b['rc'] != 0]
    if failed:
        md += ['', 'Boots that failed: ' + ', '.join('%s rc=%s' % (b['name'], b['rc']) for b in failed)]
    return md


def main():
    raw, out = sys.argv[1], sys.argv[2]
    res = summarize(parse(raw))
    if not res['layouts']:
        print('rmw_sweep: no rmw-sweep-*.out in %s' % raw, file=sys.stderr)
        return 1
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, 'rmw-sweep.json'), 'w') as fh:
        json.dump(res, fh, indent=2)
        fh.write('\n')
    with open(os.path.join(out, 'rmw-sweep.md'), 'w') as fh:
        fh.write('\n'.join(markdown(res)) + '\n')
    print('rmw_sweep: %s/rmw-sweep.{json,md}' % out, file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
