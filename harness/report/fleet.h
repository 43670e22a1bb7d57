/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fleet.h - many hosts, one view: result files from many machines compared
 * class by class (a host class is a CPU model and topology, as
 * pb_cmp_class_of() says it), never two classes in one table, and the
 * fleet summary of what regressed in which class.  The engine of `pinbench
 * compare --by-class`; the loading and printing around it are cli's.
 */
#ifndef PINBENCH_FLEET_H
#define PINBENCH_FLEET_H

#include <stdbool.h>
#include <stdio.h>

#include "report/compare.h"

/* One host class of the fleet. */
struct pb_fleet_class {
	char	name[512];	/* pb_cmp_class_of() */
	char	hosts[512];	/* "a, b, c" */
	int	files;
	bool	compared;	/* false: note says why not */
	char	note[256];
	int	regressions;
	char	*cells;		/* the regressed cells, a line each (malloc'd), or NULL */
};

/*
 * After pb_cmp_report() on one class's comparison: its significant
 * regressions against the baseline (o->baseline, or each table's first
 * row) into k->regressions and k->cells, a line each: "job (placement):
 * group +5.20 % [+3.10, +7.30], q=0.003 against base".  0, or -1 (out of
 * memory).
 */
int pb_fleet_collect(const struct pb_cmp *c, const struct pb_cmp_opts *o,
		     struct pb_fleet_class *k);

/*
 * The fleet summary: per class its hosts, then the cells that regressed,
 * or that none did, or why it was not compared; Markdown list items (md)
 * or text.  Returns the number of regressions over all classes.
 */
int pb_fleet_summary(FILE *f, const struct pb_fleet_class *v, int nr, bool md);

#endif
