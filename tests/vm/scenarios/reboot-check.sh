#!/bin/sh
# Scenario 6, boot 2 (guest, --udev, an image WITHOUT storprov): the disks of
# reboot-provision.sh again. The files storprov wrote into the system root
# (the "rootfs" disk) are installed where a real system keeps them, then the
# block devices are coldplugged again as at boot: systemd-sysctl applies
# sysctl.d, udev's add events fire the 70-storprov rules on the disks, and
# Debian's incremental assembly (64-md-raid-assembly, with the copied
# mdadm.conf) starts the array, whose change event fires the md rule.
# This script never writes a tuning value itself; it reads them back:
#   COLD_*       after the harness's coldplug, before the files were installed
#                (kernel defaults; the array as udev assembled it, no rules)
#   PERSISTED_*  after the coldplug with the rules and sysctl.d in place
#   CHANGE_*     after another "change" event on every block device
# shellcheck source-path=SCRIPTDIR source=common.sh disable=SC1091
. /usr/lib/storprov-tests/common.sh

# md_active: the name of the first active md array, if any
md_active() {
	sed -n 's/^\(md[0-9]*\) : active.*/\1/p' /proc/mdstat | head -n 1
}

# values KEYPREFIX MDNAME: everything the profile tunes
values() {
	for _n in 0 1 2 3; do
		queue "${1}_RD$_n" "$(disk_by_serial "rd$_n")"
	done
	if [ -n "$2" ]; then
		kv_file "${1}_MD_STRIPE_CACHE_SIZE" "/sys/block/$2/md/stripe_cache_size"
		kv_file "${1}_MD_SAFE_MODE_DELAY" "/sys/block/$2/md/safe_mode_delay"
		kv_file "${1}_MD_READ_AHEAD_KB" "/sys/block/$2/queue/read_ahead_kb"
	fi
	kv_file "${1}_DIRTY_RATIO" /proc/sys/vm/dirty_ratio
	kv_file "${1}_DIRTY_BACKGROUND_RATIO" /proc/sys/vm/dirty_background_ratio
}

section "no storprov in this boot"
kv STORPROV_IN_PATH "$(command -v storprov || echo no)"
kv STORPROV_FILES "$(find / -xdev -type f -name storprov 2>/dev/null | wc -l)"
kv REPORT "$(if [ -e /tmp/report.json ]; then echo present; else echo absent; fi)"

section "after the harness's coldplug, no storprov files installed"
show cat /proc/mdstat
md=$(md_active)
kv COLD_MD_DEV "${md:-none}"
show ls /etc/udev/rules.d /etc/sysctl.d /etc/mdadm
values COLD "$md"

section "install the files from the system root"
root=$(disk_by_serial rootfs) || exit 1
mkdir -p /sysroot
mount -t xfs -o ro "$root" /sysroot || exit 1
mkdir -p /etc/udev/rules.d /etc/sysctl.d /etc/mdadm
cp /sysroot/etc/udev/rules.d/70-storprov.rules /etc/udev/rules.d/ || exit 1
cp /sysroot/etc/sysctl.d/80-storprov.conf /etc/sysctl.d/ || exit 1
cp /sysroot/etc/mdadm/mdadm.conf /etc/mdadm/mdadm.conf || exit 1
cp /sysroot/etc/fstab /etc/fstab || exit 1
umount /sysroot
show cat /etc/udev/rules.d/70-storprov.rules

section "systemd-sysctl, as early boot runs it"
show /lib/systemd/systemd-sysctl

section "udevd started again with the files in place, coldplug"
# Back to where a boot starts: the array not assembled, and a udevd that
# reads its rules (now with 70-storprov.rules) when it starts.
if [ -n "$md" ]; then
	show mdadm --stop "/dev/$md" || exit 1
	udevadm settle
fi
udevadm control --exit || exit 1
# --debug logs every ATTR write of the rules (to the log file, not the console)
SYSTEMD_LOG_TARGET=console /lib/systemd/systemd-udevd --daemon --resolve-names=never --debug \
	>/run/vmtest/udevd-boot2.log 2>&1 || die "systemd-udevd did not start"
udevadm trigger --type=devices --action=add --subsystem-match=block
udevadm settle --timeout=60 || die "udevadm settle timed out"
show cat /proc/mdstat
md=$(md_active)
kv PERSISTED_MD_DEV "${md:-none}"
[ -n "$md" ] || die "udev did not assemble the array"
kv UDEV_MD_UUID "$(udevadm info --query=property --name="/dev/$md" | sed -n 's/^MD_UUID=//p')"
kv MD_STATE "$(cat "/sys/block/$md/md/array_state")"
values PERSISTED "$md"

section "udevd: ATTR writes of the storprov rules"
log=/run/vmtest/udevd-boot2.log
grep -F '70-storprov.rules' "$log" | grep -F 'ATTR'
kv UDEV_LOG_LINES "$(wc -l <"$log")"
kv UDEV_ATTR_WRITES "$(grep -F '70-storprov.rules' "$log" | grep -cF 'ATTR')"
# distinct sysfs files the rules wrote
kv UDEV_ATTR_FILES "$(grep -F '70-storprov.rules' "$log" | sed -n "s/.* ATTR '\([^']*\)' writing .*/\1/p" | sort -u | wc -l)"
grep -iE 'fail.*ATTR|ATTR.*fail' "$log"
kv UDEV_ATTR_FAILURES "$(grep -ciE 'fail.*ATTR|ATTR.*fail' "$log")"
udevadm control --log-level=err

section "a change event on every block device"
udevadm trigger --action=change --subsystem-match=block
udevadm settle --timeout=60 || die "udevadm settle timed out"
values CHANGE "$md"

section "the fstab entry mounts the array"
mkdir -p /srv/data
show mount -o ro /srv/data
kv DATA_MARKER "$(cat /srv/data/marker 2>&1)"
umount /srv/data
kv REPORT_AFTER "$(if [ -e /tmp/report.json ]; then echo present; else echo absent; fi)"
kv BOOT2 complete
