#!/usr/bin/env bats
# The Ansible collection (ansible_collections/storprov/core): ansible-test
# sanity with Debian's ansible-core, offline. The sanity tests that need their
# own virtualenv from PyPI (ansible-doc, import, pep8, pylint,
# runtime-metadata, validate-modules, yamllint) cannot bootstrap pip without
# the network; each but pylint is run here instead with the same checker and
# ansible-test's own configuration (validate-modules' validate.py with Debian's
# python3-voluptuous, yamllint and pycodestyle with ansible-test's configs,
# ansible-doc, an import of the module). Then the module's unit tests.
load test_helper

C="$TOP/ansible_collections/storprov/core"
S=/usr/lib/python3/dist-packages/ansible_test/_util/controller/sanity
PY=/usr/bin/python3
NEEDS_VENV=(ansible-doc import pep8 pylint runtime-metadata validate-modules yamllint)

setup() {
	# ansible refuses to run in the C locale
	export LC_ALL=C.UTF-8
	command -v ansible-test >/dev/null || skip "no ansible-test (ansible-core)"
	# nothing here runs the storprov binary: the asan suite's pass adds nothing
	[ -z "${STORPROV_BIN:-}" ] || skip "no storprov binary involved"
}

@test "ansible-test sanity: every test that runs offline passes" {
	local skips=()
	for t in "${NEEDS_VENV[@]}"; do skips+=(--skip-test "$t"); done
	cd "$C"
	PATH=/usr/sbin:/usr/bin:/sbin:/bin run -0 ansible-test sanity --local --python 3.11 "${skips[@]}"
	assert_line 'Running sanity test "compile" on Python 3.11'
	assert_line 'Running sanity test "shebang"'
	refute_output --partial "ERROR"
}

@test "sanity offline equivalents: validate-modules, ansible-doc, import, yamllint, pycodestyle" {
	cd "$C"
	# validate-modules; the one finding ignored in tests/sanity/ignore-2.14.txt
	# (the module is GPL-2.0-or-later like storprov, not GPLv3's header)
	ANSIBLE_COLLECTIONS_PATH="$TOP" run "$PY" "$S/validate-modules/validate.py" --arg-spec \
		--collection ansible_collections/storprov/core --collection-version 0.2.0 -w plugins/modules/storprov.py
	local rest
	rest=$(grep -v ': Emissing-gplv3-license ' <<<"$output" || true)
	[ -z "$rest" ]
	grep -qx 'plugins/modules/storprov.py validate-modules:missing-gplv3-license' tests/sanity/ignore-2.14.txt
	ANSIBLE_COLLECTIONS_PATH="$TOP" run -0 ansible-doc storprov.core.storprov
	assert_output --partial "state"
	run -0 env PYTHONPATH="$TOP" "$PY" -c 'import ansible_collections.storprov.core.plugins.modules.storprov as m; print(m.report_changed({"files": [{"action": "written"}]}))'
	assert_output True
	command -v yamllint >/dev/null && run -0 yamllint -c "$S/yamllint/config/default.yml" galaxy.yml meta roles playbooks
	command -v pycodestyle >/dev/null && run -0 pycodestyle --max-line-length 160 --ignore="$(paste -sd, "$S/pep8/current-ignore.txt")" plugins tests/unit
}

@test "module unit tests (a fake storprov): check mode, changed, idempotence, refusal, diff, select" {
	cd "$C"
	run -0 "$PY" -m unittest -v tests/unit/plugins/modules/test_storprov.py
	assert_output --partial "Ran 8 tests"
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
