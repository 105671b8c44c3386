#!/usr/bin/env bats
# Scenario 56 (issue 18): power loss, not a killed process. QEMU itself is
# killed (SIGKILL; every disk cache=none) at a random moment of an apply over
# two own disks, beside a disk holding a random foreign layout the profile does
# not name; booted again on the same images, apply converges (exit 0; sgdisk
# -v, blkid, xfs_repair -n, storprov verify; a third apply does nothing) and
# the foreign image's data is unchanged. Two cycles; the seed is printed
# (replay: PL_SEED=N). The long loop: tests/vm/power-loss-loop.sh.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup_file() {
	load lib
	vm_prepare --add "$VM_TOP/build/storprov:/usr/sbin/storprov"
	export PL_SEED=${PL_SEED:-$(( (RANDOM << 15) | RANDOM ))}
	echo "# power-loss: PL_SEED=$PL_SEED" >&3
}

setup() {
	load lib
	load scenarios
	load power_loss
}

cycle() {
	run pl_cycle $((PL_SEED + $1)) "$BATS_TEST_TMPDIR/c"
	sp_figures
	pl_check "$output" || { echo "$output"; false; }
	# the kill came during the apply at least in the sense that boot 1 did not end on its own,
	# or apply had already finished (RC1 printed): either is a valid power-loss point
	[ "$(vm_kv PL_KILLED)" = 1 ] || [ "$(vm_kv RC1)" = 0 ]
}

@test "power loss 1 (seed printed): QEMU killed during apply, rebooted, apply converges, foreign bytes kept" { cycle 0; }
@test "power loss 2: QEMU killed during apply, rebooted, apply converges, foreign bytes kept" { cycle 1; }
