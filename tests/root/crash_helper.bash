# Shared by the issue-8 root suites (faults, foreign, lock, partial GPT, files):
# loop devices, the profile, a clean reference run and the convergence check.
# Everything is read back with independent tools: sysfs, sgdisk, blkid,
# xfs_info, xfs_db, xfs_repair, mount.
load ../bats/test_helper

REAL_MKFS=$(command -v mkfs.xfs)
TRACESET=write,pwrite64,pwritev,ioctl,fsync,fdatasync,rename,renameat,renameat2
SYSCTL_KEY=vm.dirty_expire_centisecs
SYSCTL_PATH=/proc/sys/vm/dirty_expire_centisecs
# a lock file of our own: other storprov runs on this machine cannot make these tests flaky
LOCKF=${BATS_FILE_TMPDIR:-/tmp}/storprov.lock

crash_require() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"
	losetup -f >/dev/null 2>&1 || skip "no loop devices"
	command -v strace >/dev/null || skip "no strace (scripts/install-deps.sh installs it)"
}

# new_loop SIZE [DIR]: a loop device over a sparse file, partitions scanned;
# sets LOOP, IMG, N and appends to the file $LOOPLIST for teardown
new_loop() {
	local dir=${2:-$BATS_TEST_TMPDIR}
	local img
	img=$(mktemp "$dir/disk.XXXXXX")
	truncate -s "$1" "$img"
	LOOP=$(losetup -f --show -P "$img")
	echo "$LOOP" >>"${LOOPLIST:-$BATS_TEST_TMPDIR/loops}"
	IMG=$img
	N=$(basename "$LOOP")
}

umount_under() { # DIR: unmount everything mounted below DIR
	local m
	for m in $(awk -v d="$1" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r); do
		umount -l "$m" 2>/dev/null || true
	done
}

# drop_loop DEV: unmount its partitions, detach it
drop_loop() {
	local m
	for m in $(awk -v d="$1" 'index($1, d "p") == 1 { print $2 }' /proc/mounts); do
		umount -l "$m" 2>/dev/null || true
	done
	losetup -d "$1" 2>/dev/null || true
}

drop_all_loops() {
	local f=${LOOPLIST:-$BATS_TEST_TMPDIR/loops} l
	[ -f "$f" ] || return 0
	while read -r l; do drop_loop "$l"; done <"$f"
	: >"$f"
}

# crash_profile FILE DISKNAME [disks-attributes]: 4 x 64 KiB RAID5 LUN, one
# partition, tuning, a sysctl, an XFS on /data
crash_profile() {
	cat >"$1" <<XML
<?xml version="1.0"?>
<profile version="1" name="${4:-loop-crash}">
  <disks id="lun" count="1" $3>
    <match name="$2"/>
    <hwraid level="5" members="4" chunk="64K"/>
    <tune read-ahead-kb="4096" max-sectors-kb="64"/>
    <gpt><partition id="data" size="100%"/></gpt>
  </disks>
  <xfs on="lun.data" label="lun" mountpoint="/data" mount-options="noatime"/>
  <sysctl key="$SYSCTL_KEY" value="3000"/>
</profile>
XML
}

# prime_state DEV: make every tuning step a real write (values differ from the plan)
prime_state() {
	local n
	n=$(basename "$1")
	echo 128 >"/sys/block/$n/queue/read_ahead_kb"
	echo 128 >"/sys/block/$n/queue/max_sectors_kb" 2>/dev/null || true
	echo 3001 >"$SYSCTL_PATH"
}

sp_apply() { # PROFILE ROOT [args...]
	local p=$1 r=$2
	shift 2
	"$SP" apply --profile "$p" --root "$r" --yes --seed 1 --lock-file "$LOCKF" "$@"
}

planned_uuid() { # PROFILE
	"$SP" plan --profile "$1" --seed 1 --format json | jq -r '.objects[] | select(.id | startswith("fs:")) | .uuid'
}

# xfs_geom DEV: xfs_info without the device name, sizes and units only
xfs_geom() {
	xfs_info "$1" | sed -e 's/^meta-data=[^ ]*/meta-data=/'
}

# norm LOOPNAME: the file on stdin with that loop device's name made neutral
norm() {
	sed -E "s/\b$1(p[0-9]+)?\b/LOOP\1/g"
}

# make_reference DIR: one clean run on a fresh loop; records the state every
# kill point must converge on, and the syscall trace the ordinals come from
make_reference() {
	local d=$1
	mkdir -p "$d"
	LOOPLIST=$d/loops new_loop 1G "$d"
	crash_profile "$d/p.xml" "$N"
	prime_state "$LOOP"
	strace -o "$d/ref.trace" -y -e trace="$TRACESET" \
		"$SP" apply --profile "$d/p.xml" --root "$d/root" --yes --seed 1 --lock-file "$LOCKF" >"$d/ref.out" 2>&1 ||
		{ cat "$d/ref.out"; return 1; }
	cat "/sys/class/block/${N}p1/start" >"$d/start"
	sgdisk -i 1 "$LOOP" | grep -E '^(First|Last) sector' >"$d/sgdisk"
	xfs_geom "${LOOP}p1" >"$d/xfs_info"
	blkid -o value -s UUID "${LOOP}p1" >"$d/uuid"
	planned_uuid "$d/p.xml" >"$d/planned"
	norm "$N" <"$d/root/etc/fstab" >"$d/fstab"
	norm "$N" <"$d/root/etc/udev/rules.d/70-storprov.rules" >"$d/rules"
	norm "$N" <"$d/root/etc/sysctl.d/80-storprov.conf" >"$d/sysctl"
	LOOPLIST=$d/loops drop_all_loops
	# how long a clean run takes without strace (for kill -9 delays), in ms
	LOOPLIST=$d/loops new_loop 1G "$d"
	crash_profile "$d/p2.xml" "$N"
	prime_state "$LOOP"
	local t0 t1
	t0=$(date +%s%N)
	"$SP" apply --profile "$d/p2.xml" --root "$d/root2" --yes --seed 1 --lock-file "$LOCKF" >"$d/ref2.out" 2>&1 || { cat "$d/ref2.out"; return 1; }
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000)) >"$d/run_ms"
	LOOPLIST=$d/loops drop_all_loops
	[ "$(cat "$d/uuid")" = "$(cat "$d/planned")" ]
}

# ordinal REFTRACE SYSCALL REGEX [NTH] [ANCHOR [ANCHOR_NTH]]: the count of
# SYSCALL calls up to and including the NTH (default 1st) line matching REGEX
# in the reference trace (after the ANCHOR_NTH line matching ANCHOR, if given).
# Regexes are awk/bash EREs: write "[(]" for a parenthesis.
ordinal() {
	awk -v sc="$2(" -v re="$3" -v nth="${4:-1}" -v an="${5:-}" -v ann="${6:-1}" '
		BEGIN { armed = an == "" }
		!armed && $0 ~ an && ++ah == ann { armed = 1; if (index($0, sc) == 1) c++; next }
		index($0, sc) == 1 { c++; if (armed && $0 ~ re && ++hit == nth) { print c; exit } }' "$1"
}

# which_sc REFTRACE REGEX SYSCALL...: the first SYSCALL whose call matches REGEX
which_sc() {
	local t=$1 re=$2 sc
	shift 2
	for sc in "$@"; do
		grep -E "^${sc}[(]" "$t" | grep -qE "$re" && { echo "$sc"; return 0; }
	done
	return 1
}

# check_converged REF LOOP PROFILE ROOT: rerun without --wipe, compare with the
# reference, third run says nothing to do. Prints why not, returns 1.
check_converged() {
	local ref=$1 loop=$2 p=$3 root=$4 n out rc mnt
	n=$(basename "$loop")
	out=$(sp_apply "$p" "$root" 2>&1)
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "re-run exited $rc: $(echo "$out" | grep -vE 'warning|inspecting' | tail -n 4 | tr '\n' '|')"
		return 1
	fi
	udevadm settle 2>/dev/null || true
	[ "$(cat "/sys/class/block/${n}p1/start" 2>/dev/null)" = "$(cat "$ref/start")" ] ||
		{ echo "partition start $(cat "/sys/class/block/${n}p1/start" 2>/dev/null) != $(cat "$ref/start")"; return 1; }
	[ "$(sgdisk -i 1 "$loop" | grep -E '^(First|Last) sector')" = "$(cat "$ref/sgdisk")" ] ||
		{ echo "sgdisk -i 1 differs"; return 1; }
	sgdisk -v "$loop" | grep -q "No problems found" || { echo "sgdisk -v: $(sgdisk -v "$loop" | head -3 | tr '\n' ' ')"; return 1; }
	[ "$(blkid -p -o value -s UUID "${loop}p1")" = "$(cat "$ref/planned")" ] || { echo "XFS uuid is not the planned one"; return 1; }
	[ "$(xfs_geom "${loop}p1")" = "$(cat "$ref/xfs_info")" ] || { echo "xfs_info geometry differs"; return 1; }
	[ "$(xfs_db -r -c 'sb 0' -c 'p inprogress' "${loop}p1")" = "inprogress = 0" ] ||
		{ echo "primary superblock: $(xfs_db -r -c 'sb 0' -c 'p inprogress' "${loop}p1")"; return 1; }
	xfs_repair -n "${loop}p1" >/dev/null 2>&1 || { echo "xfs_repair -n is not clean"; return 1; }
	mnt=$(mktemp -d)
	if ! mount -t xfs "${loop}p1" "$mnt" 2>"$mnt.err"; then
		echo "not mountable: $(cat "$mnt.err")"
		rmdir "$mnt"
		return 1
	fi
	umount "$mnt"
	rmdir "$mnt"
	local nf
	nf=$(awk '$1 !~ /^#/ && $2 == "/data"' "$root/etc/fstab" 2>/dev/null | wc -l)
	[ "$nf" = 1 ] || { echo "fstab has $nf lines for /data"; return 1; }
	norm "$n" <"$root/etc/fstab" | cmp -s - "$ref/fstab" || { echo "fstab differs from a clean run"; return 1; }
	norm "$n" <"$root/etc/udev/rules.d/70-storprov.rules" | cmp -s - "$ref/rules" || { echo "rules file differs"; return 1; }
	norm "$n" <"$root/etc/sysctl.d/80-storprov.conf" | cmp -s - "$ref/sysctl" || { echo "sysctl.d file differs"; return 1; }
	local stale
	stale=$(find "$root" -name '*.storprov-*' | head -3)
	[ -z "$stale" ] || { echo "stale temp files left: $stale"; return 1; }
	[ "$(cat "/sys/block/$n/queue/read_ahead_kb")" = 4096 ] || { echo "read_ahead_kb not applied"; return 1; }
	[ "$(cat "/sys/block/$n/queue/max_sectors_kb")" = 64 ] || { echo "max_sectors_kb not applied"; return 1; }
	[ "$(cat "$SYSCTL_PATH")" = 3000 ] || { echo "sysctl not applied"; return 1; }
	out=$(sp_apply "$p" "$root" 2>&1)
	rc=$?
	[ "$rc" -eq 0 ] && echo "$out" | grep -q "nothing to do" ||
		{ echo "third run (rc $rc) is not 'nothing to do': $(echo "$out" | tail -n 3 | tr '\n' '|')"; return 1; }
	return 0
}

# in_session PIDFILE CMD...: run CMD as the leader of a new session (and
# process group), its pid in PIDFILE, and wait for it
in_session() {
	local pf=$1
	shift
	setsid -w bash -c 'echo $$ >"$0"; exec "$@"' "$pf" "$@"
}

# kill_group PIDFILE: SIGKILL what is left of that process group, wait until it is gone
kill_group() {
	local g
	g=$(cat "$1" 2>/dev/null) || return 0
	[ -n "$g" ] || return 0
	kill -KILL -- "-$g" 2>/dev/null || true
	for _ in $(seq 100); do
		kill -0 -- "-$g" 2>/dev/null || return 0
		sleep 0.05
	done
}

# wait_group PIDFILE [SECONDS]: wait until that process group has no members
wait_group() {
	local g
	g=$(cat "$1" 2>/dev/null) || return 0
	for _ in $(seq $((${2:-60} * 10))); do
		kill -0 -- "-$g" 2>/dev/null || return 0
		sleep 0.1
	done
	return 1
}

# slow_mkfs DIR DELAY_US: a mkfs.xfs on PATH in DIR that runs the real one with
# every pwrite64 delayed (so it can be killed midway)
slow_mkfs() {
	mkdir -p "$1"
	cat >"$1/mkfs.xfs" <<SH
#!/bin/sh
exec strace -f -o /dev/null -e inject=pwrite64:delay_exit=$2 $REAL_MKFS "\$@"
SH
	chmod +x "$1/mkfs.xfs"
}

# dying_mkfs DIR N: a mkfs.xfs that is SIGKILLed at its Nth pwrite64
dying_mkfs() {
	mkdir -p "$1"
	cat >"$1/mkfs.xfs" <<SH
#!/bin/sh
exec strace -f -o /dev/null -e inject=pwrite64:signal=KILL:when=$2 $REAL_MKFS "\$@"
SH
	chmod +x "$1/mkfs.xfs"
}

tally() { # RESULTFILE LABEL ok|fail [reason]
	echo "$3 $2 ${4:-}" >>"$1"
}
