#!/bin/sh
# Scenario 5, after the reimage (dracut boot): runs from the test root after
# switch_root. storprov ran in the initramfs: at pre-mount (provision) and at
# pre-pivot (files into this root). Reads back, with independent tools, what
# the arrays, filesystems and the regenerated config files say. Only
# /usr/lib/vmtest/lib.sh is on this root: no storprov here.
. /usr/lib/vmtest/lib.sh

up() { cut -d" " -f1 /proc/uptime; }

section "what the hooks left in /run/storprov (uptime $(up)s)"
for f in /run/storprov/report-provision.json /run/storprov/report-persist.json; do
	[ -r "$f" ] && show cat "$f" && echo # the report ends without a newline
done
kv REPORT_PROVISION_EXIT "$(sed -n 's/^ *"exit_code": \([0-9]*\),*$/\1/p' /run/storprov/report-provision.json 2>/dev/null)"
kv REPORT_PERSIST_EXIT "$(sed -n 's/^ *"exit_code": \([0-9]*\),*$/\1/p' /run/storprov/report-persist.json 2>/dev/null)"
kv MDSTAT "$(cat /proc/mdstat)"

section "data array (uptime $(up)s)"
show mdadm --detail /dev/md/data
d=$(mdadm --detail --export /dev/md/data)
kv MD_DATA_UUID "$(printf '%s\n' "$d" | sed -n 's/^MD_UUID=//p')"
kv MD_DATA_LEVEL "$(printf '%s\n' "$d" | sed -n 's/^MD_LEVEL=//p')"
kv MD_DATA_DEVICES "$(printf '%s\n' "$d" | sed -n 's/^MD_DEVICES=//p')"
kv MD_DATA_CTIME "$(mdadm --detail /dev/md/data | sed -n 's/^ *Creation Time : //p')"
k=$(readlink -f /dev/md/data)
kv MD_DATA_CHUNK "$(cat /sys/block/"${k#/dev/}"/md/chunk_size)"
kv MD_DATA_STRIPE_CACHE "$(cat /sys/block/"${k#/dev/}"/md/stripe_cache_size)"
kv FS_DATA_UUID "$(blkid -s UUID -o value /dev/md/data)"
kv FS_DATA_TYPE "$(blkid -s TYPE -o value /dev/md/data)"

# read only for real: "ro" alone still lets XFS write to the log at mount
# (stale block clearing), which under TCG once took minutes
mkdir -p /mnt/data
t0=$(up)
if mount -t xfs -o ro,norecovery /dev/md/data /mnt/data; then
	kv DATA_SHA256 "$(sha256sum /mnt/data/blob | cut -d' ' -f1)"
	kv NOTE_SHA256 "$(sha256sum /mnt/data/dir/note | cut -d' ' -f1)"
	i=$(xfs_info /mnt/data)
	printf '%s\n' "$i"
	kv XFS_DATA_INFO_SHA256 "$(printf '%s\n' "$i" | sed '1s/^meta-data=[^ ]* */meta-data= /' | sha256sum | cut -d' ' -f1)"
	umount /mnt/data
else
	kv DATA_SHA256 "<mount failed>"
fi
kv DATA_READ_SECONDS "$(awk -v a="$t0" -v b="$(up)" 'BEGIN { printf "%.1f", b - a }')"

section "scratch array: rebuilt (uptime $(up)s)"
show mdadm --detail /dev/md/scratch
d=$(mdadm --detail --export /dev/md/scratch)
kv MD_SCRATCH_UUID "$(printf '%s\n' "$d" | sed -n 's/^MD_UUID=//p')"
kv MD_SCRATCH_LEVEL "$(printf '%s\n' "$d" | sed -n 's/^MD_LEVEL=//p')"
kv MD_SCRATCH_DEVICES "$(printf '%s\n' "$d" | sed -n 's/^MD_DEVICES=//p')"
kv MD_SCRATCH_CTIME "$(mdadm --detail /dev/md/scratch | sed -n 's/^ *Creation Time : //p')"
kv FS_SCRATCH_UUID "$(blkid -s UUID -o value /dev/md/scratch)"
kv FS_SCRATCH_TYPE "$(blkid -s TYPE -o value /dev/md/scratch)"
# the members carry the new array's superblock only
for s in scratch0 scratch1; do
	m=$(disk_by_serial "$s") || exit 1
	kv "MEMBER_${s}_MD_UUID" "$(mdadm --examine --export "$m" | sed -n 's/^MD_UUID=//p')"
done
kv MD_ARRAYS "$(sed -n 's/^\(md[0-9]*\) : active.* \(raid[0-9]*\) .*/\1:\2/p' /proc/mdstat | sort | tr '\n' ' ')"

section "config files in the new root (uptime $(up)s)"
show cat /etc/fstab /etc/mdadm/mdadm.conf /etc/udev/rules.d/70-storprov.rules /etc/sysctl.d/80-storprov.conf
kv FSTAB_DATA "$(awk '$2 == "/data"' /etc/fstab)"
kv FSTAB_SCRATCH "$(awk '$2 == "/scratch"' /etc/fstab)"
kv FSTAB_BLOCK "$(sed -n 's/^# >>> storprov managed block (profile "\([^"]*\)").*/\1/p' /etc/fstab)"
kv MDADM_DATA "$(awk '$1 == "ARRAY" && $2 == "/dev/md/data"' /etc/mdadm/mdadm.conf)"
kv MDADM_SCRATCH "$(awk '$1 == "ARRAY" && $2 == "/dev/md/scratch"' /etc/mdadm/mdadm.conf)"
kv UDEV_MD_DATA "$(grep 'ENV{MD_UUID}==' /etc/udev/rules.d/70-storprov.rules)"
kv SYSCTL "$(grep -v '^#' /etc/sysctl.d/80-storprov.conf)"
