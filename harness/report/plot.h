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
 * it.  Returns 0, -1 on an error, -2 when gnuplot is not on PATH or out
 * does not end in .png or .svg.
 */
int pb_plot_write(const struct pb_cmp *c, const char *out, char *err, size_t len);

#endif
