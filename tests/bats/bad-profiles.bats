#!/usr/bin/env bats
# Hostile profiles (tests/bad-profiles/, see its README.md): every one is
# refused with exit 2 and the key words of its golden .expect file, while a
# PATH of trap executables proves that nothing ran, strace proves that no
# device image and nothing under --root was opened for writing, and the root
# stays empty.
load test_helper

BAD="$TOP/tests/bad-profiles"
TOOLS="mdadm lvm pvcreate vgcreate lvcreate mkfs.xfs wipefs sgdisk sfdisk parted partprobe partx udevadm
sysctl mount umount blockdev blkid dmsetup xfs_info xfs_db xfs_admin dd"
# strace stops the process at the traced calls only (--seccomp-bpf: a seccomp
# filter picks them), not at every system call: 0.17 s a run under ASan, was
# 0.38. The first test shows that it still sees a write.
TRACE_CALLS=(strace --seccomp-bpf -f -qq -e 'trace=open,openat,openat2,creat,truncate')

setup_file() {
	export WORLD="$BATS_FILE_TMPDIR/sysroot" DEVROOT="$BATS_FILE_TMPDIR/devroot" TRAP="$BATS_FILE_TMPDIR/trap"
	cp -rL "$TOP/tests/fixtures/sysroot/grid-3ware" "$WORLD"
	mkdir -p "$DEVROOT/dev" "$TRAP"
	for d in "$WORLD"/sys/block/*; do
		truncate -s $(($(cat "$d/size") * 512)) "$DEVROOT/dev/$(basename "$d")"
		printf 'storprov hostile-profile canary\n' | dd of="$DEVROOT/dev/$(basename "$d")" conv=notrunc status=none
	done
	devices_state >"$BATS_FILE_TMPDIR/devices.state"
	for t in $TOOLS; do
		printf '#!/bin/sh\necho "%s $*" >>"%s/ran.log"\nexit 1\n' "$t" "$BATS_FILE_TMPDIR" >"$TRAP/$t"
		chmod +x "$TRAP/$t"
	done
}

# The images are sparse and terabytes long: their size, mtime, ctime and the
# hash of their first MiB (where a GPT or a superblock would go) stand for them.
# One stat and one hash for all of them (head names each before its bytes):
# three processes a test, not twelve.
devices_state() {
	stat -c '%n %s %Y.%y %Z' "$DEVROOT"/dev/*
	head -c 1048576 "$DEVROOT"/dev/* | sha256sum
}

# bad_profile NAME: apply NAME.xml; check the exit code, the key words, and
# that nothing was run, opened for writing or created.
bad_profile() {
	local n=$1 root="$BATS_TEST_TMPDIR/root" trace="$BATS_TEST_TMPDIR/strace.log" want k
	want=$(sed -n '1s/^exit //p' "$BAD/$n.expect")
	[ -n "$want" ] || { echo "$n.expect lacks its 'exit N' line"; return 1; }
	mkdir -p "$root"
	: >"$BATS_FILE_TMPDIR/ran.log"
	# LeakSanitizer cannot run under ptrace: under ASan (the asan suite) the
	# traced run leaves the leak check out, and a second run, untraced, has it
	local tracer=("${TRACE_CALLS[@]}" -o "$trace")
	run env ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"} PATH="$TRAP:/usr/bin:/bin" \
		STORPROV_DEVROOT="$DEVROOT" "${tracer[@]}" "$SP" apply --yes --jobs 1 --profile "$BAD/$n.xml" \
		--sysroot "$WORLD" --root "$root"
	echo "$output"
	[ "$status" -eq "$want" ] || { echo "exit $status, expected $want"; return 1; }
	if [ -n "${ASAN_OPTIONS:-}" ]; then
		local traced=$output
		run env PATH="$TRAP:/usr/bin:/bin" STORPROV_DEVROOT="$DEVROOT" "$SP" apply --yes --jobs 1 \
			--profile "$BAD/$n.xml" --sysroot "$WORLD" --root "$root"
		[ "$status" -eq "$want" ] || { echo "$output"; echo "with the leak check: exit $status, expected $want"; return 1; }
		output=$traced
	fi
	while IFS= read -r k; do
		[[ $output == *"$k"* ]] || { echo "missing key words: $k"; return 1; }
	done < <(tail -n +2 "$BAD/$n.expect")
	[ ! -s "$BATS_FILE_TMPDIR/ran.log" ] || { echo "ran:"; cat "$BATS_FILE_TMPDIR/ran.log"; return 1; }
	if grep -E "\"($DEVROOT|$root)[^\"]*\", [^)]*(O_WRONLY|O_RDWR|O_CREAT|O_TRUNC)" "$trace"; then
		echo "opened for writing (above)"
		return 1
	fi
	grep -qE 'open' "$trace" || { echo "strace recorded nothing: the check proves nothing"; return 1; }
	devices_state | diff -u "$BATS_FILE_TMPDIR/devices.state" -
	[ -z "$(find "$root" -mindepth 1)" ] || { find "$root"; return 1; }
}

@test "the checks can fail: a good profile is seen running and writing" {
	# the same harness on a profile that plans: the trap log, strace and the
	# device state must all notice, or the hostile cases below prove nothing
	local dev="$BATS_TEST_TMPDIR/devroot" trace="$BATS_TEST_TMPDIR/strace.log" d
	mkdir -p "$dev/dev"
	for d in "$WORLD"/sys/block/*; do
		truncate -s $(($(cat "$d/size") * 512)) "$dev/dev/$(basename "$d")"
	done
	: >"$BATS_FILE_TMPDIR/ran.log"
	# apply dry-runs every mkfs.xfs (-N) before its first write: let the dry
	# runs reach the real mkfs.xfs here, so that the run gets to its writes
	local trap2="$BATS_TEST_TMPDIR/trap" mk
	mk=$(PATH=/usr/sbin:/sbin:/usr/bin:/bin command -v mkfs.xfs)
	cp -a "$TRAP" "$trap2"
	printf '#!/bin/sh
case " $* " in *" -N "*) exec %s "$@" ;; esac
echo "mkfs.xfs $*" >>"%s/ran.log"
exit 1
' \
		"$mk" "$BATS_FILE_TMPDIR" >"$trap2/mkfs.xfs"
	# (under ASan without the leak check: LeakSanitizer cannot run under ptrace)
	run env ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"} PATH="$trap2:/usr/bin:/bin" STORPROV_DEVROOT="$dev" \
		"${TRACE_CALLS[@]}" -o "$trace" \
		"$SP" apply --yes --jobs 1 --lock-file "$BATS_TEST_TMPDIR/run.lock" --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$WORLD" \
		--root "$BATS_TEST_TMPDIR/root"
	echo "$output" | tail -n 5
	[ "$status" -ne 0 ] && [ "$status" -ne 2 ]   # it ran, and the trap failed it
	[ -s "$BATS_FILE_TMPDIR/ran.log" ]
	grep -qE "\"$dev[^\"]*\", [^)]*(O_WRONLY|O_RDWR)" "$trace"
}

@test "every profile in tests/bad-profiles has its test and its golden file" {
	local missing=0 n tests
	tests=$(<"$BATS_TEST_FILENAME")
	for f in "$BAD"/*.xml; do
		n=${f##*/}
		n=${n%.xml}
		[ -f "$BAD/$n.expect" ] || { echo "no $n.expect"; missing=1; }
		[[ $tests == *"bad_profile $n;"* ]] || { echo "no test for $n"; missing=1; }
	done
	[ "$(ls "$BAD"/*.xml | wc -l)" -ge 60 ]
	[ "$missing" -eq 0 ]
}

# The generated profiles come from yes, seq and head: a shell loop pays bats's
# DEBUG trap for each line (2.4 s for 10001 lines, 0.1 s this way).
@test "bad profile: larger than 4 MiB (generated)" {
	local f="$BATS_TEST_TMPDIR/huge.xml"
	{ printf '<?xml version="1.0"?>\n<profile version="1"><description>'; head -c 4300000 /dev/zero | tr '\0' x; printf '</description></profile>\n'; } >"$f"
	run -2 "$SP" validate --profile "$f" --sysroot "$WORLD"
	assert_output --partial "larger than 4 MiB"
	assert_output --partial "[input-size]"
}

@test "bad profile: more than 10000 elements (generated)" {
	local f="$BATS_TEST_TMPDIR/many.xml"
	{ printf '<?xml version="1.0"?>\n<profile version="1">\n'; yes '<allow rule="queue-memory"/>' | head -n 10001; printf '</profile>\n'; } >"$f"
	run -2 "$SP" validate --profile "$f" --sysroot "$WORLD"
	assert_output --partial "more than 10000 elements"
}

@test "bad profile: 257 sysctls (generated)" {
	local f="$BATS_TEST_TMPDIR/sysctls.xml"
	{ printf '<?xml version="1.0"?>\n<profile version="1">\n<allow rule="sysctl-key"/>\n'; seq -f '<sysctl key="dev.x.k%g" value="1"/>' 257; printf '</profile>\n'; } >"$f"
	run -2 "$SP" validate --profile "$f" --sysroot "$WORLD"
	assert_output --partial "260: error: sysctl: 257 <sysctl> elements; a profile sets at most 256"
}

@test "bad profile: 9000 sysctls are refused by the count cap" {
	local f="$BATS_TEST_TMPDIR/dups.xml"
	{ printf '<?xml version="1.0"?>\n<profile version="1">\n'; yes '<sysctl key="vm.dirty_ratio" value="1"/>' | head -n 9000; printf '</profile>\n'; } >"$f"
	# the cap bounds the work (no timing here: speed is a benchmark's business)
	run -2 "$SP" validate --profile "$f" --sysroot "$WORLD"
	assert_output --partial "at most 256"
}

@test "bad profile: 256 copies of one sysctl: 255 duplicates, each reported once" {
	local f="$BATS_TEST_TMPDIR/dup256.xml"
	{ printf '<?xml version="1.0"?>\n<profile version="1">\n'; yes '<sysctl key="vm.dirty_ratio" value="1"/>' | head -n 256; printf '</profile>\n'; } >"$f"
	run -2 "$SP" validate --profile "$f" --sysroot "$WORLD"
	[ "$(grep -c 'is set twice (also line 3) \[sysctl-duplicate\]' <<<"$output")" -eq 255 ]
}

@test "bad profile: billion laughs is refused once, at once" {
	SECONDS=0
	run -2 "$SP" validate --profile "$BAD/billion-laughs.xml" --sysroot "$WORLD"
	[ "$SECONDS" -lt 2 ]
	[ "$(grep -c 'error:' <<<"$output")" -eq 1 ]
}

@test "bad profile: allow-unknown-rule" { bad_profile allow-unknown-rule; }
@test "bad profile: bad-level" { bad_profile bad-level; }
@test "bad profile: billion-laughs" { bad_profile billion-laughs; }
@test "bad profile: binary" { bad_profile binary; }
@test "bad profile: chunk-not-4k" { bad_profile chunk-not-4k; }
@test "bad profile: chunk-petabytes" { bad_profile chunk-petabytes; }
@test "bad profile: chunk-tiny" { bad_profile chunk-tiny; }
@test "bad profile: count-negative" { bad_profile count-negative; }
@test "bad profile: count-words" { bad_profile count-words; }
@test "bad profile: count-wrap" { bad_profile count-wrap; }
@test "bad profile: count-zero" { bad_profile count-zero; }
@test "bad profile: cycle" { bad_profile cycle; }
@test "bad profile: dangling-md" { bad_profile dangling-md; }
@test "bad profile: dangling-vg" { bad_profile dangling-vg; }
@test "bad profile: dangling-xfs" { bad_profile dangling-xfs; }
@test "bad profile: dirty-bytes-small" { bad_profile dirty-bytes-small; }
@test "bad profile: dirty-ratio-140" { bad_profile dirty-ratio-140; }
@test "bad profile: disk-count-mismatch" { bad_profile disk-count-mismatch; }
@test "bad profile: doctype" { bad_profile doctype; }
@test "bad profile: duplicate-hwraid" { bad_profile duplicate-hwraid; }
@test "bad profile: duplicate-id" { bad_profile duplicate-id; }
@test "bad profile: duplicate-mountpoint" { bad_profile duplicate-mountpoint; }
@test "bad profile: duplicate-sysctl" { bad_profile duplicate-sysctl; }
@test "bad profile: empty" { bad_profile empty; }
@test "bad profile: encoding-switch" { bad_profile encoding-switch; }
@test "bad profile: entity-without-doctype" { bad_profile entity-without-doctype; }
@test "bad profile: external-entity" { bad_profile external-entity; }
@test "bad profile: identifier-injection" { bad_profile identifier-injection; }
@test "bad profile: label-space" { bad_profile label-space; }
@test "bad profile: legs-on-raid5" { bad_profile legs-on-raid5; }
@test "bad profile: logbsize-small" { bad_profile logbsize-small; }
@test "bad profile: match-newline" { bad_profile match-newline; }
@test "bad profile: max-sectors-above-hw" { bad_profile max-sectors-above-hw; }
@test "bad profile: max-sectors-zero" { bad_profile max-sectors-zero; }
@test "bad profile: md-chunk-not-pow2" { bad_profile md-chunk-not-pow2; }
@test "bad profile: attribute-typo" { bad_profile attribute-typo; }
@test "bad profile: element-typo" { bad_profile element-typo; }
@test "bad profile: lv-stripe-not-pow2" { bad_profile lv-stripe-not-pow2; }
@test "bad profile: lv-stripe-straddles" { bad_profile lv-stripe-straddles; }
@test "bad profile: md-layout-injection" { bad_profile md-layout-injection; }
@test "bad profile: members-wrap" { bad_profile members-wrap; }
@test "bad profile: min-size-wrap" { bad_profile min-size-wrap; }
@test "bad profile: mismatched-tags" { bad_profile mismatched-tags; }
@test "bad profile: mkfs-su-fight" { bad_profile mkfs-su-fight; }
@test "bad profile: mount-options-hash" { bad_profile mount-options-hash; }
@test "bad profile: mount-options-newline" { bad_profile mount-options-newline; }
@test "bad profile: mount-options-space" { bad_profile mount-options-space; }
@test "bad profile: mountpoint-dot" { bad_profile mountpoint-dot; }
@test "bad profile: mountpoint-dotdot" { bad_profile mountpoint-dotdot; }
@test "bad profile: mountpoint-needs-n" { bad_profile mountpoint-needs-n; }
@test "bad profile: mountpoint-newline" { bad_profile mountpoint-newline; }
@test "bad profile: mountpoint-octal" { bad_profile mountpoint-octal; }
@test "bad profile: mountpoint-relative" { bad_profile mountpoint-relative; }
@test "bad profile: mountpoint-tab" { bad_profile mountpoint-tab; }
@test "bad profile: no-disk-matches" { bad_profile no-disk-matches; }
@test "bad profile: no-version" { bad_profile no-version; }
@test "bad profile: nobarrier" { bad_profile nobarrier; }
@test "bad profile: not-xml" { bad_profile not-xml; }
@test "bad profile: nr-requests-2p54" { bad_profile nr-requests-2p54; }
@test "bad profile: nr-requests-max" { bad_profile nr-requests-max; }
@test "bad profile: nr-requests-overflow" { bad_profile nr-requests-overflow; }
@test "bad profile: partition-name-long" { bad_profile partition-name-long; }
@test "bad profile: md-gpt-twice" { bad_profile md-gpt-twice; }
@test "bad profile: md-partition-dangling" { bad_profile md-partition-dangling; }
@test "bad profile: md-partition-duplicate-id" { bad_profile md-partition-duplicate-id; }
@test "bad profile: md-partition-percent-over" { bad_profile md-partition-percent-over; }
@test "bad profile: md-partition-tiny" { bad_profile md-partition-tiny; }
@test "bad profile: md-partition-too-big" { bad_profile md-partition-too-big; }
@test "bad profile: md-partitioned-whole" { bad_profile md-partitioned-whole; }
@test "bad profile: percent-over" { bad_profile percent-over; }
@test "bad profile: preserve-mismatch" { bad_profile preserve-mismatch; }
@test "bad profile: queue-memory" { bad_profile queue-memory; }
@test "bad profile: raid1-chunk" { bad_profile raid1-chunk; }
@test "bad profile: raid1-stripe-cache" { bad_profile raid1-stripe-cache; }
@test "bad profile: raid50-no-legs" { bad_profile raid50-no-legs; }
@test "bad profile: raid6-three-members" { bad_profile raid6-three-members; }
@test "bad profile: raid60-uneven-legs" { bad_profile raid60-uneven-legs; }
@test "bad profile: ratio-and-bytes" { bad_profile ratio-and-bytes; }
@test "bad profile: read-ahead-huge" { bad_profile read-ahead-huge; }
@test "bad profile: safe-mode-on-disk" { bad_profile safe-mode-on-disk; }
@test "bad profile: self-reference" { bad_profile self-reference; }
@test "bad profile: size-bad-unit" { bad_profile size-bad-unit; }
@test "bad profile: size-inexact" { bad_profile size-inexact; }
@test "bad profile: size-wrap" { bad_profile size-wrap; }
@test "bad profile: size-zero" { bad_profile size-zero; }
@test "bad profile: spares-wrap" { bad_profile spares-wrap; }
@test "bad profile: stripe-cache-low" { bad_profile stripe-cache-low; }
@test "bad profile: stripes-wrap" { bad_profile stripes-wrap; }
@test "bad profile: sunit-in-fstab" { bad_profile sunit-in-fstab; }
@test "bad profile: sysctl-kernel" { bad_profile sysctl-kernel; }
@test "bad profile: sysctl-key-newline" { bad_profile sysctl-key-newline; }
@test "bad profile: sysctl-value-control" { bad_profile sysctl-value-control; }
@test "bad profile: sysctl-value-del" { bad_profile sysctl-value-del; }
@test "bad profile: sysctl-value-newline" { bad_profile sysctl-value-newline; }
@test "bad profile: system-count" { bad_profile system-count; }
@test "bad profile: system-gpt" { bad_profile system-gpt; }
@test "bad profile: system-md-member" { bad_profile system-md-member; }
@test "bad profile: system-not-bool" { bad_profile system-not-bool; }
@test "bad profile: system-steals" { bad_profile system-steals; }
@test "bad profile: system-tune" { bad_profile system-tune; }
@test "bad profile: system-wipe" { bad_profile system-wipe; }
@test "bad profile: system-xfs-on" { bad_profile system-xfs-on; }
@test "bad profile: system-mountpoint-root" { bad_profile system-mountpoint-root; }
@test "bad profile: system-mountpoint-boot" { bad_profile system-mountpoint-boot; }
@test "bad profile: truncated" { bad_profile truncated; }
@test "bad profile: unclosed-element" { bad_profile unclosed-element; }
@test "bad profile: unknown-attribute" { bad_profile unknown-attribute; }
@test "bad profile: unknown-element" { bad_profile unknown-element; }
@test "bad profile: used-twice" { bad_profile used-twice; }
@test "bad profile: utf16" { bad_profile utf16; }
@test "bad profile: version-2" { bad_profile version-2; }
@test "bad profile: wrong-root" { bad_profile wrong-root; }
