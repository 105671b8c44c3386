#!/usr/bin/env bash
# foreign_check.sh SEED DIR CACHE [WIPE]: one random foreign layout (foreign_gen.py
# build SEED) on a loop device, then storprov against it (root):
#   apply --dry-run and apply exit 2, every planted format is named in the
#   refusal at an offset inside its partition, and the image's data is unchanged (foreign_gen.py sum);
#   with WIPE=wipe: apply --wipe exits 0 and leaves the planned GPT (sgdisk)
#   and the profile's XFS (blkid); otherwise apply --wipe --dry-run exits 0.
# Prints one line "seed S ok|FAIL <why> | <layout>"; exit 0 when ok, 1 when not.
# SP (the storprov binary) and LOCKF (a lock file of the caller's own) may be set.
set -uo pipefail
seed=$1 dir=$2 cache=$3 wipe=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
SP=${SP:-$here/../../build/storprov}
LOCKF=${LOCKF:-$dir/storprov.lock}
gen=$here/foreign_gen.py
rm -rf "$dir/root"
mkdir -p "$dir"
img=$dir/disk.img loop=
verdict() {
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	echo "seed $seed $1 | $(cat "$dir/layout.json" 2>/dev/null)"
	[ "$1" = ok ]
	exit
}
python3 "$gen" build "$seed" "$img" "$cache" >"$dir/layout.json" 2>"$dir/gen.err" ||
	verdict "FAIL generator: $(tail -1 "$dir/gen.err")"
loop=$(losetup -f --show "$img") || verdict "FAIL losetup"
n=$(basename "$loop")
cat >"$dir/p.xml" <<XML
<?xml version="1.0"?>
<profile version="1" name="foreign-random">
  <disks id="lun" count="1">
    <match name="$n"/>
    <hwraid level="5" members="4" chunk="64K"/>
    <gpt><partition id="data" size="100%"/></gpt>
  </disks>
  <xfs on="lun.data" label="lun" mountpoint="/data"/>
</profile>
XML
sp() { "$SP" apply --profile "$dir/p.xml" --root "$dir/root" --yes --seed 1 --lock-file "$LOCKF" "$@"; }
before=$(python3 "$gen" sum "$img")
sp --dry-run >"$dir/dry.out" 2>&1
rc=$?
[ $rc -eq 2 ] || verdict "FAIL dry run exit $rc: $(grep -m1 -i 'refus\|carries\|error' "$dir/dry.out")"
sp >"$dir/apply.out" 2>&1
rc=$?
blockdev --flushbufs "$loop" 2>/dev/null
[ "$(python3 "$gen" sum "$img")" = "$before" ] || verdict "FAIL image changed (apply exit $rc)"
[ $rc -eq 2 ] || verdict "FAIL apply exit $rc"
[ ! -e "$dir/root/etc/fstab" ] || verdict "FAIL fstab written"
why=$(python3 "$gen" named "$dir/layout.json" "$dir/apply.out" 2>&1) || verdict "FAIL $why"
if [ "$wipe" = wipe ]; then
	sp --wipe >"$dir/wipe.out" 2>&1
	rc=$?
	[ $rc -eq 0 ] || verdict "FAIL apply --wipe exit $rc: $(tail -1 "$dir/wipe.out")"
	blockdev --flushbufs "$loop"
	[ "$(blkid -p -o value -s PTTYPE "$loop")" = gpt ] || verdict "FAIL no GPT after --wipe"
	s=$(sgdisk -i 1 "$loop" | sed -n 's/^First sector: \([0-9]*\).*/\1/p')
	[ "$(blkid -p -o value -s LABEL -O $((s * 512)) "$loop")" = lun ] || verdict "FAIL no XFS lun after --wipe"
else
	sp --wipe --dry-run >"$dir/wipe.out" 2>&1
	rc=$?
	[ $rc -eq 0 ] || verdict "FAIL apply --wipe --dry-run exit $rc: $(tail -1 "$dir/wipe.out")"
fi
verdict ok
