#!/usr/bin/env bats
# Scenario 7: an EL-style boot through dracut in systemd mode.
#
# The root filesystem (the busybox test tree as ext4, a private copy that
# persists between the boots) is made EL-like: /etc/os-release says
# ID_LIKE="rhel centos fedora", /etc/lvm/lvm.conf has use_devicesfile = 1 and
# /etc/lvm/devices/system.devices exists with only the OS's own entry, as the
# EL 9 installer leaves it. The kernel command line has "ro", the EL default,
# so systemd mounts /sysroot read-only.
#
# Boot 1: the initramfs is Debian's dracut with its systemd modules and the
# shipped 90storprov module. One data disk is there at power-on; the second is
# hot-added through QMP only once the initqueue hook has said it is waiting
# ("expected 2 disks, found 1"). storprov then provisions LVM + XFS at
# pre-mount, and the pre-pivot hook remounts /sysroot read-write, writes
# fstab (nofail: boot-critical="false") and adds the PVs to the root's LVM
# devices file, and puts the root back read-only.
# Boot 2: the same disks, no rd.storprov.*: the root's own LVM (devices file
# in force) finds the VG, and the fstab line mounts.
# A third boot without the second disk shows the timeout: the wait gives up
# after rd.storprov.timeout= and the boot stops with "expected 2 disks, found 1".
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup_file() {
	load scenarios
	load lib
	vm_prepare
	vm_prepare_root
	local img=$VM_BUILD/initrd-dracut-el-systemd.img force=()
	[[ -s $img && ! $VM_TOP/build/storprov -nt $img ]] || force=(--force)
	DRACUT_PATH="/sbin /bin /usr/sbin /usr/bin $VM_TOP/build" vm_prepare_dracut ${force[@]+"${force[@]}"} \
		--module "$VM_TOP/hooks/dracut/90storprov" \
		--dracut-modules "bash systemd systemd-initrd systemd-udevd systemd-journald dracut-systemd base udev-rules rootfs-block fs-lib kernel-modules dm lvm mdraid" \
		--add "$VM_DIR/profiles/el-lvm.xml:/etc/storprov/profiles/el-lvm.xml" \
		-o "$img"
	export EL_DIR=$BATS_FILE_TMPDIR
	# the EL-like root, written with debugfs (no mount needed)
	cp --sparse=always "$VM_ROOT_IMG" "$EL_DIR/root.ext4"
	printf 'NAME="EL test"\nID="eltest"\nID_LIKE="rhel centos fedora"\nVERSION_ID="9.4"\n' >"$EL_DIR/os-release"
	cat >"$EL_DIR/lvm.conf" <<'CONF'
# EL 9 style: the devices file in force; no udev in this test root
devices {
	obtain_device_list_from_udev = 0
	use_devicesfile = 1
}
activation {
	udev_sync = 0
	udev_rules = 0
	verify_udev_operations = 1
	monitoring = 0
}
CONF
	printf '# LVM uses devices listed in this file.\n# Created by LVM command vgimportdevices pid 1 at Thu Jan  1 00:00:00 2026\nVERSION=1.1.1\nIDTYPE=sys_serial IDNAME=vmroot-os DEVNAME=/dev/vdz2 PVID=OSosOSosOSosOSosOSosOSosOSosOSos PART=2\n' \
		>"$EL_DIR/system.devices"
	debugfs -w -f - "$EL_DIR/root.ext4" >/dev/null 2>&1 <<CMDS
write $EL_DIR/os-release /etc/os-release
cd /etc/lvm
rm lvm.conf
write $EL_DIR/lvm.conf lvm.conf
mkdir devices
cd devices
write $EL_DIR/system.devices system.devices
CMDS
	debugfs -R "cat /etc/lvm/devices/system.devices" "$EL_DIR/root.ext4" 2>/dev/null | grep -q vmroot-os
}

setup() {
	load lib
	load scenarios
}

console_has() { # N TEXT
	grep -qF -- "$2" "$BATS_TEST_TMPDIR/console-$1.log" || {
		echo "console-$1.log has no line with: $2" >&2
		return 1
	}
}

# el_boot SCRIPT N [run-vm.sh options]: the dracut image, the persistent EL
# root as the last disk, "ro"; output in $output-style on stdout.
# rd.driver.pre=xfs: the test root's /init loads xfs after switch_root, and
# there, in memory the systemd initramfs ran from, TCG took minutes over it
# (soft lockups in module_alloc's clear_page: 300 s and more, 2 runs of 4
# under load); loaded in the initramfs it takes under a second, and the
# root's modprobe finds it there.
el_boot() {
	local script=$1 n=$2
	shift 2
	VM_INITRD=$VM_DRACUT_INITRD vm_run "$script" --timeout "${EL_TIMEOUT:-600}" --log "$BATS_TEST_TMPDIR/console-$n.log" "$@" \
		--disk "$EL_DIR/root.ext4,serial=vmroot" \
		--append "root=LABEL=vmroot rootfstype=ext4 ro rd.shell=0 rd.emergency=poweroff rd.driver.pre=xfs"
}

kill_tree() { # PID: the process and every descendant (QEMU under timeout under run-vm.sh)
	local c
	for c in $(pgrep -P "$1"); do
		kill_tree "$c"
	done
	kill "$1" 2>/dev/null || true
}

# qmp CMD-JSON...: one QMP session on the socket, each command answered
qmp() {
	python3 - "$@" <<'PY'
import json, socket, sys, time
path = sys.argv[1]
s = socket.socket(socket.AF_UNIX)
for _ in range(600):
    try:
        s.connect(path)
        break
    except OSError:
        time.sleep(0.1)
f = s.makefile("rw")
json.loads(f.readline())  # greeting
for cmd in ["{\"execute\": \"qmp_capabilities\"}"] + sys.argv[2:]:
    f.write(cmd + "\n")
    f.flush()
    while True:
        r = json.loads(f.readline())
        if "event" in r:
            continue
        if "error" in r:
            sys.exit("qmp: %s: %s" % (cmd, r["error"]))
        break
print("qmp: ok")
PY
}

@test "boot 1 (systemd dracut, ro root): waits for the hot-added disk, provisions, persists into the read-only root" {
	local sock=$BATS_TEST_TMPDIR/qmp.sock late=$EL_DIR/eldata1.img log=$BATS_TEST_TMPDIR/console-1.log
	truncate -s 320M "$late"
	el_boot "$VM_DIR/scenarios/el-check.sh" 1 --env VMTEST_WRITE=1 \
		--disk "$EL_DIR/eldata0.img,size=320M,serial=eldata0,bus=scsi" \
		--qemu-arg -qmp --qemu-arg "unix:$sock,server=on,wait=off" \
		--append "rd.storprov.profile=/etc/storprov/profiles/el-lvm.xml rd.storprov.timeout=300" \
		>"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
	local vm=$!
	# the late disk arrives only once the initqueue hook says it waits for it
	local i
	for ((i = 0; i < 1200; i++)); do
		grep -qF "storprov: waiting up to 300s for the disks" "$log" 2>/dev/null && break
		kill -0 "$vm" 2>/dev/null || break
		sleep 0.5
	done
	run -0 qmp "$sock" \
		"{\"execute\": \"blockdev-add\", \"arguments\": {\"driver\": \"raw\", \"node-name\": \"late1\", \"file\": {\"driver\": \"file\", \"filename\": \"$late\"}}}" \
		"{\"execute\": \"device_add\", \"arguments\": {\"driver\": \"scsi-hd\", \"drive\": \"late1\", \"bus\": \"vscsi0.0\", \"scsi-id\": 1, \"lun\": 0, \"serial\": \"eldata1\"}}"
	local rc=0
	wait "$vm" || rc=$?
	output=$(<"$BATS_TEST_TMPDIR/out")
	sp_figures
	[ "$rc" = 0 ] || { cat "$BATS_TEST_TMPDIR/err"; tail -n 60 "$log"; false; }
	vm_kv_load
	# the wait: said "expected 2 disks, found 1", then saw both
	console_has 1 "storprov: waiting up to 300s for the disks of /etc/storprov/profiles/el-lvm.xml"
	# (found 0 when the first check runs before udev has seen the first disk)
	grep -qE "storprov: waiting up to 300s .*expected 2 disks, found [01]" "$log"
	console_has 1 "storprov: the disks of /etc/storprov/profiles/el-lvm.xml are all there after"
	assert_equal "${VM_KV[WAIT_SAID]-}" yes
	assert_equal "${VM_KV[REPORT_provision_EXIT]-}" 0
	assert_equal "${VM_KV[REPORT_persist_EXIT]-}" 0
	# the read-only root: made writable for the files, read-only again after
	console_has 1 "storprov: persist: /sysroot remounted read-write for the files"
	console_has 1 "storprov: persist: /sysroot read-only again"
	assert_regex "${VM_KV[ROOT_OPTS]-}" '^ro(,|$)'
	# EL root: mdadm.conf path /etc/mdadm.conf
	console_has 1 "--root /sysroot --mdadm-conf /etc/mdadm.conf"
	# the devices file: the OS entry kept, both PVs added; the root's LVM sees the VG
	console_has 1 "LVM devices file: lvm.conf sets use_devicesfile = 1 and /sysroot/etc/lvm/devices/system.devices exists"
	console_has 1 "LVM_SYSTEM_DIR=/sysroot/etc/lvm $ lvm lvmdevices"
	assert_equal "${VM_KV[DEVICESFILE_OS_ENTRY]-}" 1
	assert_equal "${VM_KV[DEVICESFILE_ENTRIES]-}" 3
	assert_equal "${VM_KV[PVS]-}" 2
	assert_equal "${VM_KV[PVS_WITHOUT_ENTRIES]-}" 0
	assert_equal "${VM_KV[VG_DATA_LV]-}" vol
	assert_equal "${VM_KV[VG_PVS]-}" "${VM_KV[DISKS]-}"
	assert_regex "${VM_KV[VG_PVS]-}" '^/dev/sd[a-z] /dev/sd[a-z]$'
	# fstab: by UUID, nofail; it mounts with its options
	assert_regex "${VM_KV[FSTAB_DATA]-}" $'^UUID=[0-9a-f-]{36}\t/data\txfs\tnoatime[^\t]*,nofail\t0 0$'
	assert_equal "${VM_KV[FS_TYPE]-}" xfs
	assert_regex "${VM_KV[DATA_MOUNT_OPTS]-}" '(^|,)noatime(,|$)'
	assert_equal "${VM_KV[XFS_LABEL]-}" eldata
	assert_equal "${VM_KV[NOTE]-}" "written at boot 1"
	# messages went through info/warn as well (kernel log -> journal)
	run -1 grep -E 'command not found|FATAL' "$log"
}

@test "boot 2 (no storprov): the root's LVM with its devices file finds the VG; the fstab line mounts" {
	[ -s "$EL_DIR/eldata1.img" ] || skip "boot 1 did not run"
	run -0 el_boot "$VM_DIR/scenarios/el-check.sh" 1 \
		--disk "$EL_DIR/eldata0.img,serial=eldata0,bus=scsi" --disk "$EL_DIR/eldata1.img,serial=eldata1,bus=scsi"
	sp_figures
	vm_kv_load
	assert_equal "${VM_KV[REPORT_provision_EXIT]-}" ""
	assert_regex "${VM_KV[ROOT_OPTS]-}" '^ro(,|$)'
	assert_equal "${VM_KV[PVS]-}" 2
	assert_equal "${VM_KV[VG_DATA_LV]-}" vol
	assert_equal "${VM_KV[VG_PVS]-}" "${VM_KV[DISKS]-}"
	assert_equal "${VM_KV[FS_TYPE]-}" xfs
	assert_equal "${VM_KV[NOTE]-}" "written at boot 1"
	assert_regex "${VM_KV[FSTAB_DATA]-}" ',nofail'
	run -1 grep -E "storprov: (provision|persist)" "$BATS_TEST_TMPDIR/console-1.log"
}

@test "boot 3: the second disk never comes: the wait gives up after rd.storprov.timeout=, the boot stops with expected 2, found 1" {
	local log=$BATS_TEST_TMPDIR/console-1.log i
	# systemd's emergency path halts rather than powers off, so QEMU would stay
	# up until its timeout: stop it once the boot has stopped
	el_boot "$VM_DIR/scenarios/el-check.sh" 1 \
		--disk "$EL_DIR/eldata0.img,size=320M,serial=eldata0,bus=scsi" \
		--append "rd.storprov.profile=/etc/storprov/profiles/el-lvm.xml rd.storprov.timeout=5" \
		>"$BATS_TEST_TMPDIR/out" 2>&1 &
	local vm=$!
	for ((i = 0; i < 1200; i++)); do
		grep -qE "reboot: System halted|reboot: Power down|VMTEST:END" "$log" 2>/dev/null && break
		kill -0 "$vm" 2>/dev/null || break
		sleep 0.5
	done
	kill_tree "$vm"
	wait "$vm" || true
	console_has 1 "storprov: waiting up to 5s for the disks"
	console_has 1 "gave up waiting for the disks of /etc/storprov/profiles/el-lvm.xml after 5s"
	console_has 1 "expected 2 disks, found 1"
	console_has 1 "FATAL: storprov: provision failed (status 2)"
	# the test root never ran its script, and nothing was written to the disk that was there
	run -1 grep -F "VMTEST:BEGIN" "$log"
	run -1 grep -E 'storprov: \[ *[0-9.]+s\] step [0-9]+/[0-9]+ ' "$log"
}
