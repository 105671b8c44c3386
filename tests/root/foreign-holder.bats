#!/usr/bin/env bats
# Issue 18: an exclusive holder that appears AFTER the inspection and BEFORE
# the first write (STORPROV_TEST_BEFORE_WRITES starts it there) fails the step
# that would write under it, naming the holder; nothing is written to the
# disk (its data read back unchanged). A hook that starts no holder changes
# nothing (the control: apply converges, checked with sgdisk and blkid).
load crash_helper

setup() {
	crash_require
	LOOPLIST=$BATS_TEST_TMPDIR/loops
}

teardown() {
	[ -f "$BATS_TEST_TMPDIR/holder.pid" ] && kill "$(cat "$BATS_TEST_TMPDIR/holder.pid")" 2>/dev/null
	drop_all_loops
	true
}

# hook DEV: a shell command that starts a process holding DEV with O_EXCL and
# returns once it holds it
hook() {
	cat >"$BATS_TEST_TMPDIR/hold.sh" <<SH
python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
open(sys.argv[2], "w").close()
time.sleep(120)' "$1" "$BATS_TEST_TMPDIR/held" </dev/null >/dev/null 2>&1 &
echo \$! >"$BATS_TEST_TMPDIR/holder.pid"
for i in \$(seq 100); do [ -e "$BATS_TEST_TMPDIR/held" ] && exit 0; sleep 0.1; done
exit 1
SH
	echo "sh $BATS_TEST_TMPDIR/hold.sh"
}

img_sum() {
	blockdev --flushbufs "$LOOP" 2>/dev/null || true
	"$IMG_SUM" "$IMG"
}

@test "holder after the inspection: a blank disk's table is not written under it (exit 1, named, unchanged)" {
	new_loop 1G
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	local before
	before=$(img_sum)
	run env STORPROV_TEST_BEFORE_WRITES="$(hook "$LOOP")" "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" \
		--root "$BATS_TEST_TMPDIR/root" --yes --seed 1 --lock-file "$LOCKF"
	echo "$output"
	[ "$status" -eq 1 ]
	# the holder was really there, after the inspection: it was started by the hook
	[ -e "$BATS_TEST_TMPDIR/held" ]
	assert_output --regexp "was taken by another exclusive holder .O_EXCL. after the inspection: open by pid $(cat "$BATS_TEST_TMPDIR/holder.pid") .python3."
	run blkid -p -o value -s PTTYPE "$LOOP"
	[ -z "$output" ]
	[ "$(img_sum)" = "$before" ]
}

@test "holder after the inspection: --wipe of foreign data does not run under it (the foreign XFS and every byte stay)" {
	IMG=$BATS_TEST_TMPDIR/disk.img
	mkdir -p "$BATS_TEST_TMPDIR/cache"
	python3 "$TOP/tests/root/foreign_gen.py" build 4 "$IMG" "$BATS_TEST_TMPDIR/cache" >"$BATS_TEST_TMPDIR/layout.json"
	LOOP=$(losetup -f --show "$IMG")
	echo "$LOOP" >>"$LOOPLIST"
	N=$(basename "$LOOP")
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	local before start
	before=$(img_sum)
	start=$(jq -r '.parts[0].start' "$BATS_TEST_TMPDIR/layout.json")
	run env STORPROV_TEST_BEFORE_WRITES="$(hook "$LOOP")" "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" \
		--root "$BATS_TEST_TMPDIR/root" --yes --seed 1 --lock-file "$LOCKF" --wipe
	echo "$output"
	[ "$status" -eq 1 ]
	assert_output --partial "after the inspection: open by pid"
	refute_output --partial "wipefs --all"
	[ "$(img_sum)" = "$before" ]
	run -0 blkid -p -o value -s TYPE -O "$start" "$LOOP"
	assert_output "$(jq -r '.parts[0].type' "$BATS_TEST_TMPDIR/layout.json")"
}

@test "holder check, control: a hook that holds nothing changes nothing (apply converges)" {
	new_loop 1G
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	run env STORPROV_TEST_BEFORE_WRITES="true" "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" \
		--root "$BATS_TEST_TMPDIR/root" --yes --seed 1 --lock-file "$LOCKF"
	echo "$output"
	[ "$status" -eq 0 ]
	run -0 blkid -p -o value -s PTTYPE "$LOOP"
	assert_output gpt
	run -0 blkid -p -o value -s LABEL -O $(($(sgdisk -i 1 "$LOOP" | sed -n 's/^First sector: \([0-9]*\).*/\1/p') * 512)) "$LOOP"
	assert_output lun
}

# hold DEV: a process that holds DEV with O_EXCL (started now, in the background), as hook's does
hold() {
	local cmd
	cmd=$(hook "$1")
	$cmd
}

@test "holder of a partition at the inspection: named with its pid, command and the partition (exit 2, unchanged)" {
	new_loop 1G
	echo "start=2048, size=100MiB" | sfdisk -q --label gpt "$LOOP" >/dev/null
	partx -u "$LOOP"
	for i in $(seq 50); do [ -b "${LOOP}p1" ] && break; sleep 0.1; done
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N" 'wipe="true"'
	local before
	before=$(img_sum)
	hold "${LOOP}p1"
	local pid
	pid=$(cat "$BATS_TEST_TMPDIR/holder.pid")
	run "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$BATS_TEST_TMPDIR/root" --yes --seed 1 --lock-file "$LOCKF"
	echo "$output"
	[ "$status" -eq 2 ]
	assert_output --partial "another process holds it exclusively (O_EXCL); open by pid $pid (python3) on its partition ${N}p1"
	refute_output --partial "kernel user"
	[ "$(img_sum)" = "$before" ]
}
