set terminal pngcairo size 1400,1000 font "sans,9" noenhanced
set output "bench/results/writeback/cache256/latest.png"
set multiplot layout 2,2
set bmargin 7
set title "RMW ratio per layout and workload"
unset xtics
unset ytics
unset border
set label 1 "not measured in this run" at graph 0.5, graph 0.5 center
plot [0:1][0:1] NaN notitle
unset label 1
set border
set xtics
set ytics
set title "throughput storprov / default, paired by repetition (lines 1 and 0.95)"
unset xtics
unset ytics
unset border
set label 1 "not measured in this run" at graph 0.5, graph 0.5 center
plot [0:1][0:1] NaN notitle
unset label 1
set border
set xtics
set ytics
set title "provisioning wall time storprov / serial script, paired"
unset xtics
unset ytics
unset border
set label 1 "not measured in this run" at graph 0.5, graph 0.5 center
plot [0:1][0:1] NaN notitle
unset label 1
set border
set xtics
set ytics
set title "storprov plan: time vs LUNs (log-log)"
unset xtics
unset ytics
unset border
set label 1 "not measured in this run" at graph 0.5, graph 0.5 center
plot [0:1][0:1] NaN notitle
unset label 1
set border
set xtics
set ytics
unset multiplot
