#!/usr/bin/env bats
# multipath="true" (issue 11) on captured sysroots: two SAS LUNs, each seen
# through two paths, with their dm-multipath maps (multipath-2path) and before
# multipathd made them (multipath-2path-nomap). Plans are golden in
# tests/expected/multipath-2path/ (golden.bats); here: selection, refusals,
# hostile WWIDs, the rendered files, and apply through fake executables.
load test_helper

P="$TOP/profiles/multipath-2path.xml"

@test "multipath: each LUN once, the map as the disk, paths listed" {
	run -0 "$SP" plan --profile "$P" --sysroot "$SYSROOT/multipath-2path" --seed 1 --format json
	run -0 jq -r '.objects[] | select(.kind=="disk") | [.id, .device, .multipath.wwid, (.multipath.paths|join(",")), .multipath.map_exists] | @tsv' <<<"$output"
	assert_line "$(printf 'lun1\t/dev/mapper/mpatha\t3600c0ff000530a3b1f2e6a6501000000\tsdb,sdd\ttrue')"
	assert_line "$(printf 'lun2\t/dev/mapper/mpathb\t3600c0ff000530a3b2a2e6a6501000000\tsdc,sde\ttrue')"
	# mkfs goes to the map, never to a path
	run -0 "$SP" plan --profile "$P" --sysroot "$SYSROOT/multipath-2path" --seed 1 --format json
	run -0 jq -r '.steps[] | select(.kind=="mkfs") | .argv[-1]' <<<"$output"
	assert_output "$(printf '/dev/mapper/mpatha\n/dev/mapper/mpathb')"
}

@test "multipath: tuning split between the paths and the map" {
	run -0 "$SP" plan --profile "$P" --sysroot "$SYSROOT/multipath-2path" --seed 1 --format json
	j=$output
	dev_attr() { jq -r --arg a "$1" '[.steps[] | select(.kind=="sysfs" and .attribute==$a) | .device] | join(" ")' <<<"$j"; }
	# request-based dm has an elevator of its own: the scheduler goes to the map too
	[ "$(dev_attr queue/scheduler)" = "/dev/sdb /dev/sdd /dev/mapper/mpatha /dev/sdc /dev/sde /dev/mapper/mpathb" ]
	[ "$(dev_attr queue/nr_requests)" = "/dev/sdb /dev/sdd /dev/sdc /dev/sde" ]
	[ "$(dev_attr queue/read_ahead_kb)" = "/dev/mapper/mpatha /dev/mapper/mpathb" ]
	[ "$(dev_attr queue/max_sectors_kb)" = "/dev/mapper/mpatha /dev/sdb /dev/sdd /dev/mapper/mpathb /dev/sdc /dev/sde" ]
	# lowering max_sectors_kb (1280 -> 1024): the paths wait for the map
	run -0 jq -r '.steps[] | select(.kind=="sysfs" and .attribute=="queue/max_sectors_kb" and .device=="/dev/sdb") | .after[]' <<<"$j"
	map=$(jq -r '.steps[] | select(.kind=="sysfs" and .attribute=="queue/max_sectors_kb" and .device=="/dev/mapper/mpatha") | .index' <<<"$j")
	assert_output "$map"
	# raising (1280 -> 2048): the map waits for its paths
	sed 's/max-sectors-kb="1024"/max-sectors-kb="2048"/' "$P" >"$BATS_TEST_TMPDIR/raise.xml"
	run -0 "$SP" plan --profile "$BATS_TEST_TMPDIR/raise.xml" --sysroot "$SYSROOT/multipath-2path" --seed 1 --format json
	run -0 jq -r '[.steps[] | select(.kind=="sysfs" and .attribute=="queue/max_sectors_kb" and .device=="/dev/mapper/mpatha") | .after[]] | length' <<<"$output"
	assert_output 2
}

@test "multipath: limits are the paths' (sdd allows 4096, the map cannot exceed it)" {
	sed 's/max-sectors-kb="1024"/max-sectors-kb="8192"/; s/nr-requests="256"/nr-requests="64"/' "$P" >"$BATS_TEST_TMPDIR/big.xml"
	run -2 "$SP" validate --profile "$BATS_TEST_TMPDIR/big.xml" --sysroot "$SYSROOT/multipath-2path"
	assert_output --partial "max-sectors-kb 8192 is above sdd's max_hw_sectors_kb 4096"
	assert_output --partial "[max-sectors-kb]"
	refute_output --partial "sdb's max_hw_sectors_kb"
}

@test "multipath: a count that does not fit names the paths grouped into each LUN" {
	sed 's/count="2"/count="3"/' "$P" >"$BATS_TEST_TMPDIR/three.xml"
	run -2 "$SP" plan --profile "$BATS_TEST_TMPDIR/three.xml" --sysroot "$SYSROOT/multipath-2path-nomap"
	assert_output --partial "expected 3 multipath LUNs, found 2"
	assert_output --partial 'LUN wwid 3600c0ff000530a3b1f2e6a6501000000 (2 paths: sdb, sdd; no multipath map yet)'
	assert_output --partial 'LUN wwid 3600c0ff000530a3b2a2e6a6501000000 (2 paths: sdc, sde; no multipath map yet)'
	# select counts LUNs the same way
	mkdir -p "$BATS_TEST_TMPDIR/profiles"
	cp "$P" "$BATS_TEST_TMPDIR/three.xml" "$BATS_TEST_TMPDIR/profiles/"
	run -0 "$SP" select --profiles "$BATS_TEST_TMPDIR/profiles" --sysroot "$SYSROOT/multipath-2path"
	assert_output --partial "multipath-2path.xml"
}

@test "multipath: a path is never the disk of a multipath=\"false\" group (map or not)" {
	sed 's/ multipath="true"//' "$P" >"$BATS_TEST_TMPDIR/paths.xml"
	run -2 "$SP" plan --profile "$BATS_TEST_TMPDIR/paths.xml" --sysroot "$SYSROOT/multipath-2path"
	assert_output --partial 'sdb is a path of the multipath map dm-0 (wwid 3600c0ff000530a3b1f2e6a6501000000)'
	assert_output --partial 'multipath="true"'
	assert_output --partial "[multipath-path]"
	run -2 "$SP" plan --profile "$BATS_TEST_TMPDIR/paths.xml" --sysroot "$SYSROOT/multipath-2path-nomap"
	assert_output --partial 'sdb and sdd carry the same wwid 3600c0ff000530a3b1f2e6a6501000000: two paths to one LUN'
	assert_output --partial 'multipath="true"'
}

@test "multipath: no map yet: the plan makes it with dmsetup, as multipathd would" {
	run -0 "$SP" plan --profile "$P" --sysroot "$SYSROOT/multipath-2path-nomap" --seed 1 --format json
	run -0 jq -r '.steps[] | select(.kind=="multipath") | .argv | join(" ")' <<<"$output"
	assert_line "dmsetup create lun1 --uuid=mpath-3600c0ff000530a3b1f2e6a6501000000 --table=0 23433586656 multipath 1 queue_if_no_path 0 1 1 service-time 0 2 1 8:16 1 8:48 1"
	assert_line "dmsetup create lun2 --uuid=mpath-3600c0ff000530a3b2a2e6a6501000000 --table=0 23433586656 multipath 1 queue_if_no_path 0 1 1 service-time 0 2 1 8:32 1 8:64 1"
}

@test "multipath: apply (fake dmsetup, mkfs.xfs) makes the maps, mkfs on them, tunes the paths' sysfs; again: nothing to do" {
	export STORPROV_DEVROOT="$BATS_TEST_TMPDIR/devroot" FAKE_LOG="$BATS_TEST_TMPDIR/commands.log"
	export FAKE_STATE="$BATS_TEST_TMPDIR/state" PATH="$FIX/fakebin:$PATH"
	: >"$FAKE_LOG"
	cp -rL "$SYSROOT/multipath-2path-nomap" "$BATS_TEST_TMPDIR/w"
	W="$BATS_TEST_TMPDIR/w"
	mkdir -p "$STORPROV_DEVROOT/dev"
	for d in "$W"/sys/block/*; do truncate -s $(($(cat "$d/size") * 512)) "$STORPROV_DEVROOT/dev/$(basename "$d")"; done
	run -0 "$SP" apply --profile "$P" --sysroot "$W" --root "$BATS_TEST_TMPDIR/root" --seed 1 --yes --jobs 1 \
		--lock-file "$BATS_TEST_TMPDIR/run.lock"
	run -0 grep -c '^dmsetup create' "$FAKE_LOG"
	assert_output 2
	run -0 grep '^mkfs.xfs' "$FAKE_LOG"
	assert_line --partial "/dev/mapper/lun1"
	assert_line --partial "/dev/mapper/lun2"
	refute_output --partial "/dev/sd"
	for p in sdb sdc sdd sde; do
		[ "$(cat "$W/sys/block/$p/queue/nr_requests")" = 256 ]
		[ "$(cat "$W/sys/block/$p/queue/max_sectors_kb")" = 1024 ]
		grep -q '\[mq-deadline\]\|^mq-deadline$' "$W/sys/block/$p/queue/scheduler"
	done
	run -0 cat "$BATS_TEST_TMPDIR/root/etc/multipath/conf.d/storprov.conf"
	assert_output --partial 'alias "lun1"'
	: >"$FAKE_LOG"
	run -0 "$SP" apply --profile "$P" --sysroot "$W" --root "$BATS_TEST_TMPDIR/root" --seed 1 --yes --jobs 1 \
		--lock-file "$BATS_TEST_TMPDIR/run.lock"
	assert_output --partial "/dev/mapper/lun1 is there"
	run -1 grep -c '^dmsetup create' "$FAKE_LOG"
	assert_output 0
}

@test "multipath: the conf.d file is owned, and removed when the profile no longer has multipath LUNs" {
	root="$BATS_TEST_TMPDIR/root"
	run -0 "$SP" render --profile "$P" --sysroot "$SYSROOT/multipath-2path" --seed 1 --root "$root"
	f="$root/etc/multipath/conf.d/storprov.conf"
	run -0 cat "$f"
	assert_line '		wwid "3600c0ff000530a3b1f2e6a6501000000"'
	assert_line '	wwid "^3600c0ff000530a3b2a2e6a6501000000$"'
	# idempotent
	run -0 "$SP" render --profile "$P" --sysroot "$SYSROOT/multipath-2path" --seed 1 --root "$root"
	assert_output --partial "unchanged $f"
	# the same profile without multipath LUNs: the file goes
	cat >"$BATS_TEST_TMPDIR/nomp.xml" <<-'X'
	<?xml version="1.0"?>
	<profile version="1" name="multipath-2path">
	  <disks id="os" count="1"><match model="SAMSUNG*"/><tune read-ahead-kb="256"/></disks>
	</profile>
	X
	run -0 "$SP" render --profile "$BATS_TEST_TMPDIR/nomp.xml" --sysroot "$SYSROOT/multipath-2path" --seed 1 --root "$root"
	assert_output --partial "removed $f"
	[ ! -e "$f" ]
	# another profile's file is not overwritten
	run -0 "$SP" render --profile "$P" --sysroot "$SYSROOT/multipath-2path" --seed 1 --root "$root"
	sed 's/name="multipath-2path"/name="other"/' "$P" >"$BATS_TEST_TMPDIR/other.xml"
	run -2 "$SP" render --profile "$BATS_TEST_TMPDIR/other.xml" --sysroot "$SYSROOT/multipath-2path" --seed 1 --root "$root"
	assert_output --partial "owned-by-another-profile"
}

# hostile WWIDs: a quote and blanks in ID_SERIAL (the WWID multipath would use), and in a map's dm uuid
@test "multipath: a WWID with a quote is refused, never written into a rule or multipath.conf" {
	W="$BATS_TEST_TMPDIR/w"
	cp -rL "$SYSROOT/multipath-2path-nomap" "$W"
	for mm in 8:16 8:48; do
		sed -i 's/^E:ID_SERIAL=.*/E:ID_SERIAL=36"00 RUN+="\/bin\/sh"/' "$W/run/udev/data/b$mm"
	done
	run -2 "$SP" render --profile "$P" --sysroot "$W" --seed 1 --root "$BATS_TEST_TMPDIR/root"
	assert_output --partial "[multipath-wwid]"
	assert_output --partial "(2 paths: sdb, sdd"
	[ ! -e "$BATS_TEST_TMPDIR/root/etc/multipath/conf.d/storprov.conf" ]
	[ ! -e "$BATS_TEST_TMPDIR/root/etc/udev/rules.d/70-storprov.rules" ]
	# the same through a map's dm/uuid with a newline inside
	W2="$BATS_TEST_TMPDIR/w2"
	cp -rL "$SYSROOT/multipath-2path" "$W2"
	printf 'mpath-36"x\nRUN+="/bin/sh"\n' >"$W2/sys/block/dm-0/dm/uuid"
	run -2 "$SP" plan --profile "$P" --sysroot "$W2" --seed 1
	assert_output --partial "[multipath-wwid]"
	refute_output --partial 'RUN+='
}

@test "multipath: <gpt> on a multipath LUN is refused with a reason" {
	sed 's|<tune |<gpt><partition id="data" size="100%"/></gpt><tune |' "$P" >"$BATS_TEST_TMPDIR/gpt.xml"
	run -2 "$SP" plan --profile "$BATS_TEST_TMPDIR/gpt.xml" --sysroot "$SYSROOT/multipath-2path"
	assert_output --partial "[multipath-gpt]"
}

@test "multipath: validate --offline makes up one LUN per disk" {
	run -0 "$SP" validate --offline --profile "$P"
}

@test "multipath: verify reads each path and the map back, naming the path" {
	run "$SP" verify --profile "$P" --sysroot "$SYSROOT/multipath-2path" --seed 1
	assert_output --partial "drift sdb (path) queue/max_sectors_kb: expected 1024, found 1280"
	assert_output --partial "drift sdd (path) queue/max_sectors_kb: expected 1024, found 1280"
	assert_output --partial "drift queue/read_ahead_kb: expected 4096, found 128"
	refute_output --partial "sdb (path) queue/read_ahead_kb"
}

@test "multipath: the rendered files pass the independent strict reader" {
	root="$BATS_TEST_TMPDIR/root"
	for s in multipath-2path multipath-2path-nomap; do
		rm -rf "$root"
		run -0 "$SP" render --profile "$P" --sysroot "$SYSROOT/$s" --seed 1 --root "$root"
		run -0 "$TOP/build/tests/render-check" udev "$root/etc/udev/rules.d/70-storprov.rules"
		run -0 "$TOP/build/tests/render-check" multipath "$root/etc/multipath/conf.d/storprov.conf"
		run -0 "$TOP/build/tests/render-check" wwids "$root/etc/multipath/wwids"
	done
	# and the reader can fail: a quote inside a wwid value
	printf 'multipaths {\n\tmultipath {\n\t\twwid "36"00"\n\t}\n}\n' >"$BATS_TEST_TMPDIR/bad.conf"
	run -1 "$TOP/build/tests/render-check" multipath "$BATS_TEST_TMPDIR/bad.conf"
}

@test "multipath: the kickstart include hides the map and every path; a path as OS disk is refused" {
	run -0 "$SP" plan --profile "$P" --sysroot "$SYSROOT/multipath-2path" --format ks
	assert_line "ignoredisk --drives=disk/by-id/dm-uuid-mpath-3600c0ff000530a3b1f2e6a6501000000,sdb,sdd,disk/by-id/dm-uuid-mpath-3600c0ff000530a3b2a2e6a6501000000,sdc,sde"
	for os in sdd dm-1 disk/by-id/dm-uuid-mpath-3600c0ff000530a3b1f2e6a6501000000; do
		run -2 "$SP" plan --profile "$P" --sysroot "$SYSROOT/multipath-2path" --format ks --os-disks "$os"
		assert_output --partial "[system-disk]"
		assert_output --partial "left out: dm-"
	done
	run -0 "$SP" plan --profile "$P" --sysroot "$SYSROOT/multipath-2path" --format ks --os-disks sda
	assert_line "ignoredisk --only-use=sda"
}

@test "multipath: LUNs as md members and PVs go by their maps" {
	cat >"$BATS_TEST_TMPDIR/md.xml" <<-'X'
	<?xml version="1.0"?>
	<profile version="1" name="mp-md">
	  <disks id="lun" count="2" multipath="true"><match vendor="HPE"/></disks>
	  <md id="m" name="mirror" level="1" devices="lun"/>
	  <vg id="vg" name="data" pvs="m"><lv name="x" size="100%FREE"/></vg>
	  <xfs on="vg/x" mountpoint="/data"/>
	</profile>
	X
	run -0 "$SP" plan --profile "$BATS_TEST_TMPDIR/md.xml" --sysroot "$SYSROOT/multipath-2path-nomap" --seed 1 --format json
	run -0 jq -r '.steps[] | select(.kind=="mdadm") | .argv[-2:] | join(" ")' <<<"$output"
	assert_output "/dev/mapper/lun1 /dev/mapper/lun2"
	run -0 "$SP" plan --profile "$BATS_TEST_TMPDIR/md.xml" --sysroot "$SYSROOT/multipath-2path-nomap" --seed 1 --format json
	# mdadm waits for both maps
	run -0 jq -r '[.steps[] | select(.kind=="mdadm") | .after[]] | length' <<<"$output"
	assert_output 2
}

@test "multipath: inventory names each path's map and the LUN's wwid" {
	run -0 "$SP" inventory --sysroot "$SYSROOT/multipath-2path"
	assert_output --partial 'multipath: a path of dm-0 (mpatha), wwid 3600c0ff000530a3b1f2e6a6501000000'
	run -0 "$SP" inventory --sysroot "$SYSROOT/multipath-2path" --format json
	run -0 jq -r '.disks[] | select(.name=="sde") | [.multipath_map, .multipath_wwid] | @tsv' <<<"$output"
	assert_output "$(printf 'dm-1\t3600c0ff000530a3b2a2e6a6501000000')"
}

@test "multipath: /etc/multipath/wwids gets a managed block; lines multipath wrote stay; the block goes with the LUNs" {
	root="$BATS_TEST_TMPDIR/root"
	w="$root/etc/multipath/wwids"
	mkdir -p "$root/etc/multipath"
	printf '# Multipath wwids, Version : 1.0\n# Valid WWIDs:\n/36005076801810523100000000000000a/\n/3600c0ff000530a3b1f2e6a6501000000/\n' >"$w"
	run -0 "$SP" render --profile "$P" --sysroot "$SYSROOT/multipath-2path" --seed 1 --root "$root"
	refute_output --partial "conflicts"
	run -0 cat "$w"
	assert_line "/36005076801810523100000000000000a/"
	assert_line '# >>> storprov managed block (profile "multipath-2path"): regenerated by storprov, edits inside are lost'
	assert_line "/3600c0ff000530a3b2a2e6a6501000000/"
	[ "$(grep -c '^/3600c0ff000530a3b1f2e6a6501000000/$' "$w")" = 2 ] # multipath's own line and ours
	run -0 "$TOP/build/tests/render-check" wwids "$w"
	run -0 "$SP" render --profile "$P" --sysroot "$SYSROOT/multipath-2path" --seed 1 --root "$root"
	assert_output --partial "unchanged $w"
	cat >"$BATS_TEST_TMPDIR/nomp.xml" <<-'X'
	<?xml version="1.0"?>
	<profile version="1" name="multipath-2path">
	  <disks id="os" count="1"><match model="SAMSUNG*"/><tune read-ahead-kb="256"/></disks>
	</profile>
	X
	run -0 "$SP" render --profile "$BATS_TEST_TMPDIR/nomp.xml" --sysroot "$SYSROOT/multipath-2path" --seed 1 --root "$root"
	run -0 cat "$w"
	refute_output --partial "storprov"
	assert_line "/36005076801810523100000000000000a/"
	assert_line "/3600c0ff000530a3b1f2e6a6501000000/"
	refute_line "/3600c0ff000530a3b2a2e6a6501000000/"
}
