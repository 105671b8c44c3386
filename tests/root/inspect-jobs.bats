#!/usr/bin/env bats
# Issue 34 item 2 on loop devices: the inspection before the first write runs
# across disks at once (worker threads; since issue 43 one per disk whatever
# --jobs, serial with --jobs 1), and keeps every guarantee of
# the serial one: the same messages and refusals in the same (disk) order,
# one O_EXCL open per disk, not a byte written. The report has each disk's
# inspection time, and how many disks were inspected at once: with the test
# hook STORPROV_TEST_INSPECT_RENDEZVOUS=4 each inspection waits until 4 run at
# once, so 4 is proof of parallelism that no timing can fake (serially, the
# 4th never comes and max_concurrent stays 1).
load crash_helper

MiB=1048576

# four 1 GiB disks a b c d, their own <disks> each (no other run's loop
# devices can match); b carries a whole-disk ext4, d an XFS at 48 MiB
# behind an erased GPT (found by the scan at a partition's usual start)
setup_file() {
	[ "$(id -u)" -eq 0 ] && losetup -f >/dev/null 2>&1 || return 0
	local d
	for d in a b c d; do truncate -s 1G "$BATS_FILE_TMPDIR/$d.img"; done
	{
		mkfs.ext4 -q -F -L foreign-b "$BATS_FILE_TMPDIR/b.img" &&
			{ echo "start=$((48 * 2048)), size=400MiB" | sfdisk -q --label gpt "$BATS_FILE_TMPDIR/d.img" >/dev/null; } &&
			local loop && loop=$(losetup -f --show -P "$BATS_FILE_TMPDIR/d.img") && { partx -u "$loop" || true; } &&
			{ for _ in $(seq 30); do [ -b "${loop}p1" ] && break; sleep 0.1; done; } &&
			mkfs.xfs -q -L foreign-d "${loop}p1"
		local rc=$?
		[ -z "${loop:-}" ] || { wipefs -a -q "$loop" && losetup -d "$loop"; } || rc=1
		return $rc
	} >"$BATS_FILE_TMPDIR/base.err" 2>&1 || echo failed >"$BATS_FILE_TMPDIR/base.failed"
}

setup() {
	crash_require
	if [ -f "$BATS_FILE_TMPDIR/base.failed" ]; then
		cat "$BATS_FILE_TMPDIR/base.err"
		false
	fi
	LOOPLIST=$BATS_TEST_TMPDIR/loops
	local d l groups='' fs=''
	for d in a b c d; do
		cp --sparse=always "$BATS_FILE_TMPDIR/$d.img" "$BATS_TEST_TMPDIR/$d.img"
		l=$(losetup -f --show "$BATS_TEST_TMPDIR/$d.img")
		echo "$l" >>"$LOOPLIST"
		eval "LOOP_$d=$l"
		groups+="<disks id=\"$d\" count=\"1\"><match name=\"$(basename "$l")\"/><hwraid level=\"5\" members=\"4\" chunk=\"64K\"/><gpt><partition id=\"data\" size=\"100%\"/></gpt></disks>"
		fs+="<xfs on=\"$d.data\" label=\"$d\" mountpoint=\"/$d\"/>"
	done
	echo "<?xml version=\"1.0\"?><profile version=\"1\" name=\"inspect-jobs\">$groups$fs</profile>" >"$BATS_TEST_TMPDIR/p.xml"
	SUMS=$(sums)
}

teardown() {
	drop_all_loops
	true
}

sums() {
	local d
	for d in a b c d; do img_sum "$BATS_TEST_TMPDIR/$d.img"; done
}

# inspect JOBS [env...]: apply with --jobs JOBS, refused (exit 2); stderr
# without times in $BATS_TEST_TMPDIR/out.JOBS (the one line that states the
# inspection's time and --jobs left out), the report in report.JOBS.json
inspect() {
	local j=$1
	shift
	run -2 env "$@" "$SP" apply --profile "$BATS_TEST_TMPDIR/p.xml" --root "$BATS_TEST_TMPDIR/root" --yes --seed 1 \
		--lock-file "$LOCKF" --jobs "$j" --report "$BATS_TEST_TMPDIR/report.$j.json"
	echo "$output" | sed -E 's/^storprov: \[ *[0-9.]+s\] /storprov: /' | grep -v '^storprov: inspected 4 disks in ' \
		>"$BATS_TEST_TMPDIR/out.$j"
	grep -q "^storprov: \[ *[0-9.]*s\] inspected 4 disks in " <<<"$output" || { echo "$output"; false; }
}

@test "inspect --jobs 4: the same refusals and messages, in disk order, as --jobs 1; nothing written" {
	inspect 1
	inspect 4 STORPROV_TEST_INSPECT_RENDEZVOUS=4
	diff -u "$BATS_TEST_TMPDIR/out.1" "$BATS_TEST_TMPDIR/out.4"
	diff <(jq .refusals "$BATS_TEST_TMPDIR/report.1.json") <(jq .refusals "$BATS_TEST_TMPDIR/report.4.json")
	# b's ext4 and d's XFS behind its erased table are refused, b first; a and c are not named
	run -0 jq -r '.refusals[]' "$BATS_TEST_TMPDIR/report.4.json"
	[ "${#lines[@]}" -eq 2 ]
	[[ ${lines[0]} == "b ($LOOP_b) carries ext4 (label foreign-b"* ]]
	[[ ${lines[1]} == "d ($LOOP_d) carries xfs label foreign-d"*" at offset $((48 * MiB)) "* ]]
	run -0 grep -c "^storprov: refused: " "$BATS_TEST_TMPDIR/out.4"
	assert_output 2
	[ "$(sums)" = "$SUMS" ]
}

@test "inspect --jobs 4: each disk's time in the report, 4 disks inspected at once (rendezvous), one O_EXCL open per disk" {
	STRACE="strace -f -qq -e trace=openat -o $BATS_TEST_TMPDIR/trace"
	inspect 4 STORPROV_TEST_INSPECT_RENDEZVOUS=4 $STRACE
	r=$BATS_TEST_TMPDIR/report.4.json
	[ "$(jq -c '[.inspection.disks[].id]' "$r")" = '["a","b","c","d"]' ]
	[ "$(jq '[.inspection.disks[].elapsed_s | select(type == "number" and . >= 0)] | length' "$r")" = 4 ]
	[ "$(jq -c '[.inspection.jobs, .inspection.threads, .inspection.max_concurrent]' "$r")" = '[4,4,4]' ]
	[ "$(jq '.inspection.elapsed_s >= ([.inspection.disks[].elapsed_s] | max)' "$r")" = true ]
	# each disk opened with O_EXCL once, by a thread that is not the main one
	main=$(head -n 1 "$BATS_TEST_TMPDIR/trace" | cut -d' ' -f1)
	local d l
	for d in a b c d; do
		eval "l=\$LOOP_$d"
		run -0 grep -E "^[0-9]+ +openat\(AT_FDCWD, \"$l\", [^)]*O_EXCL" "$BATS_TEST_TMPDIR/trace"
		[ "${#lines[@]}" -eq 1 ]
		[[ ${lines[0]} != "$main "* ]]
	done
	# serially: no thread, one at a time, whatever the hook asks
	inspect 1 STORPROV_TEST_INSPECT_RENDEZVOUS=4
	[ "$(jq -c '[.inspection.jobs, .inspection.threads, .inspection.max_concurrent]' "$BATS_TEST_TMPDIR/report.1.json")" = '[1,0,1]' ]
	[ "$(jq '.inspection.disks | length' "$BATS_TEST_TMPDIR/report.1.json")" = 4 ]
	[ "$(sums)" = "$SUMS" ]
}

@test "inspect --jobs 2: every disk at once all the same (reading is not what --jobs limits, issue 43)" {
	inspect 2 STORPROV_TEST_INSPECT_RENDEZVOUS=4
	[ "$(jq -c '[.inspection.jobs, .inspection.threads, .inspection.max_concurrent]' "$BATS_TEST_TMPDIR/report.2.json")" = '[2,4,4]' ]
	diff <(jq .refusals "$BATS_TEST_TMPDIR/report.2.json") <(inspect 1 >/dev/null && jq .refusals "$BATS_TEST_TMPDIR/report.1.json")
	[ "$(sums)" = "$SUMS" ]
}

@test "inspect: the scan asks for each disk's regions together (fadvise WILLNEED) before it reads the first of them" {
	inspect 1 strace -f -qq -s 0 -e trace=openat,fadvise64,pread64 -o "$BATS_TEST_TMPDIR/trace"
	# d carries an erased GPT naming a partition at 48 MiB: the scan reads there, with the usual starts around it
	local fd
	fd=$(grep -E "openat\(AT_FDCWD, \"$LOOP_d\", [^)]*O_EXCL" "$BATS_TEST_TMPDIR/trace" | sed -E 's/.* = ([0-9]+)$/\1/')
	[ -n "$fd" ]
	# from d's exclusive open to its close (the next disk's open): every pread64 beyond the first 160 KiB (the
	# scan's windows; the head is read first) at an offset a fadvise64 on the same descriptor asked for before
	awk -v dev="$LOOP_d" -v fd="$fd" '
		index($0, "openat(AT_FDCWD, \"" dev "\"") && /O_EXCL/ { on = 1; next }
		on && /openat\(AT_FDCWD, "\/dev\/loop/ && /O_EXCL/ { on = 0 }
		!on { next }
		$0 ~ "fadvise64\\(" fd ", " { split($0, a, /[(,)]/); asked[a[3] + 0] = a[3] + a[4]; nf++ }
		$0 ~ "pread64\\(" fd ", " {
			n = split($0, a, /, /); off = a[n] + 0
			if (off < 163840) next
			np++; ok = 0
			for (s in asked) if (off >= s + 0 && off < asked[s]) { ok = 1; break }
			if (!ok) { print "not asked for before: " $0; bad++ }
		}
		END { printf "%d fadvise64, %d scan reads\n", nf, np; exit !(nf > 0 && np > 0 && !bad) }
	' "$BATS_TEST_TMPDIR/trace"
	[ "$(sums)" = "$SUMS" ]
}
