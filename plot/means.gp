# SPDX-License-Identifier: GPL-2.0-only
# means.gp - one job: the mean per label with its 95 % confidence interval,
# as points with bars (no line joins two labels), and each run as a dot
# right of its bar, one series per placement, side by side at each label.
# The caller sets the x tics (one per label), the x and y ranges, the y
# format and tics (and the bottom margin for labels of several lines), logy
# (a log y axis), the labels (a ring round a cell
# with an error anomaly), marked (any ring) and subtitle.
#   call "means.gp" DATAFILE FIRST_INDEX NR_SERIES "TITLE" "YLABEL"
# A bar whose interval is unbounded above (hi 1e300) stops at ybar, the
# top of the data, under an arrow; one reaching 0 on a log axis at ybot.
# Data blocks, two per series: header "x" "<placement>" "lo" "hi", rows:
# x mean lo hi; then header "x" "runs", rows: x run-mean.
set title ARG4.(subtitle eq "" ? "" : "\n".subtitle)
set ylabel ARG5
set xlabel ""
unset logscale
if (logy) set logscale y
plot for [i=0:ARG3-1] ARG1 index (ARG2+2*i) using 1:2:($3 > ybot ? $3 : ybot):($4 > ybar ? ybar : $4) \
	with yerrorbars ls (i % 8 + 1) title columnheader(2), \
     for [i=0:ARG3-1] ARG1 index (ARG2+2*i+1) using 1:2 \
	with points ls (i % 8 + 1) pt 7 ps 0.45 notitle, \
     for [i=0:ARG3-1] ARG1 index (ARG2+2*i) using 1:($4 > ybar ? ybar : NaN):("↑") \
	with labels offset 0,0.5 tc ls (i % 8 + 1) notitle, \
     keyentry with points pt 7 ps 0.45 lc rgb "#555555" title "runs", \
     for [k=1:marked] keyentry with points pt 6 ps 2 lc rgb "black" title "error anomaly"
unset logscale
set bmargin
