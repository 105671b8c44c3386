set terminal pngcairo size 1500,500 font "sans,10" noenhanced
set output "/work/wt-bench/bench/results/latest.png"
set multiplot layout 1,3
set title "RMW ratio, full-stripe O_DIRECT writers (log; floor 1e-4)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set yrange [1e-4:2]
set xtics rotate by -20
set key top left
plot "/work/wt-bench/bench/results/.plot/rmw.dat" using 2:xtic(1) title "storprov" fc rgb "#22aa77", "" using 3 title "default" fc rgb "#cc5533"
unset logscale y
set autoscale y
set xtics norotate
set title "buffered stream + fsync, MiB/s (median)"
set style data histograms
set style fill solid 0.8 border -1
set yrange [0:*]
plot "/work/wt-bench/bench/results/.plot/sw.dat" using 2:xtic(1) notitle fc rgb "#5577aa"
set autoscale y
set title "storprov plan: instructions vs disks (log-log)"
set style data linespoints
set logscale xy
set autoscale
set xlabel "disks"
plot "/work/wt-bench/bench/results/.plot/scale.dat" using 1:2 title "callgrind Ir" lw 2, "" using 1:($1*1110185.750000) title "linear through N=12" dt 2
unset logscale
unset xlabel
unset multiplot
