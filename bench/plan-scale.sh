#!/bin/bash
# bench/plan-scale.sh - benchmark 5: `storprov plan` cost against inventory size.
#
# Usage: bench/plan-scale.sh OUTFILE [N ...]      (default N: 12 120 1200 12000)
#
# For each N, tests/fixtures/make-sysroot.sh builds a synthetic sysroot of one
# OS disk plus N FC RAID5 LUNs (the many-luns fixture's disk, N times), and a
# profile selects all N LUNs (<hwraid> 5 x 128K, one XFS each: the planner's
# per-disk work is done N times, nothing is skipped). Measured, per run of
# `storprov plan` (bench/rusage.py: wait4()'s rusage, so kernel time counts):
#   wall, user, sys  PLAN_REPS runs at each N (default 5; PLAN_REPS_LARGE at
#                    N >= 12000, default the same), median and min-max
#   max RSS          the largest of those runs
#   instructions     valgrind --tool=callgrind total Ir of one run (user space
#                    only; deterministic) up to BENCH_CALLGRIND_MAX disks
#                    (default 12000: all; 0 skips it)
# Host load (/proc/loadavg) is read before the first and after the last run.
# Prints KEY=VALUE lines to OUTFILE: PLAN_N<n>_{IR,RSS_KB,WALL_MS,USER_MS,SYS_MS,REPS,RC}
# (WALL_MS, USER_MS, SYS_MS: medians), writes every run to
# $BENCH_RAW/plan-scale.json (default build/bench/raw) and the table to
# $BENCH_OUT/plan-scale.md (default bench/results).
# PLAN_PREPARE_ONLY=1 builds the sysroots and profiles and stops. SP=BINARY
# measures another build, PLAN_NAME=NAME names its outputs NAME.json, NAME.md.
# Sysroots are cached in build/bench/sysroot-N (rebuilt when this script changes).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: plan-scale.sh OUTFILE [N ...]}
shift
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(12 120 1200 12000)
cg_max=${BENCH_CALLGRIND_MAX:-12000}
work=$top/build/bench
mkdir -p "$work"

direct_max=${BENCH_SYSROOT_DIRECT_MAX:-12}

# write_spec N: the make-sysroot.sh spec of one OS disk and N LUNs
write_spec() {
	local n=$1 i
	echo "#: plan-scale: one OS disk and $n synthetic FC RAID5 LUNs (bench/plan-scale.sh)"
	echo "host mem_kb=1073741824 cpus=16"
	echo 'disk name=sda size=480103981056 model="INTEL SSDSC2KB480G8" serial=OSDISK0 wwn=0x55cd2e414f9b30d2 path=pci-0000:00:1f.2-ata-1 rotational=0'
	echo 'defaults size=15032385536 vendor=DGC model="RAID 5" rev=0532 rotational=1 io_min=512 io_opt=0 max_hw_kb=32767 max_kb=1280 qdepth=64 tags=2048 nr_requests=256 sched="none [mq-deadline] kyber bfq"'
	for ((i = 0; i < n; i++)); do
		# block major 259 (blkext) and up, 16 minors a disk
		printf 'disk name=sdx%d major=%d minor=%d wwn=0x%s path=pci-0000:05:00.0-fc-0x5006016041e0a1b2-lun-%d\n' \
			"$i" $((259 + i / 4096)) $(((i % 4096) * 16)) "$(wwn_hex "$i")" "$i"
	done
}
wwn_hex() { printf '60060160%08x%016x' "$1" "$1"; }

# clone_sysroot N DIR: the same tree as make-sysroot.sh on write_spec N
clone_sysroot() {
	local n=$1 root=$2 tmpl=$work/sysroot-template i maj min hex seq
	rm -rf "$tmpl"
	write_spec 12 >"$tmpl.spec"
	"$top/tests/fixtures/make-sysroot.sh" "$tmpl.spec" "$tmpl" >/dev/null
	cp -a "$tmpl" "$root"
	local udev0 uev0 hex0 f rel
	udev0=$(<"$tmpl/run/udev/data/b259:0")
	uev0=$(<"$tmpl/sys/block/sdx0/uevent")
	hex0=$(wwn_hex 0)
	# the template disk's files and directories, read once; every copy is
	# written with shell builtins (a fork per disk costs minutes at 12000)
	local -a rels=() dirs=()
	local -A content=()
	while IFS= read -r -d '' f; do
		rel=${f#"$tmpl/sys/block/sdx0/"}
		case $rel in dev | uevent | device/wwid) continue ;; esac
		rels+=("$rel")
		content[$rel]=$(<"$f")
	done < <(find "$tmpl/sys/block/sdx0" -type f -print0)
	while IFS= read -r -d '' f; do
		dirs+=("${f#"$tmpl/sys/block/sdx0"}")
	done < <(find "$tmpl/sys/block/sdx0" -type d -print0)
	for ((i = 12; i < n; i++)); do
		for f in "${dirs[@]}"; do printf '%s\0' "$root/sys/block/sdx$i$f"; done
	done | xargs -0 mkdir -p
	for ((i = 12; i < n; i++)); do
		maj=$((259 + i / 4096)) min=$(((i % 4096) * 16)) hex=$(wwn_hex "$i") seq=$((i + 2))
		for rel in "${rels[@]}"; do
			printf '%s\n' "${content[$rel]}" >"$root/sys/block/sdx$i/$rel"
		done
		printf '%s:%s\n' "$maj" "$min" >"$root/sys/block/sdx$i/dev"
		printf 'naa.%s\n' "$hex" >"$root/sys/block/sdx$i/device/wwid"
		local u=${uev0//DEVNAME=sdx0/DEVNAME=sdx$i}
		u=${u//MINOR=0/MINOR=$min}
		u=${u//MAJOR=259/MAJOR=$maj}
		printf '%s\n' "${u//DISKSEQ=2/DISKSEQ=$seq}" >"$root/sys/block/sdx$i/uevent"
		u=${udev0//$hex0/$hex}
		u=${u//0x${hex0:0:16}/0x${hex:0:16}}
		u=${u//0x${hex0:16}/0x${hex:16}}
		u=${u//lun-0/lun-$i}
		u=${u//by-diskseq\/2/by-diskseq/$seq}
		u=${u//$'\nW:5\n'/$'\nW:'$((seq + 3))$'\n'}
		u=${u//$'\nI:'$((3580000 + 2 * 1117))$'\n'/$'\nI:'$((3580000 + seq * 1117))$'\n'}
		printf '%s\n' "$u" >"$root/run/udev/data/b$maj:$min"
	done
	# README's device table is not read by storprov; keep the template's
}
sp=${SP:-$top/build/storprov}
[ -x "$sp" ] || { echo "plan-scale: build storprov first (make)" >&2; exit 1; }
# PLAN_NAME names the outputs (default plan-scale): another binary (SP=) beside the current one
name=${PLAN_NAME:-plan-scale}
# the trees depend on the functions that write them and on make-sysroot.sh only
key=$({ declare -f write_spec clone_sysroot wwn_hex; cat "$top/tests/fixtures/make-sysroot.sh"; } | sha256sum | cut -c1-12)
: >"$out"
reps_small=${PLAN_REPS:-5}
reps_large=${PLAN_REPS_LARGE:-$reps_small}
raw_dir=${BENCH_RAW:-$top/build/bench/raw}
md_dir=${BENCH_OUT:-$top/bench/results}
runs=$work/$name-runs.jsonl
[ "${PLAN_PREPARE_ONLY:-0}" = 1 ] || : >"$runs"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

for n in "${sizes[@]}"; do
	root=$work/sysroot-$n
	prof=$work/plan-scale-$n.xml
	if [ "$(cat "$root.key" 2>/dev/null)" != "$key" ]; then
		rm -rf "$root"
		if [ "$n" -le "$direct_max" ]; then
			spec=$work/sysroot-$n.spec
			write_spec "$n" >"$spec"
			"$top/tests/fixtures/make-sysroot.sh" "$spec" "$root" >/dev/null
		else
			# make-sysroot.sh takes ~20 ms a disk (bash); a 12-LUN tree from
			# it is the template, the other LUNs are copies of sdx0 with the
			# four per-disk files rewritten exactly as make-sysroot.sh writes
			# them (checked for N = 120: diff -r against make-sysroot.sh's own tree
			# differs only in README)
			clone_sysroot "$n" "$root"
		fi
		echo "$key" >"$root.key"
	fi
	# <disks> groups of at most 1000 LUNs by name (sdx1???: sdx1000-1999;
	# the schema limits count to 1024), each with its own XFS, for every N
	# alike (a group per decimal prefix: 3 groups at 12, 30 at 12000)
	python3 - "$n" >"$prof" <<'PY'
import sys
n = int(sys.argv[1])
print('<?xml version="1.0" encoding="UTF-8"?>')
print('<profile version="1" name="plan-scale-%d">' % n)
def letters(i):
    # group ids without digits: a disk's id is its group's plus a number
    s = ''
    while True:
        s = chr(ord('a') + i % 26) + s
        i = i // 26 - 1
        if i < 0:
            return s
def group(gid, match, count):
    print('  <disks id="%s" count="%d">' % (gid, count))
    print('    %s' % match)
    print('    <hwraid level="5" members="5" chunk="128K"/>')
    print('    <tune scheduler="mq-deadline" read-ahead-kb="2048"/>')
    print('  </disks>')
    print('  <xfs on="%s" label="%s%%n" mountpoint="/data/%s/%%n" mount-options="noatime"/>' % (gid, gid, gid))
if True:
    g = 0
    for length in range(1, len(str(n - 1)) + 1):
        lo, hi = (0 if length == 1 else 10 ** (length - 1)), min(10 ** length, n)
        x = lo
        while x < hi:
            k = 0
            while k < 3 and x % 10 ** (k + 1) == 0 and x + 10 ** (k + 1) <= hi and length - (k + 1) >= (0 if x == 0 else 1):
                k += 1
            glob = str(x)[:length - k] + '?' * k if x else '?'
            group('g' + letters(g), '<match name="sdx%s" min-size="10G" max-size="20G"/>' % glob, 10 ** k if x else min(hi, 10))
            g += 1
            x += 10 ** k if x else min(hi, 10)
print('</profile>')
PY
	[ "${PLAN_PREPARE_ONLY:-0}" = 1 ] && continue
	rc=0
	"$sp" plan --profile "$prof" --sysroot "$root" >"$work/plan-$n.out" 2>&1 || rc=$?
	reps=$reps_small
	[ "$n" -lt 12000 ] || reps=$reps_large
	"$top/bench/rusage.py" "$reps" -- "$sp" plan --profile "$prof" --sysroot "$root" |
		sed "s/^{/{\"luns\": $n, /" >"$work/$name-rusage-$n.jsonl"
	cat "$work/$name-rusage-$n.jsonl" >>"$runs"
	ir=''
	if [ "$n" -le "$cg_max" ]; then
		valgrind --tool=callgrind --callgrind-out-file="$work/callgrind-$n.out" \
			"$sp" plan --profile "$prof" --sysroot "$root" >/dev/null 2>"$work/callgrind-$n.log" || true
		ir=$(sed -n 's/^summary: *//p' "$work/callgrind-$n.out" | head -1)
	fi
	# max RSS from GNU time (rusage.py's child is forked from python: its ru_maxrss counts python)
	/usr/bin/time -f %M -o "$work/time-$n" "$sp" plan --profile "$prof" --sysroot "$root" >/dev/null 2>&1 || true
	python3 - "$work/$name-rusage-$n.jsonl" "$n" "$rc" "${ir:-skipped}" "$(tail -1 "$work/time-$n")" <<'PY' | tee -a "$out"
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
n, rc, ir = sys.argv[2], sys.argv[3], sys.argv[4]
med = lambda k: round(statistics.median(r[k] for r in rows) * 1000)
print('PLAN_N%s_RC=%s' % (n, rc))
print('PLAN_N%s_IR=%s' % (n, ir))
print('PLAN_N%s_RSS_KB=%s' % (n, sys.argv[5]))
print('PLAN_N%s_WALL_MS=%d' % (n, med('wall_s')))
print('PLAN_N%s_USER_MS=%d' % (n, med('user_s')))
print('PLAN_N%s_SYS_MS=%d' % (n, med('sys_s')))
print('PLAN_N%s_REPS=%d' % (n, len(rows)))
PY
done
[ "${PLAN_PREPARE_ONLY:-0}" = 1 ] && exit 0
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
mkdir -p "$raw_dir" "$md_dir"
commit="$(git -C "$top" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(git -C "$top" diff --quiet HEAD -- src 2>/dev/null || echo -dirty)"
[ -z "${SP:-}" ] || commit="$SP ($("$sp" --version 2>/dev/null | head -1))"
python3 - "$runs" "$raw_dir/$name.json" "$md_dir/$name.md" "$load_start" "$load_end" "$commit" "$name" <<'PY'
import json, statistics, sys, time
runs, js, md, ls, le, commit, name = sys.argv[1:8]
reps = [json.loads(l) for l in open(runs)]
doc = {'commit': commit, 'time': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()),
       'load_start': ls, 'load_end': le, 'reps': reps}
json.dump(doc, open(js, 'w'), indent=1)
def rng(v):
    return '%.3f (%.3f-%.3f)' % (statistics.median(v), min(v), max(v))
lines = ['# Plan scale: `storprov plan` wall and CPU time against LUNs', '',
         'Commit %s, %s; host load (1/5/15 min) %s at start, %s at end. Produced by '
         '`bench/plan-scale.sh` (see bench/README.md, "Plan scale"); every run is in %s.json.' %
         (commit, doc['time'], ls, le, name), '',
         '| LUNs | runs | wall s, median (min-max) | user s | sys s | sys share of CPU |',
         '|---:|---:|---|---|---|---:|']
for n in sorted({r['luns'] for r in reps}):
    rs = [r for r in reps if r['luns'] == n]
    u = statistics.median(r['user_s'] for r in rs)
    sy = statistics.median(r['sys_s'] for r in rs)
    lines.append('| %d | %d | %s | %s | %s | %.0f %% |' % (
        n, len(rs), rng([r['wall_s'] for r in rs]), rng([r['user_s'] for r in rs]),
        rng([r['sys_s'] for r in rs]), 100 * sy / (u + sy) if u + sy else 0))
open(md, 'w').write('\n'.join(lines) + '\n')
print('plan-scale: %s, %s' % (js, md), file=sys.stderr)
PY
