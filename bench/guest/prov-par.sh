#!/bin/bash
# Issue 34 (guest): provisioning time of storprov apply against two shell
# scripts that run the very commands storprov ran (argv from its own --report,
# so the layout is identical):
#   serial    one command at a time, `udevadm settle` after each (but sysfs
#             writes), as a kickstart %pre script does;
#   parallel  the same, but runs of per-device commands (mdadm --create,
#             mkfs.*, sfdisk, wipefs) go through `xargs -P JOBS` (sysfs writes
#             met inside such a run wait until it ends), the rest (pvcreate,
#             vgcreate, lvcreate, ...) one at a time; settle after each.
# Cases: many-luns (8 LUNs, whole-disk XFS) and md-raid6-lvm (2 x md RAID6 of
# 6, one VG, three LVs), shipped profiles (bench/run.sh prov-par).
# Per (case, disk state, jobs): BENCH_REPS rounds; each round runs the three
# tools, each on disks reset the same way just before it (reset), in an order
# that rotates with the round (round r starts with tool r mod 3), so no tool is
# always first on pristine disks.
# Disk states (reset): "reused" = every signature erased with wipefs -a at
# each level (XFS on the LVs/LUNs, PV labels, md superblocks), the data behind
# the magics left; "fresh" = that, then the first 130 MiB and last MiB of every
# disk zeroed (where apply's scan reads), as a new disk.
# No sampler: wall time from $EPOCHREALTIME (no fork) around the tool, CPU from
# this shell's cutime+cstime (/proc/$BASHPID/stat read by `read`, no fork)
# before and after: the tool and everything it ran, once reaped.
# Prints "PROVPAR case=C disks=S jobs=J rep=R order=K tool=T ms=M cpu_ms=C ok=0|1"
# and, for md-raid6-lvm, "PSTEP case=C disks=S jobs=J rep=R tool=T n=N ms=M cmd=..."
# (storprov: from its --report elapsed_s; the scripts: each command timed).
#   BENCH_REPS (5)  BENCH_DISK_STATES ("fresh reused")
#   BENCH_CASES ("md-raid6-lvm:2 many-luns:8 many-luns:2")
#   BENCH_TOOLS ("storprov serial parallel"; also "nosettle": the serial script
#     with one udevadm settle at the end instead of one after each command;
#     "earlytune": the serial script writing the sysfs tuning where storprov
#     does, disks first and each md right after it is made)
#   BENCH_LVM_TRACE=1: every lvm command the tools run (storprov's children and
#     the scripts' lines alike; not udev's own /sbin/lvm) goes through a shim
#     that prints "LVMCMD case=C disks=S jobs=J rep=R tool=T start_ms=A
#     end_ms=B resync=0|1 cmd=..." (ms from the tool's start; resync: an md
#     resync was running when the command started): where a step's time goes.
# shellcheck source=bench/guest/lib.sh
. /usr/lib/bench/lib.sh
set -u
reps=${BENCH_REPS:-5}
SH=/usr/lib/bench/shipped
read -r -a LUN <<<"$(disks lun 8)" || exit 1
read -r -a A <<<"$(disks a 6)" || exit 1
read -r -a B <<<"$(disks b 6)" || exit 1
# reset: the same state before every run of every tool (header comment)
reset() {
	local m d sz
	sync
	for m in $(awk '$2 ~ "^/target" { print $2 }' /proc/mounts | sort -r); do umount "$m"; done
	for m in /dev/data/*; do [ -b "$m" ] && wipefs -a -q "$m" >/dev/null 2>&1; done
	lvm vgchange -q -an >/dev/null 2>&1
	for m in $(lvm vgs --noheadings -o vg_name 2>/dev/null); do lvm vgremove -q -ff "$m" >/dev/null 2>&1; done
	for m in $(lvm pvs --noheadings -o pv_name 2>/dev/null); do lvm pvremove -q -ff -y "$m" >/dev/null 2>&1; done
	for m in /dev/md/* /dev/md[0-9]*; do
		[ -b "$m" ] || continue
		wipefs -a -q "$m" >/dev/null 2>&1
		mdadm --stop "$m" >/dev/null 2>&1
	done
	mdadm --stop --scan >/dev/null 2>&1
	for d in "${LUN[@]}" "${A[@]}" "${B[@]}"; do
		mdadm --zero-superblock "$d" >/dev/null 2>&1
		wipefs -a -q "$d" >/dev/null 2>&1
		# zeroing: the disks of the case at hand only
		if [ "$STATE" = fresh ] && [[ " ${CDISKS[*]} " == *" $d "* ]]; then
			sz=$(blockdev --getsize64 "$d")
			dd if=/dev/zero of="$d" bs=1M count=130 oflag=direct status=none
			dd if=/dev/zero of="$d" bs=1M count=1 seek=$((sz / 1048576 - 1)) oflag=direct status=none
		fi
	done
	udevadm settle
	rm -rf /target
	sync
}

# check: 1 if the layout is there (independent tools), else 0
check() {
	local n
	if [ "$CASE" = many-luns ]; then
		n=$(blkid -s TYPE -o value "${LUN[@]}" | grep -c '^xfs$')
		[ "$n" -eq 8 ] && echo 1 || echo 0
	else
		n=$(for m in /dev/data/scratch /dev/data/home /dev/data/archive; do blkid -s TYPE -o value "$m"; done | grep -c '^xfs$')
		[ "$n" -eq 3 ] && [ "$(lvm lvs --noheadings -o lv_name data 2>/dev/null | wc -l)" -eq 3 ] && echo 1 || echo 0
	fi
}

run_storprov() {
	storprov apply --profile "$SH/$CASE.xml" --yes --wipe --jobs "$JOBS" --root /target --lock-file /tmp/prov.lock \
		--report /tmp/rep.json >/tmp/apply.log 2>&1 || { cat /tmp/apply.log >&2; return 1; }
	udevadm settle
}

# one LINE of the scripts, timed; STEPN counts; per-step line for md-raid6-lvm
step() {
	local s0=${EPOCHREALTIME/./} rc=0
	sh -c "$1" >/dev/null 2>>/tmp/script.err </dev/null || rc=$?
	case $TOOL:$1 in *:echo\ * | nosettle:*) ;; *) udevadm settle ;; esac
	STEPN=$((STEPN + 1))
	[ "$CASE" = many-luns ] || echo "PSTEP case=$CASE disks=$STATE jobs=$JOBS rep=$rep tool=$TOOL n=$STEPN ms=$(((${EPOCHREALTIME/./} - s0) / 1000)) cmd=${1:0:70}" >>/tmp/psteps
	[ "$rc" = 0 ] || echo "step failed: $1" >&2
	return "$rc"
}

run_serial() {
	local line
	STEPN=0
	while IFS= read -r line; do step "$line" || return 1; done </tmp/steps
}

parclass() {
	case $1 in "mdadm --create "* | mkfs.* | sfdisk* | wipefs*) return 0 ;; esac
	return 1
}

# batch: the collected per-device commands, JOBS at a time, then the deferred sysfs writes
flush() {
	local s0 l
	if [ "${#BATCH[@]}" -gt 0 ]; then
		s0=${EPOCHREALTIME/./}
		# shellcheck disable=SC2016
		printf '%s\0' "${BATCH[@]}" | xargs -0 -P "$JOBS" -n 1 sh -c 'eval "$0" >/dev/null 2>>/tmp/script.err </dev/null' ||
			{ echo "parallel batch failed: ${BATCH[*]}" >&2; return 1; }
		udevadm settle
		STEPN=$((STEPN + 1))
		[ "$CASE" = many-luns ] || echo "PSTEP case=$CASE disks=$STATE jobs=$JOBS rep=$rep tool=$TOOL n=$STEPN ms=$(((${EPOCHREALTIME/./} - s0) / 1000)) cmd=${#BATCH[@]} in parallel: ${BATCH[0]:0:50}" >>/tmp/psteps
	fi
	BATCH=()
	for l in "${DEFER[@]}"; do step "$l" || return 1; done
	DEFER=()
}

# the serial script without its settles but one at the end (as storprov runs): what udev's
# work, left running, costs the next command (bench/README 4b)
run_nosettle() {
	run_serial && udevadm settle
}

# the serial script with storprov's order of the tuning: the disks' sysfs writes
# first, an md's right after the arrays are made (storprov writes each as soon
# as its device is there; the report lists them last): whether md's
# stripe_cache_size during the resync slows the LVM steps (bench/README 4b)
run_earlytune() {
	local line
	STEPN=0
	{
		grep '^echo .* /sys/dev/block/' /tmp/steps | grep -v '/md/\|/sys/dev/block/9:'
		grep '^mdadm --create ' /tmp/steps
		grep '^echo .* /sys/dev/block/9:' /tmp/steps
		grep -v '^mdadm --create \|^echo .* /sys/dev/block/' /tmp/steps
	} >/tmp/steps.early
	while IFS= read -r line; do step "$line" || return 1; done </tmp/steps.early
}

run_parallel() {
	local line
	STEPN=0 BATCH=() DEFER=()
	while IFS= read -r line; do
		if parclass "$line"; then
			BATCH+=("$line")
		elif [ "${#BATCH[@]}" -gt 0 ] && [[ $line == echo\ * ]]; then
			DEFER+=("$line")
		else
			flush || return 1
			step "$line" || return 1
		fi
	done </tmp/steps
	flush
}

# timed TOOL: one run on reset disks, one PROVPAR line
timed() {
	local c0 c1 t0 t1 ok
	TOOL=$1
	reset
	: >/tmp/psteps
	: >/tmp/lvmtrace
	cticks
	c0=$CT
	t0=${EPOCHREALTIME/./}
	"run_$TOOL" || { echo "$TOOL failed ($CASE $STATE jobs=$JOBS rep=$rep)" >&2; cat /tmp/script.err >&2; }
	t1=${EPOCHREALTIME/./}
	cticks
	c1=$CT
	ok=$(check)
	echo "PROVPAR case=$CASE disks=$STATE jobs=$JOBS rep=$rep order=$2 tool=$TOOL ms=$(((t1 - t0) / 1000)) cpu_ms=$(((c1 - c0) * 1000 / hz)) ok=$ok"
	[ "${BENCH_LVM_TRACE:-0}" != 1 ] || while read -r a b r cmd; do
		echo "LVMCMD case=$CASE disks=$STATE jobs=$JOBS rep=$rep tool=$TOOL start_ms=$(((a - t0) / 1000)) end_ms=$(((b - t0) / 1000)) resync=$r cmd=$cmd"
	done </tmp/lvmtrace
	[ "$CASE" = many-luns ] || cat /tmp/psteps
	# storprov's steps from its report, in every case (many-luns: where its time goes besides mkfs)
	if [ "$TOOL" = storprov ]; then
		jq -r --arg p "PSTEP case=$CASE disks=$STATE jobs=$JOBS rep=$rep tool=storprov" \
			'([.events[] | select(.kind == "step-start") | {key: (.step | tostring), value: .t}] | from_entries) as $st |
			([.objects[].steps[]] | unique_by(.step) | sort_by(.step) | .[] |
			"\($p) n=\(.step) ms=\(.elapsed_s * 1000 | floor) start_ms=\(($st[.step | tostring] // -1) * 1000 | floor) cmd=\(.kind): \((.argv[0] // "") | .[0:60])"),
			"\($p) n=inspection ms=\(([.events[] | select(.kind == "step-start") | .t] | min // 0) * 1000 | floor) cmd=run start to first step start",
			"\($p) n=inspect-disks ms=\((.inspection.elapsed_s // 0) * 1000 | floor) cmd=the disks inspection alone",
			"\($p) n=last-step-end ms=\(([.objects[].steps[] | .elapsed_s as $e | (.step | tostring) as $k | (($st[$k] // 0) + $e)] | max // 0) * 1000 | floor) cmd=the last step end",
			"\($p) n=total ms=\(.elapsed_s * 1000 | floor) cmd=report elapsed_s"' /tmp/rep.json
	fi
}

read -r -a TOOLS <<<"${BENCH_TOOLS:-storprov serial parallel}"
NT=${#TOOLS[@]}
if [ "${BENCH_LVM_TRACE:-0}" = 1 ]; then
	# the shim: first in PATH for storprov (execvp) and the scripts (sh -c)
	mkdir -p /usr/local/sbin
	real=$(command -v lvm)
	cat >/usr/local/sbin/lvm <<SHIM
#!/bin/bash
s=\${EPOCHREALTIME/./} r=0 m=
read -r -d '' m </proc/mdstat
[[ \$m == *resync* ]] && r=1
$real "\$@"
rc=\$?
last=\${!#}
echo "\$s \${EPOCHREALTIME/./} \$r \$1 \$last" >>/tmp/lvmtrace
exit \$rc
SHIM
	chmod 755 /usr/local/sbin/lvm
	export PATH=/usr/local/sbin:$PATH
fi
for cj in ${BENCH_CASES:-md-raid6-lvm:2 many-luns:8 many-luns:2}; do
	CASE=${cj%:*} JOBS=${cj#*:}
	if [ "$CASE" = many-luns ]; then CDISKS=("${LUN[@]}"); else CDISKS=("${A[@]}" "${B[@]}"); fi
	# the commands of the scripts: storprov's own, in step order, from one run
	STATE=fresh rep=0
	reset
	run_storprov || die "storprov apply $CASE failed"
	jq -r '[.objects[].steps[] | select(.argv | length > 0)] | unique_by(.step) | sort_by(.step) | .[] | .argv[]' \
		/tmp/rep.json >/tmp/steps
	sed "s/^/STEP $CASE | /" /tmp/steps
	for STATE in ${BENCH_DISK_STATES:-fresh reused}; do
		for ((rep = 1; rep <= reps; rep++)); do
			for ((k = 0; k < NT; k++)); do
				timed "${TOOLS[$(((rep - 1 + k) % NT))]}" "$((k + 1))"
			done
		done
	done
done
CASE=none CDISKS=()
reset
exit 0
