#!/bin/bash
# bench/run.sh - run the storprov benchmarks (`make bench`); see bench/README.md.
#
# Usage: bench/run.sh            (as root; after bench/deps.sh and make)
# Environment:
#   BENCH_ONLY="rmw agalign reads sync prov prov-par scale rmw-sweep partial-stripe seek loop-prov"
#                     benchmarks to run (default: all of these; "prov-par" is issue 34's storprov
#                     against serial and xargs -P scripts, 23 minutes at c09f87f; "seek" is issue
#                     43's inspection on disks behind dm-delay, beside wipefs -n and blkid -p;
#                     "loop-prov" is bench/loop-prov.sh on 8 host loop LUNs, storprov against
#                     the serial and the xargs -P script, BENCH_LOOP_REPS=5 repetitions);
#                     "swalloc" adds 10 more sp / sp-noswalloc pairs: BENCH_SWALLOC_REPS;
#                     run only when named: "prov-jobs" (apply --jobs 1/2/8 against the
#                     sfdisk script), "inspect-cost" (where the inspection's time goes) and
#                     "writeback" (issue 43 item 2: the LUN stand-in without and with a
#                     write-back cache, dm-writecache, in one boot; BENCH_WB_CACHE_MB=64
#                     a LUN's cache, BENCH_WB_OPTS its watermarks, BENCH_WB_SECTOR=4096 the
#                     LUNs' sector size and cache block, BENCH_SF_VARIANTS /
#                     BENCH_SF_WORKLOADS / BENCH_SF_REPS as for rmw; latest.json "loop_lun_writeback"))
#   RMW_SEED=N        rmw-sweep and partial-stripe: the seed of their layouts (default: the
#                     time, printed)
#   BENCH_PS_N=8      partial-stripe: layouts (tests/vm/partial-layouts.py --fixed: 1 and 2 are
#                     RAID5 12 x 256K and RAID6 10 x 1M, the rest drawn), one boot
#   BENCH_SWEEP_N=12  rmw-sweep: layouts (tests/vm/rmw-layouts.py); BENCH_SWEEP_PER_BOOT
#                     of them (default all) in one VM boot; BENCH_SWEEP_PROBE=0 skips the
#                     diagnosis of md layers (storprov's md again with an aligned data offset)
#   BENCH_SEEK_N=60   seek: disks (slices of BENCH_SEEK_GIB=4 GiB of sparse virtio disks, 20 a
#                     virtio disk, each behind dm-delay and a direct-I/O loop device);
#                     BENCH_SEEK_MS=8 the delay a request; BENCH_SEEK_REPS=3 repetitions;
#                     BENCH_SEEK_BEFORE=/path/to/storprov: that build too, as bin=a, in the boot
#   BENCH_CASES="raid5 raid6 lvm-raid6 part-raid5 loop-lun"   rmw layouts
#   BENCH_QUICK=1     smaller data, fewer repetitions (about 15 minutes)
#   BENCH_OUT=DIR     results directory (default bench/results)
#   BENCH_RAW=DIR     raw outputs (default build/bench/raw; every *.out there
#                     goes into the report, so a subset run adds to earlier ones)
# Each VM boot writes its raw output to build/bench/raw/NAME.out; bench/report.py
# turns every raw file into latest.json, latest.md and latest.png.
set -euo pipefail
# shellcheck source=tests/vm/lib.bash
. "$(dirname -- "${BASH_SOURCE[0]}")/../tests/vm/lib.bash"
# shellcheck source=tests/vm/scenarios.bash
. "$VM_DIR/scenarios.bash"
top=$VM_TOP
# the figures in bench/ were measured with multi-threaded TCG (tests/vm/run-vm.sh --tcg-thread)
export VM_TCG_THREAD=${VM_TCG_THREAD:-multi}
# and QEMU's own translation cache size (run-vm.sh --tb-size 0)
export VM_TB_SIZE=${VM_TB_SIZE:-0}
out=${BENCH_OUT:-$top/bench/results}
raw=${BENCH_RAW:-$top/build/bench/raw}
only=${BENCH_ONLY:-rmw agalign reads sync prov prov-par scale rmw-sweep partial-stripe seek loop-prov}
cases=${BENCH_CASES:-raid5 raid6 lvm-raid6 part-raid5 loop-lun}
quick=${BENCH_QUICK:-0}
if [ "$quick" = 1 ]; then
	MB=48 REPS=${BENCH_RMW_REPS:-3} SW_MB=256 SW_REPS=3 RD_MB=8 SY_SEC=8 SY_REPS=1 PROV_REPS=1 PP_REPS=2 AG_ROUNDS=3 SWEEP_MB=96 PS_MB=32
else
	MB=96 REPS=${BENCH_RMW_REPS:-5} SW_MB=512 SW_REPS=${BENCH_SWALLOC_REPS:-4} RD_MB=16 SY_SEC=15 SY_REPS=2 PROV_REPS=1 PP_REPS=5 AG_ROUNDS=4 SWEEP_MB=160 PS_MB=64
fi
mkdir -p "$out" "$raw"
log() { printf 'bench: %s\n' "$*" >&2; }
# the code version every raw output names (bench/report.py never pools
# outputs of different versions): the commit, "+dirty" if tracked files differ
commit=$(git -C "$top" rev-parse HEAD 2>/dev/null || echo unknown)
[ -z "$(git -C "$top" status --porcelain -uno 2>/dev/null)" ] || commit=$commit+dirty
run_id=$(date -u +%Y%m%dT%H%M%SZ)-$$
export BENCH_COMMIT=$commit BENCH_RUN_ID=$run_id
# host load average (1, 5, 15 min) as one token
load() { awk '{ print $1 "/" $2 "/" $3 }' /proc/loadavg; }

log "preparing the VM image (kernel, busybox initramfs, storprov, fio)"
prep=(--udev --add "$top/build/storprov:/usr/sbin/storprov" --add "$(command -v fio):/usr/bin/fio" --add "$(command -v jq):/usr/bin/jq")
vm_prepare "${prep[@]}"

# boot NAME TIMEOUT SCRIPT [run-vm.sh args]: one VM, raw output kept
boot() {
	local name=$1 to=$2 script=$3 rc=0
	shift 3
	local disks=$top/build/bench/disks-$name
	mkdir -p "$disks/p" # its images: dset or dset_gpt, which remove old ones
	log "$name: booting (timeout ${to}s)"
	local t0=$SECONDS l0 d0
	l0=$(load) d0=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	vm_run "$script" --mem 2048 --timeout "$to" --log "$raw/$name.console" \
		--add "$top/bench/guest:/usr/lib/bench" --add "$top/bench/profiles:/usr/lib/bench/profiles" \
		--add "$VM_DIR/scenarios:/usr/lib/storprov-tests" \
		"$@" >"$raw/$name.out" 2>"$raw/$name.err" || rc=$?
	echo "BOOT name=$name rc=$rc wall_s=$((SECONDS - t0)) commit=$commit run=$run_id time=$d0" \
		"time_end=$(date -u +%Y-%m-%dT%H:%M:%SZ) load_start=$l0 load_end=$(load) nproc=$(nproc)" >>"$raw/$name.out"
	rm -rf "$disks"
	log "$name: rc=$rc in $((SECONDS - t0))s"
	return 0
}
# dset NAME PREFIX COUNT SIZE: boot NAME's disks PREFIX0..; images left by an
# earlier run are removed (run-vm.sh keeps an image that exists).
# dset_gpt NAME PREFIX COUNT SIZE PARTED-ARGS...: made with a GPT on the host
dset() {
	mkdir -p "$top/build/bench/disks-$1" && rm -f "$top/build/bench/disks-$1/$2"[0-9]*.img &&
		vm_disks "$top/build/bench/disks-$1" "$2" "$3" "$4"
}
dset_gpt() {
	local name=$1
	shift
	mkdir -p "$top/build/bench/disks-$name" && vm_disks_gpt "$top/build/bench/disks-$name" "$@"
}

for b in $only; do
	case $b in
	rmw)
		for c in $cases; do
			n=4
			case $c in raid6 | lvm-raid6) n=6 ;; esac
			env=(--env BENCH_CASE="$c" --env BENCH_MB="$MB" --env BENCH_REPS="$REPS")
			[ "$c" != loop-lun ] || env+=(--env BENCH_SWALLOC_MB="$SW_MB" --env BENCH_SWALLOC_REPS="$SW_REPS")
			# the swalloc trade-off (section 1d): variants paired in the same boot
			env+=(--env BENCH_SF_REPS="${BENCH_SF_REPS:-$REPS}" --env BENCH_SF_VARIANTS="${BENCH_SF_VARIANTS:-}"
				--env BENCH_SF_WORKLOADS="${BENCH_SF_WORKLOADS:-}")
			# shellcheck disable=SC2046
			boot "rmw-$c" 1500 "$top/bench/guest/rmw.sh" --udev "${env[@]}" \
				$(dset "rmw-$c" s $n 512M) $(dset "rmw-$c" d $n 512M)
		done
		;;
	writeback)
		# issue 43 item 2: the hardware RAID LUN stand-in (loop over md RAID5)
		# without a cache and with one (dm-writecache in front of the md, on a
		# virtio disk of BENCH_WB_CACHE_MB), storprov's and the default layout on
		# each, the variants of section 1d paired in one boot. Its own image:
		# the bench's plus dm_writecache (not in tests/vm's module list)
		base_initrd=$VM_INITRD
		vm_prepare "${prep[@]}" --modules dm_writecache
		cmb=${BENCH_WB_CACHE_MB:-64}
		# shellcheck disable=SC2046
		boot writeback 5400 "$top/bench/guest/rmw.sh" --udev --env BENCH_CASE=loop-lun-wb --env BENCH_MB="$MB" \
			--env BENCH_REPS=0 --env BENCH_SF_REPS="${BENCH_SF_REPS:-$REPS}" \
			--env BENCH_SF_VARIANTS="${BENCH_SF_VARIANTS:-def sp sp-lsusu sp-noswalloc}" \
			--env BENCH_SF_WORKLOADS="${BENCH_SF_WORKLOADS:-direct direct-ext stripefiles streams}" \
			--env BENCH_WB_OPTS="${BENCH_WB_OPTS:-}" --env BENCH_WB_CACHE_MB="$cmb" \
			--env BENCH_WB_SECTOR="${BENCH_WB_SECTOR:-}" \
			$(dset writeback s 4 512M) $(dset writeback d 4 512M) $(dset writeback ws 4 512M) $(dset writeback wd 4 512M) \
			$(dset writeback wc 2 "${cmb}M")
		VM_INITRD=$base_initrd
		;;
	swalloc)
		# more paired repetitions of the swalloc question alone (loop-lun)
		# shellcheck disable=SC2046
		boot swalloc 1500 "$top/bench/guest/rmw.sh" --udev --env BENCH_CASE=loop-lun --env BENCH_REPS=0 \
			--env BENCH_SWALLOC_MB="$SW_MB" --env BENCH_SWALLOC_REPS="${BENCH_SWALLOC_REPS:-10}" \
			--env BENCH_SWALLOC_VARIANTS="sp sp-noswalloc" --env BENCH_SWALLOC_FILES=1 \
			$(dset swalloc s 4 512M) $(dset swalloc d 4 512M)
		;;
	agalign)
		# shellcheck disable=SC2046
		boot agalign 900 "$top/bench/guest/agalign.sh" --udev --env BENCH_ROUNDS="$AG_ROUNDS" \
			$(dset agalign s 4 512M) $(dset agalign d 4 512M)
		;;
	reads)
		# shellcheck disable=SC2046
		boot reads 900 "$top/bench/guest/reads.sh" --udev --env BENCH_MB="$RD_MB" \
			$(dset reads s 4 512M) $(dset reads d 4 512M)
		;;
	sync)
		d=$top/build/bench/disks-sync
		mkdir -p "$d.p"
		sp_profile "$top/profiles/md-raid1-syncwrite.xml" "$d.p/md-raid1-syncwrite.xml" ssd '<match serial="m*"/>'
		# shellcheck disable=SC2046
		boot sync 900 "$top/bench/guest/sync.sh" --udev --env BENCH_SEC="$SY_SEC" --env BENCH_REPS="$SY_REPS" \
			--add "$d.p:/usr/lib/bench/shipped" \
			$(dset sync m 2 1G) $(dset sync s 4 512M)
		rm -rf "$d.p"
		;;
	prov)
		d=$top/build/bench/disks-prov
		mkdir -p "$d.p"
		sp_profile "$top/profiles/many-luns.xml" "$d.p/many-luns.xml" lun '<match serial="lun*"/>'
		# 8 x 256 x 512 KiB x 2 queues can pin 2 GiB, more than 1/8 of the
		# 2 GiB guest: storprov rightly refuses; the guest is not the FC host
		sed -i 's|^</profile>|  <allow rule="queue-memory" reason="bench VM: 2 GiB guest"/>\n</profile>|' "$d.p/many-luns.xml"
		sp_profile "$top/profiles/md-raid6-lvm.xml" "$d.p/md-raid6-lvm.xml" \
			hba1 '<match serial="a*"/>' hba2 '<match serial="b*"/>'
		# shellcheck disable=SC2046
		boot prov 1500 "$top/bench/guest/prov.sh" --udev --env BENCH_REPS="$PROV_REPS" \
			--add "$d.p:/usr/lib/bench/shipped" \
			$(dset prov lun 8 1G) $(dset prov a 6 512M) $(dset prov b 6 512M)
		rm -rf "$d.p"
		;;
	loop-prov)
		# issue 43 item 4: on the host, 8 loop LUNs; prov_host in latest.json
		# (storprov_over_serial, storprov_over_parallel) from $raw/prov-loop.json
		REPS=${BENCH_LOOP_REPS:-5} OUT=$out BENCH_RAW=$raw "$top/bench/loop-prov.sh" >&2
		;;
	prov-par)
		# issue 34: storprov against a serial and an xargs -P script of its own commands,
		# many-luns (--jobs 2, 8) and md-raid6-lvm (--jobs 2), fresh and reused disks,
		# BENCH_PROV_REPS (default 5) rounds of the three in rotating order
		d=$top/build/bench/disks-prov-par
		mkdir -p "$d.p"
		sp_profile "$top/profiles/many-luns.xml" "$d.p/many-luns.xml" lun '<match serial="lun*"/>'
		sed -i 's|^</profile>|  <allow rule="queue-memory" reason="bench VM: 2 GiB guest"/>\n</profile>|' "$d.p/many-luns.xml"
		sp_profile "$top/profiles/md-raid6-lvm.xml" "$d.p/md-raid6-lvm.xml" \
			hba1 '<match serial="a*"/>' hba2 '<match serial="b*"/>'
		# shellcheck disable=SC2046
		boot prov-par 5400 "$top/bench/guest/prov-par.sh" --udev --env BENCH_REPS="${BENCH_PROV_REPS:-$PP_REPS}" \
			--env BENCH_CASES="${BENCH_PROV_CASES:-md-raid6-lvm:2 many-luns:8 many-luns:2}" \
			--env BENCH_DISK_STATES="${BENCH_PROV_STATES:-fresh reused}" \
			--env BENCH_TOOLS="${BENCH_PROV_TOOLS:-storprov serial parallel}" \
			--env BENCH_LVM_TRACE="${BENCH_LVM_TRACE:-0}" \
			--add "$d.p:/usr/lib/bench/shipped" \
			$(dset prov-par lun 8 1G) $(dset prov-par a 6 512M) $(dset prov-par b 6 512M)
		rm -rf "$d.p"
		;;
	prov-jobs)
		# issue 21: apply --jobs 1, 2, 8 on 8 LUNs against a serial sfdisk + mkfs.xfs script,
		# BENCH_PROV_REPS (default 5) pairs each; $raw/prov-vm.json and results/prov.md
		ls=$(cut -d' ' -f1-3 /proc/loadavg)
		# shellcheck disable=SC2046
		boot prov-jobs 5400 "$top/bench/guest/prov-jobs.sh" --udev --env BENCH_REPS="${BENCH_PROV_REPS:-5}" \
			$(dset prov-jobs lun 8 1G)
		python3 "$top/bench/prov_report.py" --from-guest "$raw/prov-jobs.out" "$raw/prov-vm.json" "$ls" \
			"$(cut -d' ' -f1-3 /proc/loadavg)" "$(git -C "$top" rev-parse --short=12 HEAD)$(git -C "$top" diff --quiet HEAD -- src || echo -dirty)"
		python3 "$top/bench/prov_report.py" "$raw" "$out/prov.md" >/dev/null
		;;
	inspect-cost)
		# issue 21 (diagnostic, not in the default set): where apply's inspection
		# spends its time on 8 LUNs in the guest; BENCH_INSPECT_REPS (default 3)
		# shellcheck disable=SC2046
		boot inspect-cost 2400 "$top/bench/guest/inspect-cost.sh" --udev --env BENCH_REPS="${BENCH_INSPECT_REPS:-3}" \
			$(dset inspect-cost lun 8 1G)
		;;
	scale)
		log "plan scale (host, callgrind)"
		sizes="12 120 1200 12000"
		[ "$quick" != 1 ] || sizes="12 120 1200"
		# shellcheck disable=SC2086
		l0=$(load) d0=$(date -u +%Y-%m-%dT%H:%M:%SZ) rc=0
		"$top/bench/plan-scale.sh" "$raw/scale.out" $sizes >/dev/null || rc=$?
		echo "BOOT name=scale rc=$rc commit=$commit run=$run_id time=$d0 time_end=$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
			"load_start=$l0 load_end=$(load) nproc=$(nproc) host=1" >>"$raw/scale.out"
		;;
	rmw-sweep)
		# issue 17: BENCH_SWEEP_N parity layouts drawn from a seed (hardware
		# RAID LUN stand-ins under LVM, md RAID0, md RAID5 or XFS alone),
		# storprov's layout and a naive one on the same LUNs, the member-read
		# ratio under full-stripe O_DIRECT writes; results/rmw-sweep.md.
		# A new seed replaces the previous sweep's raw files.
		seed=${RMW_SEED:-$(date +%s)}
		sn=${BENCH_SWEEP_N:-12}
		per=${BENCH_SWEEP_PER_BOOT:-$sn}
		d=$top/build/bench/rmw-sweep
		rm -rf "$d" "$raw"/rmw-sweep-*
		log "rmw-sweep: seed $seed, $sn layouts, $SWEEP_MB MiB a side"
		for ((first = 1; first <= sn; first += per)); do
			c=$((sn - first + 1 < per ? sn - first + 1 : per))
			"$VM_DIR/rmw-layouts.py" --seed "$seed" --first "$first" --count "$c" --write-mib "$SWEEP_MB" --out "$d/$first"
			# shellcheck source=/dev/null
			. "$d/$first/layouts.env"
			# shellcheck disable=SC2046
			boot "rmw-sweep-$first" $((600 + 300 * c)) "$VM_DIR/scenarios/rmw-sweep.sh" --udev \
				--env RMW_PROBE="${BENCH_SWEEP_PROBE:-1}" \
				--add "$d/$first:/usr/lib/storprov-tests/rmw" \
				$(dset_gpt "rmw-sweep-$first" r "$RMW_DISKS" "$((RMW_MAX_LUNS * RMW_PART_MIB + 2))M" "${RMW_PARTED[@]}")
		done
		python3 "$top/bench/rmw_sweep.py" "$raw" "$out"
		;;
	partial-stripe)
		# issue 34 item 5: BENCH_PS_N layouts on plain virtio LUNs (no parity
		# emulation; queue_size=1024), every write request the LUNs take under
		# an O_DIRECT and a buffered workload traced, storprov's layout and a
		# naive one; rows in latest.json "partial_stripe" (bench/partial_stripe.py)
		seed=${RMW_SEED:-$(date +%s)}
		pn=${BENCH_PS_N:-8}
		d=$top/build/bench/partial-stripe
		rm -rf "$d"
		log "partial-stripe: seed $seed, $pn layouts, $PS_MB MiB a workload and side"
		"$VM_DIR/partial-layouts.py" --seed "$seed" --count "$pn" --fixed --write-mib "$PS_MB" --out "$d"
		pdisks=()
		for j in 0 1 2 3; do
			pdisks+=(--disk "$top/build/bench/disks-partial-stripe/ps$j.img,size=1200M,serial=ps$j,queue_size=1024")
		done
		boot partial-stripe $((600 + 240 * pn)) "$VM_DIR/scenarios/partial-stripe.sh" --udev \
			--add "$d:/usr/lib/storprov-tests/ps" "${pdisks[@]}"
		python3 "$top/bench/partial_stripe.py" "$raw/partial-stripe.out" | sed -n '/^|/p' >&2
		;;
	seek)
		# issue 43 item 1: the inspection before the first write on disks with a
		# latency model (dm-delay, 0 and BENCH_SEEK_MS ms a request, same devices),
		# beside wipefs -n and blkid -p; rows in latest.json "seek_inspection"
		sn=${BENCH_SEEK_N:-60} sg=${BENCH_SEEK_GIB:-4} sr=${BENCH_SEEK_REPS:-3}
		nd=$(((sn + 19) / 20))
		per=$(((sn + nd - 1) / nd))
		sargs=(--env BENCH_SEEK_N="$sn" --env BENCH_SEEK_GIB="$sg" --env BENCH_SEEK_MS="${BENCH_SEEK_MS:-8}"
			--env BENCH_SEEK_REPS="$sr" --env BENCH_SEEK_DISKS="$nd")
		nb=1
		# the floor: rangeread replays one dry run's read requests (bench/guest/seek.sh)
		mkdir -p "$top/build/bench"
		cc -O2 -Wall -Wextra -pthread -o "$top/build/bench/rangeread" "$top/bench/guest/rangeread.c" ||
			{ log "seek: cannot build bench/guest/rangeread.c"; exit 2; }
		sargs+=(--add "$top/build/bench/rangeread:/usr/lib/bench/rangeread")
		if [ -n "${BENCH_SEEK_BEFORE:-}" ]; then
			[ -x "$BENCH_SEEK_BEFORE" ] || { log "BENCH_SEEK_BEFORE=$BENCH_SEEK_BEFORE: not an executable"; exit 2; }
			sargs+=(--add "$(readlink -f "$BENCH_SEEK_BEFORE"):/usr/sbin/storprov-a")
			nb=2
		fi
		log "seek: $sn disks of $sg GiB on $nd virtio disks, $sr repetitions, $nb build(s)"
		# shellcheck disable=SC2046
		boot seek $((900 + sr * sn * 10 * nb)) "$top/bench/guest/seek.sh" --udev "${sargs[@]}" \
			$(dset seek seek "$nd" "$((per * sg))G")
		;;
	*) log "unknown benchmark $b"; exit 2 ;;
	esac
done

log "report"
python3 "$top/bench/report.py" "$raw" "$out"
cat "$out/latest.md"
