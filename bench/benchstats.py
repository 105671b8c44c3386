"""bench/benchstats.py: the statistics bench/report.py gives every figure.

Every figure is a set of repetitions: reported as its median and min-max
(rng), or, where the values fall in separate clusters, as those clusters
(modes); a comparison is a set of paired ratios (one per repetition, both
sides in the same boot), reported with their median, min-max and a 95 %
interval of their geometric mean."""
import math
import statistics

# two-sided 95 % t quantiles by degrees of freedom (normal beyond 30)
_T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23, 11: 2.20, 12: 2.18,
        13: 2.16, 14: 2.14, 15: 2.13, 16: 2.12, 17: 2.11, 18: 2.10, 19: 2.09, 20: 2.09}


def num(v):
    """a figure of a KEY=VALUE line as int, else float, else the text"""
    try:
        return int(v)
    except (TypeError, ValueError):
        try:
            return float(v)
        except (TypeError, ValueError):
            return v


def rnd(x, n=3):
    return None if x is None else round(x, n)


def rng(xs, n=4):
    """median, min, max and count of the values that are there"""
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return None
    return {'n': len(xs), 'median': rnd(statistics.median(xs), n), 'min': rnd(xs[0], n), 'max': rnd(xs[-1], n)}


def modes(xs, floor=1e-4, gap=4.0, abs_gap=0.01):
    """The clusters of xs when their values are bimodal: sorted, split at the
    widest gap in log scale if one value is more than `gap` times the one
    below it and above it by more than `abs_gap` (so that 0.0005 against
    0.0027 is one cluster of near-zero ratios); None when they form one."""
    xs = sorted(max(x, floor) for x in xs if x is not None)
    if len(xs) < 2:
        return None
    i = max(range(1, len(xs)), key=lambda k: xs[k] / xs[k - 1])
    if xs[i] / xs[i - 1] < gap or xs[i] - xs[i - 1] <= abs_gap:
        return None
    return [rng(xs[:i]), rng(xs[i:])]


def ci95_geomean(ratios):
    """geometric mean of paired ratios and its 95 % t interval"""
    lg = [math.log(x) for x in ratios if x and x > 0]
    if not lg:
        return None
    gm = math.exp(statistics.mean(lg))
    if len(lg) < 2:
        return {'geomean': rnd(gm), 'ci95': None}
    se = statistics.stdev(lg) / math.sqrt(len(lg))
    t = _T95.get(len(lg) - 1, 2.05 if len(lg) < 31 else 1.96)
    return {'geomean': rnd(gm), 'ci95': [rnd(gm * math.exp(-t * se)), rnd(gm * math.exp(t * se))]}


def paired(a, b):
    """paired ratios a[k] / b[k] over the keys both have (repetitions of one boot)"""
    return [a[k] / b[k] for k in sorted(a) if k in b and a[k] is not None and b[k]]


def ratio_summary(ratios, n=3):
    """a paired ratio: median, min-max, 95 % interval of the geometric mean, every value"""
    if not ratios:
        return None
    r = rng(ratios, n)
    c = ci95_geomean(ratios)
    r.update({'geomean': c['geomean'], 'ci95': c['ci95'], 'values': [rnd(x, n) for x in ratios]})
    return r


def fmt(r, modes_=None):
    """'median [min-max] (n)' or, when bimodal, each mode as 'median (n) | ...'"""
    if modes_:
        return ' / '.join('%s [%s-%s] (%d)' % (m['median'], m['min'], m['max'], m['n']) if m['n'] > 1 else
                          '%s (1)' % m['median'] for m in modes_) + ' **bimodal**'
    if not r:
        return '-'
    if r['n'] == 1:
        return '%s (1)' % r['median']
    return '%s [%s-%s] (%d)' % (r['median'], r['min'], r['max'], r['n'])
