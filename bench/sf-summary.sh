#!/bin/bash
# bench/sf-summary.sh OUT...: per workload and variant, the member-read ratio
# (member sectors read / sectors written to the file system) of each
# repetition and the sectors written, from bench/guest/rmw.sh raw outputs.
for f in "$@"; do
echo "== $f"
grep -E '^R |^SF_MKFS' "$f" | awk '/^SF_/{if(!seen[$0]++)print; next} {for(i=1;i<=NF;i++){split($i,a,"="); v[a[1]]=a[2]} k=v["wl"]" "v["layout"]; r[k]=r[k] sprintf(" %.4f", v["mem_rd_sec"]/v["top_wr_sec"]); w[k]=w[k] " " v["top_wr_sec"]} END{for(k in r) print k ":" r[k] "   wr:" w[k]}' | sort
grep -E '^(BOOT|R .*die)' "$f" | cut -c1-200
done
