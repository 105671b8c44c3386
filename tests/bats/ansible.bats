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
	assert_output --partial "Ran 21 tests"
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

@test "ansible-doc shows the role's argument spec and every filter; the role refuses a bad variable; galaxy.yml's repository" {
	export ANSIBLE_COLLECTIONS_PATH="$TOP"
	run -0 ansible-doc -t role storprov.core.storprov
	assert_output --partial "ENTRY POINT: main - Install storprov"
	local role_doc=$output
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
		grep -qx -- "- $v" <<<"$role_doc" || { echo "ansible-doc does not show $v"; false; }
	done
	# every filter the plugin defines has its documentation
	local f n=0
	for f in $(cd "$C/plugins/filter" && "$PY" -c 'import fleet, verify_env
print(" ".join(sorted(list(fleet.FilterModule().filters()) + list(verify_env.FilterModule().filters()))))'); do
		run -0 ansible-doc -t filter "storprov.core.$f"
		assert_line --index 0 --regexp "^> STORPROV.CORE.${f^^} +\(.*/plugins/filter/$f.yml\)\$"
		assert_output --partial "EXAMPLES:"
		assert_output --partial "storprov.core.$f"
		n=$((n + 1))
	done
	[ "$n" = 6 ]
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

@test "every version_added in the collection is at most galaxy.yml's version" {
	run -0 "$PY" - "$C" <<'PY'
import os, re, sys, yaml
top = sys.argv[1]
have = yaml.safe_load(open(os.path.join(top, 'galaxy.yml')))['version']
key = lambda v: tuple(int(x) for x in v.split('.'))
seen, bad = 0, []
for d, dirs, files in os.walk(top):
    dirs[:] = [x for x in dirs if x != 'output']
    for f in files:
        if not f.endswith(('.py', '.yml', '.yaml')):
            continue
        p = os.path.join(d, f)
        for n, line in enumerate(open(p), 1):
            m = re.search(r'\bversion_added:\s*["\']?([0-9][0-9.]*)', line)
            if m:
                seen += 1
                if key(m.group(1)) > key(have):
                    bad.append('%s:%d: version_added %s, galaxy.yml says %s' % (os.path.relpath(p, top), n, m.group(1), have))
print('\n'.join(bad) or '%d version_added, none above %s' % (seen, have))
sys.exit(1 if bad else 0)
PY
	assert_output --regexp '^[0-9]+ version_added, none above [0-9.]+$'
}

# the_role VARS-JSON [ansible-playbook options]: the role on localhost as a
# playbook runs it, with a PATH of the system's own (no storprov on it); the
# play's output and status in $output and $status
the_role() {
	local vars=$1
	shift
	printf -- '- hosts: all\n  gather_facts: false\n  roles:\n    - role: storprov.core.storprov\n' >"$BATS_TEST_TMPDIR/site.yml"
	printf '%s\n' "$vars" >"$BATS_TEST_TMPDIR/vars.json"
	run env LC_ALL=C.UTF-8 ANSIBLE_COLLECTIONS_PATH="$TOP" ANSIBLE_NOCOLOR=1 PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME="$BATS_TEST_TMPDIR/home" ansible-playbook -i localhost, -c local -e ansible_python_interpreter="$PY" \
		-e "@$BATS_TEST_TMPDIR/vars.json" "$@" "$BATS_TEST_TMPDIR/site.yml"
}

# task_result NAME: what the play printed for the role's task NAME
task_result() {
	awk -v t="TASK [storprov.core.storprov : $1]" 'index($0, t) == 1 {f = 1; next} f && /^(ok|changed|skipping|fatal):/ {print $1; exit}' \
		<<<"$output"
}

# fake_storprov FILE: a storprov that logs each argv (one [word] each) to
# $BATS_TEST_TMPDIR/argv.log and answers plan, apply and verify as a clean node
fake_storprov() {
	cat >"$1" <<SH
#!/bin/sh
printf '[%s]' "\$@" >>"$BATS_TEST_TMPDIR/argv.log"
echo >>"$BATS_TEST_TMPDIR/argv.log"
case \$1 in
plan) echo '{"format": "storprov-plan", "steps": [], "files": []}' ;;
verify) echo 'storprov_verify_exit_code 0' ;;
esac
exit 0
SH
	chmod +x "$1"
}

@test "the role: verify.env carries the root, OS disks, mdadm.conf and tuning mode apply got, by verify.env's quoting rule; a value it cannot carry stops the role first" {
	local t="$BATS_TEST_TMPDIR/target" site="$BATS_TEST_TMPDIR/site" vars
	mkdir -p "$site" "$BATS_TEST_TMPDIR/root"
	fake_storprov "$BATS_TEST_TMPDIR/fake"
	cp "$TOP/profiles/grid-3ware-raid5.xml" "$site/rack7.xml"
	# a profiles directory and a textfile directory with a blank in their paths
	vars=$(jq -n --arg sp "$BATS_TEST_TMPDIR/fake" --arg t "$t" --arg site "$site" --arg root "$BATS_TEST_TMPDIR/root" \
		--arg tf "$BATS_TEST_TMPDIR/text files" '{
		storprov_install: "binary", storprov_binary: $sp, storprov_binary_dest: ($t + "/sbin/storprov"),
		storprov_libexec_dir: ($t + "/libexec"), storprov_unit_dir: ($t + "/units"), storprov_conf_dir: ($t + "/etc"),
		storprov_profiles_dir: ($t + "/etc/site profiles"), storprov_profiles_src: $site, storprov_profile: "rack7.xml",
		storprov_root: $root, storprov_state: "planned", storprov_textfile_dir: $tf, storprov_timer_enable: false,
		storprov_os_disks: ["sda", "/dev/disk/by-id/wwn-0x5000c500a1b2c3d4"], storprov_mdadm_conf: "/etc/mdadm.conf",
		storprov_tuning: "tuned"}')
	the_role "$vars"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# the module's plan got them
	run -0 grep '^\[plan\]' "$BATS_TEST_TMPDIR/argv.log"
	assert_output "[plan][--profile=$t/etc/site profiles/rack7.xml][--os-disks=sda,/dev/disk/by-id/wwn-0x5000c500a1b2c3d4][--mdadm-conf=/etc/mdadm.conf][--tuning=tuned][--format=json]"
	run -0 grep -v '^#' "$t/etc/verify.env"
	assert_output "STORPROV_PROFILE='$t/etc/site profiles/rack7.xml'
STORPROV_TEXTFILE_DIR='$BATS_TEST_TMPDIR/text files'
STORPROV_VERIFY_ARGS='--root $BATS_TEST_TMPDIR/root --os-disks sda,/dev/disk/by-id/wwn-0x5000c500a1b2c3d4 --mdadm-conf /etc/mdadm.conf --tuning tuned'"
	# no line holds a backslash or a double quote; every comment line is one
	run -1 grep -n -e '\\' -e '"' "$t/etc/verify.env"
	# the scheduled verify as the role laid it out, its settings read by sh from verify.env: the same options
	run -0 env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin sh -c "set -a; . '$t/etc/verify.env'; set +a; exec '$t/libexec/storprov-verify-textfile'"
	run -0 tail -n 1 "$BATS_TEST_TMPDIR/argv.log"
	assert_output "[verify][--profile][$t/etc/site profiles/rack7.xml][--format][prometheus][--root][$BATS_TEST_TMPDIR/root][--os-disks][sda,/dev/disk/by-id/wwn-0x5000c500a1b2c3d4][--mdadm-conf][/etc/mdadm.conf][--tuning][tuned]"
	run -0 cat "$BATS_TEST_TMPDIR/text files/storprov.prom"
	assert_output "storprov_verify_exit_code 0"
	# values verify.env cannot carry: a quote in a path, an OS disk glob the service would expand; the role stops
	# before anything is installed or run, naming the value
	rm -rf "$t" "$BATS_TEST_TMPDIR/argv.log"
	the_role "$(jq --arg tf "$BATS_TEST_TMPDIR/it's here" '. + {storprov_textfile_dir: $tf}' <<<"$vars")"
	[ "$status" -ne 0 ]
	assert_output --partial "verify.env: STORPROV_TEXTFILE_DIR \\\"$BATS_TEST_TMPDIR/it's here\\\" cannot be written there (a single quote)"
	the_role "$(jq '. + {storprov_os_disks: ["sd[ab]"]}' <<<"$vars")"
	[ "$status" -ne 0 ]
	assert_output --partial "verify.env: \\\"sd[ab]\\\" cannot be one word of STORPROV_VERIFY_ARGS"
	[ ! -e "$t" ]
	[ ! -e "$BATS_TEST_TMPDIR/argv.log" ]
	# a profile whose name has a quote: storprov ran, verify.env is not written, the task says why
	mv "$site/rack7.xml" "$site/rack7's.xml"
	the_role "$(jq '. + {storprov_profile: "rack7'"'"'s.xml"}' <<<"$vars")"
	[ "$status" -ne 0 ]
	assert_output --partial "verify.env: STORPROV_PROFILE (the profile storprov ran with) \\\"$t/etc/site profiles/rack7's.xml\\\" cannot be written there (a single quote)"
	[ ! -e "$t/etc/verify.env" ]
}

@test "the role in check mode on a node without storprov: would install, changed, nothing written, no task fails (a binary, a package file)" {
	local t="$BATS_TEST_TMPDIR/target" vars deb
	[ -z "$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v storprov)" ] || skip "this machine has storprov on its PATH"
	fake_storprov "$BATS_TEST_TMPDIR/fake"
	mkdir -p "$BATS_TEST_TMPDIR/site"
	cp "$TOP/profiles/grid-3ware-raid5.xml" "$BATS_TEST_TMPDIR/site/rack7.xml"
	# the timer enabled as by default: with no storprov, no unit either
	vars=$(jq -n --arg sp "$BATS_TEST_TMPDIR/fake" --arg t "$t" --arg site "$BATS_TEST_TMPDIR/site" '{
		storprov_install: "binary", storprov_binary: $sp, storprov_binary_dest: ($t + "/sbin/storprov"),
		storprov_libexec_dir: ($t + "/libexec"), storprov_unit_dir: ($t + "/units"), storprov_conf_dir: ($t + "/etc"),
		storprov_profiles_src: $site, storprov_profile: "rack7.xml", storprov_root: ($t + "/root"),
		storprov_textfile_dir: ($t + "/textfile")}')
	the_role "$vars" --check
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	assert_output --partial "would install storprov ($t/sbin/storprov), then would run it (state applied) and schedule its daily verify; check mode cannot run storprov before it is installed"
	[ "$(task_result 'Check mode without storprov on the node yet')" = "changed:" ]
	[ "$(task_result 'Run storprov')" = "skipping:" ]
	[ "$(task_result 'Enable storprov-verify.timer')" = "skipping:" ]
	assert_output --regexp 'localhost +: ok=[0-9]+ +changed=[1-9][0-9]* +unreachable=0 +failed=0'
	[ ! -e "$t" ]
	[ ! -e "$BATS_TEST_TMPDIR/argv.log" ]
	# a package file (.deb) from the controller: not copied in check mode, so it would be installed
	deb="$BATS_TEST_TMPDIR/storprov-check-$$-$RANDOM.deb"
	mkdir -p "$BATS_TEST_TMPDIR/pkg/DEBIAN" "$BATS_TEST_TMPDIR/pkg/usr/sbin"
	printf 'Package: storprov\nVersion: 0.2.0\nArchitecture: all\nMaintainer: test <test@localhost>\nDescription: test\n' \
		>"$BATS_TEST_TMPDIR/pkg/DEBIAN/control"
	cp "$BATS_TEST_TMPDIR/fake" "$BATS_TEST_TMPDIR/pkg/usr/sbin/storprov"
	run -0 dpkg-deb --build "$BATS_TEST_TMPDIR/pkg" "$deb"
	the_role "$(jq --arg deb "$deb" '. + {storprov_install: "package", storprov_package: $deb}' <<<"$vars")" --check
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	assert_output --partial "would install storprov ($deb), then would run it (state applied)"
	[ "$(task_result 'Install the deb')" = "skipping:" ]
	[ "$(task_result 'Run storprov')" = "skipping:" ]
	[ "$(task_result 'Enable storprov-verify.timer')" = "skipping:" ]
	[ ! -e "/var/tmp/${deb##*/}" ]
	[ ! -e "$t" ]
}

@test "the fleet playbook: storprov_tuning names the mode verify runs in; unset, none is named" {
	local d="$BATS_TEST_TMPDIR"
	cat >"$d/fake" <<SH
#!/bin/sh
printf '[%s]' "\$@" >>"$d/argv.log"
echo >>"$d/argv.log"
echo '{"format": "storprov-verify", "status": "clean", "checks": [], "time": "2026-12-01T00:00:00Z"}'
SH
	chmod +x "$d/fake"
	printf '[storage]\nh1 storprov_tuning=tuned\nh2\n\n[storage:vars]\nansible_connection=local\nansible_python_interpreter=%s\nstorprov_binary=%s\nstorprov_profile=/p.xml\nstorprov_report_dir=%s\n' \
		"$PY" "$d/fake" "$d/report" >"$d/inventory.ini"
	run env LC_ALL=C.UTF-8 ANSIBLE_COLLECTIONS_PATH="$TOP" ANSIBLE_NOCOLOR=1 HOME="$d/home" PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		ansible-playbook -i "$d/inventory.ini" -f 1 storprov.core.fleet_report
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	assert_output --partial "fleet: 2 hosts, 0 with drift (0 objects drifted, 0 missing), 2 clean, 0 failed"
	run -0 sort "$d/argv.log"
	assert_output "[verify][--profile=/p.xml][--root=/][--format=json]
[verify][--profile=/p.xml][--tuning=tuned][--root=/][--format=json]"
}
