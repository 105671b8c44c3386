#!/bin/sh
# Scenario 3 (guest): the md-raid1-syncwrite profile (seed 003) on two virtio
# "SSDs" next to an OS disk that must stay untouched. Read back: the report's
# mdadm argv, mdadm --detail, sgdisk, /sys/block/*/md and queue, xfs_info,
# /proc/mounts. Then the figure seed 003 is about: a 4 KiB O_SYNC write after
# a one-second idle gap, with md/safe_mode_delay as storprov set it (10 s) and
# at the kernel default (0.200 s), timed by xfs_io (-s opens O_SYNC; busybox dd
# has no oflag=sync) and counted in the members' write I/Os, plus the array
# state md reached in the gap (clean: the next write waits for a superblock).
# shellcheck source-path=SCRIPTDIR source=common.sh disable=SC1091
. /usr/lib/storprov-tests/common.sh
P=/usr/lib/storprov-tests/profiles/md-raid1-syncwrite.xml
RAID_GUID=A19D880F-05FC-4D3B-A006-743F0F84911E

os=$(disk_by_serial os) || exit 1
s0=$(disk_by_serial ssd0) || exit 1
s1=$(disk_by_serial ssd1) || exit 1

# the members start on another scheduler, so "none" afterwards is storprov's
for d in "$s0" "$s1"; do
	echo mq-deadline >"/sys/block/${d#/dev/}/queue/scheduler" 2>/dev/null
done
queue SSD0_BEFORE "$s0"

kv T_PLAN "$(cut -d' ' -f1 /proc/uptime)"
section plan
storprov plan --profile "$P" --seed 3 2>&1
apply_profile "$P" --root /target --mount --seed 3 || exit 1

kv T_READBACK "$(cut -d' ' -f1 /proc/uptime)"
section "read back with independent tools"
argv=$(grep -o '"mdadm --create [^"]*"' /tmp/report.json)
kv MDADM_ARGV "$argv"
kv MDADM_ARGV_CHUNK "$(printf '%s\n' "$argv" | grep -c -e '--chunk')"
det=$(mdadm --detail /dev/md/journal 2>&1)
printf '$ mdadm --detail /dev/md/journal\n%s\n' "$det"
exp=$(mdadm --detail --export /dev/md/journal)
kv MD_LEVEL "$(printf '%s\n' "$exp" | sed -n 's/^MD_LEVEL=//p')"
kv MD_DEVICES "$(printf '%s\n' "$exp" | sed -n 's/^MD_DEVICES=//p')"
kv MD_CHUNK_LINES "$(printf '%s\n' "$det" | grep -c 'Chunk Size')"
kv MD_BITMAP "$(printf '%s\n' "$det" | sed -n 's/^ *Intent Bitmap : *//p')"
k=$(readlink -f /dev/md/journal)
md=/sys/block/${k#/dev/}/md
kv MD_DEV "$k"
kv_file MD_BITMAP_LOCATION "$md/bitmap/location"
kv_file MD_SAFE_MODE_DELAY "$md/safe_mode_delay"
kv MD_MEMBERS "$(cd "$md" && for m in dev-*; do echo "${m#dev-}"; done)"
n=0
for d in "$s0" "$s1"; do
	kv "SSD${n}_DEV" "$d"
	kv "SSD${n}_START" "$(part_start "$d" 1)"
	i=$(sgdisk -i 1 "$d" 2>&1)
	printf '$ sgdisk -i 1 %s\n%s\n' "$d" "$i"
	kv "SSD${n}_TYPE" "$(printf '%s\n' "$i" | sed -n 's/^Partition GUID code: \([^ ]*\).*/\1/p')"
	queue "SSD${n}" "$d"
	n=$((n + 1))
done
kv RAID_GUID "$RAID_GUID"
kv OS_DEV "$os"
kv OS_PARTS "$(find "/sys/block/${os#/dev/}/" -mindepth 1 -maxdepth 1 -name "${os#/dev/}*" | wc -l)"
kv OS_SIGNATURE "$(blkid -p -o value -s TYPE -s PTTYPE "$os")"
kv OS_IN_REPORT "$(grep -c "\"$os" /tmp/report.json)"
xfs_geom XFS /dev/md/journal
kv MOUNT "$(grep ' /target/srv/journal ' /proc/mounts)"
kv FSTAB "$(grep -v '^#' /target/etc/fstab)"
show cat /target/etc/udev/rules.d/70-storprov.rules /target/etc/mdadm/mdadm.conf

kv T_SECOND "$(cut -d' ' -f1 /proc/uptime)"
section "second apply"
out=$(storprov apply --profile "$P" --yes --root /target --mount --seed 3 2>&1)
printf '%s\n' "$out"
kv SECOND_APPLY "$(printf '%s\n' "$out" | grep -c 'nothing to do')"

kv T_RESYNC "$(cut -d' ' -f1 /proc/uptime)"
section "resync"
# the initial resync would take half a minute of TCG time for 2 GiB and its
# I/O would disturb the figures: freeze it (safe mode works the same)
kv_file MD_SYNC_ACTION "$md/sync_action"
kv_file MD_SYNC_COMPLETED "$md/sync_completed"
echo frozen >"$md/sync_action"
kv_file MD_SYNC_FROZEN "$md/sync_action"

# writes: completed write I/Os of both members (field 5 of /sys/block/X/stat)
writes() {
	awk '{ s += $5 } END { print s }' "/sys/block/${s0#/dev/}/stat" "/sys/block/${s1#/dev/}/stat"
}
mean() {
	echo "$1" | awk '{ for (i = 1; i <= NF; i++) s += $i; printf "%.1f", s / NF }'
}
# syncwrite KEY [DELAY]: ROUNDS x (sleep 1; one 4 KiB O_SYNC write), with
# md/safe_mode_delay as storprov left it, or set to DELAY. Prints the array
# state at the end of each idle gap, the write latency (ms, xfs_io's timing of
# the pwrite) and the member write I/Os during the gap and during the write.
ROUNDS=4
syncwrite() {
	[ -z "${2-}" ] || echo "$2" >"$md/safe_mode_delay"
	kv_file "${1}_DELAY" "$md/safe_mode_delay"
	xfs_io -f -s -c 'pwrite -q 0 4096' /target/srv/journal/f
	_states='' _ms='' _gap='' _wr='' _i=0
	while [ $_i -lt $ROUNDS ]; do
		_w0=$(writes)
		sleep 1
		_states="$_states $(cat "$md/array_state")"
		_w1=$(writes)
		_t=$(xfs_io -f -s -c 'pwrite 0 4096' /target/srv/journal/f |
			sed -n 's/.* ops; \([0-9.]*\) sec.*/\1/p')
		_w2=$(writes)
		_ms="$_ms $(awk -v t="$_t" 'BEGIN { printf "%.2f", t * 1000 }')"
		_gap="$_gap $((_w1 - _w0))"
		_wr="$_wr $((_w2 - _w1))"
		_i=$((_i + 1))
	done
	kv "${1}_STATES" "${_states# }"
	kv "${1}_WRITE_MS" "${_ms# }"
	kv "${1}_MEAN_MS" "$(mean "$_ms")"
	kv "${1}_GAP_WRITES" "${_gap# }"
	kv "${1}_SYNC_WRITES" "${_wr# }"
	kv "${1}_MEAN_SYNC_WRITES" "$(mean "$_wr")"
	kv "${1}_STATE_AFTER" "$(cat "$md/array_state")"
}
section "O_SYNC write after 1 s idle: profiled vs kernel default safe_mode_delay"
# no periodic XFS log covering writes during the idle gaps: ours are the only ones
echo 720000 >/proc/sys/fs/xfs/xfssyncd_centisecs
syncwrite SYNC_PROFILE
syncwrite SYNC_DEFAULT 0.200
kv T_END "$(cut -d' ' -f1 /proc/uptime)"
