#!/usr/bin/env bats
# apply --dry-run says what would change (issue 31, item 1): each step is
# would-run, done (read back as planned) or kept, and each file would-write or
# unchanged, read back from the node as verify reads it. On a provisioned
# loop LUN: a tuning drift, a missing fstab line, a missing filesystem.
load ../bats/test_helper

setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"
	losetup -f >/dev/null 2>&1 || skip "no loop devices"
	truncate -s 2G "$BATS_TEST_TMPDIR/d.img"
	LOOP=$(losetup -f --show -P "$BATS_TEST_TMPDIR/d.img")
	N=$(basename "$LOOP")
	ROOT=$BATS_TEST_TMPDIR/root
	cat >"$BATS_TEST_TMPDIR/p.xml" <<XML
<?xml version="1.0"?>
<profile version="1" name="dry-run">
  <disks id="lun" count="1">
    <match name="$N"/>
    <hwraid level="5" members="4" chunk="64K"/>
    <tune read-ahead-kb="4096"/>
    <gpt><partition id="data" size="100%"/></gpt>
  </disks>
  <xfs on="lun.data" label="lun" mountpoint="/data"/>
</profile>
XML
	A=(--profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --lock-file "$BATS_TEST_TMPDIR/lock" --seed 1)
}

teardown() {
	[ -n "${LOOP:-}" ] && losetup -d "$LOOP" 2>/dev/null || true
}

@test "dry run: a fresh disk would run every step and write every file" {
	# a loop device keeps its queue settings from an earlier user: the kernel's default here
	echo 128 >"/sys/block/$N/queue/read_ahead_kb"
	# and the max_sectors_kb storprov derives for this RAID5 LUN (384: 2 x 192K) may be left set
	cat "/sys/block/$N/queue/max_hw_sectors_kb" >"/sys/block/$N/queue/max_sectors_kb"
	run -0 "$SP" apply "${A[@]}" --dry-run
	assert_output --partial "What would change"
	refute_output --regexp '^ +[0-9]+\. done '
	assert_output --regexp "would-write +/etc/fstab"
	run -0 --separate-stderr "$SP" apply "${A[@]}" --dry-run --format json
	[ "$(jq '[.steps[] | select(.state != "would-run")] | length' <<<"$output")" -eq 0 ]
	[ "$(jq '[.files[] | select(.would_write)] | length' <<<"$output")" -eq "$(jq '.files | length' <<<"$output")" ]
}

@test "dry run on a provisioned disk: done everywhere; then only what drifted would run" {
	run -0 "$SP" apply "${A[@]}" --yes
	run -0 --separate-stderr "$SP" apply "${A[@]}" --dry-run --format json
	[ "$(jq -r '[.steps[].state] | unique | join(",")' <<<"$output")" = done ]
	[ "$(jq '[.files[] | select(.would_write)] | length' <<<"$output")" -eq 0 ]
	n_steps=$(jq '.steps | length' <<<"$output")
	# 1. a tuning drift: read_ahead_kb changed by hand
	echo 128 >"/sys/block/$N/queue/read_ahead_kb"
	run -0 --separate-stderr "$SP" apply "${A[@]}" --dry-run --format json
	run -0 jq -r '.steps[] | select(.state == "would-run") | .state_why' <<<"$output"
	[ "${#lines[@]}" -eq 1 ]
	assert_output --partial "read_ahead_kb: expected 4096, found 128"
	run -0 "$SP" apply "${A[@]}" --dry-run
	assert_output --partial "1 of $n_steps steps would run, 0 of"
	echo 4096 >"/sys/block/$N/queue/read_ahead_kb"
	# 2. the fstab line gone: only the file would be written, every step done
	sed -i '/[[:space:]]\/data[[:space:]]/d' "$ROOT/etc/fstab"
	run -1 grep -q /data "$ROOT/etc/fstab"
	run -0 --separate-stderr "$SP" apply "${A[@]}" --dry-run --format json
	[ "$(jq -r '[.steps[].state] | unique | join(",")' <<<"$output")" = done ]
	run -0 jq -r '.files[] | select(.would_write) | .path' <<<"$output"
	assert_output /etc/fstab
	"$SP" apply "${A[@]}" --yes >/dev/null 2>&1
	# 3. the filesystem gone (its signature erased): its mkfs step would run, and nothing else
	wipefs -q -a "${LOOP}p1"
	run -0 --separate-stderr "$SP" apply "${A[@]}" --dry-run --format json --wipe
	run -0 jq -r '.steps[] | select(.state == "would-run") | .kind' <<<"$output"
	[ "${#lines[@]}" -eq 1 ]
	assert_output mkfs
}
