#!/bin/sh
# Scenario 7 (tests/vm/70-el-dracut-systemd.bats): runs from the EL-like test
# root after dracut's systemd-mode initramfs switched to it. Boot 1: storprov
# ran in the initramfs (provision at pre-mount after the wait for the late
# disk, persist at pre-pivot into the read-only root). Boot 2: no storprov at
# all. Either way: what the root says, read with lvm, blkid, xfs_info, mount.
. /usr/lib/vmtest/lib.sh

section "the root and what the hooks left"
kv ROOT_OPTS "$(awk '$2 == "/" { o = $4 } END { print o }' /proc/mounts)"
for w in provision persist; do
	f=/run/storprov/report-$w.json
	kv "REPORT_${w}_EXIT" "$(sed -n 's/^ *"exit_code": \([0-9]*\),*$/\1/p' "$f" 2>/dev/null)"
done
kv WAIT_SAID "$([ -e /run/storprov/wait-said ] && echo yes || echo no)"

section "the LVM devices file of the root"
show cat /etc/lvm/devices/system.devices
kv DEVICESFILE_ENTRIES "$(grep -c '^IDTYPE=' /etc/lvm/devices/system.devices)"
kv DEVICESFILE_OS_ENTRY "$(grep -c 'IDNAME=vmroot-os' /etc/lvm/devices/system.devices)"
show grep use_devicesfile /etc/lvm/lvm.conf
# with the root's lvm.conf (use_devicesfile = 1): only the listed PVs count
kv PVS "$(lvm pvs --noheadings -o vg_name 2>/dev/null | awk '$1 == "data"' | wc -l)"
# control: the same LVM with the devices file as the installer left it (the
# OS entry only) does not see the data PVs, so PVS=2 is storprov's doing
mkdir -p /run/lvm-control/devices
cp /etc/lvm/lvm.conf /run/lvm-control/lvm.conf
grep -e '^#' -e '^VERSION=' -e 'IDNAME=vmroot-os' /etc/lvm/devices/system.devices >/run/lvm-control/devices/system.devices
kv PVS_WITHOUT_ENTRIES "$(LVM_SYSTEM_DIR=/run/lvm-control lvm pvs --noheadings -o vg_name 2>/dev/null | awk '$1 == "data"' | wc -l)"
lvm vgchange -ay data >/dev/null 2>&1
kv VG_DATA_LV "$(lvm lvs --noheadings -o lv_name data 2>/dev/null | tr -d ' ')"
# the VG's PVs are the profile's disks (by serial)
kv VG_PVS "$(lvm pvs --noheadings -o pv_name --select vg_name=data 2>/dev/null | tr -d ' ' | sort | tr '\n' ' ')"
kv DISKS "$(for s in eldata0 eldata1; do disk_by_serial "$s"; done | sort | tr '\n' ' ')"

section "fstab: /data by UUID, nofail"
show cat /etc/fstab
line=$(awk '$2 == "/data"' /etc/fstab)
kv FSTAB_DATA "$line"
spec=$(printf '%s\n' "$line" | awk '{print $1}')
opts=$(printf '%s\n' "$line" | awk '{print $4}')
dev=$(blkid -U "${spec#UUID=}")
kv FSTAB_DEV "$dev"
kv FS_TYPE "$(blkid -s TYPE -o value /dev/data/vol)"
mkdir -p /run/data
# the fstab options as mount gets them (nofail is for the boot, not the kernel)
if mount -t xfs -o "$(printf '%s' "$opts" | sed 's/,nofail//')" "$dev" /run/data; then
	kv DATA_MOUNT_OPTS "$(awk '$2 == "/run/data" { print $4 }' /proc/mounts)"
	i=$(xfs_info /run/data)
	printf '%s\n' "$i"
	kv XFS_LABEL "$(blkid -s LABEL -o value "$dev")"
	if [ -n "${VMTEST_WRITE:-}" ]; then
		echo "written at boot 1" >/run/data/note && sync
	fi
	kv NOTE "$(cat /run/data/note 2>/dev/null)"
	umount /run/data
else
	kv DATA_MOUNT_OPTS "<mount failed>"
fi
kv MDADM_CONF_EL "$([ -e /etc/mdadm.conf ] && echo present || echo absent)"
