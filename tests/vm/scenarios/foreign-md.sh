#!/bin/sh
# Scenario 55 (guest, issue 18): md 0.90 and 1.0 members (mdadm, RAID1 over
# partition 1 of two virtio disks, at 150 MiB: no usual start) whose tables
# are then erased: wipefs -a, the first MiB zeroed, or both the first and the
# last MiB zeroed. storprov apply on a profile that partitions both disks must
# refuse (exit 2) and leave every byte of both disks as it was: the kernel's
# own count of each whole disk's writes and discards (/sys/block/*/stat:
# requests and sectors; any write that reaches the disk, by storprov or by
# a tool it runs, moves them, whatever the bytes) is the same before and
# after, and so is a checksum of the first and last 2 MiB, where a table
# would go (coreutils cksum; hashing the whole disks took most of this
# scenario's 130 s of TCG). Under wipefs -a and the first MiB zeroed
# the array holds raw data only: found by its md superblock at the end of the
# region a GPT entry array still names. With both ends zeroed nothing names
# that end (storprov-apply(8)): the array then holds an LVM PV (its label in the
# array's first sectors, md 0.90/1.0 keep data at offset 0), which the scan
# finds at a usual start, so that case starts the partition at 17 MiB. The
# profile only partitions the disks (no XFS: small disks, fast checksums).
# No udev: mdadm --stop is not followed by an incremental re-assembly.
# shellcheck source-path=SCRIPTDIR source=common.sh disable=SC1091
. /usr/lib/storprov-tests/common.sh
a=$(disk_by_serial fm0) b=$(disk_by_serial fm1)
kv DISKS "$a $b"
cat >/tmp/p.xml <<XML
<?xml version="1.0"?>
<profile version="1" name="foreign-md">
  <disks id="lun" count="2">
    <match serial="fm*"/>
    <gpt><partition id="data" size="100%"/></gpt>
  </disks>
</profile>
XML

# sums: per disk, its writes and discards (fields 5, 7, 12 and 14 of
# /sys/block/X/stat: requests and sectors; write-zeroes counts as a write),
# then the checksums of its first and last 2 MiB
sums() {
	local d n
	for d in "$a" "$b"; do
		n=$(($(blockdev --getsize64 "$d") / 1048576))
		printf '%s: %s ' "$d" "$(awk '{ print $5, $7, $12, $14 }' "/sys/block/${d#/dev/}/stat")"
		{ dd if="$d" bs=1M count=2 status=none; dd if="$d" bs=1M skip=$((n - 2)) count=2 status=none; } |
			/usr/local/bin/cksum | cut -d' ' -f1
	done | tr '\n' ' '
}

# case META ERASE START_MIB CONTENT
case_() {
	tag="MD$(echo "$1" | tr -d .)_$(echo "$2" | tr '[:lower:]' '[:upper:]')"
	section "$tag: md $1, table erased by $2, partition at $3 MiB, $4 on the array"
	for d in "$a" "$b"; do
		wipefs -a -q "$d" 2>/dev/null
		dd if=/dev/zero of="$d" bs=1M count=2 conv=notrunc status=none
		sgdisk -n "1:$(($3 * 2048)):+64M" "$d" >/dev/null || die "sgdisk $d"
		partx -u "$d" 2>/dev/null || partx -a "$d" 2>/dev/null
	done
	for _ in $(seq 50); do [ -b "${a}1" ] && [ -b "${b}1" ] && break; sleep 0.1; done
	mdadm --create /dev/md9 --run --metadata="$1" --level=1 --raid-devices=2 --bitmap=none \
		--assume-clean "${a}1" "${b}1" 2>&1 || die "mdadm --create"
	kv "${tag}_MD_METADATA" "$(mdadm --detail /dev/md9 | sed -n 's/^ *Version : //p')"
	if [ "$4" = pv ]; then
		lvm pvcreate -q --config 'devices { use_devicesfile=0 }' /dev/md9 2>&1 || die "pvcreate"
	else
		head -c 4194304 /dev/urandom | dd of=/dev/md9 bs=1M conv=fsync status=none
	fi
	mdadm --stop /dev/md9 2>&1
	kv "${tag}_MEMBER_TYPE" "$(blkid -p -o value -s TYPE "${a}1")"
	for d in "$a" "$b"; do
		case $2 in
		wipefs) wipefs -a -q "$d" ;;
		head) dd if=/dev/zero of="$d" bs=1M count=1 conv=notrunc,fsync status=none ;;
		both)
			dd if=/dev/zero of="$d" bs=1M count=1 conv=notrunc,fsync status=none
			dd if=/dev/zero of="$d" bs=1M count=1 conv=notrunc,fsync status=none \
				seek=$(($(blockdev --getsize64 "$d") / 1048576 - 1))
			;;
		esac
		partx -d "$d" 2>/dev/null
		blockdev --flushbufs "$d"
	done
	kv "${tag}_PTTYPE" "$(blkid -p -o value -s PTTYPE "$a")$(blkid -p -o value -s PTTYPE "$b")"
	before=$(sums)
	storprov apply --profile /tmp/p.xml --yes --root /target --seed 1 --lock-file /tmp/sp.lock >/tmp/out 2>&1
	kv "${tag}_RC" "$?"
	cat /tmp/out
	for d in "$a" "$b"; do blockdev --flushbufs "$d"; done
	after=$(sums)
	echo "before: $before"
	echo "after:  $after"
	kv "${tag}_UNCHANGED" "$([ "$before" = "$after" ] && echo 1 || echo 0)"
	kv "${tag}_NAMED" "$(grep -c "refused: lun[^ ]* ([^)]*) carries [^;]*$([ "$4" = pv ] && echo LVM2_member || echo linux_raid_member)" /tmp/out)"
}

for m in 0.90 1.0; do
	case_ "$m" wipefs 150 raw
	case_ "$m" head 150 raw
	case_ "$m" both 17 pv
done

# the check can fail: one sector in the middle of a disk, read and written
# back unchanged (neither end's bytes move), moves the counts
section "control: one sector rewritten with its own bytes"
before=$(sums)
dd if="$a" of=/tmp/sector bs=512 skip=204800 count=1 status=none
dd if=/tmp/sector of="$a" bs=512 seek=204800 count=1 conv=notrunc,fsync status=none
blockdev --flushbufs "$a"
after=$(sums)
echo "before: $before"
echo "after:  $after"
kv CONTROL_SEEN "$([ "$before" != "$after" ] && echo 1 || echo 0)"
