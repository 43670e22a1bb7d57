/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * save.h - where one job file's result goes, and its atomic saves: the
 * save the run engine (core/execute.h) calls after every cell.
 */
#ifndef PINBENCH_SAVE_H
#define PINBENCH_SAVE_H

#include <limits.h>
#include <stdbool.h>

#include "report/result.h"

/*
 * The name, DIR/<label>/<start time>-<job file>[-N].json, is claimed by
 * the first save (a link that fails if the name exists: two runs started
 * in the same second get two files); the file is rewritten after every
 * job, so a crash loses at most the job in flight.
 */
struct pb_saver {
	int	dfd;			/* DIR/<label>, opened without following a symlink */
	char	stem[160];		/* <start time>-<job file> */
	char	name[NAME_MAX + 1];	/* the file's name in dfd */
	char	dir[PATH_MAX - 256];	/* DIR/<label>, for the messages */
	char	path[PATH_MAX];		/* DIR/<label>/name, for the messages */
	bool	claimed;
	char	err[PATH_MAX + 128];	/* why the last save failed, or "" */
};

/*
 * sv: the results of a run started at `started` (ISO-8601) of job file
 * base in outdir/label (which must exist).  0, or -1 with sv->err.
 */
int pb_saver_init(struct pb_saver *sv, const char *outdir, const char *label,
		  const char *started, const char *base);
/*
 * Save the run as it is (signals held off meanwhile: a Ctrl-C lands after
 * the file is whole).  *text, when asked, gets the JSON even when the save
 * fails.  0, or -1 with sv->err.
 */
int pb_saver_save(struct pb_saver *sv, const struct pb_run *run, char **text);
void pb_saver_close(struct pb_saver *sv);

#endif
