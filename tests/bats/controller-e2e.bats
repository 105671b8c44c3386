#!/usr/bin/env bats
# Issue 41, item 5: end to end from each tool. For every tool storprov reads,
# a sysroot whose disks carry the identifier that tool really prints (built
# by make-sysroot.sh from tests/fixtures/controller/e2e/<name>.spec, with the
# tool's captured outputs from e2e/<name>/ under storprov-controller/), and
# `storprov plan` with <hwraid from="controller"/> on each disk giving the
# figures computed by hand in e2e/expected.tsv, and the same mkfs.xfs as the
# same LUN declared. `storprov controller` lists every VD of e2e/vds.tsv and
# names the ones that are no disk, or several.
load test_helper

E2E="$FIX/controller/e2e"

setup_file() {
	local spec name
	for spec in "$E2E"/*.spec; do
		name=$(basename "$spec" .spec)
		"$FIX/make-sysroot.sh" "$spec" "$BATS_FILE_TMPDIR/$name" >/dev/null
		mkdir "$BATS_FILE_TMPDIR/$name/storprov-controller"
		cp "$E2E/$name"/* "$BATS_FILE_TMPDIR/$name/storprov-controller/"
	done
}

# profile FILE DISK HWRAID-ATTRIBUTES: one disk, one XFS on it ("": no <hwraid>).
profile() {
	local hw=${3:+<hwraid $3/>}
	cat >"$1" <<-EOF
		<?xml version="1.0" encoding="UTF-8"?>
		<profile version="1" name="e2e">
		  <disks id="lun" count="1"><match name="$2"/>$hw</disks>
		  <xfs on="lun" label="lun" mountpoint="/data"/>
		</profile>
	EOF
}

# The rows of expected.tsv (or vds.tsv) whose spec column is $2.
rows() { # FILE SPEC-COLUMN SPEC
	awk -F'\t' -v c="$2" -v s="$3" '!/^#/ && NF && $c == s' "$1"
}

# A plan's disk object, as "su sw source", and its mkfs.xfs argv (one JSON line).
disk_geometry() { jq -r '.objects[] | select(.kind == "disk") | .geometry | "\(.su_bytes) \(.sw) \(.source)"'; }
disk_why() { jq -r '.objects[] | select(.kind == "disk") | .geometry.why'; }
mkfs_argv() { jq -c '[.steps[] | select(.argv[0] == "mkfs.xfs") | .argv]'; }
# 65536 -> 64k, 1048576 -> 1m: how mkfs.xfs's su= is written
size_word() { (($1 % 1048576)) && echo "$(($1 / 1024))k" || echo "$(($1 / 1048576))m"; }

# plans_as_declared SPEC: every expected.tsv row of the sysroot built from SPEC.
plans_as_declared() {
	local spec=$1 S="$BATS_FILE_TMPDIR/$1" n=0
	local tool disk level members chunk legs su sw flag fc st attrs a b row wc
	local -a all
	mapfile -t all < <(rows "$E2E/expected.tsv" 2 "$spec")
	for row in "${all[@]}"; do
		IFS=$'\t' read -r tool _ disk level members chunk legs su sw flag <<<"$row"
		n=$((n + 1))
		fc="$BATS_TEST_TMPDIR/$disk-from-controller.xml"
		profile "$fc" "$disk" 'from="controller"'
		case $level in
		'!no-vd')
			run -2 "$SP" plan --profile "$fc" --sysroot "$S" --seed 1
			assert_output --partial "$disk: <hwraid from=\"controller\"/>, but no RAID controller VD found is this disk"
			assert_output --partial "[hwraid-controller]"
			continue
			;;
		'!two-paths')
			run -2 "$SP" plan --profile "$fc" --sysroot "$S" --seed 1
			assert_output --partial "two paths to one LUN"
			assert_output --partial "[multipath-path]"
			continue
			;;
		esac
		run -0 --separate-stderr "$SP" plan --profile "$fc" --sysroot "$S" --seed 1 --format json
		a=$output
		assert_equal "$(disk_geometry <<<"$a")" "$su $sw controller"
		[[ $(disk_why <<<"$a") == "$tool controller "* ]] || fail "$spec $disk: the geometry's why names no $tool VD: $(disk_why <<<"$a")"
		# and says the VD's write cache as vds.tsv has it (shown only: the figures above do not depend on it)
		wc=$(awk -F'\t' -v s="$spec" -v d="$disk" '!/^#/ && $1 == s && $7 == d { print $9 }' "$E2E/vds.tsv")
		[ -n "$wc" ] || fail "$spec $disk: no vds.tsv row names this disk"
		if [ "$wc" = - ]; then wc="write cache: not printed by $tool"; else wc="write cache: $wc ($tool "; fi
		[[ $(disk_why <<<"$a") == *"; $wc"* ]] || fail "$spec $disk: the geometry's why does not say '$wc': $(disk_why <<<"$a")"
		a=$(mkfs_argv <<<"$a")
		[[ $a == '[["mkfs.xfs",'* ]] || fail "$spec $disk: no mkfs.xfs step: $a"
		if ((su)); then
			grep -qF "\"su=$(size_word "$su"),sw=$sw\"" <<<"$a" ||
				fail "$spec $disk: mkfs.xfs is not su=$(size_word "$su"),sw=$sw: $a"
		else
			[[ $a != *'"-d","su='* ]] || fail "$spec $disk: a mirror given a stripe: $a"
		fi
		st="$BATS_TEST_TMPDIR/$disk-stated.xml"
		attrs="level=\"$level\" members=\"$members\""
		[ "$chunk" = - ] || attrs+=" chunk=\"$chunk\""
		[ "$legs" = - ] || attrs+=" legs=\"$legs\""
		# "-": the VD is one drive with no stripe, as the same disk with no <hwraid> at all
		[ "$level" = - ] && attrs=
		profile "$st" "$disk" "$attrs"
		run -0 --separate-stderr "$SP" plan --profile "$st" --sysroot "$S" --seed 1 --format json
		[ "$level" = - ] || assert_equal "$(disk_geometry <<<"$output")" "$su $sw profile"
		b=$(mkfs_argv <<<"$output")
		assert_equal "$b" "$a"
	done
	((n >= 2)) || fail "expected.tsv has $n rows for $spec"
}

# lists_every_vd SPEC: storprov controller on the sysroot, against vds.tsv.
lists_every_vd() {
	local spec=$1 S="$BATS_FILE_TMPDIR/$1" want got
	run -0 --separate-stderr "$SP" controller --sysroot "$S" --format json
	got=$(jq -r '.logical_drives[] | [.tool, .controller, .vd, .level, (.data_disks // 0), (.device // "-"),
		(.matched_by // "-"), (.write_cache // "-")] | @tsv' <<<"$output" | sort)
	want=$(rows "$E2E/vds.tsv" 1 "$spec" | cut -f2-9 | sort)
	[ -n "$want" ] || fail "vds.tsv has no row for $spec"
	assert_equal "$got" "$want"
	# each VD that is no disk, or several, is named in the notes with the reason
	run -0 "$SP" controller --sysroot "$S"
	local tool ctl vd note row
	local -a all
	mapfile -t all < <(rows "$E2E/vds.tsv" 1 "$spec")
	for row in "${all[@]}"; do
		IFS=$'\t' read -r _ tool ctl vd _ _ _ _ _ note <<<"$row"
		[ "$note" = - ] && continue
		assert_output --partial "note: $tool controller $ctl VD $vd: "
		grep -F "note: $tool controller $ctl VD $vd: " <<<"$output" | grep -qF "$note" ||
			fail "$spec: the note on $tool $ctl VD $vd does not say: $note"
	done
}

@test "controller e2e: storcli2 (SCSI NAA Id, OS Drive Name): plans as declared" {
	plans_as_declared storcli2
}

@test "controller e2e: storcli2: every VD listed, the hidden one named" {
	lists_every_vd storcli2
}

@test "controller e2e: hpacucli (Unique Identifier, Disk Name): plans as declared" {
	plans_as_declared ssacli
}

@test "controller e2e: hpacucli: every logical drive listed, the one without a disk named" {
	lists_every_vd ssacli
}

@test "controller e2e: arcconf 2.x text (Disk Name; RAID 6 Reed-Solomon): plans as declared" {
	plans_as_declared arcconf
}

@test "controller e2e: arcconf 2.x text: every logical device listed, the one without a Disk Name named" {
	lists_every_vd arcconf
}

@test "controller e2e: arcconf GETCONFIGJSON (volumeUniqueID): plans as declared, a LUN on two paths is no one's" {
	plans_as_declared arcconf-json
}

@test "controller e2e: arcconf GETCONFIGJSON: every logical drive listed, the two-disk one named as several" {
	lists_every_vd arcconf-json
}

@test "controller e2e: tw_cli, two 9550SXU with unit 0 at 0:0:0 each (unit serial): plans as declared" {
	plans_as_declared tw_cli
}

@test "controller e2e: tw_cli: every unit listed, matched by serial, the unscanned one named" {
	lists_every_vd tw_cli
}

@test "controller e2e: MegaCli, two adapters with VD 0 at target 0 each (PCI address): plans as declared" {
	plans_as_declared megacli
}

@test "controller e2e: MegaCli: every VD listed, matched by SCSI address, the one without a disk named" {
	lists_every_vd megacli
}
