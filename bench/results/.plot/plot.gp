set terminal pngcairo size 1000,500 font "sans,10"
set output "/work/wt-bench/bench/results/latest.png"
set multiplot layout 1,2
set title "RMW ratio, full-stripe O_DIRECT writers (log; floor 1e-4)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set yrange [1e-4:2]
set xtics rotate by -20
set key top left
plot "/work/wt-bench/bench/results/.plot/rmw.dat" using 2:xtic(1) title "storprov" lc rgb "#2a7", "" using 3 title "default" lc rgb "#c53"
unset logscale y
set autoscale y
set xtics norotate
set title "buffered stream + fsync, MiB/s (median)"
set style data histograms
set style fill solid 0.8 border -1
set yrange [0:*]
plot "/work/wt-bench/bench/results/.plot/sw.dat" using 2:xtic(1) notitle lc rgb "#57a"
set autoscale y
unset multiplot
