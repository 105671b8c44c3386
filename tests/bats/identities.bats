#!/usr/bin/env bats
# Found identities: a preserved md and XFS keep the UUIDs they have on disk.
# plan, render and apply --dry-run must all print and write those, never the
# ones storprov would give a new array or filesystem.

load test_helper

MD_UUID_DASHED=6a1f3c2e-9b4d-4e7a-8c15-2f0e9d8b7a61   # blkid's form on a member
MD_UUID=6a1f3c2e:9b4d4e7a:8c152f0e:9d8b7a61          # mdadm's form
FS_UUID=3c9e1b7a-5d2f-4a86-b1e3-7f4c0d9a2e58

# The md-raid1-syncwrite capture, after a first provisioning: sdb1/sdc1 are
# md members, md127 is the running array with an XFS on it.
setup() {
	ROOTFS="$BATS_TEST_TMPDIR/sysroot"
	cp -a "$SYSROOT/md-raid1-syncwrite" "$ROOTFS"
	local d minor n=0
	for d in sdb sdc; do
		n=$((n + 1))
		minor=$((16 * n + 1))
		mkdir -p "$ROOTFS/sys/block/$d/${d}1"
		echo 1 >"$ROOTFS/sys/block/$d/${d}1/partition"
		echo "8:$minor" >"$ROOTFS/sys/block/$d/${d}1/dev"
		echo 2048 >"$ROOTFS/sys/block/$d/${d}1/start"
		printf 'E:DEVTYPE=partition\nE:ID_FS_TYPE=linux_raid_member\nE:ID_FS_UUID=%s\nE:ID_FS_LABEL=any:journal\n' \
			"$MD_UUID_DASHED" >"$ROOTFS/run/udev/data/b8:$minor"
	done
	mkdir -p "$ROOTFS/sys/block/md127/md" "$ROOTFS/sys/block/md127/queue"
	echo 9:127 >"$ROOTFS/sys/block/md127/dev"
	echo 2000138240 >"$ROOTFS/sys/block/md127/size"
	echo raid1 >"$ROOTFS/sys/block/md127/md/level"
	printf 'E:MD_LEVEL=raid1\nE:MD_DEVNAME=journal\nE:MD_UUID=%s\nE:ID_FS_TYPE=xfs\nE:ID_FS_UUID=%s\nE:ID_FS_LABEL=journal\n' \
		"$MD_UUID" "$FS_UUID" >"$ROOTFS/run/udev/data/b9:127"
	PROFILE="$FIX/profiles/md-raid1-preserved.xml"
}

@test "plan shows the identities found on disk for preserved objects" {
	run -0 "$SP" plan --profile "$PROFILE" --sysroot "$ROOTFS" --seed 1 --format json
	run -0 jq -r '.objects[] | select(.kind=="md") | .uuid' <<<"$output"
	assert_output "$MD_UUID"
	run -0 "$SP" plan --profile "$PROFILE" --sysroot "$ROOTFS" --seed 1 --format json
	run -0 jq -r '.objects[] | select(.kind=="xfs") | .uuid' <<<"$output"
	assert_output "$FS_UUID"
	# both identities are shown: the one in use (found) and the one a new array would get
	run -0 "$SP" plan --profile "$PROFILE" --sysroot "$ROOTFS" --seed 1 --format json
	run -0 jq -r '.objects[] | select(.kind=="md") | "\(.uuid_found) \(.uuid_planned)"' <<<"$output"
	assert_output --regexp "^$MD_UUID [0-9a-f]{8}(:[0-9a-f]{8}){3}$"
	refute_output --partial "$MD_UUID $MD_UUID"
	# the same in the text plan, Objects and Files alike
	run -0 "$SP" plan --profile "$PROFILE" --sysroot "$ROOTFS" --seed 1
	assert_output --partial "uuid $MD_UUID"
	assert_output --partial "uuid $FS_UUID"
	assert_output --partial "UUID=$FS_UUID	/srv/journal"
	assert_output --partial "ARRAY /dev/md/journal metadata=1.2 UUID=$MD_UUID"
}

@test "render writes the found UUIDs into fstab, mdadm.conf and the udev rules" {
	local root="$BATS_TEST_TMPDIR/root"
	mkdir -p "$root/etc"
	run -0 "$SP" render --profile "$PROFILE" --sysroot "$ROOTFS" --root "$root" --seed 1
	run -0 grep -v '^#' "$root/etc/fstab"
	assert_output "UUID=$FS_UUID	/srv/journal	xfs	noatime,logbufs=8,logbsize=256k	0 0"
	run -0 grep '^ARRAY' "$root/etc/mdadm/mdadm.conf"
	assert_output "ARRAY /dev/md/journal metadata=1.2 UUID=$MD_UUID"
	run -0 grep 'MD_UUID' "$root/etc/udev/rules.d/70-storprov.rules"
	assert_output --partial "ENV{MD_UUID}==\"$MD_UUID\""
}

@test "without preserve the planned identities stand, whatever is on disk" {
	sed 's/ preserve="true"//' "$PROFILE" >"$BATS_TEST_TMPDIR/new.xml"
	run -0 "$SP" plan --profile "$BATS_TEST_TMPDIR/new.xml" --sysroot "$ROOTFS" --seed 1 --format json
	run -0 jq -r '.objects[] | select(.kind=="md" or .kind=="xfs") | .uuid' <<<"$output"
	refute_output --partial "$MD_UUID"
	refute_output --partial "$FS_UUID"
	[ "${#lines[@]}" -eq 2 ]
}
