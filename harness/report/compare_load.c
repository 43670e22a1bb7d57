// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_load.c - result files into a comparison (report/compare.h): files and folders
 * walked once each (by file identity, regular files only, bounded depth),
 * each checked against the schema and skipped with a reason when unusable,
 * jobs pooled into cells by group (label, kernel, host, peer), groups
 * ordered as versions (2.6.9 < 2.6.22 < 2.6.30-rc2 < 2.6.30).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>

#include "core/bench.h"
#include "core/jobfile.h"
#include "core/keys.h"
#include "lib/anomaly.h"
#include "report/compare.h"
#include "report/resultload.h"
#include "lib/schema.h"
#include "lib/util.h"
#include "stats/stats.h"

#define MAX_DEPTH	16

const char *const pb_lat_names[PB_LAT_N] = { "p50", "p90", "p99", "p99.9", "max" };

/* ---- version order ---- */

enum tok_kind { TOK_PRE, TOK_END, TOK_NUM, TOK_WORD };

struct vtok {
	enum tok_kind	kind;
	unsigned long long num;
	const char	*s;
	int		len;
};


const char *const pb_cmp_group_names[] = { "label", "kernel", "host", "peer", "class" };
static bool is_pre_word(const char *s, int len)
{
	static const char *const pre[] = { "alpha", "beta", "dev", "pre", "rc" };
	size_t i;

	for (i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if ((int)strlen(pre[i]) == len && !strncasecmp(s, pre[i], len))
			return true;
	return false;
}

/* The next token of a version string; *p moves past it. */
static void vtok_next(const char **p, struct vtok *t)
{
	const char *s = *p;

	while (*s && !isalnum((unsigned char)*s) && *s != '~')
		s++;
	memset(t, 0, sizeof(*t));
	t->s = s;
	if (!*s) {
		t->kind = TOK_END;
	} else if (*s == '~') {
		t->kind = TOK_PRE;
		t->len = 1;
		s++;
	} else if (isdigit((unsigned char)*s)) {
		t->kind = TOK_NUM;
		while (isdigit((unsigned char)*s))
			t->num = t->num * 10 + (unsigned long long)(*s++ - '0');
	} else {
		while (isalpha((unsigned char)*s))
			s++;
		t->len = (int)(s - t->s);
		t->kind = is_pre_word(t->s, t->len) ? TOK_PRE : TOK_WORD;
	}
	*p = s;
}

static int vtok_cmp(const struct vtok *a, const struct vtok *b)
{
	int n, r;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->kind == TOK_NUM)
		return a->num < b->num ? -1 : a->num > b->num;
	n = a->len < b->len ? a->len : b->len;
	r = strncasecmp(a->s, b->s, n);
	if (r)
		return r;
	return a->len - b->len;
}

int pb_version_cmp(const char *a, const char *b)
{
	const char *pa = a, *pb = b;
	struct vtok ta, tb;
	int r;

	for (;;) {
		vtok_next(&pa, &ta);
		vtok_next(&pb, &tb);
		r = vtok_cmp(&ta, &tb);
		if (r)
			return r < 0 ? -1 : 1;
		if (ta.kind == TOK_END)
			break;
	}
	r = strcmp(a, b);
	return r < 0 ? -1 : r > 0;
}

/* ---- loading ---- */

static const char *jstr(json_t *o, const char *key, const char *def)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : def;
}

int pb_cmp_find_group(const struct pb_cmp *c, const char *name)
{
	int i;

	for (i = 0; i < c->nr_groups; i++)
		if (!strcmp(c->groups[i], name))
			return i;
	return -1;
}

static int add_group(struct pb_cmp *c, const char *name)
{
	int i = pb_cmp_find_group(c, name);
	char (*ns)[24];
	json_t **ne;
	char **ng;

	if (i >= 0)
		return i;
	ne = realloc(c->envs, (size_t)(c->nr_groups + 1) * sizeof(*ne));
	if (!ne)
		return -1;
	c->envs = ne;
	c->envs[c->nr_groups] = NULL;
	ne = realloc(c->cmds, (size_t)(c->nr_groups + 1) * sizeof(*ne));
	if (!ne)
		return -1;
	c->cmds = ne;
	c->cmds[c->nr_groups] = json_array();
	ne = realloc(c->run_errors, (size_t)(c->nr_groups + 1) * sizeof(*ne));
	if (!ne)
		return -1;
	c->run_errors = ne;
	c->run_errors[c->nr_groups] = json_array();
	ns = realloc(c->started, (size_t)(c->nr_groups + 1) * sizeof(*ns));
	if (!ns)
		return -1;
	c->started = ns;
	c->started[c->nr_groups][0] = 0;
	ne = realloc(c->about, (size_t)(c->nr_groups + 1) * sizeof(*ne));
	if (!ne)
		return -1;
	c->about = ne;
	c->about[c->nr_groups] = NULL;
	ng = realloc(c->groups, (size_t)(c->nr_groups + 1) * sizeof(*ng));
	if (!ng)
		return -1;
	c->groups = ng;
	c->groups[c->nr_groups] = strdup(name);
	if (!c->groups[c->nr_groups])
		return -1;
	return c->nr_groups++;
}

static void sweep_parse(struct pb_table *t)
{
	const char *slash = strrchr(t->job, '/');
	const char *eq = slash ? strchr(slash, '=') : NULL;
	double x;

	/* a decimal number: "x=nan" would leave the plot's sort no order */
	if (!eq || pb_parse_double(eq + 1, -HUGE_VAL, HUGE_VAL, &x))
		return;
	snprintf(t->sweep_base, sizeof(t->sweep_base), "%.*s", (int)(slash - t->job), t->job);
	snprintf(t->sweep_key, sizeof(t->sweep_key), "%.*s", (int)(eq - slash - 1), slash + 1);
	t->sweep_x = x;
}

static void cpus_text(json_t *cpus, char *buf, size_t len)
{
	size_t i, off = 0;
	json_t *c;

	buf[0] = 0;
	json_array_foreach(cpus, i, c) {
		json_t *pl = json_object_get(c, "planned");

		if (!json_is_integer(pl) || off >= len)
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%lld", off ? "," : "",
					(long long)json_integer_value(pl));
	}
}

static struct pb_table *get_table(struct pb_cmp *c, json_t *job, int *cap)
{
	const char *name = jstr(job, "name", "?"), *pl = jstr(job, "placement", "-");
	json_t *m = json_object_get(job, "metric"), *rate;
	struct pb_table *t;
	const char *unit, *kind;
	int i;

	for (i = 0; i < c->nr_tables; i++)
		if (!strcmp(c->t[i].job, name) && !strcmp(c->t[i].placement, pl))
			return &c->t[i];
	t = pb_grow(c->t, c->nr_tables, cap, sizeof(*t));
	if (!t)
		return NULL;
	c->t = t;
	t = &c->t[c->nr_tables++];
	memset(t, 0, sizeof(*t));
	t->test = c->test;
	t->between.sd = NAN;
	snprintf(t->job, sizeof(t->job), "%s", name);
	snprintf(t->placement, sizeof(t->placement), "%s", pl);
	snprintf(t->metric, sizeof(t->metric), "%s", jstr(m, "name", "value"));
	unit = jstr(m, "unit", "");
	snprintf(t->unit, sizeof(t->unit), "%s", unit);
	t->higher = !strcmp(jstr(m, "better", "lower"), "higher");
	rate = json_object_get(m, "rate");
	kind = jstr(json_object_get(job, "summary"), "mean_kind", NULL);
	if (json_is_boolean(rate))
		t->rate = json_is_true(rate);
	else if (kind)
		t->rate = !strcmp(kind, "harmonic");
	else
		t->rate = strlen(unit) >= 2 && !strcmp(unit + strlen(unit) - 2, "/s");
	sweep_parse(t);
	return t;
}

static struct pb_cell *get_cell(struct pb_table *t, int group)
{
	struct pb_cell *nc;
	int i;

	for (i = 0; i < t->nr_cells; i++)
		if (t->cells[i].group == group)
			return &t->cells[i];
	nc = realloc(t->cells, (size_t)(t->nr_cells + 1) * sizeof(*nc));
	if (!nc)
		return NULL;
	t->cells = nc;
	nc = &t->cells[t->nr_cells++];
	memset(nc, 0, sizeof(*nc));
	nc->group = group;
	snprintf(nc->status, sizeof(nc->status), "missing");
	return nc;
}

static int add_value(struct pb_cell *cell, double v)
{
	double *nv = pb_grow(cell->v, cell->n, &cell->cap, sizeof(*nv));

	if (!nv)
		return -1;
	cell->v = nv;
	cell->v[cell->n++] = v;
	return 0;
}

/*
 * The repeats v[from..n) of one run: their mean is one value of the cell's
 * runs, kept with where the run sits (lv: its file's boot and invocation,
 * the job's round).
 */
static int add_unit(const struct pb_table *t, struct pb_cell *cell, int from,
		    const struct pb_cmp_level *lv)
{
	double *nu = pb_grow(cell->u, cell->nu, &cell->ucap, sizeof(*nu));
	struct pb_cmp_level *nl;
	struct pb_summary s;

	if (nu)
		cell->u = nu;
	nl = nu ? pb_grow(cell->lv, cell->nu, &cell->lvcap, sizeof(*nl)) : NULL;
	if (!nl)
		return -1;
	cell->lv = nl;
	if (pb_summarize(cell->v + from, cell->n - from, t->rate, &s))
		return 0;
	cell->lv[cell->nu] = *lv;
	cell->lv[cell->nu].repeats = cell->n - from;
	cell->u[cell->nu++] = s.mean;
	return 0;
}

/* A file's boot and invocation, for each of its runs (a job entry adds its round). */
static void level_of(json_t *root, struct pb_cmp_level *lv)
{
	memset(lv, 0, sizeof(*lv));
	snprintf(lv->boot, sizeof(lv->boot), "%s", jstr(root, "boot_id", ""));
	snprintf(lv->invocation, sizeof(lv->invocation), "%s", jstr(root, "invocation", ""));
}

static int add_figure(struct pb_cell *cell, const char *name, double v, double w)
{
	struct pb_cmp_figure *f;
	int i;

	for (i = 0; i < cell->nr_figs; i++)
		if (!strcmp(cell->figs[i].name, name))
			break;
	if (i == cell->nr_figs) {
		f = realloc(cell->figs, (size_t)(i + 1) * sizeof(*f));
		if (!f)
			return -1;
		cell->figs = f;
		memset(&f[i], 0, sizeof(*f));
		snprintf(f[i].name, sizeof(f[i].name), "%s", name);
		cell->nr_figs++;
	}
	cell->figs[i].sum += v * w;
	cell->figs[i].weight += w;
	return 0;
}

/*
 * A finding a of a cell's runs as its mark, once per kind; a later error of
 * a kind first seen as a warning takes its place (an error outweighs it).
 */
static int add_mark(struct pb_cell *cell, json_t *a)
{
	const char *kind = jstr(a, "kind", "unknown"), *sev = jstr(a, "severity", "warn");
	struct pb_mark *m;
	int i;

	if (!strcmp(sev, "info"))
		return 0;	/* info findings carry no mark, as in pinbench run's tables */
	for (i = 0; i < cell->nr_marks && strcmp(cell->marks[i].kind, kind); i++)
		;
	if (i < cell->nr_marks && (strcmp(sev, "error") ||
				   !strcmp(cell->marks[i].severity, "error")))
		return 0;
	if (i == cell->nr_marks) {
		m = realloc(cell->marks, (size_t)(cell->nr_marks + 1) * sizeof(*m));
		if (!m)
			return -1;
		cell->marks = m;
		cell->nr_marks++;
	}
	m = &cell->marks[i];
	snprintf(m->kind, sizeof(m->kind), "%s", kind);
	snprintf(m->severity, sizeof(m->severity), "%s", sev);
	snprintf(m->message, sizeof(m->message), "%s", jstr(a, "message", ""));
	return 0;
}

/* Counter value scaled by enabled/running, or NAN when not counted. */
static double counter_value(json_t *ev)
{
	json_t *v = json_object_get(ev, "value");
	double en, run;

	if (!json_is_number(v))
		return NAN;
	en = json_number_value(json_object_get(ev, "enabled_ns"));
	run = json_number_value(json_object_get(ev, "running_ns"));
	if (run > 0 && run < en)
		return json_number_value(v) * en / run;
	return json_number_value(v);
}

/* No "derived" object: total <event>/op over every repeat and role. */
static int derive_figures(struct pb_cell *cell, json_t *reps, double w)
{
	json_t *rep0 = json_array_get(reps, 0), *inst, *ev;
	const char *ikey, *ekey;
	char name[96];

	json_object_foreach(json_object_get(rep0, "counters"), ikey, inst) {
		json_object_foreach(inst, ekey, ev) {
			double sum = 0, ops = 0, x;
			int counted = 0;
			json_t *r;
			size_t i;

			json_array_foreach(reps, i, r) {
				json_t *ctr = json_object_get(r, "counters");
				const char *k2;
				json_t *i2;

				json_object_foreach(ctr, k2, i2) {
					x = counter_value(json_object_get(i2, ekey));
					if (!isnan(x)) {
						sum += x;
						counted++;
					}
				}
				ops += json_number_value(json_object_get(r, "ops"));
			}
			if (ops <= 0)
				return 0;
			if (!counted)	/* not supported: no figure, never 0 */
				continue;
			snprintf(name, sizeof(name), "total %s/op", ekey);
			if (add_figure(cell, name, sum / ops, w))
				return -1;
		}
		break;	/* the events of the first instance name them all */
	}
	return 0;
}

static int add_figures(struct pb_cell *cell, json_t *job, double w)
{
	json_t *derived = json_object_get(job, "derived"), *o, *v;
	const char *who, *ev;
	char name[96];

	if (!json_is_object(derived))
		return derive_figures(cell, json_object_get(job, "repeats"), w);
	json_object_foreach(derived, who, o) {
		json_object_foreach(o, ev, v) {
			if (!json_is_number(v))
				continue;
			snprintf(name, sizeof(name), "%s %s", who, ev);
			if (add_figure(cell, name, json_number_value(v), w))
				return -1;
		}
	}
	return 0;
}

static void add_latency(struct pb_cell *cell, json_t *job, double w)
{
	json_t *lat = json_object_get(json_object_get(job, "summary"), "latency");
	int i;

	if (!json_is_object(lat))
		return;
	for (i = 0; i < PB_LAT_N; i++)
		if (!json_is_number(json_object_get(lat, pb_lat_names[i])))
			return;
	for (i = 0; i < PB_LAT_N; i++)
		cell->lat[i] += w * json_number_value(json_object_get(lat, pb_lat_names[i]));
	cell->lat_w += w;
}

/* Keys a comparison does not hold equal: how long and how it counted, and where. */
bool pb_cmp_free_key(const char *k)
{
	static const char *const keys[] = {
		"rounds", "percentiles", "repeats", "duration", "warmup", "loops", "timeout",
		"events", "counters", "counting", "count_duration", "placement", "cpus", "peer",
		"peer_cpu", "profile",
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(k, keys[i]))
			return true;
	return false;
}

/*
 * A key a result does not record was made by a pinbench that did not know
 * it, and ran as its default does: the same when the other result's value
 * is this build's default for the key (a common key, or the workload's).
 */
static bool is_default(const char *bench, const char *k, json_t *v)
{
	const struct pb_bench *b = bench ? pb_bench_find(bench) : NULL;
	const struct pb_key *key = pb_key_find(pb_common_keys, k);
	const char *s = json_string_value(v);
	double x, d;

	if (!key && b)
		key = pb_key_find(b->keys, k);
	if (!key || !key->def || !s)
		return false;
	if (!strcmp(s, key->def))
		return true;
	/* "0.50" is "0.5" */
	return !pb_parse_double(s, -HUGE_VAL, HUGE_VAL, &x) &&
	       !pb_parse_double(key->def, -HUGE_VAL, HUGE_VAL, &d) && x == d;
}

static void note_differs(struct pb_cmp *c, struct pb_table *t, int group, const char *k,
			 json_t *first, json_t *later)
{
	snprintf(t->differs, sizeof(t->differs), "%s: %s (%s) vs %s (%s)", k,
		 !first ? "absent" : json_is_string(first) ? json_string_value(first) : "?",
		 c->groups[t->params_group],
		 !later ? "absent" : json_is_string(later) ? json_string_value(later) : "?",
		 c->groups[group]);
	snprintf(t->differs_key, sizeof(t->differs_key), "%s", k);
}

/*
 * The first key whose value differs from the table's first result's, noted
 * once, whichever file is read first.  A key only one of them records
 * differs unless its value there is the key's default.
 */
static void hold_params(struct pb_cmp *c, struct pb_table *t, int group, json_t *params,
			const char *bench)
{
	const char *k;
	json_t *v;

	if (!json_is_object(params))
		return;
	if (!t->params) {
		t->params = json_deep_copy(params);
		t->params_group = group;
		return;
	}
	json_object_foreach(params, k, v) {
		json_t *w = json_object_get(t->params, k);

		if (pb_cmp_free_key(k) || t->differs[0] || (w && json_equal(v, w)) ||
		    (!w && is_default(bench, k, v)))
			continue;
		note_differs(c, t, group, k, w, v);
	}
	json_object_foreach(t->params, k, v) {
		if (pb_cmp_free_key(k) || t->differs[0] || json_object_get(params, k) ||
		    is_default(bench, k, v))
			continue;
		note_differs(c, t, group, k, v, NULL);
	}
}

int pb_cmp_comparable(const struct pb_cmp *c, const char *allow, char *err, size_t len)
{
	for (int i = 0; i < c->nr_tables; i++) {
		const struct pb_table *t = &c->t[i];
		const char *a = allow;
		size_t n = strlen(t->differs_key);
		bool ok = false;

		if (!t->differs[0])
			continue;
		while (a && *a && !ok) {	/* a comma list */
			ok = !strncmp(a, t->differs_key, n) && (a[n] == ',' || !a[n]);
			a = strchr(a, ',');
			a = a ? a + 1 : NULL;
		}
		if (ok)
			continue;
		snprintf(err, len, "%s (%s): the results were made with different keys, %s: "
			 "compare like with like, or --allow-different %s", t->job, t->placement,
			 t->differs, t->differs_key);
		return -1;
	}
	return 0;
}

int pb_cmp_set_aside(struct pb_cmp *c, int keep)
{
	int i, k, n = 0;

	for (i = 0; i < c->nr_tables; i++) {
		struct pb_table *t = &c->t[i];

		if (!t->differs[0])
			continue;
		n++;
		for (k = 0; k < t->nr_cells; k++) {
			struct pb_cell *cell = &t->cells[k];

			if (cell->group == keep)
				continue;
			cell->n = 0;
			cell->nr_figs = 0;
			cell->lat_w = 0;
			snprintf(cell->status, sizeof(cell->status), "not compared");
			snprintf(cell->reason, sizeof(cell->reason), "%s differs", t->differs_key);
		}
	}
	return n;
}

/* The kind of the file's first run-wide anomaly of severity error, or NULL. */
static const char *run_error_of(json_t *root)
{
	json_t *a;
	size_t i;

	json_array_foreach(json_object_get(root, "anomalies"), i, a)
		if (!strcmp(jstr(a, "severity", ""), "error"))
			return jstr(a, "kind", "unknown");
	return NULL;
}

/* job of a file whose first run-wide error finding is run_err (NULL: none) into group. */
static int add_job(struct pb_cmp *c, int group, json_t *job, int *tcap,
		   struct pb_cmp_level *lv, const char *run_err)
{
	struct pb_table *t = get_table(c, job, tcap);
	json_t *reps = json_object_get(job, "repeats"), *r, *a;
	const char *status = jstr(job, "status", "ok");
	/* an interrupted job keeps the summary of its finished metric repeats */
	bool part = !strcmp(status, "interrupted") &&
		    json_is_object(json_object_get(job, "summary"));
	struct pb_cell *cell;
	size_t i;
	double w;
	int from;

	if (!t || !(cell = get_cell(t, group)))
		return -1;
	if (run_err && !cell->run_error[0])
		snprintf(cell->run_error, sizeof(cell->run_error), "%s", run_err);
	hold_params(c, t, group, json_object_get(job, "params"), jstr(job, "bench", NULL));
	if (!t->cpus[0])
		cpus_text(json_object_get(job, "cpus"), t->cpus, sizeof(t->cpus));
	json_array_foreach(json_object_get(job, "anomalies"), i, a)
		if (add_mark(cell, a))
			return -1;
	cell->wall_s += json_number_value(json_object_get(job, "wall_s"));
	if (strcmp(status, "ok") && !part) {
		if (cell->n == 0) {
			snprintf(cell->status, sizeof(cell->status), "%s", status);
			snprintf(cell->reason, sizeof(cell->reason), "%s", jstr(job, "reason", ""));
		}
		return 0;
	}
	from = cell->n;
	json_array_foreach(reps, i, r) {
		json_t *v = json_object_get(r, "value");

		/* counter passes run their own windows: only the metric's own count */
		if (json_is_false(json_object_get(r, "in_summary")))
			continue;
		if (json_is_number(v) && add_value(cell, json_number_value(v)))
			return -1;
	}
	lv->round = json_is_integer(json_object_get(job, "round")) ?
		    (int)json_integer_value(json_object_get(job, "round")) : 1;
	if (cell->n > from && add_unit(t, cell, from, lv))
		return -1;
	cell->interrupted |= part;
	snprintf(cell->status, sizeof(cell->status), "%s", !cell->n ? "missing" :
		 cell->interrupted ? "interrupted" : "ok");
	w = json_array_size(reps) ? (double)json_array_size(reps) : 1;
	add_latency(cell, job, w);
	return add_figures(cell, job, w) || pb_cmp_add_profile(cell, job) ? -1 : 0;
}

/*
 * A result file's host class, what machines must share for their results
 * to be compared: "CPU model; topology" ("Intel(R) Xeon(R) ...; 2 packages,
 * 40 cores, 80 PUs, 2 LLCs, 2 NUMA nodes"), "unknown" for what is not said.
 */
void pb_cmp_class_of(json_t *root, char *buf, size_t len)
{
	json_t *fp = pb_cmp_env_of(root);
	const char *model = json_string_value(json_object_get(fp, "cpu_model"));
	const char *topo = json_string_value(json_object_get(fp, "topology"));

	snprintf(buf, len, "%s; %s", model ? model : "unknown CPU",
		 topo && topo[0] ? topo : "unknown topology");
	json_decref(fp);
}

static const char *group_key(json_t *root, enum pb_cmp_group by, char *buf, size_t len)
{
	json_t *host = json_object_get(root, "host");

	if (by == PB_GROUP_CLASS) {
		pb_cmp_class_of(root, buf, len);
		return buf;
	}
	if (by == PB_GROUP_KERNEL)
		return jstr(host, "kernel", "unknown");
	if (by == PB_GROUP_HOST)
		return jstr(host, "hostname", "unknown");
	if (by == PB_GROUP_PEER) {	/* pinbench server's host: the first job that had one */
		json_t *job;
		size_t i;

		json_array_foreach(json_object_get(root, "jobs"), i, job) {
			json_t *peer = json_object_get(job, "peer");

			if (json_is_object(peer))
				return jstr(peer, "hostname", "unknown");
		}
		return "no peer";
	}
	return jstr(root, "label", jstr(host, "kernel", "unknown"));
}

/*
 * Every string of a result file, made safe to print (util.h), and every
 * object key (event names, derived figures' roles and workload keys are
 * printed too): labels, job names, host names and messages travel between
 * machines and come from the network, and reach terminals, Markdown and
 * gnuplot.  A cleaned key that meets an existing one replaces it.
 */
static void clean_strings(json_t *v)
{
	const char *key;
	json_t *x;
	void *tmp;
	size_t i;

	if (json_is_string(v)) {
		char *s = strdup(json_string_value(v));

		if (s && pb_str_clean(s))
			json_string_set(v, s);
		free(s);
	} else if (json_is_object(v)) {
		json_object_foreach_safe(v, tmp, key, x) {
			char *k = strdup(key);

			clean_strings(x);
			if (k && pb_str_clean(k)) {
				json_object_set(v, k, x);
				json_object_del(v, key);
			}
			free(k);
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			clean_strings(x);
	}
}

/* o[key] as text kept with its lines and tabs (pb_text_clean) after clean_strings(). */
struct lines_kept {
	json_t	*o;
	char	*s;
};

static void keep_lines(json_t *o, struct lines_kept **k, size_t *n)
{
	json_t *t = json_object_get(o, "folded");
	struct lines_kept *m;

	if (!json_is_string(t) || !(m = realloc(*k, (*n + 1) * sizeof(*m))))
		return;
	*k = m;
	m[*n].o = o;
	m[(*n)++].s = strdup(json_string_value(t));
}

/*
 * clean_strings() of root, the job file's text (config_text) and the
 * profiles' folded stacks keeping their lines and tabs.
 */
static void clean_config_text(json_t *root)
{
	json_t *t = json_object_get(root, "config_text"), *job, *r;
	char *s = json_is_string(t) ? strdup(json_string_value(t)) : NULL;
	struct lines_kept *k = NULL;
	size_t n = 0, i, j;

	json_array_foreach(json_object_get(root, "jobs"), i, job)
		json_array_foreach(json_object_get(json_object_get(job, "profile"), "roles"), j, r)
			keep_lines(r, &k, &n);
	clean_strings(root);
	if (s) {
		pb_text_clean(s);
		json_object_set_new(root, "config_text", json_string(s));
	}
	for (i = 0; i < n; i++) {
		if (k[i].s) {
			pb_text_clean(k[i].s);
			json_object_set_new(k[i].o, "folded", json_string(k[i].s));
		}
		free(k[i].s);
	}
	free(k);
	free(s);
}

const char *pb_json_kind(const json_t *v)
{
	switch (v ? json_typeof(v) : JSON_NULL) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	default:
		return "null";
	}
}

int pb_cmp_check_result(json_t *root, char *err, size_t len)
{
	json_t *schema, *jobs, *job;
	char s[72];
	size_t i;

	if (!json_is_object(root))
		return pb_errf(err, len, 0, "the top level is %s, want an object",
			       pb_json_kind(root));
	schema = json_object_get(root, "schema");
	if (!schema)
		return pb_errf(err, len, 0, "no schema, want \"%s\"", PB_SCHEMA);
	if (!json_is_string(schema))
		return pb_errf(err, len, 0, "schema is %s, want the string \"%s\"",
			       pb_json_kind(schema), PB_SCHEMA);
	if (strcmp(json_string_value(schema), PB_SCHEMA)) {
		snprintf(s, sizeof(s), "%.64s", json_string_value(schema));
		pb_str_clean(s);
		return pb_errf(err, len, 0, "schema \"%s\", want \"%s\"", s, PB_SCHEMA);
	}
	jobs = json_object_get(root, "jobs");
	if (!jobs)
		return pb_errf(err, len, 0, "no jobs, want an array");
	if (!json_is_array(jobs))
		return pb_errf(err, len, 0, "jobs is %s, want an array", pb_json_kind(jobs));
	json_array_foreach(jobs, i, job)
		if (!json_is_object(job))
			return pb_errf(err, len, 0, "jobs[%zu] is %s, want an object", i,
				       pb_json_kind(job));
	return 0;
}

/* Remember a file's or folder's identity; false when it was seen before. */
static int first_sight(struct pb_cmp *c, const struct stat *st)
{
	struct pb_cmp_id *ns;
	int i;

	for (i = 0; i < c->nr_seen; i++)
		if (c->seen[i].dev == st->st_dev && c->seen[i].ino == st->st_ino)
			return 0;
	ns = pb_grow(c->seen, c->nr_seen, &c->cap_seen, sizeof(*ns));
	if (!ns)
		return -1;
	c->seen = ns;
	c->seen[c->nr_seen].dev = st->st_dev;
	c->seen[c->nr_seen++].ino = st->st_ino;
	return 1;
}

/* The run's command line, once per group: how to reproduce it. */
static void add_cmdline(json_t *cmds, json_t *root)
{
	json_t *s = json_object_get(root, "cmdline"), *v;
	size_t i;

	if (!json_is_string(s) || !cmds)
		return;
	json_array_foreach(cmds, i, v)
		if (json_equal(v, s))
			return;
	json_array_append(cmds, s);
}

/* The file's run-wide anomalies of severity error, once per kind in the group. */
static void add_run_errors(json_t *errs, json_t *root)
{
	json_t *a, *b;
	size_t i, k;

	json_array_foreach(json_object_get(root, "anomalies"), i, a) {
		bool seen = false;

		if (strcmp(jstr(a, "severity", ""), "error"))
			continue;
		json_array_foreach(errs, k, b)
			seen |= !strcmp(jstr(a, "kind", ""), jstr(b, "kind", ""));
		if (!seen)
			json_array_append(errs, a);
	}
}

/* The earliest of the group's start times (ISO 8601, UTC: they sort as text). */
static void add_started(char *first, const char *s)
{
	if (strlen(s) < 24 && s[0] && (!first[0] || strcmp(s, first) < 0))
		strcpy(first, s);
}

/* A file a folder walk skipped: err says which and why. 0, or -1 (ENOMEM). */
static int skip_file(struct pb_cmp *c, char *err, size_t len)
{
	char **ns = realloc(c->skipped, (size_t)(c->nr_skipped + 1) * sizeof(*ns));

	if (!ns || !(ns[c->nr_skipped] = strdup(err))) {
		if (ns)
			c->skipped = ns;
		return pb_errf(err, len, 0, "out of memory");
	}
	c->skipped = ns;
	c->nr_skipped++;
	return 0;
}

/*
 * Returns 0 (read, or a file read before under another name), 1 when it
 * cannot be used (unreadable, not a regular file, corrupt, another
 * schema: err says why), -1 on a fatal error (out of memory).
 */
/* s into the array *a (made when NULL), once */
static void add_distinct(json_t **a, const char *s)
{
	size_t i;
	json_t *v;

	if (!*a)
		*a = json_array();
	json_array_foreach(*a, i, v)
		if (!strcmp(json_string_value(v), s))
			return;
	json_array_append_new(*a, json_string(s));
}

/* The file's host class and kernel, among c's */
static void add_where(struct pb_cmp *c, json_t *root)
{
	char key[512];

	pb_cmp_class_of(root, key, sizeof(key));
	add_distinct(&c->classes, key);
	add_distinct(&c->kernels, jstr(json_object_get(root, "host"), "kernel", "unknown"));
}

static int load_file(struct pb_cmp *c, const char *path, bool follow, int *tcap, char *err,
		     size_t len)
{
	json_t *root, *job;
	struct pb_cmp_level lv;
	char key[512];
	int fd, group, rc = 0;
	struct stat st;
	size_t i;

	fd = pb_open_file(path, follow && !c->no_links, &st, err, len);
	if (fd < 0)
		return 1;
	rc = first_sight(c, &st);
	if (rc <= 0) {		/* the same file again (a symlink, a hard link, twice) */
		close(fd);
		return rc < 0 ? pb_errf(err, len, 0, "out of memory") : 0;
	}
	root = pb_result_loadfd(fd, path, err, len);
	close(fd);
	if (!root)
		return 1;
	clean_config_text(root);
	rc = 0;
	if (c->only_class) {
		pb_cmp_class_of(root, key, sizeof(key));
		if (strcmp(key, c->only_class)) {
			json_decref(root);
			return 0;
		}
	}
	group = add_group(c, c->force_group ? c->force_group :
			  group_key(root, c->by, key, sizeof(key)));
	if (group >= 0) {
		add_where(c, root);
		pb_cmp_env_add(&c->envs[group], root);
		add_cmdline(c->cmds[group], root);
		add_run_errors(c->run_errors[group], root);
		add_started(c->started[group], jstr(root, "started", ""));
		pb_cmp_about_add(&c->about[group], root);
	}
	level_of(root, &lv);
	json_array_foreach(json_object_get(root, "jobs"), i, job)
		if (group < 0 || add_job(c, group, job, tcap, &lv, run_error_of(root))) {
			snprintf(err, len, "%s: out of memory", path);
			rc = -1;
			break;
		}
	c->nr_files++;
	json_decref(root);
	return rc;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static int load_dir(struct pb_cmp *c, const char *path, int depth, int *tcap,
		    char *err, size_t len);

/*
 * One entry of a folder: a folder (not through a symlink: no cycles, no
 * walking out of the tree), or a *.json file, not through a symlink
 * either (a planted link to a secret is refused, named in c->skipped).  A
 * file that cannot be used is skipped, with a note in c->skipped.
 */
static int load_entry(struct pb_cmp *c, const char *path, int depth, int *tcap,
		      char *err, size_t len)
{
	struct stat st;
	int rc;

	if (lstat(path, &st))
		return 0;	/* gone since readdir */
	if (S_ISDIR(st.st_mode))
		return depth < MAX_DEPTH ? load_dir(c, path, depth, tcap, err, len) : 0;
	if (!ends_with(path, ".json") || (S_ISLNK(st.st_mode) && !stat(path, &st) &&
					  S_ISDIR(st.st_mode)))
		return 0;
	rc = load_file(c, path, false, tcap, err, len);
	if (rc == 1 && strstr(err, "schema \"" PB_SCHEMA_NOISE "\""))
		return 0;	/* a noise profile beside the results (report/noise.h) */
	return rc == 1 ? skip_file(c, err, len) : rc;
}

static int load_dir(struct pb_cmp *c, const char *path, int depth, int *tcap,
		    char *err, size_t len)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL, sub[4096];
	int nr = 0, cap = 0, i, rc = 0;
	struct stat st;

	if (!d) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(dirfd(d), &st) || (rc = first_sight(c, &st)) <= 0) {
		closedir(d);	/* a folder walked before: nothing new */
		return rc < 0 ? pb_errf(err, len, 0, "out of memory") : 0;
	}
	rc = 0;
	while ((de = readdir(d))) {
		char **nn;

		if (de->d_name[0] == '.')
			continue;
		nn = pb_grow(names, nr, &cap, sizeof(*names));
		if (!nn || !(nn[nr] = strdup(de->d_name))) {
			names = nn ? nn : names;
			rc = -1;
			snprintf(err, len, "%s: out of memory", path);
			break;
		}
		names = nn;
		nr++;
	}
	closedir(d);
	if (nr)		/* an empty folder: names is NULL */
		qsort(names, (size_t)nr, sizeof(*names), name_cmp);
	for (i = 0; i < nr && !rc; i++) {
		snprintf(sub, sizeof(sub), "%s/%s", path, names[i]);
		rc = load_entry(c, sub, depth + 1, tcap, err, len);
	}
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	return rc;
}

int pb_cmp_load(struct pb_cmp *c, const char *path, char *err, size_t len)
{
	int tcap = c->nr_tables;	/* t is grown by doubling from its size */
	struct stat st;

	if (stat(path, &st))
		return pb_errf(err, len, errno, "%s", path);
	if (S_ISDIR(st.st_mode))
		return load_dir(c, path, 0, &tcap, err, len);
	return load_file(c, path, true, &tcap, err, len) ? -1 : 0;
}

static const struct pb_cmp *sort_ctx;

static int order_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return pb_version_cmp(sort_ctx->groups[x], sort_ctx->groups[y]);
}

void pb_cmp_order(struct pb_cmp *c, bool given)
{
	int i;

	free(c->order);
	c->order = malloc((size_t)(c->nr_groups ? c->nr_groups : 1) * sizeof(*c->order));
	if (!c->order)
		return;
	for (i = 0; i < c->nr_groups; i++)
		c->order[i] = i;
	if (given)
		return;
	sort_ctx = c;
	qsort(c->order, (size_t)c->nr_groups, sizeof(*c->order), order_cmp);
	sort_ctx = NULL;
}

void pb_cmp_free(struct pb_cmp *c)
{
	int i, j;

	for (i = 0; i < c->nr_tables; i++) {
		for (j = 0; j < c->t[i].nr_cells; j++) {
			free(c->t[i].cells[j].v);
			free(c->t[i].cells[j].u);
			free(c->t[i].cells[j].lv);
			free(c->t[i].cells[j].marks);
			free(c->t[i].cells[j].figs);
			json_decref(c->t[i].cells[j].prof);
		}
		free(c->t[i].cells);
		json_decref(c->t[i].params);
	}
	for (i = 0; i < c->nr_groups; i++) {
		free(c->groups[i]);
		json_decref(c->envs[i]);
		if (c->cmds)
			json_decref(c->cmds[i]);
		if (c->run_errors)
			json_decref(c->run_errors[i]);
		if (c->about)
			json_decref(c->about[i]);
	}
	free(c->envs);
	json_decref(c->classes);
	json_decref(c->kernels);
	free(c->cmds);
	free(c->run_errors);
	free(c->started);
	free(c->about);
	for (i = 0; i < c->nr_skipped; i++)
		free(c->skipped[i]);
	free(c->groups);
	free(c->order);
	free(c->t);
	free(c->seen);
	free(c->skipped);
	memset(c, 0, sizeof(*c));
}

/* ---- group names, and loading many paths ---- */

int pb_cmp_group_parse(const char *s)
{
	for (size_t i = 0; i < sizeof(pb_cmp_group_names) / sizeof(pb_cmp_group_names[0]); i++)
		if (!strcmp(s, pb_cmp_group_names[i]))
			return (int)i;
	return -1;
}

/* Load every path (c->by set); 0, or -1 with err set. */
int pb_cmp_load_all(struct pb_cmp *c, char **paths, int n, char *err, size_t len)
{
	int i, rc = 0;

	for (i = 0; i < n && !rc; i++)
		rc = pb_cmp_load(c, paths[i], err, len);
	if (!rc && !c->nr_files)
		rc = pb_errf(err, len, 0, "no result files found");
	return rc;
}
