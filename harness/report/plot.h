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

/*
 * A results history (report/history.h, analysed) to out (.png or .svg),
 * FILE.dat and FILE.gp beside it: a panel per job x placement, one under
 * another, the runs in history order on x (each kernel named at its
 * first), every value of each run as a dot (tonight's red), each run's
 * mean on a line, its change points as dashed lines with their size, and
 * floor[i] % (h->cells[i]'s noise floor; NAN or floor NULL: not known)
 * as a band either side of the mean of the earlier runs since the last
 * change point.  0, -1 on an error, -2 when gnuplot is not on PATH or out
 * does not end in .png or .svg.
 */
struct pb_history;
int pb_plot_history(const struct pb_history *h, const double *floor, const char *out,
		    char *err, size_t len);

#endif
