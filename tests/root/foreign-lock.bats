#!/usr/bin/env bats
# Issue 8 on loop devices: foreign data found wherever it starts (bytes
# unchanged), one run at a time (the lock), and half-written partition tables
# that are not ours (refused without wipe; --wipe clears any state).
load crash_helper

setup_file() {
	[ "$(id -u)" -eq 0 ] && losetup -f >/dev/null 2>&1 && command -v strace >/dev/null || return 0
	cat "$SYSCTL_PATH" >"$BATS_FILE_TMPDIR/sysctl.orig"
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
	if [ -f "$BATS_FILE_TMPDIR/ref.failed" ]; then
		cat "$BATS_FILE_TMPDIR/ref.err"
		false
	fi
	LOOPLIST=$BATS_TEST_TMPDIR/loops
}

teardown() {
	for f in "$BATS_TEST_TMPDIR"/*.pid; do
		[ -f "$f" ] && kill_group "$f"
	done
	umount_under "$BATS_TEST_TMPDIR"
	drop_all_loops
}

# ---- foreign data whose partition table was erased -------------------------------

# img_sum: a checksum of the whole disk image (CRC-32 and length: any write
# shows; test_helper says why img-sum)
img_sum() {
	blockdev --flushbufs "$LOOP" 2>/dev/null || true
	"$IMG_SUM" "$IMG"
}

# foreign_disk FSTYPE START_SECTOR ERASE: a 1 GiB disk, a partition at START
# holding FSTYPE with a file in it, then the partition table erased with
# ERASE (wipefs: `wipefs -a` on the whole disk; zap: `sgdisk -Z`). The table
# is sfdisk's: sgdisk sleeps 1 s after every table it writes.
foreign_disk() {
	new_loop 1G
	echo "start=$2, size=400MiB" | sfdisk -q --label gpt "$LOOP" >/dev/null
	partx -u "$LOOP" 2>/dev/null || partx -a "$LOOP" 2>/dev/null || true
	udevadm settle 2>/dev/null || true
	for _ in $(seq 20); do [ -b "${LOOP}p1" ] && break; sleep 0.1; done
	[ -b "${LOOP}p1" ]
	case $1 in
	xfs) mkfs.xfs -q "${LOOP}p1" ;;
	ext4) mkfs.ext4 -q -F "${LOOP}p1" ;;
	esac
	mkdir "$BATS_TEST_TMPDIR/m"
	mount "${LOOP}p1" "$BATS_TEST_TMPDIR/m"
	echo "precious $RANDOM" >"$BATS_TEST_TMPDIR/m/precious.txt"
	umount "$BATS_TEST_TMPDIR/m"
	case $3 in
	wipefs) wipefs -a -q "$LOOP" ;;
	zap) sgdisk -Z "$LOOP" >/dev/null ;;
	esac
	partx -d "$LOOP" 2>/dev/null || true
	udevadm settle 2>/dev/null || true
	# the table is gone, the filesystem is not (blkid at that offset says so)
	run blkid -p -o value -s PTTYPE "$LOOP"
	[ -z "$output" ]
	run -0 blkid -p -O $(($2 * 512)) -o value -s TYPE "$LOOP"
	assert_output "$1"
	blockdev --flushbufs "$LOOP"
}

# refused_foreign FSTYPE START_SECTOR ERASE
refused_foreign() {
	local before off=$(($2 * 512)) mib=$(($2 / 2048))
	foreign_disk "$1" "$2" "$3"
	before=$(img_sum)
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	run -2 sp_apply "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root"
	# names the offset (in bytes, sectors or MiB) and what was found
	assert_output --regexp "at offset[^[:cntrl:]]*($off|${mib} ?MiB|${mib}M|sector $2)"
	assert_output --regexp "at offset[^[:cntrl:]]*$1|$1[^[:cntrl:]]*at offset"
	blockdev --flushbufs "$LOOP"
	[ "$(img_sum)" = "$before" ]
	[ ! -e "$BATS_TEST_TMPDIR/root/etc/fstab" ]
}

@test "foreign: an XFS at 1 MiB, table erased by wipefs -a, is refused and untouched" {
	refused_foreign xfs 2048 wipefs
}

@test "foreign: an XFS at 1 MiB, table erased by sgdisk -Z, is refused and untouched" {
	refused_foreign xfs 2048 zap
}

@test "foreign: an ext4 at 1 MiB, table erased by wipefs -a, is refused and untouched" {
	refused_foreign ext4 2048 wipefs
}

@test "foreign: an ext4 at 1 MiB, table erased by sgdisk -Z, is refused and untouched" {
	refused_foreign ext4 2048 zap
}

@test "foreign: an XFS at 3 MiB, table erased by wipefs -a, is refused and untouched" {
	refused_foreign xfs 6144 wipefs
}

@test "foreign: an ext4 at 3 MiB, table erased by sgdisk -Z, is refused and untouched" {
	refused_foreign ext4 6144 zap
}

@test "foreign: an ext4 at 4 MiB (another usual start), table erased, is refused and untouched" {
	refused_foreign ext4 8192 wipefs
}

@test "foreign: an XFS at 1 MiB, table erased, is also refused by --dry-run, untouched" {
	foreign_disk xfs 2048 zap
	local before
	before=$(img_sum)
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	run -2 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$BATS_TEST_TMPDIR/root" --dry-run --seed 1 --lock-file "$LOCKF"
	assert_output --partial "at offset"
	[ "$(img_sum)" = "$before" ]
}

# ---- one run at a time -------------------------------------------------------------

# start_held_run NAME: apply in its own session, in the background, its
# mkfs.xfs held at a gate until release_run NAME (the dry runs, -N, pass at
# once); waits until it is making the filesystem. Sets RUN_PID. The run holds
# its locks for as long as the test needs, and not longer: a mkfs slowed by a
# fixed delay a write held them 3 s (10 s where they had to outlast the disk
# lock's 5 s of retries), and its margin was a guess.
start_held_run() {
	mkdir -p "$BATS_TEST_TMPDIR/heldbin"
	printf '#!/bin/sh\ncase " $* " in *" -N "*) ;; *) while [ ! -e %s ]; do sleep 0.05; done ;; esac\nexec %s "$@"\n' \
		"$BATS_TEST_TMPDIR/$1.go" "$REAL_MKFS" >"$BATS_TEST_TMPDIR/heldbin/mkfs.xfs"
	chmod +x "$BATS_TEST_TMPDIR/heldbin/mkfs.xfs"
	PATH="$BATS_TEST_TMPDIR/heldbin:$PATH" in_session "$BATS_TEST_TMPDIR/$1.pid" \
		strace -o "$BATS_TEST_TMPDIR/$1.trace" -y -e trace=write,pwrite64,ioctl \
		"$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$BATS_TEST_TMPDIR/root" --yes --seed 1 --lock-file "$LOCKF" \
		>"$BATS_TEST_TMPDIR/$1.out" 2>&1 &
	for _ in $(seq 200); do
		grep -q 'step [0-9/]* start: XFS' "$BATS_TEST_TMPDIR/$1.out" 2>/dev/null && break
		sleep 0.05
	done
	grep -q 'step [0-9/]* start: XFS' "$BATS_TEST_TMPDIR/$1.out"
	# the pid of storprov itself (strace's tracee), as a lock holder would name it
	RUN_PID=$(pgrep -g "$(cat "$BATS_TEST_TMPDIR/$1.pid")" -x storprov | head -n 1)
}

# release_run NAME: let its mkfs.xfs run, wait until the run has ended
release_run() {
	touch "$BATS_TEST_TMPDIR/$1.go"
	wait_group "$BATS_TEST_TMPDIR/$1.pid" 90
	wait || true
}

# gpt_writes TRACE DEV: how many GPT headers that trace wrote to DEV
gpt_writes() {
	grep -cE "(write|pwrite64)[(][0-9]+</dev/$2>, \"EFI PART" "$1" || true
}
# dev_writes TRACE DEV: writes of any kind to DEV or its partitions, and BLKPG
dev_writes() {
	grep -cE "(write|pwrite64)[(][0-9]+</dev/$2(p[0-9]+)?>|BLKPG|BLKRRPART" "$1" || true
}

@test "lock: a second apply while one runs exits 1 naming the lock and its holder, writes nothing" {
	new_loop 1G
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	start_held_run a
	[ -n "$RUN_PID" ]
	run -1 strace -f -o "$BATS_TEST_TMPDIR/b.trace" -y -e trace=write,pwrite64,ioctl \
		"$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$BATS_TEST_TMPDIR/root" --yes --seed 1 --lock-file "$LOCKF"
	assert_output --partial "locked by"
	assert_output --regexp "locked by[^[:cntrl:]]*$RUN_PID"
	[ "$(dev_writes "$BATS_TEST_TMPDIR/b.trace" "$N")" = 0 ]
	release_run a
	grep -q 'done' "$BATS_TEST_TMPDIR/a.out"
	[ "$(gpt_writes "$BATS_TEST_TMPDIR/a.trace" "$N")" = 2 ]
	run -0 xfs_info "${LOOP}p1"
	assert_output --regexp "sunit=16 +swidth=48 blks"
}

@test "lock: a second run on the same disks with another --root is refused too (the disk lock)" {
	new_loop 1G
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	# held past the 5 s a run retries a busy disk (udev's short locks)
	start_held_run a
	run -1 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$BATS_TEST_TMPDIR/root2" --yes --seed 1 --lock-file "$BATS_TEST_TMPDIR/other.lock"
	assert_output --partial "locked by"
	[ ! -e "$BATS_TEST_TMPDIR/root2/etc/fstab" ]
	release_run a
}

@test "lock: the default run lock (/run/storprov.lock) names its holder to a second run" {
	new_loop 1G
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	LOCKF=/run/storprov.lock start_held_run a
	[ -n "$RUN_PID" ]
	# the lock file records the holder's pid
	grep -q "$RUN_PID" /run/storprov.lock
	run -1 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$BATS_TEST_TMPDIR/root" --yes --seed 1
	assert_output --regexp "locked by[^[:cntrl:]]*$RUN_PID"
	release_run a
}

@test "lock: apply --wait waits for the running apply, then finds nothing to do" {
	new_loop 1G
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	start_held_run a
	strace -f -o "$BATS_TEST_TMPDIR/b.trace" -y -e trace=write,pwrite64,ioctl \
		"$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$BATS_TEST_TMPDIR/root" --yes --seed 1 --lock-file "$LOCKF" --wait \
		>"$BATS_TEST_TMPDIR/b.out" 2>&1 &
	local pb=$! rb=0
	# the second run says it waits; only then is the first one let go
	for _ in $(seq 200); do
		grep -q 'waiting (--wait)' "$BATS_TEST_TMPDIR/b.out" && break
		sleep 0.05
	done
	grep -q 'waiting (--wait)' "$BATS_TEST_TMPDIR/b.out"
	# still waiting: it has not returned while the first run holds the lock
	kill -0 "$pb"
	touch "$BATS_TEST_TMPDIR/a.go"
	wait "$pb" || rb=$?
	output=$(cat "$BATS_TEST_TMPDIR/b.out")
	[ "$rb" -eq 0 ] || { echo "$output"; false; }
	assert_output --partial "nothing to do"
	# it waited: the first run had finished when the second one returned
	grep -q 'done' "$BATS_TEST_TMPDIR/a.out"
	[ "$(gpt_writes "$BATS_TEST_TMPDIR/b.trace" "$N")" = 0 ]
	[ "$(dev_writes "$BATS_TEST_TMPDIR/b.trace" "$N")" = 0 ]
	release_run a
}

@test "lock: two applies started together, three times: never both write the GPT" {
	local i ra rb ga gb
	for i in 1 2 3; do
		new_loop 1G
		crash_profile "$BATS_TEST_TMPDIR/p$i.xml" "$N"
		strace -f -o "$BATS_TEST_TMPDIR/a$i.trace" -y -e trace=write,pwrite64,ioctl \
			"$SP" apply --profile "$BATS_TEST_TMPDIR/p$i.xml" --root "$BATS_TEST_TMPDIR/root$i" --yes --seed 1 --lock-file "$LOCKF" \
			>"$BATS_TEST_TMPDIR/a$i.out" 2>&1 &
		local pa=$!
		strace -f -o "$BATS_TEST_TMPDIR/b$i.trace" -y -e trace=write,pwrite64,ioctl \
			"$SP" apply --profile "$BATS_TEST_TMPDIR/p$i.xml" --root "$BATS_TEST_TMPDIR/root$i" --yes --seed 1 --lock-file "$LOCKF" \
			>"$BATS_TEST_TMPDIR/b$i.out" 2>&1 &
		local pb=$!
		wait "$pa" && ra=0 || ra=$?
		wait "$pb" && rb=0 || rb=$?
		ga=$(gpt_writes "$BATS_TEST_TMPDIR/a$i.trace" "$N")
		gb=$(gpt_writes "$BATS_TEST_TMPDIR/b$i.trace" "$N")
		echo "# pair $i: exit $ra/$rb, GPT headers written $ga/$gb" >&3
		# exactly one wrote the table
		[ $((ga > 0)) -ne $((gb > 0)) ]
		# the other either lost the lock (1, "locked by") or came after it and found nothing to do
		if [ "$ga" -gt 0 ]; then w=a l=b rw=$ra rl=$rb; else w=b l=a rw=$rb rl=$ra; fi
		[ "$rw" -eq 0 ] || { cat "$BATS_TEST_TMPDIR/$w$i.out"; false; }
		if [ "$rl" -eq 1 ]; then
			grep -q "locked by" "$BATS_TEST_TMPDIR/$l$i.out"
		else
			[ "$rl" -eq 0 ] && grep -q "nothing to do" "$BATS_TEST_TMPDIR/$l$i.out" ||
				{ cat "$BATS_TEST_TMPDIR/$l$i.out"; false; }
		fi
		# and mkfs never raced: the filesystem is whole
		xfs_repair -n "${LOOP}p1" >/dev/null 2>&1
	done
}

# ---- half-written partition tables that are not ours -----------------------------

# foreign_half DEV KIND: a GPT made by sfdisk (not our layout; sfdisk, not
# sgdisk, which sleeps 1 s after writing a table), then broken:
#   pmbr        only the protective MBR is left
#   no-backup   the primary GPT without its backup
#   bad-backup  the backup header overwritten with garbage
foreign_half() {
	local sectors
	echo "start=2048, size=100MiB" | sfdisk -q --label gpt "$1" >/dev/null
	partx -d "$1" 2>/dev/null || true
	sectors=$(blockdev --getsz "$1")
	case $2 in
	pmbr)
		dd if=/dev/zero of="$1" bs=512 seek=1 count=33 conv=notrunc status=none
		dd if=/dev/zero of="$1" bs=512 seek=$((sectors - 33)) count=33 conv=notrunc status=none
		;;
	no-backup) dd if=/dev/zero of="$1" bs=512 seek=$((sectors - 33)) count=33 conv=notrunc status=none ;;
	header-only)
		dd if=/dev/zero of="$1" bs=512 seek=2 count=32 conv=notrunc status=none
		dd if=/dev/zero of="$1" bs=512 seek=$((sectors - 33)) count=33 conv=notrunc status=none
		;;
	bad-backup) head -c 512 /dev/urandom | dd of="$1" bs=512 seek=$((sectors - 1)) conv=notrunc status=none ;;
	esac
	blockdev --flushbufs "$1"
}

half_table() { # KIND
	new_loop 1G
	foreign_half "$LOOP" "$1"
	case $1 in pmbr | header-only) false ;; esac || { mkfs.ext4 -q -F -E nodiscard,offset=$((2048 * 512)) "$LOOP" 200M && [ -n "$(blkid -p -o value -s PTTYPE "$LOOP")" ]; }
	local before
	before=$(img_sum)
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	# not ours: refused without wipe, nothing written
	run -2 sp_apply "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root"
	assert_output --partial "nothing was written"
	[ "$(img_sum)" = "$before" ]
	# --wipe clears whatever is there and the run completes
	run -0 sp_apply "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root" --wipe
	local why
	why=$(check_converged "$REF" "$LOOP" "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root") || { echo "$why"; false; }
}

@test "partial GPT: a lone protective MBR with foreign data behind it is refused without wipe, cleared by --wipe" {
	# a lone protective MBR carries no disk GUID: apply takes a bare one for its
	# own unfinished table (man page); with a filesystem behind it, it must refuse
	half_table pmbr
}

@test "partial GPT: a foreign GPT header without entries or backup, with data behind it, is refused without wipe" {
	# apply takes a header without entries for its own unfinished table; the data scan must still guard
	half_table header-only
}

@test "partial GPT: a bare lone protective MBR (nothing behind it) is finished without --wipe" {
	new_loop 1G
	foreign_half "$LOOP" pmbr
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	local why
	why=$(check_converged "$REF" "$LOOP" "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root") || { echo "$why"; false; }
}

@test "partial GPT: a foreign primary GPT without its backup is refused without wipe, cleared by --wipe" {
	half_table no-backup
}

@test "partial GPT: a foreign GPT with a corrupt backup header is refused without wipe, cleared by --wipe" {
	half_table bad-backup
}

# own_half LABEL SYSCALL REGEX NTH: storprov killed inside its own GPT write;
# asserts the state it left, then a re-run without --wipe finishes it
own_half() {
	new_loop 1G
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	prime_state "$LOOP"
	local ord
	ord=$(ordinal "$REF/ref.trace" "$2" "$3" "$4")
	[ -n "$ord" ]
	in_session "$BATS_TEST_TMPDIR/k.pid" strace -o "$BATS_TEST_TMPDIR/k.trace" -y -e trace="$TRACESET" \
		-e inject="$2:signal=KILL:when=$ord" \
		"$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$BATS_TEST_TMPDIR/root" --yes --seed 1 --lock-file "$LOCKF" \
		>"$BATS_TEST_TMPDIR/k.out" 2>&1 || true
	kill_group "$BATS_TEST_TMPDIR/k.pid"
	grep -q '^+++ killed by SIGKILL' "$BATS_TEST_TMPDIR/k.trace"
	case $1 in
	pmbr)
		run -0 blkid -p -o value -s PTTYPE "$LOOP"
		assert_output PMBR
		;;
	no-backup)
		run sgdisk -v "$LOOP"
		refute_output --partial "No problems found"
		;;
	not-reread)
		run -0 blkid -p -o value -s PTTYPE "$LOOP"
		assert_output gpt
		[ ! -e "/sys/class/block/${N}p1" ]
		;;
	esac
	local why
	why=$(check_converged "$REF" "$LOOP" "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root") || { echo "$why"; false; }
}

DEV='[(][0-9]+</dev/loop[0-9]+>'

@test "partial GPT: our own lone protective MBR is rewritten without --wipe" {
	own_half pmbr write "^write$DEV, \"EFI PART" 1
}

@test "partial GPT: our own primary GPT without its backup is finished without --wipe" {
	own_half no-backup write "^write$DEV, \"EFI PART" 2
}

@test "partial GPT: our own GPT never re-read by the kernel is re-read without --wipe" {
	own_half not-reread ioctl "^ioctl$DEV, BLKPG, [{]op=BLKPG_DEL_PARTITION" 1
}

# ---- what "done" means for an XFS ---------------------------------------------------

@test "completeness: an XFS with our UUID but another stripe geometry is refused, not kept or remade" {
	new_loop 1G
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N"
	# a first run that made the partition, then died in mkfs (its dry run, before the first write, passes)
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\n[ "$1" = -N ] && exec %s "$@"\nexit 1\n' "$(command -v mkfs.xfs)" >"$BATS_TEST_TMPDIR/bin/mkfs.xfs"
	chmod +x "$BATS_TEST_TMPDIR/bin/mkfs.xfs"
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" run -1 sp_apply "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root"
	[ -b "${LOOP}p1" ]
	# someone made an XFS with the planned UUID but 128 KiB stripe units
	mkfs.xfs -q -f -m uuid="$(cat "$REF/planned")" -d su=128k,sw=3 "${LOOP}p1"
	local before
	before=$(xfs_geom "${LOOP}p1")
	run sp_apply "$BATS_TEST_TMPDIR/p.xml" "$BATS_TEST_TMPDIR/root"
	[ "$status" -ne 0 ] || { echo "$output"; false; }
	assert_output --regexp "sunit|swidth|geometry"
	[ "$(xfs_geom "${LOOP}p1")" = "$before" ]
	[ ! -e "$BATS_TEST_TMPDIR/root/etc/fstab" ]
}

@test "identity: the GPT disk GUID and partition GUID are planned (the same on every run with the same seed)" {
	local i g=()
	for i in 1 2; do
		new_loop 1G
		crash_profile "$BATS_TEST_TMPDIR/p$i.xml" "$N"
		run -0 sp_apply "$BATS_TEST_TMPDIR/p$i.xml" "$BATS_TEST_TMPDIR/root$i"
		g+=("$(sgdisk -p "$LOOP" | sed -n 's/^Disk identifier (GUID): //p') $(sgdisk -i 1 "$LOOP" | sed -n 's/^Partition unique GUID: //p')")
		drop_loop "$LOOP"
	done
	echo "run 1: ${g[0]}"
	echo "run 2: ${g[1]}"
	# our own GPT is known by these (issue 8: "derived like the other identities"), so that a
	# half-written one (a primary header whose entries never made it) can be told from a foreign one
	[ "${g[0]}" = "${g[1]}" ]
}
