# Shared by the benchmarks: a minimal captured-style tree holding exactly the
# files storprov's discovery reads (src/discover/discover.c), written fast enough for
# 12,000 disks (tests/fixtures/make-sysroot.sh writes the full neighbourhood a
# capture carries: about 20 ms a disk, 0.17 s for the 9 disks of many-luns.spec,
# which would still be four minutes for 12,000).

# sd_name I: the kernel name of the I-th sd disk (0 → sda, 25 → sdz, 26 → sdaa …).
sd_name() {
	local n=$1 s=""
	while :; do
		s=$(printf "\\x$(printf %x $((97 + n % 26)))")$s
		n=$((n / 26 - 1))
		[ "$n" -lt 0 ] && break
	done
	printf 'sd%s' "$s"
}

# fast_lun_tree DIR N VENDOR MODEL SIZE: N hardware RAID LUNs (sdb …) plus an OS
# disk (sda), each with a unique WWN, 512-byte sectors, no exported stripe
# hints; spread evenly over 12 FC HBAs (HBA h at PCI bus 0x10 + h), so that
# the profile has the same 12 <disks> groups at every N (a group's count may
# be 1 to 1024); N a multiple of 12; MemTotal 1 TiB.
fast_lun_tree() {
	local dir=$1 n=$2 vendor=$3 model=$4 size=$5 i name d min
	rm -rf "$dir"
	mkdir -p "$dir/proc" "$dir/run/udev/data" "$dir/sys/block"
	printf 'MemTotal:       1073741824 kB\n' >"$dir/proc/meminfo"
	for ((i = 0; i <= n; i++)); do
		name=$(sd_name "$i")
		echo "$dir/sys/block/$name/queue $dir/sys/block/$name/device"
	done | xargs mkdir -p
	for ((i = 0; i <= n; i++)); do
		name=$(sd_name "$i")
		d=$dir/sys/block/$name
		min=$((i * 16))
		echo "259:$min" >"$d/dev"
		if [ "$i" -eq 0 ]; then
			echo 976773168 >"$d/size"
			echo ATA >"$d/device/vendor"
			echo "OS DISK" >"$d/device/model"
			printf 'E:ID_PATH=pci-0000:00:1f.2-ata-1\nE:ID_SERIAL=OSDISK_1\n' >"$dir/run/udev/data/b259:$min"
		else
			echo $((size / 512)) >"$d/size"
			echo "$vendor" >"$d/device/vendor"
			echo "$model" >"$d/device/model"
			printf 'E:ID_WWN=0x60060e80%08x\nE:ID_SERIAL=360060e80%08x%016x\nE:ID_PATH=pci-0000:%02x:00.0-fc-0x50060e8000c0ffee-lun-%d\n' \
				"$i" "$i" "$i" $((0x10 + (i - 1) * 12 / n)) "$i" >"$dir/run/udev/data/b259:$min"
		fi
		echo 512 >"$d/queue/logical_block_size"
		echo 512 >"$d/queue/physical_block_size"
		echo 512 >"$d/queue/minimum_io_size"
		echo 0 >"$d/queue/optimal_io_size"
		echo 1 >"$d/queue/rotational"
		echo 32767 >"$d/queue/max_hw_sectors_kb"
		echo 1280 >"$d/queue/max_sectors_kb"
		echo 64 >"$d/queue/nr_requests"
		echo 128 >"$d/queue/read_ahead_kb"
		echo "none [mq-deadline] kyber bfq" >"$d/queue/scheduler"
	done
}

# lun_profile N: a profile for fast_lun_tree's N LUNs: one <disks> group of N/12
# per HBA (luna … lunl: ids that cannot clash with the disks' lunaN), hardware
# RAID5 of 10 x 64 KiB, a GPT partition each, XFS per LUN, tuned.
lun_profile() {
	local n=$1 h=0 c g
	cat <<EOP
<?xml version="1.0" encoding="UTF-8"?>
<profile version="1" name="luns-$n">
EOP
	c=$((n / 12))
	while [ "$h" -lt 12 ]; do
		g=lun$(printf "\\x$(printf %x $((97 + h)))")
		cat <<EOP
  <disks id="$g" count="$c">
    <match vendor="HITACHI" model="OPEN-V*" path="pci-0000:$(printf %02x $((0x10 + h))):00.0-fc-*"/>
    <hwraid level="5" members="10" chunk="64K"/>
    <tune scheduler="mq-deadline" read-ahead-kb="4096"/>
    <gpt>
      <partition id="data" size="100%"/>
    </gpt>
  </disks>
  <xfs on="$g.data" label="$g%n" mountpoint="/data/$g%n" mount-options="noatime"/>
EOP
		h=$((h + 1))
	done
	cat <<EOP
  <sysctl key="vm.dirty_background_bytes" value="268435456"/>
</profile>
EOP
}
