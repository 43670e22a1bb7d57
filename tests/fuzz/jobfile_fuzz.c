// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobfile_fuzz.c - libFuzzer target for the job-file parser (jobfile.c):
 * any bytes go through pb_jobs_load_text against the real workload
 * tables, with and without a command-line override.  A file that loads
 * has jobs, each with a bench and its effective keys; one that does not
 * has a message naming the file, and no jobs.
 *
 * clang -fsanitize=fuzzer,address -Iharness -Ibenches ... (tests/e2e/fuzz.sh)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobfile.h"

#define NAME	"fuzz.ini"

static void load(const uint8_t *data, size_t size, const struct pb_kv *over, int nr_over)
{
	struct pb_jobset js;
	char err[1024];

	err[0] = '\0';
	if (pb_jobs_load_text(NAME, (const char *)data, size, over, nr_over, 4, &js, err,
			      sizeof(err))) {
		if (js.nr || js.jobs || !err[0])
			abort();	/* a failure leaves nothing and says why */
		if (strncmp(err, NAME, strlen(NAME)) && strncmp(err, "--", 2))
			abort();	/* ... naming the file, or the option */
		return;
	}
	if (js.nr < 1)
		abort();
	for (int i = 0; i < js.nr; i++) {
		const struct pb_job *j = &js.jobs[i];

		if (!j->bench || !pb_job_get(j, "bench") || !pb_job_get(j, "repeats"))
			abort();
		if (!j->nr_placements && !j->nr_cpus)
			abort();	/* somewhere to run */
	}
	pb_jobset_free(&js);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct pb_kv over[] = {
		{ .key = "repeats", .val = "2", .origin = "--repeats" },
	};

	load(data, size, NULL, 0);
	load(data, size, over, 1);
	return 0;
}
