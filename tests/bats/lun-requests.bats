#!/usr/bin/env bats
# Issue 32: a parity LUN takes a full stripe without reading only when the
# stripe arrives in one request. The block layer cuts a run of 4 KiB pages at
# max_segments pages or max_sectors_kb, counted from where the run starts: a
# cut that is not a whole number of full stripes splits stripes (measured by
# bench/parity-md.sh: md RAID5 over RAID6 5 x 128K LUNs, 2 writers of 2 full
# stripes, 0.28 with the loop LUNs' 512 KiB requests, 0.0037 at 384). So
# storprov derives the LUN's max_sectors_kb, and says where a LUN stripe
# cannot travel in one request under a layer that stripes over it.
load test_helper

# sysroot NAME DISKSPEC: three LUNs sdb..sdd with DISKSPEC's extra keys
sysroot() {
	local d=$BATS_TEST_TMPDIR/$1 l
	{
		echo "host mem_kb=16000000"
		echo "disk name=sda size=100000000000 serial=OS1 model=SSD1 rotational=0"
		for l in b c d; do
			echo "disk name=sd$l size=2000000000000 wwn=0x600605b00000000$l vendor=LSI model=MR9361 $2"
		done
	} >"$BATS_TEST_TMPDIR/$1.spec"
	"$FIX/make-sysroot.sh" "$BATS_TEST_TMPDIR/$1.spec" "$d" >/dev/null
	echo "$d"
}

# profile FILE LEVEL MEMBERS CHUNK UPPER [DISKS-TUNE]: LUNs of RAID LEVEL, MEMBERS x CHUNK, under UPPER
# (md5, md0, md1, lv or xfs)
profile() {
	local up
	case $5 in
	md?) up="<md id=\"m\" name=\"m\" level=\"${5#md}\" devices=\"lun\"/><xfs on=\"m\" mountpoint=\"/data\"/>" ;;
	lv) up='<vg id="vg" name="vg" pvs="lun"><lv name="l" size="90%VG" stripes="3"/></vg><xfs on="vg/l" mountpoint="/data"/>' ;;
	xfs) up='<xfs on="lun" mountpoint="/data%n"/>' ;;
	esac
	cat >"$1" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<profile version="1" name="lunreq">
  <disks id="lun" count="3">
    <match model="MR9361"/>
    <hwraid level="$2" members="$3" chunk="$4"/>${6-}
  </disks>
  $up
</profile>
XML
}

@test "lun requests: a 384K LUN stripe (not dividing 512 KiB requests) gets max_sectors_kb 384, applied and persisted" {
	local root p=$BATS_TEST_TMPDIR/p.xml
	root=$(sysroot r "max_segs=128 max_seg_size=65536")
	profile "$p" 6 5 128K md5
	run -0 "$SP" plan --profile "$p" --sysroot "$root" --seed 1
	assert_output --partial "tune: max_sectors_kb 384 [derived: 384 = 1 x the full stripe 384k: a request holds at most 512 KiB of 4 KiB pages (128 segments, max_hw_sectors_kb 32767), and max_sectors_kb is 1280 now"
	assert_output --regexp '\[sysfs\] /dev/sdb queue/max_sectors_kb = 384'
	assert_output --regexp '\[sysfs\] /dev/sdd queue/max_sectors_kb = 384'
	assert_output --partial 'ENV{ID_WWN}=="0x600605b00000000b", ATTR{queue/max_sectors_kb}="384"'
	refute_output --partial "[lun-request-size]"
	# lowering max_sectors_kb pins no more queue memory than the kernel's own value: not counted
	assert_output --partial "queue depth tuning may pin 0 B"
	# buffered writes flushed by fsync still reach the LUNs in pieces: said, with the measured figures
	assert_output --partial "md raid5 writes the full stripe 384k of lun1 (not a power of 2) in pieces of 64k"
	assert_output --partial "md raid0 over the LUNs takes the whole stripe as its chunk"
	assert_output --partial "[lun-buffered-rmw]"
	# the JSON says where the value came from
	run -0 --separate-stderr "$SP" plan --profile "$p" --sysroot "$root" --seed 1 --format json
	[ "$(jq -r '.objects[] | select(.id == "lun1") | .tune.derived.max_sectors_kb' <<<"$output" | cut -c1-22)" = "384 = 1 x the full str" ]
	# after apply (max_sectors_kb 384 now) the plan is the same: the rule and its file do not vanish
	root=$(sysroot r384 "max_segs=128 max_seg_size=65536 max_kb=384")
	run -0 "$SP" plan --profile "$p" --sysroot "$root" --seed 1
	assert_output --partial 'ENV{ID_WWN}=="0x600605b00000000b", ATTR{queue/max_sectors_kb}="384"'
	assert_output --partial "max_sectors_kb is 384 now"
	root=$(sysroot r "max_segs=128 max_seg_size=65536")
	# the same LUNs under md RAID0: the chunk is the whole 384K stripe (md raid0 takes any multiple of 4 KiB)
	profile "$p" 6 5 128K md0
	run -0 "$SP" plan --profile "$p" --sysroot "$root" --seed 1
	assert_output --partial -- "--level=0 --raid-devices=3 --chunk=384 "
	assert_output --partial -- "-d su=384k,sw=3 "
	assert_output --regexp '\[sysfs\] /dev/sdc queue/max_sectors_kb = 384'
	refute_output --partial "[lun-buffered-rmw]"
	# a striped LV cannot take it (LVM stripes are powers of 2): said
	profile "$p" 6 5 128K lv
	run -0 "$SP" plan --profile "$p" --sysroot "$root" --seed 1
	assert_output --partial "the striped LV writes the full stripe 384k of lun1 (not a power of 2) in pieces of 64k"
}

@test "lun requests: a limit that is already whole stripes, a non-parity LUN, the profile's own value and an offline plan derive nothing" {
	local root p=$BATS_TEST_TMPDIR/p.xml
	root=$(sysroot r "max_segs=128")
	# RAID6 6 x 64K: F 256K divides 512 and 1280
	profile "$p" 6 6 64K md5
	run -0 "$SP" plan --profile "$p" --sysroot "$root" --seed 1
	refute_output --partial "max_sectors_kb"
	# RAID0 LUNs: no parity, no read-modify-write
	profile "$p" 0 3 128K md5
	run -0 "$SP" plan --profile "$p" --sysroot "$root" --seed 1
	refute_output --partial "max_sectors_kb"
	# the profile's value wins
	profile "$p" 6 5 128K md5 '
    <tune max-sectors-kb="768"/>'
	run -0 "$SP" plan --profile "$p" --sysroot "$root" --seed 1
	assert_output --regexp '\[sysfs\] /dev/sdb queue/max_sectors_kb = 768'
	refute_output --partial "derived: 384"
	# offline: no queue limits to derive from
	profile "$p" 6 5 128K md5
	run -0 "$SP" validate --offline --format json --profile "$p"
	[ "$(jq -r '[.diagnostics[].rule] | join(",")' <<<"$output")" = "lun-buffered-rmw" ]
}

@test "lun requests: a LUN stripe larger than a request is a warning under a layer that stripes over it, not under XFS alone or md RAID1" {
	local root p=$BATS_TEST_TMPDIR/p.xml
	root=$(sysroot r "max_segs=128")
	# RAID6 10 x 128K: F 1 MiB, 128 segments of 4 KiB hold 512 KiB
	for up in md5 md0 lv; do
		profile "$p" 6 10 128K "$up"
		run -0 "$SP" plan --profile "$p" --sysroot "$root" --seed 1
		assert_output --partial "the full stripe 1m of lun1 (sdb) is larger than the largest request it takes, 512 KiB of 4 KiB pages"
		assert_output --partial "[lun-request-size]"
		refute_output --partial "max_sectors_kb"
	done
	for up in xfs md1; do
		profile "$p" 6 10 128K "$up"
		run -0 "$SP" plan --profile "$p" --sysroot "$root" --seed 1
		refute_output --partial "[lun-request-size]"
	done
	# a LUN that takes 512 segments (2 MiB) holds it: no warning, and 2 MiB cuts fall between stripes
	root=$(sysroot r2 "max_segs=512")
	profile "$p" 6 10 128K md5
	run -0 "$SP" plan --profile "$p" --sysroot "$root" --seed 1
	refute_output --partial "[lun-request-size]"
	refute_output --partial "max_sectors_kb"
	# 640 segments (2.5 MiB) cut 1 MiB stripes: 2048
	root=$(sysroot r3 "max_segs=640")
	run -0 "$SP" plan --profile "$p" --sysroot "$root" --seed 1
	assert_output --regexp '\[sysfs\] /dev/sdb queue/max_sectors_kb = 2048'
}

@test "lun requests: md RAID5 over LUNs whose full stripe is a power of 2 warns lun-buffered-rmw too; md RAID0 and an LV, which take the whole stripe, do not" {
	local root p=$BATS_TEST_TMPDIR/p.xml
	# 512 segments: a 1 MiB stripe travels whole, so only the buffered pieces are left to say
	root=$(sysroot r "max_segs=512")
	# RAID6 10 x 128K: F 1 MiB; md raid5 writes it in 64K chunks, and its stripe cache
	# cuts buffered runs anywhere (the partial-stripe bench: every buffered byte partial)
	profile "$p" 6 10 128K md5
	run -0 "$SP" plan --profile "$p" --sysroot "$root" --seed 1
	assert_output --partial "md raid5 writes the full stripe 1m of lun1 in pieces of 64k"
	assert_output --partial "md raid0 over the LUNs takes the whole stripe as its chunk"
	assert_output --partial "[lun-buffered-rmw]"
	refute_output --partial "not a power of 2"
	# md raid0 and a striped LV get the whole 1 MiB as chunk and stripe size: nothing to say
	profile "$p" 6 10 128K md0
	run -0 "$SP" plan --profile "$p" --sysroot "$root" --seed 1
	assert_output --partial -- "--chunk=1024 "
	refute_output --partial "[lun-buffered-rmw]"
	profile "$p" 6 10 128K lv
	run -0 "$SP" plan --profile "$p" --sysroot "$root" --seed 1
	assert_output --partial -- "--stripesize=1m"
	refute_output --partial "[lun-buffered-rmw]"
}
