/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * noise.h - a machine's noise profile (pinbench-noise/1): what `pinbench
 * calibrate` measured of the variation at each level (boot, invocation,
 * run) per job x placement, on one host class and kernel, and how
 * compare, report and nightly use it as the variation between boots of a
 * side that has one boot (report/between.h).
 *
 * One boot measures drift between invocations only: a profile of one boot
 * does not cover the boot level, and its between-invocation figure stands
 * in for it (stands_in).  Result files of several boots (calibrate --from)
 * measure the boot level itself.
 */
#ifndef PINBENCH_NOISE_H
#define PINBENCH_NOISE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include <jansson.h>

#include "report/between.h"
#include "report/compare.h"

/* A profile older than this many days is refused. */
#define PB_NOISE_MAX_AGE_DAYS	30

/*
 * The precision of a variance estimate with df degrees of freedom: its
 * relative standard error, sqrt(2 / df) (normal data).  NAN when df <= 0.
 */
double pb_noise_rel_se(double df);
/*
 * The blocks (invocations) calibrate needs for the between-invocation
 * variance to reach relative standard error pct percent: df = B - 1 >=
 * 2 / (pct / 100)^2, so B = ceil(2 / (pct / 100)^2) + 1, at least 2.
 * -1 when pct is not in (0, 100].
 */
int pb_noise_blocks(double pct);

/* What a profile is made of, besides the tables of c. */
struct pb_noise_meta {
	const char	*host_class;
	const char	*kernel;
	json_t		*boot_ids;	/* array of strings (kept: a reference is taken) */
	const char	*date;		/* ISO-8601 UTC */
	const char	*jobfile;	/* or NULL */
	const char	*label;
	int		blocks;		/* invocations run, 0 for --from */
	double		precision;	/* the --precision asked, NAN none */
};

/*
 * The profile of c (loaded with every run of one group): per table the
 * levels' sd of ln value with df (pb_levels_of) and the figure that
 * answers for the boot level.  NULL when no memory.
 */
json_t *pb_noise_build(const struct pb_cmp *c, const struct pb_noise_meta *m);

/*
 * Is root a pinbench-noise/1 as pb_noise_load reads it?  0, or -1 with err
 * naming the JSON path and what is wrong ("$.tables[1].between.df is a
 * string, want a number").
 */
int pb_noise_check(json_t *root, char *err, size_t len);

struct pb_noise {
	char	path[4096];
	json_t	*root;
	char	host_class[512];
	char	kernel[128];
	char	date[32];
	time_t	when;		/* date as a time */
};

/* Load and check a profile: 0, or -1 with err naming the file (and the JSON path). */
int pb_noise_load(const char *path, struct pb_noise *p, char *err, size_t len);
void pb_noise_free(struct pb_noise *p);

/*
 * The newest profile (by its date) in folder dir (noise-*.json, not
 * recursively) of host class host_class, or when none is, the newest of
 * any (for the caller to refuse by name).  1 with path set, 0 when there
 * is none, -1 with err when dir cannot be read.
 */
int pb_noise_find(const char *dir, const char *host_class, char *path, size_t plen, char *err,
		  size_t len);

/* What a comparison's results are: where profile p may be used. */
struct pb_noise_ctx {
	const struct pb_noise	*p;
	const char		*host_class;	/* of the results; NULL: more than one */
	json_t			*kernels;	/* array of the results' kernels */
	time_t			now;
	char			why[256];	/* pb_noise_usable's reason */
};

/*
 * May p be used for these results: 1, or 0 with x->why saying why not
 * (another host class, none of the results' kernels, older than
 * PB_NOISE_MAX_AGE_DAYS).
 */
int pb_noise_usable(struct pb_noise_ctx *x);

/*
 * The entry of the profile for table t: 1 with *e set, 0 when the profile
 * has no entry for its job and placement, -1 with why naming the first key
 * that differs ("size: 64 here, 1 in the profile").
 */
int pb_noise_match(const struct pb_noise *p, const struct pb_table *t, json_t **e, char *why,
		   size_t len);

/* pb_between_fn: ctx is a struct pb_noise_ctx. */
int pb_noise_between(void *ctx, const struct pb_table *t, struct pb_between *b);

/*
 * The profile for results c: the file given (--noise), or else the newest
 * pb_noise_find() finds in the folders among dirs[n] (files are passed
 * over).  Fills *p and *x (now: the clock) and says it in line: 1 usable
 * ("noise profile: FILE (CLASS, kernel K, DATE)"), 0 none (line ""), -1
 * refused ("noise profile FILE not used: WHY"; *p stays loaded, for the
 * tables to say why), -2 the file given cannot be used (line the error).
 * pb_noise_free(p) after, whatever the answer.
 */
int pb_noise_pick(const char *given, char *const *dirs, int n, const struct pb_cmp *c,
		  struct pb_noise *p, struct pb_noise_ctx *x, char *line, size_t len);

/*
 * pb_noise_pick for this host (host: pb_host_json()) rather than results:
 * the file given, or the newest profile in dir of this host's class; the
 * same answers and line.
 */
int pb_noise_pick_host(const char *given, const char *dir, json_t *host, struct pb_noise *p,
		       char *line, size_t len);

/* The largest number of boots a kernel pb_noise_plan looks at. */
#define PB_PLAN_MAX_BOOTS	1000

/* What one job x placement of a job file will resolve, by a profile. */
struct pb_noise_plan {
	double	sd_above, df_above;	/* a boot's figure, above its runs (sd of ln) */
	double	sd_run, df_run;		/* a run's; 0 when the profile has no run level */
	bool	stands_in;		/* the invocations' figure stands in for boots */
	double	mde_one;		/* one boot a kernel, as planned: relative */
	double	floor;			/* one boot a kernel, rounds without end */
	int	boots;			/* a kernel's boots for min_change; 0: over the max */
	double	mde_boots;		/* the MDE at that many boots */
};

/*
 * Cell job x placement (params: its workload keys, as a result file's)
 * of a job file run rounds times a boot, against p (pb_noise_match's
 * entry): 1 with *o filled, 0 when p has no entry for it (or no between
 * figure), -1 with why naming the key that differs.  min_change relative.
 */
int pb_noise_plan(const struct pb_noise *p, const char *job, const char *placement,
		  json_t *params, int rounds, double min_change, struct pb_noise_plan *o,
		  char *why, size_t len);

#endif
