#!/bin/bash
# Benchmark 2 (guest): 16 parallel sequential readers on md RAID5 (4 x 64 KiB),
# storprov's persisted tuning (its udev rules, applied by udev) against the
# kernel defaults on an identical array built by hand. Counted on the members:
# read requests per GiB read and the mean request size, beside the ceiling
# min(array read_ahead_kb, member max_sectors_kb).
#   BENCH_MB  MiB a reader (default 16);  BENCH_REPS (default 2)
. /usr/lib/bench/lib.sh
set -u
mb=${BENCH_MB:-16}
reps=${BENCH_REPS:-2}
read -r -a S <<<"$(disks s 4)" || exit 1
read -r -a D <<<"$(disks d 4)" || exit 1
sp_apply "$BP/raid5.xml"
md_create def 5 "${D[@]}"
sp=$(readlink -f /dev/md/sp)
df=$(readlink -f /dev/md/def)
md_wait "$sp" "$df"
default_fs "$df" /mnt/def
# The tuning as udev applies it from the persisted rules: put the values
# back to the kernel's (those of the untouched array), install the rules
# storprov wrote, and let udev apply them to "change" events.
q() { cat "/sys/block/$1/queue/$2"; }
echo "$(q "${df#/dev/}" read_ahead_kb)" >"/sys/block/${sp#/dev/}/queue/read_ahead_kb"
echo "$(cat /sys/block/${df#/dev/}/md/stripe_cache_size)" >"/sys/block/${sp#/dev/}/md/stripe_cache_size"
for i in 0 1 2 3; do
	s=${S[i]#/dev/} d=${D[i]#/dev/}
	echo "$(q "$d" read_ahead_kb)" >"/sys/block/$s/queue/read_ahead_kb"
	sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$d/queue/scheduler" >"/sys/block/$s/queue/scheduler"
done
kv SP_RA_RESET "$(q "${sp#/dev/}" read_ahead_kb)"
cp /target/etc/udev/rules.d/70-storprov.rules /etc/udev/rules.d/
udevadm control --reload
udevadm trigger --action=change --subsystem-match=block
udevadm settle
for l in sp def; do
	m=$sp mem=("${S[@]}")
	[ $l = sp ] || m=$df mem=("${D[@]}")
	L=$(echo $l | tr a-z A-Z)
	kv "${L}_MD_READ_AHEAD_KB" "$(q "${m#/dev/}" read_ahead_kb)"
	kv "${L}_STRIPE_CACHE" "$(cat /sys/block/${m#/dev/}/md/stripe_cache_size)"
	kv "${L}_MEMBER_READ_AHEAD_KB" "$(q "${mem[0]#/dev/}" read_ahead_kb)"
	kv "${L}_MEMBER_MAX_SECTORS_KB" "$(q "${mem[0]#/dev/}" max_sectors_kb)"
	kv "${L}_MEMBER_SCHED" "$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/block/${mem[0]#/dev/}/queue/scheduler)"
done
declare -A MNT=([sp]=/target/bench [def]=/mnt/def) MEM=([sp]="${S[*]}" [def]="${D[*]}") TOP=([sp]=$sp [def]=$df)
for l in sp def; do
	fio_run "reads.fill.$l" --name=fill --directory="${MNT[$l]}" --ioengine=psync --rw=write --bs=1m \
		--size="${mb}m" --numjobs=16 --end_fsync=1 --group_reporting >/dev/null || exit 1
done
for ((rep = 1; rep <= reps; rep++)); do
	if ((rep % 2)); then order="sp def"; else order="def sp"; fi
	for l in $order; do
		drop_caches
		measure "bench=reads layout=$l rep=$rep bytes=$((16 * mb * 1048576))" "${MEM[$l]}" "${TOP[$l]}" -- \
			fio_run "reads.$l.$rep" --name=fill --directory="${MNT[$l]}" --ioengine=psync --rw=read --bs=128k \
			--size="${mb}m" --numjobs=16 --group_reporting || exit 1
	done
done
exit 0
