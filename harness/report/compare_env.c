// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_env.c - what the groups of a comparison ran on, and where they
 * differ: hosts, CPU models and topologies (warnings), mitigations, the
 * kernel command line, microcode, THP, governor and SMT (report/compare.h),
 * and those differences as lines of at most PB_CMP_WIDTH columns.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "lib/util.h"
#include "report/compare.h"

/* ---- a result file's machine ---- */

static bool has_string(json_t *a, const char *s)
{
	json_t *v;
	size_t i;

	json_array_foreach(a, i, v)
		if (!strcmp(json_string_value(v), s))
			return true;
	return false;
}

static const char *jget(json_t *o, const char *a, const char *b)
{
	json_t *v = json_object_get(o, a);

	return json_string_value(b ? json_object_get(v, b) : v);
}

static void set_str(json_t *fp, const char *key, const char *s)
{
	json_object_set_new(fp, key, s && *s ? json_string(s) : json_null());
}

/* "haltpoll (governor haltpoll)", "intel_idle", or "" unknown */
static void cpuidle_text(json_t *ci, char *buf, size_t len)
{
	const char *d = jget(ci, "driver", NULL), *g = jget(ci, "governor", NULL);

	if (d && g)
		snprintf(buf, len, "%s (governor %s)", d, g);
	else
		snprintf(buf, len, "%s", d ? d : "");
}

static void topology_text(json_t *t, char *buf, size_t len)
{
	static const char *const keys[] = { "packages", "cores", "pus", "llcs", "numa_nodes" };
	static const char *const words[] = { "package", "core", "PU", "LLC", "NUMA node" };
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]) && off < len; i++) {
		json_t *v = json_object_get(t, keys[i]);
		long long n = json_integer_value(v);

		if (!json_is_integer(v))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%lld %s%s", off ? ", " : "", n,
					words[i], n == 1 ? "" : "s");
	}
}

static void smt_text(json_t *smt, char *buf, size_t len)
{
	const char *ctl = jget(smt, "control", NULL);
	json_t *act = json_object_get(smt, "active");

	buf[0] = '\0';
	if (ctl || json_is_boolean(act))
		snprintf(buf, len, "%s%s%s", ctl ? ctl : "",
			 ctl && json_is_boolean(act) ? ", " : "",
			 !json_is_boolean(act) ? "" : json_is_true(act) ? "active" : "inactive");
}

/* name -> text; the names made safe to print too (the loader cleans values only) */
static json_t *vulns_of(json_t *vu)
{
	const char *name;
	char key[128];
	json_t *o, *v;

	if (!json_is_object(vu) || !(o = json_object()))
		return json_null();
	json_object_foreach(vu, name, v) {
		if (!json_is_string(v))
			continue;
		snprintf(key, sizeof(key), "%s", name);
		pb_str_clean(key);
		json_object_set(o, key, v);
	}
	return o;
}

json_t *pb_cmp_env_of(json_t *root)
{
	json_t *host = json_object_get(root, "host"), *env = json_object_get(host, "environment");
	json_t *fp = json_object(), *vu = json_object_get(env, "vulnerabilities");
	const char *model = jget(host, "cpu_model", NULL), *mc;
	char buf[256];

	if (!fp)
		return NULL;
	set_str(fp, "hostname", jget(host, "hostname", NULL));
	set_str(fp, "cpu_model", model && strcmp(model, "unknown") ? model : NULL);
	topology_text(json_object_get(host, "topology"), buf, sizeof(buf));
	set_str(fp, "topology", buf);
	set_str(fp, "cmdline", jget(env, "cmdline", NULL));
	json_object_set_new(fp, "vulnerabilities", vulns_of(vu));
	mc = jget(env, "microcode", "cpuinfo");
	set_str(fp, "microcode", mc ? mc : jget(env, "microcode", "version"));
	set_str(fp, "thp_enabled", jget(env, "thp", "enabled"));
	set_str(fp, "thp_defrag", jget(env, "thp", "defrag"));
	set_str(fp, "governor", jget(env, "cpufreq", "governor"));
	cpuidle_text(json_object_get(env, "cpuidle"), buf, sizeof(buf));
	set_str(fp, "cpuidle", buf);
	smt_text(json_object_get(env, "smt"), buf, sizeof(buf));
	set_str(fp, "smt", buf);
	return fp;
}

/* What the fingerprint's keys are called in a message. */
static const char *const key_words[][2] = {
	{ "hostname", "host" }, { "cpu_model", "CPU model" }, { "topology", "topology" },
	{ "cmdline", "cmdline" }, { "vulnerabilities", "mitigations" },
	{ "microcode", "microcode" }, { "thp_enabled", "THP enabled" },
	{ "thp_defrag", "THP defrag" }, { "governor", "governor" }, { "smt", "SMT" },
	{ "cpuidle", "cpuidle" },
};

void pb_cmp_env_add(json_t **fp, json_t *root)
{
	json_t *nf = pb_cmp_env_of(root), *mixed, *a, *b;

	if (!*fp || !nf) {
		if (!*fp)
			*fp = nf;
		else
			json_decref(nf);
		return;
	}
	mixed = json_object_get(*fp, "mixed");
	for (size_t i = 0; i < sizeof(key_words) / sizeof(key_words[0]); i++) {
		const char *k = key_words[i][0];

		a = json_object_get(*fp, k);
		b = json_object_get(nf, k);
		if (json_is_null(b) || json_equal(a, b))
			continue;
		if (json_is_null(a)) {		/* an older file did not say: this one does */
			json_object_set(*fp, k, b);
			continue;
		}
		if (!mixed) {
			mixed = json_array();
			json_object_set_new(*fp, "mixed", mixed);
		}
		if (!has_string(mixed, key_words[i][1]))
			json_array_append_new(mixed, json_string(key_words[i][1]));
	}
	json_decref(nf);
}

/* s appended to array a (made when missing) unless a holds it; a NULL s is left out */
static void about_distinct(json_t *o, const char *key, json_t *s)
{
	json_t *a = json_object_get(o, key), *v;
	size_t i;

	if (!json_is_string(s) && !json_is_object(s))
		return;
	if (!a) {
		a = json_array();
		json_object_set_new(o, key, a);
	}
	json_array_foreach(a, i, v)
		if (json_equal(v, s))
			return;
	json_array_append(a, s);
}

/* o's key set to t when o has none, or when t is before (first) or after it. */
static void about_time(json_t *o, const char *key, json_t *t, bool first)
{
	const char *have = json_string_value(json_object_get(o, key)), *ts = json_string_value(t);

	if (ts && (!have || (strcmp(ts, have) < 0) == first))
		json_object_set(o, key, t);
}

void pb_cmp_about_add(json_t **ap, json_t *root)
{
	json_t *host = json_object_get(root, "host"), *cfg = json_object_get(root, "config");
	json_t *text = json_object_get(root, "config_text");

	if (!*ap)
		*ap = json_object();
	if (!*ap)
		return;
	if (!json_object_get(*ap, "machine") && json_is_object(host))
		json_object_set(*ap, "machine", host);
	about_distinct(*ap, "kernels", json_object_get(host, "kernel"));
	about_distinct(*ap, "versions", json_object_get(host, "kernel_version"));
	about_time(*ap, "started", json_object_get(root, "started"), true);
	about_time(*ap, "finished", json_object_get(root, "finished"), false);
	if (json_is_string(cfg)) {
		json_t *c = json_pack("{s:O, s:O}", "path", cfg,
				      "text", json_is_string(text) ? text : json_null());

		about_distinct(*ap, "configs", c);
		json_decref(c);
	}
}

/* ---- differences ---- */

/* values: [{"value", "groups": [...]}]; group's value joins its like or starts one */
static void add_value(json_t *values, const char *group, const char *value)
{
	json_t *v;
	size_t i;

	json_array_foreach(values, i, v)
		if (!strcmp(json_string_value(json_object_get(v, "value")), value)) {
			json_array_append_new(json_object_get(v, "groups"), json_string(group));
			return;
		}
	json_array_append_new(values, json_pack("{s:s, s:[s]}", "value", value, "groups", group));
}

/* One line: "<head>: <item>: 6.1, 6.2: <value>; 6.3: <value>". */
static char *diff_message(const char *head, const char *item, json_t *values)
{
	char *buf = NULL;
	size_t len = 0, i, k;
	FILE *m = open_memstream(&buf, &len);
	json_t *v, *g;

	if (!m)
		return NULL;
	fprintf(m, "%s: %s%s", head, item ? item : "", item ? ": " : "");
	json_array_foreach(values, i, v) {
		fputs(i ? "; " : "", m);
		json_array_foreach(json_object_get(v, "groups"), k, g)
			fprintf(m, "%s%s", k ? ", " : "", json_string_value(g));
		fprintf(m, ": %s", json_string_value(json_object_get(v, "value")));
	}
	fclose(m);
	return buf;
}

/* A difference when the groups that know the value do not agree. */
static void add_diff(json_t *out, const char *kind, const char *head, const char *item,
		     bool warning, json_t *values)
{
	char *msg;

	if (json_array_size(values) < 2) {
		json_decref(values);
		return;
	}
	msg = diff_message(head, item, values);
	json_array_append_new(out, json_pack("{s:s, s:o, s:b, s:s, s:o, s:s}", "kind", kind,
			      "item", item ? json_string(item) : json_null(), "warning", warning,
			      "head", head, "values", values, "message", msg ? msg : head));
	free(msg);
}

static json_t *group_fp(const struct pb_cmp *c, int i)
{
	return c->envs ? c->envs[c->order ? c->order[i] : i] : NULL;
}

static const char *group_name(const struct pb_cmp *c, int i)
{
	return c->groups[c->order ? c->order[i] : i];
}

static void diff_field(const struct pb_cmp *c, json_t *out, const char *key, const char *kind,
		       const char *head, const char *item, bool warning)
{
	json_t *values = json_array();

	for (int i = 0; values && i < c->nr_groups; i++) {
		const char *s = json_string_value(json_object_get(group_fp(c, i), key));

		if (s)
			add_value(values, group_name(c, i), s);
	}
	add_diff(out, kind, head, item, warning, values);
}

/* One difference per vulnerability whose text differs (or is absent somewhere). */
static void diff_vulns(const struct pb_cmp *c, json_t *out)
{
	json_t *names = json_object(), *vu, *x;
	const char *name;

	for (int i = 0; names && i < c->nr_groups; i++)
		json_object_foreach(json_object_get(group_fp(c, i), "vulnerabilities"), name, x)
			json_object_set(names, name, json_true());
	json_object_foreach(names, name, x) {
		json_t *values = json_array();

		for (int i = 0; values && i < c->nr_groups; i++) {
			const char *s;

			vu = json_object_get(group_fp(c, i), "vulnerabilities");
			if (!json_is_object(vu))
				continue;
			s = json_string_value(json_object_get(vu, name));
			add_value(values, group_name(c, i), s ? s : "(absent)");
		}
		add_diff(out, "mitigations", "mitigations differ", name, false, values);
	}
	json_decref(names);
}

/* BOOT_IMAGE and initrd name the kernel's own files: they differ with it. */
static bool cmdline_word_counts(const char *w, size_t n)
{
	return !(n >= 11 && !strncmp(w, "BOOT_IMAGE=", 11)) &&
	       !(n >= 7 && !strncmp(w, "initrd=", 7));
}

static bool has_word(const char *s, const char *w, size_t n)
{
	while (s && *s) {
		size_t k;

		s += strspn(s, " \t");
		k = strcspn(s, " \t");
		if (k == n && !strncmp(s, w, n))
			return true;
		s += k;
	}
	return false;
}

/* The words of group i's cmdline some other group's lacks, or "(only shared words)". */
static void cmdline_extra(const struct pb_cmp *c, int i, char *buf, size_t len)
{
	const char *s = json_string_value(json_object_get(group_fp(c, i), "cmdline"));
	size_t off = 0;

	buf[0] = '\0';
	while (s && *s && off < len) {
		size_t n;
		bool all = true;

		s += strspn(s, " \t");
		n = strcspn(s, " \t");
		for (int j = 0; n && all && j < c->nr_groups; j++) {
			json_t *o = json_object_get(group_fp(c, j), "cmdline");

			all = !json_is_string(o) || has_word(json_string_value(o), s, n);
		}
		if (n && !all && cmdline_word_counts(s, n) && !has_word(buf, s, n))
			off += (size_t)snprintf(buf + off, len - off, "%s%.*s", off ? " " : "",
						(int)n, s);
		s += n;
	}
	if (!buf[0])
		snprintf(buf, len, "(only shared words)");
}

static void diff_cmdline(const struct pb_cmp *c, json_t *out)
{
	json_t *values = json_array();
	char buf[1024];
	bool any = false;

	for (int i = 0; values && i < c->nr_groups; i++) {
		if (!json_is_string(json_object_get(group_fp(c, i), "cmdline")))
			continue;
		cmdline_extra(c, i, buf, sizeof(buf));
		any |= strcmp(buf, "(only shared words)") != 0;
		add_value(values, group_name(c, i), buf);
	}
	if (!any && values)
		json_array_clear(values);
	add_diff(out, "cmdline", "cmdline differs", NULL, false, values);
}

/* A group whose files do not agree: its first file's machine stands for them all. */
static void diff_mixed(const struct pb_cmp *c, json_t *out)
{
	for (int i = 0; i < c->nr_groups; i++) {
		json_t *mixed = json_object_get(group_fp(c, i), "mixed"), *w;
		char *buf = NULL;
		size_t len = 0, k;
		FILE *m;

		if (!json_array_size(mixed) || !(m = open_memstream(&buf, &len)))
			continue;
		json_array_foreach(mixed, k, w)
			fprintf(m, "%s%s", k ? ", " : "", json_string_value(w));
		fclose(m);
		json_array_append_new(out, json_pack("{s:s, s:s, s:b, s:s, s:[{s:s, s:[s]}], s:o}",
			"kind", "mixed", "item", group_name(c, i), "warning", 1,
			"head", "warning: the files of one label differ among themselves",
			"values", "value", buf, "groups", group_name(c, i),
			"message", json_sprintf("warning: the files of %s differ among themselves "
						"in %s; the first one's are compared",
						group_name(c, i), buf)));
		free(buf);
	}
}

json_t *pb_cmp_env_diffs(const struct pb_cmp *c)
{
	json_t *out = json_array();

	if (!out)
		return NULL;
	diff_mixed(c, out);
	if (c->by != PB_GROUP_HOST)	/* grouped by host: hosts differ by design */
		diff_field(c, out, "hostname", "host", "warning: the results come from "
			   "different hosts", NULL, true);
	diff_field(c, out, "cpu_model", "cpu_model", "warning: the results come from "
		   "different CPU models", NULL, true);
	diff_field(c, out, "topology", "topology", "warning: the results come from "
		   "different topologies", NULL, true);
	diff_vulns(c, out);
	diff_cmdline(c, out);
	diff_field(c, out, "microcode", "microcode", "microcode differs", NULL, false);
	diff_field(c, out, "thp_enabled", "thp", "THP differs", "enabled", false);
	diff_field(c, out, "thp_defrag", "thp", "THP differs", "defrag", false);
	diff_field(c, out, "governor", "governor", "governor differs", NULL, false);
	diff_field(c, out, "smt", "smt", "SMT differs", NULL, false);
	diff_field(c, out, "cpuidle", "cpuidle", "cpuidle differs", NULL, false);
	return out;
}

/* ---- as lines ---- */

/* Display columns of UTF-8 text: code points. */
static int cols(const char *s, size_t n)
{
	int w = 0;

	for (size_t i = 0; i < n && s[i]; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

/*
 * text after first, broken between words into lines of at most
 * PB_CMP_WIDTH columns, the later ones after cont; a word too long for a
 * line is cut at a character and ends in "…".
 */
static void wrap(FILE *f, const char *first, const char *cont, const char *text)
{
	const char *pre = first, *s = text;
	int col = 0;

	while (*s) {
		size_t n;
		int w;

		s += strspn(s, " ");
		n = strcspn(s, " ");
		if (!n)
			break;
		w = cols(s, n);
		if (col && col + 1 + w > PB_CMP_WIDTH) {
			fputc('\n', f);
			col = 0;
			pre = cont;
		}
		if (!col) {
			fputs(pre, f);
			col = cols(pre, strlen(pre));
		} else {
			fputc(' ', f);
			col++;
		}
		if (col + w > PB_CMP_WIDTH) {	/* one word longer than a line */
			int room = PB_CMP_WIDTH - col - 1;
			size_t k = 0;

			for (int c = 0; s[k] && (c < room || ((unsigned char)s[k] & 0xc0) == 0x80);
			     k++)
				c += ((unsigned char)s[k] & 0xc0) != 0x80;
			fprintf(f, "%.*s…", (int)k, s);
			col = PB_CMP_WIDTH;
		} else {
			fprintf(f, "%.*s", (int)n, s);
			col += w;
		}
		s += n;
	}
	if (col)
		fputc('\n', f);
}

/*
 * One line when it fits and no value holds a ';' (the separator), else the
 * head and one line per value.
 */
static void print_diff(FILE *f, json_t *d, bool md)
{
	const char *msg = json_string_value(json_object_get(d, "message"));
	const char *item = json_string_value(json_object_get(d, "item"));
	json_t *values = json_object_get(d, "values"), *v, *g;
	bool semi = false;
	size_t i, k;

	json_array_foreach(values, i, v)
		semi |= strchr(json_string_value(json_object_get(v, "value")), ';') != NULL;
	if (!semi && cols(msg, strlen(msg)) + (md ? 2 : 0) <= PB_CMP_WIDTH) {
		fprintf(f, "%s%s\n", md ? "- " : "", msg);
		return;
	}
	fprintf(f, "%s%s%s%s:\n", md ? "- " : "", json_string_value(json_object_get(d, "head")),
		item ? ": " : "", item ? item : "");
	json_array_foreach(values, i, v) {
		char *line = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&line, &len);

		if (!m)
			return;
		json_array_foreach(json_object_get(v, "groups"), k, g)
			fprintf(m, "%s%s", k ? ", " : "", json_string_value(g));
		fprintf(m, ": %s", json_string_value(json_object_get(v, "value")));
		fclose(m);
		wrap(f, md ? "  - " : "  ", md ? "    " : "      ", line);
		free(line);
	}
}

void pb_cmp_env_print(FILE *f, json_t *diffs, bool md)
{
	json_t *d;
	size_t i;

	json_array_foreach(diffs, i, d)
		print_diff(f, d, md);
	if (json_array_size(diffs))
		fputc('\n', f);
}
