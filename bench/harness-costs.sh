#!/bin/bash
# bench/harness-costs.sh - what the test harness pays on this machine, the
# figures behind tests/vm/README.md's list of costs (issue 42 item 6).
#
#   bench/harness-costs.sh fork [N]       N (400) fork+exec of /bin/true from
#                                         dash, then bash; then two bash loops
#                                         side by side (ms each)
#   bench/harness-costs.sh boot [REPS]    REPS (3) pairs of busybox boots with no
#                                         disk: VM_BOOT_ARGS empty, then
#                                         run-vm.sh's default
#                                         (cryptomgr.notests ipv6.disable=1);
#                                         the guest uptime at which the script
#                                         started
#   bench/harness-costs.sh mkinitrd [REPS]
#                                         REPS (3) cache hits of the base image
#   bench/harness-costs.sh asan [N]       N (10) runs each of `storprov plan` of
#                                         md-raid6-lvm on its fixture, release
#                                         and ASan+UBSan builds (as the asan
#                                         suite runs it), and of the ASan
#                                         build's --version with and without
#                                         LeakSanitizer (ms a run)
#
# Each line: what, then the figures in ms (or s of guest uptime). Run it on
# an idle machine: every figure depends on what else runs.
set -euo pipefail
top=$(cd "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)

ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }

# shellcheck disable=SC2016 # expanded by the shell that runs it
loop_src='i=0; while [ $i -lt N ]; do /bin/true; i=$((i + 1)); done'

fork_cost() {
	local n=${1:-400} t sh code a b
	code=${loop_src/N/$n}
	for sh in dash bash; do
		command -v "$sh" >/dev/null || { echo "fork $sh: not installed"; continue; }
		t=$(date +%s%N)
		"$sh" -c "$code"
		echo "fork+exec $n x from $sh: $(ms_since "$t") ms"
	done
	a=$(mktemp) b=$(mktemp)
	(t=$(date +%s%N); bash -c "$code"; ms_since "$t" >"$a") &
	(t=$(date +%s%N); bash -c "$code"; ms_since "$t" >"$b") &
	wait
	echo "fork+exec $n x from bash, two loops side by side: $(cat "$a") ms and $(cat "$b") ms"
	rm -f "$a" "$b"
}

boot_cost() {
	local reps=${1:-3} r a script up
	# shellcheck source=tests/vm/lib.bash
	. "$top/tests/vm/lib.bash"
	vm_prepare
	script=$(mktemp)
	echo 'true' >"$script"
	for ((r = 1; r <= reps; r++)); do
		for a in none default; do
			if [ "$a" = none ]; then
				up=$(VM_BOOT_ARGS= "$top/tests/vm/run-vm.sh" --initrd "$VM_INITRD" --script "$script" 2>&1)
			else
				up=$(env -u VM_BOOT_ARGS "$top/tests/vm/run-vm.sh" --initrd "$VM_INITRD" --script "$script" 2>&1)
			fi
			up=$(sed -n 's/.*script started at guest uptime \([0-9.]*\)s.*/\1/p' <<<"$up")
			echo "boot $r, VM_BOOT_ARGS $a: script started at guest uptime ${up:-?} s"
		done
	done
	rm -f "$script"
}

mkinitrd_cost() {
	local reps=${1:-3} r t
	"$top/tests/vm/fetch-kernel.sh" "$top/build/vm/kernel" >/dev/null
	"$top/tests/vm/mkinitrd.sh" -q -k "$top/build/vm/kernel" -o "$top/build/vm/initrd-base.img" >/dev/null
	for ((r = 1; r <= reps; r++)); do
		t=$(date +%s%N)
		"$top/tests/vm/mkinitrd.sh" -q -k "$top/build/vm/kernel" -o "$top/build/vm/initrd-base.img" >/dev/null
		echo "mkinitrd.sh cache hit $r: $(ms_since "$t") ms"
	done
}

asan_cost() {
	local n=${1:-10} i t what
	local asan=(env ASAN_OPTIONS="suppressions=$top/tests/asan.supp:abort_on_error=1:detect_leaks=1")
	local plan=(plan --profile "$top/profiles/md-raid6-lvm.xml" --sysroot "$top/tests/fixtures/sysroot/md-raid6-lvm" --seed 1)
	[ -x "$top/build/asan/storprov" ] || { echo "asan: build/asan/storprov missing (make asan)"; return 1; }
	for what in release asan asan-version asan-version-noleaks; do
		t=$(date +%s%N)
		for ((i = 0; i < n; i++)); do
			case $what in
			release) "$top/build/storprov" "${plan[@]}" ;;
			asan) "${asan[@]}" "$top/build/asan/storprov" "${plan[@]}" ;;
			asan-version) "${asan[@]}" "$top/build/asan/storprov" --version ;;
			asan-version-noleaks) env ASAN_OPTIONS="suppressions=$top/tests/asan.supp:detect_leaks=0" \
				"$top/build/asan/storprov" --version ;;
			esac >/dev/null 2>&1 || { echo "asan: $what failed"; return 1; }
		done
		echo "$what: $((($(date +%s%N) - t) / n / 1000000)) ms a run ($n runs)"
	done
}

case ${1:-} in
fork) fork_cost "${2:-}" ;;
boot) boot_cost "${2:-}" ;;
mkinitrd) mkinitrd_cost "${2:-}" ;;
asan) asan_cost "${2:-}" ;;
*) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 2 ;;
esac
