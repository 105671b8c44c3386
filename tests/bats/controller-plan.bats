#!/usr/bin/env bats
# Issue 30, item 2: <hwraid from="controller"/> takes each disk's geometry
# from the RAID controller's VD behind it; a stated <hwraid> that the
# controller contradicts is refused before anything is written.
# The node: tests/fixtures/controller/megaraid-ctl (storcli and ssacli
# captures under storprov-controller/, see its README).
load test_helper

setup() {
	S=$TOP/tests/fixtures/controller/megaraid-ctl
	P=$FIX/profiles/controller
}

# same_plans PROFILE1 SYSROOT1 PROFILE2 SYSROOT2 FILTER: the two JSON plans
# agree under jq FILTER (and it selects something); prints what it selected.
same_plans() {
	local a b
	a=$("$SP" plan --profile "$1" --sysroot "$2" --seed 1 --format json 2>/dev/null | jq -c "$5")
	b=$("$SP" plan --profile "$3" --sysroot "$4" --seed 1 --format json 2>/dev/null | jq -c "$5")
	[ -n "$a" ] && [ "$a" = "$b" ] || fail "the plans differ: $a / $b"
	echo "$a"
}

@test "controller: from=\"controller\" plans the VD's geometry and says where it came from" {
	run -0 --separate-stderr "$SP" plan --profile "$P/from-controller.xml" --sysroot "$S" --seed 1 --format json
	run -0 jq -c '.objects[] | select(.kind=="disk") | .geometry | [.su_bytes, .sw, .full_stripe_bytes, .parity, .source]' <<<"$output"
	assert_output '[262144,8,2097152,true,"controller"]'
	run -0 "$SP" plan --profile "$P/from-controller.xml" --sysroot "$S" --seed 1
	assert_output --partial "[controller: storcli controller 0 VD 0: raid6, 10 drives x 256k strip (8 data disks), full stripe 2m, optimal (matched by wwn); write cache: write-back (storcli Cache: RWBD; Write Cache(initial setting): WriteBack)]"
	assert_output --partial "-d su=256k,sw=8 -l version=2,su=4k /dev/sdb"
	# the same plan as the declaration that matches the VD, only the source differs
	shape='[.steps[].argv[] | select(test("^(su=|version=|agsize=)"))], [.objects[] | .mount_options?]'
	run -0 same_plans "$P/from-controller.xml" "$S" "$P/stated-right.xml" "$S" "$shape"
	assert_output --partial 'su=256k,sw=8'
}

@test "controller: the plan says the VD's write cache, and plans the same whatever it is" {
	cp -r "$S" "$BATS_TEST_TMPDIR/s"
	# c0/v0 (sdb) writing through now under a configured write-back: a bad BBU
	sed -i '19s/"Cache" : "RWBD"/"Cache" : "NRWTD"/' "$BATS_TEST_TMPDIR/s/storprov-controller/storcli-call-vall-show-all.json"
	run -0 "$SP" plan --profile "$P/from-controller.xml" --sysroot "$BATS_TEST_TMPDIR/s" --seed 1
	assert_output --partial "optimal (matched by wwn); write cache: write-back-disabled (storcli Cache: NRWTD; Write Cache(initial setting): WriteBack)]"
	steps='[.steps[] | .argv], [.objects[] | .geometry? | del(.why?)]'
	run -0 same_plans "$P/from-controller.xml" "$S" "$P/from-controller.xml" "$BATS_TEST_TMPDIR/s" "$steps"
	assert_output --partial 'su=256k,sw=8'
}

@test "controller: lun-buffered-rmw states the figures of the LUNs' write cache as their controller reports it" {
	local p=$P/md5-over-luns.xml cached="the write-back cache the LUNs' controller reports gathers such pieces"
	run -0 "$SP" plan --profile "$p" --sysroot "$S" --seed 1
	assert_output --partial "that a LUN without a write-back cache completes by reading"
	assert_output --partial "$cached (measured 0.002-0.032 with a 128 MiB cache a LUN"
	assert_output --partial "[lun-buffered-rmw]"
	# one LUN writing through now under a configured write-back (a bad BBU): the figures without a cache
	cp -r "$S" "$BATS_TEST_TMPDIR/s"
	sed -i '19s/"Cache" : "RWBD"/"Cache" : "NRWTD"/' "$BATS_TEST_TMPDIR/s/storprov-controller/storcli-call-vall-show-all.json"
	run -0 "$SP" plan --profile "$p" --sysroot "$BATS_TEST_TMPDIR/s" --seed 1
	assert_output --partial "the LUNs' controller reports their write-back cache disabled now"
	refute_output --partial "$cached"
	# a declared <hwraid> says nothing of a cache: the warning as before, no cache clause
	sed -e '/"sdb"/s|<hwraid from="controller"/>|<hwraid level="6" members="10" chunk="256K"/>|' \
		-e '/"sdd"/s|<hwraid from="controller"/>|<hwraid level="60" members="16" legs="2" chunk="128K"/>|' \
		-e '/"sdf"/s|<hwraid from="controller"/>|<hwraid level="50" members="15" legs="3" chunk="256K"/>|' "$p" >"$BATS_TEST_TMPDIR/d.xml"
	run -0 "$SP" plan --profile "$BATS_TEST_TMPDIR/d.xml" --sysroot "$S" --seed 1
	assert_output --partial "[lun-buffered-rmw]"
	refute_output --partial "write-back cache the LUNs"
	refute_output --partial "disabled now"
}

@test "controller: a stated <hwraid> the controller contradicts is refused with both figures and the VD; one that agrees plans" {
	run -2 "$SP" plan --profile "$P/stated-wrong.xml" --sysroot "$S" --seed 1
	assert_output --partial "stated-wrong.xml:5: error:"
	assert_output --partial "sdb: the profile says hwraid raid5, 10 x 64k"
	assert_output --partial "su 64k, full stripe 576k"
	assert_output --partial "storcli controller 0 VD 0 reports raid6, 10 drives x 256k strip (8 data disks), full stripe 2m"
	assert_output --partial "[controller-mismatch]"
	assert_output --partial "nothing was touched"
	run -0 "$SP" plan --profile "$P/stated-right.xml" --sysroot "$S" --seed 1
	refute_output --partial "controller-mismatch"
}

@test "controller: no VD matched to the disk (never by guess), or no controller output at all, is refused by name" {
	run -2 "$SP" plan --profile "$P/no-vd.xml" --sysroot "$S" --seed 1
	assert_output --partial "sde: <hwraid from=\"controller\"/>, but no RAID controller VD found is this disk"
	assert_output --partial "[hwraid-controller]"
	# a captured node without controller outputs: the same refusal
	run -2 "$SP" plan --profile "$P/from-controller.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1
	assert_output --partial "[hwraid-controller]"
}

@test "controller: a VD that is not optimal plans, with a warning naming its state" {
	sed 's/name="sdb"/name="sdd"/' "$P/from-controller.xml" >"$BATS_TEST_TMPDIR/p.xml"
	run -0 "$SP" plan --profile "$BATS_TEST_TMPDIR/p.xml" --sysroot "$S" --seed 1
	assert_output --partial "[controller-vd-state]"
	assert_output --partial "is rebuilding"
	assert_output --partial "raid60, 16 drives in 2 spans x 128k strip (12 data disks), full stripe 1536k"
}

@test "controller: validate --offline accepts from=\"controller\" and says it was not read" {
	run -0 "$SP" validate --profile "$P/from-controller.xml" --offline
	run -0 "$SP" plan --profile "$P/from-controller.xml" --sysroot "$S" --seed 1 --format json
}

@test "controller: apply refuses the contradicted profile before any command runs" {
	export STORPROV_DEVROOT="$BATS_TEST_TMPDIR/devroot" FAKE_LOG="$BATS_TEST_TMPDIR/commands.log"
	export FAKE_STATE="$BATS_TEST_TMPDIR/state" PATH="$FIX/fakebin:$PATH"
	: >"$FAKE_LOG"
	run -2 "$SP" apply --profile "$P/stated-wrong.xml" --sysroot "$S" --root "$BATS_TEST_TMPDIR/root" --yes \
		--lock-file "$BATS_TEST_TMPDIR/lock"
	assert_output --partial "[controller-mismatch]"
	[ ! -s "$FAKE_LOG" ]
	[ ! -e "$BATS_TEST_TMPDIR/root/etc/fstab" ]
}

# the node with ssacli's slot=0 LD 2 naming sdb too (sdb is storcli's /c0/v0)
two_tools() {
	cp -r "$S" "$BATS_TEST_TMPDIR/s"
	sed -i -e "s/Unique Identifier: 600508B1001C5B3F1E2D3C4B5A697802/Unique Identifier: 600605B00A5E2F60261C6B0C1B2F6D01/" \
		-e "s|Disk Name: /dev/sdj|Disk Name: /dev/sdb|" "$BATS_TEST_TMPDIR/s/storprov-controller/ssacli-ctrl-all-show-config-detail.txt"
}

@test "controller: two tools that describe one disk differently are a refusal naming both (controller-conflict)" {
	two_tools
	run -2 "$SP" plan --profile "$P/from-controller.xml" --sysroot "$BATS_TEST_TMPDIR/s" --seed 1
	assert_output --partial "[controller-conflict]"
	assert_output --partial "sdb: storcli controller 0 VD 0 reports raid6, 10 drives x 256k strip (8 data disks), full stripe 2m, but ssacli controller slot=0 VD 2 reports"
	# a stated <hwraid> too: checked against every VD that names the disk
	run -2 "$SP" plan --profile "$P/stated-right.xml" --sysroot "$BATS_TEST_TMPDIR/s" --seed 1
	assert_output --partial "[controller-conflict]"
	# storprov controller shows the conflict on both records
	run -0 "$SP" controller --sysroot "$BATS_TEST_TMPDIR/s"
	assert_output --partial "note: storcli controller 0 VD 0: conflict: sdb is also ssacli controller slot=0 VD 2"
	assert_output --partial "note: ssacli controller slot=0 VD 2: conflict: sdb is also storcli controller 0 VD 0"
}
