#!/usr/bin/env bash
# make fleet-demo: the storprov.core.fleet_report playbook against 3 inventory
# hosts on this machine (ansible_connection=local), each with its own copy of
# the captured grid-3ware node as apply left it and its own target root;
# node2 is seeded with drift (lun2's read-ahead and vm.dirty_ratio changed by
# hand, the udev rules file deleted). Writes build/fleet-report.json,
# build/fleet-report.md and build/fleet-report.html (drift first, with times)
# and ends with the fleet summary line. Each run starts afresh (the previous
# report is removed), so every drifting_since is this run's verify time.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
sp=${STORPROV_BIN:-$top/build/storprov}
d=$top/build/fleet-demo
rm -rf "$d" "$top/build/fleet-report.json" "$top/build/fleet-report.md" "$top/build/fleet-report.html"
mkdir -p "$d"
for n in node1 node2 node3; do
	"$top/tests/tools/applied-node.sh" "$sp" "$top/tests/fixtures/fleet/grid-3ware-raid5.xml" \
		"$top/tests/fixtures/sysroot/grid-3ware" "$d/$n/sysroot" "$d/$n/root"
done
# the seeded drift
echo 128 >"$d/node2/sysroot/sys/block/sdc/queue/read_ahead_kb"
echo 20 >"$d/node2/sysroot/proc/sys/vm/dirty_ratio"
rm "$d/node2/root/etc/udev/rules.d/70-storprov.rules"

{
	echo "[storage]"
	for n in node1 node2 node3; do
		echo "$n storprov_sysroot=$d/$n/sysroot storprov_root=$d/$n/root"
	done
	echo
	echo "[storage:vars]"
	echo "ansible_connection=local"
	echo "ansible_python_interpreter=/usr/bin/python3"
	echo "storprov_profiles_dir=$top/tests/fixtures/fleet"
	echo "storprov_seed=1"
	echo "storprov_binary=$sp"
	echo "storprov_report_dir=$top/build"
} >"$d/inventory.ini"

# Debian's ansible wants a UTF-8 locale and Debian's python3 (its modules are there)
export LC_ALL=C.UTF-8 PATH="/usr/bin:$PATH"
export ANSIBLE_COLLECTIONS_PATH="$top" ANSIBLE_HOST_KEY_CHECKING=False ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=False
ansible-playbook -i "$d/inventory.ini" storprov.core.fleet_report >"$d/playbook.log" 2>&1 || {
	cat "$d/playbook.log" >&2
	exit 1
}
cat "$top/build/fleet-report.md"
echo
echo "wrote build/fleet-report.json, build/fleet-report.md and build/fleet-report.html (playbook log: build/fleet-demo/playbook.log)"
grep "^fleet: " "$top/build/fleet-report.md" | tail -n 1
