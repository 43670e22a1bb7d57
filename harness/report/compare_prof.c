// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_prof.c - the profile passes of a cell's runs (profile=on), and
 * where a change went: per role, each function's own time per op on each
 * side and its change, with the sampling error.  See compare.h.
 *
 * A run's role has N samples of function f as its leaf (f's own time):
 * N x ns_per_op_per_sample ns per op, Poisson error sqrt(N) of the same
 * unit.  A cell's figure is the mean over its profiled runs; the error of
 * the mean is the root of the summed variances over the runs' count.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "sys/fold.h"

/* Add ns to the number at key of o (0 when absent). */
static void add_ns(json_t *o, const char *key, double ns)
{
	json_object_set_new(o, key, json_real(json_number_value(json_object_get(o, key)) + ns));
}

/*
 * The leaf of each folded line into role[fn] = [ns, variance] sums, and
 * each whole stack's ns into stacks[stack].
 */
static void add_role(json_t *fns, json_t *stacks, const char *folded, double per)
{
	struct pb_fold f = { 0 };

	if (pb_fold_parse(&f, folded))
		goto out;
	for (int i = 0; i < f.nr; i++) {
		const char *semi = strrchr(f.l[i].stack, ';');
		const char *fn = strcmp(f.l[i].stack, PB_FOLD_REST) ? (semi ? semi + 1 :
				 f.l[i].stack) : PB_FOLD_REST;
		json_t *a = json_object_get(fns, fn);
		double ns = f.l[i].count * per, var = f.l[i].count * per * per;

		if (!a) {
			a = json_pack("[f, f]", 0.0, 0.0);
			json_object_set_new(fns, fn, a);
		}
		json_array_set_new(a, 0, json_real(json_number_value(json_array_get(a, 0)) + ns));
		json_array_set_new(a, 1, json_real(json_number_value(json_array_get(a, 1)) + var));
		add_ns(stacks, f.l[i].stack, ns);
	}
out:
	pb_fold_free(&f);
}

int pb_cmp_add_profile(struct pb_cell *cell, json_t *job)
{
	json_t *p = json_object_get(job, "profile"), *r, *roles, *stacks;
	size_t i;

	if (!json_is_true(json_object_get(p, "sampled")))
		return 0;
	if (!cell->prof && !(cell->prof = json_pack("{s:i, s:s?, s:{}}", "runs", 0, "event",
			json_string_value(json_object_get(p, "event")), "roles")))
		return -1;
	roles = json_object_get(cell->prof, "roles");
	if (!json_object_get(cell->prof, "stacks"))
		json_object_set_new(cell->prof, "stacks", json_object());
	stacks = json_object_get(cell->prof, "stacks");
	json_array_foreach(json_object_get(p, "roles"), i, r) {
		const char *name = json_string_value(json_object_get(r, "role"));
		json_t *per = json_object_get(r, "ns_per_op_per_sample");
		const char *folded = json_string_value(json_object_get(r, "folded"));

		if (!name || !json_is_number(per) || !folded)
			continue;
		if (!json_object_get(roles, name)) {
			json_object_set_new(roles, name, json_object());
			json_object_set_new(stacks, name, json_object());
		}
		add_role(json_object_get(roles, name), json_object_get(stacks, name), folded,
			 json_number_value(per));
	}
	json_object_set_new(cell->prof, "runs", json_integer(
		json_integer_value(json_object_get(cell->prof, "runs")) + 1));
	if (json_is_number(json_object_get(p, "slower"))) {
		add_ns(cell->prof, "slower_sum", json_number_value(json_object_get(p, "slower")));
		add_ns(cell->prof, "slower_n", 1);
	}
	return 0;
}

double pb_cmp_prof_slower(const struct pb_cell *cell)
{
	double n = json_number_value(json_object_get(cell->prof, "slower_n"));

	return n > 0 ? json_number_value(json_object_get(cell->prof, "slower_sum")) / n : NAN;
}

void pb_cmp_prof_slower_words(const struct pb_cell *base, const struct pb_cell *cell,
			      const char *bname, const char *cname, char *buf, size_t len)
{
	double x[2] = { pb_cmp_prof_slower(base), pb_cmp_prof_slower(cell) };
	const char *name[2] = { bname, cname };
	size_t off = 0;

	if (!len)
		return;
	buf[0] = '\0';
	if (isnan(x[0]) && isnan(x[1]))
		return;
	for (int i = 0; i < 2; i++)
		if (!isnan(x[i]) && off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%.0f %% %s (%s)",
						off ? " and " : "the profiled windows ran ",
						100 * fabs(x[i]), x[i] >= 0 ? "slower" : "faster",
						name[i]);
	if (off < len)
		off += (size_t)snprintf(buf + off, len - off, " than the metric's repeats");
	for (int i = 0; i < 2; i++)
		if (isnan(x[i]) && off < len)
			off += (size_t)snprintf(buf + off, len - off, " (%s: not recorded)", name[i]);
	if (off < len)
		snprintf(buf + off, len - off, ": the times per op are those windows'");
}

const char *pb_cmp_prof_role(const struct pb_cell *cell, int i)
{
	void *it = json_object_iter(json_object_get(cell->prof, "roles"));

	while (it && i-- > 0)
		it = json_object_iter_next(json_object_get(cell->prof, "roles"), it);
	return it ? json_object_iter_key(it) : NULL;
}

/* The cell's mean own time per op of fn and its error; 0 when absent. */
static void side(const struct pb_cell *cell, const char *role, const char *fn, double *ns,
		 double *err)
{
	json_t *a = json_object_get(json_object_get(json_object_get(cell->prof, "roles"),
						    role), fn);
	double runs = (double)json_integer_value(json_object_get(cell->prof, "runs"));

	*ns = *err = 0;
	if (!a || runs < 1)
		return;
	*ns = json_number_value(json_array_get(a, 0)) / runs;
	*err = sqrt(json_number_value(json_array_get(a, 1))) / runs;
}

static void add_row(const struct pb_cell *base, const struct pb_cell *cell, const char *role,
		    const char *fn, struct pb_prof_row *r)
{
	double be, ce;

	snprintf(r->fn, sizeof(r->fn), "%s", fn);
	side(base, role, fn, &r->base, &be);
	side(cell, role, fn, &r->cur, &ce);
	r->change = r->cur - r->base;
	r->err = sqrt(be * be + ce * ce);
}

static int by_change(const void *a, const void *b)
{
	const struct pb_prof_row *x = a, *y = b;

	if (fabs(x->change) != fabs(y->change))
		return fabs(x->change) < fabs(y->change) ? 1 : -1;
	return strcmp(x->fn, y->fn);
}

int pb_cmp_prof_top(const struct pb_cell *base, const struct pb_cell *cell, const char *role,
		    struct pb_prof_row *rows, int n, struct pb_prof_row *total)
{
	json_t *fns[2] = { json_object_get(json_object_get(base->prof, "roles"), role),
			   json_object_get(json_object_get(cell->prof, "roles"), role) };
	struct pb_prof_row *all = NULL;
	int nr = 0, cap = 0;
	const char *fn;
	json_t *v;

	memset(total, 0, sizeof(*total));
	for (int s = 0; s < 2; s++)
		json_object_foreach(fns[s], fn, v) {
			if (s && json_object_get(fns[0], fn))
				continue;	/* the union, each once */
			if (nr == cap) {
				struct pb_prof_row *m;

				cap = cap ? 2 * cap : 64;
				m = realloc(all, (size_t)cap * sizeof(*m));
				if (!m)
					break;
				all = m;
			}
			add_row(base, cell, role, fn, &all[nr]);
			total->base += all[nr].base;
			total->cur += all[nr].cur;
			total->err = hypot(total->err, all[nr].err);
			nr++;
		}
	total->change = total->cur - total->base;
	if (!nr) {
		free(all);
		return 0;
	}
	qsort(all, nr, sizeof(*all), by_change);
	n = n < nr ? n : nr;
	memcpy(rows, all, (size_t)n * sizeof(*rows));
	free(all);
	return n;
}

json_t *pb_cmp_prof_stacks(const struct pb_cell *cell, const char *role)
{
	json_t *st = json_object_get(json_object_get(cell->prof, "stacks"), role), *v, *o;
	double runs = (double)json_integer_value(json_object_get(cell->prof, "runs"));
	const char *k;

	o = json_object();
	if (!o || runs < 1)
		return o;
	json_object_foreach(st, k, v)
		json_object_set_new(o, k, json_real(json_number_value(v) / runs));
	return o;
}
