#!/usr/bin/env bats
# The role storprov.core.storprov end to end on this machine, as root, with
# ansible_connection=local and Debian's ansible-core: it installs the built
# binary, storprov-verify-textfile and the units into a target tree of the
# test's own, lays out the site profiles there, runs the module against a loop
# device (its run lock a file of the test's own) and writes verify.env. Check
# mode writes nothing; the second applied run changes nothing. Results are read
# back with xfs_info, blkid, findmnt, the disk image's CRC (img_sum) and
# systemd-analyze verify of the installed units.
load crash_helper

setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"
	losetup -f >/dev/null 2>&1 || skip "no loop devices"
	command -v ansible-playbook >/dev/null || skip "no ansible-playbook (ansible-core)"
	ROOT="$BATS_TEST_TMPDIR/root"
	T="$BATS_TEST_TMPDIR/target"
}

teardown() {
	drop_all_loops
}

# role VARS-JSON [ansible-playbook options]: the role on localhost
role() {
	local vars=$1
	shift
	printf -- '- hosts: all\n  gather_facts: false\n  roles:\n    - role: storprov.core.storprov\n' >"$BATS_TEST_TMPDIR/site.yml"
	printf '%s\n' "$vars" >"$BATS_TEST_TMPDIR/vars.json"
	run env LC_ALL=C.UTF-8 ANSIBLE_COLLECTIONS_PATH="$TOP" ANSIBLE_NOCOLOR=1 PATH="/usr/bin:$PATH" \
		ansible-playbook -i localhost, -c local -e ansible_python_interpreter=/usr/bin/python3 \
		-e "@$BATS_TEST_TMPDIR/vars.json" "$@" "$BATS_TEST_TMPDIR/site.yml"
	echo "$output" >"$BATS_TEST_TMPDIR/last-run.log"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

# task_result NAME: the result line ansible printed for the role's task NAME
task_result() {
	awk -v t="TASK [storprov.core.storprov : $1]" 'index($0, t) == 1 {f = 1; next} f && /^(ok|changed|skipping|fatal):/ {print $1; exit}' \
		<<<"$output"
}

# recap_changed: changed= of the play recap
recap_changed() {
	sed -n 's/^localhost *: .*changed=\([0-9]*\).*/\1/p' <<<"$output"
}

# tree DIR: every path below DIR with its type and content hash
tree() {
	[ -d "$1" ] || { echo "no $1"; return; }
	(cd "$1" && find . -printf '%y %p %m\n' | sort && find . -type f -exec sha256sum {} + | sort)
}

@test "the role: check mode writes nothing, installs, provisions a loop LUN, then changes nothing" {
	new_loop 1G
	mkdir -p "$BATS_TEST_TMPDIR/site" "$ROOT"
	# the issue-8 suites' LUN profile without its sysctl (a host-wide value
	# those suites set and reset while they run)
	crash_profile "$BATS_TEST_TMPDIR/site/loop.xml" "$N"
	sed -i '/<sysctl /d' "$BATS_TEST_TMPDIR/site/loop.xml"
	run -1 grep sysctl "$BATS_TEST_TMPDIR/site/loop.xml"
	local vars
	vars=$(jq -n --arg sp "$SP" --arg t "$T" --arg root "$ROOT" --arg site "$BATS_TEST_TMPDIR/site" \
		--arg lock "$LOCKF" --arg tf "$BATS_TEST_TMPDIR/textfile" '{
		storprov_install: "binary", storprov_binary: $sp, storprov_binary_dest: ($t + "/sbin/storprov"),
		storprov_libexec_dir: ($t + "/libexec"), storprov_unit_dir: ($t + "/units"), storprov_conf_dir: ($t + "/etc"),
		storprov_profiles_src: $site, storprov_profile: "loop.xml", storprov_root: $root,
		storprov_lock_file: $lock, storprov_textfile_dir: $tf, storprov_timer_enable: false}')
	local img before
	img=$(img_sum "$IMG")
	# 1. check mode on a node without storprov: nothing anywhere, and it says why
	role "$vars" --check --diff
	assert_output --partial "would install storprov ($T/sbin/storprov), then would run it (state applied) and schedule its daily verify; check mode cannot run storprov before it is installed"
	[ "$(task_result 'Run storprov')" = "skipping:" ]
	[ ! -e "$T" ]
	[ -z "$(ls -A "$ROOT")" ]
	[ "$(img_sum "$IMG")" = "$img" ]
	# 2. installed, with a plan only: binary, profiles, units, verify.env; the disk as it was
	role "$(jq '. + {storprov_state: "planned"}' <<<"$vars")"
	[ "$(task_result 'Run storprov')" = "ok:" ]
	cmp "$SP" "$T/sbin/storprov"
	cmp "$BATS_TEST_TMPDIR/site/loop.xml" "$T/etc/profiles/loop.xml"
	run -0 grep -x "STORPROV_PROFILE=$T/etc/profiles/loop.xml" "$T/etc/verify.env"
	run -0 grep -x "ExecStart=$T/libexec/storprov-verify-textfile" "$T/units/storprov-verify.service"
	run -0 grep -x "EnvironmentFile=-$T/etc/verify.env" "$T/units/storprov-verify.service"
	run -0 shellcheck "$T/libexec/storprov-verify-textfile"
	if command -v systemd-analyze >/dev/null; then
		run -0 systemd-analyze verify --man=no "$T/units/storprov-verify.service" "$T/units/storprov-verify.timer"
		refute_output
	fi
	[ "$(img_sum "$IMG")" = "$img" ]
	[ -z "$(ls -A "$ROOT")" ]
	# 3. check mode with storprov there: the module runs apply --dry-run and
	# verify, says changed, and neither the disk nor the target tree moves
	before=$(tree "$T")
	role "$vars" --check --diff
	[ "$(task_result 'Run storprov')" = "changed:" ]
	assert_output --partial "GPT on /dev/$N"
	[ "$(img_sum "$IMG")" = "$img" ]
	[ -z "$(ls -A "$ROOT")" ]
	[ ! -e "/sys/class/block/${N}p1" ]
	[ "$(tree "$T")" = "$before" ]
	# 4. applied: the LUN's geometry per xfs_info, fstab per blkid
	role "$vars"
	[ "$(task_result 'Run storprov')" = "changed:" ]
	run -0 xfs_info "${LOOP}p1"
	assert_output --regexp "sunit=16 +swidth=48 blks"
	local uuid
	uuid=$(blkid -o value -s UUID "${LOOP}p1")
	run -0 findmnt --tab-file "$ROOT/etc/fstab" -n -o SOURCE /data
	assert_output "UUID=$uuid"
	run -0 findmnt -n -o SOURCE "$ROOT/data"
	assert_output "${LOOP}p1"
	# 5. the second run: nothing changed, by the module or any other task
	before=$(tree "$T")
	role "$vars"
	[ "$(task_result 'Run storprov')" = "ok:" ]
	[ "$(recap_changed)" = 0 ]
	[ "$(blkid -o value -s UUID "${LOOP}p1")" = "$uuid" ]
	[ "$(tree "$T")" = "$before" ]
	# the scheduled verify as the role laid it out, with its verify.env: clean
	run -0 env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin sh -c "set -a; . '$T/etc/verify.env'; set +a; exec '$T/libexec/storprov-verify-textfile'"
	run -0 grep -x "storprov_verify_exit_code 0" "$BATS_TEST_TMPDIR/textfile/storprov.prom"
	run -0 grep -x 'storprov_verify_objects{status="drift"} 0' "$BATS_TEST_TMPDIR/textfile/storprov.prom"
}
