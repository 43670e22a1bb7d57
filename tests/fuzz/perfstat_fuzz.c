// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfstat_fuzz.c - libFuzzer target for the perf stat reader
 * (perfstat.c): any bytes as text through pb_perfstat_parse, then the
 * verdict against a given nominal clock (no machine look-up) and the JSON
 * report.  Every count read is a count: not negative, not NaN.
 *
 * clang -fsanitize=fuzzer,address -Iharness -Ibenches ... (tests/e2e/fuzz.sh)
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "checks/perfstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pb_anomalies a = { 0 };
	struct pb_ps_verdict v;
	struct pb_perfstat ps;
	char *text, err[512];
	json_t *j;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';	/* the reader takes text: a NUL ends it */
	if (pb_perfstat_parse(text, &ps, err, sizeof(err))) {
		free(text);
		return 0;
	}
	for (int i = 0; i < ps.nr; i++)
		if (ps.ev[i].value < 0 || isnan(ps.ev[i].value))
			abort();
	pb_perfstat_check(&ps, 3000, false, &a, &v);
	j = pb_perfstat_json(&ps, &v);
	json_decref(j);
	pb_anomalies_free(&a);
	pb_perfstat_free(&ps);
	free(text);
	return 0;
}
