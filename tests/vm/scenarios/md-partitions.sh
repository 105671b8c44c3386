#!/bin/sh
# Scenario 80 (guest): a partitioned md RAID5 (4 disks, 64 KiB chunk) with XFS
# on partition 1 and an LVM PV on partition 2 holding an XFS LV. The first run
# is killed right after mdadm --create (before the GPT); the second must
# finish; the third must change nothing. Read back with sysfs, mdadm, blkid,
# lvm, xfs_info and findmnt.
# shellcheck source-path=SCRIPTDIR source=common.sh disable=SC1091
. /usr/lib/storprov-tests/common.sh
P=/usr/lib/storprov-tests/profiles/md-raid5-gpt.xml
REAL_MDADM=$(command -v mdadm)

slow_resync
section plan
storprov plan --profile "$P" --seed 1 2>&1

# an mdadm that kills storprov (its parent) as soon as the array exists
mkdir -p /tmp/kbin
cat >/tmp/kbin/mdadm <<SH
#!/bin/sh
case " \$* " in
*" --create "*)
	"$REAL_MDADM" "\$@"
	rc=\$?
	echo "md-partitions: array made, killing storprov \$PPID before its GPT" >&2
	kill -9 "\$PPID"
	exit "\$rc" ;;
esac
exec "$REAL_MDADM" "\$@"
SH
chmod +x /tmp/kbin/mdadm

section "apply, killed right after mdadm --create"
PATH=/tmp/kbin:$PATH storprov apply --profile "$P" --yes --root /target --seed 1 2>&1
kv RC1 "$?"
udevadm settle 2>/dev/null
kv PTTYPE_AFTER_KILL "$(blkid -p -o value -s PTTYPE /dev/md/r5data)"

apply_profile "$P" --root /target --mount --seed 1
udevadm settle 2>/dev/null

section "read back with independent tools"
show mdadm --detail /dev/md/r5data
d=$(mdadm --detail --export /dev/md/r5data)
kv MD_LEVEL "$(printf '%s\n' "$d" | sed -n 's/^MD_LEVEL=//p')"
kv MD_DEVICES "$(printf '%s\n' "$d" | sed -n 's/^MD_DEVICES=//p')"
k=$(readlink -f /dev/md/r5data)
k=${k#/dev/}
kv MD_KNAME "$k"
kv MD_CHUNK "$(cat "/sys/block/$k/md/chunk_size")"
kv MD_SIZE_SECTORS "$(cat "/sys/block/$k/size")"
# mdadm's data offset on every member, in sectors (storprov estimated 1 MiB)
kv MD_DATA_OFFSETS "$(cat /sys/block/"$k"/md/dev-*/offset | sort -u)"
for n in 1 2; do
	kv "P${n}_KNAME" "$(basename "$(readlink -f /dev/md/r5data$n)")"
	kv "P${n}_START" "$(cat "/sys/block/$k/${k}p$n/start")"
	kv "P${n}_SIZE" "$(cat "/sys/block/$k/${k}p$n/size")"
	kv "P${n}_TYPE" "$(blkid -p -o value -s PART_ENTRY_TYPE "/dev/${k}p$n")"
done
show sgdisk -p "/dev/$k"
xfs_geom DATA /dev/md/r5data1
kv DATA_UUID "$(blkid -p -o value -s UUID "/dev/${k}p1")"
kv DATA_MOUNT "$(grep " /target/data " /proc/mounts)"
show lvm pvs -o pv_name,pe_start,vg_name,vg_extent_size --units b
kv PV_NAME "$(lvm pvs --noheadings -o pv_name | tr -d ' ')"
kv PE_START "$(lvm pvs --noheadings --nosuffix --units b -o pe_start | tr -d ' ')"
kv EXTENT "$(lvm vgs --noheadings --nosuffix --units b -o vg_extent_size vgr5 | tr -d ' ')"
xfs_geom HOME /dev/vgr5/home
kv HOME_UUID "$(blkid -p -o value -s UUID /dev/vgr5/home)"
show cat /target/etc/fstab
# the fstab lines as the target will read them, mountpoints under /target here
sed -e 's|[[:space:]]/data[[:space:]]| /target/data |' -e 's|[[:space:]]/home[[:space:]]| /target/home |' \
	/target/etc/fstab >/tmp/fstab.target
findmnt --verify --tab-file /tmp/fstab.target 2>&1
kv FINDMNT_RC "$?"
kv FINDMNT_SUMMARY "$(findmnt --verify --tab-file /tmp/fstab.target 2>&1 | tail -n 1)"
u=$(sed -n 's/^UUID=\([^[:space:]]*\)[[:space:]]*\/data[[:space:]].*/\1/p' /target/etc/fstab)
kv FSTAB_DATA_DEV "$(basename "$(readlink -f "$(blkid -U "$u")")")"
show cat /target/etc/udev/rules.d/70-storprov.rules
kv RULES_PARTITION_LINES "$(grep -c 'md.*p[0-9]\|r5data[0-9]' /target/etc/udev/rules.d/70-storprov.rules)"

section "a third run changes nothing"
storprov apply --profile "$P" --yes --root /target --mount --seed 1 >/tmp/run3.log 2>&1
kv RC3 "$?"
cat /tmp/run3.log
kv NOTHING "$(grep -c 'nothing to do' /tmp/run3.log)"
kv CREATED3 "$(grep -c 'created' /tmp/run3.log)"
kv DATA_UUID3 "$(blkid -p -o value -s UUID "/dev/${k}p1")"
kv HOME_UUID3 "$(blkid -p -o value -s UUID /dev/vgr5/home)"

section "the same node, everything preserve=\"true\": verified and kept"
sed -e 's/<disks id="sas"/& preserve="true"/' -e 's/<md id="r5"/& preserve="true"/' \
	-e 's/<vg id="vg"/& preserve="true"/' -e 's/<xfs on=/<xfs preserve="true" on=/' "$P" >/tmp/preserve.xml
storprov apply --profile /tmp/preserve.xml --yes --root /target --mount --seed 1 >/tmp/run4.log 2>&1
kv RC4 "$?"
cat /tmp/run4.log
kv NOTHING4 "$(grep -c 'nothing to do' /tmp/run4.log)"
kv DATA_UUID4 "$(blkid -p -o value -s UUID "/dev/${k}p1")"

section "a foreign table on the md is refused without wipe"
umount /target/data /target/home
lvm vgchange -an vgr5 >/dev/null 2>&1
sgdisk -Z "/dev/$k" >/dev/null 2>&1
sgdisk -n 1:2048:+64M "/dev/$k" 2>&1
udevadm settle 2>/dev/null
ptuuid=$(blkid -p -o value -s PTUUID "/dev/$k")
storprov apply --profile "$P" --yes --root /target --seed 1 >/tmp/run5.log 2>&1
kv RC5 "$?"
cat /tmp/run5.log
kv REFUSED5 "$(grep -c 'carries a gpt partition table with 1 partition that is not the planned one' /tmp/run5.log)"
kv REFUSED5_MD "$(grep -c 'wipe="true" to <md>' /tmp/run5.log)"
kv PTUUID_KEPT "$([ "$(blkid -p -o value -s PTUUID "/dev/$k")" = "$ptuuid" ] && echo 1 || echo 0)"
# the table on the array, as sfdisk reads it (the kernel may still show the old one)
kv PARTS_ON_DISK "$(sfdisk -d "/dev/$k" 2>/dev/null | grep -c '^/dev/')"
