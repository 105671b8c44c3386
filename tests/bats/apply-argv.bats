#!/usr/bin/env bats
# apply's exact command lines for mdadm, lvm, mkfs.xfs and wipefs, through fake
# executables first on PATH (no root, no md or dm here). Devices are sparse
# files under STORPROV_DEVROOT, sysfs a copy of the fixture; the GPT is
# written for real by libparted into the image files and read back with sgdisk.
load test_helper

setup() {
	export STORPROV_DEVROOT="$BATS_TEST_TMPDIR/devroot"
	export FAKE_LOG="$BATS_TEST_TMPDIR/commands.log"
	export FAKE_STATE="$BATS_TEST_TMPDIR/state"
	export PATH="$FIX/fakebin:$PATH"
	: >"$FAKE_LOG"
}

# world NAME: copies the fixture sysroot and makes a sparse file per disk
world() {
	cp -rL "$SYSROOT/$1" "$BATS_TEST_TMPDIR/sys-$1"
	WORLD="$BATS_TEST_TMPDIR/sys-$1"
	mkdir -p "$STORPROV_DEVROOT/dev"
	for d in "$WORLD"/sys/block/*; do
		truncate -s $(($(cat "$d/size") * 512)) "$STORPROV_DEVROOT/dev/$(basename "$d")"
	done
}

apply_golden() { # NAME
	world "$1"
	run "$SP" apply --profile "$TOP/profiles/$1.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" \
		--seed 1 --yes --jobs 1 --report "$BATS_TEST_TMPDIR/report.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	golden "$1/commands.log" "$FAKE_LOG"
}

@test "apply argv: md RAID6 x 2 + LVM (mdadm --chunk in KiB, explicit bitmap, PV alignment, extent)" {
	export FAKE_QUERY_LOG="$BATS_TEST_TMPDIR/queries.log"
	apply_golden md-raid6-lvm
	# on arrays it has just made, no lvm query (each scans every device): libblkid finds no PV label,
	# and a VG whose PVs this run made cannot be there
	[ ! -s "$FAKE_QUERY_LOG" ]
	run -0 grep -c '^mdadm --create' "$FAKE_LOG"
	assert_output 2
	run -0 grep '^mdadm --create /dev/md/r6a' "$FAKE_LOG"
	assert_output --partial -- "--level=6 --raid-devices=6 --chunk=64 --metadata=1.2 --bitmap=internal --homehost=any"
	run -0 grep 'pvcreate' "$FAKE_LOG"
	assert_output --partial -- "--dataalignment=1m /dev/md/r6a"
	run -0 grep 'vgcreate' "$FAKE_LOG"
	assert_output --partial -- "--physicalextentsize=4m data /dev/md/r6a /dev/md/r6b"
	run -0 grep 'lvcreate.*--name=scratch' "$FAKE_LOG"
	assert_output --partial -- "--stripes=2 --stripesize=256k --readahead=32768 data"
	run -0 grep 'mkfs.xfs -L scratch' "$FAKE_LOG"
	assert_output --partial -- "-d su=256k,sw=2 -l version=2,su=4k -d agsize="
	# the AG size: whole full stripes (2 x 256 KiB = 128 blocks), a count coprime to 3 and 4
	ag=$(sed -n 's/.*agsize=\([0-9]*\)b .*/\1/p' <<<"$output")
	[ $((ag % 128)) = 0 ] && [ $((ag / 128 % 2)) = 1 ] && [ $((ag / 128 % 3)) != 0 ]
	# the filesystem mkfs.xfs made has it (xfs_db reads the file's superblock)
	run -0 xfs_db -r -c 'sb 0' -c 'p agblocks' "$STORPROV_DEVROOT/dev/data/scratch"
	assert_output "agblocks = $ag"
	# live tuning went to the (copied) sysfs of the member disks
	for d in "$WORLD"/sys/block/sd[b-m]; do
		[ "$(cat "$d/queue/read_ahead_kb")" = 4096 ]
	done
	# a second run changes nothing: every step is recognised as done
	: >"$FAKE_LOG"
	run -0 "$SP" apply --profile "$TOP/profiles/md-raid6-lvm.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" --seed 1 --yes
	assert_output --partial "nothing to do"
	[ ! -s "$FAKE_LOG" ]
	# a rerun finds the PV labels and asks lvm about each PV and about the VG
	run -0 grep -c '^lvm pvs ' "$FAKE_QUERY_LOG"
	assert_output 2
	run -0 grep -c '^lvm vgs data$' "$FAKE_QUERY_LOG"
	assert_output 1
}

@test "apply argv: RAID1 gets no --chunk" {
	apply_golden md-raid1-syncwrite
	run -0 grep '^mdadm --create' "$FAKE_LOG"
	refute_output --partial -- "--chunk"
	assert_output --partial -- "--level=1 --raid-devices=2 --metadata=1.2 --bitmap=internal"
	# the partitions libparted wrote, read back by sgdisk: raid type, 1 MiB aligned
	run -0 sgdisk -i 1 "$STORPROV_DEVROOT/dev/sdb"
	assert_output --partial "Partition GUID code: A19D880F-05FC-4D3B-A006-743F0F84911E (Linux RAID)"
	assert_output --partial "First sector: 2048 "
}

@test "apply argv: PV on a whole LUN and on a partition, equally aligned" {
	apply_golden hwraid0-lvm-xfs
	run -0 grep -c -- '--dataalignment=3m' "$FAKE_LOG"
	assert_output 2
	run -0 sgdisk -i 1 "$STORPROV_DEVROOT/dev/sdc"
	assert_output --partial "First sector: 6144 "
	assert_output --partial "(Linux LVM)"
}

@test "apply argv: RAID60 stack (hardware RAID6 -> md RAID0 -> LVM -> XFS)" {
	apply_golden hwraid6-md0-lvm
	run -0 grep '^mdadm --create' "$FAKE_LOG"
	assert_output --partial -- "--level=0 --raid-devices=4 --chunk=256 --metadata=1.2 --homehost=any"
	refute_output --partial -- "--bitmap"
	run -0 grep '^mkfs.xfs' "$FAKE_LOG"
	assert_output --partial -- "-d su=256k,sw=4 -l version=2,su=4k"
}

@test "apply argv: a partitioned md (GPT after mdadm --create, PV and XFS on its partitions), then nothing to do" {
	export FAKE_MD_SIZE=1
	apply_golden md-raid5-gpt
	# order: the array, then its table, then what sits on its partitions
	run -0 grep -n -e '^mdadm --create /dev/md/r5data' -e 'pvcreate' -e '^mkfs.xfs -L data' "$FAKE_LOG"
	assert_line --index 0 --regexp '^1:mdadm --create /dev/md/r5data .*--level=5 --raid-devices=4 --chunk=64'
	assert_output --partial -- "--dataalignment=3m /dev/md/r5data2"
	assert_output --regexp -- "-d su=64k,sw=3 -l version=2,su=4k -d agsize=[0-9]+b /dev/md/r5data1"
	# the table libparted wrote on the array, read back by sgdisk: 3 MiB starts, linux + LVM types
	run -0 sgdisk -i 1 "$STORPROV_DEVROOT/dev/md/r5data"
	assert_output --partial "First sector: 6144 "
	assert_output --partial "(Linux filesystem)"
	run -0 sgdisk -i 2 "$STORPROV_DEVROOT/dev/md/r5data"
	assert_output --partial "(Linux LVM)"
	local second
	second=$(sgdisk -i 2 "$STORPROV_DEVROOT/dev/md/r5data" | sed -n 's/^First sector: \([0-9]*\).*/\1/p')
	[ $((second % 6144)) -eq 0 ]
	jq -e '[.objects[] | select(.id=="r5") | .steps[] | select(.kind != "sysfs") | .kind + ":" + .action] == ["mdadm:created", "gpt:created"]' "$BATS_TEST_TMPDIR/report.json"
	# a second run keeps the md's table and changes nothing
	: >"$FAKE_LOG"
	run -0 "$SP" apply --profile "$TOP/profiles/md-raid5-gpt.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" --seed 1 --yes
	assert_output --partial "the partition table already matches the plan"
	assert_output --partial "nothing to do"
	[ ! -s "$FAKE_LOG" ]
}

@test "apply argv: a foreign table on a partitioned md is refused at its GPT step" {
	export FAKE_MD_SIZE=1
	world md-raid5-gpt
	# an array left by someone else under the planned name and UUID: running, with its own table
	run -0 "$SP" plan --profile "$TOP/profiles/md-raid5-gpt.xml" --sysroot "$WORLD" --seed 1 --format json
	local uuid
	uuid=$(jq -r '.objects[] | select(.kind=="md") | .uuid' <<<"$output")
	mkdir -p "$STORPROV_DEVROOT/dev/md"
	echo "$uuid" >"$STORPROV_DEVROOT/dev/md/r5data"
	mkdir -p "$FAKE_STATE"
	echo "$uuid" >"$FAKE_STATE/md-uuid-${STORPROV_DEVROOT//\//_}_dev_md_r5data"
	truncate -s $((4 * 4000787030016)) "$STORPROV_DEVROOT/dev/md/r5data"
	sgdisk -n 1:2048:+64M "$STORPROV_DEVROOT/dev/md/r5data" >/dev/null
	local before
	before=$(sgdisk -p "$STORPROV_DEVROOT/dev/md/r5data" | grep -i 'disk identifier')
	run -1 "$SP" apply --profile "$TOP/profiles/md-raid5-gpt.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" --seed 1 --yes
	assert_output --partial 'carries a gpt partition table with 1 partition that is not the planned one'
	assert_output --partial 'add wipe="true" to <md>'
	[ "$(sgdisk -p "$STORPROV_DEVROOT/dev/md/r5data" | grep -i 'disk identifier')" = "$before" ]
	run -0 grep -c pvcreate "$FAKE_LOG" || true
	assert_output 0
}

@test "apply argv: eight LUNs, whole-disk XFS" {
	apply_golden many-luns
	run -0 grep -c '^mkfs.xfs' "$FAKE_LOG"
	assert_output 8
	jq -e '[.objects[] | select(.kind=="xfs") | .action] | all(. == "created")' "$BATS_TEST_TMPDIR/report.json"
}

@test "apply: the output of tools run in parallel is relayed line by line, each line with its object (issue 31)" {
	world many-luns
	export FAKE_MKFS_TALK=1
	run -0 --separate-stderr "$SP" apply --profile "$TOP/profiles/many-luns.xml" --sysroot "$WORLD" \
		--root "$BATS_TEST_TMPDIR/root" --seed 1 --yes --jobs 8 --lock-file "$BATS_TEST_TMPDIR/lock"
	unset FAKE_MKFS_TALK
	# 8 mkfs.xfs at once, 7 lines each (3 stdout, 3 stderr, one without a newline)
	[ "$(grep -c 'talk lun' <<<"$stderr")" -eq 56 ]
	# every one of them whole, on a line of its own, named with the filesystem it belongs to
	bad=$(grep 'talk lun' <<<"$stderr" | grep -vE '^storprov: \[ *[0-9.]+s\] [^ ]+: talk lun[0-9]+ (line|err) [123]$|^storprov: \[ *[0-9.]+s\] [^ ]+: talk lun[0-9]+ no newline$' || true)
	[ -z "$bad" ] || { echo "not relayed whole: $bad"; false; }
	# the object named is the one whose mkfs.xfs spoke (its label is lunN)
	while read -r obj label; do
		id=$(jq -r --arg l "$label" '.objects[] | select(.kind=="xfs" and .label==$l) | .id' < <("$SP" plan --profile "$TOP/profiles/many-luns.xml" --sysroot "$WORLD" --seed 1 --format json 2>/dev/null))
		[ "$obj" = "$id" ] || { echo "$label's line named $obj, not $id"; false; }
	done < <(grep -oE '\] [^ ]+: talk lun[0-9]+' <<<"$stderr" | sed 's/^\] //; s/: talk / /' | sort -u)
	# the steps were in parallel: some lines of different filesystems alternate
	[ "$(grep -oE 'talk lun[0-9]+' <<<"$stderr" | uniq | wc -l)" -gt 8 ]
}

# sizes: LUN k of many-luns gets k x 256 MiB more, so that no two dry runs are the same
distinct_sizes() {
	local k=0 d
	for d in "$WORLD"/sys/block/sd[b-i]; do
		echo $((29360128 + k * 524288)) >"$d/size"
		truncate -s $(($(cat "$d/size") * 512)) "$STORPROV_DEVROOT/dev/$(basename "$d")"
		k=$((k + 1))
	done
}

@test "apply: mkfs.xfs dry runs, up to --jobs at once; each failure said with mkfs.xfs's own words, in step order" {
	world many-luns
	distinct_sizes
	export FAKE_MKFS_DRY_SLOW=1
	run -0 "$SP" apply --profile "$TOP/profiles/many-luns.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" \
		--seed 1 --dry-run --jobs 1
	[ "$(cat "$FAKE_STATE/dry-max")" = 1 ]
	rm -f "$FAKE_STATE/dry-max"
	run -0 "$SP" apply --profile "$TOP/profiles/many-luns.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" \
		--seed 1 --dry-run --jobs 4
	max=$(cat "$FAKE_STATE/dry-max")
	[ "$max" -gt 1 ] && [ "$max" -le 4 ] || { echo "at most $max at once"; false; }
	# a dry run's own output is not said when it passes
	refute_output --partial "meta-data="
	unset FAKE_MKFS_DRY_SLOW
	export FAKE_MKFS_DRY_FAIL="lun5 lun2"
	run -1 "$SP" apply --profile "$TOP/profiles/many-luns.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" \
		--seed 1 --yes --jobs 8 --report "$BATS_TEST_TMPDIR/r.json"
	assert_output --partial "2 mkfs.xfs dry runs failed: nothing was written"
	# mkfs.xfs's words, then storprov's, for lun2 before lun5
	grep 'fake mkfs.xfs: lun\|the XFS on .* cannot be made' <<<"$output" >"$BATS_TEST_TMPDIR/said"
	run -0 sed -E 's/^(fake mkfs.xfs: lun[0-9]).*/\1/; s/.*(the XFS on [^ ]*) cannot.*/\1/' "$BATS_TEST_TMPDIR/said"
	assert_output "$(printf '%s\n' 'fake mkfs.xfs: lun2' 'the XFS on /dev/sdc' 'fake mkfs.xfs: lun5' 'the XFS on /dev/sdf')"
	# nothing was written: no mkfs.xfs ran for real, no device carries anything
	[ ! -s "$FAKE_LOG" ]
	for d in "$STORPROV_DEVROOT"/dev/sd*; do
		[ -z "$(blkid -p -o value -s TYPE "$d" || true)" ] || { echo "$d: written"; false; }
	done
}

@test "apply: dry runs that differ only in label and UUID run once; the AG size at mkfs comes from it; a failure names every filesystem" {
	world many-luns
	export FAKE_MKFS_DRY_LOG="$BATS_TEST_TMPDIR/dry.log"
	# 8 LUNs of one size: one dry run, said
	run -0 "$SP" apply --profile "$TOP/profiles/many-luns.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" \
		--seed 1 --dry-run --jobs 4
	assert_output --partial "1 mkfs.xfs dry run for 8 filesystems: the others differ only in label and UUID"
	[ "$(wc -l <"$FAKE_MKFS_DRY_LOG")" -eq 1 ] || { cat "$FAKE_MKFS_DRY_LOG"; false; }
	: >"$FAKE_MKFS_DRY_LOG"
	run -0 "$SP" apply --profile "$TOP/profiles/many-luns.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" \
		--seed 1 --yes --jobs 4 --report "$BATS_TEST_TMPDIR/r.json"
	# the preflight's one, and none at mkfs: each AG size came from it (the device has the file's size)
	[ "$(wc -l <"$FAKE_MKFS_DRY_LOG")" -eq 1 ] || { cat "$FAKE_MKFS_DRY_LOG"; false; }
	# the AG size is the one a dry run on each device gave before (tests/expected/many-luns/commands.log)
	[ "$(grep -c '^mkfs.xfs .*-d agsize=229504b /dev/sd' "$FAKE_LOG")" -eq 8 ]
	# LUNs of 8 sizes: 8 dry runs, and still none at mkfs
	rm -rf "$BATS_TEST_TMPDIR/root" "$WORLD" "$STORPROV_DEVROOT"
	world many-luns
	distinct_sizes
	: >"$FAKE_MKFS_DRY_LOG"
	run -0 "$SP" apply --profile "$TOP/profiles/many-luns.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" \
		--seed 1 --yes --jobs 4
	refute_output --partial "differ only in label"
	[ "$(wc -l <"$FAKE_MKFS_DRY_LOG")" -eq 8 ] || { cat "$FAKE_MKFS_DRY_LOG"; false; }
	# the leader fails: every filesystem is named, mkfs.xfs's words said once
	rm -rf "$BATS_TEST_TMPDIR/root" "$WORLD" "$STORPROV_DEVROOT"
	world many-luns
	export FAKE_MKFS_DRY_FAIL="lun1 lun2 lun3 lun4 lun5 lun6 lun7 lun8"
	: >"$FAKE_LOG"
	run -1 "$SP" apply --profile "$TOP/profiles/many-luns.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" \
		--seed 1 --yes --jobs 8
	assert_output --partial "8 mkfs.xfs dry runs failed: nothing was written"
	[ "$(grep -c 'fake mkfs.xfs: lun' <<<"$output")" -eq 1 ]
	[ "$(grep -c 'the dry run of /dev/sdb, whose options differ only in label and UUID, on a file of 14 GiB' <<<"$output")" -eq 7 ]
	[ ! -s "$FAKE_LOG" ]
}

@test "apply argv: the grid profile writes its files, with a report" {
	apply_golden grid-3ware-raid5
	jq -e '[.files[].action] | all(. == "written")' "$BATS_TEST_TMPDIR/report.json"
	run -0 cat "$BATS_TEST_TMPDIR/root/etc/udev/rules.d/70-storprov.rules"
	assert_output --partial 'ATTR{queue/read_ahead_kb}="8192"'
	for d in sdb sdc; do
		[ "$(cat "$WORLD/sys/block/$d/queue/nr_requests")" = 512 ]
		[ "$(cat "$WORLD/sys/block/$d/queue/max_sectors_kb")" = 64 ]
	done
}

# unhold PID: ends a `flock -o FILE sleep N &` holder, its sleep too (bats
# waits for every process that keeps the test's output open: a sleep left
# behind cost the whole file its N seconds)
unhold() {
	pkill -P "$1" 2>/dev/null || true
	kill "$1" 2>/dev/null || true
	wait "$1" || true
}

# held FILE: wait until another process holds a lock on FILE
held() {
	local i
	for i in $(seq 200); do
		flock -n "$1" true || return 0
		sleep 0.05
	done
	return 1
}

@test "apply: one run at a time; a held run lock or disk lock is named, --wait waits" {
	world grid-3ware-raid5
	local lock="$BATS_TEST_TMPDIR/run.lock" args
	args=(apply --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root"
		--seed 1 --yes --jobs 1 --lock-file "$lock")
	# another run holds the run lock
	flock -o "$lock" sleep 30 &
	local holder=$!
	held "$lock"
	run -1 "$SP" "${args[@]}"
	assert_output --partial "is locked by pid"
	assert_output --partial "nothing was touched"
	[ ! -s "$FAKE_LOG" ]
	unhold "$holder"
	# a partitioner holds a target disk
	flock -o "$STORPROV_DEVROOT/dev/sdb" sleep 30 &
	holder=$!
	held "$STORPROV_DEVROOT/dev/sdb"
	run -1 "$SP" "${args[@]}"
	assert_output --partial "lun1 (/dev/sdb) is locked by pid"
	[ ! -s "$FAKE_LOG" ]
	unhold "$holder"
	# --wait: the second run waits for the first to end, then does the work
	flock -o "$lock" sleep 2 &
	holder=$!
	held "$lock"
	run -0 "$SP" "${args[@]}" --wait
	assert_output --partial "waiting (--wait)"
	run -0 grep -c '^mkfs.xfs' "$FAKE_LOG"
	assert_output 2
	wait "$holder" || true
}

@test "apply: the GPT carries the planned disk GUID and partition GUIDs (sgdisk reads them back)" {
	world md-raid1-syncwrite
	run -0 "$SP" plan --profile "$TOP/profiles/md-raid1-syncwrite.xml" --sysroot "$WORLD" --seed 1 --format json
	local plan=$output
	run -0 "$SP" apply --profile "$TOP/profiles/md-raid1-syncwrite.xml" --sysroot "$WORLD" \
		--root "$BATS_TEST_TMPDIR/root" --seed 1 --yes --jobs 1 --lock-file "$BATS_TEST_TMPDIR/lock"
	local d want
	for d in sdb sdc; do
		want=$(jq -r ".objects[] | select(.kind==\"disk\" and .device==\"/dev/$d\") | .gpt_guid" <<<"$plan")
		[[ $want =~ ^[0-9a-f-]{36}$ ]]
		run -0 sgdisk -p "$STORPROV_DEVROOT/dev/$d"
		assert_output --partial "Disk identifier (GUID): ${want^^}"
		want=$(jq -r ".objects[] | select(.kind==\"partition\" and .device==\"/dev/${d}1\") | .partuuid" <<<"$plan")
		run -0 sgdisk -i 1 "$STORPROV_DEVROOT/dev/$d"
		assert_output --partial "Partition unique GUID: ${want^^}"
	done
}

@test "apply argv: a program the plan runs that is not installed refuses the run before the first write, naming its packages; --dry-run alike" {
	world md-raid6-lvm
	# every fake but lvm, and no system directory that has a real one
	mkdir "$BATS_TEST_TMPDIR/bin"
	for f in "$FIX"/fakebin/*; do
		[ "$(basename "$f")" = lvm ] || ln -s "$f" "$BATS_TEST_TMPDIR/bin/"
	done
	for dry in "" --dry-run; do
		PATH="$BATS_TEST_TMPDIR/bin:/usr/bin:/bin" run -2 "$SP" apply --profile "$TOP/profiles/md-raid6-lvm.xml" \
			--sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" --seed 1 --yes --jobs 1 $dry
		assert_output --partial "lvm is not in PATH (package lvm2 on EL, lvm2 on Debian), and step"
		assert_output --partial "runs it: install it and run again; nothing was written"
	done
	# nothing ran, no table was written, no file
	[ ! -s "$FAKE_LOG" ]
	for d in "$STORPROV_DEVROOT"/dev/*; do
		run sgdisk -p "$d"
		assert_output --partial "Creating new GPT entries in memory" # none on the disk
	done
	[ ! -e "$BATS_TEST_TMPDIR/root/etc/fstab" ]
}

@test "apply argv: a command that hangs is killed at --command-timeout, its step named as failed, the others carried out" {
	world grid-3ware
	start=$SECONDS
	FAKE_MKFS_HANG=grid2 run -1 "$SP" apply --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$WORLD" \
		--root "$BATS_TEST_TMPDIR/root" --seed 1 --yes --jobs 2 --command-timeout 2
	[ $((SECONDS - start)) -lt 30 ]
	assert_output --partial "mkfs.xfs did not finish in 2 s (--command-timeout) and was killed"
	# it was: gone, or a zombie its new parent has yet to reap
	[ -s "$FAKE_LOG.hang.pid" ]
	local st
	st=$(sed -E 's/^[0-9]+ \(.*\) (.).*/\1/' "/proc/$(cat "$FAKE_LOG.hang.pid")/stat" 2>/dev/null) || true
	[ -z "$st" ] || [ "$st" = Z ]
	# the other LUN's filesystem was made
	[ "$(grep -c '^mkfs.xfs .*-L grid1 ' "$FAKE_LOG")" = 1 ]
	# the run says it failed and how to go on
	assert_output --partial "failed or could not run"
	run -2 "$SP" apply --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" \
		--command-timeout 0
	assert_output --partial "--command-timeout takes seconds from 1 to 86400"
}

@test "apply argv: mkfs.xfs's warning about the AG size storprov chose is said once, never once per filesystem" {
	world grid-3ware
	run -0 "$SP" apply --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" \
		--seed 1 --yes --jobs 2
	[ "$(grep -c 'mkfs.xfs warns that the AG size is a multiple of the stripe width: that is deliberate' <<<"$output")" = 1 ]
	[ "$(grep -c 'as said above, deliberately' <<<"$output")" = 1 ]
	refute_output --partial "Warning: AG size is a multiple of stripe width"
	refute_output --partial "an AG size that is one stripe unit smaller or larger"
}

@test "apply --dry-run: the answer first (what would change), the whole plan only with --verbose" {
	world grid-3ware
	run -0 --separate-stderr "$SP" apply --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$WORLD" \
		--root "$BATS_TEST_TMPDIR/root" --seed 1 --dry-run
	[[ ${lines[0]} == "What would change: "*" steps would run, "*" files would be written"* ]]
	refute_output --partial 'Plan for profile'
	assert_line --regexp '^ +[0-9]+\. would-run +XFS on /dev/sdb1'
	# a provisioned node: the answer is one line and a note of what is not listed
	"$SP" apply --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" \
		--seed 1 --yes >/dev/null 2>&1
	run -0 --separate-stderr "$SP" apply --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$WORLD" \
		--root "$BATS_TEST_TMPDIR/root" --seed 1 --dry-run
	[[ ${lines[0]} == "What would change: "* ]]
	refute_line --regexp '^ +[0-9]+\. done '
	assert_output --partial "done or kept"
	assert_output --partial "--verbose lists them, and the plan"
	run -0 --separate-stderr "$SP" apply --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$WORLD" \
		--root "$BATS_TEST_TMPDIR/root" --seed 1 --dry-run --verbose
	[[ ${lines[0]} == "What would change: "* ]]
	assert_output --partial 'Plan for profile "grid-3ware-raid5"'
	assert_line --regexp '^ +[0-9]+\. (done|kept) '
}

@test "apply argv: each mkfs.xfs apply runs is the plan's printed command; where it adds -d agsize=, the plan said so" {
	world md-raid6-lvm
	run -0 "$SP" plan --profile "$TOP/profiles/md-raid6-lvm.xml" --sysroot "$WORLD" --seed 1
	# the plan's mkfs.xfs commands, each marked with whether the line under it says apply adds the AG size
	awk '/^      \$ mkfs\.xfs /{ if (c) print c "\t-"; c = substr($0, 9); next }
	     c && /^      agsize: from the device at apply time/{ print c "\tagsize"; c = ""; next }
	     { if (c) print c "\t-"; c = "" } END { if (c) print c "\t-" }' <<<"$output" | sort >"$BATS_TEST_TMPDIR/planned"
	[ "$(grep -c $'\tagsize$' "$BATS_TEST_TMPDIR/planned")" -eq 3 ]
	run "$SP" apply --profile "$TOP/profiles/md-raid6-lvm.xml" --sysroot "$WORLD" --root "$BATS_TEST_TMPDIR/root" \
		--seed 1 --yes --jobs 1 --lock-file "$BATS_TEST_TMPDIR/lock"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# what ran, with the AG size apply added taken out again (the files are new: no -f)
	awk '/^mkfs\.xfs /{ ag = sub(/ -d agsize=[0-9]+b /, " "); print $0 "\t" (ag ? "agsize" : "-") }' "$FAKE_LOG" |
		sort >"$BATS_TEST_TMPDIR/ran"
	run -0 diff "$BATS_TEST_TMPDIR/planned" "$BATS_TEST_TMPDIR/ran"
}
