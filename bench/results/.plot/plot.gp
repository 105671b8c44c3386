set terminal pngcairo size 1500,500 font "sans,10" noenhanced
set output "bench/results/latest.png"
set multiplot layout 1,3
set title "RMW ratio, full-stripe O_DIRECT writers (log; floor 1e-4)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set yrange [1e-4:2]
set xtics rotate by -20
set key top left
plot "bench/results/.plot/rmw.dat" using 2:xtic(1) title "storprov, fresh fs", "" using 3 title "storprov, all reps", "" using 4 title "default, all reps"
unset logscale y
set autoscale y
set xtics norotate
set title "buffered stream + fsync, MiB/s (median)"
set style data histograms
set style fill solid 0.8 border -1
set yrange [0:*]
plot "bench/results/.plot/sw.dat" using 2:xtic(1) notitle fc rgb "#5577aa"
set autoscale y
set title "storprov plan: instructions vs disks (log-log)"
set style data linespoints
set logscale xy
set autoscale
set xlabel "disks"
plot "bench/results/.plot/scale.dat" using 1:2 title "callgrind Ir" lw 2, "" using 1:($1*690306.086667) title "linear through N=1200" dt 2
unset logscale
unset xlabel
unset multiplot
