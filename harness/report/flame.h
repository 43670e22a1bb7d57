/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * flame.h - a differential flame graph of one role of one cell: the new
 * side's folded stacks as frames sized by their time per op, each frame
 * red where its own time per op grew against the baseline, blue where it
 * shrank, as an SVG 1200 pixels wide (the full stack in each <title>).
 */
#ifndef PINBENCH_FLAME_H
#define PINBENCH_FLAME_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#define PB_FLAME_WIDTH	1200

struct pb_flame {
	const char	*what;		/* "pipe rtt same-cpu, reader" */
	const char	*base, *cur;	/* the two sides' names, kernels included */
	const char	*event;		/* "cpu-clock", or NULL */
	json_t		*base_stacks;	/* {STACK: ns/op} */
	json_t		*cur_stacks;
};

/*
 * The fill of a frame whose own time per op changed by delta ns, max the
 * largest such change of the graph: red when it grew, blue when it shrank,
 * deeper the nearer it is to max; grey when unchanged.  Into buf.
 */
void pb_flame_colour(double delta, double max, char *buf, size_t len);
/* The SVG as a new string, or NULL out of memory. */
char *pb_flame_svg(const struct pb_flame *fl);

#endif
