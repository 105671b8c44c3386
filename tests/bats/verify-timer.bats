#!/usr/bin/env bats
# The scheduled verify: storprov-verify.service and .timer as `make install`
# lays them out, checked by systemd-analyze verify (skipped where there is no
# systemd-analyze), and storprov-verify-textfile run against a captured node:
# the node_exporter file appears whole (a rename in the same directory, no
# temporary left), parses with prometheus_client, and says exit 2 when verify
# cannot run at all; promtool (Debian's prometheus) checks that file and
# doc/fleet.md's alert rule example, and runs tests/fixtures/prometheus's series
# against the rule: one that fires and ones that do not.
load test_helper

setup() {
	I="$BATS_TEST_TMPDIR/inst"
	make -s -C "$TOP" install PREFIX="$I" SYSCONFDIR="$I/etc" UNITDIR="$I/units" >/dev/null
}

@test "storprov-verify.service and .timer: installed, systemd-analyze verify is clean, daily with a random delay; verify.env installed once" {
	assert_file_exists "$I/units/storprov-verify.service"
	assert_file_exists "$I/units/storprov-verify.timer"
	assert_file_executable "$I/libexec/storprov/storprov-verify-textfile"
	run -0 shellcheck "$I/libexec/storprov/storprov-verify-textfile"
	run -0 grep -x "ExecStart=$I/libexec/storprov/storprov-verify-textfile" "$I/units/storprov-verify.service"
	run -0 grep -x "SuccessExitStatus=3" "$I/units/storprov-verify.service"
	# a query that blocks is verify's to kill (--command-timeout); the unit bounds the whole run
	run -0 grep -x "TimeoutStartSec=30min" "$I/units/storprov-verify.service"
	run -0 grep -x "TimeoutStartSec=30min" "$TOP/ansible_collections/storprov/core/roles/storprov/templates/storprov-verify.service.j2"
	run -0 grep -x "OnCalendar=daily" "$I/units/storprov-verify.timer"
	run -0 grep -E '^RandomizedDelaySec=[1-9]' "$I/units/storprov-verify.timer"
	run -0 grep -x "sp=\${STORPROV:-$I/sbin/storprov}" "$I/libexec/storprov/storprov-verify-textfile"
	# verify.env: commented defaults with the install paths; a second make install keeps an edited one
	run -0 grep -x "#STORPROV_PROFILE=$I/etc/storprov/profiles/NAME.xml" "$I/etc/storprov/verify.env"
	run -0 grep -x "EnvironmentFile=-$I/etc/storprov/verify.env" "$I/units/storprov-verify.service"
	echo "STORPROV_PROFILE=/srv/mine.xml" >>"$I/etc/storprov/verify.env"
	make -s -C "$TOP" install PREFIX="$I" SYSCONFDIR="$I/etc" UNITDIR="$I/units" >/dev/null
	run -0 grep -x "STORPROV_PROFILE=/srv/mine.xml" "$I/etc/storprov/verify.env"
	command -v systemd-analyze >/dev/null || skip "no systemd-analyze"
	run -0 systemd-analyze verify --man=no "$I/units/storprov-verify.service" "$I/units/storprov-verify.timer"
	refute_output
	# and it does object to a broken timer
	sed 's/^OnCalendar=daily$/OnCalendar=every day/' "$I/units/storprov-verify.timer" >"$BATS_TEST_TMPDIR/storprov-verify.timer"
	run ! systemd-analyze verify --man=no "$BATS_TEST_TMPDIR/storprov-verify.timer"
}

@test "storprov-verify-textfile: the metrics land whole in the textfile directory, drift is exit 3, a refusal still leaves its exit code" {
	local n="$BATS_TEST_TMPDIR/node" root="$BATS_TEST_TMPDIR/root" tf="$BATS_TEST_TMPDIR/textfile"
	cp -a "$SYSROOT/grid-3ware" "$n"
	mkdir -p "$root"
	export STORPROV="$SP" STORPROV_PROFILE="$TOP/profiles/grid-3ware-raid5.xml" STORPROV_TEXTFILE_DIR="$tf"
	export STORPROV_VERIFY_ARGS="--sysroot $n --root $root --seed 1"
	# a fresh captured node with no files rendered: drift and missing
	run -3 "$I/libexec/storprov/storprov-verify-textfile"
	run -0 ls -A "$tf"
	assert_output storprov.prom
	[ "$(stat -c %a "$tf/storprov.prom")" = 644 ]
	run -0 "${STORPROV_PYTHON:-/usr/bin/python3}" -c '
import sys
from prometheus_client.parser import text_string_to_metric_families
m = {s.name + str(sorted(s.labels.items())): s.value for f in text_string_to_metric_families(open(sys.argv[1]).read()) for s in f.samples}
print(int(m["storprov_verify_exit_code[]"]), int(m["storprov_verify_objects[(\x27status\x27, \x27missing\x27)]"]) > 0)
' "$tf/storprov.prom"
	assert_output "3 True"
	# verify refuses (the profile does not exist): the file is replaced with the exit code
	STORPROV_PROFILE="$BATS_TEST_TMPDIR/nope.xml" run -2 "$I/libexec/storprov/storprov-verify-textfile"
	run -0 ls -A "$tf"
	assert_output storprov.prom
	run -0 grep -x "storprov_verify_exit_code 2" "$tf/storprov.prom"
	run -1 grep "^storprov_verify_drift" "$tf/storprov.prom"
	command -v promtool >/dev/null || skip "no promtool (Debian package prometheus)"
	run -0 promtool check metrics <"$tf/storprov.prom"
}

# doc/fleet.md's alert and recording rules, as printed there (the indented block after "Alert rules")
fleet_doc_rules() {
	awk '/and a recording rule/ {a = 1}
		a && !f && /^    / {f = 1}
		f && /^$/ {print; next}
		f && /^    / {sub(/^    /, ""); print; next}
		f {exit}' "$TOP/doc/fleet.md"
}

@test "promtool: the textfile passes check metrics, doc/fleet.md's alert rule passes check rules and fires only on the drift it should" {
	command -v promtool >/dev/null || skip "no promtool (Debian package prometheus)"
	local n="$BATS_TEST_TMPDIR/node" root="$BATS_TEST_TMPDIR/root" p="$BATS_TEST_TMPDIR/prom"
	cp -a "$SYSROOT/grid-3ware" "$n"
	mkdir -p "$root" "$p"
	# the exposition straight from verify, with its escaped labels, lints clean
	run -3 "$SP" verify --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$n" --root "$root" --seed 1 --format prometheus
	printf '%s\n' "$output" >"$p/verify.prom"
	grep -q '^storprov_verify_drift{' "$p/verify.prom"
	run -0 promtool check metrics <"$p/verify.prom"
	refute_output
	# and promtool does object to a broken exposition
	sed '0,/^storprov_verify_drift{object="/s//storprov_verify_drift{object=/' "$p/verify.prom" >"$p/bad.prom"
	run ! promtool check metrics <"$p/bad.prom"
	fleet_doc_rules >"$p/storprov-alerts.yml"
	grep -q 'alert: StorprovLayoutDrift' "$p/storprov-alerts.yml"
	grep -q 'record: storprov:verify_drift:count_by_check' "$p/storprov-alerts.yml"
	cp "$TOP/tests/fixtures/prometheus/storprov-alerts.test.yml" "$p/"
	run -0 promtool check rules "$p/storprov-alerts.yml"
	assert_output --partial "SUCCESS: 3 rules found"
	run -0 promtool test rules "$p/storprov-alerts.test.yml"
	assert_output --partial "SUCCESS"
	# the series test can fail: without `for: 1h` node3's young drift fires too
	sed -i '/^        for: 1h$/d' "$p/storprov-alerts.yml"
	run ! promtool test rules "$p/storprov-alerts.test.yml"
	assert_output --partial "node3"
}

@test "prometheus series do not churn: read-ahead drifting 128, 256, 512 is one drift series in all three scrapes; the values stay in the comment and the JSON" {
	local n="$BATS_TEST_TMPDIR/node" root="$BATS_TEST_TMPDIR/root" p="$BATS_TEST_TMPDIR/prom" v
	"$TOP/tests/tools/applied-node.sh" "$SP" "$TOP/profiles/grid-3ware-raid5.xml" "$SYSROOT/grid-3ware" "$n" "$root"
	mkdir -p "$p"
	for v in 128 256 512; do
		echo "$v" >"$n/sys/block/sdc/queue/read_ahead_kb"
		run -3 "$SP" verify --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$n" --root "$root" --seed 1 --format prometheus
		printf '%s\n' "$output" >"$p/$v.prom"
		# the value measured is in the comment above the series, not in its labels
		grep -qFx "# drift: lun2 queue/read_ahead_kb: expected \"8192\", found \"$v\"" "$p/$v.prom"
		run -0 grep -c '^storprov_verify_drift{' "$p/$v.prom"
		assert_output 1
		run -3 "$SP" verify --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$n" --root "$root" --seed 1 --format json
		run -0 jq -r '.checks[] | select(.status == "drift") | "\(.object) \(.expected) \(.found)"' <<<"$output"
		assert_output "lun2 8192 $v"
	done
	# the series of the three scrapes: one, the same labels each time
	run -0 sh -c "cat '$p'/*.prom | grep '^storprov_verify_drift{' | sort -u"
	assert_output 'storprov_verify_drift{object="lun2",kind="disk",check="queue/read_ahead_kb",status="drift"} 1'
	# a value no label could hold as it is (a quote, a backslash, a byte that is not UTF-8): the comment
	# escapes it as a label value would be, on one line; the series is the same
	printf 'x\377"\\y\n' >"$n/sys/block/sdc/queue/read_ahead_kb"
	run -3 "$SP" verify --profile "$TOP/profiles/grid-3ware-raid5.xml" --sysroot "$n" --root "$root" --seed 1 --format prometheus
	printf '%s\n' "$output" >"$p/odd.prom"
	grep -qFx '# drift: lun2 queue/read_ahead_kb: expected "8192", found "x?\"\\y"' "$p/odd.prom"
	run -0 sh -c "cat '$p'/*.prom | grep '^storprov_verify_drift{' | sort -u"
	assert_output 'storprov_verify_drift{object="lun2",kind="disk",check="queue/read_ahead_kb",status="drift"} 1'
	command -v promtool >/dev/null || skip "no promtool (Debian package prometheus)"
	run -0 promtool check metrics <"$p/512.prom"
	refute_output
	run -0 promtool check metrics <"$p/odd.prom"
	refute_output
}
