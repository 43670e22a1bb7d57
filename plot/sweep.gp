# SPDX-License-Identifier: GPL-2.0-only
# sweep.gp - a sweep job (epoll_ctl threads): throughput against the swept
# key with 95 % confidence bars, and the linear-scaling line (the first
# point times x / x0, dashed) of the series listed in linear (the
# baseline's).  The caller sets the x tics (the swept values), the ranges,
# the y format, the labels (as in means.gp), marked, linear and subtitle,
# and for a wide sweep log-log scales (ybot: where a bar reaching 0 ends).
#   call "sweep.gp" DATAFILE FIRST_INDEX NR_SERIES "TITLE" "YLABEL" "XLABEL"
# A bar whose interval is unbounded above (hi 1e300) stops at ybar, the
# top of the data, under an arrow.
# Data blocks: header "x" "<series>" "lo" "hi" "linear", rows: x mean lo hi linear.
set title ARG4.(subtitle eq "" ? "" : "\n".subtitle)
set ylabel ARG5
set xlabel ARG6
plot for [i=0:ARG3-1] ARG1 index (ARG2+i) using 1:2:($3 > ybot ? $3 : ybot):($4 > ybar ? ybar : $4) \
	with yerrorlines ls (i % 8 + 1) title columnheader(2), \
     for [w in linear] ARG1 index (ARG2+int(w)) using 1:5 \
	with lines ls (int(w) % 8 + 1) lw 1 dt 2 title (w eq word(linear, 1) ? "linear" : ""), \
     for [i=0:ARG3-1] ARG1 index (ARG2+i) using 1:($4 > ybar ? ybar : NaN):("↑") \
	with labels offset 0,0.5 tc ls (i % 8 + 1) notitle, \
     for [k=1:marked] keyentry with points pt 6 ps 2 lc rgb "black" title "error anomaly"
unset logscale
