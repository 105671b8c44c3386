set terminal pngcairo size 1792,1000 font "sans,9" noenhanced
set output "bench/results/latest.png"
set multiplot layout 2,2
set bmargin 7
set title "RMW ratio per layout and workload (each repetition; large mark = median; floor 1e-4)"
set logscale y
set yrange [5e-5:3]
set xrange [-0.6:32]
set xtics ("lvm-raid6 direct" 0, "lvm-raid6 direct-ext" 1, "lvm-raid6 stripefiles" 2, "lvm-raid6 streams" 3, "part-raid5 direct" 4, "part-raid5 direct-ext" 5, "part-raid5 stripefiles" 6, "part-raid5 streams" 7, "raid5 direct" 8, "raid5 direct-ext" 9, "raid5 stripefiles" 10, "raid5 streams" 11, "raid6 direct" 12, "raid6 direct-ext" 13, "raid6 stripefiles" 14, "raid6 streams" 15, "lvm-raid6 stripefiles 1d sp" 16, "lvm-raid6 stripefiles 1d sp-noswalloc" 17, "lvm-raid6 direct 1d sp" 18, "lvm-raid6 direct 1d sp-noswalloc" 19, "part-raid5 stripefiles 1d sp" 20, "part-raid5 stripefiles 1d sp-noswalloc" 21, "part-raid5 direct 1d sp" 22, "part-raid5 direct 1d sp-noswalloc" 23, "raid5 stripefiles 1d sp" 24, "raid5 stripefiles 1d sp-noswalloc" 25, "raid5 direct 1d sp" 26, "raid5 direct 1d sp-noswalloc" 27, "raid6 stripefiles 1d sp" 28, "raid6 stripefiles 1d sp-noswalloc" 29, "raid6 direct 1d sp" 30, "raid6 direct 1d sp-noswalloc" 31) rotate by -35 font ",7"
set key top left
plot "bench/results/.plot/rmw.dat" index 0 with points pt 7 ps 0.6 lc rgb "#1f5fa8" title "storprov (or 1d variant)", "" index 1 with points pt 5 ps 1.6 lc rgb "#1f5fa8" notitle, "" index 2 with points pt 6 ps 0.6 lc rgb "#c0392b" title "default", "" index 3 with points pt 4 ps 1.6 lc rgb "#c0392b" notitle
unset logscale y
set autoscale
set title "throughput storprov / default, paired by repetition (lines 1 and 0.95)"
set xrange [-0.6:32]
set yrange [*:*]
set xtics ("lvm-raid6 direct" 0, "lvm-raid6 direct-ext" 1, "lvm-raid6 stripefiles" 2, "lvm-raid6 streams" 3, "part-raid5 direct" 4, "part-raid5 direct-ext" 5, "part-raid5 stripefiles" 6, "part-raid5 streams" 7, "raid5 direct" 8, "raid5 direct-ext" 9, "raid5 stripefiles" 10, "raid5 streams" 11, "raid6 direct" 12, "raid6 direct-ext" 13, "raid6 stripefiles" 14, "raid6 streams" 15, "lvm-raid6 stripefiles 1d sp" 16, "lvm-raid6 stripefiles 1d sp-noswalloc" 17, "lvm-raid6 direct 1d sp" 18, "lvm-raid6 direct 1d sp-noswalloc" 19, "part-raid5 stripefiles 1d sp" 20, "part-raid5 stripefiles 1d sp-noswalloc" 21, "part-raid5 direct 1d sp" 22, "part-raid5 direct 1d sp-noswalloc" 23, "raid5 stripefiles 1d sp" 24, "raid5 stripefiles 1d sp-noswalloc" 25, "raid5 direct 1d sp" 26, "raid5 direct 1d sp-noswalloc" 27, "raid6 stripefiles 1d sp" 28, "raid6 stripefiles 1d sp-noswalloc" 29, "raid6 direct 1d sp" 30, "raid6 direct 1d sp-noswalloc" 31) rotate by -35 font ",7"
set arrow from -0.6,1 to 32,1 nohead dt 2 lc rgb "#555555"
set arrow from -0.6,0.95 to 32,0.95 nohead dt 2 lc rgb "#555555"
plot "bench/results/.plot/thr.dat" index 0 with points pt 7 ps 0.6 lc rgb "#1f5fa8" title "each repetition", "" index 1 with points pt 5 ps 1.6 lc rgb "#1f5fa8" title "median"
unset arrow
set autoscale
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
