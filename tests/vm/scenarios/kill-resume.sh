#!/bin/sh
# Scenario 70 (guest): storprov apply killed inside each child step that needs
# real md or dm (mdadm --create, lvm pvcreate, vgcreate, lvcreate), then run
# again without --wipe. Two ways to die: "after" (the tool finished, storprov
# killed before it saw the exit) and "during" (storprov and the tool killed
# while the tool runs). Each point starts from blank disks; results read back
# with mdadm --detail, lvm lvs, dmsetup table, xfs_info and mount.
# shellcheck source-path=SCRIPTDIR source=common.sh disable=SC1091
. /usr/lib/storprov-tests/common.sh
P=/usr/lib/storprov-tests/profiles/kill-resume.xml
slow_resync
REAL_MDADM=$(command -v mdadm)
REAL_LVM=$(command -v lvm)
M0=$(disk_by_serial kr0) || exit 1
M1=$(disk_by_serial kr1) || exit 1
M2=$(disk_by_serial kr2) || exit 1

# the wrappers: pass every call through; the one named by KILL_AT dies as KILL_HOW says
mkdir -p /tmp/kbin
cat >/tmp/kbin/mdadm <<SH
#!/bin/sh
case " \$* " in
*" --create "*) [ "\$KILL_AT" = mdadm ] && exec /bin/sh /tmp/kbin/kill.sh "$REAL_MDADM" "\$@" ;;
esac
exec "$REAL_MDADM" "\$@"
SH
cat >/tmp/kbin/lvm <<SH
#!/bin/sh
[ "\$KILL_AT" = "\$1" ] && exec /bin/sh /tmp/kbin/kill.sh "$REAL_LVM" "\$@"
exec "$REAL_LVM" "\$@"
SH
cat >/tmp/kbin/kill.sh <<'SH'
# exec'd by a wrapper: $PPID is storprov
echo "kill-resume: killing storprov $PPID $KILL_HOW $*" >&2
if [ "$KILL_HOW" = after ]; then
	"$@"
	kill -9 "$PPID"
	exit 0
fi
"$@" &
c=$!
usleep 150000 2>/dev/null || sleep 1
kill -9 "$PPID" "$c"
wait "$c"
exit 0
SH
chmod +x /tmp/kbin/mdadm /tmp/kbin/lvm

blank() {
	umount /target/vol 2>/dev/null
	lvm vgchange -an krvg >/dev/null 2>&1
	lvm vgremove -ff krvg >/dev/null 2>&1
	for md in /dev/md/kr /dev/md127 /dev/md126; do
		[ -b "$md" ] || continue
		lvm pvremove -ff -y "$md" >/dev/null 2>&1
		wipefs -a "$md" >/dev/null 2>&1
		mdadm --stop "$md" >/dev/null 2>&1
	done
	for m in "$M0" "$M1" "$M2"; do
		mdadm --zero-superblock "$m" >/dev/null 2>&1
		wipefs -a "$m" >/dev/null 2>&1
		dd if=/dev/zero of="$m" bs=1M count=8 conv=fsync 2>/dev/null
	done
	udevadm settle 2>/dev/null
	rm -rf /target
}

tried=0
converged=0
# KILL_POINTS (comma-separated TOOL:HOW, from the test's --env): the points
# to try; all eight without it
for point in $(echo "${KILL_POINTS:-mdadm:after,pvcreate:after,vgcreate:after,lvcreate:after,mdadm:during,pvcreate:during,vgcreate:during,lvcreate:during}" | tr , ' '); do
	at=${point%%:*}
	how=${point##*:}
	k=$(echo "${at}_${how}" | tr '[:lower:]' '[:upper:]')
	section "kill point $point"
	blank
	tried=$((tried + 1))
	KILL_AT=$at KILL_HOW=$how PATH=/tmp/kbin:$PATH storprov apply --profile "$P" --yes --root /target --seed 1 2>&1
	kv "KP_${k}_RC1" "$?"
	udevadm settle 2>/dev/null
	sleep 1
	storprov apply --profile "$P" --yes --root /target --seed 1 --mount 2>&1
	rc=$?
	kv "KP_${k}_RC2" "$rc"
	udevadm settle 2>/dev/null
	d=$(mdadm --detail --export /dev/md/kr 2>/dev/null)
	kv "KP_${k}_LEVEL" "$(printf '%s\n' "$d" | sed -n 's/^MD_LEVEL=//p')"
	kv "KP_${k}_DEVICES" "$(printf '%s\n' "$d" | sed -n 's/^MD_DEVICES=//p')"
	kv "KP_${k}_ARRAYS" "$(grep -c '^md' /proc/mdstat)"
	kv "KP_${k}_PVS" "$(lvm pvs --noheadings -o pv_name 2>/dev/null | wc -l)"
	kv "KP_${k}_LVS" "$(lvm lvs --noheadings -o lv_name krvg 2>/dev/null | tr -d ' ')"
	kv "KP_${k}_DM" "$(dmsetup table krvg-vol 2>/dev/null | awk '{print $3}')"
	kv "KP_${k}_XFS_SWIDTH" "$(xfs_info /dev/krvg/vol 2>/dev/null | sed -n '/swidth=/{s/.*swidth=\([0-9]*\).*/\1/p;q}')"
	kv "KP_${k}_REPAIR" "$(umount /target/vol 2>/dev/null; xfs_repair -n /dev/krvg/vol >/dev/null 2>&1; echo $?)"
	mkdir -p /mnt/chk
	kv "KP_${k}_MOUNT" "$(mount -t xfs /dev/krvg/vol /mnt/chk 2>&1 && echo ok; umount /mnt/chk 2>/dev/null)"
	kv "KP_${k}_FSTAB" "$(awk '$2 == "/vol"' /target/etc/fstab 2>/dev/null | wc -l)"
	out=$(storprov apply --profile "$P" --yes --root /target --seed 1 2>&1)
	rc3=$?
	printf '%s\n' "$out"
	kv "KP_${k}_RC3" "$rc3"
	kv "KP_${k}_NOTHING" "$(printf '%s\n' "$out" | grep -c 'nothing to do')"
	if [ "$rc" = 0 ] && [ "$rc3" = 0 ] && printf '%s\n' "$out" | grep -q 'nothing to do'; then
		converged=$((converged + 1))
	fi
done
blank
kv KILL_POINTS_TRIED "$tried"
kv KILL_POINTS_CONVERGED "$converged"
