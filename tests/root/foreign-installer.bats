#!/usr/bin/env bats
# Issue 33 item 7, the bounded probes: a filesystem where installers start
# the partition after their ESP and /boot (513, 601, 1025, 1601, 1625,
# 2049 MiB), and an md 1.0 / 0.90 member whose partition table is gone
# entirely, found by its superblock near where a last partition ends (the
# GPT's last usable sector, or that rounded down to 1 MiB). Each refused
# without --wipe, every byte kept (the CRC of the image), the place named.
load crash_helper

MiB=1048576
GiB=$((1024 * MiB))

setup() {
	crash_require
	LOOPLIST=$BATS_TEST_TMPDIR/loops
	IMG=$BATS_TEST_TMPDIR/disk.img
	truncate -s 4G "$IMG"
}

teardown() {
	drop_all_loops
	true
}

attach() {
	LOOP=$(losetup -f --show "$IMG")
	echo "$LOOP" >>"$LOOPLIST"
	N=$(basename "$LOOP")
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
}

img_sum() {
	blockdev --flushbufs "$LOOP" 2>/dev/null || true
	"$IMG_SUM" "$IMG"
}

# refused WHAT: apply exits 2 naming WHAT; the image unchanged; nothing written under the root
refused() {
	local before
	before=$(img_sum)
	run -2 sp_apply "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root"
	assert_output --partial "$1"
	assert_output --partial "or pass --wipe"
	[ "$(img_sum)" = "$before" ]
	[ ! -e "$BATS_TEST_TMPDIR/root/etc/fstab" ]
}

# zap HOW: first and last MiB zeroed (both), or sgdisk --zap-all (the GPT's sectors at both ends)
zap() {
	case $1 in
	both)
		dd if=/dev/zero of="$IMG" bs=1M count=1 conv=notrunc status=none
		dd if=/dev/zero of="$IMG" bs=1M count=1 seek=$((4 * 1024 - 1)) conv=notrunc status=none
		;;
	sgdisk) sgdisk --zap-all "$IMG" >/dev/null 2>&1 ;;
	esac
}

@test "installer starts: an XFS at 1625 MiB (Anaconda's 600 MiB ESP + 1 GiB /boot) behind a table zeroed at both ends" {
	sgdisk -n "1:$((1625 * 2048)):0" "$IMG" >/dev/null
	l=$(losetup -f --show -o $((1625 * MiB)) --sizelimit $((2 * GiB)) "$IMG")
	mkfs.xfs -q -f -L installed "$l"
	losetup -d "$l"
	zap both
	attach
	run blkid -p -o value -s PTTYPE "$LOOP"
	[ -z "$output" ]
	refused "xfs label installed uuid"
	assert_output --regexp "at offset $((1625 * MiB)) \([0-9.]+ GiB, from an installer's usual start\)"
}

@test "installer starts: an XFS at each of 513, 601, 1025, 1601 and 2049 MiB behind a table zeroed at both ends" {
	for m in 513 601 1025 1601 2049; do
		rm -f "$IMG"
		truncate -s 4G "$IMG"
		sgdisk -n "1:$((m * 2048)):+300M" "$IMG" >/dev/null
		l=$(losetup -f --show -o $((m * MiB)) --sizelimit $((300 * MiB)) "$IMG")
		mkfs.xfs -q -f -L "at$m" "$l"
		losetup -d "$l"
		zap both
		attach
		refused "xfs label at$m uuid"
		assert_output --regexp "at offset $((m * MiB)) \([0-9.]+ [MG]iB, from an installer's usual start\)"
		losetup -d "$LOOP"
	done
}

# md_member VER END: an md VER superblock for a member partition from 1 MiB to END bytes
md_member() {
	"$TOP/tests/root/md_sb.py" "$IMG" "$1" "$MiB" $(($2 - MiB)) 0123456789abcdef0123456789abcdef >/dev/null
}

@test "usual ends: an md 1.0 member ending on the last 1 MiB boundary, its table zeroed at both ends" {
	md_member 1.0 $((4 * GiB - MiB))
	zap both
	attach
	refused "linux_raid_member label foreign uuid 01234567-89ab-cdef-0123-456789abcdef"
	assert_output --partial "from a usual end"
}

@test "usual ends: an md 0.90 member ending on the last 1 MiB boundary, its table zeroed at both ends" {
	md_member 0.90 $((4 * GiB - MiB))
	zap both
	attach
	refused "linux_raid_member"
	assert_output --partial "from a usual end"
}

@test "usual ends: an md 1.0 member ending at the GPT's last usable sector (sfdisk, parted 100%), after sgdisk --zap-all" {
	md_member 1.0 $((4 * GiB - 33 * 512))
	zap sgdisk
	attach
	run blkid -p -o value -s PTTYPE "$LOOP"
	[ -z "$output" ]
	refused "linux_raid_member label foreign uuid 01234567-89ab-cdef-0123-456789abcdef"
	assert_output --partial "from a usual end"
}
