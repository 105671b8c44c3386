#!/bin/bash
# Request-level partial-stripe check (guest, issue 34 item 5): for each layout
# drawn by tests/vm/partial-layouts.py (layouts.env + L<i>.xml in $PS_DIR),
# every write request the LUNs take under the RMW workloads, on storprov's
# layout and then on a naive one on the same LUNs.
#
# The LUNs are the plain virtio disks ps0..ps3 (no md, no loop: what a
# hardware RAID LUN is to the host; no exported stripe; the profile declares
# <hwraid>), booted with queue_size=1024 so that one request holds 1022
# segments (4088 KiB of 4 KiB pages).
#
# Per layout and side (SP = storprov, DEF = naive):
#  1. storprov plan (warnings kept: lun-request-size), storprov apply --wipe
#     --mount; an md RAID5 upper layer is waited for (resync) before tracing;
#     naive: pvcreate/vgcreate defaults + lvcreate -i N -I 64k, mdadm's
#     default chunk (RAID5 --assume-clean), parted's 1 MiB partition start,
#     plain mkfs.xfs, default mount; the LUNs' max_sectors_kb back to the
#     kernel's value first;
#  2. two workloads, each traced on its own (tests/vm/scenarios/rqtrace.sh):
#     D  O_DIRECT: WRITERS fio writers of BS_MULT x storprov's XFS full stripe
#        (su x sw) a write, buffers in huge or 4 KiB pages, PS_WRITE_MIB in all;
#     B  buffered: BWRITERS writers of 1 MiB writes, PS_WRITE_MIB in all,
#        fsync at the end;
#     files preallocated (fallocate=native), then sync;
#  3. per workload and in all: bytes written to the LUNs, bytes in requests
#     that do not cover whole LUN stripes (strict), bytes in runs that do not
#     (run); L<i>_MEASURE says which one the goal applies to: strict when the
#     LUN's max_sectors_kb (after storprov's apply) and its page limit
#     (max_segments x 4 KiB, max_hw_sectors_kb) hold one full stripe, else run.
# Output: KEY=VALUE lines (L<i>_SP_FRACTION, L<i>_DEF_FRACTION, ...).
# shellcheck source=tests/vm/scenarios/common.sh
. /usr/lib/storprov-tests/common.sh
# shellcheck source=tests/vm/scenarios/rqtrace.sh
. /usr/lib/storprov-tests/rqtrace.sh
PS_DIR=${PS_DIR:-/usr/lib/storprov-tests/ps}
# shellcheck disable=SC1091
. "$PS_DIR/layouts.env"
set -u
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
kv PS_SEED "$PS_SEED"
kv PS_LAYOUTS "$PS_LAYOUTS"
cat >/etc/lvm/lvmlocal.conf <<'CONF'
devices {
	global_filter = [ "a|^/dev/vd|", "a|^/dev/md|", "r|.*|" ]
}
CONF
declare -A TR
LUN=() DEF_MSK=()
for ((j = 0; j < PS_MAX_LUNS; j++)); do
	x=$(disk_by_serial "ps$j") || die "no disk ps$j"
	LUN+=("$x")
	DEF_MSK+=("$(cat "/sys/block/${x#/dev/}/queue/max_sectors_kb")")
done
q=/sys/block/${LUN[0]#/dev/}/queue
kv PS_LUN_QUEUE "max_segments=$(cat "$q/max_segments") max_hw_sectors_kb=$(cat "$q/max_hw_sectors_kb") max_sectors_kb=${DEF_MSK[0]} max_segment_size=$(cat "$q/max_segment_size")"

zap() {
	wipefs -a -q "$1" >/dev/null 2>&1
	dd if=/dev/zero of="$1" bs=1M count=2 oflag=direct status=none
	dd if=/dev/zero of="$1" bs=1M count=2 seek=$(($(blockdev --getsize64 "$1") / 1048576 - 2)) oflag=direct status=none
	blockdev --rereadpt "$1" 2>/dev/null
	return 0
}
teardown() {
	local m j
	awk '$2 ~ "^/tgt[0-9]+/" || $2 == "/mnt/def" { print $2 }' /proc/mounts | while read -r m; do umount "$m"; done
	for m in sp def; do lvm vgremove -f -y "$m" >/dev/null 2>&1; done
	for m in /dev/md/up /dev/md/def /dev/md[0-9]*; do [ -b "$m" ] && mdadm --stop "$m" >/dev/null 2>&1; done
	for ((j = 0; j < PS_MAX_LUNS; j++)); do
		lvm pvremove -y -ff "${LUN[$j]}" >/dev/null 2>&1
		mdadm --zero-superblock "${LUN[$j]}" >/dev/null 2>&1
		zap "${LUN[$j]}"
		echo "${DEF_MSK[$j]}" >"/sys/block/${LUN[$j]#/dev/}/queue/max_sectors_kb"
	done
	udevadm settle
	return 0
}

# traced KEY FSEC NLUNS FIO-ARGS...: one fio workload, its LUN requests traced
traced() {
	local k=$1 fs=$2 n=$3 lost r
	shift 3
	sync
	echo 3 >/proc/sys/vm/drop_caches
	rq_trace_start "${LUN[@]:0:n}" || { kv "${k}_ERROR" "tracefs"; return 1; }
	fio --name=ps --ioengine=psync --fallocate=native --group_reporting --eta=never --output=/tmp/fio.txt "$@" >/dev/null ||
		{ cat /tmp/fio.txt; rq_trace_stop /tmp/trace.txt >/dev/null; return 1; }
	sync
	lost=$(rq_trace_stop "/tmp/trace-$k.txt")
	r=$(rq_partial "$fs" "/tmp/trace-$k.txt")
	kv "${k}_LOST_EVENTS" "$lost"
	kv "${k}_TRACE" "$r"
	TR[$k]=$r
	# the commonest request sizes, for the log
	awk '/block_rq_issue:/ { for (i = 1; i <= NF; i++) if ($i == "+") { n[$(i + 1) / 2 "K"]++ } }
		END { for (s in n) print n[s], s }' "/tmp/trace-$k.txt" | sort -rn | head -4 | tr '\n' ' ' | sed 's/^/  sizes: /;s/$/\n/'
	rm -rf "$FIO_DIR"
}

# workloads KEYPREFIX MOUNTPOINT FSEC NLUNS BS_K WRITERS HUGE BWRITERS
workloads() {
	local k=$1 mnt=$2 fs=$3 n=$4 bs=$5 w=$6 huge=$7 bw=$8 mem=() per
	FIO_DIR=$mnt/w
	mkdir -p "$FIO_DIR"
	if [ "$huge" = 1 ]; then
		echo $((w * (bs / 2048 + 2) + 4)) >/proc/sys/vm/nr_hugepages
		mem=(--iomem=shmhuge)
	fi
	per=$(((PS_WRITE_MIB * 1024 / w + bs - 1) / bs * bs))
	traced "${k}_D" "$fs" "$n" --directory="$FIO_DIR" --direct=1 --rw=write --bs="${bs}k" "${mem[@]}" \
		--size="${per}k" --numjobs="$w" || { kv "${k}_ERROR" "fio O_DIRECT"; return 1; }
	mkdir -p "$FIO_DIR"
	traced "${k}_B" "$fs" "$n" --directory="$FIO_DIR" --direct=0 --rw=write --bs=1m --end_fsync=1 \
		--size="$((PS_WRITE_MIB / bw))m" --numjobs="$bw" || { kv "${k}_ERROR" "fio buffered"; return 1; }
	fraction "$k"
}

# fraction KEYPREFIX: the layout side's figures, the two workloads' sums the two workloads' figures (from their TRACE lines)
fraction() {
	local k=$1 v
	for v in D B; do
		[ -n "${TR[${k}_$v]-}" ] || { kv "${k}_ERROR" "no trace of workload $v"; return 1; }
	done
	read -r -a v <<<"$(printf '%s\n' "${TR[${k}_D]}" "${TR[${k}_B]}" | tr ' =' '\n ' | awk '
		{ s[$1] += $2 } END { t = s["bytes"]; printf "%d %.5f %.5f\n", t, t ? s["strict"] / t : -1, t ? s["run"] / t : -1 }')"
	kv "${k}_BYTES" "${v[0]}"
	kv "${k}_STRICT" "${v[1]}"
	kv "${k}_RUN" "${v[2]}"
}

# ---- one layout ------------------------------------------------------------------
run_layout() {
	local i=$1 n
	v() { n="L${i}_$1"; echo "${!n}"; }
	local nl upper fk fs
	nl=$(v LUNS) upper=$(v UPPER) fk=$(v FULL_K)
	fs=$((fk * 2))
	section "layout $i: $(v DESC)"
	kv "L${i}_DESC" "$(v DESC)"
	kv "L${i}_UPPER" "$upper"
	kv "L${i}_FULL_K" "$fk"
	kv "L${i}_LUN" "raid$(v LUN_LEVEL) $(v LUN_MEMBERS)x$(v STRIP_K)K luns=$nl"

	# 1. storprov's layout
	local prof=$PS_DIR/L$i.xml root=/tgt$i rc
	storprov plan --profile "$prof" >/tmp/plan.txt 2>&1
	sed -n '/max_sectors_kb\|geometry:\|lun-request-size/p' /tmp/plan.txt | head -12
	storprov apply --profile "$prof" --yes --wipe --root "$root" --mount >/tmp/apply.txt 2>&1
	rc=$?
	kv "L${i}_SP_APPLY_RC" "$rc"
	kv "L${i}_SP_WARN_LUN_REQUEST_SIZE" "$(cat /tmp/plan.txt /tmp/apply.txt | grep -c 'lun-request-size')"
	kv "L${i}_SP_WARN_LUN_BUFFERED_RMW" "$(cat /tmp/plan.txt /tmp/apply.txt | grep -c 'lun-buffered-rmw')"
	grep -m1 'lun-request-size' /tmp/apply.txt
	kv "L${i}_SP_MKFS" "$(sed -n 's/^storprov: \[ *[0-9.]*s\] *\$ //p' /tmp/apply.txt | grep '^mkfs.xfs ' | grep -v ' -N ' | tail -1)"
	if [ "$rc" -ne 0 ]; then
		tail -n 30 /tmp/apply.txt
		kv "L${i}_SP_ERROR" "storprov apply exit $rc: $(grep -m1 -i 'error' /tmp/apply.txt)"
		return 1
	fi
	[ "$upper" != md5 ] || mdadm --wait /dev/md/up >/dev/null 2>&1
	local mnt=$root/sp q msk segs hw lim g bs
	q=/sys/block/${LUN[0]#/dev/}/queue
	msk=$(cat "$q/max_sectors_kb") segs=$(cat "$q/max_segments") hw=$(cat "$q/max_hw_sectors_kb")
	lim=$((segs * 4))
	[ "$hw" -ge "$lim" ] || lim=$hw
	kv "L${i}_SP_LUN_MAX_SECTORS_KB" "$msk"
	kv "L${i}_LUN_PAGE_LIMIT_KB" "$lim"
	# which figure the goal applies to (see the head of this file)
	if [ "$msk" -ge "$fk" ] && [ "$lim" -ge "$fk" ]; then kv "L${i}_MEASURE" strict; else kv "L${i}_MEASURE" run; fi
	read -r -a g <<<"$(xfs_info "$mnt" | sed -n '/^data/{s/.*bsize=\([0-9]*\).*/\1/;h};/swidth=/{s/.*sunit=\([0-9]*\) *swidth=\([0-9]*\).*/\1 \2/;G;s/\n/ /p;q}')"
	kv "L${i}_SP_SU_SW_BLOCKS" "${g[0]}/${g[1]}"
	bs=$((g[1] * g[2] / 1024))
	[ "$bs" -gt 0 ] || bs=$fk
	bs=$((bs * $(v BS_MULT)))
	# at most 64 MiB a write (huge-page buffers for 4 writers fit in the guest)
	while [ "$bs" -gt 65536 ]; do bs=$((bs / 2)); done
	kv "L${i}_BS_K" "$bs"
	workloads "L${i}_SP" "$mnt" "$fs" "$nl" "$bs" "$(v WRITERS)" "$(v FIO_HUGE)" "$(v BWRITERS)"
	teardown

	# 2. the naive layout on the same LUNs
	local dev='' luns=("${LUN[@]:0:nl}")
	case $upper in
	lv)
		lvm pvcreate -q -y -ff "${luns[@]}" >/dev/null && lvm vgcreate -q def "${luns[@]}" >/dev/null &&
			lvm lvcreate -q -y -i "$nl" -I 64k -l 90%VG -n vol def >/dev/null && dev=/dev/def/vol
		;;
	md0 | md5)
		local extra=()
		[ "$upper" = md0 ] || extra=(--assume-clean)
		mdadm --create /dev/md/def --run --metadata=1.2 --level="${upper#md}" --raid-devices="$nl" \
			"${extra[@]}" "${luns[@]}" >/tmp/mdadm.txt 2>&1 || cat /tmp/mdadm.txt
		[ -b /dev/md/def ] && dev=/dev/md/def
		;;
	xfs)
		if [ "$(v PART)" = 1 ]; then
			parted -s "${luns[0]}" mklabel gpt mkpart data 1MiB 100% && udevadm settle
			dev=${luns[0]}1
		else
			dev=${luns[0]}
		fi
		;;
	esac
	udevadm settle
	if [ -z "$dev" ] || ! mkfs.xfs -f -q "$dev" >/tmp/mkfs.txt 2>&1; then
		cat /tmp/mkfs.txt 2>/dev/null
		kv "L${i}_DEF_ERROR" "naive $upper layout on ${luns[*]}"
		return 1
	fi
	kv "L${i}_DEF_LUN_MAX_SECTORS_KB" "$(cat "$q/max_sectors_kb")"
	mkdir -p /mnt/def
	mount -t xfs "$dev" /mnt/def || { kv "L${i}_DEF_ERROR" "mount $dev"; return 1; }
	workloads "L${i}_DEF" /mnt/def "$fs" "$nl" "$bs" "$(v WRITERS)" "$(v FIO_HUGE)" "$(v BWRITERS)"
	return 0
}

for i in $PS_LAYOUTS; do
	t0=$SECONDS
	run_layout "$i"
	teardown
	kv "L${i}_SECONDS" "$((SECONDS - t0))"
done
kv PS_DONE 1
