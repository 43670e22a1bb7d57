// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_jobfile.c - job-file parsing: inheritance, overrides, defaults,
 * every value type, sweeps, placements, cpus, and every error path with
 * its exact "FILE:LINE: ..." message.
 *
 * Runs on fake workloads (pipe, rr, epoll) through the parser's test
 * hooks, so it does not depend on benches/; placement names are topo.c's.  The bad job files in
 * tests/jobs/bad-*.ini carry their expected message on line 1:
 * "# expect: {FILE}:LINE: ...".
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glob.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/jobfile.h"
#include "core/runner.h"
#include "sys/topo.h"

extern const struct pb_bench *(*pb_jobfile_find_bench)(const char *name);
extern const struct pb_bench *const *pb_jobfile_benches;

/* ---------------------------------------------------------------- */
/* Fake workloads */

struct pipe_opts {
	int	pattern;
	long	size;
	int	poll;
	double	ratio;
	char	tag[PB_STR_MAX];
	long	secret;
};

static const struct pb_key pipe_keys[] = {
	{ .name = "pattern", .type = PB_T_ENUM, .def = "pingpong", PB_NO_RANGE,
	  .choices = "pingpong|stream", .off = offsetof(struct pipe_opts, pattern) },
	{ .name = "size", .type = PB_T_INT, .def = "4096", 1, 1048576,
	  .off = offsetof(struct pipe_opts, size) },
	{ .name = "poll", .type = PB_T_BOOL, .def = "no", PB_NO_RANGE,
	  .off = offsetof(struct pipe_opts, poll) },
	{ .name = "ratio", .type = PB_T_DOUBLE, .def = "0.5", 0, 1,
	  .off = offsetof(struct pipe_opts, ratio) },
	{ .name = "tag", .type = PB_T_STR, .def = "", PB_NO_RANGE,
	  .off = offsetof(struct pipe_opts, tag) },
	{ .name = "secret", .type = PB_T_INT, .def = "7", PB_NO_RANGE,
	  .off = offsetof(struct pipe_opts, secret), .flags = PB_KEY_HIDDEN },
	{ .name = NULL }
};

static const struct pb_bench fake_pipe = {
	.name = "pipe", .shape = PB_SHAPE_PAIR, .roles = { "writer", "reader" },
	.keys = pipe_keys, .opts_size = sizeof(struct pipe_opts),
};

struct rr_opts {
	long	streams;
	long	secret;
};

static const struct pb_key rr_keys[] = {
	{ .name = "streams", .type = PB_T_INT, .def = "1", 1, 64,
	  .off = offsetof(struct rr_opts, streams), .flags = PB_KEY_SWEEP },
	{ .name = "secret", .type = PB_T_INT, .def = "7", PB_NO_RANGE,
	  .off = offsetof(struct rr_opts, secret), .flags = PB_KEY_HIDDEN },
	{ .name = NULL }
};

static const struct pb_bench fake_rr = {
	.name = "rr", .shape = PB_SHAPE_PAIR, .roles = { "client", "server" },
	.instances_key = "streams", .keys = rr_keys,
	.opts_size = sizeof(struct rr_opts),
};

struct epoll_opts {
	long	threads;
	long	fds;
};

static const struct pb_key epoll_keys[] = {
	{ .name = "threads", .type = PB_T_INT, .def = "1", 1, 256,
	  .off = offsetof(struct epoll_opts, threads), .flags = PB_KEY_SWEEP },
	{ .name = "fds", .type = PB_T_INT, .def = "64", 1, 100000,
	  .off = offsetof(struct epoll_opts, fds), .flags = PB_KEY_SWEEP },
	{ .name = NULL }
};

static int epoll_check(const void *opts, int nr_instances, char *err)
{
	const struct epoll_opts *o = opts;

	if (o->threads != nr_instances)
		return snprintf(err, PB_ERR_MAX, "instances %d != threads %ld",
				nr_instances, o->threads), -1;
	if (o->threads * o->fds <= 10000)
		return 0;
	snprintf(err, PB_ERR_MAX, "%ld x %ld descriptors > 10000", o->threads, o->fds);
	return -1;
}

static const struct pb_bench fake_epoll = {
	.name = "epoll", .shape = PB_SHAPE_WORKERS, .roles = { "worker" },
	.instances_key = "threads", .keys = epoll_keys,
	.opts_size = sizeof(struct epoll_opts), .check = epoll_check,
};

static const struct pb_bench *const fake_benches[] = {
	&fake_pipe, &fake_rr, &fake_epoll, NULL
};

static const struct pb_bench *find_in(const struct pb_bench *const *tab, const char *name)
{
	for (int i = 0; tab[i]; i++)
		if (!strcmp(tab[i]->name, name))
			return tab[i];
	return NULL;
}

static const struct pb_bench *fake_find(const char *name)
{
	return find_in(fake_benches, name);
}

static int setup_fakes(void **state)
{
	(void)state;
	pb_jobfile_find_bench = fake_find;
	pb_jobfile_benches = fake_benches;
	return 0;
}

/* ---------------------------------------------------------------- */
/* Helpers */

#define GOOD_BASIC	"tests/jobs/good-basic.ini"
#define GOOD_SWEEP	"tests/jobs/good-sweep.ini"

static char err[1024];

static void load_ok(const char *path, const char *bench, const struct pb_kv *over,
		    int nr_over, int nr_cpus, struct pb_jobset *js)
{
	err[0] = '\0';
	if (pb_jobs_load(path, bench, over, nr_over, nr_cpus, js, err, sizeof(err)))
		fail_msg("%s: unexpected error: %s", path ? path : bench, err);
}

static void load_fails(const char *path, const char *bench,
		       const struct pb_kv *over, int nr_over, int nr_cpus,
		       const char *expect)
{
	struct pb_jobset js = { .nr = -1 };

	err[0] = '\0';
	assert_int_equal(pb_jobs_load(path, bench, over, nr_over, nr_cpus, &js,
				      err, sizeof(err)), -1);
	assert_string_equal(err, expect);
	assert_int_equal(js.nr, 0);
	assert_null(js.jobs);
}

static const struct pb_kv *kv_find(const struct pb_job *j, const char *key)
{
	for (int i = 0; i < j->nr_kv; i++)
		if (!strcmp(j->kv[i].key, key))
			return &j->kv[i];
	return NULL;
}

static void assert_kv(const struct pb_job *j, const char *key, const char *val,
		      const char *origin, int line)
{
	const struct pb_kv *kv = kv_find(j, key);

	if (!kv)
		fail_msg("job %s: no key %s", j->name, key);
	assert_string_equal(kv->val, val);
	assert_string_equal(kv->origin, origin);
	assert_int_equal(kv->line, line);
	assert_string_equal(pb_job_get(j, key), val);
}

static void assert_kv_keys(const struct pb_job *j, const char *const *keys)
{
	int n = 0;

	for (; keys[n]; n++) {
		if (n >= j->nr_kv)
			fail_msg("job %s: %d keys, expected %s next", j->name, j->nr_kv,
				 keys[n]);
		assert_string_equal(j->kv[n].key, keys[n]);
	}
	assert_int_equal(j->nr_kv, n);
}

/* ---------------------------------------------------------------- */
/* Good files */

static void test_inheritance(void **state)
{
	static const char *const pipe_kv[] = {
		"bench", "placement", "rounds", "repeats", "warmup", "duration", "loops",
		"tasks", "timeout", "percentiles", "events", "counters", "counting", "count_duration", "estimator",
		"pattern", "size", "poll", "ratio", "tag", NULL
	};
	struct pb_jobset js;
	const struct pipe_opts *o;
	const struct pb_job *j;

	(void)state;
	load_ok(GOOD_BASIC, NULL, NULL, 0, 4, &js);
	assert_int_equal(js.nr, 3);
	j = &js.jobs[0];
	assert_string_equal(j->name, "pingpong");
	assert_ptr_equal(j->bench, &fake_pipe);
	assert_string_equal(j->file, GOOD_BASIC);
	assert_int_equal(j->line, 9);
	assert_int_equal(j->repeats, 3);		/* from [global] */
	assert_true(j->warmup == 0.5);			/* from [global], indented */
	assert_true(j->duration == 0.25);
	assert_false(j->threads);
	assert_int_equal(j->nr_instances, 1);
	assert_null(j->cpus);
	assert_int_equal(j->nr_placements, 4);		/* pair default */
	assert_string_equal(j->placements[0], "same-cpu");
	assert_string_equal(j->placements[3], "diff-socket");
	o = j->opts;
	assert_int_equal(o->size, 65536);		/* 64K */
	assert_int_equal(o->pattern, 0);
	assert_int_equal(o->secret, 7);			/* hidden default applied */
	assert_true(o->ratio == 0.5);
	assert_kv_keys(j, pipe_kv);			/* hidden key not listed */
	assert_kv(j, "bench", "pipe", GOOD_BASIC, 5);
	assert_kv(j, "repeats", "3", GOOD_BASIC, 6);
	assert_kv(j, "warmup", "0.5", GOOD_BASIC, 7);
	assert_kv(j, "size", "64K", GOOD_BASIC, 11);
	assert_kv(j, "pattern", "pingpong", "default", 0);
	assert_kv(j, "placement", "same-cpu,same-core,same-socket,diff-socket",
		  "default", 0);
	assert_null(pb_job_get(j, "cpus"));
	assert_null(pb_job_get(j, "secret"));

	j = &js.jobs[1];
	assert_string_equal(j->name, "stream");
	assert_int_equal(j->line, 14);
	assert_int_equal(j->repeats, 7);		/* section beats [global] */
	assert_true(j->warmup == 0.5);
	assert_true(j->threads);
	assert_int_equal(((const struct pipe_opts *)j->opts)->pattern, 1);
	assert_int_equal(j->nr_placements, 2);
	assert_string_equal(j->placements[0], "same-cpu");
	assert_string_equal(j->placements[1], "diff-socket");
	assert_kv(j, "placement", "same-cpu, diff-socket", GOOD_BASIC, 17);
	pb_jobset_free(&js);
	assert_int_equal(js.nr, 0);
	assert_null(js.jobs);
}

static void test_cpus_and_hidden(void **state)
{
	static const char *const rr_kv[] = {
		"bench", "cpus", "rounds", "repeats", "warmup", "duration", "loops",
		"tasks", "timeout", "percentiles", "events", "counters", "counting", "count_duration", "estimator", "streams", "secret", NULL
	};
	static const int cpus[] = { 0, 1, 1, 0 };
	struct pb_jobset js;
	const struct pb_job *j;

	(void)state;
	load_ok(GOOD_BASIC, NULL, NULL, 0, 4, &js);
	j = &js.jobs[2];
	assert_string_equal(j->name, "rr-explicit");
	assert_ptr_equal(j->bench, &fake_rr);		/* section beats [global] */
	assert_int_equal(j->nr_instances, 2);
	assert_int_equal(j->nr_placements, 0);		/* cpus= replaces placement */
	assert_int_equal(j->nr_cpus, 4);		/* "0-1,1,0" */
	assert_memory_equal(j->cpus, cpus, sizeof(cpus));
	assert_int_equal(j->loops, 1000);
	assert_int_equal(j->counters_cpu, 1);
	assert_string_equal(j->events, "cycles,instructions");
	assert_int_equal(((const struct rr_opts *)j->opts)->secret, 9);
	assert_kv_keys(j, rr_kv);			/* hidden key set: listed */
	assert_kv(j, "secret", "9", GOOD_BASIC, 27);
	assert_kv(j, "cpus", "0-1,1,0", GOOD_BASIC, 23);
	assert_null(pb_job_get(j, "placement"));
	assert_null(pb_job_get(j, "size"));
	pb_jobset_free(&js);
}

static void test_defaults(void **state)
{
	struct pb_jobset js;
	const struct pb_job *j;

	(void)state;
	load_ok(GOOD_SWEEP, NULL, NULL, 0, 2, &js);
	assert_int_equal(js.nr, 4);
	j = &js.jobs[3];
	assert_string_equal(j->name, "fixed");
	assert_int_equal(j->repeats, 4);
	assert_true(j->warmup == 1);
	assert_true(j->duration == 5);
	assert_int_equal(j->loops, 0);
	assert_false(j->threads);
	assert_true(j->timeout == 0);
	assert_int_equal(j->counters_cpu, 0);
	assert_string_equal(j->events, "");
	assert_int_equal(j->nr_placements, 1);		/* workers default */
	assert_string_equal(j->placements[0], "compact");
	assert_int_equal(j->nr_instances, 3);
	assert_kv(j, "placement", "compact", "default", 0);
	assert_kv(j, "repeats", "4", "default", 0);
	assert_kv(j, "duration", "5", "default", 0);
	assert_kv(j, "tasks", "processes", "default", 0);
	assert_kv(j, "counters", "task", "default", 0);
	assert_kv(j, "events", "", "default", 0);
	assert_kv(j, "count_duration", "0", "default", 0);
	assert_true(j->count_duration == 0);
	assert_kv(j, "fds", "64", "default", 0);
	assert_kv(j, "threads", "3", GOOD_SWEEP, 9);
	pb_jobset_free(&js);
}

/* The text a job file was read from stays with its jobs (for the result file); none ad hoc. */
static void test_text_kept(void **state)
{
	struct pb_jobset js;
	char *want = NULL;
	size_t n = 0;
	FILE *f = fopen(GOOD_BASIC, "r");

	(void)state;
	assert_non_null(f);
	assert_int_equal(getdelim(&want, &n, 0, f) > 0, 1);
	fclose(f);
	load_ok(GOOD_BASIC, NULL, NULL, 0, 2, &js);
	assert_non_null(js.text);
	assert_string_equal(js.text, want);
	pb_jobset_free(&js);
	assert_null(js.text);
	load_ok(NULL, "pipe", NULL, 0, 2, &js);
	assert_null(js.text);
	pb_jobset_free(&js);
	free(want);
}

/* CRLF line ends, tabs, comments after indentation, a '#' inside a value. */
static void test_syntax_details(void **state)
{
	static const char text[] =
		"\t# indented comment\r\n"
		"[global]\r\n"
		"\tbench\t=\tpipe\t\r\n"
		"\r\n"
		"   ; another\r\n"
		"[a.b:c+d@e_f-g]\r\n"
		"tag = x#y;z\r\n"
		"events =\r\n";
	char path[] = "/tmp/pb-jobfile-XXXXXX";
	struct pb_jobset js;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), sizeof(text) - 1);
	close(fd);
	load_ok(path, NULL, NULL, 0, 2, &js);
	unlink(path);
	assert_int_equal(js.nr, 1);
	assert_string_equal(js.jobs[0].name, "a.b:c+d@e_f-g");
	assert_string_equal(((const struct pipe_opts *)js.jobs[0].opts)->tag, "x#y;z");
	assert_kv(&js.jobs[0], "bench", "pipe", path, 3);
	assert_kv(&js.jobs[0], "events", "", path, 8);
	pb_jobset_free(&js);
}

/* ---------------------------------------------------------------- */
/* Overrides */

static void test_overrides(void **state)
{
	const struct pb_kv over[] = {
		{ .key = "size", .val = "1K", .origin = "--set" },
		{ .key = "repeats", .val = "2", .origin = "--repeats" },
		{ .key = "placement", .val = "same-core", .origin = "--placement" },
		{ .key = "size", .val = "2K", .origin = "--set" },	/* last wins */
	};
	struct pb_jobset js;

	(void)state;
	load_ok(GOOD_BASIC, NULL, over, 4, 4, &js);
	assert_int_equal(js.nr, 3);
	for (int i = 0; i < js.nr; i++) {
		const struct pb_job *j = &js.jobs[i];

		assert_int_equal(j->repeats, 2);	/* beats [global] and [stream] */
		assert_kv(j, "repeats", "2", "--repeats", 0);
		assert_int_equal(j->nr_placements, 1);
		assert_string_equal(j->placements[0], "same-core");
	}
	assert_int_equal(((const struct pipe_opts *)js.jobs[0].opts)->size, 2048);
	assert_kv(&js.jobs[0], "size", "2K", "--set", 0);
	assert_kv(&js.jobs[1], "size", "2K", "--set", 0);
	/* rr has no size: the override skips it; --placement beats its cpus= */
	assert_null(pb_job_get(&js.jobs[2], "size"));
	assert_null(js.jobs[2].cpus);
	assert_int_equal(js.jobs[2].nr_cpus, 0);
	assert_null(pb_job_get(&js.jobs[2], "cpus"));
	pb_jobset_free(&js);
}

/* An override's cpus= beats the file's placement. */
static void test_override_cpus(void **state)
{
	const struct pb_kv over[] = {
		{ .key = "cpus", .val = "1,0", .origin = "--set" },
		{ .key = "streams", .val = "1", .origin = "--set" },	/* rr only */
	};
	struct pb_jobset js;

	(void)state;
	load_ok(GOOD_BASIC, NULL, over, 2, 4, &js);
	assert_int_equal(js.jobs[2].nr_instances, 1);
	assert_int_equal(js.jobs[2].nr_cpus, 2);
	assert_null(pb_job_get(&js.jobs[0], "streams"));
	assert_int_equal(js.jobs[1].nr_placements, 0);
	assert_int_equal(js.jobs[1].nr_cpus, 2);
	assert_int_equal(js.jobs[1].cpus[0], 1);
	assert_null(pb_job_get(&js.jobs[1], "placement"));
	assert_kv(&js.jobs[1], "cpus", "1,0", "--set", 0);
	pb_jobset_free(&js);
}

struct over_case {
	const char	*key, *val, *origin;
	const char	*expect;
};

static void test_override_errors(void **state)
{
	static const struct over_case cases[] = {
		{ "size", "0", "--set", "--set size: '0' is out of range 1..1048576" },
		{ "repeats", "0", "--repeats", "--repeats: '0' is out of range 1..1000" },
		{ "duration", "x", "--duration", "--duration: 'x' is not a number" },
		{ "sise", "1", "--set",
		  "--set sise: unknown key 'sise' for benches pipe, rr (did you mean 'size'?)" },
		{ "bench", "nope", "--set",
		  "--set bench: unknown bench 'nope' (known: pipe, rr, epoll)" },
		{ "placement", "compact", "--placement",
		  "--placement: 'compact' is a worker placement; bench pipe takes: "
		  "same-cpu, same-core, same-socket, diff-socket, same-llc, diff-llc, "
		  "diff-node" },
		{ "tasks", "fork", "--set",
		  "--set tasks: 'fork' is not one of processes|threads" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct pb_kv over = {
			.key = (char *)cases[i].key, .val = (char *)cases[i].val,
			.origin = (char *)cases[i].origin,
		};

		load_fails(GOOD_BASIC, NULL, &over, 1, 4, cases[i].expect);
	}
}

/* ---------------------------------------------------------------- */
/* Ad hoc */

static void test_adhoc(void **state)
{
	const struct pb_kv over[] = {
		{ .key = "streams", .val = "2", .origin = "--set" },
		{ .key = "cpus", .val = "0-3", .origin = "--set" },
	};
	struct pb_jobset js;
	const struct pb_job *j;

	(void)state;
	load_ok(NULL, "rr", over, 2, 4, &js);
	assert_int_equal(js.nr, 1);
	j = &js.jobs[0];
	assert_string_equal(j->name, "rr");
	assert_ptr_equal(j->bench, &fake_rr);
	assert_null(j->file);
	assert_int_equal(j->line, 0);
	assert_int_equal(j->nr_instances, 2);
	assert_int_equal(j->nr_cpus, 4);
	assert_kv(j, "bench", "rr", "command line", 0);
	assert_kv(j, "streams", "2", "--set", 0);
	assert_kv(j, "repeats", "4", "default", 0);
	pb_jobset_free(&js);
}

static void test_adhoc_errors(void **state)
{
	const struct pb_kv frob = { .key = "frob", .val = "1", .origin = "--set" };
	const struct pb_kv big[] = {
		{ .key = "threads", .val = "64", .origin = "--set" },
		{ .key = "fds", .val = "1000", .origin = "--set" },
	};
	const struct pb_kv cpus = { .key = "cpus", .val = "0", .origin = "--set" };

	(void)state;
	load_fails(NULL, "nope", NULL, 0, 4,
		   "unknown bench 'nope' (known: pipe, rr, epoll)");
	load_fails(NULL, NULL, NULL, 0, 4, "no job file and no bench given");
	load_fails(NULL, "rr", &frob, 1, 4, "--set frob: unknown key 'frob' for bench rr");
	load_fails(NULL, "epoll", big, 2, 4, "job 'epoll': 64 x 1000 descriptors > 10000");
	load_fails(NULL, "pipe", &cpus, 1, 4,
		   "--set cpus: 1 CPU given, job 'pipe' (bench pipe) needs 2: "
		   "one per role instance (2 x 1 pair)");
	load_fails("tests/jobs/no-such-file.ini", NULL, NULL, 0, 4,
		   "tests/jobs/no-such-file.ini: No such file or directory");
}

/* ---------------------------------------------------------------- */
/* Sweeps */

static void assert_sweep(const struct pb_jobset *js, int first, const char *sec,
			 const long *vals, int nr, const char *origin, int line)
{
	char name[PB_NAME_MAX], val[32];

	for (int i = 0; i < nr; i++) {
		const struct pb_job *j = &js->jobs[first + i];

		snprintf(name, sizeof(name), "%s/threads=%ld", sec, vals[i]);
		snprintf(val, sizeof(val), "%ld", vals[i]);
		assert_string_equal(j->name, name);
		assert_int_equal(j->nr_instances, vals[i]);
		assert_int_equal(((const struct epoll_opts *)j->opts)->threads, vals[i]);
		assert_kv(j, "threads", val, origin, line);
	}
}

static void test_sweep_list(void **state)
{
	static const long vals[] = { 1, 2, 4 };
	struct pb_jobset js;

	(void)state;
	load_ok(GOOD_SWEEP, NULL, NULL, 0, 2, &js);
	assert_int_equal(js.nr, 4);
	assert_sweep(&js, 0, "scale", vals, 3, GOOD_SWEEP, 4);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(js.jobs[i].line, 2);
		assert_string_equal(js.jobs[i].placements[0], "scatter");
	}
	assert_string_equal(js.jobs[3].name, "fixed");
	pb_jobset_free(&js);
}

struct all_case {
	int	nr_cpus;
	long	vals[8];
	int	nr;
};

/* "all" via an override: every job sweeps 1, 2, 4, ... nr_cpus. */
static void test_sweep_all(void **state)
{
	static const struct all_case cases[] = {
		{ 1, { 1 }, 1 },
		{ 2, { 1, 2 }, 2 },
		{ 6, { 1, 2, 4, 6 }, 4 },
		{ 8, { 1, 2, 4, 8 }, 4 },
		{ 9, { 1, 2, 4, 8, 9 }, 5 },
	};
	const struct pb_kv over = { .key = "threads", .val = "all", .origin = "--set" };
	struct pb_jobset js;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct all_case *c = &cases[i];

		load_ok(GOOD_SWEEP, NULL, &over, 1, c->nr_cpus, &js);
		assert_int_equal(js.nr, 2 * c->nr);
		assert_sweep(&js, 0, "scale", c->vals, c->nr, "--set", 0);
		assert_sweep(&js, c->nr, "fixed", c->vals, c->nr, "--set", 0);
		pb_jobset_free(&js);
	}
}

static void test_sweep_errors(void **state)
{
	const struct pb_kv all = { .key = "threads", .val = "all", .origin = "--set" };
	const struct pb_kv two[] = {
		{ .key = "streams", .val = "1,2", .origin = "--set" },
		{ .key = "cpus", .val = "0,1", .origin = "--set" },
	};

	(void)state;
	load_fails(GOOD_SWEEP, NULL, &all, 1, 0,
		   "--set threads: 'all' but the number of CPUs is unknown");
	load_fails(GOOD_SWEEP, NULL, &all, 1, 300,
		   "--set threads: '300' is out of range 1..256");
	/* a pair sweep over instances: cpus= fits only one of the values */
	load_fails(NULL, "rr", two, 2, 4,
		   "--set cpus: 2 CPUs given, job 'rr/streams=2' (bench rr) needs 4: "
		   "one per role instance (2 x 2 pairs)");
}

static void test_sweep_pairs(void **state)
{
	const struct pb_kv over = { .key = "streams", .val = "2,1", .origin = "--set" };
	struct pb_jobset js;

	(void)state;
	load_ok(NULL, "rr", &over, 1, 4, &js);
	assert_int_equal(js.nr, 2);
	assert_string_equal(js.jobs[0].name, "rr/streams=2");
	assert_string_equal(js.jobs[1].name, "rr/streams=1");
	assert_int_equal(js.jobs[0].nr_instances, 2);
	assert_int_equal(js.jobs[1].nr_instances, 1);
	pb_jobset_free(&js);
}

/* ---------------------------------------------------------------- */
/* Bad files: each carries "# expect: {FILE}..." on line 1. */

static void expected_message(const char *path, char *buf, size_t len)
{
	char line[1024], *p, *at;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	p = strstr(line, "# expect: ");
	if (!p)
		fail_msg("%s: no '# expect:' on line 1", path);
	p += strlen("# expect: ");
	at = strstr(p, "{FILE}");
	if (!at)
		fail_msg("%s: no {FILE} in the expected message", path);
	*at = '\0';
	snprintf(buf, len, "%s%s%s", p, path, at + strlen("{FILE}"));
}

static void test_bad_files(void **state)
{
	char expect[1024];
	glob_t g;

	(void)state;
	assert_int_equal(glob("tests/jobs/bad-*.ini", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 40);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		expected_message(g.gl_pathv[i], expect, sizeof(expect));
		load_fails(g.gl_pathv[i], NULL, NULL, 0, 4, expect);
	}
	globfree(&g);
}

/* ---------------------------------------------------------------- */
/* Bounded input: what a job file may be */

#define JOB_TMP	"/tmp/pb-jobfile-XXXXXX"

/* A new job file holding n bytes of text; its path in path[sizeof(JOB_TMP)]. */
static void write_job(char *path, const char *text, size_t n)
{
	int fd;

	memcpy(path, JOB_TMP, sizeof(JOB_TMP));
	fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	close(fd);
}

static void load_text_fails(const char *text, size_t n, const char *fmt, ...)
{
	char path[sizeof(JOB_TMP)], expect[1100], want[1024];
	va_list ap;

	write_job(path, text, n);
	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	snprintf(expect, sizeof(expect), "%s%s", path, want);
	load_fails(path, NULL, NULL, 0, 4, expect);
	unlink(path);
}

/*
 * Only regular files: a FIFO, a device, a folder are refused at once
 * (alarm: a read that blocks fails the test instead of hanging it).
 */
static void test_not_regular(void **state)
{
	char dir[] = "/tmp/pb-jobfile-XXXXXX", fifo[64], expect[128];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/job.ini", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	alarm(60);
	snprintf(expect, sizeof(expect), "%s: not a regular file (a FIFO)", fifo);
	load_fails(fifo, NULL, NULL, 0, 4, expect);
	load_fails("/dev/zero", NULL, NULL, 0, 4,
		   "/dev/zero: not a regular file (a character device)");
	snprintf(expect, sizeof(expect), "%s: not a regular file (a directory)", dir);
	load_fails(dir, NULL, NULL, 0, 4, expect);
	alarm(0);
	unlink(fifo);
	rmdir(dir);
}

/* At most 1 MiB, lines of at most 4096 bytes. */
static void test_size_limits(void **state)
{
	size_t big = (1 << 20) + 1;
	char *text = malloc(big), path[sizeof(JOB_TMP)];
	struct pb_jobset js;
	int n;

	(void)state;
	assert_non_null(text);
	/* a line of exactly 4096 bytes is fine, one more is not */
	n = snprintf(text, big, "[a]\nbench=pipe\n");
	memset(text + n, '#', 4096);
	text[n + 4096] = '\n';
	write_job(path, text, n + 4097);
	load_ok(path, NULL, NULL, 0, 4, &js);
	assert_int_equal(js.nr, 1);
	pb_jobset_free(&js);
	unlink(path);
	memset(text + n, '#', 4097);
	text[n + 4097] = '\n';
	load_text_fails(text, n + 4098, ":3: line longer than 4096 bytes");
	/* without a newline at the end too */
	load_text_fails(text, n + 4097, ":3: line longer than 4096 bytes");
	/* the whole file: 1 MiB of short comment lines, then one byte more */
	n = snprintf(text, big, "[a]\nbench=pipe\n");
	for (size_t i = n; i < big; i++)
		text[i] = i % 64 == 63 ? '\n' : '#';
	load_text_fails(text, big, ": larger than 1048576 bytes (not a job file?)");
	free(text);
}

/* A NUL byte is an error naming the line; a UTF-8 byte order mark is skipped. */
static void test_nul_and_bom(void **state)
{
	static const char nul[] = "[a]\nbench=pi\0pe\n";
	static const char bom[] = "\xef\xbb\xbf[a]\nbench=pipe\nsize=8\n";
	static const char mid[] = "[a]\nbench=pipe\n\xef\xbb\xbf" "size=8\n";
	char path[sizeof(JOB_TMP)];
	struct pb_jobset js;

	(void)state;
	load_text_fails(nul, sizeof(nul) - 1, ":2: a NUL byte in the line (not a text file?)");
	write_job(path, bom, sizeof(bom) - 1);
	load_ok(path, NULL, NULL, 0, 4, &js);
	assert_int_equal(js.nr, 1);
	assert_string_equal(js.jobs[0].name, "a");
	assert_kv(&js.jobs[0], "size", "8", path, 3);
	pb_jobset_free(&js);
	unlink(path);
	/* a BOM anywhere else is not skipped: part of the key, an error */
	write_job(path, mid, sizeof(mid) - 1);
	assert_int_equal(pb_jobs_load(path, NULL, NULL, 0, 4, &js, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":3: "));
	unlink(path);
}

/* ---------------------------------------------------------------- */
/* pb_key_parse and pb_key_describe */

struct parse_opts {
	long	l;
	double	d;
	int	i;
	char	s[PB_STR_MAX];
};

static const struct pb_key k_int = { .name = "n", .type = PB_T_INT, .min = 1, .max = 0,
	.off = offsetof(struct parse_opts, l) };
static const struct pb_key k_int_r = { .name = "n", .type = PB_T_INT, .min = 1,
	.max = 10, .off = offsetof(struct parse_opts, l) };
static const struct pb_key k_dbl = { .name = "d", .type = PB_T_DOUBLE, .min = 0,
	.max = 3600, .off = offsetof(struct parse_opts, d) };
static const struct pb_key k_bool = { .name = "b", .type = PB_T_BOOL, .min = 1, .max = 0,
	.off = offsetof(struct parse_opts, i) };
static const struct pb_key k_enum = { .name = "e", .type = PB_T_ENUM, .min = 1, .max = 0,
	.choices = "a|bb|c", .off = offsetof(struct parse_opts, i) };
static const struct pb_key k_str = { .name = "s", .type = PB_T_STR, .min = 1, .max = 0,
	.off = offsetof(struct parse_opts, s) };

struct parse_case {
	const struct pb_key	*k;
	const char		*text;
	const char		*err;	/* NULL: must parse */
	long			l;	/* INT, BOOL, ENUM */
	double			d;	/* DOUBLE */
};

#define S63 "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk"

static void test_key_parse(void **state)
{
	static const struct parse_case cases[] = {
		{ &k_int, "42", NULL, 42, 0 },
		{ &k_int, "-3", NULL, -3, 0 },
		{ &k_int, "4K", NULL, 4096, 0 },
		{ &k_int, "3M", NULL, 3L << 20, 0 },
		{ &k_int, "2G", NULL, 2L << 30, 0 },
		{ &k_int, "010", NULL, 10, 0 },			/* decimal, not octal */
		{ &k_int, "", "n: '' is not an integer", 0, 0 },
		{ &k_int, "1.5", "n: '1.5' is not an integer", 0, 0 },
		{ &k_int, "0x10", "n: '0x10' is not an integer", 0, 0 },
		{ &k_int, "4KB", "n: '4KB' is not an integer", 0, 0 },
		{ &k_int, "99999999999999999999",
		  "n: '99999999999999999999' is not an integer", 0, 0 },
		{ &k_int, "9000000000G", "n: '9000000000G' is not an integer", 0, 0 },
		{ &k_int_r, "1", NULL, 1, 0 },
		{ &k_int_r, "10", NULL, 10, 0 },
		{ &k_int_r, "11", "n: '11' is out of range 1..10", 0, 0 },
		{ &k_int_r, "1K", "n: '1K' is out of range 1..10", 0, 0 },
		{ &k_dbl, "0.5", NULL, 0, 0.5 },
		{ &k_dbl, "1e-3", NULL, 0, 0.001 },
		{ &k_dbl, "3600", NULL, 0, 3600 },
		{ &k_dbl, "3600.5", "d: '3600.5' is out of range 0..3600", 0, 0 },
		{ &k_dbl, "nan", "d: 'nan' is not a number", 0, 0 },
		{ &k_dbl, "inf", "d: 'inf' is not a number", 0, 0 },
		{ &k_dbl, "1s", "d: '1s' is not a number", 0, 0 },
		{ &k_bool, "yes", NULL, 1, 0 },
		{ &k_bool, "No", NULL, 0, 0 },
		{ &k_bool, "TRUE", NULL, 1, 0 },
		{ &k_bool, "off", NULL, 0, 0 },
		{ &k_bool, "on", NULL, 1, 0 },
		{ &k_bool, "1", NULL, 1, 0 },
		{ &k_bool, "0", NULL, 0, 0 },
		{ &k_bool, "2", "b: '2' is not a boolean (0|1|yes|no|true|false|on|off)", 0, 0 },
		{ &k_enum, "a", NULL, 0, 0 },
		{ &k_enum, "bb", NULL, 1, 0 },
		{ &k_enum, "c", NULL, 2, 0 },
		{ &k_enum, "b", "e: 'b' is not one of a|bb|c", 0, 0 },
		{ &k_enum, "C", "e: 'C' is not one of a|bb|c", 0, 0 },
		{ &k_str, S63, NULL, 0, 0 },
		{ &k_str, S63 "l", "s: 'abcdefghijklmnopqrstuvwx...' is too long "
		  "(at most 63 characters)", 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct parse_case *c = &cases[i];
		struct parse_opts o = { .l = -99, .i = -99 };
		int rc = pb_key_parse(c->k, c->text, &o, err, sizeof(err));

		if (c->err) {
			assert_int_equal(rc, -1);
			assert_string_equal(err, c->err);
			assert_int_equal(o.l, -99);		/* untouched */
			assert_int_equal(o.i, -99);
			continue;
		}
		if (rc)
			fail_msg("'%s': unexpected error: %s", c->text, err);
		if (c->k->type == PB_T_INT)
			assert_int_equal(o.l, c->l);
		else if (c->k->type == PB_T_DOUBLE)
			assert_true(o.d == c->d);
		else if (c->k->type == PB_T_STR)
			assert_string_equal(o.s, c->text);
		else
			assert_int_equal(o.i, c->l);
	}
}

static void test_key_describe(void **state)
{
	static const struct pb_key udp = { .name = "size", .type = PB_T_INT,
		.min = 1, .max = 65507 };
	static const struct pb_key dur = { .name = "duration", .type = PB_T_DOUBLE,
		.min = 0.001, .max = 86400 };
	static const struct {
		const struct pb_key	*k;
		const char		*text;
	} cases[] = {
		{ &udp, "int 1..65507" }, { &k_int, "int" }, { &k_dbl, "double 0..3600" },
		{ &dur, "double 0.001..86400" }, { &k_bool, "bool" }, { &k_enum, "a|bb|c" },
		{ &k_str, "string" }, { &epoll_keys[0], "int 1..256 (list or all)" },
	};
	char buf[128];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pb_key_describe(cases[i].k, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].text);
	}
}

/* The common-key table: the documented names, each with help; defaults valid. */
static void test_common_keys(void **state)
{
	static const char *const names[] = {
		"bench", "placement", "cpus", "rounds", "repeats", "warmup", "duration",
		"loops", "tasks", "timeout", "percentiles", "events", "counters", "counting",
		"count_duration", "profile", "estimator", "peer", "peer_cpu", NULL
	};
	int n = 0;

	(void)state;
	for (; pb_common_keys[n].name; n++) {
		assert_non_null(names[n]);
		assert_string_equal(pb_common_keys[n].name, names[n]);
		assert_non_null(pb_common_keys[n].help);
		assert_true(strlen(pb_common_keys[n].help) > 10);
	}
	assert_null(names[n]);
}

/* A counter pass's one window: a tenth of duration in [0.2 s, duration], or of loops. */
static void test_count_window(void **state)
{
	struct pb_job j = { .duration = 5 };
	long ops = -1;

	(void)state;
	assert_true(fabs(pb_job_count_window(&j, &ops) - 0.5) < 1e-12);
	assert_int_equal(ops, 0);
	j.duration = 1;
	assert_true(fabs(pb_job_count_window(&j, &ops) - 0.2) < 1e-12);	/* at least 0.2 s */
	j.duration = 0.1;
	assert_true(fabs(pb_job_count_window(&j, &ops) - 0.1) < 1e-12);	/* at most duration */
	j.duration = 60;
	assert_true(fabs(pb_job_count_window(&j, &ops) - 6) < 1e-12);
	j.loops = 500000;
	assert_true(pb_job_count_window(&j, &ops) == 0);
	assert_int_equal(ops, 50000);
	j.loops = 5;
	pb_job_count_window(&j, &ops);
	assert_int_equal(ops, 1);				/* at least one op */
	j.count_duration = 2.5;					/* given: seconds, loops or not */
	assert_true(fabs(pb_job_count_window(&j, &ops) - 2.5) < 1e-12);
	assert_int_equal(ops, 0);
}

/*
 * The counter passes run in the warm-up when their timed windows take at
 * most half of it; then they add no planned time.  Else, and for loops=
 * windows, inline counting or no event, they run after the metric.
 */
static void test_counts_first(void **state)
{
	struct pb_job j = { .repeats = 3, .duration = 1, .warmup = 0.5 };
	struct pb_evlist one = { .nr = 4, .nr_passes = 1 }, none = { 0 };
	struct pb_evlist three = { .nr = 6, .nr_passes = 3 };

	(void)state;
	assert_true(pb_job_counts_first(&j, &one));		/* 0.2 s <= 0.25 s */
	assert_true(fabs(pb_job_expected_s(&j, &one) - 3.5) < 1e-9);
	assert_false(pb_job_counts_first(&j, &three));		/* 0.6 s > 0.25 s */
	assert_true(fabs(pb_job_expected_s(&j, &three) - 4.1) < 1e-9);
	assert_false(pb_job_counts_first(&j, &none));
	assert_true(fabs(pb_job_expected_s(&j, &none) - 3.5) < 1e-9);
	j.warmup = 0.39;					/* 0.2 s > 0.195 s */
	assert_false(pb_job_counts_first(&j, &one));
	assert_true(fabs(pb_job_expected_s(&j, &one) - 3.59) < 1e-9);
	j.warmup = 0.4;						/* exactly half */
	assert_true(pb_job_counts_first(&j, &one));
	j.warmup = 0;
	assert_false(pb_job_counts_first(&j, &one));
	j.warmup = 1;
	j.counting_inline = true;
	assert_false(pb_job_counts_first(&j, &one));
	j.counting_inline = false;
	j.loops = 100000;					/* a count of ops: its time unknown */
	assert_false(pb_job_counts_first(&j, &one));
	j.count_duration = 0.3;					/* given in seconds: timed */
	assert_true(pb_job_counts_first(&j, &one));
	j.loops = 0;
	j.duration = 5;						/* defaults: 0.5 s of 1 s */
	j.count_duration = 0;
	assert_true(pb_job_counts_first(&j, &one));
	assert_true(fabs(pb_job_expected_s(&j, &one) - 16) < 1e-9);
}

/* The real workload table and the shipped job files load with their defaults. */
static void test_real_tables(void **state)
{
	struct pb_jobset js;
	glob_t g;

	(void)state;
	pb_jobfile_find_bench = pb_bench_find;
	pb_jobfile_benches = pb_benches;
	assert_non_null(pb_benches[0]);
	for (int i = 0; pb_benches[i]; i++) {
		load_ok(NULL, pb_benches[i]->name, NULL, 0, 2, &js);
		assert_int_equal(js.nr, 1);
		assert_ptr_equal(js.jobs[0].bench, pb_benches[i]);
		assert_true(js.jobs[0].nr_placements > 0);
		for (const struct pb_key *k = pb_benches[i]->keys; k && k->name; k++)
			if (!(k->flags & PB_KEY_HIDDEN) && k->def)
				assert_string_equal(pb_job_get(&js.jobs[0], k->name), k->def);
		pb_jobset_free(&js);
	}
	{	/* peer_cpu= reaches the job as a number, 0 when not given */
		const struct pb_kv peer[] = {
			{ "peer", "192.0.2.1", "--set", 0 },
			{ "peer_cpu", "3", "--set", 0 },
		};

		load_ok(NULL, "udpping", peer, 2, 2, &js);
		assert_int_equal(js.jobs[0].peer_cpu, 3);
		pb_jobset_free(&js);
		load_ok(NULL, "udpping", peer, 1, 2, &js);
		assert_int_equal(js.jobs[0].peer_cpu, 0);
		pb_jobset_free(&js);
	}
	if (glob("configs/*.ini", 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			load_ok(g.gl_pathv[i], NULL, NULL, 0, 2, &js);
			assert_true(js.nr > 0);
			pb_jobset_free(&js);
		}
		globfree(&g);
	}
	setup_fakes(state);
}

/* A section name of 63 characters is a job; of 64, a bad section name. */
static void test_section_name_limit(void **state)
{
	char text[160], path[sizeof(JOB_TMP)], name[65];
	struct pb_jobset js;
	int n;

	(void)state;
	memset(name, 'j', 63);
	name[63] = 0;
	n = snprintf(text, sizeof(text), "[%s]\nbench = pipe\n", name);
	write_job(path, text, (size_t)n);
	load_ok(path, NULL, NULL, 0, 2, &js);
	unlink(path);
	assert_int_equal(js.nr, 1);
	assert_string_equal(js.jobs[0].name, name);
	pb_jobset_free(&js);
	strcat(name, "j");
	n = snprintf(text, sizeof(text), "[%s]\nbench = pipe\n", name);
	load_text_fails(text, (size_t)n, ":1: bad section name '%s' (1 to 63 letters, digits "
			"or _-.:+@)", name);
}

/* ---------------------------------------------------------------- */
/* Key rows: parse and verify steps, ranges, capabilities from the table */

struct net_opts {
	int	family;
	long	x;
};

/* x > 0 only over IPv4: a cross-key rule, cited at x. */
static int verify_x(const struct pb_key *k, const void *dst, struct pb_key_fault *f)
{
	const struct net_opts *o = dst;

	(void)k;
	if (!o->x || o->family == 0)
		return 0;
	snprintf(f->msg, sizeof(f->msg), "x=%ld needs family=4", o->x);
	return -1;
}

static const struct pb_key net_keys[] = {
	{ .name = "family", .type = PB_T_ENUM, .def = "4", PB_NO_RANGE, .choices = "4|6",
	  .off = offsetof(struct net_opts, family) },
	{ .name = "x", .type = PB_T_INT, .def = "0", 0, 9,
	  .off = offsetof(struct net_opts, x), .verify = verify_x },
	{ .name = NULL }
};

static int fake_peer(struct pb_peer_ctx *p)
{
	(void)p;
	return -1;
}

static const struct pb_bench fake_net = {
	.name = "net", .shape = PB_SHAPE_PAIR, .roles = { "client", "server" },
	.keys = net_keys, .opts_size = sizeof(struct net_opts), .latency = true,
	.aux_names = { "stale", "lost" }, .lost_counter = PB_AUX_ID(1),
	.peer_listen = fake_peer, .peer_connect = fake_peer,
};

static const struct pb_bench fake_lat = {
	.name = "lat", .shape = PB_SHAPE_PAIR, .roles = { "a", "b" }, .latency = true,
};

static const struct pb_bench *const net_benches[] = {
	&fake_pipe, &fake_net, &fake_lat, NULL
};

static const struct pb_bench *net_find(const char *name)
{
	return find_in(net_benches, name);
}

/* The job file text fails with exactly expect. */
static void text_fails(const char *text, const char *expect)
{
	struct pb_jobset js;

	err[0] = '\0';
	if (!pb_jobs_load_text("t.ini", text, strlen(text), NULL, 0, 2, &js, err, sizeof(err)))
		fail_msg("loaded: %s", text);
	assert_string_equal(err, expect);
}

static void text_ok(const char *text)
{
	struct pb_jobset js;

	err[0] = '\0';
	if (pb_jobs_load_text("t.ini", text, strlen(text), NULL, 0, 2, &js, err, sizeof(err)))
		fail_msg("%s: unexpected error: %s", text, err);
	pb_jobset_free(&js);
}

/* Every row parses through a step; structured text has its own; cross-key rows verify. */
static void test_key_rows(void **state)
{
	(void)state;
	for (const struct pb_key *k = pb_common_keys; k->name; k++) {
		assert_non_null(pb_key_parser(k));
		if (k->type == PB_T_STR)	/* never typed into struct common */
			assert_non_null(k->parse);
		if (!strcmp(k->name, "peer") || !strcmp(k->name, "peer_cpu"))
			assert_non_null(k->verify);
	}
	for (int i = 0; pb_benches[i]; i++)
		for (const struct pb_key *k = pb_benches[i]->keys; k && k->name; k++)
			assert_non_null(pb_key_parser(k));
	assert_ptr_equal(pb_key_parser(&pipe_keys[0]), pb_key_typed);
}

/* A value one past either end of a row's range is refused, the key named. */
static void range_refused(const char *bench, const struct pb_key *k, double v)
{
	char text[256], want[128];
	struct pb_jobset js;

	if (k->type == PB_T_INT)
		snprintf(text, sizeof(text), "[j]\nbench = %s\n%s = %.0f\n", bench, k->name, v);
	else
		snprintf(text, sizeof(text), "[j]\nbench = %s\n%s = %.17g\n", bench, k->name, v);
	err[0] = '\0';
	if (!pb_jobs_load_text("t.ini", text, strlen(text), NULL, 0, 2, &js, err, sizeof(err)))
		fail_msg("loaded: %s", text);
	snprintf(want, sizeof(want), "t.ini:3: %s: '", k->name);
	if (strncmp(err, want, strlen(want)) || !strstr(err, "' is out of range "))
		fail_msg("%s: %s", k->name, err);
}

static void test_key_ranges(void **state)
{
	(void)state;
	for (const struct pb_key *k = pb_common_keys; k->name; k++) {
		if ((k->type != PB_T_INT && k->type != PB_T_DOUBLE) || k->min > k->max)
			continue;
		range_refused("pipe", k, k->max + 1);
		range_refused("pipe", k, k->min - 1);
	}
	for (const struct pb_key *k = pipe_keys; k->name; k++)
		if (k->type == PB_T_INT && k->min <= k->max)
			range_refused("pipe", k, k->max + 1);
}

/* The workloads a message names are those of the table with the capability. */
static void test_computed_capability(void **state)
{
	char buf[128];

	(void)state;
	pb_benches_with(net_benches, pb_bench_keeps_latency, buf, sizeof(buf));
	assert_string_equal(buf, "net and lat");
	pb_benches_with(net_benches, pb_bench_peer_capable, buf, sizeof(buf));
	assert_string_equal(buf, "net");
	pb_benches_with(fake_benches, pb_bench_peer_capable, buf, sizeof(buf));
	assert_string_equal(buf, "none");
	pb_benches_with(fake_benches, pb_bench_keeps_latency, buf, sizeof(buf));
	assert_string_equal(buf, "none");
	{
		static const struct pb_bench *const three[] = {
			&fake_net, &fake_pipe, &fake_lat, &fake_net, NULL
		};

		pb_benches_with(three, pb_bench_keeps_latency, buf, sizeof(buf));
		assert_string_equal(buf, "net, lat and net");
	}
	text_fails("[j]\nbench = pipe\npeer = 192.0.2.1\n",
		   "t.ini:3: peer: bench pipe cannot run across hosts (none can)");
	pb_jobfile_find_bench = net_find;
	pb_jobfile_benches = net_benches;
	text_fails("[j]\nbench = pipe\nestimator = p50\n",
		   "t.ini:3: estimator: p50 needs per-message latency, which bench pipe "
		   "does not keep (net and lat do)");
	text_fails("[j]\nbench = pipe\npeer = 192.0.2.1\n",
		   "t.ini:3: peer: bench pipe cannot run across hosts (net can)");
	text_ok("[j]\nbench = net\nestimator = p50\npeer = 192.0.2.1\n");
	assert_int_equal(pb_bench_lost_aux(&fake_net), 1);
	assert_int_equal(pb_bench_lost_aux(&fake_pipe), -1);
	assert_int_equal(pb_bench_reply_timeout_ms(&fake_net, NULL), 0);
	setup_fakes(state);
}

/* The verify steps, after every key is read: the fault cited where it was set. */
static void test_verify_steps(void **state)
{
	(void)state;
	pb_jobfile_find_bench = net_find;
	pb_jobfile_benches = net_benches;
	text_fails("[j]\nbench = net\nfamily = 6\npeer = 192.0.2.1\n",
		   "t.ini:3: family=6 asks for IPv6 but peer=192.0.2.1 is an IPv4 address");
	text_fails("[j]\nbench = net\npeer = [::1]:7\n",
		   "t.ini:3: family=4 (the default) asks for IPv4 but peer=[::1]:7 is an "
		   "IPv6 address");
	text_ok("[j]\nbench = net\nfamily = 6\npeer = [::1]:7\n");
	text_ok("[j]\nbench = net\nfamily = 6\npeer = somehost\n");
	text_fails("[j]\nbench = net\npeer_cpu = 2\n",
		   "t.ini:3: peer_cpu: peer_cpu needs peer=HOST[:PORT]");
	text_ok("[j]\nbench = net\npeer_cpu = 2\npeer = 192.0.2.1\n");
	/* a workload's row: its verify sees the options, the key is named */
	text_fails("[j]\nbench = net\nx = 3\nfamily = 6\n", "t.ini:3: x: x=3 needs family=4");
	text_ok("[j]\nbench = net\nx = 3\n");
	text_ok("[j]\nbench = net\nfamily = 6\n");
	setup_fakes(state);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inheritance),
		cmocka_unit_test(test_cpus_and_hidden),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_text_kept),
		cmocka_unit_test(test_syntax_details),
		cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_override_cpus),
		cmocka_unit_test(test_override_errors),
		cmocka_unit_test(test_adhoc),
		cmocka_unit_test(test_adhoc_errors),
		cmocka_unit_test(test_sweep_list),
		cmocka_unit_test(test_sweep_all),
		cmocka_unit_test(test_sweep_errors),
		cmocka_unit_test(test_sweep_pairs),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_size_limits),
		cmocka_unit_test(test_nul_and_bom),
		cmocka_unit_test(test_key_parse),
		cmocka_unit_test(test_key_describe),
		cmocka_unit_test(test_common_keys),
		cmocka_unit_test(test_count_window),
		cmocka_unit_test(test_counts_first),
		cmocka_unit_test(test_real_tables),
		cmocka_unit_test(test_section_name_limit),
		cmocka_unit_test(test_key_rows),
		cmocka_unit_test(test_key_ranges),
		cmocka_unit_test(test_computed_capability),
		cmocka_unit_test(test_verify_steps),
	};
	char *self = argc > 0 ? strdup(argv[0]) : NULL;

	/* The job files are relative to the top of the tree. */
	if (self && strchr(self, '/') && chdir(dirname(self)) == 0 && chdir("../../..")) {
		free(self);
		return 1;
	}
	free(self);
	return cmocka_run_group_tests(tests, setup_fakes, NULL);
}
