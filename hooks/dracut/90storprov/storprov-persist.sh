#!/bin/sh
# pre-pivot hook: the root is mounted at $NEWROOT; verify the storage again and
# write fstab, udev rules, sysctl.d and mdadm.conf into it before switch-root.
# Sourced by dracut: return, never exit.
# shellcheck source=/dev/null
type getarg >/dev/null 2>&1 || . /lib/dracut-lib.sh
# shellcheck source=hooks/dracut/90storprov/storprov-lib.sh
. /lib/storprov-lib.sh
storprov_run persist "${NEWROOT:-/sysroot}"
return 0
