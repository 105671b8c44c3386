#!/bin/sh
# Shared by the storprov hooks. Sourced by dracut hooks: no exit here.

storprov_args() {
    # prints the common apply arguments from the kernel command line
    _p=$(getarg rd.storprov.profile=)
    [ -n "$_p" ] || return 1
    # --- storprov select (issue 12) ---------------------------------------
    # rd.storprov.profile= may name a directory (/etc/storprov/profiles): the
    # one profile whose <match> rules fit this node; 2: none or several fit
    if [ -d "$_p" ]; then
        _p=$(storprov select --profiles "$_p" 2>/dev/console) || return 2
    fi
    # --- end storprov select ------------------------------------------------
    printf '%s\n' --profile "$_p" --yes
    getargbool 0 rd.storprov.wipe && printf '%s\n' --wipe
    _j=$(getarg rd.storprov.jobs=)
    [ -n "$_j" ] && printf '%s\n' --jobs "$_j"
    _s=$(getarg rd.storprov.seed=)
    [ -n "$_s" ] && printf '%s\n' --seed "$_s"
    return 0
}

# storprov_say MSG: like info(), but on the console also with "quiet", as the
# apply lines it introduces are: provision and persist tell themselves apart
storprov_say() {
    info "storprov: $*"
    check_quiet
    [ "$DRACUT_QUIET" = yes ] && echo "storprov: $*" >/dev/console
    return 0
}

# storprov_run WHAT ROOT: runs apply with every line on the console; dies on failure
storprov_run() {
    _what=$1 _root=$2
    _args=$(storprov_args) || {
        # --- storprov select (issue 12): a profile directory nothing in fits
        [ $? -eq 2 ] && die "storprov: $_what: no single profile in $(getarg rd.storprov.profile=) fits this node (storprov select above)"
        return 0
    }
    # one word per line; the profile path has no spaces
    # shellcheck disable=SC2086
    storprov_say "$_what: storprov apply $(printf '%s ' $_args)--root $_root"
    mkdir -p /run/storprov
    # one argument per line from storprov_args; profile paths have no spaces
    # shellcheck disable=SC2086
    storprov apply $_args --root "$_root" --report "/run/storprov/report-$_what.json" \
        >/dev/console 2>&1
    _rc=$?
    if [ "$_rc" -ne 0 ]; then
        warn "storprov: $_what failed with status $_rc; see the messages above and /run/storprov/report-$_what.json"
        die "storprov: $_what failed (status $_rc): the storage was not provisioned as the profile says"
    fi
    storprov_say "$_what done"
    return 0
}
