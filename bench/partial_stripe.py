#!/usr/bin/env python3
"""bench/partial_stripe.py - the request-level partial-stripe rows (issue 34 item 5).

Usage: partial_stripe.py RAW.out...   prints the rows as JSON and the table

Reads the KEY=VALUE output of tests/vm/scenarios/partial-stripe.sh (one boot
of bench/run.sh case partial-stripe, build/bench/raw/partial-stripe.out) and
gives one row per layout: case, full_stripe_bytes, sp_fraction and
naive_fraction (the figure the goal applies to: "strict" when one LUN stripe
fits the LUN's largest request, else "run"; field measure), beside both
figures of both sides and the workloads' parts. See bench/README.md.
"""
import json
import re
import sys


def num(v):
    try:
        return float(v) if '.' in v else int(v)
    except (TypeError, ValueError):
        return v


def trace(s):
    return {k: int(v) for k, v in re.findall(r'(\w+)=(\d+)', s or '')}


def frac(t, key):
    return round(t[key] / t['bytes'], 5) if t.get('bytes') else None


def rows(kv, seed_key='PS_SEED'):
    out = []
    for i in (kv.get('PS_LAYOUTS') or '').split():
        L = 'L%s_' % i
        if L + 'DESC' not in kv:
            continue
        m = kv.get(L + 'MEASURE', 'strict')
        r = {'case': 'seed %s layout %s: %s' % (kv.get(seed_key), i, kv[L + 'DESC']), 'seed': num(kv.get(seed_key)),
             'layout': int(i), 'upper': kv.get(L + 'UPPER'), 'lun': kv.get(L + 'LUN'),
             'full_stripe_bytes': int(kv[L + 'FULL_K']) * 1024, 'measure': m,
             'sp_fraction': num(kv.get(L + 'SP_' + m.upper())), 'naive_fraction': num(kv.get(L + 'DEF_' + m.upper())),
             'sp_strict': num(kv.get(L + 'SP_STRICT')), 'naive_strict': num(kv.get(L + 'DEF_STRICT')),
             'sp_run': num(kv.get(L + 'SP_RUN')), 'naive_run': num(kv.get(L + 'DEF_RUN')),
             'sp_bytes': num(kv.get(L + 'SP_BYTES')), 'naive_bytes': num(kv.get(L + 'DEF_BYTES')),
             'sp_lun_max_sectors_kb': num(kv.get(L + 'SP_LUN_MAX_SECTORS_KB')),
             'naive_lun_max_sectors_kb': num(kv.get(L + 'DEF_LUN_MAX_SECTORS_KB')),
             'lun_page_limit_kb': num(kv.get(L + 'LUN_PAGE_LIMIT_KB')),
             'sp_warned_lun_request_size': num(kv.get(L + 'SP_WARN_LUN_REQUEST_SIZE', '0')) > 0,
             'sp_warned_lun_buffered_rmw': num(kv.get(L + 'SP_WARN_LUN_BUFFERED_RMW', '0')) > 0,
             'write_size_kib': num(kv.get(L + 'BS_K'))}
        for side, k in (('sp', 'SP'), ('naive', 'DEF')):
            for wl, w in (('direct', 'D'), ('buffered', 'B')):
                t = trace(kv.get('%s%s_%s_TRACE' % (L, k, w)))
                r['%s_%s' % (side, wl)] = {'bytes': t.get('bytes'), 'requests': t.get('requests'),
                                           'strict': frac(t, 'strict'), 'run': frac(t, 'run'), 'max_request_kib': t.get('max_kib')}
            e = kv.get('%s%s_ERROR' % (L, k))
            if e:
                r[side + '_error'] = e
        r['goal_le_1pct'] = isinstance(r['sp_fraction'], (int, float)) and 0 <= r['sp_fraction'] <= 0.01
        out.append(r)
    return out


def pct(x):
    return '%.2f %%' % (100 * x) if isinstance(x, (int, float)) else '-'


def markdown(rs):
    md = ['| layout | LUN full stripe | measure | storprov | naive | storprov O_DIRECT / buffered | storprov strict / run '
          '| naive strict / run | LUN max_sectors_kb sp / naive | goal <= 1 % |', '|---|---|---|---|---|---|---|---|---|---|']
    for r in rs:
        md.append('| %s | %d KiB | %s | %s | %s | %s / %s | %s / %s | %s / %s | %s / %s%s%s | %s |' % (
            r['case'], r['full_stripe_bytes'] // 1024, r['measure'], pct(r['sp_fraction']), pct(r['naive_fraction']),
            pct(r['sp_direct'][r['measure']]), pct(r['sp_buffered'][r['measure']]),
            pct(r['sp_strict']), pct(r['sp_run']), pct(r['naive_strict']), pct(r['naive_run']),
            r['sp_lun_max_sectors_kb'], r['naive_lun_max_sectors_kb'],
            ' (warned lun-request-size)' if r['sp_warned_lun_request_size'] else '',
            ' (warned lun-buffered-rmw)' if r['sp_warned_lun_buffered_rmw'] else '',
            'yes' if r['goal_le_1pct'] else '**NO**'))
    return md


def main():
    kv = {}
    for p in sys.argv[1:]:
        with open(p, errors='replace') as fh:
            for line in fh:
                m = re.match(r'^([A-Z][A-Z0-9_]*)=(.*)$', line.rstrip('\n'))
                if m:
                    kv[m.group(1)] = m.group(2)
    rs = rows(kv)
    json.dump(rs, sys.stdout, indent=1)
    print()
    print('\n'.join(markdown(rs)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
