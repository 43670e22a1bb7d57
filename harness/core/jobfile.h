/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jobfile.h - fio-style INI job files.
 *
 * A [global] section and one section per job; jobs inherit global keys;
 * command-line overrides (--set, --repeats, ...) apply last.  Every key
 * is checked against the common keys and the workload's own table: an
 * unknown key, a bad value, a missing or unknown bench is an error naming
 * file:line and the key, before anything runs.  A key flagged
 * PB_KEY_SWEEP given as a list ("1,2,4" or "all") expands the job into
 * one job per value.
 */
#ifndef PINBENCH_JOBFILE_H
#define PINBENCH_JOBFILE_H

#include <stdbool.h>
#include <stddef.h>
#include "core/bench.h"
#include "core/keys.h"

#define PB_MAX_PLACEMENTS	16
#define PB_NAME_MAX		128

/* A key=value with where it came from ("configs/pipe.ini", 12) or ("--set", 0). */
/* estimator=: what a repeat's value is made of (its slices, pinbench-marks(7)). */
enum pb_estimator { PB_EST_MEDIAN, PB_EST_TRIMMED, PB_EST_MEAN, PB_EST_P50 };
extern const char *const pb_estimator_names[];	/* by enum pb_estimator */

struct pb_kv {
	char	*key;
	char	*val;
	char	*origin;
	int	line;
};

#define PB_MAX_PCT	16	/* percentiles= at most */
#define PB_PCT_DEFAULT	"50,90,99,99.9"

struct pb_job {
	char			name[PB_NAME_MAX];	/* section name (+ "/threads=4" for sweeps) */
	const struct pb_bench	*bench;
	char			*file;			/* job file, or NULL (ad hoc) */
	int			line;			/* of the section header */

	/* Effective keys as text, defaults included: the JSON "params". */
	struct pb_kv		*kv;
	int			nr_kv;

	/* Common keys, parsed. */
	char			placements[PB_MAX_PLACEMENTS][32];
	int			nr_placements;		/* 0 when cpus= is given */
	int			*cpus;			/* cpus=A,B: one per role instance, role order */
	int			nr_cpus;
	int			rounds;			/* executions of the job file it takes part in */
	int			repeats;
	double			warmup;			/* s */
	double			duration;		/* s per repeat (when loops == 0) */
	long			loops;			/* ops per repeat, 0: use duration */
	bool			threads;		/* tasks=threads */
	double			timeout;		/* watchdog, s; 0: 3 x expected + 10 */
	char			events[512];		/* events= (counters issue); "" = default set */
	int			counters_cpu;		/* counters=cpu */
	bool			counting_inline;	/* counting=inline */
	double			count_duration;		/* s per counter window, 0: automatic */
	bool			profile;		/* profile=on: the profile pass */
	int			estimator;		/* enum pb_estimator */
	int			peer_cpu;		/* peer_cpu=, the server role's CPU there (0) */
	double			pct[PB_MAX_PCT];	/* percentiles=, ascending, each in (0, 100) */
	int			nr_pct;

	/* The workload's options (bench->opts_size bytes), parsed from its table. */
	void			*opts;
	int			nr_instances;		/* from bench->instances_key, else 1 */
};

struct pb_jobset {
	struct pb_job	*jobs;
	int		nr;
	char		*text;	/* the job file's text as read (pb_jobs_load), or NULL */
};

/* The keys every workload accepts (for `pinbench list`). */
extern const struct pb_key pb_common_keys[];

/*
 * Load a job file (path) or, when path is NULL, one ad-hoc job running
 * adhoc_bench.  over[] are command-line key=value overrides applied to
 * every job last.  nr_cpus is what "all" means for sweep keys.
 * A job file is a regular file (not a FIFO, a device or a folder) of at
 * most 1 MiB, lines of at most 4096 bytes, no NUL byte; a UTF-8 byte order
 * mark at its start is skipped.
 * Returns 0, or -1 with a message in err ("FILE:LINE: ..." for job files,
 * "--set KEY: ..." for overrides).
 */
int pb_jobs_load(const char *path, const char *adhoc_bench,
		 const struct pb_kv *over, int nr_over, int nr_cpus,
		 struct pb_jobset *js, char *err, size_t len);
/*
 * The same on the text of a job file (n bytes, any bytes), name in
 * messages: the fuzzer's entry.
 */
int pb_jobs_load_text(const char *name, const char *text, size_t n,
		      const struct pb_kv *over, int nr_over, int nr_cpus,
		      struct pb_jobset *js, char *err, size_t len);
void pb_jobset_free(struct pb_jobset *js);

/* Test hooks: how the parser finds workloads (tests swap in fakes). */
extern const struct pb_bench *(*pb_jobfile_find_bench)(const char *name);
extern const struct pb_bench *const *pb_jobfile_benches;

/* The value of a key in a job as text (effective), or NULL. */
const char *pb_job_get(const struct pb_job *j, const char *key);

/*
 * With counting=separate each counter pass is one window, short: per-op
 * counts settle long before the metric's mean does.  Its length:
 * count_duration= seconds when given; else with loops= a tenth of loops
 * ops (*ops, 0 returned); else a tenth of duration, at least
 * PB_COUNT_MIN_S and at most duration (seconds returned, *ops 0).
 */
#define PB_COUNT_SHARE	10
#define PB_COUNT_MIN_S	0.2
double pb_job_count_window(const struct pb_job *j, long *ops);

#endif
