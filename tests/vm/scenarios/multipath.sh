#!/bin/sh
# Scenario 80 (guest): one LUN through two SCSI paths (QEMU opens one image
# twice with the same WWN and serial). No multipathd at first, as in an
# installer: storprov makes the map itself. Then, read back with dmsetup,
# xfs_info and sysfs; multipathd adopts the map under the rendered
# conf.d file (behind a blacklist-everything multipath.conf); udev brings
# the tuning back from the rendered rules; one path is pulled (QEMU
# device_del, asked of the host) and the XFS stays mounted and writable.
# shellcheck source=tests/vm/scenarios/common.sh
. /usr/lib/storprov-tests/common.sh
P=/usr/lib/storprov-tests/profiles/multipath.xml
MAP=/dev/mapper/lun

# request_device_del ID: ask the host (run-vm.sh --hotplug) to unplug QEMU device ID
request_device_del() {
	_n=$(sed -n 's/.*vmtest\.nonce=\([0-9a-f]*\).*/\1/p' /proc/cmdline)
	printf '<<<VMTEST:DEVICE_DEL:%s %s>>>\n' "$_n" "$1"
}

section "the paths"
paths=
for d in /sys/block/sd*; do
	[ -e "$d" ] || continue
	n=${d##*/}
	paths="$paths $n"
	kv "WWID_$n" "$(cat "$d/device/wwid")"
	kv "ID_SERIAL_$n" "$(udevadm info -q property -n "/dev/$n" | sed -n 's/^ID_SERIAL=//p')"
	kv "HCTL_$n" "$(basename "$(readlink -f "$d/device")")"
done
kv PATHS "$paths"

section "before any map: the rendered wwids line is what multipath -c needs"
storprov render --profile "$P" --seed 1 --root /tmp/pre >/dev/null 2>&1
mkdir -p /etc/multipath/conf.d
cp /tmp/pre/etc/multipath/conf.d/storprov.conf /etc/multipath/conf.d/
# everything blacklisted but the rendered exception; only a WWID listed in
# /etc/multipath/wwids is multipathed ("strict", multipath-tools' default)
printf 'defaults {\n\tfind_multipaths "strict"\n\tuser_friendly_names "yes"\n}\nblacklist {\n\twwid ".*"\n}\n' >/etc/multipath.conf
first=${paths# }
first=${first%% *}
: >/etc/multipath/wwids
multipath -c "/dev/$first" 2>&1
kv C_WITHOUT_WWIDS "$?"
cp /tmp/pre/etc/multipath/wwids /etc/multipath/wwids
multipath -c "/dev/$first" 2>&1
kv C_WITH_WWIDS "$?"
: >/etc/multipath/wwids

section plan
storprov plan --profile "$P" --seed 1 2>&1
kv PLAN_DMSETUP "$(storprov plan --profile "$P" --seed 1 --format json | grep -c '"kind": "multipath"')"
apply_profile "$P" --root /target --mount --seed 1 || exit 1

section "read back: device-mapper, xfs, sysfs"
dm=$(basename "$(readlink -f "$MAP")")
kv DM "$dm"
show dmsetup table lun
kv DM_UUID "$(dmsetup info -c --noheadings -o uuid lun)"
kv DM_TABLE_PATHS "$(dmsetup table lun | tr ' ' '\n' | grep -c '^[0-9]*:[0-9]*$')"
kv DM_TARGET "$(dmsetup table lun | awk '{print $3}')"
kv DM_SCHEDULERS "$(cat "/sys/block/$dm/queue/scheduler")"
kv DM_MAX_HW "$(cat "/sys/block/$dm/queue/max_hw_sectors_kb")"
mp=$(awk -v d="$MAP" '$1 == d {print $2}' /proc/mounts)
kv MOUNTPOINT "$mp"
xfs_geom MP "$mp"
queue MAP "/dev/$dm"
for p in $paths; do queue "PATH_$p" "/dev/$p"; done
show cat /target/etc/multipath/conf.d/storprov.conf
show cat /target/etc/udev/rules.d/70-storprov.rules

section "multipathd adopts the map with the rendered conf.d and wwids"
cp /target/etc/multipath/conf.d/storprov.conf /etc/multipath/conf.d/
cp /target/etc/multipath/wwids /etc/multipath/wwids
show cat /etc/multipath/wwids
multipathd 2>&1
for _ in $(seq 1 60); do multipathd show maps 2>/dev/null | grep -q '^lun ' && break; sleep 1; done
show multipathd show maps
show multipath -ll
kv MPATH_NAME "$(multipath -ll 2>/dev/null | sed -n '1s/ .*//p')"
kv MPATH_ACTIVE_PATHS "$(multipath -ll 2>/dev/null | grep -c 'active ready')"
kv DM_UUID_AFTER "$(dmsetup info -c --noheadings -o uuid lun)"
kv DM_AFTER "$(basename "$(readlink -f "$MAP")")"
show dmsetup table lun

section "udev brings the tuning back from the rendered rules"
cp /target/etc/udev/rules.d/70-storprov.rules /etc/udev/rules.d/
echo 128 >"/sys/block/$dm/queue/read_ahead_kb"
echo none >"/sys/block/$dm/queue/scheduler"
echo 128 >"/sys/block/$dm/queue/max_sectors_kb"
for p in $paths; do
	echo 128 >"/sys/block/$p/queue/max_sectors_kb"
	echo none >"/sys/block/$p/queue/scheduler"
	echo 16 >"/sys/block/$p/queue/nr_requests"
done
queue RESET_MAP "/dev/$dm"
udevadm control --reload
udevadm trigger --action=change --subsystem-match=block
udevadm settle --timeout=60
queue UDEV_MAP "/dev/$dm"
for p in $paths; do queue "UDEV_PATH_$p" "/dev/$p"; done

section "pull one path"
dd if=/dev/urandom of="$mp/before" bs=1M count=4 conv=fsync 2>&1
# QEMU's dev1 is the second --disk: SCSI target 1
pulled=
for p in $paths; do
	case $(basename "$(readlink -f "/sys/block/$p/device")") in *:0:1:0) pulled=$p ;; esac
done
kv PULLED "$pulled"
request_device_del dev1
for _ in $(seq 1 120); do [ -e "/sys/block/$pulled" ] || break; sleep 1; done
kv PULLED_GONE "$([ -e "/sys/block/$pulled" ] && echo 0 || echo 1)"
for _ in $(seq 1 60); do [ "$(multipath -ll 2>/dev/null | grep -c 'active ready')" = 1 ] && break; sleep 1; done
show multipath -ll
show dmsetup status lun
kv PATHS_AFTER_PULL "$(multipath -ll 2>/dev/null | grep -c 'active ready')"
dd if=/dev/urandom of=/tmp/after bs=1M count=4 2>/dev/null
cp /tmp/after "$mp/after"
sync -f "$mp/after" 2>/dev/null || sync
kv WRITE_RC "$(dd if=/tmp/after of="$mp/after2" bs=1M conv=fsync 2>/dev/null && echo 0 || echo 1)"
echo 3 >/proc/sys/vm/drop_caches
kv READ_BACK "$(cmp /tmp/after "$mp/after" >/dev/null 2>&1 && cmp /tmp/after "$mp/after2" >/dev/null 2>&1 && echo same || echo differs)"
kv STILL_MOUNTED "$(awk -v d="$mp" '$2 == d' /proc/mounts | wc -l)"
kv FS_ERRORS "$(dmesg | grep -ci 'xfs.*\(error\|shutdown\)')"
show sh -c "dmesg | tail -n 20"
multipathd shutdown >/dev/null 2>&1 || true
exit 0
