#!/usr/bin/env bash
# Builds an anaconda updates image for inst.updates=: a gzip-compressed cpio
# archive (newc) that anaconda overlays onto the installer's root before it
# starts. It carries
#   /usr/sbin/storprov
#   /usr/lib64/<lib>                 storprov's shared libraries the installer lacks
#   /usr/share/storprov/storprov.rng, /usr/share/storprov/examples/*.xml
#   /etc/storprov/profiles/*.xml     the site's profiles (--profiles DIR)
#   /usr/share/storprov/rpms/*.rpm   the storprov RPMs for %post (--rpm FILE)
#
# Build it on the EL release the installer is (the binary and its libraries must
# match the installer's glibc); an image built on Debian is for tests only.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

usage() {
	cat <<'USAGE'
Usage: mk-updates-img.sh --output FILE [--binary FILE] [--profiles DIR]...
                         [--installer-root DIR | --sonames FILE] [--rpm FILE]...
  --binary FILE          storprov to ship (default build/storprov)
  --output FILE          the updates image to write
  --profiles DIR         site profiles (*.xml) for /etc/storprov/profiles
  --installer-root DIR   the installer's unpacked root (install.img): a library
                         that exists there is left out of the image
  --sonames FILE         without --installer-root: sonames the installer has
                         (default scripts/installer-sonames.txt)
  --rpm FILE             also carry this RPM in /usr/share/storprov/rpms
  --list                 after writing, list the image's files
USAGE
}

binary=$top/build/storprov output= instroot= sonames=$top/scripts/installer-sonames.txt list=0
profiles=() rpms=()
while [ $# -gt 0 ]; do
	case $1 in
	--binary) binary=$2; shift 2 ;;
	--output) output=$2; shift 2 ;;
	--profiles) profiles+=("$2"); shift 2 ;;
	--installer-root) instroot=$2; shift 2 ;;
	--sonames) sonames=$2; shift 2 ;;
	--rpm) rpms+=("$2"); shift 2 ;;
	--list) list=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) echo "mk-updates-img: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
[ -n "$output" ] || { echo "mk-updates-img: --output FILE is required" >&2; exit 2; }
[ -x "$binary" ] || { echo "mk-updates-img: $binary is not an executable (run make)" >&2; exit 2; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
install -D -m 0755 "$binary" "$stage/usr/sbin/storprov"
install -D -m 0644 "$top/profiles/storprov.rng" "$stage/usr/share/storprov/storprov.rng"
for p in "$top"/profiles/*.xml; do
	install -D -m 0644 "$p" "$stage/usr/share/storprov/examples/${p##*/}"
done
for d in "${profiles[@]}"; do
	for p in "$d"/*.xml; do
		[ -f "$p" ] || continue
		install -D -m 0644 "$p" "$stage/etc/storprov/profiles/${p##*/}"
	done
done
for r in "${rpms[@]}"; do
	install -D -m 0644 "$r" "$stage/usr/share/storprov/rpms/${r##*/}"
done

# in_installer SONAME: is the library in the installer already?
in_installer() {
	local so=$1 d
	if [ -n "$instroot" ]; then
		for d in lib64 usr/lib64 lib usr/lib lib/x86_64-linux-gnu usr/lib/x86_64-linux-gnu; do
			[ -e "$instroot/$d/$so" ] && return 0
		done
		return 1
	fi
	grep -qxF "$so" <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$sonames")
}

# Every library the binary loads (ldd resolves the whole tree), by soname.
while read -r so path; do
	[ -n "$so" ] || continue
	if in_installer "$so"; then
		continue
	fi
	[ -f "$path" ] || { echo "mk-updates-img: $so not found on this machine" >&2; exit 1; }
	install -D -m 0755 "$(readlink -f "$path")" "$stage/usr/lib64/$so"
	echo "mk-updates-img: carrying $so (not in the installer)"
done < <(ldd "$binary" | awk '$2 == "=>" { print $1, $3; next } $1 ~ /^\// { n = $1; sub(/.*\//, "", n); print n, $1 }')

mkdir -p "$(dirname "$output")"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) | gzip -9n >"$output.tmp"
mv "$output.tmp" "$output"
echo "mk-updates-img: wrote $output ($(stat -c %s "$output") bytes)"
if [ "$list" = 1 ]; then
	gzip -dc "$output" | cpio --quiet -it
fi
