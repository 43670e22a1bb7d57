/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * derived.h - figures derived from one window's counts (derived.c).
 */
#ifndef PINBENCH_DERIVED_H
#define PINBENCH_DERIVED_H

#include <jansson.h>

#include "sys/counters.h"

/*
 * Derived figures (derived.c) from one window's counts (an instance, a
 * role or the total), the window's op count and the nominal clock in MHz
 * (0: unknown): IPC (cycles and instructions of one group read),
 * cycles/op, instructions/op, context-switches/op, wakeups/op (from
 * sched:sched_waking, else sched:sched_wakeup),
 * cpu-migrations/op, page-faults/op, task-clock/op (ns), GHz (cycles /
 * task-clock), GHz-ref (cycles / ref-cycles x nominal).  A figure with a
 * missing input is omitted, never 0.
 */
#define PB_MAX_FIGURES	16

struct pb_figure {
	char	name[40];		/* "context-switches/op" */
	double	value;
	char	unit[8];		/* "", "ns", "GHz" */
};

struct pb_figures {
	struct pb_figure	v[PB_MAX_FIGURES];
	int			nr;
};

void pb_derive(const struct pb_evlist *l, const struct pb_count *c, double ops,
	       double nominal_mhz, struct pb_figures *f);
/* {"IPC": 1.23, "cycles/op": 456.0, ...} */
json_t *pb_figures_json(const struct pb_figures *f);

#endif
