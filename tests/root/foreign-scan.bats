#!/usr/bin/env bats
# Issue 18 on loop devices: foreign data behind an erased partition table is
# found through what the table left (GPT entry arrays, primary and backup) or
# at a usual start, and refused with its bytes unchanged; a read error
# anywhere the scan reads refuses the disk; another exclusive holder refuses
# even --wipe. Each layout is built once (setup_file) and copied per test.
# Checked with independent tools: blkid -p at the foreign offset before the
# run, the CRC of the whole image (img_sum) before and after.
load crash_helper

MiB=1048576

# base NAME KIND START_MIB SIZE_MIB: a 1 GiB image (smaller ones fail mkfs.xfs -N of the profile before any inspection) with one GPT partition at
# START holding KIND (xfs, ext4 with a file; md1.0 or md0.90: an md
# superblock written by hand at the partition's end, nothing at its start)
base() {
	local img=$BATS_FILE_TMPDIR/$1.img loop
	truncate -s 1G "$img"
	loop=$(losetup -f --show -P "$img")
	# SIZE eN: up to sector N (included). sfdisk, not sgdisk: sgdisk sleeps 1 s
	# after every table it writes
	case $4 in
	e*) echo "start=$(($3 * 2048)), size=$((${4#e} - $3 * 2048 + 1))" | sfdisk -q --label gpt "$loop" >/dev/null ;;
	*) echo "start=$(($3 * 2048)), size=$4MiB" | sfdisk -q --label gpt "$loop" >/dev/null ;;
	esac
	local bytes
	bytes=$(($(sgdisk -i 1 "$loop" | sed -n 's/^Partition size: \([0-9]*\) sectors.*/\1/p') * 512))
	echo "$bytes" >"$img.bytes"
	partx -u "$loop" 2>/dev/null || true
	for _ in $(seq 30); do [ -b "${loop}p1" ] && break; sleep 0.1; done
	case $2 in
	xfs | ext4)
		if [ "$2" = xfs ]; then mkfs.xfs -q -L foreign "${loop}p1"; else mkfs.ext4 -q -F -L foreign "${loop}p1"; fi
		mkdir -p "$BATS_FILE_TMPDIR/m"
		mount "${loop}p1" "$BATS_FILE_TMPDIR/m"
		echo "precious $RANDOM" >"$BATS_FILE_TMPDIR/m/precious.txt"
		umount "$BATS_FILE_TMPDIR/m"
		;;
	esac
	losetup -d "$loop"
	case $2 in
	md1.0) "$TOP/tests/root/md_sb.py" "$img" 1.0 $(($3 * MiB)) "$bytes" 0123456789abcdef0123456789abcdef >"$img.sb" ;;
	md0.90) "$TOP/tests/root/md_sb.py" "$img" 0.90 $(($3 * MiB)) "$bytes" 0123456789abcdef0123456789abcdef >"$img.sb" ;;
	esac
}

setup_file() {
	[ "$(id -u)" -eq 0 ] && losetup -f >/dev/null 2>&1 || return 0
	{
		base xfs48 xfs 48 400 && base xfs129 xfs 129 300 && base ext4-17 ext4 17 300 &&
			base md10 md1.0 200 100 && base md090 md0.90 200 100 && base md090end md0.90 200 e$((2097152 - 201)) && truncate -s 1G "$BATS_FILE_TMPDIR/blank.img"
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
	[ -f "$BATS_TEST_TMPDIR/holder.pid" ] && kill "$(cat "$BATS_TEST_TMPDIR/holder.pid")" 2>/dev/null
	drop_all_loops
	true
}

# disk NAME ERASE: a copy of base NAME on a loop device (no partition scan),
# its table erased by ERASE: wipefs (wipefs -a), head (the first MiB zeroed),
# both (the first and the last MiB zeroed), none. Sets LOOP, IMG, N.
disk() {
	IMG=$BATS_TEST_TMPDIR/disk.img
	cp --sparse=always "$BATS_FILE_TMPDIR/$1.img" "$IMG"
	case $2 in
	head | both) dd if=/dev/zero of="$IMG" bs=1M count=1 conv=notrunc status=none ;;&
	both) dd if=/dev/zero of="$IMG" bs=1M count=1 seek=1023 conv=notrunc status=none ;;
	esac
	LOOP=$(losetup -f --show "$IMG")
	echo "$LOOP" >>"$LOOPLIST"
	N=$(basename "$LOOP")
	[ "$2" = wipefs ] && wipefs -a -q "$LOOP"
	blockdev --flushbufs "$LOOP"
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	# the table is gone (blkid finds none), what it pointed to is not
	run blkid -p -o value -s PTTYPE "$LOOP"
	[ -z "$output" ]
}

img_sum() {
	blockdev --flushbufs "$LOOP" 2>/dev/null || true
	"$IMG_SUM" "$IMG"
}

# refused NAME ERASE TYPE OFFSET_BYTES FROM: apply exits 2 naming TYPE at
# OFFSET (where its magic or its region is) and which entry or start FROM
# pointed there; not a byte of the image changes
refused() {
	disk "$1" "$2"
	run -0 blkid -p -o value -s TYPE -O "$6" ${7:+-S "$7"} "$LOOP"
	assert_output "$3"
	local before
	before=$(img_sum)
	run -2 sp_apply "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root"
	assert_output --regexp "$3[^,]* at offset $4 [^;]*from $5"
	[ "$(img_sum)" = "$before" ]
	[ ! -e "$BATS_TEST_TMPDIR/root/etc/fstab" ]
}

# ---- the layouts of the issue, each with three erasures -------------------------

@test "scan: XFS at 48 MiB, table erased by wipefs -a: refused via the primary GPT entry, untouched" {
	refused xfs48 wipefs xfs $((48 * MiB)) "primary GPT entry 1 .entry CRC ok" $((48 * MiB))
}
@test "scan: XFS at 48 MiB, first MiB zeroed: refused via the backup GPT entry, untouched" {
	refused xfs48 head xfs $((48 * MiB)) "backup GPT entry 1 .entry CRC ok" $((48 * MiB))
}
@test "scan: XFS at 48 MiB, first and last MiB zeroed: refused at a usual start, untouched" {
	refused xfs48 both xfs $((48 * MiB)) "a usual start" $((48 * MiB))
}
@test "scan: XFS at 129 MiB, table erased by wipefs -a: refused, untouched" {
	refused xfs129 wipefs xfs $((129 * MiB)) "primary GPT entry 1" $((129 * MiB))
}
@test "scan: XFS at 129 MiB, first MiB zeroed: refused, untouched" {
	refused xfs129 head xfs $((129 * MiB)) "backup GPT entry 1" $((129 * MiB))
}
@test "scan: XFS at 129 MiB, first and last MiB zeroed: refused, untouched" {
	refused xfs129 both xfs $((129 * MiB)) "a usual start" $((129 * MiB))
}
@test "scan: ext4 at 17 MiB, table erased by wipefs -a: refused, untouched" {
	refused ext4-17 wipefs ext4 $((17 * MiB)) "primary GPT entry 1" $((17 * MiB))
}
@test "scan: ext4 at 17 MiB, first MiB zeroed: refused, untouched" {
	refused ext4-17 head ext4 $((17 * MiB)) "backup GPT entry 1" $((17 * MiB))
}
@test "scan: ext4 at 17 MiB, first and last MiB zeroed: refused, untouched" {
	refused ext4-17 both ext4 $((17 * MiB)) "a usual start" $((17 * MiB))
}
# md: the superblock alone, at the end of a partition that starts nowhere usual
# (200 MiB): only a surviving entry array names that end. With both ends of the
# disk zeroed nothing names it (doc/safety.md: what the scan cannot find).
@test "scan: md 1.0 at the end of an erased partition (wipefs -a): refused via the entry's end, untouched" {
	refused md10 wipefs linux_raid_member $((300 * MiB - 8192)) "primary GPT entry 1" $((200 * MiB)) $((100 * MiB))
}
@test "scan: md 1.0 at the end of an erased partition (first MiB zeroed): refused via the backup entry, untouched" {
	refused md10 head linux_raid_member $((300 * MiB - 8192)) "backup GPT entry 1" $((200 * MiB)) $((100 * MiB))
}
@test "scan: md 0.90 at the end of an erased partition (wipefs -a): refused, untouched" {
	refused md090 wipefs linux_raid_member $((300 * MiB - 65536)) "primary GPT entry 1" $((200 * MiB)) $((100 * MiB))
}
@test "scan: md 0.90 at the end of an erased partition (first MiB zeroed): refused, untouched" {
	refused md090 head linux_raid_member $((300 * MiB - 65536)) "backup GPT entry 1" $((200 * MiB)) $((100 * MiB))
}

@test "scan: md 0.90 at the end of an erased partition ending 100 KiB before the disk's end (wipefs -a): refused" {
	# its superblock lies 192 KiB before the disk's end, before the disk's last 128 KiB
	# that the scan reads anyway: found only if the region's own end is read
	refused md090end wipefs linux_raid_member "$(cat "$BATS_FILE_TMPDIR/md090end.img.sb")" "primary GPT entry 1" $((200 * MiB)) \
		"$(cat "$BATS_FILE_TMPDIR/md090end.img.bytes")"
}

@test "scan: a blank disk is not refused (the scan refuses what it finds, not everything)" {
	disk blank none
	run -0 sp_apply "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root" --dry-run
	refute_output --partial "at offset"
}

@test "scan: --wipe --dry-run says what it would wipe and which entry pointed there" {
	disk xfs129 head
	local before
	before=$(img_sum)
	run -0 sp_apply "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root" --wipe --dry-run
	assert_output --regexp "xfs label foreign uuid [-0-9a-f]+ at offset $((129 * MiB)) .* from backup GPT entry 1"
	[ "$(img_sum)" = "$before" ]
}

# ---- read errors: fail closed ----------------------------------------------------

# eio_apply START END [args]: apply with reads of [START, END) of the disk failing (EIO)
eio_apply() {
	local s=$1 e=$2
	shift 2
	[ -f "$TOP/build/tests/eio-shim.so" ] || skip "no build/tests/eio-shim.so (make check-tools)"
	: >"$BATS_TEST_TMPDIR/eio.log"
	run env LD_PRELOAD="$TOP/build/tests/eio-shim.so" EIO_SHIM_PATH="$LOOP" EIO_SHIM_RANGE="$s:$e" \
		EIO_SHIM_LOG="$BATS_TEST_TMPDIR/eio.log" \
		"$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$BATS_TEST_TMPDIR/root" --yes --seed 1 --lock-file "$LOCKF" "$@"
	# the bad range was read (and failed): the shim is not a no-op
	[ -s "$BATS_TEST_TMPDIR/eio.log" ]
}

@test "eio: the foreign XFS's superblock unreadable (table erased): refused naming the offset, untouched" {
	disk xfs48 wipefs
	local before
	before=$(img_sum)
	eio_apply $((48 * MiB)) $((48 * MiB + 65536))
	[ "$status" -eq 2 ]
	assert_output --regexp "cannot be read in full.*at offset $((48 * MiB)) .*Input/output error"
	[ "$(img_sum)" = "$before" ]
}

@test "eio: the first 64 KiB unreadable, a foreign XFS at 48 MiB, table erased: refused, untouched" {
	disk xfs48 wipefs
	local before
	before=$(img_sum)
	eio_apply 0 65536
	[ "$status" -eq 2 ]
	assert_output --regexp "cannot (probe|be read)"
	[ "$(img_sum)" = "$before" ]
}

@test "eio: one unreadable sector of a blank disk (at a usual start) refuses it" {
	disk blank none
	local before
	before=$(img_sum)
	eio_apply $((5 * MiB)) $((5 * MiB + 512))
	[ "$status" -eq 2 ]
	assert_output --regexp "cannot be read in full.*at offset $((5 * MiB)) "
	[ "$(img_sum)" = "$before" ]
}

@test "eio: --wipe --dry-run still says what could not be read" {
	disk blank none
	eio_apply $((5 * MiB)) $((5 * MiB + 512)) --wipe --dry-run
	[ "$status" -eq 0 ]
	assert_output --regexp "what could not be read: .*at offset $((5 * MiB)) "
}

# ---- another exclusive holder --------------------------------------------------

@test "holder: a process holding the disk with O_EXCL makes apply --wipe refuse, naming it; untouched" {
	disk xfs48 wipefs
	local before
	before=$(img_sum)
	python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
open(sys.argv[2], "w").close()
time.sleep(120)' "$LOOP" "$BATS_TEST_TMPDIR/held" &
	echo $! >"$BATS_TEST_TMPDIR/holder.pid"
	for _ in $(seq 50); do [ -e "$BATS_TEST_TMPDIR/held" ] && break; sleep 0.1; done
	[ -e "$BATS_TEST_TMPDIR/held" ]
	# the holder is real: another O_EXCL open fails (checked with python, not storprov)
	run python3 -c 'import os, sys; os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)' "$LOOP"
	[ "$status" -ne 0 ]
	run -2 sp_apply "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root" --wipe
	assert_output --regexp "is in use: another process holds it exclusively .O_EXCL.; open by pid $(cat "$BATS_TEST_TMPDIR/holder.pid") .python3."
	[ "$(img_sum)" = "$before" ]
}

# A protective MBR alone is an unfinished GPT of storprov's only where the
# plan writes a GPT; on a LUN used whole (an XFS or a PV on the disk itself)
# it is a partition table like any other: refused without --wipe, wiped with
# it (it used to pass as "unfinished", and pvcreate then refused the disk as
# partitioned, mkfs.xfs likewise without -f).
@test "scan: a protective MBR alone on a LUN used whole: refused without --wipe, wiped with it" {
	IMG=$BATS_TEST_TMPDIR/disk.img
	cp --sparse=always "$BATS_FILE_TMPDIR/blank.img" "$IMG"
	python3 - "$IMG" <<'PY'
import struct, sys
mbr = bytearray(512)
mbr[446:462] = struct.pack('<B3sB3sII', 0, b'\x00\x02\x00', 0xEE, b'\xff\xff\xff', 1, 2 * 1024 * 1024 - 1)
mbr[510:512] = b'\x55\xaa'
with open(sys.argv[1], 'r+b') as f:
    f.write(mbr)
PY
	LOOP=$(losetup -f --show "$IMG")
	echo "$LOOP" >>"$LOOPLIST"
	run -0 blkid -p -o value -s PTTYPE "$LOOP"
	assert_output PMBR
	cat >"$BATS_TEST_TMPDIR/p.xml" <<XML
<?xml version="1.0"?>
<profile version="1" name="pmbr-whole">
  <disks id="lun" count="1"><match name="$(basename "$LOOP")"/><hwraid level="5" members="4" chunk="64K"/></disks>
  <xfs on="lun" label="whole" mountpoint="/data"/>
</profile>
XML
	local before
	before=$(img_sum)
	run -2 sp_apply "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root"
	assert_output --partial "carries PMBR"
	[ "$(img_sum)" = "$before" ]
	run -0 sp_apply "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root" --wipe
	run -0 blkid -p -o value -s TYPE "$LOOP"
	assert_output xfs
	run blkid -p -o value -s PTTYPE "$LOOP"
	[ -z "$output" ]
}
