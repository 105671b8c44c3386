#!/bin/bash
# Issue 34 (guest): the inspection of 8 LUNs by two storprov binaries in one
# boot, A (/usr/sbin/storprov-a, the "before" build) and B (/usr/sbin/storprov),
# alternating A B, B A, ... over REPS rounds, with --jobs JOBS, on fresh
# disks (zeroed) and on reused ones (provisioned once, then wipefs -a: the
# metadata stays, so every window of the scan is read and probed). Each run
# is `storprov apply --dry-run --wipe` of a whole-disk XFS on each LUN.
# Prints "INSPAB state=S rep=R order=K bin=A|B jobs=J wall_ms=W cpu_ms=C
# insp_ms=I disks_ms=D" (cpu_ms: the process and its children; insp_ms: the
# report's inspection.elapsed_s; disks_ms: the sum of its disks' times).
. /usr/lib/bench/lib.sh
set -u
reps=${BENCH_REPS:-5}
jobs=${BENCH_JOBS:-8}
read -r -a L <<<"$(disks lun 8)" || exit 1
[ "${#L[@]}" -eq 8 ] || die "expected 8 LUNs, found ${#L[@]}"
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
cat >/tmp/p.xml <<'XML'
<?xml version="1.0"?>
<profile version="1" name="inspect-ab">
  <disks id="lun" count="8"><match serial="lun*"/><hwraid level="5" members="5" chunk="128K"/></disks>
  <xfs on="lun" label="lun%n" mountpoint="/data/lun%n"/>
</profile>
XML
cticks() {
	local st
	read -r -a st <"/proc/$$/stat"
	echo $((st[15] + st[16]))
}
one() { # STATE REP ORDER BIN
	local bin=/usr/sbin/storprov t0 t1 c0 c1
	[ "$4" = A ] && bin=/usr/sbin/storprov-a
	sync
	echo 3 >/proc/sys/vm/drop_caches
	c0=$(cticks)
	t0=${EPOCHREALTIME/./}
	"$bin" apply --profile /tmp/p.xml --root /target --dry-run --wipe --jobs "$jobs" --lock-file /tmp/ab.lock \
		--report /tmp/ab.json >/tmp/ab.log 2>&1
	t1=${EPOCHREALTIME/./}
	c1=$(cticks)
	jq -r --arg pre "INSPAB state=$1 rep=$2 order=$3 bin=$4 jobs=$jobs wall_ms=$(((t1 - t0) / 1000)) cpu_ms=$(((c1 - c0) * 1000 / hz))" \
		'"\($pre) insp_ms=\(.inspection.elapsed_s * 1000 | floor) disks_ms=\([.inspection.disks[].elapsed_s] | add * 1000 | floor)"' \
		/tmp/ab.json || { echo "INSPAB-FAIL state=$1 bin=$4"; tail -5 /tmp/ab.log; }
}
rounds() { # STATE
	local r
	for r in $(seq "$reps"); do
		if [ $((r % 2)) -eq 1 ]; then one "$1" "$r" 1 A; one "$1" "$r" 2 B; else one "$1" "$r" 1 B; one "$1" "$r" 2 A; fi
	done
}
for l in "${L[@]}"; do dd if=/dev/zero of="$l" bs=1M count=4 status=none; wipefs -a -q "$l"; done
rounds fresh
storprov apply --profile /tmp/p.xml --root /target --yes --jobs "$jobs" --lock-file /tmp/ab.lock >/tmp/prov.log 2>&1 ||
	{ cat /tmp/prov.log; die "apply failed"; }
for l in "${L[@]}"; do wipefs -a -q "$l"; done
rounds reused
