// SPDX-License-Identifier: GPL-2.0-only
/*
 * nightly.c - `pinbench nightly JOBFILE --history DIR`: run the job file
 * (pinbench run -o DIR --label <kernel release>: the result lands in
 * DIR/<release>/), compare it with the newest earlier kernel in DIR that
 * ran the same job file, write report.md and the plots into the run's
 * folder, and exit 1 on a significant regression.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>

#include "cli/cmds.h"
#include "report/compare.h"
#include "report/plot.h"
#include "lib/util.h"

#define NIGHTLY_MAX_ARGS	64

struct nightly {
	const char	*jobfile;
	const char	*history;
	char		label[128];
	double		min_change;
	bool		plot;
	char		*fwd[NIGHTLY_MAX_ARGS];	/* options passed on to `run` */
	int		nr_fwd;
};

/* A list of file paths. */
struct paths {
	char	**v;
	int	n;
};

static void paths_free(struct paths *p)
{
	int i;

	for (i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

static int paths_add(struct paths *p, const char *s)
{
	char **nv = realloc(p->v, (size_t)(p->n + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	p->v = nv;
	p->v[p->n] = strdup(s);
	return p->v[p->n] ? (p->n++, 0) : -1;
}

static bool paths_has(const struct paths *p, const char *s)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->v[i], s))
			return true;
	return false;
}

/*
 * Every *.json under dir (recursively), as compare reads a folder: regular
 * files (a symlink to one too), not through symlinked folders (no cycles).
 */
static int scan(const char *dir, struct paths *out, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char sub[PATH_MAX];
	struct stat st;
	size_t l;
	int rc = 0;

	if (!d)
		return errno == ENOENT ? 0 : -1;
	while (!rc && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (lstat(sub, &st))
			continue;
		l = strlen(de->d_name);
		if (S_ISDIR(st.st_mode) && depth < 8)
			rc = scan(sub, out, depth + 1);
		else if (l > 5 && !strcmp(de->d_name + l - 5, ".json") &&
			 (S_ISREG(st.st_mode) || (S_ISLNK(st.st_mode) && !stat(sub, &st) &&
						  S_ISREG(st.st_mode))))
			rc = paths_add(out, sub);
	}
	closedir(d);
	return rc;
}

static int mkdir_p(const char *path)
{
	char buf[PATH_MAX], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

/* Run `pinbench run`; its exit code, or 2 when it could not run. */
static int run_jobs(const struct nightly *n)
{
	const char *self = getenv("PINBENCH_SELF");
	char *argv[NIGHTLY_MAX_ARGS + 10];
	int i, a = 0, status;
	pid_t pid;

	self = self && *self ? self : "/proc/self/exe";
	argv[a++] = (char *)"pinbench";
	argv[a++] = (char *)"run";
	argv[a++] = (char *)"-o";
	argv[a++] = (char *)n->history;
	argv[a++] = (char *)"--label";
	argv[a++] = (char *)n->label;
	for (i = 0; i < n->nr_fwd; i++)
		argv[a++] = n->fwd[i];
	argv[a++] = (char *)n->jobfile;
	argv[a] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		execv(self, argv);
		fprintf(stderr, "pinbench nightly: cannot run %s: %s\n", self, strerror(errno));
		_exit(2);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return 2;
	return WEXITSTATUS(status);
}

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * Label and job file of a result file: 0, or -1 with err saying why it
 * cannot be used (unreadable, corrupt, not a result).
 */
static int file_meta(const char *path, char *label, size_t llen, char *config, size_t clen,
		     char *err, size_t elen)
{
	const char *l, *cf;
	json_error_t je;
	struct stat st;
	char why[160] = "";
	json_t *root;
	int fd;

	fd = pb_open_regular(path, &st, err, elen);
	if (fd < 0)
		return -1;
	root = json_loadfd(fd, 0, &je);
	close(fd);
	if (!root)
		return pb_errf(err, elen, 0, "%s: cannot read: %s (line %d)", path, je.text,
			       je.line);
	l = json_string_value(json_object_get(root, "label"));
	cf = json_string_value(json_object_get(root, "config"));
	if (pb_cmp_check_result(root, why, sizeof(why)) == 0 && !l) {
		if (json_object_get(root, "label"))
			snprintf(why, sizeof(why), "label is %s, want a string",
				 pb_json_kind(json_object_get(root, "label")));
		else
			snprintf(why, sizeof(why), "no label, want a string");
	}
	if (why[0]) {
		json_decref(root);
		return pb_errf(err, elen, 0, "%s: not a pinbench result: %s", path, why);
	}
	snprintf(label, llen, "%s", l);
	pb_str_clean(label);
	snprintf(config, clen, "%s", cf ? base_of(cf) : "");
	json_decref(root);
	return 0;
}

/*
 * The files of the newest label before n->label that ran the same job
 * file.  A file that cannot be read goes to skipped ("PATH: why"): it
 * might have been the one to compare with.
 */
static int earlier_files(const struct nightly *n, const struct paths *old, struct paths *out,
			 struct paths *skipped, char *best, size_t blen)
{
	char label[128], config[PATH_MAX], err[PATH_MAX + 128];
	struct paths cand = { 0 }, labels = { 0 };
	const char *job = base_of(n->jobfile);
	int i, rc = 0;

	best[0] = 0;
	for (i = 0; !rc && i < old->n; i++) {
		if (file_meta(old->v[i], label, sizeof(label), config, sizeof(config),
			      err, sizeof(err))) {
			pb_str_clean(err);	/* a file name may hold anything */
			rc = paths_add(skipped, err);
			continue;
		}
		if (!strcmp(label, n->label) || (config[0] && strcmp(config, job)) ||
		    pb_version_cmp(label, n->label) > 0)
			continue;
		if (!best[0] || pb_version_cmp(label, best) > 0)
			snprintf(best, blen, "%s", label);
		rc = paths_add(&cand, old->v[i]) || paths_add(&labels, label) ? -1 : 0;
	}
	for (i = 0; !rc && i < cand.n; i++)
		if (!strcmp(labels.v[i], best))
			rc = paths_add(out, cand.v[i]);
	paths_free(&cand);
	paths_free(&labels);
	return rc;
}

static void report_head(FILE *f, const struct nightly *n, const char *best,
			const struct paths *now, const struct paths *skipped, int run_rc)
{
	char when[64];
	time_t t = time(NULL);
	struct tm tm;
	int i;

	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
	fprintf(f, "# pinbench nightly: %s\n\n", n->label);
	fprintf(f, "- job file: `%s`\n- date: %s\n", n->jobfile, when);
	for (i = 0; i < now->n; i++)
		fprintf(f, "- result: `%s`\n", base_of(now->v[i]));
	if (best[0])
		fprintf(f, "- compared with: **%s** (the newest earlier kernel in `%s`)\n",
			best, n->history);
	else
		fprintf(f, "- compared with: nothing (no earlier kernel in `%s`)\n", n->history);
	for (i = 0; i < skipped->n; i++)
		fprintf(f, "- **skipped**: `%s`\n", skipped->v[i]);
	if (run_rc)
		fprintf(f, "- **some jobs failed** (pinbench run exited %d)\n", run_rc);
	fputc('\n', f);
}

/* Compare; write report.md (and report.png) beside the new result. */
static int report(const struct nightly *n, const struct paths *now, const struct paths *prev,
		  const struct paths *skipped, const char *best, int run_rc, int *regressions)
{
	struct pb_cmp_opts o = { .format = PB_FMT_MARKDOWN, .min_change = n->min_change,
				 .baseline = best[0] ? best : NULL };
	char dir[PATH_MAX], path[PATH_MAX + 16], err[PATH_MAX + 128], perr[PATH_MAX + 128];
	struct pb_cmp c = { 0 };
	int i, rc = 0, prc = -1;
	FILE *f;

	snprintf(dir, sizeof(dir), "%.*s", (int)(base_of(now->v[0]) - now->v[0] - 1), now->v[0]);
	for (i = 0; !rc && i < prev->n; i++)
		rc = pb_cmp_load(&c, prev->v[i], err, sizeof(err));
	for (i = 0; !rc && i < now->n; i++)
		rc = pb_cmp_load(&c, now->v[i], err, sizeof(err));
	if (!rc) {
		pb_cmp_order(&c, false);
		snprintf(path, sizeof(path), "%s/report.png", dir);
		prc = n->plot ? pb_plot_write(&c, path, perr, sizeof(perr)) : -1;
		snprintf(path, sizeof(path), "%s/report.md", dir);
		f = fopen(path, "w");
		if (!f)
			snprintf(err, sizeof(err), "%s: %s", path, strerror(errno));
		rc = f ? 0 : -1;
	}
	if (!rc) {
		report_head(f, n, best, now, skipped, run_rc);
		*regressions = pb_cmp_report(&c, &o, f, err, sizeof(err));
		if (*regressions >= 0)
			fprintf(f, "**Verdict: %s.**\n\n", !best[0] ? "nothing to compare with" :
				*regressions ? "significant regression" : "no significant regression");
		if (prc == 0)
			fprintf(f, "## Plots\n\n![pinbench plots](report.png)\n");
		else if (n->plot)
			fprintf(f, "## Plots\n\nNot made: %s\n", perr);
		rc = fclose(f) || *regressions < 0 ? -1 : 0;
		o.format = PB_FMT_TEXT;
		if (!rc && pb_cmp_report(&c, &o, stdout, err, sizeof(err)) >= 0)
			printf("report: %s\n", path);
	}
	if (rc)
		fprintf(stderr, "pinbench nightly: %s\n", err);
	pb_cmp_free(&c);
	return rc;
}

static const char nightly_usage[] =
	"usage: pinbench nightly JOBFILE --history DIR [OPTIONS]\n"
	"Run JOBFILE into DIR/<kernel release>/, compare with the newest earlier kernel\n"
	"in DIR that ran the same job file, write report.md and report.png beside the\n"
	"result; exit 1 on a significant regression (or a failed job).\n"
	"  --history DIR        the results history (required)\n"
	"  --label TEXT         this run's label (default: the kernel release)\n"
	"  --min-change PCT     noise floor for a significant change (default 1)\n"
	"  --no-plot            no report.png\n"
	"  --repeats N, --duration SEC, --placement LIST, --set KEY=VALUE, -q\n"
	"                       passed on to pinbench run\n"
	"  -h, --help\n";

static int forward(struct nightly *n, const char *opt, const char *arg)
{
	if (n->nr_fwd + 2 > NIGHTLY_MAX_ARGS) {
		fprintf(stderr, "pinbench nightly: too many options\n");
		return 2;
	}
	n->fwd[n->nr_fwd++] = (char *)opt;
	if (arg)
		n->fwd[n->nr_fwd++] = (char *)arg;
	return 0;
}

static int nightly_opts(int argc, char **argv, struct nightly *n)
{
	static const struct option lo[] = {
		{ "history", required_argument, NULL, 'H' },
		{ "label", required_argument, NULL, 'l' },
		{ "min-change", required_argument, NULL, 'm' },
		{ "no-plot", no_argument, NULL, 'P' },
		{ "repeats", required_argument, NULL, 'r' },
		{ "duration", required_argument, NULL, 'd' },
		{ "placement", required_argument, NULL, 'p' },
		{ "set", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end, err[PB_LABEL_MAX + 200];
	int ch, rc = 0, idx;

	optind = 0;
	while (!rc && (ch = getopt_long(argc, argv, "qh", lo, &idx)) != -1) {
		switch (ch) {
		case 'H': n->history = optarg; break;
		case 'l':
			if (pb_label_check(optarg, err, sizeof(err))) {
				fprintf(stderr, "pinbench nightly: --label %s\n", err);
				return 2;
			}
			snprintf(n->label, sizeof(n->label), "%s", optarg);
			break;
		case 'P': n->plot = false; break;
		case 'q': rc = forward(n, "-q", NULL); break;
		case 'r': rc = forward(n, "--repeats", optarg); break;
		case 'd': rc = forward(n, "--duration", optarg); break;
		case 'p': rc = forward(n, "--placement", optarg); break;
		case 's': rc = forward(n, "--set", optarg); break;
		case 'm':
			n->min_change = strtod(optarg, &end);
			rc = end == optarg || *end || n->min_change < 0 ? 2 : 0;
			break;
		case 'h':
			fputs(nightly_usage, stdout);
			return 3;
		default:
			rc = 2;
		}
	}
	if (!rc && (!n->history || optind != argc - 1))
		rc = 2;
	if (rc) {
		fputs(nightly_usage, stderr);
		return rc;
	}
	n->jobfile = argv[optind];
	return 0;
}

int cmd_nightly(int argc, char **argv)
{
	struct nightly n = { .min_change = PB_CMP_MIN_CHG, .plot = true };
	struct paths before = { 0 }, after = { 0 }, now = { 0 }, prev = { 0 }, skipped = { 0 };
	int rc, run_rc, i, regressions = 0;
	char best[128], err[PB_LABEL_MAX + 200];
	struct utsname u;

	rc = nightly_opts(argc, argv, &n);
	if (rc)
		return rc == 3 ? 0 : rc;
	if (!n.label[0] && !uname(&u))
		snprintf(n.label, sizeof(n.label), "%s", u.release);
	if (pb_label_check(n.label, err, sizeof(err))) {	/* the kernel release */
		fprintf(stderr, "pinbench nightly: the default label (uname -r) %s\n", err);
		return 2;
	}
	if (mkdir_p(n.history) || scan(n.history, &before, 0)) {
		fprintf(stderr, "pinbench nightly: %s: %s\n", n.history, strerror(errno));
		return 2;
	}
	run_rc = run_jobs(&n);
	if (run_rc == 2)
		fprintf(stderr, "pinbench nightly: pinbench run %s failed (exit 2)\n", n.jobfile);
	rc = run_rc == 2 ? 2 : scan(n.history, &after, 0) ? 2 : 0;
	for (i = 0; !rc && i < after.n; i++)
		if (!paths_has(&before, after.v[i]) && paths_add(&now, after.v[i]))
			rc = 2;
	if (!rc && !now.n) {
		fprintf(stderr, "pinbench nightly: the run wrote no result under %s\n", n.history);
		rc = 2;
	}
	if (!rc && earlier_files(&n, &before, &prev, &skipped, best, sizeof(best)))
		rc = 2;
	for (i = 0; !rc && i < skipped.n; i++)
		fprintf(stderr, "pinbench nightly: skipping %s\n", skipped.v[i]);
	if (!rc && !best[0])
		printf("pinbench nightly: no earlier kernel than %s in %s: nothing to compare\n",
		       n.label, n.history);
	if (!rc)
		rc = report(&n, &now, &prev, &skipped, best, run_rc, &regressions) ? 2 : 0;
	if (!rc)
		rc = regressions > 0 || run_rc ? 1 : 0;
	paths_free(&before);
	paths_free(&after);
	paths_free(&now);
	paths_free(&prev);
	paths_free(&skipped);
	return rc;
}
