#!/usr/bin/env bats
# Target-root files read as bytes (issue 19): a file storprov merges or
# replaces that holds a NUL (a zero-filled block after a crash) is refused
# with its path and the byte offset, nothing written; invalid UTF-8 is kept
# byte for byte outside the managed block. Checked with sha256sum, not
# storprov's word.

load test_helper

# a 400-line foreign file with 4 KiB of zeros after line 200, as a crash
# leaves a block it had allocated but not written
zero_block_file() { # FILE COMMENT-PREFIX
	mkdir -p "$(dirname "$1")"
	{
		for i in $(seq 1 200); do printf '%s foreign line %d\n' "$2" "$i"; done
		head -c 4096 /dev/zero
		for i in $(seq 201 400); do printf '%s foreign line %d\n' "$2" "$i"; done
	} >"$1"
}

# case NAME: profile and sysroot (the shipped profile of that name on its fixture)
render() { # NAME ROOT
	"$SP" render --profile "$TOP/profiles/$1.xml" --sysroot "$SYSROOT/$1" --root "$2" --seed 1
}

@test "a NUL in any file storprov writes is refused with the file and the offset, nothing written" {
	local nf n f root before
	for nf in grid-3ware-raid5:etc/fstab grid-3ware-raid5:etc/udev/rules.d/70-storprov.rules \
		grid-3ware-raid5:etc/sysctl.d/80-storprov.conf md-raid5-gpt:etc/mdadm/mdadm.conf \
		multipath-2path:etc/multipath/wwids multipath-2path:etc/multipath/conf.d/storprov.conf; do
		n=${nf%%:*} f=${nf#*:}
		root="$BATS_TEST_TMPDIR/root-$n-$(basename "$f")"
		zero_block_file "$root/$f" '#'
		before=$(cd "$root" && find . -type f | sort | xargs sha256sum)
		run -2 render "$n" "$root"
		assert_output --partial "$root/$f"
		assert_output --partial "[nul-byte]"
		assert_output --partial "nothing was written"
		[ "$(cd "$root" && find . -type f | sort | xargs sha256sum)" = "$before" ]
	done
}

@test "the offset named is the first NUL's" {
	local root="$BATS_TEST_TMPDIR/root"
	zero_block_file "$root/etc/fstab" '#'
	local off
	off=$(head -n 200 "$root/etc/fstab" | wc -c)
	run -2 render grid-3ware-raid5 "$root"
	assert_output --partial "NUL byte at offset $off "
}

@test "invalid UTF-8 outside the managed block is kept byte for byte" {
	local nf n f root want
	for nf in grid-3ware-raid5:etc/fstab md-raid5-gpt:etc/mdadm/mdadm.conf multipath-2path:etc/multipath/wwids; do
		n=${nf%%:*} f=${nf#*:}
		root="$BATS_TEST_TMPDIR/root-$n"
		mkdir -p "$(dirname "$root/$f")"
		{
			for i in $(seq 1 200); do printf '# foreign line %d \xff\xfe\xc3(\xed\xa0\x80\n' "$i"; done
			printf '# no newline at the end \xe2\x82'
		} >"$root/$f"
		run -0 render "$n" "$root"
		grep -q '^# >>> storprov managed block' "$root/$f"
		run -0 bash -c "sed '/^# >>> storprov managed block/,/^# <<< storprov managed block/d' '$root/$f' | head -n 200 | sha256sum"
		want=$(for i in $(seq 1 200); do printf '# foreign line %d \xff\xfe\xc3(\xed\xa0\x80\n' "$i"; done | sha256sum)
		assert_output "$want"
		# the last line had no newline: kept, with one added before storprov's block
		run -0 bash -c "sed -n 201p '$root/$f' | od -An -c | tr -s ' '"
		assert_output "$(printf '# no newline at the end \xe2\x82\n' | od -An -c | tr -s ' ')"
	done
}
