#!/usr/bin/env bats
# Scenario 3: md-raid1-syncwrite (seed 003). Two virtio "SSDs" and an OS disk
# that must not be selected; md RAID1 without a chunk, internal bitmap,
# safe_mode_delay 10, XFS without stripe geometry. The guest also times a
# 4 KiB O_SYNC write after a one-second idle gap with safe_mode_delay at the
# profiled 10 and at the kernel default 0.200 (printed, not asserted), and
# reads the array state md reached in that gap (asserted: active vs clean).
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
	# only the <match> line differs from profiles/md-raid1-syncwrite.xml
	sp_profile "$VM_TOP/profiles/md-raid1-syncwrite.xml" "$BATS_TEST_TMPDIR/p/md-raid1-syncwrite.xml" \
		ssd '<match serial="ssd*"/>'
}

@test "md-raid1-syncwrite: RAID1 without chunk, bitmap, safe_mode_delay 10, 1 MiB starts, XFS without su/sw" {
	run -0 vm_run "$VM_DIR/scenarios/md-raid1-syncwrite.sh" --append vmtest.noshutdown=1 --mem 1536 \
		--add "$VM_DIR/scenarios:/usr/lib/storprov-tests" \
		--add "$BATS_TEST_TMPDIR/p:/usr/lib/storprov-tests/profiles" \
		--disk "$BATS_TEST_TMPDIR/os.img,size=1G,serial=os" \
		$(vm_disks "$BATS_TEST_TMPDIR" ssd 2 2G)
	sp_figures
	assert_equal "$(vm_kv APPLY_RC)" 0
	# the OS disk was not selected and stays blank
	assert_equal "$(vm_kv OS_IN_REPORT)" 0
	assert_equal "$(vm_kv OS_PARTS)" 0
	assert_equal "$(vm_kv OS_SIGNATURE)" ""
	# profile line 20: raid1, no chunk passed (mdadm >= 4.2 refuses one), bitmap explicit
	assert_regex "$(vm_kv MDADM_ARGV)" ' --level=1 '
	assert_regex "$(vm_kv MDADM_ARGV)" ' --bitmap=internal '
	refute_regex "$(vm_kv MDADM_ARGV)" '--chunk'
	assert_equal "$(vm_kv MDADM_ARGV_CHUNK)" 0
	assert_equal "$(vm_kv MD_LEVEL)" raid1
	assert_equal "$(vm_kv MD_DEVICES)" 2
	assert_equal "$(vm_kv MD_CHUNK_LINES)" 0
	assert_equal "$(vm_kv MD_BITMAP)" Internal
	# profile line 21
	assert_equal "$(vm_kv MD_SAFE_MODE_DELAY)" 10.000
	for n in 0 1; do
		# partition type raid, start lcm(1 MiB, sector) = sector 2048 (no stripe)
		assert_equal "$(vm_kv SSD${n}_TYPE)" "$(vm_kv RAID_GUID)"
		assert_equal "$(vm_kv SSD${n}_START)" 2048
		# profile line 14 (the guest set mq-deadline first)
		assert_equal "$(vm_kv SSD${n}_SCHEDULER)" none
		assert_regex "$(vm_kv MD_MEMBERS)" "$(basename "$(vm_kv SSD${n}_DEV)")1"
	done
	assert_equal "$(vm_kv SSD0_BEFORE_SCHEDULER)" mq-deadline
	# no stripe geometry on a mirror
	assert_equal "$(vm_kv XFS_SUNIT)" 0
	assert_equal "$(vm_kv XFS_SWIDTH)" 0
	assert_regex "$(vm_kv MOUNT)" '^/dev/md[^ ]* /target/srv/journal xfs '
	assert_regex "$(vm_kv MOUNT)" 'noatime'
	assert_regex "$(vm_kv MOUNT)" 'logbufs=8'
	assert_equal "$(vm_kv SECOND_APPLY)" 1
	# seed 003: with the profiled delay the array is still active after a 1 s
	# idle gap; with the default md has marked it clean again, so the next
	# write waits for a superblock update. Latencies and write counts are
	# figures only.
	assert_equal "$(vm_kv SYNC_PROFILE_DELAY)" 10.000
	assert_equal "$(vm_kv SYNC_PROFILE_STATES)" "active active active active"
	assert_equal "$(vm_kv SYNC_DEFAULT_DELAY)" 0.200
	assert_equal "$(vm_kv SYNC_DEFAULT_STATES)" "clean clean clean clean"
}
