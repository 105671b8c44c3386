#!/usr/bin/env bats
# Scenario 55 (issue 18): md 0.90 and 1.0 members, made by mdadm, of an erased
# partition, in one boot (scenarios/foreign-md.sh): each metadata with the
# table erased by wipefs -a, by zeroing the first MiB, and by zeroing the first
# and the last MiB; storprov apply refuses (exit 2), names what it found, and
# neither disk was written: the guest kernel's write and discard counts of
# each whole disk (/sys/block/*/stat) and a cksum of each disk's first and
# last 2 MiB are the same before and after; a control rewrite of one sector
# with its own bytes shows that the counts see a write.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup_file() {
	load lib
	# coreutils' cksum (CRC32, with PCLMUL) for the disks' first and last 2 MiB
	vm_prepare --add "$VM_TOP/build/storprov:/usr/sbin/storprov" --add "/usr/bin/cksum:/usr/local/bin/cksum"
}

setup() {
	load lib
	load scenarios
}

@test "foreign md 0.90/1.0 behind an erased table (three erasures each): refused, neither disk written" {
	run -0 vm_run "$VM_DIR/scenarios/foreign-md.sh" --append vmtest.noshutdown=1 --mem 1024 --timeout 900 \
		--add "$VM_DIR/scenarios:/usr/lib/storprov-tests" \
		$(vm_disks "$BATS_TEST_TMPDIR" fm 2 256M)
	sp_figures
	local m e
	for m in 090 10; do
		for e in WIPEFS HEAD BOTH; do
			assert_equal "$(vm_kv "MD${m}_${e}_MD_METADATA")" "$([ $m = 090 ] && echo 0.90 || echo 1.0)"
			assert_equal "$(vm_kv "MD${m}_${e}_MEMBER_TYPE")" linux_raid_member
			assert_equal "$(vm_kv "MD${m}_${e}_PTTYPE")" ""
			assert_equal "$(vm_kv "MD${m}_${e}_RC")" 2
			assert_equal "$(vm_kv "MD${m}_${e}_UNCHANGED")" 1
			[ "$(vm_kv "MD${m}_${e}_NAMED")" -ge 1 ] || { echo "MD${m}_${e}: what was found is not named"; false; }
		done
	done
	assert_equal "$(vm_kv CONTROL_SEEN)" 1
}
