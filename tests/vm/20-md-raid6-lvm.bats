#!/usr/bin/env bats
# Scenario 2: md-raid6-lvm. Two md RAID6 sets of six virtio disks, PVs aligned
# to the 256 KiB full stripe, extents a multiple of it, a striped LV (RAID60
# through LVM) and two linear LVs, three XFS. Every LV segment must start on a
# full-stripe boundary of its md device, per dmsetup table.
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
	sp_profile "$VM_TOP/profiles/md-raid6-lvm.xml" "$BATS_TEST_TMPDIR/p/md-raid6-lvm.xml" \
		hba1 '<match serial="a*"/>' hba2 '<match serial="b*"/>'
}

@test "md-raid6-lvm: md RAID6 x 2, aligned PVs and extents, striped + linear LVs on stripe boundaries" {
	run -0 vm_run "$VM_DIR/scenarios/md-raid6-lvm.sh" --append vmtest.noshutdown=1 --mem 1536 \
		--add "$VM_DIR/scenarios:/usr/lib/storprov-tests" \
		--add "$BATS_TEST_TMPDIR/p:/usr/lib/storprov-tests/profiles" \
		$(vm_disks "$BATS_TEST_TMPDIR" a 6 1G) $(vm_disks "$BATS_TEST_TMPDIR" b 6 1G)
	sp_figures
	assert_equal "$(vm_kv APPLY_RC)" 0
	# a new RAID6's initial resync, where apply saw it running, is said with its progress (issue 31): a
	# percentage, and the time left once md reports a speed (or where to look when sysfs gives no count)
	# (not through bats' run: vm_kv reads the VM's output from $output)
	local sync_lines=()
	mapfile -t sync_lines < <(grep -E 'storprov: \[ *[0-9.]+s\] md r6[ab]: .*running in the background' \
		"$BATS_TEST_TMPDIR/console-1.log" || true)
	for l in "${sync_lines[@]}"; do
		[[ $l =~ running\ in\ the\ background(:\ [0-9.]+%\ done|\ \(cat\ /proc/mdstat) ]] || { echo "no progress: $l"; false; }
	done
	for a in r6a r6b; do
		assert_equal "$(vm_kv MD_${a}_LEVEL)" raid6
		assert_equal "$(vm_kv MD_${a}_DEVICES)" 6
		assert_equal "$(vm_kv MD_${a}_CHUNK)" 65536
		assert_equal "$(vm_kv MD_${a}_STRIPE_CACHE)" 4096
		assert_equal "$(vm_kv MD_${a}_READ_AHEAD_KB)" 8192
	done
	# PV data and extents on multiples of lcm(1 MiB, the full stripe 4 x 64 KiB) = 1 MiB
	for s in $(vm_kv PE_STARTS); do
		[ $((s % 1048576)) -eq 0 ]
	done
	extent=$(vm_kv EXTENT)
	[ $((extent % 1048576)) -eq 0 ]
	# the LV stripe is one array full stripe (4 x 64 KiB = 256 KiB, 512 sectors): each leg's share of
	# an LV stripe is one whole array stripe in one piece
	assert_equal "$(vm_kv SCRATCH_STRIPES)" 2
	assert_equal "$(vm_kv SCRATCH_STRIPE_SIZE)" 262144
	assert_regex "$(vm_kv DM_SCRATCH)" '^0 [0-9]+ striped 2 512 '
	n=0
	for o in $(vm_kv DM_OFFSETS); do
		off=${o##*:}
		[ $((off % 512)) -eq 0 ] || { echo "segment $o not on a 256 KiB boundary"; false; }
		n=$((n + 1))
	done
	[ "$n" -ge 4 ]
	# XFS: striped LV su 256k (64 blocks), sw 2 (128 blocks); linear LVs su 64k, sw 4 (64 blocks)
	assert_equal "$(vm_kv SCRATCH_SUNIT)" 64
	assert_equal "$(vm_kv SCRATCH_SWIDTH)" 128
	assert_equal "$(vm_kv HOME_SWIDTH)" 64
	assert_equal "$(vm_kv ARCHIVE_SWIDTH)" 64
	assert_equal "$(vm_kv SCRATCH_LOG_SUNIT)" 1
	assert_regex "$(vm_kv SCRATCH_MOUNT)" 'logbufs=8,logbsize=256k'
	assert_regex "$(vm_kv HOME_MOUNT)" 'swalloc'
	assert_equal "$(vm_kv SCRATCH_READ_AHEAD_KB)" 16384
}
