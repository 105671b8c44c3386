#!/usr/bin/env bats
# storprov controller: the RAID controllers' logical drives as their own tools
# report them. From a captured sysroot (tests/fixtures/controller/megaraid-ctl,
# see its spec) and, for the live path, through the fake tools of
# tests/fixtures/controller/fakebin put first in PATH: found and run by argv,
# absent ones skipped, a hung one killed at the timeout, a failing one named.
load test_helper

CTL=$FIX/controller

setup() {
	export FAKE_CTL_LOG="$BATS_TEST_TMPDIR/ctl.log"
	: >"$FAKE_CTL_LOG"
	BIN=$BATS_TEST_TMPDIR/bin
	mkdir -p "$BIN"
}

# tools NAME...: only these fake tools in PATH (with what they need to run)
tools() {
	local n
	for n in "$@"; do ln -sf "$CTL/fakebin/fakectl" "$BIN/$n"; done
	export PATH="$BIN:/usr/bin:/bin"
}

@test "controller: the captured sysroot as a table (storcli's two controllers, ssacli's two)" {
	run -0 --separate-stderr "$SP" controller --sysroot "$CTL/megaraid-ctl"
	[ -z "$stderr" ]
	echo "$output" >"$BATS_TEST_TMPDIR/ctl.txt"
	golden controller/megaraid-ctl.txt "$BATS_TEST_TMPDIR/ctl.txt"
}

@test "controller: matched to block devices by the whole WWN, by the tool's name, never by guess" {
	"$SP" controller --sysroot "$CTL/megaraid-ctl" --format json >"$BATS_TEST_TMPDIR/c.json"
	q() { jq -r --arg t "$1" --arg c "$2" --arg v "$3" \
		'.logical_drives[] | select(.tool == $t and .controller == $c and .vd == $v) | '"$4" "$BATS_TEST_TMPDIR/c.json"; }
	# sdb's device/wwid is naa.<c0/v0's SCSI NAA Id>
	[ "$(q storcli 0 0 '"\(.device) \(.matched_by) \(.full_stripe_bytes)"')" = "sdb wwn 2097152" ]
	# sde carries the first 64 bits of c0/v3's NAA only: not that VD
	[ "$(q storcli 0 3 .device)" = null ]
	[[ $(q storcli 0 3 .note) == *"no disk has WWN 600605b00a5e2f60261c6b0c1b2f6d04"* ]]
	# c1/v1 prints no NAA: its OS Drive Name is all there is
	[ "$(q storcli 1 1 '"\(.device) \(.matched_by)"')" = "sdg os-name" ]
	# c1/v2 names /dev/sdh, but sdh's WWN is another NAA
	[ "$(q storcli 1 2 .device)" = null ]
	[[ $(q storcli 1 2 .note) == *"/dev/sdh, whose WWN 600605b00b6f3a70271d7c1d2c3e7e09 is not the VD's NAA"* ]]
	[ "$(q ssacli slot=0 2 '"\(.device) \(.matched_by)"')" = "sdj wwn" ]
	[ "$(q ssacli slot=0 1 .device)" = null ]
	# every matched device is a disk of the sysroot, each at most once
	[ "$(jq -r '[.logical_drives[].device | select(. != null)] | sort | join(" ")' "$BATS_TEST_TMPDIR/c.json")" = \
		"sdb sdc sdd sdf sdg sdi sdj sdk" ]
}

@test "controller: each VD's write cache, normalised, with the lines it comes from" {
	"$SP" controller --sysroot "$CTL/megaraid-ctl" --format json >"$BATS_TEST_TMPDIR/c.json"
	q() { jq -r --arg t "$1" --arg c "$2" --arg v "$3" \
		'.logical_drives[] | select(.tool == $t and .controller == $c and .vd == $v) | "\(.write_cache)|\(.write_cache_raw)"' \
		"$BATS_TEST_TMPDIR/c.json"; }
	[ "$(q storcli 0 0)" = "write-back|Cache: RWBD; Write Cache(initial setting): WriteBack" ]
	[ "$(q storcli 0 3)" = "write-through|Cache: RWTD; Write Cache(initial setting): WriteThrough" ]
	# write-through now under a configured write-back: the BBU bad
	[ "$(q storcli 1 3)" = "write-back-disabled|Cache: NRWTD; Write Cache(initial setting): WriteBack" ]
	# "Caching: Enabled" without the controller's "Cache Status": whether the cache takes writes is not known
	[ "$(q ssacli slot=0 1)" = "unknown|Caching: Enabled" ]
	# no cache line printed: null, both
	[ "$(q ssacli slot=3 1)" = "null|null" ]
	run -0 "$SP" controller --sysroot "$CTL/megaraid-ctl"
	[[ ${lines[0]} == *" WRITECACHE "* ]]
	[[ $(grep '^storcli   1       3 ' <<<"$output") == *" write-back-disabled sdi" ]]
}

@test "controller: a garbled capture is an error naming the file and line, the rest still listed" {
	cp -r "$CTL/megaraid-ctl" "$BATS_TEST_TMPDIR/s"
	cp "$CTL/ssacli-garbled-strip.txt" "$BATS_TEST_TMPDIR/s/storprov-controller/ssacli-ctrl-all-show-config-detail.txt"
	run -1 --separate-stderr "$SP" controller --sysroot "$BATS_TEST_TMPDIR/s"
	[[ $stderr == *"storprov controller: $BATS_TEST_TMPDIR/s/storprov-controller/ssacli-ctrl-all-show-config-detail.txt: ssacli output line 90: Strip Size \"sixty-four\" is not a size"* ]]
	[ "$(grep -c '^storcli ' <<<"$output")" = 8 ]
	[ "$(grep -c '^ssacli ' <<<"$output" || true)" = 0 ]
	# no capture at all: nothing to list, and no error
	run -0 "$SP" controller --sysroot "$SYSROOT/grid-3ware"
	assert_output "no logical drive in the captured outputs under $SYSROOT/grid-3ware/storprov-controller"
}

@test "controller: live, the tools found in PATH run by argv (absent ones skipped silently)" {
	tools storcli64 storcli arcconf
	FAKE_CTL_ARCCONF_COUNT=2 run -0 --separate-stderr "$SP" controller --format json
	[ -z "$stderr" ]
	# storcli64 before storcli: one of the two; arcconf once per controller it counts
	run cat "$FAKE_CTL_LOG"
	assert_output "storcli64 /call/vall show all J
arcconf GETCONFIG 1 LD
arcconf GETCONFIG 2 LD"
}

@test "controller: live, the records of the tools that answered" {
	tools storcli64 ssacli
	run -0 --separate-stderr "$SP" controller --format json
	echo "$output" >"$BATS_TEST_TMPDIR/live.json"
	[ "$(jq -r '[.logical_drives[].tool] | unique | join(" ")' "$BATS_TEST_TMPDIR/live.json")" = "ssacli storcli" ]
	[ "$(jq '.logical_drives | length' "$BATS_TEST_TMPDIR/live.json")" = 13 ]
	[ "$(jq .sysroot "$BATS_TEST_TMPDIR/live.json")" = null ]
}

@test "controller: a tool that hangs is killed at the timeout, with what it was" {
	tools storcli64 ssacli
	export FAKE_CTL_MODE_storcli64=hang FAKE_CTL_PIDFILE=$BATS_TEST_TMPDIR/sleep.pid STORPROV_CONTROLLER_TIMEOUT=2
	start=$SECONDS
	run -1 --separate-stderr "$SP" controller
	[ $((SECONDS - start)) -lt 10 ]
	[[ $stderr == *"storprov controller: $BIN/storcli64 /call/vall show all J did not finish in 2 s (STORPROV_CONTROLLER_TIMEOUT) and was killed with all it started"* ]]
	# the other tool still answered
	[ "$(grep -c '^ssacli ' <<<"$output")" = 5 ]
	# what the tool started went with it (its own process group); killed, it
	# may stay a zombie when PID 1 does not reap (a container)
	[ -s "$BATS_TEST_TMPDIR/sleep.pid" ] || skip "the fake tool did not start its child within 2 s (a loaded machine)"
	pid=$(cat "$BATS_TEST_TMPDIR/sleep.pid")
	sleep 0.2
	if kill -0 "$pid" 2>/dev/null && ! grep -q '^State:.*zombie' "/proc/$pid/status"; then
		echo "the tool's child $pid outlived it"
		kill "$pid"
		return 1
	fi
}

@test "controller: a tool that exits non-zero is named with its status; exit 1" {
	tools ssacli arcconf
	FAKE_CTL_MODE_ssacli=fail run -1 --separate-stderr "$SP" controller
	[[ $stderr == *"storprov controller: $BIN/ssacli ctrl all show config detail exited with status 3 (it said \"ssacli: cannot talk to the controller\"): run it by hand to see why"* ]]
	[ "$(grep -c '^arcconf ' <<<"$output")" = 4 ]
}

@test "controller: --help, and only text or json" {
	run -0 "$SP" controller --help
	assert_output --partial "Usage: storprov controller [--sysroot DIR | --capture DIR] [--format text|json]"
	run -2 "$SP" controller --format yaml
	assert_output --partial "--format takes text or json, not 'yaml'"
	run -2 "$SP" controller --profile x.xml
	STORPROV_CONTROLLER_TIMEOUT=0 run -2 "$SP" controller
	assert_output --partial "STORPROV_CONTROLLER_TIMEOUT='0' is not a number of seconds from 1 to 3600"
}

@test "controller: capture-sysroot.sh keeps the tools' outputs where --sysroot reads them (by storprov, and by hand)" {
	tools storcli64 ssacli arcconf
	export FAKE_CTL_ARCCONF_COUNT=2
	# storprov in PATH: "storprov controller --capture", the very commands storprov reads
	STORPROV=$SP run -0 "$FIX/capture-sysroot.sh" "$BATS_TEST_TMPDIR/cap"
	assert_output --partial "4 RAID controller outputs into $BATS_TEST_TMPDIR/cap/storprov-controller"
	run -0 ls "$BATS_TEST_TMPDIR/cap/storprov-controller"
	assert_output "arcconf-getconfig-1-ld.txt
arcconf-getconfig-2-ld.txt
ssacli-ctrl-all-show-config-detail.txt
storcli-call-vall-show-all.json"
	# without storprov: the script's own list of the same commands, the same files
	: >"$FAKE_CTL_LOG"
	run -0 "$FIX/capture-sysroot.sh" "$BATS_TEST_TMPDIR/cap2"
	diff -r "$BATS_TEST_TMPDIR/cap/storprov-controller" "$BATS_TEST_TMPDIR/cap2/storprov-controller"
	"$SP" controller --sysroot "$BATS_TEST_TMPDIR/cap" --format json | jq -c '[.logical_drives[] | del(.device, .matched_by, .note)]' >"$BATS_TEST_TMPDIR/a"
	"$SP" controller --format json | jq -c '[.logical_drives[] | del(.device, .matched_by, .note)]' >"$BATS_TEST_TMPDIR/b"
	diff -u "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	[ "$(jq length "$BATS_TEST_TMPDIR/a")" = 21 ]
	run -2 "$SP" controller --capture "$BATS_TEST_TMPDIR/c3" --sysroot "$BATS_TEST_TMPDIR/cap"
	assert_output --partial "not both"
}

@test "controller: a captured arcconf GETCONFIGJSON is read when there is no arcconf text" {
	cp -r "$CTL/megaraid-ctl" "$BATS_TEST_TMPDIR/s"
	d=$BATS_TEST_TMPDIR/s/storprov-controller
	cp "$CTL/arcconf-getconfigjson-1.json" "$d/"
	run -0 --separate-stderr "$SP" controller --sysroot "$BATS_TEST_TMPDIR/s" --format json
	[ "$(jq -c '[.logical_drives[] | select(.tool == "arcconf") | .level]' <<<"$output")" = \
		'["raid6","raid10","raid60","raid1-triple"]' ]
	# with the text too, the text alone (one account of each logical drive)
	cp "$CTL/arcconf-c1.txt" "$d/arcconf-getconfig-1-ld.txt"
	run -0 --separate-stderr "$SP" controller --sysroot "$BATS_TEST_TMPDIR/s" --format json
	[ "$(jq -c '[.logical_drives[] | select(.tool == "arcconf") | .level]' <<<"$output")" = \
		'["raid5","raid60","raid1","raid10"]' ]
}

# gone PID: not running, or a zombie nobody reaped (PID 1 of a container)
gone() {
	! kill -0 "$1" 2>/dev/null || grep -q '^State:.*zombie' "/proc/$1/status"
}

@test "controller: a child that left the tool's process group (setsid) is killed with it at the timeout" {
	tools storcli64
	export FAKE_CTL_MODE_storcli64=hang-setsid FAKE_CTL_PIDFILE=$BATS_TEST_TMPDIR/sleep.pid STORPROV_CONTROLLER_TIMEOUT=2
	run -1 --separate-stderr "$SP" controller
	[[ $stderr == *"show all J did not finish in 2 s"* ]]
	pid=$(cat "$BATS_TEST_TMPDIR/sleep.pid")
	[ -n "$pid" ]
	# in a session of its own: out of reach of a process-group kill
	gone "$pid" || { ps -o pid,sid,pgid,args -p "$pid"; kill "$pid"; false; }
}

@test "controller: a background child left by a tool that succeeded is ended, and named; the output still read" {
	tools storcli64
	export FAKE_CTL_MODE_storcli64=bg FAKE_CTL_PIDFILE=$BATS_TEST_TMPDIR/sleep.pid STORPROV_CONTROLLER_TIMEOUT=10
	start=$SECONDS
	run -0 --separate-stderr "$SP" controller
	# the child holds stdout open: storprov does not wait for it to close
	[ $((SECONDS - start)) -lt 8 ]
	[ "$(grep -c '^storcli ' <<<"$output")" = 8 ]
	[[ $stderr == *"warning: $BIN/storcli64 /call/vall show all J left 1 process running; storprov ended it"* ]]
	pid=$(cat "$BATS_TEST_TMPDIR/sleep.pid")
	gone "$pid" || { kill "$pid"; false; }
}

@test "controller: a tool's stderr is kept to its first 4096 bytes and shown only when it fails" {
	tools storcli64 ssacli
	FAKE_CTL_MODE_storcli64=spew run -0 --separate-stderr "$SP" controller
	[ -z "$stderr" ]
	export FAKE_CTL_MODE_ssacli=fail
	run -1 --separate-stderr "$SP" controller
	[ "${#stderr}" -lt 1000 ]
}

@test "controller: one overall limit for all commands of a run (64 controllers, the others hung)" {
	tools arcconf
	export FAKE_CTL_ARCCONF_COUNT=64 FAKE_CTL_HANG_MATCH='GETCONFIG [2-9]* LD' STORPROV_CONTROLLER_TIMEOUT=2 \
		STORPROV_CONTROLLER_TOTAL_TIMEOUT=3
	start=$SECONDS
	run -1 --separate-stderr "$SP" controller
	# at 2 s a call, 63 hung controllers took 126 s before; now the 3 s of the run bound them all
	[ $((SECONDS - start)) -lt 8 ]
	[ "$(grep -c '^arcconf ' <<<"$output")" = 4 ]
	[[ $stderr == *"arcconf GETCONFIG 2 LD did not finish in 2 s (STORPROV_CONTROLLER_TIMEOUT)"* ]]
	[[ $stderr == *"arcconf GETCONFIG 3 LD did not finish in "*" s (what was left of STORPROV_CONTROLLER_TOTAL_TIMEOUT)"* ]]
	[[ $stderr == *"arcconf GETCONFIG 64 LD was not run: the 3 s for all controller commands of a run (STORPROV_CONTROLLER_TOTAL_TIMEOUT) were used up"* ]]
}

@test "controller: a bad time limit is an error under every verb, before anything is read" {
	for verb in controller plan validate apply verify render; do
		args=(--sysroot "$SYSROOT/grid-3ware")
		[ "$verb" = controller ] || args+=(--profile "$TOP/profiles/grid-3ware-raid5.xml")
		[ "$verb" != render ] || args+=(--root "$BATS_TEST_TMPDIR/root")
		STORPROV_CONTROLLER_TIMEOUT=soon run -2 --separate-stderr "$SP" "$verb" "${args[@]}"
		[[ $stderr == *"storprov $verb: STORPROV_CONTROLLER_TIMEOUT='soon' is not a number of seconds from 1 to 3600"* ]] ||
			{ echo "$verb: $stderr"; false; }
		STORPROV_CONTROLLER_TOTAL_TIMEOUT=0 run -2 --separate-stderr "$SP" "$verb" "${args[@]}"
		[[ $stderr == *"storprov $verb: STORPROV_CONTROLLER_TOTAL_TIMEOUT='0' is not a number of seconds"* ]] ||
			{ echo "$verb: $stderr"; false; }
	done
}

@test "controller: storprov-controller(8) names every executable and capture file of the table of tools" {
	man=$(sed 's/\\-/-/g' "$TOP/man/storprov-controller.8" | sed -n '/^\.SH CONTROLLER TOOLS/,/^\.SH /p')
	[ -n "$man" ]
	tbl=$(sed -n '/^static const struct ctl_tool CTL_TOOLS/,/^};/p' "$TOP/src/discover/ctl_tools.c")
	n=0
	# executables: the quoted words of each row's names
	for e in $(grep -oE '\{"[A-Za-z0-9_]+"(, "[A-Za-z0-9_]+")*\}, (NULL|")' <<<"$tbl" | grep -oE '"[A-Za-z0-9_]+"' | tr -d '"'); do
		grep -qw -- "$e" <<<"$man" || { echo "CONTROLLER TOOLS lacks the executable $e"; false; }
		n=$((n + 1))
	done
	# capture files: each fixed part of the name around its %s (an instance of a pattern, as a
	# row's instead_of names arcconf's first text capture, is that pattern's)
	caps=$(grep -oE '"[a-z0-9_%-]+\.(txt|json)"' <<<"$tbl" | tr -d '"')
	for c in $caps; do
		inst=0
		for p in $caps; do
			# shellcheck disable=SC2053 # the pattern as a glob, on purpose
			[[ $p == *%s* && $c != "$p" && $c == ${p//%s/*} ]] && inst=1
		done
		((inst)) && continue
		for part in ${c//%s/ }; do
			grep -qF -- "$part" <<<"$man" || { echo "CONTROLLER TOOLS lacks the capture $c ($part)"; false; }
		done
		n=$((n + 1))
	done
	[ "$n" -ge 20 ]
}

@test "controller: live tw_cli and MegaCli, each command their outputs lead to, in order; captured the same by storprov and by hand" {
	tools tw_cli MegaCli64
	run -0 --separate-stderr "$SP" controller --format json
	[ -z "$stderr" ]
	echo "$output" >"$BATS_TEST_TMPDIR/live.json"
	run cat "$FAKE_CTL_LOG"
	assert_output "tw_cli show
tw_cli /c0 show
tw_cli /c1 show
tw_cli /c0/u0 show all
tw_cli /c1/u0 show all
tw_cli /c1/u1 show all
MegaCli64 -AdpCount -NoLog
MegaCli64 -LdPdInfo -aALL -NoLog
MegaCli64 -AdpGetPciInfo -aALL -NoLog"
	[ "$(jq '[.logical_drives[] | select(.tool == "tw_cli")] | length' "$BATS_TEST_TMPDIR/live.json")" -ge 2 ]
	[ "$(jq '[.logical_drives[] | select(.tool == "megacli" and .pci != null)] | length' "$BATS_TEST_TMPDIR/live.json")" -ge 2 ]
	# no MegaSAS.log or storcli.log left where storprov ran
	[ -z "$(ls "$BATS_TEST_TMPDIR" | grep -i '\.log$' | grep -v ctl.log)" ]
	# MegaCli with no adapter: the count says so, nothing else runs, no error
	: >"$FAKE_CTL_LOG"
	FAKE_CTL_MEGACLI_COUNT=0 run -0 --separate-stderr "$SP" controller
	run cat "$FAKE_CTL_LOG"
	refute_output --partial "LdPdInfo"
	# capture: storprov's walk and the script's list give the same files
	STORPROV=$SP run -0 "$FIX/capture-sysroot.sh" "$BATS_TEST_TMPDIR/cap"
	run -0 "$FIX/capture-sysroot.sh" "$BATS_TEST_TMPDIR/cap2"
	diff -r "$BATS_TEST_TMPDIR/cap/storprov-controller" "$BATS_TEST_TMPDIR/cap2/storprov-controller"
	[ "$(ls "$BATS_TEST_TMPDIR/cap/storprov-controller" | wc -l)" = 9 ]
}
