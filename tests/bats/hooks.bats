#!/usr/bin/env bats
# The dracut module and the kickstart snippets: shellcheck-clean shell, the
# sections kickstart needs, and the %include contract between %pre and the
# command section.
load test_helper

# ks_sections FILE: writes every %pre/%post body to $BATS_TEST_TMPDIR/sec-N.sh
ks_sections() {
	awk -v dir="$BATS_TEST_TMPDIR" -v base="$(basename "$1")" '
		/^%(pre|post)/ { n++; f = dir "/" base "-" n ".sh"; print "#!/bin/bash" > f; inside = 1; next }
		/^%end/ { inside = 0; close(f); next }
		inside { print > f }' "$1"
}

@test "kickstart: every %pre/%post body is shellcheck-clean" {
	for ks in "$TOP"/kickstart/*.ks; do
		ks_sections "$ks"
	done
	n=$(ls "$BATS_TEST_TMPDIR"/*.sh | wc -l)
	[ "$n" -ge 4 ]
	run shellcheck -s bash "$BATS_TEST_TMPDIR"/*.sh
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "kickstart: sections are closed and the example includes the %pre output" {
	for ks in "$TOP"/kickstart/*.ks; do
		opens=$(grep -cE '^%(pre|post|packages)' "$ks")
		ends=$(grep -cE '^%end' "$ks")
		[ "$opens" = "$ends" ]
	done
	grep -q '^%include /tmp/storprov-include.ks' "$TOP/kickstart/storage-node.ks"
	grep -q '/tmp/storprov-include.ks' "$TOP/kickstart/storprov-pre.ks"
	grep -q '^%post --nochroot' "$TOP/kickstart/storprov-post.ks"
	grep -q 'dracut --force' "$TOP/kickstart/storprov-post.ks"
}

@test "kickstart %pre: the include it writes ignores exactly the profile's disks" {
	# run the %pre body against the fake world: storprov apply on fixture devices
	ks_sections "$TOP/kickstart/storprov-pre.ks"
	export STORPROV_DEVROOT="$BATS_TEST_TMPDIR/devroot" FAKE_LOG="$BATS_TEST_TMPDIR/log" FAKE_STATE="$BATS_TEST_TMPDIR/st"
	cp -rL "$SYSROOT/grid-3ware" "$BATS_TEST_TMPDIR/w"
	mkdir -p "$STORPROV_DEVROOT/dev"
	for d in "$BATS_TEST_TMPDIR"/w/sys/block/*; do
		truncate -s $(($(cat "$d/size") * 512)) "$STORPROV_DEVROOT/dev/$(basename "$d")"
	done
	# a storprov wrapper that reads the captured sysfs, as the installer would read its own
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\nexec %s "$@" --sysroot %s --seed 1\n' "$SP" "$BATS_TEST_TMPDIR/w" >"$BATS_TEST_TMPDIR/bin/storprov"
	chmod +x "$BATS_TEST_TMPDIR/bin/storprov"
	sed -i 's|/dev/console|/dev/stderr|; s|/tmp/|'"$BATS_TEST_TMPDIR"'/|g' "$BATS_TEST_TMPDIR/storprov-pre.ks-1.sh"
	PATH="$BATS_TEST_TMPDIR/bin:$FIX/fakebin:$PATH" STORPROV_PROFILE="$TOP/profiles/grid-3ware-raid5.xml" \
		run -0 bash "$BATS_TEST_TMPDIR/storprov-pre.ks-1.sh"
	run -0 cat "$BATS_TEST_TMPDIR/storprov-include.ks"
	assert_line "ignoredisk --drives=sdb,sdc"
}

@test "dracut module: shellcheck-clean, sourced hooks return and never exit" {
	d="$TOP/hooks/dracut/90storprov"
	run shellcheck -s bash "$d/module-setup.sh"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run shellcheck -s sh "$d/storprov-lib.sh" "$d/storprov-provision.sh" "$d/storprov-persist.sh"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run grep -nE '^[[:space:]]*exit\b|[;&|][[:space:]]*exit\b' "$d/storprov-lib.sh" "$d/storprov-provision.sh" "$d/storprov-persist.sh"
	assert_output ""
	grep -q 'inst_hook pre-mount' "$d/module-setup.sh"
	grep -q 'inst_hook pre-pivot' "$d/module-setup.sh"
}

@test "kickstart %pre: a profile directory goes through storprov select" {
	ks_sections "$TOP/kickstart/storprov-pre.ks"
	export STORPROV_DEVROOT="$BATS_TEST_TMPDIR/devroot" FAKE_LOG="$BATS_TEST_TMPDIR/log" FAKE_STATE="$BATS_TEST_TMPDIR/st"
	cp -rL "$SYSROOT/md-raid6-8" "$BATS_TEST_TMPDIR/w"
	mkdir -p "$STORPROV_DEVROOT/dev"
	for d in "$BATS_TEST_TMPDIR"/w/sys/block/*; do
		truncate -s $(($(cat "$d/size") * 512)) "$STORPROV_DEVROOT/dev/$(basename "$d")"
	done
	# the installer reads its own sysfs; here the captured one (--seed for apply only)
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\nv=$1; shift\n[ "$v" = apply ] && set -- "$@" --seed 1\nexec %s "$v" "$@" --sysroot %s\n' \
		"$SP" "$BATS_TEST_TMPDIR/w" >"$BATS_TEST_TMPDIR/bin/storprov"
	chmod +x "$BATS_TEST_TMPDIR/bin/storprov"
	sed -i 's|/dev/console|/dev/stderr|; s|/tmp/|'"$BATS_TEST_TMPDIR"'/|g' "$BATS_TEST_TMPDIR/storprov-pre.ks-1.sh"
	PATH="$BATS_TEST_TMPDIR/bin:$FIX/fakebin:$PATH" STORPROV_PROFILE="$FIX/fleet" \
		run -0 bash "$BATS_TEST_TMPDIR/storprov-pre.ks-1.sh"
	assert_output --partial "provisioning the data arrays from $FIX/fleet/md-raid6-8.xml"
	run -0 cat "$BATS_TEST_TMPDIR/storprov-include.ks"
	assert_line "ignoredisk --drives=sdb,sdc,sdd,sde,sdf,sdg,sdh,sdi"
	# a node no profile fits stops the install
	rm -rf "$BATS_TEST_TMPDIR/w/sys/block/sdi"
	PATH="$BATS_TEST_TMPDIR/bin:$FIX/fakebin:$PATH" STORPROV_PROFILE="$FIX/fleet" \
		run -1 bash "$BATS_TEST_TMPDIR/storprov-pre.ks-1.sh"
	assert_output --partial "disks d (line 9): expected 8 disks, found 7 (1 missing)"
	assert_output --partial "no single profile in $FIX/fleet fits this node"
}
