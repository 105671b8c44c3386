#!/usr/bin/env bash
# Runs every test suite and prints one closing line: "N passed, N failed".
# SUITES (space-separated) picks a subset: layers unit bats asan fuzz geometry
# root vm vm-harness (default: all but vm-harness; VM_TESTS="tests/vm/a.bats
# ..." narrows the vm suite). layers is scripts/check-layers.py, the shape of
# src/ (make check-layers). asan runs the unit suite again, and the bats
# files that run storprov (but those of asan_release, below), against the ASan+UBSan build (make asan; beside
# it, bats runs only the files asan does not run in full); fuzz is a short libFuzzer pass (make
# fuzz-build; FUZZ_SECONDS each, default 2: make fuzz runs longer) plus the regression inputs.
# Every suite speaks TAP; a suite that cannot run is counted as a failure,
# so a run that executed nothing cannot look green.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
export LC_ALL=C STORPROV_TOP="$top"
suites=${SUITES:-layers unit bats asan fuzz geometry root vm}
# make check's share of the sweeps that draw a new seed each run (about 75 s
# of TCG per RMW layout); set either to run more
export RMW_COUNT=${RMW_COUNT:-1}
results=build/results
mkdir -p "$results"
rm -f "$results"/*.tap # the slowest-tests list reads this run's only
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

# The bats files run once in make check. runs_storprov FILE: FILE runs
# storprov ($SP, or STORPROV_BIN for a script). asan_full FILE: the asan
# suite runs all of FILE against the ASan+UBSan build, and none of its tests
# behaves otherwise there (one that tests [ -z "${ASAN_OPTIONS:-}" ] or
# [ -z "${STORPROV_BIN:-}" ] skips under ASan, or leaves something out):
# beside the asan suite, the bats suite runs the others only. The release
# build is the one the root and VM suites run.
# asan_release: files whose runs of storprov reach no line of src/ that the
# unit tests or another bats file do not reach too (scripts/asan-cover.sh
# counts them per file: fleet, lun-requests and udev-keys 0 lines of their
# own at f3329fe, where every other file had 2 to 236), and packaging, which
# runs the binary its RPM built. They run once, on the release build.
asan_release="fleet lun-requests udev-keys packaging"
runs_storprov() { grep -qE '\$\{?SP\b|STORPROV_BIN' "$1"; }
asan_full() {
	case " $asan_release " in *" $(basename "$1" .bats) "*) return 1 ;; esac
	runs_storprov "$1" && ! grep -qE '\[ -z "\$\{(ASAN_OPTIONS|STORPROV_BIN):-\}" \]' "$1"
}

# lock_free FILE: FILE never runs `storprov apply`, the one verb that takes
# the run lock (/run/storprov.lock) and locks disks, so that it can run
# beside any other suite. With two lanes such files go into the queue (below)
# instead of running in their suite's place.
lock_free() { ! grep -qw apply "$1"; }
queued_file() { [ "${CHECK_LANES:-2}" -ge 2 ] && [ -n "$vm_suites" ] && lock_free "$1"; }

# run_bats_file bats|asan FILE: one bats file against the release or the
# ASan+UBSan build. libparted's start-up is excused (tests/asan.supp says
# why); any other report, leaks included, aborts the process and fails the test.
asan_opts=(ASAN_OPTIONS="suppressions=$top/tests/asan.supp:abort_on_error=1:detect_leaks=1"
	UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
run_bats_file() {
	case $1 in
	bats) run_tap "bats/$(basename "$2" .bats)" bats --tap --timing "$2" ;;
	asan) run_tap "asan/bats/$(basename "$2" .bats)" env "${asan_opts[@]}" STORPROV_BIN="$top/build/asan/storprov" \
		bats --tap --timing "$2" ;;
	esac
}
# queued_files: the queue's "bats FILE" and "asan FILE" lines, the files
# lock_free lets the lanes share, in the suite that runs each, the longest
# first (measured in make check; the others in name order after them)
queued_files() {
	local t n order="packaging fleet bad-sysroots udev-keys golden controller-e2e" all
	all=$(for t in tests/bats/*.bats; do lock_free "$t" && echo "$t"; done)
	{
		for n in $order; do grep -Fx "tests/bats/$n.bats" <<<"$all" || true; done
		for t in $all; do case " $order " in *" $(basename "$t" .bats) "*) ;; *) echo "$t" ;; esac; done
	} | while read -r t; do
		if [[ " $suites " == *" asan "* ]] && asan_full "$t"; then
			echo "asan $t"
		elif [[ " $suites " == *" bats "* ]]; then
			echo "bats $t"
		fi
	done
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
		# beside the asan suite, only what it does not run in full (asan_full)
		for t in tests/bats/*.bats; do
			case " $suites " in *" asan "*) ! asan_full "$t" || continue ;; esac
			queued_file "$t" || run_bats_file bats "$t"
		done
		;;
	asan)
		export "${asan_opts[@]}"
		if [ ! -x build/asan/storprov ]; then
			echo "not ok - asan build missing (make asan)" >"$results/asan.tap"
			count asan "$results/asan.tap"
		fi
		for t in build/asan/tests/test_*; do
			[ -x "$t" ] || continue
			run_tap "asan/unit/$(basename "$t")" env CMOCKA_MESSAGE_OUTPUT=TAP "$t"
		done
		# every file that runs storprov: a file that does not would run the
		# same code twice (the bats suite has it)
		for t in tests/bats/*.bats; do
			asan_full "$t" || continue
			queued_file "$t" || run_bats_file asan "$t"
		done
		unset ASAN_OPTIONS UBSAN_OPTIONS
		;;
	fuzz)
		run_tap "fuzz" env FUZZ_SECONDS="${FUZZ_SECONDS:-2}" tests/fuzz.sh
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
			run_tap "root/$(basename "$t" .bats)" bats --tap --timing "$t"
		done
		;;
	vm | vm-harness)
		# in a queue that both lanes take from (below)
		while read -r t; do
			run_tap "vm/$(basename "$t" .bats)" bats --tap --timing "$t"
		done < <(vm_files "$s")
		;;
	*) echo "unknown suite $s" >&2; exit 2 ;;
	esac
}

# vm_files SUITE: the VM test files of a suite, the longest first (measured
# in make check; 46-rmw-sweep, whose layouts are drawn anew each run and take
# 45 to 200 s, goes early; files not named here come last). vm: the scenarios
# (NN-*.bats; VM_TESTS="a.bats ..." narrows them); vm-harness: smoke.bats and
# dracut-smoke.bats, the harness's own tests (5 boots), which every scenario
# also exercises: make check-vm runs them, make check does not.
vm_files() {
	if [ "$1" = vm-harness ]; then
		printf '%s\n' tests/vm/smoke.bats tests/vm/dracut-smoke.bats
		return
	fi
	local order="70-el-dracut-systemd 50-reimage-preserve 46-rmw-sweep 70-kill-resume 47-partial-stripe
		56-power-loss 65-replace-member 45-raid6-luns-lv 55-foreign-md 80-md-partitions 60-reboot
		30-md-raid1-syncwrite 40-hwraid0-lvm-xfs 20-md-raid6-lvm 70-verify-drift 80-multipath 10-grid-3ware-raid5" all n t
	# shellcheck disable=SC2086
	all=$(printf '%s\n' ${VM_TESTS:-tests/vm/[0-9]*.bats})
	for n in $order; do
		grep -Fx "tests/vm/$n.bats" <<<"$all" || true
	done
	for t in $all; do
		[ -e "$t" ] || continue
		case " $(echo $order) " in *" $(basename "$t" .bats) "*) ;; *) echo "$t" ;; esac
	done
}

# The VM tests run in two lanes beside the host suites (CHECK_LANES=1 runs
# everything in one line): a TCG guest keeps about one host core busy and the
# host suites about one. Lane 2 takes VM files from a queue from the start;
# lane 1 runs the host suites, then takes from the same queue, so that the
# two cores stay busy to the end. What takes no lock and no loop device goes
# at the queue's end, after the VM files, for whichever lane is free first:
# the bats files that never run apply (lock_free; in the bats or asan suite,
# as above), then geometry and fuzz. Lane 2's output is printed when it ends.
queued_suites="geometry fuzz"
vm_queue=$results/vm-queue
vm_pop() { # the next VM file of the queue, or nothing
	(
		flock 9
		head -n 1 "$vm_queue"
		sed -i 1d "$vm_queue"
	) 9>"$vm_queue.lock"
}
vm_worker() {
	local t
	while t=$(vm_pop) && [ -n "$t" ]; do
		case $t in
		suite\ *) run_suite "${t#suite }" ;;
		bats\ * | asan\ *) run_bats_file "${t%% *}" "${t#* }" ;;
		*) run_tap "vm/$(basename "$t" .bats)" bats --tap --timing "$t" ;;
		esac
	done
}
host_suites= vm_suites=
for s in $suites; do
	case $s in
	vm | vm-harness) vm_suites="$vm_suites $s" ;;
	*) host_suites="$host_suites $s" ;;
	esac
done
if [ -n "$vm_suites" ] && [ "${CHECK_LANES:-2}" -ge 2 ]; then
	lane1=
	{
		for s in $vm_suites; do vm_files "$s"; done
		queued_files
		for s in $host_suites; do
			case " $queued_suites " in *" $s "*) echo "suite $s" ;; *) lane1="$lane1 $s" ;; esac
		done
	} >"$vm_queue"
	host_suites=$lane1
	# the VM kernel once, before two lanes could fetch it at the same time
	tests/vm/fetch-kernel.sh "${VM_BUILD_DIR:-$top/build/vm}/kernel" >"$results/fetch-kernel.log" 2>&1 ||
		echo "=== fetch-kernel.sh failed (build/results/fetch-kernel.log); the VM tests will say why"
	rm -f "$results/lane-vm.counts"
	(
		passed=0 failed=0 skipped=0
		vm_worker
		echo "$passed $failed $skipped" >"$results/lane-vm.counts"
	) >"$results/lane-vm.log" 2>&1 &
	vm_pid=$!
	echo "=== VM lane 2 started (pid $vm_pid; printed when it ends); queued: $(grep -c . "$vm_queue") VM files and suites"
	for s in $host_suites; do
		run_suite "$s"
	done
	echo "=== lane 1: the host suites ended at $SECONDS s; VM files and suites from the queue"
	vm_worker
	wait "$vm_pid"
	echo "=== VM lane 2 (ran beside the above; ended at $SECONDS s)"
	cat "$results/lane-vm.log"
	if read -r p f k <"$results/lane-vm.counts" 2>/dev/null; then
		passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + k))
	else
		echo "not ok - VM lane 2 ended without its counts" >"$results/lane-vm.tap"
		count "VM lane 2" "$results/lane-vm.tap"
	fi
else
	for s in $suites; do
		run_suite "$s"
	done
fi
# the slowest tests of this run (bats --timing), where time goes next
echo
echo "slowest tests:"
grep -HE '^(not )?ok [0-9]+ .* in [0-9]+ms' "$results"/*.tap 2>/dev/null |
	sed -E 's#^.*/([^/]+)\.tap:(not )?ok [0-9]+ (.*) in ([0-9]+)ms.*#\4 \1: \3#' |
	sort -rn | head -n 15 | awk '{ printf "  %6.1f s  %s\n", $1 / 1000, substr($0, index($0, " ") + 1) }' | cut -c1-130
echo
echo "wall time: $SECONDS s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
