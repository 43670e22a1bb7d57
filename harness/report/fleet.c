// SPDX-License-Identifier: GPL-2.0-only
/*
 * fleet.c - the fleet summary of `pinbench compare --by-class`
 * (report/fleet.h): per host class, the cells of its own comparison that
 * regressed significantly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "report/fleet.h"

int pb_fleet_collect(const struct pb_cmp *c, const struct pb_cmp_opts *o,
		     struct pb_fleet_class *k)
{
	int base = o->baseline ? pb_cmp_find_group(c, o->baseline) : -1;
	size_t len = 0;
	FILE *f = open_memstream(&k->cells, &len);

	if (!f)
		return -1;
	k->regressions = 0;
	for (int i = 0; i < c->nr_tables; i++) {
		const struct pb_table *t = &c->t[i];
		const struct pb_cell *b = pb_cmp_base(c, t, base);

		for (int g = 0; b && g < c->nr_groups; g++) {
			const struct pb_cell *cell = pb_cmp_cell(t, c->order[g]);
			struct pb_eval e;
			char ch[160];

			pb_cmp_eval(t, cell, b, o->min_change, &e);
			if (!pb_cmp_regressed(&e))
				continue;
			pb_cmp_change_words(&e, o->no_correction, ch, sizeof(ch));
			fprintf(f, "%s (%s): %s %s against %s\n", t->job, t->placement,
				c->groups[cell->group], ch, c->groups[b->group]);
			k->regressions++;
		}
	}
	if (fclose(f))
		return -1;
	if (!k->regressions) {
		free(k->cells);
		k->cells = NULL;
	}
	return 0;
}

int pb_fleet_summary(FILE *f, const struct pb_fleet_class *v, int nr, bool md)
{
	int total = 0, with = 0;

	for (int i = 0; i < nr; i++) {
		total += v[i].regressions;
		with += v[i].regressions > 0;
	}
	fprintf(f, "%sfleet summary: %d host class%s, %d with regressions (%d cell%s)%s\n\n",
		md ? "## " : "", nr, nr == 1 ? "" : "es", with, total, total == 1 ? "" : "s",
		md ? "" : ":");
	for (int i = 0; i < nr; i++) {
		const struct pb_fleet_class *k = &v[i];
		const char *s, *e;

		fprintf(f, "%s%s%s: ", md ? "- **" : "", k->name, md ? "**" : "");
		if (!k->compared)
			fprintf(f, "not compared: %s\n", k->note);
		else if (!k->regressions)
			fputs("no regression\n", f);
		else
			fprintf(f, "%d regressed\n", k->regressions);
		fprintf(f, "%shosts: %s (%d file%s)\n", md ? "  - " : "    ", k->hosts, k->files,
			k->files == 1 ? "" : "s");
		for (s = k->cells; s && *s; s = e + 1) {
			e = strchr(s, '\n');
			if (!e)
				break;
			fprintf(f, "%s%.*s\n", md ? "  - " : "    ", (int)(e - s), s);
		}
	}
	return total;
}
