#!/usr/bin/env bats
# Scenario 5: reimage with preserve, through a real dracut initramfs.
#
# Boot 1 (busybox initramfs, udev): profile reimage-a provisions four disks as
# an md RAID5 (64 KiB chunk) with XFS for /data and two as an md RAID1 with
# XFS for /scratch; a file goes onto /data. Then the initramfs is the one the
# shipped dracut module (hooks/dracut/90storprov) makes, with the profiles in
# /etc/storprov/profiles:
# - rd.storprov.profile=.../reimage-wrong-chunk.xml preserves the RAID5 with a
#   128 KiB chunk: storprov refuses before writing anything and the pre-mount
#   hook stops the boot (dracut FATAL);
# - rd.storprov.profile=.../reimage-b.xml preserves the data disks, the RAID5
#   and its XFS and rebuilds the scratch disks as an md RAID10. Its name gives
#   another default seed than reimage-a, so the files the pre-pivot hook writes
#   into the root name the preserved objects correctly only if storprov read
#   their UUIDs from disk. The test /init then reads everything back.
# Last, in the busybox initramfs again, udev assembles the arrays it finds, and
# profile reimage-inuse wants the scratch disks wiped while md holds them:
# refused before any write.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup_file() {
	load scenarios
	sp_prepare
	vm_prepare_root
	# The module as shipped. dracut looks for programs in DRACUT_PATH only, so
	# build/ goes there; module-setup.sh installs storprov as /usr/sbin/storprov.
	# The image's cache key does not cover build/storprov: rebuild when it is newer.
	local img=$VM_BUILD/initrd-dracut-reimage.img force=()
	[[ -s $img && ! $VM_TOP/build/storprov -nt $img ]] || force=(--force)
	DRACUT_PATH="/sbin /bin /usr/sbin /usr/bin $VM_TOP/build" vm_prepare_dracut ${force[@]+"${force[@]}"} \
		--module "$VM_TOP/hooks/dracut/90storprov" \
		--add "$VM_DIR/profiles/reimage-b.xml:/etc/storprov/profiles/reimage-b.xml" \
		--add "$VM_DIR/profiles/reimage-wrong-chunk.xml:/etc/storprov/profiles/reimage-wrong-chunk.xml" \
		-o "$img"
	export REIMAGE_DISKS=$BATS_FILE_TMPDIR/disks
	export REIMAGE_BOOT1=$BATS_FILE_TMPDIR/boot1.kv
}

setup() {
	load lib
	load scenarios
}

# the disks, in the same order at every boot (the default seed covers names)
reimage_disks() {
	vm_disks "$REIMAGE_DISKS" data 4 256M
	vm_disks "$REIMAGE_DISKS" scratch 2 640M
}

# reimage_boot1: fills BOOT1[KEY] with what boot 1 recorded
reimage_boot1() {
	local k
	[[ -s $REIMAGE_BOOT1 ]] || {
		echo "boot 1 did not run or failed" >&2
		return 1
	}
	vm_kv_load "$(<"$REIMAGE_BOOT1")"
	declare -gA BOOT1=()
	for k in "${!VM_KV[@]}"; do
		BOOT1[$k]=${VM_KV[$k]}
	done
}

# console_has N TEXT: TEXT is a line (fixed string) of console log N of this test
console_has() {
	grep -qF -- "$2" "$BATS_TEST_TMPDIR/console-$1.log" || {
		echo "console-$1.log has no line with: $2" >&2
		return 1
	}
}

@test "boot 1 (busybox): reimage-a provisions data RAID5 + scratch RAID1; a file on /data" {
	local disks
	mapfile -t disks < <(reimage_disks)
	run -0 vm_run "$VM_DIR/scenarios/reimage-provision.sh" --timeout 240 \
		--add "$VM_DIR/scenarios/common.sh:/usr/lib/storprov-tests/common.sh" \
		--add "$VM_DIR/profiles/reimage-a.xml:/usr/lib/storprov-tests/profiles/reimage-a.xml" \
		--add "$VM_DIR/profiles/reimage-b.xml:/usr/lib/storprov-tests/profiles/reimage-b.xml" \
		"${disks[@]}"
	sp_figures
	assert_equal "$(vm_kv APPLY_RC)" 0
	assert_equal "$(vm_kv MD_DATA_LEVEL)" raid5
	assert_equal "$(vm_kv MD_DATA_DEVICES)" 4
	assert_equal "$(vm_kv MD_DATA_CHUNK)" 65536
	assert_equal "$(vm_kv XFS_DATA_SWIDTH)" 48
	assert_equal "$(vm_kv MD_SCRATCH_LEVEL)" raid1
	assert_regex "$(vm_kv DATA_SHA256)" '^[0-9a-f]{64}$'
	assert_regex "$(vm_kv MD_DATA_UUID)" '^[0-9a-f]{8}(:[0-9a-f]{8}){3}$'
	assert_regex "$(vm_kv FS_DATA_UUID)" '^[0-9a-f]{8}-'
	# reimage-b's own seed pre-assigns other UUIDs: the reimage must not use them
	assert_regex "$(vm_kv B_PLANNED_MD_DATA_UUID)" '^[0-9a-f]{8}(:[0-9a-f]{8}){3}$'
	assert_regex "$(vm_kv B_PLANNED_FS_DATA_UUID)" '^[0-9a-f]{8}-'
	assert_not_equal "$(vm_kv B_PLANNED_MD_DATA_UUID)" "$(vm_kv MD_DATA_UUID)"
	assert_not_equal "$(vm_kv B_PLANNED_FS_DATA_UUID)" "$(vm_kv FS_DATA_UUID)"
	# ... and its plan already shows the identities found on disk (udev database)
	assert_equal "$(vm_kv B_FOUND_MD_DATA_UUID)" "$(vm_kv MD_DATA_UUID)"
	assert_equal "$(vm_kv B_FOUND_FS_DATA_UUID)" "$(vm_kv FS_DATA_UUID)"
	printf '%s\n' "$output" >"$REIMAGE_BOOT1"
}

@test "the dracut image: the storprov module, storprov in /usr/sbin, xfs_info's helpers, the profiles" {
	# the image is a plain cpio, or zstd with mkinitrd-dracut.sh --compress zstd (-f passes plain through)
	run -0 bash -c "zstd -dcfq '$VM_DRACUT_INITRD' | cpio -it --quiet"
	assert_line --regexp '^(usr/)?lib/dracut/hooks/pre-mount/10-storprov-provision\.sh$'
	assert_line --regexp '^(usr/)?lib/dracut/hooks/pre-pivot/10-storprov-persist\.sh$'
	assert_line --regexp '^(usr/)?sbin/storprov$'
	assert_line --regexp '^(usr/)?bin/tail$'
	assert_line --regexp '^(usr/)?sbin/xfs_db$'
	assert_line etc/storprov/profiles/reimage-b.xml
	assert_line etc/storprov/profiles/reimage-wrong-chunk.xml
	run -0 bash -c "zstd -dcfq '$VM_DRACUT_INITRD' | cpio -i --quiet --to-stdout lib/dracut/modules.txt usr/lib/dracut/modules.txt"
	assert_line storprov
	assert_line mdraid
}

@test "dracut: preserving the array with the wrong chunk is refused before any write; the hook stops the boot" {
	local disks
	reimage_boot1
	mapfile -t disks < <(reimage_disks)
	# the guest script never runs: no END marker (125)
	run -125 vm_run_dracut "$VM_DIR/scenarios/reimage-check.sh" --timeout 180 "${disks[@]}" \
		--append "rd.storprov.profile=/etc/storprov/profiles/reimage-wrong-chunk.xml"
	console_has 1 "storprov: provision: storprov apply --profile /etc/storprov/profiles/reimage-wrong-chunk.xml --yes --root /run/storprov/root"
	console_has 1 "storprov: refused: md data is preserved, but its chunk is 65536 bytes, not 131072"
	console_has 1 "storprov: nothing was written"
	console_has 1 "dracut: FATAL: storprov: provision failed (status 2): the storage was not provisioned as the profile says"
	# no step ran, and the pre-pivot hook never came
	run -1 grep -E 'storprov: \[ *[0-9.]+s\] step [0-9]+/[0-9]+ |storprov: persist' "$BATS_TEST_TMPDIR/console-1.log"
}

@test "dracut reimage: /data preserved byte for byte, scratch rebuilt, files in the new root name the real UUIDs" {
	local disks md fs old_scratch_fs
	reimage_boot1
	md=${BOOT1[MD_DATA_UUID]}
	fs=${BOOT1[FS_DATA_UUID]}
	old_scratch_fs=${BOOT1[FS_SCRATCH_UUID]}
	mapfile -t disks < <(reimage_disks)
	run -0 vm_run_dracut "$VM_DIR/scenarios/reimage-check.sh" --timeout 180 "${disks[@]}" \
		--append "rd.storprov.profile=/etc/storprov/profiles/reimage-b.xml"
	sp_figures
	vm_kv_load
	assert_equal "${VM_KV[REPORT_PROVISION_EXIT]-}" 0
	assert_equal "${VM_KV[REPORT_PERSIST_EXIT]-}" 0

	# the data: same bytes, same array, same filesystem
	assert_equal "${VM_KV[DATA_SHA256]-}" "${BOOT1[DATA_SHA256]-}"
	assert_equal "${VM_KV[NOTE_SHA256]-}" "${BOOT1[NOTE_SHA256]-}"
	assert_equal "${VM_KV[MD_DATA_UUID]-}" "$md"
	assert_equal "${VM_KV[MD_DATA_CTIME]-}" "${BOOT1[MD_DATA_CTIME]-}"
	assert_equal "${VM_KV[MD_DATA_LEVEL]-}" raid5
	assert_equal "${VM_KV[MD_DATA_DEVICES]-}" 4
	assert_equal "${VM_KV[MD_DATA_CHUNK]-}" 65536
	assert_equal "${VM_KV[FS_DATA_UUID]-}" "$fs"
	assert_equal "${VM_KV[XFS_DATA_INFO_SHA256]-}" "${BOOT1[XFS_DATA_INFO_SHA256]-}"
	# reimage-b's tuning of the preserved array is applied
	assert_equal "${VM_KV[MD_DATA_STRIPE_CACHE]-}" 1024

	# the scratch disks: a new RAID10 with reimage-b's identities, the old XFS gone
	assert_equal "${VM_KV[MD_SCRATCH_LEVEL]-}" raid10
	assert_equal "${VM_KV[MD_SCRATCH_DEVICES]-}" 2
	assert_equal "${VM_KV[MD_SCRATCH_UUID]-}" "${BOOT1[B_PLANNED_MD_SCRATCH_UUID]-}"
	assert_not_equal "${VM_KV[MD_SCRATCH_UUID]-}" "${BOOT1[MD_SCRATCH_UUID]-}"
	assert_equal "${VM_KV[MEMBER_scratch0_MD_UUID]-}" "${VM_KV[MD_SCRATCH_UUID]-}"
	assert_equal "${VM_KV[MEMBER_scratch1_MD_UUID]-}" "${VM_KV[MD_SCRATCH_UUID]-}"
	assert_equal "${VM_KV[FS_SCRATCH_TYPE]-}" xfs
	assert_equal "${VM_KV[FS_SCRATCH_UUID]-}" "${BOOT1[B_PLANNED_FS_SCRATCH_UUID]-}"
	assert_not_equal "${VM_KV[FS_SCRATCH_UUID]-}" "$old_scratch_fs"
	local arrays=${VM_KV[MD_ARRAYS]-}
	assert_regex "$arrays" '^md[0-9]+:raid(5|10) md[0-9]+:raid(5|10)$'
	assert_regex "$arrays" ':raid5( |$)'
	assert_regex "$arrays" ':raid10( |$)'

	# the files the pre-pivot hook wrote into the root: the UUIDs on disk, not
	# what reimage-b's seed pre-assigns
	local tab=$'\t'
	assert_equal "${VM_KV[FSTAB_BLOCK]-}" reimage-b
	assert_equal "${VM_KV[FSTAB_DATA]-}" "UUID=$fs$tab/data${tab}xfs${tab}noatime,logbufs=8,logbsize=256k,swalloc${tab}0 0"
	assert_regex "${VM_KV[FSTAB_SCRATCH]-}" "^UUID=${BOOT1[B_PLANNED_FS_SCRATCH_UUID]-}$tab/scratch${tab}xfs$tab"
	assert_equal "${VM_KV[MDADM_DATA]-}" "ARRAY /dev/md/data metadata=1.2 UUID=$md"
	assert_equal "${VM_KV[MDADM_SCRATCH]-}" "ARRAY /dev/md/scratch metadata=1.2 UUID=${BOOT1[B_PLANNED_MD_SCRATCH_UUID]-}"
	assert_equal "${VM_KV[UDEV_MD_DATA]-}" \
		"ACTION==\"add|change\", SUBSYSTEM==\"block\", KERNEL==\"md*\", ENV{DEVTYPE}==\"disk\", ENV{MD_UUID}==\"$md\", ATTR{md/stripe_cache_size}=\"1024\""
	assert_equal "${VM_KV[SYSCTL]-}" "vm.dirty_ratio = 20"
	refute_regex "$output" "${BOOT1[B_PLANNED_MD_DATA_UUID]-}|${BOOT1[B_PLANNED_FS_DATA_UUID]-}"

	# the console: both hooks, the preserved objects verified, never written
	console_has 1 "storprov: provision: storprov apply --profile /etc/storprov/profiles/reimage-b.xml --yes --root /run/storprov/root"
	console_has 1 "preserve: md data verified: raid5, 4 devices, chunk 65536, uuid $md"
	console_has 1 "preserve: fs:/data verified: XFS uuid $fs, sunit=16 swidth=48 blks"
	# the new RAID10 starts where the RAID1 did and shows its XFS: wipe="true" on the disks covers it
	console_has 1 "/dev/md/scratch carries xfs (label scratch, uuid $old_scratch_fs); overwriting as the profile allows"
	console_has 1 "storprov: provision done"
	console_has 1 "storprov: persist: storprov apply --profile /etc/storprov/profiles/reimage-b.xml --yes --root /sysroot"
	console_has 1 "wrote /sysroot/etc/fstab"
	console_has 1 "wrote /sysroot/etc/mdadm/mdadm.conf"
	console_has 1 "storprov: persist done"
	run -1 grep -E 'mdadm --create /dev/md/data|mkfs\.xfs .*/dev/md/data|wipefs --all /dev/vd[a-d]|command not found' \
		"$BATS_TEST_TMPDIR/console-1.log"
}

@test "busybox + udev: wiping disks that an assembled array holds is refused before any write" {
	local disks
	reimage_boot1
	mapfile -t disks < <(reimage_disks)
	# udev assembles the RAID10 of the reimage; reimage-inuse wants its disks wiped
	run -0 vm_run "$VM_DIR/scenarios/reimage-inuse.sh" --timeout 120 \
		--add "$VM_DIR/scenarios/common.sh:/usr/lib/storprov-tests/common.sh" \
		--add "$VM_DIR/profiles/reimage-inuse.xml:/usr/lib/storprov-tests/profiles/reimage-inuse.xml" \
		"${disks[@]}"
	sp_figures
	assert_equal "$(vm_kv APPLY_RC)" 2
	assert_line --regexp '^storprov: refused: sd1 \(/dev/vd[a-z]\) is in use: vd[a-z] is held by md[0-9]+; storprov never writes to a device in use$'
	assert_line --regexp '^storprov: refused: sd2 \(/dev/vd[a-z]\) is in use: vd[a-z] is held by md[0-9]+; storprov never writes to a device in use$'
	assert_line "storprov: nothing was written"
	refute_line --partial "wipefs"
	assert_equal "$(vm_kv MD_SCRATCH_LEVEL)" raid10
	assert_equal "$(vm_kv MD_SCRATCH_UUID)" "${BOOT1[B_PLANNED_MD_SCRATCH_UUID]-}"
	assert_equal "$(vm_kv FS_SCRATCH_UUID)" "${BOOT1[B_PLANNED_FS_SCRATCH_UUID]-}"
	assert_equal "$(vm_kv MD_MIRROR)" absent
}
