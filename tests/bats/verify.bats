#!/usr/bin/env bats
# storprov verify on captured trees: the grid node of seed 000 as apply would
# have left it (partitions in sysfs, queue attributes and sysctls set, the
# filesystems mounted with the planned options, the files rendered), built
# by tests/tools/applied-node.sh from the tree and the plan's own figures;
# then one thing changed at a time, and verify must name it, expected against
# found, and exit 3. The live checks (md, dm, XFS geometry) run in tests/vm/7x-verify-drift.bats.
load test_helper

PROFILE="$TOP/profiles/grid-3ware-raid5.xml"

setup() {
	T="$BATS_TEST_TMPDIR/node"
	ROOT="$BATS_TEST_TMPDIR/root"
	"$TOP/tests/tools/applied-node.sh" "$SP" "$PROFILE" "$SYSROOT/grid-3ware" "$T" "$ROOT"
}

@test "verify: a node as planned is clean (exit 0); device-level checks are marked not checked" {
	run -0 "$SP" verify --profile "$PROFILE" --sysroot "$T" --root "$ROOT" --seed 1
	assert_line --regexp '^[0-9]+ checks: [0-9]+ ok, 0 drift, 0 missing, 2 not checked$'
	assert_line --partial "ok       partition lun1.data"
	assert_line --partial "ok       disk lun1 (4 checks)"
	assert_line --partial "ok       file file:/etc/fstab"
	run -0 "$SP" verify --profile "$PROFILE" --sysroot "$T" --root "$ROOT" --seed 1 --format json
	[ "$(jq -r .format <<<"$output")" = storprov-verify ]
	[ "$(jq -r .format_version <<<"$output")" = 2 ]
	[ "$(jq -r .storprov_version <<<"$output")" = "$("$SP" --version | cut -d' ' -f2)" ]
	[ "$(jq -r .status <<<"$output")" = clean ]
	[ "$(jq -r .summary.drift <<<"$output")" = 0 ]
	[ -n "$(jq -r .host <<<"$output")" ]
}

@test "verify: queue attributes and a sysctl changed by hand are drift, expected against found" {
	echo 128 >"$T/sys/block/sdc/queue/read_ahead_kb"
	echo "none mq-deadline kyber [bfq]" >"$T/sys/block/sdb/queue/scheduler"
	echo 20 >"$T/proc/sys/vm/dirty_ratio"
	run -3 "$SP" verify --profile "$PROFILE" --sysroot "$T" --root "$ROOT" --seed 1
	assert_line "drift    disk lun2 (4 checks)"
	assert_line "           drift queue/read_ahead_kb: expected 8192, found 128"
	assert_line "           drift queue/scheduler: expected mq-deadline, found bfq"
	assert_line "           drift /proc/sys/vm/dirty_ratio: expected 40, found 20"
	run -3 "$SP" verify --profile "$PROFILE" --sysroot "$T" --root "$ROOT" --seed 1 --format json
	[ "$(jq -r .status <<<"$output")" = drift ]
	[ "$(jq -r .summary.drift <<<"$output")" = 3 ]
	[ "$(jq -c '.checks[] | select(.object == "lun2" and .check == "queue/read_ahead_kb") | [.status, .expected, .found]' <<<"$output")" = '["drift","8192","128"]' ]
}

@test "verify: a partition moved, a filesystem mounted with other options, a rule file deleted" {
	echo 2048 >"$T/sys/block/sdb/sdb1/start"
	sed -i 's|/storage/data2 xfs rw,noatime,inode64,logbufs=8,logbsize=256k,swalloc|/storage/data2 xfs rw,relatime,inode64,logbufs=8,logbsize=32k|' "$T/proc/mounts"
	rm "$ROOT/etc/udev/rules.d/70-storprov.rules"
	run -3 "$SP" verify --profile "$PROFILE" --sysroot "$T" --root "$ROOT" --seed 1
	assert_line --partial "drift sdb1 start (512-byte sectors, aligned to 11534336 bytes): expected 22528, found 2048"
	assert_line --partial "drift mount options (/proc/mounts): expected /storage/data2 mounted with noatime,inode64,logbufs=8,logbsize=256k,swalloc, found rw,relatime,inode64,logbufs=8,logbsize=32k (without noatime,logbsize=256k,swalloc)"
	# the file by its path on the node, never with --root: the same series from the node or a rescue mount
	assert_line --partial "missing /etc/udev/rules.d/70-storprov.rules: expected as render writes it, found nothing"
	run -3 "$SP" verify --profile "$PROFILE" --sysroot "$T" --root "$ROOT" --seed 1 --format prometheus
	refute_output --partial "$ROOT"
}

@test "verify: an unmounted filesystem and an edited fstab line" {
	sed -i '/data1/d' "$T/proc/mounts"
	sed -i 's|logbsize=256k,swalloc|logbsize=64k|' "$ROOT/etc/fstab"
	run -3 "$SP" verify --profile "$PROFILE" --sysroot "$T" --root "$ROOT" --seed 1
	assert_line "missing  xfs fs:/storage/data1 (3 checks)"
	assert_line "           missing mount options (/proc/mounts): expected /storage/data1, found nothing"
	assert_line --regexp "drift fstab entry: expected UUID=[-0-9a-f]+ /storage/data2 xfs noatime,inode64,logbufs=8,logbsize=256k,swalloc, found UUID=[-0-9a-f]+ /storage/data2 xfs noatime,inode64,logbufs=8,logbsize=64k$"
	# one edit, one drift: the filesystem's fstab entry says it, the file does not say it again
	assert_line "ok       file file:/etc/fstab (1 check)"
	run -3 "$SP" verify --profile "$PROFILE" --sysroot "$T" --root "$ROOT" --seed 1 --format prometheus
	[ "$(grep -c '^storprov_verify_drift{.*fstab' <<<"$output")" = 2 ]
	# a line of its own in the file is drift of the file
	echo "/dev/sdz1 /scratch xfs defaults 0 0" >>"$ROOT/etc/fstab"
	sed -i '/^\/dev\/sdz1/d' "$ROOT/etc/fstab"
	sed -i 's|^# <<< storprov managed block|/dev/sdz1 /scratch xfs defaults 0 0\n&|' "$ROOT/etc/fstab"
	run -3 "$SP" verify --profile "$PROFILE" --sysroot "$T" --root "$ROOT" --seed 1
	assert_line --regexp "^drift +file file:/etc/fstab"
}

@test "verify: bad input exits 2; without the node's recorded state, a node whose disks are gone is refused like plan" {
	run -2 "$SP" verify --sysroot "$T"
	assert_output --partial "--profile FILE is required"
	run -2 "$SP" verify --profile "$PROFILE" --sysroot "$SYSROOT/grid-3ware-one-missing"
	assert_output --partial "[disk-count]"
}

@test "verify: a LUN that vanished is a missing object (exit 3), named with the identity it had and the rule it no longer meets" {
	# the node as applied, then one LUN gone: the captured tree without sdc
	run -3 "$SP" verify --profile "$PROFILE" --sysroot "$SYSROOT/grid-3ware-one-missing" --root "$ROOT"
	assert_line "missing  disk lun2 (5 checks)"
	assert_line --regexp "^ +missing present: expected a disk with ID_WWN 0x600050e04ab92600, found no disk carries ID_WWN 0x600050e04ab92600 \(7.5 TiB, recorded in $ROOT/var/lib/storprov/grid-3ware-raid5.json\); the <match> at line 14 takes no other disk$"
	# everything on it is checked, and missing, under its own name; lun1 stays lun1
	assert_line "missing  xfs fs:/storage/data2 (3 checks)"
	assert_line --partial "ok       file file:/etc/fstab"
	assert_line --partial "ok       file file:/var/lib/storprov/grid-3ware-raid5.json"
	# the series stay, so the shipped alert (storprov_verify_objects{status=~"drift|missing"} > 0) fires
	run -3 "$SP" verify --profile "$PROFILE" --sysroot "$SYSROOT/grid-3ware-one-missing" --root "$ROOT" --format prometheus
	assert_line --regexp '^storprov_verify_objects\{status="missing"\} [1-9][0-9]*$'
	assert_line 'storprov_verify_drift{object="lun2",kind="disk",check="present",status="missing"} 1'
	assert_line "storprov_verify_exit_code 3"
	run -3 "$SP" verify --profile "$PROFILE" --sysroot "$SYSROOT/grid-3ware-one-missing" --root "$ROOT" --format json
	[ "$(jq -r .status <<<"$output")" = drift ]
	[ "$(jq -c '.checks[] | select(.object == "lun2" and .check == "present") | .status' <<<"$output")" = '"missing"' ]
	# render and apply never plan on a disk that is gone; the error names the near misses
	run -2 "$SP" render --profile "$PROFILE" --sysroot "$SYSROOT/grid-3ware-one-missing" --root "$ROOT"
	assert_output --partial "[disk-count]"
}

@test "verify: preserved arrays and filesystems (no step makes them) are read back too" {
	run -3 "$SP" verify --profile "$FIX/profiles/md-raid1-preserved.xml" --sysroot "$SYSROOT/md-raid1-syncwrite" --root "$ROOT"
	assert_line "missing  md mirror (2 checks)"
	assert_line "           missing array: expected /dev/md/journal, found nothing"
	assert_line "missing  xfs fs:/srv/journal (3 checks)"
}

# prom FILE: the exposition text parsed by prometheus_client's own parser,
# one line per sample: name{label=value,...} value (labels sorted); Debian's
# python3 (python3-prometheus-client), not whatever python3 is first on PATH
prom() {
	"${STORPROV_PYTHON:-/usr/bin/python3}" -c '
import sys
from prometheus_client.parser import text_string_to_metric_families
for fam in text_string_to_metric_families(open(sys.argv[1]).read()):
    for s in fam.samples:
        print(s.name + "{" + ",".join("%s=%s" % kv for kv in sorted(s.labels.items())) + "} " + repr(s.value))
' "$1"
}

@test "verify --format prometheus: a clean node parses, no drift series, exit code 0, version" {
	"$SP" verify --profile "$PROFILE" --sysroot "$T" --root "$ROOT" --seed 1 --format prometheus >"$BATS_TEST_TMPDIR/m.prom"
	run -0 prom "$BATS_TEST_TMPDIR/m.prom"
	assert_line "storprov_verify_objects{status=drift} 0.0"
	assert_line "storprov_verify_objects{status=missing} 0.0"
	assert_line --regexp '^storprov_verify_objects\{status=ok\} [1-9][0-9]*\.0$'
	assert_line "storprov_verify_checks{status=not-checked} 2.0"
	assert_line "storprov_verify_exit_code{} 0.0"
	assert_line "storprov_info{profile=grid-3ware-raid5,version=$("$SP" --version | cut -d' ' -f2)} 1.0"
	refute_line --partial "storprov_verify_drift{"
	local ts now
	ts=$(grep '^storprov_verify_last_run_timestamp_seconds ' "$BATS_TEST_TMPDIR/m.prom" | cut -d' ' -f2)
	now=$(date +%s)
	[ "$ts" -le "$now" ] && [ "$ts" -ge $((now - 60)) ]
}

@test "verify --format prometheus: one series per drifted check, its values in a comment, quotes and backslashes escaped, exit code 3" {
	echo 128 >"$T/sys/block/sdc/queue/read_ahead_kb"
	sed -i 's|logbsize=256k,swalloc|logbsize=64k,"q\\b|' "$ROOT/etc/fstab"
	run -3 "$SP" verify --profile "$PROFILE" --sysroot "$T" --root "$ROOT" --seed 1 --format prometheus
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/m.prom"
	# expected and found are in the "# drift:" comment above the series, escaped as label values are
	grep -F '# drift: fs:/storage/data2 fstab entry: expected "UUID=' "$BATS_TEST_TMPDIR/m.prom" | grep -qF 'logbsize=64k,\"q\\b"'
	grep -qFx '# drift: lun2 queue/read_ahead_kb: expected "8192", found "128"' "$BATS_TEST_TMPDIR/m.prom"
	# and never in a label: no series per value
	run grep -E '^storprov_verify_drift\{.*(expected|found)=' "$BATS_TEST_TMPDIR/m.prom"
	assert_failure
	run -0 prom "$BATS_TEST_TMPDIR/m.prom"
	assert_line "storprov_verify_drift{check=queue/read_ahead_kb,kind=disk,object=lun2,status=drift} 1.0"
	assert_line "storprov_verify_drift{check=fstab entry,kind=xfs,object=fs:/storage/data2,status=drift} 1.0"
	assert_line "storprov_verify_exit_code{} 3.0"
	# every drift series is one drifted check of the JSON report, and no other
	run -3 "$SP" verify --profile "$PROFILE" --sysroot "$T" --root "$ROOT" --seed 1 --format json
	local want
	want=$(jq '[.checks[] | select(.status == "drift" or .status == "missing")] | length' <<<"$output")
	[ "$want" -ge 3 ]
	[ "$(prom "$BATS_TEST_TMPDIR/m.prom" | grep -c '^storprov_verify_drift{')" = "$want" ]
	[ "$(prom "$BATS_TEST_TMPDIR/m.prom" | grep -c '^storprov_verify_checks{status=drift} ')" = 1 ]
	run -2 "$SP" verify --profile "$PROFILE" --sysroot "$T" --format yaml
	assert_output --partial "--format takes text, prometheus or json, not 'yaml'"
}

@test "plan: a group that comes up short names the disks that fail one rule of its <match> (the near misses)" {
	cp -r "$SYSROOT/grid-3ware" "$BATS_TEST_TMPDIR/t"
	# the second card swapped for a 9650SE: its LUN no longer fits model="9550SX*"
	printf '9650SE-12ML DISK\n' >"$BATS_TEST_TMPDIR/t/sys/block/sdc/device/model"
	run -2 "$SP" plan --profile "$PROFILE" --sysroot "$BATS_TEST_TMPDIR/t"
	assert_output --partial "expected 2 disks, found 1"
	assert_output --partial 'sdc fails only model="9550SX*" (it is "9650SE-12ML DISK")'
	assert_output --partial "[disk-count]"
}

@test "verify: kernel names that moved at boot keep each disk in its place, by the identity the node's state recorded" {
	# sdb and sdc swapped names: sdb now carries lun2's WWN, sdc lun1's, and the filesystems
	# mounted by UUID follow their LUNs
	u="$T/run/udev/data"
	mv "$u/b8:16" "$BATS_TEST_TMPDIR/x" && mv "$u/b8:32" "$u/b8:16" && mv "$BATS_TEST_TMPDIR/x" "$u/b8:32"
	w="$T/sys/block"
	mv "$w/sdb/device/wwid" "$BATS_TEST_TMPDIR/x" && mv "$w/sdc/device/wwid" "$w/sdb/device/wwid" &&
		mv "$BATS_TEST_TMPDIR/x" "$w/sdc/device/wwid"
	sed -i 's|^/dev/sdb1 |/dev/TMP1 |; s|^/dev/sdc1 |/dev/sdb1 |; s|^/dev/TMP1 |/dev/sdc1 |' "$T/proc/mounts"
	run -0 "$SP" verify --profile "$PROFILE" --sysroot "$T" --root "$ROOT" --seed 1
	assert_line --regexp '^[0-9]+ checks: [0-9]+ ok, 0 drift, 0 missing, 2 not checked$'
	# without the recorded state the places are the kernel names' order: lun1 is now the other LUN
	rm "$ROOT/var/lib/storprov/grid-3ware-raid5.json"
	run -3 "$SP" verify --profile "$PROFILE" --sysroot "$T" --root "$ROOT" --seed 1
	assert_line --regexp "^drift +file file:/etc/udev/rules.d/70-storprov.rules"
}
