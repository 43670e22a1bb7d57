// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_plan.c - the plan of a run (core/plan.c), on synthetic topologies:
 * a job's placement resolved to CPUs (a pair's two ends, a peer= job's
 * client ends only, workers, cpus= as given, a placement the machine
 * lacks; the reference is pb_place() itself on the same topology); the
 * cells of a run, their order round by round (the seed's order pinned:
 * a saved run's --seed must give it again), the planned seconds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "core/plan.h"
#include "core/runner.h"

#define TOPO	"pack:2 core:4 pu:2"

static struct pb_topo *load(const char *spec)
{
	struct pb_topo *t = NULL;
	char err[256] = "";

	if (pb_topo_load(&t, spec, err, sizeof(err)))
		fail_msg("load '%s': %s", spec, err);
	return t;
}

/* The jobs of a job file's text. */
static void jobs(struct pb_jobset *js, const char *text)
{
	char err[512] = "";

	if (pb_jobs_load_text("t.ini", text, strlen(text), NULL, 0, 16, js, err, sizeof(err)))
		fail_msg("%s: %s", text, err);
}

/* The one job of "[j]\n" + keys (one "k=v" a line). */
static void job(struct pb_jobset *js, const char *keys)
{
	char text[512];

	snprintf(text, sizeof(text), "[j]\n%s\n", keys);
	jobs(js, text);
	assert_int_equal(js->nr, 1);
}

/*
 * Job `keys` at placement pl on TOPO: n CPUs, the i-th being pb_place()'s
 * CPU pick[i] of nref pairs (or workers) of pl on the same topology.
 */
static void expect(const char *keys, const char *pl, int nref, const int *pick, int n)
{
	struct pb_topo *t = load(TOPO);
	struct pb_jobset js;
	int ref[16], *cpus;
	char reason[128] = "";

	job(&js, keys);
	assert_int_equal(pb_place(t, pl, nref, ref, reason, sizeof(reason)), 0);
	assert_int_equal(pb_plan_nr_cpus(&js.jobs[0]), n);
	assert_int_equal(pb_plan_cpus(t, &js.jobs[0], pl, &cpus, reason, sizeof(reason)), n);
	for (int i = 0; i < n; i++)
		assert_int_equal(cpus[i], ref[pick[i]]);
	free(cpus);
	pb_jobset_free(&js);
	pb_topo_free(t);
}

static void test_pair_both_ends(void **state)
{
	(void)state;
	expect("bench=udpping\nplacement=diff-socket", "diff-socket", 1, (int[]){ 0, 1 }, 2);
	expect("bench=rr\nstreams=2\nplacement=same-core", "same-core", 2,
	       (int[]){ 0, 1, 2, 3 }, 4);
}

/* peer=: the server end runs on the peer; printed, locked, pinned: the client's. */
static void test_peer_client_only(void **state)
{
	(void)state;
	expect("bench=udpping\npeer=127.0.0.1\nplacement=same-socket", "same-socket", 1,
	       (int[]){ 0 }, 1);
	expect("bench=udpping\npeer=127.0.0.1\nplacement=diff-socket", "diff-socket", 1,
	       (int[]){ 0 }, 1);
	expect("bench=rr\nstreams=2\npeer=127.0.0.1\nplacement=diff-socket", "diff-socket", 2,
	       (int[]){ 0, 2 }, 2);
}

static void test_workers(void **state)
{
	(void)state;
	expect("bench=epoll_ctl\nthreads=3\nplacement=scatter", "scatter", 3,
	       (int[]){ 0, 1, 2 }, 3);
}

/* A placement the machine cannot offer: 0, the reason, nothing to free. */
static void test_skipped(void **state)
{
	struct pb_topo *t = load("pack:1 core:2 pu:1");
	struct pb_jobset js;
	int *cpus = (int *)&cpus;
	char reason[128] = "";

	(void)state;
	job(&js, "bench=udpping\npeer=127.0.0.1\nplacement=diff-socket");
	assert_int_equal(pb_plan_cpus(t, &js.jobs[0], "diff-socket", &cpus, reason,
				      sizeof(reason)), 0);
	assert_null(cpus);
	assert_string_equal(reason, "1 package");
	pb_jobset_free(&js);
	pb_topo_free(t);
}

/* cpus=: as given, role order; a CPU the topology lacks: -1, named. */
static void test_given_cpus(void **state)
{
	struct pb_topo *t = load(TOPO);
	struct pb_jobset js;
	int *cpus, n;
	char reason[128] = "";

	(void)state;
	job(&js, "bench=pipe\ncpus=5,3");
	n = pb_plan_cpus(t, &js.jobs[0], NULL, &cpus, reason, sizeof(reason));
	assert_int_equal(n, 2);
	assert_int_equal(cpus[0], 5);
	assert_int_equal(cpus[1], 3);
	free(cpus);
	pb_jobset_free(&js);
	job(&js, "bench=udpping\npeer=127.0.0.1\ncpus=7");
	n = pb_plan_cpus(t, &js.jobs[0], NULL, &cpus, reason, sizeof(reason));
	assert_int_equal(n, 1);
	assert_int_equal(cpus[0], 7);
	free(cpus);
	pb_jobset_free(&js);
	job(&js, "bench=pipe\ncpus=3,16");
	assert_int_equal(pb_plan_cpus(t, &js.jobs[0], NULL, &cpus, reason, sizeof(reason)), -1);
	assert_null(cpus);
	assert_string_equal(reason, "CPU 16 is not available to pinbench");
	pb_jobset_free(&js);
	pb_topo_free(t);
}

#define ROUNDS	"[global]\nrepeats=2\nduration=0.1\n" \
		"[a]\nbench=pipe\nrounds=3\nplacement=same-cpu,same-socket,same-core\n" \
		"[b]\nbench=udpping\nrounds=2\nplacement=same-cpu,diff-socket\n" \
		"[c]\nbench=epoll_ctl\nthreads=2\nplacement=compact,scatter\nrounds=4\n"

/* "a/same-cpu b/diff-socket ...": the n cells of order. */
static void order_text(const struct pb_jobset *js, const struct pb_plan_cell *order, int n,
		       char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && k < len; i++)
		k += snprintf(buf + k, len - k, "%s%s/%s", i ? " " : "",
			      js->jobs[order[i].job].name, pb_cell_placement(js, order[i]));
}

/* Every job x placement in file order; the rounds: the most any job takes. */
static void test_cells(void **state)
{
	struct pb_jobset js;
	struct pb_plan_cell *cells, order[8];
	uint64_t rng = 1;
	char text[256];
	int nr;

	(void)state;
	jobs(&js, ROUNDS);
	assert_int_equal(pb_plan_cells(&js, &cells, &nr), 4);
	assert_int_equal(nr, 7);
	order_text(&js, cells, nr, text, sizeof(text));
	assert_string_equal(text, "a/same-cpu a/same-socket a/same-core b/same-cpu "
			    "b/diff-socket c/compact c/scatter");
	/* one round: file order, the generator untouched */
	assert_int_equal(pb_plan_round(&js, cells, nr, 1, 1, &rng, order), 7);
	assert_memory_equal(order, cells, 7 * sizeof(*order));
	assert_int_equal(rng, 1);
	free(cells);
	pb_jobset_free(&js);
	job(&js, "bench=pipe\ncpus=0,1");
	assert_int_equal(pb_plan_cells(&js, &cells, &nr), 1);
	assert_int_equal(nr, 1);
	assert_null(pb_cell_placement(&js, cells[0]));
	free(cells);
	pb_jobset_free(&js);
}

/* Rounds shuffled from the seed, as `run --dry-run --seed 7` has printed them. */
static void test_shuffle(void **state)
{
	static const char *const want[] = {
		"c/compact c/scatter b/diff-socket b/same-cpu a/same-socket a/same-cpu a/same-core",
		"a/same-core b/diff-socket b/same-cpu a/same-socket c/scatter a/same-cpu c/compact",
		"a/same-socket a/same-core c/compact c/scatter a/same-cpu",
		"c/compact c/scatter",
	};
	struct pb_jobset js;
	struct pb_plan_cell *cells, order[8];
	uint64_t rng = 7;
	char text[256];
	int nr, rounds;

	(void)state;
	jobs(&js, ROUNDS);
	rounds = pb_plan_cells(&js, &cells, &nr);
	for (int r = 1; r <= rounds; r++) {
		int n = pb_plan_round(&js, cells, nr, r, rounds, &rng, order);

		order_text(&js, order, n, text, sizeof(text));
		assert_string_equal(text, want[r - 1]);
	}
	free(cells);
	pb_jobset_free(&js);
}

/* The planned seconds: a skipped cell none, each round of the others its own. */
static void test_seconds(void **state)
{
	struct pb_topo *t = load("pack:1 core:2 pu:1");
	struct pb_evlist evl[1];
	struct pb_jobset js;
	double one;
	int runs;

	(void)state;
	memset(evl, 0, sizeof(evl));		/* events=none */
	job(&js, "bench=udpping\nrepeats=2\nduration=0.5\nwarmup=1\nevents=none\nrounds=3\n"
	    "placement=same-cpu,diff-socket,same-socket");
	one = pb_job_expected_s(&js.jobs[0], &evl[0]) + PB_JOB_OVERHEAD_S;
	assert_true(one > 2);
	assert_true(pb_plan_cell_s(t, &js.jobs[0], "same-cpu", &evl[0]) == one);
	assert_true(pb_plan_cell_s(t, &js.jobs[0], "diff-socket", &evl[0]) == 0);
	assert_true(fabs(pb_plan_s(t, &js, evl, &runs) - 6 * one) < 1e-9);
	assert_int_equal(runs, 6);
	pb_jobset_free(&js);
	pb_topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pair_both_ends),
		cmocka_unit_test(test_peer_client_only),
		cmocka_unit_test(test_workers),
		cmocka_unit_test(test_skipped),
		cmocka_unit_test(test_given_cpus),
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_shuffle),
		cmocka_unit_test(test_seconds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
