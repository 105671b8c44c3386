#!/bin/bash
# bench/guest/prov-profile.sh NAME ATTR VALUE...: the provisioning benchmark's
# profile (bench/loop-prov.sh on the host, prov-jobs.sh in the guest): one
# <disks> per VALUE (lun0, lun1, ...) matched by <match ATTR="VALUE"/>, each a
# hardware RAID5 4 x 64K LUN with one GPT partition and one XFS.
set -eu
name=$1 attr=$2
shift 2
echo '<?xml version="1.0"?>'
echo "<profile version=\"1\" name=\"$name\">"
i=0
for v in "$@"; do
	cat <<XML
  <disks id="lun$i" count="1">
    <match $attr="$v"/>
    <hwraid level="5" members="4" chunk="64K"/>
    <gpt><partition id="data" size="100%"/></gpt>
  </disks>
  <xfs on="lun$i.data" label="lun$i" mountpoint="/data/lun$i" mount-options="noatime"/>
XML
	i=$((i + 1))
done
echo '</profile>'
