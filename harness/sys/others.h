/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * others.h - the CPU time other tasks took on a job's CPUs, measured
 * directly: every task's run time (/proc/PID/task/TID/schedstat, in ns)
 * and the share of its allowed CPUs (Cpus_allowed_list) among the job's,
 * before and after, leaving out pinbench's own processes.  The job's own
 * cost (its roles, its job process and supervisor, the counters' context
 * switches) is therefore never counted as a neighbour's.
 *
 * A task allowed only on the job's CPUs counts in full; one allowed on
 * none of them not at all; one allowed on some counts for that share of
 * its run time (an estimate: the scheduler may have kept it elsewhere).
 * Every read goes through the sysroot (env.h), so tests present fake
 * /proc trees.
 */
#ifndef PINBENCH_OTHERS_H
#define PINBENCH_OTHERS_H

#include <stdint.h>
#include <sys/types.h>

struct pb_others_task {
	pid_t		tid;
	pid_t		pid;
	uint64_t	run_ns;
	double		share;		/* of its time that falls on the job's CPUs */
};

struct pb_others {
	struct pb_others_task	*t;	/* sorted by tid */
	int			nr, cap;
};

/*
 * Every task but those of the processes ours[nours], with its share on
 * cpus[n].  0, or -1 when /proc cannot be listed.
 */
int pb_others_snapshot(const int *cpus, int n, const pid_t *ours, int nours,
		       struct pb_others *s);
void pb_others_free(struct pb_others *s);

/* What other tasks ran on the CPUs between two snapshots. */
struct pb_others_delta {
	double	ns;		/* weighted run time of all of them */
	pid_t	top_pid;	/* the one that ran most, 0 none */
	double	top_ns;
	char	top_comm[32];	/* its name, "" unknown */
};

/*
 * The delta from before to after.  A task new in after counts with its
 * run time, at most span_ns (it began inside the span).
 */
void pb_others_diff(const struct pb_others *before, const struct pb_others *after,
		    double span_ns, struct pb_others_delta *d);

#endif
