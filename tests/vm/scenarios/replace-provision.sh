#!/bin/sh
# Scenario 65, boot 1 (guest, --udev): profiles/replace.xml applied for real
# with --root on a persistent system root (the virtio disk "rootfs"); the udev
# rules it wrote are installed where a real system keeps them and udevd reads
# them. Then a member of each array is failed, removed and wiped, and a drive
# the profile does not name takes its place with mdadm --add: nd0 whole into
# the RAID5 "data", a partition of nd1 (the table copied from pd0) into the
# RAID1 "mirror". Prints, for the drives that come in:
#   DEFAULT_*          the kernel's values before anything (also rd0, pd0)
#   BEFORE_NEW0/1_*    just before mdadm --add (blank: no md superblock yet)
#   ONCE_NEW0/1_*      right after mdadm --add, once udev has seen the
#                      superblock (NEW0/NEW1P_POLLS: the half-second waits
#                      that took; nothing but udevd acts meanwhile)
#   NEW0/NEW1P_*       their udev records before and after, the change
#                      events udevd sent for them, with ID_FS_TYPE
#   VERIFY1_*          storprov verify once the arrays have recovered
# Nothing here writes a tuning value to the new drives: udev does.
# shellcheck source-path=SCRIPTDIR source=common.sh disable=SC1091
. /usr/lib/storprov-tests/common.sh
P=/usr/lib/storprov-tests/profiles/replace.xml

# members MD: the kernel names of the array's members (md/dev-*), sorted
members() {
	for _m in /sys/class/block/"$(basename "$(readlink -f "$1")")"/md/dev-*; do
		echo "${_m##*/dev-}"
	done | sort | tr '\n' ' '
}

# prop DEV KEY: a property of DEV's udev record ("" if none)
prop() {
	udevadm info --query=property --name="$1" 2>/dev/null | sed -n "s/^$2=//p"
}

# member_events DEVNAME: change events of DEVNAME that say linux_raid_member (udevadm monitor log)
member_events() {
	awk -v dev="DEVNAME=$1" 'BEGIN { RS = "" }
		{ n_ok = 0; split($0, l, "\n"); for (i in l) if (l[i] == dev) n_ok = 1 }
		n_ok && /\nACTION=change\n/ && /\nID_FS_TYPE=linux_raid_member\n/ { n++ }
		END { print n + 0 }' /tmp/events.log
}

# mark N: a change event of the system root's disk, then waits (at most 30 s) until
# the udevadm monitor's log holds N of them: the monitor is listening (N = 1,
# before the first pull) and has written out every event before it (N = 2, before
# it is stopped). Without it a slow guest can start the monitor after mdadm's
# change events, and the count below reads 0 for a reason that is not udev's.
mark() {
	udevadm trigger --action=change "$root" || die "udevadm trigger $root failed"
	_i=0
	until [ "$(awk -v dev="DEVNAME=$root" 'BEGIN { RS = "" }
		/\nACTION=change\n/ { split($0, l, "\n"); for (i in l) if (l[i] == dev) { n++; break } }
		END { print n + 0 }' /tmp/events.log)" -ge "$1" ]; do
		_i=$((_i + 1))
		[ "$_i" -lt 60 ] || die "udevadm monitor logged no change event $1 of $root in 30 s"
		sleep 0.5
	done
}

# joined KEY DEV: waits (passively: udevadm settle, reading udev's record) until udev's record of
# DEV says linux_raid_member, at most 20 s; KEY_POLLS: the half-second waits it took (0: at once)
# When udev's probe of the change event that mdadm --add brings ran before the
# kernel wrote the member's superblock (a race seen on a partition in 3 of 4
# runs under Debian's 6.1.0-57 kernel on a fast host, never on a whole disk),
# no event says the membership: the admin's way out, as storprov(8) says, is
# one change event, `udevadm trigger --action=change DEV`: NAME_TRIGGERED=1.
joined() {
	_i=0
	until [ "$(prop "$2" ID_FS_TYPE)" = linux_raid_member ] || [ "$_i" -ge 40 ]; do
		udevadm settle
		sleep 0.5
		_i=$((_i + 1))
	done
	kv "${1}_POLLS" "$_i"
	if [ "$(prop "$2" ID_FS_TYPE)" = linux_raid_member ]; then
		kv "${1}_TRIGGERED" 0
		return
	fi
	kv "${1}_TRIGGERED" 1
	udevadm trigger --action=change --settle "$2"
}

# pull ARRAY DEV: fail, remove (md may still hold it for a moment) and wipe a member
pull() {
	show mdadm "$1" --fail "$2" || return 1
	_i=0
	until mdadm "$1" --remove "$2" 2>/dev/null; do
		_i=$((_i + 1))
		[ "$_i" -lt 40 ] || die "mdadm $1 --remove $2 failed"
		sleep 0.5
	done
	show mdadm --zero-superblock "$2"
}

root=$(disk_by_serial rootfs) || exit 1
section "system root: $root"
mkfs.xfs -q -f -L sysroot "$root" || exit 1
mkdir -p /target
mount -t xfs "$root" /target || exit 1

rd3=$(disk_by_serial rd3) || exit 1
pd0=$(disk_by_serial pd0) || exit 1
pd1=$(disk_by_serial pd1) || exit 1
nd0=$(disk_by_serial nd0) || exit 1
nd1=$(disk_by_serial nd1) || exit 1
kv NEW0_DEV "${nd0#/dev/}"
kv NEW1_DEV "${nd1#/dev/}"
kv NEW0_WWN "$(prop "$nd0" ID_WWN)"
kv NEW1_WWN "$(prop "$nd1" ID_WWN)"
kv OLD0_SERIAL "$(prop "$rd3" ID_SERIAL)"

section "kernel defaults"
queue DEFAULT_RD0 "$(disk_by_serial rd0)"
queue DEFAULT_PD0 "$pd0"
queue DEFAULT_NEW0 "$nd0"
queue DEFAULT_NEW1 "$nd1"

apply_profile "$P" --root /target --seed 1 || exit 1
show mdadm --wait /dev/md/data /dev/md/mirror
show cat /proc/mdstat
kv MD_DATA_UUID "$(mdadm --detail --export /dev/md/data | sed -n 's/^MD_UUID=//p')"
kv MD_MIRROR_UUID "$(mdadm --detail --export /dev/md/mirror | sed -n 's/^MD_UUID=//p')"

section "the rules storprov wrote, installed for udevd"
rules=/target/etc/udev/rules.d/70-storprov.rules
show cat "$rules"
kv RULES_RUN "$(grep -c 'RUN' "$rules")"
kv MEMBER_RULE_LINES "$(grep -n 'ENV{ID_FS_TYPE}=="linux_raid_member"' "$rules" | cut -d: -f1)"
kv NEW_WWN_IN_RULES "$(grep -c -e "$(prop "$nd0" ID_WWN)" -e "$(prop "$nd1" ID_WWN)" "$rules")"
mkdir -p /etc/udev/rules.d
cp "$rules" /etc/udev/rules.d/ || exit 1
udevadm control --reload || exit 1

section "the new drives, blank"
show sgdisk -R "$nd1" "$pd0"
show sgdisk -G "$nd1"
udevadm settle
nd1p=${nd1}1
[ -b "$nd1p" ] || die "no $nd1p"
kv NEW0_FS_TYPE_BEFORE "$(prop "$nd0" ID_FS_TYPE)"
kv NEW1P_FS_TYPE_BEFORE "$(prop "$nd1p" ID_FS_TYPE)"
queue BEFORE_NEW0 "$nd0"
queue BEFORE_NEW1 "$nd1"

section "replace rd3 by nd0 (whole disk) and pd1's partition by nd1's"
udevadm monitor --udev --property --subsystem-match=block >/tmp/events.log 2>&1 &
mon=$!
mark 1
pull /dev/md/data "$rd3" || exit 1
show mdadm /dev/md/data --add "$nd0" || exit 1
joined NEW0 "$nd0"
pull /dev/md/mirror "${pd1}1" || exit 1
show mdadm /dev/md/mirror --add "$nd1p" || exit 1
joined NEW1P "$nd1p"
udevadm settle
mark 2
kill "$mon"
queue ONCE_NEW0 "$nd0"
queue ONCE_NEW1 "$nd1"
kv NEW0_CHANGE_EVENTS "$(member_events "$nd0")"
kv NEW1P_CHANGE_EVENTS "$(member_events "$nd1p")"
kv NEW0_FS_TYPE "$(prop "$nd0" ID_FS_TYPE)"
kv NEW0_FS_UUID "$(prop "$nd0" ID_FS_UUID)"
kv NEW1P_FS_TYPE "$(prop "$nd1p" ID_FS_TYPE)"
kv NEW1P_FS_UUID "$(prop "$nd1p" ID_FS_UUID)"
section "udevadm monitor: the events of the new drives"
awk -v a="DEVNAME=$nd0" -v b="DEVNAME=$nd1p" 'BEGIN { RS = ""; ORS = "\n\n" } index($0, a "\n") || index($0, b "\n")' /tmp/events.log |
	grep -E '^(UDEV|ACTION|DEVNAME|ID_WWN|ID_FS_TYPE|ID_FS_UUID)[ =]'

section "recovery, then storprov verify"
show mdadm --wait /dev/md/data /dev/md/mirror
show cat /proc/mdstat
kv MD_DATA_MEMBERS "$(members /dev/md/data)"
storprov verify --profile "$P" --root /target --seed 1 >/tmp/v1.txt 2>&1
kv VERIFY1_RC $?
cat /tmp/v1.txt
storprov verify --profile "$P" --root /target --seed 1 --format json >/tmp/v1.json 2>/dev/null
kv VERIFY1_JSON "$(cat /tmp/v1.json)"

umount /target || exit 1
kv BOOT1 complete
