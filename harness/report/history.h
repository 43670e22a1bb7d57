/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history.h - what a results history says over many nights (for
 * `pinbench nightly`): each run's mean per job x placement, the runs in
 * history order, the between-run noise learnt from the runs of one kernel
 * (A/A pairs) and the change points of every cell's series.
 */
#ifndef PINBENCH_HISTORY_H
#define PINBENCH_HISTORY_H

#include <stdbool.h>
#include <jansson.h>

#include "report/changepoint.h"

#define PB_HISTORY_MAX_STEPS	8
#define PB_HISTORY_BAD_CV	3	/* a kernel's CV this many times the median: left out */

/*
 * A run: one result file, or one round of it when its job entries carry
 * "round" (1-based).
 */
struct pb_history_run {
	char		label[128];
	char		started[40];	/* ISO-8601 UTC, "" unknown */
	char		*file;
	int		round;		/* 0: the file has no rounds */
	bool		judged;		/* the run being judged: not part of the noise */
};

struct pb_history_point {
	int	run;		/* index into runs */
	double	v;		/* the run's mean */
	double	*val;		/* the run's values (repeats in its summary), for the plot */
	int	nv;
};

struct pb_history_step {
	int	at;		/* the first point after the step (index into the series) */
	char	label[128];	/* the kernel of that point */
	double	change;		/* percent: median of the runs after the step against before */
	double	p;
	bool	regression;	/* by the metric's direction */
};

/* One job x placement over the history. */
struct pb_history_cell {
	char			job[128];
	char			placement[32];
	char			metric[64];	/* "rtt", "" unknown */
	char			unit[16];
	bool			higher;		/* higher is better */
	struct pb_history_point	*pt;		/* in history order after pb_history_analyse() */
	int			n, cap;
	/* pb_history_analyse(): */
	double			cv;		/* pooled between-run CV (a fraction), NAN: no A/A */
	int			aa_runs;	/* the runs it rests on */
	int			aa_kernels;	/* the kernels with two runs or more */
	int			aa_dropped;	/* kernels left out: CV > 3 x the median */
	struct pb_history_step	steps[PB_HISTORY_MAX_STEPS];
	int			nr_steps;	/* found (steps holds the first PB_HISTORY_MAX_STEPS) */
};

struct pb_history {
	struct pb_history_run	*runs;
	int			nr_runs, cap_runs;
	struct pb_history_cell	*cells;
	int			nr_cells, cap_cells;
	struct pb_cp_opts	cp;		/* the change-point settings used */
};

/*
 * Add a result file (already read and checked as a pinbench result): its
 * runs and every ok job's mean (the summary's, else that of its metric
 * repeats).  judged: the file is the run being judged (tonight's): it is
 * in the series, not in the noise it is judged by.  0, or -1 when out of
 * memory.
 */
int pb_history_add(struct pb_history *h, const char *path, json_t *root, bool judged);
/*
 * Put the runs in history order (kernels as pb_version_cmp() orders them,
 * the runs of one kernel by start time, then file and round), learn each
 * cell's between-run noise from the kernels with two runs or more, judged
 * runs left out, and with three such kernels or more, one whose CV is
 * over PB_HISTORY_BAD_CV times their median too (the CV
 * of their run means, pooled over kernels: the root mean square weighted
 * by runs - 1) and find its change points.  0, or -1 when out of memory.
 */
int pb_history_analyse(struct pb_history *h);
struct pb_history_cell *pb_history_find(struct pb_history *h, const char *job, const char *placement);
void pb_history_free(struct pb_history *h);

/*
 * The variation between boots of table t's job x placement from the A/A
 * history (ctx: an analysed struct pb_history): each night is a boot of
 * its kernel, so the pooled between-run CV of the kernels run twice or
 * more is the between-boot sd (about, on the log scale), with the runs
 * minus the kernels as its df.  A report/between.h pb_between_fn: 1 with
 * the figure, 0 when the history has none for the cell.
 */
struct pb_table;
struct pb_between;
int pb_history_between(void *ctx, const struct pb_table *t, struct pb_between *b);

#endif
