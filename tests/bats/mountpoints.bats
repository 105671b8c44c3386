#!/usr/bin/env bats
# Mountpoints as mount(8) and systemd see them (issue 19): the OS's own
# mountpoints are refused unless the <xfs> says system="true", and a foreign
# fstab line spelling the profile's mountpoint another way ("/d1/", "//d1",
# "/./d1") is the same mountpoint. Checked on the files' text.

load test_helper

setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	S="$SYSROOT/grid-3ware-raid5"
	mkdir -p "$ROOT/etc"
}

# profile MOUNTPOINT [XFS-ATTRS]: one XFS on an md RAID1 of the two LUNs
profile() {
	cat >"$BATS_TEST_TMPDIR/p.xml" <<-XML
	<?xml version="1.0" encoding="UTF-8"?>
	<profile version="1" name="mp">
	  <disks id="lun" count="2"><match vendor="AMCC"/></disks>
	  <md id="m" level="1" devices="lun"/>
	  <xfs on="m" label="data" mountpoint="$1" ${2:-}/>
	</profile>
	XML
	echo "$BATS_TEST_TMPDIR/p.xml"
}

render() { # PROFILE
	"$SP" render --profile "$1" --sysroot "$S" --root "$ROOT" --seed 1
}

os_fstab() {
	cat >"$ROOT/etc/fstab" <<-'FSTAB'
	UUID=0a3e5e0c-6d3c-4f5b-9d53-7b1c1a0f0001 /      xfs  defaults 0 0
	UUID=0a3e5e0c-6d3c-4f5b-9d53-7b1c1a0f0002 /boot  xfs  defaults 0 0
	UUID=0a3e5e0c-6d3c-4f5b-9d53-7b1c1a0f0003 /home/ xfs  defaults 0 0
	UUID=0a3e5e0c-6d3c-4f5b-9d53-7b1c1a0f0004 //var  xfs  defaults 0 0
	UUID=0a3e5e0c-6d3c-4f5b-9d53-7b1c1a0f0005 none   swap defaults 0 0
	FSTAB
}

@test "a mountpoint the target root's fstab gives the OS (/home/, //var) is refused, nothing written" {
	os_fstab
	local before mp
	before=$(sha256sum "$ROOT/etc/fstab")
	for mp in /var /var/ /home; do
		run -2 render "$(profile "$mp")"
		assert_output --partial "p.xml:5"
		assert_output --partial "[system-mountpoint]"
		assert_output --partial "is the OS's own ${mp%/}"
		assert_output --partial 'system="true"'
	done
	[ "$(sha256sum "$ROOT/etc/fstab")" = "$before" ]
	[ ! -e "$ROOT/etc/udev" ]
	[ ! -e "$ROOT/etc/mdadm" ]
}

@test "/usr and /etc are refused only when the target root's fstab has them; /home1 and /var2 are not /home or /var" {
	os_fstab
	run -0 render "$(profile /usr)"
	grep -qP '^UUID=\S+\t/usr\txfs' "$ROOT/etc/fstab"
	rm -rf "$ROOT"; mkdir -p "$ROOT/etc"; os_fstab
	run -0 render "$(profile /home1)"
	run -0 render "$(profile /var2)"
	printf 'LABEL=usr /usr/ xfs defaults 0 0\n' >>"$ROOT/etc/fstab"
	run -2 render "$(profile /usr)"
	assert_output --partial "mountpoint /usr is the OS's own /usr (line 10 of /etc/fstab mounts it)"
}

@test "/, /boot and /boot/efi are refused on any root, and system=\"true\" allows an OS mountpoint" {
	for mp in / /boot //boot/efi/; do
		run -2 render "$(profile "$mp")"
		assert_output --partial "[system-mountpoint]"
	done
	[ ! -e "$ROOT/etc/fstab" ]
	os_fstab
	run -0 render "$(profile /var 'system="true"')"
	# the foreign //var line is replaced by the managed block, kept behind a #
	grep -qF '# storprov: replaced by the managed block: UUID=0a3e5e0c-6d3c-4f5b-9d53-7b1c1a0f0004 //var' "$ROOT/etc/fstab"
	grep -qP '^UUID=\S+\t/var\txfs' "$ROOT/etc/fstab"
}
