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
*) echo "make.sh: unknown case $case" >&2; exit 2 ;;
esac
