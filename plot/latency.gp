# SPDX-License-Identifier: GPL-2.0-only
# latency.gp - a latency workload: the percentiles (p50 .. max, in µs, log
# scale), one series per label and placement.  The caller sets the y range
# and tics.
#   call "latency.gp" DATAFILE FIRST_INDEX NR_SERIES "TITLE"
# Data blocks: header "x" "<series>", rows: percentile-index value.
set title ARG4
set ylabel "latency (µs)"
set xlabel "percentile"
set xtics ("p50" 0, "p90" 1, "p99" 2, "p99.9" 3, "max" 4) norotate
unset logscale
set logscale y
set xrange [-0.3:4.3]
plot for [i=0:ARG3-1] ARG1 index (ARG2+i) using 1:2 \
	with linespoints ls (i % 8 + 1) title columnheader(2)
unset logscale y
