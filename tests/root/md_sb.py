#!/usr/bin/env python3
"""Writes an md superblock by hand into an image (the host kernel has no md):
md_sb.py IMAGE VERSION START_BYTES SIZE_BYTES UUIDHEX
VERSION 1.0: struct mdp_superblock_1 at (size - 8 KiB) & ~4 KiB of the region,
with its checksum (1.1: at the region's start, 1.2: 4 KiB from it); 0.90: mdp_super_t at (size & ~64 KiB) - 64 KiB. The
layouts are the kernel's (include/uapi/linux/raid/md_p.h), written here from
that description; nothing is taken from mdadm's or libblkid's code."""
import struct
import sys

img, ver, start, size, uuid = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), bytes.fromhex(sys.argv[5])
MAGIC = 0xA92B4EFC
if ver in ("1.0", "1.1", "1.2"):
    off = {"1.0": (size - 8192) & ~4095, "1.1": 0, "1.2": 4096}[ver]
    max_dev = 2
    sb = bytearray(256 + 2 * max_dev)
    struct.pack_into("<II", sb, 0, MAGIC, 1)
    sb[16:32] = uuid
    sb[32:40] = b"foreign\0"
    struct.pack_into("<IIQ", sb, 72, 1, 0, (off // 512) - 0)       # level 1, layout, size (sectors)
    struct.pack_into("<I", sb, 92, 2)                              # raid_disks
    data_off = 0 if ver == "1.0" else 2048                         # 1 MiB of room before the data on 1.1/1.2
    data_size = (off // 512) if ver == "1.0" else (size // 512 - data_off)
    struct.pack_into("<QQQ", sb, 128, data_off, data_size, off // 512)  # data_offset, data_size, super_offset
    sb[168:184] = bytes(reversed(uuid))                            # device uuid
    struct.pack_into("<Q", sb, 200, 42)                            # events
    struct.pack_into("<Q", sb, 208, 0xFFFFFFFFFFFFFFFF)            # resync_offset: clean
    struct.pack_into("<I", sb, 220, max_dev)
    struct.pack_into("<HH", sb, 256, 0, 1)                         # dev_roles
    words = struct.unpack_from("<%dI" % (len(sb) // 4), sb)
    s = sum(words)
    csum = (s & 0xFFFFFFFF) + (s >> 32)
    struct.pack_into("<I", sb, 216, csum & 0xFFFFFFFF)
elif ver == "0.90":
    off = (size & ~65535) - 65536
    sb = bytearray(4096)
    u = struct.unpack("<4I", uuid)
    struct.pack_into("<IIII", sb, 0, MAGIC, 0, 90, 0)
    struct.pack_into("<I", sb, 20, u[0])
    struct.pack_into("<III", sb, 28, 1, (off // 1024), 2)         # level, size (KiB), nr_disks
    struct.pack_into("<I", sb, 40, 2)                              # raid_disks
    struct.pack_into("<III", sb, 52, u[1], u[2], u[3])
else:
    sys.exit("version 1.0, 1.1, 1.2 or 0.90")
with open(img, "r+b") as f:
    f.seek(start + off)
    f.write(sb)
print(start + off)
