#!/bin/bash
# dracut module: provision storage with storprov before the root is mounted.
# Kernel command line:
#   rd.storprov.profile=PATH   profile inside the initramfs (required to run), or a
#                              directory of profiles (/etc/storprov/profiles):
#                              storprov select picks the one that fits this node
#   rd.storprov.wipe=1         allow wiping targets that carry signatures
#   rd.storprov.jobs=N         independent arrays in parallel (default 2)
#   rd.storprov.seed=N         reproducible identities (tests)
#   rd.storprov.timeout=SECS   how long the initqueue waits for the profile's
#                              disks (default 180), then fails with
#                              "expected N disks, found M". dracut's own
#                              rd.retry= (default 180 s, counted in half-second
#                              rounds of the initqueue) ends the whole wait
#                              first when it is shorter: with a timeout above
#                              180, also give rd.retry= at least that much (the
#                              wait hook warns when it is not)
#   rd.storprov.mdadm-conf=P   mdadm.conf in the new root (default: /etc/mdadm.conf
#                              where the root has it or is EL/Fedora,
#                              /etc/mdadm/mdadm.conf on Debian)
#   rd.storprov.tuning=T       where the tuning persists (apply --tuning): udev
#                              (default), tuned or both; the daily verify's
#                              verify.env gets the same

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

# The site's profiles, the only candidates in the image (/etc/storprov/profiles):
# /etc/storprov/profiles first, then /etc/storprov.
storprov_site_profiles() {
    local d p
    for d in /etc/storprov/profiles /etc/storprov; do
        for p in "${dracutsysrootdir-}$d"/*.xml; do
            [ -f "$p" ] && printf '%s\n' "$p"
        done
    done
    return 0
}

# Whether a site profile asks for dm-multipath (<disks multipath="true">).
storprov_uses_multipath() {
    local p
    while IFS= read -r p; do
        grep -qE "multipath[[:space:]]*=[[:space:]]*[\"']true[\"']" "$p" && return 0
    done < <(storprov_site_profiles)
    return 1
}

# Host-only images keep these even when the build host has not loaded them:
# the node provisions arrays the build host may never have had. storprov makes
# multipath maps itself (the multipath target, service-time path selector).
installkernel() {
    hostonly=$(optional_hostonly) instmods raid0 raid1 raid10 raid456 dm-mod dm-mirror xfs crc32c_generic
    if storprov_uses_multipath; then
        hostonly=$(optional_hostonly) instmods dm-multipath dm-service-time
    fi
}

# moddir is set by dracut for every module.
# shellcheck disable=SC2154
install() {
    local p d
    inst "$(storprov_binary)" /usr/sbin/storprov
    inst_multiple mdadm lvm mkfs.xfs xfs_db xfs_info wipefs blkid mount umount mkdir
    # xfs_info is a script: xfs_db or xfs_spaceman, and findmnt, losetup, tail
    inst_multiple -o xfs_spaceman sgdisk dmsetup findmnt losetup tail lvmdevices sync
    # the hooks: grep (the wait and the mdadm.conf default), cat; ln and
    # readlink (the verify timer's link in the new root)
    inst_multiple grep cat ln readlink
    # Profiles: only the site's own (/etc/storprov/profiles, then /etc/storprov;
    # inst_simple never overwrites, so the first copy of a name wins) are
    # candidates for rd.storprov.profile=/etc/storprov/profiles (select). The
    # shipped examples go to /usr/share/storprov/examples, never among them:
    # an example that matched too would make select refuse and stop the boot.
    while IFS= read -r p; do
        if [ -e "${initdir}/etc/storprov/profiles/${p##*/}" ]; then
            dinfo "storprov: ${p#"${dracutsysrootdir-}"} is shadowed by a site profile of the same name"
            continue
        fi
        inst_simple "${p#"${dracutsysrootdir-}"}" "/etc/storprov/profiles/${p##*/}"
    done < <(storprov_site_profiles)
    for d in /usr/share/storprov/examples /usr/local/share/storprov/examples; do
        for p in "${dracutsysrootdir-}$d"/*.xml; do
            [ -f "$p" ] || continue
            inst_simple "${p#"${dracutsysrootdir-}"}" "/usr/share/storprov/examples/${p##*/}"
        done
    done
    inst_hook initqueue/finished 90 "$moddir/storprov-wait.sh"
    inst_hook pre-mount 10 "$moddir/storprov-provision.sh"
    inst_hook pre-pivot 10 "$moddir/storprov-persist.sh"
    inst_simple "$moddir/storprov-lib.sh" /lib/storprov-lib.sh
}
