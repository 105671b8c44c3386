set terminal pngcairo size 2240,1000 font "sans,9" noenhanced
set output "bench/results/latest.png"
set multiplot layout 2,2
set bmargin 7
set title "RMW ratio per layout and workload (each repetition; large mark = median; floor 1e-4)"
set logscale y
set yrange [5e-5:3]
set xrange [-0.6:40]
set xtics ("loop-lun direct" 0, "loop-lun direct-ext" 1, "loop-lun stripefiles" 2, "loop-lun streams" 3, "lvm-raid6 direct" 4, "lvm-raid6 direct-ext" 5, "lvm-raid6 stripefiles" 6, "lvm-raid6 streams" 7, "part-raid5 direct" 8, "part-raid5 direct-ext" 9, "part-raid5 stripefiles" 10, "part-raid5 streams" 11, "raid5 direct" 12, "raid5 direct-ext" 13, "raid5 stripefiles" 14, "raid5 streams" 15, "raid6 direct" 16, "raid6 direct-ext" 17, "raid6 stripefiles" 18, "raid6 streams" 19, "loop-lun stripefiles 1d sp" 20, "loop-lun stripefiles 1d sp-noswalloc" 21, "loop-lun direct 1d sp" 22, "loop-lun direct 1d sp-noswalloc" 23, "lvm-raid6 stripefiles 1d sp" 24, "lvm-raid6 stripefiles 1d sp-noswalloc" 25, "lvm-raid6 direct 1d sp" 26, "lvm-raid6 direct 1d sp-noswalloc" 27, "part-raid5 stripefiles 1d sp" 28, "part-raid5 stripefiles 1d sp-noswalloc" 29, "part-raid5 direct 1d sp" 30, "part-raid5 direct 1d sp-noswalloc" 31, "raid5 stripefiles 1d sp" 32, "raid5 stripefiles 1d sp-noswalloc" 33, "raid5 direct 1d sp" 34, "raid5 direct 1d sp-noswalloc" 35, "raid6 stripefiles 1d sp" 36, "raid6 stripefiles 1d sp-noswalloc" 37, "raid6 direct 1d sp" 38, "raid6 direct 1d sp-noswalloc" 39) rotate by -35 font ",7"
set key top left
plot "bench/results/.plot/rmw.dat" index 0 with points pt 7 ps 0.6 lc rgb "#1f5fa8" title "storprov (or 1d variant)", "" index 1 with points pt 5 ps 1.6 lc rgb "#1f5fa8" notitle, "" index 2 with points pt 6 ps 0.6 lc rgb "#c0392b" title "default", "" index 3 with points pt 4 ps 1.6 lc rgb "#c0392b" notitle
unset logscale y
set autoscale
set title "throughput storprov / default, paired by repetition (lines 1 and 0.95)"
set xrange [-0.6:40]
set yrange [*:*]
set xtics ("loop-lun direct" 0, "loop-lun direct-ext" 1, "loop-lun stripefiles" 2, "loop-lun streams" 3, "lvm-raid6 direct" 4, "lvm-raid6 direct-ext" 5, "lvm-raid6 stripefiles" 6, "lvm-raid6 streams" 7, "part-raid5 direct" 8, "part-raid5 direct-ext" 9, "part-raid5 stripefiles" 10, "part-raid5 streams" 11, "raid5 direct" 12, "raid5 direct-ext" 13, "raid5 stripefiles" 14, "raid5 streams" 15, "raid6 direct" 16, "raid6 direct-ext" 17, "raid6 stripefiles" 18, "raid6 streams" 19, "loop-lun stripefiles 1d sp" 20, "loop-lun stripefiles 1d sp-noswalloc" 21, "loop-lun direct 1d sp" 22, "loop-lun direct 1d sp-noswalloc" 23, "lvm-raid6 stripefiles 1d sp" 24, "lvm-raid6 stripefiles 1d sp-noswalloc" 25, "lvm-raid6 direct 1d sp" 26, "lvm-raid6 direct 1d sp-noswalloc" 27, "part-raid5 stripefiles 1d sp" 28, "part-raid5 stripefiles 1d sp-noswalloc" 29, "part-raid5 direct 1d sp" 30, "part-raid5 direct 1d sp-noswalloc" 31, "raid5 stripefiles 1d sp" 32, "raid5 stripefiles 1d sp-noswalloc" 33, "raid5 direct 1d sp" 34, "raid5 direct 1d sp-noswalloc" 35, "raid6 stripefiles 1d sp" 36, "raid6 stripefiles 1d sp-noswalloc" 37, "raid6 direct 1d sp" 38, "raid6 direct 1d sp-noswalloc" 39) rotate by -35 font ",7"
set arrow from -0.6,1 to 40,1 nohead dt 2 lc rgb "#555555"
set arrow from -0.6,0.95 to 40,0.95 nohead dt 2 lc rgb "#555555"
plot "bench/results/.plot/thr.dat" index 0 with points pt 7 ps 0.6 lc rgb "#1f5fa8" title "each repetition", "" index 1 with points pt 5 ps 1.6 lc rgb "#1f5fa8" title "median"
unset arrow
set autoscale
set title "provisioning wall time storprov / serial script, paired"
set xrange [-0.6:5]
set yrange [0:*]
set xtics ("VM many-luns" 0, "VM md-raid6-lvm" 1, "prov-loop 1" 2, "prov-loop 2" 3, "prov-loop 8" 4) rotate by -35 font ",7"
set arrow from -0.6,1 to 5,1 nohead dt 2 lc rgb "#555555"
plot "bench/results/.plot/prov.dat" index 0 with points pt 7 ps 0.6 lc rgb "#1f5fa8" title "each repetition", "" index 1 with points pt 5 ps 1.6 lc rgb "#1f5fa8" title "median"
unset arrow
set autoscale
set title "storprov plan: time vs LUNs (log-log)"
set logscale xy
set autoscale
set xtics auto norotate font ",9"
set key top left
plot "bench/results/.plot/scale.dat" index 0 with points pt 7 title "wall s", "" index 1 with points pt 6 title "CPU s (user+sys)", "" index 2 with points pt 2 title "sys s"
unset logscale
unset multiplot
