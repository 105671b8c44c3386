#!/bin/bash
# mkinitrd-dracut.sh - build a real dracut initramfs around a test dracut module.
#
# Usage: mkinitrd-dracut.sh --module DIR [options]
#   --module DIR            a dracut module folder (module-setup.sh inside;
#                           repeatable). It is added as modules.d/99<name>, or
#                           under its own name when that starts with two digits;
#                           the dracut module name is the folder name without
#                           such a prefix, and it is always in the module list
#   --add HOST[:GUEST]      install a file or directory into the initramfs with
#                           dracut's inst (ELF files get their libraries)
#   --dracut-modules "LIST" dracut modules to include (default:
#                           "bash base udev-rules rootfs-block fs-lib
#                            kernel-modules dm lvm mdraid")
#   --drivers "LIST"        kernel modules, exclusive list for dracut --drivers
#                           (default: "virtio_pci virtio_blk virtio_scsi sd_mod
#                            ext4 xfs qemu_fw_cfg"); the mdraid/dm/lvm dracut
#                           modules add drivers/md themselves
#   --compress ALGO         none, gzip or zstd (default none: TCG unpacks a
#                           zstd image slowly; 33 MB of zstd against 106 MB
#                           plain took the EL boot 10-15 s longer to its root)
#   --dracut-arg ARG        pass ARG to dracut (repeatable)
#   -o, --output FILE       default build/vm/initrd-dracut-<module names>.img
#   -k, --kernel-dir DIR    kernel from fetch-kernel.sh (default build/vm/kernel)
#       --force             rebuild even if the cache key is unchanged
#   -q, --quiet             no progress messages (dracut's log is kept in
#                           OUTPUT.log)
#
# Debian's /usr/lib/dracut is never modified: dracut runs with dracutbasedir
# pointing at a temporary folder of symlinks to it, whose modules.d also holds
# copies of the test modules. Host configuration is ignored (--conf /dev/null,
# an empty --confdir), and the kernel modules come from the unpacked kernel
# (--kmoddir). The image path is printed on stdout.
#
# Booting it: dracut's hooks up to pre-mount only run once a root device has
# been found. lib.bash's vm_run_dracut supplies one: an ext4 image built by
# `mkinitrd.sh --format ext4` (the busybox test tree, /sbin/init -> /init) as
# the last disk, labelled vmroot, with "root=LABEL=vmroot rw". After
# switch_root the test /init runs the guest script between the markers, so a
# module's hooks can leave results in /run for the script to print.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/common.sh"

usage() {
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
}

modules=()
adds=()
dracut_modules="bash base udev-rules rootfs-block fs-lib kernel-modules dm lvm mdraid"
drivers="virtio_pci virtio_blk virtio_scsi sd_mod ext4 xfs qemu_fw_cfg"
compress=none
dracut_args=()
output=
kdir=$VM_BUILD/kernel
force=0
quiet=0

while [[ $# -gt 0 ]]; do
	case $1 in
	--module) modules+=("${2:?}"); shift 2 ;;
	--add) adds+=("${2:?}"); shift 2 ;;
	--dracut-modules) dracut_modules=${2:?}; shift 2 ;;
	--drivers) drivers=${2:?}; shift 2 ;;
	--compress) compress=${2:?}; shift 2 ;;
	--dracut-arg) dracut_args+=("${2:?}"); shift 2 ;;
	-o | --output) output=${2:?}; shift 2 ;;
	-k | --kernel-dir) kdir=${2:?}; shift 2 ;;
	--force) force=1; shift ;;
	-q | --quiet) quiet=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) vm_die "unknown option '$1' (see --help)" ;;
	esac
done

info() { [[ $quiet == 1 ]] || vm_log "$@"; }

[[ ${#modules[@]} -gt 0 ]] || vm_die "at least one --module DIR is needed (see --help)"
case $compress in none | gzip | zstd) ;; *) vm_die "--compress must be none, gzip or zstd" ;; esac
command -v dracut >/dev/null || vm_die "dracut not found (apt-get install dracut-core)"
[[ -d /usr/lib/dracut/modules.d ]] || vm_die "/usr/lib/dracut/modules.d missing (dracut-core)"
[[ -s $kdir/kver ]] || vm_die "no kernel in $kdir (run tests/vm/fetch-kernel.sh first)"
kver=$(<"$kdir/kver")
kmoddir=$kdir/lib/modules/$kver
[[ -s $kmoddir/modules.dep ]] || vm_die "$kmoddir/modules.dep missing (fetch-kernel.sh runs depmod)"

names=()
mod_dirs=()
for m in "${modules[@]}"; do
	[[ -f $m/module-setup.sh ]] || vm_die "--module $m: no module-setup.sh in it"
	m=$(cd -- "$m" && pwd -P)
	base=${m##*/}
	if [[ $base =~ ^[0-9][0-9](.+)$ ]]; then
		names+=("${BASH_REMATCH[1]}")
		mod_dirs+=("$base")
	else
		names+=("$base")
		mod_dirs+=("99$base")
	fi
done
modules_abs=()
for m in "${modules[@]}"; do
	modules_abs+=("$(cd -- "$m" && pwd -P)")
done

if [[ -z $output ]]; then
	output=$VM_BUILD/initrd-dracut-$(
		IFS=-
		echo "${names[*]}"
	).img
fi
[[ $output == /* ]] || output=$PWD/$output

# --- cache key ----------------------------------------------------------------
compute_key() {
	local m a src
	printf 'modules=%s\ndrivers=%s\ncompress=%s\nargs=%s\n' \
		"$dracut_modules" "$drivers" "$compress" "${dracut_args[*]-}"
	sha256sum -- "$0" "$VM_DIR/common.sh"
	cat -- "$kdir/package" "$kdir/kver"
	stat -c '%n %s %Y' /var/lib/dpkg/status
	for m in "${modules_abs[@]}"; do
		printf 'module %s\n' "$m"
		(cd -- "$m" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum)
	done
	for a in ${adds[@]+"${adds[@]}"}; do
		printf 'add: %s\n' "$a"
		src=${a%%:*}
		if [[ -d $src ]]; then
			find "$src" -printf '%P %y %s %T@ %m %l\n' | LC_ALL=C sort
		else
			stat -L -c '%n %s %Y %a' -- "$src" 2>&1
		fi
	done
}
key=$(compute_key | sha256sum | cut -d' ' -f1)
if [[ $force == 0 && -s $output && -f $output.key && $(<"$output.key") == "$key" ]]; then
	info "cached: $output"
	printf '%s\n' "$output"
	exit 0
fi

# --- a private dracutbasedir ---------------------------------------------------
mkdir -p -- "${output%/*}" "$VM_BUILD/tmp"
work=$(mktemp -d "$VM_BUILD/tmp/dracut.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
base=$work/dracut
mkdir -p "$base/modules.d" "$work/confdir" "$work/tmp"
for f in /usr/lib/dracut/*; do
	[[ ${f##*/} == modules.d ]] || ln -s "$f" "$base/${f##*/}"
done
for f in /usr/lib/dracut/modules.d/*; do
	ln -s "$f" "$base/modules.d/${f##*/}"
done
for i in "${!modules_abs[@]}"; do
	rm -f -- "$base/modules.d/${mod_dirs[i]}"
	cp -a -- "${modules_abs[i]}" "$base/modules.d/${mod_dirs[i]}"
	chmod +x "$base/modules.d/${mod_dirs[i]}/module-setup.sh"
done

# --add: a generated module that installs the files with dracut's inst
if [[ ${#adds[@]} -gt 0 ]]; then
	gen=$base/modules.d/99vmtest-add
	mkdir -p "$gen"
	for a in "${adds[@]}"; do
		src=${a%%:*}
		if [[ $a == *:* ]]; then dst=${a#*:}; else dst=$src; fi
		[[ -e $src ]] || vm_die "--add $src: no such file or directory"
		src=$(cd -- "$(dirname -- "$src")" && pwd -P)/$(basename -- "$src")
		[[ $dst == /* ]] || vm_die "--add $a: the guest path must be absolute"
		if [[ -d $src ]]; then
			(cd -- "$src" && find . \( -type f -o -type l \) -printf '%P\n') |
				while IFS= read -r rel; do
					printf '%s\t%s\n' "$src/$rel" "$dst/$rel"
				done
		else
			printf '%s\t%s\n' "$src" "$dst"
		fi
	done >"$gen/files.list"
	cat >"$gen/module-setup.sh" <<'EOF'
#!/bin/bash
# generated by tests/vm/mkinitrd-dracut.sh for its --add options
check() { return 255; }
depends() { return 0; }
install() {
    local src dst
    while IFS=$'\t' read -r src dst; do
        inst "$src" "$dst" || return 1
    done <"$moddir/files.list"
}
EOF
	chmod +x "$gen/module-setup.sh"
	names+=(vmtest-add)
fi

case $compress in
none) comp_args=(--no-compress) ;;
gzip) comp_args=(--compress "gzip -6 -n") ;;
zstd) comp_args=(--compress "zstd -q -T0 -10") ;;
esac

cmd=(dracut --force --no-hostonly --no-hostonly-cmdline --no-early-microcode
	--conf /dev/null --confdir "$work/confdir" --tmpdir "$work/tmp"
	--kver "$kver" --kmoddir "$kmoddir"
	-m "$dracut_modules ${names[*]}"
	--drivers "$drivers"
	"${comp_args[@]}"
	${dracut_args[@]+"${dracut_args[@]}"}
	"$output.tmp")

info "dracut for $kver, modules: $dracut_modules ${names[*]}"
start=$(date +%s%N)
if ! dracutbasedir=$base "${cmd[@]}" >"$output.log" 2>&1; then
	tail -n 40 "$output.log" >&2
	vm_die "dracut failed; full log in $output.log"
fi
ms=$((($(date +%s%N) - start) / 1000000))
for n in "${names[@]}"; do
	grep -q "Including module: $n \*\*\*\$" "$output.log" ||
		vm_die "dracut did not include module '$n'; see $output.log"
done
mv -f -- "$output.tmp" "$output"
printf '%s\n' "$key" >"$output.key"
info "built $output ($(du -h "$output" | cut -f1)) in $((ms / 1000)).$((ms % 1000 / 100))s"
printf '%s\n' "$output"
