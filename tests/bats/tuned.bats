#!/usr/bin/env bats
# --tuning=udev|tuned|both: the tuned profile /etc/tuned/storprov/tuned.conf
# beside the udev rules and sysctl.d, each value in one file only; the
# devices tuned's disk plugin skips keep their udev rule; verify compares the
# file and reports tuned-adm verify's verdict. UPDATE_GOLDEN=1 rewrites the
# goldens (tests/expected/NAME/tuned/).
load test_helper

TC=etc/tuned/storprov/tuned.conf
RULES=etc/udev/rules.d/70-storprov.rules
SYSCTL=etc/sysctl.d/80-storprov.conf

render() { # NAME ROOT MODE [SYSROOT]
	run -0 "$SP" render --profile "$TOP/profiles/$1.xml" --sysroot "${4:-$SYSROOT/$1}" --seed 1 --root "$2" \
		--tuning "$3"
}

# "IDENTITY ATTR=VALUE" for every device value a udev rules file sets (not an
# md's membership rules, by ENV{ID_FS_UUID}: they are for a drive that joins
# the array later, which no tuned instance keys; the test below checks them)
udev_values() {
	[ -f "$1" ] || return 0
	awk '/^ACTION==/ && !/ENV\{ID_FS_UUID\}/ {
		id = ""
		n = split($0, f, ", ")
		for (i = 1; i <= n; i++) {
			if (f[i] ~ /^ENV\{/ && f[i] !~ /^ENV\{(DEVTYPE|DM_UDEV_DISABLE_OTHER_RULES_FLAG)\}/ && id == "") {
				id = f[i]; sub(/^ENV\{/, "", id); sub(/\}==/, "=", id); gsub(/"/, "", id)
			}
			if (f[i] ~ /^ATTR\{/) {
				a = f[i]; sub(/^ATTR\{(queue|md)\//, "", a); sub(/\}=/, "=", a); gsub(/"/, "", a)
				print id, a
			}
		}
	}' "$1"
}

# the same for the tuned profile's storprov instances, in udev's attribute names
tuned_values() {
	[ -f "$1" ] || return 0
	awk '/^\[/ { inst = ($0 ~ /^\[storprov-/); id = "" }
		inst && /^devices_udev_regex=/ { id = $0; sub(/^devices_udev_regex=\^/, "", id); sub(/\$$/, "", id); gsub(/\\/, "", id) }
		inst && /^elevator=/ { v = $0; sub(/^elevator=/, "", v); print id, "scheduler=" v }
		inst && /^readahead=/ { v = $0; sub(/^readahead=/, "", v); print id, "read_ahead_kb=" v }' "$1"
}

# "KEY=VALUE" for every sysctl of sysctl.d and of the tuned profile's [sysctl]
sysctl_values() {
	[ ! -f "$1/$SYSCTL" ] || grep -v '^#' "$1/$SYSCTL" | sed 's/ = /=/'
	[ ! -f "$1/$TC" ] || awk '/^\[/ { on = ($0 == "[sysctl]") } on && /^[a-z]/ && !/^drop=/' "$1/$TC"
}

@test "tuned: golden tuned.conf and udev rules of shipped profiles (tuned and both)" {
	for nm in grid-3ware-raid5:tuned md-raid6-lvm:both multipath-2path:tuned; do
		n=${nm%%:*} m=${nm#*:}
		root="$BATS_TEST_TMPDIR/$n"
		render "$n" "$root" "$m"
		assert_output --partial "wrote $root/$TC"
		golden "$n/tuned/tuned.conf" "$root/$TC"
		golden "$n/tuned/70-storprov.rules" "$root/$RULES"
		# the rules left to udev still pass the independent strict reader (make check-tools)
		if [ -x "$TOP/build/tests/render-check" ]; then
			"$TOP/build/tests/render-check" udev "$root/$RULES"
			"$TOP/build/tests/render-check" tuned "$root/$TC"
		fi
	done
	# with --tuning=tuned the sysctls are in tuned.conf only
	[ ! -e "$BATS_TEST_TMPDIR/grid-3ware-raid5/$SYSCTL" ]
	grep -qx 'vm.dirty_ratio=40' "$BATS_TEST_TMPDIR/grid-3ware-raid5/$TC"
}

@test "tuned: every value once between the files, and the same values as --tuning=udev" {
	for n in grid-3ware-raid5 hwraid0-lvm-xfs hwraid6-md0-lvm many-luns md-raid1-syncwrite md-raid5-gpt md-raid6-lvm \
		multipath-2path; do
		render "$n" "$BATS_TEST_TMPDIR/u-$n" udev
		want=$({ udev_values "$BATS_TEST_TMPDIR/u-$n/$RULES"; sysctl_values "$BATS_TEST_TMPDIR/u-$n"; } | sort)
		for m in tuned both; do
			root="$BATS_TEST_TMPDIR/$m-$n"
			render "$n" "$root" "$m"
			got=$({ udev_values "$root/$RULES"; tuned_values "$root/$TC"; sysctl_values "$root"; } | sort)
			# no attribute of a device (nor a sysctl) set twice, whatever the value
			dup=$(printf '%s\n' "$got" | sed 's/=[^=]*$//' | sort | uniq -d)
			[ -z "$dup" ] || { echo "$n $m: set twice: $dup"; false; }
			[ "$want" = "$got" ] || { diff <(echo "$want") <(echo "$got"); echo "$n $m"; false; }
		done
	done
	# an md's membership rules carry what udev keeps of its members' tuning, in every mode
	run -0 grep -F 'ENV{ID_FS_UUID}' "$BATS_TEST_TMPDIR/tuned-hwraid6-md0-lvm/$RULES"
	assert_output --partial 'ATTR{queue/nr_requests}="256"'
	refute_output --partial read_ahead_kb
	run -0 grep -F 'ENV{ID_FS_UUID}' "$BATS_TEST_TMPDIR/u-hwraid6-md0-lvm/$RULES"
	assert_output --partial 'ATTR{queue/read_ahead_kb}="4096"'
	# and the split is real: tuned carries some, udev keeps nr_requests and max_sectors_kb
	[ -n "$(tuned_values "$BATS_TEST_TMPDIR/tuned-many-luns/$TC")" ]
	run -0 udev_values "$BATS_TEST_TMPDIR/tuned-many-luns/$RULES"
	assert_output --partial nr_requests=256
	refute_output --partial read_ahead_kb
}

@test "tuned: the scheduler stays in udev beside nr_requests (a switch resets it), moves to tuned alone" {
	render grid-3ware-raid5 "$BATS_TEST_TMPDIR/g" tuned
	run -0 grep -c 'ATTR{queue/scheduler}="mq-deadline", ATTR{queue/nr_requests}="512"' "$BATS_TEST_TMPDIR/g/$RULES"
	assert_output 2
	run -1 grep elevator= "$BATS_TEST_TMPDIR/g/$TC"
	render md-raid5-gpt "$BATS_TEST_TMPDIR/m" tuned
	run -0 grep -c '^elevator=mq-deadline$' "$BATS_TEST_TMPDIR/m/$TC"
	assert_output 4
	run -1 grep -F 'queue/scheduler' "$BATS_TEST_TMPDIR/m/$RULES"
}

@test "tuned: a LUN with the removable flag (tuned's disk plugin skips it) keeps its udev rule whole" {
	s="$BATS_TEST_TMPDIR/sysroot"
	cp -rL "$SYSROOT/grid-3ware" "$s"
	echo 1 >"$s/sys/block/sdb/removable"
	render grid-3ware-raid5 "$BATS_TEST_TMPDIR/r" tuned "$s"
	run -0 cat "$BATS_TEST_TMPDIR/r/$TC"
	refute_output --partial '[storprov-lun1]'
	refute_output --partial 'ID_WWN=0x600050e04ab71d00$'
	assert_output --partial '[storprov-lun2]'
	# lun1: every value in its rule; the included profile's [disk] instance is kept off it
	assert_output --partial 'devices_udev_regex=\A(?![\s\S]*^(ID_WWN=0x600050e04ab71d00)$)'
	run -0 grep -F 'ENV{ID_WWN}=="0x600050e04ab71d00"' "$BATS_TEST_TMPDIR/r/$RULES"
	assert_output --partial 'ATTR{queue/read_ahead_kb}="8192"'
	run -0 grep -F 'lun1: here, not in the tuned profile' "$BATS_TEST_TMPDIR/r/$RULES"
	assert_output --partial 'removable'
}

@test "tuned: the regexes tuned.conf carries match the devices they key, and only those (python re, as tuned)" {
	command -v python3 >/dev/null || skip "no python3"
	render md-raid6-lvm "$BATS_TEST_TMPDIR/m" both
	python3 - "$BATS_TEST_TMPDIR/m/$TC" <<'PY'
import re, sys
units, cur = {}, None
for l in open(sys.argv[1]):
    l = l.rstrip("\n")
    if l.startswith("["):
        cur = l.strip("[]")
    elif cur and l.startswith("devices_udev_regex="):
        units[cur] = l.split("=", 1)[1]
def match(rx, props):   # tuned's DeviceMatcherUdev: KEY=VALUE lines, sorted, re.search MULTILINE
    text = "".join(f"{k}={v}\n" for k, v in sorted(props.items()))
    return re.search(rx, text, re.MULTILINE) is not None
hba11 = {"DEVNAME": "/dev/sdb", "ID_WWN": "0x5000c500a3f10a1b", "ID_SERIAL": "x"}
assert match(units["storprov-hba11"], hba11)
assert not match(units["storprov-hba11"], {"ID_WWN": "0x5000c500a3f10a1bX"})
assert not match(units["storprov-hba11"], {"ID_WWN": "0x5000c500a3f11c47"})
md = {"DEVNAME": "/dev/md127", "MD_UUID": "ab879af1:a3b74819:836f0108:5eb169f6"}
assert not match(units["disk"], md), "the included [disk] must leave the md array storprov tunes in udev"
assert not match(units["disk"], {"DM_NAME": "data-scratch"})
assert match(units["disk"], {"MD_UUID": "00000000:a3b74819:836f0108:5eb169f6"}), "other md arrays stay its"
assert match(units["disk"], {"DEVNAME": "/dev/sdz", "ID_WWN": "0x1"})
PY
}

@test "tuned: --tuning takes udev, tuned or both; anything else exits 2 naming them" {
	run -2 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 \
		--root "$BATS_TEST_TMPDIR/x" --tuning tuneD
	assert_output --partial "--tuning takes udev"
	assert_output --partial "not 'tuneD'"
	[ ! -e "$BATS_TEST_TMPDIR/x" ]
	run -2 "$SP" plan --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --tuning=
	assert_output --partial "--tuning takes udev"
	run -2 "$SP" inventory --sysroot "$SYSROOT/grid-3ware" --tuning tuned
	assert_output --partial "does not apply to inventory"
	run -0 "$SP" plan --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 --tuning both
	assert_output --partial "--- /etc/tuned/storprov/tuned.conf"
	assert_output --partial "--- /etc/sysctl.d/80-storprov.conf"
}

@test "tuned: the tuning mode is the node's recorded one; switching needs the mode named, and says what goes" {
	r="$BATS_TEST_TMPDIR/s"
	render grid-3ware-raid5 "$r" tuned
	[ -f "$r/$TC" ] && [ ! -e "$r/$SYSCTL" ]
	jq -e '.tuning == "tuned"' "$r/var/lib/storprov/grid-3ware-raid5.json"
	render grid-3ware-raid5 "$r" both
	[ -f "$r/$TC" ] && [ -f "$r/$SYSCTL" ]
	grep -qx 'drop=vm.dirty_bytes,vm.dirty_ratio,vm.dirty_background_bytes,vm.dirty_background_ratio' "$r/$TC"
	# no --tuning: the recorded mode (both), nothing removed, tuned.conf kept while tuned has it active
	run -0 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 --root "$r"
	refute_output --partial "removed"
	[ -f "$r/$TC" ] && [ -f "$r/$SYSCTL" ]
	# the mode named: a switch, said with what it removes
	run -0 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 --root "$r" \
		--tuning udev
	assert_output --partial "the node's tuning mode is both (recorded here); --tuning udev switches it: render and apply remove the tuned profile"
	assert_output --partial "[tuning-mode-switch]"
	assert_output --partial "removed $r/$TC"
	[ ! -e "$r/$TC" ] && [ -f "$r/$SYSCTL" ]
	jq -e '.tuning == "udev"' "$r/var/lib/storprov/grid-3ware-raid5.json"
	golden grid-3ware-raid5/70-storprov.rules "$r/$RULES"
}

@test "tuned: include= the root's active profile; storprov itself active keeps the include it had" {
	r="$BATS_TEST_TMPDIR/a"
	mkdir -p "$r/etc/tuned"
	echo virtual-guest >"$r/etc/tuned/active_profile"
	render grid-3ware-raid5 "$r" tuned
	grep -qx include=virtual-guest "$r/$TC"
	echo storprov >"$r/etc/tuned/active_profile"
	render grid-3ware-raid5 "$r" tuned
	assert_output --partial "unchanged $r/$TC"
	grep -qx include=virtual-guest "$r/$TC"
	# a name tuned could not take is not copied: tuned's server default
	printf 'x;rm -rf /\n' >"$r/etc/tuned/active_profile"
	rm "$r/$TC"
	render grid-3ware-raid5 "$r" tuned
	grep -qx include=throughput-performance "$r/$TC"
}

@test "tuned: a symbolic link in the root's etc/tuned is not followed, nothing is written outside" {
	out="$BATS_TEST_TMPDIR/outside"
	mkdir -p "$out" "$BATS_TEST_TMPDIR/l/etc"
	ln -s "$out" "$BATS_TEST_TMPDIR/l/etc/tuned"
	run -1 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 \
		--root "$BATS_TEST_TMPDIR/l" --tuning tuned
	assert_output --partial "$BATS_TEST_TMPDIR/l/$TC"
	assert_output --partial "symbolic link"
	run -0 find "$out" -mindepth 1
	assert_output ""
	# the file itself a link
	rm "$BATS_TEST_TMPDIR/l/etc/tuned"
	mkdir -p "$BATS_TEST_TMPDIR/l/etc/tuned/storprov"
	echo keep >"$out/target"
	ln -s "$out/target" "$BATS_TEST_TMPDIR/l/$TC"
	run -1 "$SP" render --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 \
		--root "$BATS_TEST_TMPDIR/l" --tuning tuned
	assert_output --partial "symbolic link"
	[ "$(cat "$out/target")" = keep ]
}

@test "tuned: tuned.conf gets the SELinux label of the root's policy" {
	r="$BATS_TEST_TMPDIR/se"
	mkdir -p "$r/etc/selinux/targeted/contexts/files"
	printf 'SELINUX=enforcing\nSELINUXTYPE=targeted\n' >"$r/etc/selinux/config"
	cat >"$r/etc/selinux/targeted/contexts/files/file_contexts" <<'FC'
/.*			system_u:object_r:default_t:s0
/etc(/.*)?		system_u:object_r:etc_t:s0
/etc/tuned(/.*)?	system_u:object_r:tuned_etc_t:s0
/etc/udev/rules\.d(/.*)?	system_u:object_r:udev_rules_t:s0
FC
	touch "$BATS_TEST_TMPDIR/probe"
	setfattr -n security.selinux -v system_u:object_r:etc_t:s0 "$BATS_TEST_TMPDIR/probe" 2>/dev/null ||
		skip "this host cannot set security.selinux in $BATS_TEST_TMPDIR"
	render grid-3ware-raid5 "$r" tuned
	refute_output --partial selinux-label
	label() { getfattr --only-values -n security.selinux "$1" 2>/dev/null | tr -d '\0'; }
	[ "$(label "$r/$TC")" = system_u:object_r:tuned_etc_t:s0 ]
	[ "$(label "$r/etc/tuned/storprov")" = system_u:object_r:tuned_etc_t:s0 ]
	[ "$(label "$r/etc/tuned")" = system_u:object_r:tuned_etc_t:s0 ]
}

@test "tuned: verify reports drift (exit 3) on an edited tuned.conf, ok on the rendered one" {
	r="$BATS_TEST_TMPDIR/v"
	render grid-3ware-raid5 "$r" tuned
	run "$SP" verify --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 --root "$r" \
		--tuning tuned
	assert_line --regexp "^ok +file file:/etc/tuned/storprov/tuned.conf"
	sed -i 's/^readahead=8192$/readahead=128/' "$r/$TC"
	run -3 "$SP" verify --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 \
		--root "$r" --tuning tuned
	assert_line --regexp "^drift +file file:/etc/tuned/storprov/tuned.conf"
	assert_output --partial "expected line 19: readahead=8192, found line 19: readahead=128"
	# --root is not /: tuned is not asked
	assert_output --partial "tuned-adm verify: not checked (--root is not /"
	# without --tuning: the recorded mode, and verify says which
	run -3 "$SP" verify --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 --root "$r"
	assert_line --regexp "^drift +file file:/etc/tuned/storprov/tuned.conf"
	assert_output --partial "tuning mode: tuned (recorded in $r/var/lib/storprov/grid-3ware-raid5.json)"
	# another mode named: verified in that mode, and said
	run "$SP" verify --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$SYSROOT/grid-3ware" --seed 1 --root "$r" \
		--tuning udev
	refute_output --partial "file:/etc/tuned"
	assert_output --partial "tuning mode: udev (--tuning; the node's recorded mode is tuned)"
}

@test "tuned: verify --root / reports tuned-adm verify's verdict: ok, drift, unavailable (fake tuned-adm)" {
	export FAKE_TUNED_LOG="$BATS_TEST_TMPDIR/tuned.log"
	v() {
		PATH="$FIX/fakebin:$PATH" run "$SP" verify --profile "$TOP/profiles/grid-3ware-raid5.xml" \
			--sysroot "$SYSROOT/grid-3ware" --seed 1 --root / --tuning "$1" --format json
	}
	FAKE_TUNED_VERIFY=ok v tuned
	[ "$(echo "$output" | jq -r '.checks[] | select(.kind == "tuned") | .status')" = ok ]
	[ "$(cat "$FAKE_TUNED_LOG")" = "tuned-adm verify" ]
	# the report with the tuned check still passes its schema
	echo "$output" >"$BATS_TEST_TMPDIR/verify.json"
	run -0 python3 "$TOP/tests/tools/json-validate.py" "$TOP/doc/schema/storprov-verify.schema.json" \
		"$BATS_TEST_TMPDIR/verify.json"
	FAKE_TUNED_VERIFY=drift v both
	[ "$status" -eq 3 ]
	[ "$(echo "$output" | jq -r '.checks[] | select(.kind == "tuned") | .status')" = drift ]
	echo "$output" | jq -r '.checks[] | select(.kind == "tuned") | .found' | grep -q 'differs from tuned'
	FAKE_TUNED_VERIFY=nodaemon v tuned
	[ "$(echo "$output" | jq -r '.checks[] | select(.kind == "tuned") | .status')" = not-checked ]
	echo "$output" | jq -r '.checks[] | select(.kind == "tuned") | .found' | grep -q 'Is TuneD daemon running'
	# no tuned-adm in PATH: unavailable, said so
	mkdir -p "$BATS_TEST_TMPDIR/empty"
	PATH="$BATS_TEST_TMPDIR/empty" run "$SP" verify --profile "$TOP/profiles/grid-3ware-raid5.xml" \
		--sysroot "$SYSROOT/grid-3ware" --seed 1 --root / --tuning tuned
	assert_output --partial "tuned-adm verify: not checked (unavailable: no tuned-adm in PATH"
	# udev mode: tuned-adm is never run
	: >"$FAKE_TUNED_LOG"
	PATH="$FIX/fakebin:$PATH" run "$SP" verify --profile "$TOP/profiles/grid-3ware-raid5.xml" \
		--sysroot "$SYSROOT/grid-3ware" --seed 1 --root /
	[ ! -s "$FAKE_TUNED_LOG" ]
}

@test "tuned: apply --tuning tuned writes tuned.conf and no sysctl.d, and still tunes sysfs live (fake tools)" {
	export STORPROV_DEVROOT="$BATS_TEST_TMPDIR/devroot" FAKE_LOG="$BATS_TEST_TMPDIR/commands.log"
	export FAKE_STATE="$BATS_TEST_TMPDIR/state"
	w="$BATS_TEST_TMPDIR/world"
	fake_world grid-3ware "$w"
	r="$BATS_TEST_TMPDIR/root"
	PATH="$FIX/fakebin:$PATH" run -0 "$SP" apply --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$w" \
		--root "$r" --seed 1 --yes --jobs 1 --lock-file "$BATS_TEST_TMPDIR/lock" --tuning tuned \
		--report "$BATS_TEST_TMPDIR/report.json"
	jq -e '[.files[].path] | any(endswith("/etc/tuned/storprov/tuned.conf"))' "$BATS_TEST_TMPDIR/report.json"
	golden grid-3ware-raid5/tuned/tuned.conf "$r/$TC"
	golden grid-3ware-raid5/tuned/70-storprov.rules "$r/$RULES"
	[ ! -e "$r/$SYSCTL" ]
	for d in sdb sdc; do
		[ "$(cat "$w/sys/block/$d/queue/read_ahead_kb")" = 8192 ]
		[ "$(cat "$w/sys/block/$d/queue/nr_requests")" = 512 ]
	done
}
