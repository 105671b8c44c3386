#!/usr/bin/env python3
"""bench/report.py RAWDIR OUTDIR: the benchmark results as latest.json,
latest.md and latest.png (gnuplot) from the raw VM outputs of bench/run.sh.

Raw lines: "R k=v ..." one measurement, "X k=v ..." extent facts,
"FIO tag {json}", "KEY=VALUE", "BOOT name=.. rc=..", and for plan scale
"PLAN_N<n>_<KEY>=V". See bench/README.md for what each figure means."""
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time

raw, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)


def kvs(text):
    return dict(re.findall(r'(\w+)=("[^"]*"|\S+)', text))


def num(v):
    try:
        return int(v)
    except ValueError:
        try:
            return float(v)
        except ValueError:
            return v


R, X, FIO, KV, BOOTS = [], [], {}, {}, []
for f in sorted(os.listdir(raw)):
    if not f.endswith('.out'):
        continue
    name = f[:-4]
    KV[name] = {}
    with open(os.path.join(raw, f), errors='replace') as fh:
        for line in fh:
            line = line.rstrip('\n')
            if line.startswith('R '):
                d = {k: num(v.strip('"')) for k, v in kvs(line[2:]).items()}
                d['boot'] = name
                R.append(d)
            elif line.startswith('X '):
                X.append({k: num(v) for k, v in kvs(line[2:]).items()})
            elif line.startswith('FIO '):
                _, tag, js = line.split(' ', 2)
                try:
                    FIO[tag] = json.loads(js)
                except json.JSONDecodeError:
                    pass
            elif line.startswith('BOOT '):
                BOOTS.append({k: num(v) for k, v in kvs(line[5:]).items()})
            else:
                m = re.match(r'^([A-Z][A-Z0-9_]*)=(.*)$', line)
                if m:
                    KV[name][m.group(1)] = m.group(2)


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def mibs(r):
    return r['bytes'] / 1048576 / (r['ms'] / 1000) if r.get('ms') else None


def rnd(x, n=3):
    if x is None:
        return None
    return round(x, n)


res = {'generated': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()),
       'quick': os.environ.get('BENCH_QUICK', '0') == '1', 'boots': BOOTS}

# ---- 1. read-modify-write ---------------------------------------------------
rmw = []
cases = []
for r in R:
    if 'case' in r and r['case'] != 'swalloc' and r['case'] not in cases:
        cases.append(r['case'])
for c in cases:
    facts = KV.get('rmw-' + c, {})
    for wl in ['direct', 'direct-ext', 'stripefiles', 'streams']:
        row = {'case': c, 'workload': wl}
        for lay in ['sp', 'def']:
            rs = [r for r in R if r.get('case') == c and r.get('wl') == wl and r.get('layout') == lay]
            if not rs:
                continue
            rd = sum(r['mem_rd_sec'] for r in rs)
            wr = sum(r['top_wr_sec'] for r in rs)
            row[lay] = {'reps': len(rs), 'member_read_sectors': rd, 'written_sectors': wr,
                        'rmw_ratio': rnd(rd / wr if wr else None, 4),
                        'rmw_ratio_by_rep': [rnd(r['mem_rd_sec'] / r['top_wr_sec'], 4) for r in sorted(rs, key=lambda r: r['rep'])],
                        'mib_s': rnd(med([mibs(r) for r in rs]), 1),
                        'start_sector': num(facts.get(lay.upper() + '_START', '0')),
                        'xfs_sunit_swidth': '%s/%s' % (facts.get(lay.upper() + '_SUNIT'), facts.get(lay.upper() + '_SWIDTH')),
                        'mount': facts.get(lay.upper() + '_OPTS')}
        if 'sp' in row and 'def' in row:
            a, b = row['sp']['mib_s'], row['def']['mib_s']
            row['throughput_ratio'] = rnd(a / b if a and b else None, 2)
        rmw.append(row)
res['rmw'] = rmw
res['rmw_pass_fresh_fs'] = all(r['sp']['rmw_ratio_by_rep'][0] <= 0.01
                               for r in rmw if r['workload'] == 'direct' and 'sp' in r) if rmw else None
res['rmw_pass'] = all(r['sp']['rmw_ratio'] is not None and r['sp']['rmw_ratio'] <= 0.01
                      for r in rmw if r['workload'] == 'direct' and 'sp' in r) if rmw else None

# ---- 1b. the swalloc regression -------------------------------------------------
sw = {}
swf = {}
for r in R:
    if r.get('case') == 'swalloc' and r.get('wl') == 'stripefiles':
        swf.setdefault(r['layout'], []).append(r)
swfiles = {v: {'runs': len(rs), 'rmw_ratio': rnd(sum(r['mem_rd_sec'] for r in rs) / sum(r['top_wr_sec'] for r in rs), 4),
               'rmw_ratio_range': [rnd(min(r['mem_rd_sec'] / r['top_wr_sec'] for r in rs), 4), rnd(max(r['mem_rd_sec'] / r['top_wr_sec'] for r in rs), 4)],
               'mib_s_median': rnd(med([mibs(r) for r in rs]), 1)} for v, rs in swf.items()}
if swfiles:
    res['swalloc_stripefiles'] = swfiles
srs = [r for r in R if r.get('case') == 'swalloc' and r.get('wl') != 'stripefiles']
if srs:
    defs = {(r['boot'], r['rep']): mibs(r) for r in srs if r['layout'] == 'def'}
    for v in ['def', 'sp', 'sp-noswalloc', 'sp-defopts']:
        rs = [r for r in srs if r['layout'] == v]
        if not rs:
            continue
        paired = [mibs(r) / defs[(r['boot'], r['rep'])] for r in rs if defs.get((r['boot'], r['rep']))]
        xs = [x for x in X if x.get('layout') == v]
        rd = sum(r['mem_rd_sec'] for r in rs)
        wr = sum(r['top_wr_sec'] for r in rs)
        sw[v] = {'reps': len(rs), 'mib_s_median': rnd(med([mibs(r) for r in rs]), 1),
                 'mib_s_all': [rnd(mibs(r), 1) for r in rs],
                 'vs_default_median': rnd(med(paired), 2),
                 'vs_default_range': [rnd(min(paired), 2), rnd(max(paired), 2)] if paired else None,
                 'rmw_ratio': rnd(rd / wr if wr else None, 4),
                 'member_write_sectors_per_written': rnd(sum(r['mem_wr_sec'] for r in rs) / wr if wr else None, 3),
                 'extents_median': med([x['extents'] for x in xs]),
                 'extents_off_full_stripe_median': med([x['unaligned_to_full_stripe'] for x in xs])}
    # swalloc alone: storprov's layout with and without it, paired by repetition and boot
    pairs = []
    for b in set(r['boot'] for r in srs):
        a = {r['rep']: mibs(r) for r in srs if r['boot'] == b and r['layout'] == 'sp'}
        z = {r['rep']: mibs(r) for r in srs if r['boot'] == b and r['layout'] == 'sp-noswalloc'}
        pairs += [a[k] / z[k] for k in a if k in z]
    if pairs:
        pairs.sort()
        lg = [math.log(x) for x in pairs]
        gm = math.exp(statistics.mean(lg))
        # 95 % interval of the geometric mean (t, n-1 dof; normal 1.96 beyond 30 pairs)
        tq = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 7: 2.45, 8: 2.36, 9: 2.31, 10: 2.26, 11: 2.23, 12: 2.20, 13: 2.18,
              14: 2.16, 15: 2.14, 16: 2.13, 17: 2.12, 18: 2.11, 19: 2.10, 20: 2.09}.get(len(pairs), 2.05 if len(pairs) < 31 else 1.96)
        se = statistics.stdev(lg) / math.sqrt(len(lg)) if len(lg) > 1 else 0
        sw['sp_over_sp-noswalloc'] = {'pairs': len(pairs), 'median': rnd(med(pairs), 2), 'range': [rnd(pairs[0], 2), rnd(pairs[-1], 2)],
                                      'quartiles': [rnd(pairs[len(pairs) // 4], 2), rnd(pairs[(3 * len(pairs)) // 4], 2)],
                                      'geomean': rnd(gm, 3), 'geomean_95ci': [rnd(math.exp(math.log(gm) - tq * se), 3), rnd(math.exp(math.log(gm) + tq * se), 3)],
                                      'sp_faster_in': sum(1 for x in pairs if x > 1)}
    res['swalloc'] = sw
    res['swalloc_size_mib'] = round(srs[0]['bytes'] / 1048576)

# ---- 1c. AG-relative stripe alignment -------------------------------------------
ag = {}
for lay in ['sp', 'spnoag']:
    rs = sorted([r for r in R if r.get('case') == 'agalign' and r.get('layout') == lay], key=lambda r: r['rep'])
    if not rs:
        continue
    xs = {x['rep']: x for x in X if x.get('case') == 'agalign' and x.get('layout') == lay}
    facts = KV.get('agalign', {})
    ag[lay] = {'agsize_blocks': num(facts.get(lay.upper() + '_AGSIZE', '0')), 'swidth_blocks': num(facts.get(lay.upper() + '_SWIDTH', '0')),
               'rounds': [{'round': r['rep'], 'rmw_ratio': rnd(r['mem_rd_sec'] / r['top_wr_sec'], 4),
                           'mib_s': rnd(mibs(r), 1), 'extents': xs.get(r['rep'], {}).get('extents'),
                           'extents_off_full_stripe': xs.get(r['rep'], {}).get('unaligned_to_full_stripe'),
                           'first_file_ag': xs.get(r['rep'], {}).get('ag')} for r in rs]}
if ag:
    res['agalign'] = ag
    res['agalign_mkfs'] = {k: KV.get('agalign', {}).get(k) for k in ['SP_MKFS', 'SPNOAG_MKFS']}

# ---- 2. parallel streaming reads ------------------------------------------------
rd = {}
fr = KV.get('reads', {})
for lay in ['sp', 'def']:
    rs = [r for r in R if r.get('bench') == 'reads' and r.get('layout') == lay]
    if not rs:
        continue
    ios = sum(r['mem_rd_ios'] for r in rs)
    sec = sum(r['mem_rd_sec'] for r in rs)
    gib = sum(r['bytes'] for r in rs) / 2**30
    L = lay.upper()
    ra = num(fr.get(L + '_MD_READ_AHEAD_KB', '0'))
    mx = num(fr.get(L + '_MEMBER_MAX_SECTORS_KB', '0'))
    tios = sum(r.get('top_rd_ios', 0) for r in rs)
    tsec = sum(r['top_rd_sec'] for r in rs)
    rd[lay] = {'reps': len(rs), 'member_read_requests_per_gib': round(ios / gib),
               'mean_array_request_kib': rnd(tsec / 2 / tios if tios else None, 1),
               'mean_member_request_kib': rnd(sec / 2 / ios if ios else None, 1),
               'ceiling_kib': min(ra, mx) if ra and mx else None,
               'array_read_ahead_kb': ra, 'member_max_sectors_kb': mx,
               'member_read_ahead_kb': num(fr.get(L + '_MEMBER_READ_AHEAD_KB', '0')),
               'stripe_cache_size': num(fr.get(L + '_STRIPE_CACHE', '0')),
               'mib_s': rnd(med([mibs(r) for r in rs]), 1)}
if rd:
    res['reads'] = rd

# ---- 3. sync-write latency ------------------------------------------------------
sy = {}
for tag, js in FIO.items():
    m = re.match(r'^(sync|idle)\.(raid1|raid5)\.(profiled|default)\.(\d+)$', tag)
    if not m:
        continue
    kind, arr, v, rep = m.groups()
    job = [j for j in js['jobs'] if j['jobname'] == 'sync'][0]
    p = job['write']['clat_ns'].get('percentile', {})
    sy.setdefault(arr, {}).setdefault(kind, {}).setdefault(v, []).append(
        {'p50_ms': p.get('50.000000', 0) / 1e6, 'p99_ms': p.get('99.000000', 0) / 1e6,
         'max_ms': job['write']['clat_ns']['max'] / 1e6, 'n': job['write']['total_ios']})
syt = {}
for arr, kinds in sy.items():
    for kind, vs in kinds.items():
        for v, runs in vs.items():
            syt.setdefault(arr, {}).setdefault(kind, {})[v] = {
                'runs': len(runs), 'writes': sum(r['n'] for r in runs),
                'p50_ms': rnd(med([r['p50_ms'] for r in runs]), 2),
                'p99_ms': rnd(med([r['p99_ms'] for r in runs]), 2),
                'max_ms': rnd(max(r['max_ms'] for r in runs), 2)}
if syt:
    fs = KV.get('sync', {})
    res['sync'] = {'safe_mode_delay': {'raid1_profiled': fs.get('R1_PROFILED'), 'raid5_profiled': fs.get('R5_PROFILED'),
                                       'default': '0.200'}, 'latency': syt}

# ---- 4 + 6. provisioning ----------------------------------------------------------
pv = {}
prs = [r for r in R if r.get('bench') == 'prov']
for what in ['many-luns', 'md-raid6-lvm']:
    s = [r for r in prs if r['what'] == what and r['tool'] == 'storprov']
    z = [r for r in prs if r['what'] == what and r['tool'] == 'serial']
    if not s:
        continue
    e = {'storprov_s': rnd(med([r['ms'] for r in s]) / 1000, 2),
         'storprov_own_cpu_s': rnd(med([r['own_cpu_ms'] for r in s]) / 1000, 2),
         'storprov_cpu_share_of_wall': rnd(med([r['own_cpu_ms'] / r['ms'] for r in s]), 3),
         'storprov_cpu_share_of_all_cpu': rnd(med([r['own_cpu_ms'] / r['total_cpu_ms'] for r in s if r['total_cpu_ms']]), 3),
         'storprov_jobs': s[0]['jobs']}
    if all('inspect_ms' in r for r in s):
        e['storprov_inspect_s'] = rnd(med([r['inspect_ms'] for r in s]) / 1000, 2)
    if z:
        e['serial_s'] = rnd(med([r['ms'] for r in z]) / 1000, 2)
        e['serial_steps'] = z[0].get('steps')
        e['wall_ratio_storprov_over_serial'] = rnd(e['storprov_s'] / e['serial_s'], 2)
    pv[what] = e
jobs = {}
for r in prs:
    if r['what'] == 'many-luns-jobs':
        jobs.setdefault(r['jobs'], []).append(r['ms'])
if jobs:
    pv['many-luns-jobs'] = {str(j): rnd(med(v) / 1000, 2) for j, v in sorted(jobs.items())}
if pv:
    res['prov'] = pv

# ---- 5. plan scale ---------------------------------------------------------------
sc = {}
for name, kv in KV.items():
    for k, v in kv.items():
        m = re.match(r'^PLAN_N(\d+)_(\w+)$', k)
        if m:
            sc.setdefault(int(m.group(1)), {})[m.group(2).lower()] = num(v)
if sc:
    ns = sorted(sc)
    pts = [(n, sc[n]['ir']) for n in ns if isinstance(sc[n].get('ir'), int)]
    fit = {}
    if len(pts) >= 2:
        xs = [math.log(n) for n, _ in pts]
        ys = [math.log(i) for _, i in pts]
        mx, my = statistics.mean(xs), statistics.mean(ys)
        b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        # linear fit Ir = a + c*N (least squares)
        X0 = [n for n, _ in pts]
        Y0 = [i for _, i in pts]
        mX, mY = statistics.mean(X0), statistics.mean(Y0)
        c = sum((x - mX) * (y - mY) for x, y in zip(X0, Y0)) / sum((x - mX) ** 2 for x in X0)
        a = mY - c * mX
        ssr = sum((y - (a + c * x)) ** 2 for x, y in zip(X0, Y0))
        sst = sum((y - mY) ** 2 for y in Y0)
        fit = {'loglog_exponent': rnd(b, 3), 'linear_a_instructions': round(a), 'linear_c_instructions_per_disk': round(c),
               'linear_r2': rnd(1 - ssr / sst if sst else None, 5),
               'growth_steps': {'%d->%d' % (pts[i][0], pts[i + 1][0]): rnd(pts[i + 1][1] / pts[i][1], 2) for i in range(len(pts) - 1)},
               'step_exponents': {'%d->%d' % (pts[i][0], pts[i + 1][0]):
                                  rnd(math.log(pts[i + 1][1] / pts[i][1]) / math.log(pts[i + 1][0] / pts[i][0]), 2)
                                  for i in range(len(pts) - 1)}}
        if len(pts) >= 3:
            # Ir = q0 + q1 N + q2 N^2, least squares (normal equations, Cramer)
            S = [sum(x ** k for x in X0) for k in range(5)]
            T = [sum(y * x ** k for x, y in zip(X0, Y0)) for k in range(3)]
            M = [[S[0], S[1], S[2]], [S[1], S[2], S[3]], [S[2], S[3], S[4]]]

            def det(m):
                return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
            D = det(M)
            q = []
            for k in range(3):
                Mk = [row[:] for row in M]
                for i in range(3):
                    Mk[i][k] = T[i]
                q.append(det(Mk) / D)
            fit['quadratic'] = {'q0': round(q[0]), 'q1_per_disk': round(q[1], 1), 'q2_per_disk2': round(q[2], 3),
                                'quadratic_share_at_max': rnd(q[2] * X0[-1] ** 2 / Y0[-1], 3)}
    res['plan_scale'] = {'points': {str(n): sc[n] for n in ns}, 'fit': fit}

# ---- 7. RMW sweep (bench/rmw_sweep.py) -------------------------------------------
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
import rmw_sweep  # noqa: E402
sweep = rmw_sweep.summarize(rmw_sweep.parse(raw))
if sweep['layouts']:
    res['rmw_sweep'] = {'seeds': sweep['seeds'], 'summary': sweep['summary'],
                        'layouts': [{'layout': d['layout'], 'desc': d.get('DESC'), 'sp_ratio': d['sp_ratio'],
                                     'def_ratio': d['def_ratio'], 'goal': d['goal']} for d in sweep['layouts']]}

with open(os.path.join(out, 'latest.json'), 'w') as fh:
    json.dump(res, fh, indent=2, sort_keys=False)
    fh.write('\n')

# ---- markdown -------------------------------------------------------------------------
md = ['# storprov benchmarks: latest figures', '',
      'Generated %s by `make bench`%s (bench/run.sh, QEMU TCG guest, Debian 6.1 kernel). '
      '"sp" = storprov\'s layout and tuning, "def" = the usual default, both in the same boot. '
      'See bench/README.md for what each figure means.' % (res['generated'], ' with BENCH_QUICK=1' if res['quick'] else ''), '']
if rmw:
    md += ['## 1. Read-modify-write on parity layouts', '',
           'RMW ratio = member sectors read / sectors written to the filesystem\'s device (/sys/block/*/stat); '
           'throughput = median MiB/s (wall time incl. sync), ratio sp/def.', '',
           'Repetition 1 runs on fresh filesystems, later ones after the other workloads wrote and removed their files.', '',
           '| layout | workload | sp RMW ratio | by repetition | def RMW ratio | by repetition | sp MiB/s | def MiB/s | sp/def | sp start / su-sw | def start / su-sw |',
           '|---|---|---|---|---|---|---|---|---|---|---|']
    for r in rmw:
        if 'sp' not in r or 'def' not in r:
            continue
        md.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s | %s / %s |' % (
            r['case'], r['workload'], r['sp']['rmw_ratio'], ' '.join(map(str, r['sp']['rmw_ratio_by_rep'])),
            r['def']['rmw_ratio'], ' '.join(map(str, r['def']['rmw_ratio_by_rep'])), r['sp']['mib_s'], r['def']['mib_s'],
            r.get('throughput_ratio'), r['sp']['start_sector'], r['sp']['xfs_sunit_swidth'],
            r['def']['start_sector'], r['def']['xfs_sunit_swidth']))
    md += ['', 'storprov\'s layout at RMW ratio <= 0.01 under full-stripe O_DIRECT writes ("direct") on every parity layout: '
           'on fresh filesystems (repetition 1) **%s**; over all repetitions **%s** (see 1c for why).' %
           ('yes' if res['rmw_pass_fresh_fs'] else 'NO', 'yes' if res['rmw_pass'] else 'NO'), '']
if sw:
    md += ['## 1b. Buffered %d MiB streaming write + fsync (the swalloc question), loop-LUN stand-in' % res['swalloc_size_mib'], '',
           '| variant | reps | median MiB/s | vs def (paired median) | range | RMW ratio | member writes / written | extents | extents off a full stripe |',
           '|---|---|---|---|---|---|---|---|---|']
    for v, e in sw.items():
        if v == 'sp_over_sp-noswalloc':
            continue
        md.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            v, e['reps'], e['mib_s_median'], e['vs_default_median'], e['vs_default_range'], e['rmw_ratio'],
            e['member_write_sectors_per_written'], e['extents_median'], e['extents_off_full_stripe_median']))
    if swfiles:
        md += ['', 'Stripe-sized buffered files (0.75-1.5 full stripes, as rmw "stripefiles") on the same filesystem, per variant: ' +
               '; '.join('%s: RMW ratio %s (range %s), %s MiB/s, %d runs' % (v, e['rmw_ratio'], e['rmw_ratio_range'], e['mib_s_median'], e['runs'])
                         for v, e in swfiles.items())]
    if 'sp_over_sp-noswalloc' in sw:
        p = sw['sp_over_sp-noswalloc']
        md += ['', 'storprov\'s layout with swalloc / without, paired MiB/s over %d pairs (all boots): median %s, quartiles %s, range %s; '
               'geometric mean %s, 95 %% interval %s; swalloc faster in %d of %d pairs.' % (
                   p['pairs'], p['median'], p['quartiles'], p['range'], p['geomean'], p['geomean_95ci'], p['sp_faster_in'], p['pairs'])]
    md.append('')
if ag:
    md += ['## 1c. Full-stripe O_DIRECT writers by round, md RAID5 4 x 64 KiB: AG size and stripe alignment', '',
           'Round 1 on a fresh filesystem, later rounds after buffered streams were written and removed. '
           'sp = storprov\'s layout (`%s`); spnoag = the same without `-d agsize=` (mkfs.xfs\'s own AG size, storprov before the fix).' % res['agalign_mkfs'].get('SP_MKFS'), '',
           '| layout | agsize (blocks) | swidth (blocks) | round | RMW ratio | extents | extents off a full stripe | AG of first file | MiB/s |',
           '|---|---|---|---|---|---|---|---|---|']
    for lay, e in ag.items():
        for r in e['rounds']:
            md.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (lay, e['agsize_blocks'], e['swidth_blocks'], r['round'], r['rmw_ratio'],
                      r['extents'], r['extents_off_full_stripe'], r['first_file_ag'], r['mib_s']))
    md.append('')
if rd:
    md += ['## 2. 16 parallel streaming readers, md RAID5 4 x 64 KiB', '',
           '| tuning | member read requests / GiB | mean member request KiB | ceiling min(read_ahead_kb, max_sectors_kb) | mean md request KiB | array read_ahead_kb | MiB/s |',
           '|---|---|---|---|---|---|---|']
    for lay, e in rd.items():
        md.append('| %s | %s | %s | %s | %s | %s | %s |' % ({'sp': 'storprov (udev rules)', 'def': 'kernel defaults'}[lay],
                  e['member_read_requests_per_gib'], e['mean_member_request_kib'], e['ceiling_kib'], e['mean_array_request_kib'],
                  e['array_read_ahead_kb'], e['mib_s']))
    md.append('')
if syt:
    md += ['## 3. 4 KiB O_SYNC write latency (ms)', '',
           '"stream": beside a buffered streaming writer; "idle": alone, 1 s pauses. '
           'safe_mode_delay profiled %s (RAID1) / %s (RAID5) vs default 0.200. TCG emulation blurs these: '
           'see README.' % (res['sync']['safe_mode_delay']['raid1_profiled'], res['sync']['safe_mode_delay']['raid5_profiled']), '',
           '| array | workload | safe_mode_delay | p50 | p99 | max | writes |', '|---|---|---|---|---|---|---|']
    for arr in sorted(syt):
        for kind in ['sync', 'idle']:
            for v in ['profiled', 'default']:
                e = syt[arr].get(kind, {}).get(v)
                if e:
                    md.append('| %s | %s | %s | %s | %s | %s | %s |' % (arr, {'sync': 'stream', 'idle': 'idle'}[kind], v,
                              e['p50_ms'], e['p99_ms'], e['max_ms'], e['writes']))
    md.append('')
if pv:
    md += ['## 4. Provisioning time (s, wall) and 6. --jobs', '',
           '| profile | storprov | of which inspection before the first write | serial script (settle after each) | storprov/serial | storprov CPU / wall | storprov CPU / all CPU |',
           '|---|---|---|---|---|---|---|']
    for what in ['many-luns', 'md-raid6-lvm']:
        e = pv.get(what)
        if e:
            md.append('| %s (--jobs %s) | %s | %s | %s | %s | %s | %s |' % (what, e['storprov_jobs'], e['storprov_s'], e.get('storprov_inspect_s', '-'), e.get('serial_s'),
                      e.get('wall_ratio_storprov_over_serial'), e['storprov_cpu_share_of_wall'], e['storprov_cpu_share_of_all_cpu']))
    if 'many-luns-jobs' in pv:
        md += ['', 'many-luns by --jobs: ' + ', '.join('%s: %s s' % (j, t) for j, t in pv['many-luns-jobs'].items())]
    md.append('')
if sc:
    md += ['## 5. Plan scale (`storprov plan`, N LUNs each with one XFS)', '',
           '| disks | instructions (callgrind) | max RSS KiB | wall ms |', '|---|---|---|---|']
    for n in sorted(sc):
        md.append('| %d | %s | %s | %s |' % (n, sc[n].get('ir'), sc[n].get('rss_kb'), sc[n].get('wall_ms')))
    f = res['plan_scale']['fit']
    if f:
        md += ['', 'Growth per step (x10 disks): %s; local exponent %s (1 = linear, 2 = quadratic).' % (
            ', '.join('%s: x%s' % kv for kv in f['growth_steps'].items()),
            ', '.join('%s: %s' % kv for kv in f['step_exponents'].items()))]
        if 'quadratic' in f:
            qf = f['quadratic']
            md += ['Least-squares fit Ir = %s + %s N + %s N^2: the N^2 term is %s of the instructions at the largest N.' % (
                qf['q0'], qf['q1_per_disk'], qf['q2_per_disk2'], qf['quadratic_share_at_max'])]
    md.append('')
if sweep['layouts']:
    md += ['## 7. RMW sweep: random parity LUN layouts (details: rmw-sweep.md)', '']
    md += rmw_sweep.markdown(sweep, head=False)
    md.append('')
bad = [b for b in BOOTS if b.get('rc') != 0]
if bad:
    md += ['Boots that failed (their figures are partial or missing): ' + ', '.join('%s rc=%s' % (b['name'], b['rc']) for b in bad), '']
with open(os.path.join(out, 'latest.md'), 'w') as fh:
    fh.write('\n'.join(md) + '\n')

# ---- plot --------------------------------------------------------------------------
dat = os.path.join(out, '.plot')
os.makedirs(dat, exist_ok=True)
with open(os.path.join(dat, 'rmw.dat'), 'w') as fh:
    for r in rmw:
        if r['workload'] == 'direct' and 'sp' in r and 'def' in r:
            fh.write('"%s" %s %s %s\n' % (r['case'], max(r['sp']['rmw_ratio_by_rep'][0], 1e-4), max(r['sp']['rmw_ratio'], 1e-4),
                                           max(r['def']['rmw_ratio'], 1e-4)))
with open(os.path.join(dat, 'scale.dat'), 'w') as fh:
    for n in sorted(sc):
        if isinstance(sc[n].get('ir'), int):
            fh.write('%d %d %s\n' % (n, sc[n]['ir'], sc[n].get('rss_kb')))
with open(os.path.join(dat, 'sw.dat'), 'w') as fh:
    for v, e in sw.items():
        if 'mib_s_median' in e:
            fh.write('"%s" %s\n' % (v, e['mib_s_median']))
panels = []
if any(r['workload'] == 'direct' and 'sp' in r and 'def' in r for r in rmw):
    panels.append('''set title "RMW ratio, full-stripe O_DIRECT writers (log; floor 1e-4)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set yrange [1e-4:2]
set xtics rotate by -20
set key top left
plot "%s/rmw.dat" using 2:xtic(1) title "storprov, fresh fs", "" using 3 title "storprov, all reps", "" using 4 title "default, all reps"
unset logscale y
set autoscale y
set xtics norotate
''' % dat)
if sw:
    panels.append('''set title "buffered stream + fsync, MiB/s (median)"
set style data histograms
set style fill solid 0.8 border -1
set yrange [0:*]
plot "%s/sw.dat" using 2:xtic(1) notitle fc rgb "#5577aa"
set autoscale y
''' % dat)
if any(isinstance(v.get('ir'), int) for v in sc.values()):
    panels.append('''set title "storprov plan: instructions vs disks (log-log)"
set style data linespoints
set logscale xy
set autoscale
set xlabel "disks"
plot "%s/scale.dat" using 1:2 title "callgrind Ir" lw 2, "" using 1:($1*%f) title "linear through N=1200" dt 2
unset logscale
unset xlabel
''' % (dat, (sc[1200]['ir'] / 1200 if isinstance(sc.get(1200, {}).get('ir'), int) else
             min((n, sc[n]['ir']) for n in sc if isinstance(sc[n].get('ir'), int))[1] /
             min(n for n in sc if isinstance(sc[n].get('ir'), int))) if sc else 1))
gp = 'set terminal pngcairo size %d,500 font "sans,10" noenhanced\nset output "%s"\nset multiplot layout 1,%d\n' % (
    500 * max(len(panels), 1), os.path.join(out, 'latest.png'), max(len(panels), 1)) + ''.join(panels) + 'unset multiplot\n'
with open(os.path.join(dat, 'plot.gp'), 'w') as fh:
    fh.write(gp)
try:
    subprocess.run(['gnuplot', os.path.join(dat, 'plot.gp')], check=True)
except (OSError, subprocess.CalledProcessError) as e:
    print('report: gnuplot failed: %s' % e, file=sys.stderr)
print('report: %s/latest.{json,md,png}' % out, file=sys.stderr)
