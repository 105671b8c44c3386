#!/bin/bash
# Benchmark 1c (guest): read-modify-write under full-stripe writes once files
# land outside allocation group 0. XFS aligns an allocation to the stripe
# width relative to its AG's start, and mkfs.xfs rounds its AG size to the
# stripe unit only (one su short of whole stripes when they would divide), so
# in AG k the "aligned" extents sit k x agsize mod swidth off a stripe.
# storprov now passes -d agsize= of whole stripes on parity arrays.
# "sp": storprov's layout (bench/profiles/raid5.xml: md RAID5 4 x 64 KiB);
# "spnoag": the same md geometry, storprov's mkfs arguments without its
# -d agsize= (mkfs.xfs's own AG size: storprov before the fix), same mount
# options. Rounds: 8 buffered
# streams written and removed (ages the free space), then 4 full-stripe
# O_DIRECT writers into preallocated files (as rmw.sh's "direct").
#   BENCH_ROUNDS (default 3)
. /usr/lib/bench/lib.sh
set -u
rounds=${BENCH_ROUNDS:-3}
read -r -a S <<<"$(disks s 4)" || exit 1
read -r -a D <<<"$(disks d 4)" || exit 1
sp_apply "$BP/raid5.xml"
md_create spnoag 5 "${D[@]}"
md_wait /dev/md/sp /dev/md/spnoag
mk=$(jq -r '[.objects[].steps[] | select(.kind == "mkfs" or (.argv[0] // "" | startswith("mkfs.xfs")))][0].argv[0]' /tmp/report.json)
kv SP_MKFS "$mk"
# storprov's own mkfs argv with its -d agsize= taken out (mkfs.xfs's own AG
# size, as storprov did before it set one), device and uuid swapped
args=$(printf '%s\n' "$mk" | sed "s|-m uuid=[^ ]*||; s|-d agsize=[0-9]*b||; s| /dev/[^ ]*\$||; s|^mkfs.xfs ||")
kv SPNOAG_MKFS "mkfs.xfs -f $args /dev/md/spnoag"
# shellcheck disable=SC2086
mkfs.xfs -f $args "$(readlink -f /dev/md/spnoag)" >/tmp/mkfs.log 2>&1 || { cat /tmp/mkfs.log; die "mkfs spnoag"; }
mkdir -p /mnt/spnoag
mount -t xfs -o noatime,logbufs=8,logbsize=256k,swalloc "$(readlink -f /dev/md/spnoag)" /mnt/spnoag || die "mount spnoag"
declare -A MNT=([sp]=/target/bench [spnoag]=/mnt/spnoag) MEM=([sp]="${S[*]}" [spnoag]="${D[*]}")
for l in sp spnoag; do
	i=$(xfs_info "${MNT[$l]}")
	kv "${l^^}_AGSIZE" "$(printf '%s\n' "$i" | sed -n 's/.*agsize=\([0-9]*\) blks.*/\1/p')"
	kv "${l^^}_SWIDTH" "$(printf '%s\n' "$i" | sed -n '/swidth=/{s/.*swidth=\([0-9]*\).*/\1/p;q}')"
done
for ((r = 1; r <= rounds; r++)); do
	for l in sp spnoag; do
		m=${MNT[$l]}
		top=$(srcdev "$m")
		mkdir -p "$m/w"
		if [ "$r" -gt 1 ]; then
			fio --thread --name=s --directory="$m/w" --rw=write --bs=1m --size=12m --numjobs=8 \
				--fallocate=none --end_fsync=1 >/dev/null 2>&1
			rm -rf "$m/w"
			sync
			mkdir -p "$m/w"
		fi
		drop_caches
		measure "case=agalign wl=direct layout=$l rep=$r bytes=$((4 * 24576 * 1024))" "${MEM[$l]}" "$top" -- \
			fio_run "agalign.$l.$r" --name=direct --directory="$m/w" --ioengine=psync --direct=1 --rw=write \
			--bs=192k --size=24576k --numjobs=4 --fallocate=native --group_reporting
		off=0 n=0
		for f in "$m"/w/direct.*; do
			while read -r s; do
				n=$((n + 1))
				[ $((s % 384)) -eq 0 ] || off=$((off + 1))
			done < <(xfs_io -r -c "bmap -v" "$f" | awk '/^ *[0-9]+:/ && $3 != "hole" { split($3, a, "[.][.]"); print a[1] }')
		done
		echo "X case=agalign layout=$l rep=$r extents=$n unaligned_to_full_stripe=$off ag=$(xfs_io -r -c "bmap -v" "$m"/w/direct.0.0 | awk '/^ *0:/ { print $4 }')"
		rm -rf "$m/w"
		sync
	done
done
exit 0
