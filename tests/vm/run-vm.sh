#!/bin/bash
# run-vm.sh - boot one test VM (QEMU, TCG) and relay the guest script's result.
#
# Usage: run-vm.sh [options]
#   --initrd FILE         initramfs (repeatable: the files are concatenated, so
#                         an overlay from `mkinitrd.sh --no-base` can follow a
#                         base image; default build/vm/initrd-base.img)
#   --kernel FILE         kernel image (default build/vm/kernel/vmlinux, booted
#                         through PVH, else build/vm/kernel/vmlinuz)
#   --script FILE         guest script, passed as the QEMU fw_cfg file
#                         opt/vmtest/script (overrides one baked in with
#                         mkinitrd.sh --init); its #! line picks the shell
#   --add HOST[:GUEST]    extra files for the guest, packed with their shared
#                         libraries by `mkinitrd.sh --no-base` (repeatable)
#   --env KEY=VALUE       exported to the guest script (repeatable; fw_cfg
#                         file opt/vmtest/env)
#   --disk SPEC           a disk (repeatable, in order: vda, vdb, ... or sda, ...)
#                         SPEC = PATH[,size=2G][,serial=S][,min_io=B][,opt_io=B]
#                                [,lbs=B][,pbs=B][,bus=virtio|scsi][,wwn=0xHEX]
#                                [,vendor=V][,model=M][,rotation_rate=N]
#                                [,discard=on][,readonly=on][,snapshot=on][,share=on]
#                                [,cache=none|unsafe|writeback|writethrough|directsync]
#                                [,queue_size=N]
#                         PATH is a raw image; it is created sparse (truncate)
#                         with the given size when missing and kept otherwise,
#                         so a later boot sees the same data. min_io/opt_io set
#                         the exported topology (none by default, like most
#                         hardware RAID LUNs). bus=scsi makes it a scsi-hd on
#                         virtio-scsi (wwn/vendor/model/rotation_rate need it).
#                         snapshot=on discards the guest's writes at exit.
#                         share=on lets several --disk open one PATH (two
#                         paths to one LUN: give them the same wwn and serial):
#                         file.locking=off on the drive, share-rw=on on the
#                         device. cache= is QEMU's cache mode (default unsafe;
#                         none: O_DIRECT, what a host power loss leaves is what
#                         the guest flushed). Each disk's device gets the QEMU id devN
#                         (N from 0, in --disk order), for device_del.
#                         queue_size=N (virtio only, 2..1024, a power of 2):
#                         the virtqueue's size; with seg-max-adjust (QEMU's
#                         default) the guest's max_segments is N - 2, so
#                         N=1024 lets one request hold 1022 pages (4088 KiB of
#                         4 KiB pages) instead of 126 or 254.
#   --qmp SOCKET          a QMP monitor on the unix socket SOCKET (default: none)
#   --hotplug             act on the guest's requests: a console line
#                         "<<<VMTEST:DEVICE_DEL:NONCE devN>>>" (NONCE is
#                         vmtest.nonce= of the guest's /proc/cmdline) makes the
#                         host send QMP device_del for devN, once (a QMP socket
#                         in the work directory unless --qmp gives one;
#                         python3 speaks QMP)
#   --udev                start systemd-udevd in the guest (vmtest.udev=1; without
#                         it the image's default applies, see mkinitrd.sh --udev;
#                         --append vmtest.udev=0 forces it off)
#   --append ARGS         extra kernel command line (after $VM_BOOT_ARGS, default
#                         "cryptomgr.notests ipv6.disable=1"; VM_BOOT_ARGS= boots
#                         without them)
#   --mem MIB             guest memory (default 1024)
#   --smp N               guest CPUs (default 2)
#   --cpu MODEL           QEMU CPU model (default $VM_CPU, else
#                         max,erms=off,fsrm=off: max without the two flags
#                         that make the guest kernel copy and clear memory
#                         with rep movsb/stosb, which TCG runs a byte at a
#                         time; with them a guest copied /dev/zero to
#                         /dev/null at 0.7 GB/s, without them at 4.3 GB/s,
#                         and a scenario's mix of dd, mkfs.xfs and md writes
#                         took 16.2 s against 8.2-8.8 s)
#   --tcg-thread single|multi
#                         TCG's threading (default $VM_TCG_THREAD, else single):
#                         single runs every guest CPU on one host thread, so a
#                         guest CPU spinning on a lock never waits for another
#                         one's host thread to be scheduled. Under multi, with
#                         two VMs and the host suites on 2 cores, the EL boot
#                         stalled 300 s in soft lockups (two modprobes) and a
#                         10 s guest script took 166 s; bench/ keeps multi,
#                         which its figures were measured with.
#   --tb-size MIB         TCG's translation cache (default $VM_TB_SIZE, else 64;
#                         0: QEMU's own default, 1 GiB). Code translated from
#                         pages the guest has since freed stays in the cache
#                         until it fills, and every write to such a page takes
#                         TCG's slow path: after dracut's switch_root freed the
#                         initramfs, one modprobe took 45 to 120 s (soft
#                         lockups in clear_page and memcpy) and a mount 200 s,
#                         in about half of the boots. 64 MiB fills and is
#                         flushed often enough: the same modprobes took 2 s.
#   --timeout SECONDS     kill QEMU and fail after this long (default 300)
#   --log FILE            keep the full serial console log in FILE
#   --qemu-arg ARG        pass ARG to qemu-system-x86_64 (repeatable)
#   --interactive         console on this terminal, no markers (debugging;
#                         combine with --append vmtest.shell=1)
#
# Prints the guest script's output (the lines between the BEGIN and END
# markers) on stdout and exits with the script's exit status. Exits 124 when
# the timeout hit and 125 when QEMU ended without an END marker; then the
# last 40 console lines go to stderr. Timings go to stderr:
#   run-vm.sh: script started at guest uptime 5.9s, ended 10.8s; rc=0; wall 12.0s
# and, when VM_TIMING_LOG names a file, are appended there as one line
# (VM_TIMING_LABEL labels it).
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/common.sh"

usage() {
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
}

kernel=$VM_BUILD/kernel/vmlinux
[[ -s $kernel ]] || kernel=$VM_BUILD/kernel/vmlinuz
initrds=()
script=
adds=()
envs=()
disks=()
udev=0
append=
mem=1024
smp=2
tcg_thread=${VM_TCG_THREAD:-single}
tb_size=${VM_TB_SIZE:-64}
cpu=${VM_CPU:-max,erms=off,fsrm=off}
timeout_s=300
log=
qemu_extra=()
interactive=0
qmp=
hotplug=0

while [[ $# -gt 0 ]]; do
	case $1 in
	--initrd) initrds+=("${2:?}"); shift 2 ;;
	--kernel) kernel=${2:?}; shift 2 ;;
	--script) script=${2:?}; shift 2 ;;
	--add) adds+=("${2:?}"); shift 2 ;;
	--env) envs+=("${2:?}"); shift 2 ;;
	--disk) disks+=("${2:?}"); shift 2 ;;
	--udev) udev=1; shift ;;
	--append) append+=" ${2:?}"; shift 2 ;;
	--mem) mem=${2:?}; shift 2 ;;
	--smp) smp=${2:?}; shift 2 ;;
	--cpu) cpu=${2:?}; shift 2 ;;
	--tcg-thread) tcg_thread=${2:?}; shift 2 ;;
	--tb-size) tb_size=${2:?}; shift 2 ;;
	--timeout) timeout_s=${2:?}; shift 2 ;;
	--log) log=${2:?}; shift 2 ;;
	--qemu-arg) qemu_extra+=("${2:?}"); shift 2 ;;
	--interactive) interactive=1; shift ;;
	--qmp) qmp=${2:?}; shift 2 ;;
	--hotplug) hotplug=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) vm_die "unknown option '$1' (see --help)" ;;
	esac
done

[[ $tcg_thread == single || $tcg_thread == multi ]] || vm_die "--tcg-thread (VM_TCG_THREAD): single or multi, not '$tcg_thread'"
[[ $tb_size =~ ^[0-9]+$ ]] || vm_die "--tb-size (VM_TB_SIZE): MiB as a whole number (0: QEMU's default), not '$tb_size'"
accel="tcg,thread=$tcg_thread"
[[ $tb_size == 0 ]] || accel+=",tb-size=$tb_size"
[[ ${#initrds[@]} -gt 0 ]] || initrds=("$VM_BUILD/initrd-base.img")
for f in "$kernel" "${initrds[@]}"; do
	[[ -s $f ]] || vm_die "$f missing (run tests/vm/fetch-kernel.sh and tests/vm/mkinitrd.sh)"
done
[[ -z $script || -f $script ]] || vm_die "--script $script: no such file"
[[ $timeout_s =~ ^[0-9]+$ && $timeout_s -gt 0 ]] || vm_die "--timeout must be a positive integer"
command -v qemu-system-x86_64 >/dev/null || vm_die "qemu-system-x86_64 not found (run tests/vm/deps.sh)"

mkdir -p "$VM_BUILD/tmp"
work=$(mktemp -d "$VM_BUILD/tmp/run.XXXXXX")
trap 'rm -rf -- "$work"' EXIT

# --- initramfs: base image(s) + overlay with the script and env ---------------
pad512() {
	local f=$1 size pad
	size=$(stat -c %s "$f")
	pad=$(((512 - size % 512) % 512))
	[[ $pad -eq 0 ]] || head -c "$pad" /dev/zero >>"$f"
}

if [[ ${#initrds[@]} -eq 1 && ${#adds[@]} -eq 0 ]]; then
	initrd=${initrds[0]}
else
	initrd=$work/initrd.img
	: >"$initrd"
	for f in "${initrds[@]}"; do
		cat -- "$f" >>"$initrd"
		pad512 "$initrd"
	done
fi
if [[ ${#adds[@]} -gt 0 ]]; then
	add_args=()
	for a in "${adds[@]}"; do add_args+=(--add "$a"); done
	"$VM_DIR/mkinitrd.sh" -q --no-base --compress none --force -o "$work/adds.cpio" "${add_args[@]}" >/dev/null
	cat -- "$work/adds.cpio" >>"$initrd"
	pad512 "$initrd"
fi
# The guest script and the environment travel as QEMU fw_cfg files, read by
# the guest /init from /sys/firmware/qemu_fw_cfg (module qemu_fw_cfg); that
# works for any initramfs or root filesystem that runs tests/vm/guest/init.
fw_cfg=()
if [[ -n $script ]]; then
	cp -- "$script" "$work/script"
	fw_cfg+=(-fw_cfg "name=opt/vmtest/script,file=$work/script")
fi
if [[ ${#envs[@]} -gt 0 ]]; then
	for e in "${envs[@]}"; do
		[[ $e == [A-Za-z_]*=* ]] || vm_die "--env $e: expected KEY=VALUE"
		printf 'export %s=%q\n' "${e%%=*}" "${e#*=}"
	done >"$work/env"
	fw_cfg+=(-fw_cfg "name=opt/vmtest/env,file=$work/env")
fi

# --- disks --------------------------------------------------------------------
qemu_disks=()
have_scsi=0
scsi_id=0
idx=0
for spec in ${disks[@]+"${disks[@]}"}; do
	IFS=, read -r -a parts <<<"$spec"
	path=${parts[0]}
	[[ -n $path ]] || vm_die "--disk $spec: no path"
	size='' serial='' min_io='' opt_io='' lbs='' pbs='' wwn='' vendor='' model='' rot=''
	bus=virtio discard=off ro=off snap=off share=off cache=unsafe qsize=''
	for kv in "${parts[@]:1}"; do
		case $kv in
		size=*) size=${kv#*=} ;;
		serial=*) serial=${kv#*=} ;;
		min_io=* | min_io_size=*) min_io=${kv#*=} ;;
		opt_io=* | opt_io_size=*) opt_io=${kv#*=} ;;
		lbs=* | logical_block_size=*) lbs=${kv#*=} ;;
		pbs=* | physical_block_size=*) pbs=${kv#*=} ;;
		bus=*) bus=${kv#*=} ;;
		wwn=*) wwn=${kv#*=} ;;
		vendor=*) vendor=${kv#*=} ;;
		model=* | product=*) model=${kv#*=} ;;
		rotation_rate=*) rot=${kv#*=} ;;
		discard=*) discard=${kv#*=} ;;
		readonly=* | ro=*) ro=${kv#*=} ;;
		snapshot=*) snap=${kv#*=} ;;
		share=*) share=${kv#*=} ;;
		cache=*) cache=${kv#*=} ;;
		queue_size=*) qsize=${kv#*=} ;;
		*) vm_die "--disk $spec: unknown property '$kv'" ;;
		esac
	done
	case $bus in virtio | scsi) ;; *) vm_die "--disk $spec: bus must be virtio or scsi" ;; esac
	if [[ ! -e $path ]]; then
		[[ -n $size ]] || vm_die "--disk $spec: $path does not exist and no size= given"
		mkdir -p -- "$(dirname -- "$path")"
		truncate -s "$size" -- "$path"
	fi
	case $discard in on | unmap) discard=unmap ;; *) discard=ignore ;; esac
	case $ro in on | 1 | yes | true) ro=on ;; *) ro=off ;; esac
	case $snap in on | 1 | yes | true) snap=on ;; *) snap=off ;; esac
	case $share in on | 1 | yes | true) share=on ;; *) share=off ;; esac
	[[ $path != *,* ]] || vm_die "--disk $spec: the image path must not contain a comma"
	case $cache in none | unsafe | writeback | writethrough | directsync) ;;
	*) vm_die "--disk $spec: cache must be none, unsafe, writeback, writethrough or directsync" ;; esac
	drive="file=$path,format=raw,if=none,id=disk$idx,cache=$cache,aio=threads"
	drive+=",discard=$discard,readonly=$ro,snapshot=$snap"
	[[ $share == off ]] || drive+=",file.locking=off"
	if [[ $bus == virtio ]]; then
		[[ -z $wwn && -z $vendor && -z $model && -z $rot ]] ||
			vm_die "--disk $spec: wwn/vendor/model/rotation_rate need bus=scsi"
		[[ ${#serial} -le 20 ]] || vm_die "--disk $spec: virtio serials hold at most 20 characters"
		dev="virtio-blk-pci,drive=disk$idx"
		if [[ -n $qsize ]]; then
			if ! [[ $qsize =~ ^[0-9]+$ ]] || ((qsize < 2 || qsize > 1024 || (qsize & (qsize - 1)) != 0)); then
				vm_die "--disk $spec: queue_size must be a power of 2 from 2 to 1024"
			fi
			dev+=",queue-size=$qsize,seg-max-adjust=on"
		fi
	else
		[[ -z $qsize ]] || vm_die "--disk $spec: queue_size needs bus=virtio"
		if [[ $have_scsi == 0 ]]; then
			qemu_disks+=(-device 'virtio-scsi-pci,id=vscsi0')
			have_scsi=1
		fi
		dev="scsi-hd,drive=disk$idx,bus=vscsi0.0,channel=0,scsi-id=$scsi_id,lun=0"
		scsi_id=$((scsi_id + 1))
		[[ -z $wwn ]] || dev+=",wwn=$wwn"
		[[ -z $vendor ]] || dev+=",vendor=$vendor"
		[[ -z $model ]] || dev+=",product=$model"
		[[ -z $rot ]] || dev+=",rotation_rate=$rot"
	fi
	[[ -z $serial ]] || dev+=",serial=$serial"
	[[ -z $min_io ]] || dev+=",min_io_size=$min_io"
	[[ -z $opt_io ]] || dev+=",opt_io_size=$opt_io"
	[[ -z $lbs ]] || dev+=",logical_block_size=$lbs"
	[[ -z $pbs ]] || dev+=",physical_block_size=$pbs"
	[[ $share == off ]] || dev+=",share-rw=on"
	dev+=",id=dev$idx"
	qemu_disks+=(-drive "$drive" -device "$dev")
	idx=$((idx + 1))
done

# --- boot ---------------------------------------------------------------------
nonce=$(od -An -tx1 -N6 /dev/urandom | tr -d ' \n')
# VM_BOOT_ARGS (default cryptomgr.notests ipv6.disable=1): the kernel's
# crypto self-tests and IPv6 set-up are 0.3-0.5 s of every boot under TCG
# (initcall_debug: kdf108 0.24 s, algapi 0.20 s, inet6 0.09 s) and no guest
# uses either (no NIC); bench/harness-costs.sh boot compares with none
cmdline="console=ttyS0 quiet loglevel=3 panic=-1 scsi_mod.scan=sync init_on_alloc=0"
cmdline+=" ${VM_BOOT_ARGS-cryptomgr.notests ipv6.disable=1}"
cmdline+=" vmtest.nonce=$nonce vmtest.disks=$idx"
[[ $udev == 0 ]] || cmdline+=" vmtest.udev=1"
cmdline+=$append

qemu=(qemu-system-x86_64
	-machine q35 -accel "$accel" -cpu "$cpu" -smp "$smp" -m "$mem"
	-nodefaults -no-reboot -display none
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline"
	${fw_cfg[@]+"${fw_cfg[@]}"} ${qemu_disks[@]+"${qemu_disks[@]}"}
	${qemu_extra[@]+"${qemu_extra[@]}"})

if [[ $interactive == 1 ]]; then
	exec "${qemu[@]}" -serial mon:stdio
fi

console=${log:-$work/console.log}
mkdir -p -- "$(dirname -- "$console")"
: >"$console"

# --- QMP: the monitor, and device_del when the guest asks for it ---------------
[[ $hotplug == 0 || -n $qmp ]] || qmp=$work/qmp.sock
monitor=(-monitor none)
[[ -z $qmp ]] || monitor+=(-qmp "unix:$qmp,server=on,wait=off")

# qmp_device_del ID: QMP handshake, then device_del; nonzero on a QMP error
qmp_device_del() {
	python3 - "$qmp" "$1" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(30)
s.connect(sys.argv[1])
f = s.makefile("rw")
f.readline()  # the greeting
for cmd in ({"execute": "qmp_capabilities"},
            {"execute": "device_del", "arguments": {"id": sys.argv[2]}}):
    f.write(json.dumps(cmd) + "\n")
    f.flush()
    while True:
        r = json.loads(f.readline())
        if "return" in r or "error" in r:
            break
    if "error" in r:
        sys.exit("QMP %s: %s" % (cmd["execute"], r["error"].get("desc", r["error"])))
PY
}

# watch_hotplug: until QEMU ends, device_del each devN the console asks for, once
watch_hotplug() {
	local seen=' ' id
	while [[ ! -e $work/qemu.done ]]; do
		for id in $(tr -d '\r' <"$console" | sed -n "s/.*<<<VMTEST:DEVICE_DEL:$nonce \(dev[0-9]\{1,3\}\)>>>.*/\1/p"); do
			[[ $seen != *" $id "* ]] || continue
			seen+="$id "
			if qmp_device_del "$id"; then
				vm_log "device_del $id: the guest asked for it"
			else
				vm_log "device_del $id failed"
			fi
		done
		sleep 0.5
	done
}
watcher=
if [[ $hotplug == 1 ]]; then
	command -v python3 >/dev/null || vm_die "--hotplug needs python3 (QMP)"
	watch_hotplug &
	watcher=$!
fi

start_ns=$(date +%s%N)
qrc=0
timeout --kill-after=10 "$timeout_s" "${qemu[@]}" -serial "file:$console" "${monitor[@]}" \
	</dev/null >"$work/qemu.out" 2>&1 || qrc=$?
: >"$work/qemu.done"
[[ -z $watcher ]] || wait "$watcher" || true
wall=$((($(date +%s%N) - start_ns) / 1000000))

clean=$work/console.txt
tr -d '\r' <"$console" >"$clean"

begin_re="<<<VMTEST:BEGIN:$nonce uptime=([0-9.]+)>>>"
end_re="<<<VMTEST:END:$nonce rc=([0-9]+) uptime=([0-9.]+)>>>"
state=0 rc='' t_begin='' t_end=''
body=()
while IFS= read -r line; do
	if [[ $state == 0 ]]; then
		if [[ $line =~ $begin_re ]]; then
			t_begin=${BASH_REMATCH[1]}
			state=1
		fi
	elif [[ $state == 1 ]]; then
		if [[ $line =~ $end_re ]]; then
			rc=${BASH_REMATCH[1]}
			t_end=${BASH_REMATCH[2]}
			state=2
			break
		fi
		body+=("$line")
	fi
done <"$clean"

fail_tail() {
	vm_log "$1"
	if [[ -s $work/qemu.out ]]; then
		vm_log "qemu said:"
		sed 's/^/  /' "$work/qemu.out" >&2
	fi
	vm_log "last 40 console lines:"
	tail -n 40 "$clean" | sed 's/^/  | /' >&2
	if [[ -z $log ]]; then
		mkdir -p "$VM_BUILD/logs"
		cp -- "$clean" "$VM_BUILD/logs/last-failure.log"
		vm_log "full console log: $VM_BUILD/logs/last-failure.log"
	else
		vm_log "full console log: $log"
	fi
}

if [[ $state != 2 ]]; then
	# print what the script wrote so far, it helps to see where it hung
	[[ ${#body[@]} -eq 0 ]] || printf '%s\n' "${body[@]}"
	if [[ $qrc == 124 || $qrc == 137 ]]; then
		fail_tail "timeout: no END marker after ${timeout_s}s (QEMU killed)"
		exit 124
	fi
	if [[ $state == 0 ]]; then
		fail_tail "the guest never reached the BEGIN marker (QEMU exit $qrc)"
	else
		fail_tail "QEMU ended (exit $qrc) without the END marker"
	fi
	exit 125
fi

# the END marker is preceded by one newline of its own
n=${#body[@]}
if [[ $n -gt 0 && -z ${body[n - 1]} ]]; then
	unset 'body[n-1]'
fi
[[ ${#body[@]} -eq 0 ]] || printf '%s\n' "${body[@]}"
wall_s=$((wall / 1000)).$((wall % 1000 / 100))
vm_log "script started at guest uptime ${t_begin}s, ended ${t_end}s; rc=$rc; wall ${wall_s}s"
if [[ -n ${VM_TIMING_LOG-} ]]; then
	printf '%s\tbegin=%s\tend=%s\twall=%s\trc=%s\t%s\n' "$(date -u +%FT%TZ)" \
		"$t_begin" "$t_end" "$wall_s" "$rc" "${VM_TIMING_LABEL:-${script##*/}}" >>"$VM_TIMING_LOG"
fi
if [[ $rc != 0 ]]; then
	fail_tail "guest script failed with exit status $rc"
fi
exit "$rc"
