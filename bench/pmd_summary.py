#!/usr/bin/env python3
"""Summarise bench/parity-md.sh outputs (the guest's "M variant=.. shape=..
ratio=.." lines): per output file, its layout (PMD_UPPER, the LUNs) and per
variant the ratio of every shape over the passes, then the range of the
O_DIRECT shapes (d*) and of the buffered ones (b*).

Usage: bench/pmd_summary.py OUT...   (e.g. bench/results/raw/parity-md/parity-md-2026*.out)
The figures of the lun-buffered-rmw warning come from this output.
"""
import re
import sys


def kv_lines(path):
    meta, rows = {}, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^(PMD_[A-Z_]+)=(.*)$", line)
            if m and not m.group(1).startswith("PMD_STATE"):
                meta.setdefault(m.group(1), m.group(2))
            elif line.startswith("M "):
                row = dict(kv.split("=", 1) for kv in line[2:].split() if "=" in kv)
                rows.append(row)
    return meta, rows


def fmt_range(vals):
    if not vals:
        return "-"
    return "%.4f-%.4f (n=%d)" % (min(vals), max(vals), len(vals))


def summarise(path):
    meta, rows = kv_lines(path)
    if not rows:
        raise SystemExit("%s: no M lines (a boot that did not finish?)" % path)
    print("== %s" % path)
    print("   upper %s; LUNs %s" % (meta.get("PMD_UPPER", "md5"), meta.get("PMD_LUN", "?")))
    variants = []
    for r in rows:
        if r["variant"] not in variants:
            variants.append(r["variant"])
    for v in variants:
        shapes = {}
        for r in rows:
            if r["variant"] == v:
                shapes.setdefault(r["shape"], []).append(float(r["ratio"]))
        print("   %s:" % v)
        for s in sorted(shapes):
            print("     %-5s %s" % (s, " ".join("%.4f" % x for x in shapes[s])))
        d = [x for s, xs in shapes.items() if s.startswith("d") for x in xs]
        b = [x for s, xs in shapes.items() if s.startswith("b") for x in xs]
        print("     O_DIRECT %s; buffered %s" % (fmt_range(d), fmt_range(b)))


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    for p in argv[1:]:
        summarise(p)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
