# SPDX-License-Identifier: GPL-2.0-only
# common.gp - pinbench plot styles, loaded first by every generated .gp.
# Restyle here (for every plot) or in the generated .gp beside an image.
set grid ytics lc rgb "#dddddd"
set border 3
set tics nomirror
set key inside top left horizontal maxcols 3 samplen 1.5 spacing 1.1 width 1 noopaque
set style line 1 lc rgb "#1f77b4" lw 2 pt 7 ps 1.1
set style line 2 lc rgb "#d62728" lw 2 pt 5 ps 1.0
set style line 3 lc rgb "#2ca02c" lw 2 pt 9 ps 1.3
set style line 4 lc rgb "#9467bd" lw 2 pt 11 ps 1.3
set style line 5 lc rgb "#ff7f0e" lw 2 pt 13 ps 1.2
set style line 6 lc rgb "#8c564b" lw 2 pt 3 ps 1.1
set style line 7 lc rgb "#e377c2" lw 2 pt 1 ps 1.1
set style line 8 lc rgb "#7f7f7f" lw 2 pt 2 ps 1.1
set style increment user
set bars 1.5
# the panel sets these before each call; defaults for a template called alone
subtitle = ""
marked = 0
logy = 0
cats = ""
clip_row = ""
linear = ""
ybar = 1e300
ybot = -1e300
