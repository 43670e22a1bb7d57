// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_run.c - `pinbench run` and `pinbench bench`: options and exit codes.
 *
 * Everything a user can get wrong (options, job files, event names,
 * limits, cpus=, the results folder) is checked before anything runs, by
 * --dry-run too (run_check.c): exit 2 with a message.  Then the run engine
 * (core/execute.c) runs every job at every placement; a failed job does
 * not stop the others; results are saved atomically, one file per job
 * file.  What a run prints is run_show.c's.
 */
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cli/cmds.h"
#include "cli/run.h"
#include "cli/say.h"
#include "cli/opts.h"
#include "net/proto.h"
#include "report/compare.h"
#include "report/nightly.h"
#include "report/noise.h"
#include "lib/util.h"

static const char run_help[] =
"usage: pinbench run [OPTIONS] JOBFILE...\n"
"       pinbench bench NAME [KEY=VALUE...] [OPTIONS]\n"
"\n"
"  -o, --output DIR       results folder (default $PINBENCH_RESULTS, else\n"
"                         results/); files go to\n"
"                         DIR/<label>/<UTC timestamp>-<job file>.json\n"
"      --format text|json|csv\n"
"                         what goes to stdout (default text: a summary table\n"
"                         per job file; csv: a row per job, placement, round)\n"
"  -v, --verbose          text: every job's table as it ends, per-op counters,\n"
"                         percentiles, rounds and the anomalies in full\n"
"      --rounds N         override rounds=: run the job file N times, round 1 of\n"
"                         every job and placement, then round 2, ..., each\n"
"                         round in an order shuffled with the run's seed\n"
"      --seed N           the seed of that shuffle (default: drawn, and saved)\n"
"      --until PCT[,BUDGET]\n"
"                         after the planned rounds (at least 5 judged), add\n"
"                         whole rounds until every cell's 95 % interval of its\n"
"                         mean over rounds is within +-PCT % (0 < PCT < 100), or\n"
"                         until a next round would end after BUDGET from the\n"
"                         start (seconds, or 90s, 10m, 1h; default 30m)\n"
"      --repeats N        override repeats= of every job\n"
"      --duration SEC     override duration= (seconds per repeat, may be fractional)\n"
"      --warmup SEC       override warmup=\n"
"      --placement LIST   override placement= (e.g. same-cpu,same-socket)\n"
"      --set KEY=VALUE    override any job key (repeatable)\n"
"      --events LIST      counter events (libpfm4 names, software events, tracepoints)\n"
"      --profile          profile=on for every job: after its windows, one more\n"
"                         sampling each role (call chains), stored per role as\n"
"                         folded stacks with its ops and task-clock\n"
"      --peer HOST[:PORT] override peer=: the server role runs on that `pinbench server`\n"
"      --label TEXT       label of this run (default: the kernel release)\n"
"      --topology SPEC    plan on an hwloc synthetic description or XML file;\n"
"                         only with --dry-run (workloads run on this machine only)\n"
"      --dry-run          check everything a run checks first (job files, events,\n"
"                         cpus=, results folder) and print the plan; run nothing\n"
"      --noise FILE       with --dry-run: the noise profile (pinbench calibrate) to\n"
"                         say what each cell will resolve between two kernels\n"
"                         (default: the newest of this host's class in -o DIR)\n"
"      --min-change PCT   with --dry-run: the change to resolve, 0..1000 (default\n"
"                         1): how many boots a kernel it takes, by the profile\n"
"      --wait             when another process holds a job's CPU locks (another\n"
"                         pinbench measuring), wait for it, at most 10 minutes;\n"
"                         still held then, the job fails naming the holder\n"
"                         (default: warn, run, and mark the job S)\n"
"      --wait-timeout SEC --wait, at most SEC seconds (0.1..604800)\n"
"  -q, --quiet            nothing on stdout but what --format json asks for: no\n"
"                         progress line, no tables, no results path (the file\n"
"                         is still saved; errors and warnings still on stderr)\n"
"  -h, --help             this text\n"
"\nexit: 0 every job ok or skipped, 1 some job failed, 2 usage or job-file error,\n"
"      3 every job ran but an error-severity anomaly makes a figure untrustworthy\n";

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

char *pb_cli_cmdline(int argc, char **argv)
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

const char *pb_cli_results_dir(void)
{
	const char *d = getenv("PINBENCH_RESULTS");

	return d && *d ? d : "results";
}

/*
 * PINBENCH_UNTRUSTED_EXIT: the exit code of a run whose figures an
 * error-severity anomaly makes untrustworthy, 3 (unset) or 0 (a script on
 * a shared machine that reads the marks itself).  0, or -1 said.
 */
static int untrusted_parse(struct run_opts *o, const char *cmd)
{
	const char *v = getenv("PINBENCH_UNTRUSTED_EXIT");

	o->untrusted_exit = PB_EXIT_UNTRUSTED;
	if (!v || !*v)
		return 0;
	if (!strcmp(v, "0") || !strcmp(v, "3")) {
		o->untrusted_exit = v[0] - '0';
		return 0;
	}
	pb_say(stderr, "pinbench %s: PINBENCH_UNTRUSTED_EXIT='%s': want 3 (the default) or 0\n",
	       cmd, v);
	return -1;
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
	if (strcmp(arg, "text") && strcmp(arg, "json") && strcmp(arg, "csv")) {
		pb_say(stderr, "pinbench %s: --format: '%s' is not text, json or csv\n", x->cmd,
		       arg);
		return PB_OPTS_FAILED;
	}
	x->o->json = !strcmp(arg, "json");
	x->o->csv = !strcmp(arg, "csv");
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

/* --profile: profile=on */
static int opt_profile(void *ctx, const struct pb_opt *opt, const char *arg)
{
	struct run_ctx *x = ctx;

	(void)opt;
	(void)arg;
	return add_over(x->o, x->cmd, "profile", "on", "--profile") ? PB_OPTS_FAILED :
	       PB_OPTS_OK;
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

/* --until's budget when it does not say: a coffee break, not a night */
#define UNTIL_BUDGET_S	1800.0

/* --until's BUDGET: 0 and *s set, or -1 unless [decimal][s|m|h], 1 s to a week. */
static int budget_parse(const char *arg, double *s)
{
	static const char units[] = "smh";
	static const double mult[] = { 1, 60, 3600 };
	size_t n = strlen(arg);
	const char *u = n ? strchr(units, arg[n - 1]) : NULL;
	char num[32];
	double v;

	if (n >= sizeof(num) || (u && n == 1))
		return -1;
	snprintf(num, sizeof(num), "%.*s", (int)(u ? n - 1 : n), arg);
	if (!strchr("0123456789.", num[0]) || pb_parse_double(num, 0, 1e9, &v))
		return -1;
	v *= u ? mult[u - units] : 1;
	if (!(v >= 1 && v <= 604800))
		return -1;
	*s = v;
	return 0;
}

/*
 * --until PCT[,BUDGET]: 0 with o->until_frac and o->budget_s set, or 2
 * (said, naming the option).
 */
static int until_parse(struct run_opts *o, const char *cmd)
{
	const char *comma = strchr(o->until, ',');
	char pct[64];
	double v;

	snprintf(pct, sizeof(pct), "%.*s", comma ? (int)(comma - o->until) :
		 (int)strlen(o->until), o->until);
	if (pb_parse_double(pct, 0, 100, &v) || !(v > 0 && v < 100)) {
		pb_say(stderr, "pinbench %s: --until '%s': PCT '%s': want a percentage above 0 "
		       "and below 100 (e.g. --until 2 or --until 2,10m)\n", cmd, o->until, pct);
		return 2;
	}
	if (comma && budget_parse(comma + 1, &o->budget_s)) {
		pb_say(stderr, "pinbench %s: --until '%s': BUDGET '%s': want seconds, or 90s, "
		       "10m, 1h (1 s to a week)\n", cmd, o->until, comma + 1);
		return 2;
	}
	o->until_frac = v / 100;
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

/* run's options before any is given */
static void run_defaults(struct run_opts *o)
{
	struct utsname u;

	memset(o, 0, sizeof(*o));
	o->outdir = pb_cli_results_dir();
	uname(&u);
	snprintf(o->kernel, sizeof(o->kernel), "%s", u.release);
	o->label = o->kernel;
	o->seed_value = ((unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16)) &
			0xffffffffUL;
	o->wait_s = WAIT_DEFAULT_S;
	o->budget_s = UNTIL_BUDGET_S;
	o->untrusted_exit = PB_EXIT_UNTRUSTED;
	o->min_change = PB_CMP_MIN_CHG;
}

/* Returns -1 to go on, or an exit code. */
static int parse_run_opts(int argc, char **argv, struct run_opts *o, const char *cmd)
{
	const struct pb_opt t[] = {
		{ "output", 'o', PB_ARG_PATH, NULL, &o->outdir, NULL },
		{ "format", 0, true, NULL, NULL, opt_format },
		{ "rounds", 0, true, NULL, NULL, opt_over },
		{ "seed", 0, true, NULL, &o->seed, NULL },
		{ "until", 0, true, NULL, &o->until, NULL },
		{ "repeats", 0, true, NULL, NULL, opt_over },
		{ "duration", 0, true, NULL, NULL, opt_over },
		{ "warmup", 0, true, NULL, NULL, opt_over },
		{ "placement", 0, true, NULL, NULL, opt_over },
		{ "set", 0, PB_ARG_MULTI, NULL, NULL, opt_set },
		{ "events", 0, true, NULL, NULL, opt_over },
		{ "peer", 0, true, NULL, NULL, opt_over },
		{ "profile", 0, false, NULL, NULL, opt_profile },
		{ "label", 0, true, NULL, &o->label, NULL },
		{ "topology", 0, PB_ARG_PATH, NULL, &o->topology, NULL },
		{ "dry-run", 0, false, &o->dry_run, NULL, NULL },
		{ "noise", 0, PB_ARG_PATH, NULL, &o->noise, NULL },
		{ "min-change", 0, true, NULL, &o->min_change_s, NULL },
		{ "wait", 0, false, &o->wait, NULL, NULL },
		{ "wait-timeout", 0, true, NULL, &o->wait_timeout, NULL },
		{ "quiet", 'q', false, &o->quiet, NULL, NULL },
		{ "verbose", 'v', false, &o->verbose, NULL, NULL },
		{ "help", 'h', false, NULL, NULL, pb_opt_help },
	};
	struct run_ctx x = { .o = o, .cmd = cmd };
	char err[PB_LABEL_MAX + 200];

	run_defaults(o);
	o->cmdline = pb_cli_cmdline(argc, argv);
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
	if (o->seed && seed_parse(o->seed, &o->seed_value)) {
		pb_say(stderr, "pinbench %s: --seed '%s': want a whole number 0..4294967295\n",
			cmd, o->seed);
		return 2;
	}
	if (o->until && until_parse(o, cmd))
		return 2;
	if (untrusted_parse(o, cmd))
		return 2;
	if ((o->noise || o->min_change_s) && !o->dry_run) {
		pb_say(stderr, "pinbench %s: --%s plans a comparison: only with --dry-run\n", cmd,
		       o->noise ? "noise" : "min-change");
		return 2;
	}
	if (o->min_change_s && pb_opt_double(cmd, "min-change", o->min_change_s, 0,
					     PB_MIN_CHANGE_MAX, &o->min_change))
		return 2;
	o->min_change /= 100;
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

static void iso_now(char *buf, size_t len, const char *fmt)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, fmt, &tm);
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


/*
 * Run every job of one job file (or the ad-hoc job), saving the result
 * file after each (core/execute.c); returns 0, 1 or 2.
 */
static int run_jobset(const struct run_opts *o, const struct pb_topo *t,
		      const char *config, struct pb_jobset *js)
{
	struct pb_evlist *evl = calloc(js->nr, sizeof(*evl));
	struct pb_run run = { .label = o->label, .config = config, .config_text = js->text,
			      .cmdline = o->cmdline, .topo = t, .seed = o->seed_value };
	struct run_show x = { .o = o, .sv = { .dfd = -1 } };
	struct pb_exec_ops ops;
	const struct pb_exec_opts eo = { .wait = o->wait, .wait_s = o->wait_s,
					 .until = o->until_frac, .budget_s = o->budget_s };
	struct pb_exec_status st;
	char path[PATH_MAX], base[128];
	int rc = 2;

	if (!evl)
		return 2;
	run_show_ops(&x, &ops);
	pb_runner_set_remote(&pb_peer_ops);	/* peer=: the client is net/'s */
	if (pb_probe_inject_check(path, sizeof(path))) {
		pb_say(stderr, "pinbench: %s\n", path);
		free(evl);
		return 2;
	}
	if (run_check_events(js, evl))
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
	if (o->saved && x.sv.claimed)
		snprintf(o->saved, o->saved_len, "%s", x.sv.path);
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
	rc = run_check(o, t, sets, n);
	if (rc)
		goto out;
	if (o->dry_run) {
		struct pb_noise nz = { 0 };
		double total = 0, s;
		char d[32];

		rc = run_noise_open(o, t, &nz, stdout);
		for (int i = 0; !rc && i < n; i++) {
			run_print_plan(t, &sets[i], stdout);
			run_print_order(&sets[i], o->seed_value, stdout);
			s = run_print_planned(t, &sets[i], stdout);
			total += s;
			run_print_resolution(&sets[i], &nz, o->min_change, s, stdout);
		}
		pb_noise_free(&nz);
		if (rc)
			goto out;
		run_print_until(o, stdout);
		run_dur_text(total, d, sizeof(d));
		if (n > 1)
			printf("planned wall time of the %d job files: %s\n", n, d);
		goto out;
	}
	o->started = true;
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
	rc = run_check(&o, t, &js, 1);
	if (!rc && o.dry_run) {
		run_print_plan(t, &js, stdout);
		run_print_planned(t, &js, stdout);
		run_print_until(&o, stdout);
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

int run_plan_check(const char *jobfile, const char *outdir, const char *label,
		   double *seconds)
{
	struct run_opts o;
	struct pb_topo *t = NULL;
	struct pb_jobset js = { 0 };
	char err[1024];
	FILE *null = fopen("/dev/null", "w");
	int rc = 2;

	run_defaults(&o);
	o.outdir = outdir;
	o.label = label;
	o.dry_run = true;
	if (null && load_topo(&o, &t, "run") < 0) {
		if (pb_jobs_load(jobfile, NULL, NULL, 0, pb_topo_nr_cpus(t), &js, err,
				 sizeof(err)))
			pb_say(stderr, "pinbench: %s\n", err);
		else
			rc = run_check(&o, t, &js, 1);
		if (!rc)
			*seconds = run_print_planned(t, &js, null);
		pb_jobset_free(&js);
		pb_topo_free(t);
	}
	if (null)
		fclose(null);
	free_opts(&o);
	return rc;
}

int run_nightly(const struct pb_nightly_opts *n)
{
	const struct run_nightly *rn = n->ctx;
	struct run_opts o;
	struct run_ctx x = { .o = &o, .cmd = "run" };
	struct pb_topo *t = NULL;
	char *file = (char *)n->jobfile;
	int rc = 2;

	run_defaults(&o);
	o.cmdline = rn->cmdline ? strdup(rn->cmdline) : NULL;
	o.outdir = n->history;
	o.label = n->label;
	for (int i = 0; i < rn->nr; i++) {
		const struct pb_opt opt = { .name = rn->fwd[i].name };

		o.quiet |= !opt.name;
		if (opt.name && (strcmp(opt.name, "set") ? opt_over : opt_set)(&x, &opt,
				  rn->fwd[i].arg) != PB_OPTS_OK)
			goto out;
	}
	if (load_topo(&o, &t, "run") < 0) {
		rc = run_files(&o, t, 1, &file);
		pb_topo_free(t);
	}
	if (rc == PB_EXIT_UNTRUSTED)	/* nightly judges the anomalies itself */
		rc = 0;
out:
	free_opts(&o);
	return rc;
}

int run_bisect(const char *jobfile, const char *outdir, const char *label, char *saved,
	       size_t len)
{
	struct run_opts o;
	struct pb_topo *t = NULL;
	char *file = (char *)jobfile;
	char *argv[] = { "bisect-check", file };
	int rc = 2;

	run_defaults(&o);
	o.cmdline = pb_cli_cmdline(2, argv);
	o.outdir = outdir ? outdir : o.outdir;
	o.label = label ? label : o.label;
	o.quiet = true;
	o.judged_after = true;
	o.saved = saved;
	o.saved_len = len;
	saved[0] = 0;
	if (load_topo(&o, &t, "bisect-check") < 0) {
		rc = run_files(&o, t, 1, &file);
		pb_topo_free(t);
	}
	free_opts(&o);
	if (rc == 2 && o.started)	/* not a usage error: the run went wrong */
		return 1;
	return rc == PB_EXIT_UNTRUSTED ? 0 : rc;	/* the verdict reads the findings */
}
