/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * counters.h - the one module that owns perf_event_open.
 *
 * An event list is resolved once per job (names through libpfm4, software
 * events, tracepoints), split into passes so that no group needs more
 * counters than the core PMU has: no event ever time-shares by design.
 * The runner opens one group per role instance task (or per CPU with
 * counters=cpu) for the current pass and reads it at the edges of each
 * measurement window; deltas of value, enabled and running time give the
 * window's counts.  A refused event is "not supported" (with the reason),
 * never 0, and the run goes on.
 */
#ifndef PINBENCH_COUNTERS_H
#define PINBENCH_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>
#include <jansson.h>

struct pb_anomalies;

#define PB_MAX_EVENTS	32

enum pb_cnt_status {
	PB_CNT_OK,		/* counted; scaled when running < enabled */
	PB_CNT_NOT_COUNTED,	/* running time 0 */
	PB_CNT_UNSUPPORTED,	/* refused by the kernel: reason says why */
	PB_CNT_OTHER_PASS,	/* measured in another pass of the job */
};

struct pb_event {
	char			name[96];	/* as the user wrote it */
	struct perf_event_attr	attr;
	bool			hw;		/* needs a core PMU counter */
	int			pass;		/* which pass measures it */
	int			status;		/* 0, or errno of the refusal */
	char			reason[160];	/* "not supported: no PMU (ENOENT)" */
	bool			fixed;		/* may use a fixed counter (Intel) */
};

struct pb_evlist {
	struct pb_event	ev[PB_MAX_EVENTS];
	int		nr;
	int		nr_passes;		/* >= 1 */
};

struct pb_count {
	uint64_t		value;		/* raw */
	uint64_t		enabled;	/* ns */
	uint64_t		running;	/* ns */
	enum pb_cnt_status	status;
};

/*
 * Build the event list from an events= spec (comma separated; NULL or ""
 * means the default set).  A name libpfm4 cannot encode (a typo) is an
 * error (-1, message in err): the caller exits 2 before anything runs.
 * "none" gives an empty list (nr 0, one pass): no counters at all.
 * Events the kernel refuses are kept with status/reason set.
 * Default set: task-clock, context-switches, cpu-migrations, page-faults;
 * sched:sched_wakeup and sched:sched_waking where tracefs is readable;
 * with a usable core PMU cycles, instructions, ref-cycles (fixed counter
 * only), cache-misses, branch-misses.  Hardware events are split into
 * passes (first fit, in order) that fit the core PMU; the others are in
 * pass 0.
 */
int pb_evlist_build(struct pb_evlist *l, const char *spec, char *err, size_t len);

struct pb_group;

/*
 * Open the events of one pass on task pid (cpu -1), or system wide on
 * cpu (pid -1).  inherit: count threads the task creates.  Events that
 * fail to open get status/reason in l (said once per run by the caller).
 * Returns a group (possibly with no event open), or NULL with err set.
 */
struct pb_group *pb_group_open(struct pb_evlist *l, int pass, pid_t pid,
			       int cpu, bool inherit, char *err, size_t len);
/*
 * A disabled dummy event on the calling task, not inherited (its children
 * pay nothing): the fd, or -1.  While one per-task event is open, opening
 * another skips the kernel's synchronize_rcu() of the first one
 * (account_event(), perf_sched_events).  A grace period waits for every
 * CPU, and with the roles busy on one CPU and other work on the rest it
 * can take seconds (doc/measurements.md): the job process opens this
 * before the roles start, when the grace period is short, and closes it
 * once the passes are over when they run before the metric.  (While any
 * per-task event is open the kernel runs its perf hooks on every context
 * switch: passes after the metric, or inline, keep it through the
 * metric's windows.)
 */
int pb_counters_hold(void);
/* Read every event of l into out[l->nr]: 0, or -1. */
int pb_group_read(struct pb_group *g, struct pb_count *out);
void pb_group_close(struct pb_group *g);

/* end - start, per event (value, enabled, running); status from end. */
void pb_count_delta(const struct pb_count *start, const struct pb_count *end,
		    struct pb_count *d, int nr);
/* The scaled estimate value * enabled / running (value when running == enabled). */
double pb_count_scaled(const struct pb_count *c);

/* The syscall, replaceable by tests. */
extern long (*pb_perf_event_open)(struct perf_event_attr *attr, pid_t pid,
				  int cpu, int group_fd, unsigned long flags);

/*
 * Everything below came with the libpfm4 counters issue.
 *
 * Paths under /proc and /sys are read below $PINBENCH_SYSROOT when it is
 * set (tests use a fake root for nmi_watchdog, cpuinfo and tracefs).
 *
 * Groups: pb_group_open opens, per (task or CPU, pass), one group of the
 * software events and tracepoints (pass 0 only) and one group of the
 * hardware events of the pass, whose leader is the first hardware event
 * the kernel accepts; IPC and other hardware ratios come from that one
 * group read.  The software group is led by a non-clock event: with
 * task-clock leading, a context-switches sibling never counts (6.18).
 * Events count from open (not created disabled): the
 * runner reads at the window edges and uses deltas.  A hardware event
 * the kernel accepts alone but not in the group (EINVAL/ENOSPC: it cannot
 * schedule them together) moves to the next pass and l->nr_passes grows,
 * so loop "for (p = 0; p < l->nr_passes; p++)".
 */

/* read() of a group leader, replaceable by tests (recorded buffers). */
extern ssize_t (*pb_counters_read_fd)(int fd, void *buf, size_t len);

/* pfm_initialize once per process (idempotent): 0, or -1 with err. */
int pb_counters_init(char *err, size_t len);

/*
 * The core PMU as libpfm4 describes it, and whether the kernel has it.
 * generic/fixed: counters one pass may use (generic one fewer when the
 * NMI watchdog is on).  usable: libpfm4 knows an active core PMU and the
 * kernel accepts a cycles event (EACCES counts as present).  When not
 * usable, why says so ("virtualised: the hypervisor exposes no PMU").
 */
struct pb_pmu_desc {
	char	name[32];		/* libpfm4's: "skl", "amd64_fam17h"; "" */
	char	desc[96];
	int	generic;
	int	fixed;
	bool	nmi_watchdog;
	bool	known;			/* libpfm4 detected an active core PMU */
	bool	usable;
	char	why[200];
};
int pb_core_pmu(struct pb_pmu_desc *d);

/* The software event names pinbench knows, i = 0.. until NULL. */
const char *pb_sw_event_name(int i);
/* The readable tracefs "events" folder (with sysroot) into buf, or NULL. */
const char *pb_tracefs_events(char *buf, size_t len);

/* Names of the events of pass p, comma separated (for messages). */
void pb_evlist_pass_names(const struct pb_evlist *l, int pass, char *buf, size_t len);
/* [{"name", "pass", "hw", "status": "ok"|"not supported", "reason"}] */
json_t *pb_evlist_json(const struct pb_evlist *l);

/* "66.67 %" */
void pb_count_percent_str(const struct pb_count *c, char *buf, size_t len);
/*
 * Anomaly counter-multiplexed for each counted event of one window whose
 * running time is below 99 % (warn) or 50 % (error) of its enabled time;
 * enabled but never running is an error too.  who: "writer/0".
 */
void pb_counts_check(const struct pb_evlist *l, const struct pb_count *c,
		     const char *who, struct pb_anomalies *a);
/*
 * Sum window counts of instances into a role or total: pb_counts_zero(acc)
 * then pb_counts_add(acc, c) per instance.  Raw fields add up; an event
 * missing in any instance (not counted, not supported) stays missing.
 */
void pb_counts_zero(const struct pb_evlist *l, struct pb_count *acc);
void pb_counts_add(const struct pb_evlist *l, struct pb_count *acc,
		   const struct pb_count *c);
/*
 * {"value", "enabled_ns", "running_ns"} (+ "scaled", "percent" when
 * running < enabled), {"status": "not supported", "reason"},
 * {"status": "not counted"} or {"status": "other pass", "pass": N}.
 */
json_t *pb_count_json(const struct pb_event *ev, const struct pb_count *c);

#endif
