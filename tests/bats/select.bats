#!/usr/bin/env bats
# storprov select over a profile directory (tests/fixtures/fleet: the shipped
# profiles plus two fleet profiles): every captured node gets exactly one
# profile; a node with a disk missing, a node no profile knows and two
# overlapping profiles give the documented errors (exit 2).
load test_helper

FLEET="$FIX/fleet"

@test "select: each fixture node maps to exactly one profile" {
	local node want
	while read -r node want; do
		run -0 "$SP" select --profiles "$FLEET" --sysroot "$SYSROOT/$node"
		[ "$output" = "$FLEET/$want.xml" ] || { echo "$node: got '$output', want $want"; return 1; }
	done <<-EOF
	grid-3ware grid-3ware-raid5
	grid-3ware-raid5 grid-3ware-raid5
	md-raid6-lvm md-raid6-lvm
	md-raid6-8 md-raid6-8
	megaraid-ioopt megaraid-ioopt
	hwraid6-md0-lvm hwraid6-md0-lvm
	hwraid0-lvm-xfs hwraid0-lvm-xfs
	many-luns many-luns
	md-raid1-syncwrite md-raid1-syncwrite
	EOF
}

@test "select: the chosen profile plans on its node" {
	for node in md-raid6-8 megaraid-ioopt; do
		p=$("$SP" select --profiles "$FLEET" --sysroot "$SYSROOT/$node")
		run -0 "$SP" validate --profile "$p" --sysroot "$SYSROOT/$node"
	done
}

@test "select: a node with one disk missing gets no profile, and the near miss says by how much" {
	run -2 "$SP" select --profiles "$FLEET" --sysroot "$SYSROOT/grid-3ware-one-missing"
	assert_output --partial "no profile in $FLEET matches this node"
	assert_output --partial "near misses, closest first"
	# the closest miss is listed first, with its rule, line and the count difference
	[ "$(sed -n 2p <<<"$output")" = "  $FLEET/grid-3ware-raid5.xml:" ]
	assert_line "    disks lun (line 14): expected 2 disks, found 1 (1 missing)"
	# the same node refused by plan with the disk-count rule
	run -2 "$SP" validate --profile "$FLEET/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware-one-missing"
	assert_output --partial "[disk-count]"
}

@test "select: a disk failing one rule only is named with the rule and the figures" {
	local dir="$BATS_TEST_TMPDIR/p"
	mkdir "$dir"
	# the grid profile asking for 9 TB or more: both LUNs (8.25 TB) are 698.6 GiB short
	sed 's/min-size="5TB" max-size="9TB"/min-size="9TB"/' "$TOP/profiles/grid-3ware-raid5.xml" >"$dir/big.xml"
	run -2 "$SP" select --profiles "$dir" --sysroot "$SYSROOT/grid-3ware"
	assert_line "    disks lun (line 14): expected 2 disks, found 0 (2 missing)"
	assert_line "        sdb fails only min-size 8.2 TiB: it has 7.5 TiB, 698.6 GiB short"
	assert_line "        sdc fails only min-size 8.2 TiB: it has 7.5 TiB, 698.6 GiB short"
}

@test "select: two matching profiles are named, not chosen" {
	local dir="$BATS_TEST_TMPDIR/p"
	mkdir "$dir"
	cp "$TOP/profiles/grid-3ware-raid5.xml" "$dir/a.xml"
	sed 's/name="grid-3ware-raid5"/name="copy"/' "$TOP/profiles/grid-3ware-raid5.xml" >"$dir/b.xml"
	run -2 "$SP" select --profiles "$dir" --sysroot "$SYSROOT/grid-3ware"
	assert_output --partial "2 profiles in $dir match this node: $dir/a.xml, $dir/b.xml; refusing to choose"
}

@test "select: too many matches are listed so the rule can be tightened" {
	local dir="$BATS_TEST_TMPDIR/p"
	mkdir "$dir"
	sed 's/count="2"/count="1"/' "$TOP/profiles/grid-3ware-raid5.xml" >"$dir/one.xml"
	run -2 "$SP" select --profiles "$dir" --sysroot "$SYSROOT/grid-3ware"
	assert_line "    disks lun (line 14): expected 1 disk, found 2 (1 too many)"
	assert_line "        matched sdb"
	assert_line "        matched sdc"
}

@test "select: a profile that is no XML is reported and skipped; usage errors exit 2" {
	local dir="$BATS_TEST_TMPDIR/p"
	mkdir "$dir"
	cp "$TOP/profiles/grid-3ware-raid5.xml" "$dir/good.xml"
	printf '<profile version="1"><disks id="x">\n' >"$dir/broken.xml"
	run -0 --separate-stderr "$SP" select --profiles "$dir" --sysroot "$SYSROOT/grid-3ware"
	[ "$output" = "$dir/good.xml" ]
	[[ $stderr == *"$dir/broken.xml does not load; not considered"* ]]
	run -2 "$SP" select --sysroot "$SYSROOT/grid-3ware"
	assert_output --partial "--profiles DIR is required"
	run -2 "$SP" select --profiles "$BATS_TEST_TMPDIR/nonexistent"
}

# lazy validation: the schema is checked only for a profile whose <match> rules may fit the node
@test "select: a broken profile that cannot match this node is not validated and does not fail select" {
	local dir="$BATS_TEST_TMPDIR/p"
	mkdir "$dir"
	cp "$TOP/profiles/grid-3ware-raid5.xml" "$dir/good.xml"
	# valid <disks>/<match>, a schema error further down (md level 3); its vendor is not this node's
	sed -e 's/count="two"/count="2"/' -e 's/vendor="AMCC"/vendor="NOSUCH"/' "$FIX/profiles/bad-schema.xml" >"$dir/broken.xml"
	run -2 "$SP" validate --profile "$dir/broken.xml"
	assert_output --partial 'broken.xml:6: error: <md>: attribute level="3" is not valid'
	run -0 --separate-stderr "$SP" select --profiles "$dir" --sysroot "$SYSROOT/grid-3ware"
	[ "$output" = "$dir/good.xml" ]
	[[ $stderr != *"broken.xml"*"error"* ]]
	run -0 "$SP" select --profiles "$dir" --sysroot "$SYSROOT/grid-3ware" --format json
	[ "$(jq -r .selected <<<"$output")" = "$dir/good.xml" ]
	[ "$(jq -r .not_loaded <<<"$output")" = 0 ]
	[ "$(jq -r '.matches | length' <<<"$output")" = 1 ]
}

@test "select: a broken profile that may match this node fails select with file:line:rule" {
	local dir="$BATS_TEST_TMPDIR/p"
	mkdir "$dir"
	cp "$TOP/profiles/grid-3ware-raid5.xml" "$dir/good.xml"
	# the good profile's own <disks> (it matches grid-3ware), then an <md> of level 3
	sed 's|^</profile>|  <md id="m" level="3" devices="lun"/>\n</profile>|' "$TOP/profiles/grid-3ware-raid5.xml" >"$dir/broken.xml"
	local line
	line=$(grep -n 'level="3"' "$dir/broken.xml" | cut -d: -f1)
	run -2 --separate-stderr "$SP" select --profiles "$dir" --sysroot "$SYSROOT/grid-3ware"
	[ -z "$output" ]
	[[ $stderr == *"$dir/broken.xml:$line: error: <md>: attribute level=\"3\" is not valid"*"[schema]"* ]]
	[[ $stderr == *"$dir/broken.xml may match this node but does not validate"* ]]
	[[ $stderr == *"1 profile in $dir that may match this node does not validate; refusing to choose"* ]]
	# a <disks> whose count does not parse cannot be matched cheaply: it is validated too
	cp "$FIX/profiles/bad-schema.xml" "$dir/broken.xml"
	run -2 --separate-stderr "$SP" select --profiles "$dir" --sysroot "$SYSROOT/grid-3ware"
	[[ $stderr == *"$dir/broken.xml:3: error: <disks>: attribute count=\"two\" is not a whole number"*"[range]"* ]]
}

@test "validate: generated disk ids that clash with another id are refused with rule and line" {
	cat >"$BATS_TEST_TMPDIR/clash.xml" <<-'EOF'
	<?xml version="1.0"?>
	<profile version="1" name="clash">
	  <disks id="lun" count="2">
	    <match vendor="AMCC"/>
	  </disks>
	  <disks id="lun1" count="1">
	    <match vendor="ATA"/>
	  </disks>
	</profile>
	EOF
	run -2 "$SP" validate --profile "$BATS_TEST_TMPDIR/clash.xml" --sysroot "$SYSROOT/grid-3ware"
	assert_output --partial "clash.xml:6: error: lun1: id \"lun1\" is already used on line 3 (disk 1 of <disks id=\"lun\" count=\"2\">) [duplicate-id]"
}
