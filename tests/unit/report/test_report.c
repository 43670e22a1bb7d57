// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_report.c - `pinbench report` on result files made by the seeded
 * generator (tests/tools/genresults.c): report.md and report.txt against
 * golden files, and what an LKP reader looks for in them: each side's
 * kernel, commit and date, the machine line, the job's parameters and job
 * file, the compact table in one precision, no untested per-op rows.
 *
 * UPDATE_GOLDEN=1 rewrites tests/golden/report.{md,txt}.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "golden.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmds.h"

#define GENRESULTS_NO_MAIN
#include "tools/genresults.c"

static char tmpdir[256];
static char *md, *txt;		/* the report of the fixtures, made once */

/* Three runs a side: 6.1.0 against a 6.2 release that names its commit, +4 % on the new side. */
static void fixtures(void)
{
	char path[512], err[640];
	struct gen_spec s;

	for (int k = 0; k < 6; k++) {
		gen_defaults(&s);
		s.seed = 20 + (uint64_t)k;
		s.label = k < 3 ? "6.1.0" : "6.2.0-rc1";
		s.kernel = k < 3 ? "6.1.0" : "6.2.0-rc1-00012-g1a2b3c4d5e6f";
		s.hostname = "lab-1";
		s.cpu_model = "Intel Xeon @ 2.80GHz";
		s.topology = "1:2:2";
		s.memory_kb = 24962680;	/* MemTotal of a 24 GiB machine: 23.8 GiB */
		s.config = "/home/lkp/jobs/udpping-poll.ini";	/* a long path: wrapped */
		/* an escape sequence in a job file reaches no terminal */
		s.config_text = k < 3 ? NULL : "[udp]\nbench = pipe\npoll = 1\nbusy_poll = 50\n"
					       "# \033[2J\n";
		s.params = "poll=1 busy_poll=50";
		s.derived = true;
		s.cv = 0.005;
		s.shift = k < 3 ? 0 : 0.04;
		s.anomaly = k < 3 ? NULL : "noisy:stream:same-cpu";
		snprintf(path, sizeof(path), "%s/%s/r%d.json", tmpdir, k < 3 ? "base" : "new", k);
		assert_int_equal(gen_write(&s, path, err, sizeof(err)), 0);
	}
}

/* cmd_report with these argc arguments, its stdout to /dev/null */
static int quiet_report(char **argv, int argc)
{
	int fd, saved, rc;

	fflush(stdout);
	fd = open("/dev/null", O_WRONLY);
	saved = dup(1);
	dup2(fd, 1);
	close(fd);
	rc = cmd_report(argc, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	return rc;
}

static int setup(void **state)
{
	char a[300], b[300], out[300], path[320];
	char *argv[] = { "report", "--no-plot", "-o", out, a, b, NULL };
	int rc;

	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s/pb-report-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(a, sizeof(a), "%s/base", tmpdir);
	snprintf(b, sizeof(b), "%s/new", tmpdir);
	snprintf(out, sizeof(out), "%s/r", tmpdir);
	mkdir(a, 0755);
	mkdir(b, 0755);
	fixtures();
	rc = quiet_report(argv, 6);
	snprintf(path, sizeof(path), "%s/report.md", out);
	md = rc ? NULL : golden_text(path);
	snprintf(path, sizeof(path), "%s/report.txt", out);
	txt = rc ? NULL : golden_text(path);
	return rc ? -1 : 0;
}

static int teardown(void **state)
{
	char cmd[400];

	(void)state;
	free(md);
	free(txt);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) ? -1 : 0;
}

/*
 * A profile pass on each same-cpu job of the result at path (the new
 * side's reader spins), and on the baseline's same-core jobs only.
 */
static void add_profiles(const char *path, bool spin, double slower)
{
	json_t *d = json_load_file(path, 0, NULL), *j;
	size_t i;

	assert_non_null(d);
	json_array_foreach(json_object_get(d, "jobs"), i, j) {
		if (strcmp(json_string_value(json_object_get(j, "placement")), "same-cpu") &&
		    (spin || strcmp(json_string_value(json_object_get(j, "placement")),
				    "same-core")))
			continue;
		json_object_set_new(j, "profile", json_pack(
			"{s:b, s:s, s:[{s:s, s:f, s:s}]}", "sampled", 1, "event", "cpu-clock",
			"roles", "role", "reader", "ns_per_op_per_sample", 10.0, "folded",
			spin ? "main;read;pipe_read 60\nmain;read;schedule 40\nmain;spin_loops 30\n" :
			"main;read;pipe_read 60\nmain;read;schedule 40\n"));
		json_object_set_new(json_object_get(j, "profile"), "slower", json_real(slower));
	}
	assert_int_equal(json_dump_file(d, path, 0), 0);
	json_decref(d);
}

/*
 * Where the change went: the same-cpu cells carry profiles, the reader's
 * spin_loops 0 -> 300 ns/op; the section names it per role, the event
 * and where a software event puts interrupts-off time, links the flame
 * graph written beside; same-core (no profile) gets nothing.
 */
static void test_profiles(void **state)
{
	char a[300], b[300], out[300], path[400], *pmd, *ptxt, *svg, *line, *flat;
	char *argv[] = { "report", "--no-plot", "-o", out, a, b, NULL };

	(void)state;
	snprintf(a, sizeof(a), "%s/base", tmpdir);
	snprintf(b, sizeof(b), "%s/new", tmpdir);
	snprintf(out, sizeof(out), "%s/p", tmpdir);
	for (int k = 0; k < 6; k++) {
		snprintf(path, sizeof(path), "%s/%s/r%d.json", tmpdir, k < 3 ? "base" : "new", k);
		add_profiles(path, k >= 3, k < 3 ? 0.4 + 0.1 * k : 0.25);
	}
	assert_int_equal(quiet_report(argv, 6), 0);
	snprintf(path, sizeof(path), "%s/report.md", out);
	pmd = golden_text(path);
	snprintf(path, sizeof(path), "%s/report.txt", out);
	ptxt = golden_text(path);
	/* 3 runs a side, 30 samples of 10 ns/op a run: 300 ns/op ± 10 sqrt(90) / 3 */
	assert_non_null(strstr(pmd, "## Where the change went\n\n**pingpong same-cpu**, reader: "
				    "+300 ns ± 88 ns per op (1.00 µs → 1.30 µs, cpu-clock; "
				    "[flame graph](flame-pingpong-same-cpu-reader.svg)). The "
				    "functions whose own time per op changed most:\n"));
	assert_non_null(strstr(pmd, "**stream same-cpu**, reader: "));
	assert_non_null(strstr(pmd, "| `spin_loops` | 0 ns | 300 ns | +300 ns ± 32 ns |\n"));
	assert_non_null(strstr(ptxt, "Where the change went:\n\n  pingpong same-cpu, reader: "));
	assert_non_null(strstr(ptxt, "    spin_loops                   0 ns →    300 ns"
				     "      +300 ns ± 32 ns\n"));
	flat = strdup(ptxt);	/* the legend is wrapped without an indent */
	assert_non_null(flat);
	for (char *c = flat; *c; c++)
		*c = *c == '\n' ? ' ' : *c;
	assert_non_null(strstr(flat, "converted by the role's task-clock (less what its samples "
				     "cost) and ops in the same window"));
	assert_non_null(strstr(flat, "cpu-clock is a software event: time in interrupts-off"));
	free(flat);
	/* the profiled windows' pace: base 0.4, 0.5, 0.6 (mean 50 %), new 25 % */
	assert_non_null(strstr(pmd, "*pingpong same-cpu*: the profiled windows ran 50 % slower "
				    "(6.1.0) and 25 % slower (6.2.0-rc1) than the metric's repeats: "
				    "the times per op are those windows'.\n\n"));
	assert_non_null(strstr(ptxt, "\n  pingpong same-cpu: the profiled windows ran 50 % "));
	assert_null(strstr(pmd, "same-core**, reader"));
	for (line = ptxt; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		assert_true(strcspn(line, "\n") <= 72 + 4);	/* bytes: → ± µs are 2-3 */
	snprintf(path, sizeof(path), "%s/flame-pingpong-same-cpu-reader.svg", out);
	svg = golden_text(path);
	assert_non_null(svg);
	assert_non_null(strstr(svg, "<title>main;spin_loops&#10;300.0 ns/op"));
	assert_non_null(strstr(svg, "6.1.0 (6.1.0) \xe2\x86\x92 6.2.0-rc1 (6.2.0-rc1-00012-"));
	snprintf(path, sizeof(path), "%s/flame-pingpong-same-core-reader.svg", out);
	assert_int_equal(access(path, F_OK), -1);
	free(svg);
	free(pmd);
	free(ptxt);
	/* +4 % is below a 5 % floor: not significant, nothing to explain */
	char *argv5[] = { "report", "--no-plot", "--min-change", "5", "-o", out, a, b, NULL };

	snprintf(out, sizeof(out), "%s/p5", tmpdir);
	assert_int_equal(quiet_report(argv5, 8), 0);
	snprintf(path, sizeof(path), "%s/report.md", out);
	pmd = golden_text(path);
	assert_null(strstr(pmd, "Where the change went"));
	free(pmd);
	snprintf(path, sizeof(path), "%s/flame-pingpong-same-cpu-reader.svg", out);
	assert_int_equal(access(path, F_OK), -1);
}

static void test_golden(void **state)
{
	(void)state;
	golden_match(md, "tests/golden/report.md");
	golden_match(txt, "tests/golden/report.txt");
}

/* The header: each side's kernel, the commit its release names, its dates, the machine. */
static void test_header(void **state)
{
	(void)state;
	for (int k = 0; k < 2; k++) {
		const char *r = k ? md : txt;

		assert_non_null(strstr(r, "6.2.0-rc1-00012-g1a2b3c4d5e6f (#1 SMP)"));
		assert_non_null(strstr(r, "6.1.0 (#1 SMP)"));
		assert_non_null(strstr(r, "1a2b3c4d5e6f (from the release"));
		assert_non_null(strstr(r, "2026-01-01 00:00 to 00:01 UTC"));
		assert_non_null(strstr(r, "1 package, 2 cores, 2 PUs, Intel Xeon @ 2.80GHz, "
					  "24 GB"));
	}
	/* 6.1.0 names no commit: one commit line only */
	assert_null(strstr(strstr(txt, "commit") + 1, "commit "));
}

/* The job's parameters, the job file inline where recorded and said where not. */
static void test_jobs(void **state)
{
	(void)state;
	assert_non_null(strstr(txt, "pingpong: bench=pipe repeats=4 poll=1 busy_poll=50"));
	assert_non_null(strstr(md, "- **pingpong**: `bench=pipe repeats=4 poll=1 busy_poll=50`"));
	assert_non_null(strstr(txt, "Job file /home/lkp/jobs/udpping-poll.ini (6.1.0): its text "
				    "is not in the\n  result files."));
	assert_non_null(strstr(txt, "Job file /home/lkp/jobs/udpping-poll.ini (6.2.0-rc1):\n"
				    "    [udp]\n"));
	assert_non_null(strstr(md, "\n    [udp]\n    bench = pipe\n    poll = 1\n"
				   "    busy_poll = 50\n"));
	assert_non_null(strstr(txt, "/home/lkp/jobs/udpping-poll.ini: the job file is under Jobs"));
	assert_non_null(strstr(txt, "    # ?[2J\n"));
	assert_null(strchr(txt, '\033'));
	assert_null(strchr(md, '\033'));
}

/* The decimals of a figure: "10.41" 2, "1.36 M" 2, "12" 0. */
static int decimals(const char *s)
{
	const char *dot = strchr(s, '.');

	return dot ? (int)strspn(dot + 1, "0123456789") : 0;
}

/*
 * The compact table: Min, Mean, Stddev and Max of a cell in one form on
 * both sides, Hmean for a rate, no per-op rows, 72 columns.
 */
static void test_table(void **state)
{
	char *copy = strdup(txt), *save, *line;
	int rows = 0, cell = -1;

	(void)state;
	assert_non_null(strstr(txt, "n       Min     Hmean    Stddev CoeffVar       Max Change"));
	assert_non_null(strstr(txt, "n       Min      Mean    Stddev CoeffVar       Max Change"));
	assert_null(strstr(txt, "/op"));
	assert_null(strstr(md, "/op"));
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char side[8], mn[16], me[16], sd[16], mx[16], cv[16];
		int n;

		assert_true(strlen(line) <= 72 + 1);	/* "µ" is two bytes */
		if (sscanf(line, " %7s %d %15s %15s %15s %15s %15s", side, &n, mn, me, sd, cv,
			   mx) != 7 || (strcmp(side, "base") && strcmp(side, "new")))
			continue;
		rows++;
		if (!strcmp(side, "base"))
			cell = decimals(me);
		assert_int_equal(decimals(mn), cell);
		assert_int_equal(decimals(me), cell);
		assert_int_equal(decimals(sd), cell);
		assert_int_equal(decimals(mx), cell);
		assert_int_equal(decimals(cv), 2);
	}
	assert_int_equal(rows, 8);	/* 2 jobs x 2 placements x 2 sides */
	free(copy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_jobs),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_profiles),	/* last: it changes the fixtures */
	};

	if (getenv("PB_TEST_FILTER"))
		cmocka_set_test_filter(getenv("PB_TEST_FILTER"));
	return cmocka_run_group_tests(tests, setup, teardown);
}
