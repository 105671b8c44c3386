#!/bin/bash
# deps.sh - install the host packages the VM test harness needs (Debian 12).
#
# Usage: tests/vm/deps.sh        (as root; idempotent)
#
# Installs with --no-install-recommends, non-interactively. Runs apt-get
# update only when a package cannot be found or the lists are missing. Waits
# for the dpkg lock when another apt-get is running. mdadm, lvm2 and the
# others are installed only so that their programs can be copied into the
# guest images; nothing is started on the host.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/common.sh"

packages=(
	# the VM
	qemu-system-x86
	# the guest userland copied into the initramfs
	busybox-static kmod udev systemd
	mdadm lvm2 dmsetup xfsprogs e2fsprogs
	util-linux fdisk gdisk parted bash # parted also on the host: vm_disks_gpt
	# building images: cpio archives, compressors, ldd, the kernel download
	cpio zstd gzip xz-utils libc-bin coreutils findutils grep sed apt dpkg
	# multipath scenario (80): multipath, multipathd and their plugins for the guest
	multipath-tools
	# the dracut path
	dracut-core
	# the tests
	bats bats-assert bats-support bats-file shellcheck
	# fio: the member-read ratio in 45-raid6-luns-lv.bats
	fio
)

case ${1-} in
-h | --help)
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
	exit 0
	;;
esac

[[ $(id -u) -eq 0 ]] || vm_die "run as root (apt-get install)"
export DEBIAN_FRONTEND=noninteractive

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	[[ $status == ii* ]] || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
	vm_log "all ${#packages[@]} packages installed"
	exit 0
fi
vm_log "installing: ${missing[*]}"

apt_update() {
	local i
	for i in 1 2 3 4 5; do
		vm_apt_get update -qq && return 0
		vm_log "apt-get update failed (attempt $i); retrying in 10 s"
		sleep 10
	done
	return 1
}

if ! vm_apt_lists_present; then
	apt_update
fi
install() {
	vm_apt_get install -y -q --no-install-recommends \
		-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "${missing[@]}"
}
if ! install; then
	vm_log "install failed; refreshing the package lists and retrying"
	apt_update
	install
fi
vm_log "done"
