#!/usr/bin/env bats
# Scenario 6: reboot. What storprov persists must hold on the next boot
# without storprov. Boot 1 applies profiles/reboot.xml (tests/vm/profiles:
# md RAID5 over four virtio disks rd0..rd3, XFS, queue, md and vm.dirty_*
# tuning) with --root on a persistent system root (the disk "rootfs") and
# records the kernel defaults first. Boot 2 uses an image without storprov,
# the same disk images and real systemd-udevd: the 70-storprov udev rules,
# 80-storprov sysctl.d file and mdadm.conf go where a real system keeps them,
# systemd-sysctl runs, udevd starts again and coldplugs; every value must then
# be the profile's and differ from the default.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup_file() {
	load scenarios
	sp_prepare
	export RB_DISKS=$BATS_FILE_TMPDIR/disks
	mkdir -p "$RB_DISKS"
}

setup() {
	load lib
	load scenarios
	RB_PROFILE=$VM_DIR/profiles/reboot.xml
}

# rb_boot SCRIPT [run-vm.sh options]: a boot with the four members and the root
rb_boot() {
	local script=$1 disks
	shift
	mapfile -t disks < <(vm_disks "$RB_DISKS" rd 4 256M)
	vm_run "$VM_DIR/scenarios/$script" \
		--add "$VM_DIR/scenarios:/usr/lib/storprov-tests" \
		--add "$VM_DIR/profiles:/usr/lib/storprov-tests/profiles" \
		"${disks[@]}" --disk "$RB_DISKS/rootfs.img,size=512M,serial=rootfs" "$@"
}

# rb_tune ELEMENT ATTR: a <tune> attribute of the profile
rb_tune() {
	xmllint --xpath "string(/profile/$1/tune/@$2)" "$RB_PROFILE"
}

# rb_sysctl KEY: a <sysctl> value of the profile
rb_sysctl() {
	xmllint --xpath "string(/profile/sysctl[@key='$1']/@value)" "$RB_PROFILE"
}

# rb_same A B: equal strings, or equal numbers (safe_mode_delay reads "2.500")
rb_same() {
	local num='^[0-9]+(\.[0-9]+)?$'
	if [[ $1 =~ $num && $2 =~ $num ]]; then
		awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 == b + 0) }'
	else
		[[ $1 == "$2" ]]
	fi
}

# rb_persisted PREFIX KEY WANT DEFAULT: the boot's PREFIX_KEY (from VM_KV)
# holds WANT, and DEFAULT is not WANT (else the assertion could not fail)
rb_persisted() {
	local got=${VM_KV[${1}_$2]-}
	[[ -n $got ]] || fail "no ${1}_$2 line"
	[[ -n $4 && $4 != "<missing>" ]] || fail "$2: no default value read"
	if rb_same "$4" "$3"; then
		fail "$2: the profile's '$3' is the kernel default '$4', the test cannot fail"
	fi
	rb_same "$got" "$3" || fail "${1}_$2 is '$got'; the profile says '$3' (default '$4')"
}

@test "reboot, boot 1: apply with --root on a persistent system root" {
	run -0 rb_boot reboot-provision.sh
	sp_figures
	printf '%s\n' "$output" >"$BATS_FILE_TMPDIR/boot1.out"
	assert_equal "$(vm_kv APPLY_RC)" 0
	assert_equal "$(vm_kv BOOT1)" complete
	# live values after apply (the files are checked by booting them)
	for n in 0 1 2 3; do
		assert_equal "$(vm_kv APPLIED_RD${n}_SCHEDULER)" "$(rb_tune 'disks[@id="member"]' scheduler)"
		assert_equal "$(vm_kv APPLIED_RD${n}_NR_REQUESTS)" "$(rb_tune 'disks[@id="member"]' nr-requests)"
	done
	assert_equal "$(vm_kv APPLIED_MD_STRIPE_CACHE_SIZE)" "$(rb_tune md stripe-cache-size)"
	# four disk rules, the array's two membership rules (a whole disk, a
	# partition) and one md rule, none of them running a program
	assert_equal "$(vm_kv RULE_LINES)" 7
	assert_equal "$(vm_kv RULES_RUN)" 0
}

@test "reboot, boot 2: udev rules, sysctl.d and mdadm.conf restore the tuning without storprov" {
	[[ -s $BATS_FILE_TMPDIR/boot1.out ]] || skip "boot 1 did not run"
	local n k want
	local -A B1
	vm_kv_load "$(<"$BATS_FILE_TMPDIR/boot1.out")"
	for k in "${!VM_KV[@]}"; do
		B1[$k]=${VM_KV[$k]}
	done
	[[ ${B1[BOOT1]-} == complete ]] || fail "boot 1 failed"
	# the base image, without storprov: it cannot run in this boot
	vm_prepare
	run -0 rb_boot reboot-check.sh --udev
	sp_figures
	vm_kv_load

	assert_equal "${VM_KV[STORPROV_IN_PATH]-}" no
	assert_equal "${VM_KV[STORPROV_FILES]-}" 0
	assert_equal "${VM_KV[REPORT]-}" absent
	assert_equal "${VM_KV[REPORT_AFTER]-}" absent
	assert_equal "${VM_KV[BOOT2]-}" complete
	# the array the rules found is the one boot 1 created
	assert_equal "${VM_KV[UDEV_MD_UUID]-}" "${B1[MD_UUID]-}"
	# udevd wrote the values at coldplug (its log names the rules file and
	# line): 4 attributes on each of 4 disks, 3 on the array; none failed
	assert_equal "${VM_KV[UDEV_ATTR_FILES]-}" 19
	assert_equal "${VM_KV[UDEV_ATTR_FAILURES]-}" 0

	local -A want_disk=(
		[SCHEDULER]=$(rb_tune 'disks[@id="member"]' scheduler)
		[NR_REQUESTS]=$(rb_tune 'disks[@id="member"]' nr-requests)
		[MAX_SECTORS_KB]=$(rb_tune 'disks[@id="member"]' max-sectors-kb)
		[READ_AHEAD_KB]=$(rb_tune 'disks[@id="member"]' read-ahead-kb)
	)
	for n in 0 1 2 3; do
		for k in "${!want_disk[@]}"; do
			want=${want_disk[$k]}
			[[ -n $want ]] || fail "profile: no $k"
			# boot 2 began at the kernel default, the one boot 1 saw
			assert_equal "${VM_KV[COLD_RD${n}_$k]-}" "${B1[DEFAULT_RD${n}_$k]-}"
			rb_persisted PERSISTED "RD${n}_$k" "$want" "${B1[DEFAULT_RD${n}_$k]-}"
			rb_persisted CHANGE "RD${n}_$k" "$want" "${B1[DEFAULT_RD${n}_$k]-}"
		done
	done
	# md: the defaults are those of the array as udev assembled it without the rules
	local -A want_md=(
		[STRIPE_CACHE_SIZE]=$(rb_tune md stripe-cache-size)
		[SAFE_MODE_DELAY]=$(rb_tune md safe-mode-delay)
		[READ_AHEAD_KB]=$(rb_tune md read-ahead-kb)
	)
	[[ ${VM_KV[COLD_MD_DEV]-none} != none ]] || fail "udev did not assemble the array at coldplug"
	for k in "${!want_md[@]}"; do
		[[ -n ${want_md[$k]} ]] || fail "profile: no md $k"
		rb_persisted PERSISTED "MD_$k" "${want_md[$k]}" "${VM_KV[COLD_MD_$k]-}"
		rb_persisted CHANGE "MD_$k" "${want_md[$k]}" "${VM_KV[COLD_MD_$k]-}"
	done
	# sysctl.d, applied by systemd-sysctl
	for k in DIRTY_RATIO DIRTY_BACKGROUND_RATIO; do
		want=$(rb_sysctl "vm.${k,,}")
		[[ -n $want ]] || fail "profile: no vm.${k,,}"
		assert_equal "${VM_KV[COLD_$k]-}" "${B1[DEFAULT_$k]-}"
		rb_persisted PERSISTED "$k" "$want" "${B1[DEFAULT_$k]-}"
		rb_persisted CHANGE "$k" "$want" "${B1[DEFAULT_$k]-}"
	done
	# the fstab entry mounts the filesystem boot 1 wrote
	assert_equal "${VM_KV[DATA_MARKER]-}" "written in boot 1"
}
