/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * topo.h - machine topology and placements, through hwloc.
 *
 * Pair placements (two ends of a workload): same-cpu, same-core,
 * same-socket, diff-socket, same-llc, diff-llc, diff-node.
 * Worker placements (N workers): compact, scatter.
 * A placement the machine cannot offer is skipped with a reason, never
 * silently replaced.
 */
#ifndef PINBENCH_TOPO_H
#define PINBENCH_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

struct pb_topo;

struct pb_topo_summary {
	int	packages;
	int	cores;
	int	pus;
	int	llcs;
	int	numa_nodes;
	bool	smt;
};

enum pb_place_kind { PB_PLACE_PAIR, PB_PLACE_WORKERS };

/*
 * Load this machine's topology (spec NULL), an hwloc synthetic
 * description ("pack:2 core:4 pu:2", at most PB_TOPO_MAX_PUS PUs) or an
 * hwloc XML file (a path that exists).  0, or -1 with a message in err.
 */
int pb_topo_load(struct pb_topo **tp, const char *spec, char *err, size_t len);
/*
 * The same, with only the CPUs of the list ("1", "0-3,8") usable, as if
 * this process were bound to them (the tests' affinity; NULL: the real).
 */
int pb_topo_load_only(struct pb_topo **tp, const char *spec, const char *only,
		      char *err, size_t len);
/*
 * A synthetic description makes at most this many PUs (hwloc would spend
 * minutes and gigabytes on "pack:256 core:64 pu:4" and more).
 */
#define PB_TOPO_MAX_PUS	4096
/* The PUs a synthetic description makes, at most PB_TOPO_MAX_PUS + 1. */
unsigned long pb_topo_synthetic_pus(const char *spec);
void pb_topo_free(struct pb_topo *t);
/* True when loaded from this machine (not synthetic, not XML); for tests. */
bool pb_topo_is_this_system(const struct pb_topo *t);
void pb_topo_summary(const struct pb_topo *t, struct pb_topo_summary *s);
/* Number of usable PUs (the "all" of a sweep). */
int pb_topo_nr_cpus(const struct pb_topo *t);

/* Every known placement name, NULL terminated, in display order. */
extern const char *const pb_pair_placements[];
extern const char *const pb_worker_placements[];
/* Kind of a placement name; -1 when unknown. */
int pb_placement_kind(const char *name);

/*
 * Resolve a placement.  Pair placements: n pairs, cpus gets 2n OS
 * indexes, (first end, second end) per pair; with n > 1 the pairs take
 * distinct CPUs.  Worker placements: n workers, cpus gets n OS indexes.
 * Returns 0; 1 when the machine cannot offer it (skipped, reason says
 * why: "no SMT siblings", "1 package"); -1 for an unknown name.
 */
int pb_place(const struct pb_topo *t, const char *placement, int n,
	     int *cpus, char *reason, size_t len);

/* Is this OS CPU index present and allowed in the topology? */
bool pb_topo_has_cpu(const struct pb_topo *t, int cpu);
/* The core of usable OS CPU cpu (a dense id, SMT siblings share it), or -1. */
int pb_topo_core_of(const struct pb_topo *t, int cpu);
/*
 * Split n CPUs into batches that hold at most one PU of each core (to run
 * something on every CPU of a batch at once without two SMT siblings
 * sharing a core): batch[i] for cpus[i], from 0, the first that has room.
 * A CPU the topology does not have gets a batch of its own.  Returns the
 * number of batches.
 */
int pb_topo_core_batches(const struct pb_topo *t, const int *cpus, int n, int *batch);
/* Is it in the machine at all (allowed or not, online or not)? */
bool pb_topo_cpu_exists(const struct pb_topo *t, int cpu);
/* The usable CPUs as a list ("0-3,8"). */
void pb_topo_cpus_text(const struct pb_topo *t, char *buf, size_t len);

/* Bind the calling thread to one CPU: 0 or -errno. */
int pb_topo_bind_thread(const struct pb_topo *t, int cpu);

/* {"packages","cores","pus","llcs","numa_nodes","smt"} */
json_t *pb_topo_summary_json(const struct pb_topo *t);

/* `pinbench topo`: the topology, then per placement the CPUs or why not. */
void pb_topo_print(const struct pb_topo *t, FILE *f);
/* {"placements": [{"name","cpus":[..]|null,"reason"}], "topology": {...}} */
json_t *pb_topo_report_json(const struct pb_topo *t);

#endif
