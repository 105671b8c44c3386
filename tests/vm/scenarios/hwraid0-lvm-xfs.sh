#!/bin/sh
# Scenario 4 (guest): the hwraid0-lvm-xfs profile (seed 004) on two virtio
# "PERC RAID0 LUNs" (3 x 64 KiB, full stripe 192 KiB, no topology exported):
# one PV on the whole disk, one on a partition. Read back: sysfs partition
# start, pvs/vgs, dmsetup table, xfs_info, /proc/mounts.
# shellcheck source-path=SCRIPTDIR source=common.sh disable=SC1091
. /usr/lib/storprov-tests/common.sh
P=/usr/lib/storprov-tests/profiles/hwraid0-lvm-xfs.xml

whole=$(disk_by_serial whole0) || exit 1
parted=$(disk_by_serial parted0) || exit 1

section plan
storprov plan --profile "$P" --seed 4 2>&1
apply_profile "$P" --root /target --mount --seed 4 || exit 1

section "read back with independent tools"
kv WHOLE_DEV "$whole"
kv WHOLE_PARTS "$(find "/sys/block/${whole#/dev/}/" -mindepth 1 -maxdepth 1 -name "${whole#/dev/}*" | wc -l)"
kv PARTED_DEV "$parted"
kv PARTED_START "$(part_start "$parted" 1)"
show sgdisk -i 1 "$parted"
show lvm pvs -o pv_name,vg_name,pe_start,pe_count,pv_size --units b
# pv KEYPREFIX DISK PV: the PV's VG and data start, the disk's queue
pv() {
	kv "${1}_PV" "$(lvm pvs --noheadings -o pv_name "$3" | tr -d ' ')"
	kv "${1}_VG" "$(lvm pvs --noheadings -o vg_name "$3" | tr -d ' ')"
	kv "${1}_PE_START" "$(lvm pvs --noheadings --nosuffix --units b -o pe_start "$3" | tr -d ' ')"
	queue "$1" "$2"
}
pv WHOLE "$whole" "$whole"
pv PARTED "$parted" "${parted}1"
show lvm vgs -o vg_name,vg_extent_size,vg_extent_count --units b
show lvm lvs -o lv_name,vg_name,lv_size,seg_start_pe,stripes,devices --units b
show dmsetup table
for V in A B; do
	v=$(echo "$V" | tr '[:upper:]' '[:lower:]')
	kv "VG${V}_EXTENT" "$(lvm vgs --noheadings --nosuffix --units b -o vg_extent_size "vg$v" | tr -d ' ')"
	t=$(dmsetup table "vg$v-dbench")
	kv "DM_${V}" "$t"
	# "start length linear major:minor offset", one line per segment
	kv "DM_${V}_TARGETS" "$(printf '%s\n' "$t" | awk '{ print $3 }')"
	kv "DM_${V}_OFFSETS" "$(printf '%s\n' "$t" | awk '{ print $5 }')"
	kv "DM_${V}_DEVNUM" "$(printf '%s\n' "$t" | awk '{ print $4 }')"
	xfs_geom "XFS_${V}" "/dev/vg$v/dbench"
	kv "MOUNT_${V}" "$(grep " /target/srv/$v " /proc/mounts)"
done
kv WHOLE_DEVNUM "$(cat "/sys/class/block/${whole#/dev/}/dev")"
kv PARTED_DEVNUM "$(cat "/sys/class/block/${parted#/dev/}/${parted#/dev/}1/dev")"
kv FSTAB "$(grep -v '^#' /target/etc/fstab)"
show cat /target/etc/udev/rules.d/70-storprov.rules

section "second apply"
out=$(storprov apply --profile "$P" --yes --root /target --mount --seed 4 2>&1)
printf '%s\n' "$out"
kv SECOND_APPLY "$(printf '%s\n' "$out" | grep -c 'nothing to do')"
