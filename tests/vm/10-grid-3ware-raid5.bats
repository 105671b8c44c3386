#!/usr/bin/env bats
# Scenario 1: grid-3ware-raid5. Two virtio disks stand in for the 3ware RAID5
# LUNs (12 x 64 KiB) and export no topology; the profile is the source of
# truth. Read back in the guest: sysfs partition starts, sgdisk, xfs_info,
# /sys/block/*/queue and /proc/mounts.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup_file() {
	load scenarios
	sp_prepare
}

setup() {
	load lib
	load scenarios
	mkdir -p "$BATS_TEST_TMPDIR/p"
	# only the <match> line differs from profiles/grid-3ware-raid5.xml
	sp_profile "$VM_TOP/profiles/grid-3ware-raid5.xml" "$BATS_TEST_TMPDIR/p/grid-3ware-raid5.xml" \
		lun '<match serial="lun*"/>'
}

@test "grid-3ware-raid5: su=64k sw=11, 11 MiB starts, log su 64k, tuning in sysfs" {
	run -0 vm_run "$VM_DIR/scenarios/grid.sh" --append vmtest.noshutdown=1 --mem 2048 \
		--add "$VM_DIR/scenarios:/usr/lib/storprov-tests" \
		--add "$BATS_TEST_TMPDIR/p:/usr/lib/storprov-tests/profiles" \
		--disk "$BATS_TEST_TMPDIR/os.img,size=1G,serial=os" \
		$(vm_disks "$BATS_TEST_TMPDIR" lun 2 2G)
	sp_figures
	assert_equal "$(vm_kv APPLY_RC)" 0
	for n in 0 1; do
		# profile line 15 (hwraid 12 x 64K): su 64k = 16 blocks, sw 11 = 176 blocks
		assert_equal "$(vm_kv LUN${n}_SUNIT)" 16
		assert_equal "$(vm_kv LUN${n}_SWIDTH)" 176
		assert_equal "$(vm_kv LUN${n}_LOG_SUNIT)" 1 # parity: a 4k log stripe unit (one block)
		# partition starts: multiples of 11 MiB = 22528 sectors
		start=$(vm_kv LUN${n}_START)
		[ $((start % 22528)) -eq 0 ] && [ "$start" -gt 0 ]
		# profile line 16
		assert_equal "$(vm_kv LUN${n}_NR_REQUESTS)" 512
		assert_equal "$(vm_kv LUN${n}_READ_AHEAD_KB)" 8192
		assert_equal "$(vm_kv LUN${n}_MAX_SECTORS_KB)" 64
		assert_equal "$(vm_kv LUN${n}_SCHEDULER)" mq-deadline
		assert_regex "$(vm_kv LUN${n}_MOUNT)" 'logbufs=8,logbsize=256k'
		assert_regex "$(vm_kv LUN${n}_MOUNT)" 'swalloc'
	done
	assert_equal "$(vm_kv RULES_READ_AHEAD)" 2
	# profile lines 27-28, applied live (and persisted in sysctl.d)
	assert_equal "$(vm_kv DIRTY_RATIO)" 40
	assert_equal "$(vm_kv DIRTY_BACKGROUND_RATIO)" 10
	assert_equal "$(vm_kv SECOND_APPLY)" 1
}
