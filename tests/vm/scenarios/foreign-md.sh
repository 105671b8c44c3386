#!/bin/sh
# Scenario 55 (guest, issue 18): md 0.90 and 1.0 members (mdadm, RAID1 over
# partition 1 of two virtio disks, at 150 MiB: no usual start) whose tables
# are then erased: wipefs -a, the first MiB zeroed, or both the first and the
# last MiB zeroed. storprov apply on a profile that partitions both disks must
# refuse (exit 2) and leave every byte of both disks as it was (sha256sum of
# each whole disk before and after:
# coreutils cksum). Under wipefs -a and the first MiB zeroed
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

sums() { /usr/local/bin/cksum "$a" "$b" | cut -d' ' -f1 | tr '\n' ' '; }

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
	kv "${tag}_UNCHANGED" "$([ "$before" = "$after" ] && echo 1 || echo 0)"
	kv "${tag}_NAMED" "$(grep -c "refused: lun[^ ]* ([^)]*) carries [^;]*$([ "$4" = pv ] && echo LVM2_member || echo linux_raid_member)" /tmp/out)"
}

for m in 0.90 1.0; do
	case_ "$m" wipefs 150 raw
	case_ "$m" head 150 raw
	case_ "$m" both 17 pv
done
