// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_result.c - result JSON written atomically and read back; the run's
 * text tables (the header's effective keys, the digits the spread supports,
 * per-op figures in one unit per row, the between-rounds table).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/file.h"
#include "report/result.h"
#include "report/save.h"

struct fixture {
	struct pb_topo		*topo;
	struct pb_jobset	js;
	struct pb_result	r;
	struct pb_run		run;
	char			dir[64];
};

/* j as indented JSON, saved atomically (pb_file_save): 0, or -1 with err. */
static int save_json(const char *path, json_t *j, char *err, size_t len)
{
	char *text = json_dumps(j, JSON_INDENT(1));
	int rc;

	assert_non_null(text);
	rc = pb_file_save(path, text, false, err, len);
	free(text);
	return rc;
}

/* A result as the runner makes one: 3 metric windows and 2 counted ones. */
static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct pb_kv over[] = {
		{ "repeats", "3", "--repeats", 0 },
		{ "pattern", "pingpong", "command line", 0 },
	};
	static const double vals[] = { 10.0, 12.0, 11.0, 10.5, 10.7 };
	char err[256];
	struct pb_result *r;

	assert_non_null(f);
	assert_int_equal(pb_topo_load(&f->topo, "pack:1 core:2 pu:1", err, sizeof(err)), 0);
	assert_int_equal(pb_jobs_load(NULL, "pipe", over, 2, 2, &f->js, err, sizeof(err)), 0);
	r = &f->r;
	r->job = &f->js.jobs[0];
	snprintf(r->placement, sizeof(r->placement), "same-socket");
	r->status = PB_OK;
	r->metric = (struct pb_metric){ "rtt", "µs", true, false };
	assert_int_equal(pb_evlist_build(&r->evl, "task-clock,context-switches", err,
					 sizeof(err)), 0);
	r->nr_tasks = r->nr_groups = 2;
	r->tasks = calloc(2, sizeof(*r->tasks));
	r->group_names = calloc(2, sizeof(*r->group_names));
	r->tasks[0] = (struct pb_task){ 0, 0, 0, { 0, 0 } };
	r->tasks[1] = (struct pb_task){ 1, 0, 1, { 1, 0 } };	/* migrated at the end */
	snprintf(r->group_names[0], 32, "writer/0");
	snprintf(r->group_names[1], 32, "reader/0");
	r->reps = calloc(5, sizeof(*r->reps));
	r->nr_reps = 5;
	for (int i = 0; i < 5; i++) {
		struct pb_rep *p = &r->reps[i];

		p->value = vals[i];
		p->ops = 1000;
		p->elapsed_s = 0.01;
		p->pass = i < 3 ? -1 : 0;
		p->in_summary = i < 3;
		p->counts = calloc(2 * r->evl.nr, sizeof(*p->counts));
		for (int k = 0; k < 2 * r->evl.nr; k++)
			p->counts[k] = (struct pb_count){ 2000 + k, 100, i == 4 && k == 1 ? 50 : 100,
							  PB_CNT_OK };
	}
	pb_summarize((double[]){ 10.0, 12.0, 11.0 }, 3, false, &r->summary);
	pb_anomaly_add(&r->anomalies, PB_AN_NOISY, PB_SEV_WARN, "quiet it", "CV %.2f %%", 9.09);
	f->run = (struct pb_run){ .label = "2.6.29", .config = NULL,
				  .cmdline = "pinbench test", .topo = f->topo,
				  .results = r, .nr = 1, .obs_cpu = -1 };
	snprintf(f->run.started, sizeof(f->run.started), "2026-11-30T00:00:00Z");
	snprintf(f->dir, sizeof(f->dir), "/tmp/pb-test-result.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	pb_result_free(&f->r);
	pb_jobset_free(&f->js);
	pb_topo_free(f->topo);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

static json_t *write_and_read(struct fixture *f, const char *name)
{
	char path[128], err[256];
	json_error_t je;
	json_t *j = pb_run_json(&f->run), *back;

	assert_non_null(j);
	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	assert_int_equal(save_json(path, j, err, sizeof(err)), 0);
	json_decref(j);
	back = json_load_file(path, 0, &je);
	assert_non_null(back);
	return back;
}

static void test_round_trip_fields(void **state)
{
	struct fixture *f = *state;
	json_t *d = write_and_read(f, "a.json");
	json_t *job = json_array_get(json_object_get(d, "jobs"), 0);
	json_t *sum = json_object_get(job, "summary");

	assert_string_equal(json_string_value(json_object_get(d, "schema")), "pinbench-result/1");
	assert_string_equal(json_string_value(json_object_get(d, "label")), "2.6.29");
	assert_true(json_is_null(json_object_get(d, "config")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		json_object_get(d, "host"), "topology"), "cores")), 2);
	assert_string_equal(json_string_value(json_object_get(job, "status")), "ok");
	assert_string_equal(json_string_value(json_object_get(job, "bench")), "pipe");
	assert_string_equal(json_string_value(json_object_get(json_object_get(job, "params"),
							      "repeats")), "3");
	assert_string_equal(json_string_value(json_object_get(json_object_get(job, "metric"),
							      "better")), "lower");
	assert_int_equal(json_integer_value(json_object_get(sum, "n")), 3);
	assert_float_equal(json_real_value(json_object_get(sum, "mean")), 11.0, 1e-9);
	assert_float_equal(json_real_value(json_object_get(sum, "median")), 11.0, 1e-9);
	assert_float_equal(json_real_value(json_object_get(sum, "stddev")), 1.0, 1e-9);
	/* t(2) = 4.3027, s/sqrt(3) = 0.57735: half width 2.4841 */
	assert_float_equal(json_real_value(json_array_get(json_object_get(sum, "ci95"), 0)),
			   11.0 - 2.4841, 1e-3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(job, "anomalies"), 0), "kind")), "noisy");
	json_decref(d);
}

/*
 * The job file's text is kept whole, lines and all, and left out when there
 * is none; the host's memory is recorded.
 */
static void test_config_text(void **state)
{
	struct fixture *f = *state;
	json_t *d = write_and_read(f, "none.json");

	assert_null(json_object_get(d, "config_text"));
	/* the machine's memory beside it, for the report's machine line */
	assert_true(json_integer_value(json_object_get(json_object_get(d, "host"),
						       "memory_kb")) > 0);
	json_decref(d);
	f->run.config = "configs/udp.ini";
	f->run.config_text = "[udp]\nbench = udpping\npoll = 1\nbusy_poll = 50\n";
	d = write_and_read(f, "text.json");
	assert_string_equal(json_string_value(json_object_get(d, "config")), "configs/udp.ini");
	assert_string_equal(json_string_value(json_object_get(d, "config_text")),
			    "[udp]\nbench = udpping\npoll = 1\nbusy_poll = 50\n");
	json_decref(d);
}

static void test_round_trip_repeats_and_counters(void **state)
{
	struct fixture *f = *state;
	json_t *d = write_and_read(f, "b.json");
	json_t *job = json_array_get(json_object_get(d, "jobs"), 0);
	json_t *reps = json_object_get(job, "repeats");
	json_t *r0 = json_array_get(reps, 0), *r4 = json_array_get(reps, 4);
	json_t *cs, *seen;

	assert_int_equal(json_array_size(reps), 5);
	assert_true(json_is_null(json_object_get(r0, "pass")));
	assert_true(json_is_true(json_object_get(r0, "in_summary")));
	assert_null(json_object_get(r0, "counters"));	/* the metric's windows count nothing */
	assert_int_equal(json_integer_value(json_object_get(r4, "pass")), 0);
	assert_true(json_is_false(json_object_get(r4, "in_summary")));
	cs = json_object_get(json_object_get(json_object_get(r4, "counters"), "writer/0"),
			     "context-switches");
	assert_int_equal(json_integer_value(json_object_get(cs, "value")), 2001);
	assert_int_equal(json_integer_value(json_object_get(cs, "running_ns")), 50);
	/* time-shared: scaled estimate and percentage */
	assert_float_equal(json_real_value(json_object_get(cs, "scaled")), 4002.0, 1e-6);
	assert_float_equal(json_real_value(json_object_get(cs, "percent")), 50.0, 1e-6);
	/* the migrated reader shows both CPUs it was seen on */
	seen = json_object_get(json_array_get(json_object_get(job, "cpus"), 1), "seen");
	assert_int_equal(json_array_size(seen), 2);
	assert_int_equal(json_integer_value(json_array_get(seen, 1)), 0);
	json_decref(d);
}

static void test_unbounded_ci_is_null(void **state)
{
	struct fixture *f = *state;
	json_t *d, *ci;

	f->r.summary.ci_hi = INFINITY;
	d = write_and_read(f, "c.json");
	ci = json_object_get(json_object_get(json_array_get(json_object_get(d, "jobs"), 0),
					     "summary"), "ci95");
	assert_true(json_is_real(json_array_get(ci, 0)));
	assert_true(json_is_null(json_array_get(ci, 1)));
	json_decref(d);
}

/* folder holds one file, name (and no temporary file beside it). */
static void assert_only_file(const char *folder, const char *name)
{
	struct dirent *e;
	DIR *dir;
	int n = 0;

	dir = opendir(folder);
	assert_non_null(dir);
	while ((e = readdir(dir)))
		if (e->d_name[0] != '.') {
			assert_string_equal(e->d_name, name);
			n++;
		}
	closedir(dir);
	assert_int_equal(n, 1);
}

static void test_atomic_write_leaves_nothing(void **state)
{
	struct fixture *f = *state;
	char path[128], err[256];
	json_t *j = json_pack("{s:i}", "a", 1);

	snprintf(path, sizeof(path), "%s/nosuchdir/x.json", f->dir);
	assert_int_equal(save_json(path, j, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "nosuchdir"));
	snprintf(path, sizeof(path), "%s/x.json", f->dir);
	assert_int_equal(save_json(path, j, err, sizeof(err)), 0);
	assert_int_equal(save_json(path, j, err, sizeof(err)), 0);	/* replaces */
	json_decref(j);
	assert_only_file(f->dir, "x.json");
}

static char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* A claim never replaces a file: the second run to want a name is told. */
static void test_claim_is_exclusive(void **state)
{
	struct fixture *f = *state;
	char path[128], err[256] = "";

	snprintf(path, sizeof(path), "%s/r.json", f->dir);
	assert_int_equal(pb_file_save(path, "{\"first\": 1}", true, err, sizeof(err)), 0);
	assert_int_equal(pb_file_save(path, "{\"second\": 2}", true, err, sizeof(err)),
			 -EEXIST);
	assert_string_equal(slurp(path), "{\"first\": 1}\n");
	/* the owner rewrites its own file */
	assert_int_equal(pb_file_save(path, "{\"first\": 3}", false, err, sizeof(err)), 0);
	assert_string_equal(slurp(path), "{\"first\": 3}\n");
	/* the link made the name: its temporary file is gone */
	assert_only_file(f->dir, "r.json");
}

/*
 * Two runs of one job file started in the same second get two files; a
 * run's later saves rewrite its own.
 */
static void test_saver_names(void **state)
{
	struct fixture *f = *state;
	struct pb_saver a, b;
	char sub[128], want[160];

	snprintf(sub, sizeof(sub), "%s/lbl", f->dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(pb_saver_init(&a, f->dir, "lbl", f->run.started, "t"), 0);
	assert_int_equal(pb_saver_init(&b, f->dir, "lbl", f->run.started, "t"), 0);
	assert_int_equal(pb_saver_save(&a, &f->run, NULL), 0);
	assert_int_equal(pb_saver_save(&b, &f->run, NULL), 0);
	assert_int_equal(pb_saver_save(&a, &f->run, NULL), 0);
	snprintf(want, sizeof(want), "%s/20261130T000000Z-t.json", sub);
	assert_string_equal(a.path, want);
	snprintf(want, sizeof(want), "%s/20261130T000000Z-t-2.json", sub);
	assert_string_equal(b.path, want);
	assert_string_equal(a.err, "");
	pb_saver_close(&a);
	pb_saver_close(&b);
	unlink(want);
	assert_only_file(sub, "20261130T000000Z-t.json");
}

/* What failed, with the error of that step (not a stale errno). */
static void test_save_error_is_real(void **state)
{
	struct fixture *f = *state;
	char path[128], err[256] = "";

	snprintf(path, sizeof(path), "%s/sub", f->dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sub", f->dir);	/* a folder as the target */
	assert_int_equal(pb_file_save(path, "{}", false, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot rename to"));
	assert_non_null(strstr(err, strerror(EISDIR)));
	snprintf(path, sizeof(path), "%s/none/x.json", f->dir);
	assert_int_equal(pb_file_save(path, "{}", false, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot create"));
	assert_non_null(strstr(err, strerror(ENOENT)));
}

/* A symlink planted as the folder is not followed; a real folder is made and written. */
static void test_subdir_no_follow(void **state)
{
	struct fixture *f = *state;
	char path[128], err[256] = "";
	int fd;

	snprintf(path, sizeof(path), "%s/link", f->dir);
	assert_int_equal(symlink(f->dir, path), 0);
	errno = 0;
	assert_int_equal(pb_subdir_open(f->dir, "link"), -1);
	assert_int_equal(errno, ELOOP);
	snprintf(path, sizeof(path), "%s/dangling", f->dir);
	assert_int_equal(symlink("/nonexistent-pb-unit", path), 0);
	assert_int_equal(pb_subdir_open(f->dir, "dangling"), -1);
	assert_int_equal(errno, ELOOP);
	assert_int_equal(access("/nonexistent-pb-unit", F_OK), -1);
	fd = pb_subdir_open(f->dir, "real");	/* made */
	assert_true(fd >= 0);
	snprintf(path, sizeof(path), "%s/real/x.json", f->dir);
	assert_int_equal(pb_file_save_at(fd, "x.json", path, "{}", true, err, sizeof(err)), 0);
	assert_int_equal(pb_file_save_at(fd, "x.json", path, "{}", true, err, sizeof(err)),
			 -EEXIST);
	assert_int_equal(access(path, R_OK), 0);
	close(fd);
	fd = pb_subdir_open(f->dir, "real");	/* exists: opened */
	assert_true(fd >= 0);
	close(fd);
}

static void test_mkdirs(void **state)
{
	struct fixture *f = *state;
	char path[128];

	snprintf(path, sizeof(path), "%s/a/b/c", f->dir);
	assert_int_equal(pb_mkdirs(path), 0);
	assert_int_equal(access(path, W_OK), 0);
	assert_int_equal(pb_mkdirs(path), 0);	/* exists: fine */
}

/* ---- the text tables (table.c) ---- */

static char *print(const struct pb_run *run, void (*fn)(const struct pb_run *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	fn(run, m);
	fclose(m);
	return buf;
}

static void has_text(const char *out, const char *want)
{
	if (!strstr(out, want))
		fail_msg("'%s' not in:\n%s", want, out);
}

static void test_table_header_size(void **state)
{
	struct fixture *f = *state;
	char *out = print(&f->run, pb_run_print_text);

	has_text(out, "pattern=pingpong size=0 (4 B); 3 x ");
	free(out);
}

/* mean 5.15 with stddev 0.95: 5.2 and 0.95, the tests to the same digit */
static void test_table_row_digits(void **state)
{
	static const double vals[] = { 5.15, 6.1, 4.2 };
	struct fixture *f = *state;
	char *out;

	for (int i = 0; i < 3; i++)
		f->r.reps[i].value = vals[i];
	pb_summarize(vals, 3, false, &f->r.summary);
	out = print(&f->run, pb_run_print_text);

	has_text(out, "same-socket   0,1        5.2       6.1       4.2        5.2      0.95");
	assert_null(strstr(out, "5.1500"));
	free(out);
}

/* task-clock/op of 25000 ns in the total: the row in µs, no "k ns" */
static void test_table_per_op_unit(void **state)
{
	struct fixture *f = *state;
	char *out;

	/* task-clock 12.5 ms per role over 1000 ops: 12.5 µs/op each */
	for (int i = 3; i < 5; i++)
		for (int k = 0; k < 2 * f->r.evl.nr; k++)
			f->r.reps[i].counts[k] = (struct pb_count){ k % 2 ? 1000 : 12500000,
								    100, 100, PB_CNT_OK };
	out = print(&f->run, pb_run_print_text);

	has_text(out, "task-clock/op                 25.00        12.50        12.50 µs");
	has_text(out, "context-switches/op           2.000        1.000        1.000\n");
	has_text(out, "  same-socket   counter pass 1 of 1 (");	/* as the progress line counts */
	assert_null(strstr(out, "k ns"));
	free(out);
}

/* task-clock per role and op, in ns, in the counted windows of r */
static void set_task_clock(struct pb_result *r, double ns)
{
	for (int i = 3; i < 5; i++)
		for (int k = 0; k < 2 * r->evl.nr; k++)
			r->reps[i].counts[k] = (struct pb_count){ k % 2 ? 1000 : ns * 1000,
								  100, 100, PB_CNT_OK };
}

/*
 * Two placements, task-clock/op 6402 ns in one and 52750 ns in the other:
 * both rows in µs with the digits of the larger, never "6402" in ns above
 * "52.75" in µs.
 */
static void test_table_per_op_one_unit(void **state)
{
	struct fixture *f = *state;
	struct pb_result two[2] = { f->r, f->r };
	struct pb_run run = f->run;
	char *out;

	snprintf(two[1].placement, sizeof(two[1].placement), "same-cpu");
	two[1].reps = calloc(5, sizeof(*two[1].reps));
	assert_non_null(two[1].reps);
	for (int i = 0; i < 5; i++) {
		two[1].reps[i] = f->r.reps[i];
		two[1].reps[i].counts = calloc(2 * f->r.evl.nr, sizeof(*f->r.reps[i].counts));
		memcpy(two[1].reps[i].counts, f->r.reps[i].counts,
		       2 * f->r.evl.nr * sizeof(*f->r.reps[i].counts));
	}
	set_task_clock(&two[0], 3201);
	set_task_clock(&two[1], 26375);
	run.results = two;
	run.nr = 2;
	out = print(&run, pb_run_print_text);
	has_text(out, "task-clock/op                  6.40         3.20         3.20 µs");
	has_text(out, "task-clock/op                 52.75        26.38        26.38 µs");
	assert_null(strstr(out, " ns\n"));
	for (int i = 0; i < 5; i++)
		free(two[1].reps[i].counts);
	free(two[1].reps);
	free(out);
}

/* The legend's lines wrapped at spaces to 100 characters, never inside a figure. */
static void test_table_legend_wrapped(void **state)
{
	struct fixture *f = *state;
	char *out, *line, *save;
	bool wrapped = false;

	pb_anomaly_add(&f->r.anomalies, PB_AN_NOISY_NEIGHBOR, PB_SEV_ERROR,
		       "stop other work on these CPUs, or isolate them (isolcpus=, cpusets)",
		       "other tasks ran 43.9 %% of the job's 1 CPUs' time in its metric windows "
		       "(0.527 s of 1.200 s; most: make (pid 6339) 0.286 s)");
	out = print(&f->run, pb_run_print_text);
	has_text(out, "\n  N same-socket [error] noisy-neighbor: other tasks ran 43.9 % ");
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int w = 0;

		for (const char *p = line; *p; p++)
			w += ((unsigned char)*p & 0xc0) != 0x80;
		assert_true(w <= 100);
		wrapped |= !strncmp(line, "    ", 4) && strstr(line, "1.200") != NULL;
	}
	assert_true(wrapped);
	free(out);
}

/* Rounds: each round's mean a value; the mean and interval to the spread's digit. */
static void test_table_rounds_digits(void **state)
{
	struct fixture *f = *state;
	struct pb_result rs[3];
	struct pb_run run = f->run;
	char *out;

	for (int i = 0; i < 3; i++) {
		rs[i] = f->r;
		rs[i].summary.mean = 1362224.866 + (i - 1) * 84373.6471;
		rs[i].summary.n = 3;
	}
	run.results = rs;
	run.nr = 3;
	run.rounds = 3;
	out = print(&run, pb_run_print_rounds);
	has_text(out, "same-socket     3/3        1.36 M");
	has_text(out, "[1.15 M, 1.57 M] µs");
	/*
	 * Resolves: sd of the ln means 0.062027, se = sd sqrt(2/3) = 0.050645,
	 * df 4: t 2.776445 + t(80 % power) 0.940965, expm1(3.717410 x 0.050645)
	 */
	has_text(out, "6.19%    ±20.7%  [");
	rs[1].summary.n = 0;	/* two rounds left: df 2 */
	free(out);
	out = print(&run, pb_run_print_rounds);
	has_text(out, " 2/3 ");
	free(out);
	run.nr = 1;	/* one round: nothing to resolve with */
	out = print(&run, pb_run_print_rounds);
	has_text(out, "%         -  - (one round)");
	free(out);
}

/* The summary: a row per cell, value and unit apart, its interval and over what. */
static void test_summary_one_round(void **state)
{
	struct fixture *f = *state;
	char *out = print(&f->run, pb_run_print_summary);

	assert_string_equal(out, "\n"
		"summary: the mean of the repeats, or of the rounds' means with more than one "
		"round;\nits 95 % interval; Resolves: the smallest change another run like it "
		"could show\n"
		"Job  Placement          Value Unit  95 % CI Over       Resolves  Marks\n"
		"pipe same-socket           11 µs    [9, 13] 3 repeats         -  V\n"
		"marks: V noisy (the detail: -v, or the result file)\n");
	free(out);
}

/* Rounds: the mean of the rounds' means, in job-file order; an error says so. */
static void test_summary_rounds_error(void **state)
{
	struct fixture *f = *state;
	struct pb_result rs[4];
	struct pb_run run = f->run;
	char *out;

	for (int i = 0; i < 4; i++) {
		rs[i] = f->r;
		rs[i].anomalies = (struct pb_anomalies){ 0 };
		rs[i].round = i / 2 + 1;
		snprintf(rs[i].placement, sizeof(rs[i].placement), "%s",
			 i % 2 ? "same-socket" : "same-cpu");
		rs[i].summary.mean = 10 + i;
	}
	pb_anomaly_add(&rs[3].anomalies, PB_AN_NOISY_NEIGHBOR, PB_SEV_ERROR, "stop it",
		       "other tasks ran 43.9 %% of the job's 1 CPUs' time");
	run.results = rs;
	run.nr = 4;
	run.rounds = 2;
	assert_int_equal(pb_run_untrusted(&run), 1);
	out = print(&run, pb_run_print_summary);
	has_text(out, "\npipe same-cpu              11 µs    [0, 24] 2/2 rounds    ±99.7%\n"
		 "pipe same-socket           12 µs    [0, 25] 2/2 rounds    ±88.4%  N error\n");
	has_text(out, "  N error\n  pipe same-socket: not to be trusted: noisy-neighbor (error): "
		 "other tasks ran 43.9 % of the job's 1\n    CPUs' time\n");
	has_text(out, "marks: N noisy-neighbor (the detail");
	free(out);
	pb_anomalies_free(&rs[3].anomalies);
	assert_int_equal(pb_run_untrusted(&f->run), 0);
}

/* CSV: a header, a row per result, full precision, reasons quoted. */
static void test_csv(void **state)
{
	struct fixture *f = *state;
	char *out;

	f->r.status = PB_FAILED;
	snprintf(f->r.reason, sizeof(f->r.reason), "a \"role\", gone");
	out = print(&f->run, pb_run_print_csv);
	assert_string_equal(out, "job,bench,placement,round,status,metric,unit,n,mean,stddev,"
		"ci95_lo,ci95_hi,min,max,marks,error,reason\n"
		"pipe,pipe,same-socket,1,failed,rtt,µs,3,11,1,8.515862288249668,"
		"13.484137711750332,10,12,V,0,\"a \"\"role\"\", gone\"\n");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(test_config_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_round_trip_repeats_and_counters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unbounded_ci_is_null, setup, teardown),
		cmocka_unit_test_setup_teardown(test_atomic_write_leaves_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mkdirs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_claim_is_exclusive, setup, teardown),
		cmocka_unit_test_setup_teardown(test_saver_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_error_is_real, setup, teardown),
		cmocka_unit_test_setup_teardown(test_subdir_no_follow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_header_size, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_row_digits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_per_op_unit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_per_op_one_unit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_rounds_digits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_legend_wrapped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_summary_one_round, setup, teardown),
		cmocka_unit_test_setup_teardown(test_summary_rounds_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_csv, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
