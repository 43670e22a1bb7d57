/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fold.h - folded stacks ("root;...;leaf COUNT", the form Brendan Gregg's
 * flame graph scripts read), bounded, and what their samples mean per op.
 */
#ifndef PINBENCH_FOLD_H
#define PINBENCH_FOLD_H

#include <stddef.h>
#include <stdint.h>

#define PB_FOLD_REST	"[other stacks]"	/* the remainder line's stack */
#define PB_FOLD_COVER	0.99			/* the share the kept stacks cover */

struct pb_fold_line {
	char		*stack;
	uint64_t	count;
};

struct pb_fold {
	struct pb_fold_line	*l;
	int			nr, cap;
	uint64_t		total;		/* samples, remainder included */
	int			rest_stacks;	/* distinct stacks in the remainder */
};

/* Add count samples of stack (copied): 0, or -1 out of memory. */
int pb_fold_add(struct pb_fold *f, const char *stack, uint64_t count);
/*
 * Merge equal stacks, most samples first, and keep the fewest that cover
 * at least cover of the samples; the rest become one PB_FOLD_REST line.
 */
void pb_fold_bound(struct pb_fold *f, double cover);
/*
 * The lines as text ("stack count\n" each) into a new string; lines that
 * do not fit in max bytes join the remainder line.  NULL out of memory.
 */
char *pb_fold_text(struct pb_fold *f, size_t max);
/* Parse such text back (a line without a count is skipped): 0, or -1. */
int pb_fold_parse(struct pb_fold *f, const char *text);
void pb_fold_free(struct pb_fold *f);
/*
 * The function with the most samples of its own (the leaf of the stacks,
 * the remainder line left out) into name: its samples, 0 when none.
 */
uint64_t pb_fold_top_self(const struct pb_fold *f, char *name, size_t len);

/*
 * Time per op of count samples out of samples taken while the role ran
 * task_clock_ns over ops ops; err its sampling error (Poisson: the count's
 * square root).  NAN when samples or ops is 0.
 */
double pb_fold_ns_per_op(uint64_t count, uint64_t samples, uint64_t task_clock_ns,
			 uint64_t ops, double *err);

#endif
