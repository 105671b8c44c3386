#!/bin/bash
# bench/inspect-ab.sh - the inspection of 8 LUNs in the TCG guest, two builds
# in one boot (bench/guest/inspect-ab.sh): A = BEFORE_REV (default HEAD~1),
# built from `git archive` in build/bench/before-REV, B = build/storprov.
# Runs alternate A/B per round; disks fresh and reused. Prints the raw
# INSPAB lines (kept in $OUT_RAW) and per state and build the median
# [min-max] of the wall time, the CPU time and the inspection's time.
#
# Usage: bench/inspect-ab.sh
# Environment: BEFORE_REV, REPS (default 5), JOBS (default 8),
#   OUT_RAW (default build/bench/inspect-ab.out)
set -euo pipefail
. "$(dirname -- "${BASH_SOURCE[0]}")/../tests/vm/lib.bash"
top=$VM_TOP
# the figures in bench/ were measured with multi-threaded TCG (tests/vm/run-vm.sh --tcg-thread)
export VM_TCG_THREAD=${VM_TCG_THREAD:-multi}
# and QEMU's own translation cache size (run-vm.sh --tb-size 0)
export VM_TB_SIZE=${VM_TB_SIZE:-0}
rev=$(git -C "$top" rev-parse --short=12 "${BEFORE_REV:-HEAD~1}")
bdir=$top/build/bench/before-$rev
raw=${OUT_RAW:-$top/build/bench/inspect-ab.out}
if [ ! -x "$bdir/build/storprov" ]; then
	rm -rf "$bdir"
	mkdir -p "$bdir"
	git -C "$top" archive "$rev" | tar -x -C "$bdir"
	make -C "$bdir" -j2 all >"$bdir.log" 2>&1 || { echo "inspect-ab: build of $rev failed ($bdir.log)" >&2; exit 1; }
fi
vm_prepare --udev --add "$top/build/storprov:/usr/sbin/storprov" --add "$bdir/build/storprov:/usr/sbin/storprov-a" \
	--add "$(command -v jq):/usr/bin/jq"
d=$top/build/bench/disks-inspect-ab
rm -rf "$d"
mkdir -p "$d" "$(dirname "$raw")"
echo "A = $rev, B = $(git -C "$top" rev-parse --short=12 HEAD)$(git -C "$top" diff --quiet HEAD -- src || echo -dirty) (build/storprov); load $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2046
vm_run "$top/bench/guest/inspect-ab.sh" --mem 2048 --timeout 1800 --log "$raw.console" \
	--add "$top/bench/guest:/usr/lib/bench" --env BENCH_REPS="${REPS:-5}" --env BENCH_JOBS="${JOBS:-8}" \
	$(vm_disks "$d" lun 8 1G) >"$raw" 2>&1 || { tail -20 "$raw" >&2; rm -rf "$d"; exit 1; }
rm -rf "$d"
grep '^INSPAB' "$raw"
python3 - "$raw" <<'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    if not line.startswith("INSPAB "):
        continue
    kv = dict(re.findall(r"(\w+)=(\S+)", line))
    rows.setdefault((kv["state"], kv["bin"]), []).append(kv)
def cell(v):
    v = [float(x) for x in v]
    return "%g [%g-%g] (%d)" % (statistics.median(v), min(v), max(v), len(v))
print("| disks | build | wall ms | CPU ms | inspection ms | disks' sum ms |")
print("|---|---|---|---|---|---|")
for (st, b), r in sorted(rows.items()):
    print("| %s | %s | %s | %s | %s | %s |" % (st, b, *(cell([x[k] for x in r]) for k in ("wall_ms", "cpu_ms", "insp_ms", "disks_ms"))))
PY
