#!/bin/bash
# bench/deps.sh - install what `make bench` needs beyond the VM harness
# (Debian 12, root, idempotent): fio (copied into the guest image), gnuplot
# (the PNG plot), jq (copied into the guest), python3 (bench/report.py),
# valgrind and GNU time (plan scale).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
pkgs=(fio gnuplot-nox jq valgrind time python3)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "bench/deps.sh: missing ${missing[*]}; run me as root" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}"; then
	apt-get -o DPkg::Lock::Timeout=600 update -q
	apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}"
fi
