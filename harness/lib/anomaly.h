/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * anomaly.h - things that make a measurement untrustworthy, each with a
 * kind, a severity, a message with its figures, and advice.
 */
#ifndef PINBENCH_ANOMALY_H
#define PINBENCH_ANOMALY_H

#include <jansson.h>

/* PB_SEV_DEFAULT: the kind's default severity, from pb_anomaly_kinds[] */
enum pb_sev { PB_SEV_DEFAULT = -1, PB_SEV_INFO, PB_SEV_WARN, PB_SEV_ERROR };

/*
 * Every kind of anomaly pinbench raises; pb_anomaly_kinds[] (anomaly.c)
 * gives each its name as written in result files, its mark letter in
 * tables (or none: "!"), its default severity and its one-line meaning,
 * which the legend of doc/pinbench-marks.7.scd repeats
 * (tests/unit/lib/test_anomaly.c checks).
 * A new kind is a line here and one there.
 */
enum pb_anomaly_kind {
	PB_AN_COUNTER_MULTIPLEXED,
	PB_AN_FREQUENCY_DRIFT,
	PB_AN_FREQUENCY_LOW,
	PB_AN_COUNTER_CLOCK_MISMATCH,
	PB_AN_OBSERVER_EFFECT,
	PB_AN_NOISY_NEIGHBOR,
	PB_AN_NOISY,
	PB_AN_MIGRATION,
	PB_AN_THROTTLING,
	PB_AN_LOST,
	PB_AN_SHARED_CPUS,
	PB_AN_STALL,
	PB_AN_OUTLIER_SLICES,
	PB_AN_CPU_STEAL,
	PB_AN_ENV,			/* "env-<check>": pb_anomaly_add_env() */
	PB_AN_COUNTER_NOT_COUNTED,
	PB_AN_COUNTER_UNSUPPORTED,
	PB_AN_COUNTER_VARIANCE,
	PB_AN_CLOCK_INCONSISTENT,
	PB_AN_INTERVAL_FLAGGED,
	PB_AN_EFFECTIVE_CLOCK,
	PB_AN_PROBE_DISTURBED,
	PB_AN_NR
};

struct pb_anomaly_kind_info {
	const char	*name;		/* in result files; "env-" is a prefix */
	const char	*mark;		/* "M": one letter in tables; NULL: none ("!") */
	enum pb_sev	sev;		/* default severity */
	const char	*meaning;	/* the man page's legend, word for word */
};

extern const struct pb_anomaly_kind_info pb_anomaly_kinds[PB_AN_NR];

struct pb_anomaly {
	char		kind[32];	/* name: pb_anomaly_kinds[], or from a file */
	enum pb_sev	sev;
	char		message[320];
	char		advice[200];
};

struct pb_anomalies {
	struct pb_anomaly	*v;
	int			nr;
};

void pb_anomaly_add(struct pb_anomalies *a, enum pb_anomaly_kind kind, enum pb_sev sev,
		    const char *advice, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* PB_AN_ENV for the environment check named check: kind "env-<check>" */
void pb_anomaly_add_env(struct pb_anomalies *a, const char *check, enum pb_sev sev,
			const char *advice, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void pb_anomalies_free(struct pb_anomalies *a);
const char *pb_sev_name(enum pb_sev sev);		/* "info", "warn", "error" */
/* [{"kind","severity","message","advice"}] */
json_t *pb_anomalies_json(const struct pb_anomalies *a);
/*
 * A kind's mark for tables, by its name as in a result file: its letter
 * in pb_anomaly_kinds[], or "!" for any other (unknown kinds included).
 */
const char *pb_anomaly_mark(const char *kind);

#endif
