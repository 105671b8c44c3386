#!/bin/bash
# mkinitrd.sh - build the lean busybox initramfs for the storprov VM tests.
#
# Usage: mkinitrd.sh [options]
#   -o, --output FILE       image to write (default build/vm/initrd-base.img)
#   -k, --kernel-dir DIR    kernel unpacked by fetch-kernel.sh (default build/vm/kernel)
#       --add HOST[:GUEST]  copy a file or directory into the image (repeatable;
#                           GUEST defaults to HOST's absolute path); ELF files,
#                           also inside directories, bring their shared
#                           libraries and the dynamic loader along
#       --init SCRIPT       guest script, installed as /vmtest/init.sh and run by
#                           /init between the BEGIN and END markers (run-vm.sh
#                           --script overrides it at boot)
#       --udev              start systemd-udevd in the guest by default
#                           (the kernel argument vmtest.udev=0|1 overrides)
#       --modules "M ..."   extra kernel modules to include and load (repeatable)
#       --compress ALGO     none, gzip or zstd (default none)
#       --format FMT        cpio (default): an initramfs; ext4: the same tree as
#                           an ext4 filesystem image labelled "vmroot", with
#                           /sbin/init -> /init, to boot as the root filesystem
#                           behind another initramfs (the dracut tests)
#       --no-base           overlay only: just the --add/--init content and the
#                           libraries it needs, to be appended to a base image
#       --force             rebuild even if the cache key is unchanged
#   -q, --quiet             no progress messages
#
# The image holds busybox (static; /init installs the applet links at boot),
# kmod, the md/raid/dm/xfs/virtio/scsi/fw_cfg modules (and dm_delay, included
# but left for a script to load), mdadm, lvm2, dmsetup,
# xfsprogs, util-linux tools, sgdisk, sfdisk, parted (if installed), bash,
# systemd-udevd with Debian's storage udev rules, and systemd-sysctl.
# A key over the inputs (this script, the guest files, the options, the
# kernel package, the host programs and their shared libraries, and the --add
# sources)
# is stored as OUTPUT.key; an unchanged key skips the build. The image path
# is printed on stdout.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/common.sh"

usage() {
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
}

output=$VM_BUILD/initrd-base.img
kdir=$VM_BUILD/kernel
adds=()
init_script=
udev=0
extra_modules=()
compress=none
format=cpio
no_base=0
force=0
quiet=0

while [[ $# -gt 0 ]]; do
	case $1 in
	-o | --output) output=${2:?}; shift 2 ;;
	-k | --kernel-dir) kdir=${2:?}; shift 2 ;;
	--add) adds+=("${2:?}"); shift 2 ;;
	--init) init_script=${2:?}; shift 2 ;;
	--udev) udev=1; shift ;;
	--modules) read -r -a _m <<<"${2:?}"; extra_modules+=("${_m[@]}"); shift 2 ;;
	--compress) compress=${2:?}; shift 2 ;;
	--format) format=${2:?}; shift 2 ;;
	--no-base) no_base=1; shift ;;
	--force) force=1; shift ;;
	-q | --quiet) quiet=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) vm_die "unknown option '$1' (see --help)" ;;
	esac
done

case $compress in none | gzip | zstd) ;; *) vm_die "--compress must be none, gzip or zstd" ;; esac
case $format in cpio | ext4) ;; *) vm_die "--format must be cpio or ext4" ;; esac
[[ $format == cpio || $no_base == 0 ]] || vm_die "--format ext4 and --no-base exclude each other"
[[ -z $init_script || -f $init_script ]] || vm_die "--init $init_script: no such file"

info() { [[ $quiet == 1 ]] || vm_log "$@"; }

# abspath PATH: absolute, without resolving symlinks (sets REPLY)
abspath() {
	REPLY=$1
	[[ $REPLY == /* ]] || REPLY=$PWD/$REPLY
}

abspath "$output"
output=$REPLY
if [[ -n $init_script ]]; then
	abspath "$init_script"
	init_script=$REPLY
fi

# Modules loaded by /init, in this order. qemu_fw_cfg carries the guest
# script from run-vm.sh. crc32c_generic must precede libcrc32c (its softdep),
# which xfs and raid456 need. A leading "&" loads that module in the
# background: relocating xfs takes about a second under TCG, so it runs
# alongside the md modules.
base_modules=(
	qemu_fw_cfg
	crc32c_generic libcrc32c
	'&xfs'
	md_mod linear raid0 raid1 raid10 raid456
	dm_mod loop
)
# Modules only included: /init loads them by modalias when the device exists.
coldplug_modules=(virtio_pci virtio_blk virtio_scsi sd_mod)
# Modules only included, never loaded by /init: a guest script that needs one
# loads it with modprobe (dm_delay: bench/guest/seek.sh's latency model), so
# the other boots do not pay for it.
included_modules=(dm_delay)

# Host programs: a missing required one fails the build.
required_bins=(
	mdadm lvm dmsetup
	mkfs.xfs xfs_db xfs_io xfs_spaceman xfs_repair xfs_growfs xfs_admin xfs_info
	blkid wipefs sgdisk sfdisk partx findmnt lsblk blockdev losetup mount umount mountpoint flock
	udevadm kmod bash
)
optional_bins=(parted partprobe xfs_logprint lsscsi sg_inq hdparm)
lvm_links=(
	pvcreate pvremove pvs pvscan pvdisplay pvchange pvresize pvck pvmove
	vgcreate vgremove vgs vgscan vgdisplay vgchange vgextend vgreduce vgck vgcfgbackup vgcfgrestore
	lvcreate lvremove lvs lvscan lvdisplay lvchange lvextend lvreduce lvresize lvrename lvconvert
)
kmod_links=(modprobe insmod rmmod lsmod depmod modinfo)
# Debian's storage-related udev rules.
udev_rules=(
	01-md-raid-creating.rules 50-udev-default.rules 55-dm.rules 56-dm-parts.rules
	56-lvm.rules 60-block.rules 60-persistent-storage.rules 60-persistent-storage-dm.rules
	63-md-raid-arrays.rules 64-md-raid-assembly.rules 68-del-part-nodes.rules 69-lvm.rules
	80-drivers.rules 95-dm-notify.rules 99-systemd.rules
)
udev_helpers=(/usr/lib/udev/ata_id /usr/lib/udev/scsi_id)
systemd_progs=(/usr/lib/systemd/systemd-udevd /usr/lib/systemd/systemd-sysctl)

host_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# find_bin NAME: host path of a program in $host_path (sets REPLY; no fork)
find_bin() {
	local d IFS=:
	REPLY=
	for d in $host_path; do
		if [[ -f $d/$1 && -x $d/$1 ]]; then
			REPLY=$d/$1
			return 0
		fi
	done
	return 1
}

# guest_path PATH: /bin, /sbin, /lib and /lib64 paths moved under /usr, as
# on a merged-/usr system (sets REPLY)
guest_path() {
	case $1 in
	/bin/* | /sbin/* | /lib/* | /lib64/*) REPLY=/usr$1 ;;
	*) REPLY=$1 ;;
	esac
}

# --- cache key ----------------------------------------------------------------
compute_key() {
	local f a src files=() libs=()
	printf 'args: udev=%s compress=%s format=%s no_base=%s modules=%s\n' \
		"$udev" "$compress" "$format" "$no_base" "${extra_modules[*]-}"
	sha256sum -- "$0" "$VM_DIR/common.sh" "$VM_DIR/guest/init" "$VM_DIR/guest/lib.sh" \
		${init_script:+"$init_script"}
	if [[ $no_base == 0 ]]; then
		cat -- "$kdir/package" "$kdir/kver" 2>/dev/null || echo "no kernel"
		for f in busybox "${required_bins[@]}" "${optional_bins[@]}"; do
			find_bin "$f" || true
			printf '%s -> %s\n' "$f" "$REPLY"
			[[ -z $REPLY ]] || files+=("$REPLY")
		done
		files+=("${systemd_progs[@]}" "${udev_helpers[@]}")
		[[ ! -e /etc/modprobe.d/mdadm.conf ]] || files+=(/etc/modprobe.d/mdadm.conf)
	fi
	for a in ${adds[@]+"${adds[@]}"}; do
		printf 'add: %s\n' "$a"
		src=${a%%:*}
		if [[ -d $src ]]; then
			find "$src" -printf '%P %y %s %T@ %m %l\n' | LC_ALL=C sort
		else
			files+=("$src")
		fi
	done
	# the shared libraries they use (an upgraded library changes the key), and
	# the size, mtime and mode of the real files. ldd was 1.2 s of a 1.3 s
	# cache hit, so its answer is kept in OUTPUT.libs, beside the stat of
	# everything it depends on (the programs, the libraries and the loader's
	# cache) in OUTPUT.libs.stat; it runs again only when one of them changed.
	local st cache=$output.libs
	[[ ! -s $cache ]] || mapfile -t libs <"$cache"
	st=$(stat -L -c '%n %s %Y %a' -- "${files[@]}" ${libs[@]+"${libs[@]}"} /etc/ld.so.cache 2>&1)
	if [[ ! -s $cache.stat || $st != "$(<"$cache.stat")" ]]; then
		mapfile -t libs < <(ldd -- "${files[@]}" /bin/true 2>/dev/null |
			sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p' | sort -u)
		st=$(stat -L -c '%n %s %Y %a' -- "${files[@]}" ${libs[@]+"${libs[@]}"} /etc/ld.so.cache 2>&1)
		if [[ -d ${output%/*} ]]; then
			printf '%s\n' ${libs[@]+"${libs[@]}"} >"$cache.$$" && mv -f -- "$cache.$$" "$cache"
			printf '%s\n' "$st" >"$cache.stat.$$" && mv -f -- "$cache.stat.$$" "$cache.stat"
		fi
	fi
	printf '%s\n' "$st"
}

if [[ $no_base == 0 ]]; then
	[[ -s $kdir/kver ]] || vm_die "no kernel in $kdir (run tests/vm/fetch-kernel.sh first)"
fi

key=$(compute_key | sha256sum | cut -d' ' -f1)
if [[ $force == 0 && -s $output && -f $output.key && $(<"$output.key") == "$key" ]]; then
	info "cached: $output"
	printf '%s\n' "$output"
	exit 0
fi

# --- staging -------------------------------------------------------------------
mkdir -p -- "${output%/*}" "$VM_BUILD/tmp"
stage=$(mktemp -d "$VM_BUILD/tmp/initrd.XXXXXX")
trap 'rm -rf -- "$stage"' EXIT
root=$stage/root
mkdir -p "$root"/usr/{bin,sbin,lib,lib64}
ln -s usr/bin "$root/bin"
ln -s usr/sbin "$root/sbin"
ln -s usr/lib "$root/lib"
ln -s usr/lib64 "$root/lib64"

# ELF files whose shared libraries are installed at the end (one ldd run)
elf_queue=()

# copy_same_path HOSTPATH...: copy (dereferenced) to the same path in the image
copy_same_path() {
	[[ $# -gt 0 ]] || return 0
	cp -L --parents -t "$root" -- "$@"
}

# install_libraries: ldd over the queued ELF files; copy every library (and
# the loader) to the path ldd names, dereferenced, so no symlink is needed.
install_libraries() {
	local line lib="" file="" missing=() libs=()
	declare -A seen=()
	[[ ${#elf_queue[@]} -gt 0 ]] || return 0
	# ldd exits non-zero when one file is not dynamic; the output tells all
	while IFS= read -r line; do
		if [[ $line != [[:space:]]* && $line == *: ]]; then
			file=${line%:}
			continue
		fi
		case $line in
		*"=> not found"*) missing+=("$file: ${line%% =>*}") ;;
		*"=> /"*)
			lib=${line#*=> }
			lib=${lib%% (*}
			;;
		*/*)
			lib=${line#"${line%%[![:space:]]*}"}
			lib=${lib%% (*}
			;;
		*) continue ;;
		esac
		if [[ -n ${lib-} && $lib == /* && -z ${seen[$lib]-} ]]; then
			seen[$lib]=1
			[[ -e $root$lib ]] || libs+=("$lib")
		fi
		lib=
	done < <(ldd -- "${elf_queue[@]}" /bin/true 2>/dev/null || true)
	[[ ${#missing[@]} -eq 0 ]] || vm_die "missing shared libraries: ${missing[*]}"
	copy_same_path "${libs[@]}"
	elf_queue=()
}

# inst_tree HOST GUEST: copy a file or directory as given by --add.
inst_tree() {
	local src=$1 dst=$2 f
	if [[ -d $src ]]; then
		mkdir -p -- "$root$dst"
		cp -a -- "$src/." "$root$dst/"
		while IFS= read -r -d '' f; do
			elf_queue+=("$f")
		done < <(find "$src" -type f \( -perm -u+x -o -name '*.so*' \) -print0)
	elif [[ -e $src ]]; then
		mkdir -p -- "$root${dst%/*}"
		rm -f -- "$root$dst"
		cp -L --preserve=mode -- "$src" "$root$dst"
		elf_queue+=("$src")
	else
		vm_die "--add $src: no such file or directory"
	fi
}

install_base() {
	local f bb progs=() applet name kver mods=() m ko rel rels=() deps
	declare -A seen=()

	find_bin busybox || vm_die "busybox not found (apt-get install busybox-static)"
	bb=$REPLY
	if ldd "$bb" >/dev/null 2>&1; then
		vm_die "$bb is dynamically linked; install busybox-static"
	fi
	cp -L -- "$bb" "$root/usr/bin/busybox"
	ln -s busybox "$root/usr/bin/sh"

	# programs, at their merged-/usr paths
	for f in "${required_bins[@]}"; do
		find_bin "$f" || vm_die "required program '$f' not found (run tests/vm/deps.sh)"
		progs+=("$REPLY")
	done
	for f in "${optional_bins[@]}"; do
		if find_bin "$f"; then
			progs+=("$REPLY")
		else
			info "optional program '$f' not installed on the host; skipped"
		fi
	done
	for f in "${udev_helpers[@]}"; do
		[[ ! -x $f ]] || progs+=("$f")
	done
	for f in "${progs[@]}"; do
		case $f in /bin/* | /sbin/*) vm_die "internal: $f is not a /usr path" ;; esac
	done
	copy_same_path "${progs[@]}"
	elf_queue+=("${progs[@]}")

	# systemd-udevd is a symlink to udevadm on Debian 12; keep it one
	for f in "${systemd_progs[@]}"; do
		[[ -e $f ]] || vm_die "$f not found (apt-get install udev systemd)"
		if [[ -L $f ]]; then
			mkdir -p -- "$root${f%/*}"
			ln -sr -- "$root$(readlink -f -- "$f")" "$root$f"
		else
			copy_same_path "$f"
			elf_queue+=("$f")
		fi
	done
	for f in "${lvm_links[@]}"; do
		ln -s lvm "$root/usr/sbin/$f"
	done
	for f in "${kmod_links[@]}"; do
		ln -s ../bin/kmod "$root/usr/sbin/$f"
	done

	# busybox applets that /init must not install because a real program of
	# that name exists in the other bin directory (PATH has /usr/sbin first)
	mkdir -p "$root/etc/vmtest"
	while IFS= read -r applet; do
		guest_path "/$applet"
		name=${REPLY##*/}
		case $REPLY in
		/usr/sbin/*) [[ -e $root/usr/bin/$name ]] && printf '%s\n' "$REPLY" ;;
		/usr/bin/*) [[ -e $root/usr/sbin/$name ]] && printf '%s\n' "$REPLY" ;;
		esac
	done < <("$root/usr/bin/busybox" --list-full) >"$root/etc/vmtest/applet-shadows" || true

	# udev rules
	mkdir -p "$root/usr/lib/udev/rules.d" "$root/etc/udev/rules.d"
	for f in "${udev_rules[@]}"; do
		if [[ -f /usr/lib/udev/rules.d/$f ]]; then
			cp -- "/usr/lib/udev/rules.d/$f" "$root/usr/lib/udev/rules.d/"
		else
			info "udev rule $f not on the host; skipped"
		fi
	done
	printf 'udev_log=err\n' >"$root/etc/udev/udev.conf"

	# minimal /etc
	mkdir -p "$root"/{dev,proc,sys,run,tmp,root,mnt,vmtest} \
		"$root"/etc/{mdadm,sysctl.d,modprobe.d,lvm}
	printf 'root:x:0:0:root:/root:/bin/sh\n' >"$root/etc/passwd"
	printf '%s\n' root:x:0: tty:x:5: disk:x:6: kmem:x:15: >"$root/etc/group"
	printf 'passwd: files\ngroup: files\n' >"$root/etc/nsswitch.conf"
	printf 'vmtest\n' >"$root/etc/hostname"
	# Debian's mdadm ships "options md_mod start_ro=1"; mirror a real system
	[[ ! -f /etc/modprobe.d/mdadm.conf ]] || cp -- /etc/modprobe.d/mdadm.conf "$root/etc/modprobe.d/"

	# kernel modules: closure over modules.dep, then depmod for the subset
	kver=$(<"$kdir/kver")
	for m in "${base_modules[@]}" ${extra_modules[@]+"${extra_modules[@]}"}; do
		mods+=("$m")
	done
	printf '%s\n' "${mods[@]}" >"$root/etc/vmtest/modules"
	deps=$(modprobe -C /dev/null -d "$kdir" -S "$kver" --show-depends -a \
		"${mods[@]#&}" "${coldplug_modules[@]}" "${included_modules[@]}" 2>&1) ||
		vm_die "modprobe --show-depends: $deps"
	while read -r _ ko _; do
		[[ $ko == /* ]] || continue # "builtin NAME"
		rel=${ko#"$kdir/lib/modules/$kver/"}
		[[ $rel != /* ]] || vm_die "module outside $kdir/lib/modules/$kver: $ko"
		[[ -z ${seen[$rel]-} ]] || continue
		seen[$rel]=1
		rels+=("$rel")
	done <<<"$deps"
	mkdir -p "$root/usr/lib/modules/$kver"
	(cd "$kdir/lib/modules/$kver" && cp --parents -t "$root/usr/lib/modules/$kver" -- \
		"${rels[@]}" modules.builtin modules.builtin.modinfo modules.order)
	depmod -b "$root/usr" "$kver"

	# /init and the guest helpers
	cp -- "$VM_DIR/guest/init" "$root/init"
	chmod 0755 "$root/init"
	mkdir -p "$root/usr/lib/vmtest"
	cp -- "$VM_DIR/guest/lib.sh" "$root/usr/lib/vmtest/lib.sh"
	if [[ $udev == 1 ]]; then
		printf 'vm_udev=1\n' >"$root/etc/vmtest/config"
	fi
}

[[ $no_base == 1 ]] || install_base

for a in ${adds[@]+"${adds[@]}"}; do
	src=${a%%:*}
	if [[ $a == *:* ]]; then
		dst=${a#*:}
	else
		abspath "$src"
		dst=$REPLY
	fi
	[[ $dst == /* ]] || vm_die "--add $a: the guest path must be absolute"
	guest_path "$dst"
	inst_tree "$src" "$REPLY"
done
install_libraries

if [[ -n $init_script ]]; then
	mkdir -p "$root/vmtest"
	cp -- "$init_script" "$root/vmtest/init.sh"
	chmod 0755 "$root/vmtest/init.sh"
fi

if [[ $no_base == 1 ]]; then
	# The base image owns the top-level /bin, /sbin, /lib and /lib64 symlinks.
	# An overlay entry of one of those names would replace the symlink (the
	# kernel unlinks an existing entry of another type), so the overlay only
	# carries /usr/... paths, where everything above was written.
	rm -f -- "$root"/{bin,sbin,lib,lib64}
	find "$root" -mindepth 1 -type d -empty -delete
fi

# --- output --------------------------------------------------------------------
tmp_out=$output.tmp.$$
if [[ $format == ext4 ]]; then
	ln -sf /init "$root/usr/sbin/init"
	kib=$(du -sk "$root" | cut -f1)
	kib=$((kib * 5 / 4 + 32768))
	rm -f -- "$tmp_out"
	truncate -s "${kib}K" -- "$tmp_out"
	mkfs.ext4 -q -F -L vmroot -O ^has_journal -E root_owner=0:0,lazy_itable_init=0 -d "$root" -- "$tmp_out" ||
		vm_die "mkfs.ext4 -d failed"
else
	(
		cd "$root"
		find . -mindepth 1 -print0 | LC_ALL=C sort -z |
			cpio --null -o -H newc -R 0:0 --quiet
	) | case $compress in
	none) cat ;;
	gzip) gzip -6 -n ;;
	zstd) zstd -q -T0 -10 ;;
	esac >"$tmp_out"
	# pad to a 512-byte multiple so another archive can be appended directly
	size=$(stat -c %s "$tmp_out")
	pad=$(((512 - size % 512) % 512))
	[[ $pad -eq 0 ]] || head -c "$pad" /dev/zero >>"$tmp_out"
fi
mv -f -- "$tmp_out" "$output"
printf '%s\n' "$key" >"$output.key"
info "built $output ($(du -h "$output" | cut -f1), $(du -sh "$root" | cut -f1) unpacked, format=$format compress=$compress)"
printf '%s\n' "$output"
