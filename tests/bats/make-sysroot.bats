#!/usr/bin/env bats
# tests/fixtures/make-sysroot.sh: every committed spec regenerates its tree
# byte for byte (so a spec and its tree cannot drift apart), and NVMe
# namespaces are laid out as sysfs has them.
load test_helper

MS=$TOP/tests/fixtures/make-sysroot.sh

@test "make-sysroot: every spec regenerates its committed tree byte-identically" {
	n=0
	for spec in "$TOP"/tests/fixtures/sysroot/*.spec; do
		name=$(basename "$spec" .spec)
		run -0 "$MS" "$spec" "$BATS_TEST_TMPDIR/$name"
		run -0 diff -r --no-dereference "$TOP/tests/fixtures/sysroot/$name" "$BATS_TEST_TMPDIR/$name"
		n=$((n + 1))
	done
	[ "$n" -ge 12 ]
}

@test "make-sysroot: an NVMe namespace sits below its controller, with the udev identity 60-persistent-storage.rules gives it" {
	t=$BATS_TEST_TMPDIR/nv
	run -0 "$MS" "$TOP/tests/fixtures/sysroot/nvme-npwg.spec" "$t"
	[ "$(readlink "$t/sys/block/nvme2n1")" = "../devices/pci0000:00/0000:c3:00.0/nvme/nvme2/nvme2n1" ]
	[ "$(readlink "$t/sys/block/nvme2n1/device")" = "../../nvme2" ]
	[ "$(cat "$t/sys/block/nvme2n1/device/model")" = "SAMPLE QLC NVMe 7.68TB" ]
	[ "$(cat "$t/sys/block/nvme2n1/device/serial")" = QLC0A1B2C3D40003 ]
	[ "$(cat "$t/sys/block/nvme2n1/device/firmware_rev")" = 2CV10100 ]
	[ "$(cat "$t/sys/block/nvme2n1/wwid")" = eui.5cd2e4a1b2c30003 ]
	[ "$(cat "$t/sys/block/nvme2n1/dev")" = 259:2 ]
	[ "$(cat "$t/sys/block/nvme2n1/queue/minimum_io_size")" = 16384 ]
	[ "$(cat "$t/sys/block/nvme2n1/queue/optimal_io_size")" = 262144 ]
	[ ! -e "$t/sys/block/nvme2n1/device/vendor" ]
	run -0 cat "$t/run/udev/data/b259:2"
	assert_line "S:disk/by-id/nvme-eui.5cd2e4a1b2c30003"
	assert_line "S:disk/by-id/nvme-SAMPLE_QLC_NVMe_7.68TB_QLC0A1B2C3D40003"
	assert_line "E:ID_WWN=eui.5cd2e4a1b2c30003"
	assert_line "E:ID_SERIAL=SAMPLE QLC NVMe 7.68TB_QLC0A1B2C3D40003"
	assert_line "E:ID_SERIAL_SHORT=QLC0A1B2C3D40003"
	refute_line --partial "ID_BUS="
	refute_line --partial "ID_VENDOR="
	# partitions take the next minors, named pN
	printf 'host mem_kb=1048576\ndisk name=nvme0n1 size=1073741824 model=M serial=S wwid=eui.0011223344556677 parts="nvme0n1p1:2048:4096 nvme0n1p2:6144:8192"\ndisk name=nvme1n1 size=1073741824 model=M serial=T wwid=eui.0011223344556678\n' >"$BATS_TEST_TMPDIR/p.spec"
	run -0 "$MS" "$BATS_TEST_TMPDIR/p.spec" "$BATS_TEST_TMPDIR/p"
	[ "$(cat "$BATS_TEST_TMPDIR/p/sys/block/nvme0n1/nvme0n1p2/dev")" = 259:2 ]
	[ "$(cat "$BATS_TEST_TMPDIR/p/sys/block/nvme1n1/dev")" = 259:3 ]
}

@test "make-sysroot: NVMe spec mistakes are refused by line and key" {
	for bad in 'wwn=0x5000c500a1b2c3d4' 'vendor=NVMe wwid=eui.0011223344556677' 'wwid=naa.5000c500a1b2c3d4'; do
		printf 'host mem_kb=1048576\ndisk name=nvme0n1 size=1073741824 model=M serial=S %s\n' "$bad" >"$BATS_TEST_TMPDIR/b.spec"
		run -1 "$MS" "$BATS_TEST_TMPDIR/b.spec" "$BATS_TEST_TMPDIR/b"
		assert_output --partial "b.spec:2: disk nvme0n1: "
	done
	printf 'host mem_kb=1048576\ndisk name=sdb size=1073741824 model=M wwid=eui.0011223344556677\n' >"$BATS_TEST_TMPDIR/c.spec"
	run -1 "$MS" "$BATS_TEST_TMPDIR/c.spec" "$BATS_TEST_TMPDIR/c"
	assert_output --partial "wwid= is for NVMe namespaces"
}
