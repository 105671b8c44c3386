#!/bin/sh
# Shared by the storprov hooks. Sourced by dracut hooks: no exit here.
# storprov_rundir (tests only) stands in for /run/storprov.

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
    # where the tuning persists (udev, tuned, both): storprov refuses any other
    _tu=$(getarg rd.storprov.tuning=)
    [ -n "$_tu" ] && printf '%s\n' --tuning "$_tu"
    return 0
}

# storprov_say MSG: info() (the kernel log, so the journal), and the console
# also with "quiet": provision and persist tell themselves apart
storprov_say() {
    info "storprov: $*"
    check_quiet
    [ "$DRACUT_QUIET" = yes ] && echo "storprov: $*" >/dev/console
    return 0
}

# storprov_log: every line of stdin through storprov_say
storprov_log() {
    while IFS= read -r _l || [ -n "$_l" ]; do
        storprov_say "${_l#storprov: }"
    done
}

# storprov_mdadm_conf ROOT: where mdadm.conf lives in ROOT: rd.storprov.mdadm-conf=,
# else the file the root has, else by distribution (EL and Fedora read
# /etc/mdadm.conf first; Debian /etc/mdadm/mdadm.conf)
storprov_mdadm_conf() {
    _m=$(getarg rd.storprov.mdadm-conf=)
    if [ -n "$_m" ]; then
        echo "$_m"
    elif [ -f "$1/etc/mdadm.conf" ]; then
        echo /etc/mdadm.conf
    elif [ -f "$1/etc/mdadm/mdadm.conf" ]; then
        echo /etc/mdadm/mdadm.conf
    elif [ -f "$1/etc/redhat-release" ] || grep -qsE '^ID(_LIKE)?=.*(rhel|fedora|centos)' "$1/etc/os-release" "$1/usr/lib/os-release"; then
        echo /etc/mdadm.conf
    else
        echo /etc/mdadm/mdadm.conf
    fi
}

# storprov_rw ROOT: makes ROOT writable; prints "ro" when it was read-only
# (EL boots with "ro", and under systemd $NEWROOT is then mounted read-only)
storprov_rw() {
    # the last mount of ROOT in /proc/mounts, in plain sh (dracut images carry no text tools beyond grep and sed)
    _opts=
    while read -r _dev _mp _fs _o _rest; do
        [ "$_mp" = "$1" ] && _opts=$_o
    done </proc/mounts
    case ,$_opts, in
    *,ro,*)
        mount -o remount,rw "$1" || return 1
        echo ro
        ;;
    esac
    return 0
}

# storprov_run WHAT ROOT: runs apply with every line to the journal and the
# console; dies on failure
storprov_run() {
    _what=$1 _root=$2 _sp_run=${storprov_rundir:-/run/storprov}
    _args=$(storprov_args) || {
        # a profile directory (storprov select) nothing in fits: stop the boot
        [ $? -eq 2 ] && die "storprov: $_what: no single profile in $(getarg rd.storprov.profile=) fits this node (storprov select above)"
        return 0
    }
    _mdconf=$(storprov_mdadm_conf "$_root")
    # one word per line; the profile path has no spaces
    # shellcheck disable=SC2086
    storprov_say "$_what: storprov apply $(printf '%s ' $_args)--root $_root --mdadm-conf $_mdconf"
    mkdir -p "$_sp_run"
    # one argument per line from storprov_args; profile paths have no spaces
    # shellcheck disable=SC2086
    { storprov apply $_args --root "$_root" --mdadm-conf "$_mdconf" \
        --report "$_sp_run/report-$_what.json" 2>&1; echo $? >"$_sp_run/rc-$_what"; } | storprov_log
    _rc=$(cat "$_sp_run/rc-$_what")
    if [ "$_rc" -ne 0 ]; then
        warn "storprov: $_what failed with status $_rc; see the messages above and $_sp_run/report-$_what.json"
        die "storprov: $_what failed (status $_rc): the storage was not provisioned as the profile says"
    fi
    storprov_say "$_what done"
    # the profile applied (after select), for storprov_verify_env (persist)
    _prev=
    for _a in $_args; do
        # shellcheck disable=SC2034 # read by storprov-persist.sh
        [ "$_prev" = --profile ] && storprov_profile=$_a
        _prev=$_a
    done
    return 0
}

# storprov_disks_ready: 0 when the profile's disks are all there or the wait
# is over (see storprov-wait.sh)
storprov_disks_ready() {
    _sp_run=${storprov_rundir:-/run/storprov}
    _p=$(getarg rd.storprov.profile=)
    [ -n "$_p" ] || return 0
    [ -e "$_sp_run/disks-ready" ] && return 0
    mkdir -p "$_sp_run"
    read -r _now _ </proc/uptime
    _now=${_now%%.*}
    [ -s "$_sp_run/wait-start" ] || echo "$_now" >"$_sp_run/wait-start"
    read -r _start <"$_sp_run/wait-start"
    if storprov validate --profile "$_p" >"$_sp_run/wait.log" 2>&1; then
        storprov_say "the disks of $_p are all there after $((_now - _start))s"
        : >"$_sp_run/disks-ready"
        return 0
    fi
    _t=$(getarg rd.storprov.timeout=)
    case $_t in '' | *[!0-9]*) _t=180 ;; esac
    if [ ! -e "$_sp_run/wait-said" ]; then
        : >"$_sp_run/wait-said"
        storprov_say "waiting up to ${_t}s for the disks of $_p: $(grep -m1 'error:' "$_sp_run/wait.log")"
        # dracut's initqueue gives up after rd.retry= (default 180) rounds of
        # half a second, whatever this hook says: a longer timeout never counts
        _r=$(getarg rd.retry=)
        case $_r in '' | *[!0-9]*) _r=180 ;; esac
        if [ "$_t" -gt "$_r" ]; then
            warn "storprov: rd.storprov.timeout=$_t is above dracut's rd.retry=$_r: the initqueue stops waiting after about ${_r}s; add rd.retry=$((_t + 30)) to the kernel command line"
        fi
    fi
    if [ $((_now - _start)) -ge "$_t" ]; then
        warn "storprov: gave up waiting for the disks of $_p after ${_t}s (rd.storprov.timeout=): $(grep -m1 'error:' "$_sp_run/wait.log")"
        : >"$_sp_run/disks-ready"
        return 0
    fi
    return 1
}

# storprov_same A B: whether files A and B hold the same text (no cmp in the image)
storprov_same() {
    [ -f "$1" ] && [ -f "$2" ] && [ "$(cat "$1")" = "$(cat "$2")" ]
}

# storprov_verify_env ROOT PROFILE: the daily verify of the booted node
# (storprov-verify.service) checks it against PROFILE, the profile this boot
# applied: STORPROV_PROFILE in ROOT's /etc/storprov/verify.env, every other line
# kept; with rd.storprov.mdadm-conf= or rd.storprov.tuning= also
# STORPROV_VERIFY_ARGS='--mdadm-conf PATH --tuning MODE' (verify finds the
# default mdadm.conf by itself, as storprov_mdadm_conf does). ROOT is the new root before switch-root, / after it: the path written
# is the one the booted node sees, so no --root. PROFILE is named by its own
# path when ROOT has the same file there, else copied to
# /etc/storprov/provisioned/ (not among the site profiles that module-setup
# puts in the next image, where a second copy would make select refuse).
# Whatever the profile's path, the value written is plain [A-Za-z0-9_./-]: a
# name with other characters is copied as profile.xml, so neither systemd's
# EnvironmentFile= nor sh can read it otherwise. The file is rewritten in
# place (its SELinux label and mode stay). 1 when it cannot, warned.
storprov_verify_env() {
    _r=$1 _p=$2 _n=${2##*/} _f=$1/etc/storprov/verify.env
    case $_p in
    /*) ;;
    *) _p=$(pwd)/$_p ;;
    esac
    case $_n in
    '' | .* | *[!A-Za-z0-9_.-]*) _n=profile.xml ;;
    esac
    case $_p in
    *[!A-Za-z0-9_./-]* | */./* | */../*) _t= ;;
    *) _t=$_p ;;
    esac
    if [ -z "$_t" ] || ! storprov_same "$_r$_t" "$_p"; then
        _t=/etc/storprov/provisioned/$_n
        if ! { mkdir -p "$_r/etc/storprov/provisioned" && cat "$_p" >"$_r$_t"; }; then
            warn "storprov: persist: cannot copy $_p to $_r$_t; the daily verify (storprov-verify.service) has no profile: set STORPROV_PROFILE in /etc/storprov/verify.env"
            return 1
        fi
    fi
    _m=$(getarg rd.storprov.mdadm-conf=)
    case $_m in
    *[!A-Za-z0-9_./-]*)
        warn "storprov: persist: rd.storprov.mdadm-conf=$_m has characters verify.env cannot carry (only A-Z a-z 0-9 _ . / -): not in its STORPROV_VERIFY_ARGS; set --mdadm-conf there by hand"
        _m=
        ;;
    esac
    _va=${_m:+--mdadm-conf $_m}
    # the mode apply ran in (it refused any other value, so this is one of them)
    _tu=$(getarg rd.storprov.tuning=)
    case $_tu in
    udev | tuned | both) _va="${_va:+$_va }--tuning $_tu" ;;
    esac
    if [ -n "$_va" ]; then
        _text=$(grep -v -e '^STORPROV_PROFILE=' -e '^STORPROV_VERIFY_ARGS=' "$_f" 2>/dev/null)
        _text="${_text:+$_text
}STORPROV_VERIFY_ARGS='$_va'"
    else
        _text=$(grep -v '^STORPROV_PROFILE=' "$_f" 2>/dev/null)
    fi
    if ! { mkdir -p "${_f%/*}" && printf '%s\n' "${_text:+$_text
}STORPROV_PROFILE=$_t" >"$_f"; } 2>/dev/null; then
        warn "storprov: persist: cannot write $_f; the daily verify (storprov-verify.service) has no profile: set STORPROV_PROFILE=$_t there"
        return 1
    fi
    storprov_say "persist: the daily verify checks against $_t ($_f)"
    return 0
}

# storprov_enable_timer ROOT: storprov-verify.timer enabled in ROOT as
# `systemctl enable` does it, a link in /etc/systemd/system/timers.target.wants
# to the unit (no systemctl in every image), so the daily verify runs from the
# next boot on; a timer masked in ROOT stays masked (mask it to keep it off:
# this hook runs at every boot with rd.storprov.profile=). 1 when ROOT has no
# such unit (the storprov package is not installed there) or the link cannot
# be made, warned.
storprov_enable_timer() {
    _u=
    for _d in /etc/systemd/system /usr/lib/systemd/system /lib/systemd/system; do
        if [ -e "$1$_d/storprov-verify.timer" ] || [ -L "$1$_d/storprov-verify.timer" ]; then
            _u=$_d/storprov-verify.timer
            break
        fi
    done
    if [ -z "$_u" ]; then
        warn "storprov: persist: no storprov-verify.timer in $1 (install the storprov package there): the daily verify is not scheduled"
        return 1
    fi
    if [ "$(readlink "$1$_u")" = /dev/null ]; then
        storprov_say "persist: storprov-verify.timer is masked in $1: left masked"
        return 0
    fi
    _w=$1/etc/systemd/system/timers.target.wants
    if [ -L "$_w/storprov-verify.timer" ] || [ -e "$_w/storprov-verify.timer" ]; then
        return 0
    fi
    if ! { mkdir -p "$_w" && ln -s "$_u" "$_w/storprov-verify.timer"; } 2>/dev/null; then
        warn "storprov: persist: cannot enable storprov-verify.timer in $1 (no link $_w/storprov-verify.timer): the daily verify is not scheduled"
        return 1
    fi
    storprov_say "persist: storprov-verify.timer enabled in $1 (the daily verify)"
    return 0
}
