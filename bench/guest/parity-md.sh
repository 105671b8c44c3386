#!/bin/bash
# Issue 32 (guest): md RAID5 over parity LUNs whose full stripe F is not a
# power of 2, one variable at a time. The LUNs are md RAID6/5 arrays behind
# loop devices with direct I/O (as tests/vm/scenarios/rmw-sweep.sh builds
# them: --assume-clean, no bitmap, stripe cache 4096); storprov applies its
# own layout over them (md RAID5, XFS); then each VARIANT (one change against
# storprov's layout, undone afterwards) runs each writer SHAPE.
#   PMD_LUNS=3 PMD_LUN_LEVEL=6 PMD_LUN_MEMBERS=5 PMD_STRIP_K=128 PMD_PART_MIB=256
#   PMD_WRITE_MIB=96       MiB written per measurement
#   PMD_VARIANTS="base msk"   see variant() below
#   PMD_SHAPES="d1x1 d2x2 ..."  d|b (O_DIRECT or buffered + fsync), writers x
#                          write size in storprov's full stripes
#   PMD_REPS=1             passes over all variants (order reversed on even passes)
#   PMD_TRACE=1            the LUNs' write requests (block_rq_issue on the loop
#                          devices): how many are whole LUN stripes
#   PMD_CHUNK_K=N          storprov's layout, but mdadm --chunk=N (a stated chunk)
#   PMD_LUN_CACHE_MB=N     issue 43 item 2: each LUN with a write-back cache,
#                          dm-writecache of N MiB (disks c0..) between its md
#                          array and its loop device (bench/guest/wcache.sh);
#                          every measurement waits for the caches to write back
#                          before and after (M lines gain drain_ms and wc_*)
#   PMD_LUN_SECTOR=N       the loop devices' sector size (default 512; 4096
#                          with PMD_LUN_CACHE_MB, the cache's block size)
# Output: KEY=VALUE lines and one "M variant=.. shape=.. ratio=.." line per
# measurement: ratio = member disks' sectors read / file system's sectors
# written; lun_r = sectors the upper md read from the LUNs (its own RMW);
# the rest of the members' reads is the LUNs' RMW.
# shellcheck source=tests/vm/scenarios/common.sh
. /usr/lib/storprov-tests/common.sh
if [ -n "${PMD_LUN_CACHE_MB:-}" ]; then
	# shellcheck source=bench/guest/wcache.sh
	. /usr/lib/bench/wcache.sh
fi
set -u
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
NL=${PMD_LUNS:-3} LVL=${PMD_LUN_LEVEL:-6} NM=${PMD_LUN_MEMBERS:-5} STRIP=${PMD_STRIP_K:-128}
PMIB=${PMD_PART_MIB:-256} WMIB=${PMD_WRITE_MIB:-96}
F=$((STRIP * (NM - (LVL == 6 ? 2 : 1))))
kv PMD_LUN "raid$LVL ${NM}x${STRIP}K F=${F}K luns=$NL part=${PMIB}MiB"

cat >/etc/lvm/lvmlocal.conf <<'CONF'
devices {
	global_filter = [ "a|^/dev/loop|", "a|^/dev/vd|", "r|.*|" ]
}
CONF
DISK=()
for ((d = 0; d < NM; d++)); do
	x=$(disk_by_serial "r$d") || die "no disk r$d"
	args=(mklabel gpt)
	for ((j = 0; j < NL; j++)); do
		args+=(mkpart "l$j" "$((1 + j * PMIB))MiB" "$((1 + (j + 1) * PMIB))MiB")
	done
	parted -s "$x" "${args[@]}" || die "parted $x"
	DISK+=("$x")
done
udevadm settle
part() { local p; for p in "${1}p$2" "${1}$2"; do [ -b "$p" ] && { echo "$p"; return; }; done; die "no partition $2 on $1"; }
loops=()
for ((j = 0; j < NL; j++)); do
	devs=()
	for ((d = 0; d < NM; d++)); do devs+=("$(part "${DISK[$d]}" $((j + 1)))"); done
	mdadm --create "/dev/md/lun$j" --run --metadata=1.2 --level="$LVL" --raid-devices="$NM" --chunk="$STRIP" \
		--bitmap=none --assume-clean "${devs[@]}" >/tmp/mdadm.txt 2>&1 || { cat /tmp/mdadm.txt; die "lun$j"; }
done
udevadm settle
lsec=${PMD_LUN_SECTOR:-}
[ -z "${PMD_LUN_CACHE_MB:-}" ] || { lsec=${lsec:-4096}; modprobe dm_writecache || die "modprobe dm_writecache"; }
lss=()
[ -z "$lsec" ] || lss=(--sector-size "$lsec")
WC_DEVS=""
for ((j = 0; j < NL; j++)); do
	src=$(readlink -f "/dev/md/lun$j")
	echo 4096 >"/sys/class/block/$(basename "$src")/md/stripe_cache_size"
	if [ -n "${PMD_LUN_CACHE_MB:-}" ]; then
		wc_create "wclun$j" "$src" "$(disk_by_serial "c$j")" "$lsec"
		src=/dev/mapper/wclun$j
	fi
	loops+=("$(losetup --direct-io=on "${lss[@]}" --show -f "$src")") || die "losetup"
done
udevadm settle
kv PMD_LUN_SECTOR "$(cat /sys/block/loop0/queue/logical_block_size)"
[ -z "$WC_DEVS" ] || wc_status_kv WC_STATUS_SETUP
q=/sys/block/loop0/queue
kv PMD_LUN_QUEUE "max_sectors_kb=$(cat $q/max_sectors_kb) max_hw_sectors_kb=$(cat $q/max_hw_sectors_kb) max_segments=$(cat $q/max_segments) max_segment_size=$(cat $q/max_segment_size)"
LUNMD=$(for m in /dev/md/lun*; do readlink -f "$m"; done)

# storprov's layout: PMD_UPPER=md5 (default), md0 (md RAID0) or lv (LVM striped LV)
UPPER=${PMD_UPPER:-md5}
case $UPPER in
md5 | md0) UPPER_XML="  <md id=\"up\" name=\"up\" level=\"${UPPER#md}\" devices=\"lun\"${PMD_CHUNK_K:+ chunk=\"${PMD_CHUNK_K}K\"}/>
  <xfs on=\"up\" label=\"sp\" mountpoint=\"/sp\" mount-options=\"noatime\"/>" ;;
lv) UPPER_XML="  <vg id=\"sp\" name=\"sp\" pvs=\"lun\">
    <lv name=\"vol\" size=\"90%VG\" stripes=\"$NL\"/>
  </vg>
  <xfs on=\"sp/vol\" label=\"sp\" mountpoint=\"/sp\" mount-options=\"noatime\"/>" ;;
*) die "PMD_UPPER $UPPER" ;;
esac
kv PMD_UPPER "$UPPER"
cat >/tmp/pmd.xml <<XML
<?xml version="1.0" encoding="UTF-8"?>
<profile version="1" name="pmd">
  <disks id="lun" count="$NL">
    <match name="loop*"/>
    <hwraid level="$LVL" members="$NM" chunk="${STRIP}K"/>
  </disks>
$UPPER_XML
</profile>
XML
section "storprov plan"
storprov plan --profile /tmp/pmd.xml --seed 1 2>&1 | sed -n '/^Objects/,/^Files/p'
storprov apply --profile /tmp/pmd.xml --yes --wipe --root /tgt --mount --seed 1 >/tmp/apply.txt 2>&1 || { tail -30 /tmp/apply.txt; die "apply"; }
sed -n 's/^storprov: \[ *[0-9.]*s\] *\$ //p' /tmp/apply.txt | grep -E '^(mdadm --create|mkfs.xfs)' | grep -v ' -N ' | sed 's/^/CMD /'
mdadm --wait /dev/md/up >/dev/null 2>&1
MNT=/tgt/sp
UP=$(basename "$(readlink -f "$(awk -v m="$MNT" '$2 == m { print $1 }' /proc/mounts | tail -1)")")
kv PMD_UP "$UP chunk=$(cat /sys/block/$UP/md/chunk_size 2>/dev/null) sc=$(cat /sys/block/$UP/md/stripe_cache_size 2>/dev/null) bitmap=$(cat /sys/block/$UP/md/bitmap/location 2>/dev/null) offset=$(cat /sys/block/$UP/md/dev-*/offset 2>/dev/null | sort -u | tr '\n' ' ') dm=$(dmsetup table 2>/dev/null | head -2 | tr '\n' ';')"
read -r SU SW BS <<<"$(xfs_info "$MNT" | sed -n '/^data/{s/.*bsize=\([0-9]*\).*/\1/;h};/swidth=/{s/.*sunit=\([0-9]*\) *swidth=\([0-9]*\).*/\1 \2/;G;s/\n/ /p;q}')"
FULL=$((SW * BS / 1024))
kv PMD_XFS "su=$((SU * BS / 1024))K sw=$((SW / SU)) full=${FULL}K opts=$(awk -v m="$MNT" '$2 == m { print $4 }' /proc/mounts)"

stat_sum() {
	local d b f r=0 w=0 n=0
	for d in "$@"; do
		b=$(basename "$(readlink -f "$d")")
		read -r -a f <"/sys/class/block/$b/stat"
		r=$((r + f[2])) w=$((w + f[6])) n=$((n + f[4]))
	done
	echo "$r $w $n"
}
T=/sys/kernel/tracing
if [ "${PMD_TRACE:-0}" = 1 ]; then
	mountpoint -q $T || mount -t tracefs nodev $T || die "tracefs"
	echo 16384 >$T/buffer_size_kb
	echo 'dev >= 7340032 && dev < 8388608' >$T/events/block/block_rq_issue/filter
fi

# measure VARIANT SHAPE
measure() {
	local v=$1 s=$2 mode=${2:0:1} shp=${2:1} jobs bsm bs per a b la lb ua ub ta tb top dir fa=native
	jobs=${shp%x*} bsm=${shp#*x}
	bs=$((FULL * bsm))
	per=$((WMIB * 1024 / jobs / bs * bs))
	[ "$per" -gt 0 ] || per=$bs
	top=/dev/$UP
	mkdir -p "$MNT/w"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	local end=()
	dir=1
	[ "$mode" = d ] || { dir=0 end=(--end_fsync=1); }
	if [ "${PMD_TRACE:-0}" = 1 ]; then echo >$T/trace; echo 1 >$T/events/block/block_rq_issue/enable; fi
	[ -z "$WC_DEVS" ] || wc_hook start
	read -r -a a <<<"$(stat_sum "${DISK[@]}")"
	read -r -a ta <<<"$(stat_sum "$top")"
	# shellcheck disable=SC2086
	read -r -a la <<<"$(stat_sum $LUNMD)"
	read -r -a ua <<<"$(stat_sum "${loops[@]}")"
	fio --name=w --directory="$MNT/w" --ioengine=psync --direct=$dir --rw=write --bs="${bs}k" \
		--size="${per}k" --numjobs="$jobs" --fallocate=$fa "${end[@]}" --group_reporting --eta=never \
		--output=/tmp/fio.txt >/dev/null || { cat /tmp/fio.txt; return 1; }
	sync
	local more=""
	[ -z "$WC_DEVS" ] || more=" $(wc_hook end "$(wc_now_ms)")"
	read -r -a b <<<"$(stat_sum "${DISK[@]}")"
	read -r -a tb <<<"$(stat_sum "$top")"
	# shellcheck disable=SC2086
	read -r -a lb <<<"$(stat_sum $LUNMD)"
	read -r -a ub <<<"$(stat_sum "${loops[@]}")"
	local tr=""
	if [ "${PMD_TRACE:-0}" = 1 ]; then
		echo 0 >$T/events/block/block_rq_issue/enable
		# "7,0 W 786432 () 6144 + 768 [..]": whole LUN stripes (start and length multiples of F)
		tr=$(awk -v f=$((F * 2)) '$0 ~ / 7,[0-9]+ W/ { for (i = 1; i <= NF; i++) if ($i == "+") { s = $(i - 1); n = $(i + 1) }
			t++; if (s % f == 0 && n % f == 0) w++; else if (int(s / f) != int((s + n - 1) / f)) x++; sz[n]++ }
			END { m = ""; c = 0; for (k in sz) if (sz[k] > c) { c = sz[k]; m = k }
			printf "rq=%d whole=%d crossing=%d commonest=%dK", t, w, x, m / 2 }' $T/trace)
	fi
	local rd=$((b[0] - a[0])) wr=$((tb[1] - ta[1]))
	echo "M variant=$v shape=$s bs=${bs}K ratio=$(awk -v r="$rd" -v w="$wr" 'BEGIN { printf "%.4f", w ? r / w : -1 }') read=$rd written=$wr lun_r=$((lb[0] - la[0])) loop_rq=$((ub[2] - ua[2])) loop_kb=$(((ub[1] - ua[1]) / 2)) $tr$more"
	rm -rf "$MNT/w"
	sync
}

lunq() { local l; for l in "${loops[@]}"; do echo "$2" >"/sys/block/${l#/dev/}/queue/$1" || return 1; done; }
# variant NAME on|off: one change against storprov's layout
#   base       storprov's layout as applied
#   msk        the LUNs' max_sectors_kb = F (a request never holds more than one LUN stripe)
#   mskN       the LUNs' max_sectors_kb = N (msk1280: the kernel's default, as before storprov derived it)
#   msk2       the LUNs' max_sectors_kb = 2F when it fits max_hw_sectors_kb
#   nobitmap   the upper md without its write-intent bitmap (mdadm --grow --bitmap=none)
#   scN        the upper md's stripe_cache_size N (sc2048, sc4096)
#   lunsc256   the LUN arrays' stripe cache at md's default 256 (a LUN with a small cache)
#   lunsc8k    the LUN arrays' stripe cache at 8192 (a LUN with a larger write-back cache)
#   A+B        both changes
variant() {
	local on=$2 one
	if [[ $1 == *+* ]]; then
		for one in ${1//+/ }; do variant "$one" "$on"; done
		return
	fi
	case $1 in
	base) ;;
	msk) if [ "$on" = on ]; then lunq max_sectors_kb "$F"; else lunq max_sectors_kb "$MSK0"; fi ;;
	msk2) if [ "$on" = on ]; then lunq max_sectors_kb $((2 * F)); else lunq max_sectors_kb "$MSK0"; fi ;;
	msk[0-9]*) if [ "$on" = on ]; then lunq max_sectors_kb "${1#msk}"; else lunq max_sectors_kb "$MSK0"; fi ;;
	nobitmap) if [ "$on" = on ]; then mdadm --grow --bitmap=none /dev/md/up; else mdadm --grow --bitmap=internal /dev/md/up; fi >/dev/null 2>&1 ;;
	sc[0-9]*) if [ "$on" = on ]; then echo "${1#sc}"; else echo "$SC0"; fi >/sys/block/$UP/md/stripe_cache_size ;;
	lunsc8k) for m in $LUNMD; do if [ "$on" = on ]; then echo 8192; else echo 4096; fi >"/sys/block/${m#/dev/}/md/stripe_cache_size"; done ;;
	lunsc256) for m in $LUNMD; do if [ "$on" = on ]; then echo 256; else echo 4096; fi >"/sys/block/${m#/dev/}/md/stripe_cache_size"; done ;;
	*) die "unknown variant $1" ;;
	esac
}
SC0=$(cat /sys/block/$UP/md/stripe_cache_size 2>/dev/null)
MSK0=$(cat /sys/block/loop0/queue/max_sectors_kb)   # as storprov left it
variants=${PMD_VARIANTS:-base msk}
shapes=${PMD_SHAPES:-d1x1 d2x1 d4x1 d1x2 d2x2 d4x2 d1x4 d2x4 d4x4 b1x1 b2x2 b4x4}
for ((rep = 1; rep <= ${PMD_REPS:-1}; rep++)); do
	order=$variants
	((rep % 2)) || order=$(echo "$variants" | tr ' ' '\n' | tac | tr '\n' ' ')
	for v in $order; do
		variant "$v" on
		kv "PMD_STATE_${v//+/_}" "lun_msk=$(cat /sys/block/loop0/queue/max_sectors_kb) up_sc=$(cat /sys/block/$UP/md/stripe_cache_size 2>/dev/null) bitmap=$(cat /sys/block/$UP/md/bitmap/location 2>/dev/null)"
		for s in $shapes; do measure "$v" "$s" || die "fio"; done
		variant "$v" off
	done
done
[ -z "$WC_DEVS" ] || wc_status_kv WC_STATUS_END
kv PMD_DONE 1
