/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * between.h - what is known of the variation between boots, for a verdict
 * on a side with one boot (issue "Verdicts that hold across boots").
 *
 * A kernel is replicated only by booting it again.  When a side of a
 * comparison has runs from one boot, the variation between boots is not
 * in its data: it comes from elsewhere, a noise profile that `pinbench
 * calibrate` wrote (report/noise.c) or nightly's A/A history
 * (report/history.c), or it is unknown and the verdict says so.  compare,
 * report and nightly ask for it per table (one job x placement) through
 * the callback below; whoever knows a source answers.
 */
#ifndef PINBENCH_BETWEEN_H
#define PINBENCH_BETWEEN_H

#include <stdbool.h>

struct pb_table;

struct pb_between {
	/*
	 * The standard deviation of ln(value) between boots (about the
	 * boot-to-boot CV), > 0; NAN when the source has no figure.
	 */
	double	sd;
	double	df;		/* its degrees of freedom */
	/*
	 * A between-invocation figure (one boot measured) standing in for
	 * the boot level: effects that only a boot changes (memory layout,
	 * address randomisation) are not in it, and the output says so.
	 */
	bool	stands_in;
	char	source[200];	/* "noise profile P (host class, date)", "nightly's A/A history (N nights)" */
};

/*
 * Fill *b for table t: 1 when a source has a figure, 0 when none is known
 * (b->sd NAN), -1 with the reason in b->source when a source exists but
 * must not be used (another host class, other keys, too old: said, never
 * silently used).
 */
typedef int (*pb_between_fn)(void *ctx, const struct pb_table *t, struct pb_between *b);

#endif
