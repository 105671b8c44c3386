#!/usr/bin/env bats
# Scenario 7: verify and drift. One boot: profiles/verify.xml (tests/vm/
# profiles: md RAID5 over four virtio disks vf0..vf3, a PV, one LV, XFS,
# queue, md and vm.dirty tuning) is provisioned; storprov verify must find
# everything as planned (exit 0), reading md through sysfs and mdadm, the PV
# and VG through lvm, the LV through libdevmapper, XFS through its geometry
# ioctl, /proc/mounts, fstab and the files. Then, by hand: blockdev --setra
# on a member, echo into stripe_cache_size, the filesystem mounted again with
# other options (XFS keeps noatime over a busybox remount), the
# udev rules file deleted, vm.dirty_ratio changed; each change is confirmed
# with the kernel's own files, and verify must name each one, expected
# against found, and exit 3.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup_file() {
	load scenarios
	sp_prepare
	load lib
	# the one boot; every test below reads its output
	export VD_OUT=$BATS_FILE_TMPDIR/vm.out
	local rc=0
	vm_run "$VM_DIR/scenarios/verify-drift.sh" --mem 1024 \
		--add "$VM_DIR/scenarios:/usr/lib/storprov-tests" \
		--add "$VM_DIR/profiles:/usr/lib/storprov-tests/profiles" \
		$(vm_disks "$BATS_FILE_TMPDIR" vf 4 256M) >"$VD_OUT" 2>&1 || rc=$?
	echo "$rc" >"$BATS_FILE_TMPDIR/vm.rc"
}

setup() {
	load lib
	load scenarios
	output=$(cat "$VD_OUT")
	mapfile -t lines <"$VD_OUT"
}

@test "verify-drift: the VM ran and provisioned" {
	assert_equal "$(cat "$BATS_FILE_TMPDIR/vm.rc")" 0
	sp_figures
	assert_equal "$(vm_kv APPLY_RC)" 0
}

@test "verify-drift: a freshly provisioned node verifies clean" {
	assert_equal "$(vm_kv VERIFY1_RC)" 0
	assert_regex "$(vm_kv VERIFY1_SUMMARY)" '^[0-9]+ checks: [0-9]+ ok, 0 drift, 0 missing, 0 not checked$'
	assert_equal "$(vm_kv VERIFY1_JSON_RC)" 0
	assert_equal "$(vm_kv VERIFY1_JSON_STATUS)" clean
	# the live checks ran: md through sysfs and mdadm (its PV checks are under md data), the VG, dm, the XFS ioctl
	assert_line --partial "ok       md data ("
	assert_line --partial "ok       vg vfy ("
	assert_line --partial "ok       lv vfy/big ("
	assert_line --partial "ok       xfs fs:/srv/big ("
}

@test "verify-drift: the hand-made changes took (read back from the kernel)" {
	assert_equal "$(vm_kv DRIFT_RA_KB)" 256
	assert_equal "$(vm_kv DRIFT_STRIPE_CACHE)" 512
	assert_regex "$(vm_kv DRIFT_MOUNT)" ' xfs rw,relatime,.*logbufs=4,logbsize=64k'
	assert_regex "$(vm_kv DRIFT_RULES)" "No such file"
	assert_equal "$(vm_kv DRIFT_DIRTY_RATIO)" 20
}

@test "verify-drift: verify names each drift, expected against found, and exits 3" {
	# the second report, for the test log
	sed -n '/storprov verify, after the drift/,/^VERIFY2_SUMMARY=/p' "$VD_OUT" | grep -E '^(ok|drift|missing) |^           ' |
		sed 's/^/    /' >&3 || true
	assert_equal "$(vm_kv VERIFY2_RC)" 3
	assert_equal "$(vm_kv VERIFY2_JSON_RC)" 3
	assert_equal "$(vm_kv VERIFY2_JSON_STATUS)" drift
	assert_line "           drift queue/read_ahead_kb: expected 1024, found 256"
	assert_line "           drift md/stripe_cache_size: expected 1024, found 512"
	assert_line --regexp '^           drift mount options \(/proc/mounts\): expected /srv/big mounted with noatime,logbufs=8,logbsize=[0-9]+k,swalloc, found rw,relatime,.*logbufs=4,logbsize=64k.* \(without noatime,logbufs=8,logbsize=256k,swalloc\)$'
	assert_line "           missing /etc/udev/rules.d/70-storprov.rules: expected as render writes it, found nothing"
	assert_line "           drift /proc/sys/vm/dirty_ratio: expected 35, found 20"
	assert_regex "$(vm_kv VERIFY2_SUMMARY)" '^[0-9]+ checks: [0-9]+ ok, 4 drift, 1 missing, 0 not checked$'
}
