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
