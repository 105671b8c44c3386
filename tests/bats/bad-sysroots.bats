#!/usr/bin/env bats
# Hostile captured machines (tests/bad-sysroots/README.md): serials, WWNs,
# models and kernel names that try to write udev syntax, and links out of the
# captured tree. Every rendered file is read back by an independent strict
# reader (build/tests/render-check), and by udevadm verify where it exists.
load test_helper

RC="$TOP/build/tests/render-check"
PROFILE="$TOP/profiles/grid-3ware-raid5.xml"

# world CASE: builds the case; renders; leaves $root, $out (stdout+stderr)
world() {
	W="$BATS_TEST_TMPDIR/sys" S="$BATS_TEST_TMPDIR/secret" root="$BATS_TEST_TMPDIR/root"
	"$TOP/tests/bad-sysroots/make.sh" "$1" "$W" "$S"
	run "$SP" render --profile "$PROFILE" --sysroot "$W" --seed 1 --root "$root"
	rc=$status out=$output
	plan=$("$SP" plan --profile "$PROFILE" --sysroot "$W" --seed 1 --format json 2>&1 || true)
}

# absent CMD...: fails when CMD succeeds (a bare "! cmd" never fails a bats test)
absent() {
	if "$@"; then
		echo "unexpected success: $*"
		return 1
	fi
}

# clean: every file under root passes the strict reader; nothing carries RUN,
# the secret, or an outside value, in the files, the messages or the plan.
clean() {
	local f
	[ ! -f "$root/etc/udev/rules.d/70-storprov.rules" ] || "$RC" udev "$root/etc/udev/rules.d/70-storprov.rules"
	[ ! -f "$root/etc/fstab" ] || "$RC" fstab "$root/etc/fstab"
	[ ! -f "$root/etc/sysctl.d/80-storprov.conf" ] || "$RC" sysctl "$root/etc/sysctl.d/80-storprov.conf"
	if [ -d "$root" ]; then
		absent grep -rE 'RUN|PROGRAM|IMPORT|GOTO|SECRET|OUTSIDE' "$root"
	fi
	absent grep -E 'SECRET|OUTSIDE|storprov-pwned' <<<"$out$plan"
	[ ! -e /tmp/storprov-pwned ]
}

rule_keys() { grep -v '^#' "$root/etc/udev/rules.d/70-storprov.rules" | grep -oE '(ENV\{ID_[A-Z]+\}|ATTRS\{wwid\})==' | sort | uniq -c | awk '{print $1, $2}'; }

@test "the strict reader refuses the rule the old renderer wrote" {
	local f="$BATS_TEST_TMPDIR/old.rules"
	printf '%s\n' 'ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", ENV{ID_SERIAL}=="*", RUN+="/usr/bin/touch /tmp/x", ENV{DEVTYPE}=="disk", ATTR{queue/nr_requests}="512"' >"$f"
	run -1 "$RC" udev "$f"
	printf '%s\n' 'ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", ENV{ID_SERIAL}=="*", ATTR{queue/nr_requests}="512"' >"$f"
	run -1 "$RC" udev "$f"
	printf 'UUID=x\t/srv\txfs\tnoatime\n/dev/sda / xfs defaults 0 0\t0 0\n' >"$f"
	run -1 "$RC" fstab "$f"
	"$RC" udev "$EXPECTED/grid-3ware-raid5/70-storprov.rules"
	"$RC" fstab "$EXPECTED/grid-3ware-raid5/fstab"
}

@test "the strict reader takes an md member's rules by ENV{ID_FS_UUID} and nothing looser" {
	local f="$BATS_TEST_TMPDIR/member.rules" u=ab879af1-a3b7-4819-836f-01085eb169f6 line
	local m='ENV{ID_FS_UUID}=="'$u'", ENV{ID_FS_TYPE}=="linux_raid_member"'
	local disk='ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", KERNEL!="dm-*", '
	local part='ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="partition", '
	# the two shapes render writes (md-raid6-lvm's golden has them)
	printf '%s\n' "$disk$m"', ATTR{queue/scheduler}="mq-deadline", ATTR{queue/read_ahead_kb}="4096"' \
		"$part$m"', ATTR{../queue/scheduler}="mq-deadline", ATTR{../queue/read_ahead_kb}="4096"' >"$f"
	"$RC" udev "$f"
	grep -qF "$part$m" "$EXPECTED/md-raid6-lvm/70-storprov.rules"
	"$RC" udev "$EXPECTED/md-raid6-lvm/70-storprov.rules"
	while IFS= read -r line; do
		printf '%s\n' "$line" >"$f"
		run -1 "$RC" udev "$f"
	done <<EOF
${disk}ENV{ID_FS_UUID}=="$u", ATTR{queue/scheduler}="none"
${disk}ENV{ID_WWN}=="0x5000c500a3f10a1b", ENV{ID_FS_TYPE}=="linux_raid_member", ATTR{queue/scheduler}="none"
${disk}ENV{ID_FS_UUID}=="$u", ENV{ID_FS_TYPE}=="xfs", ATTR{queue/scheduler}="none"
${disk}ENV{ID_FS_UUID}=="$u", ENV{ID_FS_TYPE}!="linux_raid_member", ATTR{queue/scheduler}="none"
${disk}ENV{ID_FS_UUID}=="AB879AF1-A3B7-4819-836F-01085EB169F6", ENV{ID_FS_TYPE}=="linux_raid_member", ATTR{queue/scheduler}="none"
${disk}ENV{ID_FS_UUID}=="ab879af1:a3b74819:836f0108:5eb169f6", ENV{ID_FS_TYPE}=="linux_raid_member", ATTR{queue/scheduler}="none"
${disk}ENV{ID_FS_UUID}=="ab879af1-*", ENV{ID_FS_TYPE}=="linux_raid_member", ATTR{queue/scheduler}="none"
${disk}ENV{ID_FS_UUID}!="$u", ENV{ID_FS_TYPE}=="linux_raid_member", ATTR{queue/scheduler}="none"
${disk}$m, ENV{ID_WWN}=="0x5000c500a3f10a1b", ATTR{queue/scheduler}="none"
${disk}$m, ATTR{../queue/scheduler}="none"
${disk}$m, ATTR{md/stripe_cache_size}="4096"
ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", $m, ATTR{queue/scheduler}="none"
ACTION=="add|change", SUBSYSTEM=="block", $m, ATTR{queue/scheduler}="none"
${part}$m, ATTR{queue/scheduler}="none"
${part}$m, ATTR{../../queue/scheduler}="none"
${part}$m, ATTR{../queue/../scheduler}="none"
${part}ENV{ID_WWN}=="0x5000c500a3f10a1b", ATTR{../queue/scheduler}="none"
ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="partition", ENV{ID_WWN}=="0x5000c500a3f10a1b", ATTR{queue/scheduler}="none"
ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", ENV{ID_WWN}=="0x5000c500a3f10a1b", ATTR{../queue/scheduler}="none"
ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", ENV{ID_WWN}=="0x5000c500a3f10a1b", ATTR{queue/../../uevent}="add"
ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="usb", ENV{ID_WWN}=="0x5000c500a3f10a1b", ATTR{queue/scheduler}="none"
EOF
}

@test "udevadm verify accepts every rendered rules file (systemd >= 253)" {
	udevadm verify --help >/dev/null 2>&1 || skip "udevadm $(udevadm --version) has no verify (systemd < 253); the strict reader stands in"
	for c in serial-injection wwid-only all-unsafe; do
		world "$c"
		udevadm verify --resolve-names=never "$root/etc/udev/rules.d/70-storprov.rules"
	done
}

@test "bad sysroot: serial-injection: matched by ID_PATH, no RUN" {
	world serial-injection
	[ "$rc" -eq 0 ]
	clean
	[ "$(rule_keys)" = "2 ENV{ID_PATH}==" ]
}

@test "bad sysroot: serial-star: matched by ID_PATH, not every disk" {
	world serial-star
	[ "$rc" -eq 0 ]
	clean
	[ "$(rule_keys)" = "2 ENV{ID_PATH}==" ]
	absent grep -F '=="*"' "$root/etc/udev/rules.d/70-storprov.rules"
}

@test "bad sysroot: wwn-glob: matched by ID_SERIAL" {
	world wwn-glob
	[ "$rc" -eq 0 ]
	clean
	[ "$(rule_keys)" = "2 ENV{ID_SERIAL}==" ]
}

@test "bad sysroot: wwn-newline: matched by ID_SERIAL" {
	world wwn-newline
	[ "$rc" -eq 0 ]
	clean
	[ "$(rule_keys)" = "2 ENV{ID_SERIAL}==" ]
}

@test "bad sysroot: path-only: matched by ID_PATH" {
	world path-only
	[ "$rc" -eq 0 ]
	clean
	[ "$(rule_keys)" = "2 ENV{ID_PATH}==" ]
}

@test "bad sysroot: wwid-only: matched by the kernel's wwid" {
	world wwid-only
	[ "$rc" -eq 0 ]
	clean
	[ "$(rule_keys)" = "2 ATTRS{wwid}==" ]
	grep -F 'ATTRS{wwid}=="eui.0025385b71b0a1f2"' "$root/etc/udev/rules.d/70-storprov.rules"
}

@test "bad sysroot: all-unsafe: nothing stable is safe: the kernel names, with a warning" {
	world all-unsafe
	[ "$rc" -eq 0 ]
	clean
	[ -z "$(rule_keys)" ]
	[ "$(grep -v '^#' "$root/etc/udev/rules.d/70-storprov.rules" | grep -c 'ENV{DEVTYPE}=="disk", KERNEL=="sd[bc]"')" -eq 2 ]
	[ "$(grep -c '\[udev-kernel-name\]' <<<"$out")" -eq 2 ]
	grep -F 'ID_WWN is no value a udev rule can match safely' <<<"$out"
}

@test "bad sysroot: model-newline: the first line only" {
	world model-newline
	[ "$rc" -eq 0 ]
	clean
	absent grep -F 'RUN' <<<"$plan"
}

@test "bad sysroot: model-symlink-out: the linked attribute is never read" {
	world model-symlink-out
	[ "$rc" -eq 2 ]     # sdb lost its model, sdc its vendor: they no longer match
	clean
	grep -F 'AMCC ?' <<<"$out"
}

@test "bad sysroot: udev-data-symlink: the linked record is ignored" {
	world udev-data-symlink
	[ "$rc" -eq 0 ]
	clean
	grep -F 'ENV{ID_WWN}=="0x600050e04ab71d00"' "$root/etc/udev/rules.d/70-storprov.rules"
}

@test "bad sysroot: block-symlink-out: the linked device is ignored" {
	world block-symlink-out
	[ "$rc" -eq 2 ]
	clean
	grep -F 'expected 2 disks, found 1' <<<"$out"
}

@test "bad sysroot: meminfo-symlink: memory unknown, the secret never printed" {
	world meminfo-symlink
	[ "$rc" -eq 0 ]
	clean
}

@test "bad sysroot: devname-escape: the device node stays under /dev" {
	world devname-escape
	[ "$rc" -eq 0 ]
	clean
	grep -F '"/dev/sdb"' <<<"$plan"
	absent grep -F 'passwd' <<<"$plan"
}

@test "bad sysroot: kernel-name-newline: the device is ignored with a warning" {
	world kernel-name-newline
	[ "$rc" -eq 2 ]
	clean
	grep -F '[device-name]' <<<"$out"
	[ "$(grep -c 'RUN' <<<"$out")" -eq 1 ]   # only in the warning, shown with the newline as ?
}

# ---- the running system's own disks (proc/self/mountinfo, proc/swaps, proc/cmdline, links) ----

# inv: the inventory of the world, for the names storprov knows each disk by
inv() { "$SP" inventory --sysroot "$W" --format json 2>&1; }

@test "bad sysroot: mountinfo-root-on-lun: the LUN holding / is never selected" {
	world mountinfo-root-on-lun
	[ "$rc" -eq 2 ]
	clean
	grep -F 'left out: sdb matches too, but it is a system disk (sdb is mounted at /)' <<<"$out"
	grep -F '[system-disk]' <<<"$out"
	[ ! -e "$root" ]
}

@test "bad sysroot: mountinfo-no-newline: the last line counts without its newline" {
	world mountinfo-no-newline
	[ "$rc" -eq 2 ]
	clean
	grep -F 'left out: sdc matches too, but it is a system disk (sdc is mounted at /)' <<<"$out"
	[ ! -e "$root" ]
}

@test "bad sysroot: mountinfo-nul: a NUL byte refuses, naming the file and line" {
	world mountinfo-nul
	[ "$rc" -eq 2 ]
	clean
	grep -F 'proc/self/mountinfo line 2 holds a NUL byte' <<<"$out"
	grep -F '[system-probe]' <<<"$out"
	[ ! -e "$root" ]
}

@test "bad sysroot: mountinfo-long-line: a line of 2 MiB is read whole, / after it still found" {
	world mountinfo-long-line
	[ "$rc" -eq 0 ]
	clean
	[ "$(jq -r '.system_disks[0].why' <<<"$plan")" = "sda2 is mounted at /" ]
	[ "$(jq -r '[.objects[] | select(.kind=="disk") | .device] | join(" ")' <<<"$plan")" = "/dev/sdb /dev/sdc" ]
}

@test "bad sysroot: mountinfo-bytes: CR, bytes that are not UTF-8 and escapes are path bytes, never output bytes" {
	world mountinfo-bytes
	[ "$rc" -eq 0 ]
	clean
	[ "$(jq -r '.system_disks | length' <<<"$plan")" = 1 ]
	[ "$(jq -r '.system_disks[0].why' <<<"$plan")" = "sda2 is mounted at /" ]
	# "/boot\r" is not /boot: sda1's other mounts make no second reason; nothing raw reaches a message
	absent grep -qP '\r|[\x80-\xff]' <<<"$out$plan$(inv)"
}

@test "bad sysroot: mountinfo-huge: a table over 64 MiB refuses" {
	world mountinfo-huge
	[ "$rc" -eq 2 ]
	clean
	grep -F 'proc/self/mountinfo cannot be read: larger than 64 MiB' <<<"$out"
}

@test "bad sysroot: mountinfo-symlink: never read through the link, the secret never printed" {
	world mountinfo-symlink
	[ "$rc" -eq 2 ]
	clean
	grep -F 'proc/self/mountinfo cannot be read: it is a symbolic link' <<<"$out"
	absent grep -F SECRET <<<"$(inv)"
}

@test "bad sysroot: swaps-on-lun: swap named by a by-id link keeps its LUN out" {
	world swaps-on-lun
	[ "$rc" -eq 2 ]
	clean
	grep -F 'left out: sdc matches too, but it is a system disk (sdc is active swap)' <<<"$out"
}

@test "bad sysroot: cmdline-install-source: the installer's hd: source, by a quoted upper-case UUID, is kept out" {
	world cmdline-install-source
	[ "$rc" -eq 2 ]
	clean
	grep -F "left out: sdb matches too, but it is a system disk (sdb is the installer's or live system's source" <<<"$out"
	# and it cannot be named an OS disk either: clearpart would wipe the install media
	printf '<profile version="1" name="one"><disks id="d" count="1"><match wwn="0x600050e04ab92600"/></disks>%s</profile>\n' \
		'<xfs on="d" mountpoint="/d"/>' >"$BATS_TEST_TMPDIR/one.xml"
	run -0 "$SP" plan --profile "$BATS_TEST_TMPDIR/one.xml" --sysroot "$W" --format ks
	run -2 "$SP" plan --profile "$BATS_TEST_TMPDIR/one.xml" --sysroot "$W" --format ks --os-disks sdb
	assert_output --partial "is what the system or installer booted from"
	assert_output --partial "[os-disks]"
}

@test "bad sysroot: cmdline-nul: a NUL byte on the command line refuses" {
	world cmdline-nul
	[ "$rc" -eq 2 ]
	clean
	grep -F 'proc/cmdline holds a NUL byte' <<<"$out"
}

@test "bad sysroot: udev-link-injection: S: lines that climb, carry a CR, blanks or quotes are no names" {
	world udev-link-injection
	[ "$rc" -eq 0 ]
	clean
	local names
	names=$(jq -r '.disks[].links[]' <<<"$(inv)")
	absent grep -E '\.\.|^/|["[:space:][:cntrl:]]|(^|/)\.(/|$)' <<<"$names"
	grep -Fx 'disk/by-id/wwn-0x600050e04ab71d001f5a0000c3e80000' <<<"$names"
	for n in ../../etc/passwd /etc/shadow 'disk/by-id/a b' 'disk/by-id/RUN+="/bin/sh"'; do
		run -2 "$SP" plan --profile "$PROFILE" --sysroot "$W" --format ks --os-disks "$n"
		refute_output --partial 'SECRET'
	done
}

@test "bad sysroot: dev-links-out: links under dev/ that leave it, loop or sit behind a linked directory name nothing" {
	world dev-links-out
	[ "$rc" -eq 0 ]
	clean
	for n in /dev/disk/by-id/climb /dev/disk/by-id/abs-out /dev/disk/by-id/loop-a /dev/disk/by-path/outside-sdb; do
		run -2 "$SP" plan --profile "$PROFILE" --sysroot "$W" --format ks --os-disks "$n"
		assert_output --partial "answers to \"$n\""
	done
	# a link that stays inside dev/ is a name like any other: here, of a LUN the profile needs
	run -2 "$SP" plan --profile "$PROFILE" --sysroot "$W" --format ks --os-disks /dev/disk/by-id/site-lun-2
	assert_output --partial "left out: sdc matches too, but it is a system disk (--os-disks /dev/disk/by-id/site-lun-2)"
}

# ---- a rule's key must reach its targets only ----

# reaches DEV: does any rule line of the rendered file match DEV's udev record
# (its ID_WWN / ID_SERIAL / ID_PATH) or kernel name? Read from the world's udev
# database, not from storprov's plan.
reaches() {
	local dev=$1 rec=$2 k v
	while IFS='=' read -r k v; do
		case $k in E:ID_WWN | E:ID_SERIAL | E:ID_PATH)
			grep -v '^#' "$root/etc/udev/rules.d/70-storprov.rules" | grep -qF "ENV{${k#E:}}==\"$v\"" && return 0 ;;
		esac
	done <"$W/run/udev/data/$rec"
	grep -v '^#' "$root/etc/udev/rules.d/70-storprov.rules" | grep -qF "KERNEL==\"$dev\"" && return 0
	return 1
}

@test "bad sysroot: shared-serial: the OS disk shares the WWN and sdb's serial: ID_PATH, said why" {
	world shared-serial
	[ "$rc" -eq 0 ]
	clean
	[ "$(rule_keys)" = "1 ENV{ID_PATH}==
1 ENV{ID_SERIAL}==" ]
	absent reaches sda b8:0
	reaches sdb b8:16
	reaches sdc b8:32
	[ "$(jq -r '[.objects[] | select(.kind=="disk") | .udev_key] | join(" ")' <<<"$plan")" = "ID_PATH ID_SERIAL" ]
	jq -r '.objects[] | select(.kind=="disk") | .udev_why' <<<"$plan" | grep -F 'ID_WWN 0x600050e04ab71d00 is shared with sda (a system disk), sdc; ID_SERIAL 3600050e04ab71d001f5a0000c3e80000 is shared with sda (a system disk)'
	run -0 "$SP" plan --profile "$PROFILE" --sysroot "$W" --seed 1
	assert_output --partial 'udev key ID_PATH: ID_WWN 0x600050e04ab71d00 is shared with sda (a system disk), sdc'
}

@test "bad sysroot: shared-path: nothing stable is sdb's alone: its kernel name, with a warning" {
	world shared-path
	[ "$rc" -eq 0 ]
	clean
	grep -F '[udev-kernel-name]' <<<"$out"
	grep -F 'ID_PATH pci-0000:03:00.0-scsi-0:0:0:0 is shared with sda (a system disk)' <<<"$out"
	[ "$(grep -v '^#' "$root/etc/udev/rules.d/70-storprov.rules" | grep -c 'KERNEL=="sdb"')" -eq 1 ]
	absent reaches sda b8:0
	[ "$("$SP" plan --profile "$PROFILE" --sysroot "$W" --seed 1 --format json 2>/dev/null |
		jq -r '[.objects[] | select(.kind=="disk") | .udev_key] | join(" ")')" = "KERNEL ID_SERIAL" ]
}

@test "every case of make.sh has its test here and its row in the README" {
	local missing=0 c
	for c in $(sed -n 's/^\([a-z0-9-]*\))[ \t].*/\1/p' "$TOP/tests/bad-sysroots/make.sh"); do
		grep -qF "world $c" "$BATS_TEST_FILENAME" || { echo "no test for $c"; missing=1; }
		grep -qF "| $c |" "$TOP/tests/bad-sysroots/README.md" || { echo "no README row for $c"; missing=1; }
	done
	[ "$(sed -n 's/^\([a-z0-9-]*\))[ \t].*/\1/p' "$TOP/tests/bad-sysroots/make.sh" | wc -l)" -ge 28 ]
	[ "$missing" -eq 0 ]
}

@test "a profile file name with a newline stays inside its comment lines" {
	local f="$BATS_TEST_TMPDIR/evil
RUN+=\"x\".xml" root="$BATS_TEST_TMPDIR/root"
	sed '/<profile /s/ name="[^"]*"//' "$PROFILE" >"$f"
	run -0 "$SP" render --profile "$f" --sysroot "$TOP/tests/fixtures/sysroot/grid-3ware" --seed 1 --root "$root"
	"$RC" udev "$root/etc/udev/rules.d/70-storprov.rules"
	"$RC" fstab "$root/etc/fstab"
	"$RC" sysctl "$root/etc/sysctl.d/80-storprov.conf"
	grep -F 'from profile "evil?RUN+="x"".' "$root/etc/udev/rules.d/70-storprov.rules"
}
