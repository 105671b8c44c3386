#!/bin/bash
# dracut module: provision storage with storprov before the root is mounted.
# Kernel command line:
#   rd.storprov.profile=PATH   profile inside the initramfs (required to run)
#   rd.storprov.wipe=1         allow wiping targets that carry signatures
#   rd.storprov.jobs=N         independent arrays in parallel (default 2)
#   rd.storprov.seed=N         reproducible identities (tests)

# Included only when asked for (dracut -a storprov / add_dracutmodules+=" storprov ").
check() {
    require_binaries storprov mdadm lvm mkfs.xfs wipefs || return 1
    return 255
}

depends() {
    echo mdraid lvm
    return 0
}

installkernel() {
    instmods raid0 raid1 raid10 raid456 dm-mod dm-mirror xfs crc32c_generic
}

# moddir is set by dracut for every module.
# shellcheck disable=SC2154
install() {
    local p d
    inst_multiple storprov mdadm lvm mkfs.xfs xfs_db xfs_info wipefs blkid mount umount mkdir
    inst_multiple -o xfs_spaceman sgdisk dmsetup
    # profiles: the installed examples and the site's own
    for d in /usr/local/share/storprov/profiles /usr/share/storprov/profiles /etc/storprov; do
        for p in "$d"/*.xml; do
            [ -f "$p" ] && inst_simple "$p" "/etc/storprov/profiles/${p##*/}"
        done
    done
    inst_hook pre-mount 10 "$moddir/storprov-provision.sh"
    inst_hook pre-pivot 10 "$moddir/storprov-persist.sh"
    inst_simple "$moddir/storprov-lib.sh" /lib/storprov-lib.sh
}
