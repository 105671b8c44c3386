#!/usr/bin/env bats
# make fleet-demo: the fleet report playbook over 3 local inventory hosts, one
# seeded with drift. The report must name exactly the seeded drift on node2
# and nothing on node1 and node3, read from build/fleet-report.json with jq;
# the table puts node2 first and the output ends with the summary line. The
# demo runs once for the file; its HTML page is then read by headless Chromium.
# The Markdown filter is also fed hostile values (a unit test of the filter).
load test_helper

setup_file() {
	command -v ansible-playbook >/dev/null || return 0
	make -s -C "$TOP" fleet-demo >"$BATS_FILE_TMPDIR/demo.out" 2>&1
	echo $? >"$BATS_FILE_TMPDIR/demo.rc"
}

setup() {
	command -v ansible-playbook >/dev/null || skip "no ansible-playbook (ansible-core)"
}

@test "make fleet-demo: 3 hosts, exactly the seeded drift on node2, worst first, a summary line" {
	run -0 cat "$BATS_FILE_TMPDIR/demo.out"
	[ "$(cat "$BATS_FILE_TMPDIR/demo.rc")" = 0 ]
	assert_equal "${lines[-1]}" "fleet: 3 hosts, 1 with drift (2 objects drifted, 1 missing), 2 clean, 0 failed"
	local j="$TOP/build/fleet-report.json"
	[ "$(jq -r '.hosts | keys | join(" ")' "$j")" = "node1 node2 node3" ]
	[ "$(jq -r '.order | join(" ")' "$j")" = "node2 node1 node3" ]
	[ "$(jq -r '[.hosts[] | .status] | join(" ")' "$j")" = "clean drift clean" ]
	# host -> objects -> status: only the seeded objects are not ok
	[ "$(jq -c '[.hosts.node2.objects | to_entries[] | select(.value != "ok") | [.key, .value]] | sort' "$j")" = \
		'[["file:/etc/udev/rules.d/70-storprov.rules","missing"],["lun2","drift"],["vm.dirty_ratio","drift"]]' ]
	[ "$(jq -c '[.hosts.node2.drifted[] | [.object, .check, .expected, .found]] | sort' "$j" | sed "s|$TOP|TOP|g")" = \
		'[["file:/etc/udev/rules.d/70-storprov.rules","TOP/build/fleet-demo/node2/root/etc/udev/rules.d/70-storprov.rules","as render writes it","nothing"],["lun2","queue/read_ahead_kb","8192","128"],["vm.dirty_ratio","/proc/sys/vm/dirty_ratio","40","20"]]' ]
	for n in node1 node3; do
		[ "$(jq -r ".hosts.$n.objects | [.[] | select(. != \"ok\")] | length" "$j")" = 0 ]
		[ "$(jq -r ".hosts.$n.objects | length" "$j")" = "$(jq -r '.hosts.node2.objects | length' "$j")" ]
	done
	# the verify really ran per host: the same counts as storprov verify of node2's tree
	run -3 "$SP" verify --profile "$TOP/tests/fixtures/fleet/grid-3ware-raid5.xml" --sysroot "$TOP/build/fleet-demo/node2/sysroot" \
		--root "$TOP/build/fleet-demo/node2/root" --seed 1 --format json
	[ "$(jq '[.checks[] | select(.status == "drift" or .status == "missing")] | length' <<<"$output")" = \
		"$(jq '.hosts.node2.drifted | length' "$j")" ]
	# the Markdown table: node2's row before the clean ones
	run -0 grep -n '^| node' "$TOP/build/fleet-report.md"
	assert_line --index 0 --regexp '^[0-9]+:\| node2 \| drift \| 8 \| 2 \| 1 \| '
	assert_line --index 1 --partial "| node1 | clean | 11 | 0 | 0 |"
}

@test "the Markdown table with hostile node values: six cells a row, values shown as text, no link, tag or code span" {
	# ansible-core's filter plugin on its own (tests/unit/plugins/filter/test_fleet.py)
	cd "$TOP/ansible_collections/storprov/core"
	run -0 "${STORPROV_PYTHON:-/usr/bin/python3}" -m unittest -v tests/unit/plugins/filter/test_fleet.py
	assert_output --partial "Ran 3 tests"
	assert_line OK
}

@test "the HTML report in headless Chromium: hosts x objects, node2's row first with its drift and missing cells" {
	command -v chromium >/dev/null || skip "no chromium (Debian package chromium)"
	"${STORPROV_PYTHON:-/usr/bin/python3}" -c 'import PIL' 2>/dev/null || skip "no python3-pil"
	[ "$(cat "$BATS_FILE_TMPDIR/demo.rc")" = 0 ]
	local h="$TOP/build/fleet-report.html" shot="$BATS_TEST_TMPDIR/fleet.png"
	chrome() {
		timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
			--user-data-dir="$BATS_TEST_TMPDIR/chromium" "$@" 2>"$BATS_TEST_TMPDIR/chromium.log"
	}
	# the DOM as the browser parsed it: rows worst first, the seeded cells only
	run -0 chrome --dump-dom "file://$h"
	[ "$(grep -o '<tr id="host-[a-z0-9]*"' <<<"$output" | cut -d'"' -f2 | paste -sd' ')" = "host-node2 host-node1 host-node3" ]
	[ "$(grep -o '<td class="drift">drift</td>' <<<"$output" | wc -l)" = 3 ]
	[ "$(grep -o '<td class="missing">missing</td>' <<<"$output" | wc -l)" = 1 ]
	[ "$(grep -o '<th class="object">' <<<"$output" | wc -l)" = "$(jq -r '.hosts.node1.objects | length' "$TOP/build/fleet-report.json")" ]
	assert_output --partial '<p id="summary">fleet: 3 hosts, 1 with drift (2 objects drifted, 1 missing), 2 clean, 0 failed</p>'
	# the screenshot: the drift (amber) and missing (red) cells are painted in
	# one row, and ok (green) rows lie below it
	run -0 chrome --window-size=1300,700 --screenshot="$shot" "file://$h"
	run -0 "${STORPROV_PYTHON:-/usr/bin/python3}" - "$shot" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert('RGB')
colours = {'drift': (0xf6, 0xc3, 0x43), 'missing': (0xe8, 0x60, 0x5a), 'ok': (0xb7, 0xe4, 0xb0)}
ys = {k: [] for k in colours}
w, h = im.size
px = im.load()
for y in range(h):
    for x in range(w):
        for k, c in colours.items():
            if px[x, y] == c:
                ys[k].append(y)
for k in colours:
    print(k, len(ys[k]), min(ys[k]) if ys[k] else '-', max(ys[k]) if ys[k] else '-')
assert all(len(v) > 300 for v in ys.values()), 'a colour is not painted'
assert abs(min(ys['drift']) - min(ys['missing'])) <= 2 and abs(max(ys['drift']) - max(ys['missing'])) <= 2, 'not one row'
assert max(ys['ok']) > max(ys['drift']) + 20, 'no ok rows below the drifted one'
print('screenshot ok')
PY
	assert_line "screenshot ok"
}
