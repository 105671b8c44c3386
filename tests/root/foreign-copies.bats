#!/usr/bin/env bats
# Issue 33 item 1 on loop devices: a filesystem whose primary superblock is
# erased (dd over its start, or wipefs -a) keeps copies that recover it
# (btrfs rescue super-recover, xfs_repair, e2fsck -b): the scan finds them
# and refuses the disk without --wipe, every byte kept, naming the copy, its
# offset and the start it implies; --wipe proceeds. Each filesystem is made
# once (setup_file) and copied per test. Checked with independent tools:
# blkid -p at the copy's place (the superblock is there) and the CRC of the
# whole image before and after.
load crash_helper

MiB=1048576

# base NAME MKFS [dd-start-MiB size-MiB]: a 1 GiB image holding MKFS's
# filesystem on the whole image, or in a GPT partition (START, SIZE) whose
# table is then erased by wipefs -a (its entries still name the start)
base() {
	local img=$BATS_FILE_TMPDIR/$1.img loop dev
	truncate -s 1G "$img"
	loop=$(losetup -f --show "$img")
	dev=$loop
	if [ -n "${3:-}" ]; then
		losetup -d "$loop"
		echo "start=$(($3 * 2048)), size=$4MiB" | sfdisk -q --label gpt "$img" >/dev/null
		loop=$(losetup -f --show -o $(($3 * MiB)) --sizelimit $(($4 * MiB)) "$img")
		dev=$loop
	fi
	$2 "$dev" >/dev/null 2>&1
	losetup -d "$loop"
	[ -z "${3:-}" ] || wipefs -a -q -f "$img"
}

setup_file() {
	[ "$(id -u)" -eq 0 ] && losetup -f >/dev/null 2>&1 || return 0
	{
		base btrfs "mkfs.btrfs -q -f -L foreign" && base xfs "mkfs.xfs -q -f -L foreign" &&
			base ext4 "mkfs.ext4 -q -F -L foreign" && base xfs-part "mkfs.xfs -q -f -L foreign" 1 400 &&
			base ext4-1k "mkfs.ext4 -q -F -b 1024 -L foreign" 17 200 &&
			base btrfs-p3 "mkfs.btrfs -q -f -L foreign" 3 300
	} >"$BATS_FILE_TMPDIR/base.err" 2>&1 || echo failed >"$BATS_FILE_TMPDIR/base.failed"
}

setup() {
	crash_require
	if [ -f "$BATS_FILE_TMPDIR/base.failed" ]; then
		cat "$BATS_FILE_TMPDIR/base.err"
		false
	fi
	LOOPLIST=$BATS_TEST_TMPDIR/loops
}

teardown() {
	drop_all_loops
	true
}

# disk NAME ERASE: a copy of base NAME on a loop device, its primary superblock
# erased by ERASE: dd1m (the first MiB of the disk zeroed, as `dd bs=1M
# count=1`), wipefs (wipefs -a: the primary's magic), part4k and part1m (the
# first 4 KiB or MiB of the partition at PART_MIB zeroed). Sets LOOP, IMG, N.
disk() {
	IMG=$BATS_TEST_TMPDIR/disk.img
	cp --sparse=always "$BATS_FILE_TMPDIR/$1.img" "$IMG"
	case $2 in
	dd1m) dd if=/dev/zero of="$IMG" bs=1M count=1 conv=notrunc status=none ;;
	part4k) dd if=/dev/zero of="$IMG" bs=4k count=1 seek=$((PART_MIB * 256)) conv=notrunc status=none ;;
	part1m) dd if=/dev/zero of="$IMG" bs=1M count=1 seek="$PART_MIB" conv=notrunc status=none ;;
	esac
	LOOP=$(losetup -f --show "$IMG")
	echo "$LOOP" >>"$LOOPLIST"
	N=$(basename "$LOOP")
	[ "$2" = wipefs ] && wipefs -a -q "$LOOP"
	blockdev --flushbufs "$LOOP"
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	# nothing at the start says what is there
	run blkid -p -o value -s TYPE "$LOOP"
	[ -z "$output" ]
}

img_sum() {
	blockdev --flushbufs "$LOOP" 2>/dev/null || true
	"$IMG_SUM" "$IMG"
}

# copy_refused NAME ERASE TYPE PROBE_OFFSET WHAT AT START [ALSO]: blkid -p -O
# PROBE_OFFSET sees TYPE (the copy is there); apply exits 2 naming WHAT at
# offset AT of a TYPE starting at START (and ALSO); not a byte changes; then
# --wipe proceeds (exit 0, the planned GPT read back)
copy_refused() {
	disk "$1" "$2"
	run -0 blkid -p -o value -s TYPE -O "$4" "$LOOP"
	assert_output "$3"
	local before
	before=$(img_sum)
	run -2 sp_apply "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root"
	assert_output --partial "carries $5 at offset $6 "
	assert_output --regexp "of an? $3 uuid [-0-9a-f]+ label foreign starting at $7 .*its primary erased: recoverable with"
	assert_output --partial "or pass --wipe"
	[ -z "${8:-}" ] || assert_output --partial "$8"
	[ "$(img_sum)" = "$before" ]
	[ ! -e "$BATS_TEST_TMPDIR/root/etc/fstab" ]
	run -0 sp_apply "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root" --wipe
	assert_output --partial "$5 at offset $6 "
	run -0 blkid -p -o value -s PTTYPE "$LOOP"
	assert_output gpt
}

@test "copies: whole-disk btrfs, first MiB zeroed (dd bs=1M count=1): its mirror at 64 MiB refuses the disk" {
	copy_refused btrfs dd1m btrfs $((64 * MiB - 65536)) "btrfs superblock copy (mirror 1)" $((64 * MiB)) 0 \
		"btrfs rescue super-recover"
}

@test "copies: whole-disk btrfs after wipefs -a: its mirror at 64 MiB refuses the disk" {
	copy_refused btrfs wipefs btrfs $((64 * MiB - 65536)) "btrfs superblock copy (mirror 1)" $((64 * MiB)) 0
}

@test "copies: whole-disk XFS, first MiB zeroed: its AG 1 secondary at 256 MiB refuses the disk" {
	copy_refused xfs dd1m xfs $((256 * MiB)) "xfs secondary superblock (AG 1)" $((256 * MiB)) 0 xfs_repair
}

@test "copies: whole-disk XFS after wipefs -a (its magic alone cleared): AG 0's AGF and AGI refuse the disk" {
	# blkid -p -O 0 no longer sees it; AG 1's secondary does
	copy_refused xfs wipefs xfs $((256 * MiB)) "xfs superblock with only its magic erased (AG 0's AGF and AGI intact)" 0 0
}

@test "copies: whole-disk ext4, first MiB zeroed: its backup in group 1 (128 MiB) refuses the disk" {
	# blkid sees a backup superblock at 128 MiB through a start 1 KiB before it
	copy_refused ext4 dd1m ext4 $((128 * MiB - 1024)) "ext4 backup superblock (group 1)" $((128 * MiB)) 0 \
		"e2fsck -b 32768 -B 4096"
}

@test "copies: XFS in an erased table's partition (1 MiB, 400 MiB), its first 4 KiB zeroed: AG 1 at 101 MiB" {
	PART_MIB=1
	copy_refused xfs-part part4k xfs $((101 * MiB)) "xfs secondary superblock (AG 1)" $((101 * MiB)) $((1 * MiB)) \
		"from primary GPT entry 1"
}

@test "copies: ext4 with 1 KiB blocks at 17 MiB (erased table), its first 4 KiB zeroed: group 1 at 25 MiB + 1 KiB" {
	PART_MIB=17
	copy_refused ext4-1k part4k ext4 $((25 * MiB)) "ext4 backup superblock (group 1)" $((25 * MiB + 1024)) $((17 * MiB)) \
		"e2fsck -b 8193 -B 1024"
}

# at the planned partition's start (3 MiB: the profile aligns it to the 3 x 64 KiB
# stripe): the partition's own finding, refused as such
@test "copies: btrfs at the planned partition's start (erased table), its first MiB zeroed: refused as the partition's" {
	PART_MIB=3
	copy_refused btrfs-p3 part1m btrfs $((67 * MiB - 65536)) "btrfs superblock copy (mirror 1)" $((67 * MiB)) \
		$((3 * MiB)) "refused: lun.data (/dev/loop"
}

# storprov's own XFS has secondary superblocks too: on a provisioned disk whose
# table was erased (wipefs -a: the disk is then scanned), they are its own
@test "copies: our own XFS's secondaries are not foreign: its table erased, the disk is scanned, nothing refused" {
	new_loop 1G
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	run -0 sp_apply "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root"
	umount_under "$BATS_TEST_TMPDIR/root"
	wipefs -a -q "$LOOP"
	blockdev --flushbufs "$LOOP"
	run sp_apply "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root"
	echo "$output"
	[ "$status" -eq 0 ]
	refute_output --partial "superblock copy"
	refute_output --partial "secondary superblock"
	refute_output --partial "refused"
}

# the copies' places are read like every other place the scan reads: a read
# error there refuses the disk (256 MiB: AG 1 of an XFS on the whole 1 GiB
# disk, a place no window of a start covers)
@test "copies: an unreadable block where an XFS's AG 1 would sit refuses a blank disk, naming the offset" {
	[ -f "$TOP/build/tests/eio-shim.so" ] || skip "no build/tests/eio-shim.so (make check-tools)"
	new_loop 1G
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	: >"$BATS_TEST_TMPDIR/eio.log"
	run env LD_PRELOAD="$TOP/build/tests/eio-shim.so" EIO_SHIM_PATH="$LOOP" \
		EIO_SHIM_RANGE="$((256 * MiB)):$((256 * MiB + 512))" EIO_SHIM_LOG="$BATS_TEST_TMPDIR/eio.log" \
		"$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$BATS_TEST_TMPDIR/root" --yes --seed 1 --lock-file "$LOCKF"
	[ -s "$BATS_TEST_TMPDIR/eio.log" ]
	[ "$status" -eq 2 ]
	# (read with its neighbour 4 KiB before it, AG 1 of a partition to the last usable sector)
	assert_output --regexp "cannot be read in full.*at offset 26843[0-9]{4} .*Input/output error"
	run blkid -p -o value -s PTTYPE "$LOOP"
	[ -z "$output" ]
}
