// SPDX-License-Identifier: GPL-2.0-only
/*
 * resultload.c - result files into JSON (report/resultload.h): read in
 * blocks up to a cap (jansson's json_loadfd reads a byte per read()),
 * parsed, and checked against what schemas/pinbench-result-1.schema.json
 * publishes for the fields the readers use.  No error quotes the file.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "lib/util.h"
#include "report/compare.h"
#include "report/resultload.h"

static int pb_result_check(json_t *root, char *err, size_t len);

json_t *pb_result_parse(const char *name, const char *buf, size_t n, char *err, size_t len)
{
	char why[200], *near;
	json_error_t je;
	json_t *root;

	root = json_loadb(buf, n, 0, &je);
	if (!root) {
		/* jansson ends with "near 'TOKEN'": the file's bytes, left out */
		snprintf(why, sizeof(why), "%s", je.text);
		near = strstr(why, " near '");
		if (near)
			*near = '\0';
		pb_str_clean(why);
		pb_errf(err, len, 0, "%s: cannot read: %s (line %d, column %d)", name, why,
			je.line, je.column);
		return NULL;
	}
	if (pb_result_check(root, why, sizeof(why))) {
		pb_errf(err, len, 0, "%s: not a pinbench result: %s", name, why);
		json_decref(root);
		return NULL;
	}
	return root;
}

json_t *pb_result_loadfd(int fd, const char *name, char *err, size_t len)
{
	size_t n;
	char *buf;
	json_t *root;

	if (pb_read_all(fd, PB_RESULT_MAX_BYTES, &buf, &n)) {
		if (errno == EFBIG)
			pb_errf(err, len, 0, "%s: over %lu MiB, the cap for a result file", name,
				PB_RESULT_MAX_BYTES >> 20);
		else
			pb_errf(err, len, errno, "%s", name);
		return NULL;
	}
	root = pb_result_parse(name, buf, n, err, len);
	free(buf);
	return root;
}

/* ---- the schema's constraints ---- */

struct chk {
	char	*err;
	size_t	len;
	char	path[160];
};

static int bad(struct chk *k, const char *key, const char *fmt, ...)
{
	char why[120];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return pb_errf(k->err, k->len, 0, "%s%s%s: %s", k->path, k->path[0] ? "." : "", key, why);
}

/* k->path += suffix (".key" or "[i]"); the old length, to restore */
static size_t push(struct chk *k, const char *fmt, ...)
{
	size_t l = strlen(k->path);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(k->path + l, sizeof(k->path) - l, fmt, ap);
	va_end(ap);
	return l;
}

enum want {
	W_STR = 1, W_NUM = 2, W_INT = 4, W_BOOL = 8, W_NULL = 16, W_OBJ = 32, W_ARR = 64,
	W_NEED = 128,	/* required */
	W_MIN0 = 256,	/* minimum 0 */
	W_MIN1 = 512,	/* minimum 1 */
	W_NONEMPTY = 1024,	/* a string of one character or more */
};

static bool is(json_t *v, int w)
{
	return ((w & W_STR) && json_is_string(v)) || ((w & W_NUM) && json_is_number(v)) ||
	       ((w & W_INT) && json_is_integer(v)) || ((w & W_BOOL) && json_is_boolean(v)) ||
	       ((w & W_NULL) && json_is_null(v)) || ((w & W_OBJ) && json_is_object(v)) ||
	       ((w & W_ARR) && json_is_array(v));
}

static const char *want_text(int w)
{
	if (w & W_STR)
		return w & W_NULL ? "a string or null" : "a string";
	if (w & W_INT)
		return w & W_NULL ? "an integer or null" : "an integer";
	if (w & W_NUM)
		return w & W_NULL ? "a number or null" : "a number";
	if (w & W_BOOL)
		return w & W_NULL ? "a boolean or null" : "a boolean";
	if (w & W_OBJ)
		return w & W_NULL ? "an object or null" : "an object";
	return "an array";
}

/* o[key] as w says: 0, or -1 with k->err set */
static int field(struct chk *k, json_t *o, const char *key, int w)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		return w & W_NEED ? bad(k, key, "missing, want %s", want_text(w)) : 0;
	if (!is(v, w))
		return bad(k, key, "%s, want %s", pb_json_kind(v), want_text(w));
	if (json_is_number(v) && !isfinite(json_number_value(v)))
		return bad(k, key, "not a finite number");
	if ((w & W_MIN0) && json_is_number(v) && json_number_value(v) < 0)
		return bad(k, key, "negative, want 0 or more");
	if ((w & W_MIN1) && json_is_number(v) && json_number_value(v) < 1)
		return bad(k, key, "below 1, want 1 or more");
	if ((w & W_NONEMPTY) && json_is_string(v) && !json_string_value(v)[0])
		return bad(k, key, "empty, want a string");
	return 0;
}

/* o[key], when present, one of the strings in one[] (NULL-terminated) */
static int one_of(struct chk *k, json_t *o, const char *key, const char *const *one,
		  const char *want)
{
	json_t *v = json_object_get(o, key);
	int i;

	if (!v)
		return 0;
	for (i = 0; json_is_string(v) && one[i]; i++)
		if (!strcmp(json_string_value(v), one[i]))
			return 0;
	return bad(k, key, "%s, want %s", json_is_string(v) ? "another string" : pb_json_kind(v),
		   want);
}

/* o[key], when present, an array of objects, each as each() says */
static int check_items(struct chk *k, json_t *o, const char *key,
		       int (*each)(struct chk *k, json_t *item))
{
	json_t *a = json_object_get(o, key), *x;
	size_t i, l;
	int rc;

	if (field(k, o, key, W_ARR))
		return -1;
	json_array_foreach(a, i, x) {
		if (!json_is_object(x))
			return bad(k, key, "item %zu is %s, want an object", i, pb_json_kind(x));
		l = push(k, "%s%s[%zu]", k->path[0] ? "." : "", key, i);
		rc = each(k, x);
		k->path[l] = '\0';
		if (rc)
			return -1;
	}
	return 0;
}

static int check_anomaly(struct chk *k, json_t *a)
{
	static const char *const sev[] = { "info", "warn", "error", NULL };

	return field(k, a, "kind", W_STR) || field(k, a, "message", W_STR) ||
	       one_of(k, a, "severity", sev, "\"info\", \"warn\" or \"error\"") ? -1 : 0;
}

/* summary.latency or a repeat's latency: numbers, none negative */
static int check_latency(struct chk *k, json_t *o)
{
	json_t *lat = json_object_get(o, "latency"), *v;
	const char *key;
	size_t l;
	int rc = 0;

	if (field(k, o, "latency", W_OBJ | W_NULL))	/* null: no sample (a stalled window) */
		return -1;
	if (!json_is_object(lat))
		return 0;
	l = push(k, "%slatency", k->path[0] ? "." : "");
	json_object_foreach(lat, key, v)
		if ((rc = field(k, lat, key, !strcmp(key, "count") ? W_INT | W_MIN0 :
				W_NUM | W_MIN0)))
			break;
	k->path[l] = '\0';
	return rc;
}

static int check_summary(struct chk *k, json_t *job)
{
	static const char *const kinds[] = { "arithmetic", "harmonic", NULL };
	json_t *s = json_object_get(job, "summary");
	size_t l;
	int rc;

	if (field(k, job, "summary", W_OBJ | W_NULL))
		return -1;
	if (!json_is_object(s))
		return 0;
	l = push(k, ".summary");
	rc = field(k, s, "n", W_INT | W_MIN1) || field(k, s, "mean", W_NUM) ||
	     field(k, s, "stddev", W_NUM | W_MIN0) || field(k, s, "min", W_NUM) ||
	     field(k, s, "median", W_NUM) || field(k, s, "max", W_NUM) ||
	     field(k, s, "cv", W_NUM) || field(k, s, "ci95", W_ARR | W_NULL) ||
	     one_of(k, s, "mean_kind", kinds, "\"arithmetic\" or \"harmonic\"") ||
	     check_latency(k, s);
	k->path[l] = '\0';
	return rc ? -1 : 0;
}

static int check_repeat(struct chk *k, json_t *r)
{
	return field(k, r, "value", W_NUM | W_NULL | W_MIN0) ||
	       field(k, r, "ops", W_NUM | W_MIN0) || field(k, r, "start_s", W_NUM | W_MIN0) ||
	       field(k, r, "elapsed_s", W_NUM | W_MIN0) ||
	       field(k, r, "ops_per_s", W_NUM | W_MIN0) ||
	       field(k, r, "stall", W_BOOL) || field(k, r, "in_summary", W_BOOL) ||
	       field(k, r, "pass", W_INT | W_NULL | W_MIN0) ||
	       field(k, r, "counters", W_OBJ) || field(k, r, "derived", W_OBJ) ||
	       check_latency(k, r) ? -1 : 0;
}

static int check_prof_role(struct chk *k, json_t *r)
{
	return field(k, r, "role", W_STR) || field(k, r, "samples", W_INT | W_MIN0) ||
	       field(k, r, "ops", W_INT | W_MIN0) ||
	       field(k, r, "task_clock_ns", W_INT | W_MIN0) || field(k, r, "folded", W_STR) ?
	       -1 : 0;
}

/* profile=on: the pass's object, its roles' folded stacks and totals. */
static int check_profile(struct chk *k, json_t *job)
{
	json_t *p = json_object_get(job, "profile");
	size_t l;
	int rc;

	if (field(k, job, "profile", W_OBJ | W_NULL))
		return -1;
	if (!json_is_object(p))
		return 0;
	l = push(k, ".profile");
	rc = field(k, p, "sampled", W_BOOL) || field(k, p, "ops", W_INT | W_MIN0) ||
	     field(k, p, "wall_s", W_NUM | W_MIN0) ||
	     check_items(k, p, "roles", check_prof_role);
	k->path[l] = '\0';
	return rc ? -1 : 0;
}

static int check_job(struct chk *k, json_t *job)
{
	static const char *const status[] = { "ok", "skipped", "failed", "interrupted", NULL };
	static const char *const better[] = { "lower", "higher", NULL };
	json_t *m = json_object_get(job, "metric"), *p = json_object_get(job, "params"), *v;
	const char *key;
	size_t l;
	int rc;

	if (field(k, job, "name", W_STR | W_NEED | W_NONEMPTY) ||
	    field(k, job, "bench", W_STR | W_NONEMPTY) || field(k, job, "placement", W_STR) ||
	    one_of(k, job, "status", status,
		   "\"ok\", \"skipped\", \"failed\" or \"interrupted\"") ||
	    field(k, job, "reason", W_STR | W_NULL) || field(k, job, "round", W_INT | W_MIN1) ||
	    field(k, job, "params", W_OBJ) || field(k, job, "metric", W_OBJ) ||
	    field(k, job, "cpus", W_ARR) || field(k, job, "derived", W_OBJ) ||
	    field(k, job, "wall_s", W_NUM | W_MIN0) ||
	    field(k, job, "other_busy_frac", W_NUM | W_NULL | W_MIN0) ||
	    field(k, job, "peer", W_OBJ))
		return -1;
	json_object_foreach(p, key, v)
		if (!json_is_string(v))
			return bad(k, "params", "a value is %s, want a string", pb_json_kind(v));
	if (m) {
		l = push(k, ".metric");
		rc = field(k, m, "name", W_STR) || field(k, m, "unit", W_STR) ||
		     one_of(k, m, "better", better, "\"lower\" or \"higher\"");
		k->path[l] = '\0';
		if (rc)
			return -1;
	}
	return check_summary(k, job) || check_items(k, job, "repeats", check_repeat) ||
	       check_profile(k, job) ||
	       check_items(k, job, "anomalies", check_anomaly) ? -1 : 0;
}

/*
 * What the readers use of a pinbench-result/1, as schemas/ publishes it:
 * types, enums and minimums of the fields present; schema, jobs and each
 * job's name required.  0, or -1 with err naming the JSON path and what is
 * wrong ("jobs[2].metric.better: want \"lower\" or \"higher\"").
 */
static int pb_result_check(json_t *root, char *err, size_t len)
{
	struct chk k = { .err = err, .len = len };
	json_t *host, *job;
	size_t i, l;

	if (pb_cmp_check_result(root, err, len))
		return -1;
	host = json_object_get(root, "host");
	if (field(&k, root, "label", W_STR | W_NONEMPTY) || field(&k, root, "host", W_OBJ) ||
	    field(&k, root, "config", W_STR | W_NULL) || field(&k, root, "cmdline", W_STR) ||
	    field(&k, root, "rounds", W_INT | W_MIN1) ||
	    field(&k, root, "boot_id", W_STR | W_NULL | W_NONEMPTY) ||
	    field(&k, root, "invocation", W_STR | W_NULL | W_NONEMPTY) ||
	    field(&k, root, "jobs_planned", W_INT | W_MIN0) ||
	    check_items(&k, root, "anomalies", check_anomaly))
		return -1;
	if (host) {
		l = push(&k, "host");
		if (field(&k, host, "hostname", W_STR) || field(&k, host, "kernel", W_STR) ||
		    field(&k, host, "cpu_model", W_STR))
			return -1;
		k.path[l] = '\0';
	}
	json_array_foreach(json_object_get(root, "jobs"), i, job) {
		push(&k, "jobs[%zu]", i);
		if (check_job(&k, job))
			return -1;
		k.path[0] = '\0';
	}
	return 0;
}
