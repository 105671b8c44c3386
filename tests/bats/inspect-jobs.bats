#!/usr/bin/env bats
# Issue 34 item 2, without root (tests/root/inspect-jobs.bats has the loop
# devices): apply's inspection of the disks runs in worker threads (one per
# disk, none with --jobs 1), prints what the serial one prints in the same order, and a worker
# thread that cannot be started refuses the run (fail closed), after every
# disk was inspected all the same.
load test_helper

setup() {
	export STORPROV_DEVROOT="$BATS_TEST_TMPDIR/devroot"
	export FAKE_LOG="$BATS_TEST_TMPDIR/commands.log"
	export FAKE_STATE="$BATS_TEST_TMPDIR/state"
	local mkfs
	mkfs=$(PATH=$PATH:/usr/sbin:/sbin command -v mkfs.xfs) || skip "no mkfs.xfs"
	export PATH="$FIX/fakebin:$PATH"
	: >"$FAKE_LOG"
	fake_world many-luns "$BATS_TEST_TMPDIR/w"
	# a whole-disk XFS on lun3 (sdd) and lun6 (sdg): refused, in that order, whatever --jobs
	"$mkfs" -q -f -L old3 "$STORPROV_DEVROOT/dev/sdd"
	"$mkfs" -q -f -L old6 "$STORPROV_DEVROOT/dev/sdg"
	A=(--profile "$TOP/profiles/many-luns.xml" --sysroot "$BATS_TEST_TMPDIR/w" --root "$BATS_TEST_TMPDIR/root" --seed 1
		--dry-run)
}

# stderr without its times, and without the one line that says the inspection's time and --jobs
untimed() {
	sed -E 's/^storprov: \[ *[0-9.]+s\] /storprov: /' | grep -v '^storprov: inspected [0-9]* disks in '
}

@test "inspect: --jobs 8 prints and refuses what --jobs 1 does, in disk order; the report counts the threads" {
	# refused before the plan is printed: all of it is stderr
	run -2 "$SP" apply "${A[@]}" --jobs 1 --report "$BATS_TEST_TMPDIR/r1.json"
	untimed <<<"$output" >"$BATS_TEST_TMPDIR/e1"
	run -2 "$SP" apply "${A[@]}" --jobs 8 --report "$BATS_TEST_TMPDIR/r8.json"
	untimed <<<"$output" >"$BATS_TEST_TMPDIR/e8"
	diff -u "$BATS_TEST_TMPDIR/e1" "$BATS_TEST_TMPDIR/e8"
	assert_line --regexp '^storprov: \[ *[0-9.]+s\] inspected 8 disks in [0-9.]+s, up to 8 at a time \(--jobs 8\)$'
	run -0 grep -c '^storprov: refused: .* carries xfs (label old' "$BATS_TEST_TMPDIR/e8"
	assert_output 2
	run -0 grep -o 'carries xfs (label old[0-9]' "$BATS_TEST_TMPDIR/e8"
	assert_output $'carries xfs (label old3\ncarries xfs (label old6'
	[ "$(jq -c '[.inspection.jobs, .inspection.threads]' "$BATS_TEST_TMPDIR/r8.json")" = '[8,8]' ]
	[ "$(jq -c '[.inspection.jobs, .inspection.threads, .inspection.max_concurrent]' "$BATS_TEST_TMPDIR/r1.json")" = '[1,0,1]' ]
	[ "$(jq '.inspection.disks | length' "$BATS_TEST_TMPDIR/r8.json")" = 8 ]
}

@test "inspect: a worker thread that cannot be started refuses the run, every disk inspected all the same" {
	# a stack limit no thread's stack can be mapped with (the main thread's is there already)
	[ "$(cat /proc/sys/vm/overcommit_memory)" != 1 ] || skip "vm.overcommit_memory=1 maps any thread stack"
	run -2 bash -c 'ulimit -s 4000000000 && exec "$0" "$@"' "$SP" apply "${A[@]}" --jobs 4 \
		--report "$BATS_TEST_TMPDIR/r.json"
	assert_line --partial "storprov: refused: cannot start inspection thread 1 of 8 (one per disk, up to 64): "
	assert_line --partial "or run apply again with --jobs 1 (no threads)"
	assert_line "storprov: nothing was written"
	# the disks' own findings are there too, in order
	run -0 grep -o 'carries xfs (label old[0-9]' <<<"$output"
	assert_output $'carries xfs (label old3\ncarries xfs (label old6'
	[ "$(jq -c '[.inspection.threads, (.inspection.disks | length)]' "$BATS_TEST_TMPDIR/r.json")" = '[0,8]' ]
}
