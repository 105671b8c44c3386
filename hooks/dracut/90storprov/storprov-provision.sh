#!/bin/sh
# pre-mount hook: provision the disks before the root is mounted.
# Sourced by dracut: return, never exit.
# shellcheck source=/dev/null
type getarg >/dev/null 2>&1 || . /lib/dracut-lib.sh
# shellcheck source=hooks/dracut/90storprov/storprov-lib.sh
. /lib/storprov-lib.sh
storprov_run provision /run/storprov/root
return 0
