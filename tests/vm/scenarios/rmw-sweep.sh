#!/bin/bash
# RMW sweep (guest, issue 17 item 4): for each layout drawn by
# tests/vm/rmw-layouts.py (layouts.env + L<i>.xml in $RMW_DIR), the
# member-read ratio under full-stripe O_DIRECT writes on storprov's layout
# and on a naive one, on the same emulated hardware RAID LUNs.
#
# Per layout:
#  1. the LUNs: md RAID5/6 arrays (--assume-clean, no bitmap: a controller's
#     initialised LUN) over partition j of the first LUN_MEMBERS disks
#     (r0, r1, ...), each exported through a loop device with direct I/O
#     (io_min 512, io_opt 0: no stripe, like a real LUN);
#  2. storprov: `storprov plan` (what it derives, for the log), then
#     `storprov apply --yes --wipe --mount` under a fresh --root; an md RAID5
#     upper layer is waited for (resync) before measuring; recorded:
#     xfs_info su/sw, dmsetup table / pvs / vgs, mdadm --detail and the md's
#     data offset on the LUNs;
#  3. the workload: 1, 2 or 4 fio writers (L<i>_WRITERS), O_DIRECT, one write
#     = 1, 2 or 4 (L<i>_BS_MULT) x the XFS full stripe storprov's file system
#     reports (su x sw), buffers in huge or 4 KiB pages (L<i>_FIO_HUGE; issue
#     32: the shape is drawn per layout from the seed), files preallocated (fio's
#     fallocate=native), RMW_WRITE_MIB in all; ratio = sectors read from the
#     member disks (/sys/block/rN/stat field 3, every member disk) / sectors
#     written to the file system's device (field 7);
#     (RMW_PROBE=1 adds a diagnosis for md layers, see below);
#  4. teardown, then the naive layout on the same LUNs: LVM defaults
#     (pvcreate/vgcreate defaults, lvcreate -i N -I 64k), mdadm's default
#     chunk (512K; RAID5 --assume-clean, as the array is idle before the
#     workload either way), parted's 1 MiB partition start, plain mkfs.xfs,
#     default mount; the same workload (same write size);
#  5. teardown of everything, LUNs included.
#
# The LUN arrays get stripe_cache_size 4096 (a controller's write-back
# cache; why: at the line that sets it). RMW_LUN_STRIPE_CACHE overrides.
#
# Output: KEY=VALUE lines, per layout L<i>_DESC, L<i>_SP_RATIO,
# L<i>_DEF_RATIO and the facts below; a failed step gives L<i>_SP_ERROR or
# L<i>_DEF_ERROR and the sweep goes on with the next layout.
# shellcheck source=tests/vm/scenarios/common.sh
. /usr/lib/storprov-tests/common.sh
RMW_DIR=${RMW_DIR:-/usr/lib/storprov-tests/rmw}
# shellcheck disable=SC1091
. "$RMW_DIR/layouts.env"
set -u
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
kv RMW_SEED "$RMW_SEED"
kv RMW_LAYOUTS "$RMW_LAYOUTS"

# A hardware LUN hides its members: LVM must not look at the md arrays under
# the loops, or it finds every PV label twice (as scenario 45 does).
cat >/etc/lvm/lvmlocal.conf <<'CONF'
devices {
	global_filter = [ "a|^/dev/loop|", "a|^/dev/vd|", "r|.*|" ]
}
CONF

# ---- the member disks, RMW_MAX_LUNS partitions each --------------------------
# (made on the host with parted: RMW_PARTED of layouts.env, partition j+1,
# "l<j>", from 1 + j * RMW_PART_MIB MiB to 1 + (j + 1) * RMW_PART_MIB MiB)
DISK=()
for ((d = 0; d < RMW_DISKS; d++)); do
	x=$(disk_by_serial "r$d") || die "no disk r$d"
	DISK+=("$x")
done
udevadm settle
part() { # DISK N
	local p
	for p in "${1}p$2" "${1}$2"; do [ -b "$p" ] && { echo "$p"; return; }; done
	die "no partition $2 on $1"
}

# stat_sum DEV...: "sectors-read sectors-written" summed over the devices
stat_sum() {
	local d b f r=0 w=0 n=0
	for d in "$@"; do
		b=$(basename "$(readlink -f "$d")")
		read -r -a f <"/sys/class/block/$b/stat"
		r=$((r + f[2])) w=$((w + f[6])) n=$((n + f[4]))
	done
	echo "$r $w $n"
}
srcdev() { awk -v m="$1" '$2 == m { print $1 }' /proc/mounts | tail -1; }
# xfs_su_sw MOUNTPOINT: "sunit swidth bsize" of the data section
xfs_su_sw() {
	xfs_info "$1" | sed -n '/^data/{s/.*bsize=\([0-9]*\).*/\1/;h};/swidth=/{s/.*sunit=\([0-9]*\) *swidth=\([0-9]*\).*/\1 \2/;G;s/\n/ /p;q}'
}

# zap DEV: no signature, partition table or protective MBR left on a LUN
# (wipefs -a leaves a GPT's protective MBR behind when it erases the GPT)
zap() {
	local p sz
	for p in "$1"p*; do [ -b "$p" ] && wipefs -a -q "$p" >/dev/null 2>&1; done
	wipefs -a -q "$1" >/dev/null 2>&1
	sz=$(blockdev --getsz "$1")
	dd if=/dev/zero of="$1" bs=1M count=1 oflag=direct status=none
	dd if=/dev/zero of="$1" bs=512 count=2048 seek=$((sz - 2048)) oflag=direct status=none
	blockdev --rereadpt "$1" 2>/dev/null
	return 0
}

# cleanup: everything a layout may have left, in order; idempotent
cleanup() {
	local m l
	for m in $(awk '$2 ~ "^/tgt[0-9]+/" || $2 == "/mnt/def" || $2 == "/mnt/probe" || $2 ~ "^/sys/(devices/virtual/)?block/loop" { print $2 }' /proc/mounts); do umount "$m"; done
	for l in sp def; do lvm vgremove -f -y "$l" >/dev/null 2>&1; done
	for m in up def; do [ -e "/dev/md/$m" ] && mdadm --stop "/dev/md/$m" >/dev/null 2>&1; done
	for l in /dev/loop[0-9]*; do
		[ -b "$l" ] && [ -e "/sys/block/${l#/dev/}/loop" ] || continue
		lvm pvremove -y -ff "$l" >/dev/null 2>&1
		mdadm --zero-superblock "$l" >/dev/null 2>&1
		zap "$l"
		losetup -d "$l"
	done
	udevadm settle
	for m in /dev/md/lun*; do [ -e "$m" ] && mdadm --stop "$m" >/dev/null 2>&1; done
	for m in /dev/md[0-9]*; do [ -b "$m" ] && mdadm --stop "$m" >/dev/null 2>&1; done
	for ((d = 0; d < RMW_DISKS; d++)); do
		for ((j = 1; j <= RMW_MAX_LUNS; j++)); do mdadm --zero-superblock "$(part "${DISK[$d]}" "$j")" >/dev/null 2>&1; done
	done
	udevadm settle
	return 0
}

# measure KEYPREFIX MOUNTPOINT BS_K JOBS HUGE: the workload on one file system
# (JOBS O_DIRECT writers of BS_K a write; buffers in huge pages when HUGE is 1). Besides
# the ratio, where the reads come from: the file system's own (metadata,
# _TOP_READ_SECTORS), those an upper md adds (the LUNs' reads beyond them),
# and the LUNs' read-modify-write (the members' reads beyond the LUNs')
measure() {
	local k=$1 mnt=$2 bs=$3 jobs=${4:-4} huge=${5:-1} top a b ta tb la lb per t0 luns
	top=$(srcdev "$mnt")
	luns=$(for m in /dev/md/lun*; do readlink -f "$m"; done)
	per=$(((RMW_WRITE_MIB * 1024 / jobs + bs - 1) / bs * bs))
	mkdir -p "$mnt/w"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	read -r -a a <<<"$(stat_sum "${DISK[@]}")"
	read -r -a ta <<<"$(stat_sum "$top")"
	# shellcheck disable=SC2086
	read -r -a la <<<"$(stat_sum $luns)"
	read -r -a ua <<<"$(stat_sum "${loops[@]}")"
	# fio's buffers in huge pages or in malloc'd 4 KiB pages (HUGE, drawn per
	# layout; RMW_FIO_HUGE overrides): a loop request takes 128 segments,
	# 512 KiB of 4 KiB pages, so a LUN stripe above 512 KiB reaches the array
	# in pieces that md, unlike a controller's cache, does not always gather
	# (measured: LV over 2 x RAID5 5 x 256K, 0.0127 with 4 KiB pages, 0.0042
	# with huge pages), and a stripe that does not divide 512 KiB is split
	# unless max_sectors_kb is a whole number of stripes (storprov derives
	# it: issue 32); with 64 KiB segments a request holds up to 1280 KiB
	local mem=()
	if [ "${RMW_FIO_HUGE:-$huge}" = 1 ]; then
		echo $((jobs * (bs / 2048 + 2) + 4)) >/proc/sys/vm/nr_hugepages
		mem=(--iomem=shmhuge)
	fi
	kv "${k}_FIO_MEM" "${mem[*]:-malloc}"
	kv "${k}_WRITERS" "$jobs"
	t0=$(date +%s.%N)
	fio --name=rmw --directory="$mnt/w" --ioengine=psync --direct=1 --rw=write --bs="${bs}k" "${mem[@]}" \
		--size="${per}k" --numjobs="$jobs" --fallocate=native --group_reporting --eta=never \
		--output="/tmp/fio-$k.txt" >/dev/null || { cat "/tmp/fio-$k.txt"; return 1; }
	sync
	read -r -a b <<<"$(stat_sum "${DISK[@]}")"
	read -r -a tb <<<"$(stat_sum "$top")"
	# shellcheck disable=SC2086
	read -r -a lb <<<"$(stat_sum $luns)"
	read -r -a ub <<<"$(stat_sum "${loops[@]}")"
	local rd=$((b[0] - a[0])) wr=$((tb[1] - ta[1])) s
	s=$(awk -v t="$t0" -v n="$(date +%s.%N)" 'BEGIN { printf "%.1f", n - t }')
	kv "${k}_TOP" "$top"
	kv "${k}_READ_SECTORS" "$rd"
	kv "${k}_WRITE_SECTORS" "$wr"
	kv "${k}_TOP_READ_SECTORS" "$((tb[0] - ta[0]))"
	kv "${k}_LUN_READ_SECTORS" "$((lb[0] - la[0]))"
	kv "${k}_LUN_WRITE_SECTORS" "$((lb[1] - la[1]))"
	kv "${k}_MEMBER_WRITE_SECTORS" "$((b[1] - a[1]))"
	# the requests the LUNs took (loop: after block-layer merging) and the
	# bios the arrays behind them got: their mean size shows whether a LUN
	# full stripe arrived in one piece
	kv "${k}_LOOP_WRITES" "$((ub[2] - ua[2])) ($((ub[1] - ua[1])) sectors)"
	kv "${k}_LUN_WRITES" "$((lb[2] - la[2]))"
	kv "${k}_SECONDS" "$s"
	kv "${k}_RATIO" "$(awk -v r="$rd" -v w="$wr" 'BEGIN { printf "%.4f", w ? r / w : -1 }')"
	# the files' extents against the write size (storprov's full stripe),
	# counted from the start of the file system's device: how many start off one
	local f sw_sec=$((bs * 2)) ext=0 off=0 e o
	for f in "$mnt"/w/rmw.*; do
		xfs_io -r -c "bmap -v" "$f" >/tmp/bmap.txt
		sed -n '1,4p' /tmp/bmap.txt
		read -r e o <<<"$(awk -v sw="$sw_sec" '$1 ~ /^[0-9]+:$/ && $3 != "hole" {
			split($3, a, "[.][.]"); n++; if (sw && a[1] % sw) u++ } END { print n + 0, u + 0 }' /tmp/bmap.txt)"
		ext=$((ext + e)) off=$((off + o))
	done
	kv "${k}_EXTENTS" "$ext"
	kv "${k}_EXTENTS_OFF_STRIPE" "$off"
	rm -rf "$mnt/w"
}

# facts KEYPREFIX MOUNTPOINT UPPER: what the tools read back
facts() {
	local k=$1 mnt=$2 up=$3 g
	read -r -a g <<<"$(xfs_su_sw "$mnt")"
	kv "${k}_SUNIT" "${g[0]}"
	kv "${k}_SWIDTH" "${g[1]}"
	kv "${k}_BSIZE" "${g[2]}"
	kv "${k}_MOUNT" "$(awk -v m="$mnt" '$2 == m { print $4 }' /proc/mounts | tail -1)"
	local top b
	top=$(srcdev "$mnt")
	b=$(basename "$(readlink -f "$top")")
	kv "${k}_START" "$(cat "/sys/class/block/$b/start" 2>/dev/null || echo 0)"
	case $up in
	lv)
		local vg=${k##*_}
		vg=${vg,,}
		kv "${k}_DM" "$(dmsetup table "$vg-vol" | head -3 | tr '\n' ';')"
		kv "${k}_PE_STARTS" "$(lvm pvs --noheadings --nosuffix --units b -o pe_start --select "vg_name=$vg" | tr -s ' \n' ' ')"
		kv "${k}_EXTENT" "$(lvm vgs --noheadings --nosuffix --units b -o vg_extent_size "$vg" | tr -d ' ')"
		kv "${k}_LV_STRIPE" "$(lvm lvs --noheadings --nosuffix --units b -o stripe_size "$vg/vol" | tr -d ' ')"
		;;
	md0 | md5)
		local md=$top
		kv "${k}_MD_CHUNK" "$(cat "/sys/class/block/$b/md/chunk_size")"
		kv "${k}_MD_LEVEL" "$(cat "/sys/class/block/$b/md/level")"
		kv "${k}_MD_BITMAP" "$(cat "/sys/class/block/$b/md/bitmap/location" 2>/dev/null)"
		# the data offset on each LUN (sectors): where the upper chunks start
		kv "${k}_MD_DATA_OFFSET" "$(cat /sys/class/block/"$b"/md/dev-*/offset | sort -u | tr '\n' ' ')"
		mdadm --detail "$md" | sed -n '/Raid Level/p;/Chunk Size/p;/Array Size/p;/Layout/p;/Intent/p'
		;;
	esac
}

# ---- one layout ------------------------------------------------------------------
run_layout() {
	local i=$1 n
	v() { n="L${i}_$1"; echo "${!n}"; }
	local level members strip nluns upper part mib
	level=$(v LUN_LEVEL) members=$(v LUN_MEMBERS) strip=$(v STRIP_K) nluns=$(v LUNS)
	upper=$(v UPPER) part=$(v PART) mib=$(v MEMBER_MIB)
	section "layout $i: $(v DESC)"
	kv "L${i}_DESC" "$(v DESC)"
	kv "L${i}_UPPER" "$upper"
	kv "L${i}_LUN" "raid$level ${members}x${strip}K luns=$nluns full=$(v FULL_K)K member=${mib}MiB part=$part"
	kv "L${i}_EXP" "chunk=$(v EXP_CHUNK_K)K su=$(v EXP_SU_K)K sw=$(v EXP_SW) full=$(v EXP_FULL_K)K pv_align=$(v EXP_PV_ALIGN_K)K"

	# 1. the LUNs
	local j d loops=() devs
	for ((j = 0; j < nluns; j++)); do
		devs=()
		for ((d = 0; d < members; d++)); do devs+=("$(part "${DISK[$d]}" $((j + 1)))"); done
		mdadm --create "/dev/md/lun$j" --run --metadata=1.2 --level="$level" --raid-devices="$members" \
			--chunk="$strip" --size=$((mib * 1024)) --bitmap=none --assume-clean "${devs[@]}" >/tmp/mdadm.txt 2>&1 ||
			{ cat /tmp/mdadm.txt; kv "L${i}_SP_ERROR" "mdadm --create lun$j"; return 1; }
	done
	udevadm settle
	for ((j = 0; j < nluns; j++)); do
		loops+=("$(losetup --direct-io=on -P --show -f "$(readlink -f "/dev/md/lun$j")")") ||
			{ kv "L${i}_SP_ERROR" "losetup lun$j"; return 1; }
	done
	# The controller's write-back cache: md gathers the full stripes that
	# reach it in pieces (a loop request is at most 1280 KiB or 128
	# segments, each one a separate direct I/O to the array; an md above
	# writes 4 KiB stripe by stripe) only while the pieces fit in its stripe
	# cache. Measured: 4 writers of full stripes straight to a loop LUN,
	# RAID6 10 x 256K: member reads 7832 sectors per 128 MiB at md's default
	# 256, 6848 at 1024, 0 at 4096; md RAID5 (aligned, stripe cache 4096)
	# over 3 x RAID5 7 x 128K: 118464 at 512, 256 at 4096. So 4096
	# (RMW_LUN_STRIPE_CACHE overrides), for both layouts alike.
	local sc=${RMW_LUN_STRIPE_CACHE:-4096} pb=${RMW_LUN_PREREAD_BYPASS:-}
	for ((j = 0; j < nluns; j++)); do
		echo "$sc" >"/sys/class/block/$(basename "$(readlink -f "/dev/md/lun$j")")/md/stripe_cache_size" ||
			{ kv "L${i}_SP_ERROR" "stripe_cache_size $sc"; return 1; }
		# RMW_LUN_PREREAD_BYPASS=N (experiment): how long md holds back a
		# stripe that would need a read while full ones are handled
		[ -z "$pb" ] || echo "$pb" >"/sys/class/block/$(basename "$(readlink -f "/dev/md/lun$j")")/md/preread_bypass_threshold" ||
			{ kv "L${i}_SP_ERROR" "preread_bypass_threshold $pb"; return 1; }
	done
	kv "L${i}_LUN_PREREAD_BYPASS" "$(cat "/sys/class/block/$(basename "$(readlink -f /dev/md/lun0)")/md/preread_bypass_threshold")"
	kv "L${i}_LUN_MAX_SECTORS_KB" "$(cat /sys/block/loop0/queue/max_sectors_kb) (hw $(cat /sys/block/loop0/queue/max_hw_sectors_kb))"
	kv "L${i}_LUN_STRIPE_CACHE" "$(cat "/sys/class/block/$(basename "$(readlink -f /dev/md/lun0)")/md/stripe_cache_size")"
	[ "${loops[0]}" = /dev/loop0 ] && [ "${loops[-1]}" = "/dev/loop$((nluns - 1))" ] ||
		{ kv "L${i}_SP_ERROR" "expected loop0.., got ${loops[*]}"; return 1; }
	udevadm settle
	# a LUN that exports its stripe (issue 30): io_min = strip, io_opt = full stripe, as a
	# controller's Block Limits page says; the loop device exports none, so the values are
	# bind-mounted over its sysfs files for storprov's discovery to read (the profile has no
	# <hwraid>); the I/O path is the loop device's own either way
	if [ "$(v HINTED)" = 1 ]; then
		mkdir -p /run/rmw-hint
		echo $((strip * 1024)) >/run/rmw-hint/io_min
		echo $(($(v FULL_K) * 1024)) >/run/rmw-hint/io_opt
		for ((j = 0; j < nluns; j++)); do
			mount --bind /run/rmw-hint/io_min "/sys/block/loop$j/queue/minimum_io_size" &&
				mount --bind /run/rmw-hint/io_opt "/sys/block/loop$j/queue/optimal_io_size" ||
				{ kv "L${i}_SP_ERROR" "hint on loop$j"; return 1; }
		done
	fi
	kv "L${i}_LUN_HINTED" "$(v HINTED)"
	kv "L${i}_LUN_IO_MIN" "$(cat /sys/block/loop0/queue/minimum_io_size)"
	kv "L${i}_LUN_IO_OPT" "$(cat /sys/block/loop0/queue/optimal_io_size)"
	kv "L${i}_LUN_DIO" "$(cat /sys/block/loop0/loop/dio)"
	kv "L${i}_LUN_BYTES" "$(blockdev --getsize64 /dev/loop0)"

	# 2. storprov's layout
	local prof=$RMW_DIR/L$i.xml root=/tgt$i rc t0
	storprov plan --profile "$prof" --seed "$i" >/tmp/plan.txt 2>&1
	sed -n '/^Objects/,/^Files/{/geometry:\|partition alignment\|data alignment\|extent\|xfs_info will show\|\$ /p}' /tmp/plan.txt
	kv "L${i}_SP_PLAN" "$(grep -A1 '^  xfs ' /tmp/plan.txt | sed -n 's/^ *geometry: //p' | head -1)"
	# where the LUN's geometry came from: [profile: hwraid ...] or [detected: exported by loop0 ...]
	kv "L${i}_SP_LUN_SOURCE" "$(sed -n '/^  disk /,/^  [a-z]/{s/^ *geometry: .*\[\([a-z]*\): .*/\1/p}' /tmp/plan.txt | head -1)"
	t0=$SECONDS
	storprov apply --profile "$prof" --yes --wipe --root "$root" --mount --seed "$i" --report "/tmp/report-$i.json" >/tmp/apply.txt 2>&1
	rc=$?
	# the commands apply ran (mkfs.xfs with the -d agsize= its dry run chose)
	sed -n 's/^storprov: \[ *[0-9.]*s\] *\$ //p' /tmp/apply.txt | sed 's/ --config [^-]*} //' >/tmp/cmds.txt
	kv "L${i}_SP_MKFS" "$(grep '^mkfs.xfs ' /tmp/cmds.txt | grep -v ' -N ' | tail -1)"
	kv "L${i}_SP_CREATE" "$(grep -E '^(mdadm --create|lvm (pv|vg|lv)create) ' /tmp/cmds.txt | sed 's/--uuid=[^ ]* //' | tr '\n' ';')"
	kv "L${i}_SP_APPLY_RC" "$rc"
	kv "L${i}_SP_APPLY_SECONDS" "$((SECONDS - t0))"
	if [ "$rc" -ne 0 ]; then
		tail -n 30 /tmp/apply.txt
		kv "L${i}_SP_ERROR" "storprov apply exit $rc: $(grep -m1 -i 'error' /tmp/apply.txt)"
	fi
	local mnt=$root/sp bs=0 g
	if [ "$rc" -eq 0 ]; then
		if [ "$upper" = md5 ]; then
			t0=$SECONDS
			mdadm --wait /dev/md/up >/dev/null 2>&1
			kv "L${i}_SP_RESYNC_SECONDS" "$((SECONDS - t0))"
		fi
		facts "L${i}_SP" "$mnt" "$upper"
		read -r -a g <<<"$(xfs_su_sw "$mnt")"
		# one write = BS_MULT x storprov's XFS full stripe (swidth blocks)
		bs=$((g[1] * g[2] / 1024))
		[ "$bs" -gt 0 ] || bs=$(v EXP_FULL_K)
		bs=$((bs * $(v BS_MULT)))
		kv "L${i}_BS_K" "$bs"
		measure "L${i}_SP" "$mnt" "$bs" "$(v WRITERS)" "$(v FIO_HUGE)" || kv "L${i}_SP_ERROR" "fio"
		# RMW_PROBE=1 (diagnosis, not part of the pass/fail): storprov's md
		# again, by its own argv but with no bitmap, with the data on the LUNs
		# starting at lcm(1 MiB, F) (mdadm --data-offset), its mkfs.xfs line
		# and mount options; the same workload (L<i>_PROBE_RATIO), for md
		# RAID5 then also with stripe_cache_size 4096 (L<i>_PROBE_SC_RATIO)
		if [ "${RMW_PROBE:-0}" = 1 ] && [[ $upper == md? ]]; then
			local create mk opts f x=1024 y t
			f=$(v FULL_K) y=$f
			while [ "$y" -ne 0 ]; do t=$((x % y)) x=$y y=$t; done
			local off=$((f * 1024 / x))
			read -r -a create <<<"$(sed -n 's/^ *\$ \(mdadm --create .*\)/\1/p' /tmp/plan.txt | head -1)"
			# storprov's own --data-offset (when it gives one) makes way for the
			# probe's; its internal bitmap gives way to none (a bitmap update is a
			# small write that each parity LUN pays for with a read-modify-write)
			local a2=() a
			for a in "${create[@]}"; do
				case $a in
				--data-offset=*) ;;
				--bitmap=internal) a2+=(--bitmap=none) ;;
				*) a2+=("$a") ;;
				esac
			done
			create=("${a2[@]}")
			read -r -a mk <<<"$(grep '^mkfs.xfs ' /tmp/cmds.txt | grep -v ' -N ' | tail -1)"
			opts=$(awk -v m="$mnt" '$2 == m { print $4 }' /proc/mounts | tail -1)
			umount "$mnt" && mdadm --stop /dev/md/up >/dev/null 2>&1
			for l in "${loops[@]}"; do mdadm --zero-superblock "$l" >/dev/null 2>&1; done
			kv "L${i}_PROBE_DATA_OFFSET_K" "$off"
			if "${create[@]}" --data-offset="$off" --assume-clean >/tmp/mdadm.txt 2>&1 &&
				udevadm settle && "${mk[@]}" -f >/tmp/mkfs.txt 2>&1 && mkdir -p /mnt/probe &&
				mount -t xfs -o "$opts" /dev/md/up /mnt/probe; then
				facts "L${i}_PROBE" /mnt/probe "$upper"
				measure "L${i}_PROBE" /mnt/probe "$bs" "$(v WRITERS)" "$(v FIO_HUGE)"
				if [ "$upper" = md5 ]; then
					# and with a stripe cache that holds what the
					# LUNs' stripes need (storprov leaves md's 256)
					echo 4096 >"/sys/class/block/$(basename "$(readlink -f /dev/md/up)")/md/stripe_cache_size"
					measure "L${i}_PROBE_SC" /mnt/probe "$bs" "$(v WRITERS)" "$(v FIO_HUGE)"
				fi
				umount /mnt/probe
			else
				cat /tmp/mdadm.txt /tmp/mkfs.txt
				kv "L${i}_PROBE_ERROR" "probe md/mkfs"
			fi
		fi
	fi
	[ "$bs" -gt 0 ] || bs=$(($(v EXP_FULL_K) * $(v BS_MULT)))

	# 3. teardown of the upper layers, then the naive layout on the same LUNs
	umount "$mnt" 2>/dev/null
	lvm vgremove -f -y sp >/dev/null 2>&1
	[ -e /dev/md/up ] && mdadm --stop /dev/md/up >/dev/null 2>&1
	for l in "${loops[@]}"; do
		lvm pvremove -y -ff "$l" >/dev/null 2>&1
		mdadm --zero-superblock "$l" >/dev/null 2>&1
		zap "$l"
	done
	udevadm settle
	local dev=
	case $upper in
	lv)
		lvm pvcreate -q -y -ff "${loops[@]}" >/dev/null && lvm vgcreate -q def "${loops[@]}" >/dev/null &&
			lvm lvcreate -q -y -i "$nluns" -I 64k -l 90%VG -n vol def >/dev/null && dev=/dev/def/vol
		;;
	md0 | md5)
		local extra=()
		[ "$upper" = md0 ] || extra=(--assume-clean)
		mdadm --create /dev/md/def --run --metadata=1.2 --level="${upper#md}" --raid-devices="$nluns" \
			"${extra[@]}" "${loops[@]}" >/tmp/mdadm.txt 2>&1 && dev=/dev/md/def || cat /tmp/mdadm.txt
		;;
	xfs)
		if [ "$part" = 1 ]; then
			parted -s /dev/loop0 mklabel gpt mkpart data 1MiB 100% && udevadm settle && dev=/dev/loop0p1
			[ -b "$dev" ] || dev=
		else
			dev=/dev/loop0
		fi
		;;
	esac
	udevadm settle
	if [ -z "$dev" ]; then
		kv "L${i}_DEF_ERROR" "naive $upper layout"
	elif ! mkfs.xfs -f -q "$dev" >/tmp/mkfs.txt 2>&1; then
		cat /tmp/mkfs.txt
		kv "L${i}_DEF_ERROR" "mkfs.xfs $dev"
	else
		mkdir -p /mnt/def && mount -t xfs "$dev" /mnt/def || kv "L${i}_DEF_ERROR" "mount $dev"
		facts "L${i}_DEF" /mnt/def "$upper"
		measure "L${i}_DEF" /mnt/def "$bs" "$(v WRITERS)" "$(v FIO_HUGE)" || kv "L${i}_DEF_ERROR" "fio"
	fi
	return 0
}

for i in $RMW_LAYOUTS; do
	t0=$SECONDS
	run_layout "$i"
	cleanup
	kv "L${i}_SECONDS" "$((SECONDS - t0))"
done
kv RMW_DONE 1
