#!/bin/bash
# Issue 21 (guest, diagnostic): where apply's inspection spends its time on
# 8 LUNs under TCG. Prints INSPECT_* lines: the wall time of one mkfs.xfs -N
# dry run on a sparse file of a LUN's size with the plan's options, of one
# blkid -p of a LUN, of `storprov apply --dry-run`, and of apply's inspection
# (process start to the first step's start) with --jobs 1 and 8, each
# repeated REPS times (default 3) on freshly wiped disks; cpu_ms= on the
# INSPECT_DRYRUN, _HELP (storprov --help: start-up alone, libparted's
# constructor included), _BLKID and _MKFS_N lines is the CPU of everything
# the command ran (this shell's reaped children, cutime+cstime, no fork).
# shellcheck source=bench/guest/lib.sh
. /usr/lib/bench/lib.sh
set -u
reps=${BENCH_REPS:-3}
read -r -a L <<<"$(disks lun 8)" || exit 1
[ "${#L[@]}" -eq 8 ] || die "expected 8 LUNs, found ${#L[@]}"
/usr/lib/bench/prov-profile.sh bench-inspect serial lun0 lun1 lun2 lun3 lun4 lun5 lun6 lun7 >/tmp/p.xml
# cpu: CT in ms (lib.sh's cticks)
cpu() {
	cticks
	CT=$((CT * 1000 / hz))
}
size=$(blockdev --getsize64 "${L[0]}")
for r in $(seq "$reps"); do
	reset_disks
	cpu
	c=$CT t=${EPOCHREALTIME/./}
	storprov apply --profile /tmp/p.xml --root /target --dry-run --lock-file /tmp/i.lock >/tmp/dry.log 2>&1
	rc=$? w=$(((${EPOCHREALTIME/./} - t) / 1000))
	cpu
	echo "INSPECT_DRYRUN rep=$r ms=$w rc=$rc cpu_ms=$((CT - c))"
	c=$CT t=${EPOCHREALTIME/./}
	storprov --help >/dev/null 2>&1
	w=$(((${EPOCHREALTIME/./} - t) / 1000))
	cpu
	echo "INSPECT_HELP rep=$r ms=$w cpu_ms=$((CT - c))"
	c=$CT t=${EPOCHREALTIME/./}
	blkid -p "${L[0]}" >/dev/null 2>&1
	w=$(((${EPOCHREALTIME/./} - t) / 1000))
	cpu
	echo "INSPECT_BLKID rep=$r ms=$w cpu_ms=$((CT - c))"
	truncate -s "$size" /tmp/sparse.img
	c=$CT t=${EPOCHREALTIME/./}
	mkfs.xfs -N -f -L lun0 -d su=64k,sw=3 -l version=2,su=64k /tmp/sparse.img >/dev/null 2>&1
	w=$(((${EPOCHREALTIME/./} - t) / 1000))
	cpu
	echo "INSPECT_MKFS_N rep=$r ms=$w cpu_ms=$((CT - c))"
	rm -f /tmp/sparse.img
	for j in 1 8; do
		reset_disks
		t=${EPOCHREALTIME/./}
		storprov apply --profile /tmp/p.xml --root /target --yes --jobs "$j" --lock-file /tmp/i.lock \
			--report /tmp/rep.json >/tmp/apply.log 2>&1 || { cat /tmp/apply.log; die "apply failed"; }
		w=$(((${EPOCHREALTIME/./} - t) / 1000))
		insp=$(jq --argjson wall "$((w * 1000))" -f /usr/lib/bench/first-step-start.jq /tmp/rep.json)
		echo "INSPECT_APPLY rep=$r jobs=$j ms=$w inspect_s=$insp"
		grep -E '^storprov: \[ *[0-9.]+s\] (inspecting|step 1/)' /tmp/apply.log | head -3
	done
done
