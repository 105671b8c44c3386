#!/usr/bin/env python3
"""bench/report.py RAWDIR OUTDIR: the benchmark results as latest.json,
latest.md and latest.png (gnuplot) from the raw outputs of bench/run.sh.

Raw lines: "R k=v ..." one measurement, "X k=v ..." extent facts, "SEEK k=v ..."
one command on disks with a latency model (bench/seek.py),
"FIO tag {json}", "KEY=VALUE", "BOOT name=.. rc=.. commit=.. run=.. time=..
load_start=.. load_end=..", and for plan scale "PLAN_N<n>_<KEY>=V"; part B's
host benchmarks add prov-*.json and plan-scale.json (objects with "commit",
"time", "load_start", "load_end" and "reps").

One code version per report: the raw outputs of the commit in BENCH_COMMIT
(bench/run.sh exports it) or else of the newest boot; outputs of any other
commit (or none recorded) are listed as left out, never pooled. Figures are
per boot: sp and def of a comparison always come from one boot, paired by
repetition. See bench/README.md for what each figure means."""
import json
import os
import re
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
import benchstats as bs  # noqa: E402
import report_plot  # noqa: E402
import rmw_sweep  # noqa: E402
import partial_stripe  # noqa: E402
import seek  # noqa: E402

WORKLOADS = ['direct', 'direct-ext', 'stripefiles', 'streams']


def kvs(text):
    return dict(re.findall(r'(\w+)=("[^"]*"|\S+)', text))


num = bs.num


def load_out(path):
    """one raw guest output: its R, X, FIO lines, KEY=VALUE facts and BOOT line"""
    name = os.path.basename(path)[:-4]
    d = {'name': name, 'R': [], 'X': [], 'FIO': {}, 'KV': {}, 'boot': {'name': name}}
    with open(path, errors='replace') as fh:
        for line in fh:
            line = line.rstrip('\n')
            if line.startswith('R '):
                r = {k: num(v.strip('"')) for k, v in kvs(line[2:]).items()}
                r['boot'] = name
                d['R'].append(r)
            elif line.startswith('X '):
                d['X'].append({k: num(v) for k, v in kvs(line[2:]).items()})
            elif line.startswith('FIO '):
                _, tag, js = line.split(' ', 2)
                try:
                    d['FIO'][tag] = json.loads(js)
                except json.JSONDecodeError:
                    pass
            elif line.startswith(('PROVPAR ', 'PSTEP ', 'SEEK ')):
                d.setdefault(line.split(' ', 1)[0], []).append({k: num(v) for k, v in kvs(line.split(' cmd=')[0]).items()}
                                                              | ({'cmd': line.split(' cmd=', 1)[1]} if ' cmd=' in line else {}))
            elif line.startswith('BOOT '):
                d['boot'] = {k: num(v) if k in ('rc', 'wall_s', 'nproc') else v for k, v in kvs(line[5:]).items()}
            else:
                m = re.match(r'^([A-Z][A-Z0-9_]*)=(.*)$', line)
                if m:
                    d['KV'][m.group(1)] = m.group(2)
    return d


def load_json(path):
    try:
        with open(path) as fh:
            j = json.load(fh)
        return j if isinstance(j, dict) else None
    except (OSError, ValueError):
        return None


def version_key(c):
    """(hash, dirty) of a recorded commit: bench/run.sh writes the full hash
    and "+dirty", the host scripts (plan-scale.sh, prov_report.py) a 12-digit
    one and "-dirty"; None when it names no commit"""
    if not c:
        return None
    m = re.match(r'^([0-9a-f]{7,40})([+-]dirty)?$', c)
    return (m.group(1), bool(m.group(2))) if m else None


def same_version(a, b):
    """one code version: one hash a prefix of the other, both clean or both dirty"""
    ka, kb = version_key(a), version_key(b)
    if ka is None or kb is None:
        return a is not None and a == b
    return ka[1] == kb[1] and (ka[0].startswith(kb[0]) or kb[0].startswith(ka[0]))


def select_version(outs, jsons):
    """the commit whose outputs make the report, and those left out"""
    want = os.environ.get('BENCH_COMMIT')
    if not want:
        dated = [(o['boot'].get('time', ''), o['boot'].get('commit')) for o in outs if o['boot'].get('commit')]
        dated += [(str(j.get('time', '')), j.get('commit')) for j in jsons.values() if j.get('commit')]
        want = max(dated)[1] if dated else None
    used = [o for o in outs if same_version(o['boot'].get('commit'), want)]
    left = [{'file': o['name'] + '.out', 'commit': o['boot'].get('commit', 'not recorded')} for o in outs if o not in used]
    uj = {f: j for f, j in jsons.items() if same_version(j.get('commit'), want)}
    left += [{'file': f, 'commit': j.get('commit', 'not recorded')} for f, j in jsons.items() if f not in uj]
    return want, used, uj, left


def mibs(r):
    return r['bytes'] / 1048576 / (r['ms'] / 1000) if r.get('ms') else None


def rmw_of(r):
    return r['mem_rd_sec'] / r['top_wr_sec'] if r.get('top_wr_sec') else None


# ---- 1. read-modify-write -------------------------------------------------------
def rmw_rows(o, wls, layouts=('sp', 'def')):
    """per workload of one boot: each layout's RMW ratio and MiB/s by repetition,
    and the paired comparisons with def"""
    rows = []
    c = o['KV'].get('CASE') or o['name'].replace('rmw-', '')
    for wl in wls:
        row = {'case': c, 'workload': wl, 'boot': o['name']}
        per = {}
        for lay in layouts:
            rs = {r['rep']: r for r in o['R'] if r.get('wl') == wl and r.get('layout') == lay}
            if not rs:
                continue
            per[lay] = rs
            ratios = [rmw_of(r) for _, r in sorted(rs.items())]
            L = lay.split('-')[0].upper()
            row[lay] = {'reps': len(rs), 'rmw_ratio': bs.rng(ratios), 'rmw_modes': bs.modes(ratios),
                        'rmw_ratio_by_rep': [bs.rnd(x, 4) for x in ratios],
                        'fs_read_sectors_by_rep': [r['top_rd_sec'] for _, r in sorted(rs.items())],
                        'mib_s': bs.rng([mibs(r) for r in rs.values()], 1),
                        'start_sector': num(o['KV'].get(L + '_START', '0')),
                        'xfs_sunit_swidth': '%s/%s' % (o['KV'].get(L + '_SUNIT'), o['KV'].get(L + '_SWIDTH')),
                        'mount': o['KV'].get(L + '_OPTS')}
        if 'def' in per:
            d = per['def']
            for lay in [x for x in per if x != 'def']:
                s = per[lay]
                diff = [rmw_of(s[k]) - rmw_of(d[k]) for k in sorted(s) if k in d]
                thr = bs.paired({k: mibs(r) for k, r in s.items()}, {k: mibs(r) for k, r in d.items()})
                rr = bs.paired({k: rmw_of(r) for k, r in s.items()}, {k: rmw_of(r) for k, r in d.items()})
                key = '' if lay == 'sp' else lay + '_'
                row[key + 'rmw_paired_diff'] = bs.rng(diff)
                row[key + 'rmw_paired_ratio'] = bs.ratio_summary(rr)
                row[key + 'throughput_ratio'] = bs.ratio_summary(thr)
                # sp reads no more than def: the median paired difference <= 0,
                # or its range spans 0 (within the noise of the repetitions)
                row[key + 'rmw_le_def'] = bool(diff) and (statistics.median(diff) <= 0 or min(diff) <= 0 <= max(diff))
                row[key + 'throughput_ge_095'] = bool(thr) and statistics.median(thr) >= 0.95
        if per:
            rows.append(row)
    return rows


def swalloc_of(o):
    """the swalloc variants of one boot, paired with def (and sp with sp-noswalloc) by repetition"""
    srs = [r for r in o['R'] if r.get('case') == 'swalloc' and r.get('wl') == 'stream']
    if not srs:
        return None
    by = {}
    for r in srs:
        by.setdefault(r['layout'], {})[r['rep']] = r
    e = {'boot': o['name'], 'size_mib': round(srs[0]['bytes'] / 1048576), 'variants': {}}
    xs = [x for x in o['X'] if x.get('case') == 'swalloc']
    for v, rs in by.items():
        e['variants'][v] = {
            'reps': len(rs), 'mib_s': bs.rng([mibs(r) for r in rs.values()], 1),
            'vs_def': bs.ratio_summary(bs.paired({k: mibs(r) for k, r in rs.items()},
                                                 {k: mibs(r) for k, r in by.get('def', {}).items()})) if v != 'def' else None,
            'rmw_ratio': bs.rng([rmw_of(r) for r in rs.values()]),
            'member_writes_per_written': bs.rng([r['mem_wr_sec'] / r['top_wr_sec'] for r in rs.values()], 3),
            'extents': bs.rng([x['extents'] for x in xs if x.get('layout') == v], 1),
            'extents_off_full_stripe': bs.rng([x['unaligned_to_full_stripe'] for x in xs if x.get('layout') == v], 1)}
    if 'sp' in by and 'sp-noswalloc' in by:
        e['sp_over_sp-noswalloc'] = bs.ratio_summary(bs.paired({k: mibs(r) for k, r in by['sp'].items()},
                                                               {k: mibs(r) for k, r in by['sp-noswalloc'].items()}))
    files = {}
    for r in o['R']:
        if r.get('case') == 'swalloc' and r.get('wl') == 'stripefiles':
            files.setdefault(r['layout'], []).append(r)
    if files:
        e['stripefiles'] = {v: {'rmw_ratio': bs.rng([rmw_of(r) for r in rs]), 'mib_s': bs.rng([mibs(r) for r in rs], 1)}
                            for v, rs in files.items()}
    return e


# ---- 1f. the LUN stand-in without and with a write-back cache (issue 43 item 2) ------
# (R lines' case, the key in latest.json, the prefix of that LUN's KEY=VALUE facts)
WB_LUNS = (('loop-lun', 'no_cache', ''), ('loop-lun-wb', 'writeback', 'WB_'))


def writeback_of(o):
    """the boot of BENCH_ONLY=writeback: per kind of LUN the variants' rows as
    in 1d (each paired with def of the same repetition on the same LUN), the
    seconds the workload took (app_s) and until the member disks had it all
    (to_array_s: + the write-back cache's drain), the cache's counters, and a
    table of medians per workload and variant side by side"""
    vr = [r for r in o['R'] if str(r.get('wl', '')).endswith('-v') and r.get('case') in [c for c, _, _ in WB_LUNS]]
    if not any(r['case'] == 'loop-lun-wb' for r in vr):
        return None
    e = {'boot': o['name'], 'cache_mib': num(o['KV'].get('WB_CACHE_MB', '0')),
         'writecache_tables': {k[9:]: v for k, v in o['KV'].items() if k.startswith('WC_TABLE_')},
         'status_setup': o['KV'].get('WC_STATUS_SETUP'), 'status_end': o['KV'].get('WC_STATUS_END')}
    # the caches' block size: the writecache table's 7th word
    tables = list(e['writecache_tables'].values())
    mib = (num(tables[0].split()[6]) if tables and len(tables[0].split()) > 6 else 512) / 1048576
    table = {}
    for case, key, pre in WB_LUNS:
        rs = [r for r in vr if r['case'] == case]
        kv = dict(o['KV'], CASE=case)
        if pre:
            kv.update({k[len(pre):]: v for k, v in o['KV'].items() if k.startswith(pre)})
        rows = rmw_rows(dict(o, R=rs, KV=kv), sorted({r['wl'] for r in rs}, reverse=True),
                        ['def'] + sorted({r['layout'] for r in rs} - {'def'}))
        for row in rows:
            for lay in [k for k in row if isinstance(row[k], dict) and 'rmw_ratio' in row[k]]:
                m = [r for r in rs if r['wl'] == row['workload'] and r['layout'] == lay]
                x = row[lay]
                x['app_s'] = bs.rng([r['ms'] / 1000 for r in m], 2)
                x['to_array_s'] = bs.rng([(r['ms'] + r.get('drain_ms', 0)) / 1000 for r in m], 2)
                if any('drain_ms' in r for r in m):
                    x['cache'] = {'dirty_at_sync_mib': bs.rng([r['wc_dirty_at_sync'] * mib for r in m], 1),
                                  'written_mib': bs.rng([r['wc_writes'] * mib for r in m], 1),
                                  'overwritten_in_cache_share': bs.rng([r['wc_hits_uncommitted'] / r['wc_writes'] for r in m if r['wc_writes']], 3),
                                  'around_cache_mib': bs.rng([r['wc_around'] * mib for r in m], 1),
                                  'blocked_writes': bs.rng([r['wc_blocked'] for r in m], 0),
                                  'left_dirty_after_drain': max(r['wc_left'] for r in m)}
                t = table.setdefault((row['workload'][:-2], lay), {'workload': row['workload'][:-2], 'variant': lay})
                t[key] = {'rmw_ratio': x['rmw_ratio'], 'app_s': x['app_s'], 'to_array_s': x['to_array_s']}
        e[key] = rows
    e['table'] = list(table.values())
    return e


# ---- 4. provisioning (VM, prov.sh) -------------------------------------------------
def prov_of(o):
    prs = [r for r in o['R'] if r.get('bench') == 'prov']
    if not prs:
        return None
    pv = {'boot': o['name']}
    for what in ['many-luns', 'md-raid6-lvm']:
        s = {r['rep']: r for r in prs if r['what'] == what and r['tool'] == 'storprov'}
        z = {r['rep']: r for r in prs if r['what'] == what and r['tool'] == 'serial'}
        if not s:
            continue
        e = {'storprov_jobs': next(iter(s.values()))['jobs'],
             'storprov_s': bs.rng([r['ms'] / 1000 for r in s.values()], 2),
             'inspection_s': bs.rng([r['inspect_ms'] / 1000 for r in s.values() if 'inspect_ms' in r], 2),
             'storprov_cpu_share_of_wall': bs.rng([r['own_cpu_ms'] / r['ms'] for r in s.values()], 3),
             'serial_s': bs.rng([r['ms'] / 1000 for r in z.values()], 2),
             'storprov_over_serial': bs.ratio_summary(bs.paired({k: r['ms'] for k, r in s.items()},
                                                                {k: r['ms'] for k, r in z.items()}))}
        pv[what] = e
    jobs = {}
    for r in prs:
        if r['what'] == 'many-luns-jobs':
            jobs.setdefault(str(r['jobs']), []).append(r['ms'] / 1000)
    if jobs:
        pv['many-luns-jobs_s'] = {j: bs.rng(v, 2) for j, v in sorted(jobs.items())}
    return pv


# ---- 4b. provisioning against serial and parallel scripts (VM, prov-par.sh) ---------
def prov_par_of(o):
    """per case, disk state and --jobs: the three tools' wall times and the
    ratios of storprov to each script, paired by round (one boot)"""
    pp = o.get('PROVPAR', [])
    if not pp:
        return None
    res = {'boot': o['name'], 'all_ok': all(r['ok'] == 1 for r in pp), 'cases': {}}
    for case in sorted({r['case'] for r in pp}):
        for st in sorted({r['disks'] for r in pp if r['case'] == case}):
            for j in sorted({r['jobs'] for r in pp if r['case'] == case and r['disks'] == st}):
                rs = [r for r in pp if r['case'] == case and r['disks'] == st and r['jobs'] == j]
                # nosettle (the serial script settling once, BENCH_TOOLS) only where it ran
                tools = ('storprov', 'serial', 'parallel') + (('nosettle',) if any(r['tool'] == 'nosettle' for r in rs) else ())
                t = {tool: {r['rep']: r['ms'] for r in rs if r['tool'] == tool} for tool in tools}
                e = {'rounds': len(t['storprov']), 'ok': all(r['ok'] == 1 for r in rs)}
                for tool in t:
                    e[tool + '_s'] = bs.rng([v / 1000 for v in t[tool].values()], 2)
                    e[tool + '_cpu_s'] = bs.rng([r['cpu_ms'] / 1000 for r in rs if r['tool'] == tool], 2)
                e['storprov_over_serial'] = bs.ratio_summary(bs.paired(t['storprov'], t['serial']))
                e['storprov_over_parallel'] = bs.ratio_summary(bs.paired(t['storprov'], t['parallel']))
                if 'nosettle' in t:
                    e['storprov_over_nosettle'] = bs.ratio_summary(bs.paired(t['storprov'], t['nosettle']))
                e['storprov_first_rounds'] = sorted(r['rep'] for r in rs if r['tool'] == 'storprov' and r['order'] == 1)
                res['cases']['%s %s jobs=%s' % (case, st, j)] = e
    steps = {}
    for r in o.get('PSTEP', []):
        k = '%s %s jobs=%s' % (r['case'], r['disks'], r['jobs'])
        steps.setdefault(k, {}).setdefault(r['tool'], {}).setdefault(str(r['n']), {'cmd': r.get('cmd', ''), 'ms': []})['ms'].append(r['ms'])
    res['steps_ms'] = {k: {tool: {n: {'cmd': v['cmd'], 'ms': bs.rng(v['ms'], 0)} for n, v in ns.items()} for tool, ns in tools.items()}
                       for k, tools in steps.items()}
    return res


# ---- part B's host benchmarks: tolerant readers --------------------------------------
def _first(d, *keys):
    for k in keys:
        if isinstance(d.get(k), (int, float)):
            return d[k]
    return None


def prov_ratio(rep):
    """storprov / serial of one repetition, from whatever fields it has"""
    x = _first(rep, 'ratio', 'storprov_over_serial', 'ratio_storprov_serial', 'wall_ratio')
    if x is not None:
        return x
    nums = {k: v for k, v in rep.items() if isinstance(v, (int, float)) and not re.search(r'cpu|insp|user|sys|rep|jobs', k)}
    a = [k for k in nums if 'storprov' in k or k.startswith('sp_')]
    b = [k for k in nums if 'serial' in k or 'script' in k]
    return nums[a[0]] / nums[b[0]] if a and b and nums[b[0]] else None


def prov_json(name, j):
    reps = [r for r in j.get('reps', []) if isinstance(r, dict)]
    groups, par = {}, {}
    for r in reps:
        g = str(r.get('jobs', r.get('variant', r.get('what', ''))))
        if r.get('disks'):   # reused / fresh disks are two conditions, never pooled
            g = '%s %s' % (r['disks'], g)
        x = prov_ratio(r)
        if x is not None:
            groups.setdefault(g, []).append(x)
        if isinstance(r.get('ratio_parallel'), (int, float)):
            par.setdefault(g, []).append(r['ratio_parallel'])
    res = {'file': name, 'commit': j.get('commit'), 'time': j.get('time'), 'load_start': j.get('load_start'),
           'load_end': j.get('load_end'), 'reps': len(reps), 'fields': sorted({k for r in reps for k in r}),
           'storprov_over_serial': {g: bs.ratio_summary(v) for g, v in groups.items()}}
    if par:   # bench/loop-prov.sh since issue 43: the parallel (xargs -P) script too
        res['storprov_over_parallel'] = {g: bs.ratio_summary(v) for g, v in par.items()}
    return res


def scale_json(j):
    pts = []
    for r in [r for r in j.get('reps', []) if isinstance(r, dict)]:
        n = _first(r, 'n', 'luns', 'disks', 'N')
        wall = _first(r, 'wall_s')
        wall = wall if wall is not None else (_first(r, 'wall_ms') or 0) / 1000 or None
        cpu = _first(r, 'cpu_s')
        if cpu is None and _first(r, 'user_s') is not None:
            cpu = r['user_s'] + (_first(r, 'sys_s') or 0)
        if cpu is None and _first(r, 'user_ms') is not None:
            cpu = (r['user_ms'] + (_first(r, 'sys_ms') or 0)) / 1000
        sys_s = _first(r, 'sys_s')
        sys_s = sys_s if sys_s is not None else ((_first(r, 'sys_ms') or 0) / 1000 if 'sys_ms' in r else None)
        if n is not None:
            pts.append({'n': n, 'wall_s': wall, 'cpu_s': cpu, 'sys_s': sys_s})
    by = {}
    for p in pts:
        by.setdefault(p['n'], []).append(p)
    return {'commit': j.get('commit'), 'time': j.get('time'), 'load_start': j.get('load_start'), 'load_end': j.get('load_end'),
            'fields': sorted({k for r in j.get('reps', []) if isinstance(r, dict) for k in r}), 'points': pts,
            'by_n': {str(n): {k: bs.rng([p[k] for p in ps], 3) for k in ('wall_s', 'cpu_s', 'sys_s')} for n, ps in sorted(by.items())}}


# ---- 5. plan scale (callgrind, scale.out) ---------------------------------------------
def callgrind_of(o):
    sc = {}
    for k, v in o['KV'].items():
        m = re.match(r'^PLAN_N(\d+)_(\w+)$', k)
        if m:
            sc.setdefault(int(m.group(1)), {})[m.group(2).lower()] = num(v)
    return sc


def main():
    raw, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    outs = [load_out(os.path.join(raw, f)) for f in sorted(os.listdir(raw)) if f.endswith('.out')]
    jsons = {f: j for f in sorted(os.listdir(raw)) if (f.startswith('prov-') or f == 'plan-scale.json') and f.endswith('.json')
             for j in [load_json(os.path.join(raw, f))] if j}
    version, used, uj, left = select_version(outs, jsons)
    by = {o['name']: o for o in used}
    res = {'generated': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()),
           'quick': os.environ.get('BENCH_QUICK', '0') == '1', 'commit': version, 'left_out': left,
           'boots': [o['boot'] for o in used]}
    rmw, sfv, sw, wb = [], [], [], []
    for o in used:
        if o['name'].startswith('rmw-') and not o['name'].startswith('rmw-sweep'):
            rmw += rmw_rows(o, WORKLOADS)
            vr = [r for r in o['R'] if str(r.get('wl', '')).endswith('-v')]
            vs = sorted({r['layout'] for r in vr})
            if vs:
                sfv += rmw_rows(o, sorted({r['wl'] for r in vr}, reverse=True), ['def'] + [v for v in vs if v != 'def'])
        e = swalloc_of(o)
        if e:
            sw.append(e)
        e = writeback_of(o)
        if e:
            wb.append(e)
    res['rmw'] = rmw
    direct = [r for r in rmw if r['workload'] == 'direct' and 'sp' in r]
    res['rmw_pass'] = all(r['sp']['rmw_ratio']['max'] <= 0.01 for r in direct) if direct else None
    sf = [r for r in rmw if r['workload'] == 'stripefiles' and 'sp' in r and 'def' in r]
    res['stripefiles_pass'] = {'rmw_le_def': all(r['rmw_le_def'] for r in sf), 'throughput_ge_095': all(r['throughput_ge_095'] for r in sf),
                               'cases': len(sf)} if sf else None
    if sfv:
        res['stripefiles_variants'] = sfv
    if sw:
        res['swalloc'] = sw
    if wb:
        res['loop_lun_writeback'] = wb
    if 'agalign' in by:
        res['agalign'] = agalign_of(by['agalign'])
    if 'reads' in by:
        res['reads'] = reads_of(by['reads'])
    if 'sync' in by:
        res['sync'] = sync_of(by['sync'])
    if 'prov' in by:
        res['prov'] = prov_of(by['prov'])
    pp = [e for e in (prov_par_of(o) for o in used) if e]
    if pp:
        res['prov_parallel'] = pp
    res['prov_host'] = [prov_json(f, j) for f, j in uj.items() if f.startswith('prov-')]
    if 'plan-scale.json' in uj:
        res['plan_scale'] = scale_json(uj['plan-scale.json'])
    if 'scale' in by:
        res['plan_callgrind'] = {str(n): v for n, v in sorted(callgrind_of(by['scale']).items())}
    with tempfile.TemporaryDirectory() as td:
        for o in used:
            if o['name'].startswith('rmw-sweep'):
                os.symlink(os.path.abspath(os.path.join(raw, o['name'] + '.out')), os.path.join(td, o['name'] + '.out'))
        sweep = rmw_sweep.summarize(rmw_sweep.parse(td))
    if sweep['layouts']:
        res['rmw_sweep'] = {'seeds': sweep['seeds'], 'summary': sweep['summary'],
                            'layouts': [{'layout': d['layout'], 'desc': d.get('DESC'), 'sp_ratio': d['sp_ratio'],
                                         'def_ratio': d['def_ratio'], 'goal': d['goal']} for d in sweep['layouts']]}
    # issue 34 item 5: the request-level partial-stripe rows (bench/partial_stripe.py)
    ps = [r for o in used if o['name'].startswith('partial-stripe') for r in partial_stripe.rows(o['KV'])]
    if ps:
        res['partial_stripe'] = ps
    # issue 43 item 1: the inspection on disks behind dm-delay (bench/seek.py), per boot
    sk = [e for e in (seek.summarize(o.get('SEEK', []), o['KV'], o['name']) for o in used) if e]
    if sk:
        res['seek_inspection'] = sk
    # every repetition's raw figures, with the boot (its commit, time and load in "boots")
    res['raw'] = {'R': [r for o in used for r in o['R']], 'X': [dict(x, boot=o['name']) for o in used for x in o['X']]}
    with open(os.path.join(out, 'latest.json'), 'w') as fh:
        json.dump(res, fh, indent=1)
        fh.write('\n')
    import report_md  # noqa: E402
    with open(os.path.join(out, 'latest.md'), 'w') as fh:
        fh.write('\n'.join(report_md.markdown(res, sweep)) + '\n')
    report_plot.plot(res, out)
    print('report: %s/latest.{json,md,png} (commit %s, %d outputs, %d left out)' % (out, version, len(used), len(left)), file=sys.stderr)
    return 0


def agalign_of(o):
    ag = {}
    for lay in ['sp', 'spnoag']:
        rs = sorted([r for r in o['R'] if r.get('case') == 'agalign' and r.get('layout') == lay], key=lambda r: r['rep'])
        if not rs:
            continue
        xs = {x['rep']: x for x in o['X'] if x.get('case') == 'agalign' and x.get('layout') == lay}
        ag[lay] = {'agsize_blocks': num(o['KV'].get(lay.upper() + '_AGSIZE', '0')),
                   'swidth_blocks': num(o['KV'].get(lay.upper() + '_SWIDTH', '0')),
                   'rounds': [{'round': r['rep'], 'rmw_ratio': bs.rnd(rmw_of(r), 4), 'mib_s': bs.rnd(mibs(r), 1),
                               'extents': xs.get(r['rep'], {}).get('extents'),
                               'extents_off_full_stripe': xs.get(r['rep'], {}).get('unaligned_to_full_stripe'),
                               'first_file_ag': xs.get(r['rep'], {}).get('ag')} for r in rs]}
    ag['mkfs'] = {k: o['KV'].get(k) for k in ['SP_MKFS', 'SPNOAG_MKFS']}
    return ag


def reads_of(o):
    rd = {}
    fr = o['KV']
    for lay in ['sp', 'def']:
        rs = [r for r in o['R'] if r.get('bench') == 'reads' and r.get('layout') == lay]
        if not rs:
            continue
        L = lay.upper()
        ra = num(fr.get(L + '_MD_READ_AHEAD_KB', '0'))
        mx = num(fr.get(L + '_MEMBER_MAX_SECTORS_KB', '0'))
        rd[lay] = {'reps': len(rs),
                   'member_read_requests_per_gib': bs.rng([r['mem_rd_ios'] / (r['bytes'] / 2**30) for r in rs], 0),
                   'mean_member_request_kib': bs.rng([r['mem_rd_sec'] / 2 / r['mem_rd_ios'] for r in rs if r['mem_rd_ios']], 1),
                   'mean_array_request_kib': bs.rng([r['top_rd_sec'] / 2 / r['top_rd_ios'] for r in rs if r.get('top_rd_ios')], 1),
                   'ceiling_kib': min(ra, mx) if ra and mx else None, 'array_read_ahead_kb': ra,
                   'mib_s': bs.rng([mibs(r) for r in rs], 1)}
    return rd


def sync_of(o):
    sy = {}
    for tag, js in o['FIO'].items():
        m = re.match(r'^(sync|idle)\.(raid1|raid5)\.(profiled|default)\.(\d+)$', tag)
        if not m:
            continue
        kind, arr, v, _ = m.groups()
        job = [j for j in js['jobs'] if j['jobname'] == 'sync'][0]
        p = job['write']['clat_ns'].get('percentile', {})
        sy.setdefault(arr, {}).setdefault(kind, {}).setdefault(v, []).append(
            {'p50_ms': p.get('50.000000', 0) / 1e6, 'p99_ms': p.get('99.000000', 0) / 1e6,
             'max_ms': job['write']['clat_ns']['max'] / 1e6, 'n': job['write']['total_ios']})
    lat = {arr: {kind: {v: {'runs': len(rs), 'writes': sum(r['n'] for r in rs),
                            'p50_ms': bs.rng([r['p50_ms'] for r in rs], 2), 'p99_ms': bs.rng([r['p99_ms'] for r in rs], 2),
                            'max_ms': bs.rng([r['max_ms'] for r in rs], 2)} for v, rs in vs.items()}
                 for kind, vs in kinds.items()} for arr, kinds in sy.items()}
    return {'safe_mode_delay': {'raid1_profiled': o['KV'].get('R1_PROFILED'), 'raid5_profiled': o['KV'].get('R5_PROFILED'),
                                'default': '0.200'}, 'latency': lat}


if __name__ == '__main__':
    sys.exit(main())
