// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_list.c - `pinbench list`: the workloads, their metrics and keys, as
 * text or JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "cli/cmds.h"
#include "cli/say.h"
#include "core/bench.h"
#include "core/jobfile.h"
#include "core/keys.h"
#include "lib/schema.h"

/* The widths of the name, type and default columns: of every workload's keys. */
struct key_widths {
	int	name, type, def;
};

static void key_widths_of(const struct pb_key *k, struct key_widths *w)
{
	char d[64];

	for (; k->name; k++) {
		int n = k->def && *k->def ? (int)strlen(k->def) : 2;

		if (k->flags & PB_KEY_HIDDEN)
			continue;
		pb_key_describe(k, d, sizeof(d));
		w->name = (int)strlen(k->name) > w->name ? (int)strlen(k->name) : w->name;
		w->type = (int)strlen(d) > w->type ? (int)strlen(d) : w->type;
		w->def = n > w->def && n <= 12 ? n : w->def;	/* a longer one: a line */
	}
}

/*
 * A key a line: name, type, default, help wrapped under itself; a default
 * longer than the column ends its line, the help starting on the next.
 */
static void list_keys(const struct pb_key *k, const struct key_widths *w, FILE *f)
{
	char d[64], head[256];

	for (; k->name; k++) {
		const char *def = k->def && *k->def ? k->def : "\"\"";

		if (k->flags & PB_KEY_HIDDEN)
			continue;
		pb_key_describe(k, d, sizeof(d));
		if ((int)strlen(def) > w->def) {
			pb_say(f, "    %-*s %-*s default %s\n", w->name, k->name, w->type, d, def);
			def = "";
		}
		snprintf(head, sizeof(head), "%s%-*s %-*s %s %-*s ", "    ", w->name,
			 *def ? k->name : "", w->type, *def ? d : "", *def ? "default" : "       ",
			 w->def, def);
		pb_say_wrapped(f, head, k->help ? k->help : "");
	}
}

static json_t *keys_json(const struct pb_key *k)
{
	json_t *a = json_array();
	char d[64];

	for (; k->name; k++) {
		if (k->flags & PB_KEY_HIDDEN)
			continue;
		pb_key_describe(k, d, sizeof(d));
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s}", "name", k->name,
			"type", d, "default", k->def ? k->def : "", "help", k->help ? k->help : ""));
	}
	return a;
}

/*
 * The metrics a workload reports: its metric, or, when it depends on the
 * keys (metric_for), each distinct one with the enum choice that gives it
 * ("pattern=stream"), the other keys at their defaults.
 */
static json_t *metrics_json(const struct pb_bench *b)
{
	json_t *a = json_array();
	void *def = calloc(1, b->opts_size ? b->opts_size : 1);
	void *o = calloc(1, b->opts_size ? b->opts_size : 1);
	char err[256], when[128];

	if (!def || !o || !b->metric_for) {
		const struct pb_metric *m = &b->metric;

		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:n}", "name", m->name,
			"unit", m->unit, "better", m->lower_better ? "lower" : "higher", "when"));
		goto out;
	}
	for (const struct pb_key *k = b->keys; k->name; k++)
		if (k->def)
			pb_key_parse(k, k->def, def, err, sizeof(err));
	for (const struct pb_key *k = b->keys; k->name; k++) {
		const char *c = k->choices;

		while (k->type == PB_T_ENUM && !(k->flags & PB_KEY_HIDDEN) && c && *c) {
			size_t n = strcspn(c, "|");
			struct pb_metric m;
			json_t *v;
			size_t i;
			bool seen = false;

			memcpy(o, def, b->opts_size);
			snprintf(when, sizeof(when), "%.*s", (int)n, c);
			pb_key_parse(k, when, o, err, sizeof(err));
			b->metric_for(o, &m);
			json_array_foreach(a, i, v)
				seen |= !strcmp(json_string_value(json_object_get(v, "name")), m.name);
			snprintf(when, sizeof(when), "%s=%.*s", k->name, (int)n, c);
			if (!seen)
				json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s}", "name",
					m.name, "unit", m.unit, "better",
					m.lower_better ? "lower" : "higher", "when", when));
			c += n + (c[n] == '|');
		}
	}
out:
	free(def);
	free(o);
	return a;
}

/* "rtt (µs, lower is better) with pattern=pingpong; throughput (...) with ..." */
static void metrics_text(const struct pb_bench *b, char *buf, size_t len)
{
	json_t *a = metrics_json(b), *v;
	size_t i, off = 0;

	buf[0] = 0;
	json_array_foreach(a, i, v) {
		const char *when = json_string_value(json_object_get(v, "when"));

		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s (%s, %s is better)%s%s",
				i ? "; " : "", json_string_value(json_object_get(v, "name")),
				json_string_value(json_object_get(v, "unit")),
				json_string_value(json_object_get(v, "better")),
				when ? " with " : "", when ? when : "");
	}
	json_decref(a);
}

int cmd_list(int argc, char **argv)
{
	bool json = argc > 1 && (!strcmp(argv[1], "--format=json") ||
				 (argc > 2 && !strcmp(argv[1], "--format") && !strcmp(argv[2], "json")));
	json_t *a = json_array();
	struct key_widths w = { 0 };
	char mt[512], head[64], roles[640];

	if (argc > 1 && !json) {
		fprintf(argc > 1 && !strcmp(argv[1], "--help") ? stdout : stderr,
			"usage: pinbench list [--format text|json]\n");
		json_decref(a);
		return argc > 1 && !strcmp(argv[1], "--help") ? 0 : 2;
	}
	key_widths_of(pb_common_keys, &w);
	for (int i = 0; pb_benches[i]; i++)
		key_widths_of(pb_benches[i]->keys, &w);
	for (int i = 0; pb_benches[i]; i++) {
		const struct pb_bench *b = pb_benches[i];
		struct pb_metric m = b->metric;

		if (json) {
			json_array_append_new(a, json_pack("{s:s, s:s, s:[s, s*], s:{s:s, s:s, s:s}, s:o}",
				"name", b->name, "summary", b->summary, "roles", b->roles[0],
				b->shape == PB_SHAPE_PAIR ? b->roles[1] : NULL,
				"metric", "name", m.name, "unit", m.unit,
				"better", m.lower_better ? "lower" : "higher",
				"keys", keys_json(b->keys)));
			json_object_set_new(json_array_get(a, json_array_size(a) - 1), "metrics",
					    metrics_json(b));
			continue;
		}
		metrics_text(b, mt, sizeof(mt));
		snprintf(head, sizeof(head), "%s - ", b->name);
		pb_say_wrapped(stdout, head, b->summary);
		snprintf(roles, sizeof(roles), "%s%s%s; metric: %s", b->roles[0],
			 b->shape == PB_SHAPE_PAIR ? ", " : " x N",
			 b->shape == PB_SHAPE_PAIR ? b->roles[1] : "", mt);
		pb_say_wrapped(stdout, "  roles: ", roles);
		list_keys(b->keys, &w, stdout);
	}
	if (json) {
		json_t *o = json_pack("{s:s, s:o, s:o}", "schema", PB_SCHEMA_LIST,
				      "benches", a, "common_keys",
				      keys_json(pb_common_keys));

		json_dumpf(o, stdout, JSON_INDENT(1));
		fputc('\n', stdout);
		json_decref(o);
		return 0;
	}
	json_decref(a);
	printf("keys of every workload:\n");
	list_keys(pb_common_keys, &w, stdout);
	return 0;
}
