#!/bin/bash
# Issues 18 and 21, on the host (root, loop devices): provisioning time of 8
# loop LUNs by storprov apply (--jobs 1, 2 and 8) against a serial shell
# script doing the same layout (sfdisk, then mkfs.xfs with storprov's own
# mkfs argv, udevadm settle after each) and against a parallel one (the same
# commands, one disk per job of `xargs -P 8`, one settle at the end; issue 43
# item 4): each repetition runs, for every jobs value, the three on the same
# freshly wiped disks, in an order that rotates with the repetition.
# storprov's "inspect" time is from its
# process start to the first step's start: the wrapper's wall time minus the
# report's elapsed_s (its run clock) plus the first step's start on that clock
# (the "step-start" event where apply has it, else the first "step" event's
# time minus that step's elapsed_s). And the inspection's reads: the read
# calls and bytes on the disk of `storprov apply --dry-run` (everything it
# starts included: strace -f -P DISK) beside `wipefs -n` on the same disk,
# blank and with a foreign XFS behind a table erased by wipefs -a.
#   REPS  paired repetitions (default 7)     SP  the storprov binary
#   JOBS  apply --jobs values (default "1 2 8")
#   OUT   where the results go (default bench/results)
#   BENCH_RAW  raw results (default build/bench/raw)
#   READS_ONLY=1  the reads alone (no provisioning pairs): writes
#                 OUT/loop-prov-reads.json and .md instead
# Writes OUT/loop-prov.json, OUT/loop-prov.md, BENCH_RAW/prov-loop.json (every
# pair, with the commit, time and host load at start and end) and OUT/prov.md
# (bench/prov_report.py, with the VM's pairs when BENCH_RAW/prov-vm.json is
# there). Not part of make check.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
SP=${SP:-$top/build/storprov}
REPS=${REPS:-7}
JOBS=${JOBS:-1 2 8}
OUT=${OUT:-$top/bench/results}
RAW=${BENCH_RAW:-$top/build/bench/raw}
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
[ "$(id -u)" -eq 0 ] || { echo "needs root (loop devices)" >&2; exit 2; }
for t in strace sfdisk mkfs.xfs wipefs jq python3 losetup; do command -v "$t" >/dev/null || { echo "needs $t" >&2; exit 2; }; done
work=$(mktemp -d /var/tmp/loop-prov.XXXXXX)
loops=()
cleanup() {
	for m in $(awk -v d="$work" 'index($2, d) == 1 { print $2 }' /proc/mounts); do umount -l "$m" || true; done
	for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT
[ -z "${KEEP:-}" ] || trap - EXIT
now_ms() { echo $(($(date +%s%N) / 1000000)); }

for i in $(seq 0 7); do
	truncate -s 2G "$work/lun$i.img"
	loops+=("$(losetup -f --show -P "$work/lun$i.img")")
done
names=()
for l in "${loops[@]}"; do names+=("$(basename "$l")"); done
"$top/bench/guest/prov-profile.sh" bench-loop-prov name "${names[@]}" >"$work/p.xml"
lock=$work/lock

reset_disks() {
	for l in "${loops[@]}"; do
		wipefs -a -q "$l"p1 2>/dev/null || true
		wipefs -a -q "$l"
		blockdev --rereadpt "$l" >/dev/null 2>&1 || partx -d "$l" 2>/dev/null || true
	done
	udevadm settle 2>/dev/null || true
}

n0=$(basename "${loops[0]}")
: >"$work/pairs"
if [ -z "${READS_ONLY:-}" ]; then
# the plan's partition (start, size in sectors) and mkfs argv, from one storprov run's report
reset_disks
"$SP" apply --profile "$work/p.xml" --root "$work/r0" --yes --seed 1 --lock-file "$lock" --report "$work/r0.json" >"$work/r0.log" 2>&1 || { cat "$work/r0.log" >&2; exit 1; }
jq -r '[.objects[].steps[]? | select(.argv | length > 0) | select(.argv[0] | startswith("mkfs.xfs "))] | unique_by(.step) | .[] | .argv[0]' \
	"$work/r0.json" >"$work/mkfs.argv"
[ "$(wc -l <"$work/mkfs.argv")" -eq 8 ] || { echo "expected 8 mkfs.xfs steps in the report" >&2; exit 1; }
start=$(cat "/sys/class/block/${n0}p1/start")
size=$(cat "/sys/class/block/${n0}p1/size")

# sp_run REP JOBS: "wall_ms inspect_ms" of one storprov apply
sp_run() {
	local t0 t1 insp
	t0=$(date +%s%N)
	"$SP" apply --profile "$work/p.xml" --root "$work/r$1" --yes --seed 1 --jobs "$2" --lock-file "$lock" \
		--report "$work/rep.json" >"$work/sp.log" 2>&1 || { cat "$work/sp.log" >&2; exit 1; }
	t1=$(date +%s%N)
	udevadm settle 2>/dev/null || true
	insp=$(jq --argjson wall "$(((t1 - t0) / 1000))" -f "$top/bench/guest/first-step-start.jq" "$work/rep.json")
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000)) "$insp"
}

# one.sh DEV K [settle]: what both scripts do to one disk: the GPT with the
# plan's partition (sfdisk), the kernel told (partx), then mkfs.xfs with
# storprov's own argv for disk K; "settle" waits for udev after each of them
cat >"$work/one.sh" <<ONE
#!/bin/bash
set -e
l=\$1 k=\$2 settle=\${3:-}
echo "label: gpt
start=$start, size=$size, type=0FC63DAF-8483-4772-8E3D-3D69D8477DE4" | sfdisk --quiet "\$l" >/dev/null 2>&1
partx -u "\$l" 2>/dev/null || partx -a "\$l" 2>/dev/null || true
[ -z "\$settle" ] || udevadm settle 2>/dev/null || true
for _ in \$(seq 250); do [ -b "\${l}p1" ] && break; sleep 0.02; done
argv=\$(sed -n "\$((k + 1))p" "$work/mkfs.argv")
eval "\$argv" >"$work/mkfs-\$k.log" 2>&1 </dev/null || { cat "$work/mkfs-\$k.log" >&2; echo "mkfs failed: \$argv" >&2; exit 1; }
[ -z "\$settle" ] || udevadm settle 2>/dev/null || true
ONE

# parallel_run: one.sh for every disk at once (xargs -P), then one settle
parallel_run() {
	local t0 t1 k
	t0=$(now_ms)
	for k in "${!loops[@]}"; do echo "${loops[$k]} $k"; done |
		xargs -P "${#loops[@]}" -L 1 bash "$work/one.sh" || { echo "parallel script failed" >&2; exit 1; }
	udevadm settle 2>/dev/null || true
	t1=$(now_ms)
	echo $((t1 - t0))
}

# serial_run: one.sh for one disk after another, a settle after each command
serial_run() {
	local t0 t1 k
	t0=$(now_ms)
	for k in "${!loops[@]}"; do
		bash "$work/one.sh" "${loops[$k]}" "$k" settle || { echo "serial script failed" >&2; exit 1; }
	done
	t1=$(now_ms)
	echo $((t1 - t0))
}

# one line a repetition and jobs value: REP JOBS STORPROV_MS SERIAL_MS INSPECT_S PARALLEL_MS
for rep in $(seq 1 "$REPS"); do
	for j in $JOBS; do
		a= b= c= insp=
		order=("sp serial par" "serial par sp" "par sp serial")
		for t in ${order[$((rep % 3))]}; do
			reset_disks
			case $t in
			sp) read -r a insp < <(sp_run "$rep" "$j") ;;
			serial) b=$(serial_run) ;;
			par) c=$(parallel_run) ;;
			esac
		done
		[ -n "$a" ] && [ -n "$b" ] && [ -n "$c" ] || { echo "loop-prov: a run failed (rep $rep, --jobs $j)" >&2; exit 1; }
		echo "$rep $j $a $b $insp $c" | tee -a "$work/pairs" >&2
	done
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
mkdir -p "$RAW"
python3 - "$work/pairs" "$RAW/prov-loop.json" "$load_start" "$load_end" \
	"$(git -C "$top" rev-parse --short=12 HEAD)$(git -C "$top" diff --quiet HEAD -- src || echo -dirty)" <<'PY'
import json, sys, time
src, js, ls, le, commit = sys.argv[1:6]
reps = []
for line in open(src):
    rep, jobs, a, b, insp, c = line.split()
    reps.append({'rep': int(rep), 'jobs': int(jobs), 'sp_s': int(a) / 1000, 'script_s': int(b) / 1000,
                 'ratio': round(int(a) / int(b), 4), 'inspect_s': float(insp),
                 'parallel_s': int(c) / 1000, 'ratio_parallel': round(int(a) / int(c), 4)})
json.dump({'where': '8 x 2 GiB loop LUNs on the host (bench/loop-prov.sh)', 'commit': commit,
           'time': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()), 'load_start': ls, 'load_end': le,
           'reps': reps}, open(js, 'w'), indent=1)
PY
python3 "$top/bench/prov_report.py" "$RAW" "$OUT/prov.md"
fi

# reads of the inspection (dry run) beside wipefs -n, on lun0: blank, then a
# foreign XFS at 48 MiB whose table was erased by wipefs -a
count_reads() { # TRACE → "calls bytes"
	awk '/(^|[ ])(read|pread64|readv|preadv)\(/ { n++; if (match($0, /= [0-9]+$/)) b += substr($0, RSTART + 2) } END { print n + 0, b + 0 }' "$1"
}
reads_for() { # STATE
	local l=${loops[0]} sp wf
	strace -f -P "$l" -e trace=read,pread64,readv,preadv -o "$work/sp.trace" \
		"$SP" apply --profile "$work/p1.xml" --root "$work/rd" --dry-run --seed 1 --lock-file "$lock" >/dev/null 2>&1 || true
	strace -f -P "$l" -e trace=read,pread64,readv,preadv -o "$work/wf.trace" wipefs -n "$l" >/dev/null 2>&1 || true
	sp=$(count_reads "$work/sp.trace")
	wf=$(count_reads "$work/wf.trace")
	echo "$1 $sp $wf"
}
{
	echo '<?xml version="1.0"?>'
	echo "<profile version=\"1\" name=\"bench-scan\"><disks id=\"lun\" count=\"1\"><match name=\"$n0\"/>"
	echo '<hwraid level="5" members="4" chunk="64K"/><gpt><partition id="data" size="100%"/></gpt></disks>'
	echo '<xfs on="lun.data" label="lun" mountpoint="/data" mount-options="noatime"/></profile>'
} >"$work/p1.xml"
: >"$work/reads"
for rep in $(seq 1 "$REPS"); do
	reset_disks
	reads_for blank >>"$work/reads"
done
reset_disks
l=${loops[0]}
sgdisk -n 1:98304:+400M "$l" >/dev/null
partx -u "$l" 2>/dev/null || true
udevadm settle 2>/dev/null || true
for _ in $(seq 30); do [ -b "${l}p1" ] && break; sleep 0.1; done
mkfs.xfs -q -f "${l}p1"
wipefs -a -q "$l"
partx -d "$l" 2>/dev/null || true
for rep in $(seq 1 "$REPS"); do
	reads_for foreign-xfs48 >>"$work/reads"
done

mkdir -p "$OUT"
python3 - "$work/pairs" "$work/reads" "$OUT" "$REPS" "$("$SP" --version 2>/dev/null | head -n 1)" "$load_start" \
	"$(cut -d' ' -f1-3 /proc/loadavg)" "${READS_ONLY:+-reads}" <<'PY'
import json, statistics, sys, datetime
pairs = [tuple(map(int, l.split()[:4])) for l in open(sys.argv[1]) if l.strip()]
par = [int(l.split()[5]) for l in open(sys.argv[1]) if l.strip()]
reads = [l.split() for l in open(sys.argv[2]) if l.strip()]
out, reps, ver, load0, load1, sfx = sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6], sys.argv[7], sys.argv[8]
def stat(v): return {"median": statistics.median(v), "min": min(v), "max": max(v), "n": len(v)}
res = {"date": datetime.datetime.utcnow().strftime("%Y-%m-%d"), "storprov": ver, "load_start": load0, "load_end": load1,
       "prov": {"pairs": [{"rep": r, "jobs": j, "storprov_ms": a, "serial_ms": b, "ratio": a / b, "parallel_ms": c,
                           "ratio_parallel": a / c} for (r, j, a, b), c in zip(pairs, par)]},
       "reads": {}}
for state in dict.fromkeys(r[0] for r in reads):
    rows = [list(map(int, r[1:])) for r in reads if r[0] == state]
    res["reads"][state] = {"storprov_calls": stat([r[0] for r in rows]), "storprov_bytes": stat([r[1] for r in rows]),
                           "wipefs_calls": stat([r[2] for r in rows]), "wipefs_bytes": stat([r[3] for r in rows]),
                           "calls_ratio": stat([r[0] / r[2] for r in rows]), "bytes_ratio": stat([r[1] / r[3] for r in rows])}
json.dump(res, open(out + "/loop-prov%s.json" % sfx, "w"), indent=2)
def f(s, fmt="{:.2f}"): return (fmt + " ({} .. {})").format(s["median"], fmt.format(s["min"]), fmt.format(s["max"]))
with open(out + "/loop-prov%s.md" % sfx, "w") as m:
    m.write("# Issue 18: %sthe inspection's reads\n\n" % ("" if sfx else "provisioning 8 loop LUNs, and "))
    m.write("`%sbench/loop-prov.sh` (root, host), %s, %s; %d %srepetitions, median (min .. max); load average %s at start, %s at end.\n\n"
            % ("READS_ONLY=1 " if sfx else "", res["date"], ver, reps, "" if sfx else "paired ", load0, load1))
    if pairs:
        m.write("| 8 x 2 GiB loop LUNs | storprov apply, ms | serial sfdisk + mkfs.xfs, ms | ratio | parallel (xargs -P 8), ms | ratio |\n"
                "|---|---|---|---|---|---|\n")
    for j in sorted({p[1] for p in pairs}):
        pj = [(p, c) for p, c in zip(pairs, par) if p[1] == j]
        m.write("| --jobs %d | %s | %s | %s | %s | %s |\n" % (j, f(stat([p[2] for p, _ in pj]), "{:.0f}"), f(stat([p[3] for p, _ in pj]), "{:.0f}"),
                f(stat([p[2] / p[3] for p, _ in pj])), f(stat([c for _, c in pj]), "{:.0f}"), f(stat([p[2] / c for p, c in pj]))))
    m.write("\n")
    m.write("Reads on the disk (strace -f -P DISK: read, pread64, readv, preadv) of `storprov apply --dry-run`, everything it starts included, beside `wipefs -n` on the same disk:\n\n")
    m.write("| disk | storprov calls | wipefs -n calls | ratio | storprov bytes | wipefs -n bytes | ratio |\n|---|---|---|---|---|---|---|\n")
    for st, r in res["reads"].items():
        m.write("| %s | %s | %s | %s | %s | %s | %s |\n" % (st, f(r["storprov_calls"], "{:.0f}"), f(r["wipefs_calls"], "{:.0f}"), f(r["calls_ratio"]),
                f(r["storprov_bytes"], "{:.0f}"), f(r["wipefs_bytes"], "{:.0f}"), f(r["bytes_ratio"])))
    if pairs:
        m.write("\nPer repetition (jobs: storprov/serial/parallel ms): " +
                ", ".join("%d: %d/%d/%d" % (j, a, b, c) for (_, j, a, b), c in zip(pairs, par)) + "\n")
print(open(out + "/loop-prov%s.md" % sfx).read())
PY
