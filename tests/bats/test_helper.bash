# Shared by every bats file: libraries, paths, and the golden-file compare.
bats_require_minimum_version 1.5.0
bats_load_library bats-support
bats_load_library bats-assert
bats_load_library bats-file

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
export LC_ALL=C
# STORPROV_BIN: another build of the same binary (the asan suite's)
SP="${STORPROV_BIN:-$TOP/build/storprov}"
FIX="$TOP/tests/fixtures"
SYSROOT="$FIX/sysroot"
EXPECTED="$TOP/tests/expected"

# golden NAME FILE: compare FILE with tests/expected/NAME; UPDATE_GOLDEN=1 rewrites it.
golden() {
	local want="$EXPECTED/$1" got=$2
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		mkdir -p "$(dirname "$want")"
		cp "$got" "$want"
		return 0
	fi
	[ -f "$want" ] || { echo "missing golden file $want (run UPDATE_GOLDEN=1 make check)"; return 1; }
	# JSON objects are unordered: compare values, every key, every array in order
	if [[ $want == *.json ]]; then
		diff -u <(jq -S . "$want") <(jq -S . "$got")
		return
	fi
	diff -u "$want" "$got"
}

# fake_world NAME DIR: the fixture sysfs NAME copied to DIR, and a sparse file
# per disk under $STORPROV_DEVROOT/dev, for apply through tests/fixtures/fakebin
fake_world() {
	local d
	cp -rL "$SYSROOT/$1" "$2"
	mkdir -p "$STORPROV_DEVROOT/dev"
	for d in "$2"/sys/block/*; do
		truncate -s $(($(cat "$d/size") * 512)) "$STORPROV_DEVROOT/dev/$(basename "$d")"
	done
}
