#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-layers: the project's guard on the shape of src/ (make check-layers).

src/ holds main.c and one folder ("room") per layer. The rooms, highest first:

    cli -> apply -> render -> plan -> input -> discover -> sys -> base

A file may include headers of its own room and of rooms below it, never above.
A room's internal.h is for that room alone. Checked, each one a TAP line:

  - src/ holds only main.c and the rooms; each room's main header opens with
    "src/ROOM/: its job" on its second line;
  - every #include "..." goes with the direction (one line per offence);
  - no include circle between files, none between rooms;
  - no call circle between files: with --objs DIR, the symbols each object
    defines and needs (nm) make a file graph that must have no cycle;
  - functions at most 120 lines (80 in src/cli/ and main.c), files at most
    900 lines (a function counts from its first signature line to its closing
    brace; a body opens with "{" alone in column 0, the project's style);
  - the file map of doc/ARCHITECTURE.md (--map; by default doc/ beside src/)
    lists exactly the files of src/: its "## File map" section, one list line
    "- `src/PATH`: ..." per file; a file missing from it, an entry with no
    file, or a file listed twice fails (no known-file key: the map is fixed
    with the file).

A finding listed in the known file (--known, one key a line, "#" comments) is
reported as "ok ... # SKIP known", so that a room that is not finished shows in
the summary and anything new fails. Exit 1 on any "not ok".
"""
import argparse
import collections
import os
import re
import subprocess
import sys

ROOMS = ["base", "sys", "discover", "input", "plan", "render", "apply", "cli"]
RANK = {r: i for i, r in enumerate(ROOMS)}
RANK["main"] = len(ROOMS)  # src/main.c sits above every room
MAIN_HEADER = {
    "base": "base/util.h",
    "sys": "sys/exec.h",
    "discover": "discover/discover.h",
    "input": "input/profile.h",
    "plan": "plan/plan.h",
    "render": "render/render.h",
    "apply": "apply/apply.h",
    "cli": "cli/cli.h",
}
MAX_FN, MAX_FN_CLI, MAX_FILE = 120, 80, 900
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


class Tap:
    def __init__(self, known):
        self.n, self.failed, self.known, self.used = 0, 0, known, set()

    def result(self, ok, what, key=None, diag=()):
        self.n += 1
        if not ok and key in self.known:
            self.used.add(key)
            print(f"ok {self.n} - {what} # SKIP known: {key}")
            return
        print(f"{'ok' if ok else 'not ok'} {self.n} - {what}")
        if not ok and key:
            diag = [*diag, f"key (for the known file): {key}"]
        for line in diag:
            print(f"#   {line}")
        self.failed += not ok


def room_of(rel):
    """rel is relative to src/: "plan/md.c" -> "plan", "main.c" -> "main"."""
    return "main" if rel == "main.c" else rel.split("/")[0]


def sources(src):
    out = []
    for dirpath, _, names in os.walk(src):
        for n in names:
            out.append(os.path.relpath(os.path.join(dirpath, n), src))
    return sorted(out)


def includes(src, rel):
    """[(line number, resolved path relative to src or None, spelled)]"""
    found = []
    with open(os.path.join(src, rel), encoding="utf-8", errors="replace") as f:
        for no, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            spelled = m.group(1)
            here = os.path.normpath(os.path.join(os.path.dirname(rel), spelled))
            if os.path.isfile(os.path.join(src, here)):
                found.append((no, here, spelled))
            elif os.path.isfile(os.path.join(src, spelled)):
                found.append((no, os.path.normpath(spelled), spelled))
            else:
                found.append((no, None, spelled))
    return found


def cycles(graph):
    """Strongly connected components with more than one node (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def check_tree(tap, src, files):
    stray = [f for f in files if f != "main.c" and (f.count("/") != 1 or room_of(f) not in RANK)]
    tap.result(not stray, "src/ holds only main.c and the rooms " + " ".join(ROOMS),
               diag=[f"src/{f}: not in a room" for f in stray])
    for room in ROOMS:
        hdr = MAIN_HEADER[room]
        try:
            with open(os.path.join(src, hdr), encoding="utf-8") as f:
                second = (f.readlines()[1:2] or [""])[0]
        except OSError:
            second = ""
        ok = second.startswith(f" * src/{room}/: ") and len(second.strip()) > len(f"* src/{room}/: ")
        tap.result(ok, f"src/{hdr} opens with the room's job (\" * src/{room}/: ...\")", key=f"header {room}")


def check_includes(tap, src, files):
    edges = collections.defaultdict(set)
    bad = []
    for rel in files:
        edges[rel]
        for no, target, spelled in includes(src, rel):
            where = f"src/{rel}:{no}: #include \"{spelled}\""
            if target is None:
                bad.append((f"include src/{rel} {spelled}", f"{where}: no such file under src/"))
                continue
            edges[rel].add(target)
            a, b = room_of(rel), room_of(target)
            if a != b and (RANK[a] < RANK[b]):
                bad.append((f"include src/{rel} {target}", f"{where}: {a} -> {b} goes against the direction"))
            elif a != b and os.path.basename(target) == "internal.h":
                bad.append((f"include src/{rel} {target}", f"{where}: {b}/internal.h is {b}'s own"))
    for key, msg in bad:
        tap.result(False, msg, key=key)
    if not bad:
        tap.result(True, f"{sum(len(v) for v in edges.values())} includes go with the direction "
                   + " -> ".join(ROOMS[::-1]) + " (main.c above all)")
    file_circles = cycles(edges)
    for comp in file_circles:
        tap.result(False, "include circle between files: " + " -> ".join(comp), key="include-circle " + " ".join(comp))
    rooms = collections.defaultdict(set)
    for a, targets in edges.items():
        for b in targets:
            if room_of(a) != room_of(b):
                rooms[room_of(a)].add(room_of(b))
    room_circles = cycles(rooms)
    for comp in room_circles:
        tap.result(False, "include circle between rooms: " + " -> ".join(comp), key="room-circle " + " ".join(comp))
    if not file_circles and not room_circles:
        tap.result(True, f"no include circle between {len(edges)} files or between rooms")


def nm_symbols(obj):
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    defined, needed = set(), set()
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in "TDBRGSV":
            defined.add(p[2])
        elif len(p) == 2 and p[0] == "U":
            needed.add(p[1])
    return defined, needed


def check_calls(tap, objdir, files):
    objs = {f[:-2]: os.path.join(objdir, f[:-2] + ".o") for f in files if f.endswith(".c") and f != "main.c"}
    missing = [o for o in objs.values() if not os.path.isfile(o)]
    if missing:
        tap.result(False, f"no call circle between files: {len(missing)} objects missing under {objdir}",
                   diag=missing[:5])
        return
    defs, needs = {}, {}
    for k, o in objs.items():
        defs[k], needs[k] = nm_symbols(o)
    owner = {s: k for k, d in defs.items() for s in d}
    graph = {k: {owner[s] for s in needs[k] if s in owner and owner[s] != k} for k in objs}
    found = cycles(graph)
    for comp in found:
        tap.result(False, "call circle between files: " + " <-> ".join(comp), key="call-circle " + " ".join(comp))
    if not found:
        tap.result(True, f"no call circle between {len(objs)} files (nm of {objdir})")


def functions(path):
    """[(name, first line, length)] for every function body "{" in column 0."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    out = []
    i = 0
    while i < len(lines):
        if lines[i].rstrip() != "{":
            i += 1
            continue
        start = i - 1
        while start > 0 and lines[start][:1] in (" ", "\t") and lines[start].strip():
            start -= 1
        sig = " ".join(lines[start:i])
        m = re.search(r"(\w+)\s*\(", sig)
        end = i + 1
        while end < len(lines) and not lines[end].startswith("}"):
            end += 1
        out.append((m.group(1) if m else "?", start + 1, end - start + 1))
        i = end + 1
    return out


def check_sizes(tap, src, files):
    over = []
    for rel in files:
        path = os.path.join(src, rel)
        with open(path, encoding="utf-8", errors="replace") as f:
            n = sum(1 for _ in f)
        if n > MAX_FILE:
            over.append((f"file src/{rel}", f"src/{rel}: {n} lines (at most {MAX_FILE})"))
        if not rel.endswith(".c"):
            continue
        limit = MAX_FN_CLI if room_of(rel) in ("cli", "main") else MAX_FN
        for name, line, length in functions(path):
            if length > limit:
                over.append((f"function src/{rel} {name}", f"src/{rel}:{line}: {name} is {length} lines (at most {limit})"))
    for key, msg in over:
        tap.result(False, msg, key=key)
    if not over:
        tap.result(True, f"every function within {MAX_FN} lines ({MAX_FN_CLI} in src/cli/ and main.c), "
                   f"every file within {MAX_FILE}")


MAP_ENTRY = re.compile(r"^- `src/([^`]+)`")


def check_map(tap, src, files, path):
    """The "## File map" section of path against the files of src/."""
    what = f"{path}'s file map lists exactly the {len(files)} files of src/"
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError as e:
        tap.result(False, what, diag=[f"{path}: {e.strerror} (--map names the file)"])
        return
    listed, inside, seen = [], False, False
    for no, line in enumerate(lines, 1):
        if line.startswith("## "):
            inside = line.strip() == "## File map"
            seen |= inside
            continue
        m = MAP_ENTRY.match(line) if inside else None
        if m:
            listed.append((no, m.group(1)))
    if not seen:
        tap.result(False, what, diag=[f"{path}: no \"## File map\" section"])
        return
    counts = collections.Counter(rel for _, rel in listed)
    have = set(files)
    diag = [f"src/{rel}: not in the file map ({path})" for rel in files if rel not in counts]
    diag += [f"{path}:{no}: src/{rel}: in the file map, no such file" for no, rel in listed if rel not in have]
    diag += [f"{path}: src/{rel}: listed {n} times" for rel, n in sorted(counts.items()) if n > 1]
    tap.result(not diag, what, diag=diag)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", default="src")
    ap.add_argument("--objs", help="the objects of src/ (build/obj): check call circles too")
    ap.add_argument("--known", help="findings still allowed, one key a line")
    ap.add_argument("--map", help="the file with the file map (default: doc/ARCHITECTURE.md beside src/)")
    a = ap.parse_args()
    known = set()
    if a.known:
        with open(a.known, encoding="utf-8") as f:
            known = {l.strip() for l in f if l.strip() and not l.startswith("#")}
    tap = Tap(known)
    files = sources(a.src)
    check_tree(tap, a.src, files)
    check_includes(tap, a.src, files)
    if a.objs:
        check_calls(tap, a.objs, files)
    check_sizes(tap, a.src, files)
    check_map(tap, a.src, files,
              a.map or os.path.normpath(os.path.join(a.src, os.pardir, "doc", "ARCHITECTURE.md")))
    unused = known - tap.used
    if not a.objs:  # call circles were not looked for
        unused = {k for k in unused if not k.startswith("call-circle ")}
    for key in sorted(unused):
        tap.result(False, f"known finding no longer found, drop it from {a.known}: {key}")
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
