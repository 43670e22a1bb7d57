/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfstat.h - read someone else's `perf stat` output and give it the
 * verdict pinbench gives its own runs.
 *
 * Formats: the default text output (perf 6.x, and the 2009 layout with
 * "(scaled from 66.67%)" and "task-clock-msecs"), and `-x,` CSV in
 * perf 6.1's column order: value, unit, event, counter run time (ns),
 * percentage of measurement time, metric value, metric unit.  A leading
 * "CPUn" column (-A) is accepted; events met more than once (per CPU,
 * hybrid cpu_core/cpu_atom) are summed.  Text values use ',' as the
 * thousands separator (the C and English locales).  A count that is
 * negative, NaN or infinite is an error naming the line.
 *
 * Checks:
 *  - counter-multiplexed (warn): an event counted less than 100 % of the
 *    time; its value is perf's scaled estimate, not a count;
 *  - counter-not-counted / counter-unsupported (warn);
 *  - frequency-low (warn; error beyond 25 %): the effective clock
 *    cycles / task-clock (or cpu-clock; both sum all CPUs' time) more than
 *    10 % below the nominal clock.  The message says whether cycles were
 *    time-shared (the count may be wrong) or fully counted (the clock
 *    itself was low).
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

struct pb_ps_event {
	char			name[96];	/* as printed: "cycles", "cpu_core/cycles/" */
	enum pb_ps_status	status;
	double			value;		/* as printed (perf's scaled estimate) */
	char			unit[16];	/* "msec", or "" */
	double			pct;		/* counted share of the time, 100 when full */
	double			metric;		/* the "# 2.000 GHz" figure, or NAN */
	char			metric_unit[48];
	int			nr;		/* lines summed into this event */
};

struct pb_perfstat {
	struct pb_ps_event	*ev;
	int			nr;
	double			elapsed_s;	/* "seconds time elapsed", or -1 */
	bool			csv;		/* at least one CSV line was read */
};

/*
 * Parse the text of perf stat output.  0, or -1 with err (nothing found,
 * ENOMEM, "line N: cycles: negative count -5").
 */
int pb_perfstat_parse(const char *text, struct pb_perfstat *ps, char *err, size_t len);
/* Parse a file ("-": stdin); errors name it ("FILE:LINE: ..."). */
int pb_perfstat_load(const char *path, struct pb_perfstat *ps, char *err, size_t len);
void pb_perfstat_free(struct pb_perfstat *ps);
/* The event whose base name (modifiers, PMU prefix stripped) is name, or NULL. */
const struct pb_ps_event *pb_perfstat_find(const struct pb_perfstat *ps, const char *name);

struct pb_ps_verdict {
	double	eff_mhz;		/* cycles / clock event, 0 when unknown */
	double	nominal_mhz;		/* 0 when unknown */
	char	nominal_src[64];	/* "given", "this host: tsc", ... */
	double	cycles_pct;		/* cycles' counted share, 0 unknown */
	int	nr_multiplexed, nr_not_counted, nr_unsupported;
};

/*
 * Check ps, against nominal_mhz (> 0), or else this machine's nominal
 * clock when detect is true.  Anomalies go to a.  0 always.
 */
int pb_perfstat_check(const struct pb_perfstat *ps, double nominal_mhz, bool detect,
		      struct pb_anomalies *a, struct pb_ps_verdict *v);
json_t *pb_perfstat_json(const struct pb_perfstat *ps, const struct pb_ps_verdict *v);

#endif
