#!/usr/bin/env bats
# The command-line contract: verbs, options, exit codes, JSON shapes.
load test_helper

@test "geometry: seed 000 figures as JSON" {
	run -0 "$SP" geometry --level 5 --members 12 --chunk 64K --format json
	[ "$(jq .su_bytes <<<"$output")" = 65536 ]
	[ "$(jq .sw <<<"$output")" = 11 ]
	[ "$(jq .full_stripe_bytes <<<"$output")" = 720896 ]
	[ "$(jq .partition_align_bytes <<<"$output")" = 11534336 ]
	[ "$(jq -c .mkfs_args <<<"$output")" = '["-d","su=64k,sw=11","-l","version=2,su=4k"]' ]
	[ "$(jq .xfs_sunit_blocks <<<"$output")" = 16 ]
	[ "$(jq .xfs_swidth_blocks <<<"$output")" = 176 ]
}

@test "geometry: text output names every unit" {
	run -0 "$SP" geometry --level 6 --members 8 --chunk 128k
	assert_line --partial "su 128k, sw 6, full stripe 768k"
	assert_line --partial "sunit=32 swidth=192 blks (4 KiB blocks); mkfs sunit=256 swidth=1536 (512-byte sectors)"
	assert_line --partial "partition alignment: 3m"
	assert_line --partial "mdadm --chunk=128 (KiB)"
}

@test "geometry: RAID50/60 with legs" {
	run -0 "$SP" geometry --level 60 --members 24 --legs 3 --chunk 128K --format json
	[ "$(jq .sw <<<"$output")" = 18 ]
	[ "$(jq .full_stripe_bytes <<<"$output")" = 2359296 ]
}

@test "geometry: RAID1 has no su/sw and refuses a chunk" {
	run -0 "$SP" geometry --level 1 --members 2 --format json
	[ "$(jq .su_bytes <<<"$output")" = 0 ]
	[ "$(jq -c .mkfs_args <<<"$output")" = '[]' ]
	run -2 "$SP" geometry --level 1 --members 2 --chunk 64K
	assert_output --partial "raid1 has no chunk"
}

@test "geometry: bad input exits 2 with a reason" {
	run -2 "$SP" geometry --level 7 --members 4 --chunk 64K
	assert_output --partial "--level takes"
	run -2 "$SP" geometry --level 5 --members 2 --chunk 64K
	assert_output --partial "at least 3 members"
	run -2 "$SP" geometry --level 5 --members 4 --chunk 6k
	assert_output --partial "multiple of 4 KiB"
	run -2 "$SP" geometry --level 5 --members 4
	assert_output --partial "--chunk is required"
	run -2 "$SP" geometry --level 5 --members 4 --chunk 64K --format yaml
	run -2 "$SP" geometry --members 4
}

@test "geometry: raid10 --layout n/f/o gives the kernel's data legs; no silent near-2" {
	# raid10_nr_stripes: near-K over a multiple of K members has members/K
	# stripes, far and offset layouts one per member
	run -0 "$SP" geometry --level 10 --members 6 --chunk 64K --format json
	[ "$(jq -r .layout <<<"$output")" = n2 ]
	[ "$(jq .sw <<<"$output")" = 3 ]
	run -0 "$SP" geometry --level 10 --members 6 --chunk 64K --layout f2 --format json
	[ "$(jq -r .layout <<<"$output")" = f2 ]
	[ "$(jq .sw <<<"$output")" = 6 ]
	run -0 "$SP" geometry --level 10 --members 6 --chunk 64K --layout o2
	assert_line --partial "raid10, 6 members, chunk 64k, layout o2"
	assert_line --partial "su 64k, sw 6, full stripe 384k"
	run -0 "$SP" geometry --level 10 --members 6 --chunk 64K --layout n3 --format json
	[ "$(jq .sw <<<"$output")" = 2 ]
	run -0 "$SP" geometry --level 10 --members 6 --chunk 64K
	assert_line --partial "layout n2"
	run -2 "$SP" geometry --level 10 --members 2 --chunk 64K --layout f3
	assert_output --partial "at least 3 members"
	run -2 "$SP" geometry --level 10 --members 4 --chunk 64K --layout x2
	assert_output --partial "--layout takes n2..n9, f2..f9 or o2..o9, not 'x2'"
	run -2 "$SP" geometry --level 5 --members 4 --chunk 64K --layout f2
	assert_output --partial "--layout applies to raid10 only"
	run -0 "$SP" geometry --level 6 --members 8 --chunk 64K --format json
	[ "$(jq 'has("layout")' <<<"$output")" = false ]
}

@test "geometry: md raid0 takes any multiple of 4 KiB; raid4/5/6/10 refuse a non-power of 2 naming the ones that work" {
	run -0 "$SP" geometry --level 0 --members 3 --chunk 384K --md --format json
	[ "$(jq .su_bytes <<<"$output")" = 393216 ]
	[ "$(jq .mdadm_chunk_kib <<<"$output")" = 384 ]
	for l in 4 5 6 10; do
		run -2 "$SP" geometry --level "$l" --members 4 --chunk 384K --md
		assert_output --partial "chunk 384k is not a power of 2"
		assert_output --partial "256k or 512k would do"
	done
}

@test "every verb's --help ends naming its man page, a page under man/; storprov --help names storprov(8)" {
	local v page
	run -0 "$SP" --help
	assert_output --partial "see storprov(8)."
	assert_file_exists "$TOP/man/storprov.8"
	for v in $(sed -n '/^Verbs:/,/^$/s/^  \([a-z]*\) .*/\1/p' <<<"$output"); do
		run -0 "$SP" "$v" --help
		[ "${lines[-1]}" = "See storprov-$v(8)." ] || { echo "$v --help ends with: ${lines[-1]}"; false; }
		# every page a verb's help names exists
		for page in $(grep -oE 'storprov(-[a-z]+)?\([0-9]\)' <<<"$output" | sort -u); do
			assert_file_exists "$TOP/man/${page%(*}.$(tr -dc 0-9 <<<"${page#*(}")"
		done
	done
	[ "$(sed -n '/^Verbs:/,/^$/p' <<<"$("$SP" --help)" | grep -c '^  [a-z]')" = 9 ]
}

@test "every verb has --help, and usage errors exit 2" {
	run -0 "$SP" --help
	assert_output --partial "Verbs:"
	for v in geometry validate plan render apply; do
		run -0 "$SP" "$v" --help
		assert_output --partial "Usage: storprov $v"
	done
	run -2 "$SP"
	run -2 "$SP" frobnicate
	assert_output --partial "unknown verb"
	run -2 "$SP" plan --bogus
	assert_output --partial "unknown option"
	run -2 "$SP" geometry --profile x.xml
	assert_output --partial "does not apply to geometry"
	run -2 "$SP" plan
	assert_output --partial "--profile FILE is required"
	run -2 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml"
	assert_output --partial "--root DIR is required"
}

@test "plan: a missing profile file is bad input" {
	run -2 "$SP" plan --profile /nonexistent.xml --sysroot "$SYSROOT/grid-3ware"
	assert_output --partial "/nonexistent.xml"
}

@test "plan: schema errors name file, line and element" {
	run -2 "$SP" plan --profile "$FIX/profiles/bad-schema.xml" --sysroot "$SYSROOT/grid-3ware"
	assert_output --partial "bad-schema.xml:3: error: <disks>:"
	assert_output --partial "[schema]"
	assert_output --partial "nothing was touched"
}

@test "plan: every semantic error is reported at once, each with line and rule" {
	run -2 "$SP" plan --profile "$FIX/profiles/broken.xml" --sysroot "$SYSROOT/grid-3ware"
	assert_output --partial "broken.xml:7: error: md mirror: chunk=\"64k\" on raid1"
	assert_output --partial "[raid1-chunk]"
	assert_output --partial "broken.xml:8: error: md mirror: stripe-cache-size applies to md raid4/5/6 only, not raid1 [stripe-cache]"
	assert_output --partial "broken.xml:10: error: xfs on mirror: mount option \"nobarrier\""
	assert_output --partial "logbufs=9: the kernel accepts 2 to 8"
	assert_output --partial "broken.xml:12: error: sysctl: vm.dirty_bytes and vm.dirty_ratio (line 11) exclude each other"
}

@test "plan: nr_requests 8192 x 512 KiB on the 4 GiB grid node is refused" {
	run -2 "$SP" plan --profile "$FIX/profiles/grid-deep-queue.xml" --sysroot "$SYSROOT/grid-3ware"
	assert_output --partial "[queue-memory]"
	assert_output --partial "nr_requests 8192 x max_sectors_kb 512"
	assert_output --partial "grid-deep-queue.xml:8:"
	# the 3ware LUNs cannot take 512 KiB requests either
	assert_output --partial "max-sectors-kb 512 is above sdb's max_hw_sectors_kb 128"
}

@test "plan: the grid profile on the grid fixture (done-when figures)" {
	run -0 "$SP" plan --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 --format json
	mkfs=$(jq -r '.steps[] | select(.kind=="mkfs") | .argv | join(" ")' <<<"$output")
	[ "$(grep -c -- '-d su=64k,sw=11 -l version=2,su=4k' <<<"$mkfs")" = 2 ]
	fstab=$(jq -r '.files[] | select(.path=="/etc/fstab") | .content' <<<"$output")
	[ "$(grep -c 'logbufs=8' <<<"$fstab")" = 2 ]
	[ "$(grep -c sunit <<<"$fstab")" = 0 ]
	rules=$(jq -r '.files[] | select(.path|endswith(".rules")) | .content' <<<"$output")
	grep -E 'ENV\{ID_(WWN|SERIAL)\}=="[^"]+".*ATTR\{queue/read_ahead_kb\}="8192"' <<<"$rules"
	jq -e '.files[] | select(.path|startswith("/etc/sysctl.d/")) | .content | test("vm.dirty_ratio = 40")' <<<"$output"
	# partition starts on 11 MiB
	[ "$(jq '[.steps[] | select(.kind=="gpt") | .partitions[0].start_bytes] | unique' -c <<<"$output")" = "[11534336]" ]
}

@test "plan: steps carry argv arrays and files carry path and content" {
	run -0 "$SP" plan --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 --format json
	jq -e '.steps | length > 0' <<<"$output"
	jq -e '[.steps[] | select(.kind != "gpt" and .kind != "sysfs" and .kind != "sysctl") | .argv | type == "array" and length > 1] | all' <<<"$output"
	jq -e '[.files[] | (.path|type=="string") and (.content|type=="string")] | all' <<<"$output"
}

@test "plan: --seed makes identities reproducible; the default seed is stable per node" {
	run -0 "$SP" plan --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 5 --format json
	a=$(jq -c '[.objects[] | .uuid // empty]' <<<"$output")
	run -0 "$SP" plan --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 6 --format json
	b=$(jq -c '[.objects[] | .uuid // empty]' <<<"$output")
	[ "$a" != "$b" ]
	run -0 "$SP" plan --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --format json
	c=$(jq -c '[.objects[] | .uuid // empty]' <<<"$output")
	run -0 "$SP" plan --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --format json
	[ "$c" = "$(jq -c '[.objects[] | .uuid // empty]' <<<"$output")" ]
}

@test "validate: says valid, or lists the problems" {
	run -0 "$SP" validate --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware"
	assert_output --partial "valid; 2 disks selected"
	run -2 "$SP" validate --profile "$FIX/profiles/broken.xml" --sysroot "$SYSROOT/grid-3ware"
}

@test "plan: a sysroot that is not there is bad input" {
	run -2 "$SP" plan --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$BATS_TEST_TMPDIR/none"
	assert_output --partial "none"
}

@test "version: --version and every JSON output carry the version from VERSION / git describe" {
	version=$("$TOP/scripts/version.sh")
	[ -n "$version" ]
	run -0 "$SP" --version
	assert_output "storprov $version"
	run -0 "$SP" geometry --level 5 --members 12 --chunk 64K --format json
	[ "$(jq -r .format <<<"$output")" = storprov-geometry ]
	[ "$(jq -r .format_version <<<"$output")" = 2 ]
	[ "$(jq -r .storprov_version <<<"$output")" = "$version" ]
	run -0 "$SP" plan --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --format json
	[ "$(jq -r .format <<<"$output")" = storprov-plan ]
	[ "$(jq -r .format_version <<<"$output")" = 2 ]
	[ "$(jq -r .storprov_version <<<"$output")" = "$version" ]
}

@test "usage errors: 'Try' line has its space, and a separate option value is not named as the option" {
	run -2 "$SP" plan --bogus
	assert_line "Try 'storprov plan --help'."
	run -2 "$SP" frobnicate
	assert_line "Try 'storprov --help'."
	run -2 "$SP" geometry --jobs 3
	assert_line "storprov geometry: option '--jobs' does not apply to geometry"
	run -2 "$SP" geometry --level 5 --members 0 --chunk 64k
	assert_line "storprov geometry: '--members' takes a whole number from 1 to 1024, not '0'"
	run -2 "$SP" geometry --level 5 --members=0 --chunk 64k
	assert_line "storprov geometry: '--members' takes a whole number from 1 to 1024, not '0'"
}
