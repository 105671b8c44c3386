# shellcheck shell=bash
# Power loss during apply (issue 18), shared by 56-power-loss.bats and
# power-loss-loop.sh. Needs lib.bash loaded and vm_prepare run with storprov.
#
# pl_cycle SEED DIR: one kill/reboot cycle on fresh own disks and a foreign
# disk built by tests/root/foreign_gen.py from SEED, all cache=none. Boot 1
# runs apply and QEMU is killed (SIGKILL) PL_DELAY_MS after the guest printed
# PL_APPLY_START (drawn from SEED in [0, PL_MAX_MS), default 6000); boot 2
# on the same images applies again (scenarios/power-loss.sh). Prints the
# guest's KEY=VALUE lines and PL_SEED, PL_DELAY_MS, PL_BOOT1_RC,
# PL_KILLED (1 when QEMU was killed before apply ended: no RC1 from the guest) and
# PL_FOREIGN_UNCHANGED (sha256 of the foreign image's data, foreign_gen.py sum).
pl_cycle() {
	local seed=$1 dir=$2 gen=$VM_TOP/tests/root/foreign_gen.py delay bg rc i sum0
	mkdir -p "$dir"
	rm -f "$dir"/own0.img "$dir"/own1.img "$dir"/qemu.pid "$dir"/boot1.log
	python3 "$gen" build "$seed" "$dir/foreign.img" "$dir/cache" >"$dir/layout.json" || return 1
	sum0=$(python3 "$gen" sum "$dir/foreign.img")
	delay=$(python3 -c "import random, sys; print(random.Random(int(sys.argv[1])).randrange(int(sys.argv[2])))" \
		"$seed" "${PL_MAX_MS:-6000}")
	echo "PL_SEED=$seed"
	echo "PL_DELAY_MS=$delay"
	echo "PL_LAYOUT=$(cat "$dir/layout.json")"
	local disks=(--disk "$dir/own0.img,size=1G,serial=pl0,cache=none"
		--disk "$dir/own1.img,size=1G,serial=pl1,cache=none"
		--disk "$dir/foreign.img,serial=fg0,cache=none")
	local common=(--mem 1024 --timeout 600 --add "$VM_DIR/scenarios:/usr/lib/storprov-tests")
	vm_run "$VM_DIR/scenarios/power-loss.sh" "${common[@]}" --env PL_PHASE=kill --log "$dir/boot1.log" \
		--qemu-arg -pidfile --qemu-arg "$dir/qemu.pid" "${disks[@]}" >"$dir/boot1.out" 2>&1 &
	bg=$!
	for ((i = 0; i < 6000; i++)); do
		grep -aq '^PL_APPLY_START' "$dir/boot1.log" 2>/dev/null && break
		kill -0 "$bg" 2>/dev/null || break
		sleep 0.1
	done
	sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
	[ -s "$dir/qemu.pid" ] && kill -9 "$(cat "$dir/qemu.pid")" 2>/dev/null
	rc=0
	wait "$bg" || rc=$?
	echo "PL_BOOT1_RC=$rc"
	# killed before apply ended: the guest never printed RC1
	echo "PL_KILLED=$(grep -aq '^RC1=' "$dir/boot1.out" && echo 0 || echo 1)"
	grep -a '^RC1=' "$dir/boot1.out" || true
	vm_run "$VM_DIR/scenarios/power-loss.sh" "${common[@]}" --env PL_PHASE=resume --log "$dir/boot2.log" \
		"${disks[@]}" >"$dir/boot2.out" 2>&1
	echo "PL_BOOT2_RC=$?"
	grep -aE '^[A-Z0-9_]+=' "$dir/boot2.out"
	echo "PL_FOREIGN_UNCHANGED=$([ "$(python3 "$gen" sum "$dir/foreign.img")" = "$sum0" ] && echo 1 || echo 0)"
}

# pl_check OUTPUT: pl_cycle's OUTPUT says it converged and the foreign bytes stayed
pl_check() {
	local out=$1
	[ "$(vm_kv PL_BOOT2_RC "$out")" = 0 ] && [ "$(vm_kv APPLY_RC "$out")" = 0 ] &&
		[ "$(vm_kv SGDISK_OK "$out")" = 2 ] && [[ $(vm_kv LABEL1 "$out") == pl?* ]] &&
		[[ $(vm_kv LABEL2 "$out") == pl?* ]] && [ "$(vm_kv LABEL1 "$out")" != "$(vm_kv LABEL2 "$out")" ] &&
		[ "$(vm_kv REPAIR1 "$out")" = 0 ] &&
		[ "$(vm_kv REPAIR2 "$out")" = 0 ] && [ "$(vm_kv VERIFY_RC "$out")" = 0 ] &&
		[ "$(vm_kv RC3 "$out")" = 0 ] && [ "$(vm_kv CREATED3 "$out")" = 0 ] && [ "$(vm_kv NOTHING3 "$out")" -ge 1 ] &&
		[ "$(vm_kv PL_FOREIGN_UNCHANGED "$out")" = 1 ]
}
