# SPDX-License-Identifier: GPL-2.0-only
# forest.gp - one job: each cell's change against the baseline in %, with
# its 95 % interval, a row per label and placement (the baseline's left
# out), a line at zero; coloured by compare's verdict, a change within one
# boot a side as an open square.  The caller sets the x tics (signed), the
# y tics (the rows, top down), the y2 tics (each change in words), the
# ranges, cats (the words of the categories present, 0 .. 4), the labels,
# marked (any row with an error anomaly, ringed) and subtitle; for rows
# whose interval is unbounded (infinite, or below -100 %), clipped at the
# axis end, clip_row, clip_from, clip_to and clip_cat (words: an arrow per
# end, in its row's colour; common.gp resets them).
#   call "forest.gp" DATAFILE INDEX NR_ROWS "TITLE" "XLABEL"
# Data block: header "x" "change" "lo" "hi" "cat" "ring", rows: row change lo hi cat ring.
array cat_title[5] = ["not significant", "regression", "improvement", \
		      "regression within one boot", "improvement within one boot"]
array cat_color[5] = ["#888888", "#d62728", "#2ca02c", "#d62728", "#2ca02c"]
array cat_pt[5] = [6, 7, 7, 4, 4]
set title ARG4.(subtitle eq "" ? "" : "\n".subtitle)
set xlabel ARG5
set ylabel ""
unset logscale
set xtics norotate
set y2tics nomirror scale 0
set grid xtics
set yzeroaxis lt 1 lc rgb "black" lw 1.5
set key below horizontal maxcols 3
do for [k=1:words(clip_row)] {
	set arrow k from real(word(clip_from, k)), int(word(clip_row, k)) \
		to real(word(clip_to, k)), int(word(clip_row, k)) head filled \
		size screen 0.015,25 lw 2 lc rgb cat_color[int(word(clip_cat, k))+1] front
}
plot for [w in cats] ARG1 index (int(ARG2)) using ($5 == int(w) ? $2 : NaN):1:3:4 \
	with xerrorbars lw 2 pt cat_pt[int(w)+1] ps 1.4 lc rgb cat_color[int(w)+1] \
	title cat_title[int(w)+1], \
     for [k=1:marked] ARG1 index (int(ARG2)) using ($6 > 0 ? $2 : NaN):1 \
	with points pt 6 ps 2.6 lc rgb "black" title "error anomaly"
unset y2tics
unset arrow
unset yzeroaxis
unset grid
set ytics autofreq
load plotdir."/common.gp"
