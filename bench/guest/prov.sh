#!/bin/bash
# Benchmarks 4 and 6 (guest): provisioning time. The shipped many-luns
# (8 LUNs, lun0..7) and md-raid6-lvm (a0..5, b0..5) profiles, <match> lines
# replaced, applied by storprov and by a serial shell script that runs the
# same commands storprov ran (argv taken from storprov's own --report), one at
# a time with `udevadm settle` after each (but the sysfs writes), as kickstart
# %pre scripts do.
# many-luns also with --jobs 1, 2, 8.
#   BENCH_REPS  repetitions of each variant (default 1)
. /usr/lib/bench/lib.sh
set -u
reps=${BENCH_REPS:-1}
SH=/usr/lib/bench/shipped
read -r -a L <<<"$(disks lun 8)" || exit 1
read -r -a A <<<"$(disks a 6)" || exit 1
read -r -a B <<<"$(disks b 6)" || exit 1

teardown() {
	local m
	sync
	for m in $(awk '$2 ~ "^/target" { print $2 }' /proc/mounts | sort -r); do umount "$m"; done
	lvm vgchange -q -an >/dev/null 2>&1
	for m in $(lvm vgs --noheadings -o vg_name 2>/dev/null); do lvm vgremove -q -ff "$m" >/dev/null 2>&1; done
	for m in /dev/md/*; do [ -e "$m" ] && mdadm --stop "$m" >/dev/null 2>&1; done
	mdadm --stop --scan >/dev/null 2>&1
	for m in "${A[@]}" "${B[@]}"; do mdadm --zero-superblock "$m" >/dev/null 2>&1; done
	for m in "${L[@]}" "${A[@]}" "${B[@]}"; do wipefs -a -q "$m" >/dev/null 2>&1; done
	udevadm settle
	rm -rf /target
	sync
}

# ticks PID: utime+stime and cutime+cstime of a live process, in clock ticks
ticks() { awk '{ print $14 + $15, $16 + $17 }' "/proc/$1/stat" 2>/dev/null; }

# sp_time TAG PROFILE JOBS: storprov apply, wall time and its own CPU time
# (sampled from /proc/PID/stat every 50 ms until it exits: a lower bound by at
# most one sample) and the CPU of storprov with every command it ran (the
# shell's cutime+cstime growth once it is reaped)
sp_time() {
	local tag=$1 prof=$2 jobs=$3 t0 t1 pid own=0 c0 c1 x
	c0=$(ticks $$)
	c0=${c0#* }
	t0=$(now_ms)
	storprov apply --profile "$prof" --yes --wipe --jobs "$jobs" --root /target --report /tmp/report.json \
		>/tmp/apply.log 2>&1 &
	pid=$!
	while x=$(ticks "$pid") && [ -n "$x" ]; do
		own=${x% *}
		sleep 0.05
	done
	wait "$pid" || { cat /tmp/apply.log >&2; die "apply $prof failed"; }
	udevadm settle
	t1=$(now_ms)
	c1=$(ticks $$)
	c1=${c1#* }
	local hz insp
	hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
	# the inspection before any write (signatures at every possible start on
	# every disk): from the run's start to the first step's start (the
	# "step-start" event; "step" is a step finishing), in ms
	insp=$(jq '[.events[] | select(.kind == "step-start")][0].t // 0 | . * 1000 | floor' /tmp/report.json)
	echo "R bench=prov what=$tag tool=storprov jobs=$jobs rep=$rep ms=$((t1 - t0)) own_cpu_ms=$((own * 1000 / hz)) total_cpu_ms=$(((c1 - c0) * 1000 / hz)) inspect_ms=$insp"
}

# steps_of REPORT: storprov's commands in step order, one a line
steps_of() {
	jq -r '[.objects[].steps[] | select(.argv | length > 0)] | unique_by(.step) | sort_by(.step) | .[] | .argv[]' "$1"
}

# serial_time TAG STEPS: the same commands, one at a time, settle after each
serial_time() {
	local tag=$1 steps=$2 t0 t1 line n=0
	t0=$(now_ms)
	local s0
	while IFS= read -r line; do
		s0=$(now_ms)
		sh -c "$line" >/dev/null 2>&1 </dev/null || { echo "serial step failed: $line" >&2; return 1; }
		case $line in echo\ *) ;; *) udevadm settle ;; esac
		n=$((n + 1))
		[ "$rep" != 1 ] || echo "STEPTIME $tag serial | $n $(($(now_ms) - s0)) ms ${line:0:60}"
	done <"$steps"
	t1=$(now_ms)
	echo "R bench=prov what=$tag tool=serial jobs=1 rep=$rep ms=$((t1 - t0)) steps=$n"
}

teardown
for ((rep = 1; rep <= reps; rep++)); do
	# many-luns: storprov (default jobs), the serial script, then --jobs 1 2 8
	sp_time many-luns "$SH/many-luns.xml" 2
	steps_of /tmp/report.json >/tmp/steps-luns
	[ "$rep" != 1 ] || sed 's/^/STEP many-luns | /' /tmp/steps-luns
	kv MANY_LUNS_XFS "$(blkid -s TYPE -o value "${L[@]}" | sort | uniq -c | tr -s ' ')"
	teardown
	serial_time many-luns /tmp/steps-luns || exit 1
	kv MANY_LUNS_XFS_SERIAL "$(blkid -s TYPE -o value "${L[@]}" | sort | uniq -c | tr -s ' ')"
	teardown
	for j in 1 2 8; do
		sp_time many-luns-jobs "$SH/many-luns.xml" "$j"
		teardown
	done
	# md-raid6-lvm
	sp_time md-raid6-lvm "$SH/md-raid6-lvm.xml" 2
	steps_of /tmp/report.json >/tmp/steps-r6
	[ "$rep" != 1 ] || sed 's/^/STEP md-raid6-lvm | /' /tmp/steps-r6
	# where storprov's time went, step by step, from its own report
	jq -r '[.objects[].steps[]] | unique_by(.step) | sort_by(.step) | .[] |
		"STEPTIME md-raid6-lvm | \(.step) \(.kind) \(.elapsed_s) \((.argv[0] // "") | .[0:60])"' /tmp/report.json
	jq -r '"STEPTIME md-raid6-lvm | total elapsed_s \(.elapsed_s)"' /tmp/report.json
	kv R6_LVS "$(lvm lvs --noheadings -o lv_name,stripes data | tr -s ' ' | tr '\n' ';')"
	teardown
	serial_time md-raid6-lvm /tmp/steps-r6 || exit 1
	kv R6_LVS_SERIAL "$(lvm lvs --noheadings -o lv_name,stripes data | tr -s ' ' | tr '\n' ';')"
	teardown
done
exit 0
