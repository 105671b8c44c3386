#!/bin/sh
# Scenario 56 (guest, issue 18): power loss during apply. Two own disks (pl0,
# pl1: a GPT and an XFS each) and a foreign disk (fg0: a random foreign layout
# behind an erased table, made on the host, not named by the profile), all
# with QEMU cache=none. PL_PHASE=kill: prints PL_APPLY_START and runs apply;
# the host kills QEMU (SIGKILL) at a random moment. PL_PHASE=resume (the next
# boot, same images): apply again must converge (exit 0), read back with
# sgdisk -v, blkid and xfs_repair -n; a third apply changes nothing; then
# apply --mount and storprov verify (exit 0).
# shellcheck source-path=SCRIPTDIR source=common.sh disable=SC1091
. /usr/lib/storprov-tests/common.sh
a=$(disk_by_serial pl0) b=$(disk_by_serial pl1) f=$(disk_by_serial fg0)
kv DISKS "$a $b $f"
cat >/tmp/p.xml <<XML
<?xml version="1.0"?>
<profile version="1" name="power-loss">
  <disks id="lun" count="2">
    <match serial="pl*"/>
    <hwraid level="5" members="4" chunk="64K"/>
    <gpt><partition id="data" size="100%"/></gpt>
  </disks>
  <xfs on="lun.data" label="pl%n" mountpoint="/data%n"/>
</profile>
XML
mkdir -p /target
sp() { storprov apply --profile /tmp/p.xml --yes --root /target --seed 1 --lock-file /tmp/sp.lock "$@" 2>&1; }
case ${PL_PHASE:-} in
kill)
	echo PL_APPLY_START
	sp
	kv RC1 "$?"
	;;
resume)
	section "what the power loss left"
	for d in "$a" "$b"; do show sgdisk -p "$d"; show blkid -p "$d"; done
	section "apply again"
	sp
	kv APPLY_RC "$?"
	udevadm settle 2>/dev/null
	ok=0 n=0
	for d in "$a" "$b"; do
		n=$((n + 1))
		p=$(ls "${d}"1 2>/dev/null || ls "${d}"p1 2>/dev/null)
		sgdisk -v "$d" 2>&1 | grep -q "No problems found" && ok=$((ok + 1))
		kv "LABEL$n" "$(blkid -p -o value -s LABEL "$p")"
		xfs_repair -n "$p" >/tmp/repair 2>&1
		kv "REPAIR$n" "$?"
	done
	kv SGDISK_OK "$ok"
	sp >/tmp/third
	kv RC3 "$?"
	kv CREATED3 "$(grep -c 'created' /tmp/third)"
	kv NOTHING3 "$(grep -c 'nothing to do' /tmp/third)"
	cat /tmp/third
	section "mounted, then verified"
	sp --mount
	storprov verify --profile /tmp/p.xml --root /target --seed 1 >/tmp/verify 2>&1
	kv VERIFY_RC "$?"
	cat /tmp/verify
	;;
*) die "PL_PHASE=kill or resume" ;;
esac
