#!/bin/sh
# Scenario 1 (guest): the grid-3ware-raid5 profile on two virtio "LUNs" that
# export no topology, as the 3ware units of seed 000 do.
# shellcheck source=tests/vm/scenarios/common.sh
. /usr/lib/storprov-tests/common.sh
P=/usr/lib/storprov-tests/profiles/grid-3ware-raid5.xml

section plan
storprov plan --profile "$P" --seed 1 2>&1
apply_profile "$P" --root /target --mount --seed 1 || exit 1

section "read back with independent tools"
for n in 0 1; do
	d=$(disk_by_serial "lun$n") || exit 1
	kv "LUN${n}_DEV" "$d"
	kv "LUN${n}_START" "$(part_start "$d" 1)"
	show sgdisk -i 1 "$d"
	xfs_geom "LUN${n}" "${d}1"
	queue "LUN${n}" "$d"
	kv "LUN${n}_MOUNT" "$(grep "^${d}1 " /proc/mounts)"
done
kv FSTAB "$(grep -v '^#' /target/etc/fstab)"
show cat /target/etc/udev/rules.d/70-storprov.rules
kv RULES_READ_AHEAD "$(grep -c 'ATTR{queue/read_ahead_kb}="8192"' /target/etc/udev/rules.d/70-storprov.rules)"
show cat /target/etc/sysctl.d/80-storprov.conf
kv_file DIRTY_RATIO /proc/sys/vm/dirty_ratio
kv_file DIRTY_BACKGROUND_RATIO /proc/sys/vm/dirty_background_ratio

section "second apply"
out=$(storprov apply --profile "$P" --yes --root /target --mount --seed 1 2>&1)
printf '%s\n' "$out"
kv SECOND_APPLY "$(printf '%s\n' "$out" | grep -c 'nothing to do')"
