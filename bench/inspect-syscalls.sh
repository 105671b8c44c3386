#!/bin/bash
# bench/inspect-syscalls.sh - the system calls of apply's inspection (issue 34
# item 2): `storprov apply --dry-run` over N loop LUNs, counted with
# `strace -c -f` (all calls) and `strace -f -y` (the read, lseek and pread64
# on the scan's shadow memory file, memfd:storprov-shadow), at --jobs 1 and
# --jobs J, on disks "fresh" (blank images) and "reused" (provisioned by this
# profile once, then `wipefs -a` of each partition and disk, as
# bench/guest/prov-jobs.sh leaves them: every window of the scan is probed).
# Needs root and loop devices; the images are sparse files under build/bench.
#
# Usage: bench/inspect-syscalls.sh [N]              (default N: 8)
# Environment:
#   SP      the binary measured (default build/storprov)
#   BEFORE_REV  a revision to build and measure beside it (default: none); its
#           tree is extracted with git archive and built in build/bench/before-REV
#   JOBS    the --jobs measured beside 1 (default 4)
#   OUT     markdown table (default bench/results/inspect-syscalls.md)
# strace counts are deterministic for a given tree and disk state, but for
# futex (threads waiting) and the wall times (printed, not compared).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
sp=${SP:-$top/build/storprov}
jobs=${JOBS:-4}
n=${1:-8}
out=${OUT:-$top/bench/results/inspect-syscalls.md}
work=$top/build/bench/inspect-syscalls
[ "$(id -u)" -eq 0 ] || { echo "inspect-syscalls: needs root (loop devices)" >&2; exit 1; }
command -v strace >/dev/null || { echo "inspect-syscalls: strace is needed" >&2; exit 1; }
mkdir -p "$work"
before=''
if [ -n "${BEFORE_REV:-}" ]; then
	rev=$(git -C "$top" rev-parse --short=12 "$BEFORE_REV")
	bdir=$top/build/bench/before-$rev
	if [ ! -x "$bdir/build/storprov" ]; then
		rm -rf "$bdir"
		mkdir -p "$bdir"
		git -C "$top" archive "$rev" | tar -x -C "$bdir"
		make -C "$bdir" -j2 all >"$bdir.log" 2>&1 || { echo "inspect-syscalls: build of $rev failed ($bdir.log)" >&2; exit 1; }
	fi
	before=$bdir/build/storprov
fi
loops=()
cleanup() {
	local l
	for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null || true; done
}
trap cleanup EXIT

# disks: N sparse 1 GiB images on loop devices (partitions scanned), one <disks> each
make_disks() {
	local k l groups='' fs=''
	cleanup
	loops=()
	for k in $(seq 1 "$n"); do
		rm -f "$work/d$k.img"
		truncate -s 1G "$work/d$k.img"
		l=$(losetup -f --show -P "$work/d$k.img")
		loops+=("$l")
		groups+="<disks id=\"d$k\" count=\"1\"><match name=\"$(basename "$l")\"/><hwraid level=\"5\" members=\"4\" chunk=\"64K\"/><gpt><partition id=\"data\" size=\"100%\"/></gpt></disks>"
		fs+="<xfs on=\"d$k.data\" label=\"d$k\" mountpoint=\"/d$k\"/>"
	done
	echo "<?xml version=\"1.0\"?><profile version=\"1\" name=\"inspect-syscalls\">$groups$fs</profile>" >"$work/p.xml"
}

# reuse: provisioned once, then every signature's magic erased (the metadata stays)
reuse() {
	local l p
	"$sp" apply --profile "$work/p.xml" --root "$work/root" --yes --seed 1 --lock-file "$work/lock" >"$work/apply.log" 2>&1 ||
		{ cat "$work/apply.log" >&2; exit 1; }
	for l in "${loops[@]}"; do
		for p in "$l"p*; do [ -b "$p" ] && wipefs -a -q "$p"; done
		wipefs -a -q "$l"
		partx -d "$l" 2>/dev/null || true
		blockdev --flushbufs "$l"
	done
}

# measure LABEL BIN JOBS: one `strace -c -f` and one `strace -f -y` run of the dry run;
# prints "total shadow_read shadow_lseek shadow_pread wall_ms"
measure() {
	local bin=$2 j=$3 f=$work/strace-$1-$3
	local a=(apply --profile "$work/p.xml" --root "$work/root" --seed 1 --dry-run --jobs "$j")
	strace -f -c -o "$f.c" "$bin" "${a[@]}" >/dev/null 2>&1 || true
	strace -f -y -qq -e trace=read,lseek,pread64 -o "$f.y" "$bin" "${a[@]}" >/dev/null 2>&1 || true
	local t0 t1
	t0=$(date +%s%N)
	"$bin" "${a[@]}" >/dev/null 2>&1 || true
	t1=$(date +%s%N)
	local total
	total=$(awk '$NF == "total" { print $(NF - 2) }' "$f.c")
	awk -v total="$total" -v ms=$(((t1 - t0) / 1000000)) '
		/memfd:storprov-shadow/ { split($2, s, "("); c[s[1]]++ }
		END { printf "%d %d %d %d %d\n", total, c["read"], c["lseek"], c["pread64"], ms }' "$f.y"
}

commit=$(git -C "$top" rev-parse --short=12 HEAD)$(git -C "$top" diff --quiet HEAD -- src || echo -dirty)
{
	echo "# System calls of \`storprov apply --dry-run\` on $n loop LUNs (strace -c -f, strace -f -y)"
	echo
	echo "Produced by \`bench/inspect-syscalls.sh $n\` (JOBS=$jobs, BEFORE_REV=${BEFORE_REV:-none}) at $commit, $(date -u +%FT%TZ)."
	echo "shadow: calls on the scan's shadow memory file (memfd:storprov-shadow). Wall times are one run each, on a shared host: not comparable."
	echo
	echo "| disks | binary | --jobs | syscalls | shadow read | shadow lseek | shadow pread64 | per LUN (read+lseek+pread64) | wall ms |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
} >"$out"
bins=()
[ -z "$before" ] || bins+=("before ($rev)|$before")
bins+=("after ($commit)|$sp")
for state in fresh reused; do
	make_disks
	[ "$state" = fresh ] || reuse
	for row in "${bins[@]}"; do
		IFS='|' read -r label bin <<<"$row"
		for j in 1 "$jobs"; do
			read -r t r l p ms < <(measure "$(echo "$state-$label" | tr -c 'a-z0-9\n' _)" "$bin" "$j")
			printf '| %s | %s | %d | %d | %d | %d | %d | %.0f | %d |\n' "$state" "$label" "$j" "$t" "$r" "$l" "$p" \
				"$(awk -v a="$((r + l + p))" -v n="$n" 'BEGIN { print a / n }')" "$ms" >>"$out"
		done
	done
done
cat "$out"
