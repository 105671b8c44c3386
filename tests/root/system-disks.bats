#!/usr/bin/env bats
# System disks on the live kernel: loop devices, a partition of one mounted at
# /boot inside a private mount namespace (unshare -m: the host's mounts are
# untouched), and storprov reading the kernel's own /proc/self/mountinfo and
# /dev. Results are read back with img_sum (a CRC), sgdisk and blkid.
load ../bats/test_helper

setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices and mount namespaces"
	losetup -f >/dev/null 2>&1 || skip "no loop devices"
	command -v unshare >/dev/null || skip "no unshare"
	LOOPS=()
	ROOT="$BATS_TEST_TMPDIR/root"
}

teardown() {
	for l in "${LOOPS[@]}"; do
		losetup -d "$l" 2>/dev/null || true
	done
	rm -f /dev/storprov-test-osdisk-$$
}

new_loop() {
	local img="$BATS_TEST_TMPDIR/disk${#LOOPS[@]}.img"
	truncate -s "$1" "$img"
	LOOP=$(losetup -f --show -P "$img")
	LOOPS+=("$LOOP")
	IMG=$img
	N=$(basename "$LOOP")
}

# two 1 GiB loops A and B; A gets a partition with ext4 on it
two_loops() {
	new_loop 1G; A=$N; A_IMG=$IMG; A_DEV=$LOOP
	new_loop 1G; B=$N; B_IMG=$IMG
	n=$(for d in /sys/block/loop*; do [ -f "$d/loop/backing_file" ] && [ "$(cat "$d/size")" = 2097152 ] && echo x; done | wc -l)
	[ "$n" -eq 2 ] || skip "other 1 GiB loop devices exist"
	echo "start=2048, size=200MiB" | sfdisk -q --label gpt "$A_DEV" >/dev/null
	partx -u "$A_DEV" 2>/dev/null || true
	for _ in 1 2 3 4 5 6 7 8 9 10; do [ -b "${A_DEV}p1" ] && break; sleep 0.2; done
	[ -b "${A_DEV}p1" ] || skip "no partition node"
	mkfs.ext4 -q "${A_DEV}p1"
	cat >"$BATS_TEST_TMPDIR/p.xml" <<-XML
	<?xml version="1.0"?>
	<profile version="1" name="two-loops">
	  <disks id="d" count="2" wipe="true"><match name="loop*" min-size="1G" max-size="1G"/></disks>
	  <xfs on="d" mountpoint="/d%n"/>
	</profile>
	XML
}

@test "the live mount table: a loop partition mounted at /boot keeps its disk out of every plan" {
	two_loops
	# no mount: both loops are planned (the test can tell)
	run -0 "$SP" plan --profile "$BATS_TEST_TMPDIR/p.xml" --format json
	[ "$(jq -r '[.objects[] | select(.kind=="disk") | .device] | sort | join(" ")' <<<"$output")" = "$(printf '/dev/%s\n' "$A" "$B" | sort | paste -sd' ')" ]
	before=$(img_sum "$A_IMG")
	# /boot on A's partition (read-only: the mount writes nothing), in a namespace of its own
	run unshare -m sh -c "mount -o ro,noload ${A_DEV}p1 /boot && grep ' /boot ' /proc/self/mountinfo >&2 && \
		'$SP' apply --profile '$BATS_TEST_TMPDIR/p.xml' --root '$ROOT' --yes"
	echo "$output"
	[ "$status" -eq 2 ]
	assert_output --partial "left out: $A matches too, but it is a system disk (${A}p1 is mounted at /boot)"
	assert_output --partial "[system-disk]"
	[ "$(img_sum "$A_IMG")" = "$before" ]
	run -0 blkid -o value -s TYPE "${A_DEV}p1"
	assert_output ext4
	# and the host never saw the mount
	run -1 grep -q " /boot .* ${A_DEV}p1 " /proc/self/mountinfo
}

@test "the live /dev: --os-disks by a link of our own and by the device node keeps the disk, the other is written" {
	two_loops
	ln -s "$A" /dev/storprov-test-osdisk-$$
	before=$(img_sum "$A_IMG")
	cat >"$BATS_TEST_TMPDIR/one.xml" <<-XML
	<?xml version="1.0"?>
	<profile version="1" name="one-loop">
	  <disks id="d" count="1" wipe="true"><match name="loop*" min-size="1G" max-size="1G"/></disks>
	  <xfs on="d" mountpoint="/d"/>
	</profile>
	XML
	for spelling in "/dev/storprov-test-osdisk-$$" "/dev/$A/" "$A"; do
		run -0 "$SP" plan --profile "$BATS_TEST_TMPDIR/one.xml" --format ks --os-disks "$spelling"
		assert_line "ignoredisk --only-use=$A"
		assert_line "# the OS goes on $A only; storprov's disks ($B) stay invisible to anaconda"
	done
	run -0 "$SP" apply --profile "$BATS_TEST_TMPDIR/one.xml" --root "$ROOT" --yes --os-disks "/dev/storprov-test-osdisk-$$"
	[ "$(img_sum "$A_IMG")" = "$before" ]
	run -0 blkid -o value -s TYPE "/dev/$B"
	assert_output xfs
}
