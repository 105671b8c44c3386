# Shared by every bats file: libraries, paths, and the golden-file compare.
bats_require_minimum_version 1.5.0
# The libraries' own load.bash forks a dirname for every file it sources:
# 130 ms per test here, in every test (bats loads this file for each one).
# Their src/ files are sourced directly; bats_load_library is the fallback.
sp_load_lib() { # NAME
	local d f
	for d in ${BATS_LIB_PATH//:/ } /usr/lib/bats; do
		[ -d "$d/$1/src" ] || continue
		for f in "$d/$1/src/"*.bash; do
			# shellcheck disable=SC1090
			source "$f" || return
		done
		return 0
	done
	bats_load_library "$1"
}
sp_load_lib bats-support
sp_load_lib bats-assert
sp_load_lib bats-file

TOP=${BATS_TEST_DIRNAME%/*/*}
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

# img_sum FILE: a disk image's size and CRC, to show that no byte changed.
# A CRC, not sha256: a changed byte goes unseen with odds of 2^-32, and these
# tests guard against mistakes, not against an adversary. build/tests/img-sum
# (make check-tools), not cksum: it reads the data extents of the sparse image
# only (0.1 s for a fresh 1 GiB image with an XFS on it; cksum 0.8 to 1.9 s,
# reading its holes, and the root suites compare about 70 images).
IMG_SUM="$TOP/build/tests/img-sum"
img_sum() {
	"$IMG_SUM" "$1"
}
