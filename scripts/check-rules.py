#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-rules: the rule registry (src/base/rules.def) against what names its rules.

Every rule id a diagnostic can print is one RULE(ENUM, "id", SEVERITY,
"meaning") row of the registry; the emitters take ENUM, so src/ cannot name a
rule the registry lacks (that is the compiler's part). This script holds the
rest together, one TAP line each:

  - the rows: ENUM is RULE_ and the id in capitals ('-' as '_'), ids unique,
    severity ERROR, WARNING or BOTH, a meaning;
  - every row has an emitter: its ENUM is used in src/ outside the registry;
  - storprov.profile(5), section RULES: every registry id has an entry (a
    ".TP" tag naming it), every id an entry names is in the registry, and the
    severity an entry states ("(error)", "(warnings)", "an error ... a warning",
    or its section title's "(errors)") is the registry's for each id it names;
  - every [rule] of every bad-profile .expect file is a registry id;
  - every diagnostic line of the goldens ("error: ... [id]", "warning: ...
    [id]") names a registry id of that severity;
  - the rules <allow rule="..."> takes (the schema, the attribute table) are
    registry ids.

Exit 1 on any "not ok".
"""
import argparse
import glob
import os
import re
import sys

ROW = re.compile(r'^RULE\(\s*(\w+)\s*,\s*"([^"]*)"\s*,\s*(\w+)\s*,\s*"((?:[^"\\]|\\.)*)"\s*\)\s*$')
SEVERITIES = {"ERROR": "error", "WARNING": "warning", "BOTH": "both"}


class Tap:
    def __init__(self):
        self.n, self.failed = 0, 0

    def result(self, ok, what, diag=()):
        self.n += 1
        if not ok:
            self.failed += 1
        print(f"{'ok' if ok else 'not ok'} {self.n} - {what}")
        for d in diag:
            print(f"#   {d}")


def registry(path):
    """{id: (enum, severity, line)} and the rows that do not parse, from rules.def."""
    rows, bad = {}, []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    # a row may go over several lines: join the continuation lines to their RULE(
    joined, line_of = [], []
    for n, l in enumerate(text.split("\n"), 1):
        if l.startswith("RULE("):
            joined.append(l)
            line_of.append(n)
        elif joined and not joined[-1].rstrip().endswith(")") and l.strip():
            joined[-1] += " " + l.strip()
    for n, l in zip(line_of, joined):
        m = ROW.match(l)
        if not m:
            bad.append(f"{path}:{n}: not a RULE(ENUM, \"id\", SEVERITY, \"meaning\") row")
            continue
        enum, rid, sev, meaning = m.groups()
        if enum != "RULE_" + rid.upper().replace("-", "_"):
            bad.append(f"{path}:{n}: {enum} is not RULE_ and \"{rid}\" in capitals")
        if sev not in SEVERITIES:
            bad.append(f"{path}:{n}: severity {sev} is not ERROR, WARNING or BOTH")
        if not meaning.strip():
            bad.append(f"{path}:{n}: \"{rid}\" has no meaning")
        if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", rid):
            bad.append(f"{path}:{n}: \"{rid}\" is not an id (lower case, digits, single '-')")
        if rid in rows:
            bad.append(f"{path}:{n}: \"{rid}\" is a row already (line {rows[rid][2]})")
            continue
        rows[rid] = (enum, SEVERITIES.get(sev, "?"), n)
    return rows, bad


def roff_text(line):
    """A roff line as read: requests' words without quotes and font switches, '\\-' as '-'."""
    line = line.replace("\\-", "-").replace("\\(em", "-")
    if line.startswith("."):
        line = re.sub(r"^\.\w+\s*", "", line).replace('"', "")
    return line


def stated_severity(text):
    """The severity a man entry's text states: "error", "warning", "both" or None."""
    e = re.search(r"\(errors?\b|\ban error\b", text)
    w = re.search(r"\(warnings?\b|\ba warning\b", text)
    return "both" if e and w else "error" if e else "warning" if w else None


def man_entries(path):
    """The RULES section's entries: [(line, [ids], severity or None)]."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    entries, in_rules, section_sev, i = [], False, None, 0
    while i < len(lines):
        l = lines[i]
        if l.startswith(".SH "):
            in_rules = l.strip() == ".SH RULES"
        elif in_rules and l.startswith(".SS "):
            section_sev = stated_severity(roff_text(l))
        elif in_rules and l.strip() == ".TP" and i + 1 < len(lines):
            tag = roff_text(lines[i + 1])
            ids = [w.strip() for w in tag.split(",") if w.strip()]
            body, j = [], i + 2
            while j < len(lines) and not re.match(r"\.(TP|SS|SH)\b", lines[j]):
                body.append(roff_text(lines[j]))
                j += 1
            entries.append((i + 2, ids, stated_severity(" ".join(body)) or section_sev))
            i = j
            continue
        i += 1
    return entries


def check_rows(tap, rows, bad, src, rules):
    tap.result(not bad and rows, f"{rules}: {len(rows)} rows, each RULE(ENUM, \"id\", SEVERITY, \"meaning\")", bad)
    used = set()
    for root, _, names in os.walk(src):
        for name in names:
            p = os.path.join(root, name)
            if name.endswith((".c", ".h")) and os.path.abspath(p) != os.path.abspath(rules):
                with open(p, encoding="utf-8") as f:
                    used |= set(re.findall(r"\bRULE_[A-Z0-9_]+\b", f.read()))
    unused = [f"{rid}: {e} is used nowhere in {src}" for rid, (e, _, _) in sorted(rows.items()) if e not in used]
    tap.result(not unused, f"every rule of {rules} has an emitter in {src}", unused)


def check_man(tap, rows, man):
    entries = man_entries(man)
    named = {rid: n for n, ids, _ in entries for rid in ids}
    missing = [f"{rid}: no entry in {man}, RULES" for rid in sorted(rows) if rid not in named]
    tap.result(not missing, f"every rule of the registry has an entry in {man}'s RULES", missing)
    extra = [f"{man}:{n}: {rid}: not in the registry" for rid, n in sorted(named.items()) if rid not in rows]
    tap.result(entries and not extra, f"every rule {man}'s RULES names ({len(named)}) is in the registry", extra)
    wrong = []
    for n, ids, sev in entries:
        for rid in ids:
            if rid in rows and sev != rows[rid][1]:
                wrong.append(f"{man}:{n}: {rid}: the page says {sev or 'nothing'}, the registry {rows[rid][1]}")
    tap.result(not wrong, f"{man}'s RULES states each rule's severity as the registry does", wrong)


def check_expect(tap, rows, expect_dir):
    files = sorted(glob.glob(os.path.join(expect_dir, "**", "*.expect"), recursive=True))
    bad, seen = [], set()
    for p in files:
        with open(p, encoding="utf-8") as f:
            for n, l in enumerate(f, 1):
                for rid in re.findall(r"\[([a-z0-9][a-z0-9-]*)\]", l):
                    seen.add(rid)
                    if rid not in rows:
                        bad.append(f"{p}:{n}: [{rid}]: not in the registry")
    tap.result(files and not bad, f"every [rule] of the {len(files)} .expect files under {expect_dir} "
                                  f"({len(seen)} rules) is in the registry", bad)


def check_goldens(tap, rows, golden_dir):
    bad, count = [], 0
    diag = re.compile(r"\b(error|warning): .*\[([a-z0-9][a-z0-9-]*)\]$")
    for root, _, names in os.walk(golden_dir):
        for name in sorted(names):
            p = os.path.join(root, name)
            with open(p, encoding="utf-8", errors="replace") as f:
                for n, l in enumerate(f, 1):
                    m = diag.search(l.rstrip("\n"))
                    if not m:
                        continue
                    count += 1
                    sev, rid = m.groups()
                    if rid not in rows:
                        bad.append(f"{p}:{n}: [{rid}]: not in the registry")
                    elif rows[rid][1] not in (sev, "both"):
                        bad.append(f"{p}:{n}: [{rid}]: printed as {sev}, the registry says {rows[rid][1]}")
    tap.result(not bad, f"every diagnostic of the goldens under {golden_dir} ({count}) names a registry rule "
                        "of its severity", bad)


def check_allow(tap, rows, rng, attrs):
    bad, found = [], 0
    for path, pattern in ((rng, r'<attribute name="rule">(.*?)</attribute>'),
                          (attrs, r'\{"allow", "rule", A_ENUM, [^"]*"([^"]*)"\}')):
        with open(path, encoding="utf-8") as f:
            m = re.search(pattern, f.read(), re.S)
        if not m:
            bad.append(f"{path}: <allow rule=...>'s values not found")
            continue
        values = re.findall(r"<value>([^<]*)</value>", m.group(1)) if path == rng else m.group(1).split()
        found += len(values)
        bad += [f"{path}: <allow rule=\"{v}\">: not in the registry" for v in values if v not in rows]
    tap.result(not bad, f"the rules <allow> takes ({found} in {rng} and {attrs}) are in the registry", bad)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--top", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir),
                    help="the tree (default: the script's ..); the paths below are taken under it")
    ap.add_argument("--rules", default="src/base/rules.def")
    ap.add_argument("--src", default="src")
    ap.add_argument("--man", default="man/storprov.profile.5")
    ap.add_argument("--expect", default="tests", help="where the .expect files are (every one below it)")
    ap.add_argument("--goldens", default="tests/expected")
    ap.add_argument("--rng", default="profiles/storprov.rng")
    ap.add_argument("--attrs", default="src/input/profile_attrs.c")
    a = ap.parse_args()
    os.chdir(a.top)
    tap = Tap()
    rows, bad = registry(a.rules)
    check_rows(tap, rows, bad, a.src, a.rules)
    check_man(tap, rows, a.man)
    check_expect(tap, rows, a.expect)
    check_goldens(tap, rows, a.goldens)
    check_allow(tap, rows, a.rng, a.attrs)
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
