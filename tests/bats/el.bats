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

# man_text PAGE: what a reader reads, one block (heading, paragraph, list tag, list item) a line:
# macros and font escapes gone, blanks collapsed, so that reflowing a paragraph changes nothing
man_text() {
	awk '
	function flush() { if (buf != "") print buf; buf = "" }
	function add(t) { buf = buf == "" ? t : buf " " t }
	function args(s, alt,   out, n, i, a, q, c, w) { # the words of a macro line, quoted ones whole; .BR and kin join them
		n = 0; q = 0; a = ""
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c == "\"") { q = !q; continue }
			if (c == " " && !q) { if (a != "") w[++n] = a; a = ""; continue }
			a = a c
		}
		if (a != "") w[++n] = a
		out = ""
		for (i = 1; i <= n; i++) out = out (i > 1 && !alt ? " " : "") w[i]
		return out
	}
	/^\.\\"/ { next }
	/^\.(TH|PP|LP|P|IP|nf|fi|EX|EE|br|RS|RE|sp|in)( |$)/ { flush(); next }
	/^\.(SH|SS)( |$)/ { flush(); print args(substr($0, 5), 0); next }
	/^\.TP$/ { flush(); tag = 1; next }
	/^\.(B|I|SM|SB) / { add(args(substr($0, index($0, " ") + 1), 0)); if (tag) { flush(); tag = 0 }; next }
	/^\.(BR|RB|IR|RI|BI|IB) / { add(args(substr($0, index($0, " ") + 1), 1)); if (tag) { flush(); tag = 0 }; next }
	/^\./ { next }
	{ add($0); if (tag) { flush(); tag = 0 } }
	END { flush() }
	' "$1" | sed -e 's/\\-/-/g; s/\\(em/—/g; s/\\(en/–/g; s/\\(mu/×/g; s/\\(bu/•/g; s/\\(dq/"/g' \
		-e 's/\\f[BIRP]//g; s/\\&//g; s/\\ / /g; s/\\e/\\/g' -e 's/[[:space:]]\+/ /g; s/^ //; s/ $//'
}

# man_texts DIR: man_text of every page under man/ into DIR, one file a page
man_texts() {
	local p
	mkdir -p "$1"
	for p in "$TOP"/man/*.[1-9]; do
		man_text "$p" >"$1/${p##*/}"
	done
}

@test "man pages: mandoc -Tlint clean; every option, rd.storprov.* and storprov.* setting documented in one of them" {
	local p o k s all
	[ "$(ls "$TOP"/man/*.[1-9] | wc -l)" -ge 11 ]
	for p in "$TOP"/man/*.[1-9]; do
		run -0 mandoc -Tlint -W style "$p"
		assert_output ""
	done
	all=$(sed 's/\\-/-/g' "$TOP"/man/*.[1-9])
	for o in $(sed -n 's/^ *{"\([a-z-]*\)", [a-z_]*argument.*/\1/p' "$TOP/src/cli/args.c"); do
		[ "$o" = help ] && continue
		grep -qF -- "--$o" <<<"$all" || { echo "no page documents --$o"; false; }
	done
	for k in $(grep -ohE '(rd\.)?storprov\.[a-z-]+=' "$TOP"/hooks/dracut/90storprov/*.sh "$TOP"/kickstart/*.ks | sort -u); do
		grep -qF -- "$k" <<<"$all" || { echo "no page documents $k"; false; }
	done
	for s in KICKSTART DRACUT FILES EXAMPLES; do
		grep -qx "\.SH $s" "$TOP"/man/*.[1-9] || { echo "no page has $s"; false; }
	done
}

@test "man pages: a page per verb with the options its --help lists and the sections of its kind; storprov(8) names them all" {
	local v o p sec
	for v in geometry validate plan render apply verify inventory select controller; do
		p="$TOP/man/storprov-$v.8"
		assert_file_exists "$p"
		grep -qx "storprov\\\\-$v \\\\- .*" "$p" || { echo "storprov-$v.8: NAME is not storprov-$v"; false; }
		for sec in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
			grep -qx "\.SH $sec" "$p" || { echo "storprov-$v.8 has no $sec"; false; }
		done
		run -0 "$SP" "$v" --help
		for o in $(grep -oE '^  --[a-z-]+' <<<"$output"); do
			sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$p" | sed 's/\\-/-/g' | grep -qE -- "^\.BI? $o( |$)" ||
				{ echo "storprov-$v.8: OPTIONS lacks $o"; false; }
		done
	done
	for sec in NAME SYNOPSIS DESCRIPTION ELEMENTS GUARDRAILS RULES EXAMPLES "SEE ALSO"; do
		grep -qx "\.SH $sec" "$TOP/man/storprov.profile.5" || { echo "storprov.profile.5 has no $sec"; false; }
	done
	# the overview: every other page in SEE ALSO, every verb of --help in VERBS
	for p in "$TOP"/man/*.[1-9]; do
		p=${p##*/}
		[ "$p" = storprov.8 ] && continue
		sed -n '/^\.SH SEE ALSO/,$p' "$TOP/man/storprov.8" | sed 's/\\-/-/g' | grep -qE "^\.BR ${p%.*} \(${p##*.}\),?$" ||
			{ echo "storprov.8: SEE ALSO lacks $p"; false; }
	done
	run -0 "$SP" --help
	for v in $(sed -n '/^Verbs:/,/^$/s/^  \([a-z]*\) .*/\1/p' <<<"$output"); do
		sed -n '/^\.SH VERBS/,/^\.SH /p' "$TOP/man/storprov.8" | grep -qx "\.BR storprov\\\\-$v (8)" ||
			{ echo "storprov.8: VERBS lacks $v"; false; }
	done
}

@test "man pages: what the single storprov.8 said before the split (issue 42) lives in exactly one page" {
	# One phrase of each paragraph, list item and tag of the former page (one more for each 500
	# characters of a long one) and the page it moved to: each is in that page and in no other,
	# whatever the reflow. A phrase reworded on purpose is updated here, and so is one that moves.
	local d="$BATS_TEST_TMPDIR/text" p s
	man_texts "$d"
	cat >"$BATS_TEST_TMPDIR/phrases" <<'EOF'
storprov.8 storprov - provision a storage server's disks from a profile
storprov-geometry.8 storprov geometry --level L --members N --chunk SIZE [--legs K]
storprov-validate.8 storprov validate --profile FILE [--sysroot DIR | --offline]
storprov-plan.8 storprov plan --profile FILE [--sysroot DIR] [--seed N] [--format
storprov-render.8 storprov render --profile FILE --root DIR [--sysroot DIR] [--seed N]
storprov-apply.8 storprov apply --profile FILE [--root DIR] [--sysroot DIR] [--yes]
storprov-verify.8 storprov verify --profile FILE [--sysroot DIR] [--root DIR] [--seed
storprov-inventory.8 storprov inventory [--sysroot DIR] [--format text|json]
storprov-select.8 storprov select --profiles DIR [--sysroot DIR] [--format text|json]
storprov.8 storprov runs at provisioning time, from a kickstart %pre or a dracut
storprov.8 the stripe unit (su) and width (sw) and the full stripe, for RAID
storprov.8 partition starts and ends aligned to lcm(1 MiB, full stripe, physical
storprov.8 mdadm --chunk (in KiB, never on RAID1), pvcreate --dataalignment and
storprov.8 stacked striping (an LVM striped LV, or an md array of any level over
storprov.8 over members whose stripe is only an exported hint it is a warning.
storprov.8 0.026–0.050 with -I 128k, 0.0002 with -I 64k, one 384k request per
storprov.8 Over devices whose stripe is only a hint
storprov.8 0.46 with a 128k chunk, 0.0077 with 64k)
storprov.8 under md raid5 over 1m LUN stripes every buffered byte went in
storprov.8 A parity LUN takes a full stripe without reading only when the stripe
storprov.8 A parity disk whose profile sets no max-sectors-kb therefore gets a
storprov.8 Over members whose full stripe does not divide 1 MiB (448k, 1280k)
storprov.8 mkfs.xfs -d su=,sw= and a version 2 log
storprov.8 mkfs.xfs's own AG count (read with a dry run, mkfs.xfs -N, the one
storprov.8 On a striped LV, md raid0 or md raid10 over parity LUNs there is no
storprov.8 fstab entries by UUID with logbufs=8, a logbsize of at least the log
storprov.8 udev rules (numbered 70, matching ID_WWN, ID_SERIAL, ID_PATH, wwid
storprov.8 verify counts such a member as the array's and checks its tuning.
storprov.8 Identities that exist only after creation (md and XFS UUIDs) are
storprov-geometry.8 Prints the geometry of a RAID layout without a profile or a device.
storprov-validate.8 Checks a profile against its RELAX NG schema and every rule
storprov-plan.8 Prints every object with its derived geometry and where each value
storprov-render.8 Writes only the config files under DIR.
storprov-render.8 Mountpoints are compared canonically (repeated slashes, .
storprov-render.8 remove or disable the unit, or choose another mountpoint.
storprov-render.8 Values from the profile or the machine are escaped (fstab
storprov-render.8 a kernel name can move at the next boot).
storprov-apply.8 Before the first write it probes every target device and every
storprov-apply.8 storprov does not grow partitions or filesystems itself.
storprov-apply.8 One that fails (a device too small for the XFS log, options mkfs.xfs
storprov-apply.8 every LV's device-mapper table is read back through libdevmapper and
storprov-apply.8 Each step first looks for its result
storprov-apply.8 The planned partition table carries a planned disk GUID and partition
storprov-apply.8 Each target disk is opened once for its inspection, with O_EXCL, and
storprov-apply.8 when none does, the message says what was checked and that a kernel
storprov-apply.8 a holder that came after the inspection fails the step (exit 1, named
storprov-apply.8 Foreign data is looked for wherever it may start.
storprov-apply.8 512 MiB and 1 GiB ESPs, Anaconda's 600 MiB ESP and 1 GiB /boot), the
storprov-apply.8 A filesystem, md superblock or LVM label found is refused without
storprov-apply.8 md 0.90's place there does not depend on where a 64 KiB-aligned
storprov-apply.8 what they find is data an installer's layout or an md member left
storprov-apply.8 ZFS, whose uberblocks lie beyond the first 128 KiB, and VMFS, whose
storprov-apply.8 Superblock copies are looked for too
storprov-apply.8 XFS AG 1 at the AG size mkfs.xfs chooses by default (4 KiB blocks
storprov-apply.8 An XFS whose magic alone was cleared (wipefs -a) is recognised by AG
storprov-apply.8 an ext2/3/4 with a non-default number of blocks per group (mke2fs -g
storprov-apply.8 apply takes flock(LOCK_EX) on /run/storprov.lock (which records the
storprov-apply.8 Objects marked preserve=true are verified (partition geometry, md
storprov-verify.8 Reads the live node back and compares it, object by object, with the
storprov-verify.8 the mount options in /proc/mounts (every planned option the kernel
storprov-verify.8 its present check names the identity it had (the key its udev rule
storprov-verify.8 the report's first line says which, and why.
storprov-verify.8 label values escape \, " and newline, bytes that are not UTF-8 become
storprov-verify.8 With a captured --sysroot only the tree's sysfs and proc are read
storprov-inventory.8 Lists every disk storprov can see (md and dm devices appear as
storprov-inventory.8 links), and the running system's use of it, if any (JSON
storprov-select.8 Loads every *.xml profile in --profiles DIR and prints the path of
storprov-select.8 the <disks> groups and their <match> rules are read and matched
storprov-select.8 The dracut hook (rd.storprov.profile= a directory) and the kickstart
storprov-controller.8 Lists every logical drive (VD, LD, unit) the RAID controllers report
storprov-controller.8 some tools write a log where they start).
storprov-controller.8 A tool that fails, prints what cannot be read, or runs out of time is
storprov-controller.8 With --sysroot DIR it reads the outputs a capture kept in
storprov-controller.8 Data disks are those of one full stripe
storprov-controller.8 A figure the tool did not print (a strip size, a drive count) is
storprov-controller.8 A logical drive is matched to a block device by every identifier its
storprov-controller.8 identifiers that name different disks, a disk that carries another
storprov.8 when an SELinux label cannot be set on a file storprov writes (see
storprov.8 plan, render, apply, verify
storprov.8 Read devices from DIR/sys, DIR/run/udev/data and DIR/proc (default /).
storprov.8 Where config files are written and filesystems mounted (default / for
storprov.8 Seed for the pre-assigned UUIDs.
storprov-apply.8 Without it apply shows the plan and asks on a terminal, and refuses
storprov-apply.8 after the answer, every step's state and the whole plan.
storprov.8 --command-timeout SECONDS
storprov.8 Each external command apply runs (mkfs.xfs, mdadm, lvm, dmsetup, the
storprov-apply.8 Inspect, write nothing, and answer first
storprov-apply.8 On a provisioned node where only a queue attribute drifted, only that
storprov-apply.8 Mount the filesystems under DIR (the --root of an installer).
storprov.8 for plan also ks, the kickstart include (see KICKSTART).
storprov-validate.8 Each <disks> group gets made-up disks that its <match> selects
storprov-apply.8 It is rendered before anything is touched, so a bad --os-disks is
storprov.8 The OS disks, comma-separated, in any spelling (see SYSTEM DISKS)
storprov-apply.8 for each object what was done (created, kept, applied, unchanged
storprov-apply.8 Before anything else (before the lock, the inspection and any write
storprov-apply.8 Independent steps at once (default 2)
storprov-apply.8 A worker thread that cannot be started refuses the run (exit status 2
storprov-apply.8 Wait for another storprov run, or a program holding a target disk's
storprov-apply.8 The run lock (default /run/storprov.lock).
storprov.8 Where mdadm.conf lives on the target.
storprov.profile.5 storprov refuses, naming the file, the line, the object, the figures
storprov.profile.5 a sysctl pair setting both _ratio and _bytes
storprov.profile.5 <gpt>, <hwraid>, <tune> or wipe=true on a system=true group, and a
storprov.profile.5 Profiles are refused when larger than 4 MiB, binary (a NUL byte)
storprov.profile.5 components, blanks, control characters or backslashes
storprov.profile.5 An io_min below 8 KiB is a write granularity (drives, NVMe), and an
storprov.profile.5 See /usr/share/storprov/storprov.rng for the schema and
storprov.profile.5 <profile version="1" name="grid-3ware-raid5"> <disks id="lun"
storprov.profile.5 <hwraid from=controller/> takes each selected disk's level, strip and
storprov.profile.5 A stated <hwraid> is checked against the same VD wherever the
storprov.profile.5 References name a <disks> group (every disk of it), a partition of
storprov.profile.5 An <md> may carry a <gpt> of its own (any level), with the
storprov.profile.5 <md id="r5" name="r5data" level="5" chunk="64K" devices="sas"> <gpt>
storprov.profile.5 Its partitions start and end on lcm(1 MiB, the md's full stripe
storprov.profile.5 The GPT is written after mdadm --create and before any PV or
storprov.profile.5 /, /boot and /boot/efi always
storprov.profile.5 and any mountpoint above one of them.
storprov.profile.5 With swalloc, XFS starts every file of at least a full stripe on a
storprov.profile.5 Measured in the VM on md RAID5/6 and LVM layouts (5 paired
storprov.profile.5 partition and LV sizes also take 40%, 40%VG and 100%FREE.
storprov.profile.5 <disks id=lun count=2 multipath=true> selects dual-pathed (FC, SAS)
storprov.profile.5 without a map (an installer, no multipathd) apply makes it with
storprov.profile.5 A path used by a group without multipath="true" is refused (rule
storprov.profile.5 An NVMe namespace (nvmeXnY) has no SCSI vendor string
storprov.profile.5 inventory shows them as such ("io hint
storprov.profile.5 plan says so in each geometry's reason.
storprov-controller.8 One row of src/discover/ctl_tools.c per tool
storprov-controller.8 storcli64, storcli, perccli64, perccli, storcli2, perccli2
storprov-controller.8 /call/vall show all J into storcli-call-vall-show-all.json
storprov-controller.8 storcli exits non-zero when a controller's command fails and says why
storprov-controller.8 ssacli, hpssacli, hpacucli
storprov-controller.8 ctrl all show config detail into
storprov-controller.8 A logical drive's fields end at any line at or above its indentation
storprov-controller.8 GETCONFIG N LD into arcconf-getconfig-N-ld.txt, for N from 1 to the
storprov-controller.8 "Segment N", "Group G, Segment N", "Device N", or IBM's "Number of
storprov-controller.8 The JSON's sizes are in KiB and it prints no parity-group count
storprov-controller.8 show into tw_cli-show.txt, then /cN show for each controller listed
storprov-controller.8 Columns are found by their header words, which differ by version
storprov-controller.8 MegaCli64, MegaCli, megacli
storprov-controller.8 -AdpCount -NoLog into megacli-adpcount.txt (MegaCli exits with the
storprov-controller.8 Primary-0, 1, 5, 6 with Qualifier 0, 0, 3, 3
storprov-controller.8 megaraid_sas puts target T at SCSI channel 2 + T/128, id T % 128, LUN
storprov.8 storprov never selects nor writes a system disk, and every data group
storprov.8 the running system uses it, through any partition, md array, LVM
storprov.8 The files are read as bytes
storprov.8 a <disks id=os count=1 system=true> group selects it.
storprov.8 Each name is resolved against the machine
storprov.8 A multipath LUN is one system disk whatever path or name is given.
storprov.8 Anaconda passes no environment to %pre
storprov.8 storprov.profile=PATH|URL
storprov.8 a path in the installer, a directory of profiles (storprov select
storprov.8 Pass --os-disks (to %pre and %post).
storprov.8 udev, tuned or both (to %pre and %post
storprov.8 storprov.rpm=URL, storprov.dracut-rpm=URL
storprov.8 RPMs that %post installs into the target (default
storprov.8 %pre --erroronfail runs storprov apply --ks-include
storprov.8 one masked there stays masked
storprov.8 2.39 and 3.4.33) or when an ELF file in the image asks for a newer
storprov.8 The storprov dracut module (dracut -a storprov, package
storprov.8 The profile inside the initramfs (required to run), or the directory
storprov.8 rd.storprov.jobs=N, rd.storprov.seed=N
storprov.8 An initqueue finished hook waits until every <disks> group of the
storprov.8 rd.storprov.mdadm-conf=PATH
storprov.8 mdadm.conf in the new root.
storprov.8 Pass --tuning (udev, tuned or both).
storprov.8 pre-mount provisions with --root /run/storprov/root
storprov.8 a timer masked there stays masked (mask it to keep it off, as the
storprov.8 When the target has /etc/lvm/devices/system.devices (or the file
storprov.8 With --tuning tuned or both, storprov writes a tuned profile
storprov.8 Its [main] includes the root's active profile
storprov.8 A plain disk or LUN keyed by ID_WWN or ID_SERIAL gets an instance of
storprov.8 switching the scheduler resets nr_requests, so the udev rule sets
storprov.8 nr_requests, max_sectors_kb and the md attributes stay in the udev
storprov.8 tuned's disk plugin also takes md and device-mapper devices.
storprov.8 with tuned the profile's sysctls, and the included profile's
storprov.8 storprov never runs tuned-adm
storprov.8 verify compares tuned.conf with what render writes, like every file
storprov.8 When the target root has etc/selinux/config with SELINUX=enforcing or
storprov.8 A directory that has a label keeps it
storprov.8 A side file that is there but is a link, a FIFO, a device or
storprov.8 A root with SELINUX=disabled or without etc/selinux/config is not
storprov.8 0 on success, 1 on a runtime failure (a command failed
storprov.8 Seconds (1 to 3600, default 20) each command of a RAID controller
storprov.8 Seconds (1 to 3600, default 60) all the controller commands of one
storprov.8 look up every /dev path under this directory, so that image files
storprov.8 STORPROV_TEST_BEFORE_WRITES
storprov.8 a shell command apply runs after the inspection and the confirmation
storprov.8 STORPROV_TEST_INSPECT_RENDEZVOUS
storprov.8 with worker threads, each disk's inspection waits (30 s at most)
storprov.8 storprov's lines in a marked block, by UUID, with nofail for a
storprov.8 /etc/udev/rules.d/70-storprov.rules
storprov.8 Block-device tuning, keyed by ID_WWN, ID_SERIAL, ID_PATH, the
storprov.8 The profile's sysctls (not with --tuning tuned).
storprov.8 the tuned profile (see TUNED)
storprov.8 /etc/multipath/conf.d/storprov.conf
storprov.8 a multipaths entry (wwid, alias) and a blacklist_exceptions wwid per
storprov.8 the LUNs' WWIDs in a marked block (find_multipaths "strict"
storprov.8 /etc/mdadm/mdadm.conf or /etc/mdadm.conf
storprov.8 ARRAY lines in a marked block (--mdadm-conf).
storprov.8 PVs added (see LVM DEVICES FILE).
storprov.8 /usr/share/storprov/examples/, /etc/storprov/profiles/
storprov.8 Shipped example profiles (never candidates in the dracut module)
storprov.8 The RELAX NG schema (also built into the binary
storprov.8 /usr/lib/systemd/system-preset/50-storprov.preset
storprov.8 The RPM's preset, enable storprov-verify.timer
storprov.8 Settings of storprov-verify.service (STORPROV_PROFILE
storprov.8 /usr/lib/dracut/modules.d/90storprov/
storprov.8 the pid, profile and start time of the apply that holds it.
storprov.8 Every file is written to a temporary file, fsync'ed, renamed over the
storprov.8 a profile that manages a mountpoint or array another profile's block
storprov-validate.8 Lint a profile on a workstation, and as JSON for a CI job
storprov-validate.8 storprov validate --offline --profile rack7.xml storprov validate
storprov-geometry.8 The figures for 12 disks in RAID5 with 64 KiB strips
storprov-geometry.8 storprov geometry --level 5 --members 12 --chunk 64K
storprov-apply.8 What apply would do on this machine, touching nothing
storprov-apply.8 storprov apply --profile rack7.xml --dry-run --format json
storprov.8 In a kickstart %pre, with the OS on sda
storprov.8 storprov apply --profile /tmp/storprov-profile.xml --yes \ --root
storprov.8 The PXE kernel command line of a node (one line)
storprov.8 inst.repo=http://deploy/rocky9/
storprov.8 Provision from an initramfs on the next boot
storprov.8 dracut -f -a storprov # kernel command line
storprov.8 mkfs.xfs(8), xfs(5), mdadm(8), md(4), lvm(8), udev(7), sysctl.d(5)
EOF
	run awk '
	FILENAME != ARGV[ARGC - 1] { if (FNR == 1) { n++; name[n] = FILENAME; sub(".*/", "", name[n]) }; text[n] = text[n] "\n" $0; next }
	{
		page = $1; phrase = substr($0, length($1) + 2); hits = ""; k = 0
		for (i = 1; i <= n; i++) if (index(text[i], phrase)) { k++; hits = hits " " name[i] }
		if (k != 1 || hits != " " page) printf "not only in %s (in:%s): %s\n", page, hits == "" ? " none" : hits, phrase
	}
	' "$d"/* "$BATS_TEST_TMPDIR/phrases"
	assert_output ""
	[ "$(wc -l <"$BATS_TEST_TMPDIR/phrases")" -ge 200 ]
	# the former page's sections, each in one page
	while read -r p s; do
		[ "$(grep -lx "\.S[HS] $s" "$TOP"/man/*.[1-9])" = "$TOP/man/$p" ] || { echo "$s is not only in $p"; false; }
	done <<'EOF'
storprov.8 VERBS
storprov.profile.5 GUARDRAILS
storprov.profile.5 Multipath LUNs
storprov.profile.5 NVMe namespaces
storprov-controller.8 CONTROLLER TOOLS
storprov.8 SYSTEM DISKS
storprov.8 KICKSTART
storprov.8 DRACUT
storprov.8 LVM DEVICES FILE
storprov.8 TUNED
storprov.8 SELINUX
storprov.8 ENVIRONMENT
storprov.8 FILES
EOF
}

@test "man pages: every sentence of storprov.8 before the split is in exactly one page (STORPROV_MAN_SPLIT_FROM=4e411e7)" {
	# The check the split was made with (issue 42): each piece of each sentence of the single page
	# at that commit, read from git, is in exactly one of the pages (a piece under 25 characters or
	# of one word, a heading, an option's tag, a path, may stand in several); the pieces changed on
	# purpose are listed. Pages edited since then differ from it, so it runs only when asked for.
	[ -n "${STORPROV_MAN_SPLIT_FROM:-}" ] || skip "STORPROV_MAN_SPLIT_FROM=4e411e7 runs the split's own check"
	local d="$BATS_TEST_TMPDIR/text"
	man_texts "$d"
	git -C "$TOP" show "$STORPROV_MAN_SPLIT_FROM:man/storprov.8" >"$BATS_TEST_TMPDIR/old.8"
	man_text "$BATS_TEST_TMPDIR/old.8" | sed 's/\([.;:]\) /\1\n/g' | awk 'length($0) > 0' >"$BATS_TEST_TMPDIR/pieces"
	run awk '
	FILENAME != ARGV[ARGC - 1] { if (FNR == 1) { n++; name[n] = FILENAME; sub(".*/", "", name[n]) }; text[n] = text[n] "\n" $0; next }
	{
		k = 0; hits = ""
		for (i = 1; i <= n; i++) if (index(text[i], $0)) { k++; hits = hits " " name[i] }
		if (k == 0 || (k > 1 && length($0) >= 25 && index($0, " "))) printf "%s:%s: %s\n", k ? k " pages" : "missing", hits, $0
	}
	' "$d"/* "$BATS_TEST_TMPDIR/pieces"
	# changed on purpose: the controller's synopsis gained --capture; a cross-reference names the page
	# it points into; an option's verb prefix went where the verb's own page holds it; --wipe got
	# its own list item
	diff -u - <(sort <<<"$output") <<'EOF'
missing:: --wipe Allow wiping every target that carries signatures.
missing:: <hwraid from=controller/> takes each selected disk's level, strip and data disks from the RAID controller's logical drive behind it, as storprov controller lists it (every tool of CONTROLLER TOOLS;
missing:: Seconds (1 to 3600, default 20) each command of a RAID controller tool (CONTROLLER TOOLS) may take before it is killed with all it started.
missing:: The storprov-verify.service unit writes them atomically to /var/lib/node_exporter/textfile_collector/storprov.prom, with the profile named in /etc/storprov/verify.env (see FILES).
missing:: With --format json the report has the JSON header (see --format), host, time, profile, status (clean or drift), a summary and every check, for fleet collection.
missing:: a foreign fstab line that mounts another device there refuses the plan (rule system-mountpoint, below).
missing:: after success, write the kickstart include to FILE.
missing:: check the schema and every rule that needs no disk, on a machine without the disks.
missing:: first, when there are any, the system disks and why each is one (see SYSTEM DISKS;
missing:: none (nothing beyond the physical sector), write-granularity (an io_min below 8 KiB, or no io_opt above it), raid-stripe (a strip of 8 KiB or more and a full stripe above it, parity unknown), nvme-write-granularity (an NVMe namespace's NPWG/NOWS, see NVMe namespaces)), alignment offset, rotational, holders of the disk and its partitions, signatures (partition table, filesystems) and mount or swap use, every name below /dev it answers to (what --os-disks takes;
missing:: see FILES).
missing:: select:
missing:: storprov controller [--sysroot DIR] [--format text|json]
missing:: the directory of profiles to choose from.
missing:: validate only:
EOF
}

@test "storprov.profile(5): RULES names every rule id a bad profile is refused by" {
	local r rules
	rules=$(sed -n '/^\.SH RULES/,/^\.SH /p' "$TOP/man/storprov.profile.5" | sed 's/\\-/-/g; s/"//g' | grep -E '^\.BR? ')
	[ -n "$rules" ]
	for r in $(grep -ohE '\[[a-z0-9]+(-[a-z0-9]+)*\]' "$TOP"/tests/bad-profiles/*.expect | tr -d '[]' | sort -u); do
		grep -qE "^\.BR? (.* )?$r( ,|$| )" <<<"$rules" || { echo "RULES lacks $r"; false; }
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

@test "man page: the data directory storprov.8's FILES section names is the spec's (the RPM's) and make install's default, and no page names another" {
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
	for p in $(sed 's/\\-/-/g' "$TOP"/man/*.[1-9] | grep -oE '(/[A-Za-z0-9_.-]+)*/share/storprov' | sort -u); do
		[ "$p" = "$rpmdir" ] || [ "$p" = "$makedir" ] || { echo "a page under man/ names $p"; false; }
	done
}
