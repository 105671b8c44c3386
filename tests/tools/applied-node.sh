#!/usr/bin/env bash
# applied-node.sh STORPROV PROFILE SRC DEST ROOT: a copy DEST of the captured
# tree SRC as apply (seed 1) would have left the node grid-3ware (partitions
# where the plan puts them in sysfs, the queue attributes and sysctls set, the
# filesystems mounted with the planned options), and the files render writes
# under ROOT. Made from the tree and the plan's own figures, for verify on
# captured trees (tests/bats/verify.bats, make fleet-demo).
set -euo pipefail
sp=$1 profile=$2 src=$3 t=$4 root=$5
mkdir -p "$(dirname "$t")"
cp -a "$src" "$t"
mkdir -p "$root"
plan=$("$sp" plan --profile "$profile" --sysroot "$t" --seed 1 --format json)
# sysfs counts 512-byte sectors; these disks have 512-byte sectors
for d in sdb sdc; do
	mkdir -p "$t/sys/block/$d/${d}1"
	jq -r ".steps[] | select(.kind == \"gpt\" and .device == \"/dev/$d\") | .partitions[0].first_sector" <<<"$plan" >"$t/sys/block/$d/${d}1/start"
	jq -r ".steps[] | select(.kind == \"gpt\" and .device == \"/dev/$d\") | .partitions[0] | .last_sector - .first_sector + 1" <<<"$plan" >"$t/sys/block/$d/${d}1/size"
	echo 8192 >"$t/sys/block/$d/queue/read_ahead_kb"
	echo 512 >"$t/sys/block/$d/queue/nr_requests"
	echo 64 >"$t/sys/block/$d/queue/max_sectors_kb"
	echo "none [mq-deadline] kyber bfq" >"$t/sys/block/$d/queue/scheduler"
done
mkdir -p "$t/proc/sys/vm"
echo 40 >"$t/proc/sys/vm/dirty_ratio"
echo 10 >"$t/proc/sys/vm/dirty_background_ratio"
printf '/dev/sdb1 /storage/data1 xfs rw,noatime,inode64,logbufs=8,logbsize=256k,swalloc 0 0\n/dev/sdc1 /storage/data2 xfs rw,noatime,inode64,logbufs=8,logbsize=256k,swalloc 0 0\n' >"$t/proc/mounts"
"$sp" render --profile "$profile" --sysroot "$t" --seed 1 --root "$root" 2>/dev/null
