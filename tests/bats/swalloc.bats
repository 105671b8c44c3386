#!/usr/bin/env bats
# <xfs swalloc="...">: the profile chooses the swalloc mount option (issue 21).
# Default: on parity stripes. "false": files of one or two full stripes pack
# at stripe units (fewer reads: bench/README.md, stripefiles), at the cost of
# full-stripe writes into large files. "true": on any stripe. Checked on the
# plan's mount options and on the fstab line render writes.

load test_helper

setup() {
	S="$SYSROOT/md-raid6-lvm"
	P="$BATS_TEST_TMPDIR/p.xml"
}

# with ATTRS: md-raid6-lvm.xml with ATTRS added to its first <xfs>
with() {
	sed "0,/<xfs on=\"data\/scratch\"/s||<xfs on=\"data/scratch\" $1|" "$TOP/profiles/md-raid6-lvm.xml" >"$P"
}

opts() { # the mount options of the XFS labelled scratch, from the plan's JSON
	run -0 --separate-stderr "$SP" plan --profile "$P" --sysroot "$S" --format json
	jq -r '[.. | objects | select(.label? == "scratch" and has("mount_options")) | .mount_options][0]' <<<"$output"
}

@test "swalloc: on by default on a parity stripe" {
	with ''
	[ "$(opts)" = "noatime,logbufs=8,logbsize=256k,swalloc" ]
}

@test "swalloc: false leaves it out of the plan and of fstab" {
	with 'swalloc="false"'
	[ "$(opts)" = "noatime,logbufs=8,logbsize=256k" ]
	# the other filesystems keep the default
	run -0 --separate-stderr "$SP" plan --profile "$P" --sysroot "$S" --format json
	[ "$(jq -r '[.. | objects | select(.label? == "home" and has("mount_options")) | .mount_options][0]' <<<"$output")" = \
		"noatime,logbufs=8,logbsize=256k,swalloc" ]
	run -0 "$SP" render --profile "$P" --sysroot "$S" --root "$BATS_TEST_TMPDIR/root" --seed 1
	run -0 grep -E '[[:space:]]/scratch[[:space:]]' "$BATS_TEST_TMPDIR/root/etc/fstab"
	refute_output --partial swalloc
	run -0 grep -E '[[:space:]]/home[[:space:]]' "$BATS_TEST_TMPDIR/root/etc/fstab"
	assert_output --partial swalloc
}

@test "swalloc: true is the default's option, spelled out" {
	with 'swalloc="true"'
	[ "$(opts)" = "noatime,logbufs=8,logbsize=256k,swalloc" ]
}

@test "swalloc: false with swalloc in mount-options is refused, naming the line and rule" {
	sed 's|<xfs on="data/scratch" label="scratch" mountpoint="/scratch" mount-options="noatime"/>|<xfs on="data/scratch" label="scratch" mountpoint="/scratch" mount-options="noatime,swalloc" swalloc="false"/>|' \
		"$TOP/profiles/md-raid6-lvm.xml" >"$P"
	grep -q 'swalloc="false"' "$P"
	run -2 "$SP" plan --profile "$P" --sysroot "$S"
	assert_output --partial "[swalloc]"
	assert_output --partial "p.xml:35"
}

@test "swalloc: a value that is not a boolean is refused by the attribute table" {
	with 'swalloc="sometimes"'
	run -2 "$SP" validate --profile "$P"
	assert_output --partial "swalloc"
	assert_output --partial "sometimes"
}
