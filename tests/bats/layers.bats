#!/usr/bin/env bats
# scripts/check-layers.py, the guard of src/'s rooms: clean on the tree as it
# is (with its known file), and failing on each kind of offence made in a copy.
load test_helper

CL="$TOP/scripts/check-layers.py"
KNOWN="$TOP/scripts/check-layers.known"

setup() {
	cp -r "$TOP/src" "$BATS_TEST_TMPDIR/src"
	S="$BATS_TEST_TMPDIR/src"
	# the file map beside the copy, where check-layers looks for it (doc/ beside src/)
	mkdir "$BATS_TEST_TMPDIR/doc"
	cp "$TOP/doc/ARCHITECTURE.md" "$BATS_TEST_TMPDIR/doc/"
	MAP="$BATS_TEST_TMPDIR/doc/ARCHITECTURE.md"
}

@test "layers: the tree as it is passes (known findings reported as skips)" {
	run -0 python3 "$CL" --src "$TOP/src" --known "$KNOWN"
	refute_line --regexp '^not ok'
	assert_line --regexp '^1\.\.[0-9]+$'
}

@test "layers: a copy of the tree passes with its file map, which lists every file of src/" {
	run -0 python3 "$CL" --src "$S" --known "$KNOWN"
	assert_line --regexp "^ok [0-9]+ - $MAP's file map lists exactly the $(find "$S" -type f | wc -l) files of src/\$"
}

@test "layers: a file missing from doc/ARCHITECTURE.md's file map, a map entry with no file, and no map fail" {
	echo 'int x;' >"$S/plan/newfile.c"
	rm "$S/render/state.c"
	run -1 python3 "$CL" --src "$S" --known "$KNOWN"
	assert_line --regexp "^not ok [0-9]+ - $MAP's file map lists exactly the [0-9]+ files of src/\$"
	assert_line "#   src/plan/newfile.c: not in the file map ($MAP)"
	assert_line --regexp "^#   $MAP:[0-9]+: src/render/state.c: in the file map, no such file\$"
	# the map fixed: listed once, the gone file's line dropped
	sed -i -e '/^- `src\/render\/state.c`/d' -e 's|^- `src/plan/argv.c`.*|&\n- `src/plan/newfile.c`: a test.|' "$MAP"
	run -0 python3 "$CL" --src "$S" --known "$KNOWN"
	refute_line --regexp '^not ok'
	# listed twice, or no map at all
	sed -i 's|^- `src/plan/argv.c`.*|&\n&|' "$MAP"
	run -1 python3 "$CL" --src "$S" --known "$KNOWN"
	assert_line "#   $MAP: src/plan/argv.c: listed 2 times"
	run -1 python3 "$CL" --src "$S" --known "$KNOWN" --map "$BATS_TEST_TMPDIR/nowhere.md"
	assert_line --partial "nowhere.md: No such file or directory"
}

@test "layers: an include against the direction fails, naming file, line and rooms" {
	sed -i '0,/#include "base\/util.h"/s//#include "base\/util.h"\n#include "plan\/plan.h"/' "$S/sys/probe.c"
	run -1 python3 "$CL" --src "$S" --known "$KNOWN"
	line=$(grep -n '#include "plan/plan.h"' "$S/sys/probe.c" | cut -d: -f1)
	assert_line --regexp "^not ok [0-9]+ - src/sys/probe.c:$line: #include \"plan/plan.h\": sys -> plan goes against the direction\$"
}

@test "layers: another room's internal.h and an include of no file fail" {
	printf '#include "plan/internal.h"\n#include "nowhere.h"\n' >>"$S/render/render_ks.c"
	run -1 python3 "$CL" --src "$S" --known "$KNOWN"
	assert_line --partial 'src/render/render_ks.c:'
	assert_line --partial '#include "plan/internal.h": plan/internal.h is plan'"'"'s own'
	assert_line --partial '#include "nowhere.h": no such file under src/'
}

@test "layers: an include circle between files and between rooms fails" {
	mkdir -p "$BATS_TEST_TMPDIR/t/base" "$BATS_TEST_TMPDIR/t/sys"
	T="$BATS_TEST_TMPDIR/t"
	printf '/* x\n * src/base/: test\n */\n#include "base/b.h"\n' >"$T/base/a.h"
	printf '#include "base/a.h"\n' >"$T/base/b.h"
	printf '#include "sys/s.h"\n' >"$T/base/c.h"
	printf '#include "base/c.h"\n' >"$T/sys/s.h"
	run -1 python3 "$CL" --src "$T"
	assert_line --partial 'include circle between files: base/a.h -> base/b.h'
	assert_line --partial 'include circle between rooms: base -> sys'
	assert_line --partial 'src/base/c.h:1: #include "sys/s.h": base -> sys goes against the direction'
}

@test "layers: a call circle between two objects fails (nm)" {
	T="$BATS_TEST_TMPDIR/t"
	mkdir -p "$T/src/base" "$T/obj/base"
	printf 'int b(int);\nint a(int x)\n{\n        return x ? b(x - 1) : 0;\n}\n' >"$T/src/base/a.c"
	printf 'int a(int);\nint b(int x)\n{\n        return x ? a(x - 1) : 1;\n}\n' >"$T/src/base/b.c"
	cc -c -o "$T/obj/base/a.o" "$T/src/base/a.c"
	cc -c -o "$T/obj/base/b.o" "$T/src/base/b.c"
	run -1 python3 "$CL" --src "$T/src" --objs "$T/obj"
	assert_line --partial 'not ok'
	assert_line --partial 'call circle between files: base/a <-> base/b'
	rm "$T/src/base/b.c" "$T/obj/base/b.o"
	run python3 "$CL" --src "$T/src" --objs "$T/obj"
	assert_line --regexp '^ok [0-9]+ - no call circle between 1 files'
}

@test "layers: a function over 120 lines, a cli one over 80, a file over 900 fail" {
	body=$(for i in $(seq 1 119); do echo "        (void)0;"; done)
	printf 'void too_long(void)\n{\n%s\n}\n' "$body" >>"$S/plan/argv.c"
	printf 'static void cli_long(void)\n{\n%s\n}\n' "$(head -n 79 <<<"$body")" >>"$S/cli/usage.c"
	for i in $(seq 1 901); do echo "/* $i */"; done >"$S/base/filler.h"
	run -1 python3 "$CL" --src "$S" --known "$KNOWN"
	assert_line --regexp '^not ok [0-9]+ - src/plan/argv.c:[0-9]+: too_long is 122 lines \(at most 120\)$'
	assert_line --regexp '^not ok [0-9]+ - src/cli/usage.c:[0-9]+: cli_long is 82 lines \(at most 80\)$'
	assert_line --regexp '^not ok [0-9]+ - src/base/filler.h: 901 lines \(at most 900\)$'
}

@test "layers: a stray file in src/ and a known finding that is gone both fail" {
	echo 'int x;' >"$S/stray.c"
	printf 'file src/nowhere.c\n' >"$BATS_TEST_TMPDIR/known"
	run -1 python3 "$CL" --src "$S" --known "$BATS_TEST_TMPDIR/known"
	assert_line --partial 'not ok 1 - src/ holds only main.c and the rooms'
	assert_line --partial 'src/stray.c: not in a room'
	assert_line --partial 'known finding no longer found, drop it from'
}
