#!/usr/bin/env bats
# Scenario 80 (issue 11): partitions on an md array, in one boot. The shipped
# md-raid5-gpt profile on four virtio disks: md RAID5 of 64 KiB chunks (full
# stripe 192 KiB), a GPT whose partitions start and end on lcm(1 MiB, 192 KiB)
# = 3 MiB, XFS on partition 1 (su 64k, sw 3: sunit 16, swidth 48 blocks) and
# an LVM PV on partition 2 (type lvm, pe_start on 3 MiB) with an XFS LV. The
# first run is killed right after mdadm --create; the second must finish it;
# the third must be a no-op (same XFS UUIDs); a fourth with everything
# preserve="true" keeps it; a foreign table on the md is then refused.
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
	sp_profile "$VM_TOP/profiles/md-raid5-gpt.xml" "$BATS_TEST_TMPDIR/p/md-raid5-gpt.xml" \
		sas '<match serial="mp*"/>'
}

@test "md-partitions: GPT on md RAID5, XFS + PV on md partitions, resumed after a kill, then a no-op" {
	run -0 vm_run "$VM_DIR/scenarios/md-partitions.sh" --append vmtest.noshutdown=1 --mem 1536 --timeout 900 \
		--add "$VM_DIR/scenarios:/usr/lib/storprov-tests" \
		--add "$BATS_TEST_TMPDIR/p:/usr/lib/storprov-tests/profiles" \
		$(vm_disks "$BATS_TEST_TMPDIR" mp 4 512M)
	sp_figures
	# killed after the array existed, before any table was written; the next run finished
	assert_equal "$(vm_kv RC1)" 137
	assert_equal "$(vm_kv PTTYPE_AFTER_KILL)" ""
	assert_equal "$(vm_kv APPLY_RC)" 0
	assert_equal "$(vm_kv MD_LEVEL)" raid5
	assert_equal "$(vm_kv MD_DEVICES)" 4
	assert_equal "$(vm_kv MD_CHUNK)" 65536
	# mdadm's data offset on 512 MiB members: 1 MiB (2048 sectors), as storprov estimated
	assert_equal "$(vm_kv MD_DATA_OFFSETS)" 2048
	local k align=6144 # 3 MiB in 512-byte sectors
	k=$(vm_kv MD_KNAME)
	assert_equal "$(vm_kv P1_KNAME)" "${k}p1"
	assert_equal "$(vm_kv P2_KNAME)" "${k}p2"
	local s1 s2 z1 z2 md
	s1=$(vm_kv P1_START) s2=$(vm_kv P2_START) z1=$(vm_kv P1_SIZE) z2=$(vm_kv P2_SIZE) md=$(vm_kv MD_SIZE_SECTORS)
	# starts and sizes on multiples of lcm(1 MiB, 3 x 64 KiB) = 3 MiB
	[ "$s1" -gt 0 ] && [ $((s1 % align)) -eq 0 ] || { echo "p1 start $s1"; false; }
	[ $((s2 % align)) -eq 0 ] && [ $((z1 % align)) -eq 0 ] && [ $((z2 % align)) -eq 0 ] ||
		{ echo "p2 start $s2, sizes $z1 $z2"; false; }
	[ $((s1 + z1)) -le "$s2" ] && [ $((s2 + z2 + 33)) -le "$md" ] || { echo "partitions past the array ($md)"; false; }
	# partition types: 1 linux data, 2 LVM (derived from the PV use)
	assert_equal "$(vm_kv P1_TYPE)" 0fc63daf-8483-4772-8e79-3d69d8477de4
	assert_equal "$(vm_kv P2_TYPE)" e6d6d379-f507-44c2-a23c-238f2a3df928
	# XFS on the md partition inherits the md's geometry: su 64k = 16 blocks, sw 3
	assert_equal "$(vm_kv DATA_SUNIT)" 16
	assert_equal "$(vm_kv DATA_SWIDTH)" 48
	assert_regex "$(vm_kv DATA_MOUNT)" 'logbufs=8,logbsize=256k'
	assert_regex "$(vm_kv DATA_MOUNT)" 'swalloc'
	# the PV on partition 2: data on a 3 MiB boundary of the partition, extents of 6 MiB
	assert_regex "$(vm_kv PV_NAME)" "/dev/(md/r5data2|${k}p2)"
	assert_equal $(($(vm_kv PE_START) % 3145728)) 0
	assert_equal "$(vm_kv EXTENT)" 6291456
	assert_equal "$(vm_kv HOME_SUNIT)" 16
	assert_equal "$(vm_kv HOME_SWIDTH)" 48
	# fstab by UUID, resolving to the md partition
	assert_equal "$(vm_kv FINDMNT_RC)" 0
	assert_equal "$(vm_kv FSTAB_DATA_DEV)" "${k}p1"
	assert_equal "$(vm_kv RULES_PARTITION_LINES)" 0
	# the third run: nothing to do, nothing recreated
	assert_equal "$(vm_kv RC3)" 0
	assert_equal "$(vm_kv NOTHING)" 1
	assert_equal "$(vm_kv CREATED3)" 0
	assert_equal "$(vm_kv DATA_UUID3)" "$(vm_kv DATA_UUID)"
	assert_equal "$(vm_kv HOME_UUID3)" "$(vm_kv HOME_UUID)"
	[ -n "$(vm_kv DATA_UUID)" ]
	# preserve="true" on all of it: the md's table matches, so it is kept, and nothing changes
	assert_equal "$(vm_kv RC4)" 0
	assert_equal "$(vm_kv NOTHING4)" 1
	assert_equal "$(vm_kv DATA_UUID4)" "$(vm_kv DATA_UUID)"
	# a foreign table on the running md: refused before any write (exit 2), the table untouched
	assert_equal "$(vm_kv RC5)" 2
	assert_equal "$(vm_kv REFUSED5)" 1
	[ "$(vm_kv REFUSED5_MD)" -ge 1 ] # the table, and maybe the PV label the kernel no longer shows
	assert_equal "$(vm_kv PTUUID_KEPT)" 1
	assert_equal "$(vm_kv PARTS_ON_DISK)" 1
}
