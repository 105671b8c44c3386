#!/usr/bin/env bats
# Scenario 80 (issue 11): one LUN through two paths. QEMU opens one image
# twice as two scsi-hd devices with the same WWN and serial (share=on:
# file.locking=off, share-rw=on). One boot: storprov makes the dm-multipath
# map itself (no multipathd yet, as in an installer), mkfs.xfs on the map,
# tuning split between the paths and the map; multipathd then adopts the map
# under the rendered conf.d file; udev brings the tuning back from the
# rendered rules; one path is pulled with QMP device_del and the XFS stays
# mounted and writable. Read back with dmsetup, multipath -ll, xfs_info, sysfs.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

WWN=0x5000c500a1b2c3d4

setup_file() {
	load lib
	local m=/lib/multipath
	[ -d "$m" ] || m=/usr/lib/multipath
	vm_prepare --udev --add "$VM_TOP/build/storprov:/usr/sbin/storprov" \
		--modules "dm_multipath dm_service_time dm_round_robin" \
		--add "$(command -v multipath):/usr/sbin/multipath" \
		--add "$(command -v multipathd):/usr/sbin/multipathd" \
		--add "$m:/usr/lib/multipath"
}

setup() {
	load lib
	load scenarios
}

@test "multipath: map made without multipathd, XFS on it, tuning on paths and map, a path pulled while writing" {
	command -v multipathd >/dev/null || skip "multipath-tools not installed on the host (tests/vm/deps.sh)"
	img=$BATS_TEST_TMPDIR/lun.img
	spec="bus=scsi,wwn=$WWN,serial=MPLUN0,vendor=QEMU,model=MSA_2060_SAS,share=on"
	run -0 vm_run "$VM_DIR/scenarios/multipath.sh" --append vmtest.noshutdown=1 --mem 1024 --hotplug \
		--add "$VM_DIR/scenarios:/usr/lib/storprov-tests" \
		--add "$VM_DIR/profiles:/usr/lib/storprov-tests/profiles" \
		--disk "$img,size=2G,$spec" --disk "$img,$spec"
	sp_figures
	vm_kv_load
	# two paths, one WWID: the one multipath uses (ID_SERIAL, 3 + the NAA)
	read -r -a paths <<<"${VM_KV[PATHS]}"
	assert_equal "${#paths[@]}" 2
	assert_equal "${VM_KV[ID_SERIAL_${paths[0]}]}" "3${WWN#0x}"
	assert_equal "${VM_KV[ID_SERIAL_${paths[1]}]}" "3${WWN#0x}"
	# no map at first: the plan makes it, apply ran it
	assert_equal "${VM_KV[PLAN_DMSETUP]}" 1
	assert_equal "${VM_KV[APPLY_RC]}" 0
	assert_equal "${VM_KV[DM_UUID]}" "mpath-3${WWN#0x}"
	assert_equal "${VM_KV[DM_TARGET]}" multipath
	assert_equal "${VM_KV[DM_TABLE_PATHS]}" 2
	# hwraid 6 x 512K: su 512k = 128 blocks, sw 4 = 512 blocks, read on the map
	assert_equal "${VM_KV[MP_SUNIT]}" 128
	assert_equal "${VM_KV[MP_SWIDTH]}" 512
	# tuning: read-ahead on the map, max-sectors and the scheduler on both, queue depth on the paths
	assert_equal "${VM_KV[MAP_READ_AHEAD_KB]}" 4096
	assert_equal "${VM_KV[MAP_MAX_SECTORS_KB]}" 256
	assert_equal "${VM_KV[MAP_SCHEDULER]}" mq-deadline
	# a request-based map has an elevator of its own on 6.1 (why the scheduler goes to it too)
	assert_regex "${VM_KV[DM_SCHEDULERS]}" 'mq-deadline'
	for p in "${paths[@]}"; do
		assert_equal "${VM_KV[PATH_${p}_MAX_SECTORS_KB]}" 256
		assert_equal "${VM_KV[PATH_${p}_NR_REQUESTS]}" 64
		assert_equal "${VM_KV[PATH_${p}_SCHEDULER]}" mq-deadline
		[ "${VM_KV[PATH_${p}_READ_AHEAD_KB]}" != 4096 ]
	done
	# find_multipaths "strict": a path counts as multipath only with the rendered wwids line
	assert_equal "${VM_KV[C_WITHOUT_WWIDS]}" 1
	assert_equal "${VM_KV[C_WITH_WWIDS]}" 0
	# multipathd adopted the map: same name (the rendered alias), same uuid, both paths
	assert_equal "${VM_KV[MPATH_NAME]}" lun
	assert_equal "${VM_KV[DM_UUID_AFTER]}" "mpath-3${WWN#0x}"
	assert_equal "${VM_KV[MPATH_ACTIVE_PATHS]}" 2
	# udev put the tuning back after it was reset by hand
	assert_equal "${VM_KV[RESET_MAP_READ_AHEAD_KB]}" 128
	assert_equal "${VM_KV[RESET_MAP_SCHEDULER]}" none
	assert_equal "${VM_KV[UDEV_MAP_SCHEDULER]}" mq-deadline
	assert_equal "${VM_KV[UDEV_MAP_READ_AHEAD_KB]}" 4096
	assert_equal "${VM_KV[UDEV_MAP_MAX_SECTORS_KB]}" 256
	for p in "${paths[@]}"; do
		assert_equal "${VM_KV[UDEV_PATH_${p}_MAX_SECTORS_KB]}" 256
		assert_equal "${VM_KV[UDEV_PATH_${p}_NR_REQUESTS]}" 64
		assert_equal "${VM_KV[UDEV_PATH_${p}_SCHEDULER]}" mq-deadline
	done
	# a path pulled: gone from the guest, one path left, the XFS mounted and writable
	assert_equal "${VM_KV[PULLED_GONE]}" 1
	assert_equal "${VM_KV[PATHS_AFTER_PULL]}" 1
	assert_equal "${VM_KV[WRITE_RC]}" 0
	assert_equal "${VM_KV[READ_BACK]}" same
	assert_equal "${VM_KV[STILL_MOUNTED]}" 1
	assert_equal "${VM_KV[FS_ERRORS]}" 0
}
