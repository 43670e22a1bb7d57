// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_calibrate.c - `pinbench calibrate JOBFILE`: this machine's noise for
 * a job file.  A/A in blocks: the job file run again and again in this
 * boot, each block a `pinbench run` of its own (its own invocation id, the
 * job file's rounds shuffled as run shuffles them), as many blocks as the
 * precision asked needs, or as the budget allows; then the variance at
 * each level (report/noise.c, stats/levels.c) written as a noise profile.
 * `calibrate --from PATH...` makes one of result files already there
 * (several boots of a kernel: the boot level measured for real).
 */
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cmds.h"
#include "cli/opts.h"
#include "cli/say.h"
#include "lib/file.h"
#include "lib/util.h"
#include "report/compare.h"
#include "report/noise.h"

static const char calibrate_usage[] =
	"usage: pinbench calibrate [OPTIONS] JOBFILE\n"
	"       pinbench calibrate --from [OPTIONS] PATH...\n"
	"Measure this machine's noise for a job file: the job file run in blocks (each a\n"
	"run of its own, its own invocation) in this boot, then the sd of ln value at each\n"
	"level it could measure (invocation, run) written as a noise profile that compare,\n"
	"report and nightly use.  One boot cannot measure the boot level: the\n"
	"between-invocation figure stands in for it, named as such.\n"
	"  -o, --output DIR|FILE.json     where the profile goes (default:\n"
	"                                 $PINBENCH_RESULTS, else results/, as\n"
	"                                 noise-CLASS-DATE.json)\n"
	"  --blocks N                     run the job file N times, 2..1000\n"
	"  --precision PCT                as many blocks as the between-invocation variance\n"
	"                                 needs for a relative standard error of PCT %,\n"
	"                                 sqrt(2/df) (default 50: 9 blocks)\n"
	"  --budget MIN                   stop starting blocks after MIN minutes (default 60)\n"
	"  --seed S                       block i shuffles its rounds with seed S+i\n"
	"  --label L                      the runs' label (default calibrate)\n"
	"  --from                         PATH... are result files or folders (several\n"
	"                                 boots of one kernel): no run, the boot level measured\n"
	"  -h, --help\n";

struct cal_opts {
	const char	*out, *blocks_s, *precision_s, *budget_s, *seed_s, *label;
	bool		from;
	int		blocks;
	double		budget_min, precision;
	unsigned long	seed;
};

/* --name's whole number in min..max: 0, or -1 said */
static int whole(const char *name, const char *arg, long min, long max, long *v)
{
	if (*arg != '-' && *arg != '+' && !pb_parse_long(arg, min, max, v))
		return 0;
	pb_say(stderr, "pinbench calibrate: --%s '%s': want a whole number, %ld..%ld\n", name,
	       arg, min, max);
	return -1;
}

/* The numbers of the options: PB_OPTS_OK, or PB_OPTS_FAILED said */
static int cal_numbers(struct cal_opts *o)
{
	long v;

	if (o->blocks_s && o->precision_s) {
		pb_say(stderr, "pinbench calibrate: --blocks or --precision, not both\n");
		return PB_OPTS_FAILED;
	}
	if (o->blocks_s && whole("blocks", o->blocks_s, 2, 1000, &v))
		return PB_OPTS_FAILED;
	if (o->blocks_s)
		o->blocks = (int)v;
	if (o->precision_s &&
	    pb_opt_double("calibrate", "precision", o->precision_s, 1, 100, &o->precision))
		return PB_OPTS_FAILED;
	if (!o->blocks_s)
		o->blocks = pb_noise_blocks(o->precision);
	if (o->budget_s &&
	    pb_opt_double("calibrate", "budget", o->budget_s, 0.01, 100000, &o->budget_min))
		return PB_OPTS_FAILED;
	if (o->seed_s && whole("seed", o->seed_s, 0, 0xffffffffL, &v))
		return PB_OPTS_FAILED;
	o->seed = o->seed_s ? (unsigned long)v : 0;
	return PB_OPTS_OK;
}

static int cal_opts(int argc, char **argv, struct cal_opts *o)
{
	const struct pb_opt t[] = {
		{ "output", 'o', PB_ARG_PATH, NULL, &o->out, NULL },
		{ "blocks", 0, true, NULL, &o->blocks_s, NULL },
		{ "precision", 0, true, NULL, &o->precision_s, NULL },
		{ "budget", 0, true, NULL, &o->budget_s, NULL },
		{ "seed", 0, true, NULL, &o->seed_s, NULL },
		{ "label", 0, true, NULL, &o->label, NULL },
		{ "from", 0, false, &o->from, NULL, NULL },
		{ "help", 'h', false, NULL, NULL, pb_opt_help },
	};
	int rc;

	rc = pb_opts_usage(pb_opts_parse(argc, argv, "", t, PB_OPTS_N(t), o, NULL),
			   calibrate_usage);
	if (rc || (rc = cal_numbers(o)))
		return rc;
	if (optind < argc && (o->from || optind == argc - 1))
		return pb_opts_paths(argc, argv, optind, o->from ? "a result file or folder" :
				     "a job file");
	pb_say(stderr, "pinbench calibrate: %s\n%s", optind < argc ? "one job file" :
	       o->from ? "no result files given" : "no job file given", calibrate_usage);
	return PB_OPTS_FAILED;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * One block: `pinbench run -q --wait` of the job file into dir, in a child
 * (CPUs another process holds are waited for: their load is not this
 * machine's noise); its exit code
 */
static int run_block(const struct cal_opts *o, const char *jobfile, const char *dir, int i)
{
	char seed[32];
	char *argv[] = { "run", "-q", "--wait", "-o", (char *)dir, "--label", (char *)o->label,
			 "--seed", seed, (char *)jobfile, NULL };
	int status, argc = 10;
	pid_t pid, w;

	snprintf(seed, sizeof(seed), "%lu", (o->seed + (unsigned long)i) & 0xffffffffUL);
	if (!o->seed_s) {	/* run's own seed: leave --seed out */
		argv[7] = (char *)jobfile;
		argv[8] = NULL;
		argc = 8;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		optind = 0;	/* getopt starts afresh */
		_exit(cmd_run(argc, argv));
	}
	do
		w = waitpid(pid, &status, 0);
	while (w < 0 && errno == EINTR);
	return w < 0 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The blocks, into dir: how many ran, or -1 with the failure said */
static int run_blocks(const struct cal_opts *o, const char *jobfile, const char *dir)
{
	double t0 = now_s(), used, per;
	int i, rc;

	for (i = 0; i < o->blocks; i++) {
		used = (now_s() - t0) / 60;
		per = i ? used / i : 0;
		if (i >= 2 && used + per > o->budget_min) {
			pb_say(stderr, "pinbench calibrate: budget of %g min: %d of %d blocks\n",
			       o->budget_min, i, o->blocks);
			break;
		}
		pb_say(stderr, "calibrate: block %d of %d\n", i + 1, o->blocks);
		rc = run_block(o, jobfile, dir, i);
		if (rc && rc != PB_EXIT_UNTRUSTED) {	/* saved: its anomalies are the noise */
			pb_say(stderr, "pinbench calibrate: block %d: run exited %d\n", i + 1, rc);
			return -1;
		}
	}
	return i;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(path);
}

/* "noise-<class, letters and digits>-<date>.json" in dir, or o->out itself */
static void profile_path(const char *out, const char *cls, const char *stamp, char *buf,
			 size_t len)
{
	char slug[96];
	size_t n = 0;

	for (const char *s = cls; *s && n < sizeof(slug) - 1; s++) {
		bool al = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			  (*s >= '0' && *s <= '9');

		if (al)
			slug[n++] = *s;
		else if (n && slug[n - 1] != '-')
			slug[n++] = '-';
	}
	while (n && slug[n - 1] == '-')
		n--;
	slug[n] = 0;
	if (strlen(out) > 5 && !strcmp(out + strlen(out) - 5, ".json"))
		snprintf(buf, len, "%s", out);
	else
		snprintf(buf, len, "%s/noise-%s-%s.json", out, slug, stamp);
}

/* The boots of c's runs */
static json_t *boots_of(const struct pb_cmp *c)
{
	json_t *a = json_array(), *v;
	size_t k;

	for (int i = 0; i < c->nr_tables; i++)
		for (int j = 0; j < c->t[i].nr_cells; j++)
			for (int r = 0; r < c->t[i].cells[j].nu; r++) {
				const char *b = c->t[i].cells[j].lv[r].boot;
				bool seen = false;

				json_array_foreach(a, k, v)
					seen |= !strcmp(json_string_value(v), b);
				if (!seen && b[0])
					json_array_append_new(a, json_string(b));
			}
	return a;
}

/* The profile's figures, a line a table */
static void show(json_t *prof, const char *path)
{
	json_t *e, *lv;
	size_t i;

	printf("noise profile: %s\n", path);
	json_array_foreach(json_object_get(prof, "tables"), i, e) {
		json_t *b = json_object_get(e, "between");

		printf("  %s %s:", json_string_value(json_object_get(e, "job")),
		       json_string_value(json_object_get(e, "placement")));
		for (int k = 0; k < 3; k++) {
			static const char *const n[] = { "boot", "invocation", "run" };

			lv = json_object_get(json_object_get(e, "levels"), n[k]);
			if (json_is_true(json_object_get(lv, "covered")))
				printf(" %s %.3g %% (df %g)", n[k],
				       100 * json_number_value(json_object_get(lv, "sd")),
				       json_number_value(json_object_get(lv, "df")));
		}
		printf("%s\n", json_is_true(json_object_get(b, "stands_in")) ?
		       "; boot level not covered, invocation stands in" : "");
		if (json_number_value(json_object_get(b, "df")) > 0)
			printf("    the %s variance: relative SE %.0f %% (sqrt(2/df))\n",
			       json_string_value(json_object_get(b, "level")),
			       100 * pb_noise_rel_se(json_number_value(json_object_get(b, "df"))));
	}
}

/* The profile of what c loaded, saved: 0, or 2 with the error said */
static int write_profile(const struct cal_opts *o, const struct pb_cmp *c, const char *jobfile,
			 int blocks)
{
	struct pb_noise_meta m = { .jobfile = jobfile, .label = o->label, .blocks = blocks,
				   .precision = o->precision_s ? o->precision : NAN };
	char date[32], stamp[32], path[4096], err[512];
	struct utsname u;
	time_t now = time(NULL);
	json_t *prof;
	char *text;
	int rc = 2;

	if (json_array_size(c->classes) != 1 || json_array_size(c->kernels) != 1) {
		pb_say(stderr, "pinbench calibrate: the results are of %zu host classes and %zu "
		       "kernels; a profile is of one each\n", json_array_size(c->classes),
		       json_array_size(c->kernels));
		return 2;
	}
	uname(&u);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", gmtime(&now));
	m.host_class = json_string_value(json_array_get(c->classes, 0));
	m.kernel = json_string_value(json_array_get(c->kernels, 0));
	m.date = date;
	m.boot_ids = boots_of(c);
	prof = pb_noise_build(c, &m);
	json_decref(m.boot_ids);
	text = prof ? json_dumps(prof, JSON_INDENT(2)) : NULL;
	profile_path(o->out ? o->out : pb_cli_results_dir(), m.host_class, stamp, path,
		     sizeof(path));
	if (!o->out || strcmp(path, o->out))
		pb_mkdirs(o->out ? o->out : pb_cli_results_dir());
	if (!text)
		pb_say(stderr, "pinbench calibrate: out of memory\n");
	else if (pb_file_save(path, text, false, err, sizeof(err)))
		pb_say(stderr, "pinbench calibrate: %s\n", err);
	else
		rc = 0;
	if (!rc)
		show(prof, path);
	free(text);
	json_decref(prof);
	return rc;
}

/* Load paths into one group and write their profile */
static int profile_of(const struct cal_opts *o, char **paths, int n, const char *jobfile,
		      int blocks)
{
	struct pb_cmp c = { .by = PB_GROUP_LABEL, .force_group = o->label };
	int rc = pb_cli_load(&c, paths, n, "calibrate");

	if (!rc)
		rc = write_profile(o, &c, jobfile, blocks);
	pb_cmp_free(&c);
	return rc;
}

int cmd_calibrate(int argc, char **argv)
{
	struct cal_opts o = { .label = "calibrate", .budget_min = 60, .precision = 50 };
	char dir[4096], *dirs[1] = { dir };
	const char *tmp = getenv("TMPDIR");
	int rc, n;

	rc = cal_opts(argc, argv, &o);
	if (rc)
		return pb_opts_exit(rc);
	if (o.from)
		return profile_of(&o, argv + optind, argc - optind, NULL, 0);
	snprintf(dir, sizeof(dir), "%s/pinbench-calibrate-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		pb_say(stderr, "pinbench calibrate: %s: %s\n", dir, strerror(errno));
		return 2;
	}
	n = run_blocks(&o, argv[optind], dir);
	rc = n < 2 ? 2 : profile_of(&o, dirs, 1, argv[optind], n);
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	return rc;
}
