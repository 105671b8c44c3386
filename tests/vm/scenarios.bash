# shellcheck shell=bash
# Shared by the storprov VM scenarios (tests/vm/NN-*.bats): an initramfs with
# storprov in it, profile variants whose <match> fits virtual disks, and
# printing the figures each scenario read back.

# sp_prepare: the base image plus storprov (its libraries come along)
sp_prepare() {
	load lib
	vm_prepare --udev --add "$VM_TOP/build/storprov:/usr/sbin/storprov"
}

# sp_profile SRC OUT [GROUP MATCH]...: copies a shipped profile, replacing the
# <match .../> line of each named <disks> group by MATCH (one line for one, so
# that line numbers stay those of the shipped profile).
sp_profile() {
	local src=$1 out=$2
	shift 2
	cp "$src" "$out"
	while [ $# -ge 2 ]; do
		awk -v g="$1" -v m="$2" '
			$0 ~ "<disks id=\"" g "\"" { inside = 1 }
			inside && /<match / { sub(/<match [^>]*\/>/, m); inside = 0 }
			{ print }' "$out" >"$out.tmp" && mv "$out.tmp" "$out"
		shift 2
	done
	[ "$(wc -l <"$src")" = "$(wc -l <"$out")" ]
}

# sp_figures: the read-back figures of the last vm_run, and its sections with
# the guest's uptime at each, for the test log
sp_figures() {
	grep -E '^([A-Z0-9_]+=|=== .* === \(uptime )' <<<"$output" | sed 's/^/    /' >&3 || true
}
