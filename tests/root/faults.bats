#!/usr/bin/env bats
# Fault injection (issue 8): kill apply at every kind of step on loop devices,
# then run it again WITHOUT --wipe. The final state must equal a clean run:
# partition start (sysfs, sgdisk), xfs_info geometry, the planned UUID,
# sb_inprogress 0, xfs_repair -n clean, mountable, fstab with one line for the
# filesystem, the rules and sysctl.d files, the live tuning, and a third run
# saying "nothing to do". Kill points come from a clean reference run's trace:
# strace kills storprov at the Nth write/ioctl/fsync/rename (several inside the
# GPT write), a mkfs.xfs that dies midway, a slow mkfs killed with the run, and
# kill -9 of the whole run at short delays.
load crash_helper

setup_file() {
	[ "$(id -u)" -eq 0 ] && losetup -f >/dev/null 2>&1 && command -v strace >/dev/null || return 0
	cat "$SYSCTL_PATH" >"$BATS_FILE_TMPDIR/sysctl.orig"
	: >"$BATS_FILE_TMPDIR/tally"
	make_reference "$BATS_FILE_TMPDIR/ref" >"$BATS_FILE_TMPDIR/ref.err" 2>&1 || echo failed >"$BATS_FILE_TMPDIR/ref.failed"
}

teardown_file() {
	[ -f "$BATS_FILE_TMPDIR/sysctl.orig" ] && cat "$BATS_FILE_TMPDIR/sysctl.orig" >"$SYSCTL_PATH"
	LOOPLIST=$BATS_FILE_TMPDIR/ref/loops drop_all_loops
	true
}

setup() {
	crash_require
	REF=$BATS_FILE_TMPDIR/ref
	TALLY=$BATS_FILE_TMPDIR/tally
	if [ -f "$BATS_FILE_TMPDIR/ref.failed" ]; then
		cat "$BATS_FILE_TMPDIR/ref.err"
		false
	fi
	LOOPLIST=$BATS_TEST_TMPDIR/loops
	FAILS=()
}

teardown() {
	umount_under "$BATS_TEST_TMPDIR"
	drop_all_loops
}

note() { echo "# $*" >&3; }

# converge_or_record LABEL DIR: the convergence check, tallied
converge_or_record() {
	local why state
	state="left: PTTYPE=$(blkid -p -o value -s PTTYPE "$LOOP" 2>/dev/null || echo none)"
	state+=" p1=$([ -e "/sys/class/block/${N}p1" ] && echo yes || echo no)"
	[ -e "/sys/class/block/${N}p1" ] && state+=" $(xfs_db -r -c 'sb 0' -c 'p inprogress' "${LOOP}p1" 2>/dev/null | tr -d ' ')"
	if why=$(check_converged "$REF" "$LOOP" "$2/p.xml" "$2/root"); then
		tally "$TALLY" "$1" ok
		note "$1: converged ($state)"
	else
		tally "$TALLY" "$1" fail "$why"
		note "$1: NOT converged ($state): $why"
		FAILS+=("$1: $why")
	fi
	drop_loop "$LOOP"
}

# kill_point LABEL SYSCALL REGEX [NTH [ANCHOR [ANCHOR_NTH]]]: kill storprov on
# entering that call (the call itself does not happen), then converge.
kill_point() {
	local label=$1 sc=$2 re=$3 ord d last
	ord=$(ordinal "$REF/ref.trace" "$sc" "$re" "${4:-1}" "${5:-}" "${6:-1}")
	if [ -z "$ord" ]; then
		note "$label: no such call in the reference trace"
		FAILS+=("$label: not in the reference trace")
		tally "$TALLY" "$label" fail "not in the reference trace"
		return
	fi
	# The ordinal counts every call of SYSCALL, and storprov's SIGCHLD handler
	# writes one byte to its self-pipe per signal it gets: children that exit
	# close together give one SIGCHLD or several, so that count can differ
	# from the reference run's. A kill that lands on that pipe write instead
	# of the aimed call is tried again, from a fresh disk, up to three times.
	local try
	for try in 1 2 3; do
		d=$(mktemp -d "$BATS_TEST_TMPDIR/t.XXXXXX")
		new_loop 1G "$d"
		crash_profile "$d/p.xml" "$N"
		prime_state "$LOOP"
		in_session "$d/pid" strace -o "$d/trace" -y -e trace="$TRACESET" -e inject="$sc:signal=KILL:when=$ord" \
			"$SP" apply --profile "$d/p.xml" --root "$d/root" --yes --seed 1 --lock-file "$LOCKF" >"$d/out" 2>&1 || true
		kill_group "$d/pid"
		if ! grep -q '^+++ killed by SIGKILL' "$d/trace"; then
			note "$label: the run was not killed (call $sc #$ord not reached)"
			FAILS+=("$label: not reached")
			tally "$TALLY" "$label" fail "not reached"
			drop_loop "$LOOP"
			return
		fi
		last=$(grep -B1 '^+++ killed by SIGKILL' "$d/trace" | head -n 1)
		[[ ! $last =~ $re && $last =~ ^write[(][0-9]+\<pipe:\[[0-9]+\]\>,\ \"c\",\ 1[)\ ] && $try -lt 3 ]] || break
		note "$label: try $try killed at the SIGCHLD self-pipe write, not the aimed call: tried again"
		drop_loop "$LOOP"
	done
	if ! [[ $last =~ $re ]]; then
		note "$label: killed at an unexpected call: $last"
		FAILS+=("$label: misaligned kill")
		tally "$TALLY" "$label" fail "misaligned"
		drop_loop "$LOOP"
		return
	fi
	converge_or_record "$label" "$d"
}

# optional_point: like kill_point, but only when the call is in the reference
# trace (calls a fix may add: BLKRRPART, a directory fsync)
optional_point() {
	[ -n "$(ordinal "$REF/ref.trace" "$2" "$3" "${4:-1}")" ] || { note "$1: not in this build's trace, not tried"; return 0; }
	kill_point "$@"
}

finish_test() {
	if [ ${#FAILS[@]} -gt 0 ]; then
		printf '%s\n' "${FAILS[@]}"
		return 1
	fi
}

DEV='[(][0-9]+</dev/loop[0-9]+>'

@test "faults: kill points inside the GPT write converge on re-run without --wipe" {
	kill_point gpt:zeroing write "^write$DEV, .*9728[)]"
	kill_point gpt:before-pmbr write "^write$DEV, .*, 512[)]"
	kill_point gpt:before-primary-header write "^write$DEV, \"EFI PART"
	kill_point gpt:before-primary-entries write "^write$DEV, .*, 16384[)]"
	kill_point gpt:before-backup-header write "^write$DEV, \"EFI PART" 2
	kill_point gpt:before-backup-entries write "^write$DEV, .*, 16384[)]" 2
	kill_point gpt:before-fsync fsync "^fsync$DEV" 1 "^write$DEV, .*, 16384[)]" 2
	kill_point gpt:before-blkpg-del ioctl "^ioctl$DEV, BLKPG, [{]op=BLKPG_DEL_PARTITION"
	kill_point gpt:before-blkpg-add ioctl "^ioctl$DEV, BLKPG, [{]op=BLKPG_ADD_PARTITION"
	optional_point gpt:before-blkrrpart ioctl "^ioctl$DEV, BLKRRPART"
	finish_test
}

@test "faults: kill points at sysfs, sysctl and every file write converge" {
	kill_point sysfs:max_sectors_kb write 'max_sectors_kb>'
	kill_point sysfs:read_ahead_kb write 'read_ahead_kb>'
	kill_point sysctl:$SYSCTL_KEY write 'dirty_expire_centisecs>'
	kill_point file:fstab-write write 'fstab[.]storprov-'
	kill_point file:fstab-fsync fsync 'fstab[.]storprov-'
	local rn
	rn=$(which_sc "$REF/ref.trace" 'fstab[.]storprov-' rename renameat renameat2) || rn=rename
	kill_point file:fstab-rename "$rn" 'fstab[.]storprov-'
	kill_point file:rules-rename "$rn" '70-storprov[.]rules[.]storprov-'
	kill_point file:sysctl.d-write write '80-storprov[.]conf[.]storprov-'
	kill_point file:sysctl.d-rename "$rn" '80-storprov[.]conf[.]storprov-'
	optional_point file:etc-dir-fsync fsync '^fsync[(][0-9]+<[^>]*/etc>'
	finish_test
}

@test "faults: mkfs.xfs killed midway (sb_inprogress = 1) is remade, not kept" {
	local d w
	for w in 20 80; do
		d=$(mktemp -d "$BATS_TEST_TMPDIR/t.XXXXXX")
		new_loop 1G "$d"
		crash_profile "$d/p.xml" "$N"
		prime_state "$LOOP"
		dying_mkfs "$d/bin" "$w"
		PATH="$d/bin:$PATH" run -1 sp_apply "$d/p.xml" "$d/root"
		# the fault is real: the primary superblock carries our UUID, unfinished
		run -0 xfs_db -r -c 'sb 0' -c 'p inprogress' -c 'p uuid' "${LOOP}p1"
		assert_output --partial "inprogress = 1"
		assert_output --partial "uuid = $(cat "$REF/planned")"
		converge_or_record "mkfs:died-at-pwrite-$w" "$d"
	done
	finish_test
}

@test "faults: the whole run killed while a slow mkfs.xfs is midway converges" {
	local d
	d=$(mktemp -d "$BATS_TEST_TMPDIR/t.XXXXXX")
	new_loop 1G "$d"
	crash_profile "$d/p.xml" "$N"
	prime_state "$LOOP"
	slow_mkfs "$d/bin" 40000
	PATH="$d/bin:$PATH" in_session "$d/pid" "$SP" apply --profile "$d/p.xml" --root "$d/root" --yes --seed 1 --lock-file "$LOCKF" >"$d/out" 2>&1 &
	local seen=0
	for _ in $(seq 300); do
		if [ -b "${LOOP}p1" ] && xfs_db -r -c 'sb 0' -c 'p inprogress' "${LOOP}p1" 2>/dev/null | grep -q 'inprogress = 1'; then
			seen=1
			break
		fi
		sleep 0.05
	done
	sleep 0.5
	kill_group "$d/pid"
	wait || true
	[ "$seen" = 1 ] || { cat "$d/out"; echo "never saw sb_inprogress = 1"; false; }
	run -0 xfs_db -r -c 'sb 0' -c 'p inprogress' "${LOOP}p1"
	assert_output "inprogress = 1"
	converge_or_record "mkfs:run-killed-midway" "$d"
	finish_test
}

@test "faults: storprov killed, its orphaned mkfs.xfs still running: the resume never accepts a half-made XFS" {
	local d rc out why
	d=$(mktemp -d "$BATS_TEST_TMPDIR/t.XXXXXX")
	new_loop 1G "$d"
	crash_profile "$d/p.xml" "$N"
	prime_state "$LOOP"
	slow_mkfs "$d/bin" 30000
	PATH="$d/bin:$PATH" in_session "$d/pid" "$SP" apply --profile "$d/p.xml" --root "$d/root" --yes --seed 1 --lock-file "$LOCKF" >"$d/out" 2>&1 &
	local bg=$!
	for _ in $(seq 300); do
		[ -b "${LOOP}p1" ] && xfs_db -r -c 'sb 0' -c 'p inprogress' "${LOOP}p1" 2>/dev/null | grep -q 'inprogress = 1' && break
		sleep 0.05
	done
	# only storprov dies; mkfs.xfs (its child, in the same group) keeps running
	kill -KILL "$(cat "$d/pid")"
	wait "$bg" || true
	out=$(sp_apply "$d/p.xml" "$d/root" 2>&1) && rc=0 || rc=$?
	echo "$out"
	note "resume beside the running mkfs.xfs: exit $rc: $(echo "$out" | grep -vE 'warning|inspecting' | tail -n 1 | cut -c1-120)"
	wait_group "$d/pid" 60
	if [ "$rc" -eq 0 ]; then
		# it claimed success: the filesystem must really be finished
		run -0 xfs_db -r -c 'sb 0' -c 'p inprogress' "${LOOP}p1"
		assert_output "inprogress = 0"
	fi
	converge_or_record "mkfs:resume-beside-orphan" "$d"
	finish_test
}

@test "faults: kill -9 of the whole run at short delays converges" {
	local d t ms f
	ms=$(cat "$REF/run_ms")
	note "a clean run takes ${ms} ms"
	# delays spread over a clean run: inspection, GPT, mkfs, tuning, files
	for f in 5 15 30 45 60 75 90; do
		t=$(printf '%d.%03d' $((ms * f / 100 / 1000)) $((ms * f / 100 % 1000)))
		d=$(mktemp -d "$BATS_TEST_TMPDIR/t.XXXXXX")
		new_loop 1G "$d"
		crash_profile "$d/p.xml" "$N"
		prime_state "$LOOP"
		in_session "$d/pid" "$SP" apply --profile "$d/p.xml" --root "$d/root" --yes --seed 1 --lock-file "$LOCKF" >"$d/out" 2>&1 &
		sleep "$t"
		kill_group "$d/pid"
		wait || true
		note "kill -9 after ${t}s: $(grep -E 'step [0-9/]+ (start|created)|wrote' "$d/out" | tail -n 1 | cut -c1-80)"
		converge_or_record "kill9:${t}s" "$d"
	done
	finish_test
}

@test "faults: summary of kill points" {
	local n m
	n=$(wc -l <"$BATS_FILE_TMPDIR/tally")
	m=$(grep -c '^ok ' "$BATS_FILE_TMPDIR/tally" || true)
	grep -v '^ok ' "$BATS_FILE_TMPDIR/tally" | cut -c1-200 | sed 's/^fail /# not converged: /' >&3 || true
	note "kill points tried: $n, converged: $m"
	[ "$n" -gt 0 ]
}
