#!/bin/sh
# Prints storprov's version. One source: the VERSION file. In a git checkout
# with a release tag (vX.Y.Z) at or before HEAD, `git describe` refines it:
# v0.2.0 -> 0.2.0, 3 commits later -> 0.2.0.3.gabc1234 (no '-': RPM's Version
# must not contain one). A tarball from `make dist` carries the computed VERSION.
top=$(cd "$(dirname "$0")/.." && pwd)
[ -e "$top/.git" ] && v=$(git -C "$top" describe --tags --match 'v[0-9]*' 2>/dev/null) && [ -n "$v" ] && {
	printf '%s\n' "$v" | sed -e 's/^v//' -e 's/-/./g'
	exit 0
}
tr -d ' \n' <"$top/VERSION"
echo
