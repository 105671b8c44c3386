#!/usr/bin/env bats
# Issue 17: the layout families whose geometry went wrong, as golden plans
# (tests/expected/class/NAME.txt) plus the hand-computed figures of each
# (the profile's comment shows the arithmetic). The fixture a profile plans
# on is named in its first comment line ("Fixture NAME.").
load test_helper

# name | mkfs.xfs stripe arguments | md --chunk (KiB) or lvcreate --stripesize | warning rule or -
cases() {
	cat <<'T'
md5-nvme-hints|-d su=64k,sw=3 -l version=2,su=4k|--chunk=64|-
md5-over-raid6-luns|-d su=64k,sw=12 -l version=2,su=4k|--chunk=64|-
md5-over-raid6-luns-derived|-d su=256k,sw=3 -l version=2,su=4k|--chunk=256|-
md5-over-raid6-5x128-luns|-d su=64k,sw=18 -l version=2,su=4k|--chunk=64|-
md1-over-raid6-luns|-d su=64k,sw=4 -l version=2,su=4k|--level=1 --raid-devices=4 --metadata|-
md0-over-raid6-9x16-luns|-d su=112k,sw=4 -l version=2,su=4k|--chunk=112 --metadata=1.2 --data-offset=136192 |-
lv-over-raid5-luns|-d su=512k,sw=3 -l version=2,su=4k|--stripes=3 --stripesize=512k|-
lv-over-raid5-4x128-luns|-d su=64k,sw=24 -l version=2,su=4k|--stripes=4 --stripesize=64k|-
lv-over-raid6-8x64-luns|-d su=64k,sw=12 -l version=2,su=4k|--stripes=2 --stripesize=64k|-
md5-over-raid6-5x128-luns-chunk128|-d su=128k,sw=9 -l version=2,su=4k|--chunk=128|md-chunk-rmw
md0-over-raid6-5x128-luns-chunk384|-d su=384k,sw=4 -l version=2,su=4k|--chunk=384|-
lv-over-hinted-raid5-8x64-luns|-d su=64k,sw=21 -l version=2,su=4k|--stripes=3 --stripesize=64k|-
lv-over-declared-raid5-8x64-luns|-d su=64k,sw=21 -l version=2,su=4k|--stripes=3 --stripesize=64k|-
md5-over-hinted-raid5-8x64-luns|-d su=64k,sw=14 -l version=2,su=4k|--chunk=64 --metadata=1.2 --data-offset=136192 |-
xfs-on-nvme-npwg|-d su=16k,sw=16 -l version=2,su=16k|-d su=16k,sw=16 -l version=2,su=16k /dev/nvme1n1p1|-
md0-nvme-npwg|-d su=256k,sw=4 -l version=2,su=256k|--chunk=256 --metadata=1.2 --homehost|-
md5-nvme-npwg|-d su=256k,sw=3 -l version=2,su=4k|--chunk=256 --metadata=1.2 --bitmap|-
lv-over-nvme-npwg|-d su=256k,sw=4 -l version=2,su=256k|--stripes=4 --stripesize=256k|-
md0-nvme-npwg-chunk8k|-d su=8k,sw=4 -l version=2,su=8k|--chunk=8 |md-chunk-granularity
T
}

fixture_of() {
	sed -n 's/.*Fixture \([a-z0-9-]*\)\..*/\1/p' "$1" | head -n 1
}

@test "geometry class: each family plans its hand-computed su/sw, chunk and warnings" {
	cd "$TOP"
	n=0
	while IFS='|' read -r name mkfs chunk rule; do
		p=tests/fixtures/profiles/class/$name.xml
		fx=$(fixture_of "$p")
		[ -n "$fx" ] || { echo "$p names no fixture"; false; }
		run -0 "$SP" plan --profile "$p" --sysroot "tests/fixtures/sysroot/$fx" --seed 1
		echo "== $name" >&3
		assert_output --partial -- "$mkfs /dev/"
		assert_output --partial -- "$chunk"
		if [ "$rule" = - ]; then
			refute_output --regexp -- '\[(md-chunk-rmw|lv-stripe-rmw|md-chunk-hint|lv-stripe-hint|md-chunk-granularity|lv-stripe-granularity)\]'
		else
			assert_output --partial -- "[$rule]"
		fi
		golden "class/$name.txt" <(printf '%s\n' "$output")
		n=$((n + 1))
	done < <(cases)
	[ "$n" -eq 19 ]
	# every class profile has a row
	[ "$(find tests/fixtures/profiles/class -name '*.xml' | wc -l)" -eq "$n" ]
}

@test "geometry class: parity follows the level or the members (swalloc on md raid5 over hinted disks and md raid1 over parity LUNs)" {
	cd "$TOP"
	for name in md5-nvme-hints md1-over-raid6-luns; do
		p=tests/fixtures/profiles/class/$name.xml
		run -0 --separate-stderr "$SP" plan --profile "$p" --sysroot "tests/fixtures/sysroot/$(fixture_of "$p")" --seed 1 --format json
		run -0 jq -r '.objects[] | select(.kind=="xfs") | .mount_options' <<<"$output"
		assert_output --partial swalloc
	done
}

@test "geometry class: LUNs that export a stripe (io_min 64k / io_opt 448k) plan like the same LUNs declared (issue 30)" {
	cd "$TOP"
	s=tests/fixtures/sysroot/hinted-raid5-8x64
	shape='[.objects[] | {id, kind, geometry: (.geometry | {su_bytes, sw, full_stripe_bytes, parity}),
		pv_data_alignment_bytes, extent_bytes, stripes, stripe_size_bytes, mount_options}] ,
		[.steps[] | .argv | map(select(test("^(--dataalignment|--physicalextentsize|--stripes|--stripesize|su=|agsize)")))]'
	run -0 --separate-stderr "$SP" plan --profile tests/fixtures/profiles/class/lv-over-hinted-raid5-8x64-luns.xml --sysroot "$s" --seed 1 --format json
	hinted=$(jq -c "$shape" <<<"$output")
	run -0 --separate-stderr "$SP" plan --profile tests/fixtures/profiles/class/lv-over-declared-raid5-8x64-luns.xml --sysroot "$s" --seed 1 --format json
	declared=$(jq -c "$shape" <<<"$output")
	[ "$hinted" = "$declared" ] || { diff <(jq . <<<"$hinted") <(jq . <<<"$declared"); false; }
	# and the hint says it was planned as parity, and why
	run -0 "$SP" plan --profile tests/fixtures/profiles/class/lv-over-hinted-raid5-8x64-luns.xml --sysroot "$s" --seed 1
	assert_output --partial "whose parity the hint does not say: planned as parity"
	# a 4 KiB io_min is a write granularity, not a strip: md raid5 keeps its own width (issue 17)
	run -0 "$SP" plan --profile tests/fixtures/profiles/class/md5-nvme-hints.xml --sysroot tests/fixtures/sysroot/nvme-hints --seed 1
	assert_output --partial "-d su=64k,sw=3 "
	assert_output --partial "a write granularity, not a strip"
}

@test "geometry class: NVMe namespaces (NPWG 16k / NOWS 256k) are aligned to as a write granularity, never planned as parity (issue 30 item 4)" {
	cd "$TOP"
	s=tests/fixtures/sysroot/nvme-npwg
	c=tests/fixtures/profiles/class
	for name in xfs-on-nvme-npwg md0-nvme-npwg md5-nvme-npwg lv-over-nvme-npwg md0-nvme-npwg-chunk8k; do
		run -0 --separate-stderr "$SP" plan --profile "$c/$name.xml" --sysroot "$s" --seed 1 --format json
		echo "== $name" >&3
		# every namespace: its hint, classified as a write granularity, not parity
		[ "$(jq -r '[.objects[] | select(.kind=="disk") | "\(.geometry.su_bytes)/\(.geometry.full_stripe_bytes)/\(.geometry.parity)"] | unique | join(" ")' <<<"$output")" = "16384/262144/false" ]
		# partitions start on multiples of the optimal write size (and so of the granularity)
		[ "$(jq '[.objects[] | select(.kind=="partition") | .start_bytes % 262144] | add // 0' <<<"$output")" = 0 ]
		[ "$(jq '[.objects[] | select(.kind=="disk") | .partition_align_bytes % 262144] | add' <<<"$output")" = 0 ]
		# md chunks and LV stripes: whole granularity units, unless the profile says 8K
		if [ "$name" != md0-nvme-npwg-chunk8k ]; then
			[ "$(jq '[.objects[] | select(.kind=="md") | .chunk_bytes % 16384] | add // 0' <<<"$output")" = 0 ]
			[ "$(jq '[.objects[] | select(.kind=="lv") | .stripe_size_bytes % 16384] | add // 0' <<<"$output")" = 0 ]
		fi
		# no --data-offset: mdadm's own is a multiple of 1 MiB, which 256k divides
		[ "$(jq '[.steps[] | (.argv // [])[] | select(startswith("--data-offset"))] | length' <<<"$output")" = 0 ]
		# swalloc only where the md level itself has parity, never from the hint
		if [ "$name" = md5-nvme-npwg ]; then
			[ "$(jq -r '.objects[] | select(.kind=="xfs") | .geometry.parity' <<<"$output")" = true ]
			jq -e '.objects[] | select(.kind=="xfs") | .mount_options | contains("swalloc")' <<<"$output"
		else
			[ "$(jq '[.objects[] | select(.geometry.parity)] | length' <<<"$output")" = 0 ]
			[ "$(jq '[.objects[] | select(.kind=="xfs") | .mount_options | select(contains("swalloc"))] | length' <<<"$output")" = 0 ]
		fi
	done
	# plan says why, in the geometry
	run -0 "$SP" plan --profile "$c/xfs-on-nvme-npwg.xml" --sysroot "$s" --seed 1
	assert_output --partial "[detected: exported by nvme0n1: io_min 16k, io_opt 256k; an NVMe namespace's write granularity, not a parity stripe: partition starts multiples of 1m, which the NVMe optimal write size 256k divides]"
	run -0 "$SP" plan --profile "$c/md0-nvme-npwg.xml" --sysroot "$s" --seed 1
	assert_output --partial "members' stripe 16k x 16 = 256k (an NVMe write granularity and optimal write size, no parity); data at mdadm's offset, a multiple of 1 MiB, which the NVMe optimal write size 256k divides"
	# a chunk below the granularity is warned about, naming it; an LV stripe the same
	run -0 "$SP" plan --profile "$c/md0-nvme-npwg-chunk8k.xml" --sysroot "$s" --seed 1
	assert_output --partial "warning: md r0: chunk 8k is not a multiple of the write granularity 16k that NVMe namespace nvme0n1 exports (NPWG, io_min)"
	assert_output --partial "give a multiple of 16k (its optimal write size 256k, what storprov picks when it is left out) [md-chunk-granularity]"
	sed 's/stripes="4"/stripes="4" stripe-size="8K"/' "$c/lv-over-nvme-npwg.xml" >"$BATS_TEST_TMPDIR/lv8k.xml"
	run -0 "$SP" plan --profile "$BATS_TEST_TMPDIR/lv8k.xml" --sysroot "$s" --seed 1
	assert_output --partial "warning: lv v/l: stripe size 8k is not a multiple of the write granularity 16k that NVMe namespace nvme0n1 exports"
	assert_output --partial "[lv-stripe-granularity]"
	# the same chunk over the SCSI-attached 4k / 1m hint of nvme-hints: not an NVMe namespace, no such warning
	sed 's/chunk="64K"/chunk="8K"/' "$c/md5-nvme-hints.xml" >"$BATS_TEST_TMPDIR/md5-8k.xml"
	run -0 "$SP" plan --profile "$BATS_TEST_TMPDIR/md5-8k.xml" --sysroot tests/fixtures/sysroot/nvme-hints --seed 1
	refute_output --partial "[md-chunk-granularity]"
}
