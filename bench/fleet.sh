#!/usr/bin/env bash
# Benchmark (not a test; not in make check): a fleet of 1,000 synthetic nodes
# across a dozen hardware types, each asked `storprov select` over one
# profile directory and then `storprov plan --format json` of the profile it
# got, as a kickstart %pre serving a mixed fleet would. Prints the per-node
# figures (CPU and wall time of select + plan), per hardware type, and checks
# that the results are deterministic (a node built again gives the same
# profile and the same plan bytes).
#
#   bench/fleet.sh [NODES=1000] [SP=build/storprov]
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
	local i=$1 dir=$2 t=${types[$(($1 % ${#types[@]}))]} f
	rm -rf "$dir"
	cp -al "$work/templates/$t" "$dir"
	# new WWNs and serials: the last hex digits of every id become the node number
	for f in "$dir"/run/udev/data/b*; do
		sed "s/^\(E:ID_\(WWN\|SERIAL\|SERIAL_SHORT\|SCSI_SERIAL\)=.*\)....$/\1$(printf %04x "$i")/" "$f" >"$f.new"
		mv "$f.new" "$f"
	done
	if [ $((i % 25)) -eq 24 ]; then
		# one disk gone: the last one (never the OS disk sda)
		local last
		last=$(ls "$dir/sys/block" | sort -V | tail -1)
		rm -rf "${dir:?}/sys/block/$last"
	fi
}

TIMEFORMAT='%3R %3U %3S'
out=$work/results.txt
: >"$out"
node=$work/node
for ((i = 0; i < NODES; i++)); do
	make_node "$i" "$node"
	t=${types[$((i % ${#types[@]}))]}
	{ time "$SP" select --profiles "$work/profiles" --sysroot "$node" >"$work/sel" 2>"$work/sel.err"; } 2>"$work/t1" || true
	sel=$(cat "$work/sel")
	if [ -n "$sel" ]; then
		{ time "$SP" plan --profile "$sel" --sysroot "$node" --format json >"$work/plan.json" 2>/dev/null; } 2>"$work/t2"
		h=$(sha256sum <"$work/plan.json" | cut -c1-16)
	else
		echo "0 0 0" >"$work/t2"
		h=none
	fi
	read -r r1 u1 s1 <"$work/t1"
	read -r r2 u2 s2 <"$work/t2"
	echo "$i $t $(basename "${sel:-none}") $h $r1 $u1 $s1 $r2 $u2 $s2" >>"$out"
done

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

# percentiles of one column expression, in ms (awk fields, hence single quotes)
# shellcheck disable=SC2016
pstat() { # EXPR: prints mean p50 p95 max
	awk "{ print ($1) * 1000 }" "$out" | sort -n | awk '{ v[NR] = $1; s += $1 }
		END { printf "mean %.2f  p50 %.2f  p95 %.2f  max %.2f", s / NR, v[int(NR / 2) + 1], v[int(NR * 0.95)], v[NR] }'
}
awk -v bad="$bad" '
{
	n++
	if ($3 == "none") none++
	if ($3 != "none" && $3 != ($2 ".xml") && !($2 == "grid-3ware" && $3 == "grid-3ware-raid5.xml")) wrong++
	if ($3 == "none" && ($1 % 25) != 24) wrong++
	if ($3 != "none" && ($1 % 25) == 24) wrong++
	t[$2]++
}
END {
	printf "%d nodes, %d hardware types; %d selected a profile, %d refused (a disk missing), %d wrong, %d not deterministic\n", \
		n, length(t), n - none, none, wrong + 0, bad
}' "$out"
echo "per node, select + plan, CPU (user+sys) ms: $(pstat '$6 + $7 + $9 + $10')"
echo "per node, select + plan, wall ms:           $(pstat '$5 + $8')"
echo "select alone, CPU ms:                       $(pstat '$6 + $7')"
echo "plan alone (selected nodes), CPU ms:        $(awk '$3 != "none"' "$out" >"$out.sel"; out=$out.sel pstat '$9 + $10')"
echo "(each figure includes fork, exec and dynamic linking of two processes)"
printf '%-20s %6s %12s %12s %8s\n' type nodes "CPU ms/node" "wall ms/node" disks
for ty in "${types[@]}"; do
	awk -v ty="$ty" -v d="$(ls "$work/templates/$ty/sys/block" | wc -l)" '$2 == ty { n++; c += $6 + $7 + $9 + $10; w += $5 + $8 }
		END { if (n) printf "%-20s %6d %12.2f %12.2f %8d\n", ty, n, c / n * 1000, w / n * 1000, d }' "$out"
done

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
