#!/usr/bin/env bats
# SELinux labels: on a root with a policy (etc/selinux/config and its
# file_contexts), render and apply label every file they write, and the
# directories they make, as that policy says; read back with getfattr, not
# storprov's word. Without a usable policy, a warning, and .autorelabel only
# with --autorelabel.
load test_helper

P="$TOP/profiles/md-raid6-lvm.xml"
S="$SYSROOT/md-raid6-lvm"

setup() {
	R=$BATS_TEST_TMPDIR/root
	mkdir -p "$R/etc/selinux/targeted/contexts/files"
	printf '# a comment\nSELINUX=enforcing\nSELINUXTYPE=targeted\n' >"$R/etc/selinux/config"
	# a few lines in the form and with the types of EL 9's targeted policy
	cat >"$R/etc/selinux/targeted/contexts/files/file_contexts" <<'FC'
/.*			system_u:object_r:default_t:s0
/etc(/.*)?		system_u:object_r:etc_t:s0
/etc/udev/rules\.d(/.*)?	system_u:object_r:udev_rules_t:s0
/etc/sysctl\.d(/.*)?	system_u:object_r:system_conf_t:s0
/etc/mdadm\.conf	--	system_u:object_r:mdadm_conf_t:s0
/etc/fstab	--	system_u:object_r:etc_t:s0
FC
	echo 'Rocky Linux release 9.4 (Blue Onyx)' >"$R/etc/redhat-release"
	# where this host cannot store security.selinux (not root, a filesystem
	# without it), there is nothing to read back
	touch "$BATS_TEST_TMPDIR/probe"
	setfattr -n security.selinux -v system_u:object_r:etc_t:s0 "$BATS_TEST_TMPDIR/probe" 2>/dev/null ||
		skip "this host cannot set security.selinux in $BATS_TEST_TMPDIR"
}

label() { getfattr --only-values -n security.selinux "$1" 2>/dev/null | tr -d '\0'; }

@test "selinux: render labels each file and the directories it made, from the root's file_contexts" {
	run -0 "$SP" render --profile "$P" --sysroot "$S" --seed 1 --root "$R"
	refute_output --partial selinux-label
	[ "$(label "$R/etc/mdadm.conf")" = system_u:object_r:mdadm_conf_t:s0 ]
	[ "$(label "$R/etc/udev/rules.d/70-storprov.rules")" = system_u:object_r:udev_rules_t:s0 ]
	[ "$(label "$R/etc/udev/rules.d")" = system_u:object_r:udev_rules_t:s0 ]
	[ "$(label "$R/etc/udev")" = system_u:object_r:etc_t:s0 ]
	[ "$(label "$R/etc/fstab")" = system_u:object_r:etc_t:s0 ]
	# a file it did not write keeps no label: nothing else is touched
	[ -z "$(label "$R/etc/redhat-release")" ]
	# a directory that has a label keeps it; a file storprov owns gets its label back
	setfattr -n security.selinux -v system_u:object_r:admin_t:s0 "$R/etc/udev"
	setfattr -n security.selinux -v system_u:object_r:tmp_t:s0 "$R/etc/udev/rules.d/70-storprov.rules"
	run -0 "$SP" render --profile "$P" --sysroot "$S" --seed 1 --root "$R"
	[ "$(label "$R/etc/udev")" = system_u:object_r:admin_t:s0 ]
	[ "$(label "$R/etc/udev/rules.d/70-storprov.rules")" = system_u:object_r:udev_rules_t:s0 ]
	[ ! -e "$R/.autorelabel" ]
}

@test "selinux: sysctl.d through apply, with fake executables" {
	export STORPROV_DEVROOT="$BATS_TEST_TMPDIR/devroot" FAKE_LOG="$BATS_TEST_TMPDIR/log" FAKE_STATE="$BATS_TEST_TMPDIR/st"
	export PATH="$FIX/fakebin:$PATH"
	fake_world grid-3ware "$BATS_TEST_TMPDIR/w"
	run -0 "$SP" apply --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$BATS_TEST_TMPDIR/w" --root "$R" \
		--seed 1 --yes --jobs 1 --lock-file "$BATS_TEST_TMPDIR/lock"
	[ "$(label "$R/etc/sysctl.d/80-storprov.conf")" = system_u:object_r:system_conf_t:s0 ]
	[ "$(label "$R/etc/sysctl.d")" = system_u:object_r:system_conf_t:s0 ]
	[ "$(label "$R/etc/udev/rules.d/70-storprov.rules")" = system_u:object_r:udev_rules_t:s0 ]
}

@test "selinux: no policy files: a warning that says what to do; .autorelabel only with --autorelabel" {
	rm -rf "$R/etc/selinux/targeted"
	run -0 "$SP" render --profile "$P" --sysroot "$S" --seed 1 --root "$R"
	assert_output --partial "SELinux labels could not be set on 3 files"
	assert_output --partial "has no $R/etc/selinux/targeted/contexts/files/file_contexts"
	assert_output --partial "pass --autorelabel"
	[ ! -e "$R/.autorelabel" ]
	[ -z "$(label "$R/etc/mdadm.conf")" ]
	run -0 "$SP" render --profile "$P" --sysroot "$S" --seed 1 --root "$R" --autorelabel
	assert_output --partial "wrote .autorelabel"
	assert_file_exists "$R/.autorelabel"
}

@test "selinux: SELINUX=disabled, or no selinux/config: no label, no warning" {
	sed -i 's/^SELINUX=enforcing/SELINUX=disabled/' "$R/etc/selinux/config"
	run -0 "$SP" render --profile "$P" --sysroot "$S" --seed 1 --root "$R" --autorelabel
	refute_output --partial selinux
	[ -z "$(label "$R/etc/mdadm.conf")" ]
	[ ! -e "$R/.autorelabel" ]
	rm -rf "$R/etc/selinux"
	run -0 "$SP" render --profile "$P" --sysroot "$S" --seed 1 --root "$BATS_TEST_TMPDIR/plain"
	refute_output --partial selinux
}
