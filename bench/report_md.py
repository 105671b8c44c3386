"""bench/report_md.py: latest.md from the figures bench/report.py computed.
Every figure: median [min-max] (repetitions), or its modes when bimodal;
comparisons as paired ratios (one per repetition, both sides in one boot)."""
import benchstats as bs
import rmw_sweep
import partial_stripe
import seek

F = bs.fmt


def _ratio(r):
    if not r:
        return '-'
    s = F(r)
    if r.get('ci95'):
        s += ', 95 %% CI of geomean %s-%s' % tuple(r['ci95'])
    return s


def _boots(res):
    md = ['| boot | commit | run | started (UTC) | VM wall s | host load at start (1/5/15 min) | at end | host CPUs | rc |',
          '|---|---|---|---|---|---|---|---|---|']
    for b in res['boots']:
        md.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            b.get('name'), str(b.get('commit', '-'))[:12], b.get('run', '-'), b.get('time', '-'), b.get('wall_s', '-'),
            b.get('load_start', '-'), b.get('load_end', '-'), b.get('nproc', '-'), b.get('rc', '-')))
    return md


def _rmw(res):
    md = ['## 1. Read-modify-write on parity layouts', '',
          'RMW ratio = sectors read by the disks under the parity layer (each layer once: for loop-lun the disks, not also '
          'the md array they form) / sectors written to the filesystem\'s device (/sys/block/*/stat), per repetition; '
          'sp and def in the same boot, alternating order. MiB/s: wall time incl. sync. "paired" = per repetition, '
          'sp against def of the same repetition.', '',
          '| layout | workload | sp RMW ratio | def RMW ratio | paired sp - def | sp MiB/s | def MiB/s | sp/def MiB/s (paired) | sp start / su-sw | def start / su-sw |',
          '|---|---|---|---|---|---|---|---|---|---|']
    for r in res['rmw']:
        if 'sp' not in r or 'def' not in r:
            continue
        s, d = r['sp'], r['def']
        md.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s / %s | %s / %s |' % (
            r['case'], r['workload'], F(s['rmw_ratio'], s['rmw_modes']), F(d['rmw_ratio'], d['rmw_modes']),
            F(r['rmw_paired_diff']), F(s['mib_s']), F(d['mib_s']), _ratio(r['throughput_ratio']),
            s['start_sector'], s['xfs_sunit_swidth'], d['start_sector'], d['xfs_sunit_swidth']))
    md += ['', 'storprov\'s layout at RMW ratio <= 0.01 in every repetition under full-stripe O_DIRECT writes ("direct") '
           'on every parity layout: **%s**.' % ('yes' if res['rmw_pass'] else 'NO')]
    p = res.get('stripefiles_pass')
    if p:
        md += ['', '`stripefiles` on %d parity layouts: sp reads no more than def (median paired difference <= 0, or its '
               'range spans 0) on all: **%s**; sp/def MiB/s paired median >= 0.95 on all: **%s**.' % (
                   p['cases'], 'yes' if p['rmw_le_def'] else 'NO', 'yes' if p['throughput_ge_095'] else 'NO')]
    return md + ['']


def _sfv(res):
    md = ['## 1d. The swalloc trade-off: stripefiles and direct on variants of the layouts', '',
          'In the same boot after section 1, alternating order (bench/README.md, 1d): sp = storprov\'s default '
          '(swalloc on parity stripes), sp-noswalloc = what `<xfs swalloc="false">` mounts, def = the default layout. '
          'Paired against def of the same repetition; "<= def": median paired difference <= 0 or its range spans 0.', '',
          '| layout | workload | variant | RMW ratio | paired vs def: RMW difference | <= def | MiB/s | paired vs def: MiB/s | >= 0.95 |',
          '|---|---|---|---|---|---|---|---|---|']
    for r in res['stripefiles_variants']:
        for v in [k for k in r if isinstance(r[k], dict) and 'rmw_ratio' in r[k]]:
            key = '' if v == 'sp' else v + '_'
            cmp = v != 'def'
            md.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
                r['case'], r['workload'][:-2], v, F(r[v]['rmw_ratio'], r[v]['rmw_modes']),
                F(r.get(key + 'rmw_paired_diff')) if cmp else '-', ('yes' if r.get(key + 'rmw_le_def') else '**no**') if cmp else '-',
                F(r[v]['mib_s']), _ratio(r.get(key + 'throughput_ratio')) if cmp else '-',
                ('yes' if r.get(key + 'throughput_ge_095') else '**no**') if cmp else '-'))
    return md + ['']


def _writeback(res):
    md = []
    for e in res['loop_lun_writeback']:
        md += ['## 1f. The LUN stand-in without and with a write-back cache (dm-writecache, %s MiB a LUN), boot %s' % (
            e['cache_mib'], e['boot']), '',
            'Bytes read from the md members per byte written (RMW), and seconds: "app" until the workload\'s sync '
            'returned, "array" until the cache had written everything back (the members\' reads counted until then). '
            'Cells: median [min-max] (repetitions).', '',
            '| workload | variant | no cache: RMW | no cache: s | write-back: RMW | write-back: app s | write-back: array s |',
            '|---|---|---|---|---|---|---|']
        for t in e['table']:
            n, w = t.get('no_cache', {}), t.get('writeback', {})
            md.append('| %s | %s | %s | %s | %s | %s | %s |' % (
                t['workload'], t['variant'], F(n.get('rmw_ratio')), F(n.get('app_s')), F(w.get('rmw_ratio')),
                F(w.get('app_s')), F(w.get('to_array_s'))))
        md.append('')
    return md


def _swalloc(res):
    md = []
    for e in res['swalloc']:
        md += ['## 1b. Buffered %d MiB streaming write + fsync (the swalloc question), boot %s' % (e['size_mib'], e['boot']), '',
               '| variant | MiB/s | vs def (paired) | RMW ratio | member writes / written | extents | extents off a full stripe |',
               '|---|---|---|---|---|---|---|']
        for v, x in e['variants'].items():
            md.append('| %s | %s | %s | %s | %s | %s | %s |' % (v, F(x['mib_s']), _ratio(x['vs_def']), F(x['rmw_ratio']),
                                                            F(x['member_writes_per_written']), F(x['extents']), F(x['extents_off_full_stripe'])))
        if e.get('sp_over_sp-noswalloc'):
            md += ['', 'sp / sp-noswalloc MiB/s, paired in this boot: %s.' % _ratio(e['sp_over_sp-noswalloc'])]
        if e.get('stripefiles'):
            md += ['', 'Stripe-sized files per variant: ' + '; '.join('%s: RMW %s, MiB/s %s' % (v, F(x['rmw_ratio']), F(x['mib_s']))
                                                                   for v, x in e['stripefiles'].items())]
        md.append('')
    return md


def _agalign(ag):
    md = ['## 1c. Full-stripe O_DIRECT writers by round, md RAID5 4 x 64 KiB: AG size and stripe alignment', '',
          'Round 1 on a fresh filesystem, later rounds after buffered streams were written and removed (each round is one '
          'measurement of a different state, not a repetition). sp = storprov\'s layout (`%s`); spnoag = the same without '
          '`-d agsize=`.' % ag['mkfs'].get('SP_MKFS'), '',
          '| layout | agsize (blocks) | swidth (blocks) | round | RMW ratio | extents | extents off a full stripe | AG of first file | MiB/s |',
          '|---|---|---|---|---|---|---|---|---|']
    for lay in ['sp', 'spnoag']:
        e = ag.get(lay)
        for r in (e or {}).get('rounds', []):
            md.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (lay, e['agsize_blocks'], e['swidth_blocks'], r['round'], r['rmw_ratio'],
                                                                     r['extents'], r['extents_off_full_stripe'], r['first_file_ag'], r['mib_s']))
    return md + ['']


def _reads(rd):
    md = ['## 2. 16 parallel streaming readers, md RAID5 4 x 64 KiB', '',
          '| tuning | member read requests / GiB | mean member request KiB | ceiling KiB | mean md request KiB | array read_ahead_kb | MiB/s |',
          '|---|---|---|---|---|---|---|']
    for lay, e in rd.items():
        md.append('| %s | %s | %s | %s | %s | %s | %s |' % ({'sp': 'storprov (udev rules)', 'def': 'kernel defaults'}[lay],
                  F(e['member_read_requests_per_gib']), F(e['mean_member_request_kib']), e['ceiling_kib'],
                  F(e['mean_array_request_kib']), e['array_read_ahead_kb'], F(e['mib_s'])))
    return md + ['']


def _sync(sy):
    md = ['## 3. 4 KiB O_SYNC write latency (ms)', '',
          'safe_mode_delay profiled %s (RAID1) / %s (RAID5) vs default 0.200. Per run percentiles; median [min-max] over runs.' % (
              sy['safe_mode_delay']['raid1_profiled'], sy['safe_mode_delay']['raid5_profiled']), '',
          '| array | workload | safe_mode_delay | p50 | p99 | max | writes |', '|---|---|---|---|---|---|---|']
    for arr in sorted(sy['latency']):
        for kind in ['sync', 'idle']:
            for v in ['profiled', 'default']:
                e = sy['latency'][arr].get(kind, {}).get(v)
                if e:
                    md.append('| %s | %s | %s | %s | %s | %s | %s |' % (arr, {'sync': 'stream', 'idle': 'idle'}[kind], v,
                              F(e['p50_ms']), F(e['p99_ms']), F(e['max_ms']), e['writes']))
    return md + ['']


def _prov_steps(pp):
    """md-raid6-lvm: storprov's steps (its --report) against the scripts' commands, median ms"""
    md = []
    for k, tools in pp.get('steps_ms', {}).items():
        sp, se, pa = tools.get('storprov', {}), tools.get('serial', {}), tools.get('parallel', {})
        spc = [v for n, v in sorted(((n, v) for n, v in sp.items() if n.isdigit()), key=lambda x: int(x[0]))
               if v['cmd'].split(': ', 1)[-1].strip()]
        md += ['Per step, %s: median ms (min-max) of each command; storprov from its --report (elapsed_s), '
               'the scripts timed per command with its settle; sysfs writes under 20 ms in every tool left out.' % k, '',
               '| # | command | storprov | serial script |', '|---:|---|---|---|']
        pos = 0
        for n, v in sorted(se.items(), key=lambda x: int(x[0])):
            # the next storprov step (in step order) running this command; sysfs
            # values already set are steps without a command in storprov's report
            s = None
            for i in range(pos, len(spc)):
                if spc[i]['cmd'].split(': ', 1)[-1][:45] == v['cmd'][:45]:
                    s, pos = spc[i], i + 1
                    break
            if v['ms']['max'] < 20 and (not s or s['ms']['max'] < 20):
                continue
            md.append('| %s | `%s` | %s | %s |' % (n, v['cmd'][:45], F(s['ms']) if s else '-', F(v['ms'])))
        for n in ('inspection', 'total'):
            if n in sp:
                md.append('| | storprov %s | %s | |' % (n, F(sp[n]['ms'])))
        md += ['', 'Parallel script, %s: ' % k + '; '.join('%s: %s' % (v['cmd'][:40], F(v['ms']))
               for n, v in sorted(pa.items(), key=lambda x: int(x[0])) if v['ms']['max'] >= 20), '']
    return md


def _prov(res):
    md = ['## 4. Provisioning', '']
    pv = res.get('prov')
    if pv:
        md += ['In the VM (bench/guest/prov.sh), s wall; inspection = run start to the first step\'s start.', '',
               '| profile | storprov | inspection before the first write | serial script | storprov/serial (paired) | storprov CPU / wall |',
               '|---|---|---|---|---|---|']
        for what in ['many-luns', 'md-raid6-lvm']:
            e = pv.get(what)
            if e:
                md.append('| %s (--jobs %s) | %s | %s | %s | %s | %s |' % (what, e['storprov_jobs'], F(e['storprov_s']), F(e['inspection_s']),
                          F(e['serial_s']), _ratio(e['storprov_over_serial']), F(e['storprov_cpu_share_of_wall'])))
        if pv.get('many-luns-jobs_s'):
            md += ['', 'many-luns by --jobs (s): ' + '; '.join('%s: %s' % (j, F(t)) for j, t in pv['many-luns-jobs_s'].items())]
        md.append('')
    for pp in res.get('prov_parallel', []):
        md += ['Against a serial and an `xargs -P` script of storprov\'s own commands (bench/guest/prov-par.sh, boot %s; '
               'every run checked with blkid/lvs: %s), s wall, median (min-max), ratios paired by round:' % (
                   pp['boot'], 'all ok' if pp['all_ok'] else 'SOME RUNS FAILED THE CHECK'), '',
               '| case, disks, --jobs | rounds | storprov | serial | parallel | storprov/serial | storprov/parallel |',
               '|---|---:|---|---|---|---|---|']
        for k, e in pp['cases'].items():
            md.append('| %s | %d | %s | %s | %s | %s | %s |' % (k, e['rounds'], F(e['storprov_s']), F(e['serial_s']),
                      F(e['parallel_s']), _ratio(e['storprov_over_serial']), _ratio(e['storprov_over_parallel'])))
        md.append('')
        md += _prov_steps(pp)
    for e in res.get('prov_host', []):
        md += ['%s (commit %s, %s, load %s -> %s, %d reps; fields %s): storprov/serial %s' % (
            e['file'], str(e['commit'])[:12], e['time'], e['load_start'], e['load_end'], e['reps'], ', '.join(e['fields']),
            '; '.join('%s: %s' % (g or 'all', _ratio(x)) for g, x in e['storprov_over_serial'].items()) or 'no ratio found')
            + ('; storprov/parallel (xargs -P) %s' % '; '.join('%s: %s' % (g or 'all', _ratio(x))
                                                            for g, x in e['storprov_over_parallel'].items())
               if e.get('storprov_over_parallel') else ''), '']
    if not pv and not res.get('prov_host') and not res.get('prov_parallel'):
        md += ['Not measured in this run.', '']
    return md


def _scale(res):
    md = ['## 5. Plan scale', '']
    ps = res.get('plan_scale')
    if ps:
        md += ['bench/plan-scale.sh (commit %s, %s, load %s -> %s):' % (str(ps['commit'])[:12], ps['time'], ps['load_start'], ps['load_end']), '',
               '| LUNs | wall s | CPU s (user + sys) | of which sys s |', '|---|---|---|---|']
        for n, e in ps['by_n'].items():
            md.append('| %s | %s | %s | %s |' % (n, F(e['wall_s']), F(e['cpu_s']), F(e['sys_s'])))
        md.append('')
    cg = res.get('plan_callgrind')
    if cg:
        md += ['Instructions in user space (callgrind, deterministic; one run each):', '',
               '| disks | instructions | max RSS KiB | wall ms |', '|---|---|---|---|']
        for n, e in cg.items():
            md.append('| %s | %s | %s | %s |' % (n, e.get('ir'), e.get('rss_kb'), e.get('wall_ms')))
        md.append('')
    if not ps and not cg:
        md += ['Not measured in this run.', '']
    return md


def markdown(res, sweep):
    md = ['# storprov benchmarks: latest figures', '',
          'Generated %s by `make bench`%s (bench/run.sh, QEMU TCG guest) from the raw outputs of commit `%s` only. '
          '"sp" = storprov\'s layout and tuning, "def" = the usual default, both in the same boot. Cells: median '
          '[min-max] (repetitions); bimodal sets as their modes. See bench/README.md for how each figure is measured.' % (
              res['generated'], ' with BENCH_QUICK=1' if res['quick'] else '', res['commit']), '']
    md += ['### Boots and host load', ''] + _boots(res) + ['']
    if res['left_out']:
        md += ['Left out (another code version; never pooled): ' + ', '.join('%s (%s)' % (x['file'], str(x['commit'])[:12])
                                                                         for x in res['left_out']), '']
    if res['rmw']:
        md += _rmw(res)
    if res.get('stripefiles_variants'):
        md += _sfv(res)
    if res.get('swalloc'):
        md += _swalloc(res)
    if res.get('loop_lun_writeback'):
        md += _writeback(res)
    if res.get('agalign'):
        md += _agalign(res['agalign'])
    if res.get('reads'):
        md += _reads(res['reads'])
    if res.get('sync'):
        md += _sync(res['sync'])
    md += _prov(res)
    md += _scale(res)
    if sweep['layouts']:
        md += ['## 7. RMW sweep: random parity LUN layouts (details: rmw-sweep.md; one measurement a layout)', '']
        md += rmw_sweep.markdown(sweep, head=False) + ['']
    if res.get('partial_stripe'):
        md += ['## 9. Partial-stripe requests on plain LUNs (fraction of bytes written in requests that do not cover '
               'whole LUN stripes; "run" where one stripe cannot fit one request; bench/README.md)', '']
        md += partial_stripe.markdown(res['partial_stripe']) + ['']
    for s in res.get('seek_inspection', []):
        md += ['## 10. The inspection before the first write on disks that seek (dm-delay; bench/README.md)', '']
        md += seek.markdown(s)
    bad = [b for b in res['boots'] if b.get('rc') not in (0, None)]
    if bad:
        md += ['Boots that failed (their figures are partial or missing): ' + ', '.join('%s rc=%s' % (b['name'], b['rc']) for b in bad), '']
    return md
