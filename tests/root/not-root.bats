#!/usr/bin/env bats
# apply run by a user who may not open the disks (issue 31: three "Permission
# denied" lines and advice to add --wipe, never "run as root"). As root, the
# test drops to uid/gid 65534 with setpriv for the storprov call alone.
load ../bats/test_helper

setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"
	losetup -f >/dev/null 2>&1 || skip "no loop devices"
	command -v setpriv >/dev/null || skip "no setpriv"
	W=$(mktemp -d /tmp/storprov-notroot.XXXXXX)
	chmod 755 "$W"
	truncate -s 1G "$W/d.img"
	LOOP=$(losetup -f --show -P "$W/d.img")
	N=$(basename "$LOOP")
	cat >"$W/p.xml" <<XML
<?xml version="1.0"?>
<profile version="1" name="not-root">
  <disks id="lun" count="1">
    <match name="$N"/>
    <hwraid level="5" members="4" chunk="64K"/>
    <gpt><partition id="data" size="100%"/></gpt>
  </disks>
  <xfs on="lun.data" label="lun" mountpoint="/data"/>
</profile>
XML
	chmod 644 "$W/p.xml"
	# a copy of the binary the unprivileged user can run, wherever the checkout is
	cp "$SP" "$W/sp"
	chmod 755 "$W/sp"
	mkdir -m 777 "$W/run"
	dd if=/dev/urandom of="$LOOP" bs=64k count=4 seek=100 conv=notrunc status=none
	SUM=$(cksum <"$LOOP")
}

teardown() {
	[ -n "${LOOP:-}" ] && losetup -d "$LOOP" 2>/dev/null || true
	[ -n "${W:-}" ] && rm -rf "$W"
}

nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

@test "not root: apply --dry-run and apply --yes say to run as root, once, and never suggest --wipe" {
	cd "$W"
	run -2 nobody ./sp apply --profile "$W/p.xml" --root "$W/root" --dry-run
	assert_output --partial "($LOOP): Permission denied: storprov apply --dry-run opens the disks"
	assert_output --partial "must run as root (uid 65534 here)"
	refute_output --partial -- "--wipe"
	refute_output --partial "wipe=\"true\""
	[ "$(grep -c 'Permission denied' <<<"$output")" -eq 1 ]
	run -2 nobody ./sp apply --profile "$W/p.xml" --root "$W/root" --yes --lock-file "$W/run/storprov.lock"
	assert_output --partial "must run as root"
	refute_output --partial -- "--wipe"
	[ "$(cksum <"$LOOP")" = "$SUM" ]
	[ ! -e "$W/root/etc/fstab" ]
}

@test "not root: the run lock in /run says why it cannot be opened" {
	cd "$W"
	# a lock file the user cannot create: a directory only root may write
	mkdir -m 755 "$W/rootonly"
	run -1 nobody ./sp apply --profile "$W/p.xml" --root "$W/root" --yes --lock-file "$W/rootonly/storprov.lock"
	assert_output --partial "cannot open the lock file $W/rootonly/storprov.lock: Permission denied (storprov apply must run as root)"
	[ "$(cksum <"$LOOP")" = "$SUM" ]
}
