// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfstat.c - parser and verdict for `perf stat` output (text and -x,).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/perfstat.h"
#include "checks/clockcheck.h"

#define PS_MAX_FILE	(4 << 20)
#define PS_MAX_FIELDS	16

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

/* "task-clock-msecs" (perf of 2009) is task-clock in msec. */
static void set_name(struct pb_ps_event *ev, const char *name, const char *unit)
{
	size_t n = strlen(name);

	if (n > 6 && !strcmp(name + n - 6, "-msecs")) {
		snprintf(ev->name, sizeof(ev->name), "%.*s", (int)(n - 6), name);
		snprintf(ev->unit, sizeof(ev->unit), "msec");
		return;
	}
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	snprintf(ev->unit, sizeof(ev->unit), "%s", unit);
}

/* "<value> [unit] <event> [# <metric> <unit>] [(pct%)]": 1 event, 0 skip */
static int parse_text_event(char *p, struct pb_ps_event *ev)
{
	char *hash, *tok[3], *save = NULL, *paren;
	size_t m;
	int nt = 0;

	memset(ev, 0, sizeof(*ev));
	ev->metric = NAN;
	ev->pct = find_pct(p);
	if (!strncmp(p, "CPU", 3) && isdigit((unsigned char)p[3]))	/* -A */
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
	paren = strchr(p, '(');
	if (hash)
		*hash++ = '\0';
	if (paren && (!hash || paren < hash))
		*paren = '\0';
	for (char *t = strtok_r(p, " \t", &save); t && nt < 3; t = strtok_r(NULL, " \t", &save))
		tok[nt++] = t;
	if (nt < 1 || nt > 2)
		return 0;
	set_name(ev, tok[nt - 1], nt == 2 ? tok[0] : "");
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

static int split_csv(char *line, char **f, int max)
{
	int n = 0;

	f[n++] = line;
	for (char *p = line; *p && n < max; p++)
		if (*p == ',') {
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

/* perf 6.1 -x, : value,unit,event,run_time,pct,metric,metric_unit; 1 event, 0 not CSV */
static int parse_csv_event(const char *line, struct pb_ps_event *ev)
{
	char buf[1024], *f[PS_MAX_FIELDS];
	int n, o = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	rtrim(buf);
	n = split_csv(buf, f, PS_MAX_FIELDS);
	if (n >= 4 && !strncmp(f[0], "CPU", 3) && isdigit((unsigned char)f[0][3]))
		o = 1;		/* -A: per CPU */
	if (n - o < 3)
		return 0;
	memset(ev, 0, sizeof(*ev));
	ev->metric = NAN;
	ev->pct = 100;
	if ((!parse_marker(f[o], &ev->status) &&
	     (has_space(f[o]) || parse_num(f[o], &ev->value))) ||
	    has_space(f[o + 1]) || has_space(f[o + 2]) || !*f[o + 2] || is_numeric(f[o + 2]))
		return 0;
	set_name(ev, f[o + 2], f[o + 1]);
	if (n - o > 4 && is_numeric(f[o + 4]))
		ev->pct = strtod(f[o + 4], NULL);
	if (n - o > 5 && is_numeric(f[o + 5]))
		ev->metric = strtod(f[o + 5], NULL);
	if (n - o > 6)
		snprintf(ev->metric_unit, sizeof(ev->metric_unit), "%s", f[o + 6]);
	return 1;
}

/* Add ev to ps, summing an event met before. */
static int add_event(struct pb_perfstat *ps, const struct pb_ps_event *ev)
{
	struct pb_ps_event *v;
	int i;

	for (i = 0; i < ps->nr; i++) {
		struct pb_ps_event *e = &ps->ev[i];

		if (strcmp(e->name, ev->name))
			continue;
		if (ev->status == PB_PS_OK) {
			e->value = e->status == PB_PS_OK ? e->value + ev->value : ev->value;
			e->status = PB_PS_OK;
		}
		e->pct = fmin(e->pct, ev->pct);
		e->nr++;
		return 0;
	}
	v = realloc(ps->ev, (ps->nr + 1) * sizeof(*v));
	if (!v)
		return -1;
	ps->ev = v;
	ps->ev[ps->nr] = *ev;
	ps->ev[ps->nr++].nr = 1;
	return 0;
}

/* A count is a number of events: never negative, never NaN or infinite. */
static int check_count(const struct pb_ps_event *ev, char *err, size_t len)
{
	if (ev->status != PB_PS_OK || (isfinite(ev->value) && ev->value >= 0))
		return 0;
	snprintf(err, len, "%s: %s count %.15g", ev->name,
		 isfinite(ev->value) ? "negative" : "not a", ev->value);
	return -2;
}

/* One line: 0 (parsed or skipped), -1 ENOMEM, -2 a bad count (err says which) */
static int parse_line(struct pb_perfstat *ps, char *line, char *err, size_t len)
{
	struct pb_ps_event ev;
	char *p = skip_ws(line);
	double v;

	if (!*p || *p == '#' || !strncmp(p, "Performance counter stats", 25) ||
	    strstr(p, "seconds user") || strstr(p, "seconds sys"))
		return 0;
	if (strstr(p, "seconds time elapsed")) {
		p[strcspn(p, " \t")] = '\0';
		if (!parse_num(p, &v))
			ps->elapsed_s = v;
		return 0;
	}
	if (parse_csv_event(p, &ev)) {
		ps->csv = true;
		return check_count(&ev, err, len) ?: add_event(ps, &ev);
	}
	if (parse_text_event(p, &ev))
		return check_count(&ev, err, len) ?: add_event(ps, &ev);
	return 0;
}

/* name: the file, in "FILE:LINE: ..." (NULL: "line LINE: ..."). */
static int parse_text(const char *name, const char *text, struct pb_perfstat *ps,
		      char *err, size_t len)
{
	const char *p = text;
	int nr = 0, r;

	memset(ps, 0, sizeof(*ps));
	ps->elapsed_s = -1;
	while (*p) {
		size_t n = strcspn(p, "\n");
		char line[1024], why[256];

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
	if (!ps->nr) {
		snprintf(err, len, "%s%sno perf stat counts found", name ? name : "",
			 name ? ": " : "");
		return -1;
	}
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
	free(ps->ev);
	ps->ev = NULL;
	ps->nr = 0;
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
			 double *pct, const struct pb_ps_event **any)
{
	double sum = 0;
	int i;

	*pct = 0;
	*any = NULL;
	for (i = 0; i < ps->nr; i++) {
		const struct pb_ps_event *e = &ps->ev[i];

		if (e->status != PB_PS_OK || !(is_base(e, a) || (b && is_base(e, b))))
			continue;
		*pct = *any ? fmin(*pct, e->pct) : e->pct;
		*any = e;
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
		ms = sum_events(ps, names[i], NULL, &pct, &e);
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
		pb_anomaly_add(a, "counter-multiplexed", PB_SEV_WARN,
			       "fewer events per run, NMI watchdog off: every event counted 100 %",
			       "time-shared, counted part of the time (values are estimates): %s",
			       list);
	v->nr_not_counted = list_events(ps, PB_PS_NOT_COUNTED, false, list, sizeof(list));
	if (v->nr_not_counted)
		pb_anomaly_add(a, "counter-not-counted", PB_SEV_WARN,
			       "fewer events per run, so that each gets a counter",
			       "never scheduled on a counter (<not counted>): %s", list);
	v->nr_unsupported = list_events(ps, PB_PS_NOT_SUPPORTED, false, list, sizeof(list));
	if (v->nr_unsupported)
		pb_anomaly_add(a, "counter-unsupported", PB_SEV_WARN,
			       "no PMU for these (VM without vPMU?) or a wrong event name",
			       "refused by the kernel (<not supported>): %s", list);
}

static void judge_clock(const char *clk, struct pb_anomalies *a, const struct pb_ps_verdict *v)
{
	bool mux = v->cycles_pct < 100;
	double below;

	if (v->nominal_mhz <= 0) {
		pb_anomaly_add(a, "effective-clock", PB_SEV_INFO,
			       "give --nominal-mhz N to judge it",
			       "effective clock %.0f MHz (cycles / %s); nominal clock unknown",
			       v->eff_mhz, clk);
		return;
	}
	below = 1 - v->eff_mhz / v->nominal_mhz;
	if (below <= PB_LOW_MAX)
		return;
	pb_anomaly_add(a, "frequency-low", below > 0.25 ? PB_SEV_ERROR : PB_SEV_WARN,
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

int pb_perfstat_check(const struct pb_perfstat *ps, double nominal_mhz, bool detect,
		      struct pb_anomalies *a, struct pb_ps_verdict *v)
{
	const struct pb_ps_event *cyc;
	const char *clk = NULL;
	double cycles, ms;

	memset(v, 0, sizeof(*v));
	check_events(ps, a, v);
	cycles = sum_events(ps, "cycles", "cpu-cycles", &v->cycles_pct, &cyc);
	ms = clock_msec(ps, &clk);
	if (cyc && cycles > 0 && ms > 0) {
		v->eff_mhz = cycles / (ms * 1e3);
	} else if (cyc && !strcmp(cyc->metric_unit, "GHz") && cyc->metric > 0) {
		v->eff_mhz = cyc->metric * 1000;
		clk = "perf's own GHz figure";
	}
	if (nominal_mhz > 0) {
		v->nominal_mhz = nominal_mhz;
		snprintf(v->nominal_src, sizeof(v->nominal_src), "given");
	} else if (detect) {
		struct pb_nominal n;

		if (!pb_nominal_detect(-1, &n)) {
			v->nominal_mhz = n.mhz;
			snprintf(v->nominal_src, sizeof(v->nominal_src), "this host's, from %s",
				 n.source);
		}
	}
	if (v->eff_mhz > 0)
		judge_clock(clk, a, v);
	return 0;
}

static json_t *event_json(const struct pb_ps_event *e)
{
	static const char *const st[] = { "ok", "not counted", "not supported" };

	return json_pack("{s:s,s:s,s:o,s:s,s:f,s:o,s:s}", "name", e->name,
			 "status", st[e->status],
			 "value", e->status == PB_PS_OK ? json_real(e->value) : json_null(),
			 "unit", e->unit, "percent", e->pct,
			 "metric", isnan(e->metric) ? json_null() : json_real(e->metric),
			 "metric_unit", e->metric_unit);
}

json_t *pb_perfstat_json(const struct pb_perfstat *ps, const struct pb_ps_verdict *v)
{
	json_t *evs = json_array();
	int i;

	for (i = 0; i < ps->nr && evs; i++)
		json_array_append_new(evs, event_json(&ps->ev[i]));
	return json_pack("{s:s,s:o,s:o,s:o,s:o,s:s}", "format", ps->csv ? "csv" : "text",
			 "elapsed_s", ps->elapsed_s >= 0 ? json_real(ps->elapsed_s) : json_null(),
			 "events", evs,
			 "effective_mhz", v->eff_mhz > 0 ? json_real(v->eff_mhz) : json_null(),
			 "nominal_mhz",
			 v->nominal_mhz > 0 ? json_real(v->nominal_mhz) : json_null(),
			 "nominal_source", v->nominal_src);
}
