#!/usr/bin/env bash
# Benchmark (not a test; not in make check): a fleet of 1,000 synthetic nodes
# across a dozen hardware types, each asked `storprov select` over one
# profile directory and then `storprov plan --format json` of the profile it
# got, as a kickstart %pre serving a mixed fleet would. Prints the per-node
# figures (CPU, user + sys from wait4's rusage, and wall time of select and of
# plan: median, min-max), per hardware type, and checks that the results are
# deterministic (a node built again gives the same profile and the same plan
# bytes). Writes every node's figures to $BENCH_RAW/fleet.json (default
# build/bench/raw) and the tables to $BENCH_OUT/fleet.md (default bench/results).
#
#   [NODES=1000] [SP=build/storprov] [INSTR=1] bench/fleet.sh
#
# Hardware types: the eight captured fixture nodes that have a profile
# (tests/fixtures/sysroot, tests/fixtures/fleet) and four FC LUN nodes of 24,
# 48, 96 and 192 hardware RAID5 LUNs (bench/lib.sh). Node I is type I mod 12,
# with its own WWNs and serials (the udev database rewritten with I), and
# every 25th node has lost one disk: select must refuse it (exit 2, near
# misses) and plan is not run.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
SP=${SP:-$top/build/storprov}
NODES=${NODES:-1000}
work=${BENCH_DIR:-/tmp/storprov-bench-fleet}
mkdir -p "$work/templates" "$work/profiles"

types=(grid-3ware md-raid6-lvm md-raid6-8 megaraid-ioopt hwraid6-md0-lvm hwraid0-lvm-xfs many-luns md-raid1-syncwrite
       fc24 fc48 fc96 fc192)
for t in "${types[@]}"; do
	[ -d "$work/templates/$t" ] && continue
	case $t in
	fc*)
		fast_lun_tree "$work/templates/$t" "${t#fc}" HITACHI OPEN-V 2199023255552
		lun_profile "${t#fc}" >"$work/profiles/$t.xml"
		;;
	*) cp -a "$top/tests/fixtures/sysroot/$t" "$work/templates/$t" ;;
	esac
done
for p in "$top"/tests/fixtures/fleet/*.xml; do
	cp -L "$p" "$work/profiles/"
done

# make_node I DIR: node I as a hard-linked copy of its template, with its own identities
make_node() {
	local i=$1 dir=$2 t=${types[$(($1 % ${#types[@]}))]}
	rm -rf "$dir"
	cp -al "$work/templates/$t" "$dir"
	# new WWNs and serials, distinct per node and per disk: the last 8 characters of
	# every id of the K-th udev record become the node number and K (4 hex digits each;
	# the ids of one record keep their common tail, as a WWN and the serial made of it
	# do). perl -i writes new files: the template's hard links are untouched.
	perl -i -pe 'BEGIN { $node = shift @ARGV; $k = -1 } $k++ if $. == 1;
		s/^(E:ID_(?:WWN|SERIAL|SERIAL_SHORT|SCSI_SERIAL)=.*).{8}$/$1 . sprintf("%04x%04x", $node, $k)/e;
		close ARGV if eof' "$i" "$dir"/run/udev/data/b*
	if [ $((i % 25)) -eq 24 ]; then
		# one disk gone: the last one (never the OS disk sda)
		local last
		last=$(ls "$dir/sys/block" | sort -V | tail -1)
		rm -rf "${dir:?}/sys/block/$last"
	fi
}

out=$work/results.txt
: >"$out"
node=$work/node
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
t_start=$(date +%s)
# per node: select and plan timed by bench/rusage.py (wait4's rusage: user and
# kernel CPU in microseconds; wall around fork and wait)
# (one rusage.py for the whole loop, as a coprocess: its start-up is not paid per run)
coproc RUS { exec "$top/bench/rusage.py" --serve; }
rus() { # STDOUT_FILE CMD...: sets rus_out to "wall user sys rc" (no subshell: the coprocess's fds stay)
	local IFS=$'\t'
	echo "$*" >&"${RUS[1]}"
	read -r rus_out <&"${RUS[0]}"
}
for ((i = 0; i < NODES; i++)); do
	make_node "$i" "$node"
	t=${types[$((i % ${#types[@]}))]}
	rus "$work/sel" "$SP" select --profiles "$work/profiles" --sysroot "$node"
	read -r r1 u1 s1 rc1 <<<"$rus_out"
	sel=$(cat "$work/sel")
	if [ -n "$sel" ]; then
		rus "$work/plan.json" "$SP" plan --profile "$sel" --sysroot "$node" --format json
		read -r r2 u2 s2 rc2 <<<"$rus_out"
		h=$(sha256sum <"$work/plan.json" | cut -c1-16)
		[ "$rc2" = 0 ] || h=plan-failed-$rc2
	else
		r2=0 u2=0 s2=0
		h=none
	fi
	echo "$i $t $(basename "${sel:-none}") $h $r1 $u1 $s1 $r2 $u2 $s2 $rc1" >>"$out"
done
t_loop=$(($(date +%s) - t_start))

# determinism: every 10th node again
bad=0
for ((i = 0; i < NODES; i += 10)); do
	make_node "$i" "$node"
	sel=$("$SP" select --profiles "$work/profiles" --sysroot "$node" 2>/dev/null || true)
	h=none
	[ -n "$sel" ] && h=$("$SP" plan --profile "$sel" --sysroot "$node" --format json 2>/dev/null | sha256sum | cut -c1-16)
	want=$(awk -v i="$i" '$1 == i {print $3 " " $4}' "$out")
	[ "$want" = "$(basename "${sel:-none}") $h" ] || { echo "node $i: not deterministic ($want vs $(basename "${sel:-none}") $h)"; bad=$((bad + 1)); }
done
rm -rf "$node"

load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# percentiles of one column expression, in ms (awk fields, hence single quotes)
# shellcheck disable=SC2016
pstat() { # EXPR: prints median min max p95
	awk "{ print ($1) * 1000 }" "$out" | sort -n | awk '{ v[NR] = $1 }
		END { printf "median %.2f  min %.2f  max %.2f  p95 %.2f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[1], v[NR], v[int(NR * 0.95)] }'
}
summary=$(awk -v bad="$bad" '
{
	n++
	if ($3 == "none") none++
	if ($3 != "none" && $3 != ($2 ".xml") && !($2 == "grid-3ware" && $3 == "grid-3ware-raid5.xml")) wrong++
	if ($3 == "none" && ($1 % 25) != 24) wrong++
	if ($3 != "none" && ($1 % 25) == 24) wrong++
	if ($4 ~ /^plan-failed/) planfail++
	t[$2]++
}
END {
	printf "%d nodes, %d hardware types; %d selected a profile, %d refused (a disk missing), %d wrong, %d plans failed, %d not deterministic\n", \
		n, length(t), n - none, none, wrong + 0, planfail + 0, bad
}' "$out")
echo "$summary"
echo "select alone, per node, CPU (user+sys) ms:   $(pstat '$6 + $7')"
echo "select alone, per node, wall ms:             $(pstat '$5')"
echo "per node, select + plan, CPU (user+sys) ms:  $(pstat '$6 + $7 + $9 + $10')"
echo "per node, select + plan, wall ms:            $(pstat '$5 + $8')"
echo "plan alone (selected nodes), CPU ms:         $(awk '$3 != "none"' "$out" >"$out.sel"; out=$out.sel pstat '$9 + $10')"
echo "(each figure includes fork, exec and dynamic linking; the loop over $NODES nodes took ${t_loop} s; load $load_start at start, $load_end at end)"
printf '%-20s %6s %12s %12s %12s %8s\n' type nodes "select CPU ms" "select wall" "plan CPU ms" disks
for ty in "${types[@]}"; do
	awk -v ty="$ty" -v d="$(ls "$work/templates/$ty/sys/block" | wc -l)" '$2 == ty { n++; c += $6 + $7; w += $5; p += $9 + $10 }
		END { if (n) printf "%-20s %6d %12.2f %12.2f %12.2f %8d\n", ty, n, c / n * 1000, w / n * 1000, p / n * 1000, d }' "$out"
done

# every node's figures, with the commit, time and load: $BENCH_RAW/fleet.json and bench/results/fleet.md
raw_dir=${BENCH_RAW:-$top/build/bench/raw}
md_dir=${BENCH_OUT:-$top/bench/results}
mkdir -p "$raw_dir" "$md_dir"
python3 - "$out" "$raw_dir/fleet.json" "$md_dir/fleet.md" "$load_start" "$load_end" "$summary" "$t_loop" \
	"$(git -C "$top" rev-parse --short=12 HEAD)$(git -C "$top" diff --quiet HEAD -- src || echo -dirty)" <<'PY'
import json, statistics, sys, time
src, js, md, ls, le, summary, loop_s, commit = sys.argv[1:9]
reps = []
for line in open(src):
    f = line.split()
    reps.append({'node': int(f[0]), 'type': f[1], 'selected': f[2], 'plan_sha': f[3],
                 'select_wall_s': float(f[4]), 'select_user_s': float(f[5]), 'select_sys_s': float(f[6]),
                 'select_rc': int(f[10]),
                 'plan_wall_s': float(f[7]), 'plan_user_s': float(f[8]), 'plan_sys_s': float(f[9])})
doc = {'commit': commit, 'time': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()), 'load_start': ls,
       'load_end': le, 'summary': summary, 'loop_s': int(loop_s), 'reps': reps}
json.dump(doc, open(js, 'w'), indent=1)
def rng(v):
    v = [x * 1000 for x in v]
    return '%.1f (%.1f-%.1f)' % (statistics.median(v), min(v), max(v))
sel = [r for r in reps if r['selected'] != 'none']
lines = ['# Fleet select: `storprov select` per node over %d nodes' % len(reps), '',
         'Commit %s, %s; host load (1/5/15 min) %s at start, %s at end; the loop took %s s. '
         'Produced by `NODES=%d bench/fleet.sh` (see bench/README.md, "Fleet select"); every node is in fleet.json.' %
         (commit, doc['time'], ls, le, loop_s, len(reps)), '', summary, '',
         '| per node, ms | median (min-max) |', '|---|---|',
         '| select CPU (user+sys) | %s |' % rng([r['select_user_s'] + r['select_sys_s'] for r in reps]),
         '| select user | %s |' % rng([r['select_user_s'] for r in reps]),
         '| select sys | %s |' % rng([r['select_sys_s'] for r in reps]),
         '| select wall | %s |' % rng([r['select_wall_s'] for r in reps]),
         '| plan CPU (user+sys), %d selected nodes | %s |' % (len(sel), rng([r['plan_user_s'] + r['plan_sys_s'] for r in sel])),
         '| plan wall, selected nodes | %s |' % rng([r['plan_wall_s'] for r in sel]), '',
         '| hardware type | nodes | select CPU ms, median (min-max) | select wall ms |', '|---|---:|---|---|']
for t in sorted({r['type'] for r in reps}):
    rs = [r for r in reps if r['type'] == t]
    lines.append('| %s | %d | %s | %s |' % (t, len(rs), rng([r['select_user_s'] + r['select_sys_s'] for r in rs]),
                                          rng([r['select_wall_s'] for r in rs])))
open(md, 'w').write('\n'.join(lines) + '\n')
PY

# Instructions per node, load-independent: select + plan of each hardware
# type's template under callgrind (or perf), including process start-up.
if [ "${INSTR:-1}" = 1 ]; then
	echo
	echo "instructions per node (select over ${#types[@]} profiles + plan --format json), by type:"
	printf '%-20s %14s %14s %14s\n' type select plan total
	sum=0
	for ty in "${types[@]}"; do
		n=$work/templates/$ty
		sel=$("$SP" select --profiles "$work/profiles" --sysroot "$n")
		a=$(valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$SP" select --profiles "$work/profiles" \
			--sysroot "$n" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
		b=$(valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$SP" plan --profile "$sel" --sysroot "$n" \
			--format json 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
		printf '%-20s %14s %14s %14s\n' "$ty" "$a" "$b" $((a + b))
		sum=$((sum + a + b))
	done
	base=$(valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$SP" --version 2>&1 >/dev/null |
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
	echo "mean $((sum / ${#types[@]})) instructions per node; a process that only starts (storprov --version) costs $base"
	rm -f "$work/cg"
fi
