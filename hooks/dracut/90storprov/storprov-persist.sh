#!/bin/sh
# pre-pivot hook: the root is mounted at $NEWROOT; verify the storage again and
# write fstab, udev rules, sysctl.d and mdadm.conf into it before switch-root,
# the profile applied into its /etc/storprov/verify.env for the daily verify,
# and that verify's timer enabled there.
# EL boots with "ro": the root is made writable for the writes and put back
# read-only after. Sourced by dracut: return, never exit.
# shellcheck source=/dev/null
type getarg >/dev/null 2>&1 || . /lib/dracut-lib.sh
# shellcheck source=hooks/dracut/90storprov/storprov-lib.sh
. /lib/storprov-lib.sh
if getarg rd.storprov.profile= >/dev/null; then
    _sp_root=${NEWROOT:-/sysroot}
    if ! _sp_was=$(storprov_rw "$_sp_root"); then
        die "storprov: persist: cannot remount $_sp_root read-write"
    fi
    [ "$_sp_was" = ro ] && storprov_say "persist: $_sp_root remounted read-write for the files"
    storprov_run persist "$_sp_root"
    # the daily verify: its profile (STORPROV_PROFILE in the root's verify.env)
    # and its timer, enabled in the root
    if [ -n "${storprov_profile-}" ]; then
        storprov_verify_env "$_sp_root" "$storprov_profile"
        storprov_enable_timer "$_sp_root"
    fi
    if [ "$_sp_was" = ro ]; then
        command -v sync >/dev/null && sync
        if mount -o remount,ro "$_sp_root"; then
            storprov_say "persist: $_sp_root read-only again"
        else
            warn "storprov: persist: cannot remount $_sp_root read-only again"
        fi
    fi
fi
return 0
