// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe.c - PMU-free frequency probe, nominal clock, observer loop.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

#include "sys/env.h"
#include "sys/probe.h"
#include "lib/clock.h"
#include "lib/util.h"

#define CHAIN_LEN	1000		/* instructions per loop iteration */
/*
 * A sample is 1e5 cycles, ~30 µs at 3 GHz: short next to the period of a
 * VM's own interruptions, unseen as steal or off-CPU time, so that a hit
 * sample is an outlier the median leaves out (doc/measurements.md: how
 * often samples of 1e6 and 1e5 cycles were hit on a guest).
 */
#define ADD_ITERS	100		/* 1e5 cycles */
#define IMUL_ITERS	33		/* 3 cycles each: ~1e5 cycles */
#define PROBE_WARMUP_NS	10e6		/* 10 ms of the add chain first */

/*
 * Run fn(arg) in a child process pinned to cpu (-1: unpinned), arg (size
 * bytes) copied to and from it through a shared mapping.  A process, not a
 * thread: with glibc, a process that ever created a thread (and every
 * process forked from it, job processes and roles included) takes the
 * cancellable path on every read and write; the main process must never
 * create one.  The child's thread and process CPU clocks are its own.
 * 0, or -1 with why ("Invalid argument", "killed by signal 9 (Killed)").
 */
struct pinned_run {
	pid_t	pid;
	size_t	size;
	/* arg holds the caller's struct (doubles): aligned as malloc would */
	struct pinned { int err; _Alignas(max_align_t) char arg[]; } *sh;
};

/* Start fn(arg) in its child: 0, or -1 with why (nothing left to wait for). */
static int pinned_start(struct pinned_run *pr, int cpu, void (*fn)(void *), const void *arg,
			size_t size, char *why, size_t len)
{
	cpu_set_t set;

	pr->pid = -1;
	pr->size = size;
	if (cpu >= CPU_SETSIZE) {
		snprintf(why, len, "%s", strerror(EINVAL));
		return -1;
	}
	pr->sh = mmap(NULL, sizeof(*pr->sh) + size, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pr->sh == MAP_FAILED) {
		snprintf(why, len, "mmap: %s", strerror(errno));
		return -1;
	}
	pr->sh->err = 0;
	memcpy(pr->sh->arg, arg, size);
	pr->pid = fork();
	if (pr->pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		munmap(pr->sh, sizeof(*pr->sh) + size);
		return -1;
	}
	if (pr->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (cpu >= 0) {
			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			if (sched_setaffinity(0, sizeof(set), &set)) {
				pr->sh->err = errno;
				_exit(1);
			}
		}
		fn(pr->sh->arg);
		_exit(0);
	}
	return 0;
}

/* Wait for a started child; its arg back into arg: 0, or -1 with why. */
static int pinned_wait(struct pinned_run *pr, void *arg, char *why, size_t len)
{
	int status = 0, rc = -1;
	pid_t w;

	while ((w = waitpid(pr->pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (w < 0)
		snprintf(why, len, "waitpid: %s", strerror(errno));
	else if (WIFSIGNALED(status))
		snprintf(why, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else if (WEXITSTATUS(status))
		snprintf(why, len, "%s", pr->sh->err ? strerror(pr->sh->err) :
			 "the child exited with an error");
	else {
		memcpy(arg, pr->sh->arg, pr->size);
		rc = 0;
	}
	munmap(pr->sh, sizeof(*pr->sh) + pr->size);
	return rc;
}

static int run_pinned(int cpu, void (*fn)(void *), void *arg, size_t size,
		      char *why, size_t len)
{
	struct pinned_run pr;

	if (pinned_start(&pr, cpu, fn, arg, size, why, len))
		return -1;
	return pinned_wait(&pr, arg, why, len);
}

struct probe_arg {
	int	cpu;
	bool	hot;		/* right after another probe of this CPU: no warm-up */
	int	ran_on;
	double	add_ns[PB_PROBE_SAMPLES], imul_ns[PB_PROBE_SAMPLES];
	double	wall_ns, cpu_ns;	/* over the samples */
};

static double thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

#if defined(__x86_64__)
bool pb_probe_available(void)
{
	return true;
}

static __attribute__((noinline)) uint64_t add_chain(uint64_t iters)
{
	uint64_t x = 0, one = 1;

	while (iters--)
		asm volatile(".rept 1000\n\taddq %1, %0\n\t.endr" : "+r"(x) : "r"(one));
	return x;
}

static __attribute__((noinline)) uint64_t imul_chain(uint64_t iters)
{
	uint64_t x = 1, one = 1;

	while (iters--)
		asm volatile(".rept 1000\n\timulq %1, %0\n\t.endr" : "+r"(x) : "r"(one));
	return x;
}

static double time_chain(uint64_t (*chain)(uint64_t), uint64_t iters)
{
	double t0 = pb_raw_ns();

	chain(iters);
	return pb_raw_ns() - t0;
}

static void probe_child(void *v)
{
	struct probe_arg *p = v;
	double t0, c0;
	int i;

	/* warm-up: caches, and the clock a busy CPU ramps to (as the job's will) */
	t0 = pb_raw_ns();
	while (!p->hot && pb_raw_ns() - t0 < PROBE_WARMUP_NS)
		time_chain(add_chain, ADD_ITERS);
	time_chain(add_chain, ADD_ITERS);
	time_chain(imul_chain, IMUL_ITERS);
	t0 = pb_raw_ns();
	c0 = thread_cpu_ns();
	for (i = 0; i < PB_PROBE_SAMPLES; i++) {
		p->add_ns[i] = time_chain(add_chain, ADD_ITERS);
		p->imul_ns[i] = time_chain(imul_chain, IMUL_ITERS);
	}
	p->cpu_ns = thread_cpu_ns() - c0;
	p->wall_ns = pb_raw_ns() - t0;
	p->ran_on = sched_getcpu();
}

static int nominal_cpuid(double *mhz)
{
	unsigned int a, b, c, d;

	if (__get_cpuid_max(0, NULL) < 0x16)
		return -1;
	__cpuid_count(0x16, 0, a, b, c, d);
	(void)b;
	(void)c;
	(void)d;
	if (!(a & 0xffff))
		return -1;
	*mhz = a & 0xffff;
	return 0;
}

static int nominal_tsc(double *mhz)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	double t0, t1, c0, c1;

	c0 = __rdtsc();
	t0 = pb_raw_ns();
	c0 = (c0 + __rdtsc()) / 2;
	nanosleep(&ts, NULL);
	c1 = __rdtsc();
	t1 = pb_raw_ns();
	c1 = (c1 + __rdtsc()) / 2;
	if (t1 <= t0 || c1 <= c0)
		return -1;
	*mhz = (c1 - c0) / (t1 - t0) * 1000;
	return 0;
}
#else
bool pb_probe_available(void)
{
	return getenv(PB_PROBE_ENV) != NULL;
}

static void probe_child(void *v)
{
	struct probe_arg *p = v;

	p->ran_on = sched_getcpu();
}

static int nominal_cpuid(double *mhz)
{
	(void)mhz;
	return -1;
}

static int nominal_tsc(double *mhz)
{
	(void)mhz;
	return -1;
}
#endif

/* ---- summaries ---- */

/* The median and quartiles of v[n] (sorted in place). */
static double quartiles(double *v, int n, double *q25, double *q75)
{
	qsort(v, n, sizeof(*v), pb_cmp_double);
	*q25 = v[n / 4];
	*q75 = v[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1];
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void pb_probe_summarise(struct pb_probe *p, const double *add_mhz, const double *imul_mhz,
			int n, double off_cpu, double steal_irq)
{
	double a[PB_PROBE_SAMPLES], m[PB_PROBE_SAMPLES], q25, q75, iq25, iq75;

	if (n > PB_PROBE_SAMPLES)
		n = PB_PROBE_SAMPLES;
	p->nr_samples = n;
	if (n <= 0) {
		p->mhz = p->add_mhz = p->imul_mhz = 0;
		return;
	}
	memcpy(a, add_mhz, n * sizeof(*a));
	memcpy(m, imul_mhz, n * sizeof(*m));
	p->add_mhz = quartiles(a, n, &q25, &q75);
	p->imul_mhz = quartiles(m, n, &iq25, &iq75);
	p->mhz = p->add_mhz;
	p->spread = fabs(p->add_mhz - p->imul_mhz) / fmax(p->add_mhz, p->imul_mhz);
	p->disp = p->add_mhz > 0 ? (q75 - q25) / p->add_mhz : 0;
	p->off_cpu = off_cpu > 0 ? off_cpu : 0;
	p->steal_irq = steal_irq > 0 ? steal_irq : 0;
	p->disturbed = p->disp > PB_PROBE_DISP_MAX || p->off_cpu > PB_PROBE_OFF_MAX ||
		       p->steal_irq > PB_PROBE_OFF_MAX;
}

void pb_probe_why(const struct pb_probe *p, char *buf, size_t len)
{
	snprintf(buf, len, "%d samples disagree by %.1f %% (IQR/median), %.1f %% of its "
		 "%.0f ms off the CPU, %.1f %% steal+irq", p->nr_samples, 100 * p->disp,
		 100 * p->off_cpu, 1000 * p->wall_s, 100 * p->steal_irq);
}

/* ---- injected readings (the test seam) ---- */

static struct {
	bool			loaded;
	int			nr;
	struct pb_inject_line	line[PB_INJECT_MAX];
	int			*used;	/* shared: forked job processes consume too */
	char			err[160];
} inj;

static int parse_fraction(const char *tok, const char *key, double *v)
{
	size_t k = strlen(key);
	char *end;

	if (strncmp(tok, key, k))
		return 0;
	*v = strtod(tok + k, &end);
	return *end || end == tok + k || *v < 0 || *v > 1 ? -1 : 1;
}

static int parse_inject_line(char *s, struct pb_inject_line *l)
{
	char *colon = strchr(s, ':'), *tok, *save = NULL;

	memset(l, 0, sizeof(*l));
	if (!colon)
		return -1;
	*colon = '\0';
	while (*s == ' ' || *s == '\t')
		s++;
	if (!strcmp(s, "*") || !strcmp(s, "* "))
		l->cpu = -1;
	else if (sscanf(s, "%d", &l->cpu) != 1 || l->cpu < 0)
		return -1;
	for (tok = strtok_r(colon + 1, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		char *end;
		int r = parse_fraction(tok, "off=", &l->off_cpu);

		if (!r)
			r = parse_fraction(tok, "steal=", &l->steal_irq);
		if (r < 0)
			return -1;
		if (r)
			continue;
		if (l->n == PB_PROBE_SAMPLES)
			return -1;
		l->mhz[l->n] = strtod(tok, &end);
		if (*end || end == tok || l->mhz[l->n] <= 0)
			return -1;
		l->n++;
	}
	return l->n ? 0 : -1;
}

int pb_probe_inject_parse(const char *text, struct pb_inject_line *out, int max,
			  char *err, size_t len)
{
	char line[1024];
	int nr = 0, lineno = 0;

	while (*text) {
		size_t n = strcspn(text, "\n");

		lineno++;
		snprintf(line, sizeof(line), "%.*s", (int)n, text);
		text += n + (text[n] == '\n');
		line[strcspn(line, "#")] = '\0';
		if (!line[strspn(line, " \t")])
			continue;
		if (nr == max) {
			snprintf(err, len, "line %d: more than %d probes", lineno, max);
			return -1;
		}
		if (parse_inject_line(line, &out[nr])) {
			snprintf(err, len, "line %d: not \"CPU: MHZ ... [off=F] [steal=F]\"",
				 lineno);
			return -1;
		}
		nr++;
	}
	return nr;
}

/* Load $PINBENCH_PROBE_FILE once.  1 injected, 0 not, -1 broken (inj.err). */
static int inject_load(void)
{
	const char *path = getenv(PB_PROBE_ENV);
	char *text = NULL;
	size_t cap = 0;
	ssize_t got;
	FILE *f;
	char e[128];

	if (!path || !*path)
		return 0;
	if (inj.loaded)
		return inj.err[0] ? -1 : 1;
	inj.loaded = true;
	f = fopen(path, "r");
	if (!f) {
		snprintf(inj.err, sizeof(inj.err), "%s: %s", path, strerror(errno));
		return -1;
	}
	got = getdelim(&text, &cap, '\0', f);
	fclose(f);
	inj.nr = got < 0 ? 0 : pb_probe_inject_parse(text, inj.line, PB_INJECT_MAX, e, sizeof(e));
	free(text);
	if (inj.nr < 0) {
		snprintf(inj.err, sizeof(inj.err), "%s %s", path, e);
		return -1;
	}
	inj.used = mmap(NULL, PB_INJECT_MAX * sizeof(int), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (inj.used == MAP_FAILED) {
		inj.used = NULL;
		snprintf(inj.err, sizeof(inj.err), "mmap: %s", strerror(errno));
		return -1;
	}
	return 1;
}

int pb_probe_inject_check(char *err, size_t len)
{
	if (inject_load() >= 0)
		return 0;
	snprintf(err, len, "$%s: %s", PB_PROBE_ENV, inj.err);
	return -1;
}

/* The next injected line for cpu (its own lines, else "*" lines); NULL when none. */
static const struct pb_inject_line *inject_next(int cpu)
{
	const struct pb_inject_line *last = NULL;

	for (int pass = 0; pass < 2 && !last; pass++) {
		int want = pass ? -1 : cpu;

		for (int i = 0; i < inj.nr; i++) {
			if (inj.line[i].cpu != want)
				continue;
			last = &inj.line[i];
			if (!__atomic_exchange_n(&inj.used[i], 1, __ATOMIC_ACQ_REL))
				return last;
		}
	}
	return last;	/* exhausted: the last reading sticks */
}

static int probe_injected(int cpu, struct pb_probe *p, char *err, size_t len)
{
	const struct pb_inject_line *l = inject_next(cpu);

	if (!l) {
		snprintf(err, len, "probe on cpu %d: no reading for it in $%s", cpu, PB_PROBE_ENV);
		return -1;
	}
	pb_probe_summarise(p, l->mhz, l->mhz, l->n, l->off_cpu, l->steal_irq);
	p->wall_s = l->n * 2e6 / p->mhz / 1e6;	/* what the chains would have taken */
	return 0;
}

/* ---- probing ---- */

/* Steal + irq + softirq of cpu, in ns (0 when /proc/stat is unreadable). */
static double steal_irq_ns(int cpu)
{
	struct pb_cpustat s;

	if (cpu < 0 || pb_cpustat_snapshot(&cpu, 1, &s) || !s.known)
		return 0;
	return (double)s.steal_ns + s.irq_ns;
}

/* The figures of a finished probe of cpu, from its child's samples. */
static int probe_finish(int cpu, const struct probe_arg *arg, double si0, struct pb_probe *p,
			char *err, size_t len)
{
	double add[PB_PROBE_SAMPLES], imul[PB_PROBE_SAMPLES];

	if (cpu >= 0 && arg->ran_on != cpu) {
		snprintf(err, len, "probe pinned to cpu %d ran on cpu %d", cpu, arg->ran_on);
		return -1;
	}
	for (int i = 0; i < PB_PROBE_SAMPLES; i++) {
		add[i] = (double)ADD_ITERS * CHAIN_LEN / arg->add_ns[i] * 1000;
		imul[i] = 3.0 * IMUL_ITERS * CHAIN_LEN / arg->imul_ns[i] * 1000;
	}
	pb_probe_summarise(p, add, imul, PB_PROBE_SAMPLES,
			   arg->wall_ns > 0 ? 1 - arg->cpu_ns / arg->wall_ns : 0,
			   arg->wall_ns > 0 ? (steal_irq_ns(cpu) - si0) / arg->wall_ns : 0);
	p->wall_s = arg->wall_ns / 1e9;
	return 0;
}

/* 1: probe for real; 0: injected readings (done); -1: error (in err). */
static int probe_begin(int cpu, struct pb_probe *p, char *err, size_t len)
{
	int r;

	memset(p, 0, sizeof(*p));
	p->cpu = cpu;
	r = inject_load();
	if (r < 0) {
		snprintf(err, len, "injected probe readings: %s", inj.err);
		return -1;
	}
	if (r > 0)
		return probe_injected(cpu, p, err, len) ? -1 : 0;
	if (!pb_probe_available()) {
		snprintf(err, len, "no frequency probe on this architecture");
		return -1;
	}
	return 1;
}

int pb_probe_cpu(int cpu, struct pb_probe *p, char *err, size_t len)
{
	struct probe_arg arg = { .cpu = cpu, .ran_on = -1 };
	int r = probe_begin(cpu, p, err, len);
	char why[96];
	double si0;

	if (r <= 0)
		return r;
	si0 = steal_irq_ns(cpu);
	if (run_pinned(cpu, probe_child, &arg, sizeof(arg), why, sizeof(why))) {
		snprintf(err, len, "probe on cpu %d: %s", cpu, why);
		return -1;
	}
	return probe_finish(cpu, &arg, si0, p, err, len);
}

static void probe_cpus(const int *cpu, int n, struct pb_probe *p, int *rc, bool hot)
{
	size_t k = n > 0 ? n : 1;
	struct probe_arg *arg = calloc(k, sizeof(*arg));
	struct pinned_run *pr = calloc(k, sizeof(*pr));
	double *si0 = calloc(k, sizeof(*si0));
	char why[96], err[128];

	if (!arg || !pr || !si0 || inject_load() || !pb_probe_available()) {
		/* injected readings (the test seam), an error, no memory: in turn */
		for (int i = 0; i < n; i++)
			rc[i] = pb_probe_cpu(cpu[i], &p[i], err, sizeof(err));
		goto out;
	}
	for (int i = 0; i < n; i++) {
		memset(&p[i], 0, sizeof(p[i]));
		p[i].cpu = cpu[i];
		rc[i] = -1;
		arg[i] = (struct probe_arg){ .cpu = cpu[i], .hot = hot, .ran_on = -1 };
		si0[i] = steal_irq_ns(cpu[i]);
		if (pinned_start(&pr[i], cpu[i], probe_child, &arg[i], sizeof(arg[i]), why,
				 sizeof(why)))
			pr[i].pid = -1;
	}
	for (int i = 0; i < n; i++)
		if (pr[i].pid > 0 && !pinned_wait(&pr[i], &arg[i], why, sizeof(why)))
			rc[i] = probe_finish(cpu[i], &arg[i], si0[i], &p[i], err, sizeof(err));
out:
	free(si0);
	free(pr);
	free(arg);
}

void pb_probe_cpus(const int *cpu, int n, struct pb_probe *p, int *rc)
{
	probe_cpus(cpu, n, p, rc, false);
}

void pb_probe_cpus_again(const int *cpu, int n, struct pb_probe *p, int *rc)
{
	probe_cpus(cpu, n, p, rc, true);
}

json_t *pb_probe_json(const struct pb_probe *p)
{
	return json_pack("{s:i,s:f,s:f,s:f,s:f,s:i,s:f,s:f,s:f,s:f,s:b}", "cpu", p->cpu,
			 "mhz", p->mhz, "add_mhz", p->add_mhz, "imul_mhz", p->imul_mhz,
			 "spread", p->spread, "samples", p->nr_samples, "dispersion", p->disp,
			 "off_cpu", p->off_cpu, "steal_irq", p->steal_irq, "wall_s", p->wall_s,
			 "disturbed", p->disturbed);
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

void pb_probe_confirm_cpus(const int *cpu, int n, struct pb_confirm *c)
{
	double (*clean)[PB_CONFIRM_PROBES] = calloc(n > 0 ? n : 1, sizeof(*clean));
	struct pb_probe *p = calloc(n > 0 ? n : 1, sizeof(*p));
	int *rc = calloc(n > 0 ? n : 1, sizeof(*rc));
	double t0 = pb_raw_ns();

	memset(c, 0, n * sizeof(*c));
	if (!clean || !p || !rc)
		goto out;
	for (int k = 0; k < PB_CONFIRM_PROBES; k++) {
		if (k)
			sleep_s(PB_CONFIRM_SPAN_S / (PB_CONFIRM_PROBES - 1));
		pb_probe_cpus(cpu, n, p, rc);
		for (int i = 0; i < n; i++) {
			c[i].mhz[c[i].nr++] = rc[i] ? 0 : p[i].mhz;
			if (!rc[i] && p[i].mhz > 0 && !p[i].disturbed)
				clean[i][c[i].nr_clean++] = p[i].mhz;
		}
	}
	for (int i = 0; i < n; i++) {
		double q25, q75;

		c[i].span_s = (pb_raw_ns() - t0) / 1e9;
		if (c[i].nr_clean < 3)
			continue;
		c[i].median = quartiles(clean[i], c[i].nr_clean, &q25, &q75);
		c[i].lo = clean[i][0];		/* sorted by quartiles() */
		c[i].hi = clean[i][c[i].nr_clean - 1];
	}
out:
	free(rc);
	free(p);
	free(clean);
}

static json_t *pb_confirm_json(const struct pb_confirm *c)
{
	json_t *v = json_array();

	for (int i = 0; i < c->nr; i++)
		json_array_append_new(v, c->mhz[i] > 0 ? json_real(c->mhz[i]) : json_null());
	return json_pack("{s:o,s:i,s:o,s:f}", "mhz", v, "undisturbed", c->nr_clean,
			 "median_mhz", c->median > 0 ? json_real(c->median) : json_null(),
			 "span_s", c->span_s);
}

/* ---- nominal ---- */

int pb_nominal_from_model(const char *model, double *mhz)
{
	const char *at = strrchr(model, '@');
	char *end;
	double v;

	if (!at)
		return -1;
	v = strtod(at + 1, &end);
	if (end == at + 1 || v <= 0)
		return -1;
	while (*end == ' ')
		end++;
	if (!strncasecmp(end, "GHz", 3))
		*mhz = v * 1000;
	else if (!strncasecmp(end, "MHz", 3))
		*mhz = v;
	else
		return -1;
	return 0;
}

/* "model name" of /proc/cpuinfo, and whether the TSC is constant */
static void cpuinfo_facts(char *model, size_t len, bool *constant_tsc, bool *guest)
{
	char flags[8192];
	bool have;

	if (pb_cpuinfo_field("model name", model, len))
		model[0] = '\0';
	have = !pb_cpuinfo_field("flags", flags, sizeof(flags));
	*constant_tsc = have && pb_cpuinfo_flag(flags, "constant_tsc");
	*guest = have && pb_cpuinfo_flag(flags, "hypervisor");
}

static void set_nominal(struct pb_nominal *n, double mhz, const char *src)
{
	n->mhz = mhz;
	snprintf(n->source, sizeof(n->source), "%s", src);
}

int pb_nominal_detect(int cpu, struct pb_nominal *n)
{
	char model[256];
	bool constant_tsc;
	double mhz;
	long khz;

	set_nominal(n, 0, "unknown");
	cpuinfo_facts(model, sizeof(model), &constant_tsc, &n->guest);
	if (!pb_sys_read_long(&khz, "/sys/devices/system/cpu/cpu%d/cpufreq/base_frequency",
			      cpu < 0 ? 0 : cpu) && khz > 0) {
		set_nominal(n, khz / 1000.0, "base_frequency");
		return 0;
	}
	if (!pb_nominal_from_model(model, &mhz)) {
		set_nominal(n, mhz, "model-name");
		return 0;
	}
	if (!nominal_cpuid(&mhz)) {
		set_nominal(n, mhz, "cpuid-0x16");
		return 0;
	}
	if (constant_tsc && !nominal_tsc(&mhz)) {
		set_nominal(n, round(mhz), "tsc");
		return 0;
	}
	return -1;
}

json_t *pb_nominal_json(const struct pb_nominal *n)
{
	return json_pack("{s:o,s:s,s:b}", "mhz", n->mhz > 0 ? json_real(n->mhz) : json_null(),
			 "source", n->source, "guest", n->guest);
}

static json_t *jmhz(double mhz)
{
	return mhz > 0 ? json_real(mhz) : json_null();
}

json_t *pb_clock_obs_json(const struct pb_clock_obs *o)
{
	static const char *const when[] = { "before", "after", "closed" };
	const struct pb_probe *p[] = { &o->before, &o->after, &o->closed };
	json_t *dist = json_array();

	for (int i = 0; i < 3; i++)
		if (p[i]->mhz > 0 && p[i]->disturbed)
			json_array_append_new(dist, json_string(when[i]));
	return json_pack("{s:i,s:o,s:o,s:o,s:o,s:o}", "cpu", o->cpu,
			 "before_mhz", jmhz(o->before.mhz), "after_mhz", jmhz(o->after.mhz),
			 "closed_mhz", jmhz(o->closed.mhz), "disturbed", dist,
			 "reprobe", o->confirm.nr ? pb_confirm_json(&o->confirm) : json_null());
}

/* ---- observer effect ---- */

struct observer_arg {
	double	best_ns;
	int	ran_on;
};

static void observer_child(void *v)
{
	struct observer_arg *o = v;
	int run, i;

	o->best_ns = INFINITY;
	for (run = 0; run < PB_OBSERVER_RUNS; run++) {
		double t0 = thread_cpu_ns();	/* time preempted by others is not the loop's */

		for (i = 0; i < PB_OBSERVER_CALLS; i++)
			syscall(SYS_getppid);
		o->best_ns = fmin(o->best_ns, thread_cpu_ns() - t0);
	}
	o->ran_on = sched_getcpu();
}

int pb_observer_time(int cpu, double *seconds, char *err, size_t len)
{
	struct observer_arg o = { .ran_on = -1 };
	char why[96];

	if (run_pinned(cpu, observer_child, &o, sizeof(o), why, sizeof(why))) {
		snprintf(err, len, "reference loop on cpu %d: %s", cpu, why);
		return -1;
	}
	if (cpu >= 0 && o.ran_on != cpu) {
		snprintf(err, len, "reference loop pinned to cpu %d ran on cpu %d", cpu, o.ran_on);
		return -1;
	}
	*seconds = o.best_ns / 1e9;
	return 0;
}

int pb_observer_confirm(int cpu, double *again, int nr, double step_s, double enough_s)
{
	char err[128];
	int ok = 0;

	for (int i = 0; i < nr; i++) {
		if (i)
			sleep_s(step_s);
		if (pb_observer_time(cpu, &again[ok], err, sizeof(err)))
			continue;
		if (again[ok++] <= enough_s)
			break;
	}
	return ok;
}
