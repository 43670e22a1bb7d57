// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_run.c - `pinbench run` and `pinbench bench`: options, printing, exit codes;
 * the run itself is core/execute.c's.
 *
 * Everything a user can get wrong (options, job files, event names,
 * limits, cpus=, the results folder) is checked before anything runs, by
 * --dry-run too: exit 2 with a message.  Then
 * every job runs at every placement; a failed job does not stop the
 * others; results are saved atomically, one file per job file.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cli/cmds.h"
#include "cli/say.h"
#include "cli/opts.h"
#include "core/plan.h"
#include "net/proto.h"
#include "sys/cpulock.h"
#include "checks/envcheck.h"
#include "checks/clockcheck.h"
#include "core/execute.h"
#include "report/result.h"
#include "report/save.h"
#include "lib/schema.h"
#include "lib/clock.h"
#include "lib/util.h"

struct run_opts {
	const char	*outdir;
	bool		json;
	bool		quiet;
	bool		dry_run;
	bool		wait;		/* for CPUs another process holds */
	const char	*wait_timeout;	/* --wait-timeout, or NULL */
	double		wait_s;		/* how long --wait waits at most */
	const char	*label;
	const char	*topology;
	const char	*seed;		/* --seed, or NULL: one is drawn */
	unsigned long	seed_value;
	struct pb_kv	*over;
	int		nr_over;
	char		*cmdline;
	char		kernel[65];
};

static const char run_help[] =
"usage: pinbench run [OPTIONS] JOBFILE...\n"
"       pinbench bench NAME [KEY=VALUE...] [OPTIONS]\n"
"\n"
"  -o, --output DIR       results folder (default results/); files go to\n"
"                         DIR/<label>/<UTC timestamp>-<job file>.json\n"
"      --format text|json what goes to stdout (default text)\n"
"      --rounds N         override rounds=: run the job file N times, round 1 of\n"
"                         every job and placement, then round 2, ..., each\n"
"                         round in an order shuffled with the run's seed\n"
"      --seed N           the seed of that shuffle (default: drawn, and saved)\n"
"      --repeats N        override repeats= of every job\n"
"      --duration SEC     override duration= (seconds per repeat, may be fractional)\n"
"      --warmup SEC       override warmup=\n"
"      --placement LIST   override placement= (e.g. same-cpu,same-socket)\n"
"      --set KEY=VALUE    override any job key (repeatable)\n"
"      --events LIST      counter events (libpfm4 names, software events, tracepoints)\n"
"      --peer HOST[:PORT] override peer=: the server role runs on that `pinbench server`\n"
"      --label TEXT       label of this run (default: the kernel release)\n"
"      --topology SPEC    plan on an hwloc synthetic description or XML file;\n"
"                         only with --dry-run (workloads run on this machine only)\n"
"      --dry-run          check everything a run checks first (job files, events,\n"
"                         cpus=, results folder) and print the plan; run nothing\n"
"      --wait             when another process holds a job's CPU locks (another\n"
"                         pinbench measuring), wait for it, at most 10 minutes;\n"
"                         still held then, the job fails naming the holder\n"
"                         (default: warn, run, and mark the job S)\n"
"      --wait-timeout SEC --wait, at most SEC seconds (0.1..604800)\n"
"  -q, --quiet            nothing on stdout but what --format json asks for: no\n"
"                         progress line, no tables, no results path (the file\n"
"                         is still saved; errors and warnings still on stderr)\n"
"  -h, --help             this text\n"
"\nexit: 0 every job ok or skipped, 1 some job failed, 2 usage or job-file error\n";

/*
 * A job key set from the command line: 0, or -1 (said) when a word or an
 * option before it set the same key (job files refuse a key twice too).
 */
static int add_over(struct run_opts *o, const char *cmd, const char *key, const char *val,
		    const char *origin)
{
	struct pb_kv *kv;

	for (int i = 0; i < o->nr_over; i++) {
		if (strcmp(o->over[i].key, key))
			continue;
		if (strcmp(o->over[i].origin, origin))
			pb_say(stderr, "pinbench %s: %s= given twice (%s, then %s): give it "
			       "once\n", cmd, key, o->over[i].origin, origin);
		else
			pb_say(stderr, "pinbench %s: %s= given twice (%s): give it once\n", cmd,
			       key, origin);
		return -1;
	}
	kv = realloc(o->over, (o->nr_over + 1) * sizeof(*kv));
	if (!kv)
		abort();
	o->over = kv;
	kv[o->nr_over].key = strdup(key);
	kv[o->nr_over].val = strdup(val);
	kv[o->nr_over].origin = strdup(origin);
	kv[o->nr_over].line = 0;
	o->nr_over++;
	return 0;
}

static void free_opts(struct run_opts *o)
{
	for (int i = 0; i < o->nr_over; i++) {
		free(o->over[i].key);
		free(o->over[i].val);
		free(o->over[i].origin);
	}
	free(o->over);
	free(o->cmdline);
}

/* KEY=VALUE into an override; -1 when there is no '=' (not said), -2 a repeat (said). */
static int add_kv_arg(struct run_opts *o, const char *cmd, const char *arg, const char *origin)
{
	const char *eq = strchr(arg, '=');
	char key[128];

	if (!eq || eq == arg || eq - arg >= (int)sizeof(key))
		return -1;
	snprintf(key, sizeof(key), "%.*s", (int)(eq - arg), arg);
	return add_over(o, cmd, key, eq + 1, origin) ? -2 : 0;
}

static char *join_args(int argc, char **argv)
{
	size_t n = 16;
	char *s;

	for (int i = 0; i < argc; i++)
		n += strlen(argv[i]) + 1;
	s = calloc(1, n);
	if (!s)
		return NULL;
	snprintf(s, n, "pinbench");
	for (int i = 0; i < argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* What the option handlers of run and bench need. */
struct run_ctx {
	struct run_opts	*o;
	const char	*cmd;	/* "run" or "bench", for the messages */
};

static int opt_format(void *ctx, const struct pb_opt *opt, const char *arg)
{
	struct run_ctx *x = ctx;

	(void)opt;
	if (strcmp(arg, "text") && strcmp(arg, "json")) {
		pb_say(stderr, "pinbench %s: --format: '%s' is not text or json\n", x->cmd, arg);
		return PB_OPTS_FAILED;
	}
	x->o->json = !strcmp(arg, "json");
	return PB_OPTS_OK;
}

/* --repeats, --duration, --warmup, --placement, --events, --peer: the job key */
static int opt_over(void *ctx, const struct pb_opt *opt, const char *arg)
{
	struct run_ctx *x = ctx;
	char origin[32];

	if (!strcmp(opt->name, "events") && !*arg) {
		pb_say(stderr, "pinbench %s: --events '': empty (leave it out for the default "
		       "set, or give none)\n", x->cmd);
		return PB_OPTS_FAILED;
	}
	snprintf(origin, sizeof(origin), "--%s", opt->name);
	return add_over(x->o, x->cmd, opt->name, arg, origin) ? PB_OPTS_FAILED : PB_OPTS_OK;
}

static int opt_set(void *ctx, const struct pb_opt *opt, const char *arg)
{
	struct run_ctx *x = ctx;

	(void)opt;
	switch (add_kv_arg(x->o, x->cmd, arg, "--set")) {
	case 0:
		return PB_OPTS_OK;
	case -1:
		pb_say(stderr, "pinbench %s: --set '%s': expected KEY=VALUE\n", x->cmd, arg);
		break;
	}
	return PB_OPTS_FAILED;
}

/* --seed: 0 and *seed set, or -1 when it is not a number 0..2^32-1. */
static int seed_parse(const char *s, unsigned long *seed)
{
	long v;

	if (*s == '-' || *s == '+' || pb_parse_long(s, 0, 0xffffffffL, &v))
		return -1;
	*seed = (unsigned long)v;
	return 0;
}

/* --wait's limit when --wait-timeout does not say: a run of a few jobs */
#define WAIT_DEFAULT_S	600.0
#define WAIT_MAX_S	604800.0	/* a week */

/*
 * --wait-timeout: 0 and *s set, or -1 unless it is decimal seconds
 * ("90", "0.5"; no sign, exponent, hex or spaces) in 0.1..WAIT_MAX_S.
 */
static int wait_parse(const char *arg, double *s)
{
	size_t n = strspn(arg, "0123456789");
	char *end;

	if (!n || (arg[n] && (arg[n] != '.' || !arg[n + 1] ||
			      arg[n + 1 + strspn(arg + n + 1, "0123456789")])))
		return -1;
	*s = strtod(arg, &end);
	return *end || !(*s >= 0.1 && *s <= WAIT_MAX_S) ? -1 : 0;
}

/* Returns -1 to go on, or an exit code. */
static int parse_run_opts(int argc, char **argv, struct run_opts *o, const char *cmd)
{
	const struct pb_opt t[] = {
		{ "output", 'o', PB_ARG_PATH, NULL, &o->outdir, NULL },
		{ "format", 0, true, NULL, NULL, opt_format },
		{ "rounds", 0, true, NULL, NULL, opt_over },
		{ "seed", 0, true, NULL, &o->seed, NULL },
		{ "repeats", 0, true, NULL, NULL, opt_over },
		{ "duration", 0, true, NULL, NULL, opt_over },
		{ "warmup", 0, true, NULL, NULL, opt_over },
		{ "placement", 0, true, NULL, NULL, opt_over },
		{ "set", 0, PB_ARG_MULTI, NULL, NULL, opt_set },
		{ "events", 0, true, NULL, NULL, opt_over },
		{ "peer", 0, true, NULL, NULL, opt_over },
		{ "label", 0, true, NULL, &o->label, NULL },
		{ "topology", 0, PB_ARG_PATH, NULL, &o->topology, NULL },
		{ "dry-run", 0, false, &o->dry_run, NULL, NULL },
		{ "wait", 0, false, &o->wait, NULL, NULL },
		{ "wait-timeout", 0, true, NULL, &o->wait_timeout, NULL },
		{ "quiet", 'q', false, &o->quiet, NULL, NULL },
		{ "help", 'h', false, NULL, NULL, pb_opt_help },
	};
	struct run_ctx x = { .o = o, .cmd = cmd };
	char err[PB_LABEL_MAX + 200];
	struct utsname u;

	memset(o, 0, sizeof(*o));
	o->outdir = "results";
	uname(&u);
	snprintf(o->kernel, sizeof(o->kernel), "%s", u.release);
	o->label = o->kernel;
	o->cmdline = join_args(argc, argv);
	switch (pb_opts_parse(argc, argv, "", t, PB_OPTS_N(t), &x, NULL)) {
	case PB_OPTS_OK:
		break;
	case PB_OPTS_HELP:
		fputs(run_help, stdout);
		return 0;
	case PB_OPTS_USAGE:
		pb_say(stderr, "pinbench %s: see 'pinbench %s --help'\n", cmd, cmd);
		return 2;
	default:
		return 2;
	}
	o->seed_value = ((unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16)) &
			0xffffffffUL;
	if (o->seed && seed_parse(o->seed, &o->seed_value)) {
		pb_say(stderr, "pinbench %s: --seed '%s': want a whole number 0..4294967295\n",
			cmd, o->seed);
		return 2;
	}
	o->wait_s = WAIT_DEFAULT_S;
	if (o->wait_timeout && wait_parse(o->wait_timeout, &o->wait_s)) {
		pb_say(stderr, "pinbench %s: --wait-timeout '%s': want seconds, a decimal "
		       "number 0.1..604800\n", cmd, o->wait_timeout);
		return 2;
	}
	o->wait |= o->wait_timeout != NULL;
	if (pb_label_check(o->label, err, sizeof(err))) {
		pb_say(stderr, "pinbench %s: %s %s\n", cmd, o->label == o->kernel ?
			"the default label (uname -r)" : "--label", err);
		return 2;
	}
	return -1;
}

static void on_signal(int sig)
{
	(void)sig;
	pb_interrupted = 1;
}

/* Where a job's key was set: "FILE:LINE", "--events", or "default". */
static void key_origin(const struct pb_job *j, const char *key, char *buf, size_t len)
{
	for (int i = 0; i < j->nr_kv; i++) {
		const struct pb_kv *kv = &j->kv[i];

		if (strcmp(kv->key, key))
			continue;
		if (kv->line > 0)
			snprintf(buf, len, "%s:%d", kv->origin, kv->line);
		else
			snprintf(buf, len, "%s", kv->origin);
		return;
	}
	snprintf(buf, len, "%s:%d", j->file ? j->file : "command line", j->line);
}

/*
 * System wide (counters=cpu) task-clock counts nothing: no task context.
 * What perf stat -a shows instead is cpu-clock.
 */
static void cpu_clock_for_task_clock(struct pb_evlist *l)
{
	for (int e = 0; e < l->nr; e++) {
		struct pb_event *ev = &l->ev[e];

		if (strcmp(ev->name, "task-clock") || ev->attr.type != PERF_TYPE_SOFTWARE)
			continue;
		ev->attr.config = PERF_COUNT_SW_CPU_CLOCK;
		snprintf(ev->name, sizeof(ev->name), "cpu-clock");
	}
}

/* Event names are checked before anything runs (limits: by the job loader). */
static int check_jobs(struct pb_jobset *js, struct pb_evlist *evl)
{
	char err[PB_ERR_MAX], where[PATH_MAX];

	for (int i = 0; i < js->nr; i++) {
		const struct pb_job *j = &js->jobs[i];

		if (pb_evlist_build(&evl[i], j->events, err, sizeof(err))) {
			key_origin(j, "events", where, sizeof(where));
			pb_say(stderr, "pinbench: %s: job '%s': events: %s\n", where, j->name, err);
			return 2;
		}
		if (j->counters_cpu)
			cpu_clock_for_task_clock(&evl[i]);
	}
	return 0;
}

/*
 * cpus= naming a CPU pinbench cannot use here is an error, not a skip: a
 * typo in a nightly job file must not pass as ok.  "Here" is what the
 * topology offers: this machine's CPUs that pinbench's affinity and
 * cpuset allow (under `taskset -c 0`, only CPU 0), or --topology's.
 */
static int check_cpus(const struct pb_topo *t, const struct pb_jobset *js)
{
	char where[PATH_MAX], allowed[256];

	for (int i = 0; i < js->nr; i++) {
		const struct pb_job *j = &js->jobs[i];

		for (int k = 0; !j->nr_placements && k < j->nr_cpus; k++) {
			int cpu = j->cpus[k];

			if (pb_topo_has_cpu(t, cpu))
				continue;
			key_origin(j, "cpus", where, sizeof(where));
			pb_topo_cpus_text(t, allowed, sizeof(allowed));
			pb_say(stderr, "pinbench: %s: job '%s': cpus: CPU %d is not available to "
				"pinbench (%s; allowed: %s)\n", where, j->name, cpu,
				pb_topo_cpu_exists(t, cpu) ? "offline, or outside its CPU affinity "
				"or cpuset" : "no such CPU", allowed);
			return 2;
		}
	}
	return 0;
}

/* DIR/<label> is a symlink (planted, maybe): nothing is written through it. */
static int label_is_link(const struct run_opts *o, const char *dir)
{
	pb_say(stderr, "pinbench: -o %s: %s is a symbolic link: results are not written "
	       "through one (remove it, or choose another --label)\n", o->outdir, dir);
	return 2;
}

/*
 * The results folder DIR/<label>: a real run creates it before anything
 * runs (so that a run never ends unable to save); --dry-run leaves nothing
 * behind but checks that it could: in the deepest folder that exists, a
 * folder can be made (and is removed at once).  DIR/<label> must not be a
 * symlink (the saves open it without following one, too).
 */
static int check_outdir(const struct run_opts *o)
{
	char dir[PATH_MAX], probe[PATH_MAX + 32], *slash;
	struct stat st;
	int e, fd;

	/* room for "/<timestamp>-<job file, 127 at most>-999.json" (struct saver) */
	if (snprintf(dir, sizeof(dir), "%s/%s", o->outdir, o->label) >=
	    (int)sizeof(dir) - 300) {
		pb_say(stderr, "pinbench: -o %s: path too long\n", o->outdir);
		return 2;
	}
	if (!o->dry_run) {
		fd = pb_mkdirs(o->outdir) ? -1 : pb_subdir_open(o->outdir, o->label);
		if (fd < 0 && errno == ELOOP)
			return label_is_link(o, dir);
		if (fd < 0) {
			e = errno;
			pb_say(stderr, "pinbench: -o %s: cannot create %s: %s\n", o->outdir,
				dir, strerror(e));
			return 2;
		}
		close(fd);
		snprintf(probe, sizeof(probe), "%s/.pinbench-probe.XXXXXX", dir);
		fd = mkostemp(probe, O_CLOEXEC);	/* can a result be written there? */
		if (fd >= 0) {
			close(fd);
			unlink(probe);
			return 0;
		}
		e = errno;
		pb_say(stderr, "pinbench: -o %s: cannot write in %s: %s\n", o->outdir, dir,
			strerror(e));
		return 2;
	}
	if (!lstat(dir, &st) && S_ISLNK(st.st_mode))
		return label_is_link(o, dir);
	while (stat(dir, &st)) {	/* up to the deepest folder that exists */
		if (errno != ENOENT || !strcmp(dir, "."))
			goto bad;
		slash = strrchr(dir, '/');
		if (!slash)		/* a relative path: the current folder */
			snprintf(dir, sizeof(dir), ".");
		else if (slash == dir)
			slash[1] = 0;
		else
			*slash = 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		goto bad;
	}
	snprintf(probe, sizeof(probe), "%s/.pinbench-dry-run.%d", dir, (int)getpid());
	if (!mkdir(probe, 0700) && !rmdir(probe))
		return 0;
bad:
	e = errno;
	pb_say(stderr, "pinbench: -o %s: cannot create the results folder %s/%s (%s: %s)\n",
		o->outdir, o->outdir, o->label, dir, strerror(e));
	return 2;
}

/*
 * What a run checks before anything runs, for a run and --dry-run alike:
 * event names (libpfm4), cpus= against this machine, the results folder.
 * The job loader has checked keys, values, placements and limits.
 */
static int check_run(const struct run_opts *o, const struct pb_topo *t,
		     struct pb_jobset *sets, int n)
{
	int rc = 0;

	for (int i = 0; !rc && i < n; i++) {
		struct pb_evlist *evl = calloc(sets[i].nr, sizeof(*evl));

		rc = evl ? check_jobs(&sets[i], evl) : 2;
		free(evl);
		if (!rc)
			rc = check_cpus(t, &sets[i]);
	}
	return rc ? rc : check_outdir(o);
}

/* Refused events, said once per run. */
static void say_unsupported(const struct pb_result *r, char (*said)[96], int *nsaid)
{
	for (int e = 0; e < r->evl.nr; e++) {
		const struct pb_event *ev = &r->evl.ev[e];
		int k;

		if (!ev->status)
			continue;
		for (k = 0; k < *nsaid; k++)
			if (!strcmp(said[k], ev->name))
				break;
		if (k < *nsaid || *nsaid >= 64)
			continue;
		snprintf(said[(*nsaid)++], 96, "%s", ev->name);
		pb_say(stderr, "pinbench: %s: %s\n", ev->name, ev->reason);
	}
}

static void iso_now(char *buf, size_t len, const char *fmt)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, fmt, &tm);
}

/* "pingpong same-cpu, pingpong same-core (round 2)": results [from, to) */
static void list_results(const struct pb_run *run, int from, int to, char *buf, size_t len)
{
	size_t off = 0;

	*buf = 0;
	for (int i = from; i < to && off < len; i++) {
		const struct pb_result *r = &run->results[i];
		char round[24] = "";

		if (r->round)
			snprintf(round, sizeof(round), " (round %d)", r->round);
		off += (size_t)snprintf(buf + off, len - off, "%s%s %s%s", i > from ? ", " : "",
					r->job->name, r->placement, round);
	}
	if (off >= len && len > 4)
		snprintf(buf + len - 4, 4, "...");
	pb_str_clean(buf);
}

/*
 * The last save failed: say once what the file kept (an earlier save of
 * this run, which says finished: null: its first `saved` results) and what
 * is lost.
 */
static void say_lost(const struct pb_saver *sv, const struct pb_run *run, int saved)
{
	char kept[512], lost[512];

	list_results(run, saved, run->nr, lost, sizeof(lost));
	if (!sv->claimed || !saved) {
		pb_say(stderr, "pinbench: results not saved: %s (%d job result%s lost: %s)\n",
		       sv->err, run->nr, run->nr == 1 ? "" : "s", lost);
		return;
	}
	list_results(run, 0, saved, kept, sizeof(kept));
	pb_say(stderr, "pinbench: results saved only in part: %s keeps %d of %d job results "
	       "(%s) as the run stood then (its finished is null); lost: %s: %s\n", sv->path,
	       saved, run->nr, kept, lost, sv->err);
}

static void file_base(const char *path, char *buf, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t n;

	snprintf(buf, len, "%s", b ? b + 1 : path);
	n = strlen(buf);
	if (n > 4 && !strcmp(buf + n - 4, ".ini"))
		buf[n - 4] = 0;
}

static void print_plan(const struct pb_topo *t, const struct pb_jobset *js, FILE *f)
{
	for (int i = 0; i < js->nr; i++) {
		const struct pb_job *j = &js->jobs[i];
		char reason[256];

		char count[64] = "", err[PB_ERR_MAX];
		struct pb_evlist ev;
		long ops;
		double cs = pb_job_count_window(j, &ops);
		bool first = !pb_evlist_build(&ev, j->events, err, sizeof(err)) &&
			     pb_job_counts_first(j, &ev);

		if (strcmp(j->events, "none") && !j->counting_inline)
			snprintf(count, sizeof(count), ", each counter pass 1 x %g %s%s",
				 ops ? (double)ops : cs, ops ? "ops" : "s",
				 first ? " in the warm-up" : "");
		if (j->loops)
			fprintf(f, "%s (%s): %d x %ld ops%s%s", j->name, j->bench->name,
				j->repeats, j->loops, count, j->threads ? ", threads" : "");
		else
			fprintf(f, "%s (%s): %d x %g s%s%s", j->name, j->bench->name,
				j->repeats, j->duration, count, j->threads ? ", threads" : "");
		if (j->rounds > 1)
			fprintf(f, ", %d rounds (shuffled)", j->rounds);
		fputc('\n', f);
		for (int p = 0; p < (j->nr_placements ? j->nr_placements : 1); p++) {
			const char *pl = j->nr_placements ? j->placements[p] : NULL;
			int *cpus, n = pb_plan_cpus(t, j, pl, &cpus, reason, sizeof(reason));

			fprintf(f, "  %-12s ", pl ? pl : "cpus");
			if (n <= 0 && pl)
				fprintf(f, "skipped: %s", reason);
			for (int k = 0; k < n; k++)
				fprintf(f, "%s%d", k ? "," : "", cpus[k]);
			fputc('\n', f);
			free(cpus);
		}
	}
}

static void print_run_anomalies(const struct pb_run *run, FILE *f)
{
	for (int k = 0; k < run->anomalies.nr; k++) {
		const struct pb_anomaly *a = &run->anomalies.v[k];

		if (a->sev == PB_SEV_INFO)
			continue;
		fprintf(f, "%s%s [%s] %s: %s%s%s\n", k ? "" : "\nrun:\n  ",
			k ? "  " : "", pb_sev_name(a->sev), a->kind, a->message,
			*a->advice ? " -- " : "", a->advice);
	}
}

/* "45 s", "2 min 05 s", "1 h 20 min". */
static void dur_text(double s, char *buf, size_t len)
{
	long x = s > 0 ? (long)(s + 0.5) : 0;

	if (x < 120)
		snprintf(buf, len, "%ld s", x);
	else if (x < 3600)
		snprintf(buf, len, "%ld min %02ld s", x / 60, x % 60);
	else
		snprintf(buf, len, "%ld h %02ld min", x / 3600, (x % 3600 + 30) / 60);
}

/*
 * Which window of the job runs (the w-th, from 0): "repeat 2 of 3" of the
 * timing pass, "counter pass 1 of 2" after it (or before it, in the
 * warm-up: counts_first); counting=inline: "counter pass 1 of 2, repeat 2
 * of 3".
 */
static void window_text(const struct pb_progress *pg, int w, char *buf, size_t len)
{
	int r = pg->repeats > 0 ? pg->repeats : 1, pass;

	if (pg->timing && pg->counts_first) {	/* a window a pass, then the metric's */
		if (w < pg->passes)
			snprintf(buf, len, "counter pass %d of %d (warm-up)", w + 1, pg->passes);
		else
			snprintf(buf, len, "repeat %d of %d", w - pg->passes + 1 < r ?
				 w - pg->passes + 1 : r, r);
		return;
	}
	if (pg->timing && w < r) {		/* the metric's windows, then a window a pass */
		snprintf(buf, len, "repeat %d of %d", w + 1, r);
		return;
	}
	if (pg->timing) {
		pass = w - r;
		snprintf(buf, len, "counter pass %d of %d", pass < pg->passes ? pass + 1 :
			 pg->passes, pg->passes);
		return;
	}
	pass = w / r;		/* counting=inline: pass 0 is the metric's */
	snprintf(buf, len, "counter pass %d of %d, repeat %d of %d",
		 pass < pg->passes ? pass + 1 : pg->passes, pg->passes, w % r + 1, r);
}

/*
 * The progress line on stderr, when it is a terminal: "job 2 of 6: pipe
 * same-cpu: counter pass 1 of 1, repeat 2 of 3; about 1 min 20 s left",
 * the time left being what is planned for the rest of this job (at least
 * 0) and for the jobs after it.
 */
static void show_progress(const struct pb_progress *pg, const char *job, const char *pl,
			  int done, int total)
{
	static int tty = -1;
	char win[96], left[32], round[32] = "";
	double job_left = pg->job_s - (pb_mono_s() - pg->started);

	if (tty < 0)
		tty = isatty(2);
	if (!tty)
		return;
	if (done < 0) {
		fprintf(stderr, "\r\033[K");
		return;
	}
	window_text(pg, done < total ? done : total - 1, win, sizeof(win));
	dur_text((job_left > 0 ? job_left : 0) + pg->rest_s, left, sizeof(left));
	if (pg->rounds > 1)
		snprintf(round, sizeof(round), "round %d of %d, ", pg->round, pg->rounds);
	fputs("\r\033[K", stderr);	/* the one escape: ours, on a terminal */
	pb_say(stderr, "%sjob %d of %d: %s %s: %s; about %s left", round, pg->job, pg->jobs, job,
	       pl, win, left);
}

/*
 * --dry-run: the planned wall time of js; its seconds, or -1 when its
 * events do not build (check_run() has said why already).
 */
static double print_planned(const struct pb_topo *t, struct pb_jobset *js, FILE *f)
{
	struct pb_evlist *evl = calloc(js->nr ? js->nr : 1, sizeof(*evl));
	char d[32];
	int cells;
	double sum;

	if (!evl || check_jobs(js, evl)) {
		free(evl);
		return -1;
	}
	sum = pb_plan_s(t, js, evl, &cells);
	dur_text(sum, d, sizeof(d));
	fprintf(f, "planned wall time: %s (%d job run%s: warm-up + repeats x duration, a "
		"short window per counter pass not in the warm-up, + %.1f s each)\n", d, cells,
		cells == 1 ? "" : "s", PB_JOB_OVERHEAD_S);
	free(evl);
	return sum;
}

/* --dry-run with rounds: the order each round will run in, from the seed. */
static void print_order(const struct pb_jobset *js, unsigned long seed, FILE *f)
{
	struct pb_cell *cells, *order;
	uint64_t rng = seed;
	int nr, rounds = pb_plan_cells(js, &cells, &nr);

	order = calloc(nr ? nr : 1, sizeof(*order));
	if (rounds > 1 && cells && order) {
		fprintf(f, "order (seed %lu):\n", seed);
		for (int r = 1; r <= rounds; r++) {
			int n = pb_plan_round(js, cells, nr, r, rounds, &rng, order);

			fprintf(f, "  round %d:", r);
			for (int k = 0; k < n; k++) {
				const char *pl = pb_cell_placement(js, order[k]);

				fprintf(f, " %s/%s", js->jobs[order[k].job].name, pl ? pl : "cpus");
			}
			fputc('\n', f);
		}
	}
	free(cells);
	free(order);
}

static int result_order(const void *a, const void *b)
{
	const struct pb_result *x = a, *y = b;
	int c;

	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	c = strcmp(x->placement, y->placement);
	return c ? c : x->round - y->round;
}

/* The tables of results [from, to), in job order (a shuffled round too). */
static void print_results(const struct run_opts *o, const struct pb_run *run, int from,
			  int to)
{
	struct pb_run view = *run;
	struct pb_result *sel;

	if (o->quiet || o->json || to <= from)
		return;
	sel = malloc((size_t)(to - from) * sizeof(*sel));
	if (!sel)
		return;
	memcpy(sel, run->results + from, (size_t)(to - from) * sizeof(*sel));
	if (run->rounds > 1) {
		qsort(sel, (size_t)(to - from), sizeof(*sel), result_order);
		printf("\nround %d of %d\n", sel[0].round, run->rounds);
	}
	view.results = sel;
	view.nr = to - from;
	pb_run_print_text(&view, stdout);
	fflush(stdout);
	free(sel);
}

/* What the engine's callbacks (struct pb_exec_ops) of one job file need. */
struct run_show {
	const struct run_opts	*o;
	struct pb_saver		sv;
	char			*text;		/* the last save's JSON, for --format json */
	char			said[64][96];	/* refused events said so far */
	int			nsaid;
};

static void say_waiting(void *ctx, const struct pb_job *j, const struct pb_cpu_holder *h,
			double limit_s)
{
	char who[128];

	(void)ctx;
	pb_cpu_holder_text(h, who, sizeof(who));
	pb_say(stderr, "pinbench: %s: waiting for CPU %d, held by %s (at most %g s: "
	       "--wait-timeout)\n", j->name, h->cpu, who, limit_s);
}

static void say_shared(void *ctx, const struct pb_job *j, const struct pb_cpu_holder *h)
{
	char who[128];

	(void)ctx;
	pb_cpu_holder_text(h, who, sizeof(who));
	pb_say(stderr, "pinbench: %s: CPU %d is held by %s; running anyway "
	       "(--wait waits)\n", j->name, h->cpu, who);
}

/* A lock folder that cannot be used: said once per pinbench. */
static void say_unlocked(void *ctx, const char *err)
{
	static bool said;

	(void)ctx;
	if (!said)
		pb_say(stderr, "pinbench: %s; runs are not kept apart\n", err);
	said = true;
}

static void show_job(void *ctx, const struct pb_run *run)
{
	struct run_show *x = ctx;

	say_unsupported(&run->results[run->nr - 1], x->said, &x->nsaid);
}

static void show_results(void *ctx, const struct pb_run *run, int from, int to)
{
	struct run_show *x = ctx;

	print_results(x->o, run, from, to);
}

static void show_finished(void *ctx, const struct pb_run *run)
{
	struct run_show *x = ctx;

	if (x->o->quiet || x->o->json)
		return;
	pb_run_print_sweeps(run, stdout);
	if (run->rounds > 1)
		pb_run_print_rounds(run, stdout);
	print_run_anomalies(run, stdout);
}

static int save_cb(void *ctx, const struct pb_run *run, bool last)
{
	struct run_show *x = ctx;

	return pb_saver_save(&x->sv, run, last ? &x->text : NULL);
}

/* What the status of a run says: the last lines and the exit code. */
static int run_said(const struct run_show *x, const struct pb_run *run,
		    const struct pb_exec_status *st)
{
	const struct run_opts *o = x->o;
	int rc = st->failed;

	if (st->nothing) {
		pb_say(stderr, "pinbench: interrupted before any job finished a repeat; "
			"nothing saved\n");
		return 1;
	}
	if (st->lost) {
		say_lost(&x->sv, run, st->saved);
		rc = 1;
	} else if (!o->quiet) {		/* -q: nothing, the path included */
		pb_say(o->json ? stderr : stdout, "\nresults: %s\n", x->sv.path);
	}
	if (o->json && x->text)		/* saved or not: what was asked for */
		fputs(x->text, stdout), fputc('\n', stdout);
	if (st->cut) {			/* saved: only if the last save worked */
		pb_say(stderr, "pinbench: interrupted%s\n", st->lost ? "" :
		       "; what finished is saved");
		rc = 1;
	}
	return rc;
}

/*
 * Run every job of one job file (or the ad-hoc job), saving the result
 * file after each (core/execute.c); returns 0, 1 or 2.
 */
static int run_jobset(const struct run_opts *o, const struct pb_topo *t,
		      const char *config, struct pb_jobset *js)
{
	struct pb_evlist *evl = calloc(js->nr, sizeof(*evl));
	struct pb_run run = { .label = o->label, .config = config,
			      .cmdline = o->cmdline, .topo = t, .seed = o->seed_value };
	struct run_show x = { .o = o, .sv = { .dfd = -1 } };
	const struct pb_exec_ops ops = { .ctx = &x, .progress = o->quiet ? NULL : show_progress,
		.waiting = say_waiting, .shared = say_shared, .unlocked = say_unlocked,
		.job_done = show_job, .results = show_results, .finished = show_finished,
		.save = save_cb };
	const struct pb_exec_opts eo = { .wait = o->wait, .wait_s = o->wait_s };
	struct pb_exec_status st;
	char path[PATH_MAX], base[128];
	int rc = 2;

	if (!evl)
		return 2;
	pb_runner_set_remote(&pb_peer_ops);	/* peer=: the client is net/'s */
	if (pb_probe_inject_check(path, sizeof(path))) {
		pb_say(stderr, "pinbench: %s\n", path);
		free(evl);
		return 2;
	}
	if (check_jobs(js, evl))
		goto out;
	file_base(config ? config : "bench", base, sizeof(base));
	if (!config)
		snprintf(base, sizeof(base), "bench-%s", js->jobs[0].bench->name);
	iso_now(run.started, sizeof(run.started), "%Y-%m-%dT%H:%M:%SZ");
	if (pb_saver_init(&x.sv, o->outdir, o->label, run.started, base)) {
		pb_say(stderr, "pinbench: %s\n", x.sv.err);
		goto out;
	}
	if (pb_execute(&eo, js, evl, &ops, &run, &st, path, sizeof(path)))
		pb_say(stderr, "pinbench: %s\n", path);
	else
		rc = run_said(&x, &run, &st);
out:
	pb_saver_close(&x.sv);
	free(x.text);
	pb_run_free(&run);
	free(evl);
	return rc;
}

static int load_topo(const struct run_opts *o, struct pb_topo **t, const char *cmd)
{
	char err[512];

	if (pb_topo_load(t, o->topology, err, sizeof(err))) {
		pb_say(stderr, "pinbench %s: %s\n", cmd, err);
		return 2;
	}
	if (o->topology && !o->dry_run) {
		pb_say(stderr, "pinbench %s: --topology '%s' is not this machine: workloads run "
			"only on this machine's topology (use --dry-run to plan)\n", cmd, o->topology);
		pb_topo_free(*t);
		return 2;
	}
	return -1;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static int run_files(struct run_opts *o, struct pb_topo *t, int n, char **files)
{
	struct pb_jobset *sets = calloc(n, sizeof(*sets));
	char err[1024];
	int rc = 0;

	if (!sets)
		return 2;
	for (int i = 0; i < n; i++) {	/* every file checked before anything runs */
		if (pb_jobs_load(files[i], NULL, o->over, o->nr_over,
				 pb_topo_nr_cpus(t), &sets[i], err, sizeof(err))) {
			pb_say(stderr, "pinbench: %s\n", err);
			rc = 2;
			goto out;
		}
	}
	rc = check_run(o, t, sets, n);
	if (rc)
		goto out;
	if (o->dry_run) {
		double total = 0;
		char d[32];

		for (int i = 0; i < n; i++) {
			print_plan(t, &sets[i], stdout);
			print_order(&sets[i], o->seed_value, stdout);
			total += print_planned(t, &sets[i], stdout);
		}
		dur_text(total, d, sizeof(d));
		if (n > 1)
			printf("planned wall time of the %d job files: %s\n", n, d);
		goto out;
	}
	install_signals();
	for (int i = 0; i < n && !pb_interrupted; i++) {
		int r = run_jobset(o, t, files[i], &sets[i]);

		if (r > rc)
			rc = r;
		if (pb_interrupted && i + 1 < n) {
			pb_say(stderr, "pinbench: interrupted; %d job file%s not run\n",
				n - i - 1, n - i - 1 > 1 ? "s" : "");
			rc = rc > 1 ? rc : 1;
		}
	}
out:
	for (int i = 0; i < n; i++)
		pb_jobset_free(&sets[i]);
	free(sets);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct pb_topo *t = NULL;
	int rc = parse_run_opts(argc, argv, &o, "run");

	if (rc >= 0)
		goto out;
	if (optind >= argc) {
		pb_say(stderr, "pinbench run: no job file (see 'pinbench run --help')\n");
		rc = 2;
		goto out;
	}
	rc = pb_opts_paths(argc, argv, optind, "a job file") ? 2 : -1;
	if (rc >= 0)
		goto out;
	rc = load_topo(&o, &t, "run");
	if (rc >= 0)
		goto out;
	rc = run_files(&o, t, argc - optind, argv + optind);
	pb_topo_free(t);
out:
	free_opts(&o);
	return rc;
}

int cmd_bench(int argc, char **argv)
{
	struct run_opts o;
	struct pb_topo *t = NULL;
	struct pb_jobset js = { 0 };
	char err[1024];
	int rc = parse_run_opts(argc, argv, &o, "bench");

	if (rc >= 0)
		goto out;
	rc = 2;
	if (optind >= argc) {
		pb_say(stderr, "pinbench bench: no workload named (see 'pinbench list')\n");
		goto out;
	}
	for (int i = optind + 1; i < argc; i++) {
		int r = add_kv_arg(&o, "bench", argv[i], "command line");

		if (r == -1)
			pb_say(stderr, "pinbench bench: '%s': expected KEY=VALUE\n", argv[i]);
		if (r)
			goto out;
	}
	rc = load_topo(&o, &t, "bench");
	if (rc >= 0)
		goto out;
	rc = 2;
	if (pb_jobs_load(NULL, argv[optind], o.over, o.nr_over, pb_topo_nr_cpus(t),
			 &js, err, sizeof(err))) {
		pb_say(stderr, "pinbench bench: %s\n", err);
		goto out_topo;
	}
	rc = check_run(&o, t, &js, 1);
	if (!rc && o.dry_run) {
		print_plan(t, &js, stdout);
		print_planned(t, &js, stdout);
	} else if (!rc) {
		install_signals();
		rc = run_jobset(&o, t, NULL, &js);
	}
	pb_jobset_free(&js);
out_topo:
	pb_topo_free(t);
out:
	free_opts(&o);
	return rc;
}
