#!/bin/bash
# Benchmark 3 (guest): 4 KiB O_SYNC write latency beside a streaming writer,
# on md RAID1 (the shipped md-raid1-syncwrite profile, disks m0 m1) and md
# RAID5 (bench/profiles/raid5.xml, s0..s3), with md/safe_mode_delay at the
# profiled value (what storprov set) and at the kernel default 0.200 s,
# alternating on the same array. A second workload, "idle": the sync writer
# alone with 1 s pauses (seed 003's case: the array goes clean in the gap).
#   BENCH_SEC   seconds a run (default 15);  BENCH_REPS (default 2)
. /usr/lib/bench/lib.sh
set -u
sec=${BENCH_SEC:-15}
reps=${BENCH_REPS:-2}
sp_apply /usr/lib/bench/shipped/md-raid1-syncwrite.xml
sp_apply "$BP/raid5.xml" /target5
r1=$(readlink -f /dev/md/journal)
r5=$(readlink -f /dev/md/sp)
md_wait "$r1" "$r5"
kv R1_PROFILED "$(cat /sys/block/${r1#/dev/}/md/safe_mode_delay)"
kv R5_PROFILED "$(cat /sys/block/${r5#/dev/}/md/safe_mode_delay)"
declare -A MNT=([raid1]=/target/srv/journal [raid5]=/target5/bench) DEV=([raid1]=$r1 [raid5]=$r5) PROF
PROF[raid1]=$(cat /sys/block/${r1#/dev/}/md/safe_mode_delay)
PROF[raid5]=$(cat /sys/block/${r5#/dev/}/md/safe_mode_delay)
for a in raid1 raid5; do
	for ((rep = 1; rep <= reps; rep++)); do
		if ((rep % 2)); then order="profiled default"; else order="default profiled"; fi
		for v in $order; do
			d=${DEV[$a]} m=${MNT[$a]}
			if [ "$v" = default ]; then val=0.200; else val=${PROF[$a]}; fi
			echo "$val" >"/sys/block/${d#/dev/}/md/safe_mode_delay"
			kv "SMD_${a}_${v}" "$(cat /sys/block/${d#/dev/}/md/safe_mode_delay)"
			rm -f "$m"/stream* "$m"/sync*
			sync
			fio_run "sync.$a.$v.$rep" --directory="$m" --time_based --runtime="$sec" --ioengine=psync \
				--name=stream --rw=write --bs=1m --size=256m --end_fsync=1 \
				--name=sync --rw=write --bs=4k --size=16m --sync=1 || exit 1
			rm -f "$m"/stream* "$m"/sync*
			sync
			sleep 1
			fio_run "idle.$a.$v.$rep" --directory="$m" --ioengine=psync \
				--name=sync --rw=write --bs=4k --size=40k --sync=1 --thinktime=1s --thinktime_blocks=1 || exit 1
			rm -f "$m"/sync*
		done
	done
done
exit 0
