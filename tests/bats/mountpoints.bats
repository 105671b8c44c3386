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

@test "a foreign fstab line spelling the profile's mountpoint /storage/data1/, //storage/data1 or /storage/./data1 clashes" {
	local sp
	for sp in /storage/data1/ //storage/data1 /storage/./data1 /storage//data1//; do
		rm -rf "$ROOT"
		mkdir -p "$ROOT/etc"
		# the line mounts the profile's own partition (a hand-made mount of the LUN): replaced
		printf '/dev/sdb1 %s xfs defaults 0 0\n' "$sp" >"$ROOT/etc/fstab"
		run -0 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$S" --root "$ROOT" --seed 1
		assert_output --partial "conflicts with what the profile manages; commented out"
		# the hand-made line is no longer live there: only the managed line is
		! grep -q "^/dev/sdb1" "$ROOT/etc/fstab"
		grep -qxF "# storprov: replaced by the managed block: /dev/sdb1 $sp xfs defaults 0 0" "$ROOT/etc/fstab"
		grep -qP '^UUID=\S+\t/storage/data1\txfs' "$ROOT/etc/fstab"
		# from a device that is not the profile's, the same spelling is the node's own mountpoint: refused
		printf '/dev/sdz1 %s xfs defaults 0 0\n' "$sp" >"$ROOT/etc/fstab"
		run -2 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$S" --root "$ROOT" --seed 1
		assert_output --partial "mountpoint /storage/data1 is the node's own /storage/data1: line 1 of /etc/fstab mounts it from /dev/sdz1"
		grep -qxF "/dev/sdz1 $sp xfs defaults 0 0" "$ROOT/etc/fstab"
	done
}

@test "a foreign /storage/data10 or /storage/data1.old is not /storage/data1" {
	printf '/dev/sdz1 /storage/data10 xfs defaults 0 0\n/dev/sdz2 /storage/data1.old xfs defaults 0 0\n' >"$ROOT/etc/fstab"
	run -0 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$S" --root "$ROOT" --seed 1
	refute_output --partial "commented out"
	run -0 grep -c "^/dev/sdz" "$ROOT/etc/fstab"
	assert_output 2
}

@test "a systemd .mount unit whose Where= spells the profile's mountpoint is refused, nothing written" {
	local w
	for w in /storage/data1 /storage/data1/ //storage//data1 /storage/./data1; do
		rm -rf "$ROOT"
		mkdir -p "$ROOT/etc/systemd/system"
		printf '[Unit]\nDescription=foreign\n\n[Mount]\nWhat=/dev/sdz1\nWhere = %s\nType=xfs\n' "$w" \
			>"$ROOT/etc/systemd/system/storage-data1.mount"
		run -2 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$S" --root "$ROOT" --seed 1
		assert_output --partial "$ROOT/etc/systemd/system/storage-data1.mount:6"
		assert_output --partial "[mount-unit]"
		assert_output --partial "Where=$w is the profile's mountpoint /storage/data1"
		[ "$(find "$ROOT" -type f | wc -l)" -eq 1 ]
	done
	# another mountpoint, or a unit that is not a .mount, is left alone
	printf '[Mount]\nWhat=/dev/sdz1\nWhere=/storage/data10\n' >"$ROOT/etc/systemd/system/storage-data1.mount"
	printf '[Mount]\nWhere=/storage/data1\n' >"$ROOT/etc/systemd/system/x.service"
	run -0 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$S" --root "$ROOT" --seed 1
}

@test "a foreign fstab line spelling the mountpoint with octal escapes (as libmount decodes them) clashes; a blank is another path" {
	local sp
	for sp in '/storage/d\141ta1' '/storage\057data1' '/storage/data\061/'; do
		rm -rf "$ROOT"
		mkdir -p "$ROOT/etc"
		printf '/dev/sdb1 %s xfs defaults 0 0\n' "$sp" >"$ROOT/etc/fstab"
		run -0 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$S" --root "$ROOT" --seed 1
		assert_output --partial "conflicts with what the profile manages; commented out"
		grep -qxF "# storprov: replaced by the managed block: /dev/sdb1 $sp xfs defaults 0 0" "$ROOT/etc/fstab"
	done
	# "/storage/data\0401" is "/storage/data 1": not the profile's, kept byte for byte
	rm -rf "$ROOT"; mkdir -p "$ROOT/etc"
	printf '/dev/sdz1 /storage/data\\0401 xfs defaults 0 0\n' >"$ROOT/etc/fstab"
	run -0 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$S" --root "$ROOT" --seed 1
	refute_output --partial "commented out"
	grep -qxF '/dev/sdz1 /storage/data\0401 xfs defaults 0 0' "$ROOT/etc/fstab"
	# the OS's /usr spelled /\165sr is /usr
	rm -rf "$ROOT"; mkdir -p "$ROOT/etc"
	printf 'LABEL=usr /\\165sr xfs defaults 0 0\n' >"$ROOT/etc/fstab"
	run -2 render "$(profile /usr)"
	assert_output --partial "mountpoint /usr is the OS's own /usr (line 1 of /etc/fstab mounts it)"
	# a profile mountpoint with a blank is refused at load, with the rule named
	run -2 render "$(profile '/storage/data 1')"
	assert_output --partial 'mountpoint="/storage/data 1" is not valid'
	assert_output --partial "[schema]"
}

@test "a .mount unit in run/ or usr/lib/systemd/system, or one with no Where= named for the mountpoint, is refused" {
	local d
	for d in run/systemd/system usr/lib/systemd/system etc/systemd/system; do
		rm -rf "$ROOT"
		mkdir -p "$ROOT/$d"
		printf '[Mount]\nWhat=/dev/sdz1\nWhere=/storage/data2/\n' >"$ROOT/$d/storage-data2.mount"
		run -2 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$S" --root "$ROOT" --seed 1
		assert_output --partial "$ROOT/$d/storage-data2.mount:3"
		assert_output --partial "Where=/storage/data2/ is the profile's mountpoint /storage/data2"
		[ "$(find "$ROOT" -type f | wc -l)" -eq 1 ]
	done
	# no Where=: the name (systemd-escape --path) says where it mounts
	rm -rf "$ROOT"; mkdir -p "$ROOT/etc/systemd/system"
	printf '[Mount]\nWhat=/dev/sdz1\n' >"$ROOT/etc/systemd/system/storage-data1.mount"
	run -2 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$S" --root "$ROOT" --seed 1
	assert_output --partial "storage-data1.mount: error: fs:/storage/data1: the unit's name (no Where=: /storage/data1) is the profile's mountpoint /storage/data1:"
	assert_output --partial "[mount-unit]"
	# escaped names decode: storage-data\x2d1 is /storage/data-1, not /storage/data1
	mv "$ROOT/etc/systemd/system/storage-data1.mount" "$ROOT/etc/systemd/system/storage-data\\x2d1.mount"
	run -0 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$S" --root "$ROOT" --seed 1
}

@test "the target fstab's /opt from a device that is not the profile's (the OS disk's UUID, an NFS export) is refused; /opt/data and system=\"true\" are not" {
	os_fstab
	printf 'UUID=0a3e5e0c-6d3c-4f5b-9d53-7b1c1a0f0006 /opt xfs defaults 0 0\nnas:/export/tools /tools nfs defaults 0 0\n' >>"$ROOT/etc/fstab"
	local before
	before=$(sha256sum "$ROOT/etc/fstab")
	run -2 render "$(profile /opt)"
	assert_output --partial "p.xml:5"
	assert_output --partial "mountpoint /opt is the node's own /opt: line 6 of /etc/fstab mounts it from UUID=0a3e5e0c-6d3c-4f5b-9d53-7b1c1a0f0006, which is not a device of this profile"
	assert_output --partial 'add system="true" to this <xfs> if it deliberately takes over that mountpoint'
	assert_output --partial "[system-mountpoint]"
	run -2 render "$(profile /tools)"
	assert_output --partial "mountpoint /tools is the node's own /tools: line 7 of /etc/fstab mounts it from nas:/export/tools"
	[ "$(sha256sum "$ROOT/etc/fstab")" = "$before" ]
	[ ! -e "$ROOT/etc/mdadm" ]
	# below it: the OS's /opt line stays live, the managed line is added
	run -0 render "$(profile /opt/data)"
	grep -qxF 'UUID=0a3e5e0c-6d3c-4f5b-9d53-7b1c1a0f0006 /opt xfs defaults 0 0' "$ROOT/etc/fstab"
	grep -qP '^UUID=\S+\t/opt/data\txfs' "$ROOT/etc/fstab"
	# system="true": the profile takes /opt over, the OS's line kept behind a #
	rm -rf "$ROOT"; mkdir -p "$ROOT/etc"; os_fstab
	printf 'UUID=0a3e5e0c-6d3c-4f5b-9d53-7b1c1a0f0006 /opt xfs defaults 0 0\n' >>"$ROOT/etc/fstab"
	run -0 render "$(profile /opt 'system="true"')"
	grep -qxF '# storprov: replaced by the managed block: UUID=0a3e5e0c-6d3c-4f5b-9d53-7b1c1a0f0006 /opt xfs defaults 0 0' "$ROOT/etc/fstab"
}
