# shellcheck shell=bash
# Request-level trace of the write requests a set of disks takes (issue 34 item 5),
# for guest scripts: the block/block_rq_issue tracepoint through tracefs,
# filtered on the disks' dev_t.
#
#   rq_trace_start DEV...   clear the trace buffer and record the requests
#                           issued to DEV... (whole disks) from now on
#   rq_trace_stop FILE      stop recording; the trace goes to FILE; prints the
#                           number of events the buffer lost (0 when none)
#   rq_partial FSEC FILE... the write requests in FILE...: prints
#       "bytes=B strict=P run=R requests=N runs=M max_kib=K"
#     B  bytes written (requests whose rwbs has a W and whose length is not 0:
#        flushes and zero-length requests are left out; discards have no W)
#     P  bytes in requests that do not cover whole stripes of FSEC sectors:
#        a request covers whole stripes when its first sector and the sector
#        after its last are both multiples of FSEC, counted from the start of
#        the disk it was issued to
#     R  the same over runs: a run is a series of write requests to one disk,
#        each starting at the sector where the one before it (the previous
#        write request to that disk, in issue order) ended, with no other write
#        request to that disk between them; a run is cut after each request
#        that ends on a stripe boundary, and a piece of it (one or more
#        requests back to back) covers whole stripes when it starts on a
#        stripe boundary too; the pieces that do not are counted (so a request
#        that covers whole stripes by itself counts as covered in R as well);
#        each file is read on its own
#     N, M  requests and runs; K  the largest request, KiB
RQT=/sys/kernel/tracing

rq_trace_start() {
	local d b mm f=""
	mountpoint -q "$RQT" || mount -t tracefs nodev "$RQT" || return 1
	echo 0 >"$RQT/events/block/block_rq_issue/enable"
	echo 32768 >"$RQT/buffer_size_kb"
	for d in "$@"; do
		b=$(basename "$(readlink -f "$d")")
		IFS=: read -r -a mm <"/sys/class/block/$b/dev"
		f="$f${f:+ || }dev == $(((mm[0] << 20) | mm[1]))"
	done
	echo "$f" >"$RQT/events/block/block_rq_issue/filter" || return 1
	echo >"$RQT/trace"
	echo 1 >"$RQT/events/block/block_rq_issue/enable"
}

rq_trace_stop() {
	echo 0 >"$RQT/events/block/block_rq_issue/enable"
	cat "$RQT/trace" >"$1"
	# "# entries-in-buffer/entries-written: 1234/1234   #P:2"
	sed -n 's|^# entries-in-buffer/entries-written: \([0-9]*\)/\([0-9]*\).*|\1 \2|p' "$1" |
		awk '{ print $2 - $1 } END { if (!NR) print "?" }'
}

# a line: "fio-123 [001] ..... 12.34: block_rq_issue: 254,16 W 1048576 () 6144 + 2048 [fio]"
# (newer kernels add ioprio fields before the command): the device is the
# token after "block_rq_issue:", then rwbs; the sector and the length are
# the tokens either side of the "+"
rq_partial() {
	local f=$1
	shift
	awk -v f="$f" '
	function close_run(d) {
		if (d in gs) { runs++; if (re[d] > gs[d]) rp += (re[d] - gs[d]) * 512 }
		delete gs[d]; delete re[d]
	}
	FNR == 1 { for (d in gs) close_run(d) }
	/block_rq_issue:/ {
		for (i = 1; i <= NF; i++) if ($i == "block_rq_issue:") break
		dev = $(i + 1); rwbs = $(i + 2)
		if (rwbs !~ /W/) next
		s = -1
		for (j = i + 3; j < NF; j++) if ($j == "+") { s = $(j - 1); n = $(j + 1); break }
		if (s < 0 || n + 0 == 0) next
		s += 0; n += 0
		nrq++; bytes += n * 512
		if (n > mx) mx = n
		if (s % f || (s + n) % f) sp += n * 512
		if (!((dev in re) && re[dev] == s)) { close_run(dev); gs[dev] = s }
		re[dev] = s + n
		# a piece ends on a stripe boundary: whole stripes if it started on one
		if ((s + n) % f == 0) { if (gs[dev] % f) rp += (s + n - gs[dev]) * 512; gs[dev] = s + n }
	}
	END {
		for (d in gs) close_run(d)
		printf "bytes=%d strict=%d run=%d requests=%d runs=%d max_kib=%d\n", bytes, sp, rp, nrq, runs, mx / 2
	}' "$@"
}
