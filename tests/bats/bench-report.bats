#!/usr/bin/env bats
# bench/report.py on made-up raw outputs (issue 21): one code version per
# report, figures paired by repetition within a boot, bimodal sets as modes,
# part B's JSON read when present and "not measured" when not.

load test_helper

setup() {
	RAW=$BATS_TEST_TMPDIR/raw
	OUT=$BATS_TEST_TMPDIR/out
	mkdir -p "$RAW"
}

# rmw_out NAME COMMIT SP_RD DEF_RD... : a raw rmw boot of case raid5, one
# stripefiles repetition per SP_RD/DEF_RD pair (sectors read per 1000 written),
# sp 1000 ms, def 2000 ms
rmw_out() {
	local name=$1 commit=$2 rep=0
	shift 2
	{
		echo "CASE=raid5"
		while [ $# -gt 1 ]; do
			rep=$((rep + 1))
			echo "R case=raid5 wl=stripefiles layout=sp rep=$rep bytes=10485760 ms=1000 mem_rd_ios=1 mem_rd_sec=$1 mem_wr_ios=1 mem_wr_sec=2000 top_rd_ios=0 top_rd_sec=0 top_wr_sec=1000"
			echo "R case=raid5 wl=stripefiles layout=def rep=$rep bytes=10485760 ms=2000 mem_rd_ios=1 mem_rd_sec=$2 mem_wr_ios=1 mem_wr_sec=2000 top_rd_ios=0 top_rd_sec=0 top_wr_sec=1000"
			shift 2
		done
		echo "BOOT name=$name rc=0 wall_s=60 commit=$commit run=r1 time=2026-12-03T10:00:0${#name}Z time_end=2026-12-03T10:01:00Z load_start=1.00/2.00/3.00 load_end=4.00/5.00/6.00 nproc=2"
	} >"$RAW/$name.out"
}

@test "bench report: one commit only, the other outputs listed as left out" {
	rmw_out rmw-raid5 aaaa 100 300 110 290 90 310
	rmw_out rmw-raid6 bbbb 900 100 900 100 900 100
	BENCH_COMMIT=aaaa run -0 python3 "$TOP/bench/report.py" "$RAW" "$OUT"
	run -0 jq -r '.commit, (.left_out | map(.file) | join(",")), (.rmw | map(.case) | unique | join(","))' "$OUT/latest.json"
	assert_output $'aaaa\nrmw-raid6.out\nraid5'
	run -0 grep -c 'Left out (another code version; never pooled): rmw-raid6.out (bbbb)' "$OUT/latest.md"
	# the host load and commit of the boot used
	run -0 grep -F '| rmw-raid5 | aaaa | r1 |' "$OUT/latest.md"
	assert_output --partial '| 1.00/2.00/3.00 | 4.00/5.00/6.00 | 2 |'
	# without BENCH_COMMIT: the newest boot's commit (raid6's time sorts later)
	run -0 python3 "$TOP/bench/report.py" "$RAW" "$OUT"
	[ "$(jq -r .commit "$OUT/latest.json")" = bbbb ]
}

@test "bench report: paired by repetition, median and range, every repetition kept" {
	rmw_out rmw-raid5 aaaa 100 300 110 290 90 310
	run -0 python3 "$TOP/bench/report.py" "$RAW" "$OUT"
	j=$OUT/latest.json
	[ "$(jq -c '.rmw[0].sp.rmw_ratio' "$j")" = '{"n":3,"median":0.1,"min":0.09,"max":0.11}' ]
	[ "$(jq -c '.rmw[0].rmw_paired_diff | [.median, .min, .max]' "$j")" = '[-0.2,-0.22,-0.18]' ]
	# sp took 1 s, def 2 s for the same bytes: paired MiB/s ratio 2 every time
	[ "$(jq -c '.rmw[0].throughput_ratio | [.median, .values]' "$j")" = '[2,[2,2,2]]' ]
	[ "$(jq '.rmw[0].rmw_le_def' "$j")" = true ]
	[ "$(jq '.raw.R | length' "$j")" = 6 ]
	[ "$(jq -r '.raw.R[0].boot' "$j")" = rmw-raid5 ]
}

@test "bench report: a bimodal set is shown as its modes; near-zero noise is not" {
	rmw_out rmw-raid5 aaaa 1 528 2 1 1 540
	run -0 python3 "$TOP/bench/report.py" "$RAW" "$OUT"
	[ "$(jq -c '.rmw[0].def.rmw_modes | map([.n, .median])' "$OUT/latest.json")" = '[[1,0.001],[2,0.534]]' ]
	[ "$(jq -c '.rmw[0].sp.rmw_modes' "$OUT/latest.json")" = null ]
	run -0 grep -F '0.001 (1) / 0.534 [0.528-0.54] (2) **bimodal**' "$OUT/latest.md"
}

@test "bench report: sp reading more than def in every pair fails the stripefiles check" {
	rmw_out rmw-raid5 aaaa 300 100 310 110 290 90
	run -0 python3 "$TOP/bench/report.py" "$RAW" "$OUT"
	[ "$(jq '.stripefiles_pass.rmw_le_def' "$OUT/latest.json")" = false ]
	run -0 grep -F 'sp reads no more than def (median paired difference <= 0, or its range spans 0) on all: **NO**' "$OUT/latest.md"
}

@test "bench report: part B's JSON of the same commit is read; absent, 'not measured'" {
	rmw_out rmw-raid5 aaaa 100 300
	run -0 python3 "$TOP/bench/report.py" "$RAW" "$OUT"
	[ "$(grep -c 'Not measured in this run.' "$OUT/latest.md")" = 2 ]
	cat >"$RAW/prov-loop.json" <<-J
	{"commit": "aaaa", "time": "2026-12-03T09:00:00Z", "load_start": 1, "load_end": 2,
	 "reps": [{"jobs": 2, "storprov_s": 3, "serial_s": 6}, {"jobs": 2, "storprov_s": 4, "serial_s": 5}]}
	J
	cat >"$RAW/plan-scale.json" <<-J
	{"commit": "zzzz", "time": "2026-12-03T09:00:00Z", "reps": [{"n": 12, "wall_s": 1, "user_s": 0.5, "sys_s": 0.2}]}
	J
	BENCH_COMMIT=aaaa run -0 python3 "$TOP/bench/report.py" "$RAW" "$OUT"
	[ "$(jq -c '.prov_host[0].storprov_over_serial["2"] | [.n, .min, .max]' "$OUT/latest.json")" = '[2,0.5,0.8]' ]
	# another commit's plan scale is left out, not shown
	[ "$(jq -r '.left_out | map(.file) | join(",")' "$OUT/latest.json")" = plan-scale.json ]
	[ "$(jq -r '.plan_scale // "none"' "$OUT/latest.json")" = none ]
}

@test "bench report: the host loop runs against the parallel script go to prov_host storprov_over_parallel and latest.md (issue 43)" {
	rmw_out rmw-raid5 aaaa 100 300
	cat >"$RAW/prov-loop.json" <<-J
	{"commit": "aaaa", "time": "2026-12-03T09:00:00Z", "load_start": 1, "load_end": 2,
	 "reps": [{"jobs": 8, "sp_s": 0.7, "script_s": 3.0, "ratio": 0.2333, "parallel_s": 0.8, "ratio_parallel": 0.875},
	          {"jobs": 8, "sp_s": 0.6, "script_s": 3.0, "ratio": 0.2, "parallel_s": 0.5, "ratio_parallel": 1.2}]}
	J
	BENCH_COMMIT=aaaa run -0 python3 "$TOP/bench/report.py" "$RAW" "$OUT"
	[ "$(jq -c '.prov_host[0].storprov_over_parallel["8"] | [.n, .min, .max]' "$OUT/latest.json")" = '[2,0.875,1.2]' ]
	[ "$(jq -c '.prov_host[0].storprov_over_serial["8"] | [.n, .min, .max]' "$OUT/latest.json")" = '[2,0.2,0.233]' ]
	run -0 grep -F 'storprov/parallel (xargs -P) 8:' "$OUT/latest.md"
	# an older run without the parallel script has no such key
	printf '{"commit": "aaaa", "time": "2026-12-03T09:00:00Z", "reps": [{"jobs": 2, "storprov_s": 3, "serial_s": 6}]}\n' >"$RAW/prov-loop.json"
	BENCH_COMMIT=aaaa run -0 python3 "$TOP/bench/report.py" "$RAW" "$OUT"
	[ "$(jq -r '.prov_host[0].storprov_over_parallel // "none"' "$OUT/latest.json")" = none ]
}

@test "bench report: the host scripts' short hash (and -dirty) is the boots' commit; another hash or a clean/dirty mix is not" {
	full=f28823a6c55bee065dc3ebf2593883d1d2636f55
	rmw_out rmw-raid5 "$full" 100 300
	printf '{"commit": "f28823a6c55b", "time": "2026-12-03T09:00:00Z", "reps": [{"n": 12, "wall_s": 1, "user_s": 0.5, "sys_s": 0.2}]}\n' >"$RAW/plan-scale.json"
	printf '{"commit": "f28823a6c55b-dirty", "time": "2026-12-03T09:00:00Z", "reps": []}\n' >"$RAW/prov-vm.json"
	printf '{"commit": "f28823a6c55c", "time": "2026-12-03T09:00:00Z", "reps": []}\n' >"$RAW/prov-loop.json"
	BENCH_COMMIT=$full run -0 python3 "$TOP/bench/report.py" "$RAW" "$OUT"
	[ "$(jq -r '.left_out | map(.file) | sort | join(",")' "$OUT/latest.json")" = prov-loop.json,prov-vm.json ]
	[ "$(jq -r '.plan_scale | length' "$OUT/latest.json")" -ge 1 ]
	# the same with the run's tree dirty: only the -dirty JSON joins it
	rmw_out rmw-raid5 "$full+dirty" 100 300
	BENCH_COMMIT=$full+dirty run -0 python3 "$TOP/bench/report.py" "$RAW" "$OUT"
	[ "$(jq -r '.left_out | map(.file) | sort | join(",")' "$OUT/latest.json")" = plan-scale.json,prov-loop.json ]
}

@test "bench report: the guest's provisioning pairs are grouped by disk state and --jobs, never pooled" {
	rmw_out rmw-raid5 aaaa 100 300
	cat >"$RAW/prov-vm.json" <<-J
	{"commit": "aaaa", "time": "2026-12-03T09:00:00Z", "reps": [
	 {"rep": 1, "jobs": 1, "disks": "reused", "ratio": 1.2}, {"rep": 2, "jobs": 1, "disks": "reused", "ratio": 1.4},
	 {"rep": 1, "jobs": 1, "disks": "fresh", "ratio": 0.6}, {"rep": 2, "jobs": 1, "disks": "fresh", "ratio": 0.8}]}
	J
	BENCH_COMMIT=aaaa run -0 python3 "$TOP/bench/report.py" "$RAW" "$OUT"
	[ "$(jq -c '.prov_host[0].storprov_over_serial | to_entries | map([.key, .value.n, .value.min, .value.max]) | sort' "$OUT/latest.json")" = '[["fresh 1",2,0.6,0.8],["reused 1",2,1.2,1.4]]' ]
}

@test "bench report: the partial-stripe boot's rows go to latest.json partial_stripe and a table in latest.md" {
	{
		echo "PS_SEED=42"
		echo "PS_LAYOUTS=1 2"
		echo "L1_DESC=XFS on one LUN (whole LUN); LUN = RAID5 12 x 256K (full stripe 2816K)"
		echo "L1_UPPER=xfs"
		echo "L1_FULL_K=2816"
		echo "L1_MEASURE=strict"
		echo "L1_SP_STRICT=0.00100"
		echo "L1_SP_RUN=0.00100"
		echo "L1_DEF_STRICT=0.90000"
		echo "L1_DEF_RUN=0.20000"
		echo "L1_SP_D_TRACE=bytes=1000 strict=1 run=1 requests=10 runs=2 max_kib=2816"
		echo "L1_SP_B_TRACE=bytes=1000 strict=1 run=1 requests=10 runs=2 max_kib=2816"
		echo "L2_DESC=md RAID0 over 2 LUNs; LUN = RAID6 10 x 1024K (full stripe 8192K)"
		echo "L2_FULL_K=8192"
		echo "L2_MEASURE=run"
		echo "L2_SP_STRICT=1.00000"
		echo "L2_SP_RUN=0.03000"
		echo "L2_DEF_STRICT=1.00000"
		echo "L2_DEF_RUN=0.50000"
		echo "L2_SP_WARN_LUN_REQUEST_SIZE=2"
		echo "BOOT name=partial-stripe rc=0 wall_s=60 commit=aaaa run=r1 time=2026-12-03T10:00:00Z time_end=2026-12-03T10:01:00Z load_start=1.00/2.00/3.00 load_end=4.00/5.00/6.00 nproc=2"
	} >"$RAW/partial-stripe.out"
	BENCH_COMMIT=aaaa run -0 python3 "$TOP/bench/report.py" "$RAW" "$OUT"
	run -0 jq -c '.partial_stripe | map([.full_stripe_bytes, .measure, .sp_fraction, .naive_fraction, .goal_le_1pct, .sp_warned_lun_request_size])' "$OUT/latest.json"
	assert_output '[[2883584,"strict",0.001,0.9,true,false],[8388608,"run",0.03,0.5,false,true]]'
	run -0 jq -r '.partial_stripe[0].case' "$OUT/latest.json"
	assert_output 'seed 42 layout 1: XFS on one LUN (whole LUN); LUN = RAID5 12 x 256K (full stripe 2816K)'
	run -0 grep -c '^| seed 42 layout 2: .* | 8192 KiB | run | 3.00 % | 50.00 % |.*(warned lun-request-size) | \*\*NO\*\* |$' "$OUT/latest.md"
}

@test "bench report: the seek boot's rows and ratios go to latest.json seek_inspection and a table in latest.md" {
	{
		echo "SEEK_N=8"
		echo "SEEK_GIB=4"
		echo "SEEK_CHECK_8MS_8READS_MS=70"
		# rep wipefs-0 wipefs-8 sp1-0 sp1-8 insp1-0 insp1-8 sp8-0 sp8-8 insp8-0 insp8-8
		for v in "1 100 500 3000 3800 200 1000 3100 5000 300 2500" "2 100 600 3000 4000 200 1000 3100 6000 300 3500"; do
			set -- $v
			echo "SEEK tool=wipefs disks=1 delay_ms=0 rep=$1 wall_ms=$2 rc=0"
			echo "SEEK tool=wipefs disks=1 delay_ms=8 rep=$1 wall_ms=$3 rc=0"
			echo "SEEK tool=blkid disks=1 delay_ms=8 rep=$1 wall_ms=300 rc=2"
			echo "SEEK tool=storprov bin=b disks=1 jobs=default delay_ms=0 rep=$1 wall_ms=$4 rc=0 insp_ms=$6 threads=0 max_concurrent=1"
			echo "SEEK tool=storprov bin=b disks=1 jobs=default delay_ms=8 rep=$1 wall_ms=$5 rc=0 insp_ms=$7 threads=0 max_concurrent=1"
			echo "SEEK tool=storprov bin=b disks=8 jobs=default delay_ms=0 rep=$1 wall_ms=$8 rc=0 insp_ms=${10} threads=2 max_concurrent=2"
			echo "SEEK tool=storprov bin=b disks=8 jobs=default delay_ms=8 rep=$1 wall_ms=$9 rc=0 insp_ms=${11} threads=2 max_concurrent=2"
		done
		echo "SEEK tool=storprov bin=b disks=8 jobs=8 delay_ms=8 rep=1 wall_ms=4000 rc=0 reqs=80 rd_kib=320 insp_ms=1000 threads=8 max_concurrent=8"
		echo "SEEK tool=storprov bin=b disks=8 jobs=8 delay_ms=8 rep=2 wall_ms=900 rc=1 insp_ms=NA threads=NA max_concurrent=NA"
		# the floor: the reads alone on 8 disks, 1500 and 2000 ms at 8 ms, 600 and 800 at 0 ms; a failed replay
		# (its read_ms NA) is left out
		echo "SEEK tool=replay disks=8 delay_ms=8 rep=1 wall_ms=1600 rc=0 reqs=80 rd_kib=320 read_ms=1500"
		echo "SEEK tool=replay disks=8 delay_ms=8 rep=2 wall_ms=2100 rc=0 reqs=80 rd_kib=320 read_ms=2000"
		echo "SEEK tool=replay disks=8 delay_ms=0 rep=1 wall_ms=700 rc=0 reqs=80 rd_kib=320 read_ms=600"
		echo "SEEK tool=replay disks=8 delay_ms=0 rep=2 wall_ms=900 rc=0 reqs=80 rd_kib=320 read_ms=800"
		echo "SEEK tool=replay disks=1 delay_ms=8 rep=1 wall_ms=90 rc=1 reqs=10 rd_kib=40 read_ms=NA"
		echo "BOOT name=seek rc=0 wall_s=60 commit=aaaa run=r1 time=2026-12-03T10:00:00Z time_end=2026-12-03T10:01:00Z load_start=1.00/2.00/3.00 load_end=4.00/5.00/6.00 nproc=2"
	} >"$RAW/seek.out"
	BENCH_COMMIT=aaaa run -0 python3 "$TOP/bench/report.py" "$RAW" "$OUT"
	j=$OUT/latest.json
	# added a disk: storprov 800 and 1000 ms against wipefs's 400 and 500, paired: 2 twice;
	# 8 disks' inspection over 1 disk's at 8 ms: 2.5 and 3.5
	run -0 jq -c '.seek_inspection[0] | [.disks, .delay_ms, (.derived.b | .storprov_over_wipefs_1disk.values, .n_over_1_inspection.median, .goal_over_wipefs_le_2, .goal_n_over_1_le_3)]' "$j"
	assert_output '[8,8,[2,2],3,true,true]'
	run -0 jq -c '.seek_inspection[0].rows | map(select(.jobs == 8)) | .[0] | [.reps, .failed, .wall_ms.median, .threads]' "$j"
	assert_output '[1,1,4000,[8]]'
	run -0 jq -c '.seek_inspection[0].added | map(select(.tool == "wipefs")) | .[0].added_ms | [.median, .min, .max, .n]' "$j"
	assert_output '[450,400,500,2]'
	run -0 grep -c '^| `storprov apply --dry-run` --jobs 8 (1 failed) | 8 | 10.0 (1) | - | 4.0 (1) | - | - |' "$OUT/latest.md"
	run -0 grep -F 'storprov: inspection of 8 disks at the default --jobs over 1 disk'"'"'s, at 8 ms: 3.0 [2.5-3.5] (2) (goal <= 3: yes)' "$OUT/latest.md"
	# the floor over storprov's 1-disk inspection (1000 ms at 8 ms, 200 at 0 ms), paired by repetition
	run -0 jq -c '.seek_inspection[0].derived.b | [.floor_n_over_1_inspection.values, .floor_n_over_1_inspection_0ms.values, .floor_1_over_1_inspection]' "$j"
	assert_output '[[1.5,2],[3,4],null]'
	run -0 jq -c '.seek_inspection[0].rows | map(select(.tool == "replay" and .disks == 1)) | .[0] | [.reps, .failed]' "$j"
	assert_output '[0,1]'
	run -0 grep -F 'The floor: the read requests of one dry run, replayed on 8 disks at once with nothing else (rangeread'"'"'s own time), over storprov'"'"'s inspection of 1 disk, at 8 ms: 1.75 [1.5-2.0] (2); at 0 ms 3.5 [3.0-4.0] (2)' "$OUT/latest.md"
	run -0 grep -c '^| the reads alone (rangeread: one dry run'"'"'s read requests, replayed) | 8 |' "$OUT/latest.md"
	# no seek boot: no key, no section
	rm "$RAW/seek.out"
	rmw_out rmw-raid5 aaaa 100 300
	BENCH_COMMIT=aaaa run -0 python3 "$TOP/bench/report.py" "$RAW" "$OUT"
	[ "$(jq '.seek_inspection // "none"' "$j")" = '"none"' ]
	run -1 grep -c 'disks that seek' "$OUT/latest.md"
}

@test "bench report: the writeback boot's LUNs without and with the cache go to latest.json loop_lun_writeback, never pooled (issue 43)" {
	{
		echo "WB_CACHE_MB=64"
		echo "WC_TABLE_wcsp=0 3139584 writecache s 9:125 253:256 512 8 high_watermark 50 low_watermark 45 max_age 4000 pause_writeback 0"
		echo "SP_START=6144"
		echo "WB_SP_START=2048"
		# per repetition: no cache sp, def; write-back sp, def (member sectors read per 1000 written)
		for v in "1 300 280 10 100" "2 320 300 20 120"; do
			set -- $v
			c="bytes=1048576 ms=1000 mem_rd_ios=1 mem_wr_ios=1 mem_wr_sec=1400 top_rd_ios=0 top_rd_sec=0 top_wr_sec=1000"
			w="drain_ms=$((2000 + 1000 * $1)) wc_dirty_at_sync=20480 wc_left=0 wc_writes=2000 wc_hits_uncommitted=500 wc_hits_committed=0 wc_around=0 wc_allocated=1500 wc_blocked=0"
			echo "R case=loop-lun wl=stripefiles-v layout=sp rep=$1 mem_rd_sec=$2 $c"
			echo "R case=loop-lun wl=stripefiles-v layout=def rep=$1 mem_rd_sec=$3 $c"
			echo "R case=loop-lun-wb wl=stripefiles-v layout=sp rep=$1 mem_rd_sec=$4 $c $w"
			echo "R case=loop-lun-wb wl=stripefiles-v layout=def rep=$1 mem_rd_sec=$5 $c $w"
		done
		echo "BOOT name=writeback rc=0 wall_s=60 commit=aaaa run=r1 time=2026-12-03T10:00:00Z time_end=2026-12-03T10:01:00Z load_start=1.00/2.00/3.00 load_end=4.00/5.00/6.00 nproc=2"
	} >"$RAW/writeback.out"
	BENCH_COMMIT=aaaa run -0 python3 "$TOP/bench/report.py" "$RAW" "$OUT"
	j=$OUT/latest.json
	[ "$(jq '.loop_lun_writeback[0].cache_mib' "$j")" = 64 ]
	# each LUN's own repetitions, paired with its own def
	run -0 jq -c '.loop_lun_writeback[0] | [.no_cache[0].sp.rmw_ratio, .no_cache[0].rmw_paired_diff.median, .writeback[0].sp.rmw_ratio, .writeback[0].rmw_paired_diff.median]' "$j"
	assert_output '[{"n":2,"median":0.31,"min":0.3,"max":0.32},0.02,{"n":2,"median":0.015,"min":0.01,"max":0.02},-0.095]'
	# the start sector from the cached LUN's own facts
	[ "$(jq '.loop_lun_writeback[0] | [.no_cache[0].sp.start_sector, .writeback[0].sp.start_sector]' -c "$j")" = '[6144,2048]' ]
	# until the array had it: 1 s + the drain (3 and 4 s); the cache's counters in 512-byte blocks
	run -0 jq -c '.loop_lun_writeback[0].writeback[0].sp | [.app_s.median, .to_array_s.min, .to_array_s.max, .cache.dirty_at_sync_mib.median, .cache.overwritten_in_cache_share.median]' "$j"
	assert_output '[1,4,5,10,0.25]'
	[ "$(jq '.loop_lun_writeback[0].no_cache[0].sp | [.to_array_s.median, .cache]' -c "$j")" = '[1,null]' ]
	run -0 grep -F '| stripefiles | sp | 0.31 [0.3-0.32] (2) | 1.0 [1.0-1.0] (2) | 0.015 [0.01-0.02] (2) | 1.0 [1.0-1.0] (2) | 4.5 [4.0-5.0] (2) |' "$OUT/latest.md"
	# a boot without the cached LUN's lines: no key
	sed -i '/case=loop-lun-wb/d' "$RAW/writeback.out"
	BENCH_COMMIT=aaaa run -0 python3 "$TOP/bench/report.py" "$RAW" "$OUT"
	[ "$(jq '.loop_lun_writeback // "none"' "$j")" = '"none"' ]
}

@test "bench/pmd_summary.py: per variant, every shape's ratios and the O_DIRECT and buffered ranges; an output without M lines is an error" {
	cat >"$RAW/pmd.out" <<-'O'
	PMD_LUN=raid6 5x128K F=384K luns=3 part=256MiB
	PMD_UPPER=md5
	PMD_STATE_base=lun_msk=384 up_sc=2048 bitmap=+8
	M variant=base shape=d1x1 bs=768K ratio=0.0005 read=99 written=196624
	M variant=base shape=d4x4 bs=3072K ratio=0.0082 read=1617 written=196624
	M variant=base shape=b1x1 bs=768K ratio=0.2311 read=45449 written=196624
	M variant=lunsc256 shape=d1x1 bs=768K ratio=0.0011 read=225 written=196624
	M variant=base shape=d1x1 bs=768K ratio=0.0004 read=81 written=196624
	O
	run -0 python3 "$TOP/bench/pmd_summary.py" "$RAW/pmd.out"
	assert_line "   upper md5; LUNs raid6 5x128K F=384K luns=3 part=256MiB"
	assert_line "     d1x1  0.0005 0.0004"
	assert_line "     O_DIRECT 0.0004-0.0082 (n=3); buffered 0.2311-0.2311 (n=1)"
	assert_line "     O_DIRECT 0.0011-0.0011 (n=1); buffered -"
	printf 'PMD_UPPER=md5\nBOOT rc=124\n' >"$RAW/cut.out"
	run -1 python3 "$TOP/bench/pmd_summary.py" "$RAW/cut.out"
	assert_output --partial "no M lines"
}

@test "bench/guest/rangeread.c: reads every range of every device, and says what it could not read" {
	cc -O2 -Wall -Wextra -Werror -pthread -o "$BATS_TEST_TMPDIR/rangeread" "$TOP/bench/guest/rangeread.c"
	truncate -s 1M "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	printf '0 4096\n65536 131072\n1044480 4096\n' >"$BATS_TEST_TMPDIR/ranges"
	run -0 "$BATS_TEST_TMPDIR/rangeread" "$BATS_TEST_TMPDIR/ranges" "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	assert_output --regexp '^read_ms=[0-9]+ ranges=3 devices=2$'
	# a range past a device's end is a short read: exit 1, the device and the range named
	truncate -s 512K "$BATS_TEST_TMPDIR/b"
	run -1 "$BATS_TEST_TMPDIR/rangeread" "$BATS_TEST_TMPDIR/ranges" "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	assert_output --partial "$BATS_TEST_TMPDIR/b: 4096 bytes at 1044480: short read"
	# a list it cannot read, or no list at all: exit 2
	printf '0 4096\nten 20\n' >"$BATS_TEST_TMPDIR/bad"
	run -2 "$BATS_TEST_TMPDIR/rangeread" "$BATS_TEST_TMPDIR/bad" "$BATS_TEST_TMPDIR/a"
	assert_output --partial 'not "OFFSET LENGTH" lines'
	printf '0 0\n' >"$BATS_TEST_TMPDIR/bad"
	run -2 "$BATS_TEST_TMPDIR/rangeread" "$BATS_TEST_TMPDIR/bad" "$BATS_TEST_TMPDIR/a"
	assert_output --partial 'a range of 0 bytes'
	run -2 "$BATS_TEST_TMPDIR/rangeread" "$BATS_TEST_TMPDIR/ranges"
	assert_output --partial 'usage: rangeread RANGES DEV...'
}
