# shellcheck shell=sh
# Helpers for guest scripts, installed as /usr/lib/vmtest/lib.sh.
# Source it from a guest script:  . /usr/lib/vmtest/lib.sh
#
#   kv KEY VALUE...   print KEY=VALUE on one line (newlines in VALUE become
#                     spaces); the host side reads them with vm_kv (lib.bash)
#   kv_file KEY FILE  kv KEY "$(cat FILE)", or KEY=<missing> if FILE is absent
#   section TITLE     print a "=== TITLE ===" separator line
#   show CMD ARGS...  print "$ CMD ARGS" and run it, output included
#   die MSG           print MSG on stderr and exit 1
#   disk_by_serial S  print /dev/NAME of the disk with serial S (no udev needed)

kv() {
	_kv_key=$1
	shift
	printf '%s=%s\n' "$_kv_key" "$(printf '%s' "$*" | tr '\n' ' ' | sed 's/ *$//')"
}

kv_file() {
	if [ -r "$2" ]; then
		kv "$1" "$(cat "$2")"
	else
		printf '%s=<missing>\n' "$1"
	fi
}

section() {
	# the guest's uptime, so that a slow part of a scenario shows in the test log
	printf '=== %s === (uptime %s)\n' "$*" "$(cut -d' ' -f1 /proc/uptime)"
}

show() {
	printf '$ %s\n' "$*"
	"$@" 2>&1
}

die() {
	printf 'vmtest: %s\n' "$*" >&2
	exit 1
}

# disk_by_serial SERIAL: print /dev/NAME of the whole disk whose serial is
# SERIAL (virtio: /sys/block/vdX/serial; SCSI: the unit serial VPD page), so a
# script works without udev's /dev/disk/by-id links.
disk_by_serial() {
	for _d in /sys/block/vd* /sys/block/sd*; do
		[ -e "$_d" ] || continue
		_s=
		if [ -r "$_d/serial" ]; then
			_s=$(cat "$_d/serial")
		elif [ -r "$_d/device/vpd_pg80" ]; then
			_s=$(tail -c +5 "$_d/device/vpd_pg80" | tr -d '\000' | sed 's/^ *//;s/ *$//')
		fi
		if [ "$_s" = "$1" ]; then
			echo "/dev/${_d##*/}"
			return 0
		fi
	done
	echo "vmtest: no disk with serial $1" >&2
	return 1
}
