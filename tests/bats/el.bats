#!/usr/bin/env bats
# The CLI for EL admins: validate --offline and --format json, plan --format ks,
# apply --dry-run --format json, apply --ks-include, the LVM devices file step,
# and boot-critical="false" -> nofail.
load test_helper

setup() {
	export STORPROV_DEVROOT="$BATS_TEST_TMPDIR/devroot"
	export FAKE_LOG="$BATS_TEST_TMPDIR/commands.log"
	export FAKE_STATE="$BATS_TEST_TMPDIR/state"
	export PATH="$FIX/fakebin:$PATH"
	: >"$FAKE_LOG"
}

world() { # NAME: the fixture sysfs copied, a sparse file per disk
	cp -rL "$SYSROOT/$1" "$BATS_TEST_TMPDIR/sys-$1"
	WORLD="$BATS_TEST_TMPDIR/sys-$1"
	mkdir -p "$STORPROV_DEVROOT/dev"
	for d in "$WORLD"/sys/block/*; do
		truncate -s $(($(cat "$d/size") * 512)) "$STORPROV_DEVROOT/dev/$(basename "$d")"
	done
}

@test "validate --offline: every shipped profile passes on a machine without its disks" {
	# this machine has none of the profiles' disks: the plain validate fails
	run -2 "$SP" validate --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/md-raid6-lvm"
	assert_output --partial "expected 2 disks, found 0"
	for p in "$TOP"/profiles/*.xml; do
		run -0 "$SP" validate --offline --profile "$p"
		assert_line --regexp ": valid offline; [0-9]+ made-up disks? selected"
		assert_line --partial "not checked without the hardware: max-sectors-kb"
	done
}

@test "validate --offline: rules that need no disk still fail; --offline excludes --sysroot" {
	run -2 "$SP" validate --offline --profile "$FIX/profiles/broken.xml"
	assert_output --partial "[raid1-chunk]"
	assert_output --partial "[sysctl-ratio-bytes]"
	assert_output --partial "[mount-option]"
	run -2 "$SP" validate --offline --profile "$FIX/profiles/bad-schema.xml"
	assert_output --partial "[schema]"
	run -2 "$SP" validate --offline --sysroot / --profile "$TOP/profiles/many-luns.xml"
	assert_output --partial "exclude each other"
}

@test "validate --format json: verdict and diagnostics, with format and version" {
	run -2 "$SP" validate --offline --format json --profile "$FIX/profiles/broken.xml"
	[ "$(jq -r .format <<<"$output")" = storprov-validate ]
	[ "$(jq -r .format_version <<<"$output")" = 2 ]
	[ "$(jq -r .storprov_version <<<"$output")" = "$("$TOP/scripts/version.sh")" ]
	[ "$(jq .valid <<<"$output")" = false ]
	[ "$(jq .errors <<<"$output")" = 5 ]
	[ "$(jq -r '[.diagnostics[].rule] | sort | unique | join(",")' <<<"$output")" = "mount-option,raid1-chunk,stripe-cache,sysctl-ratio-bytes" ]
	[ "$(jq '.diagnostics[] | select(.rule=="raid1-chunk") | .line' <<<"$output")" = 7 ]
	run -0 "$SP" validate --format json --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware"
	[ "$(jq .valid <<<"$output")" = true ]
	[ "$(jq .offline <<<"$output")" = false ]
	[ "$(jq .disks <<<"$output")" = 2 ]
	run -2 "$SP" validate --format json --profile /nonexistent.xml
	[ "$(jq .valid <<<"$output")" = false ]
	[ "$(jq -r '.diagnostics[0].file' <<<"$output")" = /nonexistent.xml ]
}

@test "plan --format ks: both ignoredisk forms; a bad OS disk is bad input" {
	run -0 "$SP" plan --profile "$TOP/profiles/many-luns.xml" --sysroot "$SYSROOT/many-luns" --format ks
	assert_line "ignoredisk --drives=$(jq -r '[.objects[] | select(.kind=="disk") | .device | sub("/dev/";"")] | join(",")' \
		< <("$SP" plan --profile "$TOP/profiles/many-luns.xml" --sysroot "$SYSROOT/many-luns" --format json))"
	refute_line --regexp '^clearpart'
	run -0 "$SP" plan --profile "$TOP/profiles/many-luns.xml" --sysroot "$SYSROOT/many-luns" --format ks --os-disks sda
	assert_line "ignoredisk --only-use=sda"
	assert_line "clearpart --all --initlabel --drives=sda"
	[ "$(grep -c '^ignoredisk' <<<"$output")" = 1 ]
	run -2 "$SP" plan --profile "$TOP/profiles/many-luns.xml" --sysroot "$SYSROOT/many-luns" --format ks --os-disks 'sda;reboot'
	assert_output --partial 'no disk of'
	assert_output --partial 'answers to "sda;reboot"'
	assert_output --partial "[os-disks]"
	run -2 "$SP" plan --profile "$TOP/profiles/many-luns.xml" --sysroot "$SYSROOT/many-luns" --format ks --os-disks $'sda\nreboot'
	assert_output --partial "--os-disks takes disk names"
	# the OS disks shape the plan in every format: they are kept from the data groups
	run -0 "$SP" plan --profile "$TOP/profiles/many-luns.xml" --sysroot "$SYSROOT/many-luns" --os-disks sda
	assert_line "  sda: --os-disks sda"
	run -2 "$SP" validate --profile "$TOP/profiles/many-luns.xml" --format ks
}

@test "apply --dry-run --format json: the plan as JSON with apply's verdict, nothing written" {
	world grid-3ware
	run -0 --separate-stderr "$SP" apply --dry-run --format json --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$WORLD" \
		--root "$BATS_TEST_TMPDIR/root" --seed 1
	[ "$(jq -r .format <<<"$output")" = storprov-plan ]
	[ "$(jq .dry_run <<<"$output")" = true ]
	[ "$(jq .exit_code <<<"$output")" = 0 ]
	[ "$(jq '[.steps[] | select(.kind=="mkfs")] | length' <<<"$output")" = 2 ]
	[ ! -s "$FAKE_LOG" ]
	[ ! -e "$BATS_TEST_TMPDIR/root/etc/fstab" ]
	# refused targets show as exit_code 2
	# an XFS signature on lun1's disk: refused without --wipe
	mkfs.xfs -q -f "$STORPROV_DEVROOT/dev/sdb" >/dev/null 2>&1 || truncate -s 1G "$STORPROV_DEVROOT/dev/sdb"
	blkid -p "$STORPROV_DEVROOT/dev/sdb" | grep -q xfs
	run -2 --separate-stderr "$SP" apply --dry-run --format json --profile "$TOP/profiles/grid-3ware-raid5.xml" \
		--sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" --seed 1
	[ "$(jq .exit_code <<<"$output")" = 2 ]
	[ "$(jq .refused <<<"$output")" = true ]
	[[ $stderr == *"refused: lun1"* ]]
}

@test "apply --ks-include: written after success, never on a refusal" {
	world grid-3ware
	run -0 "$SP" apply --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" \
		--seed 1 --yes --ks-include "$BATS_TEST_TMPDIR/inc.ks" --os-disks sda
	run -0 cat "$BATS_TEST_TMPDIR/inc.ks"
	assert_line "ignoredisk --only-use=sda"
	assert_line "clearpart --all --initlabel --drives=sda"
	# refused up front: the OS disk is one of the profile's
	rm -rf "$BATS_TEST_TMPDIR/state" "$BATS_TEST_TMPDIR/inc.ks" && : >"$FAKE_LOG"
	world grid-3ware
	run -2 "$SP" apply --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root2" \
		--seed 1 --yes --ks-include "$BATS_TEST_TMPDIR/inc.ks" --os-disks sdc
	assert_output --partial "left out: sdc matches too, but it is a system disk (--os-disks sdc)"
	assert_output --partial "[system-disk]"
	[ ! -e "$BATS_TEST_TMPDIR/inc.ks" ]
	[ ! -s "$FAKE_LOG" ]
}

@test "LVM devices file: PVs added to the target's file when it has one, never when it has none or says 0" {
	world md-raid6-lvm
	root=$BATS_TEST_TMPDIR/root
	# no devices file on the target: nothing added, nothing created
	run -0 "$SP" apply --profile "$TOP/profiles/md-raid6-lvm.xml" --sysroot "$WORLD" --root "$root" --seed 1 --yes --jobs 1
	assert_output --partial "LVM devices file: no $root/etc/lvm/devices/system.devices"
	run grep -c lvmdevices "$FAKE_LOG"
	assert_output 0
	[ ! -e "$root/etc/lvm/devices/system.devices" ]
	# the target has one (EL 9 installer): each PV is added, with the target's LVM dir
	mkdir -p "$root/etc/lvm/devices"
	printf 'VERSION=1.1.1\nIDTYPE=sys_wwid IDNAME=x DEVNAME=/dev/sda2 PVID=y\n' >"$root/etc/lvm/devices/system.devices"
	: >"$FAKE_LOG"
	run -0 "$SP" apply --profile "$TOP/profiles/md-raid6-lvm.xml" --sysroot "$WORLD" --root "$root" --seed 1 --yes --jobs 1
	assert_output --partial "LVM devices file: $root/etc/lvm/devices/system.devices exists"
	assert_output --partial "LVM_SYSTEM_DIR=$root/etc/lvm $ lvm lvmdevices"
	run -0 grep '^lvm lvmdevices' "$FAKE_LOG"
	assert_line --partial -- "--devicesfile system.devices --adddev /dev/md/r6a"
	assert_line --partial -- "--devicesfile system.devices --adddev /dev/md/r6b"
	[ "${#lines[@]}" = 2 ]
	# lvm.conf says 0: never turned on
	printf 'devices {\n\tuse_devicesfile = 0\n}\n' >"$root/etc/lvm/lvm.conf"
	: >"$FAKE_LOG"
	run -0 "$SP" apply --profile "$TOP/profiles/md-raid6-lvm.xml" --sysroot "$WORLD" --root "$root" --seed 1 --yes --jobs 1
	assert_output --partial "use_devicesfile = 0"
	run grep -c lvmdevices "$FAKE_LOG"
	assert_output 0
}

@test "boot-critical=\"false\": nofail in fstab (findmnt reads it), in the plan, schema-checked" {
	sed 's|mount-options="noatime,inode64"/>|mount-options="noatime,inode64" boot-critical="false"/>|' \
		"$TOP/profiles/grid-3ware-raid5.xml" >"$BATS_TEST_TMPDIR/p.xml"
	run -0 "$SP" render --profile "$BATS_TEST_TMPDIR/p.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 --root "$BATS_TEST_TMPDIR/r"
	for m in /storage/data1 /storage/data2; do
		run -0 findmnt --tab-file "$BATS_TEST_TMPDIR/r/etc/fstab" --noheadings -o OPTIONS "$m"
		assert_output "noatime,inode64,logbufs=8,logbsize=256k,swalloc,nofail"
	done
	run -0 --separate-stderr "$SP" plan --profile "$BATS_TEST_TMPDIR/p.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 --format json
	[ "$(jq '[.objects[] | select(.kind=="xfs") | .boot_critical] | unique' -c <<<"$output")" = '[false]' ]
	# the default stays boot-critical: no nofail
	run -0 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 --root "$BATS_TEST_TMPDIR/r2"
	run -1 grep nofail "$BATS_TEST_TMPDIR/r2/etc/fstab"
	sed 's|boot-critical="false"|boot-critical="no"|' "$BATS_TEST_TMPDIR/p.xml" >"$BATS_TEST_TMPDIR/bad.xml"
	run -2 "$SP" validate --offline --profile "$BATS_TEST_TMPDIR/bad.xml"
	assert_output --partial "[schema]"
}

@test "man page: mandoc -Tlint clean; every option, rd.storprov.* and storprov.* setting documented" {
	run -0 mandoc -Tlint -W style "$TOP/man/storprov.8"
	assert_output ""
	man=$(sed 's/\\-/-/g' "$TOP/man/storprov.8")
	for o in $(sed -n 's/^ *{"\([a-z-]*\)", [a-z_]*argument.*/\1/p' "$TOP/src/cli/args.c"); do
		[ "$o" = help ] && continue
		grep -qF -- "--$o" <<<"$man" || { echo "storprov.8 lacks --$o"; false; }
	done
	for k in $(grep -ohE '(rd\.)?storprov\.[a-z-]+=' "$TOP"/hooks/dracut/90storprov/*.sh "$TOP"/kickstart/*.ks | sort -u); do
		grep -qF -- "$k" <<<"$man" || { echo "storprov.8 lacks $k"; false; }
	done
	for s in KICKSTART DRACUT FILES EXAMPLES; do
		grep -q "^\.SH $s" "$TOP/man/storprov.8"
	done
}

@test "mdadm.conf: an EL-looking root gets /etc/mdadm.conf by default and verifies clean; --mdadm-conf overrides" {
	p="$TOP/profiles/md-raid6-lvm.xml" s="$SYSROOT/md-raid6-lvm"
	rendered() { # ROOT: the mdadm.conf files render leaves under ROOT
		run -0 "$SP" render --profile "$p" --sysroot "$s" --seed 1 --root "$1" "${@:2}"
		(cd "$1" && find . -name '*mdadm*.conf' -type f | sort)
	}
	# /etc/redhat-release
	r="$BATS_TEST_TMPDIR/el9"
	mkdir -p "$r/etc"
	echo 'Rocky Linux release 9.4 (Blue Onyx)' >"$r/etc/redhat-release"
	[ "$(rendered "$r")" = ./etc/mdadm.conf ]
	grep -q '^ARRAY /dev/md/r6a ' "$r/etc/mdadm.conf"
	run -3 "$SP" verify --profile "$p" --sysroot "$s" --seed 1 --root "$r"
	assert_line "ok       file file:/etc/mdadm.conf (1 check)"
	run -3 "$SP" verify --profile "$p" --sysroot "$s" --seed 1 --root "$r" --format json
	[ "$(jq -r '.checks[] | select(.object == "file:/etc/mdadm.conf") | .status' <<<"$output")" = ok ]
	[ "$(jq -r '[.checks[] | select(.object | startswith("file:"))] | map(select(.status != "ok")) | length' <<<"$output")" = 0 ]
	# ID_LIKE in usr/lib/os-release, etc/os-release a link to it (never followed)
	r="$BATS_TEST_TMPDIR/alma"
	mkdir -p "$r/etc" "$r/usr/lib"
	printf 'NAME="AlmaLinux"\nID="almalinux"\nID_LIKE="rhel centos fedora"\n' >"$r/usr/lib/os-release"
	ln -s ../usr/lib/os-release "$r/etc/os-release"
	[ "$(rendered "$r")" = ./etc/mdadm.conf ]
	# Fedora: ID=fedora, no ID_LIKE
	r="$BATS_TEST_TMPDIR/fedora"
	mkdir -p "$r/etc"
	printf 'ID=fedora\nVERSION_ID=40\n' >"$r/etc/os-release"
	[ "$(rendered "$r")" = ./etc/mdadm.conf ]
	# Debian, and a root that says nothing: /etc/mdadm/mdadm.conf
	r="$BATS_TEST_TMPDIR/debian"
	mkdir -p "$r/etc"
	printf 'ID=debian\nVERSION_ID="12"\n' >"$r/etc/os-release"
	[ "$(rendered "$r")" = ./etc/mdadm/mdadm.conf ]
	[ "$(rendered "$BATS_TEST_TMPDIR/bare")" = ./etc/mdadm/mdadm.conf ]
	# a kickstart-built node: /etc/mdadm.conf there, no release file: that file
	r="$BATS_TEST_TMPDIR/ks"
	mkdir -p "$r/etc"
	echo 'MAILADDR root' >"$r/etc/mdadm.conf"
	[ "$(rendered "$r")" = ./etc/mdadm.conf ]
	grep -qx 'MAILADDR root' "$r/etc/mdadm.conf"
	# --mdadm-conf still wins
	r="$BATS_TEST_TMPDIR/el-override"
	mkdir -p "$r/etc"
	echo 'Red Hat Enterprise Linux release 9.4 (Plow)' >"$r/etc/redhat-release"
	[ "$(rendered "$r" --mdadm-conf /etc/mdadm/mdadm.conf)" = ./etc/mdadm/mdadm.conf ]
	run -3 "$SP" verify --profile "$p" --sysroot "$s" --seed 1 --root "$r" --mdadm-conf /etc/mdadm/mdadm.conf
	assert_line "ok       file file:/etc/mdadm/mdadm.conf (1 check)"
}

@test "man page: the data directory the FILES section names is the spec's (the RPM's) and make install's default, and the page names no other" {
	# the spec installs with DATADIR=%{_datadir}/%{name}; make install's default is $(PREFIX)/share/storprov
	grep -q 'DATADIR=%{_datadir}/%{name} ' "$TOP/storprov.spec.in"
	grep -q '^Name: *storprov$' "$TOP/storprov.spec.in"
	local rpmdir makedir prefix p files
	rpmdir=$(rpm --eval '%{_datadir}')/storprov
	[ "$rpmdir" = /usr/share/storprov ]
	prefix=$(sed -n 's/^PREFIX *?= *//p' "$TOP/Makefile")
	makedir=$(sed -n 's/^DATADIR *?= *//p' "$TOP/Makefile")
	makedir=${makedir//\$(PREFIX)/$prefix}
	[ "$makedir" = /usr/local/share/storprov ]
	files=$(sed -n '/^\.SH FILES/,/^\.SH [A-Z]/p' "$TOP/man/storprov.8" | sed 's/\\-/-/g')
	grep -qF "$rpmdir/storprov.rng" <<<"$files"
	grep -qF "$rpmdir/examples/" <<<"$files"
	# the RPM's data directory is called so, and make install's is named beside it
	grep -qF "$rpmdir" <<<"$files"
	grep -qF "$makedir" <<<"$files"
	grep -q "RPM's data directory" <<<"$files"
	for p in $(sed 's/\\-/-/g' "$TOP/man/storprov.8" | grep -oE '(/[A-Za-z0-9_.-]+)*/share/storprov' | sort -u); do
		[ "$p" = "$rpmdir" ] || [ "$p" = "$makedir" ] || { echo "storprov.8 names $p"; false; }
	done
}
