#!/usr/bin/env bats
# Scenario 4: hwraid0-lvm-xfs (seed 004). Two virtio disks stand in for the
# PERC RAID0 LUNs (3 x 64 KiB, full stripe 192 KiB) and export no topology;
# one is a PV as a whole, the other carries a GPT with the PV on partition 1.
# Both must come out with the same data alignment: PV data and extents on
# multiples of 192 KiB of the LUN, the partition on a multiple of 3 MiB,
# linear LVs on 192 KiB boundaries, XFS su=64k sw=3, logbufs=8, no swalloc.
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
	# only the <match> lines differ from profiles/hwraid0-lvm-xfs.xml
	sp_profile "$VM_TOP/profiles/hwraid0-lvm-xfs.xml" "$BATS_TEST_TMPDIR/p/hwraid0-lvm-xfs.xml" \
		whole '<match serial="whole0"/>' parted '<match serial="parted0"/>'
}

@test "hwraid0-lvm-xfs: PV on a whole LUN and on a 3 MiB partition, same 192 KiB alignment, su=64k sw=3, logbufs=8" {
	run -0 vm_run "$VM_DIR/scenarios/hwraid0-lvm-xfs.sh" --append vmtest.noshutdown=1 --mem 1536 \
		--add "$VM_DIR/scenarios:/usr/lib/storprov-tests" \
		--add "$BATS_TEST_TMPDIR/p:/usr/lib/storprov-tests/profiles" \
		$(vm_disks "$BATS_TEST_TMPDIR" whole 1 2G) $(vm_disks "$BATS_TEST_TMPDIR" parted 1 2G)
	sp_figures
	assert_equal "$(vm_kv APPLY_RC)" 0
	# the whole LUN is the PV itself; the other one's PV is its partition 1
	assert_equal "$(vm_kv WHOLE_PARTS)" 0
	assert_equal "$(vm_kv WHOLE_PV)" "$(vm_kv WHOLE_DEV)"
	assert_equal "$(vm_kv WHOLE_VG)" vga
	assert_equal "$(vm_kv PARTED_PV)" "$(vm_kv PARTED_DEV)1"
	assert_equal "$(vm_kv PARTED_VG)" vgb
	# partition start: a multiple of lcm(1 MiB, 192 KiB) = 3 MiB = 6144 sectors
	pstart=$(vm_kv PARTED_START)
	[ "$pstart" -gt 0 ] && [ $((pstart % 6144)) -eq 0 ] ||
		{ echo "partition start $pstart not a multiple of 6144 sectors"; false; }
	# same PV data start on both, a multiple of the full stripe, and so the
	# data starts on a full-stripe boundary of each LUN
	whole=$(vm_kv WHOLE_PE_START) parted=$(vm_kv PARTED_PE_START)
	assert_equal "$whole" "$parted"
	[ "$whole" -gt 0 ] && [ $((whole % 3145728)) -eq 0 ] ||
		{ echo "pe_start $whole not a multiple of lcm(1 MiB, 192 KiB) = 3 MiB"; false; }
	[ $(((pstart * 512 + parted) % 196608)) -eq 0 ] ||
		{ echo "data start $((pstart * 512 + parted)) of the partitioned LUN not on 192 KiB"; false; }
	# extents: multiples of the full stripe
	for v in A B; do
		extent=$(vm_kv VG${v}_EXTENT)
		[ "$extent" -gt 0 ] && [ $((extent % 3145728)) -eq 0 ] ||
			{ echo "vg$v extent $extent not a multiple of 3 MiB"; false; }
	done
	# dmsetup: linear LVs on the two PVs, every segment on a 192 KiB boundary
	# (384 sectors) of its PV and so of its LUN
	assert_equal "$(vm_kv DM_A_DEVNUM)" "$(vm_kv WHOLE_DEVNUM)"
	assert_equal "$(vm_kv DM_B_DEVNUM)" "$(vm_kv PARTED_DEVNUM)"
	for v in A B; do
		assert_equal "$(vm_kv DM_${v}_TARGETS)" linear
		for off in $(vm_kv DM_${v}_OFFSETS); do
			[ $((off % 384)) -eq 0 ] || { echo "vg$v segment offset $off not on 384 sectors"; false; }
		done
	done
	for off in $(vm_kv DM_B_OFFSETS); do
		[ $(((pstart + off) % 384)) -eq 0 ]
	done
	for v in A B; do
		# profile lines 13/18 (hwraid raid0 3 x 64K): su 64k = 16 blocks, sw 3 = 48
		assert_equal "$(vm_kv XFS_${v}_SUNIT)" 16
		assert_equal "$(vm_kv XFS_${v}_SWIDTH)" 48
		assert_equal "$(vm_kv XFS_${v}_LOG_SUNIT)" 16
		# profile lines 32/33: logbufs=8; RAID0 has no parity, so no swalloc
		assert_regex "$(vm_kv MOUNT_${v})" ' xfs [^ ]*noatime'
		assert_regex "$(vm_kv MOUNT_${v})" 'logbufs=8'
		refute_regex "$(vm_kv MOUNT_${v})" 'swalloc'
	done
	# profile lines 14/19
	assert_equal "$(vm_kv WHOLE_READ_AHEAD_KB)" 4096
	assert_equal "$(vm_kv PARTED_READ_AHEAD_KB)" 4096
	assert_equal "$(vm_kv SECOND_APPLY)" 1
}
