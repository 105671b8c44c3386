#!/bin/sh
# Scenario 5, boot 1 (busybox initramfs with udev): provision a node with
# profile reimage-a (no --seed: the default seed from the profile name and
# the disks), put a file on /data and record what must survive the reimage:
# its sha256, xfs_info, the md and XFS UUIDs and the array's creation time.
# Also prints what profile reimage-b would pre-assign on this node, to show
# that the reimage named the objects by what is on disk instead.
. /usr/lib/storprov-tests/common.sh
P=/usr/lib/storprov-tests/profiles

section "plan reimage-a"
storprov plan --profile "$P/reimage-a.xml" 2>&1
apply_profile "$P/reimage-a.xml" --root /target --mount || exit 1

section "data on /data"
dd if=/dev/urandom of=/target/data/blob bs=1M count=6 2>&1 || exit 1
mkdir -p /target/data/dir && echo "written at boot 1" >/target/data/dir/note
sync
kv DATA_SHA256 "$(sha256sum /target/data/blob | cut -d' ' -f1)"
kv NOTE_SHA256 "$(sha256sum /target/data/dir/note | cut -d' ' -f1)"

section "read back with independent tools"
show mdadm --detail /dev/md/data
d=$(mdadm --detail --export /dev/md/data)
kv MD_DATA_UUID "$(printf '%s\n' "$d" | sed -n 's/^MD_UUID=//p')"
kv MD_DATA_LEVEL "$(printf '%s\n' "$d" | sed -n 's/^MD_LEVEL=//p')"
kv MD_DATA_DEVICES "$(printf '%s\n' "$d" | sed -n 's/^MD_DEVICES=//p')"
kv MD_DATA_CTIME "$(mdadm --detail /dev/md/data | sed -n 's/^ *Creation Time : //p')"
k=$(readlink -f /dev/md/data)
kv MD_DATA_CHUNK "$(cat /sys/block/"${k#/dev/}"/md/chunk_size)"
kv FS_DATA_UUID "$(blkid -s UUID -o value /dev/md/data)"
i=$(xfs_info /target/data)
printf '%s\n' "$i"
# without the device name on the first line, which differs between boots
kv XFS_DATA_INFO_SHA256 "$(printf '%s\n' "$i" | sed '1s/^meta-data=[^ ]* */meta-data= /' | sha256sum | cut -d' ' -f1)"
kv XFS_DATA_SWIDTH "$(printf '%s\n' "$i" | sed -n '/swidth=/{s/.*swidth=\([0-9]*\).*/\1/p;q}')"
d=$(mdadm --detail --export /dev/md/scratch)
kv MD_SCRATCH_UUID "$(printf '%s\n' "$d" | sed -n 's/^MD_UUID=//p')"
kv MD_SCRATCH_LEVEL "$(printf '%s\n' "$d" | sed -n 's/^MD_LEVEL=//p')"
kv FS_SCRATCH_UUID "$(blkid -s UUID -o value /dev/md/scratch)"
show cat /target/etc/fstab /target/etc/mdadm/mdadm.conf

section "what profile reimage-b would pre-assign here"
plan=$(storprov plan --profile "$P/reimage-b.xml" 2>&1)
printf '%s\n' "$plan"
for m in data scratch; do
	M=$(echo "$m" | tr '[:lower:]' '[:upper:]')
	# a preserved object's line reads "uuid FOUND (found on disk; planned PLANNED)"
	md=$(printf '%s\n' "$plan" | grep "^ *md $m /dev/md/$m: ")
	fs=$(printf '%s\n' "$plan" | grep "^ *xfs .* on /dev/md/$m: ")
	kv "B_PLANNED_MD_${M}_UUID" "$(printf '%s\n' "$md" | sed -n 's/.*planned \([0-9a-f:]*\)).*/\1/p;t;s/.*, uuid \([0-9a-f:]*\) .*/\1/p')"
	kv "B_FOUND_MD_${M}_UUID" "$(printf '%s\n' "$md" | sed -n 's/.*, uuid \([0-9a-f:]*\) (found on disk.*/\1/p')"
	kv "B_PLANNED_FS_${M}_UUID" "$(printf '%s\n' "$fs" | sed -n 's/.*planned \([0-9a-f-]*\)).*/\1/p;t;s/.*, uuid \([0-9a-f-]*\).*/\1/p')"
	kv "B_FOUND_FS_${M}_UUID" "$(printf '%s\n' "$fs" | sed -n 's/.*, uuid \([0-9a-f-]*\) (found on disk.*/\1/p')"
done
