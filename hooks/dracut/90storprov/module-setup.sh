#!/bin/bash
# dracut module: provision storage with storprov before the root is mounted.
# Kernel command line:
#   rd.storprov.profile=PATH   profile inside the initramfs (required to run), or a
#                              directory of profiles (/etc/storprov/profiles):
#                              storprov select picks the one that fits this node
#   rd.storprov.wipe=1         allow wiping targets that carry signatures
#   rd.storprov.jobs=N         independent arrays in parallel (default 2)
#   rd.storprov.seed=N         reproducible identities (tests)

# storprov itself. `make install` puts it in /usr/local/sbin by default, which
# is not on dracut's DRACUT_PATH (/sbin /bin /usr/sbin /usr/bin), so look
# there too; it is installed as /usr/sbin/storprov, on the PATH of the hooks.
storprov_binary() {
    local p
    if p=$(find_binary storprov); then
        printf '%s\n' "$p"
        return 0
    fi
    for p in /usr/local/sbin/storprov /usr/local/bin/storprov; do
        if [[ -x ${dracutsysrootdir-}$p ]]; then
            printf '%s\n' "$p"
            return 0
        fi
    done
    return 1
}

# Included only when asked for (dracut -a storprov / add_dracutmodules+=" storprov ").
check() {
    require_binaries mdadm lvm mkfs.xfs wipefs || return 1
    if ! storprov_binary >/dev/null; then
        dwarn "dracut module 'storprov' will not be installed, because storprov was found neither in DRACUT_PATH nor in /usr/local/sbin"
        return 1
    fi
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
    inst "$(storprov_binary)" /usr/sbin/storprov
    inst_multiple mdadm lvm mkfs.xfs xfs_db xfs_info wipefs blkid mount umount mkdir
    # xfs_info is a script: xfs_db or xfs_spaceman, and findmnt, losetup, tail
    inst_multiple -o xfs_spaceman sgdisk dmsetup findmnt losetup tail
    # profiles: the installed examples and the site's own (/etc/storprov/profiles,
    # the path rd.storprov.profile= names, or /etc/storprov)
    for d in /usr/local/share/storprov/profiles /usr/share/storprov/profiles /etc/storprov /etc/storprov/profiles; do
        for p in "$d"/*.xml; do
            [ -f "$p" ] && inst_simple "$p" "/etc/storprov/profiles/${p##*/}"
        done
    done
    inst_hook pre-mount 10 "$moddir/storprov-provision.sh"
    inst_hook pre-pivot 10 "$moddir/storprov-persist.sh"
    inst_simple "$moddir/storprov-lib.sh" /lib/storprov-lib.sh
}
