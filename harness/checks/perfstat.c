// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfstat.c - parser and verdict for `perf stat` output (text, -x SEP, -j;
 * -I intervals and -r variance in each).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/perfstat.h"
#include "checks/clockcheck.h"
#include "lib/util.h"

#define PS_MAX_FILE	(4 << 20)
#define PS_MAX_FIELDS	16
#define PS_MAX_LINE	4096	/* longer lines are cut (a -j line is ~250) */

static char *skip_ws(char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

static void rtrim(char *p)
{
	size_t n = strlen(p);

	while (n && isspace((unsigned char)p[n - 1]))
		p[--n] = '\0';
}

/* A number with ',' thousands separators, the whole of s: 0, or -1. */
static int parse_num(const char *s, double *v)
{
	char buf[64], *end;
	size_t i, n = 0;

	for (i = 0; s[i] && n < sizeof(buf) - 1; i++)
		if (s[i] != ',')
			buf[n++] = s[i];
	buf[n] = '\0';
	if (!n || s[i])
		return -1;
	errno = 0;
	*v = strtod(buf, &end);
	return errno || *end ? -1 : 0;
}

/* "<not supported>" / "<not counted>" at p: the status and its length, or 0 */
static size_t parse_marker(const char *p, enum pb_ps_status *st)
{
	if (!strncmp(p, "<not supported>", 15)) {
		*st = PB_PS_NOT_SUPPORTED;
		return 15;
	}
	if (!strncmp(p, "<not counted>", 13)) {
		*st = PB_PS_NOT_COUNTED;
		return 13;
	}
	return 0;
}

/* The running share in "(66.67%)" or "(scaled from 66.67%)"; 100 when none. */
static double find_pct(const char *s)
{
	const char *p;

	for (p = strchr(s, '('); p; p = strchr(p + 1, '(')) {
		const char *q = p + 1;
		char *end;
		double v;

		while (*q == ' ')
			q++;
		if (!strncmp(q, "scaled from", 11))
			q += 11;
		if (!strncmp(q, "+-", 2))
			continue;
		v = strtod(q, &end);
		if (end != q && *end == '%')
			return v;
	}
	return 100;
}

/* -r's run-to-run share in "( +- 9.08% )"; NAN when none. */
static double find_var(const char *s)
{
	const char *p;

	for (p = strstr(s, "( +-"); p; p = strstr(p + 1, "( +-")) {
		char *end;
		double v = strtod(p + 4, &end);

		if (end != p + 4 && *end == '%')
			return v;
	}
	return NAN;
}

/* "task-clock-msecs" (perf of 2009) is task-clock in msec. */
static void set_name(struct pb_ps_event *ev, const char *name, const char *unit)
{
	size_t n = strlen(name);

	if (n > 6 && !strcmp(name + n - 6, "-msecs")) {
		snprintf(ev->name, sizeof(ev->name), "%.*s", (int)(n - 6), name);
		snprintf(ev->unit, sizeof(ev->unit), "msec");
	} else {
		snprintf(ev->name, sizeof(ev->name), "%s", name);
		snprintf(ev->unit, sizeof(ev->unit), "%s", unit);
	}
	pb_str_clean(ev->name);	/* printed in the table and the verdict */
	pb_str_clean(ev->unit);
}

static void init_event(struct pb_ps_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->metric = NAN;
	ev->variance = NAN;
	ev->pct = 100;
}

static bool is_cpu(const char *s)
{
	return !strncmp(s, "CPU", 3) && isdigit((unsigned char)s[3]);
}

/* -I's "%6lu.%09lu" at s (the whole of it up to end, or of s): 0, or -1 */
static int parse_stamp(const char *s, size_t n, double *t)
{
	char buf[32], *end;

	if (!n || n >= sizeof(buf) || !memchr(s, '.', n) || memchr(s, ',', n))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*t = strtod(buf, &end);
	return *end || !isdigit((unsigned char)buf[0]) ? -1 : 0;
}

/*
 * "[time] [CPUn] <value> [unit] <event> [(msec)] [# <metric> <unit>] [( +- v% )] [(pct%)]":
 * 1 event (*t the interval's end, or left alone), 0 skip
 */
static int parse_text_event(char *p, struct pb_ps_event *ev, double *t)
{
	char *hash, *tok[3], *save = NULL, *paren, *msec;
	enum pb_ps_status st;
	const char *unit;
	size_t m;
	int nt = 0;

	init_event(ev);
	ev->pct = find_pct(p);
	ev->variance = find_var(p);
	m = strcspn(p, " \t");
	if (p[m]) {			/* -I: a timestamp, then a value */
		char *r = skip_ws(p + m);

		if ((isdigit((unsigned char)*r) || parse_marker(r, &st)) && !parse_stamp(p, m, t))
			p = r;
	}
	if (is_cpu(p))			/* -A */
		p = skip_ws(p + strcspn(p, " \t"));
	m = parse_marker(p, &ev->status);
	if (!m) {
		char *sp = p + strcspn(p, " \t");
		char c = *sp;

		*sp = '\0';
		if (parse_num(p, &ev->value))
			return 0;
		*sp = c;
		m = sp - p;
	}
	p += m;
	hash = strchr(p, '#');
	msec = strstr(p, "(msec)");	/* perf 4.x: "task-clock (msec)" */
	if (msec && (!hash || msec < hash))
		memset(msec, ' ', 6);
	else
		msec = NULL;
	paren = strchr(p, '(');
	if (hash)
		*hash++ = '\0';
	if (paren && (!hash || paren < hash))
		*paren = '\0';
	for (char *k = strtok_r(p, " \t", &save); k && nt < 3; k = strtok_r(NULL, " \t", &save))
		tok[nt++] = k;
	if (nt < 1 || nt > 2)
		return 0;
	unit = nt == 2 ? tok[0] : msec ? "msec" : "";
	set_name(ev, tok[nt - 1], unit);
	if (hash) {
		char *end;

		hash[strcspn(hash, "(")] = '\0';
		ev->metric = strtod(hash, &end);
		if (end == hash)
			ev->metric = NAN;
		end = skip_ws(end);
		rtrim(end);
		snprintf(ev->metric_unit, sizeof(ev->metric_unit), "%s", end);
	}
	return 1;
}

static int split_csv(char *line, char sep, char **f, int max)
{
	int n = 0;

	f[n++] = line;
	for (char *p = line; *p && n < max; p++)
		if (*p == sep) {
			*p = '\0';
			f[n++] = p + 1;
		}
	return n;
}

static bool is_numeric(const char *s)
{
	char *end;

	if (!*s)
		return false;
	strtod(s, &end);
	return !*end;
}

static bool has_space(const char *s)
{
	return strpbrk(s, " \t") != NULL;
}

/*
 * The separator -x may have used in p: the character after its first field
 * (a value, marker, timestamp or CPUn); 0 when that is a space or the end.
 */
static char guess_sep(const char *p)
{
	enum pb_ps_status st;
	size_t m = parse_marker(p, &st);

	if (!m)
		while (isalnum((unsigned char)p[m]) || p[m] == '.' || p[m] == '+' || p[m] == '-')
			m++;
	return p[m] == ' ' || p[m] == '\n' || p[m] == '\r' ? 0 : p[m];
}

/*
 * -x SEP: [time,][CPUn,]value,unit,event,[variance%,]run_time,pct,metric,metric_unit
 * (perf 4.x to 6.x): 1 event (*t the interval's end, or left alone), 0 not CSV
 */
static int parse_csv_event(const char *line, char sep, struct pb_ps_event *ev, double *t)
{
	char buf[PS_MAX_LINE], *f[PS_MAX_FIELDS];
	enum pb_ps_status st;
	int n, o = 0, k;

	snprintf(buf, sizeof(buf), "%s", line);
	if (sep != '\t')
		rtrim(buf);
	n = split_csv(buf, sep, f, PS_MAX_FIELDS);
	if (n >= 4 && !is_cpu(f[0]) &&
	    (is_numeric(f[1]) || parse_marker(f[1], &st) || is_cpu(f[1]))) {
		char *s = skip_ws(f[0]);

		if (strcmp(s, "summary") && parse_stamp(s, strlen(s), t))
			return 0;
		o = 1;		/* -I: the interval's end, or --summary's "summary" */
	}
	if (n - o >= 4 && is_cpu(f[o]))
		o++;		/* -A: per CPU */
	if (n - o < 3)
		return 0;
	init_event(ev);
	if ((!parse_marker(f[o], &ev->status) &&
	     (has_space(f[o]) || parse_num(f[o], &ev->value))) ||
	    has_space(f[o + 1]) || has_space(f[o + 2]) || !*f[o + 2] || is_numeric(f[o + 2]))
		return 0;
	set_name(ev, f[o + 2], f[o + 1]);
	k = o + 3;
	if (n > k && *f[k] && f[k][strlen(f[k]) - 1] == '%') {	/* -r */
		char *end;

		ev->variance = strtod(f[k], &end);
		if (*end != '%')
			ev->variance = NAN;
		k++;
	}
	if (n > k + 1 && is_numeric(f[k + 1]))
		ev->pct = strtod(f[k + 1], NULL);
	if (n > k + 2 && is_numeric(f[k + 2]))
		ev->metric = strtod(f[k + 2], NULL);
	if (n > k + 3)
		snprintf(ev->metric_unit, sizeof(ev->metric_unit), "%s", f[k + 3]);
	return 1;
}

/* A JSON number, or a string holding one ("counter-value" is a string): 0, or -1 */
static int json_num(const json_t *j, double *v)
{
	if (json_is_number(j)) {
		*v = json_number_value(j);
		return 0;
	}
	return json_is_string(j) ? parse_num(json_string_value(j), v) : -1;
}

static const char *json_str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* -j: {"counter-value","unit","event","variance","pcnt-running","metric-value",...} */
static int parse_json_event(const char *line, struct pb_ps_event *ev, double *t)
{
	json_t *j = json_loads(line, 0, NULL), *cv;
	const char *name, *s;
	double d;
	int r = 0;

	if (!json_is_object(j))
		goto out;
	name = json_str(j, "event");
	cv = json_object_get(j, "counter-value");
	if (!*name || !cv)
		goto out;
	init_event(ev);
	s = json_string_value(cv);
	if (!(s && parse_marker(s, &ev->status) == strlen(s)) && json_num(cv, &ev->value))
		goto out;
	set_name(ev, name, json_str(j, "unit"));
	if (!json_num(json_object_get(j, "pcnt-running"), &d))
		ev->pct = d;
	if (!json_num(json_object_get(j, "variance"), &d))
		ev->variance = d;
	if (ev->status == PB_PS_OK && !json_num(json_object_get(j, "metric-value"), &d))
		ev->metric = d;
	snprintf(ev->metric_unit, sizeof(ev->metric_unit), "%s", json_str(j, "metric-unit"));
	if (!json_num(json_object_get(j, "interval"), &d))
		*t = d;
	r = 1;
out:
	json_decref(j);
	return r;
}

/* Add ev to ps, summing an event met before; nr counts the lines summed. */
static int add_event(struct pb_perfstat *ps, const struct pb_ps_event *ev)
{
	struct pb_ps_event *v;
	int i, rows = ev->nr ? ev->nr : 1;

	for (i = 0; i < ps->nr; i++) {
		struct pb_ps_event *e = &ps->ev[i];

		if (strcmp(e->name, ev->name))
			continue;
		if (ev->status == PB_PS_OK) {
			e->value = e->status == PB_PS_OK ? e->value + ev->value : ev->value;
			e->status = PB_PS_OK;
		}
		e->pct = fmin(e->pct, ev->pct);
		if (!isnan(ev->variance))
			e->variance = isnan(e->variance) ? ev->variance : fmax(e->variance, ev->variance);
		e->nr += rows;
		return 0;
	}
	v = pb_grow(ps->ev, ps->nr, &ps->cap, sizeof(*v));
	if (!v)
		return -1;
	ps->ev = v;
	ps->ev[ps->nr] = *ev;
	ps->ev[ps->nr++].nr = rows;
	return 0;
}

/* Give back the room pb_grow left spare in ps->ev (thousands of intervals). */
static void fit_events(struct pb_perfstat *ps)
{
	struct pb_ps_event *v;

	if (!ps->nr || ps->nr == ps->cap)
		return;
	v = realloc(ps->ev, ps->nr * sizeof(*v));
	if (v) {
		ps->ev = v;
		ps->cap = ps->nr;
	}
}

/*
 * Add ev to the interval ending at t when t >= 0, else to the whole (the
 * whole of -I output is its intervals' sum, unless perf printed its own
 * --summary: sum_intervals).
 */
static int add_timed(struct pb_perfstat *ps, const struct pb_ps_event *ev, double t)
{
	if (!isnan(ev->variance))
		ps->has_variance = true;
	if (t < 0)
		return add_event(ps, ev);
	if (!ps->nr_iv || ps->iv[ps->nr_iv - 1].t != t) {
		struct pb_perfstat *iv = pb_grow(ps->iv, ps->nr_iv, &ps->cap_iv, sizeof(*iv));

		if (!iv)
			return -1;
		if (ps->nr_iv)		/* the interval before is whole: no spare room */
			fit_events(&iv[ps->nr_iv - 1]);
		ps->iv = iv;
		memset(&iv[ps->nr_iv], 0, sizeof(*iv));
		iv[ps->nr_iv].elapsed_s = -1;
		iv[ps->nr_iv].elapsed_var = NAN;
		iv[ps->nr_iv++].t = t;
	}
	return add_event(&ps->iv[ps->nr_iv - 1], ev);
}

/*
 * A count is a number of events: never negative, never NaN or infinite,
 * and below 2^64: perf's counters are 64-bit, so a larger count (1e28) is
 * not something perf printed.  Between 2^53 and 2^64 a double rounds a
 * count by less than one part in 10^15, well below any verdict here.
 */
#define PS_COUNT_MAX	18446744073709551616.0	/* 2^64 */

static int check_count(const struct pb_ps_event *ev, char *err, size_t len)
{
	if (ev->status != PB_PS_OK ||
	    (isfinite(ev->value) && ev->value >= 0 && ev->value < PS_COUNT_MAX))
		return 0;
	if (isfinite(ev->value) && ev->value > 0)
		snprintf(err, len, "%s: count %.15g is 2^64 or more, more than a 64-bit "
			 "counter holds", ev->name, ev->value);
	else
		snprintf(err, len, "%s: %s count %.15g", ev->name,
			 isfinite(ev->value) ? "negative" : "not a", ev->value);
	return -2;
}

/* -I without perf's own summary: the whole is the sum of the intervals. */
static int sum_intervals(struct pb_perfstat *ps)
{
	int i, k;

	if (ps->nr) {
		ps->perf_summary = ps->nr_iv > 0;
		return 0;
	}
	for (i = 0; i < ps->nr_iv; i++)
		for (k = 0; k < ps->iv[i].nr; k++)
			if (add_event(ps, &ps->iv[i].ev[k]))
				return -1;
	return 0;
}

/* "... (3 runs):" -> 3 */
static void parse_runs(struct pb_perfstat *ps, const char *p)
{
	const char *r = strstr(p, " runs)");

	while (r && r > p && isdigit((unsigned char)r[-1]))
		r--;
	if (r && isdigit((unsigned char)*r))
		ps->runs = atoi(r);
}

/* One line: 0 (parsed or skipped), -1 ENOMEM, -2 a bad count (err says which) */
static int parse_line(struct pb_perfstat *ps, char *line, char *err, size_t len)
{
	struct pb_ps_event ev;
	char *p = skip_ws(line), sep;
	double v, t = -1;

	if (!*p || *p == '#' || strstr(p, "seconds user") || strstr(p, "seconds sys"))
		return 0;
	if (!strncmp(p, "Performance counter stats", 25)) {
		parse_runs(ps, p);
		return 0;
	}
	if (strstr(p, "seconds time elapsed")) {
		ps->elapsed_var = find_var(p);
		p[strcspn(p, " \t")] = '\0';
		if (!parse_num(p, &v))
			ps->elapsed_s = v;
		return 0;
	}
	if (*p == '{') {
		if (!parse_json_event(p, &ev, &t))
			return 0;
		ps->format = PB_PS_JSON;
	} else if ((sep = ps->sep ?: guess_sep(p)) && parse_csv_event(p, sep, &ev, &t)) {
		ps->csv = true;
		ps->sep = sep;
	} else if (!parse_text_event(p, &ev, &t)) {
		return 0;
	}
	return check_count(&ev, err, len) ?: add_timed(ps, &ev, t);
}

/* name: the file, in "FILE:LINE: ..." (NULL: "line LINE: ..."). */
static int parse_text(const char *name, const char *text, struct pb_perfstat *ps,
		      char *err, size_t len)
{
	const char *p = text;
	int nr = 0, r;

	memset(ps, 0, sizeof(*ps));
	ps->elapsed_s = -1;
	ps->elapsed_var = NAN;
	while (*p) {
		size_t n = strcspn(p, "\n");
		char line[PS_MAX_LINE], why[256];

		snprintf(line, sizeof(line), "%.*s",
			 (int)(n < sizeof(line) ? n : sizeof(line) - 1), p);
		nr++;
		r = parse_line(ps, line, why, sizeof(why));
		if (r) {
			pb_perfstat_free(ps);
			if (r == -1)
				snprintf(err, len, "out of memory");
			else if (name)
				snprintf(err, len, "%s:%d: %s", name, nr, why);
			else
				snprintf(err, len, "line %d: %s", nr, why);
			return -1;
		}
		p += n + (p[n] == '\n');
	}
	if (sum_intervals(ps)) {
		pb_perfstat_free(ps);
		snprintf(err, len, "out of memory");
		return -1;
	}
	if (!ps->nr) {
		snprintf(err, len, "%s%sno perf stat counts found", name ? name : "",
			 name ? ": " : "");
		return -1;
	}
	if (ps->format != PB_PS_JSON && ps->csv)
		ps->format = PB_PS_CSV;
	return 0;
}

int pb_perfstat_parse(const char *text, struct pb_perfstat *ps, char *err, size_t len)
{
	return parse_text(NULL, text, ps, err, len);
}

int pb_perfstat_load(const char *path, struct pb_perfstat *ps, char *err, size_t len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *buf = NULL;
	size_t n;
	int r = -1;

	memset(ps, 0, sizeof(*ps));
	if (!f) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	buf = malloc(PS_MAX_FILE + 1);
	if (!buf) {
		snprintf(err, len, "out of memory");
		goto out;
	}
	n = fread(buf, 1, PS_MAX_FILE, f);
	if (ferror(f)) {
		snprintf(err, len, "%s: read error", path);
		goto out;
	}
	buf[n] = '\0';
	r = parse_text(f == stdin ? "stdin" : path, buf, ps, err, len);
out:
	free(buf);
	if (f != stdin)
		fclose(f);
	return r;
}

void pb_perfstat_free(struct pb_perfstat *ps)
{
	int i;

	for (i = 0; i < ps->nr_iv; i++)
		free(ps->iv[i].ev);
	free(ps->iv);
	ps->iv = NULL;
	ps->nr_iv = 0;
	ps->cap_iv = 0;
	free(ps->ev);
	ps->ev = NULL;
	ps->nr = 0;
	ps->cap = 0;
}

/* "cpu_core/cycles/" -> "cycles", "cycles:u" -> "cycles" */
static void base_name(const char *name, char *out, size_t len)
{
	const char *slash = strchr(name, '/');

	if (slash && strchr(slash + 1, '/'))
		snprintf(out, len, "%.*s", (int)strcspn(slash + 1, "/"), slash + 1);
	else
		snprintf(out, len, "%s", name);
	out[strcspn(out, ":")] = '\0';
}

static bool is_base(const struct pb_ps_event *e, const char *name)
{
	char b[96];

	base_name(e->name, b, sizeof(b));
	return !strcmp(b, name);
}

const struct pb_ps_event *pb_perfstat_find(const struct pb_perfstat *ps, const char *name)
{
	int i;

	for (i = 0; i < ps->nr; i++)
		if (is_base(&ps->ev[i], name))
			return &ps->ev[i];
	return NULL;
}

/* Sum of the counted events with base name a or b; the lowest share in *pct. */
static double sum_events(const struct pb_perfstat *ps, const char *a, const char *b,
			 double *pct, const struct pb_ps_event **any, int *nr)
{
	double sum = 0;
	int i, dummy;

	if (!nr)
		nr = &dummy;
	*pct = 0;
	*any = NULL;
	*nr = 0;
	for (i = 0; i < ps->nr; i++) {
		const struct pb_ps_event *e = &ps->ev[i];

		if (e->status != PB_PS_OK || !(is_base(e, a) || (b && is_base(e, b))))
			continue;
		*pct = *any ? fmin(*pct, e->pct) : e->pct;
		*any = e;
		*nr += e->nr;
		sum += e->value;
	}
	return sum;
}

static double clock_msec(const struct pb_perfstat *ps, const char **which)
{
	static const char *const names[] = { "task-clock", "cpu-clock" };
	const struct pb_ps_event *e;
	double pct, ms;
	int i;

	for (i = 0; i < 2; i++) {
		ms = sum_events(ps, names[i], NULL, &pct, &e, NULL);
		if (!e || ms <= 0)
			continue;
		*which = names[i];
		if (!strcmp(e->unit, "ns") || !strcmp(e->unit, "nsec"))
			return ms / 1e6;
		return ms;	/* msec, perf's unit for both */
	}
	return 0;
}

/* One anomaly listing every event with status st (or multiplexed when mux). */
static int list_events(const struct pb_perfstat *ps, enum pb_ps_status st, bool mux,
		       char *out, size_t len)
{
	size_t used = 0;
	int i, nr = 0;

	out[0] = '\0';
	for (i = 0; i < ps->nr; i++) {
		const struct pb_ps_event *e = &ps->ev[i];
		int m;

		if (mux ? (e->status != PB_PS_OK || e->pct >= 100) : e->status != st)
			continue;
		nr++;
		if (mux)
			m = snprintf(out + used, len - used, "%s%s %.2f %%", used ? ", " : "",
				     e->name, e->pct);
		else
			m = snprintf(out + used, len - used, "%s%s", used ? ", " : "", e->name);
		if (m > 0 && (size_t)m < len - used)
			used += m;
	}
	return nr;
}

static void check_events(const struct pb_perfstat *ps, struct pb_anomalies *a,
			 struct pb_ps_verdict *v)
{
	char list[240];

	v->nr_multiplexed = list_events(ps, PB_PS_OK, true, list, sizeof(list));
	if (v->nr_multiplexed)
		pb_anomaly_add(a, PB_AN_COUNTER_MULTIPLEXED, PB_SEV_DEFAULT,
			       "fewer events per run, NMI watchdog off: every event counted 100 %",
			       "time-shared, counted part of the time (values are estimates): %s",
			       list);
	v->nr_not_counted = list_events(ps, PB_PS_NOT_COUNTED, false, list, sizeof(list));
	if (v->nr_not_counted)
		pb_anomaly_add(a, PB_AN_COUNTER_NOT_COUNTED, PB_SEV_DEFAULT,
			       "fewer events per run, so that each gets a counter",
			       "never scheduled on a counter (<not counted>): %s", list);
	v->nr_unsupported = list_events(ps, PB_PS_NOT_SUPPORTED, false, list, sizeof(list));
	if (v->nr_unsupported)
		pb_anomaly_add(a, PB_AN_COUNTER_UNSUPPORTED, PB_SEV_DEFAULT,
			       "no PMU for these (VM without vPMU?) or a wrong event name",
			       "refused by the kernel (<not supported>): %s", list);
}

static void judge_clock(const char *clk, struct pb_anomalies *a, const struct pb_ps_verdict *v)
{
	bool mux = v->cycles_pct < 100;
	double below;

	if (v->nominal_mhz <= 0) {
		pb_anomaly_add(a, PB_AN_EFFECTIVE_CLOCK, PB_SEV_DEFAULT,
			       "give --nominal-mhz N to judge it",
			       "effective clock %.0f MHz (cycles / %s); nominal clock unknown",
			       v->eff_mhz, clk);
		return;
	}
	below = 1 - v->eff_mhz / v->nominal_mhz;
	if (below <= PB_LOW_MAX)
		return;
	pb_anomaly_add(a, PB_AN_FREQUENCY_LOW, below > 0.25 ? PB_SEV_ERROR : PB_SEV_WARN,
		       mux ? "rerun without time-sharing, then run pinbench doctor on that "
			     "machine: its probe tells a slow clock from a wrong count" :
			     "the machine ran slow: check governor, throttling and power limits "
			     "(pinbench doctor on that machine)",
		       "effective clock %.2f GHz (cycles / %s), %.1f %% below the nominal "
		       "%.2f GHz (%s); %s", v->eff_mhz / 1000, clk, 100 * below,
		       v->nominal_mhz / 1000, v->nominal_src, mux ?
		       "cycles were time-shared: the count may be wrong, or the clock low" :
		       "cycles were counted all the time: the clock itself was low");
}

/* -r: events (and the elapsed time) whose run-to-run share is above PB_PS_VARIANCE_MAX */
static void check_variance(const struct pb_perfstat *ps, struct pb_anomalies *a)
{
	char list[240], runs[32] = "";
	size_t used = 0;
	int i, nr = 0;

	list[0] = '\0';
	for (i = 0; i <= ps->nr; i++) {
		const char *name = i < ps->nr ? ps->ev[i].name : "elapsed time";
		double var = i < ps->nr ? ps->ev[i].variance : ps->elapsed_var;
		int m;

		if (!(var > PB_PS_VARIANCE_MAX) || (i < ps->nr && ps->ev[i].status != PB_PS_OK))
			continue;
		nr++;
		m = snprintf(list + used, sizeof(list) - used, "%s%s +- %.2f %%", used ? ", " : "",
			     name, var);
		if (m > 0 && (size_t)m < sizeof(list) - used)
			used += m;
	}
	if (!nr)
		return;
	if (ps->runs > 1)
		snprintf(runs, sizeof(runs), " over %d runs", ps->runs);
	pb_anomaly_add(a, PB_AN_COUNTER_VARIANCE, PB_SEV_DEFAULT,
		       "the runs disagree: find out why (a first cold run, noise) before "
		       "quoting the mean",
		       "run-to-run variance above %.0f %%%s: %s", PB_PS_VARIANCE_MAX, runs, list);
}

/*
 * v's nominal set: every check on ps (the whole, or one interval).  perf's
 * own "# x GHz" on a single cycles line is checked against cycles / clock.
 */
static void judge(const struct pb_perfstat *ps, struct pb_anomalies *a, struct pb_ps_verdict *v)
{
	const struct pb_ps_event *cyc;
	const char *clk = NULL;
	double cycles, ms;
	int nr_cyc;

	check_events(ps, a, v);
	check_variance(ps, a);
	cycles = sum_events(ps, "cycles", "cpu-cycles", &v->cycles_pct, &cyc, &nr_cyc);
	ms = clock_msec(ps, &clk);
	if (cyc && nr_cyc == 1 && !strcmp(cyc->metric_unit, "GHz") && cyc->metric > 0)
		v->paste_mhz = cyc->metric * 1000;
	if (cyc && cycles > 0 && ms > 0) {
		v->eff_mhz = cycles / (ms * 1e3);
		if (v->paste_mhz > 0 && fabs(v->eff_mhz / v->paste_mhz - 1) > PB_MISMATCH_MAX)
			pb_anomaly_add(a, PB_AN_CLOCK_INCONSISTENT, PB_SEV_DEFAULT,
				       "check the paste is whole and unedited (one perf stat run)",
				       "perf's own figure %.3f GHz on the cycles line disagrees "
				       "with cycles / %s = %.3f GHz", v->paste_mhz / 1000, clk,
				       v->eff_mhz / 1000);
	} else if (v->paste_mhz > 0) {
		v->eff_mhz = v->paste_mhz;
		clk = "perf's own GHz figure";
	}
	if (v->eff_mhz > 0)
		judge_clock(clk, a, v);
}

int pb_perfstat_worst(const struct pb_anomalies *a)
{
	int i, w = -1;

	for (i = 0; i < a->nr; i++)
		if ((int)a->v[i].sev > w)
			w = a->v[i].sev;
	return w;
}

static void copy_nominal(struct pb_ps_verdict *v, const struct pb_ps_verdict *from)
{
	v->nominal_mhz = from->nominal_mhz;
	v->nominal_here = from->nominal_here;
	snprintf(v->nominal_src, sizeof(v->nominal_src), "%s", from->nominal_src);
}

bool pb_perfstat_check_interval(const struct pb_perfstat *ps, int i,
				const struct pb_ps_verdict *whole, struct pb_anomalies *a,
				struct pb_ps_verdict *v)
{
	const struct pb_perfstat *iv = &ps->iv[i];
	int k;

	memset(v, 0, sizeof(*v));
	copy_nominal(v, whole);
	for (k = 0; k < iv->nr && iv->ev[k].status != PB_PS_OK; k++)
		;
	if (k == iv->nr)
		return true;
	judge(iv, a, v);
	return false;
}

/* "0.200 s (kinds)" of one interval's anomalies at warn or above, into out */
static void interval_kinds(double t, const struct pb_anomalies *ia, char *out, size_t len)
{
	size_t used;
	int i;

	used = snprintf(out, len, "%.3f s (", t);
	for (i = 0; i < ia->nr && used < len; i++)
		if (ia->v[i].sev >= PB_SEV_WARN)
			used += snprintf(out + used, len - used, "%s%s",
					 out[used - 1] == '(' ? "" : ", ", ia->v[i].kind);
	if (used < len)
		snprintf(out + used, len - used, ")");
}

static void check_intervals(const struct pb_perfstat *ps, struct pb_anomalies *a,
			    struct pb_ps_verdict *v)
{
	char list[240], one[120];
	size_t used = 0;
	int i, worst = -1, cut = 0;

	list[0] = '\0';
	for (i = 0; i < ps->nr_iv; i++) {
		struct pb_anomalies ia = { 0 };
		struct pb_ps_verdict iv;
		int w;

		if (pb_perfstat_check_interval(ps, i, v, &ia, &iv)) {
			v->nr_iv_idle++;
			continue;
		}
		w = pb_perfstat_worst(&ia);
		if (w >= PB_SEV_WARN) {
			v->nr_iv_flagged++;
			worst = w > worst ? w : worst;
			interval_kinds(ps->iv[i].t, &ia, one, sizeof(one));
			if (cut)
				;
			else if (used + strlen(one) + 8 < sizeof(list))
				used += snprintf(list + used, sizeof(list) - used, "%s%s",
						 used ? "; " : "", one);
			else
				cut = snprintf(list + used, sizeof(list) - used, "; ...");
		}
		pb_anomalies_free(&ia);
	}
	if (v->nr_iv_flagged)
		pb_anomaly_add(a, PB_AN_INTERVAL_FLAGGED, worst,
			       "see the per-interval lines: a phase of the run, not all of it",
			       "%d of %d intervals flagged (%d counted nothing): %s",
			       v->nr_iv_flagged, ps->nr_iv, v->nr_iv_idle, list);
}

int pb_perfstat_check(const struct pb_perfstat *ps, double nominal_mhz, bool detect,
		      struct pb_anomalies *a, struct pb_ps_verdict *v)
{
	memset(v, 0, sizeof(*v));
	if (nominal_mhz > 0) {
		v->nominal_mhz = nominal_mhz;
		snprintf(v->nominal_src, sizeof(v->nominal_src), "given");
	} else if (detect) {
		struct pb_nominal n;

		if (!pb_nominal_detect(-1, &n)) {
			v->nominal_mhz = n.mhz;
			v->nominal_here = true;
			snprintf(v->nominal_src, sizeof(v->nominal_src), "this host's, from %s",
				 n.source);
		}
	}
	judge(ps, a, v);
	if (ps->nr_iv)
		check_intervals(ps, a, v);
	return 0;
}

const char *pb_perfstat_format_name(enum pb_ps_format f)
{
	return f == PB_PS_JSON ? "JSON" : f == PB_PS_CSV ? "CSV" : "text";
}

static json_t *num_or_null(double v, bool known)
{
	return known ? json_real(v) : json_null();
}

static json_t *event_json(const struct pb_ps_event *e)
{
	static const char *const st[] = { "ok", "not counted", "not supported" };
	bool ok = e->status == PB_PS_OK;

	return json_pack("{s:s,s:s,s:o,s:s,s:o,s:o,s:o,s:s}", "name", e->name,
			 "status", st[e->status], "value", num_or_null(e->value, ok),
			 "unit", e->unit, "percent", num_or_null(e->pct, ok),
			 "variance_pct", num_or_null(e->variance, !isnan(e->variance)),
			 "metric", num_or_null(e->metric, !isnan(e->metric)),
			 "metric_unit", e->metric_unit);
}

static json_t *events_json(const struct pb_perfstat *ps)
{
	json_t *evs = json_array();
	int i;

	for (i = 0; i < ps->nr && evs; i++)
		json_array_append_new(evs, event_json(&ps->ev[i]));
	return evs;
}

static json_t *intervals_json(const struct pb_perfstat *ps, const struct pb_ps_verdict *v)
{
	json_t *arr = json_array();
	int i;

	for (i = 0; i < ps->nr_iv && arr; i++) {
		struct pb_anomalies ia = { 0 };
		struct pb_ps_verdict iv;
		bool idle = pb_perfstat_check_interval(ps, i, v, &ia, &iv);

		json_array_append_new(arr, json_pack("{s:f,s:o,s:o,s:b,s:b,s:o}",
						     "t", ps->iv[i].t, "events", events_json(&ps->iv[i]),
						     "effective_mhz",
						     num_or_null(iv.eff_mhz, iv.eff_mhz > 0),
						     "idle", idle,
						     "flagged", pb_perfstat_worst(&ia) >= PB_SEV_WARN,
						     "anomalies", pb_anomalies_json(&ia)));
		pb_anomalies_free(&ia);
	}
	return arr;
}

json_t *pb_perfstat_json(const struct pb_perfstat *ps, const struct pb_ps_verdict *v)
{
	static const char *const fmt[] = { "text", "csv", "json" };
	char sep[2] = { ps->sep, '\0' };
	json_t *j;

	j = json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:s,s:b}", "format", fmt[ps->format],
		      "separator", ps->sep ? json_string(sep) : json_null(),
		      "runs", ps->runs ? json_integer(ps->runs) : json_null(),
		      "elapsed_s", num_or_null(ps->elapsed_s, ps->elapsed_s >= 0),
		      "elapsed_variance_pct", num_or_null(ps->elapsed_var, !isnan(ps->elapsed_var)),
		      "events", events_json(ps),
		      "effective_mhz", num_or_null(v->eff_mhz, v->eff_mhz > 0),
		      "perf_mhz", num_or_null(v->paste_mhz, v->paste_mhz > 0),
		      "nominal_mhz", num_or_null(v->nominal_mhz, v->nominal_mhz > 0),
		      "nominal_source", v->nominal_src, "nominal_is_this_host", v->nominal_here);
	if (j && ps->nr_iv) {
		json_object_set_new(j, "intervals", intervals_json(ps, v));
		json_object_set_new(j, "whole", json_string(ps->perf_summary ? "perf's summary" :
							    "sum of the intervals"));
	}
	return j;
}
