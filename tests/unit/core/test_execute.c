// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_execute.c - the run engine (core/execute.c) with a fake runner
 * (pb_exec_ops.run_job): every cell of the plan runs and is saved after,
 * the last save marked; CPUs another process holds are waited for and,
 * past the limit, the job fails naming the holder, or without --wait it
 * runs marked shared-cpus; a save that fails keeps what the last good one
 * saved; a stop ends the run between cells.  --until adds whole rounds
 * until every cell's runs are narrow enough, the budget says no more, or
 * a stop.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/bench.h"
#include "core/execute.h"
#include "sys/cpulock.h"
#include "lock_fixture.h"
#include "stats/stopping.h"
#include "lib/clock.h"

static char dir[64];

/* What the callbacks saw. */
struct seen {
	int	ran;		/* cells the fake runner ran */
	int	saves, last;	/* saves asked, of them with last set */
	int	fail_from;	/* saves from this one on fail (0: none) */
	int	stop_after;	/* set pb_interrupted after this many cells (0: never) */
	int	waiting, shared;
	char	placements[1024];
	double	spread;		/* runs alternate 100 (1 -+ spread) ... */
	const char *noisy;	/* ... those of this job 100 (1 -+ 0.5) */
	const char *fails;	/* this job's runs fail */
};

static struct seen seen;
static struct pb_jobset js;

static void fake_run(const struct pb_topo *t, const struct pb_job *j, const struct pb_where *w,
		     const struct pb_evlist *evl, const struct pb_nominal *nom,
		     const struct pb_progress *pg, struct pb_result *r)
{
	(void)t, (void)evl, (void)nom, (void)pg;
	memset(r, 0, sizeof(*r));
	r->job = j;
	r->status = seen.fails && !strcmp(j->name, seen.fails) ? PB_FAILED : PB_OK;
	r->summary.n = 1;
	r->summary.mean = 100 * (1 + (seen.ran % 2 ? 1 : -1) *
				 (seen.noisy && !strcmp(j->name, seen.noisy) ? 0.5 : seen.spread));
	snprintf(r->placement, sizeof(r->placement), "%s", w->pl ? w->pl : "cpus");
	snprintf(seen.placements + strlen(seen.placements),
		 sizeof(seen.placements) - strlen(seen.placements), "%s/%s ", j->name,
		 r->placement);
	if (++seen.ran == seen.stop_after)
		pb_interrupted = 1;
}

static int fake_save(void *ctx, const struct pb_run *run, bool last)
{
	int n = ++seen.saves;

	(void)ctx, (void)run;
	seen.last += last;
	return seen.fail_from && n >= seen.fail_from ? -1 : 0;
}

static void on_waiting(void *ctx, const struct pb_job *j, const struct pb_cpu_holder *h,
		       double limit_s)
{
	(void)ctx, (void)j, (void)h, (void)limit_s;
	seen.waiting++;
}

static void on_shared(void *ctx, const struct pb_job *j, const struct pb_cpu_holder *h)
{
	(void)ctx, (void)j, (void)h;
	seen.shared++;
}

static const struct pb_exec_ops ops = { .save = fake_save, .run_job = fake_run,
					.waiting = on_waiting, .shared = on_shared };

static int setup(void **state)
{
	(void)state;
	memset(&seen, 0, sizeof(seen));
	pb_interrupted = 0;
	lock_dir_make(dir, "execute");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pb_interrupted = 0;
	lock_dir_remove(dir);
	return 0;
}

/*
 * Execute job file text on a two-CPU synthetic machine (CPUs 0 and 1, as
 * this one has at least), into run and st.
 */
static void execute(const char *text, const struct pb_exec_opts *o, struct pb_run *run,
		    struct pb_exec_status *st)
{
	static struct pb_evlist evl[8];
	struct pb_topo *t = NULL;
	char err[512] = "";

	if (pb_topo_load(&t, "pack:1 core:2 pu:1", err, sizeof(err)))
		fail_msg("topology: %s", err);
	if (pb_jobs_load_text("t.ini", text, strlen(text), NULL, 0, 2, &js, err, sizeof(err)))
		fail_msg("%s: %s", text, err);
	memset(evl, 0, sizeof(evl));
	memset(run, 0, sizeof(*run));
	run->topo = t;
	run->label = "test";
	assert_int_equal(pb_execute(o, &js, evl, &ops, run, st, err, sizeof(err)), 0);
	run->topo = NULL;
	pb_topo_free(t);
}

static void done(struct pb_run *run)
{
	pb_run_free(run);
	pb_jobset_free(&js);
}

#define TWO_JOBS "[a]\nbench=pipe\nplacement=same-cpu,same-core\nrepeats=1\nduration=0.1\n" \
		 "[b]\nbench=pipe\ncpus=0,1\nrepeats=1\nduration=0.1\n"

static void test_every_cell_saved(void **state)
{
	const struct pb_exec_opts o = { 0 };
	struct pb_exec_status st;
	struct pb_run run;

	(void)state;
	execute(TWO_JOBS, &o, &run, &st);
	assert_int_equal(run.planned, 3);
	assert_int_equal(run.nr, 3);
	assert_string_equal(seen.placements, "a/same-cpu a/same-core b/cpus ");
	assert_int_equal(seen.saves, 4);	/* after each cell, then the last */
	assert_int_equal(seen.last, 1);
	assert_false(st.failed || st.nothing || st.lost || st.cut);
	assert_int_equal(st.saved, 3);
	assert_true(run.finished[0]);
	done(&run);
}

/* Save 2 and after fail: the file keeps job 1 as save 1 left it. */
static void test_save_fails(void **state)
{
	const struct pb_exec_opts o = { 0 };
	struct pb_exec_status st;
	struct pb_run run;

	(void)state;
	seen.fail_from = 2;
	execute("[a]\nbench=pipe\ncpus=0,1\nduration=0.1\n"
		"[b]\nbench=pipe\ncpus=0,1\nduration=0.1\n", &o, &run, &st);
	assert_int_equal(run.nr, 2);
	assert_true(st.lost);
	assert_int_equal(st.saved, 1);
	assert_false(st.cut);
	done(&run);
}

/* A stop after the first cell: the rest do not run, what ran is saved. */
static void test_stop_between_cells(void **state)
{
	const struct pb_exec_opts o = { 0 };
	struct pb_exec_status st;
	struct pb_run run;

	(void)state;
	seen.stop_after = 1;
	execute(TWO_JOBS, &o, &run, &st);
	assert_int_equal(seen.ran, 1);
	assert_int_equal(run.nr, 1);
	assert_true(st.cut);
	assert_false(st.lost || st.nothing);
	assert_int_equal(st.saved, 1);
	assert_int_equal(seen.last, 1);
	done(&run);
}

/* --until 2 %: runs 0.1 % apart reach it at the rule's minimum, whole rounds. */
static void test_until_reached(void **state)
{
	const struct pb_exec_opts o = { .until = 0.02, .budget_s = 600 };
	struct pb_exec_status st;
	struct pb_run run;

	(void)state;
	seen.spread = 0.001;
	execute(TWO_JOBS, &o, &run, &st);
	assert_int_equal(run.rounds, PB_STOP_MIN_N);
	assert_int_equal(seen.ran, 3 * PB_STOP_MIN_N);
	assert_int_equal(run.nr, 3 * PB_STOP_MIN_N);
	assert_int_equal(run.planned, run.nr);
	assert_int_equal(run.results[0].round, 1);	/* one planned round is a round */
	assert_int_equal(run.results[run.nr - 1].round, PB_STOP_MIN_N);
	assert_string_equal(run.until.end, "reached");
	assert_int_equal(run.until.planned, 1);
	assert_int_equal(run.until.nr, 3);
	for (int i = 0; i < 3; i++) {
		assert_true(run.until.cells[i].reached);
		assert_null(run.until.cells[i].why);
		assert_int_equal(run.until.cells[i].runs, PB_STOP_MIN_N);
		assert_true(run.until.cells[i].halfwidth < 0.02);
	}
	assert_string_equal(run.until.cells[2].pl, "cpus");
	assert_false(st.cut);
	done(&run);
}

/* A noisy cell keeps the others running: rounds stay whole until a stop. */
static void test_until_noisy_then_stopped(void **state)
{
	const struct pb_exec_opts o = { .until = 0.02, .budget_s = 600 };
	struct pb_exec_status st;
	struct pb_run run;

	(void)state;
	seen.spread = 0.001;
	seen.noisy = "b";
	seen.stop_after = 3 * 8;
	execute(TWO_JOBS, &o, &run, &st);
	assert_int_equal(run.rounds, 8);
	assert_string_equal(run.until.end, "stopped");
	assert_true(run.until.cells[0].reached && run.until.cells[1].reached);
	assert_int_equal(run.until.cells[0].runs, 8);
	assert_false(run.until.cells[2].reached);
	assert_string_equal(run.until.cells[2].why, "stopped");
	assert_true(run.until.cells[2].halfwidth > 0.02);
	done(&run);
}

/* No round is added that would end after the budget: one planned round only. */
static void test_until_budget(void **state)
{
	const struct pb_exec_opts o = { .until = 0.02, .budget_s = 1 };
	struct pb_exec_status st;
	struct pb_run run;

	(void)state;
	seen.spread = 0.001;
	execute("[a]\nbench=pipe\ncpus=0,1\nrepeats=1\nduration=0.5\n", &o, &run, &st);
	assert_int_equal(run.rounds, 1);
	assert_int_equal(seen.ran, 1);
	assert_string_equal(run.until.end, "budget");
	assert_false(run.until.cells[0].reached);
	assert_string_equal(run.until.cells[0].why, "budget");
	assert_int_equal(run.until.cells[0].runs, 1);
	assert_false(st.cut);
	done(&run);
}

/* A cell whose runs fail does not hold the run: more rounds would not help. */
static void test_until_failed_cell(void **state)
{
	const struct pb_exec_opts o = { .until = 0.02, .budget_s = 600 };
	struct pb_exec_status st;
	struct pb_run run;

	(void)state;
	seen.spread = 0.001;
	seen.fails = "b";
	execute(TWO_JOBS, &o, &run, &st);
	assert_int_equal(run.rounds, PB_STOP_MIN_N);
	assert_string_equal(run.until.end, "reached");
	assert_string_equal(run.until.cells[2].why, "failed");
	assert_int_equal(run.until.cells[2].runs, 0);
	done(&run);
}

/* A child that holds CPU 1 until told to go; its pid. */
static pid_t holder(int *go)
{
	static const int cpus[] = { 1 };

	return lock_holder(cpus, 1, go);
}

static void release(pid_t pid, int go)
{
	int status;

	assert_int_equal(write(go, "x", 1), 1);
	close(go);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
}

/*
 * --wait with a short limit: the job waits, then fails naming the holder.
 * 2 s, well above what the rest of execute() takes on a loaded machine
 * (0.3 s was not: a mutant with no wait at all passed under a CI hog).
 */
static void test_held_waits_then_fails(void **state)
{
	const struct pb_exec_opts o = { .wait = true, .wait_s = 2 };
	struct pb_exec_status st;
	struct pb_run run;
	char want[64];
	int go;
	pid_t pid = holder(&go);
	double t0 = pb_mono_s(), waited;

	(void)state;
	execute("[a]\nbench=pipe\ncpus=0,1\nduration=0.1\n", &o, &run, &st);
	waited = pb_mono_s() - t0;
	release(pid, go);
	assert_true(waited >= 2 && waited < 12);	/* the limit, and no more */
	assert_int_equal(seen.waiting, 1);
	assert_int_equal(seen.ran, 0);
	assert_int_equal(run.nr, 1);
	assert_int_equal(run.results[0].status, PB_FAILED);
	snprintf(want, sizeof(want), "CPU 1 still held by pid %d (", pid);
	assert_memory_equal(run.results[0].reason, want, strlen(want));
	assert_non_null(strstr(run.results[0].reason, "after --wait-timeout 2 s"));
	assert_true(st.failed);
	done(&run);
}

/* Without --wait: the job runs at once, marked shared-cpus. */
static void test_held_runs_shared(void **state)
{
	const struct pb_exec_opts o = { 0 };
	struct pb_exec_status st;
	struct pb_run run;
	int go;
	pid_t pid = holder(&go);

	(void)state;
	execute("[a]\nbench=pipe\ncpus=0,1\nduration=0.1\n", &o, &run, &st);
	release(pid, go);
	assert_int_equal(seen.waiting, 0);
	assert_int_equal(seen.shared, 1);
	assert_int_equal(seen.ran, 1);
	assert_int_equal(run.results[0].anomalies.nr, 1);
	assert_string_equal(run.results[0].anomalies.v[0].kind, "shared-cpus");
	assert_false(st.failed);
	done(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_every_cell_saved, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_between_cells, setup, teardown),
		cmocka_unit_test_setup_teardown(test_until_reached, setup, teardown),
		cmocka_unit_test_setup_teardown(test_until_noisy_then_stopped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_until_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_until_failed_cell, setup, teardown),
		cmocka_unit_test_setup_teardown(test_held_waits_then_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_held_runs_shared, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
