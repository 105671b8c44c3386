#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# power-loss-loop.sh [CYCLES] [SEED]: the long power-loss loop (issue 18),
# outside make check: CYCLES (default 10) kill/reboot cycles of
# 56-power-loss.bats's pl_cycle from seeds SEED, SEED+1, ... (default random,
# printed); each prints its kill delay, whether QEMU was killed before the
# guest's END marker, and whether apply converged with the foreign bytes kept.
# Ends with the tally and the host load at start and end. Root (loop devices
# for the foreign layouts' LVM template), KVM-less TCG like the VM suite.
# Replay one cycle: PL_SEED=S PL_MAX_MS=M bats tests/vm/56-power-loss.bats
set -uo pipefail
VM_DIR=$(cd "$(dirname "$0")" && pwd)
n=${1:-10} seed=${2:-$(( (RANDOM << 15) | RANDOM ))}
# shellcheck source=lib.bash
. "$VM_DIR/lib.bash"
# shellcheck source=scenarios.bash
. "$VM_DIR/scenarios.bash"
# shellcheck source=power_loss.bash
. "$VM_DIR/power_loss.bash"
vm_prepare --add "$VM_TOP/build/storprov:/usr/sbin/storprov" || exit 1
work=$(mktemp -d /var/tmp/power-loss.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "# power-loss loop: $n cycles from seed $seed, kill delay in [0, ${PL_MAX_MS:-6000}) ms after apply starts; $(date -u +%FT%TZ)"
echo "# storprov $(git -C "$VM_DIR" rev-parse --short HEAD 2>/dev/null); load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
ok=0 killed=0
for i in $(seq 0 $((n - 1))); do
	out=$(pl_cycle $((seed + i)) "$work/c")
	k=$(vm_kv PL_KILLED "$out")
	[ "$k" = 1 ] && killed=$((killed + 1))
	if pl_check "$out"; then v=ok; ok=$((ok + 1)); else v=FAIL; fi
	echo "seed $((seed + i)) delay $(vm_kv PL_DELAY_MS "$out") ms killed $k boot1 rc $(vm_kv PL_BOOT1_RC "$out")" \
		"apply rc $(vm_kv APPLY_RC "$out") verify rc $(vm_kv VERIFY_RC "$out") third run rc $(vm_kv RC3 "$out")" \
		"foreign unchanged $(vm_kv PL_FOREIGN_UNCHANGED "$out"): $v"
	[ "$v" = ok ] || printf '%s\n' "$out" | sed 's/^/    /'
done
echo "# load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# result: $ok of $n converged with the foreign bytes kept; QEMU killed before the guest's end in $killed"
[ "$ok" -eq "$n" ]
