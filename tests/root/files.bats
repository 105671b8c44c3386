#!/usr/bin/env bats
# Issue 8, files: what render and apply write under --root. fsync of the file
# and of its directory (seen by strace), owner and mode of an existing file
# kept, created directories 0755 whatever the umask, stale temp files of our
# own pattern removed, files the profile no longer asks for removed or
# emptied, a second profile's render keeping (or clearly refusing beside) the
# first profile's fstab block, and apply --mount with a relative --root.
load crash_helper

PROFILE=profiles/grid-3ware-raid5.xml

setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (chown, mount, strace of render)"
	R=$BATS_TEST_TMPDIR/root
	LOOPLIST=$BATS_TEST_TMPDIR/loops
}

teardown() {
	umount_under "$BATS_TEST_TMPDIR"
	drop_all_loops
}

render() { # PROFILE SYSROOT-NAME [ROOT]
	"$SP" render --profile "$TOP/$1" --sysroot "$SYSROOT/$2" --seed 1 --root "${3:-$R}"
}

@test "files: each file is fsynced, then renamed, then its directory is fsynced" {
	command -v strace >/dev/null || skip "no strace"
	mkdir -p "$R"
	run -0 strace -f -o "$BATS_TEST_TMPDIR/trace" -y -e trace=fsync,fdatasync,rename,renameat,renameat2 \
		"$SP" render --profile "$TOP/$PROFILE" --sysroot "$SYSROOT/grid-3ware" --seed 1 --root "$R"
	local f dir base
	for f in etc/fstab etc/udev/rules.d/70-storprov.rules etc/sysctl.d/80-storprov.conf; do
		dir=$R/$(dirname "$f")
		base=$(basename "$f")
		# the temp file's data reached the disk before the rename
		awk -v b="$base.storprov-" -v ok=0 '
			/^[0-9]+ +f(data)?sync\(/ && index($0, b) { synced = 1 }
			/rename/ && index($0, b) { if (synced) ok = 1; exit }
			END { exit !ok }' "$BATS_TEST_TMPDIR/trace" ||
			{ echo "$f: no fsync of the temp file before its rename"; false; }
		# the directory entry reached the disk after the rename
		awk -v b="$base.storprov-" -v d="<$dir>" -v ok=0 '
			/rename/ && index($0, b) { renamed = 1; next }
			renamed && /f(data)?sync\(/ && index($0, d) { ok = 1; exit }
			END { exit !ok }' "$BATS_TEST_TMPDIR/trace" ||
			{ echo "$f: no fsync of $dir after the rename"; grep -E 'sync|rename' "$BATS_TEST_TMPDIR/trace"; false; }
	done
}

@test "files: an fsync error, of the file or of its directory, is reported (exit 1), not ignored" {
	command -v strace >/dev/null || skip "no strace"
	# the first fsync is fstab's temp file, the second fstab's directory after the rename
	run -1 strace -f -o /dev/null -e trace=fsync -e inject=fsync:error=EIO:when=1 \
		"$SP" render --profile "$TOP/$PROFILE" --sysroot "$SYSROOT/grid-3ware" --seed 1 --root "$R.1"
	assert_output --partial "$R.1/etc/fstab: error: cannot write (fsync of the temp file (the file was not replaced)): Input/output error [io]"
	[ ! -e "$R.1/etc/fstab" ]
	run -1 strace -f -o /dev/null -e trace=fsync -e inject=fsync:error=EIO:when=2 \
		"$SP" render --profile "$TOP/$PROFILE" --sysroot "$SYSROOT/grid-3ware" --seed 1 --root "$R.2"
	assert_output --partial "$R.2/etc/fstab: error: cannot write (fsync of its directory (the new file is in place but may not survive a crash)): Input/output error [io]"
	assert_output --partial "failed $R.2/etc/fstab"
	# without the fault: exit 0
	run -0 "$SP" render --profile "$TOP/$PROFILE" --sysroot "$SYSROOT/grid-3ware" --seed 1 --root "$R.3"
}

@test "files: an existing file keeps its owner and mode" {
	mkdir -p "$R/etc/sysctl.d"
	printf 'UUID=1111 / ext4 errors=remount-ro 0 1\n' >"$R/etc/fstab"
	printf '# old\n' >"$R/etc/sysctl.d/80-storprov.conf"
	chown 1000:1000 "$R/etc/fstab" "$R/etc/sysctl.d/80-storprov.conf"
	chmod 0600 "$R/etc/fstab" "$R/etc/sysctl.d/80-storprov.conf"
	run -0 render "$PROFILE" grid-3ware
	assert_output --partial "wrote $R/etc/fstab"
	grep -q 'storprov managed block' "$R/etc/fstab"
	for f in "$R/etc/fstab" "$R/etc/sysctl.d/80-storprov.conf"; do
		run -0 stat -c '%u:%g %a' "$f"
		assert_output "1000:1000 600"
	done
}

@test "files: created directories are 0755 and files 0644 under umask 077" {
	run -0 bash -c "umask 077; \"$SP\" render --profile \"$TOP/$PROFILE\" --sysroot \"$SYSROOT/grid-3ware\" --seed 1 --root \"$R\""
	for d in etc etc/udev etc/udev/rules.d etc/sysctl.d; do
		run -0 stat -c %a "$R/$d"
		[ "$output" = 755 ] || { echo "$d is $output"; false; }
	done
	for f in etc/fstab etc/udev/rules.d/70-storprov.rules etc/sysctl.d/80-storprov.conf; do
		run -0 stat -c %a "$R/$f"
		[ "$output" = 644 ] || { echo "$f is $output"; false; }
	done
}

@test "files: stale temp files of storprov's own pattern are removed, others kept" {
	mkdir -p "$R/etc/sysctl.d" "$R/etc/udev/rules.d"
	# what a killed run leaves: .NAME.storprov-PID-RANDOM-N (src/base/rootfs.c)
	: >"$R/etc/.fstab.storprov-4242-1641cf9f-0"
	: >"$R/etc/sysctl.d/.80-storprov.conf.storprov-4242-165f844f-1"
	: >"$R/etc/udev/rules.d/.70-storprov.rules.storprov-4242-2a69012e-2"
	: >"$R/etc/fstab.bak"
	: >"$R/etc/fstab.storprov-notours"
	run -0 render "$PROFILE" grid-3ware
	run -0 find "$R" -name '.*.storprov-*'
	assert_output ""
	[ -e "$R/etc/fstab.bak" ]
	[ -e "$R/etc/fstab.storprov-notours" ]
}

@test "files: dropping <tune> and <sysctl> from the profile removes storprov's own rules and sysctl files" {
	run -0 render "$PROFILE" grid-3ware
	[ -s "$R/etc/udev/rules.d/70-storprov.rules" ]
	grep -qv '^#' "$R/etc/sysctl.d/80-storprov.conf"
	# the same profile without any tuning or sysctl
	sed -e '/<tune /d' -e '/<sysctl /d' "$TOP/$PROFILE" >"$BATS_TEST_TMPDIR/plain.xml"
	run -0 "$SP" validate --profile "$BATS_TEST_TMPDIR/plain.xml" --sysroot "$SYSROOT/grid-3ware"
	run -0 "$SP" render --profile "$BATS_TEST_TMPDIR/plain.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 --root "$R"
	local f
	for f in etc/udev/rules.d/70-storprov.rules etc/sysctl.d/80-storprov.conf; do
		# gone, or nothing but comments and blank lines left in it
		if [ -e "$R/$f" ]; then
			run grep -vE '^[[:space:]]*(#|$)' "$R/$f"
			[ -z "$output" ] || { echo "$f still has: $output"; false; }
		fi
	done
	# fstab still carries the filesystems
	grep -q 'storprov managed block' "$R/etc/fstab"
}

@test "files: a second profile rendered into the same root never drops the first profile's fstab block" {
	run -0 render "$PROFILE" grid-3ware
	local before mp1 m
	before=$(cat "$R/etc/fstab")
	mp1=$(awk '$1 !~ /^#/ && NF >= 2 { print $2 }' "$R/etc/fstab" | sort)
	[ -n "$mp1" ]
	run render profiles/md-raid1-syncwrite.xml md-raid1-syncwrite
	echo "# second profile's render: exit $status" >&3
	# a refusal (of any file) names the profile that owns it
	[ "$status" -eq 0 ] || assert_output --partial "grid-3ware-raid5"
	# whatever happened, the first profile's filesystems are each in fstab once, in its block
	grep -q 'profile "grid-3ware-raid5"' "$R/etc/fstab"
	for m in $mp1; do
		[ "$(awk -v m="$m" '$1 !~ /^#/ && $2 == m' "$R/etc/fstab" | wc -l)" = 1 ] ||
			{ echo "the first profile's $m is not in fstab once"; cat "$R/etc/fstab"; false; }
	done
	if grep -q 'profile "md-raid1-syncwrite"' "$R/etc/fstab"; then
		# both blocks, keyed by profile name: rendering the first again keeps the second's
		run render "$PROFILE" grid-3ware
		grep -q 'profile "md-raid1-syncwrite"' "$R/etc/fstab"
		[ "$(awk '$1 !~ /^#/ && $2 == "/srv/journal"' "$R/etc/fstab" | wc -l)" = 1 ]
	else
		# refused: fstab untouched
		[ "$(cat "$R/etc/fstab")" = "$before" ]
	fi
}

@test "files: apply --mount with a relative --root works twice" {
	losetup -f >/dev/null 2>&1 || skip "no loop devices"
	new_loop 1G
	# a profile name of its own: --mount mounts by UUID, which must be unique on this machine
	crash_profile "$BATS_TEST_TMPDIR/p.xml" "$N" "" loop-relroot
	cd "$BATS_TEST_TMPDIR"
	run "$SP" apply --profile p.xml --root rel/root --yes --seed 1 --lock-file "$LOCKF" --mount
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run -0 findmnt -n -o SOURCE "$BATS_TEST_TMPDIR/rel/root/data"
	assert_output "${LOOP}p1"
	run -0 "$SP" apply --profile p.xml --root rel/root --yes --seed 1 --lock-file "$LOCKF" --mount
	assert_output --partial "nothing to do"
	[ "$(awk -v t="$BATS_TEST_TMPDIR/rel/root/data" '$2 == t' /proc/mounts | wc -l)" = 1 ]
	# and from another directory, the same root given relatively another way
	cd "$BATS_TEST_TMPDIR/rel"
	run -0 "$SP" apply --profile ../p.xml --root ./root/ --yes --seed 1 --lock-file "$LOCKF" --mount
	[ "$(awk -v t="$BATS_TEST_TMPDIR/rel/root/data" '$2 == t' /proc/mounts | wc -l)" = 1 ]
}
