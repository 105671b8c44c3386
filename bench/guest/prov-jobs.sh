#!/bin/bash
# Issue 21 (guest): provisioning time of 8 LUNs (lun0..lun7) by storprov apply
# with --jobs 1, 2 and 8, each paired with a serial shell script of the same
# layout (sfdisk, then mkfs.xfs with storprov's own mkfs argv, udevadm settle
# after each), as bench/loop-prov.sh does on the host: same profile (one GPT
# partition and one XFS per LUN, hardware RAID5 4 x 64K), same disks freshly
# wiped before each run, storprov first on odd repetitions. storprov's
# inspection: process start to the first step's start (bench/guest/first-step-start.jq).
# Both on disks in each DISK_STATE of BENCH_DISK_STATES (lib.sh's reset_disks):
# "reused" (wipefs -a only: the last run's XFS metadata stays) and "fresh"
# (zeroed where apply's scan reads, as a new LUN).
# Prints "PROVJOBS rep=R jobs=J disks=STATE sp_ms=A script_ms=B inspect_s=I" a pair.
#   BENCH_REPS  paired repetitions of each jobs value (default 5)
#   BENCH_DISK_STATES  default "reused fresh"
. /usr/lib/bench/lib.sh
set -u
reps=${BENCH_REPS:-5}
read -r -a L <<<"$(disks lun 8)" || exit 1
[ "${#L[@]}" -eq 8 ] || die "expected 8 LUNs, found ${#L[@]}"
/usr/lib/bench/prov-profile.sh bench-prov-jobs serial lun0 lun1 lun2 lun3 lun4 lun5 lun6 lun7 >/tmp/p.xml


# sp_run JOBS: "wall_ms inspect_s"
sp_run() {
	local t0 t1 insp
	t0=${EPOCHREALTIME/./}
	storprov apply --profile /tmp/p.xml --root /target --yes --jobs "$1" --lock-file /tmp/prov.lock \
		--report /tmp/rep.json >/tmp/apply.log 2>&1 || { cat /tmp/apply.log >&2; die "apply failed"; }
	t1=${EPOCHREALTIME/./}
	udevadm settle
	insp=$(jq --argjson wall "$((t1 - t0))" -f /usr/lib/bench/first-step-start.jq /tmp/rep.json)
	t1=${EPOCHREALTIME/./}
	echo $(((t1 - t0) / 1000)) "$insp"
}

serial_run() {
	local t0 k l argv
	t0=$(now_ms)
	for k in "${!L[@]}"; do
		l=${L[$k]}
		printf 'label: gpt\nstart=%s, size=%s, type=0FC63DAF-8483-4772-8E3D-3D69D8477DE4\n' "$start" "$size" |
			sfdisk --quiet "$l" >/dev/null 2>&1 || die "sfdisk $l failed"
		partx -u "$l" 2>/dev/null || partx -a "$l" 2>/dev/null
		udevadm settle
		argv=$(sed -n "$((k + 1))p" /tmp/mkfs.argv)
		eval "$argv" >/tmp/mkfs.log 2>&1 </dev/null || { cat /tmp/mkfs.log >&2; die "serial mkfs failed: $argv"; }
		udevadm settle
	done
	echo $(($(now_ms) - t0))
}

# the layout of the serial script: storprov's partition and mkfs argv, from one run
reset_disks
sp_run 2 >/dev/null
jq -r '[.objects[].steps[]? | select(.argv | length > 0) | select(.argv[0] | startswith("mkfs.xfs "))] | unique_by(.step) | .[] | .argv[0]' \
	/tmp/rep.json >/tmp/mkfs.argv
[ "$(wc -l </tmp/mkfs.argv)" -eq 8 ] || die "expected 8 mkfs.xfs steps in the report"
n0=$(basename "${L[0]}")
start=$(cat "/sys/class/block/${n0}1/start")
size=$(cat "/sys/class/block/${n0}1/size")
kv PROVJOBS_LAYOUT "start=$start size=$size $(head -1 /tmp/mkfs.argv)"
# storprov's mkfs argv name its own devices in the order of the profile: lun0..7 = L[0..7]
for DISK_STATE in ${BENCH_DISK_STATES:-reused fresh}; do
for rep in $(seq 1 "$reps"); do
	for j in 1 2 8; do
		reset_disks
		if [ $((rep % 2)) -eq 1 ]; then
			read -r a insp < <(sp_run "$j")
			reset_disks
			b=$(serial_run)
		else
			b=$(serial_run)
			reset_disks
			read -r a insp < <(sp_run "$j")
		fi
		echo "PROVJOBS rep=$rep jobs=$j disks=$DISK_STATE sp_ms=$a script_ms=$b inspect_s=$insp"
	done
done
done
kv PROVJOBS_XFS "$(blkid -s TYPE -o value "${L[@]/%/1}" | sort | uniq -c | tr -s ' ')"
exit 0
