/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the unit tests that look at the anomalies a check raised
 * (tests/test_env.c, tests/test_probe.c).  A header, not a test_*.c: each
 * of those is built as a test binary of its own.
 */
#ifndef PB_TESTS_ANOMALY_FIXTURE_H
#define PB_TESTS_ANOMALY_FIXTURE_H

#include <stdbool.h>
#include <string.h>

#include "lib/anomaly.h"

/* Was an anomaly of this kind raised with this severity? */
static inline bool has_kind(const struct pb_anomalies *a, const char *kind, enum pb_sev sev)
{
	int i;

	for (i = 0; i < a->nr; i++)
		if (!strcmp(a->v[i].kind, kind) && a->v[i].sev == sev)
			return true;
	return false;
}

#endif /* PB_TESTS_ANOMALY_FIXTURE_H */
