/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfstat.h - read someone else's `perf stat` output and give it the
 * verdict pinbench gives its own runs.
 *
 * Formats, told apart line by line (perf 4.x to 6.x):
 *  - the default text, perf 6.x's and older layouts: "task-clock (msec)"
 *    (4.x), "(scaled from 66.67%)" and "task-clock-msecs" (2009);
 *  - -x SEP with any one-character separator (',', ';', ':', tab...),
 *    taken from the first line that reads as one: value, unit, event,
 *    [run-to-run variance "9.08%" with -r], counter run time (ns),
 *    percentage of measurement time, metric value, metric unit;
 *  - -j / --json: one object per line with "counter-value" (a string, or a
 *    number), "unit", "event", "variance" (-r), "event-runtime",
 *    "pcnt-running", "metric-value", "metric-unit", "interval" (-I), "cpu";
 *  - -I MS: each form with a leading timestamp column (JSON: "interval"):
 *    the events of each interval are kept, and summed for the whole unless
 *    perf printed its own --summary (CSV: a "summary" column) after them;
 *  - -r N: "( +- 9.08% )" (the variance column, "variance") is kept per
 *    event, "(N runs)" and the elapsed time's own "( +- x% )" too.
 * A leading "CPUn" column (-A) is accepted; events met more than once (per
 * CPU, hybrid cpu_core/cpu_atom, intervals) are summed.  Text values use
 * ',' as the thousands separator (the C and English locales).  A count that
 * is negative, NaN or infinite is an error naming the line.
 *
 * Checks:
 *  - counter-multiplexed (warn): an event counted less than 100 % of the
 *    time; its value is perf's scaled estimate, not a count;
 *  - counter-not-counted / counter-unsupported (warn);
 *  - frequency-low (warn; error beyond 25 %): the effective clock
 *    cycles / task-clock (or cpu-clock; both sum all CPUs' time) more than
 *    10 % below the nominal clock.  The message says whether cycles were
 *    time-shared (the count may be wrong) or fully counted (the clock
 *    itself was low);
 *  - counter-variance (warn): with -r, an event (or the elapsed time) whose
 *    run-to-run "( +- x% )" is above PB_PS_VARIANCE_MAX: the runs disagree,
 *    one run's figure says little;
 *  - clock-inconsistent (warn): perf's own "# 2.001 GHz" on the cycles line
 *    and cycles / task-clock disagree by more than PB_MISMATCH_MAX (the
 *    paste was cut, edited, or summed over rows perf judged apart);
 *  - interval-flagged (the worst severity of them): with -I, each interval
 *    is judged as a whole output would be; the intervals flagged are listed
 *    (an interval in which every event is <not counted> or <not supported>
 *    counted nothing: it is counted as idle, not judged).
 * The nominal clock: --nominal-mhz when given; otherwise this machine's
 * (pb_nominal_detect), which is only right when the output came from this
 * machine: the message says which source was used.  Without either, the
 * effective clock is reported (info) but not judged.  An effective clock
 * above nominal is not flagged (turbo can reach several times the base).
 */
#ifndef PINBENCH_PERFSTAT_H
#define PINBENCH_PERFSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "lib/anomaly.h"

enum pb_ps_status { PB_PS_OK, PB_PS_NOT_COUNTED, PB_PS_NOT_SUPPORTED };
enum pb_ps_format { PB_PS_TEXT, PB_PS_CSV, PB_PS_JSON };

#define PB_PS_VARIANCE_MAX	5.0	/* %, perf's "( +- x% )" over -r runs */

struct pb_ps_event {
	char			name[96];	/* as printed: "cycles", "cpu_core/cycles/" */
	enum pb_ps_status	status;
	double			value;		/* as printed (perf's scaled estimate) */
	char			unit[16];	/* "msec", or "" */
	double			pct;		/* counted share of the time, 100 when full */
	double			variance;	/* -r: "( +- x% )", NAN when none */
	double			metric;		/* the "# 2.000 GHz" figure, or NAN */
	char			metric_unit[48];
	int			nr;		/* lines summed into this event */
};

struct pb_perfstat {
	struct pb_ps_event	*ev;
	int			nr;
	int			cap;		/* room in ev (pb_grow) */
	double			elapsed_s;	/* "seconds time elapsed", or -1 */
	double			elapsed_var;	/* its "( +- x% )" with -r, NAN when none */
	bool			csv;		/* at least one CSV line was read */
	enum pb_ps_format	format;		/* JSON when a JSON line was read, else CSV, text */
	char			sep;		/* -x's separator, '\0' when none */
	int			runs;		/* "(N runs)", 0 when not said */
	bool			has_variance;	/* a variance was read (-r) */
	bool			perf_summary;	/* -I --summary: the whole is perf's, not the sum */
	/* -I: one struct per interval (no intervals of their own), t its end */
	struct pb_perfstat	*iv;
	int			nr_iv;
	int			cap_iv;		/* room in iv */
	double			t;
};

/*
 * Parse the text of perf stat output.  0, or -1 with err (nothing found,
 * ENOMEM, "line N: cycles: negative count -5").  A test seam: the fuzzer's
 * and the unit tests' entry (pb_perfstat_load reads a file into it).
 */
int pb_perfstat_parse(const char *text, struct pb_perfstat *ps, char *err, size_t len);
/* Parse a file ("-": stdin); errors name it ("FILE:LINE: ..."). */
int pb_perfstat_load(const char *path, struct pb_perfstat *ps, char *err, size_t len);
void pb_perfstat_free(struct pb_perfstat *ps);
/*
 * The event whose base name (modifiers, PMU prefix stripped) is name, or
 * NULL.  The unit tests read a parse through it.
 */
const struct pb_ps_event *pb_perfstat_find(const struct pb_perfstat *ps, const char *name);

struct pb_ps_verdict {
	double	eff_mhz;		/* cycles / clock event, 0 when unknown */
	double	nominal_mhz;		/* 0 when unknown */
	char	nominal_src[64];	/* "given", "this host: tsc", ... */
	double	cycles_pct;		/* cycles' counted share, 0 unknown */
	double	paste_mhz;		/* perf's own "# x GHz" on cycles, 0 when none */
	bool	nominal_here;		/* nominal_mhz is this host's, not given */
	int	nr_iv_flagged, nr_iv_idle;
	int	nr_multiplexed, nr_not_counted, nr_unsupported;
};

/*
 * Check ps, against nominal_mhz (> 0), or else this machine's nominal
 * clock when detect is true.  Anomalies go to a.  0 always.  With
 * intervals, each is judged too (pb_perfstat_check_interval) and summed up
 * in one interval-flagged anomaly.
 */
int pb_perfstat_check(const struct pb_perfstat *ps, double nominal_mhz, bool detect,
		      struct pb_anomalies *a, struct pb_ps_verdict *v);
/*
 * Interval i of ps on its own, against the nominal clock whole (ps's
 * verdict) found: true when it counted nothing (then not judged).
 */
bool pb_perfstat_check_interval(const struct pb_perfstat *ps, int i,
				const struct pb_ps_verdict *whole, struct pb_anomalies *a,
				struct pb_ps_verdict *v);
/* The worst severity in a, -1 when empty. */
int pb_perfstat_worst(const struct pb_anomalies *a);
/* "text", "CSV", "JSON" */
const char *pb_perfstat_format_name(enum pb_ps_format f);
/* The events, the verdict's figures, and with intervals each one's. */
json_t *pb_perfstat_json(const struct pb_perfstat *ps, const struct pb_ps_verdict *v);

#endif
