# SPDX-License-Identifier: GPL-2.0-only
# means.gp - one job: the mean per label with its 95 % confidence interval,
# one series per placement.  The caller sets the x tics (one per label) and
# the x range.
#   call "means.gp" DATAFILE FIRST_INDEX NR_SERIES "TITLE" "YLABEL"
# Data blocks: header "x" "<placement>" "lo" "hi", rows: label-index mean lo hi.
set title ARG4
set ylabel ARG5
set xlabel ""
set xtics rotate by -30
unset logscale
plot for [i=0:ARG3-1] ARG1 index (ARG2+i) \
	using ($1 + 0.06 * (i - (ARG3 - 1) / 2.0)):2:3:4 \
	with yerrorlines ls (i % 8 + 1) title columnheader(2)
