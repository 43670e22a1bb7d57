// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_plan.c - a job's placement resolved to CPUs (core/plan.c), on
 * synthetic topologies: a pair's two ends, a peer= job's client ends only,
 * workers, cpus= as given, a placement the machine lacks.  The reference
 * is pb_place() itself on the same topology.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "core/plan.h"

#define TOPO	"pack:2 core:4 pu:2"

static struct pb_topo *load(const char *spec)
{
	struct pb_topo *t = NULL;
	char err[256] = "";

	if (pb_topo_load(&t, spec, err, sizeof(err)))
		fail_msg("load '%s': %s", spec, err);
	return t;
}

/* The one job of "[j]\n" + keys (one "k=v" a line). */
static void job(struct pb_jobset *js, const char *keys)
{
	char text[512], err[512] = "";

	snprintf(text, sizeof(text), "[j]\n%s\n", keys);
	if (pb_jobs_load_text("t.ini", text, strlen(text), NULL, 0, 16, js, err, sizeof(err)))
		fail_msg("%s: %s", keys, err);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pair_both_ends),
		cmocka_unit_test(test_peer_client_only),
		cmocka_unit_test(test_workers),
		cmocka_unit_test(test_skipped),
		cmocka_unit_test(test_given_cpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
