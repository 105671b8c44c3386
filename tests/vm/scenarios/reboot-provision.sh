#!/bin/sh
# Scenario 6, boot 1 (guest): the "reboot" profile (md RAID5 over four virtio
# disks rd0..rd3, XFS, queue/md/sysctl tuning) applied for real, with the
# files written into a persistent system root: the virtio disk "rootfs",
# formatted here and mounted at /target. reboot-check.sh boots the same
# images again without storprov. Prints the kernel defaults before apply
# (DEFAULT_*), the live values after it (APPLIED_*) and the generated files.
# shellcheck source-path=SCRIPTDIR source=common.sh disable=SC1091
. /usr/lib/storprov-tests/common.sh
P=/usr/lib/storprov-tests/profiles/reboot.xml

# md_values KEYPREFIX MDNAME: the md tuning storprov persists
md_values() {
	kv_file "${1}_STRIPE_CACHE_SIZE" "/sys/block/$2/md/stripe_cache_size"
	kv_file "${1}_SAFE_MODE_DELAY" "/sys/block/$2/md/safe_mode_delay"
	kv_file "${1}_READ_AHEAD_KB" "/sys/block/$2/queue/read_ahead_kb"
}

root=$(disk_by_serial rootfs) || exit 1
section "system root: $root"
# ext4 is a module the test image does not carry: the root is XFS
mkfs.xfs -q -f -L sysroot "$root" || exit 1
mkdir -p /target
mount -t xfs "$root" /target || exit 1
kv ROOT_DEV "$root"

section "kernel defaults before apply"
for n in 0 1 2 3; do
	d=$(disk_by_serial "rd$n") || exit 1
	kv "RD${n}_DEV" "$d"
	show cat "/sys/block/${d#/dev/}/queue/scheduler"
	queue "DEFAULT_RD$n" "$d"
	kv "RD${n}_HW_QUEUES" "$(find "/sys/block/${d#/dev/}/mq" -mindepth 1 -maxdepth 1 | wc -l)"
done
kv_file DEFAULT_DIRTY_RATIO /proc/sys/vm/dirty_ratio
kv_file DEFAULT_DIRTY_BACKGROUND_RATIO /proc/sys/vm/dirty_background_ratio
kv MEM_TOTAL_KB "$(sed -n 's/^MemTotal: *\([0-9]*\) kB/\1/p' /proc/meminfo)"
# TCG: keep the initial RAID5 recovery from competing with mkfs.xfs for the
# two vCPUs; the tuning under test does not depend on it
echo 1000 >/proc/sys/dev/raid/speed_limit_max

apply_profile "$P" --root /target --mount --seed 1 || exit 1

section "live values after apply"
for n in 0 1 2 3; do
	queue "APPLIED_RD$n" "$(disk_by_serial "rd$n")"
done
md=$(readlink -f /dev/md/data)
md=${md#/dev/}
kv MD_DEV "$md"
show mdadm --detail "/dev/$md"
kv MD_UUID "$(mdadm --detail --export "/dev/$md" | sed -n 's/^MD_UUID=//p')"
md_values APPLIED_MD "$md"
kv_file APPLIED_DIRTY_RATIO /proc/sys/vm/dirty_ratio
kv_file APPLIED_DIRTY_BACKGROUND_RATIO /proc/sys/vm/dirty_background_ratio
kv DATA_MOUNT "$(grep " /target/srv/data " /proc/mounts)"

section "files in the system root"
show cat /target/etc/udev/rules.d/70-storprov.rules
show cat /target/etc/sysctl.d/80-storprov.conf
show cat /target/etc/mdadm/mdadm.conf
show cat /target/etc/fstab
kv RULE_LINES "$(grep -c '^ACTION==' /target/etc/udev/rules.d/70-storprov.rules)"
kv RULES_RUN "$(grep -c 'RUN' /target/etc/udev/rules.d/70-storprov.rules)"
echo "written in boot 1" >/target/srv/data/marker

section "unmount"
umount /target/srv/data || exit 1
umount /target || exit 1
kv BOOT1 complete
