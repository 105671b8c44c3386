#!/bin/sh
# Scenario 5, last boot (busybox initramfs with udev): udev assembled the
# arrays it found, so the scratch disks are held by the reimage's RAID10.
# Profile reimage-inuse wants them wiped for another array: apply must refuse
# before writing anything, and the RAID10 must be untouched.
. /usr/lib/storprov-tests/common.sh

show cat /proc/mdstat
apply_profile /usr/lib/storprov-tests/profiles/reimage-inuse.xml --root /target
section "afterwards"
show cat /proc/mdstat
d=$(mdadm --detail --export /dev/md/scratch)
kv MD_SCRATCH_UUID "$(printf '%s\n' "$d" | sed -n 's/^MD_UUID=//p')"
kv MD_SCRATCH_LEVEL "$(printf '%s\n' "$d" | sed -n 's/^MD_LEVEL=//p')"
kv FS_SCRATCH_UUID "$(blkid -s UUID -o value /dev/md/scratch)"
kv MD_MIRROR "$([ -e /dev/md/mirror ] && echo present || echo absent)"
