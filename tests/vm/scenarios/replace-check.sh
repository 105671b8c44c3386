#!/bin/sh
# Scenario 65, boot 2 (guest, --udev): the disks of replace-provision.sh
# again, nd0 and nd1's partition now members in the places of rd3 and pd1's
# (wiped, still attached). As at boot, and without running storprov: the
# files storprov wrote in the system root ("rootfs") are installed, the
# arrays stopped, udevd started again and every block device coldplugged
# ("add"); Debian's incremental assembly starts the arrays and the rules tune
# the disks. Reads back, for nd0 and nd1:
#   COLD_*       after the harness's coldplug, before the files were installed
#   PERSISTED_*  after the coldplug with the rules in place
#   CHANGE_*     after another "change" event on every block device
# and which rules-file lines udevd applied to them (its --debug log); then,
# only then, storprov verify.
# shellcheck source-path=SCRIPTDIR source=common.sh disable=SC1091
. /usr/lib/storprov-tests/common.sh
P=/usr/lib/storprov-tests/profiles/replace.xml

# members MD: the kernel names of the array's members (md/dev-*), sorted
members() {
	for _m in /sys/class/block/"$(basename "$(readlink -f "$1")")"/md/dev-*; do
		echo "${_m##*/dev-}"
	done | sort | tr '\n' ' '
}

prop() {
	udevadm info --query=property --name="$1" 2>/dev/null | sed -n "s/^$2=//p"
}

values() {
	queue "${1}_NEW0" "$(disk_by_serial nd0)"
	queue "${1}_NEW1" "$(disk_by_serial nd1)"
	queue "${1}_RD0" "$(disk_by_serial rd0)"
	queue "${1}_PD0" "$(disk_by_serial pd0)"
}

nd0=$(disk_by_serial nd0) || exit 1
nd1=$(disk_by_serial nd1) || exit 1
kv NEW0_DEV "${nd0#/dev/}"
kv NEW1_DEV "${nd1#/dev/}"

section "after the harness's coldplug, no storprov files installed"
show cat /proc/mdstat
show ls /etc/udev/rules.d
values COLD

section "install the files from the system root"
root=$(disk_by_serial rootfs) || exit 1
mkdir -p /target
mount -t xfs "$root" /target || exit 1
mkdir -p /etc/udev/rules.d /etc/mdadm
cp /target/etc/udev/rules.d/70-storprov.rules /etc/udev/rules.d/ || exit 1
cp /target/etc/mdadm/mdadm.conf /etc/mdadm/mdadm.conf || exit 1
kv MEMBER_RULE_LINES "$(grep -n 'ENV{ID_FS_TYPE}=="linux_raid_member"' /etc/udev/rules.d/70-storprov.rules | cut -d: -f1)"

section "udevd started again with the rules in place, coldplug"
for md in /dev/md/data /dev/md/mirror; do
	[ ! -e "$md" ] || show mdadm --stop "$md"
done
udevadm settle
udevadm control --exit || exit 1
SYSTEMD_LOG_TARGET=console /lib/systemd/systemd-udevd --daemon --resolve-names=never --debug \
	>/run/vmtest/udevd-boot2.log 2>&1 || die "systemd-udevd did not start"
udevadm trigger --type=devices --action=add --subsystem-match=block
udevadm settle --timeout=60 || die "udevadm settle timed out"
show cat /proc/mdstat
values PERSISTED
kv NEW0_FS_TYPE "$(prop "$nd0" ID_FS_TYPE)"
kv NEW0_FS_UUID "$(prop "$nd0" ID_FS_UUID)"
kv NEW1P_FS_TYPE "$(prop "${nd1}1" ID_FS_TYPE)"
kv NEW1P_FS_UUID "$(prop "${nd1}1" ID_FS_UUID)"
kv MD_DATA_MEMBERS "$(members /dev/md/data)"
kv MD_MIRROR_MEMBERS "$(members /dev/md/mirror)"

section "udevd: the storprov rules lines that wrote the new drives' queues"
log=/run/vmtest/udevd-boot2.log
grep -F '70-storprov.rules' "$log" | grep -F 'ATTR' | grep -E "/(${nd0#/dev/}|${nd1#/dev/})/" | head -n 40
# "sdg: /etc/udev/rules.d/70-storprov.rules:37 ATTR '/sys/.../sdg/queue/scheduler' writing 'mq-deadline'"
udev_lines() {
	grep -F '70-storprov.rules:' "$log" | grep -F " ATTR '" | grep -E "/$1(/$1[0-9]+/\.\.)?/queue/" |
		sed -n 's/.*70-storprov\.rules:\([0-9]*\) ATTR.*/\1/p' | sort -un | tr '\n' ' '
}
kv UDEV_NEW0_LINES "$(udev_lines "${nd0#/dev/}")"
kv UDEV_NEW1_LINES "$(udev_lines "${nd1#/dev/}")"
kv UDEV_ATTR_FAILURES "$(grep -ciE 'fail.*ATTR|ATTR.*fail' "$log")"
udevadm control --log-level=err

section "a change event on every block device"
udevadm trigger --action=change --subsystem-match=block
udevadm settle --timeout=60 || die "udevadm settle timed out"
values CHANGE

section "storprov verify (its first run in this boot)"
show mdadm --wait /dev/md/data /dev/md/mirror
storprov verify --profile "$P" --root /target --seed 1 >/tmp/v2.txt 2>&1
kv VERIFY2_RC $?
cat /tmp/v2.txt
storprov verify --profile "$P" --root /target --seed 1 --format json >/tmp/v2.json 2>/dev/null
kv VERIFY2_JSON "$(cat /tmp/v2.json)"
umount /target
kv BOOT2 complete
