"""bench/report_plot.py: latest.png, one panel per question, every repetition
a point and the median a bar: RMW per layout and workload, the paired
throughput ratio, the provisioning ratio, plan scale. A question with no
figures in this run says so in its panel."""
import os
import subprocess
import sys

EMPTY = '''set title "%s"
unset xtics
unset ytics
unset border
set label 1 "not measured in this run" at graph 0.5, graph 0.5 center
plot [0:1][0:1] NaN notitle
unset label 1
set border
set xtics
set ytics
'''


def _xtics(labels):
    return 'set xtics (%s) rotate by -35 font ",7"\n' % ', '.join('"%s" %d' % (s, i) for i, s in enumerate(labels))


def _points(fh, groups, off=0.0):
    """every value of each group at x = index + off, then the medians; blocks
    separated for gnuplot's index"""
    for i, (_, vals, _m) in enumerate(groups):
        for v in vals:
            fh.write('%g %g\n' % (i + off, v))
    fh.write('\n\n')
    for i, (_, _v, m) in enumerate(groups):
        if m is not None:
            fh.write('%g %g\n' % (i + off, m))
    fh.write('\n\n')


def _cmp_rows(res):
    """(label, storprov side, def side, paired throughput ratio) of section 1
    and of the 1d variants"""
    out = [('%s %s' % (r['case'], r['workload']), r['sp'], r['def'], r.get('throughput_ratio'))
           for r in res.get('rmw', []) if 'sp' in r and 'def' in r]
    for r in res.get('stripefiles_variants', []):
        for v in [k for k in r if isinstance(r[k], dict) and 'rmw_ratio' in r[k] and k != 'def']:
            key = '' if v == 'sp' else v + '_'
            out.append(('%s %s 1d %s' % (r['case'], r['workload'][:-2], v), r[v], r['def'], r.get(key + 'throughput_ratio')))
    return out


def _rmw_panel(res, d):
    rows = _cmp_rows(res)
    if not rows:
        return EMPTY % 'RMW ratio per layout and workload'
    fl = 1e-4

    def side(x):
        return ('', [max(v, fl) for v in x['rmw_ratio_by_rep'] if v is not None], max(x['rmw_ratio']['median'], fl))
    with open(os.path.join(d, 'rmw.dat'), 'w') as fh:
        _points(fh, [side(r[1]) for r in rows], -0.15)
        _points(fh, [side(r[2]) for r in rows], 0.15)
    f = os.path.join(d, 'rmw.dat')
    return ('set title "RMW ratio per layout and workload (each repetition; large mark = median; floor 1e-4)"\nset logscale y\n'
            'set yrange [5e-5:3]\nset xrange [-0.6:%d]\n' % len(rows) + _xtics([r[0] for r in rows]) +
            'set key top left\nplot "%s" index 0 with points pt 7 ps 0.6 lc rgb "#1f5fa8" title "storprov (or 1d variant)", '
            '"" index 1 with points pt 5 ps 1.6 lc rgb "#1f5fa8" notitle, '
            '"" index 2 with points pt 6 ps 0.6 lc rgb "#c0392b" title "default", '
            '"" index 3 with points pt 4 ps 1.6 lc rgb "#c0392b" notitle\n'
            'unset logscale y\nset autoscale\n' % f)


def _ratio_panel(title, groups, d, name, lines=(1.0,), yrange='*:*'):
    groups = [g for g in groups if g[1]]
    if not groups:
        return EMPTY % title
    f = os.path.join(d, name)
    with open(f, 'w') as fh:
        _points(fh, groups)
    ref = ''.join('set arrow from -0.6,%g to %d,%g nohead dt 2 lc rgb "#555555"\n' % (y, len(groups), y) for y in lines)
    return ('set title "%s"\nset xrange [-0.6:%d]\nset yrange [%s]\n' % (title, len(groups), yrange) +
            _xtics([g[0] for g in groups]) + ref +
            'plot "%s" index 0 with points pt 7 ps 0.6 lc rgb "#1f5fa8" title "each repetition", '
            '"" index 1 with points pt 5 ps 1.6 lc rgb "#1f5fa8" title "median"\nunset arrow\nset autoscale\n' % f)


def _scale_panel(res, d):
    ps = res.get('plan_scale')
    title = 'storprov plan: time vs LUNs (log-log)'
    if ps and ps.get('points'):
        f = os.path.join(d, 'scale.dat')
        with open(f, 'w') as fh:
            for k in ('wall_s', 'cpu_s', 'sys_s'):
                for p in ps['points']:
                    if p.get(k):
                        fh.write('%g %g\n' % (p['n'], p[k]))
                fh.write('\n\n')
        return ('set title "%s"\nset logscale xy\nset autoscale\nset xtics auto norotate font ",9"\nset key top left\n'
                'plot "%s" index 0 with points pt 7 title "wall s", "" index 1 with points pt 6 title "CPU s (user+sys)", '
                '"" index 2 with points pt 2 title "sys s"\nunset logscale\n' % (title, f))
    cg = res.get('plan_callgrind')
    if cg:
        f = os.path.join(d, 'scale.dat')
        with open(f, 'w') as fh:
            for n, e in cg.items():
                if isinstance(e.get('ir'), int):
                    fh.write('%s %d\n' % (n, e['ir']))
        return ('set title "storprov plan: user-space instructions vs LUNs (callgrind; time not measured in this run)"\n'
                'set logscale xy\nset autoscale\nset xtics auto norotate font ",9"\n'
                'plot "%s" using 1:2 with linespoints pt 7 title "instructions"\nunset logscale\n' % f)
    return EMPTY % title


def plot(res, out):
    d = os.path.join(out, '.plot')
    os.makedirs(d, exist_ok=True)
    thr = [(lab, (t or {}).get('values', []), (t or {}).get('median')) for lab, _s, _d, t in _cmp_rows(res)]
    prov = []
    pv = res.get('prov') or {}
    for what in ['many-luns', 'md-raid6-lvm']:
        x = (pv.get(what) or {}).get('storprov_over_serial')
        if x:
            prov.append(('VM %s' % what, x['values'], x['median']))
    for e in res.get('prov_host', []):
        for g, x in e['storprov_over_serial'].items():
            if x:
                prov.append(('%s %s' % (e['file'].replace('.json', ''), g), x['values'], x['median']))
    panels = [_rmw_panel(res, d),
              _ratio_panel('throughput storprov / default, paired by repetition (lines 1 and 0.95)', thr, d, 'thr.dat', (1.0, 0.95)),
              _ratio_panel('provisioning wall time storprov / serial script, paired', prov, d, 'prov.dat', (1.0,), '0:*'),
              _scale_panel(res, d)]
    # wide enough for one readable tick label per compared row
    gp = ('set terminal pngcairo size %d,1000 font "sans,9" noenhanced\nset output "%s"\nset multiplot layout 2,2\n'
          'set bmargin 7\n' % (max(1400, 56 * len(_cmp_rows(res))), os.path.join(out, 'latest.png'))) + ''.join(panels) + 'unset multiplot\n'
    with open(os.path.join(d, 'plot.gp'), 'w') as fh:
        fh.write(gp)
    try:
        subprocess.run(['gnuplot', os.path.join(d, 'plot.gp')], check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print('report: gnuplot failed: %s' % e, file=sys.stderr)
