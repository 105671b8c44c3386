# shellcheck shell=bash
# Shared helpers for the tests/vm scripts. Sourced, never executed.
#
# Provides:
#   VM_DIR        absolute path of tests/vm
#   VM_TOP        repository top (git rev-parse --show-toplevel, or ../.. of tests/vm)
#   VM_BUILD      cache directory, $VM_TOP/build/vm (override with VM_BUILD_DIR)
#   vm_log MSG    message to stderr, prefixed with the script name
#   vm_die MSG    vm_log + exit 1

VM_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
if ! VM_TOP=$(git -C "$VM_DIR" rev-parse --show-toplevel 2>/dev/null); then
	VM_TOP=$(cd -- "$VM_DIR/../.." && pwd -P)
fi
VM_BUILD=${VM_BUILD_DIR:-$VM_TOP/build/vm}
export VM_DIR VM_TOP VM_BUILD

vm_log() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

vm_die() {
	vm_log "error: $*"
	exit 1
}

# Run apt-get, waiting for the dpkg/apt locks instead of failing when another
# apt-get is running on the machine.
vm_apt_get() {
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@"
}

# True when the apt package lists are present (apt-cache needs them).
vm_apt_lists_present() {
	compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null
}
