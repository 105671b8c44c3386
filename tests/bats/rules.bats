#!/usr/bin/env bats
# scripts/check-rules.py, the guard of the rule registry (src/base/rules.def):
# clean on the tree as it is, and failing on each kind of drift made in a copy
# (a row no page names, an entry the registry lacks, a severity the page states
# otherwise, an .expect file's unknown rule, a golden's rule printed at another
# severity, a row nothing emits).
load test_helper

CR="$TOP/scripts/check-rules.py"

setup() {
	T="$BATS_TEST_TMPDIR"
	cp "$TOP/src/base/rules.def" "$T/rules.def"
	cp "$TOP/man/storprov.profile.5" "$T/storprov.profile.5"
}

@test "rules: the tree as it is passes, each check a TAP line" {
	run -0 python3 "$CR"
	refute_line --regexp '^not ok'
	assert_line --regexp '^ok [0-9]+ - src/base/rules.def: [0-9]+ rows, each RULE'
	assert_line --regexp "^ok [0-9]+ - every rule man/storprov.profile.5's RULES names \([0-9]+\) is in the registry\$"
	assert_line --regexp '^ok [0-9]+ - every \[rule\] of the [0-9]+ \.expect files under tests \([0-9]+ rules\)'
	assert_line '1..8'
}

@test "rules: a registry row the man page does not name fails, and so does an entry the registry lacks" {
	sed -i 's|^RULE(RULE_LABEL, .*|&\nRULE(RULE_LABEL_CASE, "label-case", WARNING, "an upper case label")|' \
		"$T/rules.def"
	run -1 python3 "$CR" --rules "$T/rules.def"
	assert_line --regexp "^not ok [0-9]+ - every rule of the registry has an entry in man/storprov.profile.5's RULES\$"
	assert_line '#   label-case: no entry in man/storprov.profile.5, RULES'
	# and nothing emits it
	assert_line "#   label-case: RULE_LABEL_CASE is used nowhere in src"
	# the page names a rule the registry does not have
	sed -i 's|^\.B label$|.BR label ", " label\\-length|' "$T/storprov.profile.5"
	run -1 python3 "$CR" --man "$T/storprov.profile.5"
	assert_line --regexp "^#   $T/storprov.profile.5:[0-9]+: label-length: not in the registry\$"
}

@test "rules: a severity the man page states otherwise than the registry fails" {
	sed -i 's|^\(A label longer than 12 characters\) (error)\.$|\1 (warning).|' "$T/storprov.profile.5"
	run -1 python3 "$CR" --man "$T/storprov.profile.5"
	assert_line --regexp "^not ok [0-9]+ - $T/storprov.profile.5's RULES states each rule's severity as the registry does\$"
	assert_line --regexp "^#   $T/storprov.profile.5:[0-9]+: label: the page says warning, the registry error\$"
	# a registry row made BOTH, where the page says error only
	sed -i 's|^RULE(RULE_USED_TWICE, "used-twice", ERROR,|RULE(RULE_USED_TWICE, "used-twice", BOTH,|' "$T/rules.def"
	run -1 python3 "$CR" --rules "$T/rules.def"
	assert_line --regexp "^#   man/storprov.profile.5:[0-9]+: used-twice: the page says error, the registry both\$"
}

@test "rules: a malformed row, an id used twice and an enum not spelt from its id fail" {
	sed -i 's|^RULE(RULE_LABEL, "label", ERROR,|RULE(RULE_LABELS, "label", ERROR,|' "$T/rules.def"
	printf 'RULE(RULE_UNUSED, "unused", WARNING, "again")\nRULE(RULE_X, "x", FATAL, "bad severity")\n' >>"$T/rules.def"
	run -1 python3 "$CR" --rules "$T/rules.def"
	assert_line --regexp '^#   .*rules.def:[0-9]+: RULE_LABELS is not RULE_ and "label" in capitals$'
	assert_line --regexp '^#   .*rules.def:[0-9]+: "unused" is a row already \(line [0-9]+\)$'
	assert_line --regexp '^#   .*rules.def:[0-9]+: severity FATAL is not ERROR, WARNING or BOTH$'
}

@test "rules: an .expect file naming a rule the registry lacks fails" {
	mkdir "$T/bad"
	cp "$TOP"/tests/bad-profiles/*.expect "$T/bad/"
	printf 'exit 2\n:3: error\n[raid1-chunck]\n' >"$T/bad/typo.expect"
	run -1 python3 "$CR" --expect "$T/bad"
	assert_line --regexp "^not ok [0-9]+ - every \[rule\] of the [0-9]+ \.expect files under $T/bad"
	assert_line "#   $T/bad/typo.expect:3: [raid1-chunck]: not in the registry"
}

@test "rules: a golden printing a warning rule as an error, or an unknown rule, fails" {
	mkdir "$T/goldens"
	printf 'storprov: p.xml:3: error: md m: too small [md-chunk-rmw]\nstorprov: p.xml:4: warning: x [no-such-rule]\n' \
		>"$T/goldens/plan.txt"
	run -1 python3 "$CR" --goldens "$T/goldens"
	assert_line "#   $T/goldens/plan.txt:1: [md-chunk-rmw]: printed as error, the registry says warning"
	assert_line "#   $T/goldens/plan.txt:2: [no-such-rule]: not in the registry"
}
