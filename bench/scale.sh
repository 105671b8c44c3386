#!/usr/bin/env bash
# Benchmark (not a test; not in make check): instructions of `storprov
# validate` and `storprov plan --format json` at 12, 120, 1,200 and 12,000
# hardware RAID LUNs, and a least-squares fit a + b·N + c·N² showing how much
# of the cost at the largest N a quadratic term would explain.
#
#   bench/scale.sh [SP=build/storprov] [SIZES="12 120 1200 12000"]
#
# Counts user-space instructions with `perf stat -e instructions:u` when perf
# may read counters, else with valgrind --tool=callgrind (slower, exact).
# Prints a table; peak RSS from /usr/bin/time where present.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
SP=${SP:-$top/build/storprov}
SIZES=${SIZES:-12 120 1200 12000}
work=${BENCH_DIR:-/tmp/storprov-bench-scale}
mkdir -p "$work"

counter=callgrind
if perf stat -x, -e instructions:u true 2>&1 >/dev/null | grep -q '^[0-9]'; then
	counter=perf
fi

# instructions CMD...: user-space instructions of one run
instructions() {
	if [ "$counter" = perf ]; then
		perf stat -x, -e instructions:u "$@" 2>&1 >/dev/null | awk -F, '/instructions/ {print $1; exit}'
	else
		local out=$work/cg.out
		valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>"$work/cg.log"
		awk '/^summary:/ {print $2}' "$out"
	fi
}

rss_kb() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1
	else
		echo -
	fi
}

printf '%-7s %-9s %15s %15s %10s %10s %12s\n' disks counter "validate instr" "plan-json instr" "plan ms" "RSS kB" "JSON bytes"
results=()
for n in $SIZES; do
	tree=$work/tree-$n
	[ -f "$tree/.done" ] || { fast_lun_tree "$tree" "$n" HITACHI OPEN-V 2199023255552; touch "$tree/.done"; }
	lun_profile "$n" >"$work/luns-$n.xml"
	"$SP" validate --profile "$work/luns-$n.xml" --sysroot "$tree" >/dev/null
	iv=$(instructions "$SP" validate --profile "$work/luns-$n.xml" --sysroot "$tree")
	ip=$(instructions "$SP" plan --profile "$work/luns-$n.xml" --sysroot "$tree" --format json)
	t0=$(date +%s%N)
	"$SP" plan --profile "$work/luns-$n.xml" --sysroot "$tree" --format json >"$work/plan-$n.json"
	t1=$(date +%s%N)
	rss=$(rss_kb "$SP" plan --profile "$work/luns-$n.xml" --sysroot "$tree" --format json)
	printf '%-7s %-9s %15s %15s %10s %10s %12s\n' "$n" "$counter" "$iv" "$ip" $(((t1 - t0) / 1000000)) "$rss" \
		"$(stat -c %s "$work/plan-$n.json")"
	results+=("$n $iv $ip")
done

# least squares for y = a + b n + c n², per column; the N² share at the largest N
printf '%s\n' "${results[@]}" | awk '
function fit(col, name,   i, S0, S1, S2, S3, S4, T0, T1, T2, D, a, b, c, nmax, share) {
	S0 = S1 = S2 = S3 = S4 = T0 = T1 = T2 = 0
	for (i = 1; i <= k; i++) {
		x = n[i] / 1000; y = v[i, col]   # thousands of disks: keeps the sums well conditioned
		S0++; S1 += x; S2 += x^2; S3 += x^3; S4 += x^4
		T0 += y; T1 += x * y; T2 += x^2 * y
	}
	# Cramer on the 3x3 normal equations
	D = S0*(S2*S4 - S3*S3) - S1*(S1*S4 - S3*S2) + S2*(S1*S3 - S2*S2)
	a = (T0*(S2*S4 - S3*S3) - S1*(T1*S4 - S3*T2) + S2*(T1*S3 - S2*T2)) / D
	b = (S0*(T1*S4 - T2*S3) - T0*(S1*S4 - S3*S2) + S2*(S1*T2 - T1*S2)) / D
	c = (S0*(S2*T2 - T1*S3) - S1*(S1*T2 - T1*S2) + T0*(S1*S3 - S2*S2)) / D
	nmax = n[k]
	share = c * (nmax / 1000)^2 / v[k, col] * 100
	printf "%-10s fit: %.4g + %.4g·N + %.4g·N² (N in disks); N² term at N=%d: %.2f %% of the total; %.0f instructions per disk\n", \
		name, a, b / 1000, c / 1e6, nmax, share, v[k, col] / nmax
}
{ k++; n[k] = $1; v[k, 1] = $2; v[k, 2] = $3 }
END { if (k >= 3) { fit(1, "validate"); fit(2, "plan-json") } }'
