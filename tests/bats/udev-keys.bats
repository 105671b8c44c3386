#!/usr/bin/env bats
# A udev rule's key reaches its targets only (issue 19), checked against each
# fixture's own udev database, not storprov's plan: every ENV{ID_*} match value
# of the rendered rules is carried by exactly one whole disk of the fixture (a
# plain disk's rule), or only by devices that are one LUN's paths (the rule that
# says KERNEL!="dm-*": they all carry the same ID_SERIAL). Whole disks are the
# sys/block entries; partitions never match (every rule says DEVTYPE=="disk").
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
