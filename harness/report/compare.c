// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare.c - the engine of `pinbench compare` (its options and exit
 * code are cli/cmd_compare.c's): result files grouped by label (or
 * kernel, or host), ordered as versions, one table per job x placement
 * with a row per label, the change against a baseline and its
 * significance (Welch's t-test and a noise floor), anomaly marks, and
 * per-op counter figures side by side.
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

#include "lib/anomaly.h"
#include "report/compare.h"
#include "report/schema.h"
#include "lib/util.h"
#include "checks/stats.h"

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


static const char *const group_names[] = { "label", "kernel", "host", "peer" };
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

static void *grow(void *p, int nr, int *cap, size_t size)
{
	void *np;
	int ncap;

	if (nr < *cap)
		return p;
	ncap = *cap ? *cap * 2 : 8;
	np = realloc(p, (size_t)ncap * size);
	if (!np)
		return NULL;
	*cap = ncap;
	return np;
}

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
	char **ng;

	if (i >= 0)
		return i;
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
	char *end;
	double x;

	if (!eq)
		return;
	x = strtod(eq + 1, &end);
	if (end == eq + 1 || *end)
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
	t = grow(c->t, c->nr_tables, cap, sizeof(*t));
	if (!t)
		return NULL;
	c->t = t;
	t = &c->t[c->nr_tables++];
	memset(t, 0, sizeof(*t));
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
	double *nv = grow(cell->v, cell->n, &cell->cap, sizeof(*nv));

	if (!nv)
		return -1;
	cell->v = nv;
	cell->v[cell->n++] = v;
	return 0;
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

static int add_mark(struct pb_cell *cell, json_t *a)
{
	const char *kind = jstr(a, "kind", "unknown");
	struct pb_mark *m;
	int i;

	for (i = 0; i < cell->nr_marks; i++)
		if (!strcmp(cell->marks[i].kind, kind))
			return 0;
	m = realloc(cell->marks, (size_t)(cell->nr_marks + 1) * sizeof(*m));
	if (!m)
		return -1;
	cell->marks = m;
	m = &m[cell->nr_marks++];
	snprintf(m->kind, sizeof(m->kind), "%s", kind);
	snprintf(m->severity, sizeof(m->severity), "%s", jstr(a, "severity", "warn"));
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

static int add_job(struct pb_cmp *c, int group, json_t *job, int *tcap)
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

	if (!t || !(cell = get_cell(t, group)))
		return -1;
	if (!t->cpus[0])
		cpus_text(json_object_get(job, "cpus"), t->cpus, sizeof(t->cpus));
	json_array_foreach(json_object_get(job, "anomalies"), i, a)
		if (add_mark(cell, a))
			return -1;
	if (strcmp(status, "ok") && !part) {
		if (cell->n == 0) {
			snprintf(cell->status, sizeof(cell->status), "%s", status);
			snprintf(cell->reason, sizeof(cell->reason), "%s", jstr(job, "reason", ""));
		}
		return 0;
	}
	json_array_foreach(reps, i, r) {
		json_t *v = json_object_get(r, "value");

		/* counter passes run their own repeats: only the metric's own count */
		if (json_is_false(json_object_get(r, "in_summary")))
			continue;
		if (json_is_number(v) && add_value(cell, json_number_value(v)))
			return -1;
	}
	cell->interrupted |= part;
	snprintf(cell->status, sizeof(cell->status), "%s", !cell->n ? "missing" :
		 cell->interrupted ? "interrupted" : "ok");
	w = json_array_size(reps) ? (double)json_array_size(reps) : 1;
	add_latency(cell, job, w);
	return add_figures(cell, job, w);
}

static const char *group_key(json_t *root, enum pb_cmp_group by)
{
	json_t *host = json_object_get(root, "host");

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
 * Every string of a result file, made safe to print (util.h): labels, job
 * names, host names and messages travel between machines and come from
 * the network, and reach terminals, Markdown and gnuplot.
 */
static void clean_strings(json_t *v)
{
	const char *key;
	json_t *x;
	size_t i;

	if (json_is_string(v)) {
		char *s = strdup(json_string_value(v));

		if (s && pb_str_clean(s))
			json_string_set(v, s);
		free(s);
	} else if (json_is_object(v)) {
		json_object_foreach(v, key, x)
			clean_strings(x);
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			clean_strings(x);
	}
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
	ns = grow(c->seen, c->nr_seen, &c->cap_seen, sizeof(*ns));
	if (!ns)
		return -1;
	c->seen = ns;
	c->seen[c->nr_seen].dev = st->st_dev;
	c->seen[c->nr_seen++].ino = st->st_ino;
	return 1;
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
static int load_file(struct pb_cmp *c, const char *path, int *tcap, char *err, size_t len)
{
	json_error_t je;
	json_t *root, *job;
	char why[160];
	int fd, group, rc = 0;
	struct stat st;
	size_t i;

	fd = pb_open_regular(path, &st, err, len);
	if (fd < 0)
		return 1;
	rc = first_sight(c, &st);
	if (rc <= 0) {		/* the same file again (a symlink, a hard link, twice) */
		close(fd);
		return rc < 0 ? pb_errf(err, len, 0, "out of memory") : 0;
	}
	root = json_loadfd(fd, 0, &je);
	close(fd);
	if (!root) {
		snprintf(err, len, "%s: cannot read: %s (line %d)", path, je.text, je.line);
		return 1;
	}
	clean_strings(root);
	if (pb_cmp_check_result(root, why, sizeof(why))) {
		snprintf(err, len, "%s: not a pinbench result: %s", path, why);
		json_decref(root);
		return 1;
	}
	rc = 0;
	group = add_group(c, group_key(root, c->by));
	json_array_foreach(json_object_get(root, "jobs"), i, job)
		if (group < 0 || add_job(c, group, job, tcap)) {
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
 * walking out of the tree), or a *.json file (a symlink to one too).  A
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
	rc = load_file(c, path, tcap, err, len);
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
		nn = grow(names, nr, &cap, sizeof(*names));
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
	return load_file(c, path, &tcap, err, len) ? -1 : 0;
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
			free(c->t[i].cells[j].marks);
			free(c->t[i].cells[j].figs);
		}
		free(c->t[i].cells);
	}
	for (i = 0; i < c->nr_groups; i++)
		free(c->groups[i]);
	for (i = 0; i < c->nr_skipped; i++)
		free(c->skipped[i]);
	free(c->groups);
	free(c->order);
	free(c->t);
	free(c->seen);
	free(c->skipped);
	memset(c, 0, sizeof(*c));
}

/* ---- evaluation ---- */

const struct pb_cell *pb_cmp_cell(const struct pb_table *t, int group)
{
	int i;

	for (i = 0; i < t->nr_cells; i++)
		if (t->cells[i].group == group)
			return &t->cells[i];
	return NULL;
}

const struct pb_cell *pb_cmp_base(const struct pb_cmp *c, const struct pb_table *t,
				  int base_group)
{
	const struct pb_cell *cell;
	int i;

	if (base_group >= 0) {
		cell = pb_cmp_cell(t, base_group);
		return cell && cell->n ? cell : NULL;
	}
	for (i = 0; i < c->nr_groups; i++) {
		cell = pb_cmp_cell(t, c->order ? c->order[i] : i);
		if (cell && cell->n)
			return cell;
	}
	return NULL;
}

/*
 * Welch's test of cell against base.  For rates (harmonic means) on the
 * reciprocals, the scale their mean is taken on.  0, or -1 when untestable.
 */
static int cell_welch(const struct pb_table *t, const struct pb_cell *base,
		      const struct pb_cell *cell, double *p)
{
	double tt, df, *ra, *rb;
	int i, rc = -1;

	if (!t->rate)
		return pb_welch(base->v, base->n, cell->v, cell->n, &tt, &df, p);
	ra = malloc((size_t)(base->n + 1) * sizeof(*ra));
	rb = malloc((size_t)(cell->n + 1) * sizeof(*rb));
	for (i = 0; ra && rb && i < base->n; i++)
		ra[i] = base->v[i] ? 1 / base->v[i] : 0;
	for (i = 0; ra && rb && i < cell->n; i++)
		rb[i] = cell->v[i] ? 1 / cell->v[i] : 0;
	if (ra && rb)
		rc = pb_welch(ra, base->n, rb, cell->n, &tt, &df, p);
	free(ra);
	free(rb);
	return rc;
}

void pb_cmp_eval(const struct pb_table *t, const struct pb_cell *cell,
		 const struct pb_cell *base, double min_change, struct pb_eval *e)
{
	struct pb_summary bs;

	memset(e, 0, sizeof(*e));
	e->change = NAN;
	e->p = NAN;
	e->p_adj = NAN;
	e->verdict = "no-change";
	if (!cell || !cell->n)
		return;
	pb_summarize(cell->v, cell->n, t->rate, &e->s);
	if (cell == base) {
		e->is_base = true;
		e->verdict = "baseline";
		return;
	}
	if (!base || pb_summarize(base->v, base->n, t->rate, &bs) || bs.mean == 0)
		return;
	e->has_base = true;
	e->change = (e->s.mean - bs.mean) / fabs(bs.mean) * 100.0;
	if (cell_welch(t, base, cell, &e->p))
		e->p = NAN;
	e->p_adj = cell->adjusted ? cell->p_adj : e->p;
	e->significant = !isnan(e->p_adj) && e->p_adj < PB_CMP_ALPHA &&
			 fabs(e->change) > min_change;
	if (e->significant)
		e->verdict = (e->change > 0) == t->higher ? "improvement" : "regression";
}

struct ptest {
	double		p;
	struct pb_cell	*cell;
};

static int ptest_cmp(const void *a, const void *b)
{
	double x = ((const struct ptest *)a)->p, y = ((const struct ptest *)b)->p;

	return x < y ? -1 : x > y;
}

/* Every testable cell with its raw p; returns how many, -1 on no memory. */
static int collect_tests(struct pb_cmp *c, int base_group, struct ptest **out)
{
	struct ptest *v = NULL, *nv;
	double p;
	int i, j, n = 0, cap = 0;

	for (i = 0; i < c->nr_tables; i++) {
		const struct pb_cell *base = pb_cmp_base(c, &c->t[i], base_group);

		for (j = 0; j < c->t[i].nr_cells; j++) {
			struct pb_cell *cell = &c->t[i].cells[j];

			cell->adjusted = false;
			if (!base || cell == base || cell_welch(&c->t[i], base, cell, &p))
				continue;
			nv = grow(v, n, &cap, sizeof(*v));
			if (!nv) {
				free(v);
				return -1;
			}
			v = nv;
			v[n].p = p;
			v[n++].cell = cell;
		}
	}
	*out = v;
	return n;
}

void pb_cmp_adjust(struct pb_cmp *c, int base_group, bool correct)
{
	struct ptest *v = NULL;
	double run = 1, x;
	int i, m;

	if (!c->order)
		pb_cmp_order(c, false);
	m = collect_tests(c, base_group, &v);
	c->nr_tests = m > 0 ? m : 0;
	if (m <= 0)
		return;
	qsort(v, (size_t)m, sizeof(*v), ptest_cmp);
	for (i = m - 1; i >= 0; i--) {
		x = correct ? v[i].p * m / (i + 1) : v[i].p;
		run = x < run ? x : run;
		v[i].cell->p_adj = correct ? run : v[i].p;
		v[i].cell->adjusted = true;
	}
	free(v);
}

/* ---- text grids (text and markdown tables) ---- */

#define GRID_COLS	16

struct grid {
	int	ncols;
	char	*head[GRID_COLS];
	bool	right[GRID_COLS];
	char	**cell;		/* nrows * ncols */
	int	nrows, cap;
	bool	oom;
};

/* Display width of UTF-8 text: code points. */
static int u8width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

static void grid_col(struct grid *g, const char *head, bool right)
{
	if (g->ncols >= GRID_COLS)
		return;
	g->head[g->ncols] = strdup(head);
	g->oom |= !g->head[g->ncols];
	g->right[g->ncols++] = right;
}

/* Start a row; its cells are NULL (printed empty) until set. */
static char **grid_row(struct grid *g)
{
	char **c = grow(g->cell, g->nrows * g->ncols, &g->cap, sizeof(*c));
	int i;

	while (c && g->cap < (g->nrows + 1) * g->ncols) {
		g->cell = c;
		c = grow(g->cell, g->cap, &g->cap, sizeof(*c));
	}
	if (!c) {
		g->oom = true;
		return NULL;
	}
	g->cell = c;
	for (i = 0; i < g->ncols; i++)
		c[g->nrows * g->ncols + i] = NULL;
	return &c[g->nrows++ * g->ncols];
}

static void grid_free(struct grid *g)
{
	int i;

	for (i = 0; i < g->ncols; i++)
		free(g->head[i]);
	for (i = 0; i < g->nrows * g->ncols; i++)
		free(g->cell[i]);
	free(g->cell);
	memset(g, 0, sizeof(*g));
}

static void grid_widths(const struct grid *g, int *w)
{
	int i, j, x;

	for (j = 0; j < g->ncols; j++) {
		w[j] = u8width(g->head[j]);
		for (i = 0; i < g->nrows; i++) {
			const char *s = g->cell[i * g->ncols + j];

			x = s ? u8width(s) : 0;
			w[j] = x > w[j] ? x : w[j];
		}
	}
}

/* The longest line the text form of g would print. */
static int grid_width(const struct grid *g)
{
	int w[GRID_COLS], j, sum = 0;

	grid_widths(g, w);
	for (j = 0; j < g->ncols; j++)
		sum += w[j] + (j ? 2 : 0);
	return sum;
}

static void put_cell(FILE *f, const char *s, int width, bool right, bool last)
{
	int pad = width - u8width(s ? s : "");

	if (right)
		fprintf(f, "%*s", pad > 0 ? pad : 0, "");
	fputs(s ? s : "", f);
	if (!right && !last)
		fprintf(f, "%*s", pad > 0 ? pad : 0, "");
}

/* One text line, cut at PB_CMP_WIDTH characters as a last resort. */
static void grid_line(FILE *f, const struct grid *g, char *const *row, const int *w)
{
	char *buf = NULL, *p;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int j, cw = 0;

	if (!m)
		return;
	for (j = 0; j < g->ncols; j++) {
		if (j)
			fputs("  ", m);
		put_cell(m, row[j], w[j], g->right[j], j == g->ncols - 1);
	}
	fclose(m);
	for (p = buf; *p && (cw < PB_CMP_WIDTH || ((unsigned char)*p & 0xc0) == 0x80); p++)
		cw += ((unsigned char)*p & 0xc0) != 0x80;
	*p = 0;
	while (p > buf && p[-1] == ' ')
		*--p = 0;
	fprintf(f, "%s\n", buf);
	free(buf);
}

static void grid_print_text(FILE *f, const struct grid *g)
{
	int w[GRID_COLS], i;

	grid_widths(g, w);
	grid_line(f, g, g->head, w);
	for (i = 0; i < g->nrows; i++)
		grid_line(f, g, &g->cell[i * g->ncols], w);
}

static void md_cell(FILE *f, const char *s)
{
	fputs(" ", f);
	for (; s && *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputs(" |", f);
}

static void grid_print_md(FILE *f, const struct grid *g)
{
	int i, j;

	fputs("|", f);
	for (j = 0; j < g->ncols; j++)
		md_cell(f, g->head[j]);
	fputs("\n|", f);
	for (j = 0; j < g->ncols; j++)
		fputs(g->right[j] ? " ---: |" : " --- |", f);
	fputc('\n', f);
	for (i = 0; i < g->nrows; i++) {
		fputs("|", f);
		for (j = 0; j < g->ncols; j++)
			md_cell(f, g->cell[i * g->ncols + j]);
		fputc('\n', f);
	}
}

/* ---- report ---- */

struct rctx {
	const struct pb_cmp		*c;
	const struct pb_cmp_opts	*o;
	FILE				*f;
	int				base_group;	/* -1: first row */
	int				regressions;
	bool				md;
	json_t				*json;		/* PB_FMT_JSON: the results array */
};

static const char *unit_text(const char *unit)
{
	return !strcmp(unit, "us") ? "µs" : unit;
}

static void title_text(const struct pb_table *t, bool cpus, char *buf, size_t len)
{
	int off;

	off = snprintf(buf, len, "%s %s (%s%s%s is better) — %s", t->job, t->metric,
		       unit_text(t->unit), t->unit[0] ? ", " : "", t->higher ? "higher" : "lower",
		       t->placement);
	if (cpus && t->cpus[0] && off > 0 && (size_t)off < len)
		snprintf(buf + off, len - (size_t)off, " [CPUs %s]", t->cpus);
}

/*
 * Decimals that give about four significant digits for the table's means
 * (extra: six for the averages, as in 85.9025).
 */
static int table_prec(const struct pb_table *t, int extra)
{
	double m = 0, x;
	int i, d;

	for (i = 0; i < t->nr_cells; i++) {
		if (!t->cells[i].n)
			continue;
		x = fabs(pb_mean(t->cells[i].v, t->cells[i].n));
		m = x > m ? x : m;
	}
	if (m <= 0)
		return 2 + extra;
	d = 3 + extra - (int)floor(log10(m));
	return d < 0 ? 0 : d > 6 ? 6 : d;
}

static char *p_text(double p)
{
	if (isnan(p))
		return xprintf("p n/a");
	if (p < 0.001)
		return xprintf("p<0.001");
	return xprintf("p=%.3f", p);
}

static char *change_text(const struct rctx *r, const struct pb_cell *cell,
			 const struct pb_eval *e)
{
	char *p, *s;

	const char *note = cell && cell->interrupted ? " (interrupted)" : "";

	if (!cell || !cell->n) {
		if (cell && strcmp(cell->status, "missing"))
			return xprintf("%s%s%s", cell->status,
				       cell->reason[0] && strcmp(cell->reason, cell->status) ?
				       ": " : "", strcmp(cell->reason, cell->status) ?
				       cell->reason : "");
		return strdup("—");
	}
	if (e->is_base)
		return xprintf("base%s", note);
	if (!e->has_base)
		return xprintf("—%s", note);
	p = p_text(e->p_adj);
	if (!p)
		return NULL;
	if (e->significant)
		s = xprintf(r->md ? "**%+.2f%% %s** (%s)%s" : "%+.2f%% %s (%s)%s", e->change,
			    e->verdict, p, note);
	else
		s = r->md ? xprintf("%+.2f%% (%s)%s", e->change, p, note) :
			    xprintf("%+.2f%%%s", e->change, note);
	free(p);
	return s;
}

static char *label_text(const struct pb_cmp *c, int g, const struct pb_cell *cell)
{
	char marks[40] = "";
	size_t off = 0;
	int i;

	for (i = 0; cell && i < cell->nr_marks && off + 4 < sizeof(marks); i++) {
		const char *m = pb_anomaly_mark(cell->marks[i].kind);

		m = m && *m ? m : "?";
		if (!strstr(marks, m))
			off += (size_t)snprintf(marks + off, sizeof(marks) - off, "%s", m);
	}
	return xprintf("%s%s%s", c->groups[g], off ? " " : "", marks);
}

static void fill_row(const struct rctx *r, const struct pb_table *t, struct grid *gr,
		     int g, const struct pb_cell *base, bool compact, int prec, int aprec,
		     int ntests)
{
	const struct pb_cell *cell = pb_cmp_cell(t, g);
	char **row = grid_row(gr);
	struct pb_eval e;
	int i, col = 0;

	if (!row)
		return;
	pb_cmp_eval(t, cell, base, r->o->min_change, &e);
	row[col++] = label_text(r->c, g, cell);
	if (compact)
		row[col++] = cell && cell->n ? xprintf("%d", cell->n) : strdup("—");
	for (i = 0; !compact && i < ntests; i++, col++)
		if (cell && i < cell->n)
			row[col] = xprintf("%.*f", prec, cell->v[i]);
	if (cell && cell->n) {
		row[col++] = xprintf("%.*f", aprec, e.s.mean);
		row[col++] = xprintf("%.*f", prec, e.s.stddev);
	} else {
		row[col++] = strdup("—");
		row[col++] = strdup("—");
	}
	row[col] = change_text(r, cell, &e);
}

static void build_grid(const struct rctx *r, const struct pb_table *t, struct grid *gr,
		       bool compact)
{
	const struct pb_cell *base = pb_cmp_base(r->c, t, r->base_group);
	int i, ntests = 0, prec = table_prec(t, 0), aprec = table_prec(t, 2);
	char head[24];

	for (i = 0; i < t->nr_cells; i++)
		ntests = t->cells[i].n > ntests ? t->cells[i].n : ntests;
	grid_col(gr, r->c->by == PB_GROUP_HOST ? "Host" : r->c->by == PB_GROUP_PEER ?
		 "Peer" : "Kernel", false);
	if (compact)
		grid_col(gr, "n", true);
	for (i = 0; !compact && i < ntests; i++) {
		snprintf(head, sizeof(head), "Test %d", i + 1);
		grid_col(gr, head, true);
	}
	grid_col(gr, "Average", true);
	grid_col(gr, "Stddev", true);
	grid_col(gr, "Change", false);
	for (i = 0; i < r->c->nr_groups; i++)
		fill_row(r, t, gr, r->c->order[i], base, compact, prec, aprec, ntests);
}

/* The table, Test columns only when they fit in PB_CMP_WIDTH (and n <= 8). */
static void table_grid(struct rctx *r, const struct pb_table *t, struct grid *gr)
{
	int i, maxn = 0;

	for (i = 0; i < t->nr_cells; i++)
		maxn = t->cells[i].n > maxn ? t->cells[i].n : maxn;
	if (maxn <= 8) {
		build_grid(r, t, gr, false);
		if (r->md || grid_width(gr) <= PB_CMP_WIDTH)
			return;
		grid_free(gr);
	}
	build_grid(r, t, gr, true);
}

/* The i-th per-op or latency figure of a cell: false past the last. */
static bool fig_at(const struct pb_cell *cell, int i, char *name, size_t len, double *v)
{
	if (i < cell->nr_figs) {
		snprintf(name, len, "%s", cell->figs[i].name);
		*v = cell->figs[i].sum / cell->figs[i].weight;
		return true;
	}
	i -= cell->nr_figs;
	if (cell->lat_w <= 0 || i >= PB_LAT_N)
		return false;
	snprintf(name, len, "latency %s (µs)", pb_lat_names[i]);
	*v = cell->lat[i] / cell->lat_w;
	return true;
}

static bool fig_find(const struct pb_cell *cell, const char *name, double *v)
{
	char n2[96];
	int i;

	for (i = 0; fig_at(cell, i, n2, sizeof(n2), v); i++)
		if (!strcmp(n2, name))
			return true;
	return false;
}

/* About three significant digits, trailing zeros kept: 1.11, 0.890, 1234. */
static char *num_text(double x)
{
	int d = x != 0 ? 2 - (int)floor(log10(fabs(x))) : 2;

	return xprintf("%.*f", d < 0 ? 0 : d > 6 ? 6 : d, x);
}

/* One line per (label, figure) the baseline also has: "1.11 → 0.89", change. */
static void figures_grid(const struct rctx *r, const struct pb_table *t, struct grid *gr)
{
	const struct pb_cell *base = pb_cmp_base(r->c, t, r->base_group), *cell;
	char name[96];
	double v, bv;
	int i, k;

	grid_col(gr, r->md ? "Label" : "", false);
	grid_col(gr, "Per op", false);
	grid_col(gr, "base", true);
	grid_col(gr, "", false);
	grid_col(gr, "", true);
	grid_col(gr, "Change", true);
	for (i = 0; base && i < r->c->nr_groups; i++) {
		cell = pb_cmp_cell(t, r->c->order[i]);
		if (!cell || cell == base || !cell->n)
			continue;
		for (k = 0; fig_at(cell, k, name, sizeof(name), &v); k++) {
			char **row;

			if (!fig_find(base, name, &bv) || !(row = grid_row(gr)))
				continue;
			row[0] = strdup(r->c->groups[cell->group]);
			row[1] = strdup(name);
			row[2] = num_text(bv);
			row[3] = strdup("→");
			row[4] = num_text(v);
			row[5] = bv != 0 ? xprintf("%+.1f%%", (v - bv) / fabs(bv) * 100)
					 : strdup("—");
		}
	}
}

static void put_line(const struct rctx *r, const char *s);

static void print_figures(const struct rctx *r, const struct pb_table *t)
{
	struct grid gr = { 0 };

	figures_grid(r, t, &gr);
	if (gr.nrows) {
		const struct pb_cell *base = pb_cmp_base(r->c, t, r->base_group);
		char line[300];

		snprintf(line, sizeof(line), "\nPer-op counters against %s:%s",
			 r->c->groups[base->group], r->md ? "\n" : "");
		put_line(r, line);
		if (r->md)
			grid_print_md(r->f, &gr);
		else
			grid_print_text(r->f, &gr);
	}
	grid_free(&gr);
}

/* Print s; in text form cut to PB_CMP_WIDTH characters, ending in "…". */
static void put_line(const struct rctx *r, const char *s)
{
	int w = u8width(s);

	if (r->md || w <= PB_CMP_WIDTH) {
		fprintf(r->f, "%s\n", s);
		return;
	}
	for (w = 0; *s && (w < PB_CMP_WIDTH - 1 || ((unsigned char)*s & 0xc0) == 0x80); s++) {
		w += ((unsigned char)*s & 0xc0) != 0x80;
		fputc(*s, r->f);
	}
	fputs("…\n", r->f);
}

static void print_legend(const struct rctx *r, const struct pb_table *t)
{
	const struct pb_cell *cell;
	char line[512];
	int i, k;
	bool first = true;

	for (i = 0; i < r->c->nr_groups; i++) {
		cell = pb_cmp_cell(t, r->c->order[i]);
		for (k = 0; cell && k < cell->nr_marks; k++) {
			const struct pb_mark *m = &cell->marks[k];
			const char *mk = pb_anomaly_mark(m->kind);

			if (first)
				fputs("\nAnomalies:\n", r->f);
			first = false;
			snprintf(line, sizeof(line), "%s%s %s: %s (%s)%s%s", r->md ? "- " : "  ",
				 mk && *mk ? mk : "?", r->c->groups[cell->group], m->kind,
				 m->severity, m->message[0] ? ": " : "", m->message);
			put_line(r, line);
		}
	}
}

/* A table with no values at all: one line. */
static bool print_empty(const struct rctx *r, const struct pb_table *t, const char *title)
{
	const char *why = "no values";
	int i;

	for (i = 0; i < t->nr_cells; i++) {
		if (t->cells[i].n)
			return false;
		if (strcmp(t->cells[i].status, "missing"))
			why = t->cells[i].reason[0] ? t->cells[i].reason : t->cells[i].status;
	}
	fprintf(r->f, r->md ? "### %s\n\nNo values: %s.\n\n" : "%s\n  no values: %s\n\n",
		title, why);
	return true;
}

static void print_table(struct rctx *r, const struct pb_table *t)
{
	struct grid gr = { 0 };
	char title[400];

	title_text(t, true, title, sizeof(title));
	if (print_empty(r, t, title))
		return;
	table_grid(r, t, &gr);
	if (r->md) {
		fprintf(r->f, "### %s\n\n", title);
		grid_print_md(r->f, &gr);
	} else {
		put_line(r, title);
		grid_print_text(r->f, &gr);
	}
	grid_free(&gr);
	print_figures(r, t);
	print_legend(r, t);
	fputc('\n', r->f);
}

/* ---- csv and json ---- */

static void csv_field(FILE *f, const char *s, bool last)
{
	if (strpbrk(s, ",\"\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

static void csv_num(FILE *f, double x, bool has)
{
	if (has && !isnan(x))
		fprintf(f, "%.6g", x);
	fputc(',', f);
}

static void marks_list(const struct pb_cell *cell, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = 0;
	for (i = 0; cell && i < cell->nr_marks && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "",
					cell->marks[i].kind);
}

static void csv_row(const struct rctx *r, const struct pb_table *t, int g)
{
	const struct pb_cell *cell = pb_cmp_cell(t, g);
	const struct pb_cell *base = pb_cmp_base(r->c, t, r->base_group);
	bool has = cell && cell->n;
	struct pb_eval e;
	char buf[256];
	FILE *f = r->f;

	pb_cmp_eval(t, cell, base, r->o->min_change, &e);
	csv_field(f, t->job, false);
	csv_field(f, t->placement, false);
	csv_field(f, t->metric, false);
	csv_field(f, t->unit, false);
	csv_field(f, t->higher ? "higher" : "lower", false);
	csv_field(f, r->c->groups[g], false);
	csv_field(f, cell ? cell->status : "missing", false);
	fprintf(f, "%d,", cell ? cell->n : 0);
	csv_num(f, e.s.mean, has);
	csv_num(f, e.s.stddev, has);
	csv_num(f, e.s.ci_lo, has);
	csv_num(f, e.s.ci_hi, has);
	csv_field(f, base ? r->c->groups[base->group] : "", false);
	csv_num(f, e.change, e.has_base);
	csv_num(f, e.p, e.has_base);
	csv_num(f, e.p_adj, e.has_base);
	fprintf(f, "%s,", e.significant ? "true" : "false");
	csv_field(f, has ? e.verdict : "", false);
	marks_list(cell, buf, sizeof(buf));
	csv_field(f, buf, true);
}

static json_t *jnum(double x, bool has)
{
	return has && !isnan(x) ? json_real(x) : json_null();
}

static json_t *json_marks(const struct pb_cell *cell)
{
	json_t *a = json_array();
	int i;

	for (i = 0; cell && i < cell->nr_marks; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s}",
				"kind", cell->marks[i].kind, "mark", pb_anomaly_mark(cell->marks[i].kind),
				"severity", cell->marks[i].severity, "message", cell->marks[i].message));
	return a;
}

static json_t *json_figs(const struct pb_cell *cell, const struct pb_cell *base)
{
	json_t *o = json_object();
	char name[96];
	double v, bv;
	int k;

	for (k = 0; cell && fig_at(cell, k, name, sizeof(name), &v); k++) {
		bool hb = base && base != cell && fig_find(base, name, &bv);

		json_object_set_new(o, name, json_pack("{s:f, s:o, s:o}", "value", v,
				"baseline", jnum(hb ? bv : NAN, hb),
				"change", jnum(hb && bv ? (v - bv) / fabs(bv) * 100 : NAN, hb)));
	}
	return o;
}

static void json_row(const struct rctx *r, const struct pb_table *t, int g)
{
	const struct pb_cell *cell = pb_cmp_cell(t, g);
	const struct pb_cell *base = pb_cmp_base(r->c, t, r->base_group);
	bool has = cell && cell->n;
	struct pb_eval e;
	json_t *o;

	pb_cmp_eval(t, cell, base, r->o->min_change, &e);
	o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:s, s:i, s:o, s:o, s:[oo]}",
		      "job", t->job, "placement", t->placement, "metric", t->metric,
		      "unit", t->unit, "better", t->higher ? "higher" : "lower",
		      "label", r->c->groups[g],
		      "baseline", base ? json_string(r->c->groups[base->group]) : json_null(),
		      "status", cell ? cell->status : "missing", "n", cell ? cell->n : 0,
		      "mean", jnum(e.s.mean, has), "stddev", jnum(e.s.stddev, has),
		      "ci95", jnum(e.s.ci_lo, has), jnum(e.s.ci_hi, has));
	if (!o)
		return;
	json_object_set_new(o, "change", jnum(e.change, e.has_base));
	json_object_set_new(o, "p", jnum(e.p, e.has_base));
	json_object_set_new(o, "p_adj", jnum(e.p_adj, e.has_base));
	json_object_set_new(o, "significant", json_boolean(e.significant));
	json_object_set_new(o, "verdict", has ? json_string(e.verdict) : json_null());
	json_object_set_new(o, "anomalies", json_marks(cell));
	json_object_set_new(o, "per_op", json_figs(has ? cell : NULL, base));
	json_array_append_new(r->json, o);
}

/* ---- the report ---- */

static int count_regressions(const struct rctx *r, const struct pb_table *t)
{
	const struct pb_cell *base = pb_cmp_base(r->c, t, r->base_group);
	struct pb_eval e;
	int i, n = 0;

	for (i = 0; i < t->nr_cells; i++) {
		pb_cmp_eval(t, &t->cells[i], base, r->o->min_change, &e);
		n += e.significant && !strcmp(e.verdict, "regression");
	}
	return n;
}

static void print_header(const struct rctx *r)
{
	const char *by = r->c->by == PB_GROUP_HOST ? "host" : r->c->by == PB_GROUP_PEER ?
			 "peer" : r->c->by == PB_GROUP_KERNEL ? "kernel" : "label";
	char line[400];

	snprintf(line, sizeof(line), "%s%d result file%s, %d %s%s; baseline: %s",
		 r->md ? "" : "pinbench compare: ", r->c->nr_files, r->c->nr_files == 1 ? "" : "s",
		 r->c->nr_groups, by, r->c->nr_groups == 1 ? "" : "s",
		 r->base_group >= 0 ? r->c->groups[r->base_group] : "the first row");
	put_line(r, line);
	snprintf(line, sizeof(line), "Significant: Welch's t-test p < %.2f and |change| > %.2g %%;",
		 PB_CMP_ALPHA, r->o->min_change);
	put_line(r, line);
	if (r->o->no_correction)
		snprintf(line, sizeof(line), "p as tested, cell by cell (%d comparisons).",
			 r->c->nr_tests);
	else
		snprintf(line, sizeof(line), "p adjusted for the %d comparisons of this report "
			 "(Benjamini-Hochberg).", r->c->nr_tests);
	put_line(r, line);
	fputc('\n', r->f);
}

static int resolve_baseline(const struct pb_cmp *c, const char *name, char *err, size_t len)
{
	size_t off;
	int g, i;

	if (!name)
		return -1;
	g = pb_cmp_find_group(c, name);
	if (g >= 0)
		return g;
	off = (size_t)snprintf(err, len, "baseline '%s' not found; have:", name);
	for (i = 0; i < c->nr_groups && off < len; i++)
		off += (size_t)snprintf(err + off, len - off, " %s", c->groups[c->order[i]]);
	return -2;
}

int pb_cmp_report(struct pb_cmp *c, const struct pb_cmp_opts *o, FILE *out,
		  char *err, size_t len)
{
	struct rctx r = { .c = c, .o = o, .f = out, .md = o->format == PB_FMT_MARKDOWN };
	int i, g;

	if (!c->order)
		pb_cmp_order(c, o->order_given);
	r.base_group = resolve_baseline(c, o->baseline, err, len);
	if (r.base_group == -2)
		return -1;
	pb_cmp_adjust(c, r.base_group, !o->no_correction);
	if (o->format == PB_FMT_JSON)
		r.json = json_array();
	if (o->format == PB_FMT_CSV)
		fputs("job,placement,metric,unit,better,label,status,n,mean,stddev,ci95_lo,"
		      "ci95_hi,baseline,change_pct,p,p_adj,significant,verdict,anomalies\n", out);
	if (o->format == PB_FMT_TEXT || r.md)
		print_header(&r);
	for (i = 0; i < c->nr_tables; i++) {
		r.regressions += count_regressions(&r, &c->t[i]);
		if (o->format == PB_FMT_TEXT || r.md)
			print_table(&r, &c->t[i]);
		for (g = 0; g < c->nr_groups && !r.md && o->format != PB_FMT_TEXT; g++) {
			if (o->format == PB_FMT_CSV)
				csv_row(&r, &c->t[i], c->order[g]);
			else
				json_row(&r, &c->t[i], c->order[g]);
		}
	}
	if (r.json) {
		json_t *root = json_pack("{s:s, s:s, s:s, s:f, s:f, s:i, s:o}",
					 "schema", "pinbench-compare/1", "group_by", group_names[c->by],
					 "correction", o->no_correction ? "none" : "benjamini-hochberg",
					 "alpha", PB_CMP_ALPHA, "min_change", o->min_change,
					 "regressions", r.regressions, "results", r.json);

		json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
			   JSON_REAL_PRECISION(10));
		fputc('\n', out);
		json_decref(root);
	}
	return r.regressions;
}

/* ---- group names, and loading many paths ---- */

int pb_cmp_group_parse(const char *s)
{
	for (size_t i = 0; i < sizeof(group_names) / sizeof(group_names[0]); i++)
		if (!strcmp(s, group_names[i]))
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
