// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_topo.c - placements on synthetic topologies, checked against hwloc
 * itself (a second, independent load of the same description).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <hwloc.h>

#include "sys/topo.h"

#define MAXCPU	256

/* ---- the oracle: hwloc on the same description ---- */

static hwloc_topology_t oracle(const char *spec)
{
	hwloc_topology_t h;

	assert_int_equal(hwloc_topology_init(&h), 0);
	assert_int_equal(hwloc_topology_set_synthetic(h, spec), 0);
	assert_int_equal(hwloc_topology_load(h), 0);
	return h;
}

static hwloc_obj_t anc(hwloc_topology_t h, hwloc_obj_type_t type, int os)
{
	hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(h, (unsigned int)os);

	assert_non_null(pu);
	return hwloc_get_ancestor_obj_by_type(h, type, pu);
}

static bool same(hwloc_topology_t h, hwloc_obj_type_t type, int a, int b)
{
	hwloc_obj_t x = anc(h, type, a), y = anc(h, type, b);

	assert_non_null(x);
	assert_non_null(y);
	return x == y;
}

static int node_of(hwloc_topology_t h, int os)
{
	hwloc_obj_t n = NULL;

	while ((n = hwloc_get_next_obj_by_type(h, HWLOC_OBJ_NUMANODE, n)))
		if (hwloc_bitmap_isset(n->cpuset, (unsigned int)os))
			return (int)n->logical_index;
	return -1;
}

static struct pb_topo *load(const char *spec)
{
	struct pb_topo *t = NULL;
	char err[256] = "";

	if (pb_topo_load(&t, spec, err, sizeof(err)) < 0)
		fail_msg("load '%s': %s", spec ? spec : "(this machine)", err);
	assert_non_null(t);
	return t;
}

static int place(struct pb_topo *t, const char *name, int n, int *cpus, char *reason)
{
	int i, ret;

	for (i = 0; i < MAXCPU; i++)
		cpus[i] = -1;
	ret = pb_place(t, name, n, cpus, reason, 128);
	if (ret == 0)
		for (i = 0; i < (pb_placement_kind(name) == PB_PLACE_PAIR ? 2 * n : n); i++)
			assert_true(pb_topo_has_cpu(t, cpus[i]));
	return ret;
}

static void assert_skipped(struct pb_topo *t, const char *name, int n, const char *why)
{
	int cpus[MAXCPU];
	char reason[128];

	assert_int_equal(place(t, name, n, cpus, reason), 1);
	if (!strstr(reason, why))
		fail_msg("%s: reason '%s', expected '%s'", name, reason, why);
}

static void assert_summary(struct pb_topo *t, int packages, int cores, int pus,
			   int llcs, int nodes, bool smt)
{
	struct pb_topo_summary s;

	pb_topo_summary(t, &s);
	assert_int_equal(s.packages, packages);
	assert_int_equal(s.cores, cores);
	assert_int_equal(s.pus, pus);
	assert_int_equal(s.llcs, llcs);
	assert_int_equal(s.numa_nodes, nodes);
	assert_int_equal(s.smt, smt);
	assert_int_equal(pb_topo_nr_cpus(t), pus);
}

/* Check pair i of a resolved pair placement against the oracle. */
static void check_pair(hwloc_topology_t h, const char *name, int a, int b)
{
	if (!strcmp(name, "same-cpu")) {
		assert_int_equal(a, b);
	} else if (!strcmp(name, "same-core")) {
		assert_int_not_equal(a, b);
		assert_true(same(h, HWLOC_OBJ_CORE, a, b));
	} else if (!strcmp(name, "same-socket")) {
		assert_false(same(h, HWLOC_OBJ_CORE, a, b));
		assert_true(same(h, HWLOC_OBJ_PACKAGE, a, b));
	} else if (!strcmp(name, "diff-socket")) {
		assert_false(same(h, HWLOC_OBJ_PACKAGE, a, b));
	} else if (!strcmp(name, "same-llc")) {
		assert_false(same(h, HWLOC_OBJ_CORE, a, b));
		assert_true(same(h, HWLOC_OBJ_L3CACHE, a, b));
	} else if (!strcmp(name, "diff-llc")) {
		assert_true(same(h, HWLOC_OBJ_PACKAGE, a, b));
		assert_false(same(h, HWLOC_OBJ_L3CACHE, a, b));
	} else if (!strcmp(name, "diff-node")) {
		assert_int_not_equal(node_of(h, a), node_of(h, b));
	} else {
		fail_msg("no check for %s", name);
	}
}

static void check_resolves(struct pb_topo *t, hwloc_topology_t h, const char *name, int n)
{
	int cpus[MAXCPU];
	char reason[128];
	int i;

	if (place(t, name, n, cpus, reason) != 0)
		fail_msg("%s x%d skipped: %s", name, n, reason);
	for (i = 0; i < n; i++)
		check_pair(h, name, cpus[2 * i], cpus[2 * i + 1]);
}

/* ---- machines like this VM, and the seed topology ---- */

static void test_one_package_no_smt(void **state)
{
	const char *spec = "pack:1 core:2 pu:1";
	hwloc_topology_t h = oracle(spec);
	struct pb_topo *t = load(spec);

	(void)state;
	assert_false(pb_topo_is_this_system(t));
	assert_summary(t, 1, 2, 2, 0, 1, false);
	check_resolves(t, h, "same-cpu", 1);
	check_resolves(t, h, "same-socket", 1);
	assert_skipped(t, "same-core", 1, "no SMT siblings");
	assert_skipped(t, "diff-socket", 1, "1 package");
	assert_skipped(t, "diff-node", 1, "1 NUMA node");
	assert_skipped(t, "same-llc", 1, "no cache");
	pb_topo_free(t);
	hwloc_topology_destroy(h);
}

static void test_two_packages_smt(void **state)
{
	const char *spec = "pack:2 core:4 pu:2";
	hwloc_topology_t h = oracle(spec);
	struct pb_topo *t = load(spec);
	int i;

	(void)state;
	assert_summary(t, 2, 8, 16, 0, 1, true);
	for (i = 0; i < 4; i++)
		check_resolves(t, h, pb_pair_placements[i], 1);
	assert_skipped(t, "diff-node", 1, "1 NUMA node");
	pb_topo_free(t);
	hwloc_topology_destroy(h);
}

/* Batches for probing at once: never two SMT siblings of one core together. */
static void test_core_batches(void **state)
{
	struct pb_topo *t = load("pack:2 core:2 pu:2");	/* PUs 0,1 | 2,3 || 4,5 | 6,7 */
	int cpus[] = { 0, 2, 1, 4, 5, 3, 99 }, batch[7];
	int nocore[] = { 0, 2, 4, 6 }, one[] = { 3, 3 };

	(void)state;
	assert_int_equal(pb_topo_core_of(t, 0), pb_topo_core_of(t, 1));
	assert_int_not_equal(pb_topo_core_of(t, 1), pb_topo_core_of(t, 2));
	assert_int_not_equal(pb_topo_core_of(t, 3), pb_topo_core_of(t, 4));
	assert_int_equal(pb_topo_core_of(t, 99), -1);
	assert_int_equal(pb_topo_core_batches(t, cpus, 7, batch), 3);
	assert_int_equal(batch[0], 0);		/* core 0 */
	assert_int_equal(batch[1], 0);		/* core 1 */
	assert_int_equal(batch[2], 1);		/* core 0's sibling */
	assert_int_equal(batch[3], 0);		/* core 2 */
	assert_int_equal(batch[4], 1);		/* core 2's sibling */
	assert_int_equal(batch[5], 1);		/* core 1's sibling */
	assert_int_equal(batch[6], 2);		/* not here: alone */
	assert_int_equal(pb_topo_core_batches(t, nocore, 4, batch), 1);
	for (int i = 0; i < 4; i++)
		assert_int_equal(batch[i], 0);
	assert_int_equal(pb_topo_core_batches(t, one, 2, batch), 2);	/* the same CPU twice */
	assert_int_equal(batch[1], 1);
	assert_int_equal(pb_topo_core_batches(t, cpus, 0, batch), 0);
	pb_topo_free(t);
}

static void test_llcs(void **state)
{
	const char *spec = "pack:4 l3:2 core:4 pu:2";
	hwloc_topology_t h = oracle(spec);
	struct pb_topo *t = load(spec);

	(void)state;
	assert_summary(t, 4, 32, 64, 8, 1, true);
	check_resolves(t, h, "same-llc", 1);
	check_resolves(t, h, "diff-llc", 1);
	check_resolves(t, h, "diff-socket", 1);
	check_resolves(t, h, "same-llc", 4);
	check_resolves(t, h, "diff-llc", 8);
	pb_topo_free(t);
	hwloc_topology_destroy(h);
}

static void test_one_llc_per_package(void **state)
{
	const char *spec = "pack:2 l3:1 core:2 pu:1";
	struct pb_topo *t = load(spec);

	(void)state;
	assert_summary(t, 2, 4, 4, 2, 1, false);
	assert_skipped(t, "diff-llc", 1, "one last-level cache per package");
	pb_topo_free(t);
	t = load("pack:2 l3:2 core:1 pu:2");
	assert_skipped(t, "same-llc", 1, "1 core per last-level cache");
	pb_topo_free(t);
}

/* OS indexes 0,2 share an L2, 0,1 only the L3: same-socket must take 0,2. */
static void test_prefers_shared_cache(void **state)
{
	const char *spec = "pack:1 l3:1 l2:2 core:2 pu:1(indexes=0,2,1,3)";
	hwloc_topology_t h = oracle(spec);
	struct pb_topo *t = load(spec);
	int cpus[MAXCPU];
	char reason[128];

	(void)state;
	assert_false(same(h, HWLOC_OBJ_L2CACHE, 0, 1));	/* the trap is there */
	assert_int_equal(place(t, "same-socket", 1, cpus, reason), 0);
	check_pair(h, "same-socket", cpus[0], cpus[1]);
	assert_true(same(h, HWLOC_OBJ_L2CACHE, cpus[0], cpus[1]));
	assert_int_equal(place(t, "same-llc", 1, cpus, reason), 0);
	assert_true(same(h, HWLOC_OBJ_L2CACHE, cpus[0], cpus[1]));
	/* two pairs: both share their L2 */
	assert_int_equal(place(t, "same-socket", 2, cpus, reason), 0);
	assert_true(same(h, HWLOC_OBJ_L2CACHE, cpus[0], cpus[1]));
	assert_true(same(h, HWLOC_OBJ_L2CACHE, cpus[2], cpus[3]));
	pb_topo_free(t);
	hwloc_topology_destroy(h);
}

static void test_numa(void **state)
{
	const char *spec = "pack:2 numa:2 core:2 pu:1";
	hwloc_topology_t h = oracle(spec);
	struct pb_topo *t = load(spec);

	(void)state;
	assert_summary(t, 2, 8, 8, 0, 4, false);
	check_resolves(t, h, "diff-node", 1);
	check_resolves(t, h, "diff-node", 4);
	check_resolves(t, h, "diff-socket", 1);
	assert_skipped(t, "diff-node", 5, "5 pairs");
	pb_topo_free(t);
	hwloc_topology_destroy(h);
}

/* 1, 2 and 4 packages, with and without SMT: summary and seed placements. */
static void test_shapes(void **state)
{
	static const char *const specs[] = {
		"pack:1 core:4 pu:1", "pack:1 core:4 pu:2", "pack:2 core:2 pu:1",
		"pack:2 core:2 pu:4", "pack:4 core:2 pu:1", "pack:4 core:1 pu:2",
		"pack:4 core:1 pu:1", NULL,
	};
	int i;

	(void)state;
	for (i = 0; specs[i]; i++) {
		hwloc_topology_t h = oracle(specs[i]);
		struct pb_topo *t = load(specs[i]);
		int packs = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PACKAGE);
		int cores = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_CORE);
		int pus = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PU);

		assert_summary(t, packs, cores, pus, 0, 1, pus > cores);
		check_resolves(t, h, "same-cpu", 1);
		if (pus > cores)
			check_resolves(t, h, "same-core", 1);
		else
			assert_skipped(t, "same-core", 1, "no SMT siblings");
		if (cores > packs)
			check_resolves(t, h, "same-socket", 1);
		else
			assert_skipped(t, "same-socket", 1, "1 core per package");
		if (packs > 1)
			check_resolves(t, h, "diff-socket", 1);
		else
			assert_skipped(t, "diff-socket", 1, "1 package");
		pb_topo_free(t);
		hwloc_topology_destroy(h);
	}
}

/* ---- several pairs ---- */

static void assert_distinct(const int *cpus, int n)
{
	int i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			assert_int_not_equal(cpus[i], cpus[j]);
}

static void assert_distinct_cores(hwloc_topology_t h, const int *cpus, int n)
{
	int i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			assert_false(same(h, HWLOC_OBJ_CORE, cpus[i], cpus[j]));
}

static void test_many_pairs(void **state)
{
	const char *spec = "pack:2 core:4 pu:2";
	hwloc_topology_t h = oracle(spec);
	struct pb_topo *t = load(spec);
	int cpus[MAXCPU], ends[2], firsts[16], i;
	char reason[128];

	(void)state;
	/* same-cpu x2: each pair on one CPU, the two CPUs on distinct cores */
	assert_int_equal(place(t, "same-cpu", 2, cpus, reason), 0);
	check_pair(h, "same-cpu", cpus[0], cpus[1]);
	check_pair(h, "same-cpu", cpus[2], cpus[3]);
	ends[0] = cpus[0];
	ends[1] = cpus[2];
	assert_distinct_cores(h, ends, 2);
	/* same-core x2: two different cores */
	check_resolves(t, h, "same-core", 2);
	assert_int_equal(place(t, "same-core", 2, cpus, reason), 0);
	assert_distinct(cpus, 4);
	assert_false(same(h, HWLOC_OBJ_CORE, cpus[0], cpus[2]));
	/* same-socket x4: eight distinct cores; x8: every PU once */
	check_resolves(t, h, "same-socket", 4);
	assert_int_equal(place(t, "same-socket", 4, cpus, reason), 0);
	assert_distinct_cores(h, cpus, 8);
	check_resolves(t, h, "same-socket", 8);
	assert_int_equal(place(t, "same-socket", 8, cpus, reason), 0);
	assert_distinct(cpus, 16);
	check_resolves(t, h, "diff-socket", 8);
	check_resolves(t, h, "same-core", 8);
	check_resolves(t, h, "same-cpu", 16);
	assert_int_equal(place(t, "same-cpu", 16, cpus, reason), 0);
	for (i = 0; i < 16; i++)
		firsts[i] = cpus[2 * i];
	assert_distinct(firsts, 16);
	/* too many: skipped, the reason gives the numbers */
	assert_skipped(t, "same-socket", 9, "9 pairs");
	assert_skipped(t, "diff-socket", 9, "8 fit");
	assert_skipped(t, "same-core", 9, "16 CPUs");
	assert_skipped(t, "same-cpu", 17, "17 pairs");
	pb_topo_free(t);
	hwloc_topology_destroy(h);
}

static int count_cores(hwloc_topology_t h, const int *cpus, int n)
{
	int i, j, k = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (same(h, HWLOC_OBJ_CORE, cpus[i], cpus[j]))
				break;
		k += j == i;
	}
	return k;
}

/* 3 cores, 2 pairs: a core is shared, but only one; so 3 cores are used. */
static void test_pairs_prefer_fresh_cores(void **state)
{
	const char *spec = "pack:1 core:3 pu:2";
	hwloc_topology_t h = oracle(spec);
	struct pb_topo *t = load(spec);
	int cpus[MAXCPU];
	char reason[128];

	(void)state;
	check_resolves(t, h, "same-socket", 2);
	assert_int_equal(place(t, "same-socket", 2, cpus, reason), 0);
	assert_distinct(cpus, 4);
	assert_int_equal(count_cores(h, cpus, 4), 3);
	check_resolves(t, h, "same-socket", 3);
	assert_skipped(t, "same-core", 4, "3 fit");
	pb_topo_free(t);
	hwloc_topology_destroy(h);
}

/* ---- workers ---- */

static int pkg_of(hwloc_topology_t h, int os)
{
	return (int)anc(h, HWLOC_OBJ_PACKAGE, os)->logical_index;
}

static void test_compact(void **state)
{
	static const int hand[16] = { 0, 2, 4, 6, 1, 3, 5, 7,
				      8, 10, 12, 14, 9, 11, 13, 15 };
	const char *spec = "pack:2 core:4 pu:2";
	hwloc_topology_t h = oracle(spec);
	struct pb_topo *t = load(spec);
	int cpus[MAXCPU], few[MAXCPU], i;
	char reason[128];

	(void)state;
	assert_int_equal(place(t, "compact", 16, cpus, reason), 0);
	assert_memory_equal(cpus, hand, sizeof(hand));
	assert_distinct(cpus, 16);
	/* one package filled first, first PUs of its cores before siblings */
	for (i = 1; i < 8; i++)
		assert_int_equal(pkg_of(h, cpus[i]), pkg_of(h, cpus[0]));
	assert_distinct_cores(h, cpus, 4);
	for (i = 4; i < 8; i++)
		assert_true(same(h, HWLOC_OBJ_CORE, cpus[i], cpus[i - 4]));
	/* fewer workers: a prefix of the same order */
	assert_int_equal(place(t, "compact", 3, few, reason), 0);
	assert_memory_equal(few, cpus, 3 * sizeof(int));
	assert_skipped(t, "compact", 17, "17 workers, only 16 CPUs");
	pb_topo_free(t);
	hwloc_topology_destroy(h);
}

static void test_scatter(void **state)
{
	static const int hand[16] = { 0, 8, 2, 10, 4, 12, 6, 14,
				      1, 9, 3, 11, 5, 13, 7, 15 };
	const char *spec = "pack:4 core:2 pu:2";
	hwloc_topology_t h = oracle(spec);
	struct pb_topo *t = load(spec), *t2;
	int cpus[MAXCPU], i;
	char reason[128];

	(void)state;
	assert_int_equal(place(t, "scatter", 16, cpus, reason), 0);
	assert_distinct(cpus, 16);
	for (i = 0; i < 4; i++)		/* round robin over the 4 packages */
		assert_int_equal(pkg_of(h, cpus[i]), pkg_of(h, cpus[i + 4]));
	for (i = 1; i < 4; i++)
		assert_int_not_equal(pkg_of(h, cpus[i]), pkg_of(h, cpus[i - 1]));
	assert_distinct_cores(h, cpus, 8);	/* first PUs before siblings */
	assert_skipped(t, "scatter", 17, "17 workers");
	t2 = load("pack:2 core:4 pu:2");
	assert_int_equal(place(t2, "scatter", 16, cpus, reason), 0);
	assert_memory_equal(cpus, hand, sizeof(hand));
	pb_topo_free(t2);
	pb_topo_free(t);
	hwloc_topology_destroy(h);
}

/* ---- names, errors ---- */

static void test_names(void **state)
{
	struct pb_topo *t = load("pack:1 core:2 pu:1");
	int cpus[MAXCPU], i;
	char reason[128];

	(void)state;
	for (i = 0; pb_pair_placements[i]; i++)
		assert_int_equal(pb_placement_kind(pb_pair_placements[i]), PB_PLACE_PAIR);
	assert_int_equal(i, 7);
	for (i = 0; pb_worker_placements[i]; i++)
		assert_int_equal(pb_placement_kind(pb_worker_placements[i]),
				 PB_PLACE_WORKERS);
	assert_int_equal(i, 2);
	assert_int_equal(pb_placement_kind("same-die"), -1);
	assert_int_equal(pb_placement_kind(""), -1);
	assert_int_equal(place(t, "same-die", 1, cpus, reason), -1);
	assert_non_null(strstr(reason, "same-die"));
	assert_int_equal(place(t, "same-cpu", 0, cpus, reason), -1);
	assert_false(pb_topo_has_cpu(t, 2));
	assert_false(pb_topo_has_cpu(t, -1));
	assert_true(pb_topo_has_cpu(t, 1));
	assert_int_equal(pb_topo_bind_thread(t, 0), -ENOSYS);	/* synthetic */
	pb_topo_free(t);
}

static void assert_load_fails(const char *spec, const char *needle)
{
	struct pb_topo *t = (struct pb_topo *)1;
	char err[512] = "";

	assert_int_equal(pb_topo_load(&t, spec, err, sizeof(err)), -1);
	assert_null(t);
	if (!strstr(err, needle))
		fail_msg("load '%s': error '%s' lacks '%s'", spec, err, needle);
}

static void test_load_errors(void **state)
{
	char bad[] = "/tmp/pinbench-topo-XXXXXX";
	int fd = mkstemp(bad);

	(void)state;
	assert_load_fails("pack:x", "invalid synthetic topology 'pack:x'");
	assert_load_fails("core:two", "'core:two'");
	assert_load_fails("/nonexistent/machine.xml", "/nonexistent/machine.xml");
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "<topology", 9), 9);
	close(fd);
	assert_load_fails(bad, bad);
	unlink(bad);
}

/*
 * A synthetic description makes at most 4096 PUs: refused before hwloc
 * builds it (it spent 30 s and 450 MB on pack:256 core:64 pu:4).
 */
static void test_synthetic_cap(void **state)
{
	struct pb_topo *t;
	char err[512];

	(void)state;
	assert_int_equal(pb_topo_synthetic_pus("pack:2 core:4 pu:2"), 16);
	assert_int_equal(pb_topo_synthetic_pus("  pack:2\tcore:4  pu:2 "), 16);
	assert_int_equal(pb_topo_synthetic_pus("2 4 2"), 16);
	assert_int_equal(pb_topo_synthetic_pus("pack:2 [numa(memory=1GB)] core:3(indexes=0,1,2) "
					      "pu:2"), 12);
	assert_int_equal(pb_topo_synthetic_pus("(memory=8GB) pack:2 core:2"), 4);
	assert_int_equal(pb_topo_synthetic_pus("pack:64 core:64 pu:1"), 4096);
	assert_int_equal(pb_topo_synthetic_pus("pack:4097"), 4097);
	assert_int_equal(pb_topo_synthetic_pus("pack:256 core:64 pu:4"), 4097);
	assert_int_equal(pb_topo_synthetic_pus("pack:99999999999999999999999 pu:1"), 4097);
	assert_int_equal(pb_topo_synthetic_pus("pack:65536 pu:65536 pu:65536 pu:65536"), 4097);
	assert_load_fails("pack:256 core:64 pu:4",
			  "synthetic topology 'pack:256 core:64 pu:4': more than 4096 PUs");
	assert_load_fails("pack:4097 core:1", "more than 4096 PUs");
	assert_int_equal(pb_topo_load(&t, "pack:64 core:64 pu:1", err, sizeof(err)), 0);
	assert_int_equal(pb_topo_nr_cpus(t), 4096);
	pb_topo_free(t);
}

static void test_load_xml(void **state)
{
	const char *spec = "pack:2 l3:2 core:2 pu:2";
	hwloc_topology_t h = oracle(spec);
	char path[] = "/tmp/pinbench-topo-XXXXXX";
	int fd = mkstemp(path);
	struct pb_topo *t;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(hwloc_topology_export_xml(h, path, 0), 0);
	t = load(path);
	unlink(path);
	assert_false(pb_topo_is_this_system(t));
	assert_summary(t, 2, 8, 16, 4, 1, true);
	check_resolves(t, h, "diff-llc", 1);
	pb_topo_free(t);
	hwloc_topology_destroy(h);
}

/*
 * A FIFO (or a folder) given as the topology is not a regular file: said
 * so, without blocking on its open, not called a synthetic description.
 */
static void test_load_fifo(void **state)
{
	char dir[] = "/tmp/pinbench-topo-XXXXXX", fifo[64], rel[64];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/machine.xml", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	alarm(60);	/* an open that blocks fails the test, not hangs it */
	assert_load_fails(fifo, "not a regular file (a FIFO)");
	assert_load_fails(dir, "not a regular file (a directory)");
	/* a bare name in the current folder too */
	assert_int_equal(chdir(dir), 0);
	snprintf(rel, sizeof(rel), "machine.xml");
	assert_load_fails(rel, "cannot read topology file machine.xml: not a regular file");
	assert_int_equal(chdir("/"), 0);
	alarm(0);
	unlink(fifo);
	rmdir(dir);
}

static struct pb_topo *load_only(const char *spec, const char *only)
{
	struct pb_topo *t = NULL;
	char err[256] = "";

	if (pb_topo_load_only(&t, spec, only, err, sizeof(err)) < 0)
		fail_msg("load '%s' on CPUs %s: %s", spec, only, err);
	return t;
}

/*
 * Under `taskset -c 1` on two cores, same-socket is skipped because one
 * of the two cores is allowed, not because a package has one core.
 */
static void test_affinity_reasons(void **state)
{
	struct pb_topo *t = load_only("pack:1 core:2 pu:1", "1");
	char err[256];

	(void)state;
	assert_summary(t, 1, 1, 1, 0, 1, false);
	assert_skipped(t, "same-socket", 1, "1 of 2 cores allowed");
	assert_skipped(t, "diff-socket", 1, "1 package");
	pb_topo_free(t);
	t = load_only("pack:2 l3:1 core:2 pu:2", "0-3");	/* package 0 only */
	assert_skipped(t, "diff-socket", 1, "1 of 2 packages allowed");
	pb_topo_free(t);
	t = load_only("pack:2 l3:1 core:2 pu:2", "0,4");	/* one PU a package */
	assert_skipped(t, "same-socket", 1, "2 of 4 cores allowed");
	assert_skipped(t, "same-llc", 1, "2 of 4 cores allowed");
	pb_topo_free(t);
	/* the whole machine: as before */
	t = load("pack:2 core:1 pu:1");
	assert_skipped(t, "same-socket", 1, "1 core per package");
	pb_topo_free(t);
	t = NULL;
	assert_int_equal(pb_topo_load_only(&t, "pack:1 core:2 pu:1", "7", err, sizeof(err)), -1);
	assert_null(t);
	assert_non_null(strstr(err, "no usable CPUs"));
}

/* ---- this machine ---- */

static void test_this_machine(void **state)
{
	struct pb_topo *t = load(NULL);
	struct pb_topo_summary s;
	cpu_set_t set;
	int cpu;

	(void)state;
	assert_true(pb_topo_is_this_system(t));
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	pb_topo_summary(t, &s);
	assert_int_equal(s.pus, CPU_COUNT(&set));
	assert_true(s.pus <= sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(s.packages >= 1 && s.cores >= s.packages && s.numa_nodes >= 1);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		assert_int_equal(pb_topo_has_cpu(t, cpu), CPU_ISSET(cpu, &set));
	pb_topo_free(t);
}

struct bind_arg {
	int	cpu;
	int	ret;
	int	seen;
	int	pus;
};

/* In a thread: restrict to one CPU, then load: only that CPU is usable. */
static void *restricted_load(void *p)
{
	struct bind_arg *a = p;
	struct pb_topo *t;
	cpu_set_t set;
	char err[256];

	CPU_ZERO(&set);
	CPU_SET(a->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return NULL;
	if (pb_topo_load(&t, NULL, err, sizeof(err)) < 0)
		return NULL;
	a->pus = pb_topo_nr_cpus(t);
	a->ret = pb_topo_has_cpu(t, a->cpu);
	pb_topo_free(t);
	return NULL;
}

static void *bind_self(void *p)
{
	struct bind_arg *a = p;
	struct pb_topo *t;
	char err[256];

	if (pb_topo_load(&t, NULL, err, sizeof(err)) < 0)
		return NULL;
	a->ret = pb_topo_bind_thread(t, a->cpu);
	a->seen = sched_getcpu();
	pb_topo_free(t);
	return NULL;
}

static int last_allowed_cpu(void)
{
	cpu_set_t set;
	int cpu, last = -1;

	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			last = cpu;
	return last;
}

static void test_restricted_and_bind(void **state)
{
	struct bind_arg a = { .cpu = last_allowed_cpu(), .ret = -1, .seen = -1, .pus = -1 };
	struct pb_topo *t = load(NULL);
	pthread_t th;

	(void)state;
	assert_int_equal(pthread_create(&th, NULL, restricted_load, &a), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(a.pus, 1);
	assert_int_equal(a.ret, 1);
	a.ret = -1;
	assert_int_equal(pthread_create(&th, NULL, bind_self, &a), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(a.ret, 0);
	assert_int_equal(a.seen, a.cpu);
	assert_int_equal(pb_topo_bind_thread(t, -1), -EINVAL);
	assert_int_equal(pb_topo_bind_thread(t, CPU_SETSIZE + 1), -EINVAL);
	pb_topo_free(t);
}

/* ---- reports ---- */

static void test_report_json(void **state)
{
	static const char *const names[] = {
		"same-cpu", "same-core", "same-socket", "diff-socket", "same-llc",
		"diff-llc", "diff-node", "compact", "scatter",
	};
	struct pb_topo *t = load("pack:2 core:4 pu:2");
	json_t *r = pb_topo_report_json(t), *pl, *sum = pb_topo_summary_json(t);
	int cpus[MAXCPU];
	char reason[128];
	size_t i;

	(void)state;
	assert_non_null(r);
	pl = json_object_get(r, "placements");
	assert_int_equal(json_array_size(pl), 9);
	for (i = 0; i < 9; i++) {
		json_t *p = json_array_get(pl, i);
		json_t *c = json_object_get(p, "cpus");
		int n = i < 7 ? 1 : 16;
		int ret = place(t, names[i], n, cpus, reason);

		assert_string_equal(json_string_value(json_object_get(p, "name")), names[i]);
		if (ret) {
			assert_true(json_is_null(c));
			assert_string_equal(json_string_value(json_object_get(p, "reason")),
					    reason);
			continue;
		}
		assert_true(json_is_null(json_object_get(p, "reason")));
		assert_int_equal(json_array_size(c), i < 7 ? 2 : 16);
		for (n = 0; n < (int)json_array_size(c); n++)
			assert_int_equal(json_integer_value(json_array_get(c, n)), cpus[n]);
	}
	assert_true(json_equal(json_object_get(r, "topology"), sum));
	assert_int_equal(json_integer_value(json_object_get(sum, "pus")), 16);
	assert_true(json_is_true(json_object_get(sum, "smt")));
	json_decref(r);
	json_decref(sum);
	pb_topo_free(t);
}

static void test_print(void **state)
{
	struct pb_topo *t = load("pack:1 core:2 pu:1");
	char *buf = NULL, line[64], reason[128];
	size_t len = 0;
	int cpus[MAXCPU];
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	pb_topo_print(t, f);
	fclose(f);
	assert_non_null(strstr(buf, "packages 1, cores 2, PUs 2, LLCs 0, NUMA nodes 1, SMT no"));
	assert_non_null(strstr(buf, "\nsame-core    skipped: no SMT siblings\n"));
	assert_non_null(strstr(buf, "\ndiff-socket  skipped: 1 package\n"));
	assert_int_equal(place(t, "same-socket", 1, cpus, reason), 0);
	snprintf(line, sizeof(line), "\nsame-socket  %d,%d\n", cpus[0], cpus[1]);
	assert_non_null(strstr(buf, line));
	free(buf);
	pb_topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_package_no_smt),
		cmocka_unit_test(test_two_packages_smt),
		cmocka_unit_test(test_core_batches),
		cmocka_unit_test(test_llcs),
		cmocka_unit_test(test_one_llc_per_package),
		cmocka_unit_test(test_prefers_shared_cache),
		cmocka_unit_test(test_numa),
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_many_pairs),
		cmocka_unit_test(test_pairs_prefer_fresh_cores),
		cmocka_unit_test(test_compact),
		cmocka_unit_test(test_scatter),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_synthetic_cap),
		cmocka_unit_test(test_load_xml),
		cmocka_unit_test(test_load_fifo),
		cmocka_unit_test(test_affinity_reasons),
		cmocka_unit_test(test_this_machine),
		cmocka_unit_test(test_restricted_and_bind),
		cmocka_unit_test(test_report_json),
		cmocka_unit_test(test_print),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
