// SPDX-License-Identifier: GPL-2.0-only
/*
 * nightly.c - the steps of `pinbench nightly JOBFILE --history DIR` (its
 * options, messages and exit code are cli/cmd_nightly.c's): run the job
 * file (pinbench run -o DIR --label <kernel release>: the result lands in
 * DIR/<release>/), find the newest earlier kernel in DIR that ran the
 * same job file, and write report.md and the plots into the run's folder.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

#include "report/compare.h"
#include "report/nightly.h"
#include "report/plot.h"
#include "lib/file.h"
#include "lib/util.h"

static void paths_free(struct pb_paths *p)
{
	int i;

	for (i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

static int paths_add(struct pb_paths *p, const char *s)
{
	char **nv = realloc(p->v, (size_t)(p->n + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	p->v = nv;
	p->v[p->n] = strdup(s);
	return p->v[p->n] ? (p->n++, 0) : -1;
}

static bool paths_has(const struct pb_paths *p, const char *s)
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
static int scan(const char *dir, struct pb_paths *out, int depth)
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

/*
 * Run `pinbench run`: its exit code, 2 when it died, or -1 with err when it
 * could not be started (the child sends execv's errno back on a pipe that
 * a successful exec closes).
 */
static int run_jobs(const struct pb_nightly_opts *n, char *err, size_t len)
{
	const char *self = getenv("PINBENCH_SELF");
	char *argv[PB_NIGHTLY_MAX_ARGS + 10];
	int i, a = 0, status, e = 0, fd[2];
	ssize_t got;
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
	if (pipe2(fd, O_CLOEXEC))
		return pb_errf(err, len, errno, "cannot run %s", self);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return pb_errf(err, len, errno, "cannot run %s", self);
	}
	if (pid == 0) {
		close(fd[0]);
		execv(self, argv);
		e = errno;
		if (write(fd[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(fd[1]);
	do
		got = read(fd[0], &e, sizeof(e));
	while (got < 0 && errno == EINTR);
	close(fd[0]);
	if (waitpid(pid, &status, 0) < 0)
		return 2;
	if (got == sizeof(e))
		return pb_errf(err, len, e, "cannot run %s", self);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
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
static int earlier_files(const struct pb_nightly_opts *n, const struct pb_paths *old, struct pb_paths *out,
			 struct pb_paths *skipped, char *best, size_t blen)
{
	char label[128], config[PATH_MAX], err[PATH_MAX + 128];
	struct pb_paths cand = { 0 }, labels = { 0 };
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

static void report_head(FILE *f, const struct pb_nightly_opts *n, const char *best,
			const struct pb_paths *now, const struct pb_paths *skipped, int run_rc)
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

/* The tables pb_cmp_set_aside() kept out of the verdict, and why: a line each. */
static void set_aside_lines(FILE *f, const struct pb_cmp *c, const char *pre, const char *end)
{
	bool any = false;

	for (int i = 0; i < c->nr_tables; i++) {
		const struct pb_table *t = &c->t[i];

		if (!t->differs[0])
			continue;
		fprintf(f, "%s%s (%s): the results were made with different keys, %s\n", pre,
			t->job, t->placement, t->differs);
		any = true;
	}
	if (any)
		fputs(end, f);
}

/* Compare; write report.md (and report.png) beside the new result. */
static int report(const struct pb_nightly_opts *n, const struct pb_paths *now,
		  const struct pb_paths *prev, const struct pb_paths *skipped, const char *best,
		  int run_rc, int *regressions, FILE *out, char *err, size_t len)
{
	struct pb_cmp_opts o = { .format = PB_FMT_MARKDOWN, .min_change = n->min_change,
				 .baseline = best[0] ? best : NULL };
	char dir[PATH_MAX], path[PATH_MAX + 16], perr[PATH_MAX + 128];
	struct pb_cmp c = { 0 };
	int i, rc = 0, prc = -1;
	FILE *f;

	snprintf(dir, sizeof(dir), "%.*s", (int)(base_of(now->v[0]) - now->v[0] - 1), now->v[0]);
	for (i = 0; !rc && i < prev->n; i++)
		rc = pb_cmp_load(&c, prev->v[i], err, len);
	for (i = 0; !rc && i < now->n; i++)
		rc = pb_cmp_load(&c, now->v[i], err, len);
	if (!rc) {
		pb_cmp_order(&c, false);
		pb_cmp_set_aside(&c, pb_cmp_find_group(&c, n->label));
		snprintf(path, sizeof(path), "%s/report.png", dir);
		prc = n->plot ? pb_plot_write(&c, path, perr, sizeof(perr)) : -1;
		snprintf(path, sizeof(path), "%s/report.md", dir);
		f = fopen(path, "w");
		if (!f)
			snprintf(err, len, "%s: %s", path, strerror(errno));
		rc = f ? 0 : -1;
	}
	if (!rc) {
		report_head(f, n, best, now, skipped, run_rc);
		set_aside_lines(f, &c, "- **not compared**: ", "\n");
		set_aside_lines(out, &c, "pinbench nightly: not compared: ", "");
		*regressions = pb_cmp_report(&c, &o, f, err, len);
		if (*regressions >= 0)
			fprintf(f, "**Verdict: %s.**\n\n", !best[0] ? "nothing to compare with" :
				*regressions ? "significant regression" : "no significant regression");
		if (prc == 0)
			fprintf(f, "## Plots\n\n![pinbench plots](report.png)\n");
		else if (n->plot)
			fprintf(f, "## Plots\n\nNot made: %s\n", perr);
		rc = fclose(f) || *regressions < 0 ? -1 : 0;
		o.format = PB_FMT_TEXT;
		if (!rc && pb_cmp_report(&c, &o, out, err, len) >= 0)
			fprintf(out, "report: %s\n", path);
	}
	pb_cmp_free(&c);
	return rc;
}

/* ---- the steps of a nightly ---- */

int pb_nightly_run(struct pb_nightly_opts *n, struct pb_nightly *st, char *err, size_t len)
{
	struct pb_paths after = { 0 };
	char why[PB_LABEL_MAX + 200];
	struct utsname u;
	int i, rc;

	memset(st, 0, sizeof(*st));
	err[0] = 0;
	if (!n->label[0] && !uname(&u))
		snprintf(n->label, sizeof(n->label), "%s", u.release);
	if (pb_label_check(n->label, why, sizeof(why)))	/* the kernel release */
		return pb_errf(err, len, 0, "the default label (uname -r) %s", why);
	if (pb_mkdirs(n->history) || scan(n->history, &st->before, 0))
		return pb_errf(err, len, 0, "%s: %s", n->history, strerror(errno));
	st->run_rc = run_jobs(n, err, len);
	if (st->run_rc < 0)
		return -1;
	if (st->run_rc == 2)
		return pb_errf(err, len, 0, "pinbench run %s failed (exit 2)", n->jobfile);
	rc = scan(n->history, &after, 0) ? -1 : 0;
	for (i = 0; !rc && i < after.n; i++)
		if (!paths_has(&st->before, after.v[i]) && paths_add(&st->now, after.v[i]))
			rc = -1;
	paths_free(&after);
	if (!rc && !st->now.n)
		return pb_errf(err, len, 0, "the run wrote no result under %s", n->history);
	if (!rc && earlier_files(n, &st->before, &st->prev, &st->skipped, st->best,
				 sizeof(st->best)))
		rc = -1;
	return rc;
}

int pb_nightly_report(const struct pb_nightly_opts *n, struct pb_nightly *st, FILE *out,
		      char *err, size_t len)
{
	return report(n, &st->now, &st->prev, &st->skipped, st->best, st->run_rc,
		      &st->regressions, out, err, len);
}

void pb_nightly_free(struct pb_nightly *st)
{
	paths_free(&st->before);
	paths_free(&st->now);
	paths_free(&st->prev);
	paths_free(&st->skipped);
}
