#!/usr/bin/env bash
# Runs the libFuzzer targets (build/fuzz/fuzz_*) as a TAP suite:
#  - one test per target replays fuzz/regressions/TARGET/* (every finding
#    kept as a regression case) and the seed corpus fuzz/corpus/TARGET;
#  - one test per target fuzzes for FUZZ_SECONDS (default 5) from a scratch
#    copy of the seed corpus; a crash or a broken invariant fails it and the
#    input is kept in build/fuzz/findings/.
# The executions and time of each run are printed and appended to
# build/results/fuzz-stats.txt.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
secs=${FUZZ_SECONDS:-5}
out=build/fuzz
mkdir -p "$out/findings" build/results
# libparted and libxml2 keep process-lifetime allocations; the fuzzers hold a
# plan and the fixture machines for their whole life: no leak checking here.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
targets=()
for t in "$out"/fuzz_*; do [ -x "$t" ] && targets+=("$t"); done
if [ ${#targets[@]} -eq 0 ]; then
	echo "1..1"
	echo "not ok 1 - no fuzz target built (make fuzz-build)"
	exit 1
fi
echo "1..$((2 * ${#targets[@]}))"
n=0
for t in "${targets[@]}"; do
	name=$(basename "$t")
	n=$((n + 1))
	inputs=()
	for f in fuzz/regressions/"$name"/* fuzz/corpus/"$name"/*; do [ -f "$f" ] && inputs+=("$f"); done
	if "$t" -runs=0 "${inputs[@]}" >"$out/$name.replay.log" 2>&1; then
		echo "ok $n - $name: ${#inputs[@]} regression and seed inputs replay cleanly"
	else
		echo "not ok $n - $name: a regression or seed input fails"
		tail -n 30 "$out/$name.replay.log" | sed 's/^/# /'
	fi
	n=$((n + 1))
	work="$out/corpus-$name"
	rm -rf "$work"
	mkdir -p "$work"
	cp fuzz/corpus/"$name"/* "$work"/ 2>/dev/null
	dict=()
	[ -f "fuzz/$name.dict" ] && dict=(-dict="fuzz/$name.dict")
	start=$(date +%s)
	"$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$out/findings/$name-" "${dict[@]}" "$work" >"$out/$name.log" 2>&1
	rc=$?
	end=$(date +%s)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$name.log" | tail -n 1)
	line="$name: ${execs:-?} executions in $((end - start)) s ($(date -u +%F)), corpus $(ls "$work" | wc -l)"
	echo "$line" >>build/results/fuzz-stats.txt
	if [ "$rc" -eq 0 ]; then
		echo "ok $n - $line"
	else
		echo "not ok $n - $line: finding in $out/findings (make it a regression case in fuzz/regressions/$name/)"
		grep -E 'ERROR|invariant|runtime error|SUMMARY' "$out/$name.log" | head -n 20 | sed 's/^/# /'
	fi
done
