#!/bin/sh
# Scenario 2 (guest): two md RAID6 sets of six disks as PVs; a striped and two
# linear LVs with XFS. Read back: mdadm --detail, pvs/vgs/lvs, dmsetup table.
# shellcheck source=tests/vm/scenarios/common.sh
. /usr/lib/storprov-tests/common.sh
P=/usr/lib/storprov-tests/profiles/md-raid6-lvm.xml

slow_resync
section plan
storprov plan --profile "$P" --seed 1 2>&1
apply_profile "$P" --root /target --mount --seed 1 || exit 1

section "read back with independent tools"
for a in r6a r6b; do
	show mdadm --detail /dev/md/$a
	d=$(mdadm --detail --export /dev/md/$a)
	kv "MD_${a}_LEVEL" "$(printf '%s\n' "$d" | sed -n 's/^MD_LEVEL=//p')"
	kv "MD_${a}_DEVICES" "$(printf '%s\n' "$d" | sed -n 's/^MD_DEVICES=//p')"
	k=$(readlink -f /dev/md/$a)
	kv "MD_${a}_CHUNK" "$(cat "/sys/block/${k#/dev/}/md/chunk_size")"
	kv_file "MD_${a}_STRIPE_CACHE" "/sys/block/${k#/dev/}/md/stripe_cache_size"
	kv_file "MD_${a}_READ_AHEAD_KB" "/sys/block/${k#/dev/}/queue/read_ahead_kb"
	kv "MD_${a}_DEVNUM" "$(cat "/sys/block/${k#/dev/}/dev")"
done
show lvm pvs -o pv_name,pe_start,vg_name --units b
kv PE_STARTS "$(lvm pvs --noheadings --nosuffix --units b -o pe_start | tr -s ' ')"
kv EXTENT "$(lvm vgs --noheadings --nosuffix --units b -o vg_extent_size data | tr -d ' ')"
show lvm lvs -o lv_name,seg_start_pe,stripes,stripe_size,devices --units b data
kv SCRATCH_STRIPES "$(lvm lvs --noheadings -o stripes data/scratch | tr -d ' ')"
kv SCRATCH_STRIPE_SIZE "$(lvm lvs --noheadings --nosuffix --units b -o stripe_size data/scratch | tr -d ' ')"
show dmsetup table
# every segment's offset on its md device, in sectors: "name offset ..."
kv DM_OFFSETS "$(dmsetup table | awk '{
	name = $1; sub(":", "", name)
	if ($4 == "linear") printf "%s:%s ", name, $6
	else if ($4 == "striped") for (i = 8; i <= NF; i += 2) printf "%s:%s ", name, $i
}')"
kv DM_SCRATCH "$(dmsetup table data-scratch)"
for lv in scratch home archive; do
	xfs_geom "$(echo "$lv" | tr "[:lower:]" "[:upper:]")" "/dev/data/$lv"
	kv "$(echo "$lv" | tr "[:lower:]" "[:upper:]")_MOUNT" "$(grep "/target/$lv " /proc/mounts)"
done
k=$(readlink -f /dev/data/scratch)
kv_file SCRATCH_READ_AHEAD_KB "/sys/block/${k#/dev/}/queue/read_ahead_kb"
show cat /target/etc/mdadm/mdadm.conf /target/etc/udev/rules.d/70-storprov.rules
