#!/usr/bin/env bats
# The Ansible collection (ansible_collections/storprov/core): ansible-test
# sanity with Debian's ansible-core, offline, every test of it. The tests that
# want a virtualenv filled from PyPI (ansible-doc, import, pep8, pylint,
# runtime-metadata, validate-modules, yamllint) get one laid out beforehand by
# tests/tools/ansible-sanity-venvs.py on Debian's packages (pylint, yamllint,
# pycodestyle, python3-voluptuous), so ansible-test runs them itself with its
# own configuration. A test whose Debian package is missing is skipped by name,
# with the reason printed. Then the module's unit tests, the playbooks, and
# the module run directly against the built storprov.
load test_helper

C="$TOP/ansible_collections/storprov/core"
PY=/usr/bin/python3
VENV_TESTS=(ansible-doc import import.module import.plugin pep8 pylint runtime-metadata validate-modules yamllint)

setup() {
	# ansible refuses to run in the C locale
	export LC_ALL=C.UTF-8
	command -v ansible-test >/dev/null || skip "no ansible-test (ansible-core)"
	# sanity, the fake storprov and the module's select and plan with the
	# built binary: the asan suite's pass adds nothing
	[ -z "${STORPROV_BIN:-}" ] || skip "no storprov binary involved"
	PYVER=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
}

# sanity DIR [ansible-test options]: ansible-test sanity on Debian's Python
# with the virtualenvs under a HOME of this test's own
sanity() {
	local dir=$1 t mod
	shift
	export HOME="$BATS_TEST_TMPDIR/home"
	run -0 "$PY" "$TOP/tests/tools/ansible-sanity-venvs.py" "$PYVER" "/usr/bin/python$PYVER" "${VENV_TESTS[@]}"
	SKIPS=()
	for t in pylint:pylint:pylint yamllint:yamllint:yamllint pep8:pycodestyle:pycodestyle \
		validate-modules:voluptuous:python3-voluptuous runtime-metadata:voluptuous:python3-voluptuous; do
		mod=${t#*:}
		if ! "$PY" -c "import ${mod%%:*}" 2>/dev/null; then
			SKIPS+=(--skip-test "${t%%:*}")
			echo "# skipping sanity test ${t%%:*}: no Python module ${mod%%:*} (Debian package ${mod#*:})" >&3
		fi
	done
	cd "$dir"
	PATH=/usr/sbin:/usr/bin:/sbin:/bin run ansible-test sanity --python "$PYVER" "${SKIPS[@]}" "$@"
}

@test "ansible-test sanity: every test passes, pylint, validate-modules, import, yamllint and pep8 included" {
	sanity "$C"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	for t in ansible-doc import pep8 pylint runtime-metadata validate-modules yamllint compile shebang; do
		[[ " ${SKIPS[*]} " == *" $t "* ]] && continue
		assert_line --regexp "^Running sanity test \"$t\"( on Python $PYVER)?\$"
	done
	refute_output --partial "ERROR"
	refute_output --partial "Installing requirements"
	refute_output --partial "Skipping sanity test"
	# the one ignore: the module is GPL-2.0-or-later like storprov, not GPLv3's header
	[ "$(cat "$C/tests/sanity/ignore-$(ansible --version | sed -n '1s/.*core \([0-9]*\.[0-9]*\).*/\1/p').txt")" = \
		"plugins/modules/storprov.py validate-modules:missing-gplv3-license" ]
}

@test "ansible-test sanity fails a copy with a bad module, a bad filter and bad YAML" {
	local d="$BATS_TEST_TMPDIR/copy/ansible_collections/storprov/core"
	mkdir -p "${d%/core}"
	cp -a "$C" "$d"
	rm -rf "$d/tests/output"
	# pylint: an undefined name; validate-modules: an option not in DOCUMENTATION
	printf '\n\ndef _bad():\n    return undefined_name_here\n' >>"$d/plugins/modules/storprov.py"
	sed -i "s/^\(\s*\)jobs=dict(/\1undocumented=dict(type='str'),\n\1jobs=dict(/" "$d/plugins/modules/storprov.py"
	grep -q "undocumented=dict" "$d/plugins/modules/storprov.py"
	# pep8: a tab-indented line in the filter plugin; yamllint: a duplicate key
	printf '\n\nif False:\n\tpass\n' >>"$d/plugins/filter/fleet.py"
	printf 'storprov_jobs: 4\n' >>"$d/roles/storprov/defaults/main.yml"
	sanity "$d" --test pylint --test validate-modules --test pep8 --test yamllint
	[ "$status" -ne 0 ]
	assert_output --regexp "plugins/modules/storprov.py:[0-9]+:[0-9]+: undefined-variable"
	assert_output --regexp "plugins/modules/storprov.py:0:0: undocumented-parameter"
	assert_output --regexp "plugins/filter/fleet.py:[0-9]+:[0-9]+: W191"
	assert_output --regexp "roles/storprov/defaults/main.yml:[0-9]+:[0-9]+: key-duplicates"
}

@test "module unit tests (a fake storprov): check mode (the dry run's states), changed, idempotence, refusal, diff, select, plan without --root, lock file, a report missing, not JSON or after a failed step, select JSON, relative paths, one word per option, a diff confined to root, drift fails, the install-time options, odd JSON" {
	cd "$C"
	run -0 "$PY" -m unittest -v tests/unit/plugins/modules/test_storprov.py
	assert_output --partial "Ran 20 tests"
	assert_line OK
}

@test "the role and the fleet playbook pass ansible-playbook --syntax-check" {
	printf -- '- hosts: all\n  roles:\n    - role: storprov.core.storprov\n' >"$BATS_TEST_TMPDIR/site.yml"
	ANSIBLE_COLLECTIONS_PATH="$TOP" run -0 ansible-playbook -i localhost, --syntax-check "$BATS_TEST_TMPDIR/site.yml"
	ANSIBLE_COLLECTIONS_PATH="$TOP" run -0 ansible-playbook -i localhost, --syntax-check storprov.core.fleet_report
	# and a role that names a missing module is caught
	sed 's/storprov.core.storprov:/storprov.core.nosuchmodule:/' "$C/roles/storprov/tasks/main.yml" >"$BATS_TEST_TMPDIR/t.yml"
	printf -- '- hosts: all\n  tasks:\n    - ansible.builtin.import_tasks: %s\n' "$BATS_TEST_TMPDIR/t.yml" >"$BATS_TEST_TMPDIR/bad.yml"
	ANSIBLE_COLLECTIONS_PATH="$TOP" run ! ansible-playbook -i localhost, --syntax-check "$BATS_TEST_TMPDIR/bad.yml"
}

# module ARGS-JSON: the module run as Ansible runs it, on Debian's Python,
# against the built storprov; its JSON result in $output
module() {
	printf '{"ANSIBLE_MODULE_ARGS": %s}\n' "$1" >"$BATS_TEST_TMPDIR/args.json"
	run timeout 30 "$PY" "$C/plugins/modules/storprov.py" "$BATS_TEST_TMPDIR/args.json"
	jq -e . <<<"$output" >/dev/null || { echo "no JSON result: $output"; false; }
}

@test "the module with the built storprov: select --format=json picks a profile; a newline in a file name is refused" {
	local d="$BATS_TEST_TMPDIR/profiles" args
	mkdir "$d"
	cp "$FIX/fleet/grid-3ware-raid5.xml" "$d/site.xml"
	args=$(jq -n --arg sp "$SP" --arg d "$d" --arg s "$SYSROOT/grid-3ware" \
		'{binary: $sp, profiles: $d, sysroot: $s, state: "planned", seed: 1}')
	module "$args"
	[ "$(jq -r '.failed // false' <<<"$output")" = false ] || { echo "$output"; false; }
	[ "$(jq -r .profile <<<"$output")" = "$d/site.xml" ]
	[ "$(jq -r '.plan.steps | length' <<<"$output")" -gt 0 ]
	# the same profile under a name with a newline: select prints it whole
	# (JSON), the module refuses it rather than running "evil.xml"
	mv "$d/site.xml" "$d/x"$'\n'"evil.xml"
	cp "$FIX/fleet/grid-3ware-raid5.xml" "$BATS_TEST_TMPDIR/evil.xml"
	cd "$BATS_TEST_TMPDIR"
	module "$args"
	[ "$(jq -r .failed <<<"$output")" = true ]
	assert_equal "$(jq -r .msg <<<"$output")" \
		"storprov select in $d: the file it chose, \"$d/x\\nevil.xml\", has a control character (a newline?) in its name; rename it in $d; nothing was run with it"
	[ "$(jq -r .select.selected <<<"$output")" = "$d/x"$'\n'"evil.xml" ]
	refute_output --partial '"plan"'
}

@test "the module refuses a relative root, profile or lock file before storprov runs" {
	local opt
	# a binary that would leave a mark if it ran at all
	printf '#!/bin/sh\ntouch "%s/ran"\n' "$BATS_TEST_TMPDIR" >"$BATS_TEST_TMPDIR/sp"
	chmod +x "$BATS_TEST_TMPDIR/sp"
	cd "$BATS_TEST_TMPDIR"
	for opt in root sysroot profile profiles lock_file; do
		module "$(jq -n --arg sp "$BATS_TEST_TMPDIR/sp" --arg o "$opt" \
			'{binary: $sp, root: "/", profile: "/p.xml"} + {($o): "--wipe"} | if $o == "profiles" then del(.profile) else . end')"
		[ "$(jq -r .failed <<<"$output")" = true ]
		assert_equal "$(jq -r .msg <<<"$output")" \
			"option $opt: '--wipe' is not an absolute path; give the whole path on the target, starting with '/'"
	done
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ ! -e "$BATS_TEST_TMPDIR/--wipe" ]
}

@test "the module's diff with the built storprov reads nothing out of root: a symlink to a file outside, a FIFO at a planned path" {
	local r="$BATS_TEST_TMPDIR/root" out="$BATS_TEST_TMPDIR/outside" args
	mkdir -p "$r/etc/udev/rules.d" "$r/etc/sysctl.d" "$out"
	echo "SECRET-OUTSIDE-THE-ROOT" >"$out/fstab"
	ln -s "$out/fstab" "$r/etc/fstab"
	mkfifo "$r/etc/udev/rules.d/70-storprov.rules"
	echo "# an old sysctl file" >"$r/etc/sysctl.d/80-storprov.conf"
	args=$(jq -n --arg sp "$SP" --arg p "$FIX/fleet/grid-3ware-raid5.xml" --arg s "$SYSROOT/grid-3ware" --arg r "$r" \
		'{binary: $sp, profile: $p, sysroot: $s, root: $r, state: "planned", seed: 1, _ansible_diff: true}')
	module "$args"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	refute_output --partial SECRET
	[ "$(jq -r '.diff[1].before' <<<"$output")" = "($r/etc/fstab: a symbolic link, not read)" ]
	[ "$(jq -r '.diff[2].before' <<<"$output")" = "($r/etc/udev/rules.d/70-storprov.rules: a FIFO, not read)" ]
	# a regular file is still shown as it is
	[ "$(jq -r '.diff[3].before' <<<"$output")" = "# an old sysctl file" ]
	[ "$(jq '.diff[3].after == .plan.files[2].content' <<<"$output")" = true ]
}

@test "the module with the built storprov: verify drift fails naming the checks, fail_on_drift: false makes it changed" {
	local r="$BATS_TEST_TMPDIR/root" args
	mkdir -p "$r"
	# the captured node, never provisioned: its partitions and fstab lines are missing
	args=$(jq -n --arg sp "$SP" --arg p "$FIX/fleet/grid-3ware-raid5.xml" --arg s "$SYSROOT/grid-3ware" --arg r "$r" \
		'{binary: $sp, profile: $p, sysroot: $s, root: $r, state: "verified", seed: 1, os_disks: ["sda"]}')
	module "$args"
	[ "$(jq -r '[.failed, .rc, .status] | join(" ")' <<<"$output")" = "true 3 drift" ]
	local n
	n=$(jq '[.verify.checks[] | select(.status == "drift" or .status == "missing")] | length' <<<"$output")
	[ "$n" -gt 2 ]
	assert_equal "$(jq -r .msg <<<"$output" | cut -d: -f1-2)" "storprov verify: the node drifted from $FIX/fleet/grid-3ware-raid5.xml, $n checks"
	# the first drifted check as verify's JSON has it, in the message
	assert_output --partial "$(jq -r '[.verify.checks[] | select(.status == "drift" or .status == "missing")][0] |
		"\(.status) \(.object): \(.check) (expected \(.expected // "-"), found \(.found // "nothing"))"' <<<"$output")"
	module "$(jq '. + {fail_on_drift: false}' <<<"$args")"
	[ "$(jq -r '[.failed // false, .changed, .exit_code, .status] | join(" ")' <<<"$output")" = "false true 3 drift" ]
}

@test "ansible-doc shows the role's argument spec and every fleet filter; the role refuses a bad variable; galaxy.yml's repository" {
	export ANSIBLE_COLLECTIONS_PATH="$TOP"
	run -0 ansible-doc -t role storprov.core.storprov
	assert_output --partial "ENTRY POINT: main - Install storprov"
	# every variable of defaults/main.yml documented there, with the same default
	run -0 "$PY" - "$C/roles/storprov" <<'PY'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1] + '/defaults/main.yml'))
spec = yaml.safe_load(open(sys.argv[1] + '/meta/argument_specs.yml'))['argument_specs']['main']['options']
assert sorted(d) == sorted(spec), (sorted(set(d) ^ set(spec)))
for k, v in d.items():
    assert spec[k].get('default') == v, (k, v, spec[k].get('default'))
print('%d variables documented' % len(d))
PY
	assert_output --regexp '^[0-9]+ variables documented$'
	for v in $(sed -n 's/^\(storprov_[a-z_]*\):.*/\1/p' "$C/roles/storprov/defaults/main.yml"); do
		ansible-doc -t role storprov.core.storprov | grep -q -- "^- $v\$" || { echo "ansible-doc does not show $v"; false; }
	done
	# every filter the plugin defines has its documentation
	local f n=0
	for f in $(cd "$C/plugins/filter" && "$PY" -c 'import fleet; print(" ".join(sorted(fleet.FilterModule().filters())))'); do
		run -0 ansible-doc -t filter "storprov.core.$f"
		assert_line --index 0 --regexp "^> STORPROV.CORE.${f^^} +\(.*/plugins/filter/$f.yml\)\$"
		assert_output --partial "EXAMPLES:"
		assert_output --partial "storprov.core.$f"
		n=$((n + 1))
	done
	[ "$n" = 4 ]
	# the role's argument spec is enforced before any task runs
	printf -- '- hosts: all\n  gather_facts: false\n  roles:\n    - role: storprov.core.storprov\n' >"$BATS_TEST_TMPDIR/site.yml"
	run ! ansible-playbook -i localhost, -c local -e ansible_python_interpreter="$PY" -e storprov_state=bogus \
		"$BATS_TEST_TMPDIR/site.yml"
	assert_output --partial "value of storprov_state must be one of: applied, verified, planned, got: bogus"
	refute_output --partial "TASK [storprov.core.storprov : Install"
	# the collection's repository: the project's URL (Makefile's URL, the spec's), not a localhost placeholder
	local url
	url=$(sed -n 's/^URL *?= *//p' "$TOP/Makefile")
	[ -n "$url" ]
	[ "$("$PY" -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["repository"])' "$C/galaxy.yml")" = "$url" ]
	run -1 grep -n '^repository:.*localhost' "$C/galaxy.yml"
}
