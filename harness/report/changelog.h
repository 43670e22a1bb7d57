/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * changelog.h - `pinbench report`: two sides of a comparison (a baseline
 * and a new kernel, each a group of report/compare.h) as what a patch
 * changelog or a reply on the list carries: each side's kernel, commit,
 * dates and machine, each job's keys and job file, a compact table per job
 * (a row per cell and side), a verdict line per job, the environment
 * differences, the anomaly legend, the commands that reproduce the runs; in
 * Markdown, and as plain text of at most PB_CHANGELOG_WIDTH columns for an
 * email.
 */
#ifndef PINBENCH_CHANGELOG_H
#define PINBENCH_CHANGELOG_H

#include <stdio.h>

#include "report/compare.h"

#define PB_CHANGELOG_WIDTH	72

struct pb_changelog {
	int			base, cur;	/* the two groups of the pb_cmp */
	const struct pb_cmp_opts *cmp;		/* min_change, no_correction */
	const char		*png, *svg;	/* plot files beside the report, or NULL */
	const char		*noise;		/* the noise profile used or refused, or NULL */
	bool			flames;		/* pb_changelog_flames' SVGs are beside */
};

/*
 * The whole report: Markdown or text.  Returns the number of significant
 * regressions (err is kept for errors to come: none now).
 */
int pb_changelog_write(struct pb_cmp *c, const struct pb_changelog *o, bool md, FILE *f,
		       char *err, size_t len);

/* Print s wrapped between words at width, the first line after first, the rest after rest. */
void pb_changelog_wrap(FILE *f, const char *s, const char *first, const char *rest, int width);

/*
 * "Where the change went" (changelog_prof.c): for each significant cell
 * both of whose sides carry profiles, per role its change per op and the
 * functions whose own time per op changed most; nothing when none has.
 * pb_cmp_adjust() must have run.
 */
void pb_changelog_profiles(const struct pb_cmp *c, const struct pb_changelog *o, bool md,
			   FILE *f);
/*
 * The differential flame graph of each (cell, role) that section explains,
 * handed to put with its file name ("flame-JOB-PLACEMENT-ROLE.svg"): 0, -1
 * out of memory, or put's non-zero.
 */
int pb_changelog_flames(struct pb_cmp *c, const struct pb_changelog *o,
			int (*put)(const char *name, const char *svg, void *ctx), void *ctx);

#endif
