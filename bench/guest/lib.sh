# shellcheck shell=bash
# Guest helpers for the benchmarks (bash; sourced by bench/guest/*.sh).
# Results are lines "R key=value key=value ..." (one measurement each) that
# bench/report.py aggregates; fio's JSON travels as "FIO <tag> <json on one line>".
. /usr/lib/vmtest/lib.sh

BP=/usr/lib/bench/profiles
export PATH=/usr/sbin:/usr/bin:/sbin:/bin

now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }

# cticks: CT = the calling shell's reaped children's CPU (cutime+cstime) in
# clock ticks (hz of them a second), read without a fork: the tools a
# benchmark times run in that shell ($$), which reaps them
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
cticks() {
	local st
	read -r -a st <"/proc/$$/stat"
	CT=$((st[15] + st[16]))
}

# disks PREFIX N: /dev names of the disks with serials PREFIX0..PREFIX(N-1)
disks() {
	local i out=()
	for ((i = 0; i < $2; i++)); do out+=("$(disk_by_serial "$1$i")") || return 1; done
	echo "${out[@]}"
}

# stat_sum DEV...: "rd_ios rd_sec wr_ios wr_sec" summed over the devices
stat_sum() {
	local d b r=0 rs=0 w=0 ws=0 f
	for d in "$@"; do
		b=$(basename "$(readlink -f "$d")")
		read -r -a f <"/sys/class/block/$b/stat"
		r=$((r + f[0])) rs=$((rs + f[2])) w=$((w + f[4])) ws=$((ws + f[6]))
	done
	echo "$r $rs $w $ws"
}

# srcdev MOUNTPOINT: the block device mounted there
srcdev() { awk -v m="$1" '$2 == m { print $1 }' /proc/mounts | tail -1; }

drop_caches() { sync; echo 3 >/proc/sys/vm/drop_caches; }

# reset_disks: the LUNs of the array L (set by the caller) wiped, partition 1
# and the table, their partitions dropped, /target removed (prov-jobs.sh,
# inspect-cost.sh). DISK_STATE=reused (the default): wipefs -a only, so the
# last run's XFS metadata stays behind its erased magics, as on a disk being
# reimaged; DISK_STATE=fresh: also zeroes the first 130 MiB and the last MiB
# (every window apply's foreign-data scan reads), as on a new LUN.
reset_disks() {
	local l sz
	sync
	for l in "${L[@]}"; do
		wipefs -a -q "${l}1" 2>/dev/null
		wipefs -a -q "$l"
		if [ "${DISK_STATE:-reused}" = fresh ]; then
			sz=$(blockdev --getsize64 "$l")
			dd if=/dev/zero of="$l" bs=1M count=130 oflag=direct status=none
			dd if=/dev/zero of="$l" bs=1M count=1 seek=$((sz / 1048576 - 1)) oflag=direct status=none
		fi
		blockdev --rereadpt "$l" >/dev/null 2>&1 || partx -d "$l" 2>/dev/null
	done
	udevadm settle
	rm -rf /target
}

# md_wait DEV...: wait for resync (counters must not include it)
md_wait() {
	local m
	for m in "$@"; do mdadm --wait "$m" >/dev/null 2>&1 || true; done
}

# fio_run TAG ARGS...: fio with JSON output, relayed as one FIO line
fio_run() {
	local tag=$1
	shift
	fio --thread --output-format=json --output=/tmp/fio.json "$@" >/dev/null 2>/tmp/fio.err || {
		echo "fio $tag failed:" >&2
		cat /tmp/fio.err >&2
		return 1
	}
	printf 'FIO %s %s\n' "$tag" "$(tr -d '\n\t' </tmp/fio.json | tr -s ' ')"
}

# measure "KEYS" MEMBERS TOP -- CMD...: runs CMD (then sync), prints one R line
# with the member and top-device counters and the wall time in ms.
# MEASURE_HOOK=FUNC (optional): "FUNC start" before the first sample, "FUNC
# end T1" after CMD's sync (T1: now_ms then); what it prints (k=v ...) ends the
# R line, and the members are read after it returns (a write-back cache in
# front of them: the hook waits until the cache has written back)
measure() {
	local keys=$1 members=$2 top=$3 a b ta tb t0 t1 more=""
	shift 4
	sync
	[ -z "${MEASURE_HOOK:-}" ] || "$MEASURE_HOOK" start
	read -r -a a <<<"$(stat_sum $members)"
	read -r -a ta <<<"$(stat_sum "$top")"
	t0=$(now_ms)
	"$@" || return 1
	sync
	t1=$(now_ms)
	[ -z "${MEASURE_HOOK:-}" ] || more=" $("$MEASURE_HOOK" end "$t1")" || return 1
	read -r -a b <<<"$(stat_sum $members)"
	read -r -a tb <<<"$(stat_sum "$top")"
	echo "R $keys ms=$((t1 - t0)) mem_rd_ios=$((b[0] - a[0])) mem_rd_sec=$((b[1] - a[1])) mem_wr_ios=$((b[2] - a[2])) mem_wr_sec=$((b[3] - a[3])) top_rd_ios=$((tb[0] - ta[0])) top_rd_sec=$((tb[1] - ta[1])) top_wr_sec=$((tb[3] - ta[3]))$more"
}

# sp_apply PROFILE: storprov apply, mounting under /target
# sp_apply PROFILE [ROOT]: ROOT (default /target) is the target root; two
# profiles need two roots (each owns its generated files)
sp_apply() {
	storprov apply --profile "$1" --yes --wipe --root "${2:-/target}" --mount --report /tmp/report.json >/tmp/apply.log 2>&1 || {
		cat /tmp/apply.log >&2
		die "storprov apply $1 failed"
	}
}

# md_create NAME LEVEL DEV...: an md array as an admin makes it by hand
md_create() {
	local name=$1 level=$2
	shift 2
	mdadm --create "/dev/md/$name" --run --metadata=1.2 --level="$level" --raid-devices=$# \
		--chunk=64 --bitmap=internal "$@" >/dev/null 2>&1 || die "mdadm --create $name failed"
	udevadm settle 2>/dev/null || true
}

# default_fs DEV MOUNTPOINT: mkfs.xfs with autodetected geometry, default mount
default_fs() {
	mkfs.xfs -f -q "$1" >/dev/null || die "mkfs.xfs $1 failed"
	mkdir -p "$2"
	mount -t xfs "$1" "$2" || die "mount $1 failed"
}

# default_part DEV: one GPT partition from 1 MiB to the end (parted's default)
default_part() {
	parted -s "$1" mklabel gpt mkpart data 1MiB 100% || die "parted $1 failed"
	udevadm settle 2>/dev/null || true
	partx -u "$1" 2>/dev/null || true
	local p
	for p in "${1}p1" "${1}1"; do [ -b "$p" ] && { echo "$p"; return 0; }; done
	die "no partition 1 on $1"
}

# xfs_facts KEY MOUNTPOINT: the geometry and options independent tools see
xfs_facts() {
	local dev b info
	dev=$(srcdev "$2")
	b=$(basename "$(readlink -f "$dev")")
	info=$(xfs_info "$2")
	kv "${1}_DEV" "$dev"
	kv "${1}_START" "$(cat "/sys/class/block/$b/start" 2>/dev/null || echo 0)"
	kv "${1}_SUNIT" "$(printf '%s\n' "$info" | sed -n '/swidth=/{s/.*sunit=\([0-9]*\) *swidth=\([0-9]*\).*/\1/p;q}')"
	kv "${1}_SWIDTH" "$(printf '%s\n' "$info" | sed -n '/swidth=/{s/.*swidth=\([0-9]*\).*/\1/p;q}')"
	kv "${1}_OPTS" "$(awk -v m="$2" '$2 == m { print $4 }' /proc/mounts | tail -1)"
	kv "${1}_IO_MIN" "$(cat "/sys/class/block/$b/queue/minimum_io_size" 2>/dev/null)"
	kv "${1}_IO_OPT" "$(cat "/sys/class/block/$b/queue/optimal_io_size" 2>/dev/null)"
}
