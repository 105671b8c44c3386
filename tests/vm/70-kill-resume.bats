#!/usr/bin/env bats
# Scenario 7 (issue 8): kill and resume on real md and dm. One boot; the run
# is killed inside mdadm --create, pvcreate, vgcreate and lvcreate, each
# "after" the tool finished or "during" it (drawn per tool from a printed
# seed; KILL_POINTS=all for both), from blank disks every time; a
# re-run without --wipe must finish: one RAID5 array of 3 devices (mdadm
# --detail), one PV, the LV with a linear dm table (dmsetup), XFS with sw=2
# (xfs_info), xfs_repair -n clean, mountable, one fstab line, and a third run
# "nothing to do".
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

# Each run kills every tool once, "after" or "during" drawn per tool from a
# printed seed (KILL_SEED=N replays it; KILL_POINTS=all tries all eight
# points, as the scenario did before it was halved for make check's time).
kill_points() {
	if [ "${KILL_POINTS:-}" = all ]; then
		echo mdadm:after pvcreate:after vgcreate:after lvcreate:after mdadm:during pvcreate:during vgcreate:during lvcreate:during
		return
	fi
	python3 -c 'import random, sys
r = random.Random(int(sys.argv[1]))
print(" ".join("%s:%s" % (t, r.choice(("after", "during"))) for t in ("mdadm", "pvcreate", "vgcreate", "lvcreate")))' "$1"
}

@test "kill-resume: killed inside mdadm --create, pvcreate, vgcreate, lvcreate; re-run converges" {
	local seed=${KILL_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')} points
	points=$(kill_points "$seed")
	echo "# kill points (KILL_SEED=$seed): $points" >&3
	run -0 vm_run "$VM_DIR/scenarios/kill-resume.sh" --mem 1536 --timeout 900 \
		--env "KILL_POINTS=${points// /,}" \
		--add "$VM_DIR/scenarios:/usr/lib/storprov-tests" \
		--add "$VM_DIR/profiles:/usr/lib/storprov-tests/profiles" \
		$(vm_disks "$BATS_TEST_TMPDIR" kr 3 512M)
	sp_figures
	local fails=() p k
	for p in $points; do
		k=$(echo "${p/:/_}" | tr '[:lower:]' '[:upper:]')
		local want="RC2=0 LEVEL=raid5 DEVICES=3 ARRAYS=1 PVS=1 LVS=vol DM=linear XFS_SWIDTH=32 REPAIR=0 MOUNT=ok FSTAB=1 RC3=0 NOTHING=1"
		local got="RC2=$(vm_kv KP_${k}_RC2) LEVEL=$(vm_kv KP_${k}_LEVEL) DEVICES=$(vm_kv KP_${k}_DEVICES) ARRAYS=$(vm_kv KP_${k}_ARRAYS) PVS=$(vm_kv KP_${k}_PVS) LVS=$(vm_kv KP_${k}_LVS) DM=$(vm_kv KP_${k}_DM) XFS_SWIDTH=$(vm_kv KP_${k}_XFS_SWIDTH) REPAIR=$(vm_kv KP_${k}_REPAIR) MOUNT=$(vm_kv KP_${k}_MOUNT) FSTAB=$(vm_kv KP_${k}_FSTAB) RC3=$(vm_kv KP_${k}_RC3) NOTHING=$(vm_kv KP_${k}_NOTHING)"
		# the kill really happened (storprov died of SIGKILL)
		[ "$(vm_kv KP_${k}_RC1)" = 137 ] || got="$got RC1=$(vm_kv KP_${k}_RC1)"
		if [ "$got" = "$want" ]; then
			echo "# $p: converged" >&3
		else
			echo "# $p: NOT converged: $got" >&3
			fails+=("$p: $got")
		fi
	done
	echo "# kill points tried: $(vm_kv KILL_POINTS_TRIED), converged: $(vm_kv KILL_POINTS_CONVERGED) (VM, md and dm)" >&3
	assert_equal "$(vm_kv KILL_POINTS_TRIED)" "$(wc -w <<<"$points")"
	if [ ${#fails[@]} -gt 0 ]; then
		printf '%s\n' "${fails[@]}"
		# the guest's log of the first failing point
		sed -n "/=== kill point ${fails[0]%%: *} ===/,/=== kill point /p" <<<"$output" | head -n 60
		false
	fi
}
