#!/usr/bin/env bats
# The dracut path of the VM harness: a real initramfs built by Debian's
# dracut (059) around the test module fixtures/dracut-hello, booted with the
# ext4 test root so that the pre-mount and pre-pivot hooks run and
# switch_root hands over to the test /init, which runs the guest script.

bats_require_minimum_version 1.5.0

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup_file() {
	load lib
	vm_prepare
	vm_prepare_root
	vm_prepare_dracut --module "$VM_DIR/fixtures/dracut-hello"
	export RAID_DISKS=$BATS_FILE_TMPDIR/disks
	mkdir -p "$RAID_DISKS"
}

setup() {
	load lib
}

@test "the image is dracut's and carries the test module's hooks" {
	# the image is a plain cpio, or zstd with mkinitrd-dracut.sh --compress zstd (-f passes plain through)
	run -0 bash -c "zstd -dcfq '$VM_DRACUT_INITRD' | cpio -it --quiet"
	assert_line --regexp '^(usr/)?lib/dracut/hooks/pre-mount/50-hello-pre-mount\.sh$'
	assert_line --regexp '^(usr/)?lib/dracut/hooks/pre-pivot/50-hello-pre-pivot\.sh$'
	assert_line --regexp '^(usr/)?lib/dracut/modules\.txt$'
	assert_line 'init'
	run -0 bash -c "zstd -dcfq '$VM_DRACUT_INITRD' | cpio -i --quiet --to-stdout lib/dracut/modules.txt usr/lib/dracut/modules.txt"
	assert_line dracut-hello
	assert_line mdraid
	assert_line lvm
}

@test "dracut-hello hooks run at pre-mount and pre-pivot, then switch_root" {
	run -0 vm_run_dracut "$VM_DIR/fixtures/dracut-hello/check.sh" \
		--append dracut_hello.greeting=from-bats

	assert_equal "$(vm_kv HELLO_PRE_MOUNT)" ran
	assert_equal "$(vm_kv HELLO_GREETING)" from-bats
	assert_equal "$(vm_kv HELLO_ROOT)" block:/dev/disk/by-label/vmroot
	assert_equal "$(vm_kv HELLO_ROOT_MOUNTED_AT_PRE_MOUNT)" no
	assert_equal "$(vm_kv HELLO_PRE_PIVOT)" ran
	assert_equal "$(vm_kv HELLO_NEWROOT_HAS_INIT)" yes
	assert_equal "$(vm_kv HELLO_NEWROOT_FSTYPE)" ext4
	assert_equal "$(vm_kv ROOT_FSTYPE)" ext4
	assert_equal "$(vm_kv ROOT_LABEL)" vmroot
	assert_equal "$(vm_kv INITRAMFS_WAS_DRACUT)" yes
	# the hook's own console marker
	run -0 grep -c 'DRACUT-HELLO: pre-mount hook ran (greeting=from-bats)' "$BATS_TEST_TMPDIR/console-1.log"
}

@test "dracut's mdraid module assembles the array named by rd.md.uuid before pre-mount" {
	local uuid
	run -0 vm_run "$VM_DIR/fixtures/dracut-hello/make-raid1.sh" \
		--disk "$RAID_DISKS/r0.img,size=64M,serial=r0" --disk "$RAID_DISKS/r1.img,size=64M,serial=r1"
	uuid=$(vm_kv MD_UUID)
	assert_regex "$uuid" '^[0-9a-f]{8}(:[0-9a-f]{8}){3}$'

	run -0 vm_run_dracut "$VM_DIR/fixtures/dracut-hello/check.sh" \
		--disk "$RAID_DISKS/r0.img,serial=r0" --disk "$RAID_DISKS/r1.img,serial=r1" \
		--append "rd.md.uuid=$uuid"

	assert_regex "$(vm_kv HELLO_MD_ACTIVE)" '^md[0-9]+:raid1$'
	local md=${output#*HELLO_MD_ACTIVE=}
	md=${md%%:*}
	assert_equal "$(vm_kv "MD_UUID_$md")" "$uuid"
}
