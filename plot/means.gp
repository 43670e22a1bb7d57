# SPDX-License-Identifier: GPL-2.0-only
# means.gp - one job: the mean per label with its 95 % confidence interval,
# as points with bars (no line joins two labels), one series per placement,
# side by side at each label.  The caller sets the x tics (one per label),
# the x and y ranges, the y format, the labels (a significant change's %
# above its bar, a ring round an anomaly-marked cell), marked (any ring)
# and subtitle.
#   call "means.gp" DATAFILE FIRST_INDEX NR_SERIES "TITLE" "YLABEL"
# A bar whose interval is unbounded above (hi 1e300) stops at ybar, the
# top of the data, under an arrow.
# Data blocks: header "x" "<placement>" "lo" "hi", rows: x mean lo hi.
set title ARG4.(subtitle eq "" ? "" : "\n".subtitle)
set ylabel ARG5
set xlabel ""
unset logscale
plot for [i=0:ARG3-1] ARG1 index (ARG2+i) using 1:2:($3 > ybot ? $3 : ybot):($4 > ybar ? ybar : $4) \
	with yerrorbars ls (i % 8 + 1) title columnheader(2), \
     for [i=0:ARG3-1] ARG1 index (ARG2+i) using 1:($4 > ybar ? ybar : NaN):("↑") \
	with labels offset 0,0.5 tc ls (i % 8 + 1) notitle, \
     for [k=1:marked] keyentry with points pt 6 ps 2 lc rgb "black" title "anomaly flagged"
