#!/usr/bin/env bats
# storprov inventory on captured trees: every disk with its stable ids,
# geometry, io hints, holders, signatures and mount use; checked against the
# tree's own files (sysfs, the udev database), not against storprov's plan.
load test_helper

@test "inventory: JSON lists every disk of the grid node with its ids and figures" {
	run -0 "$SP" inventory --sysroot "$SYSROOT/grid-3ware" --format json
	[ "$(jq -r .format <<<"$output")" = storprov-inventory ]
	[ "$(jq -r .format_version <<<"$output")" = 2 ]
	[ "$(jq -r .storprov_version <<<"$output")" = "$("$SP" --version | cut -d' ' -f2)" ]
	[ "$(jq -r '[.disks[].name] | join(" ")' <<<"$output")" = "sda sdb sdc" ]
	local sdb='.disks[] | select(.name == "sdb")'
	# figures straight from the tree's files
	[ "$(jq -r "$sdb.size_bytes" <<<"$output")" = $(( $(cat "$SYSROOT/grid-3ware/sys/block/sdb/size") * 512 )) ]
	[ "$(jq -r "$sdb.logical_sector_bytes" <<<"$output")" = "$(cat "$SYSROOT/grid-3ware/sys/block/sdb/queue/logical_block_size")" ]
	[ "$(jq -r "$sdb.io_opt_bytes" <<<"$output")" = "$(cat "$SYSROOT/grid-3ware/sys/block/sdb/queue/optimal_io_size")" ]
	[ "$(jq -r "$sdb.wwn" <<<"$output")" = "$(sed -n 's/^E:ID_WWN=//p' "$SYSROOT/grid-3ware/run/udev/data/b8:16")" ]
	[ "$(jq -r "$sdb.by_path" <<<"$output")" = "/dev/disk/by-path/$(sed -n 's/^E:ID_PATH=//p' "$SYSROOT/grid-3ware/run/udev/data/b8:16")" ]
	[ "$(jq -r "$sdb.vendor" <<<"$output")" = AMCC ]
	[ "$(jq -r "$sdb.rotational" <<<"$output")" = true ]
	# the OS disk: its partitions and filesystems
	[ "$(jq -c '.disks[] | select(.name == "sda") | .partitions' <<<"$output")" = '["sda1","sda2"]' ]
	[ "$(jq -r '.disks[] | select(.name == "sda") | .signatures | join(",")' <<<"$output")" = "dos partition table,ext3 on sda1,ext3 on sda2" ]
}

@test "inventory: holders and mount use, with the unit serial beside udev's" {
	local t="$BATS_TEST_TMPDIR/node"
	cp -a "$SYSROOT/md-raid6-lvm" "$t"
	mkdir -p "$t/sys/block/sdb/holders/md127" "$t/sys/block/sda/sda2/holders"
	printf '/dev/sda2 /boot xfs rw,relatime 0 0\n/dev/md127 /data xfs rw,noatime 0 0\nproc /proc proc rw 0 0\n' >"$t/proc/mounts"
	run -0 "$SP" inventory --sysroot "$t" --format json
	[ "$(jq -c '.disks[] | select(.name == "sdb") | .holders' <<<"$output")" = '["md127"]' ]
	[ "$(jq -c '.disks[] | select(.name == "sdb") | .mounts' <<<"$output")" = '["md127 on /data (xfs)"]' ]
	[ "$(jq -r '.disks[] | select(.name == "sdb") | .in_use' <<<"$output")" = true ]
	[ "$(jq -c '.disks[] | select(.name == "sda") | .mounts' <<<"$output")" = '["sda2 on /boot (xfs)"]' ]
	[ "$(jq -r '.disks[] | select(.name == "sdc") | .in_use' <<<"$output")" = false ]
	[ "$(jq -r '.disks[] | select(.name == "sdb") | .unit_serial' <<<"$output")" = Z1Z5A2K40000C6021QXB ]
	run -0 "$SP" inventory --sysroot "$t"
	assert_line "    holders: md127"
	assert_line "    mounted: md127 on /data (xfs)"
	assert_line "13 disks"
}

@test "inventory: a udev database file that is a link out of the tree or a FIFO is refused with a warning, never followed or waited on" {
	local t="$BATS_TEST_TMPDIR/node" outside="$BATS_TEST_TMPDIR/outside-b8:16"
	cp -a "$SYSROOT/md-raid6-lvm" "$t"
	# sdb's database: a link to a file outside the tree that claims other ids; sdc's: a FIFO no one writes
	sed 's/^E:ID_SCSI_SERIAL=.*/E:ID_SCSI_SERIAL=LEAKED-FROM-OUTSIDE/; s/^E:ID_WWN=.*/E:ID_WWN=0xleaked/' \
		"$t/run/udev/data/b8:16" >"$outside"
	printf 'E:ID_PART_TABLE_TYPE=leaked\n' >>"$outside"
	rm "$t/run/udev/data/b8:16" "$t/run/udev/data/b8:32"
	ln -s "$outside" "$t/run/udev/data/b8:16"
	mkfifo "$t/run/udev/data/b8:32"
	run -0 --separate-stderr timeout 60 "$SP" inventory --sysroot "$t" --format json
	refute_output --partial leaked
	refute_output --partial LEAKED
	[ "$(jq -r '.disks[] | select(.name == "sdb") | .unit_serial' <<<"$output")" = null ]
	[ "$(jq -r '.disks[] | select(.name == "sdb") | .wwn' <<<"$output")" != 0xleaked ]
	# the other disks keep what udev knows of them
	[ "$(jq -r '.disks[] | select(.name == "sdd") | .id_serial' <<<"$output")" = "$(sed -n 's/^E:ID_SERIAL=//p' "$t/run/udev/data/b8:48")" ]
	output=$stderr lines=("${stderr_lines[@]}")
	assert_line --partial "warning: discovery: ignoring $t/run/udev/data/b8:16: it is a symbolic link (never followed in a captured tree); what udev knows of device 8:16"
	assert_line --partial "warning: discovery: ignoring $t/run/udev/data/b8:32: it is not a regular file; what udev knows of device 8:32"
	# the text form warns the same, and reads no more of them
	run -0 --separate-stderr timeout 60 "$SP" inventory --sysroot "$t"
	refute_output --partial LEAKED
	[ "$(grep -c 'udev-data' <<<"$stderr")" -eq 2 ]
}

@test "inventory: MegaRAID LUNs show the absurd io_opt they export" {
	run -0 "$SP" inventory --sysroot "$SYSROOT/megaraid-ioopt" --format json
	[ "$(jq -r '[.disks[] | select(.vendor == "AVAGO") | .io_opt_bytes] | join(" ")' <<<"$output")" = "4294966784 33553920 1073741824" ]
}

@test "inventory: an NVMe namespace's io_min / io_opt are its write granularity (NPWG/NOWS), one rule with the planner's" {
	local s=$SYSROOT/nvme-npwg
	run -0 "$SP" inventory --sysroot "$s"
	assert_line "nvme0n1  /dev/nvme0n1  ? SAMPLE QLC NVMe 7.68TB  7.0 TiB (7681501126656 bytes)"
	assert_line "    wwn eui.5cd2e4a1b2c30001  serial QLC0A1B2C3D40001"
	assert_line "    sectors 4096 logical / 4096 physical; io_min 16384 io_opt 262144 alignment_offset 0; non-rotational"
	assert_line "    io hint: write granularity 16 KiB, optimal write 256 KiB (NPWG/NOWS of an NVMe namespace)"
	[ "$(grep -c 'NPWG/NOWS' <<<"$output")" -eq 4 ]
	run -0 "$SP" inventory --sysroot "$s" --format json
	echo "$output" >"$BATS_TEST_TMPDIR/inv.json"
	"$TOP/tests/tools/json-validate.py" "$TOP/doc/schema/storprov-inventory.schema.json" "$BATS_TEST_TMPDIR/inv.json"
	[ "$(jq -r '[.disks[] | "\(.name)=\(.io_hint_kind)"] | join(" ")' <<<"$output")" = \
		"sda=none nvme0n1=nvme-write-granularity nvme1n1=nvme-write-granularity nvme2n1=nvme-write-granularity nvme3n1=nvme-write-granularity" ]
	# the namespace's identity: ID_WWN is the kernel's wwid, multipath would know it by that (uid_attrs nvme:ID_WWN)
	[ "$(jq -r '.disks[] | select(.name == "nvme2n1") | "\(.wwn) \(.multipath_wwid) \(.id_serial)"' <<<"$output")" = \
		"eui.5cd2e4a1b2c30003 eui.5cd2e4a1b2c30003 SAMPLE QLC NVMe 7.68TB_QLC0A1B2C3D40003" ]
	# the other kinds, on the fixtures that export them
	run -0 "$SP" inventory --sysroot "$SYSROOT/hinted-raid5-8x64" --format json
	[ "$(jq -r '[.disks[].io_hint_kind] | join(" ")' <<<"$output")" = "none raid-stripe raid-stripe raid-stripe" ]
	run -0 "$SP" inventory --sysroot "$SYSROOT/hinted-raid5-8x64"
	assert_line "    io hint: a RAID stripe, strip 64 KiB, full stripe 448 KiB (7 strips); parity unknown: planned as parity unless <hwraid> says otherwise"
	run -0 "$SP" inventory --sysroot "$SYSROOT/nvme-hints" --format json
	[ "$(jq -r '[.disks[].io_hint_kind] | join(" ")' <<<"$output")" = "none write-granularity write-granularity write-granularity write-granularity" ]
	run -0 "$SP" inventory --sysroot "$SYSROOT/nvme-hints"
	assert_line "    io hint: write granularity 4 KiB, optimal 1 MiB (not a RAID strip)"
}
