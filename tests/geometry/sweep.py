#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Randomized property test of storprov's geometry against model.py.

From a seed it draws layouts (disks, hardware RAID LUNs, md arrays, GPTs,
LVM, XFS), writes for each a profile and a captured-style sysroot holding
its disks, runs `storprov plan --format json` on them and compares every
derived figure with the independent model (tests/geometry/model.py).
See tests/geometry/README.md.
"""

import argparse
import json
import multiprocessing
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True        # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model  # noqa: E402

KIB = 1024
MIB = 1024 * KIB
TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# ---------------------------------------------------------------------------
# drawing layouts
# ---------------------------------------------------------------------------

SECTORS = [(512, 512), (512, 4096), (4096, 4096)]     # 512n, 512e, 4Kn
MD_MIN = {0: 2, 1: 2, 4: 3, 5: 3, 6: 4, 10: 2}
ODD_CHUNKS = [k * 4 * KIB for k in (3, 5, 6, 7, 10, 12, 20, 24, 40, 48, 96, 160, 192)]


def pow2_between(rng, lo, hi):
    """A power of 2 in [lo, hi] (both powers of 2)."""
    return 1 << rng.randint(lo.bit_length() - 1, hi.bit_length() - 1)


def draw_members(rng, lo, hi=32):
    """A member count: mostly small, with a tail up to `hi`."""
    if rng.random() < 0.55:
        return rng.randint(lo, max(lo, min(hi, 8)))
    return rng.randint(lo, hi)


def draw_hwraid(rng):
    level = rng.choice([0, 1, 5, 6, 10, 50, 60])
    legs = None
    if level == 0:
        n = draw_members(rng, 2, 16)
    elif level == 1:
        n = rng.choice([2, 2, 2, 3])
    elif level == 5:
        n = draw_members(rng, 3)
    elif level == 6:
        n = draw_members(rng, 4)
    elif level == 10:
        n = 2 * draw_members(rng, 1, 16) if rng.random() < 0.85 else rng.choice([3, 5, 7, 9])
    else:
        legs = rng.randint(2, 4)
        per = rng.randint(3 if level == 50 else 4, 32 // legs)
        n = legs * per
    if rng.random() < 0.8:
        chunk = pow2_between(rng, 4 * KIB, MIB)
    else:
        chunk = rng.choice(ODD_CHUNKS)
    hw = {"level": level, "members": n, "chunk": chunk}
    if legs:
        hw["legs"] = legs
    return hw


def draw_true_hints(rng, pbs):
    """io_min = a RAID strip, io_opt = its full stripe: trusted."""
    r = rng.random()
    if r < 0.1:                                   # the limits themselves
        return (256 * KIB, 64 * MIB) if rng.random() < 0.5 else (max(8 * KIB, 2 * pbs), 256 * max(8 * KIB, 2 * pbs))
    if r < 0.25:
        strip = rng.choice([c for c in ODD_CHUNKS if c > pbs and c % pbs == 0])
    else:
        strip = pow2_between(rng, max(8 * KIB, 2 * pbs), MIB)
    k = rng.randint(1, 16)
    while strip * k > 64 * MIB:
        k -= 1
    return strip, strip * k


def draw_bogus_hints(rng, pbs):
    """Hints that break one trust rule each."""
    choices = [
        ("io_min==phys", lambda: (pbs, rng.choice([MIB, 64 * KIB * 3, 128 * KIB]))),
        ("io_opt==33553920", lambda: (512 * 257, 33553920) if pbs == 512 else (4096, 33553920)),
        ("io_opt%io_min", lambda: (64 * KIB, 64 * KIB * 3 + 4096)),
        ("io_opt>64MiB", lambda: (MIB, 128 * MIB)),
        ("ratio>256", lambda: (8192, 8192 * 512)),
        ("io_opt==0", lambda: (64 * KIB, 0)),
    ]
    if pbs == 4096:
        choices.append(("io_min%phys", lambda: (6144, 12288)))
    name, f = rng.choice(choices)
    io_min, io_opt = f()
    return io_min, io_opt, "bogus:" + name


def new_group(L, rng, count, hw=None, hints=None, gpt=None):
    """Append a disk group; hw True/False/None (None: draw)."""
    gid = "d" + "abcdefghijklmnopqrstuvwxyz"[len(L["groups"])]
    lbs, pbs = rng.choice(SECTORS)
    size = rng.randrange(10 ** 12, 4 * 10 ** 12) // MIB * MIB
    g = {"id": gid, "count": count, "size": size, "lbs": lbs, "pbs": pbs}
    if hw is None:
        hw = rng.random() < 0.4
    if hw:
        g["hwraid"] = draw_hwraid(rng)
        geo = model.hwraid_geometry(g["hwraid"])
        r = rng.random()
        g["io_min"], g["io_opt"], g["hints"] = pbs, 0, "none"
        if r < 0.5:
            pass
        elif r < 0.7:                   # the controller exports its own stripe
            if geo.stripe and model.hints_trusted(geo.su, geo.full, pbs):
                g["io_min"], g["io_opt"], g["hints"] = geo.su, geo.full, "as hwraid"
        elif r < 0.85:                  # hints that disagree with the profile: ignored
            g["io_min"], g["io_opt"] = draw_true_hints(rng, pbs)
            g["hints"] = "other than hwraid"
        else:
            g["io_min"], g["io_opt"], g["hints"] = draw_bogus_hints(rng, pbs)
    else:
        kind = hints or rng.choices(["none", "true", "bogus"], [0.4, 0.35, 0.25])[0]
        if kind == "none":
            g["io_min"], g["io_opt"], g["hints"] = pbs, 0, "none"
        elif kind == "true":
            g["io_min"], g["io_opt"] = draw_true_hints(rng, pbs)
            g["hints"] = "true"
        else:
            g["io_min"], g["io_opt"], g["hints"] = draw_bogus_hints(rng, pbs)
    if gpt:
        g["gpt"] = gpt
    L["groups"].append(g)
    return g


def next_gid(L):
    return "d" + "abcdefghijklmnopqrstuvwxyz"[len(L["groups"])]


def parity_twin_groups(L, rng, count_a, count_b):
    """Two groups of the same su and sw, one with parity and one without
    (RAID5/6 LUNs beside RAID0 LUNs or disks exporting the same stripe)."""
    su = pow2_between(rng, 16 * KIB, 256 * KIB) if rng.random() < 0.8 else rng.choice(ODD_CHUNKS)
    sw = rng.randint(2, 12)
    level = rng.choice([5, 6])
    ga = new_group(L, rng, count_a, hw=True)
    ga["hwraid"] = {"level": level, "members": sw + (1 if level == 5 else 2), "chunk": su}
    gb = new_group(L, rng, count_b, hw=rng.random() < 0.6)
    for g in (ga, gb):                      # hints drawn for another hwraid: none or the new one's
        if g.get("hwraid") and g["hints"] != "none":
            if rng.random() < 0.5 and model.hints_trusted(su, su * sw, g["pbs"]):
                g["io_min"], g["io_opt"], g["hints"] = su, su * sw, "as hwraid"
            else:
                g["io_min"], g["io_opt"], g["hints"] = g["pbs"], 0, "none"
    if gb.get("hwraid"):
        gb["hwraid"] = {"level": 0, "members": sw, "chunk": su}
    elif model.hints_trusted(su, su * sw, gb["pbs"]):
        gb["io_min"], gb["io_opt"], gb["hints"] = su, su * sw, "true (parity twin)"
    else:
        gb["hwraid"] = {"level": 0, "members": sw, "chunk": su}
    return ga


def draw_gpt(rng, nmax=3):
    n = rng.randint(1, nmax)
    pcts = {1: [[100], [80]], 2: [[60, 40], [50, 50], [30, 30]], 3: [[50, 30, 20], [40, 30, 30], [20, 20, 20]]}
    p = rng.choice(pcts[n])
    return [{"id": "p%d" % (i + 1), "pct": p[i]} for i in range(n)]


def ref_count(L, ref):
    """How many devices a reference names: a group (or its partition pK) names each disk."""
    gid = ref.split(".")[0]
    for g in L["groups"]:
        if g["id"] == gid:
            return g["count"]
    return 1


def draw_md_chunk(rng, level, members_geo):
    """None (derived) or a profile chunk; near the members' parity stripe mostly."""
    if level == 1 or rng.random() < 0.5:
        return None
    m = members_geo
    if m.parity and rng.random() < 0.75:
        opts = [c for c in (1 << i for i in range(12, 21)) if m.full % c == 0 or c % m.full == 0]
        if opts:
            return rng.choice(opts)
    return pow2_between(rng, 4 * KIB, MIB)


def new_md(L, rng, level, devices, n_devices, member_geos, spares=0):
    mid = "m" + "abcdefghijklmnopqrstuvwxyz"[len(L["mds"])]
    md = {"id": mid, "level": level, "devices": devices, "spares": spares}
    if level == 10:
        opts = ["n2"] * 4 + ["f2", "o2"]
        if n_devices - spares >= 3:
            opts += ["n3", "f3"]
        if rng.random() < 0.7:
            md["layout"] = rng.choice(opts)
    c = draw_md_chunk(rng, level, model.common(member_geos))
    if c:
        md["chunk"] = c
    L["mds"].append(md)
    return md


def md_level_and_count(rng, maxdev=32):
    level = rng.choice([0, 1, 4, 5, 6, 10])
    n = draw_members(rng, MD_MIN[level], maxdev)
    spares = 0
    if level != 0 and rng.random() < 0.25 and n < maxdev:
        spares = rng.randint(1, min(2, maxdev - n))
    return level, n, spares


def group_geo(g):
    return model.disk_geometry(g)


def build_md_over_new_disks(L, rng, source):
    level, n, spares = md_level_and_count(rng)
    total = n + spares
    if source == "plain":
        g = new_group(L, rng, total, hw=False)
        return new_md(L, rng, level, [g["id"]], total, [group_geo(g)] * total, spares)
    if source == "luns":
        g = new_group(L, rng, total, hw=True)
        return new_md(L, rng, level, [g["id"]], total, [group_geo(g)] * total, spares)
    if source == "parts":
        g = new_group(L, rng, total, hw=rng.random() < 0.3, gpt=draw_gpt(rng, 2))
        md = new_md(L, rng, level, [g["id"] + ".p1"], total, [group_geo(g)] * total, spares)
        if len(g["gpt"]) > 1 and rng.random() < 0.5:   # a second array over the p2s
            devs2 = [g["id"] + ".p2"]
            lvl2 = rng.choice([lv for lv, mn in MD_MIN.items() if mn <= total])
            new_md(L, rng, lvl2, devs2, total, [group_geo(g)] * total, 0)
        return md
    # mixed: two groups of possibly different geometry in one array; no
    # spares (whether a spare's geometry counts is not what this tests)
    total, spares = n, 0
    a = rng.randint(1, total - 1)
    r = rng.random()
    if r < 0.3:
        ga = parity_twin_groups(L, rng, a, total - a)
        gb = L["groups"][-1]
    else:
        ga = new_group(L, rng, a)
        if r < 0.55:                          # the same shape: M stays
            gb = dict(ga, id=next_gid(L), count=total - a)
            L["groups"].append(gb)
        else:
            gb = new_group(L, rng, total - a)
    geos = [group_geo(ga)] * a + [group_geo(gb)] * (total - a)
    return new_md(L, rng, level, [ga["id"], gb["id"]], total, geos, spares)


def leaves(L):
    """Refs of devices nothing uses yet (disks, partitions, mds, md partitions)."""
    used = set()
    for md in L["mds"]:
        used.update(md["devices"])
    for vg in L["vgs"]:
        used.update(vg["pvs"])
    used.update(f["on"] for f in L["xfs"])
    out = []
    for g in L["groups"]:
        if g.get("gpt"):
            out += ["%s.%s" % (g["id"], p["id"]) for p in g["gpt"] if "%s.%s" % (g["id"], p["id"]) not in used]
        elif g["id"] not in used:
            out.append(g["id"])
    for md in L["mds"]:
        if md.get("gpt"):
            out += ["%s.%s" % (md["id"], p["id"]) for p in md["gpt"] if "%s.%s" % (md["id"], p["id"]) not in used]
        elif md["id"] not in used:
            out.append(md["id"])
    return out


def add_vg(L, rng, pvs):
    vg = {"id": "va", "name": "va", "pvs": pvs, "lvs": []}
    L["vgs"].append(vg)
    exp = model.expected(L)
    if not exp["valid"]:
        return vg
    # PV geometries, as the model sees them
    objs = exp["objects"]
    pv_geos = []
    for r in pvs:
        o = objs.get(r)
        if o is None:           # a group (or a group's partition): its first disk's
            o = next(v for k, v in sorted(objs.items()) if k.startswith(r.split(".")[0]) and
                     v["kind"] == ("partition" if "." in r else "disk"))
        pv_geos.append(model.Geo(o["geometry"]["su_bytes"], o["geometry"]["sw"], o["geometry"]["parity"]))
    npv = sum(ref_count(L, r) for r in pvs)
    a = model.data_alignment(pv_geos)
    if rng.random() < 0.12 and a * 3 <= 1024 * MIB:     # storprov takes 4k..1g
        vg["data_alignment"] = a * rng.randint(1, 3)
        a = vg["data_alignment"]
    if rng.random() < 0.12 and model.extent_size(a) * 4 <= 16 * 1024 * MIB:   # 128k..16g
        vg["extent_size"] = model.extent_size(a) * rng.randint(1, 4)
    g = model.common(pv_geos)
    nlv = rng.randint(1, 3)
    sizes = {1: [["100%FREE"], ["50%VG"]], 2: [["40%VG", "100%FREE"], ["30%VG", "30%VG"]],
             3: [["30%VG", "30%VG", "100%FREE"], ["20%VG", "20%VG", "20%VG"]]}[nlv]
    sz = rng.choice(sizes)
    for i in range(nlv):
        lv = {"name": "l%d" % (i + 1), "size": sz[i]}
        if npv >= 2 and rng.random() < 0.6:
            lv["stripes"] = rng.randint(2, min(npv, 8)) if rng.random() < 0.8 else npv
            if rng.random() < 0.4:
                if g.parity and rng.random() < 0.75:
                    opts = [c for c in (1 << k for k in range(12, 21)) if g.full % c == 0 or c % g.full == 0]
                    lv["stripe_size"] = rng.choice(opts) if opts else pow2_between(rng, 4 * KIB, MIB)
                else:
                    lv["stripe_size"] = pow2_between(rng, 4 * KIB, MIB)
        vg["lvs"].append(lv)
    return vg


def add_xfs(L, rng, refs):
    for r in refs:
        i = len(L["xfs"]) + 1
        if ref_count(L, r) > 1:     # one file system per disk of the group
            L["xfs"].append({"on": r, "mountpoint": "/x%d-%%n" % i, "label": "x%dn%%n" % i})
        else:
            L["xfs"].append({"on": r, "mountpoint": "/x%d" % i, "label": "x%d" % i})


def draw_layout(seed, index):
    rng = random.Random("storprov-geometry:%s:%d" % (seed, index))
    L = {"seed": seed, "index": index, "groups": [], "mds": [], "vgs": [], "xfs": []}
    scenario = rng.choices(
        ["disks", "md", "md_luns", "md_parts", "md_mixed", "lvm_disks", "lvm_md"],
        [12, 22, 14, 10, 8, 17, 17])[0]
    L["scenario"] = scenario
    if scenario == "disks":
        for _ in range(rng.randint(1, 2)):
            new_group(L, rng, rng.randint(1, 4), gpt=draw_gpt(rng) if rng.random() < 0.5 else None)
    elif scenario in ("md", "md_luns", "md_parts", "md_mixed"):
        src = {"md": "plain", "md_luns": "luns", "md_parts": "parts", "md_mixed": "mixed"}[scenario]
        build_md_over_new_disks(L, rng, src)
        if rng.random() < 0.2:
            build_md_over_new_disks(L, rng, rng.choice(["plain", "luns"]))
        for md in L["mds"]:
            if rng.random() < 0.3:
                md["gpt"] = draw_gpt(rng)
    elif scenario == "lvm_disks":
        if rng.random() < 0.15:
            parity_twin_groups(L, rng, rng.randint(1, 4), rng.randint(1, 4))
        for _ in range(rng.randint(0 if L["groups"] else 1, 2)):
            new_group(L, rng, rng.randint(1, 8), hw=rng.random() < 0.6,
                      gpt=[{"id": "p1", "pct": 100}] if rng.random() < 0.2 else None)
    elif scenario == "lvm_md":
        k = rng.randint(2, 3)
        r = rng.random()
        if r < 0.15:                             # raid5 of k+1 and raid0 of k: one su and sw
            kk = rng.randint(2, 8)
            c = pow2_between(rng, 16 * KIB, MIB)
            for level, n in ((5, kk + 1), (0, kk)):
                g = new_group(L, rng, n, hw=False, hints="none")
                md = new_md(L, rng, level, [g["id"]], n, [group_geo(g)] * n)
                md["chunk"] = c
        elif r < 0.55:                           # arrays of one shape
            level, n, spares = md_level_and_count(rng, 12)
            hw = rng.random() < 0.5
            proto = new_group(L, rng, n + spares, hw=hw)
            for j in range(k):
                g = proto if j == 0 else dict(proto, id=next_gid(L))
                if j:
                    L["groups"].append(g)
                md = new_md(L, rng, level, [g["id"]], n + spares, [group_geo(g)] * (n + spares), spares)
                if j:
                    md.pop("chunk", None)
                    md.pop("layout", None)
                    for key in ("chunk", "layout"):
                        if key in L["mds"][0]:
                            md[key] = L["mds"][0][key]
        else:
            for j in range(k):
                build_md_over_new_disks(L, rng, rng.choice(["plain", "luns"]))
        for md in L["mds"]:
            if rng.random() < 0.15:
                md["gpt"] = draw_gpt(rng, 2)
    # the top: a VG over some leaves, XFS on others
    exp = model.expected(L)
    if not exp["valid"]:
        free = []
    else:
        free = leaves(L)
    rng.shuffle(free)
    want_vg = scenario.startswith("lvm") or (scenario != "disks" and rng.random() < 0.35)
    if want_vg and free:
        npv = rng.randint(1, len(free)) if scenario != "lvm_md" else len(free)
        pvs = sorted(free[:npv])
        vg = add_vg(L, rng, pvs)
        free = leaves(L)
        rng.shuffle(free)
        add_xfs(L, rng, ["%s/%s" % (vg["id"], lv["name"]) for lv in vg["lvs"] if rng.random() < 0.85])
    add_xfs(L, rng, sorted(free)[:rng.randint(1, 3)] if free else [])
    return L


# ---------------------------------------------------------------------------
# profile and sysroot
# ---------------------------------------------------------------------------

def fmt_size(b, salt=0):
    """A profile size; the spelling varies (64K, 64k, 64KiB, 1M, 1MiB, bytes)."""
    style = (b // 4096 + salt) % 4
    if b % MIB == 0 and style in (0, 1):
        return "%d%s" % (b // MIB, "M" if style == 0 else "MiB")
    if b % KIB == 0:
        return "%d%s" % (b // KIB, ("K", "k", "KiB", "K")[style])
    return str(b)


def group_path_prefix(i):
    return "pci-0000:%02x:00.0-" % (0x10 + i)


def profile_xml(L):
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<profile version="1" name="sweep-%s-%d">' % (L["seed"], L["index"])]
    for i, g in enumerate(L["groups"]):
        out.append('  <disks id="%s" count="%d">' % (g["id"], g["count"]))
        out.append('    <match path="%s*"/>' % group_path_prefix(i))
        hw = g.get("hwraid")
        if hw:
            legs = ' legs="%d"' % hw["legs"] if hw.get("legs") else ""
            out.append('    <hwraid level="%d" members="%d" chunk="%s"%s/>'
                       % (hw["level"], hw["members"], fmt_size(hw["chunk"], i), legs))
        if g.get("gpt"):
            out.append("    <gpt>")
            for p in g["gpt"]:
                out.append('      <partition id="%s" size="%d%%"/>' % (p["id"], p["pct"]))
            out.append("    </gpt>")
        out.append("  </disks>")
    for md in L["mds"]:
        attrs = 'id="%s" level="%d" devices="%s"' % (md["id"], md["level"], " ".join(md["devices"]))
        if md.get("chunk"):
            attrs += ' chunk="%s"' % fmt_size(md["chunk"], len(md["devices"]))
        if md.get("layout"):
            attrs += ' layout="%s"' % md["layout"]
        if md.get("spares"):
            attrs += ' spares="%d"' % md["spares"]
        if md.get("gpt"):
            out.append("  <md %s>" % attrs)
            out.append("    <gpt>")
            for p in md["gpt"]:
                out.append('      <partition id="%s" size="%d%%"/>' % (p["id"], p["pct"]))
            out.append("    </gpt>")
            out.append("  </md>")
        else:
            out.append("  <md %s/>" % attrs)
    for vg in L["vgs"]:
        attrs = 'id="%s" name="%s" pvs="%s"' % (vg["id"], vg["name"], " ".join(vg["pvs"]))
        if vg.get("data_alignment"):
            attrs += ' data-alignment="%s"' % fmt_size(vg["data_alignment"], 1)
        if vg.get("extent_size"):
            attrs += ' extent-size="%s"' % fmt_size(vg["extent_size"], 2)
        out.append("  <vg %s>" % attrs)
        for lv in vg["lvs"]:
            a = '<lv name="%s" size="%s"' % (lv["name"], lv["size"])
            if lv.get("stripes"):
                a += ' stripes="%d"' % lv["stripes"]
            if lv.get("stripe_size"):
                a += ' stripe-size="%s"' % fmt_size(lv["stripe_size"], 3)
            out.append("    " + a + "/>")
        out.append("  </vg>")
    for f in L["xfs"]:
        out.append('  <xfs on="%s" label="%s" mountpoint="%s"/>' % (f["on"], f["label"], f["mountpoint"]))
    out.append("</profile>")
    return "\n".join(out) + "\n"


def sd_name(idx):
    """sda, ..., sdz, sdaa, ... for a 0-based index."""
    s = ""
    idx += 1
    while idx:
        idx, r = divmod(idx - 1, 26)
        s = chr(97 + r) + s
    return "sd" + s


SD_MAJORS = (8, 65, 66, 67, 68, 69, 70, 71, 128, 129, 130, 131, 132, 133, 134, 135)

MEMINFO = ("MemTotal:       67108864 kB\nMemFree:        60000000 kB\nMemAvailable:   64000000 kB\n"
           "Buffers:          167772 kB\nCached:          8053063 kB\nSwapTotal:       4194300 kB\n"
           "SwapFree:        4194300 kB\nHugepagesize:       2048 kB\n")


def disk_records(L):
    """(name, major, minor, group, ordinal, fields) for every disk, sda the OS disk."""
    recs = [("sda", 8, 0, None, 0, {
        "size": 480103981056, "lbs": 512, "pbs": 4096, "io_min": 4096, "io_opt": 0,
        "vendor": "ATA", "model": "Micron_5200_MTFD", "wwn": "0x500a07511c4f2a7b",
        "serial": "18321C4F2A7B", "path": "pci-0000:00:1f.2-ata-1", "rot": 0})]
    idx = 1
    for gi, g in enumerate(L["groups"]):
        hw = bool(g.get("hwraid"))
        for k in range(g["count"]):
            n = idx
            uid = (gi << 8) | k
            wwn = ("0x600605b0%08x" if hw else "0x5000c500%08x") % (0xa0000000 + uid)
            recs.append((sd_name(n), SD_MAJORS[n // 16], (n % 16) * 16, g, k, {
                "size": g["size"], "lbs": g["lbs"], "pbs": g["pbs"], "io_min": g["io_min"],
                "io_opt": g["io_opt"], "vendor": "LSI" if hw else "SEAGATE",
                "model": "MR9361-8i" if hw else "ST4000NM0023", "wwn": wwn,
                "serial": "SWP%04X%04X" % (gi, k),
                "path": "%ssas-0x5000c5%010x-lun-0" % (group_path_prefix(gi), uid),
                "rot": 1}))
            idx += 1
    return recs


def write_sysroot(L, root):
    """The tree make-sysroot.sh would write for these disks, less the files
    discovery does not read (mq cpu lists, most queue tunables, README)."""
    def put(rel, text):
        p = os.path.join(root, rel)
        with open(p, "w") as f:
            f.write(text)

    for d in ("proc/self", "run/udev/data", "sys/block"):
        os.makedirs(os.path.join(root, d))
    put("proc/meminfo", MEMINFO)
    put("proc/self/smaps", "KernelPageSize:        4 kB\n")
    for seq, (name, major, minor, _g, _k, f) in enumerate(disk_records(L), 1):
        b = "sys/block/" + name
        for sub in ("", "/device", "/queue", "/mq/0"):
            os.makedirs(os.path.join(root, b + sub))
        sectors = f["size"] // 512
        put(b + "/dev", "%d:%d\n" % (major, minor))
        put(b + "/size", "%d\n" % sectors)
        put(b + "/ro", "0\n")
        put(b + "/removable", "0\n")
        put(b + "/alignment_offset", "0\n")
        put(b + "/discard_alignment", "0\n")
        put(b + "/range", "16\n")
        put(b + "/ext_range", "256\n")
        put(b + "/uevent", "MAJOR=%d\nMINOR=%d\nDEVNAME=%s\nDEVTYPE=disk\nDISKSEQ=%d\n" % (major, minor, name, seq))
        ata = f["vendor"] == "ATA"
        put(b + "/device/vendor", "%-8s\n" % f["vendor"])
        put(b + "/device/model", "%-16s\n" % f["model"])
        put(b + "/device/rev", "%-4s\n" % "0004")
        put(b + "/device/queue_depth", "%d\n" % (32 if ata else 254))
        put(b + "/device/wwid", "naa.%s\n" % f["wwn"][2:])
        q = b + "/queue/"
        for attr, val in (("logical_block_size", f["lbs"]), ("hw_sector_size", f["lbs"]),
                          ("physical_block_size", f["pbs"]), ("minimum_io_size", f["io_min"]),
                          ("optimal_io_size", f["io_opt"]), ("rotational", f["rot"]),
                          ("max_hw_sectors_kb", 16383), ("max_sectors_kb", 1280),
                          ("nr_requests", 64 if ata else 256), ("read_ahead_kb", 128),
                          ("discard_granularity", 0), ("discard_max_bytes", 0)):
            put(q + attr, "%d\n" % val)
        put(q + "scheduler", "none [mq-deadline] kyber bfq\n")
        put(q + "write_cache", "write back\n")
        put(b + "/mq/0/nr_tags", "%d\n" % (32 if ata else 4096))
        wwn = f["wwn"]
        if ata:
            idser = "%s_%s" % (f["model"], f["serial"])
            props = ["ID_ATA=1", "ID_MODEL=%s" % f["model"], "ID_REVISION=0004", "ID_TYPE=disk",
                     "ID_SERIAL=%s" % idser, "ID_SERIAL_SHORT=%s" % f["serial"], "ID_WWN=%s" % wwn,
                     "ID_WWN_WITH_EXTENSION=%s" % wwn, "ID_BUS=ata"]
            links = ["disk/by-id/ata-%s" % idser]
        else:
            props = ["ID_SCSI=1", "ID_VENDOR=%s" % f["vendor"], "ID_VENDOR_ENC=%s" % ("%-8s" % f["vendor"]).replace(" ", "\\x20"),
                     "ID_MODEL=%s" % f["model"], "ID_MODEL_ENC=%s" % ("%-16s" % f["model"]).replace(" ", "\\x20"),
                     "ID_REVISION=0004", "ID_TYPE=disk", "ID_SERIAL=3%s" % wwn[2:],
                     "ID_SERIAL_SHORT=%s" % wwn[2:], "ID_WWN=%s" % wwn, "ID_WWN_WITH_EXTENSION=%s" % wwn,
                     "ID_SCSI_SERIAL=%s" % f["serial"], "ID_BUS=scsi"]
            links = ["disk/by-id/scsi-3%s" % wwn[2:]]
        props += ["ID_PATH=%s" % f["path"], "ID_PATH_TAG=%s" % re.sub(r"[^A-Za-z0-9-]", "_", f["path"])]
        links += ["disk/by-id/wwn-%s" % wwn, "disk/by-path/%s" % f["path"], "disk/by-diskseq/%d" % seq]
        rec = ["S:" + s for s in links] + ["W:%d" % (seq + 3), "I:%d" % (3580000 + seq * 1117)]
        rec += ["E:" + p for p in props] + ["G:systemd", "Q:systemd", "V:1"]
        put("run/udev/data/b%d:%d" % (major, minor), "\n".join(rec) + "\n")


def describe_disks(L):
    """The disk description printed with a difference."""
    lines = []
    for i, g in enumerate(L["groups"]):
        hw = g.get("hwraid")
        s = "  %s: %d x %d bytes, sectors %d/%d, io_min %d io_opt %d (%s hints), ID_PATH %s*" % (
            g["id"], g["count"], g["size"], g["lbs"], g["pbs"], g["io_min"], g["io_opt"],
            g["hints"], group_path_prefix(i))
        if hw:
            s += ", hwraid level %d members %d chunk %d%s" % (
                hw["level"], hw["members"], hw["chunk"], " legs %d" % hw["legs"] if hw.get("legs") else "")
        lines.append(s)
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# comparing
# ---------------------------------------------------------------------------

SIZE_RE = re.compile(r"^(\d+)([bskmgt]?)$", re.I)


def parse_size(text, default_unit):
    """A size as the tools spell it (64k, 3m, 4096b, 128s); bare numbers in default_unit."""
    m = SIZE_RE.match(text.strip())
    if not m:
        return None
    n, u = int(m.group(1)), (m.group(2) or default_unit).lower()
    mult = {"b": 1, "s": 512, "k": KIB, "m": MIB, "g": 1024 * MIB, "t": 1024 ** 4}.get(u)
    return n * mult if mult else None


def argv_opt(argv, name):
    """The value of --name=V or --name V in argv, or None."""
    for i, a in enumerate(argv):
        if a.startswith(name + "="):
            return a[len(name) + 1:]
        if a == name and i + 1 < len(argv):
            return argv[i + 1]
    return None


def mkfs_geometry(argv):
    """(su, sw, log_su) from a mkfs.xfs argv; 0 where absent."""
    su = sw = lsu = 0
    for i, a in enumerate(argv[:-1]):
        if a in ("-d", "-l"):
            for kv in argv[i + 1].split(","):
                k, _, v = kv.partition("=")
                if a == "-d" and k == "su":
                    su = parse_size(v, "b")
                elif a == "-d" and k == "sw":
                    sw = int(v) if v.isdigit() else None
                elif a == "-d" and k == "sunit":
                    su = int(v) * 512 if v.isdigit() else None
                elif a == "-d" and k == "swidth" and su:
                    sw = (int(v) * 512) // su if v.isdigit() else None
                elif a == "-l" and k == "su":
                    lsu = parse_size(v, "b")
                elif a == "-l" and k == "sunit":
                    lsu = int(v) * 512 if v.isdigit() else None
    return su, sw, lsu


def exported_hints(L, exp, ref):
    """(minimum_io_size, optimal_io_size) the kernel would show for the device `ref`."""
    gid = ref.split(".")[0]
    for g in L["groups"]:
        if g["id"] == gid:
            return g["io_min"], g["io_opt"]
    for md in L["mds"]:
        if md["id"] == gid:
            if md["level"] == 1:            # raid1 stacks its members' limits
                io_min, io_opt = 0, 0
                for r in md["devices"]:
                    a, b = exported_hints(L, exp, r)
                    io_min = max(io_min, a)
                    io_opt = model.lcm(io_opt, b) if b else io_opt
                return io_min, io_opt
            c = exp["objects"][md["id"]]["chunk_bytes"]
            n = sum(ref_count(L, r) for r in md["devices"]) - md.get("spares", 0)
            return c, c * model.md_data_legs(md["level"], n, md.get("layout"))
    return 0, 0


def lvm_detected_alignment(io_min, io_opt):
    """pe_start alignment pvcreate picks with no --dataalignment (data_alignment_detection=1)."""
    pe = MIB
    if io_min and pe % io_min:
        pe = io_min
    if io_opt and pe % io_opt:
        pe = io_opt
    return pe


class Cmp:
    def __init__(self):
        self.n = 0
        self.diffs = []

    def eq(self, obj, field, exp, got, note=None):
        self.n += 1
        if exp != got:
            self.diffs.append((obj, field, exp, got) + ((note,) if note else ()))


def compare(L, exp, rc, out, err):
    c = Cmp()
    if not exp["valid"]:
        c.eq("(profile)", "exit status (refused)", 2, rc)
        return c
    if rc != 0:
        c.eq("(profile)", "exit status", 0, rc)
        lines = (err or "").strip().splitlines()
        c.diffs[-1] = c.diffs[-1] + ("storprov: " + " / ".join(
            ([ln for ln in lines if " error: " in ln] or lines)[-3:]),)
        return c
    try:
        plan = json.loads(out)
    except ValueError as e:
        c.eq("(plan)", "valid JSON", "JSON", "unparsable: %s" % e)
        return c
    objs = {o.get("id"): o for o in plan.get("objects", [])}
    steps = plan.get("steps", [])
    by_obj = {}
    for s in steps:
        by_obj.setdefault((s.get("kind"), s.get("object")), []).append(s)
    dev_to_ref = {}
    for o in plan.get("objects", []):
        if o.get("device"):
            dev_to_ref[o["device"]] = o.get("ref")

    def effective_align(value, pv_devices):
        """storprov's PV data alignment; 0 / absent: what LVM itself would choose."""
        if value:
            return value
        got = {lvm_detected_alignment(*exported_hints(L, exp, dev_to_ref.get(d) or "")) for d in pv_devices}
        return got.pop() if len(got) == 1 else sorted(got)

    for oid, e in sorted(exp["objects"].items()):
        o = objs.get(oid)
        if o is None:
            c.eq(oid, "present in plan objects[]", True, False)
            continue
        c.eq(oid, "kind", e["kind"], o.get("kind"))
        if "geometry" in e:
            g = o.get("geometry") or {}
            for k in ("su_bytes", "sw", "full_stripe_bytes", "parity"):
                c.eq(oid, "geometry." + k, e["geometry"][k], g.get(k))
        kind = e["kind"]
        if kind in ("disk", "md"):
            if e["has_gpt"] or "partition_align_bytes" in o:
                c.eq(oid, "partition_align_bytes", e["partition_align_bytes"], o.get("partition_align_bytes"))
        if kind == "md":
            c.eq(oid, "chunk_bytes", e["chunk_bytes"], o.get("chunk_bytes"))
            st = by_obj.get(("mdadm", oid))
            if st:
                ch = argv_opt(st[0].get("argv", []), "--chunk")
                c.eq(oid, "mdadm --chunk (bytes)", e["chunk_bytes"] or None,
                     parse_size(ch, "k") if ch is not None else None)
                # rule 2b: --data-offset only when mdadm's own (a 1 MiB multiple)
                # would not start the data on a whole member stripe; then a
                # multiple of the alignment, and the JSON says the same
                off = argv_opt(st[0].get("argv", []), "--data-offset")
                off = parse_size(off, "k") if off is not None else None
                if e["data_align"] > MIB:
                    c.eq(oid, "mdadm --data-offset % lcm(1 MiB, members' full stripe)", 0,
                         off % e["data_align"] if off else off,
                         "--data-offset %r bytes, alignment %d" % (off, e["data_align"]))
                else:
                    c.eq(oid, "mdadm --data-offset (none: mdadm's 1 MiB multiple)", None, off)
                c.eq(oid, "data_offset_bytes = mdadm --data-offset", off, o.get("data_offset_bytes"))
            else:
                c.eq(oid, "mdadm step present", True, False)
        if kind == "partition":
            start, al = o.get("start_bytes"), e["start_align"]
            c.eq(oid, "start_bytes % parent's alignment", 0,
                 start % al if isinstance(start, int) and start > 0 else start,
                 "start_bytes %r, alignment %d" % (start, al))
        if kind == "vg":
            c.eq(oid, "extent_bytes", e["extent_bytes"], o.get("extent_bytes"))
            c.eq(oid, "pv_data_alignment_bytes (0: LVM detects it)", e["pv_data_alignment_bytes"],
                 effective_align(o.get("pv_data_alignment_bytes"), o.get("pvs") or []))
            st = by_obj.get(("vgcreate", oid))
            if st:
                v = argv_opt(st[0].get("argv", []), "--physicalextentsize")
                c.eq(oid, "vgcreate --physicalextentsize (bytes)", e["extent_bytes"],
                     parse_size(v, "m") if v is not None else None)
            pv_steps = [s for s in steps if s.get("kind") == "pvcreate"
                        and any(p in (o.get("pvs") or []) for p in s.get("argv", []))]
            c.eq(oid, "pvcreate steps (one per PV)", len(o.get("pvs") or []), len(pv_steps))
            for s in pv_steps:
                v = argv_opt(s.get("argv", []), "--dataalignment")
                dev = [a for a in s.get("argv", []) if a in (o.get("pvs") or [])]
                c.eq(oid, "pvcreate --dataalignment (absent: LVM detects it)",
                     e["pv_data_alignment_bytes"],
                     effective_align(parse_size(v, "k") if v is not None else None, dev),
                     "PV %s" % " ".join(dev))
        if kind == "lv":
            c.eq(oid, "stripe_size_bytes", e["stripe_size_bytes"], o.get("stripe_size_bytes"))
            c.eq(oid, "stripes", e["stripes"], o.get("stripes"))
            st = by_obj.get(("lvcreate", oid))
            if st:
                argv = st[0].get("argv", [])
                s_ = argv_opt(argv, "--stripes")
                ss = argv_opt(argv, "--stripesize")
                c.eq(oid, "lvcreate --stripes", e["stripes"] if e["stripes"] > 1 else None,
                     int(s_) if s_ is not None and s_.isdigit() else s_)
                c.eq(oid, "lvcreate --stripesize (bytes)", e["stripe_size_bytes"] or None,
                     parse_size(ss, "k") if ss is not None else None)
        if kind == "xfs":
            c.eq(oid, "log_su_bytes", e["log_su_bytes"], o.get("log_su_bytes"))
            opts = (o.get("mount_options") or "").split(",")
            c.eq(oid, "swalloc in mount_options", e["swalloc"], "swalloc" in opts)
            st = by_obj.get(("mkfs", oid))
            if st:
                su, sw, lsu = mkfs_geometry(st[0].get("argv", []))
                c.eq(oid, "mkfs.xfs -d su (bytes)", e["geometry"]["su_bytes"], su)
                c.eq(oid, "mkfs.xfs -d sw", e["geometry"]["sw"], sw)
                c.eq(oid, "mkfs.xfs -l su (bytes)", e["log_su_bytes"], lsu)
            else:
                c.eq(oid, "mkfs step present", True, False)
    # partition starts in the GPT steps, too
    for s in steps:
        if s.get("kind") != "gpt":
            continue
        parent = exp["objects"].get(s.get("object"))
        if not parent:
            continue
        al = parent["partition_align_bytes"]
        for p in s.get("partitions", []):
            start = p.get("start_bytes")
            c.eq(s.get("object"), "gpt step: partition start_bytes % alignment", 0,
                 start % al if isinstance(start, int) and start > 0 else start,
                 "partition %s, start_bytes %r, alignment %d" % (p.get("number"), start, al))
    return c


# ---------------------------------------------------------------------------
# running
# ---------------------------------------------------------------------------

def storprov_bin():
    return os.environ.get("STORPROV_BIN") or os.path.join(TOP, "build", "storprov")


def tmp_base():
    for d in (os.environ.get("GEOMETRY_TMP"), "/dev/shm"):
        if d and os.path.isdir(d) and os.access(d, os.W_OK):
            return d
    return None


def run_layout(L, keep_dir=None):
    """(Cmp, xml) of one layout: write, run storprov plan, compare.
    With keep_dir, the profile, sysroot and layout stay in keep_dir/layout-SEED-INDEX."""
    xml = profile_xml(L)
    exp = model.expected(L)
    work = tempfile.mkdtemp(prefix="storprov-geo-", dir=tmp_base())
    try:
        prof = os.path.join(work, "profile.xml")
        with open(prof, "w") as f:
            f.write(xml)
        root = os.path.join(work, "sysroot")
        write_sysroot(L, root)
        argv = [storprov_bin(), "plan", "--profile", prof, "--sysroot", root, "--format", "json"]
        try:
            p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
            rc, out, err = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired:
            rc, out, err = -1, "", "timeout"
        c = compare(L, exp, rc, out, err)
        if keep_dir:
            dst = os.path.abspath(os.path.join(keep_dir, "layout-%s-%d" % (L["seed"], L["index"])))
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(work, dst)
            with open(os.path.join(dst, "layout.json"), "w") as f:
                json.dump(L, f, indent=1)
            with open(os.path.join(dst, "model.json"), "w") as f:
                json.dump(exp, f, indent=1, sort_keys=True)
            with open(os.path.join(dst, "plan.json"), "w") as f:
                f.write(out)
            with open(os.path.join(dst, "replay.sh"), "w") as f:
                f.write("#!/bin/sh\n# storprov on this layout (its differences: sweep.py --seed %s --index %d)\n"
                        "exec \"${STORPROV_BIN:-%s}\" plan --profile %s/profile.xml --sysroot %s/sysroot "
                        "--format json \"$@\"\n" % (L["seed"], L["index"],
                                                       os.environ.get("GEOMETRY_ORIG_BIN") or storprov_bin(), dst, dst))
            os.chmod(os.path.join(dst, "replay.sh"), 0o755)
        return c, xml
    finally:
        shutil.rmtree(work, ignore_errors=True)


# ---- shrinking a failing layout ---------------------------------------------

def remove(L, kind, key):
    """A copy of L without one object (and everything that stood on it), or None."""
    L2 = json.loads(json.dumps(L))
    dead = set()
    if kind == "xfs":
        L2["xfs"] = [f for f in L2["xfs"] if f["mountpoint"] != key]
    elif kind == "lv":
        vg = L2["vgs"][0]
        if len(vg["lvs"]) < 2:
            return None
        vg["lvs"] = [lv for lv in vg["lvs"] if lv["name"] != key]
        dead.add("%s/%s" % (vg["id"], key))
    elif kind == "vg":
        L2["vgs"] = [v for v in L2["vgs"] if v["id"] != key]
        dead.add(key)
    elif kind == "md":
        L2["mds"] = [m for m in L2["mds"] if m["id"] != key]
        dead.add(key)
    elif kind == "group":
        g = next(g for g in L2["groups"] if g["id"] == key)
        L2["groups"].remove(g)
        dead.add(key)
    elif kind == "mdgpt":
        md = next(m for m in L2["mds"] if m["id"] == key)
        md.pop("gpt", None)
        dead.add(key + ".")
    elif kind == "groupgpt":
        g = next(g for g in L2["groups"] if g["id"] == key)
        g.pop("gpt", None)
        dead.add(key + ".")
    changed = True

    def hit(ref):
        return any(ref == d or ref.startswith(d + "/") or ref.startswith(d + ".")
                   or (d.endswith(".") and ref.startswith(d)) for d in dead)

    while changed:
        changed = False
        for m in list(L2["mds"]):
            if any(hit(r) for r in m["devices"]):
                L2["mds"].remove(m)
                dead.add(m["id"])
                changed = True
        for v in list(L2["vgs"]):
            if any(hit(r) for r in v["pvs"]):
                L2["vgs"].remove(v)
                dead.add(v["id"])
                changed = True
        for f in list(L2["xfs"]):
            if hit(f["on"]):
                L2["xfs"].remove(f)
                changed = True
    return L2


def candidates(L):
    for f in L["xfs"]:
        yield "xfs", f["mountpoint"]
    for v in L["vgs"]:
        for lv in v["lvs"]:
            yield "lv", lv["name"]
        yield "vg", v["id"]
    for m in L["mds"]:
        yield "md", m["id"]
        if m.get("gpt"):
            yield "mdgpt", m["id"]
    for g in L["groups"]:
        yield "group", g["id"]
        if g.get("gpt"):
            yield "groupgpt", g["id"]


def shrink(L, c, budget=60):
    """A smaller layout that still differs in one of the same fields."""
    want = {d[1] for d in c.diffs}
    best, best_c = L, c
    progress = True
    while progress and budget > 0:
        progress = False
        for kind, key in list(candidates(best)):
            if budget <= 0:
                break
            L2 = remove(best, kind, key)
            if L2 is None or not L2["groups"] or not (L2["xfs"] or L2["vgs"] or L2["mds"]):
                continue
            budget -= 1
            c2, _ = run_layout(L2)
            if c2.diffs and want & {d[1] for d in c2.diffs}:
                best, best_c = L2, c2
                progress = True
                break
    return best, best_c


# ---- the pool ------------------------------------------------------------------

def work(args):
    seed, index = args
    L = draw_layout(seed, index)
    c, _ = run_layout(L)
    return {"index": index, "n": c.n, "diffs": c.diffs, "scenario": L["scenario"],
            "valid": model.expected(L)["valid"]}


def report(args):
    """Shrink one failing layout for its report (and keep its files)."""
    seed, index, keep, do_shrink = args
    L = draw_layout(seed, index)
    c, _ = run_layout(L)
    small, sc = shrink(L, c) if do_shrink and c.diffs else (L, c)
    if keep:
        run_layout(small, keep)
    return {"diffs": sc.diffs, "xml": profile_xml(small), "disks": describe_disks(small),
            "shrunk": small is not L, "orig_diffs": c.diffs}


def fmt_diff(d):
    s = "%s: %s: expected %r, got %r" % d[:4]
    if len(d) > 4 and d[4]:
        s += " (%s)" % d[4]
    return s


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=None, help="replay this seed (default: random, printed)")
    ap.add_argument("--count", type=int, default=1000, help="layouts to draw (default 1000)")
    ap.add_argument("--index", type=int, default=None, help="run only this layout of the seed")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--tap", action="store_true", help="print TAP for tests/run-all.sh")
    ap.add_argument("--keep", metavar="DIR", help="keep the profile and sysroot of failing layouts under DIR")
    ap.add_argument("--max-reports", type=int, default=5, help="layouts reported in full (default 5)")
    ap.add_argument("--no-shrink", action="store_true", help="report failing layouts as drawn")
    ap.add_argument("--show", action="store_true", help="print the layout, profile and model (with --index)")
    a = ap.parse_args(argv)

    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(1, 2 ** 31)
    pfx = "# " if a.tap else ""

    def say(msg=""):
        for line in str(msg).splitlines() or [""]:
            print(pfx + line)
        sys.stdout.flush()

    if a.tap:
        print("1..1")
    say("geometry sweep: seed %d (replay: python3 tests/geometry/sweep.py --seed %d %s)"
        % (seed, seed, "--index %d" % a.index if a.index is not None else "--count %d" % a.count))
    model.self_test()
    binp = storprov_bin()
    snap = snapshot_binary(binp)
    if not snap:
        say("no working storprov binary at %s (make build/storprov, or set STORPROV_BIN)" % binp)
        if a.tap:
            print("not ok 1 - geometry sweep: seed %d: no binary" % seed)
        return 1
    # every layout runs the same binary, even if build/storprov is rebuilt meanwhile
    os.environ["STORPROV_BIN"] = snap
    os.environ["GEOMETRY_ORIG_BIN"] = os.path.abspath(binp)
    say("binary: %s, copied at start (%s)" % (binp, snap_version(snap)))
    try:
        return sweep(a, seed, say)
    finally:
        shutil.rmtree(os.path.dirname(snap), ignore_errors=True)
        os.environ["STORPROV_BIN"] = binp


def snapshot_binary(binp, tries=30):
    """A private copy of the binary that runs (retried while a rebuild replaces it)."""
    for _ in range(tries):
        d = tempfile.mkdtemp(prefix="storprov-geo-bin-", dir=tmp_base())
        dst = os.path.join(d, "storprov")
        try:
            shutil.copy2(binp, dst)
            if subprocess.run([dst, "--version"], capture_output=True, timeout=10).returncode == 0:
                return dst
        except (OSError, subprocess.SubprocessError):
            pass
        shutil.rmtree(d, ignore_errors=True)
        time.sleep(2)
    return None


def snap_version(binp):
    p = subprocess.run([binp, "--version"], capture_output=True, text=True)
    return (p.stdout.strip().splitlines() or ["?"])[0]


def sweep(a, seed, say):

    if a.show and a.index is not None:
        L = draw_layout(seed, a.index)
        say("layout:\n" + json.dumps(L, indent=1))
        say("profile:\n" + profile_xml(L))
        say("disks:\n" + describe_disks(L))
        say("model:\n" + json.dumps(model.expected(L), indent=1, sort_keys=True))

    indices = [a.index] if a.index is not None else list(range(a.count))
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
    t0 = time.monotonic()
    jobs = [(seed, i) for i in indices]
    pool = multiprocessing.Pool(a.jobs) if a.jobs > 1 and len(jobs) > 1 else None
    try:
        mapper = pool.imap_unordered if pool else map
        results = sorted(mapper(work, jobs, *([8] if pool else [])), key=lambda r: r["index"])
        bad = [r for r in results if r["diffs"]]
        rjobs = [(seed, r["index"], a.keep, not a.no_shrink) for r in bad[:a.max_reports]]
        for r, rep in zip(bad, (pool.map if pool else map)(report, rjobs)):
            r["report"] = rep
    finally:
        if pool:
            pool.close()
            pool.join()
    elapsed = time.monotonic() - t0

    fields = sum(r["n"] for r in results)
    ndiff = sum(len(r["diffs"]) for r in results)
    refused = sum(1 for r in results if not r["valid"])
    for r in bad[:a.max_reports]:
        rep = r["report"]
        say("")
        say("DIFFERENCE seed %d layout %d (%s): %d field(s)%s"
            % (seed, r["index"], r["scenario"], len(r["diffs"]),
               "; shrunk to the profile below, which still differs:" if rep["shrunk"] else ""))
        for d in rep["diffs"][:20]:
            say("  seed %d layout %d  %s" % (seed, r["index"], fmt_diff(d)))
        if rep["shrunk"]:
            flds = sorted({d[1] for d in rep["orig_diffs"]})
            say("  (the layout as drawn differed in %d field(s) of %d object(s): %s%s)"
                % (len(rep["orig_diffs"]), len({d[0] for d in rep["orig_diffs"]}),
                   "; ".join(flds[:8]), "; ..." if len(flds) > 8 else ""))
        say("  profile:")
        for line in rep["xml"].splitlines():
            say("    " + line)
        say("  disks:")
        say(rep["disks"])
        say("  replay: python3 tests/geometry/sweep.py --seed %d --index %d --show --keep build/geometry"
            % (seed, r["index"]))
        if a.keep:
            say("  kept: %s/layout-%d-%d/ (replay.sh runs storprov on it)" % (a.keep, seed, r["index"]))
    if len(bad) > a.max_reports:
        say("")
        say("... %d more layouts differ: %s" % (len(bad) - a.max_reports,
                                                 " ".join(str(r["index"]) for r in bad[a.max_reports:][:200])))
    by_field = {}
    for r in bad:
        for d in r["diffs"]:
            by_field[d[1]] = by_field.get(d[1], 0) + 1
    if by_field:
        say("")
        say("differences by field:")
        for k, v in sorted(by_field.items(), key=lambda kv: -kv[1]):
            say("  %6d  %s" % (v, k))
    summary = ("geometry sweep: seed %d, %d layouts, %d compared fields, %d differences"
               % (seed, len(results), fields, ndiff))
    say("")
    say("%s (%d layouts the model refuses, %d layouts differ; %.1f s, %d jobs)"
        % (summary, refused, len(bad), elapsed, a.jobs))
    if a.tap:
        print("%s %d - %s" % ("not ok" if bad else "ok", 1, summary))
    else:
        print(summary)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
