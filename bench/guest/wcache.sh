# shellcheck shell=bash
# Guest helpers (bash; sourced by bench/guest/rmw.sh and parity-md.sh): a
# write-back cache in front of a LUN stand-in's md array (issue 43 item 2).
# dm-writecache stands in for a controller's battery-backed cache: it takes
# writes, and writes them back to the array in the background. WC_DEVS: the
# names of the caches made (wc_create adds to it). Needs kv and die
# (/usr/lib/vmtest/lib.sh).

WC_DEVS=${WC_DEVS:-}
wc_now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }

# wc_create NAME ORIGIN CACHEDEV BLOCK: NAME = dm-writecache in SSD mode on
# CACHEDEV (zeroed: a fresh image) in front of ORIGIN, in blocks of BLOCK
# bytes, with the optional arguments BENCH_WB_OPTS. The block size becomes
# the device's logical block size, so a loop device on top needs it as its
# sector size (a 512-byte loop's direct writes fail on it). Not 512: in SSD
# mode writecache writes back at most 256 blocks in one piece, 128 KiB with
# 512-byte blocks, less than the loop-lun stand-in's full stripe (192 KiB),
# and its full-stripe O_DIRECT writes then read 0.02-0.05 after the cache
# against 0.0003-0.0014 without one (trial boot, bench/README.md 1f)
wc_create() {
	local opts o
	opts=${BENCH_WB_OPTS:-high_watermark 50 low_watermark 45 max_age 4000 pause_writeback 0}
	read -r -a o <<<"$opts"
	dmsetup create "$1" --table "0 $(blockdev --getsz "$2") writecache s $(readlink -f "$2") $3 $4 ${#o[@]} $opts" ||
		die "dmsetup create $1 (writecache $opts)"
	udevadm settle
	kv "WC_TABLE_$1" "$(dmsetup table "$1")"
	WC_DEVS="${WC_DEVS:+$WC_DEVS }$1"
}
# wc_status_kv KEY: KEY=the caches' `dmsetup status` lines, each after its name
wc_status_kv() {
	local d
	kv "$1" "$(for d in $WC_DEVS; do echo "$d: $(dmsetup status "$d")"; done)"
}
# wc_stat: over the caches in WC_DEVS, "blocks free under_writeback writes
# hits_uncommitted hits_committed writes_around writes_allocated
# writes_blocked" (dm-writecache's status fields 2-4 and 7-12; in blocks,
# requests for writes_blocked)
wc_stat() {
	local d
	for d in $WC_DEVS; do dmsetup status "$d"; done |
		awk '{ for (i = 5; i <= 15; i++) t[i] += $i } END { print t[5], t[6], t[7], t[10], t[11], t[12], t[13], t[14], t[15] }'
}
# wc_drain: waits until the caches hold no dirty block (at most 300 s); C =
# the last wc_stat
wc_drain() {
	local i=0
	read -r -a C <<<"$(wc_stat)"
	while [ $((C[0] - C[1] + C[2])) -gt 0 ] && [ $i -lt 1500 ]; do
		sleep 0.2
		i=$((i + 1))
		read -r -a C <<<"$(wc_stat)"
	done
}
# wc_hook start | end T1: measure's hook for a LUN behind dm-writecache. At
# the start: waits until what came before (mkfs, a remount) is written back,
# so that the members' counters see the workload alone. At the end: the
# blocks still dirty when the workload's sync returned (in the cache, not yet
# on the array), then waits until every block is written back and prints the
# time from T1 (drain_ms) and the caches' counters for the measurement (wc_*,
# in the caches' blocks; wc_left: dirty blocks left after 300 s)
wc_hook() {
	local c
	if [ "$1" = start ]; then
		wc_drain
		WC0=("${C[@]}")
		return 0
	fi
	read -r -a c <<<"$(wc_stat)"
	local dirty=$((c[0] - c[1]))
	wc_drain
	c=("${C[@]}")
	echo "drain_ms=$(($(wc_now_ms) - $2)) wc_dirty_at_sync=$dirty wc_left=$((c[0] - c[1])) wc_writes=$((c[3] - WC0[3]))" \
		"wc_hits_uncommitted=$((c[4] - WC0[4])) wc_hits_committed=$((c[5] - WC0[5])) wc_around=$((c[6] - WC0[6]))" \
		"wc_allocated=$((c[7] - WC0[7])) wc_blocked=$((c[8] - WC0[8]))"
}
