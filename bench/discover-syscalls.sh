#!/bin/bash
# bench/discover-syscalls.sh - system calls of `storprov plan` by kind, before
# and after a change to discovery (issue 21: realpath()'s readlink() storm).
#
# Usage: bench/discover-syscalls.sh [N ...]          (default N: 120 1200)
# Environment:
#   SP          the binary measured (default build/storprov)
#   BEFORE_REV  a revision to build and measure beside it (default: none); its
#               tree is extracted with git archive and built in build/bench/before-REV
#   OUT         markdown table (default bench/results/discover-syscalls.md)
# For each N, on bench/plan-scale.sh's sysroot and profile of N LUNs, one
# `strace -c -f` run each of: BEFORE_REV's binary, SP, and SP with
# STORPROV_NO_OPENAT2=1 (the realpath() way a kernel before 5.6 takes).
# strace -c counts are deterministic for a given tree (no timing in them).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
sp=${SP:-$top/build/storprov}
out=${OUT:-$top/bench/results/discover-syscalls.md}
work=$top/build/bench
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(120 1200)
command -v strace >/dev/null || { echo "discover-syscalls: strace is needed" >&2; exit 1; }
PLAN_PREPARE_ONLY=1 "$top/bench/plan-scale.sh" /dev/null "${sizes[@]}" >/dev/null

before=''
if [ -n "${BEFORE_REV:-}" ]; then
	rev=$(git -C "$top" rev-parse --short=12 "$BEFORE_REV")
	bdir=$work/before-$rev
	if [ ! -x "$bdir/build/storprov" ]; then
		rm -rf "$bdir"
		mkdir -p "$bdir"
		git -C "$top" archive "$rev" | tar -x -C "$bdir"
		make -C "$bdir" -j2 >"$bdir.log" 2>&1 || { echo "discover-syscalls: build of $rev failed ($bdir.log)" >&2; exit 1; }
	fi
	before=$bdir/build/storprov
fi

# counts LABEL N [env...] -- BIN: one strace -c -f run; prints "total errors readlink realpath_getcwd"
counts() {
	local n=$1 f=$work/strace-$2-$1.txt
	shift 2
	env "$@" strace -f -c -o "$f" "$sp_bin" plan --profile "$work/plan-scale-$n.xml" --sysroot "$work/sysroot-$n" >/dev/null 2>&1 || true
	awk '$NF == "total" { t = $(NF - 2); e = $(NF - 1) }
	     $NF == "readlink" { r = $4 }
	     $NF == "getcwd" { g = $4 }
	     END { printf "%d %d %d %d\n", t, e, r, g }' "$f"
}

commit=$(git -C "$top" rev-parse --short=12 HEAD)$(git -C "$top" diff --quiet HEAD -- src || echo -dirty)
{
	echo "# System calls of \`storprov plan\` on N synthetic LUNs (strace -c -f)"
	echo
	echo "Produced by \`bench/discover-syscalls.sh ${sizes[*]}\` (BEFORE_REV=${BEFORE_REV:-none}) at $commit, $(date -u +%FT%TZ)."
	echo "Trees and profiles: bench/plan-scale.sh. Counts per run; they do not depend on the host's load."
	echo
	echo "| LUNs | binary | syscalls | failed | readlink | getcwd | readlink per LUN |"
	echo "|---:|---|---:|---:|---:|---:|---:|"
} >"$out"
for n in "${sizes[@]}"; do
	rows=()
	[ -z "$before" ] || rows+=("before ($rev)|$before|")
	rows+=("after ($commit)|$sp|" "after, STORPROV_NO_OPENAT2=1 (realpath way)|$sp|STORPROV_NO_OPENAT2=1")
	for row in "${rows[@]}"; do
		IFS='|' read -r label sp_bin envs <<<"$row"
		# shellcheck disable=SC2086
		read -r t e r g < <(counts "$n" "$(echo "$label" | tr -c 'a-z0-9\n' _)" $envs)
		printf '| %d | %s | %d | %d | %d | %d | %.1f |\n' "$n" "$label" "$t" "$e" "$r" "$g" "$(awk -v r="$r" -v n="$n" 'BEGIN { print r / n }')" >>"$out"
	done
done
cat "$out"
