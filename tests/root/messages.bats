#!/usr/bin/env bats
# What apply says while it works (issue 31, item 7): "step N/M" on every
# step line, and its own word, before mkfs.xfs's, on the AG size it chose.
load ../bats/test_helper

setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"
	losetup -f >/dev/null 2>&1 || skip "no loop devices"
	truncate -s 2G "$BATS_TEST_TMPDIR/d.img"
	LOOP=$(losetup -f --show -P "$BATS_TEST_TMPDIR/d.img")
	N=$(basename "$LOOP")
	ROOT=$BATS_TEST_TMPDIR/root
}

teardown() {
	[ -n "${LOOP:-}" ] && losetup -d "$LOOP" 2>/dev/null || true
}

@test "apply says step N/M, and why its AG size is a whole number of stripes before mkfs.xfs warns about it" {
	cat >"$BATS_TEST_TMPDIR/p.xml" <<XML
<?xml version="1.0"?>
<profile version="1" name="messages">
  <disks id="lun" count="1">
    <match name="$N"/>
    <hwraid level="5" members="4" chunk="64K"/>
    <gpt><partition id="data" size="100%"/></gpt>
  </disks>
  <xfs on="lun.data" label="lun" mountpoint="/data"/>
</profile>
XML
	run -0 "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$ROOT" --yes --lock-file "$BATS_TEST_TMPDIR/lock"
	total=$(grep -cE '^storprov: \[ *[0-9.]+s\] step [0-9]+/[0-9]+ (start|created): ' <<<"$output")
	[ "$total" -ge 3 ]
	# every step line carries N/M, M the same everywhere, the last step M/M
	refute_output --regexp 'step [0-9]+ (start|created|done|failed|skipped|verified)'
	m=$(grep -oE 'step [0-9]+/[0-9]+ ' <<<"$output" | sed 's/.*\///; s/ //' | sort -u)
	[ "$(wc -l <<<"$m")" -eq 1 ]
	grep -qE "step $m/$m (start|created|applied|unchanged)" <<<"$output"
	# storprov says why it chose the AG size, once; mkfs.xfs's warning about it is not repeated
	assert_output --partial "AG size is a multiple of the stripe width: that is deliberate"
	warn=$(grep -in 'AG size is a multiple of stripe width' <<<"$output" | grep -v deliberate | head -n 1 | cut -d: -f1)
	[ -z "$warn" ]
	run -0 xfs_info "${LOOP}p1"
	assert_output --regexp "sunit=16 +swidth=48 blks"
}
