#!/bin/bash
# bench/parity-md.sh - issue 32: md RAID5 over parity LUNs whose full stripe is
# not a power of 2, one variable at a time, in one VM boot (guest:
# bench/guest/parity-md.sh, whose header lists the PMD_* settings; every PMD_*
# variable set here is passed through). The guest's output is kept in
# build/bench/parity-md/parity-md-TIME.out and its M lines printed.
# Usage (root, after bench/deps.sh and make): PMD_VARIANTS="base msk" bench/parity-md.sh
set -euo pipefail
# shellcheck source=tests/vm/lib.bash
. "$(dirname -- "${BASH_SOURCE[0]}")/../tests/vm/lib.bash"
top=$VM_TOP
# the figures in bench/ were measured with multi-threaded TCG (tests/vm/run-vm.sh --tcg-thread)
export VM_TCG_THREAD=${VM_TCG_THREAD:-multi}
# and QEMU's own translation cache size (run-vm.sh --tb-size 0)
export VM_TB_SIZE=${VM_TB_SIZE:-0}
raw=${PMD_RAW:-$top/build/bench/parity-md}   # not build/bench/raw: bench/report.py reads every *.out there
mkdir -p "$raw"
nl=${PMD_LUNS:-3} nm=${PMD_LUN_MEMBERS:-5} pm=${PMD_PART_MIB:-256}
cache=()
if [ -n "${PMD_LUN_CACHE_MB:-}" ]; then
	# issue 43 item 2: a write-back cache (dm-writecache) a LUN, on disks c0..;
	# the module is not in tests/vm's list, the cache helpers are the bench's
	cache=(--modules dm_writecache)
fi
vm_prepare --udev --add "$top/build/storprov:/usr/sbin/storprov" --add "$(command -v fio):/usr/bin/fio" ${cache[@]+"${cache[@]}"}
name=parity-md-$(date -u +%Y%m%dT%H%M%SZ)
d=$top/build/bench/disks-$name
mkdir -p "$d"
env=()
for v in $(compgen -v PMD_); do env+=(--env "$v=${!v}"); done
mapfile -t disks < <(vm_disks "$d" r "$nm" "$((nl * pm + 2))M")
[ -z "${PMD_LUN_CACHE_MB:-}" ] || mapfile -t -O "${#disks[@]}" disks < <(vm_disks "$d" c "$nl" "${PMD_LUN_CACHE_MB}M")
rc=0
vm_run "$top/bench/guest/parity-md.sh" --mem 2048 --timeout "${PMD_TIMEOUT:-1800}" ${env[@]+"${env[@]}"} \
	--add "$VM_DIR/scenarios:/usr/lib/storprov-tests" --add "$top/bench/guest:/usr/lib/bench" "${disks[@]}" >"$raw/$name.out" 2>"$raw/$name.err" || rc=$?
echo "BOOT rc=$rc commit=$(git -C "$top" rev-parse --short HEAD) load=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$raw/$name.out"
rm -rf "$d"
grep -E '^(PMD_|CMD |M |BOOT )' "$raw/$name.out" || true
echo "raw: $raw/$name.out"
exit "$rc"
