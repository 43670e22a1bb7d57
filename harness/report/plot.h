/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot.h - the comparison (report/compare.h) as pictures, through gnuplot.
 */
#ifndef PINBENCH_PLOT_H
#define PINBENCH_PLOT_H

#include <stddef.h>

#include "report/compare.h"

/*
 * Plot every table to out (.png or .svg), keeping out's .dat and .gp beside
 * it, under a caption of the kernels and machines.  Each cell is judged
 * against baseline (a group name; NULL: the first in order) as compare
 * judges it (pb_cmp_adjust, pb_cmp_eval): per job the means with each run
 * beside the forest of changes, coloured when significant; a sweep's
 * significant changes labelled with their %; cells with an anomaly of
 * severity error ringed.  Returns
 * 0, -1 on an error, -2 when gnuplot is not on PATH, out does not end in
 * .png or .svg, or baseline is not a group.
 */
int pb_plot_write(struct pb_cmp *c, const char *baseline, const char *out, char *err,
		  size_t len);

#endif
