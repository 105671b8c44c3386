#!/bin/bash
# Issue 43 item 1 (guest): the inspection before the first write on disks that
# seek. The virtio disks seek0.. (sparse; nothing is ever written to them) are
# carved into N slices of GIB GiB, each a dm-delay target (dlyK) that adds a
# fixed delay to every request; over each a loop device with direct I/O, so
# storprov sees N ordinary disks (it treats dm devices apart). Every target is
# switched between 0 ms and MS ms with dmsetup suspend/reload/resume, so the
# same devices are measured with and without the delay, in the same boot.
#
# Measured REPS times, caches dropped before each command (sync, drop_caches,
# blockdev --flushbufs on the loops):
#   wipefs -n of 1 disk; blkid -p of 1 disk; wipefs -n of the N disks one
#   after another; storprov apply --dry-run of a profile on 1, 8 and N disks
#   at the default --jobs, and on N disks with --jobs 8.
# Each command runs at both delays back to back, one switch between, so that
# a slow spell of the shared host falls on both sides of a pair alike; which
# delay comes first alternates from command to command and from repetition
# to repetition. Each switch prints "SEEK_SWITCH to_ms=M took_ms=T
# check_ms=C" (C: 8 direct 4 KiB reads of one target, the model at work).
# With /usr/lib/bench/rangeread in the image (bench/run.sh builds it from
# bench/guest/rangeread.c), the floor too: the read requests of one traced
# dry run of disk 0, replayed on 1 and N disks at once with nothing else.
# With /usr/sbin/storprov-a in the image (bench/run.sh: BENCH_SEEK_BEFORE),
# every storprov row is measured with it too (bin=a; bin=b is
# /usr/sbin/storprov), a then b on odd repetitions, b then a on even ones.
#
# Prints one line a measurement:
#   SEEK tool=wipefs|blkid disks=D delay_ms=M rep=R wall_ms=W rc=C reqs=Q rd_kib=K
#   SEEK tool=storprov bin=b|a disks=D jobs=default|8 delay_ms=M rep=R wall_ms=W
#        rc=C reqs=Q rd_kib=K insp_ms=I threads=T max_concurrent=K
#   SEEK tool=replay disks=D delay_ms=M rep=R wall_ms=W rc=C reqs=Q rd_kib=K
#        read_ms=T (T: rangeread's own time, from its first open to its last read)
# (reqs, rd_kib: the read requests and KiB that reached the dm-delay targets,
# from their /sys/block/dm-*/stat; insp_ms, threads, max_concurrent: the
# --report's inspection object, its elapsed_s, worker threads and the most
# disks inspected at once), and the set-up as SEEK_* KEY=VALUE lines. With
# N = 8 the 8-disk row is the N-disk row, measured once.
# Environment: BENCH_SEEK_N (60), BENCH_SEEK_GIB (4), BENCH_SEEK_MS (8),
# BENCH_SEEK_REPS (3), BENCH_SEEK_DISKS (virtio disks, serials seek0.., 1).
# shellcheck source=bench/guest/lib.sh
. /usr/lib/bench/lib.sh
set -u
n=${BENCH_SEEK_N:-60}
gib=${BENCH_SEEK_GIB:-4}
ms=${BENCH_SEEK_MS:-8}
reps=${BENCH_SEEK_REPS:-3}
nd=${BENCH_SEEK_DISKS:-1}
sect=$((gib * 2097152))
[ "$n" -ge 8 ] || die "BENCH_SEEK_N=$n: at least 8 disks (the 8-disk row)"
command -v jq >/dev/null || die "no jq in the guest"
modprobe dm_delay || die "modprobe dm_delay failed"

read -r -a V <<<"$(disks seek "$nd")" || exit 1
# the slices: target K is sectors TOFF[K].. of TDEV[K]
TDEV=() TOFF=()
for v in "${V[@]}"; do
	cap=$(blockdev --getsz "$v")
	for ((off = 0; off + sect <= cap && ${#TDEV[@]} < n; off += sect)); do
		TDEV+=("$v") TOFF+=("$off")
	done
done
[ "${#TDEV[@]}" -eq "$n" ] || die "the disks ${V[*]} hold ${#TDEV[@]} slices of $gib GiB, not $n"

# table K MS: dlyK's dm-delay table with a delay of MS ms
table() { echo "0 $sect delay ${TDEV[$1]} ${TOFF[$1]} $2"; }

L=() names=() STATS=()
for ((k = 0; k < n; k++)); do
	dmsetup create "dly$k" --table "$(table "$k" 0)" || die "dmsetup create dly$k failed"
done
udevadm settle
for ((k = 0; k < n; k++)); do
	dm=$(readlink -f "/dev/mapper/dly$k")
	STATS+=("/sys/block/${dm#/dev/}/stat")
	[ -r "${STATS[$k]}" ] || die "no ${STATS[$k]} for dly$k"
done
for ((k = 0; k < n; k++)); do
	l=$(losetup --direct-io=on -f --show "/dev/mapper/dly$k") || die "losetup over dly$k failed"
	b=${l#/dev/}
	[ "$(cat "/sys/block/$b/loop/dio")" = 1 ] || die "$l: direct I/O is off"
	L+=("$l") names+=("$b")
done
udevadm settle
kv SEEK_N "$n"
kv SEEK_GIB "$gib"
kv SEEK_MS "$ms"
kv SEEK_REPS "$reps"
kv SEEK_VIRTIO "${V[*]}"
kv SEEK_LOOPS "${names[*]}"

/usr/lib/bench/prov-profile.sh bench-seek-1 name "${names[0]}" >/tmp/seek-1.xml
/usr/lib/bench/prov-profile.sh bench-seek-8 name "${names[@]:0:8}" >/tmp/seek-8.xml
/usr/lib/bench/prov-profile.sh "bench-seek-$n" name "${names[@]}" >"/tmp/seek-$n.xml"

bins=(b)
if [ -x /usr/sbin/storprov-a ]; then
	bins=(a b)
	kv SEEK_BIN_A "$(/usr/sbin/storprov-a --version 2>&1 | head -1)"
fi
kv SEEK_BIN_B "$(/usr/sbin/storprov --version 2>&1 | head -1)"

DM=()
for ((k = 0; k < n; k++)); do DM+=("dly$k"); done
cur=0
# set_delay MS: every target's delay: all suspended, each reloaded, all
# resumed (one udev settle for the resume events)
set_delay() {
	local k t0 t1 c
	[ "$1" != "$cur" ] || return 0
	t0=$(now_ms)
	dmsetup suspend "${DM[@]}" || die "dmsetup suspend failed"
	for ((k = 0; k < n; k++)); do
		dmsetup reload "dly$k" --table "$(table "$k" "$1")" ||
			die "dly$k: the reload to $1 ms failed"
	done
	dmsetup resume --noudevsync "${DM[@]}" || die "dmsetup resume failed"
	udevadm settle
	cur=$1
	t1=$(now_ms)
	dd if=/dev/mapper/dly0 of=/dev/null bs=4k count=8 iflag=direct status=none
	c=$(($(now_ms) - t1))
	echo "SEEK_SWITCH to_ms=$1 took_ms=$((t1 - t0)) check_ms=$c"
	kv SEEK_CHECK_"$1"MS_8READS_MS "$c"
}

# other: the delay that is not the current one
other() { if [ "$cur" = 0 ]; then echo "$ms"; else echo 0; fi; }

# both CMD...: CMD at the current delay, then at the other
both() {
	"$@"
	set_delay "$(other)"
	"$@"
}

# before every measured command: nothing of the disks left in a cache
prep() {
	blockdev --flushbufs "${L[@]}"
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# reads: RQ and RS, the read requests and sectors the targets have taken
reads() {
	local p f
	RQ=0 RS=0
	for p in "${STATS[@]}"; do
		read -r -a f <"$p"
		RQ=$((RQ + f[0])) RS=$((RS + f[2]))
	done
}

# wipefs_all: wipefs -n of every disk, one after another
wipefs_all() {
	local l rc=0
	for l in "${L[@]}"; do wipefs -n "$l" >/dev/null || rc=$?; done
	return $rc
}

# tool NAME DISKS REP CMD...: one SEEK line for CMD
tool() {
	local name=$1 d=$2 r=$3 t0 t1 rc=0 q s
	shift 3
	prep
	reads
	q=$RQ s=$RS
	t0=${EPOCHREALTIME/./}
	"$@" >/dev/null 2>&1 || rc=$?
	t1=${EPOCHREALTIME/./}
	reads
	echo "SEEK tool=$name disks=$d delay_ms=$cur rep=$r wall_ms=$(((t1 - t0) / 1000)) rc=$rc" \
		"reqs=$((RQ - q)) rd_kib=$(((RS - s) / 2))"
}

# sp BIN DISKS JOBS REP: one SEEK line for storprov's dry run
sp() {
	local bin=/usr/sbin/storprov j=() t0 t1 rc=0 insp q s
	[ "$1" = a ] && bin=/usr/sbin/storprov-a
	[ "$3" = default ] || j=(--jobs "$3")
	rm -f /tmp/seek.json
	prep
	reads
	q=$RQ s=$RS
	t0=${EPOCHREALTIME/./}
	"$bin" apply --dry-run --format json --profile "/tmp/seek-$2.xml" --root /target \
		--lock-file /tmp/seek.lock --report /tmp/seek.json ${j[@]+"${j[@]}"} >/tmp/seek.out 2>/tmp/seek.err || rc=$?
	t1=${EPOCHREALTIME/./}
	reads
	insp=$(jq -r '.inspection | "insp_ms=\(.elapsed_s * 1000 | round) threads=\(.threads) max_concurrent=\(.max_concurrent)"' \
		/tmp/seek.json 2>/dev/null) || insp="insp_ms=NA threads=NA max_concurrent=NA"
	echo "SEEK tool=storprov bin=$1 disks=$2 jobs=$3 delay_ms=$cur rep=$4 wall_ms=$(((t1 - t0) / 1000)) rc=$rc" \
		"reqs=$((RQ - q)) rd_kib=$(((RS - s) / 2)) $insp"
	if [ "$rc" != 0 ]; then
		echo "storprov ($1) on $2 disks exited $rc:" >&2
		tail -5 /tmp/seek.err >&2
	fi
}

# The floor: the read requests one storprov dry run of disk 0 made, as its
# dm-delay target took them (the block_bio_queue trace: dm is bio-based, no
# request of its own is issued; at 0 ms, caches
# dropped), as "OFFSET LENGTH" bytes into /tmp/seek-ranges.txt; rangeread
# replays them on 1 and N disks at once, with nothing of storprov's own work.
capture_ranges() {
	local t=/sys/kernel/tracing ev dev
	[ -d "$t/events/block" ] || mount -t tracefs nodev "$t" || die "cannot mount tracefs"
	ev=$t/events/block/block_bio_queue/enable
	[ -w "$ev" ] || die "no block_bio_queue event in $t"
	dev=$(cat "/sys/block/$(basename "$(readlink -f /dev/mapper/dly0)")/dev") # "252:0"; the trace says "252,0"
	dev=${dev/:/,}
	echo 0 >"$t/tracing_on"
	: >"$t/trace"
	echo 1 >"$ev"
	echo 1 >"$t/tracing_on"
	prep
	/usr/sbin/storprov apply --dry-run --profile /tmp/seek-1.xml --root /target --lock-file /tmp/seek.lock \
		>/dev/null 2>&1 || die "the dry run to trace failed"
	echo 0 >"$t/tracing_on"
	echo 0 >"$ev"
	# "block_bio_queue: 252,0 R 2048 + 256 [kworker/...]": reads of dly0 only
	awk -v dev="$dev" '{
		for (i = 1; i < NF; i++) if ($i == "block_bio_queue:") break
		if (i >= NF || $(i + 1) != dev || $(i + 2) !~ /^R/ || $(i + 4) != "+") next
		print $(i + 3) * 512, $(i + 5) * 512
	}' "$t/trace" >/tmp/seek-ranges.txt
	: >"$t/trace"
	[ -s /tmp/seek-ranges.txt ] || die "the trace of the dry run holds no read of dly0 ($dev)"
	kv SEEK_RANGES "$(wc -l </tmp/seek-ranges.txt)"
	kv SEEK_RANGES_KIB "$(awk '{ s += $2 } END { print s / 1024 }' /tmp/seek-ranges.txt)"
}

# rp DISKS REP: one SEEK line for rangeread over the first DISKS disks
rp() {
	local t0 t1 rc=0 q s o
	prep
	reads
	q=$RQ s=$RS
	t0=${EPOCHREALTIME/./}
	o=$(/usr/lib/bench/rangeread /tmp/seek-ranges.txt "${L[@]:0:$1}" 2>/tmp/seek-rr.err) || rc=$?
	t1=${EPOCHREALTIME/./}
	reads
	o=$(sed -n 's/.*read_ms=\([0-9]*\).*/\1/p' <<<"$o")
	echo "SEEK tool=replay disks=$1 delay_ms=$cur rep=$2 wall_ms=$(((t1 - t0) / 1000)) rc=$rc" \
		"reqs=$((RQ - q)) rd_kib=$(((RS - s) / 2)) read_ms=${o:-NA}"
	[ "$rc" = 0 ] || tail -3 /tmp/seek-rr.err >&2
}

# sps DISKS JOBS REP: sp with each build, in the repetition's order
sps() {
	local b order=("${bins[@]}")
	[ $(($3 % 2)) -eq 1 ] || [ "${#bins[@]}" -eq 1 ] || order=(b a)
	for b in "${order[@]}"; do sp "$b" "$1" "$2" "$3"; done
}

[ ! -x /usr/lib/bench/rangeread ] || capture_ranges
for ((r = 1; r <= reps; r++)); do
	# odd repetitions start at 0 ms, even ones at the delay
	if [ $((r % 2)) -eq 1 ]; then set_delay 0; else set_delay "$ms"; fi
	section "repetition $r"
	both tool wipefs 1 "$r" wipefs -n "${L[0]}"
	both tool blkid 1 "$r" blkid -p "${L[0]}"
	both tool wipefs "$n" "$r" wipefs_all
	both sps 1 default "$r"
	both sps 8 default "$r"
	[ "$n" -eq 8 ] || both sps "$n" default "$r"
	both sps "$n" 8 "$r"
	if [ -s /tmp/seek-ranges.txt ]; then
		both rp 1 "$r"
		both rp "$n" "$r"
	fi
done
for l in "${L[@]}"; do losetup -d "$l"; done
