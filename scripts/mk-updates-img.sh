#!/usr/bin/env bash
# Builds an anaconda updates image for inst.updates=: a gzip-compressed cpio
# archive (newc) that anaconda overlays onto the installer's root before it
# starts. It carries
#   /usr/sbin/storprov
#   /usr/lib64/<lib>                 storprov's shared libraries the installer lacks
#                                    (never one it has: libxml2, ICU, libparted,
#                                    libblkid, json-c, device-mapper, glibc...)
#   /usr/share/storprov/storprov.rng, /usr/share/storprov/examples/*.xml
#   /etc/storprov/profiles/*.xml     the site's profiles (--profiles DIR)
#   /usr/share/storprov/rpms/*.rpm   the storprov RPMs for %post (--rpm FILE)
#
# It is for one EL release (--el-release 8|9|10, table scripts/el-releases.txt)
# and refuses, writing nothing, when
#   - this host's glibc or libstdc++ is newer than that release's (a binary
#     built here may ask for symbols the installer lacks): build on the target
#     release, or give --binary built there (mock) with --skip-host-check;
#   - an ELF file of the image asks for a GLIBC_ or GLIBCXX_ version above the
#     release's (readelf --version-info);
#   - storprov needs an installer library under a soname the installer does not
#     have (libjson-c.so.5 on EL 8): it was built for another release.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

usage() {
	cat <<'USAGE'
Usage: mk-updates-img.sh --output FILE [--binary FILE] [--profiles DIR]...
                         [--installer-root DIR | --sonames FILE] [--rpm FILE]...
                         [--el-release 8|9|10] [--skip-host-check]
  --binary FILE          storprov to ship (default build/storprov)
  --output FILE          the updates image to write
  --profiles DIR         site profiles (*.xml) for /etc/storprov/profiles
  --installer-root DIR   the installer's unpacked root (install.img): a library
                         that exists there is left out of the image
  --sonames FILE         without --installer-root: sonames the installer has
                         (default scripts/installer-sonames.txt)
  --rpm FILE             also carry this RPM in /usr/share/storprov/rpms
  --el-release N         the EL release the installer is (default 9)
  --releases FILE        the per-release table (default scripts/el-releases.txt)
  --skip-host-check      --binary was built on the target release: do not compare
                         this host's glibc/libstdc++ (the ELF check still runs)
  --list                 after writing, list the image's files
USAGE
}

binary=$top/build/storprov output='' instroot='' sonames=$top/scripts/installer-sonames.txt list=0
release=9 releases=$top/scripts/el-releases.txt host_check=1
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
	--el-release) release=$2; shift 2 ;;
	--releases) releases=$2; shift 2 ;;
	--skip-host-check) host_check=0; shift ;;
	-h | --help) usage; exit 0 ;;
	*) echo "mk-updates-img: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
[ -n "$output" ] || { echo "mk-updates-img: --output FILE is required" >&2; exit 2; }
[ -x "$binary" ] || { echo "mk-updates-img: $binary is not an executable (run make)" >&2; exit 2; }

refuse() {
	# an image from an earlier run must not pass for this one
	if [ -e "$output" ]; then
		rm -f "$output"
		echo "mk-updates-img: removed the earlier $output" >&2
	fi
	echo "mk-updates-img: refused, nothing written: $*" >&2
	exit 1
}
# vle A B: version A <= version B
vle() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | sed -n 1p)" = "$1" ]; }

read -r want_glibc want_cxx < <(awk -v r="$release" '$1 == r && !f { f = $2 " " $3 } END { print f }' <(sed 's/#.*//' "$releases")) || true
[ -n "${want_glibc:-}" ] || {
	echo "mk-updates-img: --el-release '$release' is not in $releases (releases: $(sed 's/#.*//' "$releases" | awk 'NF { printf "%s ", $1 }'))" >&2
	exit 2
}

# This host against the release: its glibc, and the newest GLIBCXX its libstdc++ defines.
if [ "$host_check" = 1 ]; then
	host_glibc=$(getconf GNU_LIBC_VERSION | awk '{ print $2 }')
	# (awk reads to the end: an early exit would kill ldconfig with SIGPIPE under pipefail)
	stdcxx=$(ldconfig -p | awk '$1 == "libstdc++.so.6" && /x86-64|AArch64|64bit/ && !p { p = $NF } END { print p }')
	host_cxx=
	[ -n "$stdcxx" ] && host_cxx=$(readelf -V -W "$stdcxx" | grep -oE 'GLIBCXX_3\.4(\.[0-9]+)?' | sed 's/^GLIBCXX_//' | sort -uV | tail -n1)
	why=()
	vle "$host_glibc" "$want_glibc" || why+=("this host's glibc is $host_glibc, EL $release's installer has $want_glibc")
	[ -z "$host_cxx" ] || vle "$host_cxx" "$want_cxx" ||
		why+=("this host's libstdc++ goes to GLIBCXX_$host_cxx, EL $release's installer to GLIBCXX_$want_cxx")
	if [ ${#why[@]} -gt 0 ]; then
		refuse "$(printf '%s; ' "${why[@]}")build the image on EL $release (or build storprov there, for example with mock from the SRPM that make rpm writes, and give it with --binary and --skip-host-check)"
	fi
fi

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
	local so=$1 d pat rels
	if [ -n "$instroot" ]; then
		for d in lib64 usr/lib64 lib usr/lib lib/x86_64-linux-gnu usr/lib/x86_64-linux-gnu; do
			[ -e "$instroot/$d/$so" ] && return 0
		done
		return 1
	fi
	while read -r pat rels; do
		[ -n "$pat" ] || continue
		# shellcheck disable=SC2053 # the list holds globs
		[[ $so == $pat ]] || continue
		[ -z "$rels" ] && return 0
		[[ " $rels " == *" $release "* ]] && return 0
	done < <(sed 's/#.*//' "$sonames")
	return 1
}

# Libraries anaconda itself uses: never overlaid, whatever the installer has.
never_carry() {
	case $1 in
	libxml2.so.* | libicu*.so.* | libparted.so.* | libblkid.so.* | libmount.so.* | libjson-c.so.* | libdevmapper.so.* | \
		libc.so.* | libm.so.* | ld-linux*.so.* | libstdc++.so.* | libgcc_s.so.*) return 0 ;;
	esac
	return 1
}

# needed ELF: its DT_NEEDED sonames
needed() { readelf -d -W "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'; }

# Where this host resolves each soname storprov loads (ldd: the whole tree).
declare -A where
while read -r so path; do
	[ -n "$so" ] && where[$so]=$path
done < <(ldd "$binary" | awk '$2 == "=>" { print $1, $3; next } $1 ~ /^\// { n = $1; sub(/.*\//, "", n); print n, $1 }')

# What the image must carry: storprov's own DT_NEEDED the installer lacks, and
# theirs in turn. A library the installer has stops the walk there: its own
# dependencies are the installer's business.
todo=("$stage/usr/sbin/storprov")
declare -A seen
while [ ${#todo[@]} -gt 0 ]; do
	elf=${todo[0]} todo=("${todo[@]:1}")
	while read -r so; do
		if [ -z "$so" ] || [ -n "${seen[$so]:-}" ]; then
			continue
		fi
		seen[$so]=1
		in_installer "$so" && continue
		never_carry "$so" &&
			refuse "storprov needs $so, which the EL $release installer does not have under that name, and $so is a library anaconda uses that an image must not overlay: storprov was built for another release; build it on EL $release"
		path=${where[$so]:-}
		[ -f "$path" ] || { echo "mk-updates-img: $so not found on this machine" >&2; exit 1; }
		install -D -m 0755 "$(readlink -f "$path")" "$stage/usr/lib64/$so"
		echo "mk-updates-img: carrying $so (not in the installer)"
		todo+=("$stage/usr/lib64/$so")
	done < <(needed "$elf")
done

# Every ELF file of the image against the release's symbol versions.
bad=()
while IFS= read -r -d '' f; do
	[ "$(head -c4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
	while read -r v; do
		case $v in
		GLIBC_2.*) vle "${v#GLIBC_}" "$want_glibc" || bad+=("${f#"$stage"/} needs $v (EL $release: GLIBC_$want_glibc)") ;;
		GLIBCXX_3.*) vle "${v#GLIBCXX_}" "$want_cxx" || bad+=("${f#"$stage"/} needs $v (EL $release: GLIBCXX_$want_cxx)") ;;
		esac
	done < <(readelf --version-info -W "$f" | sed -n 's/.*Name: \([A-Z]*_[0-9.]*\) .*/\1/p' | sort -u)
done < <(find "$stage" -type f -print0)
[ ${#bad[@]} -eq 0 ] || refuse "$(printf '%s; ' "${bad[@]}")build storprov on EL $release"

mkdir -p "$(dirname "$output")"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) | gzip -9n >"$output.tmp"
mv "$output.tmp" "$output"
echo "mk-updates-img: wrote $output ($(stat -c %s "$output") bytes)"
if [ "$list" = 1 ]; then
	gzip -dc "$output" | cpio --quiet -it
fi
