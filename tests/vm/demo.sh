#!/usr/bin/env bash
# make demo: boots a throwaway QEMU VM with sparse virtual disks, applies a
# bundled profile for real, and prints the plan, what independent tools see
# (sysfs, sgdisk, mdadm, lvs, dmsetup, xfs_info, /proc/mounts) and the files.
#   DEMO_PROFILE=grid-3ware-raid5 (default) | md-raid6-lvm
set -euo pipefail
# shellcheck source=tests/vm/lib.bash
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.bash"
# shellcheck source=tests/vm/scenarios.bash
. "$VM_DIR/scenarios.bash"

profile=${DEMO_PROFILE:-grid-3ware-raid5}
work=$(mktemp -d "$VM_BUILD/demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/p"
disks=(--disk "$work/os.img,size=1G,serial=os")
case $profile in
grid-3ware-raid5)
	# the LUNs are virtio disks that export no topology, like the 3ware units
	sp_profile "$VM_TOP/profiles/$profile.xml" "$work/p/$profile.xml" lun '<match serial="lun*"/>'
	mapfile -t -O 2 disks < <(vm_disks "$work" lun 2 2G) ;;
md-raid6-lvm)
	sp_profile "$VM_TOP/profiles/$profile.xml" "$work/p/$profile.xml" \
		hba1 '<match serial="a*"/>' hba2 '<match serial="b*"/>'
	mapfile -t -O 2 disks < <(vm_disks "$work" a 6 1G; vm_disks "$work" b 6 1G) ;;
*) echo "demo: DEMO_PROFILE is grid-3ware-raid5 or md-raid6-lvm" >&2; exit 2 ;;
esac
echo "demo: profile $profile; only its <match> line is changed, to select the VM's virtual disks:"
diff "$VM_TOP/profiles/$profile.xml" "$work/p/$profile.xml" | sed 's/^/demo:   /' || true
echo "demo: preparing the VM (Debian's kernel and a busybox initramfs with storprov, cached in build/vm)"
vm_prepare --udev --add "$VM_TOP/build/storprov:/usr/sbin/storprov"
echo "demo: booting (QEMU, software emulation) with sparse disks in $work"
vm_run "$VM_DIR/scenarios/demo.sh" --mem 2048 --log "$work/console.log" \
	--add "$VM_DIR/scenarios:/usr/lib/storprov-tests" --add "$work/p:/usr/lib/storprov-tests/profiles" \
	"${disks[@]}"
