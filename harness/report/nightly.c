// SPDX-License-Identifier: GPL-2.0-only
/*
 * nightly.c - the steps of `pinbench nightly JOBFILE --history DIR` (its
 * options, messages and exit code are cli/cmd_nightly.c's): run the job
 * file (the run engine, as `pinbench run -o DIR --label <kernel release>`
 * runs it, through the function cli hands in: the result lands in
 * DIR/<release>/), find the newest earlier kernel in DIR that ran the
 * same job file, and write the night's report-<UTC date-time>.md and its
 * plot into the run's folder, report.md and report.png being the newest
 * night's (hard links): a second night of a kernel keeps the first's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
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
#include "report/history.h"
#include "report/nightly.h"
#include "report/noise.h"
#include "report/resultload.h"
#include "report/plot.h"
#include "lib/file.h"
#include "lib/numfmt.h"
#include "lib/schema.h"
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
 * Every *.json under dir (recursively), not through symlinked folders (no
 * cycles); a symlink to a file is listed here and refused by file_meta(),
 * which opens each without following one, naming it.
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
 * A SIGINT, SIGTERM or SIGHUP sent to nightly alone (kill PID, not its
 * group) would orphan pinbench run and its roles: it is passed on to the
 * run, which stops and saves what finished, and nightly waits for it.
 */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
static volatile sig_atomic_t got_signal;
static volatile sig_atomic_t child_pid;	/* pinbench run, while it runs */
static struct sigaction before[3];		/* the stop signals' actions before */

static void on_signal(int sig)
{
	int e = errno;

	got_signal = sig;
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
	errno = e;
}

/* A signal ignored when nightly began (nohup, a background job) stays ignored. */
static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */

	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		if (!sigaction(stop_signals[i], NULL, &before[i]) &&
		    before[i].sa_handler != SIG_IGN)
			sigaction(stop_signals[i], &sa, NULL);
}

/* Block (how SIG_BLOCK) or restore (SIG_SETMASK, old) the stop signals. */
static void mask_signals(int how, sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&set, stop_signals[i]);
	sigprocmask(how, how == SIG_BLOCK ? &set : old, how == SIG_BLOCK ? old : NULL);
}

/* In the child: the stop signals as they were before nightly. */
static void restore_signals(const sigset_t *old)
{
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &before[i], NULL);
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* In the child: the run (n->run), or the stand-in exec'd; does not return. */
static int run_in_child(const struct pb_nightly_opts *n, const char *standin, int fd)
{
	char *argv[] = { (char *)standin, (char *)n->history, (char *)n->label,
			 (char *)n->jobfile, NULL };
	int e, rc;

	if (!standin) {
		rc = n->run ? n->run(n) : 2;
		fflush(NULL);
		_exit(rc);
	}
	execv(standin, argv);
	e = errno;
	if (write(fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/*
 * Run the job file (n->run: cli's, the run engine): its exit code, 2 when
 * it died (or a stop signal came before it started: not started then), or
 * -1 with err when it could not be started.  Its stdout and stderr go to
 * qout and qerr when they are not NULL.  A stop signal is passed on to it
 * (on_signal) and it is waited for.  $PINBENCH_RUN_STANDIN (for the
 * tests) is a program run instead, as PROG HISTORY LABEL JOBFILE; exec's
 * errno comes back on a pipe that a successful exec closes.
 */
static int run_child(const struct pb_nightly_opts *n, FILE *qout, FILE *qerr, char *err,
		     size_t len)
{
	const char *standin = getenv("PINBENCH_RUN_STANDIN");
	int status, e = 0, fd[2];
	sigset_t old;
	ssize_t got;
	pid_t pid, w;

	standin = standin && *standin ? standin : NULL;
	fflush(NULL);
	if (pipe2(fd, O_CLOEXEC))
		return pb_errf(err, len, errno, "cannot run %s", n->jobfile);
	/* the pid is known to on_signal before any signal is taken */
	mask_signals(SIG_BLOCK, &old);
	/* a process of its own: a crash of the run or its roles leaves nightly standing */
	pid = got_signal ? -1 : fork();
	if (pid < 0) {		/* or stopped before the run began */
		e = errno;
		mask_signals(SIG_SETMASK, &old);
		close(fd[0]);
		close(fd[1]);
		return got_signal ? 2 : pb_errf(err, len, e, "cannot run %s", n->jobfile);
	}
	if (pid == 0) {
		restore_signals(&old);
		close(fd[0]);
		if (qout)
			dup2(fileno(qout), STDOUT_FILENO);
		if (qerr)
			dup2(fileno(qerr), STDERR_FILENO);
		run_in_child(n, standin, fd[1]);
	}
	child_pid = pid;
	mask_signals(SIG_SETMASK, &old);
	close(fd[1]);
	do
		got = read(fd[0], &e, sizeof(e));
	while (got < 0 && errno == EINTR);
	close(fd[0]);
	do
		w = waitpid(pid, &status, 0);
	while (w < 0 && errno == EINTR);
	child_pid = 0;
	if (w < 0)
		return 2;
	if (got == sizeof(e))
		return pb_errf(err, len, e, "cannot run %s", standin);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

/* What was written to f, from its start, as a string ("" when nothing or no memory). */
static char *slurp(FILE *f)
{
	long sz;
	char *buf;

	if (!f || fflush(f) || (sz = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		return calloc(1, 1);
	buf = calloc(1, (size_t)sz + 1);
	if (buf && sz && fread(buf, 1, (size_t)sz, f) != (size_t)sz)
		buf[0] = 0;
	return buf;
}

/*
 * run_child(); with n->quiet its stdout and stderr are kept in st->run_out
 * and st->run_err, for cli to show or not.
 */
static int run_jobs(const struct pb_nightly_opts *n, struct pb_nightly *st, char *err,
		    size_t len)
{
	FILE *qout = n->quiet ? tmpfile() : NULL, *qerr = n->quiet ? tmpfile() : NULL;
	int rc = run_child(n, qout, qerr, err, len);

	if (n->quiet) {
		st->run_out = slurp(qout);
		st->run_err = slurp(qerr);
	}
	if (qout)
		fclose(qout);
	if (qerr)
		fclose(qerr);
	return rc;
}

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * Label and job file of a result file (and, with rootp, its JSON for the
 * caller to free): 0, or -1 with err saying why it cannot be used
 * (unreadable, corrupt, not a result).
 */
static int file_meta(const char *path, char *label, size_t llen, char *config, size_t clen,
		     json_t **rootp, char *err, size_t elen)
{
	const char *l, *cf;
	struct stat st;
	char why[160] = "";
	json_t *root;
	int fd;

	fd = pb_open_file(path, false, &st, err, elen);
	if (fd < 0)
		return -1;
	root = pb_result_loadfd(fd, path, err, elen);
	close(fd);
	if (!root)
		return -1;
	l = json_string_value(json_object_get(root, "label"));
	cf = json_string_value(json_object_get(root, "config"));
	if (!l) {	/* pb_result_loadfd checked the rest; a label is required here */
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
	if (rootp)
		*rootp = root;
	else
		json_decref(root);
	return 0;
}

/*
 * The files of the newest label before n->label that ran the same job
 * file (st->prev, st->best), and every file of that job file, any label,
 * for the history (st->series; st->same counts this label's).  A file that
 * cannot be read goes to skipped ("PATH: why"): it might have been the one
 * to compare with.
 */
static int earlier_files(const struct pb_nightly_opts *n, struct pb_nightly *st)
{
	char label[128], config[PATH_MAX], err[PATH_MAX + 128];
	struct pb_paths cand = { 0 }, labels = { 0 };
	const struct pb_paths *old = &st->before;
	const char *job = base_of(n->jobfile);
	int i, rc = 0;

	st->best[0] = 0;
	for (i = 0; !rc && i < old->n; i++) {
		if (file_meta(old->v[i], label, sizeof(label), config, sizeof(config), NULL,
			      err, sizeof(err))) {
			if (strstr(err, "schema \"" PB_SCHEMA_NOISE "\""))
				continue;	/* a noise profile in the history */
			pb_str_clean(err);	/* a file name may hold anything */
			rc = paths_add(&st->skipped, err);
			continue;
		}
		if (config[0] && strcmp(config, job))
			continue;
		rc = paths_add(&st->series, old->v[i]);
		if (!strcmp(label, n->label))
			st->same++;
		if (rc || !strcmp(label, n->label) || pb_version_cmp(label, n->label) > 0)
			continue;
		if (!st->best[0] || pb_version_cmp(label, st->best) > 0)
			snprintf(st->best, sizeof(st->best), "%s", label);
		rc = paths_add(&cand, old->v[i]) || paths_add(&labels, label) ? -1 : 0;
	}
	for (i = 0; !rc && i < cand.n; i++)
		if (!strcmp(labels.v[i], st->best))
			rc = paths_add(&st->prev, cand.v[i]);
	paths_free(&cand);
	paths_free(&labels);
	return rc;
}

static void report_head(FILE *f, const struct pb_nightly_opts *n, const struct pb_nightly *st,
			time_t t)
{
	char when[64];
	struct tm tm;
	int i;

	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
	fprintf(f, "# pinbench nightly: %s\n\n", n->label);
	fprintf(f, "- job file: `%s`\n- date: %s\n", n->jobfile, when);
	for (i = 0; i < st->now.n; i++)
		fprintf(f, "- result: `%s`\n", base_of(st->now.v[i]));
	if (st->best[0])
		fprintf(f, "- compared with: **%s** (the newest earlier kernel in `%s`)\n",
			st->best, n->history);
	else
		fprintf(f, "- compared with: nothing (no earlier kernel in `%s`)\n", n->history);
	if (st->same)
		fprintf(f, "- earlier runs of %s: %d (A/A: %s)\n", n->label, st->same,
			st->same == 1 ? "a noise figure needs two" :
			"they measure the noise");
	for (i = 0; i < st->skipped.n; i++)
		fprintf(f, "- **skipped**: `%s`\n", st->skipped.v[i]);
	if (st->signal)
		fprintf(f, "- **stopped** by SIG%s: pinbench run was stopped too; what finished "
			"is saved and reported here\n", sigabbrev_np(st->signal));
	else if (st->run_rc)
		fprintf(f, "- **some jobs failed** (pinbench run exited %d)\n", st->run_rc);
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

/* ---- the history as evidence ---- */

/* What tonight's run of one cell says against the newest earlier kernel and the noise. */
struct judged {
	const struct pb_table	*t;
	struct pb_history_cell	*hc;	/* NULL: not in the history */
	double			floor;	/* percent */
	bool			from_noise;	/* 2 x CV, not --min-change */
	struct pb_eval		e;	/* judged with the floor; has_base false: no change */
	bool			regression;
	int			aa_before;	/* earlier runs of this kernel (0: none, or
					 * no result tonight) */
	double			aa_change;	/* percent: tonight's against their mean */
};

/* Tonight's run means against those of the earlier runs of the same kernel. */
static void aa_check(const struct pb_nightly_opts *n, const struct pb_nightly *st,
		     const struct pb_history *h, struct judged *j)
{
	double now = 0, before = 0;
	int i, nn = 0;

	for (i = 0; j->hc && i < j->hc->n; i++) {
		const struct pb_history_run *r = &h->runs[j->hc->pt[i].run];

		if (strcmp(r->label, n->label))
			continue;
		if (paths_has(&st->now, r->file)) {
			now += j->hc->pt[i].v;
			nn++;
		} else {
			before += j->hc->pt[i].v;
			j->aa_before++;
		}
	}
	if (!nn || !j->aa_before || before == 0) {
		j->aa_before = 0;
		return;
	}
	before /= j->aa_before;
	j->aa_change = (now / nn - before) / fabs(before) * 100;
}

static double cell_floor(const struct pb_nightly_opts *n, const struct pb_history_cell *hc,
			 bool *from_noise)
{
	double twice = hc && !isnan(hc->cv) ? 200 * hc->cv : 0;

	*from_noise = twice > n->min_change;
	return *from_noise ? twice : n->min_change;
}

static int judge_all(const struct pb_nightly_opts *n, struct pb_nightly *st, struct pb_cmp *c,
		     struct pb_history *h, struct judged **out)
{
	int i, bg = st->best[0] ? pb_cmp_find_group(c, st->best) : -1;
	int ng = pb_cmp_find_group(c, n->label);
	struct judged *j = calloc((size_t)(c->nr_tables + 1), sizeof(*j));

	*out = j;
	if (!j)
		return -1;
	pb_cmp_ask_between(c, pb_history_between, h);
	for (i = 0; i < c->nr_tables; i++) {
		const struct pb_table *t = &c->t[i];
		const struct pb_cell *base = bg >= 0 ? pb_cmp_base(c, t, bg) : NULL;

		j[i].t = t;
		j[i].hc = pb_history_find(h, t->job, t->placement);
		j[i].floor = cell_floor(n, j[i].hc, &j[i].from_noise);
		pb_cmp_eval(t, ng >= 0 ? pb_cmp_cell(t, ng) : NULL, base, j[i].floor, &j[i].e);
		aa_check(n, st, h, &j[i]);
		j[i].regression = base && pb_cmp_regressed(&j[i].e);
		st->regressions += j[i].regression;
	}
	for (i = 0; i < h->nr_cells; i++) {
		struct pb_history_cell *hc = &h->cells[i];
		bool fn;
		int k;

		for (k = 0; k < hc->nr_steps && k < PB_HISTORY_MAX_STEPS; k++)
			if (hc->steps[k].regression && !strcmp(hc->steps[k].label, n->label) &&
			    fabs(hc->steps[k].change) > cell_floor(n, hc, &fn))
				st->cp_regressions++;
	}
	st->regressions += st->cp_regressions;
	return 0;
}

static const char *plural(int k)
{
	return k == 1 ? "" : "s";
}

static void floor_text(const struct judged *j, const struct pb_nightly_opts *n, char *buf,
		       size_t len)
{
	const struct pb_history_cell *hc = j->hc;
	char out[64] = "";

	if (hc && hc->aa_dropped)
		snprintf(out, sizeof(out), "; %d left out, a CV > %d x the median",
			 hc->aa_dropped, PB_HISTORY_BAD_CV);
	if (j->from_noise)
		snprintf(buf, len, "%.1f %% = 2 x CV %.2f %% (%d A/A run%s of %d kernel%s%s)",
			 j->floor, 100 * hc->cv, hc->aa_runs, plural(hc->aa_runs), hc->aa_kernels,
			 plural(hc->aa_kernels), out);
	else if (hc && !isnan(hc->cv))
		snprintf(buf, len, "%.1f %% (--min-change; 2 x CV = %.2f %% is below it, "
			 "%d A/A run%s%s)", j->floor, 200 * hc->cv, hc->aa_runs,
			 plural(hc->aa_runs), out);
	else if (j->aa_before == 1)	/* A/A, but no kernel ran twice besides tonight */
		snprintf(buf, len, "%.1f %% (--min-change; %d earlier run of this kernel, "
			 "a CV needs 2)", n->min_change, j->aa_before);
	else
		snprintf(buf, len, "%.1f %% (--min-change; no A/A runs)", n->min_change);
}

/* Nothing to compare with: tonight's mean ("tonight 12.3 µs, 4 values"), or "". */
static void tonight_text(const struct judged *j, char *buf, size_t len)
{
	const char *unit = !strcmp(j->t->unit, "us") ? "µs" : j->t->unit;
	char num[PB_NUM_LEN + 64];
	struct pb_numfmt nf;

	buf[0] = 0;
	if (j->e.has_base || !j->e.s.n)
		return;
	pb_numfmt_pick(&nf, j->e.s.mean, j->e.s.stddev);
	snprintf(buf, len, "tonight %s, %d value%s",
		 pb_numfmt_str(&nf, j->e.s.mean, unit, num, sizeof(num)), j->e.s.n,
		 plural(j->e.s.n));
}

static void verdict_text(const struct judged *j, char *buf, size_t len)
{
	char q[300], ci[64];

	pb_cmp_qualify(&j->e, q, sizeof(q));
	pb_cmp_ci_words(&j->e, 1, ci, sizeof(ci));
	if (!j->e.has_base && j->aa_before)
		snprintf(buf, len, "A/A vs %d earlier run%s of this kernel: %+.1f %%: %s",
			 j->aa_before, plural(j->aa_before), j->aa_change,
			 fabs(j->aa_change) > j->floor ? "beyond the floor (not a regression)" :
			 "within the floor");
	else if (!j->e.has_base)
		snprintf(buf, len, "%s",
			 j->e.s.n ? "nothing to compare" : "no result tonight");
	else if (j->e.not_judged[0])	/* said, never a regression */
		snprintf(buf, len, "%+.1f %%: %s", j->e.change, q);
	else if (j->e.significant && j->e.within)
		snprintf(buf, len, "%+.1f %% %s: changed within its boot, "
			 "not a regression: %s", j->e.change, ci, q);
	else if (j->e.significant)
		snprintf(buf, len, "%+.1f %%: %s at the boot level%s, %s", j->e.change,
			 j->e.verdict, j->e.widened ? " (A/A noise)" : "", q);
	else if (j->e.p_adj < PB_CMP_ALPHA && fabs(j->e.change) > 0)
		snprintf(buf, len, "%+.1f %%: within the floor; %s", j->e.change, q);
	else if (j->e.within || !q[0])
		snprintf(buf, len, "%+.1f %%: %s", j->e.change,
			 q[0] ? q : "no significant change");
	else
		snprintf(buf, len, "%+.1f %%: %s at the boot level%s", j->e.change, q,
			 j->e.widened ? " (A/A noise)" : "");
}

static int aa_total(const struct pb_history *h, int *kernels)
{
	int i, runs = 0;

	*kernels = 0;
	for (i = 0; i < h->nr_cells; i++)
		if (h->cells[i].aa_runs > runs) {
			runs = h->cells[i].aa_runs;
			*kernels = h->cells[i].aa_kernels;
		}
	return runs;
}

static void write_noise(FILE *f, bool md, const struct pb_nightly_opts *n,
			const struct pb_nightly *st, const struct judged *j, int nr,
			const struct pb_history *h)
{
	int i, kernels, runs = aa_total(h, &kernels);
	const char *in = md ? "" : "  ";
	char fl[160], vd[640], now[PB_NUM_LEN + 128];

	fprintf(f, md ? "## Against the history's noise\n\n" : "\nagainst the history's noise:\n");
	fprintf(f, "%sA regression is significant and beyond the floor, max(--min-change %.1f %%,"
		" 2 x CV),\n%sCV: the between-run CV of the run means of each kernel that ran more"
		" than once\n%s(A/A), pooled over kernels (root mean square by runs - 1), tonight's"
		" run left out.\n%s", in, n->min_change, in, in, in);
	if (runs)
		fprintf(f, "At most %d A/A run%s of %d kernel%s.\n", runs, plural(runs), kernels,
			plural(kernels));
	else if (st->same)
		fprintf(f, "No CV from A/A runs yet: it needs a kernel with two runs besides "
			"tonight's,\n%sand %s has %d earlier run%s: the floor is --min-change.\n",
			in, n->label, st->same, plural(st->same));
	else
		fprintf(f, "No A/A runs in the history (no kernel ran this job file twice): "
			"the floor is --min-change.\n");
	if (md)
		fprintf(f, "\n| job | placement | floor | against %s |\n|---|---|---|---|\n",
			st->best[0] ? st->best : st->same ? "earlier runs of this kernel" :
			"(nothing)");
	for (i = 0; i < nr; i++) {
		floor_text(&j[i], n, fl, sizeof(fl));
		verdict_text(&j[i], vd, sizeof(vd));
		tonight_text(&j[i], now, sizeof(now));
		if (md)
			fprintf(f, "| %s | %s | %s | %s%s%s%s%s |\n", j[i].t->job,
				j[i].t->placement, fl, now, now[0] ? "; " : "",
				j[i].regression ? "**" : "", vd, j[i].regression ? "**" : "");
		else
			fprintf(f, "  %s %s: floor %s\n    %s%s%s\n", j[i].t->job,
				j[i].t->placement, fl, now, now[0] ? "\n    " : "", vd);
	}
	fputc('\n', f);
}

static void write_steps(FILE *f, bool md, const struct pb_nightly_opts *n, const struct pb_history *h)
{
	const struct pb_cp_opts *o = &h->cp;
	int i, k;

	fprintf(f, md ? "## Change points\n\n" : "change points:\n");
	fprintf(f, "%sE-divisive means over each cell's run means in history order (kernels in"
		" version order,\n%sruns of a kernel by start time): alpha 1, at least %d run%s a "
		"side, %d permutations,\n%sseed %llu, p < %.2f; %d run%s in the history.\n",
		md ? "" : "  ", md ? "" : "  ", o->min_size, plural(o->min_size), o->permutations,
		md ? "" : "  ", (unsigned long long)o->seed, o->alpha, h->nr_runs,
		plural(h->nr_runs));
	if (md)
		fprintf(f, "\n| job | placement | runs | change points |\n|---|---|---|---|\n");
	for (i = 0; i < h->nr_cells; i++) {
		const struct pb_history_cell *c = &h->cells[i];

		if (md)
			fprintf(f, "| %s | %s | %d | ", c->job, c->placement, c->n);
		else
			fprintf(f, "  %s %s (%d run%s): ", c->job, c->placement, c->n,
				plural(c->n));
		if (!c->nr_steps)
			fprintf(f, "no change point");
		for (k = 0; k < c->nr_steps && k < PB_HISTORY_MAX_STEPS; k++) {
			const struct pb_history_step *s = &c->steps[k];
			bool now = !strcmp(s->label, n->label);

			fprintf(f, "%s%s%s%s: %+.1f %% %s (p %.3f)", k ? "; " : "",
				md ? "**" : "", s->label, md ? "**" : "", s->change,
				s->regression ? "regression" : "improvement", s->p);
			if (now)
				fprintf(f, " at this kernel");
		}
		fprintf(f, md ? " |\n" : "\n");
	}
	fputc('\n', f);
}

static const char *verdict(const struct pb_nightly *st)
{
	if (st->signal)
		return st->regressions ? "regression, and stopped by a signal" :
		       "stopped by a signal";
	if (st->regressions && st->run_rc)
		return "regression, and some jobs failed";
	if (st->regressions)
		return st->cp_regressions ? "regression (a change point at this kernel)" :
		       "regression";
	if (st->run_rc)
		return "some jobs failed";
	if (st->best[0])
		return "no regression";
	return st->same ? "no earlier kernel, only A/A runs of this one" : "nothing to compare with";
}

/* The history of this job file: every usable earlier file and tonight's. */
static int load_history(const struct pb_nightly *st, struct pb_history *h)
{
	char label[128], config[PATH_MAX], err[PATH_MAX + 128];
	const struct pb_paths *set[2] = { &st->series, &st->now };
	json_t *root;
	int i, k, rc = 0;

	for (k = 0; k < 2; k++)
		for (i = 0; !rc && i < set[k]->n; i++) {
			if (file_meta(set[k]->v[i], label, sizeof(label), config, sizeof(config),
				      &root, err, sizeof(err)))
				continue;
			rc = pb_history_add(h, set[k]->v[i], root, k == 1);
			json_decref(root);
		}
	return rc ? -1 : pb_history_analyse(h);
}

/*
 * The noise profile (n->noise, or the newest in the history) as o's
 * between; its line in nl->line ("" none).  0, or -1 with err.
 */
struct nightly_noise {
	struct pb_noise		p;
	struct pb_noise_ctx	x;
	char			line[1024];
};
static int pick_noise(const struct pb_nightly_opts *n, const struct pb_cmp *c,
		      struct nightly_noise *nl, struct pb_cmp_opts *o, char *err, size_t len)
{
	char *dirs[1] = { (char *)n->history };
	int r = pb_noise_pick(n->noise, dirs, 1, c, &nl->p, &nl->x, nl->line, sizeof(nl->line));

	if (r == -2)
		return pb_errf(err, len, 0, "--noise %s", nl->line);
	if (nl->p.root) {	/* refused too: each table says why */
		o->between = pb_noise_between;
		o->between_ctx = &nl->x;
	}
	return 0;
}

/* ---- every night's report kept ---- */

static const char *const night_ext[] = { "md", "png", "gp", "dat" };

/*
 * The name of tonight's report in dir, "report-<UTC date-time>" (and -2,
 * -3, ... when a night of that second is there): no file (nor symlink) of
 * any of its extensions there yet.  0, or -1 with err.
 */
static int night_stem(const char *dir, time_t t, char *stem, size_t slen, char *err,
		      size_t len)
{
	char base[40], path[PATH_MAX + 64];
	struct stat sb;
	struct tm tm;
	size_t k;
	int i;

	gmtime_r(&t, &tm);
	strftime(base, sizeof(base), "report-%Y%m%dT%H%M%SZ", &tm);
	for (i = 1; i < 100; i++) {
		snprintf(stem, slen, i > 1 ? "%s-%d" : "%s", base, i);
		for (k = 0; k < sizeof(night_ext) / sizeof(night_ext[0]); k++) {
			snprintf(path, sizeof(path), "%s/%s.%s", dir, stem, night_ext[k]);
			if (!lstat(path, &sb) || errno != ENOENT)
				break;
		}
		if (k == sizeof(night_ext) / sizeof(night_ext[0]))
			return 0;
	}
	return pb_errf(err, len, EEXIST, "%s/%s.md", dir, base);
}

/*
 * dir/report.EXT as the newest night's: a hard link to dir/STEM.EXT made
 * under a temporary name of its own, renamed over report.EXT (a symlink
 * planted there is replaced, never followed; the night's file stays).  0,
 * or -1 with err.
 */
static int link_newest(const char *dir, const char *stem, const char *ext, char *err,
		       size_t len)
{
	char from[PATH_MAX + 64], to[PATH_MAX + 16], tmp[PATH_MAX + 64];
	int i, e;

	snprintf(from, sizeof(from), "%s/%s.%s", dir, stem, ext);
	snprintf(to, sizeof(to), "%s/report.%s", dir, ext);
	for (i = 0; i < 100; i++) {
		snprintf(tmp, sizeof(tmp), "%s/.report.%s.%d.%d", dir, ext, (int)getpid(), i);
		if (!linkat(AT_FDCWD, from, AT_FDCWD, tmp, 0))
			break;
		if (errno != EEXIST)
			return pb_errf(err, len, errno, "%s", to);
	}
	if (i == 100)
		return pb_errf(err, len, EEXIST, "%s", tmp);
	if (rename(tmp, to)) {
		e = errno;
		unlink(tmp);
		return pb_errf(err, len, e, "%s", to);
	}
	return 0;
}

/*
 * report.md (and, plotted, report.png, .gp, .dat): tonight's.  Not
 * plotted, an earlier night's report.png, .gp, .dat are unlinked (that
 * night's own files stay): they would pass for tonight's.
 */
static int link_all_newest(const char *dir, const char *stem, bool plotted, char *err,
			   size_t len)
{
	char to[PATH_MAX + 16];
	size_t k;
	int rc = 0;

	for (k = 0; !rc && k < sizeof(night_ext) / sizeof(night_ext[0]); k++) {
		if (!k || plotted) {
			rc = link_newest(dir, stem, night_ext[k], err, len);
			continue;
		}
		snprintf(to, sizeof(to), "%s/report.%s", dir, night_ext[k]);
		if (unlink(to) && errno != ENOENT)
			rc = pb_errf(err, len, errno, "%s", to);
	}
	return rc;
}

/* The history's plot: each cell's runs over the nights, its noise floor when known. */
static int plot_history(const struct pb_nightly_opts *n, const struct pb_history *h,
			const char *path, char *err, size_t len)
{
	double *floor = calloc((size_t)h->nr_cells + 1, sizeof(*floor));
	bool from_noise;
	int i, rc;

	for (i = 0; floor && i < h->nr_cells; i++)
		floor[i] = isnan(h->cells[i].cv) ? NAN : cell_floor(n, &h->cells[i], &from_noise);
	rc = pb_plot_history(h, floor, path, err, len);
	free(floor);
	return rc;
}

/*
 * Compare; write report-<UTC date-time>.md (and .png) beside the new
 * result, claimed (never over another night's), and link report.md (and
 * report.png) to them.
 */
static int report(const struct pb_nightly_opts *n, struct pb_nightly *st, FILE *out,
		  char *err, size_t len)
{
	struct pb_cmp_opts o = { .format = PB_FMT_MARKDOWN, .min_change = n->min_change,
				 .baseline = st->best[0] ? st->best : NULL };
	char dir[PATH_MAX], path[PATH_MAX + 64], perr[PATH_MAX + 128], stem[48], *md = NULL;
	time_t now_t = time(NULL);
	const struct pb_paths *now = &st->now, *prev = &st->prev;
	size_t mdlen = 0;
	struct pb_history h = { 0 };
	struct judged *j = NULL;
	struct pb_cmp c = { .no_links = true };
	struct nightly_noise nl = { 0 };
	int i, rc = 0, prc = -1, r;
	FILE *f;

	snprintf(dir, sizeof(dir), "%.*s", (int)(base_of(now->v[0]) - now->v[0] - 1), now->v[0]);
	for (i = 0; !rc && i < prev->n; i++)
		rc = pb_cmp_load(&c, prev->v[i], err, len);
	for (i = 0; !rc && i < now->n; i++)
		rc = pb_cmp_load(&c, now->v[i], err, len);
	if (!rc && load_history(st, &h))
		rc = pb_errf(err, len, 0, "out of memory");
	if (!rc)
		rc = pick_noise(n, &c, &nl, &o, err, len);
	if (!rc)
		rc = night_stem(dir, now_t, stem, sizeof(stem), err, len);
	if (!rc) {
		pb_cmp_order(&c, false);
		pb_cmp_set_aside(&c, pb_cmp_find_group(&c, n->label));
		snprintf(path, sizeof(path), "%s/%s.png", dir, stem);
		if (got_signal)
			snprintf(perr, sizeof(perr), "nightly was stopped (SIG%s)",
				 sigabbrev_np(got_signal));
		prc = n->plot && !got_signal ? plot_history(n, &h, path, perr, sizeof(perr)) : -1;
		snprintf(path, sizeof(path), "%s/%s.md", dir, stem);
		f = open_memstream(&md, &mdlen);	/* saved whole, atomically */
		if (!f)
			snprintf(err, len, "%s: %s", path, strerror(errno));
		rc = f ? 0 : -1;
	}
	if (!rc) {
		report_head(f, n, st, now_t);
		if (nl.line[0]) {
			fprintf(f, "%s\n\n", nl.line);
			fprintf(out, "%s\n\n", nl.line);
		}
		set_aside_lines(f, &c, "- **not compared**: ", "\n");
		set_aside_lines(out, &c, "pinbench nightly: not compared: ", "");
		o.between = pb_history_between;
		o.between_ctx = &h;
		/* compare's report is of a comparison: none without an earlier kernel */
		r = st->best[0] ? pb_cmp_report(&c, &o, f, err, len) : 0;
		st->regressions = 0;
		st->cp_regressions = 0;
		if (r >= 0 && judge_all(n, st, &c, &h, &j))
			r = pb_errf(err, len, 0, "out of memory");
		if (r >= 0) {
			write_noise(f, true, n, st, j, c.nr_tables, &h);
			write_steps(f, true, n, &h);
			fprintf(f, "**Verdict: %s.**\n\n", verdict(st));
		}
		if (prc == 0)
			fprintf(f, "## Plots\n\n![pinbench plots](%s.png)\n", stem);
		else if (n->plot)
			fprintf(f, "## Plots\n\nNot made: %s\n", perr);
		rc = fclose(f) || r < 0 ? -1 : 0;
		if (!rc && mdlen && md[mdlen - 1] == '\n')
			md[mdlen - 1] = 0;	/* pb_file_save adds it */
		if (!rc)	/* a night's report is never replaced */
			rc = pb_file_save(path, md, true, err, len) ? -1 : 0;
		if (!rc)
			rc = link_all_newest(dir, stem, prc == 0, err, len);
		o.format = PB_FMT_TEXT;
		if (!rc && (!st->best[0] || pb_cmp_report(&c, &o, out, err, len) >= 0)) {
			write_noise(out, false, n, st, j, c.nr_tables, &h);
			write_steps(out, false, n, &h);
			fprintf(out, "verdict: %s\nreport: %s (also report.md)\n", verdict(st),
				path);
		}
	}
	free(md);
	free(j);
	pb_noise_free(&nl.p);
	pb_history_free(&h);
	pb_cmp_free(&c);
	st->signal = got_signal;
	return rc;
}

/* ---- the steps of a nightly ---- */

/*
 * The run's folder, DIR/<label>, is a real folder or not there yet: a
 * symlink planted there would have the run and the report written
 * wherever it points.  0, or -1 with err.
 */
static int label_dir_check(const struct pb_nightly_opts *n, char *err, size_t len)
{
	char dir[PATH_MAX];
	struct stat st;

	if (snprintf(dir, sizeof(dir), "%s/%s", n->history, n->label) >= (int)sizeof(dir))
		return pb_errf(err, len, ENAMETOOLONG, "%s", n->history);
	if (lstat(dir, &st))
		return errno == ENOENT ? 0 : pb_errf(err, len, errno, "%s", dir);
	if (S_ISLNK(st.st_mode))
		return pb_errf(err, len, 0, "%s is a symbolic link: nightly writes into no "
			       "symlinked folder of its history (remove it)", dir);
	if (!S_ISDIR(st.st_mode))
		return pb_errf(err, len, 0, "%s is not a folder: the run's results go there "
			       "(remove it)", dir);
	return 0;
}

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
	if (label_dir_check(n, err, len))
		return -1;
	catch_signals();
	st->run_rc = run_jobs(n, st, err, len);
	st->signal = got_signal;
	if (st->run_rc < 0)
		return -1;
	if (st->run_rc == 2 && !st->signal)
		return pb_errf(err, len, 0, "pinbench run %s failed (exit 2)", n->jobfile);
	rc = scan(n->history, &after, 0) ? -1 : 0;
	for (i = 0; !rc && i < after.n; i++)
		if (!paths_has(&st->before, after.v[i]) && paths_add(&st->now, after.v[i]))
			rc = -1;
	paths_free(&after);
	if (!rc && !st->now.n && !st->signal)
		return pb_errf(err, len, 0, "the run wrote no result under %s", n->history);
	if (!rc && !st->now.n)
		return 0;	/* stopped before anything was saved: nothing to report */
	if (!rc && earlier_files(n, st))
		rc = -1;
	return rc;
}

int pb_nightly_report(const struct pb_nightly_opts *n, struct pb_nightly *st, FILE *out,
		      char *err, size_t len)
{
	return report(n, st, out, err, len);
}

void pb_nightly_free(struct pb_nightly *st)
{
	paths_free(&st->before);
	paths_free(&st->now);
	paths_free(&st->prev);
	paths_free(&st->skipped);
	paths_free(&st->series);
	free(st->run_out);
	free(st->run_err);
	st->run_out = st->run_err = NULL;
}
