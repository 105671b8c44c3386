#!/usr/bin/env bats
# Issue 18, the class and not the example: random foreign layouts (a random
# table, random starts, random formats, one of three erasures; see
# foreign_gen.py; and, issue 33, filesystems whose primary superblock is
# erased, only their copies left) on loop devices. Each: apply --dry-run and apply exit 2,
# every planted format named at its partition, the image's data unchanged;
# the first also applied with --wipe (exit 0, the planned GPT and XFS read
# back with sgdisk and blkid), the others --wipe --dry-run (exit 0).
# The seed is printed; replay with FOREIGN_SEED=N. The long pass:
# tests/root/foreign-sweep.sh (bench/results/foreign-sweep.md).
load crash_helper

setup_file() {
	export FOREIGN_SEED=${FOREIGN_SEED:-$(( (RANDOM << 15) | RANDOM ))}
	echo "# foreign-random: FOREIGN_SEED=$FOREIGN_SEED" >&3
}

setup() {
	crash_require
	command -v jq >/dev/null || skip "no jq"
}

layout() { # I [wipe]
	local s=$((FOREIGN_SEED + $1))
	run env SP="$SP" LOCKF="$LOCKF" "$TOP/tests/root/foreign_check.sh" "$s" "$BATS_TEST_TMPDIR/l" "$BATS_FILE_TMPDIR/cache" ${2:-}
	echo "$output"
	[ "$status" -eq 0 ]
	assert_output --regexp "^seed $s ok "
}

@test "random foreign layout 1 (seed printed): refused, unchanged; apply --wipe proceeds" { layout 0 wipe; }
@test "random foreign layout 2: refused, unchanged; --wipe --dry-run proceeds" { layout 1; }
@test "random foreign layout 3: refused, unchanged; --wipe --dry-run proceeds" { layout 2; }
@test "random foreign layout 4: refused, unchanged; --wipe --dry-run proceeds" { layout 3; }
@test "random foreign layout 5: refused, unchanged; --wipe --dry-run proceeds" { layout 4; }
@test "random foreign layout 6: refused, unchanged; --wipe --dry-run proceeds" { layout 5; }
