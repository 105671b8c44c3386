#!/usr/bin/env bats
# Scenario 65 (issue 44 item 6): drive replacement keeps the layout's tuning.
# profiles/replace.xml (tests/vm/profiles): an md RAID5 of four whole virtio
# disks rd0..rd3 and an md RAID1 of partitions of pd0/pd1, each group tuned
# (scheduler, nr_requests, max_sectors_kb, read_ahead_kb). Boot 1 applies it
# with --root on a persistent system root, installs the udev rules it wrote
# for the running udevd, then replaces a member of each array by a drive the
# profile does not name (a SCSI disk with another identity, a WWN): nd0 whole
# into the RAID5, a partition of nd1 into the RAID1 (fail, remove, wipe,
# mdadm --add). The new drives must carry their array's member tuning at once
# (the change event mdadm's superblock write brings), and storprov verify must
# count them as the arrays' members and check their tuning. Boot 2 is the
# reboot: the same disk images, the files installed, udevd coldplugging with
# them; the new drives' values must be the profile's before storprov runs,
# written by the membership rules (udevd's log names the lines), and verify
# clean.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup_file() {
	load scenarios
	sp_prepare
	export RM_DISKS=$BATS_FILE_TMPDIR/disks
	mkdir -p "$RM_DISKS"
}

setup() {
	load lib
	load scenarios
	RM_PROFILE=$VM_DIR/profiles/replace.xml
}

# rm_boot SCRIPT [run-vm.sh options]: a boot with every disk of the scenario
# (the planned ones virtio, the new drives SCSI with a WWN each) and the root
rm_boot() {
	local script=$1 d args=()
	shift
	mapfile -t args < <(vm_disks "$RM_DISKS" rd 4 256M; vm_disks "$RM_DISKS" pd 2 256M)
	for d in nd0:cc000001 nd1:cc000002; do
		args+=(--disk "$RM_DISKS/${d%%:*}.img,size=256M,serial=${d%%:*},bus=scsi,wwn=0x5000c500${d#*:}")
	done
	vm_run "$VM_DIR/scenarios/$script" --timeout 900 \
		--add "$VM_DIR/scenarios:/usr/lib/storprov-tests" \
		--add "$VM_DIR/profiles:/usr/lib/storprov-tests/profiles" \
		"${args[@]}" --disk "$RM_DISKS/rootfs.img,size=512M,serial=rootfs" "$@"
}

# rm_tune GROUP ATTR: a <tune> attribute of a <disks> group of the profile
rm_tune() {
	xmllint --xpath "string(/profile/disks[@id='$1']/tune/@$2)" "$RM_PROFILE"
}

# rm_blkid UUID: mdadm's "8:8:8:8" as blkid spells a member's ID_FS_UUID
rm_blkid() {
	local h=${1//:/}
	printf '%s-%s-%s-%s-%s\n' "${h:0:8}" "${h:8:4}" "${h:12:4}" "${h:16:4}" "${h:20:12}"
}

# rm_tuned PREFIX N GROUP [DEFAULTS_PREFIX]: PREFIX_NEW<N>_* hold GROUP's
# values; with DEFAULTS_PREFIX, each differs from DEFAULTS_PREFIX_NEW<N>_*
rm_tuned() {
	local k want got def
	for k in SCHEDULER NR_REQUESTS MAX_SECTORS_KB READ_AHEAD_KB; do
		want=$(rm_tune "$3" "$(tr 'A-Z_' 'a-z-' <<<"$k")")
		[[ -n $want ]] || fail "profile: no $k in $3"
		got=${VM_KV[${1}_NEW${2}_$k]-}
		if [[ -n ${4-} ]]; then
			def=${VM_KV[${4}_NEW${2}_$k]-}
			[[ -n $def && $def != "$want" ]] || fail "${4}_NEW${2}_$k '$def': the test could not fail"
		fi
		[[ $got == "$want" ]] || fail "${1}_NEW${2}_$k is '$got'; the profile's $3 value is '$want'"
	done
}

# rm_verify JSON_KEY: verify's JSON counts each new drive as its array's and checks its tuning
rm_verify() {
	local j=${VM_KV[$1]-} new0=${VM_KV[NEW0_DEV]} new1=${VM_KV[NEW1_DEV]}
	[[ -n $j ]] || fail "no $1"
	# the members check of each array: ok, naming the drive that joined
	run -0 jq -r '.checks[] | select(.check == "members (md/dev-*)") | "\(.object) \(.status) \(.found)"' <<<"$j"
	assert_line --regexp "^data ok .*\\b$new0\\b.* \\($new0 joined it, not in the plan: counted as the array's\\)$"
	assert_line --regexp "^mirror ok .*\\b${new1}1\\b.* \\(${new1}1 joined it, not in the plan: counted as the array's\\)$"
	# four tuning checks on each, all ok
	run -0 jq -r --arg a "$new0 (joined" --arg b "${new1}1 (joined" \
		'.checks[] | select((.check | startswith($a)) or (.check | startswith($b))) | "\(.object) \(.status) \(.check)"' <<<"$j"
	[ "${#lines[@]}" -eq 8 ] || fail "expected 8 tuning checks of the joined drives: $output"
	refute_output --regexp ' (drift|missing|not-checked) '
	assert_line "data ok $new0 (joined, not in the plan) queue/scheduler"
	assert_line "mirror ok ${new1}1 (joined, not in the plan): its disk $new1 queue/read_ahead_kb"
	run -0 jq -r '.summary | "\(.drift) \(.missing)"' <<<"$j"
	assert_output "0 0"
}

@test "replace-member, boot 1: a drive that replaces a member gets the members' tuning at once" {
	run -0 rm_boot replace-provision.sh
	sp_figures
	printf '%s\n' "$output" >"$BATS_FILE_TMPDIR/boot1.out"
	vm_kv_load
	assert_equal "${VM_KV[APPLY_RC]-}" 0
	assert_equal "${VM_KV[BOOT1]-}" complete
	assert_equal "${VM_KV[RULES_RUN]-}" 0
	# the new drives are named nowhere in the rules: other identities, a WWN each
	[[ ${VM_KV[NEW0_WWN]-} == 0x5000c500cc000001 && ${VM_KV[NEW1_WWN]-} == 0x5000c500cc000002 ]]
	assert_equal "${VM_KV[NEW_WWN_IN_RULES]-}" 0
	# blank until mdadm --add: no md superblock, no ID_FS_TYPE, the kernel's values
	assert_equal "${VM_KV[NEW0_FS_TYPE_BEFORE]-x}" ""
	assert_equal "${VM_KV[NEW1P_FS_TYPE_BEFORE]-x}" ""
	local k
	for k in SCHEDULER NR_REQUESTS MAX_SECTORS_KB READ_AHEAD_KB; do
		assert_equal "${VM_KV[BEFORE_NEW0_$k]-}" "${VM_KV[DEFAULT_NEW0_$k]-}"
		assert_equal "${VM_KV[BEFORE_NEW1_$k]-}" "${VM_KV[DEFAULT_NEW1_$k]-}"
	done
	# the superblock write brought a change event with the membership, keyed by the array's UUID
	# (or, where udev's probe ran before the kernel wrote it, the one change event storprov(8)
	# tells the admin to trigger: said in the log, never silently)
	local t
	for t in NEW0 NEW1P; do
		[ "${VM_KV[${t}_TRIGGERED]-x}" != 1 ] ||
			echo "# $t: no change event after mdadm --add said the membership; udevadm trigger --action=change did" >&3
		[[ ${VM_KV[${t}_TRIGGERED]-x} == [01] ]] || fail "$t: the scenario did not say whether it triggered"
	done
	[ "${VM_KV[NEW0_CHANGE_EVENTS]-0}" -ge 1 ] || fail "no change event of nd0 with linux_raid_member"
	[ "${VM_KV[NEW1P_CHANGE_EVENTS]-0}" -ge 1 ] || fail "no change event of nd1's partition with linux_raid_member"
	assert_equal "${VM_KV[NEW0_FS_TYPE]-}" linux_raid_member
	assert_equal "${VM_KV[NEW0_FS_UUID]-}" "$(rm_blkid "${VM_KV[MD_DATA_UUID]-}")"
	assert_equal "${VM_KV[NEW1P_FS_TYPE]-}" linux_raid_member
	assert_equal "${VM_KV[NEW1P_FS_UUID]-}" "$(rm_blkid "${VM_KV[MD_MIRROR_UUID]-}")"
	# at once: the whole disk, and the disk of the partition
	rm_tuned ONCE 0 member DEFAULT
	rm_tuned ONCE 1 pmember DEFAULT
	# verify: each new drive is its array's, its tuning checked, nothing drifts
	assert_equal "${VM_KV[VERIFY1_RC]-}" 0
	rm_verify VERIFY1_JSON
}

@test "replace-member, boot 2: after a reboot the membership rules tune the new drives, no storprov run" {
	[[ -s $BATS_FILE_TMPDIR/boot1.out ]] || skip "boot 1 did not run"
	local -A B1
	local k
	vm_kv_load "$(<"$BATS_FILE_TMPDIR/boot1.out")"
	for k in "${!VM_KV[@]}"; do
		B1[$k]=${VM_KV[$k]}
	done
	[[ ${B1[BOOT1]-} == complete ]] || fail "boot 1 failed"
	run -0 rm_boot replace-check.sh --udev
	sp_figures
	vm_kv_load
	assert_equal "${VM_KV[BOOT2]-}" complete
	# the arrays as udev assembled them hold the new drives
	assert_regex "${VM_KV[MD_DATA_MEMBERS]-}" "\\b${VM_KV[NEW0_DEV]}\\b"
	assert_regex "${VM_KV[MD_MIRROR_MEMBERS]-}" "\\b${VM_KV[NEW1_DEV]}1\\b"
	# boot 2 began at the kernel's values (no rules yet), the rules brought the profile's
	for k in SCHEDULER NR_REQUESTS MAX_SECTORS_KB READ_AHEAD_KB; do
		assert_equal "${VM_KV[COLD_NEW0_$k]-}" "${B1[DEFAULT_NEW0_$k]-}"
		assert_equal "${VM_KV[COLD_NEW1_$k]-}" "${B1[DEFAULT_NEW1_$k]-}"
	done
	rm_tuned PERSISTED 0 member
	rm_tuned PERSISTED 1 pmember
	rm_tuned CHANGE 0 member
	rm_tuned CHANGE 1 pmember
	assert_equal "${VM_KV[NEW0_FS_UUID]-}" "$(rm_blkid "${B1[MD_DATA_UUID]-}")"
	assert_equal "${VM_KV[NEW1P_FS_UUID]-}" "$(rm_blkid "${B1[MD_MIRROR_UUID]-}")"
	# udevd wrote them by the membership rules (by line number), nothing failed
	local rule_lines=" ${VM_KV[MEMBER_RULE_LINES]-} " n
	[[ -n ${VM_KV[UDEV_NEW0_LINES]-} && -n ${VM_KV[UDEV_NEW1_LINES]-} ]] || fail "udevd logged no ATTR write for the new drives"
	for n in ${VM_KV[UDEV_NEW0_LINES]} ${VM_KV[UDEV_NEW1_LINES]}; do
		[[ $rule_lines == *" $n "* ]] || fail "line $n of the rules (not a membership rule: $rule_lines) wrote a new drive"
	done
	assert_equal "${VM_KV[UDEV_ATTR_FAILURES]-}" 0
	# then storprov verify: clean, the new drives counted and checked
	assert_equal "${VM_KV[VERIFY2_RC]-}" 0
	rm_verify VERIFY2_JSON
}
