# SPDX-License-Identifier: GPL-2.0-only
# sweep.gp - a sweep job (epoll_ctl threads): throughput against the swept
# key with 95 % confidence bars, and the linear-scaling line of each series
# (its first point times x / x0), dashed.
#   call "sweep.gp" DATAFILE FIRST_INDEX NR_SERIES "TITLE" "YLABEL" "XLABEL"
# Data blocks: header "x" "<series>" "lo" "hi" "linear", rows: x mean lo hi linear.
set title ARG4
set ylabel ARG5
set xlabel ARG6
set xtics autofreq norotate
unset logscale
set autoscale x
plot for [i=0:ARG3-1] ARG1 index (ARG2+i) using 1:2:3:4 \
	with yerrorlines ls (i % 8 + 1) title columnheader(2), \
     for [i=0:ARG3-1] ARG1 index (ARG2+i) using 1:5 \
	with lines ls (i % 8 + 1) lw 1 dt 2 title (i == 0 ? "linear scaling" : "")
