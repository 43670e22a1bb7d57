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
};

/*
 * The whole report: Markdown or text.  Returns the number of significant
 * regressions (err is kept for errors to come: none now).
 */
int pb_changelog_write(struct pb_cmp *c, const struct pb_changelog *o, bool md, FILE *f,
		       char *err, size_t len);

#endif
