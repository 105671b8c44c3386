#!/bin/sh
# make demo (guest): plan, apply for real, then what independent tools see and
# the files storprov generated.
# shellcheck source=tests/vm/scenarios/common.sh
. /usr/lib/storprov-tests/common.sh
P=$(ls /usr/lib/storprov-tests/profiles/*.xml)

section "1. The plan: storprov plan --profile ${P##*/}"
storprov plan --profile "$P" 2>&1

section "2. storprov apply"
storprov apply --profile "$P" --yes --root /target --mount --report /tmp/report.json 2>&1 || exit 1

section "3. What independent tools see"
for b in /sys/block/vd*; do
	d=${b##*/}
	[ "$(cat "/sys/block/$d/serial" 2>/dev/null)" = os ] && continue
	echo "--- /dev/$d: $(cat "/sys/block/$d/serial" 2>/dev/null)"
	for p in "/sys/block/$d/$d"*; do
		[ -r "$p/start" ] && echo "    ${p##*/}: start sector $(cat "$p/start"), $(($(cat "$p/start") * 512 / 1048576)) MiB"
	done
	q=/sys/block/$d/queue
	echo "    queue: scheduler $(cat "$q/scheduler"), nr_requests $(cat "$q/nr_requests")," \
		"max_sectors_kb $(cat "$q/max_sectors_kb"), read_ahead_kb $(cat "$q/read_ahead_kb")"
done
for m in /dev/md/*; do
	[ -e "$m" ] && show mdadm --detail "$m"
done
if [ -n "$(lvm lvs --noheadings 2>/dev/null)" ]; then
	show lvm pvs -o pv_name,pe_start,vg_name --units b
	show lvm lvs -o lv_name,stripes,stripe_size,devices
	show dmsetup table
fi
grep ' /target/' /proc/mounts | while read -r dev mnt _ opts _; do
	echo "--- $mnt ($dev)"
	xfs_info "$mnt" | sed -n '/^data/,/^naming/p;/^log/,/^realtime/p' | grep -v -e naming -e realtime
	echo "    /proc/mounts: $opts"
done
show sysctl vm.dirty_ratio vm.dirty_background_ratio

section "4. The files storprov generated"
for f in /target/etc/fstab /target/etc/udev/rules.d/70-storprov.rules /target/etc/sysctl.d/80-storprov.conf \
	/target/etc/mdadm/mdadm.conf; do
	[ -f "$f" ] && { echo "--- ${f#/target}"; cat "$f"; }
done
exit 0
