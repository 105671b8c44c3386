#!/usr/bin/env bats
# Issue 17 item 4: the RMW sweep. Two parity layouts drawn from a seed that
# changes every run (RMW_SEED=N replays one; the seed is printed in the test
# log), in one VM boot: hardware RAID LUNs emulated as md RAID5/6 under loop
# devices, storprov's layout (LVM striped LV, md RAID0, md RAID5 or XFS on
# one LUN, all from <hwraid>) beside a naive one on the same LUNs, and the
# member-read ratio under full-stripe O_DIRECT writes.
# Generator: tests/vm/rmw-layouts.py; guest: tests/vm/scenarios/rmw-sweep.sh.
# Environment: RMW_SEED=N (replay), RMW_FIRST=K RMW_COUNT=N (layouts K to
# K+N-1 of the seed, default 1 and 2; tests/run-all.sh sets RMW_COUNT=1: a new seed
# every run covers the space over time, and a layout costs about 75 s of TCG), RMW_UPPERS=md5,lv (draw only those
# upper layers; a replay needs the same list), RMW_PROBE=1 (diagnose md layers),
# RMW_LUN_STRIPE_CACHE=N (the LUN arrays' stripe cache, default 4096),
# RMW_LUN_PREREAD_BYPASS=N (their md/preread_bypass_threshold, default md's),
# RMW_FIO_HUGE=0|1 (every layout's buffers in 4 KiB or huge pages, overriding the
# layout's own draw, L<i>_FIO_HUGE; in 4 KiB pages a LUN
# request is then cut at 128 segments, 512 KiB). The guest's whole output is kept in
# build/vm/logs/rmw-sweep-SEED.log.
#
# Pass: storprov's ratio <= 0.02, and <= 1/4 of the naive ratio whenever the
# naive layout shows read-modify-write (its ratio above the same 0.02 noise
# allowance: a ratio below it is metadata reads, not RMW).
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup_file() {
	load scenarios
	sp_prepare
}

setup() {
	load lib
	load scenarios
}

@test "rmw sweep: random parity layouts of a new seed (RMW_COUNT, default 2; make check draws 1 per run), storprov's member-read ratio <= 0.02 and <= 1/4 of the naive one" {
	command -v fio >/dev/null || skip "no fio on the host (tests/vm/deps.sh installs it)"
	local seed=${RMW_SEED:-$(date +%s)} n=${RMW_COUNT:-2} first=${RMW_FIRST:-1} d=$BATS_TEST_TMPDIR/rmw
	echo "# rmw sweep seed $seed (layouts $first to $((first + n - 1)); replay: RMW_SEED=$seed${RMW_UPPERS:+ RMW_UPPERS=$RMW_UPPERS} bats tests/vm/46-rmw-sweep.bats)" >&3
	local up=()
	[ -z "${RMW_UPPERS-}" ] || up=(--uppers "$RMW_UPPERS")
	"$VM_DIR/rmw-layouts.py" --seed "$seed" --first "$first" --count "$n" ${up[@]+"${up[@]}"} --out "$d"
	# shellcheck source=/dev/null
	. "$d/layouts.env"
	local env=() e
	for e in RMW_LUN_STRIPE_CACHE RMW_LUN_PREREAD_BYPASS RMW_PROBE RMW_FIO_HUGE; do
		[ -z "${!e-}" ] || env+=(--env "$e=${!e}")
	done
	# shellcheck disable=SC2046 # vm_disks prints one word per line
	run vm_run "$VM_DIR/scenarios/rmw-sweep.sh" --append vmtest.noshutdown=1 --mem 2048 --timeout 900 ${env[@]+"${env[@]}"} \
		--add "$(command -v fio):/usr/bin/fio" \
		--add "$VM_DIR/scenarios:/usr/lib/storprov-tests" \
		--add "$d:/usr/lib/storprov-tests/rmw" \
		$(vm_disks_gpt "$BATS_TEST_TMPDIR" r "$RMW_DISKS" "$((RMW_MAX_LUNS * RMW_PART_MIB + 2))M" "${RMW_PARTED[@]}")
	# the whole guest output (plans, extents, mdadm --detail) for later reading
	mkdir -p "$VM_BUILD/logs"
	printf '%s\n' "$output" >"$VM_BUILD/logs/rmw-sweep-$seed.log"
	echo "# guest output: build/vm/logs/rmw-sweep-$seed.log" >&3
	[ "$status" -eq 0 ] || { tail -n 60 <<<"$output"; false; }
	sp_figures
	vm_kv_load
	assert_equal "${VM_KV[RMW_SEED]}" "$seed"
	assert_equal "${VM_KV[RMW_DONE]-}" 1
	local i fails=0 sp def
	for i in $RMW_LAYOUTS; do
		sp=${VM_KV[L${i}_SP_RATIO]-} def=${VM_KV[L${i}_DEF_RATIO]-}
		echo "# L$i ${VM_KV[L${i}_DESC]}: storprov $sp (su/sw ${VM_KV[L${i}_SP_SUNIT]-}/${VM_KV[L${i}_SP_SWIDTH]-} blks), naive $def, ${VM_KV[L${i}_SP_WRITERS]-} writers of ${VM_KV[L${i}_BS_K]-}K (${VM_KV[L${i}_SP_FIO_MEM]-})" >&3
		if [ -n "${VM_KV[L${i}_SP_ERROR]-}" ] || [ -n "${VM_KV[L${i}_DEF_ERROR]-}" ] || [ -z "$sp" ] || [ -z "$def" ]; then
			echo "L$i: error: sp '${VM_KV[L${i}_SP_ERROR]-}' naive '${VM_KV[L${i}_DEF_ERROR]-}'"
			fails=$((fails + 1))
			continue
		fi
		# a LUN drawn to export its stripe was planned from that hint, not from a declaration
		# (issue 30: planned as parity, the same figures as the declared LUN)
		want_src=profile
		[ "${VM_KV[L${i}_LUN_HINTED]-0}" = 1 ] && want_src=detected
		[ "${VM_KV[L${i}_SP_LUN_SOURCE]-}" = "$want_src" ] ||
			{ echo "L$i: the LUN's geometry came from '${VM_KV[L${i}_SP_LUN_SOURCE]-}', not $want_src"; fails=$((fails + 1)); }
		# the measurement saw the workload
		[ "${VM_KV[L${i}_SP_WRITE_SECTORS]}" -gt $((RMW_WRITE_MIB * 2048 * 9 / 10)) ] ||
			{ echo "L$i: storprov's side wrote only ${VM_KV[L${i}_SP_WRITE_SECTORS]} sectors"; fails=$((fails + 1)); }
		if ! awk -v s="$sp" -v d="$def" 'BEGIN { exit !(s >= 0 && s <= 0.02 && (d <= 0.02 || s <= d / 4)) }'; then
			echo "L$i FAILS: storprov $sp, naive $def: ${VM_KV[L${i}_DESC]}"
			echo "    storprov planned: ${VM_KV[L${i}_SP_PLAN]-}"
			echo "    ${VM_KV[L${i}_SP_CREATE]-} ${VM_KV[L${i}_SP_MKFS]-}"
			echo "    md data offset ${VM_KV[L${i}_SP_MD_DATA_OFFSET]-} sectors, pe_start ${VM_KV[L${i}_SP_PE_STARTS]-}, dm ${VM_KV[L${i}_SP_DM]-}"
			fails=$((fails + 1))
		fi
	done
	[ "$fails" -eq 0 ]
}
