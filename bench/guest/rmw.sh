#!/bin/bash
# Benchmark 1 (guest): read-modify-write on a parity layout, storprov's layout
# ("sp", disks s0..) against the usual default ("def", disks d0..) in one boot.
#   BENCH_CASE   raid5 | raid6 | lvm-raid6 | part-raid5 | loop-lun | loop-lun-wb
#                loop-lun-wb (issue 43 item 2): the loop-lun pair (no cache) and
#                a second pair (disks ws0.., wd0..) whose md arrays sit behind
#                dm-writecache (cache disks wc0, wc1), the loop on top; the
#                variants of BENCH_SF_VARIANTS run on both, R lines tagged
#                case=loop-lun and case=loop-lun-wb; all four loop devices with
#                logical sectors of BENCH_WB_SECTOR bytes (default 4096, see wc_create)
#   BENCH_WB_OPTS  dm-writecache's optional arguments (default: high_watermark
#                50 low_watermark 45 max_age 4000 pause_writeback 0; see wc_create)
#   BENCH_MB     MiB written per workload and layout (default 96)
#   BENCH_REPS   paired repetitions (default 1; order alternates)
#   BENCH_SWALLOC_MB / BENCH_SWALLOC_REPS   loop-lun only: the buffered
#                streaming write with fsync, in four variants (0 reps: skip)
#   BENCH_SWALLOC_VARIANTS   default "def sp sp-noswalloc sp-defopts"
#   BENCH_SWALLOC_FILES=1    also the stripe-sized buffered files per variant
#   BENCH_SF_REPS / BENCH_SF_VARIANTS / BENCH_SF_WORKLOADS   where
#                stripefiles' reads come from: workloads (default "stripefiles
#                direct") on variants of both layouts (default "def sp
#                sp-noswalloc"; 0 reps, the default: skip; see sf_variant)
. /usr/lib/bench/lib.sh
# shellcheck source=bench/guest/wcache.sh
. /usr/lib/bench/wcache.sh
set -u
case=${BENCH_CASE:?}
mb=${BENCH_MB:-96}
reps=${BENCH_REPS:-1}
wss=${BENCH_WB_SECTOR:-4096}

case $case in
raid5 | part-raid5 | loop-lun | loop-lun-wb) n=4 level=5 ;;
raid6 | lvm-raid6) n=6 level=6 ;;
*) die "unknown case $case" ;;
esac
data=$((n - (level == 6 ? 2 : 1)))
stripe_k=$((64 * data))
read -r -a S <<<"$(disks s "$n")" || exit 1
read -r -a D <<<"$(disks d "$n")" || exit 1
kv CASE "$case"
kv STRIPE_KB "$stripe_k"

# rev_words "W1 W2 ...": the words in reverse order (a repetition's order)
rev_words() { echo "$1" | tr ' ' '\n' | tac | tr '\n' ' '; }

# ---- the two layouts -------------------------------------------------------
MNT_sp=/target/bench
MNT_def=/mnt/def
case $case in
raid5 | raid6)
	sp_apply "$BP/$case.xml"
	md_create def "$level" "${D[@]}"
	md_wait /dev/md/sp /dev/md/def
	default_fs /dev/md/def "$MNT_def"
	;;
lvm-raid6)
	sp_apply "$BP/lvm-raid6.xml"
	md_create def 6 "${D[@]}"
	md_wait /dev/md/sp /dev/md/def
	lvm pvcreate -q /dev/md/def >/dev/null && lvm vgcreate -q defvg /dev/md/def >/dev/null &&
		lvm lvcreate -q -y -l 80%VG -n vol defvg >/dev/null || die "lvm (default) failed"
	udevadm settle
	default_fs /dev/defvg/vol "$MNT_def"
	kv SP_PE_START "$(lvm pvs --noheadings --nosuffix --units b -o pe_start /dev/md/sp | tr -d ' ')"
	kv DEF_PE_START "$(lvm pvs --noheadings --nosuffix --units b -o pe_start /dev/md/def | tr -d ' ')"
	;;
part-raid5)
	# "sp": storprov's partitioned md (bench/profiles/part-raid5.xml: a GPT
	# on the array, the partition on 3 MiB = lcm(1 MiB, 192 KiB)); "def" as
	# parted and mkfs.xfs do it (1 MiB start, autodetected geometry)
	sp_apply "$BP/part-raid5.xml"
	md_create def 5 "${D[@]}"
	md_wait /dev/md/sp /dev/md/def
	p=$(default_part "$(readlink -f /dev/md/def)")
	default_fs "$p" "$MNT_def"
	;;
loop-lun | loop-lun-wb)
	# the "hardware RAID": identical md RAID5 arrays, each exported through a
	# loop device with direct I/O, which shows io_min 512 and io_opt 0
	md_create lsp 5 "${S[@]}"
	md_create ldef 5 "${D[@]}"
	if [ "$case" = loop-lun-wb ]; then
		read -r -a WS <<<"$(disks ws "$n")" || exit 1
		read -r -a WD <<<"$(disks wd "$n")" || exit 1
		md_create wsp 5 "${WS[@]}"
		md_create wdef 5 "${WD[@]}"
	fi
	md_wait /dev/md/*
	# loop-lun-wb: every LUN of the boot with the cache's block size as its
	# sector size (a 4Kn LUN; on a 512e LUN mkfs.xfs takes 4 KiB sectors too)
	lss=()
	[ "$case" != loop-lun-wb ] || lss=(--sector-size "$wss")
	l0=$(losetup --direct-io=on "${lss[@]}" -P --show -f "$(readlink -f /dev/md/lsp)") || die "losetup"
	l1=$(losetup --direct-io=on "${lss[@]}" -P --show -f "$(readlink -f /dev/md/ldef)") || die "losetup"
	[ "$l0" = /dev/loop0 ] || die "expected loop0, got $l0"
	kv LOOP_DIO "$(cat /sys/block/loop0/loop/dio)"
	kv LOOP_IO_OPT "$(cat /sys/block/loop0/queue/optimal_io_size)"
	kv LOOP_SECTOR "$(cat /sys/block/loop0/queue/logical_block_size)"
	udevadm settle
	sp_apply "$BP/loop-lun.xml"
	p=$(default_part "$l1")
	default_fs "$p" "$MNT_def"
	if [ "$case" = loop-lun-wb ]; then
		# the LUN with a controller's write-back cache: dm-writecache (SSD
		# mode) on a small virtio disk in front of the md array,
		# the loop device on top as for the LUN without one
		modprobe dm_writecache || die "modprobe dm_writecache"
		kv WB_CACHE_MB "${BENCH_WB_CACHE_MB:-}"
		wc_create wcsp /dev/md/wsp "$(disk_by_serial wc0)" "$wss"
		wc_create wcdef /dev/md/wdef "$(disk_by_serial wc1)" "$wss"
		l2=$(losetup --direct-io=on "${lss[@]}" -P --show -f /dev/mapper/wcsp) || die "losetup"
		l3=$(losetup --direct-io=on "${lss[@]}" -P --show -f /dev/mapper/wcdef) || die "losetup"
		[ "$l2" = /dev/loop2 ] || die "expected loop2, got $l2"
		kv WB_LOOP_IO_OPT "$(cat /sys/block/loop2/queue/optimal_io_size)"
		udevadm settle
		cp /tmp/report.json /tmp/report-nc.json
		sp_apply "$BP/loop-lun-wb.xml" /target2
		cp /tmp/report.json /tmp/report-wb.json
		p=$(default_part "$l3")
		default_fs "$p" /mnt/wdef
		wc_status_kv WC_STATUS_SETUP
	fi
	;;
esac
# the members whose reads count: the disks under the parity layer, counted
# once (for loop-lun not the md array under the loop too: every read of it
# reaches the disks as well)
MEM_sp="${S[*]}"
MEM_def="${D[*]}"
for l in sp def; do
	m=MNT_$l
	xfs_facts "$(echo $l | tr a-z A-Z)" "${!m}"
done
if [ "$case" = loop-lun-wb ]; then
	xfs_facts WB_SP /target2/bench
	xfs_facts WB_DEF /mnt/wdef
fi
kv SP_MD_STRIPE_CACHE "$(cat /sys/block/md*/md/stripe_cache_size 2>/dev/null | tr '\n' ' ')"

# ---- workloads -------------------------------------------------------------
# stripefiles KEYS MB MNT MEMBERS TOP: 4 writers of buffered files of 0.75 to
# 1.5 full stripes (MB MiB in all), written whole, fsync at the end, in MNT/w
stripefiles() {
	local nf=$(($2 * 1024 / stripe_k / 4))
	measure "$1 bytes=$((nf * 4 * stripe_k * 9 / 8 * 1024))" "$4" "$5" -- \
		fio_run "$(echo "$1" | tr ' ' .)" --name=files --directory="$3/w" --ioengine=psync \
		--rw=write --bs=64k --nrfiles=$nf --filesize=$((stripe_k * 3 / 4))k-$((stripe_k * 3 / 2))k \
		--file_service_type=sequential --numjobs=4 --fallocate=none --end_fsync=1 --group_reporting
}

# wl LAYOUT REP NAME: one workload on one layout; files removed afterwards
wl() {
	local m mnt mem
	m=MNT_$1 mnt=${!m}
	m=MEM_$1 mem=${!m}
	wl_on "$1" "$mnt" "$mem" "$2" "$3" "$3"
}

# wl_on LABEL MOUNTPOINT MEMBERS REP NAME TAG: workload NAME in MOUNTPOINT/w,
# its R line tagged layout=LABEL wl=TAG
wl_on() {
	local l=$1 mnt=$2 mem=$3 rep=$4 name=$5 tag=$6 top jobs bs per
	top=$(srcdev "$mnt")
	mkdir -p "$mnt/w"
	drop_caches
	case $name in
	direct | direct-ext)
		# several writers, O_DIRECT, one full stripe a write (two for the
		# LUN stand-in, as the reference measurement: 384 KiB). "direct":
		# files preallocated first (fio's default, fallocate=native), so
		# only data is written; "direct-ext": every write extends the file
		# (fallocate=none), so each one also commits a log transaction
		jobs=4 bs=$stripe_k fa=native
		case $case in loop-lun*) bs=$((2 * stripe_k)) ;; esac
		[ "$name" = direct ] || fa=none
		per=$((mb * 1024 / jobs / bs * bs))
		measure "case=$case wl=$tag layout=$l rep=$rep bytes=$((per * jobs * 1024))" "$mem" "$top" -- \
			fio_run "$case.$tag.$l.$rep" --name=direct --directory="$mnt/w" --ioengine=psync --direct=1 \
			--rw=write --bs="${bs}k" --size="${per}k" --numjobs=$jobs --fallocate=$fa --group_reporting
		;;
	stripefiles) stripefiles "case=$case wl=$tag layout=$l rep=$rep" "$mb" "$mnt" "$mem" "$top" ;;
	streams)
		# many buffered streams of large files (seed 000's load, scaled down)
		jobs=8 per=$((mb / 8))
		measure "case=$case wl=$tag layout=$l rep=$rep bytes=$((per * jobs * 1048576))" "$mem" "$top" -- \
			fio_run "$case.$tag.$l.$rep" --name=streams --directory="$mnt/w" --ioengine=psync \
			--rw=write --bs=1m --size="${per}m" --numjobs=$jobs --fallocate=none --end_fsync=1 --group_reporting
		;;
	esac
	rm -rf "$mnt/w"
	sync
}

for ((rep = 1; rep <= reps; rep++)); do
	for w in direct direct-ext stripefiles streams; do
		if ((rep % 2)); then order="sp def"; else order="def sp"; fi
		for l in $order; do wl "$l" "$rep" "$w" || exit 1; done
	done
done

# ---- the regression to explain: buffered streaming write + fsync -------------
sreps=${BENCH_SWALLOC_REPS:-0}
smb=${BENCH_SWALLOC_MB:-512}
if [ "$case" = loop-lun ] && [ "$sreps" -gt 0 ]; then
	dev_sp=$(srcdev "$MNT_sp")
	opts_sp=$(awk -v m="$MNT_sp" '$2 == m { print $4 }' /proc/mounts | tail -1)
	kv SWALLOC_SP_OPTS "$opts_sp"
	# variant: layout + mount options (mount -o given explicitly, so the
	# result does not depend on what a remount keeps)
	sp_opts=noatime,logbufs=8,logbsize=256k,swalloc
	remount_sp() {
		umount "$MNT_sp" && mount -t xfs -o "$1" "$dev_sp" "$MNT_sp" || die "remount $1"
	}
	stream() { # VARIANT REP
		local l=sp mnt mem top v=$1 f
		[ "$v" != def ] || l=def
		case $v in
		sp) remount_sp "$sp_opts" ;;
		sp-noswalloc) remount_sp noatime,logbufs=8,logbsize=256k ;;
		sp-defopts) remount_sp defaults ;;
		esac
		local m=MNT_$l
		mnt=${!m}
		m=MEM_$l
		mem=${!m}
		top=$(srcdev "$mnt")
		f=$mnt/stream.$2
		drop_caches
		measure "case=swalloc wl=stream layout=$v rep=$2 bytes=$((smb * 1048576))" "$mem" "$top" -- \
			xfs_io -f -c "pwrite -q -b 1m 0 ${smb}m" -c fsync "$f"
		# extent layout: count, and how many start off a stripe-width boundary
		xfs_io -r -c "bmap -v" "$f" >/tmp/bmap.txt
		local sw_blocks=$((stripe_k * 2)) ext unal
		ext=$(awk '/^ *[0-9]+:/ && $3 != "hole" { n++ } END { print n + 0 }' /tmp/bmap.txt)
		unal=$(awk -v sw="$sw_blocks" -v off="$(cat "/sys/class/block/$(basename "$(readlink -f "$top")")/start" 2>/dev/null || echo 0)" \
			'/^ *[0-9]+:/ && $3 != "hole" { split($3, a, "[.][.]"); if ((a[1] + off) % sw) u++ } END { print u + 0 }' /tmp/bmap.txt)
		echo "X case=swalloc layout=$v rep=$2 extents=$ext unaligned_to_full_stripe=$unal"
		if [ "$2" = 1 ]; then sed "s/^/BMAP $v | /" /tmp/bmap.txt | head -20; fi
		rm -f "$f"
		sync
		if [ "${BENCH_SWALLOC_FILES:-0}" = 1 ]; then
			mkdir -p "$mnt/w"
			drop_caches
			stripefiles "case=swalloc wl=stripefiles layout=$v rep=$2" 96 "$mnt" "$mem" "$top"
			rm -rf "$mnt/w"
			sync
		fi
	}
	variants=${BENCH_SWALLOC_VARIANTS:-def sp sp-noswalloc sp-defopts}
	reversed=$(rev_words "$variants")
	for ((rep = 1; rep <= sreps; rep++)); do
		if ((rep % 2)); then order=$variants; else order=$reversed; fi
		for v in $order; do stream "$v" "$rep" || exit 1; done
	done
	remount_sp "$sp_opts"
fi
# ---- where stripefiles' reads come from: one change at a time ----------------
# sf_variant VARIANT REP: the workloads BENCH_SF_WORKLOADS on one variant of a
# layout, each variant one change against sp or def, undone afterwards
#   sp-noswalloc  what <xfs swalloc="false"> mounts: storprov's options without swalloc
#   sp-defopts    default mount options      sp-sc256  the kernel's stripe cache (256)
#   *-extsz       a directory extent size hint of one full stripe (every file stripe-aligned)
#   *-allocsz     mount option allocsize=<full stripe>
#   sp-lsu4k      storprov's mkfs.xfs line again with -l su=4k (no log stripe unit)
#   sp-lsusu      the same with the log stripe unit = the data stripe unit (what
#                 mkfs.xfs does without -l su, and storprov did before issue 34)
#   sp-notune     loop-lun: storprov's LUN with the default LUN's queue settings
#                 (read_ahead_kb, nr_requests, max_sectors_kb, scheduler)
#   def-spgeom    the default's filesystem made again with storprov's mkfs.xfs
#                 geometry (its -d/-l options from the report), default mount;
#                 def-spdata only its -d options (and -l su=4k, else the log
#                 inherits the data sunit), def-splog only its -l options
#   def-spopts    the default's filesystem mounted with storprov's options
#                 (sunit/swidth left out: those are geometry)
# queue_copy FROM TO: FROM's queue settings written to TO; the old ones printed
queue_copy() {
	local a old=""
	for a in scheduler read_ahead_kb nr_requests max_sectors_kb; do
		old+="$a=$(sed -n 's/.*\[\(.*\)\].*/\1/p;t;p' "/sys/block/$2/queue/$a") "
		sed -n 's/.*\[\(.*\)\].*/\1/p;t;p' "/sys/block/$1/queue/$a" >"/sys/block/$2/queue/$a" 2>/dev/null || true
	done
	echo "$old"
}
queue_set() { # DEV "a=v a=v ..."
	local kv
	for kv in $2; do echo "${kv#*=}" >"/sys/block/$1/queue/${kv%%=*}" 2>/dev/null || true; done
}
sf_variant() {
	local v=$1 l=${1%%-*} m mnt mem dev opts md sc="" w
	m=MNT_$l mnt=${!m}
	m=MEM_$l mem=${!m}
	dev=$(srcdev "$mnt")
	opts=$(awk -v m="$mnt" '$2 == m { print $4 }' /proc/mounts | tail -1)
	# storprov's array: the one with the profile's stripe cache (4096)
	md=$(grep -l '^4096$' /sys/block/md*/md/stripe_cache_size 2>/dev/null | head -1)
	local saved=""
	case $v in
	sp-notune) saved=$(queue_copy loop1 loop0) ;;
	def-spgeom | def-spdata | def-splog)
		local geo pat='-(d|l) [^ ]+'
		[ "$v" != def-spdata ] || pat='-d [^ ]+'
		[ "$v" != def-splog ] || pat='-l [^ ]+'
		geo=$(jq -r '[.objects[].steps[]? | select(.argv | length > 0) | .argv[0] | select(startswith("mkfs.xfs "))][0]' /tmp/report.json |
			grep -oE -- "$pat" | tr '\n' ' ')
		# without -l a v2 log inherits the data sunit as its log su: 4k keeps it unstriped
		[ "$v" != def-spdata ] || geo+="-l su=4k"
		# shellcheck disable=SC2086 # the options are words
		umount "$mnt" && mkfs.xfs -f -q $geo "$dev" >/dev/null && mount -t xfs "$dev" "$mnt" || die "$v: mkfs.xfs $geo"
		kv "SF_GEOM_${v//-/_}" "$geo"
		;;
	def-spopts)
		local so
		so=$(awk -v m="$MNT_sp" '$2 == m { print $4 }' /proc/mounts | tail -1 | tr ',' '\n' | grep -vE '^(sunit|swidth)=' | paste -sd,)
		umount "$mnt" && mount -t xfs -o "$so" "$dev" "$mnt" || die "def-spopts: mount -o $so"
		;;
	sp-lsu4k | sp-lsusu)
		# storprov's own mkfs.xfs line again (the same UUID and label), its log
		# stripe unit 4k or the data stripe unit (-d su=, else -d sunit= sectors)
		local line lsu=4k
		line=$(jq -r '[.objects[].steps[]? | select(.argv | length > 0) | .argv[0] | select(startswith("mkfs.xfs "))][0]' /tmp/report.json)
		if [ "$v" = sp-lsusu ]; then
			lsu=$(grep -oE -- '-d [^ ]*su=[0-9]+[kmgs]?' <<<"$line" | sed 's/.*su=//')
			[ -n "$lsu" ] || lsu=$(($(grep -oE -- '-d [^ ]*sunit=[0-9]+' <<<"$line" | sed 's/.*sunit=//') / 2))k
		fi
		line=$(sed -E "s/-l version=2,su=[^ ]+/-l version=2,su=$lsu/; s/ [^ ]+\$//" <<<"$line")
		grep -q -- "-l version=2,su=$lsu" <<<"$line" || die "$v: no -l su in $line"
		# shellcheck disable=SC2086 # the options are words
		umount "$mnt" && $line -f -q "$dev" >/dev/null && mount -t xfs -o "$opts" "$dev" "$mnt" || die "$v: $line"
		kv "SF_MKFS_${v//-/_}" "$line"
		;;
	sp-sc256) sc=$md; [ -z "$sc" ] || echo 256 >"$sc" ;;
	sp-defopts) umount "$mnt" && mount -t xfs "$dev" "$mnt" || die "remount" ;;
	sp-noswalloc) umount "$mnt" && mount -t xfs -o "${opts//,swalloc/}" "$dev" "$mnt" || die "remount" ;;
	*-allocsz) umount "$mnt" && mount -t xfs -o "$opts,allocsize=${stripe_k}k" "$dev" "$mnt" || die "remount" ;;
	esac
	kv "SF_OPTS_${v//-/_}" "$(awk -v m="$mnt" '$2 == m { print $4 }' /proc/mounts | tail -1)"
	for w in ${BENCH_SF_WORKLOADS:-stripefiles direct}; do
		mkdir -p "$mnt/w"
		case $v in *-extsz) xfs_io -c "extsize ${stripe_k}k" "$mnt/w" || die "extsize" ;; esac
		wl_on "$v" "$mnt" "$mem" "$2" "$w" "$w-v" || return 1
	done
	[ -z "$sc" ] || echo 4096 >"$sc"
	[ -z "$saved" ] || queue_set loop0 "$saved"
	case $v in
	sp-defopts | sp-noswalloc | *-allocsz | def-spopts) umount "$mnt" && mount -t xfs -o "$opts" "$dev" "$mnt" || die "remount back" ;;
	def-spgeom | def-spdata | def-splog) umount "$mnt" && default_fs "$dev" "$mnt" ;;
	sp-lsu4k | sp-lsusu)
		line=$(jq -r '[.objects[].steps[]? | select(.argv | length > 0) | .argv[0] | select(startswith("mkfs.xfs "))][0]' /tmp/report.json)
		line=${line% *}
		# shellcheck disable=SC2086 # the options are words
		umount "$mnt" && $line -f -q "$dev" >/dev/null && mount -t xfs -o "$opts" "$dev" "$mnt" || die "$v: back"
		;;
	esac
}
# lun_use nc|wb (loop-lun-wb): the variants' LUN pair, without a cache (R lines
# case=loop-lun) or behind dm-writecache (case=loop-lun-wb, every measurement
# waits for the cache to write back: wc_hook)
lun_use() {
	if [ "$1" = nc ]; then
		case=loop-lun MNT_sp=/target/bench MNT_def=/mnt/def MEM_sp="${S[*]}" MEM_def="${D[*]}" MEASURE_HOOK=""
	else
		case=loop-lun-wb MNT_sp=/target2/bench MNT_def=/mnt/wdef MEM_sp="${WS[*]}" MEM_def="${WD[*]}" MEASURE_HOOK=wc_hook
	fi
	cp "/tmp/report-$1.json" /tmp/report.json
}
sfreps=${BENCH_SF_REPS:-0}
luns=""
[ "$case" != loop-lun-wb ] || luns="nc wb"
if [ "$sfreps" -gt 0 ]; then
	variants=${BENCH_SF_VARIANTS:-def sp sp-noswalloc}
	reversed=$(rev_words "$variants")
	for ((rep = 1; rep <= sfreps; rep++)); do
		if ((rep % 2)); then order=$variants lorder=$luns; else order=$reversed lorder=$(rev_words "$luns"); fi
		for lun in ${lorder:-one}; do
			[ "$lun" = one ] || lun_use "$lun"
			for v in $order; do sf_variant "$v" "$rep" || exit 1; done
		done
	done
fi
if [ -n "$luns" ]; then
	wc_status_kv WC_STATUS_END
	umount /mnt/wdef 2>/dev/null
fi
umount "$MNT_def" 2>/dev/null
exit 0
