#!/usr/bin/env bats
# apply on real block devices: loop devices over sparse files, as root. Results
# are read back with independent tools (sysfs, sgdisk, xfs_info, /proc/mounts).
load ../bats/test_helper

setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"
	losetup -f >/dev/null 2>&1 || skip "no loop devices"
	LOOPS=()
	ROOT="$BATS_TEST_TMPDIR/root"
}

teardown() {
	# the report tests' read-only directories, should a test stop half way
	umount -q "$BATS_TEST_TMPDIR/ro" 2>/dev/null || true
	umount -q "$BATS_TEST_TMPDIR/full" 2>/dev/null || true
	[ ! -d "$BATS_TEST_TMPDIR/reports" ] || chattr -i "$BATS_TEST_TMPDIR/reports"
	for l in "${LOOPS[@]}"; do
		umount -q "$ROOT"/* 2>/dev/null || true
		grep -q "^/dev/$(basename "$l")p" /proc/mounts && umount "$(grep "^/dev/$(basename "$l")p" /proc/mounts | cut -d' ' -f2)"
		losetup -d "$l" 2>/dev/null || true
	done
}

# new_loop SIZE: a loop device over a sparse file, with partition scanning
new_loop() {
	local img="$BATS_TEST_TMPDIR/disk${#LOOPS[@]}.img"
	truncate -s "$1" "$img"
	LOOP=$(losetup -f --show -P "$img")
	LOOPS+=("$LOOP")
	IMG=$img
	N=$(basename "$LOOP")
}

# profile FILE NAME [disks-attributes]: a 4-member hardware RAID5 LUN, 64 KiB chunk, one partition
profile() {
	cat >"$1" <<XML
<?xml version="1.0"?>
<profile version="1" name="loop-raid5">
  <disks id="lun" count="1" $3>
    <match name="$2"/>
    <hwraid level="5" members="4" chunk="64K"/>
    <tune read-ahead-kb="4096" max-sectors-kb="64"/>
    <gpt><partition id="data" size="100%"/></gpt>
  </disks>
  <xfs on="lun.data" label="lun" mountpoint="/data" mount-options="noatime"/>
</profile>
XML
}

@test "apply: 2 GiB loop as a 4 x 64 KiB RAID5 LUN (issue done-when)" {
	new_loop 2G
	profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	run -0 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes --mount --report "$BATS_TEST_TMPDIR/r1.json"
	# partition start: a multiple of 3 MiB = lcm(1 MiB, 192 KiB), per sysfs and sgdisk
	start=$(cat "/sys/class/block/${N}p1/start")
	echo "start sector $start"
	[ $((start * 512 % (3 * 1024 * 1024))) -eq 0 ]
	[ "$start" -ge 6144 ]
	run -0 sgdisk -i 1 "$LOOP"
	assert_output --partial "First sector: $start "
	# geometry per xfs_info (fs blocks)
	run -0 xfs_info "${LOOP}p1"
	assert_output --regexp "sunit=16 +swidth=48 blks"
	assert_output --regexp "log += *internal log.*version=2"
	# a parity LUN's log gets a 4 KiB stripe unit (1 block), not the data su:
	# XFS pads every log write to the log su, and a padded write is still a
	# partial stripe (bench/README 1e)
	assert_output --regexp "sectsz=512 +sunit=1 blks"
	# every AG is whole full stripes (48 blocks), their count coprime to 4 and 5,
	# so that stripe alignment, which XFS counts from each AG's start, holds in
	# every AG and the AG headers still rotate over the members
	ag=$(sed -n 's/.*agsize=\([0-9]*\) blks.*/\1/p' <<<"$output")
	echo "agsize $ag blocks"
	[ $((ag % 48)) -eq 0 ] && [ $((ag / 48 % 2)) -ne 0 ] && [ $((ag / 48 % 5)) -ne 0 ]
	# the mount carries logbufs=8 and swalloc
	run -0 grep "^${LOOP}p1 $ROOT/data xfs " /proc/mounts
	assert_output --partial "logbufs=8"
	assert_output --partial "swalloc"
	assert_output --partial "logbsize=256k"
	# live tuning reached sysfs
	[ "$(cat /sys/block/$N/queue/read_ahead_kb)" = 4096 ]
	[ "$(cat /sys/block/$N/queue/max_sectors_kb)" = 64 ]
	# fstab names the filesystem by UUID, as blkid sees it
	uuid=$(blkid -o value -s UUID "${LOOP}p1")
	run -0 findmnt --tab-file "$ROOT/etc/fstab" -n -o SOURCE,OPTIONS /data
	assert_output "UUID=$uuid noatime,logbufs=8,logbsize=256k,swalloc"
	jq -e '[.objects[] | .action] == ["created","created","created"]' "$BATS_TEST_TMPDIR/r1.json"
	jq -e '.objects[2].steps[0].argv[0] | test("^mkfs.xfs .*-d su=64k,sw=3 -l version=2,su=4k ")' "$BATS_TEST_TMPDIR/r1.json"

	# a second apply: nothing to do
	run -0 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes --mount --report "$BATS_TEST_TMPDIR/r2.json"
	assert_output --partial "nothing to do"
	jq -e '[.objects[] | .action] == ["kept","kept","kept"]' "$BATS_TEST_TMPDIR/r2.json"
	jq -e '[.files[] | .action] | all(. == "unchanged")' "$BATS_TEST_TMPDIR/r2.json"
	[ "$(blkid -o value -s UUID "${LOOP}p1")" = "$uuid" ]
}

@test "apply: a tuning repair where every XFS is there runs no mkfs.xfs (xfsprogs gone, or refusing an option)" {
	new_loop 2G
	profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	run -0 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes
	uuid=$(blkid -o value -s UUID "${LOOP}p1")
	echo 128 >"/sys/block/$N/queue/read_ahead_kb"
	# no mkfs.xfs in PATH (xfsprogs removed, or upgraded to one that refuses an option)
	mkdir "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\necho "mkfs.xfs: unknown option -l su=4k" >&2\nexit 1\n' >"$BATS_TEST_TMPDIR/bin/mkfs.xfs"
	chmod +x "$BATS_TEST_TMPDIR/bin/mkfs.xfs"
	for path in "/usr/bin:/bin" "$BATS_TEST_TMPDIR/bin:/usr/bin:/bin"; do
		echo 128 >"/sys/block/$N/queue/read_ahead_kb"
		PATH=$path run -0 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes --report "$BATS_TEST_TMPDIR/r.json"
		refute_output --partial "mkfs.xfs"
		[ "$(cat /sys/block/$N/queue/read_ahead_kb)" = 4096 ]
		jq -e '.objects[2].action == "kept"' "$BATS_TEST_TMPDIR/r.json"
		[ "$(blkid -o value -s UUID "${LOOP}p1")" = "$uuid" ]
	done
	# with the XFS gone, mkfs.xfs is needed, and its absence is said before anything is written
	wipefs -a -q "${LOOP}p1"
	PATH=/usr/bin:/bin run -2 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes
	assert_output --partial "mkfs.xfs is not in PATH (package xfsprogs on EL, xfsprogs on Debian)"
	assert_output --partial "nothing was written"
	[ -z "$(blkid -o value -s TYPE "${LOOP}p1")" ]
}

@test "apply: a loop device holding XFS is refused without wipe, its bytes unchanged" {
	new_loop 1G
	mkfs.xfs -q "$LOOP"
	echo "precious" | dd of="$LOOP" bs=512 seek=100000 conv=notrunc status=none
	before=$(img_sum "$IMG")
	profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	run -2 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes
	assert_output --partial "refused: lun ($LOOP) carries xfs (uuid"
	assert_output --partial "nothing was written"
	[ "$(img_sum "$IMG")" = "$before" ]
	[ ! -e "$ROOT/etc/fstab" ]
	# --dry-run also touches nothing and says what it refuses
	run -2 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --dry-run
	[ "$(img_sum "$IMG")" = "$before" ]
}

@test "apply: wipe=\"true\" in the profile allows it, and says what it wiped" {
	new_loop 1G
	mkfs.xfs -q "$LOOP"
	profile "$BATS_TEST_TMPDIR/p.xml" "$N" 'wipe="true"'
	run -0 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes
	assert_output --partial "it will be wiped (allowed by the profile)"
	assert_output --partial "wipefs --all $LOOP"
	run -0 blkid -o value -s PTTYPE "$LOOP"
	assert_output gpt
}

@test "apply: an old filesystem inside a planned partition is found before any write" {
	new_loop 1G
	# no partition table, but an XFS where the partition will start (3 MiB)
	dd if=/dev/zero of="$BATS_TEST_TMPDIR/fs.img" bs=1M count=0 seek=400 status=none
	mkfs.xfs -q "$BATS_TEST_TMPDIR/fs.img"
	dd if="$BATS_TEST_TMPDIR/fs.img" of="$LOOP" bs=1M seek=3 count=1 conv=notrunc status=none
	before=$(img_sum "$IMG")
	profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	run -2 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes
	assert_output --partial "lun.data (${LOOP}p1) carries xfs"
	[ "$(img_sum "$IMG")" = "$before" ]
}

@test "apply: a run that died after partitioning resumes" {
	new_loop 2G
	profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	# mkfs.xfs fails this time (its dry run, before the first write, still passes)
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\n[ "$1" = -N ] && exec %s "$@"\necho "mkfs.xfs: simulated crash" >&2\nexit 1\n' "$(command -v mkfs.xfs)" \
		>"$BATS_TEST_TMPDIR/bin/mkfs.xfs"
	chmod +x "$BATS_TEST_TMPDIR/bin/mkfs.xfs"
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" run -1 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes --report "$BATS_TEST_TMPDIR/r1.json"
	assert_output --partial "resumes where it stopped"
	jq -e '[.objects[] | .action] == ["created","created","failed"]' "$BATS_TEST_TMPDIR/r1.json"
	[ ! -e "$ROOT/etc/fstab" ]
	[ -b "${LOOP}p1" ]
	# the second run keeps the partition table and makes the filesystem
	run -0 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes --report "$BATS_TEST_TMPDIR/r2.json"
	jq -e '[.objects[] | .action] == ["kept","kept","created"]' "$BATS_TEST_TMPDIR/r2.json"
	run -0 xfs_info "${LOOP}p1"
	assert_output --regexp "sunit=16 +swidth=48 blks"
	[ -f "$ROOT/etc/fstab" ]
}

@test "apply: a partition table that contradicts the profile is refused, not guessed at" {
	new_loop 1G
	echo "start=2048, size=100MiB" | sfdisk -q --label gpt "$LOOP" >/dev/null
	before=$(img_sum "$IMG")
	profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	run -2 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes
	assert_output --partial "carries a gpt partition table with 1 partition that is not the planned one"
	[ "$(img_sum "$IMG")" = "$before" ]
}

@test "apply: without --yes and without a terminal, nothing is written" {
	new_loop 1G
	before=$(img_sum "$IMG")
	profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	run -2 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" </dev/null
	assert_output --partial "refusing to write without --yes"
	[ "$(img_sum "$IMG")" = "$before" ]
}

@test "apply: whole-disk XFS on a LUN, and independent LUNs in parallel" {
	new_loop 1G; a=$N
	new_loop 1G; b=$N
	cat >"$BATS_TEST_TMPDIR/p.xml" <<XML
<?xml version="1.0"?>
<profile version="1" name="two-luns">
  <disks id="lun" count="2">
    <match name="loop*" min-size="1G" max-size="1G"/>
    <hwraid level="6" members="6" chunk="128K"/>
  </disks>
  <xfs on="lun" label="lun%n" mountpoint="/lun%n"/>
</profile>
XML
	# only our two loop devices are 1 GiB loops? make sure of it
	n=$(for d in /sys/block/loop*; do [ -f "$d/loop/backing_file" ] && [ "$(cat "$d/size")" = 2097152 ] && echo x; done | wc -l)
	[ "$n" -eq 2 ] || skip "other 1 GiB loop devices exist"
	run -0 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes --jobs 2
	# two LUNs of one size: one mkfs.xfs dry run, and the AG size taken from it
	assert_output --partial "1 mkfs.xfs dry run for 2 filesystems"
	said=$output
	for d in "$a" "$b"; do
		# mkfs.xfs's own AG size on this block device, asked independently of storprov
		own=$(mkfs.xfs -N -f -d su=128k,sw=4 -l version=2,su=4k "/dev/$d" | sed -n 's/.*agsize=\([0-9]*\) blks.*/\1/p')
		run -0 xfs_info "/dev/$d"
		assert_output --regexp "sunit=32 +swidth=128 blks"
		got=$(sed -n 's/.*agsize=\([0-9]*\) blks.*/\1/p' <<<"$output")
		echo "/dev/$d: mkfs.xfs's own AG size $own, made $got"
		# storprov's AG size is whole full stripes (128 blocks), and what it started from is the
		# device's own (the shared dry run ran on a file, not on the device)
		[ $((got % 128)) -eq 0 ]
		if [ "$got" != "$own" ]; then
			grep -q "/dev/$d: AG size $got blocks .* instead of mkfs.xfs's $own[,;]" <<<"$said"
		fi
	done
}

@test "apply: the device the system boots from is refused, even with wipe" {
	new_loop 1G
	echo "start=2048, size=400MiB" | sfdisk -q --label gpt "$LOOP" >/dev/null
	partx -u "$LOOP" 2>/dev/null || true
	for _ in 1 2 3 4 5; do [ -b "${LOOP}p1" ] && break; sleep 0.2; done
	[ -b "${LOOP}p1" ] || skip "no partition node"
	mkfs.xfs -q -L "bootme$$" "${LOOP}p1"
	before=$(img_sum "$IMG")
	# a sysroot whose kernel command line boots from that filesystem
	sr="$BATS_TEST_TMPDIR/sysroot"
	mkdir -p "$sr/proc/self"
	ln -s /sys "$sr/sys"
	cp /proc/meminfo "$sr/proc/meminfo"
	: >"$sr/proc/self/mountinfo"
	echo "BOOT_IMAGE=/vmlinuz root=LABEL=bootme$$ ro quiet" >"$sr/proc/cmdline"
	profile "$BATS_TEST_TMPDIR/p.xml" "$N" 'wipe="true"'
	run -2 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --sysroot "$sr" --root "$ROOT" --yes
	assert_output --partial "is the boot device (root=LABEL=bootme$$ on the kernel command line)"
	assert_output --partial "nothing was written"
	[ "$(img_sum "$IMG")" = "$before" ]
}

@test "apply: --jobs writes several partition tables at once, each in a child; a failed one is named, the others complete" {
	new_loop 1G; a=$N
	new_loop 1G; b=$N
	new_loop 1G; c=$N
	n=$(for d in /sys/block/loop*; do [ -f "$d/loop/backing_file" ] && [ "$(cat "$d/size")" = 2097152 ] && echo x; done | wc -l)
	[ "$n" -eq 3 ] || skip "other 1 GiB loop devices exist"
	cat >"$BATS_TEST_TMPDIR/p.xml" <<XML
<?xml version="1.0"?>
<profile version="1" name="three-luns">
  <disks id="lun" count="3">
    <match name="loop*" min-size="1G" max-size="1G"/>
    <hwraid level="5" members="4" chunk="64K"/>
    <gpt><partition id="data" size="100%"/></gpt>
  </disks>
  <xfs on="lun.data" label="lun%n" mountpoint="/lun%n"/>
</profile>
XML
	# the third LUN is read-only: libparted's write fails in its child
	blockdev --setro "/dev/$c"
	run -1 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes --jobs 3 \
		--report "$BATS_TEST_TMPDIR/r.json"
	blockdev --setrw "/dev/$c"
	# three GPT steps started as children before any of them ended
	[ "$(grep -c 'start: GPT.*(libparted, child [0-9]*)' <<<"$output")" -eq 3 ] || {
		grep -E 'start:|GPT' <<<"$output"
		false
	}
	# the read-only one failed with libparted's reason, through the child's pipe
	jq -e --arg d "/dev/$c" '[.objects[] | select(.kind == "disk" and .device == $d) | .steps[] | select(.kind == "gpt")][0]
		| .action == "failed" and (.message | test("writing the partition table failed: .*(not permitted|read-only)"; "i"))' \
		"$BATS_TEST_TMPDIR/r.json" || { jq '.objects[]' "$BATS_TEST_TMPDIR/r.json"; false; }
	# the two others: tables and filesystems, read back with sgdisk and xfs_info
	for d in "$a" "$b"; do
		run -0 sgdisk -i 1 "/dev/$d"
		assert_output --regexp "First sector: [0-9]+ "
		run -0 xfs_info "/dev/${d}p1"
		assert_output --regexp "sunit=16 +swidth=48 blks"
	done
	[ ! -e "/sys/class/block/${c}p1" ]
}

@test "apply: a disk too small for XFS's log (350 MiB, 4 x 64 KiB RAID5) fails at mkfs.xfs's dry run, before the GPT is written" {
	new_loop 350M
	profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	before=$(img_sum "$IMG")
	run -1 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes --mount --report "$BATS_TEST_TMPDIR/r.json"
	assert_output --partial "mkfs.xfs -N (a dry run with the plan's options"
	assert_output --partial "the XFS on /dev/${N}p1 cannot be made"
	assert_output --partial "1 mkfs.xfs dry run failed: nothing was written"
	# nothing was written: the image is byte for byte what it was, no table (sgdisk, blkid), no files
	[ "$(img_sum "$IMG")" = "$before" ]
	run sgdisk -p "$LOOP"
	assert_output --partial "Creating new GPT entries in memory"   # sgdisk found no table
	[ ! -e "/sys/class/block/${N}p1" ]
	[ -z "$(blkid -p -o value -s PTTYPE "$LOOP" || true)" ]
	[ ! -e "$ROOT/etc/fstab" ]
	[ "$(jq -r .exit_code "$BATS_TEST_TMPDIR/r.json")" = 1 ]
}

@test "apply: after the LUN grows, storprov's own table with data is not met with --wipe advice; the advice given works" {
	new_loop 1G
	profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	run -0 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes --mount
	echo precious >"$ROOT/data/file"
	uuid=$(blkid -o value -s UUID "${LOOP}p1")
	umount "$ROOT/data"
	# the LUN grows by 512 MiB
	truncate -s 1536M "$IMG"
	losetup -c "$LOOP"
	before=$(img_sum "$IMG")
	run -2 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes
	assert_output --partial "carries storprov's own partition table (disk GUID"
	assert_output --partial "storprov does not grow partitions or filesystems"
	assert_output --partial "xfs_growfs /data (mounted)"
	refute_output --partial "pass --wipe"
	refute_output --partial "add wipe=\"true\""
	[ "$(img_sum "$IMG")" = "$before" ]
	# the advice, word for word, keeps the data and makes the table the planned one
	cmds=$(sed -n 's/.*grow it by hand to the planned table: \(.*\); then xfs_growfs.*/\1/p' <<<"$output")
	echo "advice: $cmds"
	[[ $cmds == "sgdisk -e $LOOP (the backup table to the new end); parted -s $LOOP unit s resizepart 1 "*s ]]
	sgdisk -e "$LOOP" >/dev/null
	end=${cmds##* resizepart 1 }
	parted -s "$LOOP" unit s resizepart 1 "$end"
	partx -u "$LOOP" 2>/dev/null || true
	mkdir -p "$BATS_TEST_TMPDIR/m"
	mount "${LOOP}p1" "$BATS_TEST_TMPDIR/m"
	xfs_growfs "$BATS_TEST_TMPDIR/m" >/dev/null
	umount "$BATS_TEST_TMPDIR/m"
	run -0 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes --mount
	refute_output --partial "wipe"
	[ "$(blkid -o value -s UUID "${LOOP}p1")" = "$uuid" ]
	[ "$(cat "$ROOT/data/file")" = precious ]
	run -0 xfs_info "${LOOP}p1"
	assert_output --regexp "sunit=16 +swidth=48 blks"
}

# sp_module ARGS...: the storprov.core.storprov Ansible module on this host
# (ansible's ad-hoc command, one-line output), with Debian's ansible-core
sp_module() {
	LC_ALL=C.UTF-8 ANSIBLE_COLLECTIONS_PATH="$TOP" ANSIBLE_NOCOLOR=1 PATH="/usr/bin:$PATH" \
		ansible localhost -c local -e ansible_python_interpreter=/usr/bin/python3 -o \
		-m storprov.core.storprov -a "profile=$BATS_TEST_TMPDIR/p.xml root=$ROOT binary=$SP mount=true lock_file=$BATS_TEST_TMPDIR/storprov.lock" "$@" 2>&1
}

@test "apply through the Ansible module: check mode writes nothing; changed, then unchanged on the second run" {
	command -v ansible >/dev/null || skip "no ansible (ansible-core)"
	new_loop 1G
	profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	mkdir -p "$ROOT"
	local before
	before=$(img_sum "$IMG")
	run -0 sp_module --check --diff
	assert_line --regexp '^localhost \| CHANGED => '
	assert_output --partial '"status": "drift"'
	assert_output --partial "GPT on /dev/$N"
	[ "$(img_sum "$IMG")" = "$before" ]
	[ -z "$(ls -A "$ROOT")" ]
	[ ! -e "/sys/class/block/${N}p1" ]
	run -0 sp_module
	assert_line --regexp '^localhost \| CHANGED => '
	run -0 xfs_info "${LOOP}p1"
	assert_output --regexp "sunit=16 +swidth=48 blks"
	uuid=$(blkid -o value -s UUID "${LOOP}p1")
	run -0 findmnt --tab-file "$ROOT/etc/fstab" -n -o SOURCE /data
	assert_output "UUID=$uuid"
	# the second run: storprov's message on stderr should it fail
	run sp_module
	grep -o '"msg": "[^"]*"' <<<"$output" >&2 || true
	[ "$status" = 0 ]
	assert_line --regexp '^localhost \| SUCCESS => '
	assert_output --partial '"changed": false'
	[ "$(blkid -o value -s UUID "${LOOP}p1")" = "$uuid" ]
	# a storprov refusal (another disk holding XFS, no wipe) fails the task with
	# storprov's message and exit code, and leaves the disk as it was
	umount "$ROOT/data"
	new_loop 1G
	mkfs.xfs -q "$LOOP"
	before=$(img_sum "$IMG")
	profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	run -2 sp_module
	assert_line --regexp '^localhost \| FAILED! => '
	assert_output --partial '"rc": 2'
	assert_output --regexp '"msg": "storprov: [^"]*refused: lun \(/dev/'"$N"'\)'
	[ "$(img_sum "$IMG")" = "$before" ]
}

@test "apply: a --report that cannot be written is refused before the first write (exit 2), dry run alike" {
	new_loop 1G
	profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	before=$(img_sum "$IMG")
	# a read-only directory (a read-only bind mount of itself), with an earlier run's report in it
	ro="$BATS_TEST_TMPDIR/ro"
	mkdir "$ro"
	echo '{"exit_code": 0}' >"$ro/r.json"
	mount --bind "$ro" "$ro"
	mount -o remount,bind,ro "$ro"
	for dry in "" --dry-run; do
		run -2 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes $dry --report "$ro/r.json"
		assert_output --partial "--report $ro/r.json cannot be written: no file can be made in its directory ($ro) (Read-only file system)"
		assert_output --partial "the file there is an earlier run's report, not this one's"
		assert_output --partial "nothing was written"
	done
	umount "$ro"
	# the parent is a regular file; the report path is a directory
	: >"$BATS_TEST_TMPDIR/file"
	run -2 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes --report "$BATS_TEST_TMPDIR/file/sub/r.json"
	assert_output --partial "--report $BATS_TEST_TMPDIR/file/sub/r.json cannot be written: a component of its directory is not a directory ($BATS_TEST_TMPDIR/file) (Not a directory)"
	run -2 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes --dry-run --report "$BATS_TEST_TMPDIR"
	assert_output --partial "--report $BATS_TEST_TMPDIR cannot be written: it is a directory (Is a directory)"
	# nothing touched: the disk, the target root
	[ "$(img_sum "$IMG")" = "$before" ]
	[ ! -e "$ROOT/etc/fstab" ]
	# a dry run with a writable --report writes it (exit_code 0), and replaces an earlier one
	mkdir "$BATS_TEST_TMPDIR/new"
	echo stale >"$BATS_TEST_TMPDIR/new/r.json"
	run -0 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --dry-run --report "$BATS_TEST_TMPDIR/new/r.json"
	[ "$(jq -r .exit_code "$BATS_TEST_TMPDIR/new/r.json")" = 0 ]
	[ "$(img_sum "$IMG")" = "$before" ]
}

@test "apply: a report that still cannot be written at the end fails the run (exit 1) and no earlier report is left" {
	new_loop 1G
	profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	rd="$BATS_TEST_TMPDIR/reports"
	mkdir "$rd"
	echo '{"exit_code": 0, "stale": true}' >"$rd/r.json"
	# the directory turns immutable after the inspection, before the first step
	STORPROV_TEST_BEFORE_WRITES="chattr +i '$rd'" run -1 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes \
		--report "$rd/r.json"
	chattr -i "$rd"
	assert_output --partial "STORPROV_TEST_BEFORE_WRITES exited 0"
	assert_output --partial "cannot write the report $rd/r.json: Operation not permitted; no report is left there (exit 1)"
	# the earlier run's report is gone: a caller finds no report, not a stale one
	[ ! -e "$rd/r.json" ]
	[ -z "$(ls -A "$rd")" ]
	# the run itself went through
	[ -f "$ROOT/etc/fstab" ]
}

@test "apply: a full file system under the report (ENOSPC at the end): exit 1 with the reason, the earlier report gone" {
	new_loop 1G
	profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	full="$BATS_TEST_TMPDIR/full"
	mkdir "$full"
	mount -t tmpfs -o size=256k tmpfs "$full"
	echo '{"exit_code": 0, "stale": true}' >"$full/r.json"
	# every block taken: the report (tens of KiB) cannot be written, an empty file still can
	dd if=/dev/zero of="$full/fill" bs=4k status=none 2>/dev/null || true
	run -1 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes --report "$full/r.json"
	assert_output --partial "cannot write the report $full/r.json: No space left on device; no report is left there (exit 1)"
	[ ! -e "$full/r.json" ]
	[ -z "$(ls -A "$full" | grep -v '^fill$')" ]
	[ -f "$ROOT/etc/fstab" ]
	umount "$full"
}
