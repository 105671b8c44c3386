#!/usr/bin/env bash
# Runs every test suite and prints one closing line: "N passed, N failed".
# SUITES (space-separated) picks a subset: layers unit bats asan fuzz geometry
# root vm vm-harness (default: all but vm-harness; VM_TESTS="tests/vm/a.bats
# ..." narrows the vm suite). layers is scripts/check-layers.py, the shape of
# src/ (make check-layers). asan runs the unit and bats suites again against
# the ASan+UBSan build (make asan); fuzz is a short libFuzzer pass (make
# fuzz-build; FUZZ_SECONDS each, default 5) plus the regression inputs.
# Every suite speaks TAP; a suite that cannot run is counted as a failure,
# so a run that executed nothing cannot look green.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
export LC_ALL=C STORPROV_TOP="$top"
suites=${SUITES:-layers unit bats asan fuzz geometry root vm}
results=build/results
mkdir -p "$results"
passed=0 failed=0 skipped=0

count() { # name tapfile [seconds]
	local p f s
	p=$(grep -cE '^ok ' "$2" | tr -d ' ')
	s=$(grep -cE '^ok .*# (skip|SKIP)' "$2" | tr -d ' ')
	f=$(grep -cE '^not ok ' "$2" | tr -d ' ')
	p=$((p - s))
	printf '%-28s %4d passed, %d failed, %d skipped%s\n' "$1" "$p" "$f" "$s" "${3:+ ($3 s)}"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

run_tap() { # name command...
	local name=$1 out="$results/${1//\//-}.tap" rc t0=$SECONDS
	shift
	echo "=== $name"
	"$@" >"$out" 2>&1
	rc=$?
	local took=$((SECONDS - t0))
	grep -vE '^(ok|not ok|1\.\.)' "$out" | sed 's/^/    /' | tail -n 60
	grep -E '^not ok' "$out" | sed 's/^/    FAILED: /'
	if [ "$rc" -ne 0 ] && ! grep -qE '^not ok' "$out"; then
		echo "not ok - $name exited $rc without a failing test" >>"$out"
	fi
	if ! grep -qE '^(ok|not ok) ' "$out"; then
		echo "not ok - $name ran no test" >>"$out"
	fi
	count "$name" "$out" "$took"
}

run_suite() { # suite
	local s=$1
	case $s in
	layers)
		# the objects of build/obj (make all) give the call graph
		run_tap "layers" python3 scripts/check-layers.py --objs build/obj --known scripts/check-layers.known
		;;
	unit)
		for t in build/tests/test_*; do
			[ -x "$t" ] || continue
			run_tap "unit/$(basename "$t")" env CMOCKA_MESSAGE_OUTPUT=TAP "$t"
		done
		;;
	bats)
		for t in tests/bats/*.bats; do
			run_tap "bats/$(basename "$t" .bats)" bats --tap "$t"
		done
		;;
	asan)
		# libparted's start-up is excused (tests/asan.supp says why); any
		# other report, leaks included, aborts the process and fails the test.
		export ASAN_OPTIONS="suppressions=$top/tests/asan.supp:abort_on_error=1:detect_leaks=1"
		export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
		if [ ! -x build/asan/storprov ]; then
			echo "not ok - asan build missing (make asan)" >"$results/asan.tap"
			count asan "$results/asan.tap"
		fi
		for t in build/asan/tests/test_*; do
			[ -x "$t" ] || continue
			run_tap "asan/unit/$(basename "$t")" env CMOCKA_MESSAGE_OUTPUT=TAP "$t"
		done
		for t in tests/bats/*.bats; do
			run_tap "asan/bats/$(basename "$t" .bats)" env STORPROV_BIN="$top/build/asan/storprov" bats --tap "$t"
		done
		unset ASAN_OPTIONS UBSAN_OPTIONS
		;;
	fuzz)
		run_tap "fuzz" env FUZZ_SECONDS="${FUZZ_SECONDS:-5}" tests/fuzz.sh
		;;
	geometry)
		# 1000 random layouts against tests/geometry/model.py, a new seed
		# each run (printed; GEOMETRY_SEED=N replays one).
		gseed=${GEOMETRY_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
		echo "geometry sweep seed $gseed"
		run_tap "geometry" python3 tests/geometry/sweep.py --count 1000 --seed "$gseed" --tap
		;;
	root)
		for t in tests/root/*.bats; do
			[ -e "$t" ] || continue
			run_tap "root/$(basename "$t" .bats)" bats --tap "$t"
		done
		;;
	vm)
		# the scenarios (NN-*.bats); the harness's own tests are vm-harness
		for t in ${VM_TESTS:-tests/vm/[0-9]*.bats}; do
			[ -e "$t" ] || continue
			run_tap "vm/$(basename "$t" .bats)" bats --tap "$t"
		done
		;;
	vm-harness)
		# smoke.bats and dracut-smoke.bats test the harness itself (5 boots),
		# which every scenario also exercises: make check-vm runs them, make
		# check does not
		for t in tests/vm/smoke.bats tests/vm/dracut-smoke.bats; do
			run_tap "vm/$(basename "$t" .bats)" bats --tap "$t"
		done
		;;
	*) echo "unknown suite $s" >&2; exit 2 ;;
	esac
}

# The VM suite runs in a lane of its own beside the others (CHECK_LANES=1
# runs everything in one line): a TCG guest keeps about one host core busy
# and the host suites about one, so on 2 cores the two lanes take about as
# long as the VM suite alone. The lane's output is printed when it ends.
host_suites= vm_lane=
for s in $suites; do
	case $s in
	vm | vm-harness) vm_lane="$vm_lane $s" ;;
	*) host_suites="$host_suites $s" ;;
	esac
done
if [ -n "$vm_lane" ] && [ -n "$host_suites" ] && [ "${CHECK_LANES:-2}" -ge 2 ]; then
	rm -f "$results/lane-vm.counts"
	(
		passed=0 failed=0 skipped=0
		for s in $vm_lane; do
			run_suite "$s"
		done
		echo "$passed $failed $skipped" >"$results/lane-vm.counts"
	) >"$results/lane-vm.log" 2>&1 &
	vm_pid=$!
	echo "=== vm suite started in its own lane (pid $vm_pid; printed when it ends)"
else
	host_suites=$suites vm_lane=
fi
for s in $host_suites; do
	run_suite "$s"
done
if [ -n "$vm_lane" ]; then
	wait "$vm_pid"
	echo "=== vm lane (ran beside the suites above; ended at $SECONDS s)"
	cat "$results/lane-vm.log"
	if read -r p f k <"$results/lane-vm.counts" 2>/dev/null; then
		passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + k))
	else
		echo "not ok - the vm lane ended without its counts" >"$results/lane-vm.tap"
		count "vm lane" "$results/lane-vm.tap"
	fi
fi
echo
echo "wall time: $SECONDS s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
