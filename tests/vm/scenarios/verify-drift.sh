#!/bin/sh
# Scenario 7 (guest): provision profiles/verify.xml, verify (must be clean),
# change five things by hand, verify again (must name each one). One boot.
# shellcheck source=tests/vm/scenarios/common.sh
. /usr/lib/storprov-tests/common.sh
P=/usr/lib/storprov-tests/profiles/verify.xml

slow_resync
apply_profile "$P" --root /target --mount --seed 1 || exit 1

section "storprov verify, as provisioned"
storprov verify --profile "$P" --root /target --seed 1 >/tmp/v1.txt 2>&1
kv VERIFY1_RC $?
cat /tmp/v1.txt
kv VERIFY1_SUMMARY "$(tail -n 1 /tmp/v1.txt)"
storprov verify --profile "$P" --root /target --seed 1 --format json >/tmp/v1.json 2>/dev/null
kv VERIFY1_JSON_RC $?
kv VERIFY1_JSON_STATUS "$(sed -n 's/^  "status": "\([a-z]*\)",$/\1/p' /tmp/v1.json)"

section "drift, by hand"
d0=$(disk_by_serial vf0)
kv DRIFT_DISK "${d0#/dev/}"
blockdev --setra 512 "$d0"   # 512 sectors: 256 KiB
kv_file DRIFT_RA_KB "/sys/block/${d0#/dev/}/queue/read_ahead_kb"
k=$(readlink -f /dev/md/data)
k=${k#/dev/}
echo 512 >"/sys/block/$k/md/stripe_cache_size"
kv_file DRIFT_STRIPE_CACHE "/sys/block/$k/md/stripe_cache_size"
# mounted again with other options (a remount keeps XFS's noatime under busybox)
umount /target/srv/big
mount -t xfs -o relatime,logbufs=4,logbsize=64k /dev/vfy/big /target/srv/big
kv DRIFT_MOUNT "$(grep ' /target/srv/big ' /proc/mounts)"
rm /target/etc/udev/rules.d/70-storprov.rules
kv DRIFT_RULES "$(ls /target/etc/udev/rules.d/70-storprov.rules 2>&1)"
echo 20 >/proc/sys/vm/dirty_ratio
kv_file DRIFT_DIRTY_RATIO /proc/sys/vm/dirty_ratio

section "storprov verify, after the drift"
storprov verify --profile "$P" --root /target --seed 1 >/tmp/v2.txt 2>&1
kv VERIFY2_RC $?
cat /tmp/v2.txt
kv VERIFY2_SUMMARY "$(tail -n 1 /tmp/v2.txt)"
storprov verify --profile "$P" --root /target --seed 1 --format json >/tmp/v2.json 2>/dev/null
kv VERIFY2_JSON_RC $?
kv VERIFY2_JSON_STATUS "$(sed -n 's/^  "status": "\([a-z]*\)",$/\1/p' /tmp/v2.json)"
exit 0
