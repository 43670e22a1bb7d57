/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare.h - result files (pinbench-result/1) read, grouped by label,
 * kernel or host, ordered as versions, and compared against a baseline:
 * the engine behind `pinbench compare`, `plot` (report/plot.h) and
 * `nightly`.
 */
#ifndef PINBENCH_COMPARE_H
#define PINBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <jansson.h>

#include "report/between.h"
#include "stats/levels.h"
#include "stats/stats.h"

enum pb_cmp_group { PB_GROUP_LABEL, PB_GROUP_KERNEL, PB_GROUP_HOST, PB_GROUP_PEER,
		    PB_GROUP_CLASS };
/* "label", "kernel", "host", "peer", "class" -> enum pb_cmp_group; -1 when unknown. */
int pb_cmp_group_parse(const char *s);
/* The names, by enum pb_cmp_group. */
extern const char *const pb_cmp_group_names[];
enum pb_cmp_format { PB_FMT_TEXT, PB_FMT_MARKDOWN, PB_FMT_CSV, PB_FMT_JSON };
/*
 * How a cell is tested against its baseline.  rank: the Hodges-Lehmann
 * ratio with its Moses interval and Mann-Whitney's p (pb_rank_test()),
 * robust to the runs a noisy host throws off; welch: the ratio of means
 * with Fieller's interval and Welch's p (pb_ratio_test()).  auto, the
 * default: rank when both sides have PB_RANK_MIN values or more, welch
 * with fewer (a rank test of 4 against 4 cannot go below p = 0.029).
 * Chosen by measurement: tests/peers/sensitivity.sh, doc/measurements.md.
 */
enum pb_cmp_test { PB_TEST_AUTO, PB_TEST_RANK, PB_TEST_WELCH };
#define PB_RANK_MIN	5
/* "auto", "rank", "welch" -> enum pb_cmp_test; -1 when unknown. */
int pb_cmp_test_parse(const char *s);
extern const char *const pb_cmp_test_names[];

#define PB_CMP_ALPHA	0.05	/* Welch p below this ... */
#define PB_CMP_MIN_CHG	1.0	/* ... and |change| above this many percent */
#define PB_CMP_WIDTH	100	/* text lines at most this many characters */
#define PB_LAT_N	5	/* p50 p90 p99 p99.9 max */

extern const char *const pb_lat_names[PB_LAT_N];

/*
 * A per-op counter figure ("total context-switches/op") pooled over a
 * cell's files; sys/counters.h's struct pb_figure is one run's figure.
 */
struct pb_cmp_figure {
	char	name[96];
	double	sum;		/* weighted by repeats */
	double	weight;
};

struct pb_mark {
	char	kind[32];
	char	severity[8];
	char	message[200];
};

/*
 * Where one run of a cell sits (the levels: boot, invocation, round),
 * from its result file; "" when the file does not say (older files).
 */
#define PB_CMP_BOOT_LEN	64
#define PB_CMP_INV_LEN	40
struct pb_cmp_level {
	char	boot[PB_CMP_BOOT_LEN];
	char	invocation[PB_CMP_INV_LEN];
	int	round;		/* 1 for a file of one round */
	int	repeats;	/* the values behind the run's mean */
};

/* One job x placement x group: the pooled repeats. */
struct pb_cell {
	int			group;		/* index into pb_cmp.groups */
	double			*v;		/* every metric repeat, pooled */
	int			n, cap;
	/*
	 * One value per run (a job entry: one file's round), its repeats'
	 * mean: the unit of independent evidence, and what is tested when
	 * every cell of the table has two or more.
	 */
	double			*u;
	int			nu, ucap;
	struct pb_cmp_level	*lv;		/* [nu]: where each of those runs sits */
	int			lvcap;
	char			status[16];	/* "ok", "interrupted", or why there are no values */
	char			run_error[32];	/* the kind of a run-wide error finding of
						 * one of its files (the first), or "" */
	char			reason[128];
	bool			interrupted;	/* some values are an interrupted job's */
	double			wall_s;		/* its jobs' wall time, every status */
	struct pb_mark		*marks;
	int			nr_marks;
	struct pb_cmp_figure	*figs;
	int			nr_figs;
	double			lat[PB_LAT_N];	/* µs, weighted sums */
	double			lat_w;
	bool			adjusted;	/* p_adj set by pb_cmp_adjust() */
	double			p_adj;
	/*
	 * The profile passes of its runs (compare_prof.c), or NULL:
	 * {"runs", "event", "roles": {ROLE: {FUNCTION: [own ns/op summed over
	 * the runs, its Poisson variance summed]}}, "stacks": {ROLE: {STACK:
	 * its ns/op summed over the runs}}}
	 */
	json_t			*prof;
};

/* A function's own time per op on both sides of a cell: base -> cur, ns. */
struct pb_prof_row {
	char	fn[128];
	double	base, cur, change, err;	/* err: the change's sampling error */
};

/* Add a result's job's profile (profile=on) to its cell: 0, or -1. */
int pb_cmp_add_profile(struct pb_cell *cell, json_t *job);
/*
 * How much slower the cell's profiled windows ran than its metric's
 * repeats, 1 - profile ops/s / metric ops/s, the mean over the runs that
 * recorded it (negative: faster); NAN when none did.
 */
double pb_cmp_prof_slower(const struct pb_cell *cell);
/*
 * "the profiled windows ran 83 % slower (base) and 70 % slower (spin)
 * than the metric's repeats: the times per op are those windows'", or ""
 * when neither side recorded it.
 */
void pb_cmp_prof_slower_words(const struct pb_cell *base, const struct pb_cell *cell,
			      const char *bname, const char *cname, char *buf, size_t len);
/* The i-th role the cell's profiles name, or NULL. */
const char *pb_cmp_prof_role(const struct pb_cell *cell, int i);
/*
 * The n functions of role whose own time per op changed most from base
 * to cell (the union of both sides; a function missing on one side is 0
 * there), into rows; total gets the role's sum.  Returns how many.
 */
int pb_cmp_prof_top(const struct pb_cell *base, const struct pb_cell *cell, const char *role,
		    struct pb_prof_row *rows, int n, struct pb_prof_row *total);
/* Role's folded stacks as {STACK: mean ns/op over the runs} (new, the caller's), or NULL. */
json_t *pb_cmp_prof_stacks(const struct pb_cell *cell, const char *role);

/* One job x placement: one table of the report. */
struct pb_table {
	json_t		*params;	/* the first result's workload keys, to hold the others to */
	int		params_group;	/* whose they are */
	char		differs[256];	/* "size: 1 (6.1) vs 64 (6.2)", or "" */
	char		differs_key[64];
	char		job[128];
	char		placement[32];
	char		metric[64];
	char		unit[32];
	bool		higher;		/* higher is better */
	bool		rate;		/* harmonic mean */
	char		cpus[64];	/* "0,8" */
	char		sweep_base[128];/* "scale" for "scale/threads=4", else "" */
	char		sweep_key[32];	/* "threads" */
	double		sweep_x;	/* 4 */
	enum pb_cmp_test test;		/* the pb_cmp's, when the table was made */
	struct pb_between between;	/* of the boots (pb_cmp_ask_between); sd not > 0: none */
	struct pb_cell	*cells;
	int		nr_cells;
};

/* A file's or folder's identity: what makes two paths one file. */
struct pb_cmp_id {
	dev_t	dev;
	ino_t	ino;
};

struct pb_cmp {
	char		**groups;	/* in first-seen order */
	int		nr_groups;
	int		*order;		/* display order: indexes into groups */
	struct pb_table	*t;
	int		nr_tables;
	int		nr_files;
	enum pb_cmp_group by;
	int		nr_tests;	/* comparisons tested by pb_cmp_adjust() */
	struct pb_cmp_id *seen;		/* every file and folder read, read once */
	int		nr_seen, cap_seen;
	char		**skipped;	/* "PATH: why" of files a folder walk skipped */
	int		nr_skipped;
	json_t		**envs;		/* [nr_groups]: pb_cmp_env_add() */
	json_t		**cmds;		/* [nr_groups]: the distinct command lines of its runs */
	json_t		**run_errors;	/* [nr_groups]: run-wide anomalies of severity error,
					 * one per kind (the first file's) */
	char		(*started)[24];	/* [nr_groups]: its earliest run's start, UTC, or "" */
	enum pb_cmp_test test;		/* how cells are tested (set before loading) */
	const char	*force_group;	/* not NULL: what files load into, whatever their label */
	const char	*only_class;	/* not NULL: files of other host classes are passed over */
	bool		no_links;	/* follow no symlink, not even to a file named (a history) */
	json_t		*classes;	/* the host classes of the files read (strings) */
	json_t		*kernels;	/* and their kernels */
	/*
	 * [nr_groups]: what a report's header says of each group, from its
	 * files: {"kernels": [release...], "versions": [kernel_version...],
	 * "machine": the first file's host (its "host" object), "started":
	 * the earliest, "finished": the latest, "configs": [{"path", "text"}]
	 * (text null when the file does not record it)}; pb_cmp_about_add()
	 */
	json_t		**about;
};

/*
 * Does the table compare runs (every cell with values has two or more)?
 * Then the runs' means are the values; else the repeats of a run are,
 * whose interval leaves out the variation between runs.
 */
bool pb_cmp_between(const struct pb_table *t);
/* The values of cell that are tested and shown (runs or repeats). */
int pb_cmp_values(const struct pb_table *t, const struct pb_cell *cell, const double **v);

/* What one cell says against its table's baseline. */
struct pb_eval {
	struct pb_summary	s;		/* of pb_cmp_values() */
	bool			between;	/* the values are runs (pb_cmp_between) */
	bool			has_base;	/* a baseline with values (and not itself) */
	bool			is_base;
	double			change;		/* percent, NAN without a baseline: the
						 * ratio of means, or the Hodges-Lehmann
						 * ratio when rank-tested */
	double			ci_lo, ci_hi;	/* its 95 % interval (Fieller, or Moses),
						 * percent; NAN when untestable,
						 * +-INFINITY unbounded */
	const char		*test;		/* "rank" or "welch"; NULL when untested */
	double			p;		/* NAN when untestable (n < 2) */
	double			p_adj;		/* p adjusted for multiple tests, or p */
	bool			significant;
	const char		*verdict;	/* baseline|improvement|regression|no-change,
						 * or (improvement|regression)-within-boot */
	/*
	 * The levels (stats/levels.h): each side's boots, invocations, runs
	 * and repeats, the unit tested (runs also when the repeats of
	 * single runs are), and what the verdict rests on.  With two boots
	 * or more a side it is the boot level; with one boot on a side, the
	 * boot level only when t->between gives the variation between boots
	 * (widened: the interval holds it, se^2 = se_w^2 + sd^2/b_a +
	 * sd^2/b_b, Satterthwaite's df); else within is set, the change is
	 * at most "changed within its boot" and never a regression
	 * (pb_cmp_regressed), and tipping is the boot-to-boot CV (percent)
	 * at which it would stop being significant (pb_tipping_cv).
	 */
	struct pb_levels	lv, base_lv;
	enum pb_level		unit;
	bool			on_repeats;	/* tested on the repeats of single runs */
	bool			within;
	bool			widened;
	const char		*source;	/* widened: where the figure is from */
	bool			stands_in;	/* ... a between-invocation figure */
	double			tipping;	/* percent; NAN unless within and significant */
	double			mde;		/* percent, pb_mde() of the cell's test; NAN */
	/*
	 * What the evidence supports (pb_cmp_outcome_of): "changed"
	 * (significant), "no-change" (the whole 95 % interval inside
	 * ±mde), "inconclusive" (not significant, the interval reaching
	 * beyond ±mde or no resolution), "not-judged" (an error finding on
	 * either side, untested, or no baseline), "baseline"; NULL when
	 * the cell has no values.
	 */
	const char		*outcome;
	/* not-judged for an error finding: "<kind> on <side>"; else "" */
	char			not_judged[80];
};

/* The kind of cell's first error finding (its own, or run-wide), or NULL. */
const char *pb_cmp_error_kind(const struct pb_cell *cell);
/*
 * Does e count as a regression (exit codes, nightly, export): significant at
 * the boot level, and judged (no error finding on either side).
 */
bool pb_cmp_regressed(const struct pb_eval *e);
/* "boot level", "boot level (between-boot noise from SOURCE)", "within one boot" */
void pb_cmp_level_words(const struct pb_eval *e, char *buf, size_t len);
/* The unit's name: "boot", "invocation", "run", "repeat". */
const char *pb_cmp_unit_name(const struct pb_eval *e);
/*
 * e's qualification for a message, "" when none: "resolves ±2.4 %"
 * (significant at the boot level), "no change beyond ±2.4 %" (outcome
 * no-change), "inconclusive (interval [-0.5, +23.0])", "not judged:
 * noisy-neighbor on this side", or "within one boot a side; holds if boots
 * vary by less than 0.7 %; boot each kernel twice, or run pinbench
 * calibrate".  Every verdict that states one says it through this
 * (compare, report, nightly, export).
 */
void pb_cmp_qualify(const struct pb_eval *e, char *buf, size_t len);
/* Cells of a heading counted by outcome ("1 placement: no change beyond ±2.0 %"). */
struct pb_cmp_tally {
	int	no_change, inconclusive, not_judged;
	double	beyond;		/* the largest "no change beyond" */
	char	why[80];	/* the first not-judged cell's reason */
};
/* Count e (not changed) into ty; false when e is changed or has no outcome. */
bool pb_cmp_tally_add(struct pb_cmp_tally *ty, const struct pb_eval *e);
/*
 * ty in words, each part after "; " (or " " first when !said): "2 placements: no
 * change beyond ±2.0 %; 1 inconclusive; 1 not judged (error findings)".
 */
size_t pb_cmp_tally_words(const struct pb_cmp_tally *ty, bool said, char *buf, size_t len);
/*
 * Ask fn (NULL: none) for each table's variation between boots, into
 * t->between (sd NAN when none is known or it must not be used).
 */
void pb_cmp_ask_between(struct pb_cmp *c, pb_between_fn fn, void *ctx);

struct pb_cmp_opts {
	enum pb_cmp_group	by;
	enum pb_cmp_format	format;
	bool			order_given;
	const char		*baseline;	/* NULL: the first row */
	double			min_change;	/* percent */
	bool			no_correction;	/* plain per-cell p < 0.05 */
	bool			all_profiles;	/* where every cell's change went, not
						 * only the significant ones' */
	enum pb_cmp_test	test;		/* for the caller to set the pb_cmp's
						 * test before loading (the tables keep it) */
	const char		*allow_different; /* keys that may differ, "a,b", or NULL */
	pb_between_fn		between;	/* the variation between boots; NULL: no source */
	void			*between_ctx;
};

/*
 * A key a comparison does not hold equal: how long and how it counted
 * (rounds, repeats, duration, events...), and where (placement, cpus, peer).
 */
bool pb_cmp_free_key(const char *k);

/*
 * Results whose workload keys differ (size=1 against size=64) measure
 * different things: -1 with err naming the job, the key, both values and
 * the groups, for the first such table, unless the key is in allow
 * ("size,pattern").  The run-length keys (rounds, repeats, duration, warmup,
 * loops, timeout), the counting keys (events, counters, counting) and
 * where it ran (placement, cpus, peer, peer_cpu) may differ.
 */
int pb_cmp_comparable(const struct pb_cmp *c, const char *allow, char *err, size_t len);

/*
 * For a report that must go on (nightly): in every table whose workload
 * keys differ, the cells of every group but keep lose their values, with
 * status "not compared" and the keys as the reason, so that nothing there
 * is judged.  Returns how many tables.
 */
int pb_cmp_set_aside(struct pb_cmp *c, int keep);

/* Version order: 2.6.9 < 2.6.22 < 2.6.30-rc2 < 2.6.30-rc3 < 2.6.30. */
int pb_version_cmp(const char *a, const char *b);

/*
 * Read a result file, or every *.json under a folder (recursively, in name
 * order; no symlink in a folder is followed, to a folder or a file: a
 * linked file is skipped and named; with c->no_links not even a file named
 * by path is read through one).  Each file counts once
 * however many paths lead to it (st_dev, st_ino).  Only regular files are
 * read.  A file in a folder that cannot be used (unreadable, corrupt,
 * another schema) is skipped and noted in c->skipped for the caller to
 * say; a file named by path is an error.  Returns 0, or -1 with err naming
 * the file.
 */
int pb_cmp_load(struct pb_cmp *c, const char *path, char *err, size_t len);
/*
 * Is root a pinbench-result/1 as the loader reads it: an object whose
 * schema is that string and whose jobs is an array of objects?  0, or -1
 * with err naming the field and what is wrong ("jobs is an object, want
 * an array").
 */
struct json_t;
int pb_cmp_check_result(struct json_t *root, char *err, size_t len);
/* "an object", "an array", "a string", "a number", "a boolean", "null" */
const char *pb_json_kind(const struct json_t *v);
/*
 * Load every path (c->by set); 0, or -1 with err set (a path that cannot
 * be read, or no result file at all).  c->skipped holds, either way, the
 * files the folder walks passed over.
 */
int pb_cmp_load_all(struct pb_cmp *c, char **paths, int n, char *err, size_t len);
/* Fill c->order: version order, or as first seen. */
void pb_cmp_order(struct pb_cmp *c, bool given);
void pb_cmp_free(struct pb_cmp *c);
int pb_cmp_find_group(const struct pb_cmp *c, const char *name);

/*
 * The group named name (--baseline), -1 for none (name NULL: the first
 * row), or -2 with err naming it and the groups there are.
 */
int pb_cmp_resolve_baseline(const struct pb_cmp *c, const char *name, char *err, size_t len);
/* The table's baseline cell (NULL: none); base_group -1: the first with values. */
const struct pb_cell *pb_cmp_base(const struct pb_cmp *c, const struct pb_table *t,
				  int base_group);
const struct pb_cell *pb_cmp_cell(const struct pb_table *t, int group);
/*
 * Test every cell against its table's baseline and adjust the p-values for
 * the number of tests (Benjamini-Hochberg; correct=false: unadjusted), so
 * that an A/A report stays quiet however many cells it has.  pb_cmp_eval()
 * then judges significance on the adjusted p.
 */
void pb_cmp_adjust(struct pb_cmp *c, int base_group, bool correct);
void pb_cmp_eval(const struct pb_table *t, const struct pb_cell *cell,
		 const struct pb_cell *base, double min_change, struct pb_eval *e);
/*
 * e's 95 % interval of the change with digits decimals: "[+3.1, +7.3]";
 * an end that is infinite or below -100 % (Fieller's, of a ratio whose
 * means the data do not bound away from 0) is "unbounded": "[-100.0,
 * unbounded]", "[unbounded, +246.0]", "[unbounded]"; "" when untested.
 * Every text that gives the interval says it through this.
 */
void pb_cmp_ci_words(const struct pb_eval *e, int digits, char *buf, size_t len);
/* Is an end of e's interval unbounded (as pb_cmp_ci_words says)? */
bool pb_cmp_ci_unbounded_lo(const struct pb_eval *e);
bool pb_cmp_ci_unbounded_hi(const struct pb_eval *e);
/*
 * e's change in words for a message: "+5.20 % [+3.10, +7.30], q=0.003"
 * ("p=" with no_correction; "q < 0.001"; the interval left out when
 * untestable, pb_cmp_ci_words).
 */
void pb_cmp_change_words(const struct pb_eval *e, bool no_correction, char *buf, size_t len);
/* How many cells are tested by ranks and how many by Welch (for a legend). */
void pb_cmp_count_tests(const struct pb_cmp *c, int base_group, int *rank, int *welch);

/*
 * What a result file says of its machine, as compare_env.c compares it: a
 * new object of hostname, cpu_model, topology, cmdline, vulnerabilities
 * (name -> text), microcode, thp_enabled, thp_defrag, governor, smt;
 * null where the file does not say.
 */
json_t *pb_cmp_env_of(json_t *root);
/*
 * Another file of the group whose machine is *fp (NULL: none yet): what
 * *fp did not know it learns; where they disagree, the first file's value
 * stays and the item is listed in *fp's "mixed".
 */
void pb_cmp_env_add(json_t **fp, json_t *root);
/* Another file of the group whose header is *ap (NULL: none yet). */
void pb_cmp_about_add(json_t **ap, json_t *root);
/*
 * Where the groups' machines differ, the groups in display order: a new
 * array of {"kind", "item", "warning", "head", "values": [{"value",
 * "groups": [...]}], "message"}: warnings first (a group whose files
 * differ among themselves, "mixed"; different hosts, except grouped by
 * host, CPU models, topologies), then per vulnerability
 * ("mitigations"), the words of the kernel command line that not every
 * group has (BOOT_IMAGE= and initrd= aside), microcode, THP, governor,
 * SMT.  A group whose file does not say is left out of that item.
 */
json_t *pb_cmp_env_diffs(const struct pb_cmp *c);
/*
 * Each difference as its message, in at most PB_CMP_WIDTH columns: one
 * line when it fits (and no value holds the "; " separator), else the head
 * and a line per value, wrapped between words ("- " items in Markdown);
 * then a blank line when there was any.
 */
void pb_cmp_env_print(FILE *f, json_t *diffs, bool md);

/*
 * Write the report.  Returns the number of significant regressions, or -1
 * with err set (an unknown baseline).
 */
int pb_cmp_report(struct pb_cmp *c, const struct pb_cmp_opts *o, FILE *out,
		  char *err, size_t len);

/* " s |": a Markdown table cell, its '|' escaped. */
void pb_cmp_md_cell(FILE *f, const char *s);

/* A result file's host class: "CPU model; topology" (what fleet and noise group by). */
void pb_cmp_class_of(json_t *root, char *buf, size_t len);

#endif
