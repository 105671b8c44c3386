#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Independent reference model of storprov's stripe geometry (issue 17 item 3).

Written from the geometry rules of issue 17 and ../shared/reference/
storage-facts.md alone; it shares no code or tables with src/.  Given a
layout (the dict sweep.py draws, see README.md), expected() returns what
every object's geometry should be, or that the profile must be refused.

Run alone it reads a layout as JSON (a file or stdin) and prints the
expectation as JSON:  python3 tests/geometry/model.py layout.json
(`--self-test` checks it against hand-computed cases first.)
"""

import json
import math
import sys

KIB = 1024
MIB = 1024 * 1024
PARITY_LEVELS_HW = (4, 5, 6, 50, 60)
PARITY_LEVELS_MD = (4, 5, 6)
BOGUS_IO_OPT = 33553920          # 65535 x 512, the classic bogus io_opt


class Geo:
    """su (bytes), sw, parity; full stripe F = su x sw; stripe iff su > 0."""

    __slots__ = ("su", "sw", "parity")

    def __init__(self, su=0, sw=0, parity=False):
        if su <= 0 or sw <= 0:
            su, sw, parity = 0, 0, False
        self.su, self.sw, self.parity = su, sw, bool(parity)

    @property
    def full(self):
        return self.su * self.sw

    @property
    def stripe(self):
        return self.su > 0

    def key(self):
        return (self.su, self.sw, self.full, self.parity)

    def __eq__(self, other):
        return isinstance(other, Geo) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def as_dict(self):
        return {"su_bytes": self.su, "sw": self.sw,
                "full_stripe_bytes": self.full, "parity": self.parity}

    def __repr__(self):
        return "Geo(su=%d, sw=%d, F=%d, parity=%s)" % (self.su, self.sw, self.full, self.parity)


NONE = Geo()


def lcm(*vals):
    r = 1
    for v in vals:
        if v:
            r = r * v // math.gcd(r, v)
    return r


def is_pow2(v):
    return v > 0 and v & (v - 1) == 0


def largest_pow2_dividing(v):
    return v & -v if v > 0 else 0


class Refused(Exception):
    """The layout breaks a rule: storprov must refuse the profile (exit 2)."""


# ---- rule 1: disks ----------------------------------------------------------

def hwraid_geometry(hw):
    level, n, c = hw["level"], hw["members"], hw["chunk"]
    legs = hw.get("legs")
    if level == 0:
        sw = n
    elif level == 1:
        return NONE
    elif level in (4, 5):
        sw = n - 1
    elif level == 6:
        sw = n - 2
    elif level == 10:
        sw = n // 2 if n % 2 == 0 else n
    elif level == 50:
        sw = legs * (n // legs - 1)
    elif level == 60:
        sw = legs * (n // legs - 2)
    else:
        raise ValueError("hwraid level %r" % level)
    return Geo(c, sw, level in PARITY_LEVELS_HW)


def hints_trusted(io_min, io_opt, phys):
    return (io_opt > 0 and io_min > phys and io_opt != BOGUS_IO_OPT
            and io_opt <= 64 * MIB and io_opt // io_min <= 256
            and io_min % phys == 0 and io_opt % phys == 0 and io_opt % io_min == 0)


def disk_geometry(group):
    if group.get("hwraid"):
        return hwraid_geometry(group["hwraid"])
    io_min, io_opt, phys = group["io_min"], group["io_opt"], group["pbs"]
    if hints_trusted(io_min, io_opt, phys):
        # A hint of a strip (8 KiB or more) and a full stripe of several of
        # them may be a RAID5/6 LUN: the hint does not say, so it is planned
        # as parity (the safe layout). A smaller io_min is a write
        # granularity (drives, NVMe's NPWG), never parity; so is any NVMe
        # namespace's hint.
        strip = io_min >= 8 * KIB and io_opt > io_min and not group.get("name", "").startswith("nvme")
        return Geo(io_min, io_opt // io_min, strip)
    return NONE


# ---- shared: chunk derivation ------------------------------------------------

def derive(m, parity_upper=False, raid0=False):
    """The chunk / stripe size derived from a lower layer's stripe: its full
    stripe when that is a power of 2, else (over parity) the largest power of
    2 of at most 64 KiB dividing it, else its su, else the largest power of
    2 dividing the full stripe. Under a parity md (raid4/5/6): the largest
    power of 2 of at most 512 KiB that divides the full stripe, and of at
    most 64 KiB when that is not the whole parity stripe below (the VM sweep
    measured md RAID5 with a chunk of a whole 2 MiB LUN stripe at a
    member-read ratio of 2.98)."""
    f = m.full
    if parity_upper:
        c = largest_pow2_dividing(f)
        while c > 512 * KIB:
            c //= 2
        # pieces of a parity LUN stripe: below 128 KiB, or the plug sends them apart
        while m.parity and c < f and c > 64 * KIB:
            c //= 2
        return c if c >= 4 * KIB else 0
    if is_pow2(f) and f >= 4 * KIB:
        return f
    # md raid0 takes any multiple of 4 KiB: a parity stripe that is not a
    # power of 2 is its chunk up to 512 KiB (issue 32: buffered writes
    # flushed by fsync reach the LUNs chunk by chunk, never merged)
    if raid0 and m.parity and f % (4 * KIB) == 0 and f <= 512 * KIB:
        return f
    if m.parity:
        # pieces of 128 KiB or more leave the block layer's plug one by one
        # (BLK_PLUG_FLUSH_SIZE): at most 64 KiB, so a leg's pieces of one
        # device stripe reach it as one request
        c = largest_pow2_dividing(f)
        while c > 64 * KIB:
            c //= 2
        return c if c >= 4 * KIB else 0
    if is_pow2(m.su) and m.su >= 4 * KIB:
        return m.su
    p = largest_pow2_dividing(f)
    return p if p >= 4 * KIB else 0


def stacked_sw(base, c, lower):
    """sw of a stripe of chunk c over data legs `base` whose legs carry `lower`."""
    if lower.parity and c < lower.full and lower.full % c == 0:
        return base * (lower.full // c)
    return base


# ---- rule 2: md -------------------------------------------------------------

def md_data_legs(level, n, layout):
    if level == 0:
        return n
    if level in (4, 5):
        return n - 1
    if level == 6:
        return n - 2
    if level == 10:
        lay = layout or "n2"
        kind, k = lay[0], int(lay[1:])
        if kind == "n":
            return n // k if n % k == 0 else n
        return n
    raise ValueError("md level %r" % level)


def common(geos):
    """The members' (or PVs') common layout: equal su, sw and F; a layout
    that some of them declare as parity has parity (rule 2/3, as reconciled:
    the same stripe is the same stripe, and the parity ones pay for RMW)."""
    geos = list(geos)
    if geos and all((g.su, g.sw) == (geos[0].su, geos[0].sw) for g in geos):
        if not geos[0].stripe:
            return NONE
        return Geo(geos[0].su, geos[0].sw, any(g.parity for g in geos))
    return NONE


def md_geometry(md, members):
    """(geometry, chunk) of an md array over member geometries `members`."""
    m = common(members)
    level = md["level"]
    if level == 1:
        return m, 0
    n = len(md["devices_expanded"]) - md.get("spares", 0)
    d = md_data_legs(level, n, md.get("layout"))
    c = md.get("chunk")
    if not c:
        c = derive(m, level in PARITY_LEVELS_MD, level == 0) if m.stripe else 0
        if not c:
            c = 512 * KIB
    if m.parity and not (m.full % c == 0 or c % m.full == 0):
        raise Refused("md %s: chunk %d neither divides nor is a multiple of the "
                      "members' parity full stripe %d" % (md["id"], c, m.full))
    sw = stacked_sw(d, c, m)
    return Geo(c, sw, level in PARITY_LEVELS_MD or m.parity), c


def md_data_align(md, members, c):
    """Rule 2b: the data on striped members starts on a whole member stripe.
    mdadm's own data offset (metadata 1.1/1.2) is a multiple of 1 MiB, so a
    member full stripe F that does not divide 1 MiB (448 KiB, 1280 KiB)
    needs the offset on a multiple of lcm(1 MiB, F). Returns that
    multiple, or 1 MiB when mdadm's offset already is one: no common
    stripe, metadata 1.0 (data at 0), a chunk that straddles a member hint
    (the hint is not followed), or an lcm above 256 MiB (not worth the
    space; a warning)."""
    m = common(members)
    if md.get("metadata") == "1.0" or not m.stripe:
        return MIB
    if md["level"] != 1 and m.full % c and c % m.full:
        return MIB
    a = lcm(MIB, m.full)
    return a if a <= 256 * MIB else MIB


# ---- rule 3: LVM -------------------------------------------------------------

def data_alignment(pv_geos):
    fulls = [g.full for g in pv_geos if g.stripe]
    if fulls:
        return lcm(MIB, *fulls)
    return MIB


def extent_size(a):
    e = a * max(1, -(-4 * MIB // a))      # smallest multiple of A >= 4 MiB ...
    while not (is_pow2(e) or e % (128 * KIB) == 0):
        e += a                              # ... that vgcreate -s accepts
    return e


def lv_geometry(lv, g):
    s = lv.get("stripes") or 1
    if s < 2:
        return g, 0
    c = lv.get("stripe_size")
    if not c:
        c = derive(g) if g.stripe else 0
        if not c:
            c = 64 * KIB
    if g.parity and not (g.full % c == 0 or c % g.full == 0):
        raise Refused("lv %s: stripe size %d neither divides nor is a multiple of the "
                      "PVs' parity full stripe %d" % (lv["name"], c, g.full))
    return Geo(c, stacked_sw(s, c, g), g.parity), c


# ---- rule 4: XFS -------------------------------------------------------------

def log_su(su, parity=False):
    """The data su's largest power of 2 up to 256 KiB; one 4 KiB block on a
    parity stripe (a padded log write there is still a partial stripe)."""
    if su and parity:
        return 4 * KIB
    p = largest_pow2_dividing(su)
    while p > 256 * KIB:
        p //= 2
    return p if p >= 4 * KIB else 0


# ---- the whole layout --------------------------------------------------------

def disk_names(group):
    """The ids storprov gives a group's disks: lun1 ... lunN, or lun alone if N is 1."""
    if group["count"] == 1:
        return [group["id"]]
    return ["%s%d" % (group["id"], i) for i in range(1, group["count"] + 1)]


def expected(layout):
    """{"valid": bool, "reason": str, "objects": {id: {...}}} for a layout."""
    objs = {}          # id -> expectation
    geo = {}           # ref -> Geo of the device it names
    pbs = {}           # ref -> physical block size
    groups = {}        # group id -> member disk ids

    def add_partitions(parent_id, parts, g, align, pb):
        for p in parts or ():
            pid = "%s.%s" % (parent_id, p["id"])
            objs[pid] = {"kind": "partition", "geometry": g.as_dict(),
                         "start_align": align, "parent": parent_id}
            geo[pid] = g
            pbs[pid] = pb

    for grp in layout["groups"]:
        g = disk_geometry(grp)
        align = lcm(MIB, g.full, grp["pbs"])
        groups[grp["id"]] = disk_names(grp)
        for p in grp.get("gpt") or ():
            groups["%s.%s" % (grp["id"], p["id"])] = ["%s.%s" % (d, p["id"]) for d in disk_names(grp)]
        for name in disk_names(grp):
            objs[name] = {"kind": "disk", "geometry": g.as_dict(),
                          "partition_align_bytes": align,
                          "has_gpt": bool(grp.get("gpt"))}
            geo[name] = g
            pbs[name] = grp["pbs"]
            add_partitions(name, grp.get("gpt"), g, align, grp["pbs"])

    def expand(refs):
        out = []
        for r in refs:
            out.extend(groups.get(r, [r]))
        return out

    try:
        for md in layout.get("mds", ()):
            md = dict(md)
            md["devices_expanded"] = expand(md["devices"])
            g, c = md_geometry(md, [geo[r] for r in md["devices_expanded"]])
            pb = lcm(*[pbs[r] for r in md["devices_expanded"]])
            align = lcm(MIB, g.full, pb)
            objs[md["id"]] = {"kind": "md", "geometry": g.as_dict(), "chunk_bytes": c,
                              "partition_align_bytes": align, "has_gpt": bool(md.get("gpt")),
                              "level": md["level"],
                              "data_align": md_data_align(md, [geo[r] for r in md["devices_expanded"]], c)}
            geo[md["id"]] = g
            pbs[md["id"]] = pb
            add_partitions(md["id"], md.get("gpt"), g, align, pb)

        for vg in layout.get("vgs", ()):
            pv_refs = expand(vg["pvs"])
            pv_geos = [geo[r] for r in pv_refs]
            # the extent follows the derived alignment (lcm(1 MiB, the PVs' full
            # stripes)); a profile's data-alignment moves only the first extent
            e = vg.get("extent_size") or extent_size(data_alignment(pv_geos))
            a = vg.get("data_alignment") or data_alignment(pv_geos)
            g = common(pv_geos)
            objs[vg["id"]] = {"kind": "vg", "extent_bytes": e, "pv_data_alignment_bytes": a,
                              "name": vg["name"]}
            for lv in vg["lvs"]:
                lg, c = lv_geometry(lv, g)
                lid = "%s/%s" % (vg["id"], lv["name"])
                objs[lid] = {"kind": "lv", "geometry": lg.as_dict(), "stripe_size_bytes": c,
                             "stripes": lv.get("stripes") or 1}
                geo[lid] = lg

        for fs in layout.get("xfs", ()):
            on = expand([fs["on"]])         # a group: one file system per disk, %n its number
            for i, ref in enumerate(on, 1):
                g = geo[ref]
                mp = fs["mountpoint"].replace("%n", str(i))
                objs["fs:" + mp] = {
                    "kind": "xfs", "geometry": g.as_dict(), "log_su_bytes": log_su(g.su, g.parity),
                    "swalloc": g.parity and g.su > 0, "on": ref}
    except Refused as e:
        return {"valid": False, "reason": str(e), "objects": {}}
    return {"valid": True, "reason": "", "objects": objs}


def self_test():
    """Hand-computed cases from the rules (and doc/using.md: what storprov derives for 12 x RAID5)."""
    K, M = KIB, MIB
    hw = hwraid_geometry
    checks = [
        # rule 1: hardware RAID
        (hw({"level": 5, "members": 12, "chunk": 64 * K}), Geo(64 * K, 11, True)),
        (hw({"level": 6, "members": 8, "chunk": 64 * K}), Geo(64 * K, 6, True)),
        (hw({"level": 10, "members": 8, "chunk": 64 * K}), Geo(64 * K, 4, False)),
        (hw({"level": 10, "members": 5, "chunk": 64 * K}), Geo(64 * K, 5, False)),
        (hw({"level": 50, "members": 12, "chunk": 64 * K, "legs": 2}), Geo(64 * K, 10, True)),
        (hw({"level": 60, "members": 12, "chunk": 64 * K, "legs": 2}), Geo(64 * K, 8, True)),
        (hw({"level": 1, "members": 2, "chunk": 64 * K}), NONE),
        (lcm(MIB, 704 * K, 512), 11 * M),
        # rule 1: exported hints
        (hints_trusted(64 * K, 256 * K, 512), True),
        (hints_trusted(4096, 33553920, 512), False),
        (hints_trusted(4096, 16776704, 512), False),
        (hints_trusted(4096, 16773120, 512), False),      # io_opt/io_min 4095 > 256
        (hints_trusted(256 * K, 64 * M, 512), True),
        (hints_trusted(256 * K, 128 * M, 512), False),
        (hints_trusted(8 * K, 257 * 8 * K, 512), False),
        (hints_trusted(4096, M, 4096), False),
        # derive()
        (derive(Geo(64 * K, 4, True)), 256 * K),
        (derive(Geo(64 * K, 11, True)), 64 * K),
        (derive(Geo(12 * K, 8, False)), 32 * K),
        # rule 3: extents
        (extent_size(M), 4 * M), (extent_size(3 * M), 6 * M), (extent_size(5 * M), 5 * M),
        (extent_size(11 * M), 11 * M),
        # rule 4: log stripe unit
        (log_su(64 * K), 64 * K), (log_su(768 * K), 256 * K), (log_su(12 * K), 4 * K), (log_su(0), 0),
        (log_su(64 * K, True), 4 * K), (log_su(0, True), 0),
    ]
    for i, (got, want) in enumerate(checks):
        assert got == want, "model self-test %d: %r != %r" % (i, got, want)

    def md(level, n, chunk=None, layout=None):
        return {"id": "m", "level": level, "devices_expanded": ["x"] * n, "chunk": chunk, "layout": layout}
    lun6 = Geo(64 * K, 4, True)                          # RAID6 6 x 64k LUNs
    md_checks = [
        (md_geometry(md(5, 4, 64 * K), [NONE] * 4), (Geo(64 * K, 3, True), 64 * K)),
        (md_geometry(md(0, 4), [lun6] * 4), (Geo(256 * K, 4, True), 256 * K)),
        (md_geometry(md(0, 4, 64 * K), [lun6] * 4), (Geo(64 * K, 16, True), 64 * K)),
        (md_geometry(md(5, 4), [lun6] * 4), (Geo(256 * K, 3, True), 256 * K)),  # parity md: F 256k <= 512k
        (md_geometry(md(5, 4), [Geo(256 * K, 8, True)] * 4), (Geo(64 * K, 96, True), 64 * K)),  # F 2m: 64k, sw 3 x 32
        (md_geometry(md(5, 4), [Geo(128 * K, 3, True)] * 4), (Geo(64 * K, 18, True), 64 * K)),  # F 384k: 64k, sw 3 x 6
        (md_geometry(md(1, 2), [lun6] * 2), (lun6, 0)),
        (md_geometry(md(10, 5), [NONE] * 5), (Geo(512 * K, 5, False), 512 * K)),
        (md_geometry(md(10, 6, None, "n3"), [NONE] * 6), (Geo(512 * K, 2, False), 512 * K)),
        (md_geometry(md(10, 6, None, "f2"), [NONE] * 6), (Geo(512 * K, 6, False), 512 * K)),
    ]
    for i, (got, want) in enumerate(md_checks):
        assert got == want, "model md self-test %d: %r != %r" % (i, got, want)
    # rule 2b: RAID6 9 x 16k LUNs (F 112k): lcm(1 MiB, 112k) = 7 MiB; RAID6 6 x 64k
    # (F 256k) and no stripe: mdadm's 1 MiB; a 48k chunk straddling a 64k x 2 hint
    # (not parity): the hint is not followed; metadata 1.0: data at 0
    lun9 = Geo(16 * K, 7, True)
    hint = Geo(64 * K, 2, False)
    align_checks = [
        (md_data_align(md(0, 3), [lun9] * 3, 16 * K), 7 * M),
        (md_data_align(md(1, 2), [lun9] * 2, 0), 7 * M),
        (md_data_align(md(5, 4), [lun6] * 4, 256 * K), M),
        (md_data_align(md(5, 4), [NONE] * 4, 512 * K), M),
        (md_data_align(md(0, 2), [hint] * 2, 48 * K), M),
        (md_data_align(dict(md(0, 3), metadata="1.0"), [lun9] * 3, 16 * K), M),
    ]
    for i, (got, want) in enumerate(align_checks):
        assert got == want, "model data-offset self-test %d: %r != %r" % (i, got, want)
    try:
        md_geometry(md(0, 2, 256 * K), [Geo(64 * K, 11, True)] * 2)
        raise AssertionError("model self-test: a straddling chunk over parity members was accepted")
    except Refused:
        pass
    r6 = Geo(64 * K, 4, True)                            # md RAID6 6 x 64k as PVs
    assert data_alignment([r6, r6]) == M and extent_size(M) == 4 * M
    assert lv_geometry({"stripes": 2}, r6) == (Geo(256 * K, 2, True), 256 * K)
    assert lv_geometry({"stripes": 2, "stripe_size": 64 * K}, r6) == (Geo(64 * K, 8, True), 64 * K)
    assert lv_geometry({"stripes": 3}, NONE) == (Geo(64 * K, 3, False), 64 * K)
    # over RAID5 4 x 128k LUNs (F 384k, not a power of 2): 64k pieces, which
    # the block layer gathers into one 384k request per LUN; sw 4 x 6
    r5w = Geo(128 * K, 3, True)
    assert lv_geometry({"stripes": 4}, r5w) == (Geo(64 * K, 24, True), 64 * K)
    # md raid0 takes the whole 384k stripe as its chunk (issue 32): sw 4
    assert md_geometry(md(0, 4), [r5w] * 4) == (Geo(384 * K, 4, True), 384 * K)
    # over RAID5 4 x 16k LUNs (F 48k): 16k, as before
    assert lv_geometry({"stripes": 2}, Geo(16 * K, 3, True)) == (Geo(16 * K, 6, True), 16 * K)
    # the same stripe with and without parity is one layout, with parity:
    # RAID5 3 x 64k and RAID0 2 x 64k LUNs (su 64k, sw 2, F 128k) under md RAID0
    # of 4: chunk F = 128k, su 128k, sw 4, parity
    r5, r0 = Geo(64 * K, 2, True), Geo(64 * K, 2, False)
    assert common([r5, r0, r5, r0]) == Geo(64 * K, 2, True)
    assert md_geometry(md(0, 4), [r5, r0, r5, r0]) == (Geo(128 * K, 4, True), 128 * K)
    # a stripe size that straddles parity PVs (192k full stripe, 128k) is refused
    try:
        lv_geometry({"name": "l", "stripes": 2, "stripe_size": 128 * K}, Geo(64 * K, 3, True))
        raise AssertionError("model self-test: a straddling LV stripe over parity PVs was accepted")
    except Refused:
        pass
    return True


def main(argv):
    if argv[1:] == ["--self-test"]:
        self_test()
        print("model self-test: ok")
        return 0
    src = open(argv[1]) if len(argv) > 1 and argv[1] != "-" else sys.stdin
    with src:
        layout = json.load(src)
    json.dump(expected(layout), sys.stdout, indent=1, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
