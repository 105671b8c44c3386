#!/bin/bash
# bench/plan-scale.sh - benchmark 5: `storprov plan` cost against inventory size.
#
# Usage: bench/plan-scale.sh OUTFILE [N ...]      (default N: 12 120 1200 12000)
#
# For each N, tests/fixtures/make-sysroot.sh builds a synthetic sysroot of one
# OS disk plus N FC RAID5 LUNs (the many-luns fixture's disk, N times), and a
# profile selects all N LUNs (<hwraid> 5 x 128K, one XFS each: the planner's
# per-disk work is done N times, nothing is skipped). Measured:
#   instructions  valgrind --tool=callgrind total Ir of one `plan` run
#                 (deterministic; perf's hardware counters are not available
#                 in this VM) - skipped above BENCH_CALLGRIND_MAX disks
#                 (default 12000: all) to bound the time
#   max RSS       GNU time's %M (kB) of a native run, best of 3
#   wall          native run, best of 3 (informative only)
# Prints KEY=VALUE lines to OUTFILE: PLAN_N<n>_{IR,RSS_KB,WALL_MS,RC}.
# Sysroots are cached in build/bench/sysroot-N (rebuilt when this script changes).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: plan-scale.sh OUTFILE [N ...]}
shift
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(12 120 1200 12000)
cg_max=${BENCH_CALLGRIND_MAX:-12000}
work=$top/build/bench
mkdir -p "$work"

direct_max=${BENCH_SYSROOT_DIRECT_MAX:-12}

# write_spec N: the make-sysroot.sh spec of one OS disk and N LUNs
write_spec() {
	local n=$1 i
	echo "#: plan-scale: one OS disk and $n synthetic FC RAID5 LUNs (bench/plan-scale.sh)"
	echo "host mem_kb=1073741824 cpus=16"
	echo 'disk name=sda size=480103981056 model="INTEL SSDSC2KB480G8" serial=OSDISK0 wwn=0x55cd2e414f9b30d2 path=pci-0000:00:1f.2-ata-1 rotational=0'
	echo 'defaults size=15032385536 vendor=DGC model="RAID 5" rev=0532 rotational=1 io_min=512 io_opt=0 max_hw_kb=32767 max_kb=1280 qdepth=64 tags=2048 nr_requests=256 sched="none [mq-deadline] kyber bfq"'
	for ((i = 0; i < n; i++)); do
		# block major 259 (blkext) and up, 16 minors a disk
		printf 'disk name=sdx%d major=%d minor=%d wwn=0x%s path=pci-0000:05:00.0-fc-0x5006016041e0a1b2-lun-%d\n' \
			"$i" $((259 + i / 4096)) $(((i % 4096) * 16)) "$(wwn_hex "$i")" "$i"
	done
}
wwn_hex() { printf '60060160%08x%016x' "$1" "$1"; }

# clone_sysroot N DIR: the same tree as make-sysroot.sh on write_spec N
clone_sysroot() {
	local n=$1 root=$2 tmpl=$work/sysroot-template i maj min hex seq
	rm -rf "$tmpl"
	write_spec 12 >"$tmpl.spec"
	"$top/tests/fixtures/make-sysroot.sh" "$tmpl.spec" "$tmpl" >/dev/null
	cp -a "$tmpl" "$root"
	local udev0 uev0 hex0 f rel
	udev0=$(<"$tmpl/run/udev/data/b259:0")
	uev0=$(<"$tmpl/sys/block/sdx0/uevent")
	hex0=$(wwn_hex 0)
	# the template disk's files and directories, read once; every copy is
	# written with shell builtins (a fork per disk costs minutes at 12000)
	local -a rels=() dirs=()
	local -A content=()
	while IFS= read -r -d '' f; do
		rel=${f#"$tmpl/sys/block/sdx0/"}
		case $rel in dev | uevent | device/wwid) continue ;; esac
		rels+=("$rel")
		content[$rel]=$(<"$f")
	done < <(find "$tmpl/sys/block/sdx0" -type f -print0)
	while IFS= read -r -d '' f; do
		dirs+=("${f#"$tmpl/sys/block/sdx0"}")
	done < <(find "$tmpl/sys/block/sdx0" -type d -print0)
	for ((i = 12; i < n; i++)); do
		for f in "${dirs[@]}"; do printf '%s\0' "$root/sys/block/sdx$i$f"; done
	done | xargs -0 mkdir -p
	for ((i = 12; i < n; i++)); do
		maj=$((259 + i / 4096)) min=$(((i % 4096) * 16)) hex=$(wwn_hex "$i") seq=$((i + 2))
		for rel in "${rels[@]}"; do
			printf '%s\n' "${content[$rel]}" >"$root/sys/block/sdx$i/$rel"
		done
		printf '%s:%s\n' "$maj" "$min" >"$root/sys/block/sdx$i/dev"
		printf 'naa.%s\n' "$hex" >"$root/sys/block/sdx$i/device/wwid"
		local u=${uev0//DEVNAME=sdx0/DEVNAME=sdx$i}
		u=${u//MINOR=0/MINOR=$min}
		u=${u//MAJOR=259/MAJOR=$maj}
		printf '%s\n' "${u//DISKSEQ=2/DISKSEQ=$seq}" >"$root/sys/block/sdx$i/uevent"
		u=${udev0//$hex0/$hex}
		u=${u//0x${hex0:0:16}/0x${hex:0:16}}
		u=${u//0x${hex0:16}/0x${hex:16}}
		u=${u//lun-0/lun-$i}
		u=${u//by-diskseq\/2/by-diskseq/$seq}
		u=${u//$'\nW:5\n'/$'\nW:'$((seq + 3))$'\n'}
		u=${u//$'\nI:'$((3580000 + 2 * 1117))$'\n'/$'\nI:'$((3580000 + seq * 1117))$'\n'}
		printf '%s\n' "$u" >"$root/run/udev/data/b$maj:$min"
	done
	# README's device table is not read by storprov; keep the template's
}
sp=$top/build/storprov
[ -x "$sp" ] || { echo "plan-scale: build storprov first (make)" >&2; exit 1; }
key=$(sha256sum "$0" "$top/tests/fixtures/make-sysroot.sh" | sha256sum | cut -c1-12)
: >"$out"

for n in "${sizes[@]}"; do
	root=$work/sysroot-$n
	prof=$work/plan-scale-$n.xml
	if [ "$(cat "$root.key" 2>/dev/null)" != "$key" ]; then
		rm -rf "$root"
		if [ "$n" -le "$direct_max" ]; then
			spec=$work/sysroot-$n.spec
			write_spec "$n" >"$spec"
			"$top/tests/fixtures/make-sysroot.sh" "$spec" "$root" >/dev/null
		else
			# make-sysroot.sh takes ~0.1 s a disk (bash); a 12-LUN tree from
			# it is the template, the other LUNs are copies of sdx0 with the
			# four per-disk files rewritten exactly as make-sysroot.sh writes
			# them (checked for N = 120: diff -r against make-sysroot.sh's own tree
			# differs only in README)
			clone_sysroot "$n" "$root"
		fi
		echo "$key" >"$root.key"
	fi
	# <disks> groups of at most 1000 LUNs by name (sdx1???: sdx1000-1999;
	# the schema limits count to 1024), each with its own XFS, for every N
	# alike (a group per decimal prefix: 3 groups at 12, 30 at 12000)
	python3 - "$n" >"$prof" <<'PY'
import sys
n = int(sys.argv[1])
print('<?xml version="1.0" encoding="UTF-8"?>')
print('<profile version="1" name="plan-scale-%d">' % n)
def letters(i):
    # group ids without digits: a disk's id is its group's plus a number
    s = ''
    while True:
        s = chr(ord('a') + i % 26) + s
        i = i // 26 - 1
        if i < 0:
            return s
def group(gid, match, count):
    print('  <disks id="%s" count="%d">' % (gid, count))
    print('    %s' % match)
    print('    <hwraid level="5" members="5" chunk="128K"/>')
    print('    <tune scheduler="mq-deadline" read-ahead-kb="2048"/>')
    print('  </disks>')
    print('  <xfs on="%s" label="%s%%n" mountpoint="/data/%s/%%n" mount-options="noatime"/>' % (gid, gid, gid))
if True:
    g = 0
    for length in range(1, len(str(n - 1)) + 1):
        lo, hi = (0 if length == 1 else 10 ** (length - 1)), min(10 ** length, n)
        x = lo
        while x < hi:
            k = 0
            while k < 3 and x % 10 ** (k + 1) == 0 and x + 10 ** (k + 1) <= hi and length - (k + 1) >= (0 if x == 0 else 1):
                k += 1
            glob = str(x)[:length - k] + '?' * k if x else '?'
            group('g' + letters(g), '<match name="sdx%s" min-size="10G" max-size="20G"/>' % glob, 10 ** k if x else min(hi, 10))
            g += 1
            x += 10 ** k if x else min(hi, 10)
print('</profile>')
PY
	rc=0
	"$sp" plan --profile "$prof" --sysroot "$root" >"$work/plan-$n.out" 2>&1 || rc=$?
	best_ms='' best_rss=''
	for _ in 1 2 3; do
		t0=$(date +%s%N)
		/usr/bin/time -f %M -o "$work/time-$n" "$sp" plan --profile "$prof" --sysroot "$root" >/dev/null 2>&1 || true
		ms=$((($(date +%s%N) - t0) / 1000000))
		rss=$(tail -1 "$work/time-$n")
		[ -n "$best_ms" ] && [ "$best_ms" -le "$ms" ] || best_ms=$ms
		[ -n "$best_rss" ] && [ "$best_rss" -le "$rss" ] || best_rss=$rss
	done
	ir=''
	if [ "$n" -le "$cg_max" ]; then
		valgrind --tool=callgrind --callgrind-out-file="$work/callgrind-$n.out" \
			"$sp" plan --profile "$prof" --sysroot "$root" >/dev/null 2>"$work/callgrind-$n.log" || true
		ir=$(sed -n 's/^summary: *//p' "$work/callgrind-$n.out" | head -1)
	fi
	{
		echo "PLAN_N${n}_RC=$rc"
		echo "PLAN_N${n}_IR=${ir:-skipped}"
		echo "PLAN_N${n}_RSS_KB=$best_rss"
		echo "PLAN_N${n}_WALL_MS=$best_ms"
	} | tee -a "$out"
done
