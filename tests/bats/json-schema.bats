#!/usr/bin/env bats
# Every JSON output (plan, apply --dry-run, apply --report, geometry, validate,
# verify, inventory, select, controller) carries one header, first: format, format_version,
# storprov_version; and validates against its JSON Schema in doc/schema/
# (python3-jsonschema, draft 2020-12, the schema itself checked first).
load test_helper

V=$TOP/tests/tools/json-validate.py

setup() {
	export STORPROV_DEVROOT="$BATS_TEST_TMPDIR/devroot"
	export FAKE_LOG="$BATS_TEST_TMPDIR/commands.log"
	export FAKE_STATE="$BATS_TEST_TMPDIR/state"
	: >"$FAKE_LOG"
	VERSION_STR=$("$TOP/scripts/version.sh")
}

# valid FORMAT FILE...: each FILE has the header first, in order, and passes
# FORMAT's schema (one validator run for all: 0.7 s of Python start-up each)
valid() {
	local f=$1 d
	shift
	for d in "$@"; do
		run -0 jq -c '[keys_unsorted[0:3], .format, .format_version, .storprov_version]' "$d"
		[[ $output == '[["format","format_version","storprov_version"],"'"$f"'",'[0-9]*',"'"$VERSION_STR"'"]' ]] ||
			{ echo "$d: header $output"; return 1; }
	done
	run -0 "$V" "$TOP/doc/schema/$f.schema.json" "$@"
}

@test "json: one schema per format, each a valid draft 2020-12 schema with the same header" {
	n=0
	for s in "$TOP"/doc/schema/*.schema.json; do
		f=$(basename "$s" .schema.json)
		[ "$(jq -r '.properties.format.const' "$s")" = "$f" ]
		[ "$(jq -c '.required[0:3]' "$s")" = '["format","format_version","storprov_version"]' ]
		echo '{}' >"$BATS_TEST_TMPDIR/empty.json"
		# the schema can fail: an empty document misses the header
		run -1 "$V" "$s" "$BATS_TEST_TMPDIR/empty.json"
		assert_output --partial "'format' is a required property"
		n=$((n + 1))
	done
	[ "$n" = 8 ]
}

@test "json: plan of every shipped profile, geometry, validate (valid, invalid, offline)" {
	local plans=()
	for p in "$TOP"/profiles/*.xml; do
		n=$(basename "$p" .xml)
		[ -d "$SYSROOT/$n" ] || continue
		"$SP" plan --profile "$p" --sysroot "$SYSROOT/$n" --seed 1 --format json >"$BATS_TEST_TMPDIR/$n.json"
		plans+=("$BATS_TEST_TMPDIR/$n.json")
	done
	[ "${#plans[@]}" -ge 2 ]
	valid storprov-plan "${plans[@]}"
	"$SP" geometry --level 60 --members 16 --legs 2 --chunk 256K --format json >"$BATS_TEST_TMPDIR/g.json"
	"$SP" geometry --level 1 --members 2 --format json >"$BATS_TEST_TMPDIR/g1.json"
	"$SP" geometry --level 10 --members 6 --chunk 64K --layout f2 --format json >"$BATS_TEST_TMPDIR/g10.json"
	valid storprov-geometry "$BATS_TEST_TMPDIR/g.json" "$BATS_TEST_TMPDIR/g1.json" "$BATS_TEST_TMPDIR/g10.json"
	"$SP" validate --format json --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" >"$BATS_TEST_TMPDIR/v.json"
	"$SP" validate --offline --format json --profile "$FIX/profiles/broken.xml" >"$BATS_TEST_TMPDIR/v2.json" || true
	[ "$(jq .valid "$BATS_TEST_TMPDIR/v2.json")" = false ]
	valid storprov-validate "$BATS_TEST_TMPDIR/v.json" "$BATS_TEST_TMPDIR/v2.json"
	# a document of another format fails this one's schema
	run -1 "$V" "$TOP/doc/schema/storprov-plan.schema.json" "$BATS_TEST_TMPDIR/v.json"
	assert_output --partial "'storprov-plan' was expected"
}

@test "json: the default seed of every shipped profile validates and round-trips through --seed (issue 31: not through int64)" {
	local plans=()
	n=0
	for p in "$TOP"/profiles/*.xml; do
		b=$(basename "$p" .xml)
		s=$SYSROOT/$b
		[ -d "$s" ] || s=$SYSROOT/grid-3ware
		"$SP" plan --profile "$p" --sysroot "$s" --format json >"$BATS_TEST_TMPDIR/$b.json" 2>/dev/null
		plans+=("$BATS_TEST_TMPDIR/$b.json")
		# the number as printed (jq would round it through a double)
		seed=$(grep -o '"seed": *[0-9-]*' "$BATS_TEST_TMPDIR/$b.json" | head -n 1 | sed 's/.*: *//')
		[[ $seed =~ ^[0-9]+$ ]] || { echo "$b: seed '$seed'"; return 1; }
		"$SP" plan --profile "$p" --sysroot "$s" --seed "$seed" --format json >"$BATS_TEST_TMPDIR/$b.2.json" 2>/dev/null
		[ "$(grep -o '"seed": *[0-9-]*' "$BATS_TEST_TMPDIR/$b.2.json" | head -n 1 | sed 's/.*: *//')" = "$seed" ]
		[ "$(jq -r .seed_source "$BATS_TEST_TMPDIR/$b.2.json")" != "$(jq -r .seed_source "$BATS_TEST_TMPDIR/$b.json")" ]
		# the same identities with the printed seed as without it
		diff <(jq -c '[.objects[] | .uuid?]' "$BATS_TEST_TMPDIR/$b.json") <(jq -c '[.objects[] | .uuid?]' "$BATS_TEST_TMPDIR/$b.2.json")
		n=$((n + 1))
	done
	[ "$n" -ge 8 ]
	# an explicit seed above 2^63 prints unsigned
	"$SP" plan --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 18446744073709551615 \
		--format json >"$BATS_TEST_TMPDIR/max.json" 2>/dev/null
	grep -q '"seed": *18446744073709551615' "$BATS_TEST_TMPDIR/max.json"
	valid storprov-plan "${plans[@]}" "$BATS_TEST_TMPDIR/max.json"
}

@test "json: apply --dry-run and apply --report, through fake executables" {
	export PATH="$FIX/fakebin:$PATH"
	fake_world grid-3ware "$BATS_TEST_TMPDIR/w"
	"$SP" apply --dry-run --format json --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$BATS_TEST_TMPDIR/w" \
		--root "$BATS_TEST_TMPDIR/root" --seed 1 >"$BATS_TEST_TMPDIR/dry.json" 2>/dev/null
	valid storprov-plan "$BATS_TEST_TMPDIR/dry.json"
	[ "$(jq .dry_run "$BATS_TEST_TMPDIR/dry.json")" = true ]
	# every step and file says what it would do (apply --dry-run's states, issue 31)
	[ "$(jq '[.steps[] | .state | IN("would-run", "done", "kept")] | all' "$BATS_TEST_TMPDIR/dry.json")" = true ]
	[ "$(jq '[.files[] | .would_write | type == "boolean"] | all' "$BATS_TEST_TMPDIR/dry.json")" = true ]
	run -0 "$SP" apply --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$BATS_TEST_TMPDIR/w" \
		--root "$BATS_TEST_TMPDIR/root" --seed 1 --yes --jobs 1 --report "$BATS_TEST_TMPDIR/report.json" \
		--lock-file "$BATS_TEST_TMPDIR/lock"
	valid storprov-report "$BATS_TEST_TMPDIR/report.json"
	# every step that ran has a step-start event, before its end ("step")
	# event: bench/guest/prov.sh measures the inspection to the first start
	j=$BATS_TEST_TMPDIR/report.json
	# the inspection (issue 34): each disk's time, in plan order; --jobs 1 starts no thread
	[ "$(jq -c '[.inspection.disks[].id]' "$j")" = "$(jq -c '[.objects[] | select(.kind == "disk") | .id]' "$j")" ]
	[ "$(jq '.inspection.disks | length' "$j")" -gt 1 ]
	[ "$(jq -c '[.inspection.jobs, .inspection.threads, .inspection.max_concurrent]' "$j")" = '[1,0,1]' ]
	jq '.inspection.disks[0].elapsed_s = "slow"' "$j" >"$BATS_TEST_TMPDIR/bad.json"
	run -1 "$V" "$TOP/doc/schema/storprov-report.schema.json" "$BATS_TEST_TMPDIR/bad.json"
	assert_output --partial "'slow' is not of type 'number'"
	n=$(jq '[.events[] | select(.kind == "step")] | length' "$j")
	[ "$n" -gt 0 ]
	[ "$(jq '[.events[] | select(.kind == "step-start")] | length' "$j")" = "$n" ]
	[ "$(jq '[.events[] | select(.kind == "step")][0].step as $s |
		([.events[] | .kind] | index("step-start")) < ([.events[] | .kind] | index("step")) and
		([.events[] | select(.kind == "step-start" and .step == $s)] | length) == 1' "$j")" = true ]
}

@test "json: verify, inventory and select (one match, none)" {
	r=$BATS_TEST_TMPDIR/root
	"$SP" render --profile "$TOP/profiles/md-raid6-lvm.xml" --sysroot "$SYSROOT/md-raid6-lvm" --seed 1 --root "$r" 2>/dev/null
	"$SP" verify --profile "$TOP/profiles/md-raid6-lvm.xml" --sysroot "$SYSROOT/md-raid6-lvm" --seed 1 --root "$r" \
		--format json >"$BATS_TEST_TMPDIR/verify.json" || true
	valid storprov-verify "$BATS_TEST_TMPDIR/verify.json"
	"$SP" inventory --sysroot "$SYSROOT/multipath-2path" --format json >"$BATS_TEST_TMPDIR/inv.json"
	valid storprov-inventory "$BATS_TEST_TMPDIR/inv.json"
	run -0 --separate-stderr "$SP" select --profiles "$FIX/fleet" --sysroot "$SYSROOT/grid-3ware" --format json
	echo "$output" >"$BATS_TEST_TMPDIR/sel.json"
	valid storprov-select "$BATS_TEST_TMPDIR/sel.json"
	[ "$(jq -r .selected "$BATS_TEST_TMPDIR/sel.json")" = "$FIX/fleet/grid-3ware-raid5.xml" ]
	[ "$(jq -c .near_misses "$BATS_TEST_TMPDIR/sel.json")" = '[]' ]
	run -2 --separate-stderr "$SP" select --profiles "$FIX/fleet" --sysroot "$SYSROOT/grid-3ware-one-missing" --format json
	echo "$output" >"$BATS_TEST_TMPDIR/sel2.json"
	valid storprov-select "$BATS_TEST_TMPDIR/sel2.json"
	[ "$(jq .selected "$BATS_TEST_TMPDIR/sel2.json")" = null ]
	[ "$(jq -r '.near_misses[0] | "\(.profile) \(.distance)"' "$BATS_TEST_TMPDIR/sel2.json")" = "$FIX/fleet/grid-3ware-raid5.xml 1" ]
	# the text form is unchanged: the path alone
	run -0 --separate-stderr "$SP" select --profiles "$FIX/fleet" --sysroot "$SYSROOT/grid-3ware"
	assert_output "$FIX/fleet/grid-3ware-raid5.xml"
	run -2 "$SP" select --profiles "$FIX/fleet" --format yaml
	assert_output --partial "--format takes text or json, not 'yaml'"
}

@test "json: controller (captured storcli and ssacli outputs; a capture that fails)" {
	c=$FIX/controller/megaraid-ctl
	"$SP" controller --sysroot "$c" --format json >"$BATS_TEST_TMPDIR/ctl.json"
	valid storprov-controller "$BATS_TEST_TMPDIR/ctl.json"
	[ "$(jq '.logical_drives | length' "$BATS_TEST_TMPDIR/ctl.json")" = 13 ]
	# with an error: the document is still one, errors listed
	cp -r "$c" "$BATS_TEST_TMPDIR/bad"
	cp "$FIX/controller/arcconf-truncated.txt" "$BATS_TEST_TMPDIR/bad/storprov-controller/arcconf-getconfig-1-ld.txt"
	run -1 --separate-stderr "$SP" controller --sysroot "$BATS_TEST_TMPDIR/bad" --format json
	echo "$output" >"$BATS_TEST_TMPDIR/ctl2.json"
	valid storprov-controller "$BATS_TEST_TMPDIR/ctl2.json"
	[ "$(jq '.errors | length' "$BATS_TEST_TMPDIR/ctl2.json")" = 1 ]
	# the schema can fail: a record without its device
	jq 'del(.logical_drives[0].device)' "$BATS_TEST_TMPDIR/ctl.json" >"$BATS_TEST_TMPDIR/ctl3.json"
	run -1 "$V" "$TOP/doc/schema/storprov-controller.schema.json" "$BATS_TEST_TMPDIR/ctl3.json"
	assert_output --partial "'device' is a required property"
}
