#!/usr/bin/env python3
"""Random foreign layouts for the issue-18 scan (root; loop devices only for LVM).

foreign_gen.py build SEED IMAGE CACHEDIR   write a 1 GiB image: a random table
    (GPT, MBR, or MBR with an extended partition of logicals), 1-4 partitions at
    random starts (odd sectors too) holding random formats, then one erasure of
    the table (wipefs -a, the first MiB zeroed, the first and the last MiB
    zeroed). Prints the layout as JSON (seed included): replay with the same SEED.
foreign_gen.py sum IMAGE                   sha256 of the image's data extents
    and where they lie (holes read as zeros; a write into a hole changes it).
foreign_gen.py named LAYOUT OUTPUT         every planted format named in
    storprov's output, at an offset inside its partition (exit 1 if not).
foreign_gen.py formats CACHEDIR            the formats this machine can make.

Some partitions (the "-copy" formats: btrfs, XFS, ext4 with 4 KiB and 1 KiB
blocks, ext2 with 2 KiB blocks) hold a filesystem made at the partition's own
size whose primary superblock is then erased (its first MiB zeroed, or wipefs
-a): only its copies are left (btrfs mirror, XFS AG 1 or AG 0's AGF/AGI, ext
backup of group 1), which the scan must find (issue 33). Such an XFS, whose
AG size follows its size, lies where the scan knows that size: a region a
table names, or, with no table left, from a usual start to the last MiB
before the backup GPT.

Every planted signature is checked with blkid -p at its offset after the
erasure (an independent tool; for a "-copy" format: at its copy, and its
primary is checked gone): the generator fails rather than hand a test a
layout whose data is not there. Where nothing is left that names a start (the
MBR zeroed, or both GPT arrays), starts are drawn from the usual ones only and
formats whose signature sits at the end (md 0.90/1.0) are not drawn: storprov-apply(8)
says what the scan cannot find."""
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

MiB = 1 << 20
SEC = 512
DISK = 1024 * MiB
HERE = os.path.dirname(os.path.abspath(__file__))
USUAL = [34 * SEC, 63 * SEC, 128 * SEC] + [m * MiB for m in list(range(1, 17)) + [17, 32, 48, 64, 129]]


def sh(*argv, **kw):
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)


def tree(d):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "precious.txt"), "w") as f:
        f.write("foreign data\n")


def mk_lvm(path):
    loop = subprocess.run(["losetup", "-f", "--show", path], check=True, capture_output=True, text=True).stdout.strip()
    try:
        sh("pvcreate", "-q", "--config", "devices { use_devicesfile=0 }", "-ff", "-y", loop)
    finally:
        subprocess.run(["losetup", "-d", loop])


def mk_luks(kind):
    def f(path):
        sh("cryptsetup", "luksFormat", "-q", "--type", kind, "--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000",
           "--key-file", "-", path, input=b"foreign")
    return f


def mk_iso(path):
    d = path + ".d"
    tree(d)
    sh("xorriso", "-as", "mkisofs", "-quiet", "-V", "FOREIGN", "-o", path, d)


def mk_squash(path):
    d = path + ".d"
    tree(d)
    os.unlink(path)
    sh("mksquashfs", d, path, "-quiet", "-noappend", "-no-progress")


# name: (MiB of the template, tool, maker(path) or md version, blkid TYPE)
FORMATS = {
    "xfs": (300, "mkfs.xfs", lambda p: sh("mkfs.xfs", "-q", "-f", "-L", "foreign", p), "xfs"),
    "ext4": (16, "mkfs.ext4", lambda p: sh("mkfs.ext4", "-q", "-F", "-L", "foreign", p), "ext4"),
    "ext4-1k": (16, "mkfs.ext4", lambda p: sh("mkfs.ext4", "-q", "-F", "-b", "1024", "-L", "foreign", p), "ext4"),
    "ext2": (8, "mkfs.ext2", lambda p: sh("mkfs.ext2", "-q", "-F", p), "ext2"),
    "btrfs": (128, "mkfs.btrfs", lambda p: sh("mkfs.btrfs", "-q", "-f", "-L", "foreign", p), "btrfs"),
    "swap": (8, "mkswap", lambda p: sh("mkswap", "-L", "foreign", p), "swap"),
    "lvm-pv": (8, "pvcreate", mk_lvm, "LVM2_member"),
    "luks1": (8, "cryptsetup", mk_luks("luks1"), "crypto_LUKS"),
    "luks2": (32, "cryptsetup", mk_luks("luks2"), "crypto_LUKS"),
    "vfat": (16, "mkfs.vfat", lambda p: sh("mkfs.vfat", "-n", "FOREIGN", p), "vfat"),
    "exfat": (16, "mkfs.exfat", lambda p: sh("mkfs.exfat", "-L", "foreign", p), "exfat"),
    "ntfs": (16, "mkntfs", lambda p: sh("mkntfs", "-F", "-f", "-Q", "-q", "-L", "foreign", p), "ntfs"),
    "iso9660": (1, "xorriso", mk_iso, "iso9660"),
    "squashfs": (1, "mksquashfs", mk_squash, "squashfs"),
    "udf": (16, "mkudffs", lambda p: sh("mkudffs", "--label=foreign", p), "udf"),
    "f2fs": (64, "mkfs.f2fs", lambda p: sh("mkfs.f2fs", "-q", "-f", "-l", "foreign", p), "f2fs"),
    "jfs": (32, "mkfs.jfs", lambda p: sh("mkfs.jfs", "-q", "-L", "foreign", p), "jfs"),
    "reiserfs": (64, "mkfs.reiserfs", lambda p: sh("mkfs.reiserfs", "-q", "-f", "-l", "foreign", p), "reiserfs"),
    "nilfs2": (136, "mkfs.nilfs2", lambda p: sh("mkfs.nilfs2", "-q", "-f", "-L", "foreign", p), "nilfs2"),
    "bcache": (8, "make-bcache", lambda p: sh("make-bcache", "-B", p), "bcache"),
    "zfs": (64, "zpool", None, "zfs_member"),
    "md0.90": (1, None, "0.90", "linux_raid_member"),
    "md1.0": (1, None, "1.0", "linux_raid_member"),
    "md1.1": (2, None, "1.1", "linux_raid_member"),
    "md1.2": (2, None, "1.2", "linux_raid_member"),
}
AT_END = {"md0.90", "md1.0"}
# name: (least MiB, tool, mkfs argv, blkid TYPE): made at the partition's size, primary erased. ext4 with
# 4 KiB blocks from 520 MiB: below 512 MiB (mke2fs's "small" type) -b 4096 may get fewer blocks per group
# than 32768 (260.9 MiB: 32672), its group 1 not at 128 MiB (storprov-apply(8): not found)
COPIES = {
    "btrfs-copy": (128, "mkfs.btrfs", ["mkfs.btrfs", "-q", "-f", "-L", "foreign"], "btrfs"),
    "xfs-copy": (300, "mkfs.xfs", ["mkfs.xfs", "-q", "-f", "-L", "foreign"], "xfs"),
    "ext4-copy": (520, "mkfs.ext4", ["mkfs.ext4", "-q", "-F", "-b", "4096", "-L", "foreign"], "ext4"),
    "ext4-1k-copy": (12, "mkfs.ext4", ["mkfs.ext4", "-q", "-F", "-b", "1024", "-L", "foreign"], "ext4"),
    "ext2-copy": (40, "mkfs.ext2", ["mkfs.ext2", "-q", "-F", "-b", "2048", "-L", "foreign"], "ext2"),
}
END_MIB = 1023  # the last MiB boundary before a backup GPT: an XFS with no table left ends there


def available():
    return [n for n, (_, tool, mk, _) in FORMATS.items() if mk is not None and (tool is None or shutil.which(tool))] + \
        [n for n, (_, tool, _, _) in COPIES.items() if shutil.which(tool)]


def fmt_info(name):
    """(least MiB, blkid TYPE) of a format or a -copy format"""
    f = FORMATS.get(name) or COPIES[name]
    return f[0], f[3]


def copy_place(path, fmt):
    """Where the copy of the filesystem in file path (made, primary intact) sits from its start, and where
    blkid -p -O must probe to see it there (its prober looks from a start)."""
    with open(path, "rb") as f:
        if fmt == "btrfs":
            return 64 * MiB, 64 * MiB - 65536
        if fmt == "xfs":
            sb = f.read(512)
            at = int.from_bytes(sb[84:88], "big") * int.from_bytes(sb[4:8], "big")
            return at, at
        f.seek(1024)
        sb = f.read(1024)
        bs = 1024 << int.from_bytes(sb[0x18:0x1c], "little")
        at = (int.from_bytes(sb[0x20:0x24], "little") + int.from_bytes(sb[0x14:0x18], "little")) * bs
        return at, at - 1024


def plant_copy(img, p, work):
    """A -copy filesystem made at the partition's size, its primary erased, written at its start."""
    _, tool, argv, typ = COPIES[p["fmt"]]
    tmp = os.path.join(work, "copy.img")
    with open(tmp, "wb") as f:
        f.truncate(p["size"])
    sh(*argv, tmp)
    at, probe = copy_place(tmp, typ)
    if p["primary"] == "wipefs":
        sh("wipefs", "-a", "-f", "-q", tmp)
    else:
        with open(tmp, "r+b") as f:
            f.write(b"\0" * MiB)
    sh("dd", "if=" + tmp, "of=" + img, "bs=64K", "oflag=seek_bytes", "seek=%d" % p["start"], "conv=notrunc,sparse",
       "status=none")
    os.unlink(tmp)
    p["copy_at"], p["probe_at"] = p["start"] + at, p["start"] + probe


def template(cache, name):
    """A formatted file of the format's size, made once per cache directory."""
    path = os.path.join(cache, name + ".img")
    if os.path.exists(path):
        return path
    mib, _, mk, _ = FORMATS[name]
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.truncate(mib * MiB)
    mk(tmp)
    shutil.rmtree(tmp + ".d", ignore_errors=True)
    os.rename(tmp, path)
    return path


def plant(img, start, size, name, cache, uuid):
    mk = FORMATS[name][2]
    if isinstance(mk, str):
        sh(sys.executable, os.path.join(HERE, "md_sb.py"), img, mk, str(start), str(size), uuid)
        return
    src = template(cache, name)
    sh("dd", "if=" + src, "of=" + img, "bs=64K", "oflag=seek_bytes", "seek=%d" % start, "conv=notrunc,sparse",
       "status=none")


def blkid_at(img, start, size):
    r = subprocess.run(["blkid", "-p", "-o", "value", "-s", "TYPE", "-O", str(start), "-S", str(size), img],
                       capture_output=True, text=True)
    return r.stdout.strip()


def draw(rng, formats):
    table = rng.choice(["gpt", "mbr", "ebr"])
    erase = rng.choice(["wipefs", "head", "both"])
    # what still names a start after the erasure: GPT keeps an array unless both ends are zeroed;
    # an MBR keeps its entries only under wipefs -a (which clears the 0x55AA signature alone)
    named = (table == "gpt" and erase != "both") or (table != "gpt" and erase == "wipefs")
    lo = MiB if erase != "wipefs" else 34 * SEC
    lo = max(lo, 64 * SEC if table != "gpt" else lo)  # room for the MBR gap
    hi = DISK - 2 * MiB  # the last MiB (zeroed by "both") and the backup GPT stay clear
    nparts = rng.randint(1, 4 if table != "ebr" else 5)
    parts, cur = [], lo
    for i in range(nparts):
        # each format once per layout: copies of one template share their UUID and label, and the scan
        # names an identical signature at a second usual start once (a backup superblock looks the same)
        choices = [f for f in formats if (named or f not in AT_END) and f not in [p["fmt"] for p in parts]]
        # the class of issue 33 (a filesystem whose primary is erased, its copies intact) in about one
        # partition of three
        copies = [f for f in choices if f in COPIES]
        if copies and rng.random() < 0.35:
            choices = copies
        elif len(choices) > len(copies):
            choices = [f for f in choices if f not in COPIES]
        name = rng.choice(choices)
        need = fmt_info(name)[0] * MiB
        if table == "ebr" and i >= 1:
            cur += 64 * SEC  # each logical's EBR sits before it
        if named:
            start = cur + rng.randrange(0, 48 * MiB, SEC) if rng.random() < 0.5 else cur + rng.randrange(0, 48) * MiB
            if rng.random() < 0.25:
                start = min([u for u in USUAL if u >= cur] or [start])
        else:
            ups = [u for u in USUAL if u >= cur]
            if not ups:
                break
            start = rng.choice(ups[:6])
        start = (start + SEC - 1) // SEC * SEC
        room = hi - start
        if room < need:
            continue
        size = need + rng.randrange(0, min(room - need, 160 * MiB) + 1, SEC)
        last = name == "xfs-copy" and not named  # its AG size follows the region from its start to END_MIB
        if last:
            size = END_MIB * MiB - start
            if size < need:
                continue
        parts.append({"fmt": name, "type": fmt_info(name)[1], "start": start, "size": size,
                      "uuid": "%032x" % rng.getrandbits(128)})
        if name in COPIES:
            parts[-1]["primary"] = rng.choice(["dd1m", "wipefs"])
        cur = start + size
        if last:
            break
    if not parts:
        return draw(rng, formats)
    return {"table": table, "erase": erase, "named": named, "parts": parts}


def write_table(img, lay):
    t, parts = lay["table"], lay["parts"]
    lines = []
    if t == "gpt":
        lines = ["label: gpt", "first-lba: 34"]
        lines += ["start=%d, size=%d" % (p["start"] // SEC, p["size"] // SEC) for p in parts]
    elif t == "mbr":
        lines = ["label: dos"] + ["start=%d, size=%d, type=83" % (p["start"] // SEC, p["size"] // SEC) for p in parts]
    else:
        first, rest = parts[0], parts[1:]
        lines = ["label: dos", "start=%d, size=%d, type=83" % (first["start"] // SEC, first["size"] // SEC)]
        if rest:
            es = rest[0]["start"] // SEC - 32
            ee = rest[-1]["start"] // SEC + rest[-1]["size"] // SEC
            lines.append("start=%d, size=%d, type=5" % (es, ee - es))
            lines += ["start=%d, size=%d, type=83" % (p["start"] // SEC, p["size"] // SEC) for p in rest]
    sh("sfdisk", "-q", "--no-reread", "--no-tell-kernel", "--wipe=never", img,
       input="\n".join(lines).encode() + b"\n")


def erase(img, how):
    if how == "wipefs":
        sh("wipefs", "-a", "-f", "-q", img)  # -f: a file is no whole disk to wipefs
    with open(img, "r+b") as f:
        if how in ("head", "both"):
            f.write(b"\0" * MiB)
        if how == "both":
            f.seek(DISK - MiB)
            f.write(b"\0" * MiB)


def build(seed, img, cache):
    os.makedirs(cache, exist_ok=True)
    rng = random.Random(seed)
    lay = draw(rng, sorted(available()))
    lay["seed"] = seed
    with open(img, "wb") as f:
        f.truncate(DISK)
    write_table(img, lay)
    for p in lay["parts"]:
        if p["fmt"] in COPIES:
            plant_copy(img, p, cache)
        else:
            plant(img, p["start"], p["size"], p["fmt"], cache, p["uuid"])
    erase(img, lay["erase"])
    pt = subprocess.run(["blkid", "-p", "-o", "value", "-s", "PTTYPE", img], capture_output=True, text=True).stdout
    if pt.strip():
        sys.exit("foreign_gen: seed %d: a table is still there after %s (%s)" % (seed, lay["erase"], pt.strip()))
    for p in lay["parts"]:
        got = blkid_at(img, p["start"], p["size"])
        if p["fmt"] in COPIES:
            # the primary is gone, the copy is there
            if got == p["type"]:
                sys.exit("foreign_gen: seed %d: %s at %d still has its primary" % (seed, p["fmt"], p["start"]))
            got = blkid_at(img, p["probe_at"], p["start"] + p["size"] - p["probe_at"])
        if got != p["type"]:
            sys.exit("foreign_gen: seed %d: blkid finds %r, not %s, at %d" % (seed, got, p["type"],
                                                                            p.get("probe_at", p["start"])))
    json.dump(lay, sys.stdout)
    print()


def image_sum(img):
    h = hashlib.sha256()
    with open(img, "rb") as f:
        os.fsync(f.fileno())
        end = os.fstat(f.fileno()).st_size
        off = 0
        while off < end:
            try:
                d = os.lseek(f.fileno(), off, os.SEEK_DATA)
            except OSError:
                break
            e = os.lseek(f.fileno(), d, os.SEEK_HOLE)
            f.seek(d)
            h.update(b"%d:%d;" % (d, e))
            left = e - d
            while left:
                b = f.read(min(left, 4 * MiB))
                h.update(b)
                left -= len(b)
            off = e
    print("%s %d" % (h.hexdigest(), end))


def named(layout, out):
    """Is every planted format named in storprov's refusal, at an offset inside its partition?"""
    import re
    lay = json.load(open(layout))
    text = open(out).read()
    bad = []
    for p in lay["parts"]:
        offs = [int(m) for m in re.findall(re.escape(p["type"]) + r"[^,;]* at offset (\d+) ", text)]
        if not any(p["start"] <= o < p["start"] + p["size"] for o in offs):
            bad.append("%s at %d" % (p["fmt"], p["start"]))
    if bad:
        sys.exit("not named: " + ", ".join(bad))


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[:1] == ["build"] and len(a) == 4:
        build(int(a[1]), a[2], a[3])
    elif a[:1] == ["sum"] and len(a) == 2:
        image_sum(a[1])
    elif a[:1] == ["named"] and len(a) == 3:
        named(a[1], a[2])
    elif a[:1] == ["formats"]:
        print(" ".join(sorted(available())))
        print("not on this machine: " + " ".join(sorted(set(FORMATS) - set(available()))))
    else:
        sys.exit(__doc__)
