// SPDX-License-Identifier: GPL-2.0-only
/*
 * result_fuzz.c - libFuzzer target for the result-file loader
 * (report/resultload.c, compare_load.c): any bytes are parsed and checked
 * against pinbench-result/1 (pb_result_parse), then read as compare and
 * export read a file (pb_cmp_load, through a memfd) and, when they load,
 * reported as text and JSON, exported as JUnit and added to a history.  A
 * file that does not load has a message naming it that quotes none of it.
 *
 * clang -fsanitize=fuzzer,address -Iharness -Ibenches ... (tests/e2e/fuzz.sh)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "report/compare.h"
#include "report/export.h"
#include "report/history.h"
#include "report/resultload.h"

#define NAME	"fuzz.json"

static void use(struct pb_cmp *c, json_t *root)
{
	struct pb_cmp_opts o = { .min_change = 1 };
	struct pb_exp_opts e = { .format = PB_EXP_JUNIT, .base = -1, .min_change = 1 };
	struct pb_exp_counts n = { 0 };
	struct pb_history h = { 0 };
	char err[512], *text = NULL;
	size_t len = 0;
	FILE *f;

	pb_cmp_order(c, false);
	f = open_memstream(&text, &len);
	if (!f)
		return;
	pb_cmp_report(c, &o, f, err, sizeof(err));
	o.format = PB_FMT_JSON;
	pb_cmp_report(c, &o, f, err, sizeof(err));
	if (c->nr_groups)
		pb_export(c, &e, f, &n, err, sizeof(err));
	fclose(f);
	free(text);
	if (!pb_history_add(&h, NAME, root, true))
		pb_history_analyse(&h);
	pb_history_free(&h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pb_cmp c = { 0 };
	char err[1024], path[64];
	json_t *root;
	int fd;

	err[0] = '\0';
	root = pb_result_parse(NAME, (const char *)data, size, err, sizeof(err));
	if (!root) {
		if (strncmp(err, NAME ": ", strlen(NAME) + 2))
			abort();	/* names the file */
		if (!strncmp(err, NAME ": cannot read: ", strlen(NAME) + 15) &&
		    strstr(err, " near '"))
			abort();	/* a parse error quotes none of it */
		return 0;
	}
	fd = memfd_create("result", 0);
	if (fd < 0)
		abort();
	if (write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (pb_cmp_load(&c, path, err, sizeof(err)))
		abort();	/* it parsed above: the loader reads it too */
	use(&c, root);
	pb_cmp_free(&c);
	json_decref(root);
	close(fd);
	return 0;
}
