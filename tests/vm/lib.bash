# shellcheck shell=bash
# Helpers for bats tests that boot a VM. In a .bats file next to this one:
#
#   setup_file() {
#       load lib
#       vm_prepare                  # kernel + base initramfs, cached in build/vm
#   }
#   setup() { load lib; }
#   @test "..." {
#       run -0 vm_run "$VM_DIR/fixtures/x/guest.sh" --disk "$BATS_FILE_TMPDIR/d0.img,size=1G"
#       assert_equal "$(vm_kv SOME_KEY)" expected
#   }
#
# Functions
#   vm_prepare [mkinitrd.sh options]
#       Fetches the kernel (fetch-kernel.sh, cached in build/vm/kernel) and
#       builds the base initramfs (mkinitrd.sh, cached by its input key).
#       Exports VM_KERNEL_DIR, VM_KVER and VM_INITRD (the image path). With
#       options (e.g. --add build/storprov:/usr/sbin/storprov) the image is
#       build/vm/initrd-<hash of the options>.img instead of initrd-base.img.
#       Returns non-zero (with the builder's message on stderr) on failure.
#   vm_run SCRIPT [run-vm.sh options]
#       Boots $VM_INITRD (vm_prepare must have run) with SCRIPT as the guest
#       script. Prints the script's output on stdout, returns its exit status
#       (124 timeout, 125 no END marker). The console log goes to
#       $BATS_TEST_TMPDIR/console-N.log (N = 1, 2, ... per boot in a test) unless
#       --log is given; timings are appended to build/vm/logs/timings.log.
#   vm_kv KEY [TEXT]
#       Prints the value of the last "KEY=VALUE" line of TEXT (default: bats'
#       $output). Returns 1 when there is no such line.
#   vm_kv_load [TEXT]
#       Fills the associative array VM_KV (declare -gA) with every KEY=VALUE
#       line of TEXT (default $output); later lines win.
#   vm_prepare_root
#       Builds the test root filesystem for dracut boots (mkinitrd.sh --format
#       ext4: the busybox test tree as an ext4 image labelled vmroot, cached as
#       build/vm/root-base.ext4). Exports VM_ROOT_IMG.
#   vm_prepare_dracut [mkinitrd-dracut.sh options]
#       Builds (cached) a dracut initramfs, e.g. with --module DIR. Exports
#       VM_DRACUT_INITRD. vm_prepare must have run (it fetches the kernel).
#   vm_run_dracut SCRIPT [run-vm.sh options]
#       Boots $VM_DRACUT_INITRD with $VM_ROOT_IMG as the LAST disk (serial
#       vmroot, snapshot=on so the image stays pristine) and root=LABEL=vmroot;
#       after switch_root the test /init runs SCRIPT between the markers.
#       rd.shell=0 rd.emergency=poweroff make a failed boot end at once. Same
#       output and status as vm_run.
#   vm_disks DIR PREFIX COUNT SIZE
#       Prints "--disk DIR/PREFIXi.img,size=SIZE,serial=PREFIXi" option pairs
#       (one word per line) for i in 0..COUNT-1, for use with mapfile.
#   vm_disks_gpt DIR PREFIX COUNT SIZE PARTED-ARGS...
#       The same, and makes the images first, each with a GPT (the host's
#       `parted -s IMG mklabel gpt PARTED-ARGS...`).

# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/common.sh"

vm_prepare() {
	local key out
	VM_KERNEL_DIR=$VM_BUILD/kernel
	if ! out=$("$VM_DIR/fetch-kernel.sh" "$VM_KERNEL_DIR" 2>&1); then
		printf '%s\n' "$out" >&2
		return 1
	fi
	VM_KVER=$(<"$VM_KERNEL_DIR/kver")
	if [[ $# -eq 0 ]]; then
		VM_INITRD=$VM_BUILD/initrd-base.img
	else
		key=$(printf '%s\n' "$@" | sha256sum | cut -c1-12)
		VM_INITRD=$VM_BUILD/initrd-$key.img
	fi
	"$VM_DIR/mkinitrd.sh" -q -k "$VM_KERNEL_DIR" -o "$VM_INITRD" "$@" >/dev/null || return
	export VM_KERNEL_DIR VM_KVER VM_INITRD
}

vm_run() {
	local script=${1:?vm_run: no guest script} a n log=()
	shift
	if [[ -z ${VM_INITRD-} ]]; then
		echo "vm_run: call vm_prepare first" >&2
		return 2
	fi
	if [[ -n ${BATS_TEST_TMPDIR-} ]]; then
		# `run` executes this in a subshell, so count with the files
		n=1
		while [[ -e $BATS_TEST_TMPDIR/console-$n.log ]]; do
			n=$((n + 1))
		done
		log=(--log "$BATS_TEST_TMPDIR/console-$n.log")
		for a in "$@"; do
			[[ $a != --log ]] || log=()
		done
	fi
	mkdir -p "$VM_BUILD/logs"
	VM_TIMING_LOG=$VM_BUILD/logs/timings.log \
		VM_TIMING_LABEL="${BATS_TEST_FILENAME:+${BATS_TEST_FILENAME##*/}: }${BATS_TEST_DESCRIPTION:-${script##*/}}" \
		"$VM_DIR/run-vm.sh" --initrd "$VM_INITRD" --script "$script" ${log[@]+"${log[@]}"} "$@"
}

vm_prepare_root() {
	VM_ROOT_IMG=$VM_BUILD/root-base.ext4
	"$VM_DIR/mkinitrd.sh" -q --format ext4 -k "${VM_KERNEL_DIR:-$VM_BUILD/kernel}" \
		-o "$VM_ROOT_IMG" >/dev/null || return
	export VM_ROOT_IMG
}

vm_prepare_dracut() {
	VM_DRACUT_INITRD=$("$VM_DIR/mkinitrd-dracut.sh" -q -k "${VM_KERNEL_DIR:-$VM_BUILD/kernel}" "$@") ||
		return
	export VM_DRACUT_INITRD
}

vm_run_dracut() {
	local script=${1:?vm_run_dracut: no guest script}
	shift
	if [[ -z ${VM_DRACUT_INITRD-} || -z ${VM_ROOT_IMG-} ]]; then
		echo "vm_run_dracut: call vm_prepare_root and vm_prepare_dracut first" >&2
		return 2
	fi
	VM_INITRD=$VM_DRACUT_INITRD vm_run "$script" "$@" \
		--disk "$VM_ROOT_IMG,serial=vmroot,snapshot=on" \
		--append "root=LABEL=vmroot rootfstype=ext4 rw rd.shell=0 rd.emergency=poweroff"
}

# One awk, not a bash loop over the lines: under bats (its DEBUG trap runs
# for every command) the loop took about 200 ms a call on a 400-line output.
vm_kv() {
	local key=${1:?vm_kv: no key}
	awk -v k="$key=" 'index($0, k) == 1 { v = substr($0, length(k) + 1); f = 1 } END { if (!f) exit 1; print v }' \
		<<<"${2-${output-}}"
}

# shellcheck disable=SC2034 # VM_KV is the result, read by the caller
vm_kv_load() {
	local text=${1-${output-}} line
	declare -gA VM_KV=()
	while IFS= read -r line; do
		[[ $line =~ ^([A-Za-z_][A-Za-z0-9_]*)=(.*)$ ]] || continue
		VM_KV[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
	done <<<"$text"
}

vm_disks() {
	local dir=${1:?} prefix=${2:?} count=${3:?} size=${4:?} i
	for ((i = 0; i < count; i++)); do
		printf '%s\n' --disk "$dir/$prefix$i.img,size=$size,serial=$prefix$i"
	done
}

# vm_disks_gpt DIR PREFIX COUNT SIZE PARTED-ARGS...: as vm_disks, but the
# images are made here with a GPT, by the host's parted on the image file
# (`parted -s IMG mklabel gpt PARTED-ARGS...`), so the guest boots with the
# partitions in place. A member disk's table made in the guest cost about a
# second of TCG a disk (parted, the re-read, udev's events).
vm_disks_gpt() {
	local dir=${1:?} prefix=${2:?} count=${3:?} size=${4:?} i img
	shift 4
	for ((i = 0; i < count; i++)); do
		img=$dir/$prefix$i.img
		rm -f "$img"
		truncate -s "$size" "$img" && parted -s "$img" mklabel gpt "$@" >&2 || return
	done
	vm_disks "$dir" "$prefix" "$count" "$size"
}
