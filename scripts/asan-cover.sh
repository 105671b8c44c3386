#!/bin/bash
# scripts/asan-cover.sh - which bats files reach C code that no other test run
# under ASan reaches (issue 42 item 6: "the ASan pass only where it reaches
# code the others don't"). tests/run-all.sh's asan_release lists the files
# that run on the release build only; this script gives the figures behind
# that list.
#
#   scripts/asan-cover.sh [OUT]   (OUT: build/asan-cover)
#
# Builds storprov and the unit tests with gcov (build/cov, -O0), runs the
# unit tests and then every bats file that runs storprov against that build,
# each with its own GCOV_PREFIX, and prints per bats file the src/ lines it
# executes, and those that neither the unit tests nor any other bats file
# executes (what it alone gives the ASan pass). KEEP names the files that
# stay under ASan whatever their figures (default: the hostile-input ones);
# the last line is the greedy choice: KEEP, then the file adding most lines
# not yet reached, until none adds any. SHOW="FILE ..." also lists the
# lines each FILE alone reaches. Takes about as long as the bats files
# on the release build.
set -euo pipefail
top=$(cd "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
out=$(realpath -m "${1:-build/asan-cover}")
keep=${KEEP:-bad-profiles bad-sysroots controller}

make -s -j2 check-tools >/dev/null # the bats files' own tools, from build/
make -s -j2 B=build/cov CFLAGS="-O0 -g --coverage" LDFLAGS=--coverage build/cov/storprov unit-tests >/dev/null
rm -rf "$out"
mkdir -p "$out"

# run NAME CMD...: CMD with its gcov counts under $out/NAME
run() {
	local name=$1
	shift
	GCOV_PREFIX="$out/$name" "$@" >"$out/$name.log" 2>&1 || echo "asan-cover: $name failed (see $out/$name.log)" >&2
}

for t in build/cov/tests/test_*; do
	[ -x "$t" ] || continue
	run "unit-$(basename "$t")" env STORPROV_TOP="$top" "$t"
done
for f in tests/bats/*.bats; do
	grep -qE '\$\{?SP\b|STORPROV_BIN' "$f" || continue
	run "$(basename "$f" .bats)" env STORPROV_BIN="$top/build/cov/storprov" bats "$f"
done

# the notes (.gcno) beside each run's counts, as gcov wants them
while IFS= read -r -d '' d; do
	while IFS= read -r -d '' n; do
		mkdir -p "$d$(dirname "$n")"
		cp "$n" "$d$n"
	done < <(find "$top/build/cov" -name '*.gcno' -print0)
done < <(find "$out" -mindepth 1 -maxdepth 1 -type d -print0)

python3 - "$out" "$top" "$keep" "${SHOW:-}" <<'EOF'
import gzip, json, os, subprocess, sys
out, top, keep, show = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4].split()

def lines(run):
    """the (file, line) pairs of src/ that run executed"""
    got = set()
    gcdas = [os.path.join(r, f) for r, _, fs in os.walk(os.path.join(out, run)) for f in fs if f.endswith('.gcda')]
    for g in gcdas:
        p = subprocess.run(['gcov', '--json-format', '--stdout', g], capture_output=True, cwd=top)
        for doc in p.stdout.decode().splitlines():
            if not doc.startswith('{'):
                continue
            for f in json.loads(doc).get('files', []):
                if not f['file'].startswith('src/'):
                    continue
                got.update((f['file'], l['line_number']) for l in f['lines'] if l['count'] > 0)
    return got

runs = sorted(d for d in os.listdir(out) if os.path.isdir(os.path.join(out, d)))
cov = {r: lines(r) for r in runs}
unit = set().union(*(cov[r] for r in runs if r.startswith('unit-')))
bats = [r for r in runs if not r.startswith('unit-')]
print(f"unit tests: {len(unit)} lines of src/")
print(f"{'bats file':<18} {'lines':>6} {'alone':>6}  (alone: reached by no unit test and no other bats file)")
for b in bats:
    others = unit.union(*(cov[o] for o in bats if o != b))
    print(f"{b:<18} {len(cov[b]):>6} {len(cov[b] - others):>6}")
    if b in show:
        for f, n in sorted(cov[b] - others):
            print(f"    {f}:{n}")
reached = unit.union(*(cov[k] for k in keep if k in cov))
chosen = [k for k in keep if k in cov]
left = [b for b in bats if b not in chosen]
while True:
    gain = {b: len(cov[b] - reached) for b in left}
    best = max(gain, key=gain.get, default=None)
    if best is None or gain[best] == 0:
        break
    print(f"greedy: {best} adds {gain[best]}")
    chosen.append(best)
    left.remove(best)
    reached |= cov[best]
total = unit.union(*(cov[b] for b in bats))
print(f"all: {len(total)} lines; the chosen files and the unit tests: {len(reached)}")
print("asan: " + " ".join(chosen))
print("release only: " + " ".join(left))
EOF
