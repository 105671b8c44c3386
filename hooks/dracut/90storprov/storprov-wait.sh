#!/bin/sh
# initqueue/finished hook: done (0) once every <disks> group of the profile
# finds its disks, or once rd.storprov.timeout= seconds (default 180) have
# passed; the pre-mount hook then fails with storprov's "expected N disks,
# found M". Sourced by dracut's initqueue loop, again and again: return, never exit.
# shellcheck source=/dev/null
type getarg >/dev/null 2>&1 || . /lib/dracut-lib.sh
# shellcheck source=hooks/dracut/90storprov/storprov-lib.sh
. /lib/storprov-lib.sh
storprov_disks_ready
