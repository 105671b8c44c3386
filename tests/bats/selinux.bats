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
	assert_output --partial "SELinux labels could not be set on 4 files"
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

# The root's policy is read by storprov's own confined reader and handed to
# libselinux as a private copy: libselinux opens nothing under the root.
FCD='etc/selinux/targeted/contexts/files'

@test "selinux: a policy side file that is a symbolic link out of the root is never followed" {
	printf '/etc/fstab\t--\tsystem_u:object_r:OUTSIDE_ROOT_t:s0\n' >"$BATS_TEST_TMPDIR/outside"
	# the private copy goes under $TMPDIR and is gone when storprov is
	export TMPDIR="$BATS_TEST_TMPDIR/tmp"
	mkdir "$TMPDIR"
	for side in local homedirs subs subs_dist; do
		rm -f "$R/$FCD"/file_contexts.*
		ln -s "$BATS_TEST_TMPDIR/outside" "$R/$FCD/file_contexts.$side"
		run -0 "$SP" render --profile "$P" --sysroot "$S" --seed 1 --root "$R"
		[ -z "$(label "$R/etc/fstab")" ]
		refute_output --partial OUTSIDE_ROOT
		assert_output --partial "$R/$FCD/file_contexts.$side is a symbolic link"
		assert_output --partial "SELinux labels could not be set"
	done
	# the compiled form is not read at all: the text is the policy
	rm -f "$R/$FCD"/file_contexts.*
	ln -s "$BATS_TEST_TMPDIR/outside" "$R/$FCD/file_contexts.local.bin"
	run -0 "$SP" render --profile "$P" --sysroot "$S" --seed 1 --root "$R"
	refute_output --partial selinux-label
	[ "$(label "$R/etc/fstab")" = system_u:object_r:etc_t:s0 ]
	[ -z "$(ls -A "$TMPDIR")" ]
}

@test "selinux: a FIFO among the policy files does not block render; the warning names it" {
	cp "$R/$FCD/file_contexts" "$BATS_TEST_TMPDIR/fc"
	for f in file_contexts.subs file_contexts.subs_dist file_contexts.homedirs file_contexts.local file_contexts; do
		rm -f "$R/$FCD/$f"
		mkfifo "$R/$FCD/$f"
		run -0 timeout 20 "$SP" render --profile "$P" --sysroot "$S" --seed 1 --root "$R"
		assert_output --partial "$R/$FCD/$f is not a regular file"
		assert_output --partial "SELinux labels could not be set on 4 files"
		[ -z "$(label "$R/etc/mdadm.conf")" ]
		rm -f "$R/$FCD/$f"
	done
	cp "$BATS_TEST_TMPDIR/fc" "$R/$FCD/file_contexts"
	# a device (here /dev/null's numbers, which libselinux read as an empty .local) is no policy file either
	if mknod "$R/$FCD/file_contexts.local" c 1 3 2>/dev/null; then
		run -0 timeout 20 "$SP" render --profile "$P" --sysroot "$S" --seed 1 --root "$R"
		assert_output --partial "$R/$FCD/file_contexts.local is not a regular file"
		rm -f "$R/$FCD/file_contexts.local"
	fi
	# a FIFO as the compiled form, newer than the text, is never opened
	mkfifo "$R/$FCD/file_contexts.bin"
	run -0 timeout 20 "$SP" render --profile "$P" --sysroot "$S" --seed 1 --root "$R"
	refute_output --partial selinux-label
	[ "$(label "$R/etc/mdadm.conf")" = system_u:object_r:mdadm_conf_t:s0 ]
}

@test "selinux: a FIFO among the policy files does not block apply after its disk steps" {
	# apply reaches the labels after the disk steps, its lock held: no wait there either
	mkfifo "$R/$FCD/file_contexts.subs"
	export STORPROV_DEVROOT="$BATS_TEST_TMPDIR/devroot" FAKE_LOG="$BATS_TEST_TMPDIR/log" FAKE_STATE="$BATS_TEST_TMPDIR/st"
	export PATH="$FIX/fakebin:$PATH"
	fake_world grid-3ware "$BATS_TEST_TMPDIR/w"
	run -0 timeout 20 "$SP" apply --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$BATS_TEST_TMPDIR/w" \
		--root "$R" --seed 1 --yes --jobs 1 --lock-file "$BATS_TEST_TMPDIR/lock"
	assert_output --partial "$R/$FCD/file_contexts.subs is not a regular file"
	[ -z "$(label "$R/etc/sysctl.d/80-storprov.conf")" ]
}

@test "selinux: a context with control bytes, or that is no user:role:type[:level], is not set; the warning escapes it" {
	printf '/etc/fstab\t--\tsystem_u:object_r:etc_t:s0\033]0;owned\007\n' >"$R/$FCD/file_contexts.local"
	run -0 "$SP" render --profile "$P" --sysroot "$S" --seed 1 --root "$R"
	assert_output --partial 'SELinux labels could not be set on 1 file ('
	assert_output --partial '/etc/fstab: the root'"'"'s policy gives "system_u:object_r:etc_t:s0\x1b]0;owned\x07"'
	[ -z "$(label "$R/etc/fstab")" ]
	# the others are labeled, and nothing raw reaches the terminal
	[ "$(label "$R/etc/mdadm.conf")" = system_u:object_r:mdadm_conf_t:s0 ]
	[ -z "$(printf '%s' "$output" | LC_ALL=C tr -d '\n[:print:]')" ]
	for con in 'etc_t' 'system_u:object_r' 'system_u::etc_t:s0' 'system_u:object_r:etc_t:' 'system_u:object_r:etc_t:s0\177'; do
		printf '/etc/fstab\t--\t%b\n' "$con" >"$R/$FCD/file_contexts.local"
		run -0 "$SP" render --profile "$P" --sysroot "$S" --seed 1 --root "$R"
		assert_output --partial 'SELinux labels could not be set on 1 file ('
		assert_output --partial 'not a plausible user:role:type[:level]'
		[ -z "$(label "$R/etc/fstab")" ]
	done
	# what libselinux says of a line it cannot read is kept, escaped, and names the root's file
	printf '/etc/fstab\t-\033[31m\tsystem_u:object_r:etc_t:s0\n' >"$R/$FCD/file_contexts.local"
	run -0 "$SP" render --profile "$P" --sysroot "$S" --seed 1 --root "$R"
	assert_output --partial "(libselinux: $R/$FCD/file_contexts.local: "
	assert_output --partial '-\x1b[31m'
	[ -z "$(printf '%s' "$output" | LC_ALL=C tr -d '\n[:print:]')" ]
	# a level with categories is a context like any other
	printf '/etc/fstab\t--\tsystem_u:object_r:etc_t:s0-s0:c0.c1023\n' >"$R/$FCD/file_contexts.local"
	run -0 "$SP" render --profile "$P" --sysroot "$S" --seed 1 --root "$R"
	refute_output --partial selinux-label
	[ "$(label "$R/etc/fstab")" = system_u:object_r:etc_t:s0-s0:c0.c1023 ]
}
