#!/usr/bin/env bats
# System disks: storprov never selects nor writes the disks the running system
# uses (mountinfo, swaps, the kernel command line), nor the OS disks a profile
# names (<disks system="true">) or --os-disks names in any spelling. apply runs
# on the captured grid node (sda the OS disk, sdb and sdc the LUNs) with sparse
# device images and fake mdadm/lvm/mkfs.xfs; what happened is read back with
# other tools: the fake tools' log, strace's record of opens, sha256 of the
# images, jq on the plan.
load test_helper

OS_BYID=disk/by-id/ata-WDC_WD2500JS-60NCB1_WD-WCANK7381924

setup() {
	export STORPROV_DEVROOT="$BATS_TEST_TMPDIR/devroot"
	export FAKE_LOG="$BATS_TEST_TMPDIR/commands.log"
	export FAKE_STATE="$BATS_TEST_TMPDIR/state"
	export PATH="$FIX/fakebin:$PATH"
	: >"$FAKE_LOG"
}

# world NAME: the fixture copied (links resolved), a sparse image per disk with a canary in its first MiB
world() {
	W="$BATS_TEST_TMPDIR/sys-$1"
	rm -rf "$W" "$STORPROV_DEVROOT"
	cp -rL "$SYSROOT/$1" "$W"
	mkdir -p "$STORPROV_DEVROOT/dev"
	local d
	for d in "$W"/sys/block/*; do
		truncate -s $(($(cat "$d/size") * 512)) "$STORPROV_DEVROOT/dev/$(basename "$d")"
		printf 'storprov system-disk canary %s\n' "$(basename "$d")" |
			dd of="$STORPROV_DEVROOT/dev/$(basename "$d")" conv=notrunc status=none
	done
}

# root_on_sda: the captured machine's / and /boot are on sda (proc/self/mountinfo as the kernel writes it)
root_on_sda() {
	mkdir -p "$W/proc/self"
	printf '22 1 8:2 / / rw,relatime shared:1 - ext3 /dev/sda2 rw\n23 22 8:1 / /boot rw,relatime shared:2 - ext3 /dev/sda1 rw\n' \
		>"$W/proc/self/mountinfo"
}

# image_state DISK: what stands for an image (terabytes, sparse): size, mtime, hash of the first MiB
image_state() {
	local f="$STORPROV_DEVROOT/dev/$1"
	printf '%s %s\n' "$(stat -c '%s %Y.%y' "$f")" "$(head -c 1048576 "$f" | sha256sum)"
}

# profile FILE COUNT [SYSTEM-GROUP]: a data group of COUNT rotational disks (a match the OS disk fits too)
profile() {
	cat >"$1" <<-XML
	<?xml version="1.0"?>
	<profile version="1" name="broad">
	  $3
	  <disks id="d" count="$2"><match rotational="true"/></disks>
	  <xfs on="d" mountpoint="/d%n"/>
	</profile>
	XML
}

# traced_apply ARGS...: apply under strace; $opened_sda is the write-opens of sda's image
traced_apply() {
	local trace="$BATS_TEST_TMPDIR/strace.log"
	# under ASan without the leak check: LeakSanitizer cannot run under ptrace.
	# --seccomp-bpf: the traced processes (storprov, each mkfs.xfs) stop at the
	# traced calls only, not at every system call
	run env ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"} \
		strace --seccomp-bpf -f -qq -e trace=open,openat,openat2,creat,truncate -o "$trace" "$SP" apply --yes --jobs 1 "$@"
	grep -q open "$trace" || { echo "strace recorded nothing"; return 1; }
	opened_sda=$(grep -E "\"$STORPROV_DEVROOT/dev/sda\", [^)]*(O_WRONLY|O_RDWR|O_CREAT|O_TRUNC)" "$trace" || true)
}

@test "the harness can fail: knowing nothing of the OS disk, a missing LUN lets sda fill the count and be written" {
	world grid-3ware-one-missing
	profile "$BATS_TEST_TMPDIR/p.xml" 2
	before=$(image_state sda)
	traced_apply --profile "$BATS_TEST_TMPDIR/p.xml" --sysroot "$W" --root "$BATS_TEST_TMPDIR/root" --seed 1
	[ "$status" -eq 0 ]
	grep -F 'mkfs.xfs' "$FAKE_LOG" | grep -F '/dev/sda'
	[ -n "$opened_sda" ]
}

@test "a missing LUN never lets the OS disk fill the count: found in use, named by the profile, or by --os-disks" {
	for how in mountinfo group os-disks; do
		world grid-3ware-one-missing
		: >"$FAKE_LOG"
		args=()
		case $how in
		mountinfo) root_on_sda; profile "$BATS_TEST_TMPDIR/p.xml" 2 ;;
		group) profile "$BATS_TEST_TMPDIR/p.xml" 2 '<disks id="os" count="1" system="true"><match path="pci-0000:00:1f.2-ata-1"/></disks>' ;;
		os-disks) profile "$BATS_TEST_TMPDIR/p.xml" 2; args=(--os-disks "/dev/$OS_BYID") ;;
		esac
		before=$(image_state sda)
		traced_apply --profile "$BATS_TEST_TMPDIR/p.xml" --sysroot "$W" --root "$BATS_TEST_TMPDIR/root-$how" --seed 1 "${args[@]}"
		echo "[$how] $output"
		[ "$status" -eq 2 ]
		assert_output --partial "expected 2 disks, found 1"
		assert_output --partial "left out: sda matches too, but it is a system disk"
		assert_output --partial "[system-disk]"
		assert_output --partial "nothing was touched"
		[ ! -s "$FAKE_LOG" ]
		[ -z "$opened_sda" ]
		[ "$(image_state sda)" = "$before" ]
		[ ! -e "$BATS_TEST_TMPDIR/root-$how" ]
	done
}

@test "--os-disks: every spelling of the OS disk gives one OS disk, the LUNs provisioned, sda never opened for writing" {
	local spellings=(
		"sda=sda" "/dev/sda=sda" "/dev//sda/=sda" "sda/=sda" "/dev/./sda=sda" "/dev/disk/by-id/../../sda=sda"
		"/dev/$OS_BYID=$OS_BYID" "$OS_BYID=$OS_BYID" "by-id/${OS_BYID#disk/by-id/}=$OS_BYID"
		"${OS_BYID#disk/by-id/}=$OS_BYID" "/dev/disk/by-path/pci-0000:00:1f.2-ata-1=disk/by-path/pci-0000:00:1f.2-ata-1"
		"pci-0000:00:1f.2-ata-1=$OS_BYID" "sd[a]=$OS_BYID" "/dev/disk/by-id/ata-*=$OS_BYID" "/dev/osdisk=$OS_BYID"
		"/dev/disk/by-id/site-os=disk/by-id/site-os" "disk/by-diskseq/1=disk/by-diskseq/1")
	for s in "${spellings[@]}"; do
		spelling=${s%=*} want=${s##*=}
		world grid-3ware
		# a site link of our own and a chain through it, as a live /dev could hold them
		mkdir -p "$W/dev/disk/by-id"
		ln -s ../../sda "$W/dev/disk/by-id/site-os"
		ln -s disk/by-id/site-os "$W/dev/osdisk"
		rm -rf "$FAKE_STATE" "$BATS_TEST_TMPDIR/root" "$BATS_TEST_TMPDIR/inc.ks"
		: >"$FAKE_LOG"
		before=$(image_state sda)
		traced_apply --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$W" --root "$BATS_TEST_TMPDIR/root" \
			--seed 1 --ks-include "$BATS_TEST_TMPDIR/inc.ks" --os-disks "$spelling"
		echo "[$spelling] $output"
		[ "$status" -eq 0 ]
		run -0 grep -E '^(ignoredisk|clearpart)' "$BATS_TEST_TMPDIR/inc.ks"
		assert_output "ignoredisk --only-use=$want
clearpart --all --initlabel --drives=$want"
		[ "$(grep -c 'mkfs.xfs' "$FAKE_LOG")" -eq 2 ]
		[ -z "$(grep -F '/dev/sda' "$FAKE_LOG")" ]
		[ -z "$opened_sda" ]
		[ "$(image_state sda)" = "$before" ]
	done
}

@test "--os-disks: every spelling of a LUN the profile needs keeps it out, and the plan is refused untouched" {
	world grid-3ware
	mkdir -p "$W/dev/disk/by-id"
	ln -s ../../sdc "$W/dev/disk/by-id/site-lun"
	for spelling in sdc /dev/sdc/ /dev/disk/by-id/wwn-0x600050e04ab926008e3100005d170000 \
		scsi-3600050e04ab926008e3100005d170000 /dev/disk/by-path/pci-0000:04:00.0-scsi-0:0:0:0 \
		/dev/disk/by-path/../by-id/../../sdc 'sd[c]' /dev/disk/by-id/site-lun site-lun 'sda,sdc'; do
		: >"$FAKE_LOG"
		before=$(image_state sdc)
		run -2 "$SP" apply --yes --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$W" \
			--root "$BATS_TEST_TMPDIR/root" --seed 1 --ks-include "$BATS_TEST_TMPDIR/inc.ks" --os-disks "$spelling"
		assert_output --partial "left out: sdc matches too, but it is a system disk (--os-disks"
		assert_output --partial "[system-disk]"
		[ ! -s "$FAKE_LOG" ]
		[ "$(image_state sdc)" = "$before" ]
		[ ! -e "$BATS_TEST_TMPDIR/inc.ks" ] && [ ! -e "$BATS_TEST_TMPDIR/root" ]
	done
}

@test "--os-disks: what names no whole disk is refused with the fix, exit 2, nothing touched" {
	world grid-3ware
	mkdir -p "$W/dev/disk/by-id" "$W/dev/disk/by-path"
	ln -s ../../sdb "$W/dev/disk/by-id/twin"
	ln -s ../../sdc "$W/dev/disk/by-path/twin"
	while IFS='|' read -r spelling want; do
		[ -n "$spelling" ] || continue
		: >"$FAKE_LOG"
		run -2 "$SP" apply --yes --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$W" \
			--root "$BATS_TEST_TMPDIR/root" --seed 1 --os-disks "$spelling"
		echo "[$spelling] $output"
		assert_output --partial "$want"
		[ ! -s "$FAKE_LOG" ]
		[ ! -e "$BATS_TEST_TMPDIR/root" ]
	done <<-'EOF'
	sda2|"sda2" is the partition sda2 of sda; name the disk (sda): clearpart clears whole disks
	/dev/disk/by-id/ata-WDC_WD2500JS-60NCB1_WD-WCANK7381924-part1|is the partition sda1 of sda
	/dev/disk/by-uuid/a06e2d94-1f3b-4c85-8e7a-2c4b9f10d3e8|is the partition sda2 of sda
	/dev/disk/by-partuuid/0007a1b2-01|is the partition sda1 of sda
	sdz|answers to "sdz"
	/dev/disk/by-id/wwn-0x600050e04ab71d00|answers to "/dev/disk/by-id/wwn-0x600050e04ab71d00"
	nvme*|"nvme*" matches no disk
	twin|"twin" names 2 disks (sdb, sdc); give the full /dev/disk/by-id/ path
	sda;reboot|answers to "sda;reboot"
	/dev/../etc/passwd|its ".." leaves /dev
	/etc/passwd|an absolute path must be below /dev
	/dev|it names /dev itself
	EOF
	# what cannot be a name at all stops at the command line
	for bad in $'sda\n%pre' $'sda\r' $'\t' ',' ; do
		run -2 "$SP" plan --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$W" --os-disks "$bad"
		assert_output --partial "--os-disks takes disk names"
		refute_line --regexp '^%pre'
		[ "$(grep -c $'\r' <<<"$output")" -eq 0 ]
	done
	long=$(head -c 5000 /dev/zero | tr '\0' a)
	run -2 "$SP" plan --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$W" --os-disks "$long"
	assert_output --partial "longer than 4096 bytes"
}

@test "system=\"true\": the OS disk by its by-id link in the include, never written; --os-disks must agree" {
	world grid-3ware
	profile "$BATS_TEST_TMPDIR/p.xml" 2 '<disks id="os" count="1" system="true"><match path="pci-0000:00:1f.2-ata-*"/></disks>'
	before=$(image_state sda)
	traced_apply --profile "$BATS_TEST_TMPDIR/p.xml" --sysroot "$W" --root "$BATS_TEST_TMPDIR/root" --seed 1 \
		--ks-include "$BATS_TEST_TMPDIR/inc.ks"
	[ "$status" -eq 0 ]
	run -0 grep -E '^(ignoredisk|clearpart)' "$BATS_TEST_TMPDIR/inc.ks"
	assert_output "ignoredisk --only-use=$OS_BYID
clearpart --all --initlabel --drives=$OS_BYID"
	[ -z "$opened_sda" ]
	[ "$(image_state sda)" = "$before" ]
	[ -z "$(grep -F '/dev/sda' "$FAKE_LOG")" ]
	run -0 "$SP" plan --profile "$BATS_TEST_TMPDIR/p.xml" --sysroot "$W" --seed 1 --format json
	[ "$(jq -r '[.objects[] | select(.kind=="disk") | .device] | join(" ")' <<<"$output")" = "/dev/sdb /dev/sdc" ]
	[ "$(jq -c '.system_disks[0] | [.name, .source, .group, .kickstart_name]' <<<"$output")" = "[\"sda\",[\"system-group\"],\"os\",\"$OS_BYID\"]" ]
	# the same disk by --os-disks: agreed; another: refused
	run -0 "$SP" plan --profile "$BATS_TEST_TMPDIR/p.xml" --sysroot "$W" --format ks --os-disks /dev/sda
	assert_line "ignoredisk --only-use=sda"
	run -2 "$SP" plan --profile "$BATS_TEST_TMPDIR/p.xml" --sysroot "$W" --format ks --os-disks sdb
	assert_output --partial "--os-disks names sdb, but the profile's system=\"true\" groups select sda"
	# the group claims first wherever it stands in the profile
	sed -i '/system="true"/d; s|^</profile>|<disks id="os" count="1" system="true"><match vendor="ATA"/></disks>\n</profile>|' "$BATS_TEST_TMPDIR/p.xml"
	run -0 "$SP" plan --profile "$BATS_TEST_TMPDIR/p.xml" --sysroot "$W" --format ks
	assert_line "ignoredisk --only-use=$OS_BYID"
}

@test "the running system's disks: plan lists them with the reason, inventory shows them, select looks past them" {
	world grid-3ware
	root_on_sda
	run -0 "$SP" plan --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$W" --seed 1
	assert_line "System disks (never selected, never written)"
	assert_line "  sda: sda2 is mounted at /"
	run -0 "$SP" inventory --sysroot "$W"
	assert_line "    system disk: sda2 is mounted at / (storprov never selects it)"
	assert_line "    names: sda, /dev/disk/by-diskseq/1, /dev/$OS_BYID, /dev/disk/by-path/pci-0000:00:1f.2-ata-1"
	run -0 "$SP" inventory --sysroot "$W" --format json
	[ "$(jq -r '.disks[] | select(.name=="sda") | .system_use' <<<"$output")" = "sda2 is mounted at /" ]
	[ "$(jq -r '.disks[] | select(.name=="sdb") | .system_use' <<<"$output")" = null ]
	# a fleet: the broad profile fits this node only with the OS disk, so it does not fit
	mkdir -p "$BATS_TEST_TMPDIR/fleet"
	profile "$BATS_TEST_TMPDIR/fleet/broad.xml" 3
	cp "$TOP/profiles/grid-3ware-raid5.xml" "$BATS_TEST_TMPDIR/fleet/"
	run -0 "$SP" select --profiles "$BATS_TEST_TMPDIR/fleet" --sysroot "$W"
	assert_output "$BATS_TEST_TMPDIR/fleet/grid-3ware-raid5.xml"
	rm "$W/proc/self/mountinfo"
	run -2 "$SP" select --profiles "$BATS_TEST_TMPDIR/fleet" --sysroot "$W"
	assert_output --partial "2 profiles in"
}

@test "a multipath LUN by any of its names is one system disk; the profile's data group comes up short" {
	for s in multipath-2path multipath-2path-nomap; do
		for spelling in sdd sdb dm-uuid-mpath-3600c0ff000530a3b1f2e6a6501000000 /dev/disk/by-id/dm-uuid-mpath-3600c0ff000530a3b1f2e6a6501000000; do
			run -2 "$SP" plan --profile "$TOP/profiles/multipath-2path.xml" --sysroot "$SYSROOT/$s" --os-disks "$spelling"
			assert_output --partial "(the LUN of paths sdb, sdd) matches too, but it is a system disk (--os-disks $spelling)"
		done
	done
	run -2 "$SP" plan --profile "$TOP/profiles/multipath-2path.xml" --sysroot "$SYSROOT/multipath-2path" --os-disks mpatha
	assert_output --partial "left out: dm-0 (the LUN of paths sdb, sdd)"
}

# opt_on_sda3 [PREFIX]: sda gets a third partition, which the running system mounts at PREFIX/opt
# (with / and /boot at PREFIX too: the installer's /mnt/sysimage)
opt_on_sda3() {
	local p=$W/sys/block/sda
	cp -r "$p/sda2" "$p/sda3"
	echo 400000000 >"$p/sda2/size"
	echo 3 >"$p/sda3/partition"
	echo 400208845 >"$p/sda3/start"
	echo 88183220 >"$p/sda3/size"
	echo 8:3 >"$p/sda3/dev"
	sed -i 's/^MINOR=2/MINOR=3/; s/^DEVNAME=sda2/DEVNAME=sda3/; s/^PARTN=2/PARTN=3/' "$p/sda3/uevent"
	mkdir -p "$W/proc/self"
	{
		printf '22 1 8:2 / %s rw,relatime shared:1 - ext3 /dev/sda2 rw\n' "${1:-/}"
		printf '23 22 8:1 / %s/boot rw,relatime shared:2 - ext3 /dev/sda1 rw\n' "${1:-}"
		printf '24 22 8:3 / %s/opt rw,relatime shared:3 - xfs /dev/sda3 rw\n' "${1:-}"
	} >"$W/proc/self/mountinfo"
}

# lun_profile MOUNTPOINT [XFS-ATTRS] [SYSTEM-GROUP]: one XFS on an md RAID1 of the two LUNs
lun_profile() {
	cat >"$BATS_TEST_TMPDIR/p.xml" <<-XML
	<?xml version="1.0"?>
	<profile version="1" name="opt">
	  <disks id="lun" count="2"><match vendor="AMCC"/></disks>${3:-}
	  <md id="m" level="1" devices="lun"/>
	  <xfs on="m" label="data" mountpoint="$1" ${2:-}/>
	</profile>
	XML
	echo "$BATS_TEST_TMPDIR/p.xml"
}

@test "a mountpoint the running system mounts from its OS disk (/opt from sda3) is refused like /, plan and apply, nothing touched" {
	world grid-3ware
	opt_on_sda3
	run -2 "$SP" plan --profile "$(lun_profile /opt)" --sysroot "$W" --seed 1
	assert_output --partial "p.xml:5: error: xfs on m: mountpoint /opt is the OS's own /opt: the running system mounts /opt from sda3 (line 3 of $W/proc/self/mountinfo), on the system disk sda (sda2 is mounted at /)"
	assert_output --partial 'add system="true" to this <xfs> if it deliberately takes over that system mountpoint [system-mountpoint]'
	# system="false" is the default; /opt2 is not /opt
	run -2 "$SP" plan --profile "$(lun_profile /opt 'system="false"')" --sysroot "$W" --seed 1
	run -0 "$SP" plan --profile "$(lun_profile /opt2)" --sysroot "$W" --seed 1
	# apply refuses before the first write: no command ran, the LUNs' images are as they were
	local sdb
	sdb=$(image_state sdb)
	run -2 "$SP" apply --profile "$(lun_profile /opt)" --sysroot "$W" --root "$BATS_TEST_TMPDIR/root" --yes --seed 1
	assert_output --partial "mountpoint /opt is the OS's own /opt"
	[ ! -s "$FAKE_LOG" ]
	[ "$(image_state sdb)" = "$sdb" ]
	[ ! -e "$BATS_TEST_TMPDIR/root/etc/fstab" ]
}

@test "below the OS's /opt, or with system=\"true\", the filesystem is planned; a data disk's own mount is no system mountpoint" {
	world grid-3ware
	opt_on_sda3
	run -0 "$SP" plan --profile "$(lun_profile /opt/data)" --sysroot "$W" --seed 1
	run -0 "$SP" plan --profile "$(lun_profile /opt 'system="true"')" --sysroot "$W" --seed 1
	# the same /opt on a LUN (an earlier run's mount of a data disk) is not the OS's
	sed -i 's|8:3 / /opt rw,relatime shared:3 - xfs /dev/sda3|8:16 / /opt rw,relatime shared:3 - xfs /dev/sdb|' "$W/proc/self/mountinfo"
	run -0 "$SP" plan --profile "$(lun_profile /opt)" --sysroot "$W" --seed 1
}

@test "the installer's /mnt/sysimage/opt from the OS disk is the target's /opt: refused" {
	world grid-3ware
	opt_on_sda3 /mnt/sysimage
	run -2 "$SP" plan --profile "$(lun_profile /opt)" --sysroot "$W" --seed 1
	assert_output --partial "mountpoint /opt is the OS's own /opt: the running system mounts /mnt/sysimage/opt from sda3"
	run -2 "$SP" plan --profile "$(lun_profile /mnt/sysimage/opt)" --sysroot "$W" --seed 1
	assert_output --partial "the running system mounts /mnt/sysimage/opt from sda3"
}

@test "a disk declared an OS disk (--os-disks, a system=\"true\" group) that mounts /opt and nothing else the kernel marks: /opt refused" {
	world grid-3ware
	opt_on_sda3
	sed -i '1,2d' "$W/proc/self/mountinfo"   # only /opt: sda is no system disk by the mount table alone
	run -0 "$SP" plan --profile "$(lun_profile /opt)" --sysroot "$W" --seed 1
	run -2 "$SP" plan --profile "$(lun_profile /opt)" --sysroot "$W" --seed 1 --os-disks sda
	assert_output --partial "the running system mounts /opt from sda3 (line 1 of $W/proc/self/mountinfo), on the system disk sda (--os-disks sda)"
	run -2 "$SP" plan --profile "$(lun_profile /opt '' '<disks id="os" count="1" system="true"><match path="pci-0000:00:1f.2-ata-1"/></disks>')" \
		--sysroot "$W" --seed 1
	assert_output --partial "on the system disk sda (the system=\"true\" group os, line 3)"
}

@test "apply: the target root's fstab mounts /opt from a UUID that is not the profile's: refused before the first write" {
	world grid-3ware
	root_on_sda
	mkdir -p "$BATS_TEST_TMPDIR/root/etc"
	printf 'UUID=0a3e5e0c-6d3c-4f5b-9d53-7b1c1a0f0006 /opt xfs defaults 0 0\n' >"$BATS_TEST_TMPDIR/root/etc/fstab"
	local sdb
	sdb=$(image_state sdb)
	run -2 "$SP" apply --profile "$(lun_profile /opt)" --sysroot "$W" --root "$BATS_TEST_TMPDIR/root" --yes --seed 1
	assert_output --partial "mountpoint /opt is the node's own /opt: line 1 of /etc/fstab mounts it from UUID=0a3e5e0c-6d3c-4f5b-9d53-7b1c1a0f0006"
	assert_output --partial "nothing was written"
	[ ! -s "$FAKE_LOG" ]
	[ "$(image_state sdb)" = "$sdb" ]
	[ "$(cat "$BATS_TEST_TMPDIR/root/etc/fstab")" = 'UUID=0a3e5e0c-6d3c-4f5b-9d53-7b1c1a0f0006 /opt xfs defaults 0 0' ]
	# system="true": taken over
	run -0 "$SP" apply --profile "$(lun_profile /opt 'system="true"')" --sysroot "$W" --root "$BATS_TEST_TMPDIR/root" --yes --seed 1
	grep -qxF '# storprov: replaced by the managed block: UUID=0a3e5e0c-6d3c-4f5b-9d53-7b1c1a0f0006 /opt xfs defaults 0 0' "$BATS_TEST_TMPDIR/root/etc/fstab"
}
