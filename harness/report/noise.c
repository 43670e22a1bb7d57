// SPDX-License-Identifier: GPL-2.0-only
/*
 * noise.c - the noise profile (pinbench-noise/1): made from the runs of a
 * calibration (pb_noise_build), read back and checked (pb_noise_load),
 * found in a results folder (pb_noise_find), held to the results it is
 * asked about (pb_noise_usable, pb_noise_match) and the answer to
 * pb_between_fn (pb_noise_between).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/schema.h"
#include "lib/util.h"
#include "report/noise.h"
#include "stats/levels.h"

static const char *const level_names[PB_NR_LEVELS] = { "boot", "invocation", "run" };

double pb_noise_rel_se(double df)
{
	return df > 0 ? sqrt(2 / df) : NAN;
}

int pb_noise_blocks(double pct)
{
	double p = pct / 100, df;

	if (!(pct > 0 && pct <= 100))
		return -1;
	df = ceil(2 / (p * p) - 1e-9);
	return df < 1 ? 2 : (int)df + 1;
}

/* ---- building a profile ---- */

static json_t *num_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* A level: its sd of ln value and df, and whether it was measured. */
static json_t *level_json(const struct pb_component *c)
{
	bool covered = !isnan(c->var) && c->df > 0;

	return json_pack("{s:o, s:f, s:b, s:b}", "sd", num_or_null(covered ? sqrt(c->var) : NAN),
			 "df", covered ? c->df : 0.0, "covered", covered,
			 "clamped", covered && c->clamped);
}

/* What answers for the boot level: the boot component, or the invocations' standing in. */
static json_t *between_json(const struct pb_levels *l)
{
	const struct pb_component *b = &l->comp[PB_LEVEL_BOOT];
	const struct pb_component *i = &l->comp[PB_LEVEL_INVOCATION];
	const struct pb_component *c = NULL;
	bool stands_in = false;

	if (!isnan(b->var) && b->df > 0) {
		c = b;
	} else if (!isnan(i->var) && i->df > 0) {
		c = i;
		stands_in = true;
	}
	return json_pack("{s:o, s:f, s:b, s:o}", "sd", num_or_null(c ? sqrt(c->var) : NAN),
			 "df", c ? c->df : 0.0, "stands_in", stands_in,
			 "level", c ? json_string(level_names[c == b ? PB_LEVEL_BOOT :
						 PB_LEVEL_INVOCATION]) : json_null());
}

/* The runs of cell as levels.c takes them (pointing into cell): NULL when no memory. */
static struct pb_level_value *values_of(const struct pb_cell *cell)
{
	struct pb_level_value *v = calloc((size_t)cell->nu + 1, sizeof(*v));

	for (int i = 0; v && i < cell->nu; i++)
		v[i] = (struct pb_level_value){ .boot = cell->lv[i].boot,
			.invocation = cell->lv[i].invocation, .round = cell->lv[i].round,
			.value = cell->u[i], .repeats = cell->lv[i].repeats };
	return v;
}

/* One table's entry; NULL when it has no runs to measure (or no memory). */
static json_t *table_json(const struct pb_table *t)
{
	const struct pb_cell *cell = t->nr_cells ? &t->cells[0] : NULL;
	struct pb_level_value *v;
	struct pb_levels l;
	json_t *lv, *e;

	if (!cell || cell->nu < 1 || !(v = values_of(cell)))
		return NULL;
	if (pb_levels_of(v, cell->nu, &l)) {
		free(v);
		return NULL;
	}
	free(v);
	lv = json_object();
	for (int k = 0; k < PB_NR_LEVELS; k++)
		json_object_set_new(lv, level_names[k], level_json(&l.comp[k]));
	json_object_set_new(lv, "repeat", json_pack("{s:n, s:f, s:b, s:b}", "sd", "df", 0.0,
						     "covered", false, "clamped", false));
	e = json_pack("{s:s, s:s, s:s, s:O, s:i, s:i, s:i, s:o, s:o}", "job", t->job,
		      "placement", t->placement, "metric", t->metric,
		      "params", t->params ? t->params : json_object(), "boots", l.boots,
		      "invocations", l.invocations, "runs", l.runs, "levels", lv,
		      "between", between_json(&l));
	return e;
}

/* The levels some table covers, outermost first. */
static json_t *covers_of(json_t *tables)
{
	json_t *a = json_array(), *e;
	size_t i;

	for (int k = 0; k < PB_NR_LEVELS; k++)
		json_array_foreach(tables, i, e)
			if (json_is_true(json_object_get(json_object_get(
				json_object_get(e, "levels"), level_names[k]), "covered"))) {
				json_array_append_new(a, json_string(level_names[k]));
				break;
			}
	return a;
}

json_t *pb_noise_build(const struct pb_cmp *c, const struct pb_noise_meta *m)
{
	json_t *tables = json_array(), *root;

	for (int i = 0; tables && i < c->nr_tables; i++) {
		json_t *e = table_json(&c->t[i]);

		if (e)
			json_array_append_new(tables, e);
	}
	root = json_pack("{s:s, s:s, s:s, s:O, s:s, s:s*, s:s, s:i, s:{s:o, s:s}, s:o, s:{s:b, s:s}, "
			 "s:o}", "schema", PB_SCHEMA_NOISE, "host_class", m->host_class,
			 "kernel", m->kernel, "boot_ids", m->boot_ids, "date", m->date,
			 "jobfile", m->jobfile, "label", m->label, "blocks", m->blocks,
			 "precision", "target_pct", num_or_null(m->precision), "rule",
			 "relative SE of the between-invocation variance, sqrt(2/df)",
			 "covers", covers_of(tables), "boot",
			 "covered", json_array_size(m->boot_ids) > 1, "note",
			 json_array_size(m->boot_ids) > 1 ? "measured over boots" :
			 "one boot: the between-invocation figure stands in for the boot "
			 "level (boot effects such as memory layout are not in it)",
			 "tables", tables);
	return root;
}

/* ---- checking one ---- */

/* o[key] of JSON type want ("a string"...), or -1 with err naming path.key */
static int need(json_t *o, const char *path, const char *key, json_type type, const char *want,
		char *err, size_t len)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		return pb_errf(err, len, 0, "%s.%s is missing, want %s", path, key, want);
	if (json_typeof(v) == type || (type == JSON_REAL && json_is_number(v)) ||
	    (type == JSON_TRUE && json_is_boolean(v)))
		return 0;
	return pb_errf(err, len, 0, "%s.%s is %s, want %s", path, key, pb_json_kind(v), want);
}

/* A level object (sd number or null, df number): 0 or -1 */
static int check_level(json_t *o, const char *path, char *err, size_t len)
{
	json_t *sd = json_object_get(o, "sd");

	if (!json_is_object(o))
		return pb_errf(err, len, 0, "%s is %s, want an object", path, pb_json_kind(o));
	if (sd && !json_is_null(sd) && !(json_is_number(sd) && json_number_value(sd) >= 0))
		return pb_errf(err, len, 0, "%s.sd is %s, want a number >= 0 or null", path,
			       json_is_number(sd) ? "negative" : pb_json_kind(sd));
	if (!sd)
		return pb_errf(err, len, 0, "%s.sd is missing, want a number or null", path);
	return need(o, path, "df", JSON_REAL, "a number", err, len);
}

static int check_table(json_t *e, size_t i, char *err, size_t len)
{
	char p[64], q[80];

	snprintf(p, sizeof(p), "$.tables[%zu]", i);
	if (!json_is_object(e))
		return pb_errf(err, len, 0, "%s is %s, want an object", p, pb_json_kind(e));
	if (need(e, p, "job", JSON_STRING, "a string", err, len) ||
	    need(e, p, "placement", JSON_STRING, "a string", err, len) ||
	    need(e, p, "params", JSON_OBJECT, "an object", err, len) ||
	    need(e, p, "between", JSON_OBJECT, "an object", err, len))
		return -1;
	snprintf(q, sizeof(q), "%s.between", p);
	if (check_level(json_object_get(e, "between"), q, err, len) ||
	    need(json_object_get(e, "between"), q, "stands_in", JSON_TRUE, "a boolean", err, len))
		return -1;
	return 0;
}

int pb_noise_check(json_t *root, char *err, size_t len)
{
	const char *s = json_string_value(json_object_get(root, "schema"));
	json_t *e;
	size_t i;

	if (!json_is_object(root))
		return pb_errf(err, len, 0, "$ is %s, want an object", pb_json_kind(root));
	if (need(root, "$", "schema", JSON_STRING, "\"" PB_SCHEMA_NOISE "\"", err, len))
		return -1;
	if (strcmp(s, PB_SCHEMA_NOISE))
		return pb_errf(err, len, 0, "$.schema is \"%.64s\", want \"%s\"", s, PB_SCHEMA_NOISE);
	if (need(root, "$", "host_class", JSON_STRING, "a string", err, len) ||
	    need(root, "$", "kernel", JSON_STRING, "a string", err, len) ||
	    need(root, "$", "date", JSON_STRING, "a string", err, len) ||
	    need(root, "$", "tables", JSON_ARRAY, "an array", err, len))
		return -1;
	json_array_foreach(json_object_get(root, "tables"), i, e)
		if (check_table(e, i, err, len))
			return -1;
	return 0;
}

/* "2026-12-03T12:00:00Z" as a time; -1 when it is not one */
static time_t date_of(const char *s)
{
	struct tm tm = { 0 };
	const char *end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);

	return end && !*end ? timegm(&tm) : (time_t)-1;
}

int pb_noise_load(const char *path, struct pb_noise *p, char *err, size_t len)
{
	json_error_t je;
	char why[300];

	memset(p, 0, sizeof(*p));
	snprintf(p->path, sizeof(p->path), "%s", path);
	p->root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!p->root)
		return pb_errf(err, len, 0, "%s: cannot read: %s", path, je.text);
	if (pb_noise_check(p->root, why, sizeof(why))) {
		pb_noise_free(p);
		return pb_errf(err, len, 0, "%s: not a noise profile: %s", path, why);
	}
	snprintf(p->host_class, sizeof(p->host_class), "%s",
		 json_string_value(json_object_get(p->root, "host_class")));
	snprintf(p->kernel, sizeof(p->kernel), "%s",
		 json_string_value(json_object_get(p->root, "kernel")));
	snprintf(p->date, sizeof(p->date), "%s",
		 json_string_value(json_object_get(p->root, "date")));
	p->when = date_of(p->date);
	if (p->when == (time_t)-1) {
		pb_noise_free(p);
		return pb_errf(err, len, 0, "%s: not a noise profile: $.date is not "
			       "YYYY-MM-DDTHH:MM:SSZ", path);
	}
	return 0;
}

void pb_noise_free(struct pb_noise *p)
{
	json_decref(p->root);
	p->root = NULL;
}

/* ---- finding one ---- */

static bool is_profile_name(const char *n)
{
	size_t l = strlen(n);

	return !strncmp(n, "noise-", 6) && l > 11 && !strcmp(n + l - 5, ".json");
}

int pb_noise_find(const char *dir, const char *host_class, char *path, size_t plen, char *err,
		  size_t len)
{
	DIR *d = opendir(dir);
	time_t best[2] = { -1, -1 };	/* of the class, of any */
	char cand[2][4096] = { "", "" }, f[4096];
	struct dirent *de;
	struct pb_noise p;
	char why[512];

	if (!d)
		return pb_errf(err, len, errno, "%s", dir);
	while ((de = readdir(d))) {
		if (!is_profile_name(de->d_name))
			continue;
		snprintf(f, sizeof(f), "%s/%s", dir, de->d_name);
		if (pb_noise_load(f, &p, why, sizeof(why)))
			continue;
		for (int k = 0; k < 2; k++)
			if ((k || (host_class && !strcmp(p.host_class, host_class))) &&
			    p.when > best[k]) {
				best[k] = p.when;
				snprintf(cand[k], sizeof(cand[k]), "%s", f);
			}
		pb_noise_free(&p);
	}
	closedir(d);
	if (!cand[1][0])
		return 0;
	snprintf(path, plen, "%s", cand[0][0] ? cand[0] : cand[1]);
	return 1;
}

/* ---- holding it to results ---- */

int pb_noise_usable(struct pb_noise_ctx *x)
{
	const struct pb_noise *p = x->p;
	bool kernel = false;
	size_t i;
	json_t *k;

	json_array_foreach(x->kernels, i, k)
		kernel |= !strcmp(json_string_value(k), p->kernel);
	if (!x->host_class || strcmp(x->host_class, p->host_class)) {
		snprintf(x->why, sizeof(x->why), "of another host class (%.100s; the results: %.100s)",
			 p->host_class, x->host_class ? x->host_class : "several");
		return 0;
	}
	if (!kernel) {
		snprintf(x->why, sizeof(x->why), "of another kernel (%.60s, none of the results')",
			 p->kernel);
		return 0;
	}
	if (difftime(x->now, p->when) > PB_NOISE_MAX_AGE_DAYS * 86400.0) {
		snprintf(x->why, sizeof(x->why), "older than %d days (%s)", PB_NOISE_MAX_AGE_DAYS,
			 p->date);
		return 0;
	}
	x->why[0] = 0;
	return 1;
}

static const char *sval(json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : "?";
}

/* The first key of a or b (not a free key) that differs: 1 with why, or 0 */
static int key_differs(json_t *here, json_t *prof, char *why, size_t len)
{
	const char *k;
	json_t *v;

	json_object_foreach(here, k, v) {
		json_t *w = json_object_get(prof, k);

		if (pb_cmp_free_key(k) || (w && json_equal(v, w)))
			continue;
		snprintf(why, len, "%s: %s here, %s in the profile", k, sval(v),
			 w ? sval(w) : "absent");
		return 1;
	}
	json_object_foreach(prof, k, v)
		if (!pb_cmp_free_key(k) && !json_object_get(here, k)) {
			snprintf(why, len, "%s: absent here, %s in the profile", k, sval(v));
			return 1;
		}
	return 0;
}

int pb_noise_match(const struct pb_noise *p, const struct pb_table *t, json_t **e, char *why,
		   size_t len)
{
	json_t *x, *params = t->params ? t->params : json_object();
	size_t i;
	int rc = 0;

	why[0] = 0;
	json_array_foreach(json_object_get(p->root, "tables"), i, x) {
		if (strcmp(json_string_value(json_object_get(x, "job")), t->job) ||
		    strcmp(json_string_value(json_object_get(x, "placement")), t->placement))
			continue;
		if (!key_differs(params, json_object_get(x, "params"), why, len)) {
			*e = x;
			rc = 1;
			break;
		}
		rc = -1;	/* the reason of the first entry that differs */
	}
	if (!t->params)
		json_decref(params);
	return rc;
}

/* b->source, cut to fit */
static void source(struct pb_between *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->source, sizeof(b->source), fmt, ap);
	va_end(ap);
	pb_str_clean(b->source);	/* a profile's text may hold anything */
}

/*
 * The figure that answers for boots in entry e (pb_noise_match's): 0 with
 * *sd, *df and *stands_in set, or -1 (nothing set) when it has none.
 */
static int between_of(json_t *e, double *sd, double *df, bool *stands_in)
{
	json_t *bt = json_object_get(e, "between");

	if (!json_is_number(json_object_get(bt, "sd")))
		return -1;
	*sd = json_number_value(json_object_get(bt, "sd"));
	*df = json_number_value(json_object_get(bt, "df"));
	*stands_in = json_is_true(json_object_get(bt, "stands_in"));
	return 0;
}

int pb_noise_between(void *ctx, const struct pb_table *t, struct pb_between *b)
{
	struct pb_noise_ctx *x = ctx;
	const struct pb_noise *p = x->p;
	char why[160];
	json_t *e;
	int rc;

	b->sd = NAN;
	b->df = 0;
	b->stands_in = false;
	b->source[0] = 0;
	if (!p || !p->root)
		return 0;
	if (!pb_noise_usable(x)) {	/* said, never used */
		source(b, "noise profile %s: %s", p->path, x->why);
		return -1;
	}
	rc = pb_noise_match(p, t, &e, why, sizeof(why));
	if (rc < 0)
		source(b, "noise profile %s: other keys (%s)", p->path, why);
	if (rc <= 0 || between_of(e, &b->sd, &b->df, &b->stands_in))
		return rc < 0 ? -1 : 0;
	source(b, "noise profile %s (%s, kernel %s, %s)", p->path, p->host_class, p->kernel,
	       p->date);
	return 1;
}

/* The newest profile of the folders among dirs (of class cls when one is): 1, or 0 */
static int find_in(char *const *dirs, int n, const char *cls, char *path, size_t plen)
{
	bool best_cls = false, of_cls;
	char f[4096], why[512];
	time_t best = -1;
	struct pb_noise q;
	struct stat st;

	for (int i = 0; i < n; i++) {
		if (stat(dirs[i], &st) || !S_ISDIR(st.st_mode) ||
		    pb_noise_find(dirs[i], cls, f, sizeof(f), why, sizeof(why)) != 1 ||
		    pb_noise_load(f, &q, why, sizeof(why)))
			continue;
		of_cls = cls && !strcmp(q.host_class, cls);
		if (best < 0 || (of_cls && !best_cls) || (of_cls == best_cls && q.when > best)) {
			best = q.when;
			best_cls = of_cls;
			snprintf(path, plen, "%s", f);
		}
		pb_noise_free(&q);
	}
	return best >= 0;
}

int pb_noise_pick(const char *given, char *const *dirs, int n, const struct pb_cmp *c,
		  struct pb_noise *p, struct pb_noise_ctx *x, char *line, size_t len)
{
	char path[4096];

	memset(p, 0, sizeof(*p));
	memset(x, 0, sizeof(*x));
	line[0] = 0;
	x->p = p;
	x->host_class = json_array_size(c->classes) == 1 ?
			json_string_value(json_array_get(c->classes, 0)) : NULL;
	x->kernels = c->kernels;
	x->now = time(NULL);
	if (given)
		snprintf(path, sizeof(path), "%s", given);
	else if (!find_in(dirs, n, x->host_class, path, sizeof(path)))
		return 0;
	if (pb_noise_load(path, p, line, len))
		return given ? -2 : 0;
	if (!pb_noise_usable(x)) {
		snprintf(line, len, "noise profile %s not used: %s", path, x->why);
		pb_str_clean(line);	/* a profile's text may hold anything */
		return -1;
	}
	snprintf(line, len, "noise profile: %s (%s, kernel %s, %s)", path, p->host_class,
		 p->kernel, p->date);
	pb_str_clean(line);
	return 1;
}

/* ---- planning: what a job file will resolve ---- */

int pb_noise_pick_host(const char *given, const char *dir, json_t *host, struct pb_noise *p,
		       char *line, size_t len)
{
	const char *k = json_string_value(json_object_get(host, "kernel"));
	json_t *root = json_pack("{s:O}", "host", host);
	struct pb_cmp c = { 0 };
	struct pb_noise_ctx x;
	char cls[512], *dirs[1] = { (char *)dir };
	int rc;

	pb_cmp_class_of(root, cls, sizeof(cls));
	c.classes = json_pack("[s]", cls);
	c.kernels = json_pack("[s]", k ? k : "unknown");
	rc = pb_noise_pick(given, dirs, 1, &c, p, &x, line, len);
	json_decref(c.classes);
	json_decref(c.kernels);
	json_decref(root);
	return rc;
}

/* A level of a profile's entry: its sd and df when covered, else 0 and 0. */
static void level_of(json_t *e, const char *name, double *sd, double *df)
{
	json_t *l = json_object_get(json_object_get(e, "levels"), name);

	*sd = *df = 0;
	if (!json_is_true(json_object_get(l, "covered")) ||
	    !json_is_number(json_object_get(l, "sd")))
		return;
	*sd = json_number_value(json_object_get(l, "sd"));
	*df = json_number_value(json_object_get(l, "df"));
}

int pb_noise_plan(const struct pb_noise *p, const char *job, const char *placement,
		  json_t *params, int rounds, double min_change, struct pb_noise_plan *o,
		  char *why, size_t len)
{
	struct pb_table t;
	json_t *e;
	double si, dfi, var[2], df[2];
	int rc;

	memset(o, 0, sizeof(*o));
	memset(&t, 0, sizeof(t));
	snprintf(t.job, sizeof(t.job), "%s", job);
	snprintf(t.placement, sizeof(t.placement), "%s", placement);
	t.params = params;
	rc = pb_noise_match(p, &t, &e, why, len);
	if (rc <= 0 || between_of(e, &o->sd_above, &o->df_above, &o->stands_in))
		return rc < 0 ? -1 : 0;
	level_of(e, "invocation", &si, &dfi);
	if (!o->stands_in && si > 0) {	/* one invocation a boot: both levels */
		var[0] = o->sd_above * o->sd_above;
		var[1] = si * si;
		df[0] = o->df_above;
		df[1] = dfi;
		o->sd_above = sqrt(var[0] + var[1]);
		o->df_above = pb_satterthwaite(var, df, 2);
	}
	level_of(e, "run", &o->sd_run, &o->df_run);
	o->mde_one = pb_plan_mde(o->sd_above, o->df_above, o->sd_run, o->df_run, rounds, 1);
	o->floor = pb_plan_mde(o->sd_above, o->df_above, 0, 0, rounds, 1);
	o->boots = pb_plan_boots(o->sd_above, o->df_above, o->sd_run, o->df_run, rounds,
				 min_change, PB_PLAN_MAX_BOOTS);
	o->mde_boots = o->boots ? pb_plan_mde(o->sd_above, o->df_above, o->sd_run, o->df_run,
					      rounds, o->boots) : NAN;
	return 1;
}
