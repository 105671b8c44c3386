#!/usr/bin/env bats
# A udev rule's key reaches its targets only (issue 19), checked against each
# fixture's own udev database, not storprov's plan: every ENV{ID_*} match value
# of the rendered rules is carried by exactly one whole disk of the fixture (a
# plain disk's rule), or only by devices that are one LUN's paths (the rule that
# says KERNEL!="dm-*": they all carry the same ID_SERIAL). Whole disks are the
# sys/block entries; partitions never match (every such rule says
# DEVTYPE=="disk"). An md's membership rules are keyed by ENV{ID_FS_UUID}: the
# tests at the end check those.
load test_helper

# holders FIXTURE KEY VALUE SKIP_DM: the kernel names of the whole disks whose udev record has E:KEY=VALUE
holders() {
	local s=$SYSROOT/$1 d dev
	for d in "$s"/sys/block/*; do
		[ "$4" = 1 ] && [[ $(basename "$d") == dm-* ]] && continue
		dev=$(cat "$d/dev")
		grep -qxF "E:$2=$3" "$s/run/udev/data/b$dev" 2>/dev/null && basename "$d"
	done
	true
}

@test "every rendered rule's ENV{ID_*} value is carried by its target only, in the fixture's udev database" {
	local n root line key value skip names count checked=0
	for p in "$TOP"/profiles/*.xml; do
		n=$(basename "$p" .xml)
		[ -d "$SYSROOT/$n" ] || continue
		root=$BATS_TEST_TMPDIR/root-$n
		run -0 "$SP" render --profile "$p" --sysroot "$SYSROOT/$n" --seed 1 --root "$root"
		[ -f "$root/etc/udev/rules.d/70-storprov.rules" ] || continue
		while IFS= read -r line; do
			[[ $line =~ ENV\{(ID_WWN|ID_SERIAL|ID_PATH)\}==\"([^\"]*)\" ]] || continue
			key=${BASH_REMATCH[1]} value=${BASH_REMATCH[2]}
			skip=0
			[[ $line == *'KERNEL!="dm-*"'* ]] && skip=1
			names=$(holders "$n" "$key" "$value" "$skip")
			count=$(grep -c . <<<"$names" || true)
			echo "$n: $key=$value: $(tr '\n' ' ' <<<"$names")"
			if [ "$skip" = 0 ]; then
				[ "$count" -eq 1 ] || { echo "  a disk's rule reaches $count disks"; false; }
			else
				[ "$count" -ge 1 ] || { echo "  the paths' rule reaches nothing"; false; }
				# every holder is a path of one LUN: one ID_SERIAL among them
				[ "$(for d in $names; do grep -h '^E:ID_SERIAL=' "$SYSROOT/$n/run/udev/data/b$(cat "$SYSROOT/$n/sys/block/$d/dev")"; done | sort -u | wc -l)" -eq 1 ]
			fi
			checked=$((checked + 1))
		done <"$root/etc/udev/rules.d/70-storprov.rules"
	done
	echo "rules checked: $checked"
	[ "$checked" -ge 10 ]
	# the check sees sharing: the WWN hwraid0-lvm-xfs's two LUNs share (the key storprov passed over)
	[ "$(holders hwraid0-lvm-xfs ID_WWN 0x6c81f660e1a7b200 0 | tr '\n' ' ')" = "sdb sdc " ]
}

# An md member's udev record has ID_FS_TYPE=linux_raid_member and ID_FS_UUID, the array's UUID as
# blkid spells it (60-persistent-storage's blkid: the hex digits of mdadm's "8:8:8:8" as "8-4-4-4-12").
@test "every md membership rule is keyed by its array's UUID, as blkid spells the mdadm.conf one" {
	local n root line u hex arrays members checked=0
	for p in "$TOP"/profiles/*.xml; do
		n=$(basename "$p" .xml)
		[ -d "$SYSROOT/$n" ] || continue
		root=$BATS_TEST_TMPDIR/m-$n
		run -0 "$SP" render --profile "$p" --sysroot "$SYSROOT/$n" --seed 1 --root "$root"
		[ -f "$root/etc/mdadm/mdadm.conf" ] || continue
		arrays=$(sed -n 's/^ARRAY .* UUID=\([0-9a-f:]*\).*/\1/p' "$root/etc/mdadm/mdadm.conf" | tr -d : | sort)
		members=$(grep -o 'ENV{ID_FS_UUID}=="[^"]*", ENV{ID_FS_TYPE}=="linux_raid_member"' \
			"$root/etc/udev/rules.d/70-storprov.rules" | cut -d'"' -f2 | sort)
		while IFS= read -r u; do
			[ -n "$u" ] || continue
			[[ $u =~ ^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$ ]]
			hex=${u//-/}
			grep -qx "$hex" <<<"$arrays" || { echo "$n: $u is no array of mdadm.conf"; false; }
			checked=$((checked + 1))
		done <<<"$members"
		# each array of plain disks: a whole-disk rule and a partition rule
		[ "$(grep -c . <<<"$members")" -eq $((2 * $(grep -c . <<<"$arrays"))) ] ||
			{ echo "$n: $(grep -c . <<<"$members") membership rules for $(grep -c . <<<"$arrays") arrays"; false; }
	done
	echo "membership rules checked: $checked"
	[ "$checked" -ge 8 ]
}

@test "a preserved md's membership rules carry the UUID its members' udev records have" {
	local s=$BATS_TEST_TMPDIR/sysroot root=$BATS_TEST_TMPDIR/root u=6a1f3c2e-9b4d-4e7a-8c15-2f0e9d8b7a61 d n=0
	cp -a "$SYSROOT/md-raid1-syncwrite" "$s"
	# after provisioning: sdb1 and sdc1 are the journal mirror's members (as identities.bats builds it)
	for d in sdb sdc; do
		n=$((n + 1))
		mkdir -p "$s/sys/block/$d/${d}1"
		echo 1 >"$s/sys/block/$d/${d}1/partition"
		echo "8:$((16 * n + 1))" >"$s/sys/block/$d/${d}1/dev"
		printf 'E:DEVTYPE=partition\nE:ID_FS_TYPE=linux_raid_member\nE:ID_FS_UUID=%s\n' "$u" >"$s/run/udev/data/b8:$((16 * n + 1))"
	done
	run -0 "$SP" render --profile "$FIX/profiles/md-raid1-preserved.xml" --sysroot "$s" --seed 1 --root "$root"
	run -0 grep -c "ENV{ID_FS_UUID}==\"$u\", ENV{ID_FS_TYPE}==\"linux_raid_member\"" "$root/etc/udev/rules.d/70-storprov.rules"
	assert_output 2
	run -0 grep -F 'ENV{DEVTYPE}=="partition", ENV{ID_FS_UUID}=="'"$u"'"' "$root/etc/udev/rules.d/70-storprov.rules"
	assert_output --partial 'ATTR{../queue/scheduler}="none"'
}
