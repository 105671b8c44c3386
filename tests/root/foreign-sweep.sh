#!/usr/bin/env bash
# foreign-sweep.sh [N] [SEED] [WIPE_EVERY]: the long pass of the random foreign
# layouts (root, outside make check): N layouts (default 200) from seeds SEED,
# SEED+1, ... (default: random, printed), each through foreign_check.sh;
# every WIPE_EVERY-th (default 10) also applied with --wipe for real, the
# others --wipe --dry-run. Prints one line per layout, then the tallies by
# table, erasure and format (the "-copy" formats: a filesystem whose primary
# superblock is erased, issue 33), and the host load at start and end.
# Replay one layout: tests/root/foreign_check.sh SEED DIR CACHE [wipe]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
n=${1:-200} seed=${2:-$(( (RANDOM << 15) | RANDOM ))} every=${3:-10}
work=$(mktemp -d /tmp/foreign-sweep.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "# foreign sweep: $n layouts from seed $seed, real --wipe every $every; $(date -u +%FT%TZ)"
echo "# storprov $(git -C "$here" rev-parse --short HEAD 2>/dev/null); formats: $(python3 "$here/foreign_gen.py" formats "$work/cache" | tr '\n' ';')"
echo "# load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
ok=0 bad=0
for i in $(seq 0 $((n - 1))); do
	s=$((seed + i)) w=
	[ $((i % every)) -eq 0 ] && w=wipe
	if line=$("$here/foreign_check.sh" "$s" "$work/l" "$work/cache" $w); then ok=$((ok + 1)); else bad=$((bad + 1)); fi
	echo "$line${w:+ [--wipe applied]}"
	echo "$line" >>"$work/lines"
done
echo "# load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# result: $ok ok, $bad failed of $n"
sed 's/^[^|]*| //' "$work/lines" | python3 -c '
import collections, json, sys
t, e, f, c = collections.Counter(), collections.Counter(), collections.Counter(), collections.Counter()
for l in sys.stdin:
    try:
        d = json.loads(l)
    except ValueError:
        continue
    t[d["table"]] += 1; e[d["erase"]] += 1
    for p in d["parts"]:
        f[p["fmt"]] += 1
        if "primary" in p:
            c["%s/%s" % (p["fmt"], p["primary"])] += 1
print("# tables: " + ", ".join("%s %d" % kv for kv in sorted(t.items())))
print("# erasures: " + ", ".join("%s %d" % kv for kv in sorted(e.items())))
print("# partitions by format: " + ", ".join("%s %d" % kv for kv in sorted(f.items())))
print("# primary erased, copies intact (format/erasure): " + ", ".join("%s %d" % kv for kv in sorted(c.items())))'
[ "$bad" -eq 0 ]
