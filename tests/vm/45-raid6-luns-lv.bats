#!/usr/bin/env bats
# Scenario 4b (issue 11): a striped LV over RAID6 LUNs of a data width that is
# not a power of two (RAID60 through LVM), read back with dmsetup, lvs and
# xfs_info; then the member-read ratio under full-stripe O_DIRECT writes on
# loop "LUNs" over md RAID6, storprov's layout beside a naive one in the same
# boot. See tests/vm/scenarios/raid6-luns-lv.sh.
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
}

@test "raid6 LUNs: striped LV over 12- and 8-disk RAID6 LUNs, aligned; member-read ratio <= 0.02 and <= 1/4 of a naive layout's" {
	command -v fio >/dev/null || skip "no fio on the host (tests/vm/deps.sh installs it)"
	run vm_run "$VM_DIR/scenarios/raid6-luns-lv.sh" --append vmtest.noshutdown=1 --mem 1536 --timeout 600 \
		--add "$(command -v fio):/usr/bin/fio" \
		--add "$VM_DIR/scenarios:/usr/lib/storprov-tests" \
		--add "$VM_DIR/profiles:/usr/lib/storprov-tests/profiles" \
		$(vm_disks "$BATS_TEST_TMPDIR" v 2 2G) $(vm_disks_gpt "$BATS_TEST_TMPDIR" m 16 128M mkpart a 1MiB 50% mkpart b 50% 100%)
	[ "$status" -eq 0 ] || { tail -n 60 <<<"$output"; false; }
	sp_figures
	# 1. 12 x 64 KiB RAID6 LUNs: full stripe 10 x 64 KiB = 640 KiB. PV data
	# and extents on lcm(1 MiB, 640 KiB) = 5 MiB; the LV stripe is the LUN's
	# strip (64 KiB = 128 sectors), so each 1280 KiB upper stripe lands as one
	# whole 640 KiB stripe on each LUN: su 16 blocks, sw 2 x 640 / 64 = 20.
	assert_equal "$(vm_kv V_APPLY_RC)" 0
	for s in $(vm_kv V_PE_STARTS); do
		[ $((s % (5 * 1048576))) -eq 0 ] || { echo "pe_start $s is not a multiple of 5 MiB"; false; }
	done
	[ $(($(vm_kv V_EXTENT) % (5 * 1048576))) -eq 0 ]
	assert_equal "$(vm_kv V_STRIPES)" 2
	assert_equal "$(vm_kv V_STRIPE_SIZE)" 65536
	assert_regex "$(vm_kv V_DM)" '^0 [0-9]+ striped 2 128 '
	n=0
	for off in $(vm_kv V_DM_OFFSETS); do
		[ $((off % 1280)) -eq 0 ] || { echo "offset $off sectors is not on a 640 KiB stripe"; false; }
		n=$((n + 1))
	done
	assert_equal "$n" 2
	assert_equal "$(vm_kv V_SUNIT)" 16
	assert_equal "$(vm_kv V_SWIDTH)" 320
	assert_equal "$(vm_kv V_LOG_SUNIT)" 1

	# 2. The loop LUNs export no stripe, as hardware RAID LUNs do
	assert_equal "$(vm_kv LOOP_DIO)" 1
	assert_equal "$(vm_kv LOOP_IO_OPT)" 0
	# 8 x 64 KiB RAID6: full stripe 384 KiB = 768 sectors; PV data on
	# lcm(1 MiB, 384 KiB) = 3 MiB; su 16 blocks, sw 2 x 384 / 64 = 12
	for s in $(vm_kv SP_PE_STARTS); do
		[ $((s % (3 * 1048576))) -eq 0 ] || { echo "pe_start $s is not a multiple of 3 MiB"; false; }
	done
	[ $(($(vm_kv SP_EXTENT) % (3 * 1048576))) -eq 0 ]
	assert_regex "$(vm_kv SP_DM)" '^0 [0-9]+ striped 2 128 7:0 [0-9]+ 7:1 [0-9]+$'
	for off in $(vm_kv SP_DM | awk '{ print $7, $9 }'); do
		[ $((off % 768)) -eq 0 ] || { echo "offset $off sectors is not on a 384 KiB stripe"; false; }
	done
	assert_equal "$(vm_kv SP_SUNIT)" 16
	assert_equal "$(vm_kv SP_SWIDTH)" 192
	assert_regex "$(vm_kv SP_MOUNT)" 'swalloc'
	# the naive layout: LVM's 1 MiB data start (not on a 384 KiB stripe), and
	# mkfs.xfs cannot know the LUNs' stripe (here it sets none)
	for s in $(vm_kv DEF_PE_STARTS); do [ "$s" -eq 1048576 ]; done
	[ "$(vm_kv DEF_SWIDTH)" != 192 ]
	sp=$(vm_kv SP_RATIO) def=$(vm_kv DEF_RATIO)
	echo "# member-read ratio under 1536 KiB O_DIRECT writes: storprov $sp, naive $def" >&3
	[ "$(vm_kv SP_LV_WRITE_SECTORS)" -gt 100000 ]
	# pass/fail with a margin for what load does to md's stripe handling (issue 17: 0.0121 seen on a
	# loaded machine); the bench holds the 0.01 goal and reports the distribution
	awk -v r="$sp" -v d="$def" 'BEGIN { exit !(r >= 0 && r <= 0.02 && r <= d / 4) }' ||
		{ echo "storprov's ratio $sp > 0.02 or > 1/4 of the naive $def"; false; }
	# the measurement can see read-modify-write: the misaligned layout pays it
	awk -v r="$def" 'BEGIN { exit !(r >= 0.05) }' || { echo "naive ratio $def: the counters saw no RMW"; false; }
}
