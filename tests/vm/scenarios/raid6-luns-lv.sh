#!/bin/bash
# Scenario 4b (guest): a striped LV over RAID6 LUNs whose data width is not a
# power of two (issue 11's RAID60 through LVM), then the member-read ratio
# under full-stripe O_DIRECT writes, storprov's layout beside a naive one.
#
# 1. Two virtio disks declared as 12 x 64 KiB RAID6 LUNs (10 data disks):
#    dmsetup table stripe size and offsets, pe_start, extent, xfs_info.
# 2. Sixteen virtio disks, each split in two halves (p1 for storprov's
#    layout, p2 for the naive one, so both sit on the same spindles): four md
#    RAID6 arrays of 8 x 64 KiB (6 data disks, full stripe 384 KiB), each
#    exported through a loop device with direct I/O, which shows io_min 512
#    and io_opt 0 as hardware RAID LUNs do. storprov lays out loop0+loop1
#    from its profile; loop2+loop3 get what admins usually type (default
#    pvcreate/vgcreate, lvcreate -i 2 -I 64k, mkfs.xfs autodetecting, default
#    mount). fio writes 2 x the upper full stripe per O_DIRECT write; the ratio
#    is member sectors read / sectors written to the LV (/sys/block/*/stat).
# shellcheck source=tests/vm/scenarios/common.sh
. /usr/lib/storprov-tests/common.sh
PD=/usr/lib/storprov-tests/profiles
set -u

section "1. virtio LUNs declared as RAID6 12 x 64 KiB"
apply_profile "$PD/raid6-luns-virtio.xml" --root /target --mount --seed 1 || exit 1
kv V_APPLY_RC 0
kv V_PE_STARTS "$(lvm pvs --noheadings --nosuffix --units b -o pe_start --select vg_name=vv | tr -s ' \n' ' ')"
kv V_EXTENT "$(lvm vgs --noheadings --nosuffix --units b -o vg_extent_size vv | tr -d ' ')"
kv V_STRIPES "$(lvm lvs --noheadings -o stripes vv/vol | tr -d ' ')"
kv V_STRIPE_SIZE "$(lvm lvs --noheadings --nosuffix --units b -o stripe_size vv/vol | tr -d ' ')"
show dmsetup table vv-vol
kv V_DM "$(dmsetup table vv-vol | head -1)"
kv V_DM_OFFSETS "$(dmsetup table vv-vol | awk '$3 == "striped" { for (i = 7; i <= NF; i += 2) printf "%s ", $i }')"
xfs_geom V /dev/vv/vol

section "2. loop LUNs over md RAID6 8 x 64 KiB: storprov's layout and a naive one"
# A hardware LUN hides its members; here LVM must not look at the md arrays
# under the loops, or it finds every PV label twice (loop0 and md127) and
# refuses the duplicates. lvmlocal.conf is read after lvm.conf.
cat >/etc/lvm/lvmlocal.conf <<'CONF'
devices {
	global_filter = [ "a|^/dev/loop|", "a|^/dev/vd|", "r|.*|" ]
}
CONF
members=()
for i in $(seq 0 15); do
	# partitioned on the host (vm_disks_gpt: parted's 1MiB 50%, 50% 100%)
	d=$(disk_by_serial "m$i") || die "no disk m$i"
	members+=("$d")
done
udevadm settle
part() { # DISK N
	local p
	for p in "${1}p$2" "${1}$2"; do [ -b "$p" ] && { echo "$p"; return; }; done
	die "no partition $2 on $1"
}
mkarray() { # NAME HALF FIRST: RAID6 over the HALF partitions of disks FIRST..FIRST+7
	local devs=() i
	for ((i = $3; i < $3 + 8; i++)); do devs+=("$(part "${members[$i]}" "$2")"); done
	MEM[$1]="${devs[*]}"
	mdadm --create "/dev/md/$1" --run --metadata=1.2 --level=6 --raid-devices=8 --chunk=64 \
		--bitmap=none --assume-clean "${devs[@]}" >/dev/null 2>&1 || die "mdadm --create $1"
}
declare -A MEM
mkarray spa 1 0
mkarray spb 1 8
mkarray defa 2 0
mkarray defb 2 8
udevadm settle
loopdev() { losetup --direct-io=on --show -f "$(readlink -f "/dev/md/$1")" || die "losetup $1"; }
l0=$(loopdev spa)
l1=$(loopdev spb)
[ "$l0 $l1" = "/dev/loop0 /dev/loop1" ] || die "expected loop0 loop1, got $l0 $l1"
kv LOOP_IO_MIN "$(cat /sys/block/loop0/queue/minimum_io_size)"
kv LOOP_IO_OPT "$(cat /sys/block/loop0/queue/optimal_io_size)"
kv LOOP_DIO "$(cat /sys/block/loop0/loop/dio)"
udevadm settle
# a root of its own: the virtio profile above owns /target's rules file (it now tunes its
# LUNs: a derived max_sectors_kb), and one profile owns that file
apply_profile "$PD/raid6-luns-loop.xml" --root /target2 --mount --seed 1 || exit 1
l2=$(loopdev defa)
l3=$(loopdev defb)
udevadm settle
lvm pvcreate -q "$l2" "$l3" >/dev/null && lvm vgcreate -q def "$l2" "$l3" >/dev/null &&
	lvm lvcreate -q -y -i 2 -I 64k -l 90%VG -n vol def >/dev/null || die "naive LVM failed"
udevadm settle
mkfs.xfs -f -q /dev/def/vol || die "mkfs.xfs (naive)"
mkdir -p /mnt/def && mount -t xfs /dev/def/vol /mnt/def || die "mount (naive)"

for l in sp def; do
	L=${l^^}
	kv "${L}_PE_STARTS" "$(lvm pvs --noheadings --nosuffix --units b -o pe_start --select vg_name=$l | tr -s ' \n' ' ')"
	kv "${L}_EXTENT" "$(lvm vgs --noheadings --nosuffix --units b -o vg_extent_size $l | tr -d ' ')"
	kv "${L}_DM" "$(dmsetup table $l-vol | head -1)"
	xfs_geom "$L" "/dev/$l/vol"
done
kv SP_MOUNT "$(grep ' /target2/sp ' /proc/mounts)"

# stat_sum DEV...: sectors read and written, summed
stat_sum() {
	local d b f r=0 w=0
	for d in "$@"; do
		b=$(basename "$(readlink -f "$d")")
		read -r -a f <"/sys/class/block/$b/stat"
		r=$((r + f[2])) w=$((w + f[6]))
	done
	echo "$r $w"
}
# ratio LAYOUT MOUNTPOINT MEMBERS...: fio O_DIRECT writers, 1536 KiB a write
# (2 x the LV's 768 KiB full stripe) into preallocated files
ratio() {
	local l=$1 mnt=$2 a b ta tb
	shift 2
	local top
	top=$(readlink -f "/dev/$l/vol")
	mkdir -p "$mnt/w"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	read -r -a a <<<"$(stat_sum "$@")"
	read -r -a ta <<<"$(stat_sum "$top")"
	fio --name=direct --directory="$mnt/w" --ioengine=psync --direct=1 --rw=write --bs=1536k \
		--size=48m --numjobs=2 --fallocate=native --group_reporting --output="/tmp/fio-$l.txt" ||
		{ cat "/tmp/fio-$l.txt"; die "fio $l"; }
	sync
	read -r -a b <<<"$(stat_sum "$@")"
	read -r -a tb <<<"$(stat_sum "$top")"
	local rd=$((b[0] - a[0])) wr=$((tb[1] - ta[1]))
	kv "${l^^}_MEMBER_READ_SECTORS" "$rd"
	kv "${l^^}_LV_WRITE_SECTORS" "$wr"
	kv "${l^^}_RATIO" "$(awk -v r="$rd" -v w="$wr" 'BEGIN { printf "%.4f", w ? r / w : -1 }')"
	xfs_bmap -v "$mnt/w/direct.0.0" | sed -n '3,6p'
}
# shellcheck disable=SC2086
ratio sp /target2/sp ${MEM[spa]} ${MEM[spb]}
# shellcheck disable=SC2086
ratio def /mnt/def ${MEM[defa]} ${MEM[defb]}
umount /mnt/def
