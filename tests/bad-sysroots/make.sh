#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make.sh CASE OUTDIR SECRETDIR: builds the hostile captured tree CASE in
# OUTDIR from tests/fixtures/sysroot/grid-3ware (sda boot disk, sdb and sdc
# the two AMCC LUNs that profiles/grid-3ware-raid5.xml tunes). Links that
# point out of the tree point into SECRETDIR, which holds a "secret" file and
# a plausible disk directory. The cases are generated rather than stored
# because several need absolute links and names git cannot hold well.
set -euo pipefail
case=$1 out=$2 secret=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"
mkdir -p "$(dirname "$out")"
cp -r "$top/tests/fixtures/sysroot/grid-3ware" "$out"
mkdir -p "$secret"
printf 'root:$6$SECRET-SHADOW-LINE:19000:0:99999:7:::\n' >"$secret/secret"
U="$out/run/udev/data"
B="$out/sys/block"
# set_prop DEV KEY VALUE: replaces (or adds) E:KEY= in the udev record of DEV (8:16 = sdb, 8:32 = sdc)
set_prop() {
	local f="$U/b$1" tmp
	tmp=$(grep -v "^E:$2=" "$f" || true)
	printf '%s\nE:%s=%s\n' "$tmp" "$2" "$3" >"$f"
}
del_prop() {
	local f="$U/b$1" tmp
	tmp=$(grep -v "^E:$2=" "$f" || true)
	printf '%s\n' "$tmp" >"$f"
}
inject='*", RUN+="/usr/bin/touch /tmp/storprov-pwned", ENV{DEVTYPE}=="disk'
case $case in
serial-injection)   # no WWN; a serial that closes the match and adds RUN
	for d in 8:16 8:32; do del_prop $d ID_WWN; set_prop $d ID_SERIAL "$inject"; done
	rm -f "$B"/sd[bc]/device/wwid ;;
serial-star)        # a serial of "*" would match every disk
	for d in 8:16 8:32; do del_prop $d ID_WWN; set_prop $d ID_SERIAL '*'; done
	rm -f "$B"/sd[bc]/device/wwid ;;
wwn-glob)           # a WWN with a glob class
	set_prop 8:16 ID_WWN '0x600050e04ab71d0[0-9]'
	set_prop 8:32 ID_WWN '0x600050e04ab9260?' ;;
wwn-newline)        # a literal backslash-n and a quote in the WWN, a newline cannot survive the E: line format
	set_prop 8:16 ID_WWN '0x6000\n"RUN+="x'
	set_prop 8:32 ID_WWN 'x", RUN+="/bin/sh' ;;
path-only)          # WWN and serial unsafe: ID_PATH is next
	for d in 8:16 8:32; do set_prop $d ID_WWN '*'; set_prop $d ID_SERIAL 'a b'; done ;;
wwid-only)          # no udev identity at all, a non-NAA wwid: the kernel's wwid attribute (ATTRS{wwid})
	for d in 8:16 8:32; do del_prop $d ID_WWN; del_prop $d ID_SERIAL; del_prop $d ID_SERIAL_SHORT; del_prop $d ID_PATH; done
	printf 'eui.0025385b71b0a1f2\n' >"$B/sdb/device/wwid"
	printf 'eui.0025385b71b0a1f3\n' >"$B/sdc/device/wwid" ;;
all-unsafe)         # nothing usable: no rule, a warning
	for d in 8:16 8:32; do set_prop $d ID_WWN '*'; set_prop $d ID_SERIAL '*'; set_prop $d ID_PATH 'pci-*'; done
	printf 't10.AMCC    9550SX DISK *\n' >"$B/sdb/device/wwid"
	printf 't10.AMCC    9550SX DISK *\n' >"$B/sdc/device/wwid" ;;
model-newline)      # a model with a newline and udev syntax; a hostile vendor
	printf '9550SX\nRUN+="/bin/sh"\n' >"$B/sdb/device/model" ;;
model-symlink-out)  # an attribute linked out of the tree must not be read
	rm "$B/sdb/device/model" "$B/sdc/device/vendor"
	ln -s "$secret/secret" "$B/sdb/device/model"
	ln -s "$secret/secret" "$B/sdc/device/vendor" ;;
udev-data-symlink)  # the udev record linked out of the tree
	cp "$U/b8:16" "$secret/b8:16"
	sed -i 's/^E:ID_WWN=.*/E:ID_WWN=0xOUTSIDE0000000000/' "$secret/b8:16"
	rm "$U/b8:16"
	ln -s "$secret/b8:16" "$U/b8:16" ;;
block-symlink-out)  # sys/block/sdc linked to a disk directory outside the tree
	cp -r "$B/sdc" "$secret/sdc"
	printf 'OUTSIDE-MODEL\n' >"$secret/sdc/device/model"
	rm -rf "$B/sdc"
	ln -s "$secret/sdc" "$B/sdc" ;;
meminfo-symlink)    # proc/meminfo linked to the secret
	rm "$out/proc/meminfo"
	ln -s "$secret/secret" "$out/proc/meminfo" ;;
devname-escape)     # DEVNAME that would make the device node /dev/../etc/passwd
	sed -i 's|^DEVNAME=.*|DEVNAME=../etc/passwd|' "$B/sdb/uevent" ;;
kernel-name-newline) # a kernel name with a newline (a directory name can hold one)
	mv "$B/sdc" "$B/sdc
RUN+=\"x\"" ;;
mountinfo-root-on-lun) # the running system's / is on sdb, a LUN the profile selects
	mkdir -p "$out/proc/self"
	printf '22 1 8:16 / / rw,relatime shared:1 - xfs /dev/sdb rw\n23 22 8:1 / /boot rw - ext3 /dev/sda1 rw\n' \
		>"$out/proc/self/mountinfo" ;;
mountinfo-no-newline) # the same, the root line last and without its newline
	mkdir -p "$out/proc/self"
	printf '23 22 8:1 / /boot rw - ext3 /dev/sda1 rw\n22 1 8:32 / / rw - xfs /dev/sdc rw' >"$out/proc/self/mountinfo" ;;
mountinfo-nul)      # a NUL byte, which the kernel never writes: the table cannot be trusted
	mkdir -p "$out/proc/self"
	printf '22 1 8:2 / / rw - ext3 /dev/sda2 rw\n23 22 8:1 / /bo\0ot rw - ext3 /dev/sda1 rw\n' >"$out/proc/self/mountinfo" ;;
mountinfo-long-line) # an overlay line of 2 MiB (lowerdir= of many layers), then / on sda2
	mkdir -p "$out/proc/self"
	{ printf '30 22 0:50 / /var/lib/containers/storage/overlay/x/merged rw - overlay overlay rw,lowerdir='
	  head -c 2097152 /dev/zero | tr '\0' L
	  printf '\n22 1 8:2 / / rw - ext3 /dev/sda2 rw\n'; } >"$out/proc/self/mountinfo" ;;
mountinfo-bytes)    # mountpoints with a CR, bytes that are not UTF-8, udev syntax and escapes; / on sda2
	mkdir -p "$out/proc/self"
	printf '22 1 8:2 / / rw - ext3 /dev/sda2 rw\n24 22 8:1 / /boot\r rw - ext3 /dev/sda1 rw\n25 22 8:1 / /\377\376",RUN+="x rw - ext3 /dev/sda1 rw\n26 22 8:1 / /a\\040b rw - ext3 /dev/sda1 rw\r\n' \
		>"$out/proc/self/mountinfo" ;;
mountinfo-huge)     # a mount table over 64 MiB
	mkdir -p "$out/proc/self"
	{ printf '22 1 8:2 / / rw - ext3 /dev/sda2 rw\n'; head -c 68000000 /dev/zero | tr '\0' '\n'; } >"$out/proc/self/mountinfo" ;;
mountinfo-symlink)  # proc/self/mountinfo linked to the secret
	mkdir -p "$out/proc/self"
	ln -s "$secret/secret" "$out/proc/self/mountinfo" ;;
swaps-on-lun)       # active swap on sdc, named by a by-id link
	printf 'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/dev/disk/by-id/wwn-0x600050e04ab926008e3100005d170000 partition\t2097148\t0\t-2\n' \
		>"$out/proc/swaps" ;;
cmdline-install-source) # the installer's stage2 on the XFS that sdb carries (ID_FS_UUID), quoted, CR-separated
	printf 'BOOT_IMAGE=vmlinuz\r"inst.stage2=hd:UUID=5D0C2B7E-93A4-4F61-B8D2-0E6F3A91C457:/images" quiet' >"$out/proc/cmdline" ;;
cmdline-nul)        # a NUL byte on the kernel command line
	printf 'ro root=/dev/sda2\0 quiet\n' >"$out/proc/cmdline" ;;
udev-link-injection) # S: lines that climb out, carry a CR, blanks or udev syntax: never names
	for d in 8:16 8:32; do
		printf 'S:../../etc/passwd\nS:disk/by-id/x\r\nS:disk/by-id/a b\nS:disk/by-id/RUN+="/bin/sh"\nS:disk/by-id/./x\nS:/etc/shadow\n' >>"$U/b$d"
	done ;;
dev-links-out)      # links under dev/ that lead out of the tree, loop, or sit behind a linked directory
	mkdir -p "$out/dev/disk/by-id" "$secret/disk-by-path"
	ln -s ../../../../etc/passwd "$out/dev/disk/by-id/climb"
	ln -s "$secret/secret" "$out/dev/disk/by-id/abs-out"
	ln -s loop-b "$out/dev/disk/by-id/loop-a"
	ln -s loop-a "$out/dev/disk/by-id/loop-b"
	ln -s ../../sdb "$secret/disk-by-path/outside-sdb"
	ln -s "$secret/disk-by-path" "$out/dev/disk/by-path"
	ln -s ../../sdc "$out/dev/disk/by-id/site-lun-2" ;;
shared-serial)      # every disk, the OS disk (/ on sda2) too, carries the controller's WWN; the OS disk sdb's serial
	mkdir -p "$out/proc/self"
	printf '22 1 8:2 / / rw - ext3 /dev/sda2 rw\n' >"$out/proc/self/mountinfo"
	for d in 8:0 8:16 8:32; do set_prop $d ID_WWN 0x600050e04ab71d00; done
	set_prop 8:0 ID_SERIAL 3600050e04ab71d001f5a0000c3e80000 ;;
shared-path)        # the same, and the OS disk carries sdb's ID_PATH and wwid too: nothing stable is sdb's alone
	mkdir -p "$out/proc/self"
	printf '22 1 8:2 / / rw - ext3 /dev/sda2 rw\n' >"$out/proc/self/mountinfo"
	for d in 8:0 8:16 8:32; do set_prop $d ID_WWN 0x600050e04ab71d00; done
	set_prop 8:0 ID_SERIAL 3600050e04ab71d001f5a0000c3e80000
	set_prop 8:0 ID_PATH pci-0000:03:00.0-scsi-0:0:0:0
	cp "$B/sdb/device/wwid" "$B/sda/device/wwid" ;;
*) echo "make.sh: unknown case $case" >&2; exit 2 ;;
esac
