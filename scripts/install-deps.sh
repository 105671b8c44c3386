#!/usr/bin/env bash
# Installs everything storprov needs to build and to run its tests, on Debian 12
# as root. Idempotent: when every package is there already it does nothing.
# Used by README's commands, .ci/run and `make demo`.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

build=(build-essential pkg-config libparted-dev libdevmapper-dev libxml2-dev libjson-c-dev libblkid-dev libmount-dev libselinux1-dev zlib1g-dev)
# ansible-test sanity runs offline on Debian's checkers (pylint, yamllint,
# pycodestyle, python3-voluptuous) in virtualenvs (python3-venv); prometheus
# brings promtool for the alert rule and the textfile (verify-timer.bats);
# chromium and python3-pil screenshot the fleet report's HTML page (fleet.bats);
# systemd brings systemctl, whose --root enables and presets the verify timer
# in target trees (hooks.bats, packaging.bats).
tests=(libcmocka-dev bats bats-assert bats-support bats-file jq libxml2-utils shellcheck valgrind
       xfsprogs gdisk util-linux fdisk kmod strace e2fsprogs procps systemd
       rpm rpm2cpio rpmlint cpio mandoc file python3-jsonschema attr
       multipath-tools python3-prometheus-client
       ansible-core python3-venv python3-voluptuous yamllint pycodestyle pylint prometheus
       chromium python3-pil)
# Foreign layouts for tests/root/foreign-random (formats an erased table may have pointed to)
foreign=(btrfs-progs cryptsetup-bin dosfstools ntfs-3g xorriso bcache-tools f2fs-tools exfatprogs jfsutils
         nilfs-tools udftools reiserfsprogs squashfs-tools)
# Hostile-input suites: libFuzzer targets need clang and its runtime (libFuzzer
# ships in libclang-rt-14-dev on Debian 12); the ASan+UBSan build uses gcc's.
fuzz=(clang libclang-rt-14-dev llvm)
# The VM suite (md, LVM and XFS under a real kernel in QEMU): see tests/vm/deps.sh.
pkgs=("${build[@]}" "${tests[@]}" "${foreign[@]}" "${fuzz[@]}")

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "install-deps: missing ${missing[*]}; run me as root" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [ -x "$top/tests/vm/deps.sh" ]; then
	"$top/tests/vm/deps.sh"
fi
