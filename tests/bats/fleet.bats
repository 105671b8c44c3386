#!/usr/bin/env bats
# make fleet-demo: the fleet report playbook over 3 local inventory hosts, one
# seeded with drift. The report must name exactly the seeded drift on node2
# and nothing on node1 and node3, read from build/fleet-report.json with jq;
# the report carries its generation time, each host's verify time and
# storprov version and each drifted check's drifting_since; the Markdown puts
# node2's drifted checks first and the output ends with the summary line. The
# demo runs once for the file; its HTML page is then read by headless Chromium.
# A second run with an older report in place keeps the drifting_since of the
# checks still drifting. The filter's unit tests feed it hostile values and
# times; a synthetic fleet of 240 hosts x 60 LUNs shows its drift on the first
# screen of the HTML page.
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
		'[["file:/etc/udev/rules.d/70-storprov.rules","/etc/udev/rules.d/70-storprov.rules","as render writes it","nothing"],["lun2","queue/read_ahead_kb","8192","128"],["vm.dirty_ratio","/proc/sys/vm/dirty_ratio","40","20"]]' ]
	for n in node1 node3; do
		[ "$(jq -r ".hosts.$n.objects | [.[] | select(. != \"ok\")] | length" "$j")" = 0 ]
		[ "$(jq -r ".hosts.$n.objects | length" "$j")" = "$(jq -r '.hosts.node2.objects | length' "$j")" ]
	done
	# the verify really ran per host: the same counts as storprov verify of node2's tree
	run -3 "$SP" verify --profile "$TOP/tests/fixtures/fleet/grid-3ware-raid5.xml" --sysroot "$TOP/build/fleet-demo/node2/sysroot" \
		--root "$TOP/build/fleet-demo/node2/root" --seed 1 --format json
	[ "$(jq '[.checks[] | select(.status == "drift" or .status == "missing")] | length' <<<"$output")" = \
		"$(jq '.hosts.node2.drifted | length' "$j")" ]
	# the times: generation, each host's verify, each drifted check's first seen
	local iso='^20[0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z$'
	[[ $(jq -r .generated "$j") =~ $iso ]]
	[ "$(jq .format_version "$j")" = 2 ]
	for n in node1 node2 node3; do
		[[ $(jq -r ".hosts.$n.verified_at" "$j") =~ $iso ]]
		[ "$(jq -r ".hosts.$n.tool_version" "$j")" = "$("$SP" --version | grep -o '[0-9][0-9.]*' | head -n 1)" ]
	done
	[ "$(jq -r '[.hosts.node2.drifted[] | .drifting_since == $v] | all' --arg v "$(jq -r .hosts.node2.verified_at "$j")" "$j")" = true ]
	# the Markdown: node2's drifted checks (missing first) with their times, then the hosts worst first
	run -0 grep -n '^| node' "$TOP/build/fleet-report.md"
	assert_line --index 0 --regexp '^[0-9]+:\| node2 \| file:/etc/udev/rules\.d/70-storprov\.rules \| .* \| missing \| as render writes it \| nothing \| 20[0-9-]+T[0-9:]+Z \|$'
	assert_line --index 1 --regexp '^[0-9]+:\| node2 \| lun2 \| queue/read\\_ahead\\_kb \| drift \| 8192 \| 128 \| 20[0-9-]+T[0-9:]+Z \|$'
	assert_line --index 3 --regexp '^[0-9]+:\| node2 \| drift \| 9 \| 2 \| 1 \| 20[0-9-]+T[0-9:]+Z \| [0-9.]+ \|  \|$'
	assert_line --index 4 --partial "| node1 | clean | 12 | 0 | 0 | "
}

@test "fleet_report again with an older report in place: drifting_since kept for the checks still drifting, resolved ones gone" {
	[ "$(cat "$BATS_FILE_TMPDIR/demo.rc")" = 0 ]
	local d="$BATS_TEST_TMPDIR/report" j
	mkdir -p "$d"
	# the previous report: node2's dirty_ratio drifting since January, and a check that no longer drifts
	jq '.hosts.node2.drifted |= map(if .object == "vm.dirty_ratio" then .drifting_since = "2026-01-02T03:04:05Z" else . end)
		| .hosts.node1.drifted = [{object: "lun1", check: "queue/scheduler", status: "drift", expected: "none",
			found: "mq-deadline", drifting_since: "2025-12-31T00:00:00Z"}]' \
		"$TOP/build/fleet-report.json" >"$d/fleet-report.json"
	cd "$TOP"
	LC_ALL=C.UTF-8 PATH="/usr/bin:$PATH" ANSIBLE_COLLECTIONS_PATH="$TOP" ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=False \
		run -0 ansible-playbook -i build/fleet-demo/inventory.ini -e storprov_report_dir="$d" storprov.core.fleet_report
	j="$d/fleet-report.json"
	[ "$(jq -r '.hosts.node2.drifted[] | select(.object == "vm.dirty_ratio") | .drifting_since' "$j")" = 2026-01-02T03:04:05Z ]
	# lun2 drifted in the previous report too: its time is the previous one
	[ "$(jq -r '.hosts.node2.drifted[] | select(.object == "lun2") | .drifting_since' "$j")" = \
		"$(jq -r '.hosts.node2.drifted[] | select(.object == "lun2") | .drifting_since' "$TOP/build/fleet-report.json")" ]
	[ "$(jq '.hosts.node1.drifted | length' "$j")" = 0 ]
	grep -q '| node2 | vm.dirty\\_ratio | /proc/sys/vm/dirty\\_ratio | drift | 40 | 20 | 2026-01-02T03:04:05Z |' "$d/fleet-report.md"
	grep -q '<td>40</td><td>20</td><td>2026-01-02T03:04:05Z</td>' "$d/fleet-report.html"
}

@test "the filter's unit tests: hostile node values in the Markdown and HTML, the times, drifting_since carried over" {
	# ansible-core's filter plugin on its own (tests/unit/plugins/filter/test_fleet.py)
	cd "$TOP/ansible_collections/storprov/core"
	run -0 "${STORPROV_PYTHON:-/usr/bin/python3}" -m unittest -v tests/unit/plugins/filter/test_fleet.py
	assert_output --partial "Ran 10 tests"
	assert_line OK
}

chrome() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$BATS_TEST_TMPDIR/chromium" "$@" 2>"$BATS_TEST_TMPDIR/chromium.log"
}

need_chromium() {
	command -v chromium >/dev/null || skip "no chromium (Debian package chromium)"
	"${STORPROV_PYTHON:-/usr/bin/python3}" -c 'import PIL' 2>/dev/null || skip "no python3-pil"
}

# colours.py PNG ROWS: per report colour, the pixels of it in the top ROWS rows
# of the screenshot and the first and last row holding one
colours() {
	"${STORPROV_PYTHON:-/usr/bin/python3}" - "$@" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert('RGB')
colours = {'drift': (0xf6, 0xc3, 0x43), 'missing': (0xe8, 0x60, 0x5a), 'ok': (0xb7, 0xe4, 0xb0)}
ys = {k: [] for k in colours}
w, h = im.size
h = min(h, int(sys.argv[2]))
px = im.load()
for y in range(h):
    for x in range(w):
        for k, c in colours.items():
            if px[x, y] == c:
                ys[k].append(y)
for k in colours:
    print(k, len(ys[k]), min(ys[k]) if ys[k] else '-', max(ys[k]) if ys[k] else '-')
PY
}

@test "the HTML report in headless Chromium: node2 and its drifted checks first, the clean hosts folded" {
	need_chromium
	[ "$(cat "$BATS_FILE_TMPDIR/demo.rc")" = 0 ]
	local h="$TOP/build/fleet-report.html" shot="$BATS_TEST_TMPDIR/fleet.png"
	# the DOM as the browser parsed it: node2 first, only its drifted checks, node1 and node3 folded
	run -0 chrome --dump-dom "file://$h"
	[ "$(grep -o 'id="host-[a-z0-9]*"' <<<"$output" | cut -d'"' -f2 | paste -sd' ')" = "host-node2 host-node1 host-node3" ]
	[ "$(grep -o '<td class="drift">drift</td>' <<<"$output" | wc -l)" = 2 ]
	[ "$(grep -o '<td class="missing">missing</td>' <<<"$output" | wc -l)" = 1 ]
	[ "$(grep -c 'class="ok"' <<<"$output")" = 0 ]
	assert_output --regexp '<p id="generated">generated 20[0-9-]+T[0-9:]+Z; 3 hosts</p>'
	assert_output --regexp '<td>vm.dirty_ratio</td><td>/proc/sys/vm/dirty_ratio</td><td class="drift">drift</td><td>40</td><td>20</td><td>20[0-9-]+T[0-9:]+Z</td>'
	assert_output --partial '<details id="clean"><summary>2 clean hosts (every object ok)</summary>'
	assert_output --partial '<p id="summary">fleet: 3 hosts, 1 with drift (2 objects drifted, 1 missing), 2 clean, 0 failed</p>'
	# the screenshot: the missing (red) and drift (amber) cells painted, and
	# no ok (green): the clean hosts are folded
	run -0 chrome --window-size=1300,700 --screenshot="$shot" "file://$h"
	run -0 colours "$shot" 700
	echo "$output"
	[ "$(awk '$1 == "drift" { print $2 }' <<<"$output")" -gt 300 ]
	[ "$(awk '$1 == "missing" { print $2 }' <<<"$output")" -gt 300 ]
	assert_line "ok 0 - -"
}

@test "240 hosts x 60 LUNs: the HTML page is small and a drifted cell is on Chromium's first screen" {
	need_chromium
	local seed=${FLEET_SEED:-$RANDOM} h="$BATS_TEST_TMPDIR/fleet-240.html" shot="$BATS_TEST_TMPDIR/fleet-240.png"
	echo "seed $seed (FLEET_SEED=$seed to repeat)"
	cd "$TOP/ansible_collections/storprov/core/plugins/filter"
	# 240 hosts, each 60 LUNs (lunN, lunN.data, fs:/storage/dataN) and 5 more
	# objects, 185 in all; 6 checks drift and 2 are missing at random places
	run -0 "${STORPROV_PYTHON:-/usr/bin/python3}" - "$seed" "$h" <<'PY'
import random
import sys
import fleet
rnd = random.Random(int(sys.argv[1]))

def checks():
    out = []
    for n in range(1, 61):
        out += [dict(object='lun%d' % n, check=c, status='ok', expected=e, found=e)
                for c, e in (('queue/read_ahead_kb', '8192'), ('queue/scheduler', 'mq-deadline'),
                             ('queue/nr_requests', '512'))]
        out.append(dict(object='lun%d.data' % n, check='sd%s1 start' % n, status='ok', expected='22528',
                        found='22528'))
        out += [dict(object='fs:/storage/data%d' % n, check=c, status='ok', expected=e, found=e)
                for c, e in (('fstab entry', 'UUID=%032x /storage/data%d xfs noatime' % (n, n)),
                             ('mount options (/proc/mounts)', '/storage/data%d' % n))]
    out += [dict(object=o, check=o, status='ok', expected='1', found='1')
            for o in ('vm.dirty_ratio', 'vm.dirty_background_ratio', 'file:/etc/fstab',
                      'file:/etc/udev/rules.d/70-storprov.rules', 'file:/etc/sysctl.d/70-storprov.conf')]
    return out

names = ['stor%03d' % i for i in range(240)]
hostvars = dict((n, dict(storprov_verify=dict(verify=dict(status='clean', checks=checks(), storprov_version='0.2.0',
                                                          time='2026-12-04T06:00:00Z')))) for n in names)
for i, (n, k) in enumerate(rnd.sample([(n, k) for n in names for k in range(len(checks()))], 8)):
    v = hostvars[n]['storprov_verify']['verify']
    c = v['checks'][k]
    c['status'], c['found'] = ('drift', 'changed') if i < 6 else ('missing', None)
    v['status'] = 'drift'
    print('seeded', c['status'], n, c['object'], c['check'])
objects = set(c['object'] for c in checks())
report = fleet.storprov_fleet_report(hostvars, names, now='2026-12-04T06:05:00Z')
page = fleet.storprov_fleet_html(report)
with open(sys.argv[2], 'w') as f:
    f.write(page)
print('objects', len(objects))
print('html bytes', len(page.encode('utf-8')))
PY
	echo "$output"
	assert_line "objects 185"
	local size
	size=$(awk '$1 == "html" { print $3 }' <<<"$output")
	# well under 1 MB (the hosts x objects grid was 1 MB at this scale)
	[ "$size" -lt 262144 ]
	# the first screen of a 1920x1080 window: drift-coloured cells in it
	run -0 chrome --window-size=1920,1080 --screenshot="$shot" "file://$h"
	run -0 colours "$shot" 1080
	echo "$output"
	[ "$(awk '$1 == "drift" { print $2 }' <<<"$output")" -gt 300 ]
	[ "$(awk '$1 == "missing" { print $2 }' <<<"$output")" -gt 300 ]
	# and every seeded drifted or missing check's cell lies inside that first
	# screen (laid out by Chromium; a script added to a copy of the page lists
	# each cell's box)
	sed 's|</body>|<script>document.body.insertAdjacentHTML("beforeend", "<pre id=boxes>" + Array.from(document.querySelectorAll("td.drift, td.missing")).map(function (c) { var r = c.getBoundingClientRect(); return c.className + " " + Math.round(r.right) + " " + Math.round(r.bottom); }).join("\\n") + "</pre>");</script></body>|' \
		"$h" >"$BATS_TEST_TMPDIR/boxes.html"
	run -0 chrome --window-size=1920,1080 --dump-dom "file://$BATS_TEST_TMPDIR/boxes.html"
	run -0 grep -oE '(drift|missing) [0-9-]+ [0-9-]+' <<<"$output"
	echo "$output"
	[ "${#lines[@]}" = 8 ]
	[ "$(awk '$2 > 1920 || $3 > 1080' <<<"$output" | wc -l)" = 0 ]
}
