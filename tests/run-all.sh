#!/usr/bin/env bash
# Runs every test suite and prints one closing line: "N passed, N failed".
# SUITES (space-separated) picks a subset: unit bats root vm (default: all).
# Every suite speaks TAP; a suite that cannot run is counted as a failure,
# so a run that executed nothing cannot look green.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
export LC_ALL=C STORPROV_TOP="$top"
suites=${SUITES:-unit bats root vm}
results=build/results
mkdir -p "$results"
passed=0 failed=0 skipped=0

count() { # name tapfile
	local p f s
	p=$(grep -cE '^ok ' "$2" | tr -d ' ')
	s=$(grep -cE '^ok .*# (skip|SKIP)' "$2" | tr -d ' ')
	f=$(grep -cE '^not ok ' "$2" | tr -d ' ')
	p=$((p - s))
	printf '%-28s %4d passed, %d failed, %d skipped\n' "$1" "$p" "$f" "$s"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

run_tap() { # name command...
	local name=$1 out="$results/${1//\//-}.tap" rc
	shift
	echo "=== $name"
	"$@" >"$out" 2>&1
	rc=$?
	grep -vE '^(ok|not ok|1\.\.)' "$out" | sed 's/^/    /' | tail -n 60
	grep -E '^not ok' "$out" | sed 's/^/    FAILED: /'
	if [ "$rc" -ne 0 ] && ! grep -qE '^not ok' "$out"; then
		echo "not ok - $name exited $rc without a failing test" >>"$out"
	fi
	if ! grep -qE '^(ok|not ok) ' "$out"; then
		echo "not ok - $name ran no test" >>"$out"
	fi
	count "$name" "$out"
}

for s in $suites; do
	case $s in
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
	root)
		for t in tests/root/*.bats; do
			[ -e "$t" ] || continue
			run_tap "root/$(basename "$t" .bats)" bats --tap "$t"
		done
		;;
	vm)
		for t in tests/vm/*.bats; do
			[ -e "$t" ] || continue
			run_tap "vm/$(basename "$t" .bats)" bats --tap "$t"
		done
		;;
	*) echo "unknown suite $s" >&2; exit 2 ;;
	esac
done
echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
