#!/usr/bin/env bats
# Golden files: plan text and JSON, and every rendered file, for each shipped
# profile on its fixture. UPDATE_GOLDEN=1 make check rewrites them.
load test_helper

# profile name = fixture name
profiles() {
	for p in "$TOP"/profiles/*.xml; do
		n=$(basename "$p" .xml)
		[ -d "$SYSROOT/$n" ] && echo "$n"
	done
}

@test "every shipped profile has a fixture and plans" {
	for p in "$TOP"/profiles/*.xml; do
		n=$(basename "$p" .xml)
		assert_dir_exists "$SYSROOT/$n"
		run -0 "$SP" plan --profile "profiles/$n.xml" --sysroot "$SYSROOT/$n" --seed 1
	done
}

@test "golden: plan text and JSON" {
	cd "$TOP"
	version=$(scripts/version.sh)
	[ "$("$SP" --version)" = "storprov $version" ]
	for n in $(profiles); do
		"$SP" plan --profile "profiles/$n.xml" --sysroot "tests/fixtures/sysroot/$n" --seed 1 >"$BATS_TEST_TMPDIR/$n.txt"
		golden "$n/plan.txt" "$BATS_TEST_TMPDIR/$n.txt"
		# the version changes with every release: the golden file holds @VERSION@
		"$SP" plan --profile "profiles/$n.xml" --sysroot "tests/fixtures/sysroot/$n" --seed 1 --format json |
			sed "s/\"storprov_version\": \"$version\"/\"storprov_version\": \"@VERSION@\"/" >"$BATS_TEST_TMPDIR/$n.json"
		golden "$n/plan.json" "$BATS_TEST_TMPDIR/$n.json"
	done
}

@test "golden: rendered fstab, udev rules, sysctl.d, mdadm.conf and multipath conf.d" {
	cd "$TOP"
	for n in $(profiles); do
		root="$BATS_TEST_TMPDIR/root-$n"
		run -0 "$SP" render --profile "profiles/$n.xml" --sysroot "tests/fixtures/sysroot/$n" --seed 1 --root "$root"
		for f in etc/fstab etc/udev/rules.d/70-storprov.rules etc/sysctl.d/80-storprov.conf etc/mdadm/mdadm.conf \
			etc/multipath/conf.d/storprov.conf etc/multipath/wwids; do
			if [ -f "$root/$f" ]; then
				golden "$n/$(basename "$f")" "$root/$f"
			else
				[ ! -f "$EXPECTED/$n/$(basename "$f")" ] || { echo "$f no longer rendered for $n"; false; }
			fi
		done
	done
}

@test "render merges fstab and mdadm.conf, owns the rules and sysctl files" {
	root="$BATS_TEST_TMPDIR/root"
	mkdir -p "$root/etc"
	printf 'UUID=1111 / ext4 errors=remount-ro 0 1\n/dev/sdb1 /storage/data1 xfs defaults 0 0\n' >"$root/etc/fstab"
	run -0 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 --root "$root"
	assert_output --partial "wrote $root/etc/fstab"
	assert_output --partial "conflicts with what the profile manages"
	run -0 cat "$root/etc/fstab"
	assert_line "UUID=1111 / ext4 errors=remount-ro 0 1"
	assert_line "# storprov: replaced by the managed block: /dev/sdb1 /storage/data1 xfs defaults 0 0"
	first=$(cat "$root/etc/fstab")
	# idempotent: rendering again changes nothing
	run -0 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 --root "$root"
	[ "$first" = "$(cat "$root/etc/fstab")" ]
	# findmnt agrees the managed lines parse
	run -0 findmnt --tab-file "$root/etc/fstab" --noheadings -o TARGET,OPTIONS /storage/data2
	assert_output --partial "logbufs=8,logbsize=256k,swalloc"
	# no temp files left behind
	run -0 find "$root" -name '*.storprov-*'
	assert_output ""
}

@test "mkfs.xfs -N accepts every shipped profile's mkfs arguments" {
	img="$BATS_TEST_TMPDIR/img"
	truncate -s 2G "$img"
	for p in "$TOP"/profiles/*.xml; do
		n=$(basename "$p" .xml)
		[ -d "$SYSROOT/$n" ] || continue
		"$SP" plan --profile "$p" --sysroot "$SYSROOT/$n" --seed 1 --format json >"$BATS_TEST_TMPDIR/p.json"
		count=$(jq '[.steps[] | select(.kind=="mkfs")] | length' "$BATS_TEST_TMPDIR/p.json")
		[ "$count" -gt 0 ]
		for i in $(seq 0 $((count - 1))); do
			mapfile -t argv < <(jq -r "[.steps[] | select(.kind==\"mkfs\")][$i].argv[]" "$BATS_TEST_TMPDIR/p.json")
			unset 'argv[${#argv[@]}-1]' # the device
			run "${argv[0]}" -N -f "${argv[@]:1}" "$img"
			if [ "$status" -ne 0 ]; then
				echo "$n: ${argv[*]}: $output"
				false
			fi
			# what mkfs would make matches the plan's expectation
			su=$(jq -r "[.steps[] | select(.kind==\"mkfs\")][$i].argv | map(select(startswith(\"su=\"))) | .[0] // \"\"" "$BATS_TEST_TMPDIR/p.json")
			if [ -n "$su" ]; then
				sunit=$(grep -o 'sunit=[0-9]*' <<<"$output" | head -1)
				[ "$sunit" != "sunit=0" ]
			fi
		done
	done
}
