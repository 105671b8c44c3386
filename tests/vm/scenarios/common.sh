# shellcheck shell=sh
# Guest helpers for the storprov scenarios, next to /usr/lib/vmtest/lib.sh.
# shellcheck source=tests/vm/guest/lib.sh
. /usr/lib/vmtest/lib.sh

# apply_profile PROFILE [ARGS]: storprov apply with a report; APPLY_RC=status
apply_profile() {
	_p=$1
	shift
	section "storprov apply --profile ${_p##*/} $*"
	storprov apply --profile "$_p" --yes --report /tmp/report.json "$@" 2>&1
	_rc=$?
	kv APPLY_RC "$_rc"
	return "$_rc"
}

# slow_resync: md's resync and recovery at most 1 MB/s, for a scenario that
# checks layout, tuning and recovery from interruptions, not throughput.
# Under TCG a new RAID5/6's initial resync at full speed keeps both vCPUs
# (and a host core) busy for as long as it runs; the arrays are the same,
# their resync just runs behind. Throughput scenarios do not call it.
slow_resync() {
	[ ! -w /proc/sys/dev/raid/speed_limit_max ] || echo 1000 >/proc/sys/dev/raid/speed_limit_max
}

# part_start DEV N: start sector of partition N of DEV, from sysfs
part_start() {
	_b=${1#/dev/}
	for _p in "/sys/class/block/$_b/${_b}$2" "/sys/class/block/$_b/${_b}p$2"; do
		[ -r "$_p/start" ] && { cat "$_p/start"; return 0; }
	done
	echo "?"
}

# xfs_geom KEYPREFIX DEV: xfs_info's data sunit/swidth and log sunit, in fs blocks
xfs_geom() {
	_i=$(xfs_info "$2" 2>&1)
	printf '%s\n' "$_i"
	kv "${1}_SUNIT" "$(printf '%s\n' "$_i" | sed -n 's/.*data *=.*//;/swidth=/{s/.*sunit=\([0-9]*\) *swidth=\([0-9]*\).*/\1/p;q}')"
	kv "${1}_SWIDTH" "$(printf '%s\n' "$_i" | sed -n '/swidth=/{s/.*swidth=\([0-9]*\).*/\1/p;q}')"
	kv "${1}_LOG_SUNIT" "$(printf '%s\n' "$_i" | sed -n '/^log/{n;s/.*sunit=\([0-9]*\) blks.*/\1/p}')"
}

# queue KEYPREFIX DEV: the block queue values storprov tunes
queue() {
	_q=/sys/block/${2#/dev/}/queue
	kv_file "${1}_READ_AHEAD_KB" "$_q/read_ahead_kb"
	kv_file "${1}_MAX_SECTORS_KB" "$_q/max_sectors_kb"
	[ -r "$_q/nr_requests" ] && kv_file "${1}_NR_REQUESTS" "$_q/nr_requests"
	[ -r "$_q/scheduler" ] && kv "${1}_SCHEDULER" "$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$_q/scheduler")"
	return 0
}
