// SPDX-License-Identifier: GPL-2.0-only
/*
 * runner.c - one job at one placement: the job process, the role
 * instances, the gate, the windows, the watchdog.  See runner.h.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sys/others.h"
#include "core/plan.h"
#include "core/profile.h"
#include "core/roles.h"
#include "core/runner.h"
#include "stats/robust.h"
#include "lib/clock.h"

volatile int pb_interrupted;
static const struct pb_remote_ops *remote;

void pb_runner_set_remote(const struct pb_remote_ops *ops)
{
	remote = ops;
}

/* What the job process and the roles share with the main process. */
#define PB_MAX_CLOCKS	64	/* CPUs probed per job */

struct shm_hdr {
	int			stop;
	int			gate;
	int			nready;
	int			nwin_done;	/* windows finished (any order) */
	double			gate_t;		/* when the roles were let go */
	int			failed;
	char			reason[PB_ERR_MAX];
	struct pb_evlist	evl;
	/* the metric's windows, for the noisy-neighbour check */
	struct pb_cpustat	cs_before[PB_MAX_CLOCKS], cs_after[PB_MAX_CLOCKS];
	double			cs_t0, cs_t1;
	int			cs_ok;
	int			others_ok;
	struct pb_others_delta	others;
	struct pb_probe		after[PB_MAX_CLOCKS];	/* roles stopped, counters open */
	double			win_expect_s;	/* one window, once the warm-up says */
	double			count_expect_s;	/* one counter pass window (separate) */
	double			prof_expect_s;	/* the profile pass's window, or 0 */
	int			windows_begun;
	int			has_peer;
	struct pb_peer_info	peer;
	uint64_t		peer_ops;
};

struct shm_task {
	struct pb_task	t;
	pid_t		tid;
	int		failed;
	int		done;
	char		err[PB_ERR_MAX];
};

/*
 * Slices of a window: the job process samples the primary role's ops (and
 * its losses and busy time) SLICES times per duration window, each at least
 * SLICE_MIN_S long; a loops= window, whose length is only predicted, is cut
 * the same way and, when SLICES_MAX are taken, adjacent pairs are merged.
 */
#define SLICES		50
#define SLICES_MAX	64
#define SLICE_MIN_S	0.01

struct shm_slice {
	uint64_t	ops, lost, busy_ns;
	double		secs;
};

struct shm_win {
	double		elapsed;
	uint64_t	ops;
	uint64_t	aux[PB_MAX_AUX];
	uint64_t	busy_ns;	/* primary role: time owned by completed ops */
	int		pass;
	int		nslices;
	int		done;		/* finished: collected */
	double		start;		/* began, seconds after gate_t */
};

struct layout {
	size_t	tasks, slots, wins, slices, task_ops, counts, hist, prof, size;
};

/* Everything the job process needs; copied into it by fork. */
struct job_ctx {
	const struct pb_topo	*topo;
	const struct pb_job	*job;
	const struct pb_bench	*bench;
	int			nr_tasks;
	int			nr_groups;
	int			nr_wins;	/* metric repeats + count_wins x passes */
	bool			timing_pass;	/* counter-free windows for the metric */
	bool			counts_first;	/* the counter passes in the warm-up */
	int			hold_fd;	/* pb_counters_hold()'s, or -1 */
	int			count_wins;	/* windows per counter pass: 1, or repeats (inline) */
	int			*group_cpu;	/* counters=cpu: the CPU of each group */
	int			clock_cpu[PB_MAX_CLOCKS];	/* distinct planned CPUs */
	int			nr_clocks;
	int			batch[PB_MAX_CLOCKS];	/* probed at once: no two of a core */
	int			nr_batches;
	struct layout		lay;
	char			*shm;
	struct pb_setup_ctx	setup;
	char			setup_err[PB_ERR_MAX];
	const char		*peer_addr;	/* peer=, or NULL: both roles here */
	int			peer_cpu;
	double			limit_s;	/* the watchdog */
	struct pb_peer		peer;		/* the control connection (job process) */
	const struct pb_progress *progress;
};

#define ALIGN64(x)	(((x) + 63) & ~(size_t)63)

static void layout_compute(struct job_ctx *x, bool latency)
{
	struct layout *l = &x->lay;
	size_t off = ALIGN64(sizeof(struct shm_hdr));

	l->tasks = off;
	off = ALIGN64(off + x->nr_tasks * sizeof(struct shm_task));
	l->slots = off;
	off = ALIGN64(off + x->nr_tasks * sizeof(struct pb_slot));
	l->wins = off;
	off = ALIGN64(off + x->nr_wins * sizeof(struct shm_win));
	l->slices = off;
	off = ALIGN64(off + (size_t)x->nr_wins * SLICES_MAX * sizeof(struct shm_slice));
	l->task_ops = off;
	off = ALIGN64(off + (size_t)x->nr_wins * x->nr_tasks * sizeof(uint64_t));
	l->counts = off;
	off = ALIGN64(off + (size_t)x->nr_wins * x->nr_groups *
		      PB_MAX_EVENTS * sizeof(struct pb_count));
	l->hist = off;
	if (latency)
		off = ALIGN64(off + (size_t)x->nr_tasks * x->nr_wins *
			      sizeof(struct pb_hist));
	l->prof = off;
	if (x->job->profile)
		off = ALIGN64(off + sizeof(struct pb_profile));
	l->size = off;
}

/* The parts of the shared memory, by the layout. */
static struct shm_hdr *hdr_of(const struct job_ctx *x)
{
	return (struct shm_hdr *)x->shm;
}

static struct shm_task *task_of(const struct job_ctx *x, int i)
{
	return (struct shm_task *)(x->shm + x->lay.tasks) + i;
}

static struct pb_slot *slot_of(const struct job_ctx *x, int i)
{
	return (struct pb_slot *)(x->shm + x->lay.slots) + i;
}

static struct shm_win *win_of(const struct job_ctx *x, int w)
{
	return (struct shm_win *)(x->shm + x->lay.wins) + w;
}

static struct shm_slice *slices_of(const struct job_ctx *x, int w)
{
	return (struct shm_slice *)(x->shm + x->lay.slices) + (size_t)w * SLICES_MAX;
}

static uint64_t *task_ops_of(const struct job_ctx *x, int w)
{
	return (uint64_t *)(x->shm + x->lay.task_ops) + (size_t)w * x->nr_tasks;
}

static struct pb_count *counts_of(const struct job_ctx *x, int w, int g)
{
	return (struct pb_count *)(x->shm + x->lay.counts) +
	       ((size_t)w * x->nr_groups + g) * PB_MAX_EVENTS;
}

static struct pb_profile *prof_of(const struct job_ctx *x)
{
	return x->job->profile ? (struct pb_profile *)(x->shm + x->lay.prof) : NULL;
}

static struct pb_hist *hist_of(const struct job_ctx *x, int task, int w)
{
	return (struct pb_hist *)(x->shm + x->lay.hist) +
	       (size_t)task * x->nr_wins + w;
}

static void sleep_s(double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static long futex(int *uaddr, int op, int val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

/* ---------------------------------------------------------------- roles */

struct role_arg {
	struct job_ctx	*x;
	int		i;
	pthread_t	thread;
	pid_t		pid;
};

static void gate_wait(void *arg)
{
	struct shm_hdr *h = hdr_of(arg);

	while (!__atomic_load_n(&h->gate, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&h->stop, __ATOMIC_RELAXED))
		futex(&h->gate, FUTEX_WAIT, 0);
}

static void role_ready(void *arg)
{
	__atomic_fetch_add(&hdr_of(arg)->nready, 1, __ATOMIC_RELEASE);
}

static void role_run(struct job_ctx *x, int i)
{
	struct shm_task *st = task_of(x, i);
	struct shm_hdr *h = hdr_of(x);
	struct pb_hist *hist[x->nr_wins > 0 ? x->nr_wins : 1];
	struct pb_role_ctx c = {
		.role = st->t.role, .instance = st->t.instance,
		.nr_instances = x->job->nr_instances, .cpu = st->t.planned,
		.opts = x->job->opts, .shared = x->setup.shared,
		.slot = slot_of(x, i), .stopflag = &h->stop,
		.nr_windows = x->nr_wins, .err = st->err,
	};
	struct pb_role r = {
		.topo = x->topo, .bench = x->bench, .c = &c, .seen = st->t.seen,
		.failed = &st->failed, .done = &st->done,
		.ready = role_ready, .gate = gate_wait, .arg = x,
	};

	st->tid = (pid_t)syscall(SYS_gettid);
	if (x->bench->latency) {
		for (int w = 0; w < x->nr_wins; w++)
			hist[w] = hist_of(x, i, w);
		c.hist = hist;
	}
	pb_role_run(&r);
}

static void *role_thread(void *arg)
{
	struct role_arg *ra = arg;

	role_run(ra->x, ra->i);
	return NULL;
}

static int spawn_roles(struct job_ctx *x, struct role_arg *ra)
{
	for (int i = 0; i < x->nr_tasks; i++) {
		ra[i].x = x;
		ra[i].i = i;
		ra[i].pid = -1;
		if (x->job->threads) {
			int e = pthread_create(&ra[i].thread, NULL, role_thread, &ra[i]);

			if (e)
				return -e;
			continue;
		}
		ra[i].pid = fork();
		if (ra[i].pid < 0)
			return -errno;
		if (ra[i].pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (x->hold_fd >= 0)	/* else it outlives the job process's close */
				close(x->hold_fd);
			role_run(x, i);
			_exit(0);
		}
	}
	return 0;
}

/* -------------------------------------------------------- job process */

static void __attribute__((format(printf, 2, 3)))
job_fail(struct job_ctx *x, const char *fmt, ...)
{
	struct shm_hdr *h = hdr_of(x);
	va_list ap;

	if (h->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(h->reason, sizeof(h->reason), fmt, ap);
	va_end(ap);
	h->failed = 1;
}

static void task_name(const struct job_ctx *x, int i, char *buf, size_t len)
{
	const struct pb_task *t = &task_of(x, i)->t;

	snprintf(buf, len, "%s/%d", x->bench->roles[t->role], t->instance);
}

/* A role that failed or died: mark the job failed.  True when one did. */
static bool roles_failed(struct job_ctx *x, struct role_arg *ra)
{
	char who[64], why[PB_ERR_MAX];

	for (int i = 0; i < x->nr_tasks; i++) {
		struct shm_task *st = task_of(x, i);
		int status;

		task_name(x, i, who, sizeof(who));
		if (st->failed) {
			job_fail(x, "role %s: %s", who, st->err[0] ? st->err : "failed");
			return true;
		}
		if (ra[i].pid > 0 && !st->done &&
		    waitpid(ra[i].pid, &status, WNOHANG) == ra[i].pid) {
			ra[i].pid = -1;
			if (WIFSIGNALED(status))
				snprintf(why, sizeof(why), "killed by signal %d (%s)",
					 WTERMSIG(status), strsignal(WTERMSIG(status)));
			else
				snprintf(why, sizeof(why), "exited with status %d",
					 WEXITSTATUS(status));
			job_fail(x, "role %s %s", who, why);
			return true;
		}
	}
	return false;
}

/* A CPU set as a list: "0-3,8". */
static void cpuset_text(const cpu_set_t *set, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && n < len; c++) {
		int e = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
			e++;
		n += snprintf(buf + n, len - n, e > c ? "%s%d-%d" : "%s%d", n ? "," : "",
			      c, e);
		c = e;
	}
}

/*
 * A role's CPU taken away mid-run: when its CPU goes offline, or leaves
 * the cpuset, the kernel lets the role run on other CPUs, and its windows
 * then mix CPUs.  Its affinity is no longer its CPU alone: fail the job,
 * naming the CPU.  True when it did.
 */
static bool pin_lost(struct job_ctx *x)
{
	char who[64], now[128];
	cpu_set_t set;
	long online;

	for (int i = 0; i < x->nr_tasks; i++) {
		struct shm_task *st = task_of(x, i);
		int cpu = st->t.planned;

		if (st->tid <= 0 || __atomic_load_n(&st->done, __ATOMIC_ACQUIRE) ||
		    cpu < 0 || cpu >= CPU_SETSIZE ||
		    sched_getaffinity(st->tid, sizeof(set), &set))
			continue;	/* gone: roles_failed() says so */
		if (CPU_COUNT(&set) == 1 && CPU_ISSET(cpu, &set))
			continue;
		task_name(x, i, who, sizeof(who));
		cpuset_text(&set, now, sizeof(now));
		job_fail(x, "role %s: CPU %d was taken away mid-run (%s): the role may now "
			 "run on CPU%s %s", who, cpu,
			 !pb_sys_read_long(&online, "/sys/devices/system/cpu/cpu%d/online", cpu) &&
			 !online ? "it went offline" :
			 "it left the cpuset, or the affinity was changed",
			 CPU_COUNT(&set) > 1 ? "s" : "", now);
		return true;
	}
	return false;
}

static bool wait_ready(struct job_ctx *x, struct role_arg *ra)
{
	double deadline = pb_mono_s() + 30;

	while (__atomic_load_n(&hdr_of(x)->nready, __ATOMIC_ACQUIRE) < x->nr_tasks) {
		if (roles_failed(x, ra))
			return false;
		if (pb_mono_s() > deadline) {
			job_fail(x, "roles not ready after 30 s");
			return false;
		}
		sleep_s(0.001);
	}
	return !roles_failed(x, ra);
}

static uint64_t primary_ops(const struct job_ctx *x)
{
	uint64_t sum = 0;

	for (int i = 0; i < x->nr_tasks; i++) {
		int role = task_of(x, i)->t.role;

		if (x->bench->primary_role < 0 || role == x->bench->primary_role)
			sum += __atomic_load_n(&slot_of(x, i)->ops, __ATOMIC_RELAXED);
	}
	return sum;
}

static bool is_primary(const struct job_ctx *x, int i)
{
	return x->bench->primary_role < 0 || task_of(x, i)->t.role == x->bench->primary_role;
}

/* The primary role's ops among per-task ops[] (sample_ops()'s). */
static uint64_t primary_sum(const struct job_ctx *x, const uint64_t *ops)
{
	uint64_t sum = 0;

	for (int i = 0; i < x->nr_tasks; i++)
		if (is_primary(x, i))
			sum += ops[i];
	return sum;
}

/* Per task ops; aux summed over the tasks, busy time over the primary role's. */
static void sample_ops(const struct job_ctx *x, uint64_t *ops, uint64_t *aux,
		       uint64_t *busy)
{
	memset(aux, 0, PB_MAX_AUX * sizeof(*aux));
	*busy = 0;
	for (int i = 0; i < x->nr_tasks; i++) {
		ops[i] = __atomic_load_n(&slot_of(x, i)->ops, __ATOMIC_RELAXED);
		for (int k = 0; k < PB_MAX_AUX; k++)
			aux[k] += __atomic_load_n(&slot_of(x, i)->aux[k], __ATOMIC_RELAXED);
		if (is_primary(x, i))
			*busy += __atomic_load_n(&slot_of(x, i)->busy_ns, __ATOMIC_RELAXED);
	}
}

static void set_window(struct job_ctx *x, int w)
{
	for (int i = 0; i < x->nr_tasks; i++)
		__atomic_store_n(&slot_of(x, i)->window, w, __ATOMIC_RELAXED);
}

static void read_groups(struct job_ctx *x, struct pb_group **g, struct pb_count *out)
{
	struct pb_evlist *l = &hdr_of(x)->evl;

	for (int k = 0; k < x->nr_groups; k++) {
		struct pb_count *c = out + (size_t)k * PB_MAX_EVENTS;

		if (!g[k] || pb_group_read(g[k], c) < 0)
			for (int e = 0; e < l->nr; e++)
				c[e] = (struct pb_count){ .status = PB_CNT_NOT_COUNTED };
	}
}

/*
 * Sleep s seconds.  With peer=, watch the control connection meanwhile:
 * the server says nothing until STOP, so its session ending (the process
 * died) or an ERROR fails the job at once, not after the windows left.
 * 0, or -1 with the job failed: what happened, then "during" what.
 */
static int __attribute__((format(printf, 3, 4)))
nap(struct job_ctx *x, double s, const char *during, ...)
{
	char err[PB_ERR_MAX], when[64];
	va_list ap;

	if (x->peer.fd < 0) {
		sleep_s(s);
		return 0;
	}
	if (!remote->watch(&x->peer, s, err, sizeof(err)))
		return 0;
	va_start(ap, during);
	vsnprintf(when, sizeof(when), during, ap);
	va_end(ap);
	job_fail(x, "%s during %s", err, when);
	return -1;
}

/* How long the windows of a pass are: seconds, or ops when loops > 0. */
struct wlen {
	int	n;		/* windows */
	double	s;
	long	loops;
};

/* The metric's windows, or those of a counter pass. */
static struct wlen wlen_of(const struct job_ctx *x, int pass)
{
	const struct pb_job *j = x->job;
	struct wlen l = { j->repeats, j->duration, j->loops };

	if (pass >= 0 && x->timing_pass) {
		l.n = x->count_wins;
		l.s = pb_job_count_window(j, &l.loops);
	}
	return l;
}


/* The primary role's ops, datagrams lost and busy time, summed. */
static void primary_sample(const struct job_ctx *x, uint64_t *ops, uint64_t *lost,
			   uint64_t *busy)
{
	int k = pb_bench_lost_aux(x->bench);

	*ops = *lost = *busy = 0;
	for (int i = 0; i < x->nr_tasks; i++) {
		struct pb_slot *sl = slot_of(x, i);

		if (!is_primary(x, i))
			continue;
		*ops += __atomic_load_n(&sl->ops, __ATOMIC_RELAXED);
		*busy += __atomic_load_n(&sl->busy_ns, __ATOMIC_RELAXED);
		if (k >= 0)
			*lost += __atomic_load_n(&sl->aux[k], __ATOMIC_RELAXED);
	}
}

/* Cutting window w into slices: where the last one ended. */
struct slicer {
	struct job_ctx	*x;
	int		w;
	double		d;		/* slice length, s */
	double		t;		/* the last boundary */
	uint64_t	ops, lost, busy;
};

static void slicer_begin(struct slicer *s, struct job_ctx *x, int w, double t0,
			 double d)
{
	*s = (struct slicer){ .x = x, .w = w, .d = d, .t = t0 };
	primary_sample(x, &s->ops, &s->lost, &s->busy);
	win_of(x, w)->nslices = 0;
}

static void slice_add(struct shm_slice *a, const struct shm_slice *b)
{
	a->ops += b->ops;
	a->lost += b->lost;
	a->busy_ns += b->busy_ns;
	a->secs += b->secs;
}

/*
 * A slice boundary now: the slice since the last one is recorded (added to
 * the last one with merge: the short tail of a loops= window).
 */
static void slice_take(struct slicer *s, bool merge)
{
	struct shm_win *win = win_of(s->x, s->w);
	struct shm_slice *sl = slices_of(s->x, s->w), cur;
	uint64_t ops, lost, busy;
	double now = pb_mono_s();

	primary_sample(s->x, &ops, &lost, &busy);
	cur = (struct shm_slice){ .ops = ops - s->ops, .lost = lost - s->lost,
				  .busy_ns = busy - s->busy, .secs = now - s->t };
	s->t = now;
	s->ops = ops;
	s->lost = lost;
	s->busy = busy;
	if (merge && win->nslices) {
		slice_add(&sl[win->nslices - 1], &cur);
		return;
	}
	if (win->nslices == SLICES_MAX) {	/* full: merge pairs, slices twice as long */
		for (int i = 0; i < SLICES_MAX / 2; i++) {
			sl[i] = sl[2 * i];
			slice_add(&sl[i], &sl[2 * i + 1]);
		}
		win->nslices = SLICES_MAX / 2;
		s->d *= 2;
	}
	sl[win->nslices++] = cur;
}

/*
 * Wait out one window (repeat r of the pass), begun at t0 with p0 primary
 * ops: l->s seconds, or until l->loops ops, taking a slice at every
 * boundary.  -1 when the job failed meanwhile.
 */
static int window_wait(struct job_ctx *x, struct role_arg *ra, int w, uint64_t p0,
		       double t0, double rate, int pass, int r, const struct wlen *l)
{
	struct slicer sc;
	char in[32] = "";
	double d;

	if (pass >= 0)
		snprintf(in, sizeof(in), " of counter pass %d", pass + 1);
	if (!l->loops) {
		int n = (int)(l->s / SLICE_MIN_S);

		n = n < 1 ? 1 : n > SLICES ? SLICES : n;
		slicer_begin(&sc, x, w, t0, l->s / n);
		for (int k = 1; k <= n; k++) {
			double left = (k == n ? t0 + l->s : t0 + k * sc.d) - pb_mono_s();

			if (left > 0 && nap(x, left, "repeat %d%s", r + 1, in))
				return -1;
			slice_take(&sc, false);
		}
		return 0;
	}
	d = rate > 0 ? l->loops / rate / SLICES : 0;
	slicer_begin(&sc, x, w, t0, d > SLICE_MIN_S ? d : SLICE_MIN_S);
	for (;;) {
		uint64_t done = primary_ops(x) - p0;
		double now = pb_mono_s(), nap_s = 0.001;

		if (done >= (uint64_t)l->loops || hdr_of(x)->failed)
			break;
		if (now - sc.t >= sc.d)
			slice_take(&sc, false);
		if (now - t0 > 1 && roles_failed(x, ra))
			return -1;
		/* most of the way in one go, the end by the millisecond */
		if (rate > 0 && 0.9 * (l->loops - done) / rate > nap_s)
			nap_s = 0.9 * (l->loops - done) / rate;
		if (nap_s > sc.t + sc.d - now)
			nap_s = sc.t + sc.d - now;
		if (nap(x, nap_s > 0 ? nap_s : 0, "repeat %d%s", r + 1, in))
			return -1;
	}
	if (hdr_of(x)->failed)
		return -1;
	slice_take(&sc, pb_mono_s() - sc.t < sc.d / 2);	/* a short tail joins the last */
	return 0;
}

static int run_windows(struct job_ctx *x, struct role_arg *ra, int pass,
		       int w0, double rate, struct pb_group **g)
{
	struct pb_count *start = calloc((size_t)x->nr_groups * PB_MAX_EVENTS,
					sizeof(*start));
	uint64_t *ops0 = calloc(x->nr_tasks, sizeof(*ops0));
	uint64_t aux0[PB_MAX_AUX], aux1[PB_MAX_AUX], busy0, busy1;
	int nev = hdr_of(x)->evl.nr, rc = -1;
	struct wlen l = wlen_of(x, pass);

	if (!start || !ops0)
		goto out;
	for (int r = 0; r < l.n; r++) {
		int w = w0 + r;
		struct shm_win *win = win_of(x, w);
		double t0, t1;

		read_groups(x, g, start);
		sample_ops(x, ops0, aux0, &busy0);
		/*
		 * The window's ops from the same reads as each task's: read
		 * apart, a job process preempted between them (a hog beside
		 * it) made one worker's rate 0.8 % off the job's
		 */
		uint64_t p0 = primary_sum(x, ops0);

		t0 = pb_mono_s();
		win->start = t0 - hdr_of(x)->gate_t;
		set_window(x, w);
		if (window_wait(x, ra, w, p0, t0, rate, pass, r, &l))
			goto out;	/* the window in flight is not kept */
		t1 = pb_mono_s();
		sample_ops(x, task_ops_of(x, w), aux1, &busy1);
		win->ops = primary_sum(x, task_ops_of(x, w)) - p0;
		read_groups(x, g, counts_of(x, w, 0));
		set_window(x, -1);
		win->elapsed = t1 - t0;
		win->pass = pass;
		win->busy_ns = busy1 - busy0;
		for (int k = 0; k < PB_MAX_AUX; k++)
			win->aux[k] = aux1[k] - aux0[k];
		for (int i = 0; i < x->nr_tasks; i++)
			task_ops_of(x, w)[i] -= ops0[i];
		for (int k = 0; k < x->nr_groups; k++)
			pb_count_delta(start + (size_t)k * PB_MAX_EVENTS,
				       counts_of(x, w, k), counts_of(x, w, k), nev);
		if (roles_failed(x, ra) || pin_lost(x))
			goto out;
		win->done = 1;
		__atomic_store_n(&hdr_of(x)->nwin_done, hdr_of(x)->nwin_done + 1,
				 __ATOMIC_RELEASE);
	}
	rc = 0;
out:
	free(start);
	free(ops0);
	return rc;
}

static void open_groups(struct job_ctx *x, struct role_arg *ra, int pass,
			struct pb_group **g)
{
	char err[PB_ERR_MAX];
	bool cpu = x->job->counters_cpu;

	for (int k = 0; k < x->nr_groups; k++) {
		pid_t pid = cpu ? -1 : (ra[k].pid > 0 ? ra[k].pid : task_of(x, k)->tid);

		g[k] = pb_group_open(&hdr_of(x)->evl, pass, pid,
				     cpu ? x->group_cpu[k] : -1, !cpu, err, sizeof(err));
	}
}

static void close_groups(struct job_ctx *x, struct pb_group **g)
{
	for (int k = 0; k < x->nr_groups; k++) {
		if (g[k])
			pb_group_close(g[k]);
		g[k] = NULL;
	}
}

struct stopping {
	struct job_ctx	*x;
	struct role_arg	*ra;
};

/* Role i not done yet: interrupt it.  A role process that died is reaped. */
static bool role_running(void *arg, int i)
{
	struct stopping *s = arg;
	struct shm_task *st = task_of(s->x, i);
	struct role_arg *ra = s->ra;

	if (__atomic_load_n(&st->done, __ATOMIC_ACQUIRE) || st->tid <= 0)
		return false;
	if (ra[i].pid > 0 && waitpid(ra[i].pid, NULL, WNOHANG) == ra[i].pid) {
		ra[i].pid = -1;
		return false;
	}
	syscall(SYS_tgkill, s->x->job->threads ? getpid() : st->tid, st->tid, SIGUSR1);
	return true;
}

static void roles_give_up(void *arg)
{
	struct stopping *s = arg;

	/* then _exit(1): the main process kills the rest of the group */
	job_fail(s->x, "a role did not stop within 5 s of the end of the run");
}

/* Ask every role to stop, interrupting blocking calls, then reap them. */
static void stop_roles(struct job_ctx *x, struct role_arg *ra)
{
	struct shm_hdr *h = hdr_of(x);
	struct stopping s = { .x = x, .ra = ra };

	__atomic_store_n(&h->stop, 1, __ATOMIC_RELEASE);	/* before the gate opens */
	__atomic_store_n(&h->gate, 1, __ATOMIC_RELEASE);
	futex(&h->gate, FUTEX_WAKE, INT_MAX);
	pb_roles_stop(&(struct pb_roles_stop){ .stopflag = &h->stop, .nr = x->nr_tasks,
		.running = role_running, .give_up = roles_give_up, .arg = &s });
	for (int i = 0; i < x->nr_tasks; i++) {
		if (x->job->threads)
			pthread_join(ra[i].thread, NULL);
		else if (ra[i].pid > 0)
			waitpid(ra[i].pid, NULL, 0);
	}
}

/*
 * Probe the clocks i with want[i] into p[i] (rc[i] 0, or -1 failed): a
 * batch at a time, the CPUs of a batch at once (no two share a core).
 */
static void probe_some(const struct job_ctx *x, const bool *want, struct pb_probe *p, int *rc,
		       bool again)
{
	struct pb_probe got[PB_MAX_CLOCKS];
	int cpu[PB_MAX_CLOCKS], idx[PB_MAX_CLOCKS], r[PB_MAX_CLOCKS];

	for (int b = 0; b < x->nr_batches; b++) {
		int n = 0;

		for (int i = 0; i < x->nr_clocks; i++)
			if (want[i] && x->batch[i] == b) {
				idx[n] = i;
				cpu[n++] = x->clock_cpu[i];
			}
		if (!n)
			continue;
		(again ? pb_probe_cpus_again : pb_probe_cpus)(cpu, n, got, r);
		for (int k = 0; k < n; k++) {
			p[idx[k]] = got[k];
			rc[idx[k]] = r[k];
		}
	}
}

/*
 * Probe every clock into p[]; a disturbed probe (another task had the CPU
 * for a moment) is taken again, up to three more times, the last one
 * kept.  A probe that failed has mhz 0.  Re-taking costs tens of ms; a
 * disturbed probe after the job costs a second of re-probes
 * (pb_probe_confirm_cpus()).
 */
static void probe_clocks(const struct job_ctx *x, struct pb_probe *p)
{
	bool want[PB_MAX_CLOCKS];
	int rc[PB_MAX_CLOCKS];

	for (int i = 0; i < x->nr_clocks; i++)
		want[i] = true;
	for (int k = 0; k < 4; k++) {
		bool again = false;

		probe_some(x, want, p, rc, false);
		for (int i = 0; i < x->nr_clocks; i++) {
			if (!want[i])
				continue;
			if (rc[i])
				p[i].mhz = 0;
			want[i] = p[i].mhz > 0 && p[i].disturbed;
			again |= want[i];
		}
		if (!again)
			break;
	}
}

/* peer=: HELLO/READY with the server, then client sockets to its data ports. */
static int peer_setup(struct job_ctx *x)
{
	const struct pb_job *j = x->job;
	struct pb_peer_ctx pc;

	if (!remote) {
		snprintf(x->setup_err, sizeof(x->setup_err), "peer=: no client for the peer");
		return -1;
	}
	if (remote->open(&x->peer, x->peer_addr, x->bench, j->opts, j->nr_instances,
			 x->peer_cpu, x->limit_s, x->setup_err, sizeof(x->setup_err)))
		return -1;
	hdr_of(x)->peer = x->peer.info;
	hdr_of(x)->has_peer = 1;
	pc = (struct pb_peer_ctx){ .opts = j->opts, .nr_instances = j->nr_instances,
		.addr = (struct sockaddr *)&x->peer.addr, .alen = x->peer.alen,
		.ports = x->peer.ports, .timeout_ms = 10000, .err = x->setup_err };
	if (x->bench->peer_connect(&pc)) {
		char e[PB_ERR_MAX];
		uint64_t ops;

		remote->close(&x->peer, &ops, e, sizeof(e));
		return -1;
	}
	x->setup.shared = pc.shared;
	return 0;
}

/* The roles have stopped: STOP, the server's BYE (its roles' failure fails the job). */
static void peer_finish(struct job_ctx *x)
{
	char err[PB_ERR_MAX];

	if (remote->close(&x->peer, &hdr_of(x)->peer_ops, err, sizeof(err)))
		job_fail(x, "%s", err);
}

/*
 * The span of the metric's windows: /proc/stat (steal, throttling) and
 * every other task's run time, before and after.  Ours are the job
 * process (and role threads), its roles' processes and the main process.
 */
struct span {
	struct pb_others	others;
	pid_t			*ours;	/* [nr_tasks + 2] */
	int			nours;
};

static void span_begin(struct job_ctx *x, const struct role_arg *ra, struct span *sp)
{
	struct shm_hdr *h = hdr_of(x);

	sp->nours = 0;
	sp->ours = calloc(x->nr_tasks + 2, sizeof(*sp->ours));
	if (sp->ours) {
		sp->ours[sp->nours++] = getpid();
		sp->ours[sp->nours++] = getppid();
		for (int i = 0; i < x->nr_tasks; i++)
			if (ra[i].pid > 0)
				sp->ours[sp->nours++] = ra[i].pid;
	}
	h->others_ok = sp->ours &&
		       !pb_others_snapshot(x->clock_cpu, x->nr_clocks, sp->ours, sp->nours,
					   &sp->others);
	h->cs_ok = !pb_cpustat_snapshot(x->clock_cpu, x->nr_clocks, h->cs_before);
	h->cs_t0 = pb_mono_s();
}

static void span_end(struct job_ctx *x, struct span *sp)
{
	struct shm_hdr *h = hdr_of(x);
	struct pb_others after = { 0 };

	h->cs_t1 = pb_mono_s();
	if (pb_cpustat_snapshot(x->clock_cpu, x->nr_clocks, h->cs_after))
		h->cs_ok = 0;
	if (h->others_ok && !pb_others_snapshot(x->clock_cpu, x->nr_clocks, sp->ours,
						sp->nours, &after))
		pb_others_diff(&sp->others, &after, (h->cs_t1 - h->cs_t0) * 1e9, &h->others);
	else
		h->others_ok = 0;
	pb_others_free(&after);
	pb_others_free(&sp->others);
	free(sp->ours);
	sp->ours = NULL;
}

/* The counter passes' wall time: a timed window each (counts_first only). */
static double counts_s(const struct job_ctx *x)
{
	long ops;

	return hdr_of(x)->evl.nr_passes * x->count_wins * pb_job_count_window(x->job, &ops);
}

/*
 * Run the counter passes, their windows from w on; the last pass's groups
 * stay open.  With counting=inline pass 0 is the metric's own (its span
 * the noisy-neighbour check's).  0, or -1 when the job failed meanwhile.
 */
static int count_passes(struct job_ctx *x, struct role_arg *ra, int w, double rate,
			struct pb_group **g, struct span *sp)
{
	struct shm_hdr *h = hdr_of(x);
	int e = 0;

	for (int pass = 0; h->evl.nr && pass < h->evl.nr_passes; pass++) {
		if (w + x->count_wins > x->nr_wins)
			break;	/* more passes than planned: the rest stays unmeasured */
		open_groups(x, ra, pass, g);
		if (!x->timing_pass && !pass)
			span_begin(x, ra, sp);
		e = run_windows(x, ra, pass, w, rate, g);
		if (!x->timing_pass && !pass)
			span_end(x, sp);
		if (e)
			break;
		w += x->count_wins;
		if (pass + 1 < h->evl.nr_passes)
			close_groups(x, g);
	}
	return e;
}

static int prof_nap(void *arg, double s)
{
	return nap(arg, s, "the profile pass");
}

/* The profile pass's window: the counter window's length, at least PB_PROF_MIN_S. */
static double prof_window_s(const struct job_ctx *x, double rate)
{
	long ops;
	double s = pb_job_count_window(x->job, &ops);

	if (ops)
		s = rate > 0 ? ops / rate : 1;
	return s > PB_PROF_MIN_S ? s : PB_PROF_MIN_S;
}

/*
 * profile=on: every role task sampled for one window, after all the
 * others; the run for pb_profile_fold() once the roles have stopped.
 */
static struct pb_prof_run *profile_pass(struct job_ctx *x, struct role_arg *ra, double rate)
{
	struct pb_prof_task *t = calloc(x->nr_tasks, sizeof(*t));
	int nr_roles = x->bench->roles[1] && !x->peer_addr ? 2 : 1, rc;
	struct pb_prof_run *run;

	if (!t) {
		job_fail(x, "out of memory");
		return NULL;
	}
	for (int i = 0; i < x->nr_tasks; i++) {
		struct shm_task *st = task_of(x, i);

		t[i] = (struct pb_prof_task){ .tid = st->tid, .role = st->t.role,
			.primary = is_primary(x, i),
			.pid = ra[i].pid > 0 ? ra[i].pid : getpid(), .ops = &slot_of(x, i)->ops };
	}
	run = pb_profile_sample(t, x->nr_tasks, nr_roles, prof_window_s(x, rate), prof_nap, x,
				prof_of(x), &rc);
	free(t);
	return run;
}

static void job_process(struct job_ctx *x)
{
	const struct pb_job *j = x->job;
	struct shm_hdr *h = hdr_of(x);
	struct role_arg *ra = calloc(x->nr_tasks, sizeof(*ra));
	struct pb_group **g = calloc(x->nr_groups, sizeof(*g));
	struct span sp = { 0 };
	struct pb_prof_run *prof = NULL;
	double rate = 0;
	int e;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pb_roles_catch_stop();
	signal(SIGINT, SIG_IGN);
	if (!ra || !g) {
		job_fail(x, "out of memory");
		_exit(1);
	}
	x->setup = (struct pb_setup_ctx){ .opts = j->opts,
		.nr_instances = j->nr_instances, .threads = j->threads,
		.err = x->setup_err };
	if (x->peer_addr) {
		if (peer_setup(x)) {
			job_fail(x, "%s", x->setup_err);
			_exit(1);
		}
	} else if (x->bench->setup && x->bench->setup(&x->setup)) {
		job_fail(x, "setup: %s", x->setup_err);
		_exit(1);
	}
	/* see pb_counters_hold(): until the last pass has opened its groups */
	x->hold_fd = h->evl.nr ? pb_counters_hold() : -1;
	e = spawn_roles(x, ra);
	if (e) {
		job_fail(x, "cannot start a role: %s", strerror(-e));
		stop_roles(x, ra);
		_exit(1);
	}
	if (!wait_ready(x, ra))
		goto stop;
	h->gate_t = pb_mono_s();
	__atomic_store_n(&h->gate, 1, __ATOMIC_RELEASE);
	futex(&h->gate, FUTEX_WAKE, INT_MAX);
	if (j->warmup > 0) {
		/* counts_first: the passes take the warm-up's last part */
		double left = j->warmup - (x->counts_first ? counts_s(x) : 0);
		uint64_t o0 = primary_ops(x);
		double t0 = pb_mono_s();

		if (nap(x, left > 0 ? left : 0, "the warm-up"))
			goto stop;
		rate = (primary_ops(x) - o0) / (pb_mono_s() - t0);
	}
	h->win_expect_s = !j->loops ? j->duration : rate > 0 ? j->loops / rate : 0;
	if (x->timing_pass) {
		struct wlen l = wlen_of(x, 0);

		h->count_expect_s = !l.loops ? l.s : rate > 0 ? l.loops / rate : 0;
	}
	h->prof_expect_s = j->profile ? prof_window_s(x, rate) : 0;
	__atomic_store_n(&h->windows_begun, 1, __ATOMIC_RELEASE);
	if (x->counts_first) {	/* then the metric runs with every counter closed */
		e = count_passes(x, ra, x->timing_pass ? j->repeats : 0, rate, g, &sp);
		close_groups(x, g);
		if (x->hold_fd >= 0)	/* the metric runs with no perf event of ours */
			close(x->hold_fd);
		x->hold_fd = -1;
		if (e)
			goto windows_done;
	}
	if (x->timing_pass) {	/* the metric's windows, with no counter open */
		span_begin(x, ra, &sp);
		e = run_windows(x, ra, -1, 0, rate, g);
		span_end(x, &sp);
		if (e)
			goto windows_done;
	}
	if (!x->counts_first)
		count_passes(x, ra, x->timing_pass ? j->repeats : 0, rate, g, &sp);
	if (j->profile && !h->failed)
		prof = profile_pass(x, ra, rate);
windows_done:
	stop_roles(x, ra);
	probe_clocks(x, h->after);	/* the roles gone, the counters open (not counts_first) */
	close_groups(x, g);
	pb_profile_fold(prof, prof_of(x));	/* the CPUs are the job process's now */
	goto out;
stop:
	stop_roles(x, ra);
out:
	if (x->peer.fd >= 0)
		peer_finish(x);
	if (x->bench->teardown)
		x->bench->teardown(&x->setup);
	free(g);
	free(ra);
	_exit(h->failed ? 1 : 0);
}

/* ------------------------------------------------------- main process */

static void fill_tasks(struct job_ctx *x, const int *cpus)
{
	const struct pb_bench *b = x->bench;
	int n = x->job->nr_instances;

	for (int i = 0; i < x->nr_tasks; i++) {
		struct pb_task *t = &task_of(x, i)->t;

		/* pairs: cpus are (first, second) per pair; tasks in role order */
		if (x->peer_addr) {	/* clients only, one CPU each */
			t->role = 0;
			t->instance = i;
			t->planned = cpus[i];
		} else if (b->shape == PB_SHAPE_PAIR) {
			t->role = i / n;
			t->instance = i % n;
			t->planned = x->job->cpus ? cpus[i] : cpus[2 * t->instance + t->role];
		} else {
			t->role = 0;
			t->instance = i;
			t->planned = cpus[i];
		}
		t->seen[0] = t->seen[1] = -1;
	}
}

/*
 * The profile pass (profile=on), as planned: its window, 1 s with loops=
 * (the warm-up's rate sets it), and a second to name and fold; else 0.
 */
#define PROF_FOLD_S	1.0

static double prof_planned_s(const struct pb_job *j)
{
	long ops;
	double s = pb_job_count_window(j, &ops);

	if (!j->profile)
		return 0;
	if (ops)
		s = 1;
	return (s > PB_PROF_MIN_S ? s : PB_PROF_MIN_S) + PROF_FOLD_S;
}

/* What the job should take: warm-up, the metric's windows, the counter passes, the profile. */
static double expected_s(const struct job_ctx *x, int passes)
{
	const struct pb_job *j = x->job;
	double per = j->loops ? 30 : j->duration, count = per;
	long ops;

	if (x->timing_pass) {
		count = pb_job_count_window(j, &ops);
		if (ops)
			count = 30;
	}
	return j->warmup + x->timing_pass * j->repeats * per +
	       !x->counts_first * passes * x->count_wins * count + 1 + prof_planned_s(j);
}

/*
 * How long the job may go without progress before the watchdog stops it:
 * timeout= when given (for the whole job); else 3 x what the phase should
 * take + 10 s: setting up and warming up, each window (duration, or loops
 * at the warm-up's rate), stopping; a little more per task for many tasks.
 */
static double watchdog_limit(const struct job_ctx *x, int begun, int done)
{
	const struct pb_job *j = x->job;
	double per_task = 0.05 * x->nr_tasks, w = hdr_of(x)->win_expect_s;

	if (x->counts_first)	/* which window runs is not told: the longer */
		w = fmax(w, hdr_of(x)->count_expect_s);
	else if (x->timing_pass && done >= j->repeats)	/* a counter pass's window */
		w = hdr_of(x)->count_expect_s;

	if (j->timeout > 0)
		return x->limit_s;
	if (!begun)
		return 3 * j->warmup + 10 + per_task;
	if (done >= x->nr_wins)	/* stopping; after the profile pass, if any */
		return 10 + per_task + 3 * hdr_of(x)->prof_expect_s;
	return 3 * (w > 0 ? w : 30) + 10;
}

static void progress(const struct job_ctx *x, const char *pl, int done, int total)
{
	if (x->progress->show)
		x->progress->show(x->progress, x->job->name, pl, done, total);
}

/*
 * Wait up to s seconds for the job process to end, or for a signal: on a
 * pidfd when the kernel has them (5.3), so that the next job does not
 * wait out the rest of a poll interval (25 ms a job on average).
 */
static void await_job(int pidfd, double s)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };

	if (pidfd >= 0 && (poll(&p, 1, (int)(s * 1000)) >= 0 || errno == EINTR))
		return;
	sleep_s(s);
}

/*
 * Reap what is left of the job's process group once the job process is
 * gone: its role processes, which (this process being a subreaper, see
 * pb_run_job) are ours now, not init's, to wait for.  They were sent
 * SIGKILL; one stuck in the kernel is given up on after REAP_LIMIT_S.
 */
#define REAP_LIMIT_S	2.0

static void reap_group(pid_t pgid)
{
	double end = pb_mono_s() + REAP_LIMIT_S;

	for (;;) {
		pid_t p = waitpid(-pgid, NULL, WNOHANG);

		if (p > 0)
			continue;
		if ((p < 0 && errno != EINTR) || pb_mono_s() > end)
			return;		/* ECHILD: none left */
		sleep_s(0.001);
	}
}

static void supervise(struct job_ctx *x, pid_t pid, const char *pl, struct pb_result *r)
{
	const struct pb_job *j = x->job;
	double limit = x->limit_s, t0 = pb_mono_s(), mark = t0;
	int status = 0, last = -1, begun = 0;
#ifdef SYS_pidfd_open
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
#else
	int pidfd = -1;
#endif

	for (;;) {
		pid_t p = waitpid(pid, &status, WNOHANG);
		int done = __atomic_load_n(&hdr_of(x)->nwin_done, __ATOMIC_ACQUIRE);
		int b = __atomic_load_n(&hdr_of(x)->windows_begun, __ATOMIC_ACQUIRE);

		if (p == pid)
			break;
		if (done != last)
			progress(x, pl, done, x->nr_wins);
		if (j->timeout <= 0 && (done != last || b != begun)) {	/* a new deadline */
			mark = pb_mono_s();
			limit = watchdog_limit(x, b, done);
		}
		last = done;
		begun = b;
		if (pb_interrupted || pb_mono_s() - mark > limit) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			snprintf(r->reason, sizeof(r->reason), pb_interrupted ?
				 "interrupted" : "watchdog: no progress for %g s (%s)", limit,
				 !begun ? "setting up and warming up" : last < x->nr_wins ?
				 "in a measurement window" : "stopping");
			r->status = pb_interrupted ? PB_INTERRUPTED : PB_FAILED;
			break;
		}
		await_job(pidfd, 0.05);
	}
	if (pidfd >= 0)
		close(pidfd);
	kill(-pid, SIGKILL);	/* anything left in the job's group */
	reap_group(pid);
	progress(x, pl, -1, x->nr_wins);
	if (r->status == PB_FAILED || r->status == PB_INTERRUPTED)
		return;
	if (hdr_of(x)->failed) {
		r->status = PB_FAILED;
		snprintf(r->reason, sizeof(r->reason), "%s", hdr_of(x)->reason);
	} else if (WIFSIGNALED(status)) {
		r->status = PB_FAILED;
		snprintf(r->reason, sizeof(r->reason), "job process killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	} else if (WEXITSTATUS(status)) {
		r->status = PB_FAILED;
		snprintf(r->reason, sizeof(r->reason), "job process exited with status %d",
			 WEXITSTATUS(status));
	}
}

static int nr_primary(const struct job_ctx *x)
{
	int np = 0;

	for (int i = 0; i < x->nr_tasks; i++)
		np += is_primary(x, i);
	return np ? np : 1;
}

/*
 * A window (or a slice) with datagrams lost: the time the primary role's instances
 * spent waiting for replies that never came, on average per instance.
 * Each completed op owns the time since the previous attempt ended
 * (busy_ns); what no op owns is the wait.  0 when nothing was lost.
 */
static double lost_wait(const struct job_ctx *x, uint64_t lost, uint64_t ops,
			uint64_t busy_ns, double elapsed)
{
	double busy;

	if (pb_bench_lost_aux(x->bench) < 0 || !lost || !ops)
		return 0;
	busy = busy_ns / 1e9 / nr_primary(x);
	return busy < elapsed ? elapsed - busy : 0;
}

/* The metric of ops at rate ops/s (the window's length at that rate); NAN unknown. */
static double value_at(const struct job_ctx *x, uint64_t ops, double rate)
{
	if (!ops || !(rate > 0) || !isfinite(rate))
		return NAN;
	return x->bench->value(x->job->opts, ops, ops / rate, x->job->nr_instances);
}

/*
 * The window's slices: their rates' median and trimmed mean, outliers;
 * the median latency; and the value the job's estimator makes of them
 * (the plain mean when that estimate is unknown).
 */
static void estimate_rep(const struct job_ctx *x, int w, struct pb_rep *rep)
{
	const struct shm_win *win = win_of(x, w);
	const struct shm_slice *sl = slices_of(x, w);
	double rate[SLICES_MAX], est = NAN;
	struct pb_robust e;
	int n = win->nslices < SLICES_MAX ? win->nslices : SLICES_MAX;

	rep->slice_median = rep->slice_trimmed = rep->p50 = rep->slice_rse = NAN;
	for (int i = 0; i < n; i++) {
		double t = sl[i].secs - lost_wait(x, sl[i].lost, sl[i].ops, sl[i].busy_ns,
						  sl[i].secs);

		rate[i] = t > 0 ? sl[i].ops / t : 0;
	}
	if (!pb_robust_rates(rate, n, &e)) {
		rep->nslices = e.n;
		rep->outliers = e.outliers;
		rep->slice_median = value_at(x, rep->ops, e.median);
		rep->slice_trimmed = value_at(x, rep->ops, e.trimmed);
	}
	rep->slice_df = pb_batch_rse(rate, n, &rep->slice_rse);
	if (rep->lat && rep->lat->count)
		rep->p50 = value_at(x, rep->ops, nr_primary(x) /
				    (pb_hist_quantile(rep->lat, 0.5) / 1e9));
	switch (x->job->estimator) {
	case PB_EST_MEDIAN:
		est = rep->slice_median;
		break;
	case PB_EST_TRIMMED:
		est = rep->slice_trimmed;
		break;
	case PB_EST_P50:
		est = rep->p50;
		break;
	}
	rep->value = isnan(est) ? rep->mean_value : est;
}

static void collect_rep(struct job_ctx *x, int w, struct pb_result *r)
{
	struct pb_rep *rep = &r->reps[r->nr_reps++];
	struct shm_win *win = win_of(x, w);
	size_t nc = (size_t)x->nr_groups * r->evl.nr;
	int lost = pb_bench_lost_aux(x->bench);

	rep->ops = win->ops;
	rep->elapsed_s = win->elapsed;
	rep->pass = win->pass;
	rep->start_s = win->start;
	rep->in_summary = !x->timing_pass || win->pass < 0;
	memcpy(rep->aux, win->aux, sizeof(rep->aux));
	rep->wait_s = lost_wait(x, lost >= 0 ? win->aux[lost] : 0, win->ops, win->busy_ns,
				win->elapsed);
	rep->stall = !win->ops;
	rep->mean_value = rep->stall ? NAN :
			  x->bench->value(x->job->opts, win->ops, win->elapsed - rep->wait_s,
					  x->job->nr_instances);
	rep->task_ops = calloc(x->nr_tasks, sizeof(uint64_t));
	rep->counts = calloc(nc ? nc : 1, sizeof(struct pb_count));
	if (rep->task_ops)
		memcpy(rep->task_ops, task_ops_of(x, w), x->nr_tasks * sizeof(uint64_t));
	for (int k = 0; rep->counts && k < x->nr_groups; k++)
		memcpy(rep->counts + (size_t)k * r->evl.nr, counts_of(x, w, k),
		       r->evl.nr * sizeof(struct pb_count));
	if (x->bench->latency)
		rep->lat = malloc(sizeof(*rep->lat));
	if (rep->lat) {
		pb_hist_init(rep->lat);
		for (int i = 0; i < x->nr_tasks; i++)
			if (is_primary(x, i))
				pb_hist_merge(rep->lat, hist_of(x, i, w));
	}
	estimate_rep(x, w, rep);
}

/*
 * An ok job whose metric windows all stalled has no figure: failed, saying
 * whether every datagram was lost.
 */
static void all_stalled(struct pb_result *r)
{
	uint64_t lost = 0, ops = 0;
	int n = 0;

	for (int i = 0; i < r->nr_reps; i++)
		if (r->reps[i].in_summary) {
			n++;
			ops += r->reps[i].ops;
		}
	if (r->status != PB_OK || !n || ops)
		return;
	r->status = PB_FAILED;
	if (pb_result_loss(r, -1, &lost, &ops) && lost)
		snprintf(r->reason, sizeof(r->reason), "every datagram was lost (%llu, "
			 "no round trip completed in %d window%s)", (unsigned long long)lost,
			 n, n > 1 ? "s" : "");
	else
		snprintf(r->reason, sizeof(r->reason), "every window stalled: no operation "
			 "completed in %d window%s", n, n > 1 ? "s" : "");
}

static void collect(struct job_ctx *x, struct pb_result *r)
{
	int done = __atomic_load_n(&hdr_of(x)->nwin_done, __ATOMIC_ACQUIRE);
	double *v;

	r->evl = hdr_of(x)->evl;
	r->nr_tasks = x->nr_tasks;
	r->tasks = calloc(x->nr_tasks, sizeof(*r->tasks));
	r->reps = calloc(x->nr_wins, sizeof(*r->reps));
	r->nr_groups = x->nr_groups;
	r->group_names = calloc(x->nr_groups, sizeof(*r->group_names));
	if (!r->tasks || !r->reps || !r->group_names) {
		r->status = PB_FAILED;
		snprintf(r->reason, sizeof(r->reason), "out of memory");
		return;
	}
	for (int i = 0; i < x->nr_tasks; i++)
		r->tasks[i] = task_of(x, i)->t;
	r->has_peer = hdr_of(x)->has_peer;
	r->peer = hdr_of(x)->peer;
	r->peer_ops = hdr_of(x)->peer_ops;
	if (prof_of(x)) {
		r->profile = malloc(sizeof(*r->profile));
		if (r->profile)
			*r->profile = *prof_of(x);
	}
	for (int k = 0; k < x->nr_groups; k++) {
		if (x->job->counters_cpu)
			snprintf(r->group_names[k], 32, "cpu%d", x->group_cpu[k]);
		else
			snprintf(r->group_names[k], 32, "%s/%d",
				 x->bench->roles[r->tasks[k].role], r->tasks[k].instance);
	}
	for (int w = 0; done && w < x->nr_wins; w++)	/* in index order: the metric's first */
		if (win_of(x, w)->done)
			collect_rep(x, w, r);
	if (!r->nr_reps)
		return;
	v = calloc(r->nr_reps, sizeof(*v));
	if (!v)
		return;
	int n = 0;

	for (int i = 0; i < r->nr_reps; i++)
		if (r->reps[i].in_summary && !r->reps[i].stall)
			v[n++] = r->reps[i].value;
	if (n)
		pb_summarize(v, n, r->metric.rate, &r->summary);
	free(v);
	all_stalled(r);
}

/* Passes may grow when the kernel refuses a group: room for one more per hw event. */
static int max_passes(const struct pb_evlist *l)
{
	int hw = 0;

	for (int e = 0; e < l->nr; e++)
		hw += l->ev[e].hw && !l->ev[e].status;
	return (l->nr_passes > 0 ? l->nr_passes : 1) + (hw > 1 ? hw - 1 : 0);
}

/* counting=separate (or no counters): the metric's own windows, then one short window a pass */
static int pb_job_windows(const struct pb_job *j, const struct pb_evlist *evl)
{
	bool timing = !evl->nr || !j->counting_inline;
	int passes = evl->nr ? max_passes(evl) : 0;

	return timing * j->repeats + (timing ? 1 : j->repeats) * passes;
}

double pb_job_expected_s(const struct pb_job *j, const struct pb_evlist *evl)
{
	bool timing = !evl->nr || !j->counting_inline;
	int passes = evl->nr ? (evl->nr_passes > 0 ? evl->nr_passes : 1) : 0;
	double per = j->loops ? 30 : j->duration, count = per;
	long ops;

	if (timing) {
		count = pb_job_count_window(j, &ops);
		if (ops)
			count = 30;
	}
	if (pb_job_counts_first(j, evl))
		passes = 0;	/* in the warm-up */
	return j->warmup + timing * j->repeats * per + passes * (timing ? 1 : j->repeats) * count +
	       prof_planned_s(j);
}

bool pb_job_counts_first(const struct pb_job *j, const struct pb_evlist *evl)
{
	int passes = evl->nr_passes > 0 ? evl->nr_passes : 1;
	long ops;
	double s;

	if (!evl->nr || j->counting_inline)
		return false;
	s = pb_job_count_window(j, &ops);
	return !ops && s > 0 && passes * s <= j->warmup / 2;
}

static void distinct_cpus(struct job_ctx *x, const int *cpus)
{
	for (int i = 0; i < x->nr_tasks; i++) {
		int k;

		for (k = 0; k < x->nr_clocks; k++)
			if (x->clock_cpu[k] == cpus[i])
				break;
		if (k == x->nr_clocks && x->nr_clocks < PB_MAX_CLOCKS)
			x->clock_cpu[x->nr_clocks++] = cpus[i];
	}
}

/*
 * Re-probe the clocks under suspicion over a second (pb_probe_confirm_cpus()):
 * with the rest of their batch, as they were probed before and after the
 * job; a batch with no suspect is not re-probed.
 */
static void confirm_suspects(const struct job_ctx *x, struct pb_result *r, const bool *suspect)
{
	struct pb_confirm c[PB_MAX_CLOCKS];
	int cpu[PB_MAX_CLOCKS], idx[PB_MAX_CLOCKS];

	for (int b = 0; b < x->nr_batches; b++) {
		bool any = false;
		int n = 0;

		for (int i = 0; i < r->nr_clocks; i++)
			if (x->batch[i] == b) {
				any |= suspect[i];
				idx[n] = i;
				cpu[n++] = x->clock_cpu[i];
			}
		if (!any)
			continue;
		pb_probe_confirm_cpus(cpu, n, c);
		for (int k = 0; k < n; k++)
			if (suspect[idx[k]])
				r->clocks[idx[k]].confirm = c[k];
	}
}

/* The clocks after the job, re-probed when suspect, then every check. */
static void job_checks(const struct job_ctx *x, const struct pb_nominal *nom,
		       struct pb_result *r)
{
	const struct shm_hdr *h = hdr_of(x);
	struct pb_job_seen s = {
		.cs_before = h->cs_ok ? h->cs_before : NULL,
		.cs_after = h->cs_ok ? h->cs_after : NULL,
		.nr_cpus = x->nr_clocks,
		.cs_s = h->cs_t1 - h->cs_t0,
		.others = h->others_ok ? &h->others : NULL,
		.roles = x->bench->roles,
	};
	bool suspect[PB_MAX_CLOCKS];

	for (int i = 0; i < r->nr_clocks; i++) {
		r->clocks[i].after = h->after[i];
		suspect[i] = pb_clock_suspect(&r->clocks[i], nom);
	}
	confirm_suspects(x, r, suspect);
	pb_job_checks(&s, nom, r);
}

/*
 * The clock before the job.  A disturbed probe is taken again (up to
 * three more times) so that the job has an undisturbed figure to be
 * judged against; the last one is kept either way.
 */
static void probe_before(const struct job_ctx *x, struct pb_result *r)
{
	struct pb_probe p[PB_MAX_CLOCKS], again[PB_MAX_CLOCKS];
	bool want[PB_MAX_CLOCKS];
	int rc[PB_MAX_CLOCKS];

	r->clocks = calloc(x->nr_clocks, sizeof(*r->clocks));
	if (!r->clocks)
		return;
	r->nr_clocks = x->nr_clocks;
	probe_clocks(x, p);
	/*
	 * Once more, right away: a CPU that idled before the job may still be
	 * ramping its clock (a host's boost, a governor), and the job will
	 * run at the clock it ramps to.  The higher of two undisturbed probes
	 * is the clock before the job.
	 */
	for (int i = 0; i < x->nr_clocks; i++)
		want[i] = p[i].mhz > 0 && !p[i].disturbed;
	probe_some(x, want, again, rc, true);
	for (int i = 0; i < x->nr_clocks; i++) {
		r->clocks[i].cpu = x->clock_cpu[i];
		r->clocks[i].before = p[i];
		if (want[i] && !rc[i] && !again[i].disturbed && again[i].mhz > p[i].mhz)
			r->clocks[i].before = again[i];
	}
}

static void probe_closed(const struct job_ctx *x, struct pb_result *r)
{
	struct pb_probe p[PB_MAX_CLOCKS];

	probe_clocks(x, p);
	for (int i = 0; i < r->nr_clocks; i++)
		r->clocks[i].closed = p[i];
}

/*
 * Keep the harness's own wake-ups (the watchdog's polling, the job
 * process's window timer) off the measured CPUs when others are allowed:
 * the calling thread, and the job process it forks, go to the rest.
 * The roles pin themselves.  True when the affinity was changed.
 */
static bool stay_off(const struct job_ctx *x, cpu_set_t *saved)
{
	cpu_set_t rest;

	if (sched_getaffinity(0, sizeof(*saved), saved))
		return false;
	rest = *saved;
	for (int i = 0; i < x->nr_clocks; i++)
		if (x->clock_cpu[i] >= 0 && x->clock_cpu[i] < CPU_SETSIZE)
			CPU_CLR(x->clock_cpu[i], &rest);
	if (!CPU_COUNT(&rest) || x->nr_clocks >= PB_MAX_CLOCKS)
		return false;
	return sched_setaffinity(0, sizeof(rest), &rest) == 0;
}

/* counters=cpu: one group per distinct planned CPU. */
static int cpu_groups(struct job_ctx *x, const int *cpus)
{
	x->group_cpu = calloc(x->nr_tasks, sizeof(int));
	if (!x->group_cpu)
		return -1;
	for (int i = 0; i < x->nr_tasks; i++) {
		int k;

		for (k = 0; k < x->nr_groups; k++)
			if (x->group_cpu[k] == cpus[i])
				break;
		if (k == x->nr_groups)
			x->group_cpu[x->nr_groups++] = cpus[i];
	}
	return 0;
}

void pb_run_job(const struct pb_topo *t, const struct pb_job *j,
		const struct pb_where *w, const struct pb_evlist *evl,
		const struct pb_nominal *nom, const struct pb_progress *pg,
		struct pb_result *r)
{
	const struct pb_bench *b = j->bench;
	struct job_ctx x = { .topo = t, .job = j, .bench = b, .progress = pg };
	const int *cpus = w->cpus;
	int nr_passes;
	double t0 = pb_mono_s();
	bool moved = false;
	cpu_set_t saved;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->job = j;
	r->evl = *evl;
	snprintf(r->placement, sizeof(r->placement), "%s", w->pl ? w->pl : "cpus");
	if (b->metric_for)
		b->metric_for(j->opts, &r->metric);
	else
		r->metric = b->metric;
	x.peer.fd = -1;
	x.hold_fd = -1;
	x.peer_addr = pb_job_get(j, "peer");
	x.peer_cpu = j->peer_cpu;
	x.nr_tasks = pb_plan_nr_cpus(j);
	if (w->n <= 0) {		/* the plan's: skipped here, or cannot run */
		r->status = w->n ? PB_FAILED : PB_SKIPPED;
		snprintf(r->reason, sizeof(r->reason), "%s", w->reason);
		goto out;
	}
	x.nr_groups = x.nr_tasks;
	if (j->counters_cpu) {
		x.nr_groups = 0;
		if (cpu_groups(&x, cpus))
			goto oom;
	}
	x.timing_pass = !evl->nr || !j->counting_inline;
	x.counts_first = pb_job_counts_first(j, evl);
	r->counts_first = x.counts_first;
	x.count_wins = x.timing_pass ? 1 : j->repeats;
	nr_passes = evl->nr ? max_passes(evl) : 0;
	x.nr_wins = pb_job_windows(j, evl);
	x.limit_s = j->timeout > 0 ? j->timeout : 3 * expected_s(&x, nr_passes) + 10;
	layout_compute(&x, b->latency);
	x.shm = pb_shm_alloc(x.lay.size);
	if (!x.shm)
		goto oom;
	hdr_of(&x)->evl = *evl;
	if (hdr_of(&x)->evl.nr_passes < 1)
		hdr_of(&x)->evl.nr_passes = 1;
	fill_tasks(&x, cpus);
	distinct_cpus(&x, cpus);
	x.nr_batches = pb_topo_core_batches(t, x.clock_cpu, x.nr_clocks, x.batch);
	probe_before(&x, r);
	for (int i = 0; i < x.nr_tasks; i++)
		slot_of(&x, i)->window = -1;
	if (b->latency)
		for (int i = 0; i < x.nr_tasks; i++)
			for (int w = 0; w < x.nr_wins; w++)
				pb_hist_init(hist_of(&x, i, w));
	fflush(NULL);
	moved = stay_off(&x, &saved);
	/*
	 * The job process's roles outlive it by a moment when it is killed
	 * (an interrupt, the watchdog): orphans come to us, not to init, and
	 * supervise() reaps them before it returns (not inherited by fork).
	 */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	pid = fork();
	if (pid < 0) {
		r->status = PB_FAILED;
		snprintf(r->reason, sizeof(r->reason), "fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		setpgid(0, 0);
		job_process(&x);
	}
	setpgid(pid, pid);
	supervise(&x, pid, r->placement, r);
	if (moved)
		sched_setaffinity(0, sizeof(saved), &saved);
	if (evl->nr && !x.counts_first)	/* else "after" had every counter closed */
		probe_closed(&x, r);
	collect(&x, r);
	job_checks(&x, nom, r);
	goto out;
oom:
	r->status = PB_FAILED;
	snprintf(r->reason, sizeof(r->reason), "out of memory");
out:
	r->wall_s = pb_mono_s() - t0;
	pb_shm_free(x.shm, x.lay.size);
	free(x.group_cpu);
}

void pb_result_free(struct pb_result *r)
{
	for (int i = 0; r->reps && i < r->nr_reps; i++) {
		free(r->reps[i].counts);
		free(r->reps[i].task_ops);
		free(r->reps[i].lat);
	}
	free(r->reps);
	free(r->tasks);
	free(r->group_names);
	free(r->clocks);
	free(r->profile);
	pb_anomalies_free(&r->anomalies);
	memset(r, 0, sizeof(*r));
}
