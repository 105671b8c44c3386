#!/usr/bin/env bats
# Smoke test of the VM harness: real md, XFS and LVM in a QEMU guest, with the
# values read back by mdadm, xfs_info, sysfs, dmsetup and lvs in the guest.
# The second test boots the same disk images again (with udev) and must find
# the md superblock, the XFS data and the LVM metadata of the first boot.

bats_require_minimum_version 1.5.0

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup_file() {
	load lib
	vm_prepare
	export SMOKE_DISKS=$BATS_FILE_TMPDIR/disks
	mkdir -p "$SMOKE_DISKS"
}

setup() {
	load lib
	mapfile -t DISKS < <(
		vm_disks "$SMOKE_DISKS" md 4 1G
		vm_disks "$SMOKE_DISKS" lvm 2 64M
	)
}

@test "RAID5 + XFS + striped LV: geometry read back in the guest" {
	run -0 vm_run "$VM_DIR/fixtures/smoke/create.sh" "${DISKS[@]}"

	assert_equal "$(vm_kv FIRST_BOOT)" complete
	# md
	assert_equal "$(vm_kv MD_LEVEL)" raid5
	assert_equal "$(vm_kv MD_DEVICES)" 4
	assert_equal "$(vm_kv MD_CHUNK)" 64K
	assert_equal "$(vm_kv MD_VERSION)" 1.2
	assert_regex "$(vm_kv MD_UUID)" '^[0-9a-f]{8}(:[0-9a-f]{8}){3}$'
	assert_equal "$(vm_kv STRIPE_CACHE_SIZE)" 256
	# raid5: io_opt = chunk x (4 - 1), io_min = chunk
	assert_equal "$(vm_kv MD_OPT_IO)" 196608
	assert_equal "$(vm_kv MD_MIN_IO)" 65536
	# xfs: su=64k,sw=3 in 4 KiB blocks; /proc/mounts shows 512-byte units
	assert_equal "$(vm_kv XFS_BSIZE)" 4096
	assert_equal "$(vm_kv XFS_SUNIT)" 16
	assert_equal "$(vm_kv XFS_SWIDTH)" 48
	assert_regex "$(vm_kv MOUNT_OPTS)" '(^|,)sunit=128,swidth=384(,|$)'
	# lvm: 2 stripes of 64 KiB = 128 sectors, data after a 1 MiB pe_start
	assert_regex "$(vm_kv DM_TABLE)" '^vgsmoke-lvstripe: 0 65536 striped 2 128 [0-9]+:[0-9]+ 2048 [0-9]+:[0-9]+ 2048$'
	assert_equal "$(vm_kv LV_STRIPES)" 2
	assert_equal "$(vm_kv LV_STRIPE_SIZE)" 65536
	assert_equal "$(vm_kv PV_PE_START)" 1048576
	assert_equal "$(vm_kv DM_MIN_IO)" 65536
	assert_equal "$(vm_kv DM_OPT_IO)" 131072
	# without udev, libdevmapper creates the nodes itself (udev_rules=0):
	# /dev/mapper/NAME is a block node, /dev/VG/LV a symlink to it
	assert_equal "$(vm_kv LV_NODE)" /dev/mapper/vgsmoke-lvstripe
	assert_equal "$(vm_kv LV_NODE_IS_BLOCK)" yes
	# systemd-sysctl applies sysctl.d; setting the _bytes variant zeroes the ratio
	assert_equal "$(vm_kv DIRTY_BACKGROUND_BYTES)" 67108864
	assert_equal "$(vm_kv DIRTY_BACKGROUND_RATIO)" 0
	assert_equal "$(vm_kv DIRTY_EXPIRE_CENTISECS)" 1500

	vm_kv MD_UUID >"$BATS_FILE_TMPDIR/md_uuid"
}

@test "second boot with udev sees the array, the filesystem and the VG" {
	[[ -s $BATS_FILE_TMPDIR/md_uuid ]] || fail "the first test did not create the array"
	local uuid
	uuid=$(<"$BATS_FILE_TMPDIR/md_uuid")

	run -0 vm_run "$VM_DIR/fixtures/smoke/reboot.sh" --udev "${DISKS[@]}"

	assert_equal "$(vm_kv EXAMINE_LEVEL)" raid5
	assert_equal "$(vm_kv EXAMINE_UUID)" "$uuid"
	# udev: by-id links from 60-persistent-storage, incremental assembly from
	# 64-md-raid-assembly, MD_UUID from 63-md-raid-arrays
	assert_regex "$(vm_kv BY_ID_MD0)" '^/dev/vd[a-z]$'
	assert_equal "$(vm_kv AUTO_ASSEMBLED)" yes
	assert_equal "$(vm_kv MD_UUID)" "$uuid"
	assert_equal "$(vm_kv UDEV_MD_UUID)" "$uuid"
	assert_equal "$(vm_kv MD_LEVEL)" raid5
	assert_equal "$(vm_kv MD_ACTIVE_DEVICES)" 4
	assert_equal "$(vm_kv MARKER)" "written on the first boot"
	assert_regex "$(vm_kv XFS_GEOMETRY)" '^sunit=16 +swidth=48 blks$'
	assert_regex "$(vm_kv DM_TABLE)" '^0 65536 striped 2 128 [0-9]+:[0-9]+ 2048 [0-9]+:[0-9]+ 2048$'
	# with udev, the rules make /dev/VG/LV a symlink to /dev/dm-N
	assert_regex "$(vm_kv LV_NODE)" '^/dev/dm-[0-9]+$'
	# a rule in /etc/udev/rules.d keyed on MD_UUID, applied on "change"
	assert_equal "$(vm_kv RULE_STRIPE_CACHE_SIZE)" 1024
	assert_equal "$(vm_kv RULE_READ_AHEAD_KB)" 8192
}
