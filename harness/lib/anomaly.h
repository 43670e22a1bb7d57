/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * anomaly.h - things that make a measurement untrustworthy, each with a
 * kind, a severity, a message with its figures, and advice.
 */
#ifndef PINBENCH_ANOMALY_H
#define PINBENCH_ANOMALY_H

#include <jansson.h>

enum pb_sev { PB_SEV_INFO, PB_SEV_WARN, PB_SEV_ERROR };

struct pb_anomaly {
	char		kind[32];	/* "counter-multiplexed", "frequency-drift", ... */
	enum pb_sev	sev;
	char		message[320];
	char		advice[200];
};

struct pb_anomalies {
	struct pb_anomaly	*v;
	int			nr;
};

void pb_anomaly_add(struct pb_anomalies *a, const char *kind, enum pb_sev sev,
		    const char *advice, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void pb_anomalies_free(struct pb_anomalies *a);
const char *pb_sev_name(enum pb_sev sev);		/* "info", "warn", "error" */
int pb_sev_parse(const char *s);			/* -1 when unknown */
/* [{"kind","severity","message","advice"}] */
json_t *pb_anomalies_json(const struct pb_anomalies *a);
/*
 * A short mark for tables: M multiplexed, D frequency-drift, L frequency-low,
 * C counter-clock-mismatch, O observer-effect, N noisy-neighbor, V noisy,
 * G migration, T throttling, X lost, S shared-cpus, ! other.
 */
const char *pb_anomaly_mark(const char *kind);

#endif
