/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bisect.h - `pinbench bisect-check`'s verdict for `git bisect run`: is a
 * new run like the good results, like the bad ones, or can it not tell?
 * Each cell (job x placement) is judged with compare's own verdicts
 * (pb_cmp_eval: the gap bad against good, then the new run against each
 * side); the cells' calls are combined by a pure rule (pb_bisect_rule).
 */
#ifndef PINBENCH_BISECT_H
#define PINBENCH_BISECT_H

#include <stdbool.h>
#include <stddef.h>

#include "report/compare.h"

/* The exit codes git bisect run reads. */
#define PB_BISECT_GOOD	0
#define PB_BISECT_BAD	1
#define PB_BISECT_SKIP	125

/* What one cell says. */
enum pb_bisect_call {
	PB_CALL_GOOD,		/* differs from bad, towards good, and not from good */
	PB_CALL_BAD,		/* differs from good, towards bad, and not from bad */
	PB_CALL_NO_GAP,		/* good and bad do not differ resolvably: not judged */
	PB_CALL_FAILED,		/* the new run has no values here: its job failed */
	PB_CALL_FINDING,	/* an error-severity finding on a side */
	PB_CALL_BETWEEN,	/* differs from both, between them */
	PB_CALL_BOTH,		/* differs from both, outside the range they span */
	PB_CALL_NEITHER,	/* differs from neither: the data resolves neither */
	PB_CALL_OUTSIDE,	/* differs from one side only, away from the other */
};

struct pb_bisect_cell {
	char		name[224];	/* "pingpong rtt same-cpu" */
	bool		failed;		/* the new run's cell has no values */
	char		status[48];	/* ... and its status ("failed") */
	char		finding[96];	/* "noisy-neighbor in new"; "" when none */
	struct pb_eval	gap;		/* bad against good */
	struct pb_eval	good;		/* new against good */
	struct pb_eval	bad;		/* new against bad */
};

/* One cell's call: a pure function of its evaluations. */
enum pb_bisect_call pb_bisect_call(const struct pb_bisect_cell *c);

struct pb_bisect_verdict {
	int			exit;	/* PB_BISECT_GOOD, _BAD or _SKIP */
	int			cell;	/* the cell that decided, -1 when none */
	enum pb_bisect_call	call;	/* its call */
	int			judged;	/* cells whose gap resolves */
};

/*
 * The cells combined, in this order: a failed job anywhere: skip; no cell
 * whose gap resolves: skip; any cell bad: bad; every cell whose gap
 * resolves good: good; else skip, decided by the first such cell that is
 * not good.  n 0: skip, cell -1.
 */
void pb_bisect_rule(const struct pb_bisect_cell *v, int n, struct pb_bisect_verdict *r);

/* The verdict in one line: "bad: +11.8 % [+9.1, +14.5] from good, ... (cell; level)". */
void pb_bisect_words(const struct pb_bisect_cell *v, const struct pb_bisect_verdict *r,
		     char *buf, size_t len);

/*
 * The cells of c, every table with values in groups good and bad and a
 * cell of group new, evaluated (min_change: percent; each table's between
 * asked before): a new array in *out (free() it), how many, -1 when no memory.
 */
int pb_bisect_cells(const struct pb_cmp *c, int good, int bad, int new_group,
		    double min_change, struct pb_bisect_cell **out);

#endif
