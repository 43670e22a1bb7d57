// SPDX-License-Identifier: GPL-2.0-only
/*
 * numfmt.c - the number formatter of text and markdown tables: digits
 * from the spread, SI prefixes for big values, the unit after the figure.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/numfmt.h"

static const char *const si_names[] = { "", " k", " M", " G", " T" };

/* The power of ten of x's first significant digit (x finite, not 0). */
static int lead(double x)
{
	return (int)floor(log10(fabs(x)));
}

/* The prefix for a value of this magnitude, already rounded to its last digit. */
static int si_of(double x)
{
	int p;

	if (!isfinite(x) || fabs(x) < PB_NUM_SI_MIN)
		return 0;
	p = lead(x) / 3 * 3;
	return p > 12 ? 12 : p;
}

static double round_at(double x, int last)
{
	return last >= 0 ? round(x / pow(10, last)) * pow(10, last)
			 : round(x * pow(10, -last)) / pow(10, -last);
}

void pb_numfmt_sig(struct pb_numfmt *nf, double x, int digits)
{
	double r;

	digits = digits < 1 ? 1 : digits > 15 ? 15 : digits;
	if (!isfinite(x) || x == 0) {
		nf->last = 0;
		nf->si = 0;
		return;
	}
	nf->last = lead(x) - digits + 1;
	r = round_at(x, nf->last);	/* 9.96 at two digits is 10, not 10.0 */
	if (r != 0 && lead(r) != lead(x))
		nf->last++;
	nf->si = si_of(r);
}

void pb_numfmt_pick(struct pb_numfmt *nf, double mean, double spread)
{
	int top;

	if (!isfinite(spread) || spread <= 0 || !isfinite(mean)) {
		pb_numfmt_sig(nf, mean, PB_NUM_DIGITS);
		return;
	}
	if (mean == 0) {
		nf->last = lead(spread);
		nf->si = 0;
		return;
	}
	top = lead(mean);
	nf->last = lead(spread);
	if (nf->last > top)
		nf->last = top;
	if (nf->last < top - PB_NUM_MAX_DIGITS + 1)
		nf->last = top - PB_NUM_MAX_DIGITS + 1;
	nf->si = si_of(round_at(mean, nf->last));
}

void pb_numfmt_join(struct pb_numfmt *nf, const struct pb_numfmt *b)
{
	nf->last = b->last < nf->last ? b->last : nf->last;
	nf->si = b->si > nf->si ? b->si : nf->si;
}

char *pb_numfmt_str(const struct pb_numfmt *nf, double x, const char *unit,
		    char *buf, size_t len)
{
	const char *sp = unit && *unit ? " " : "";
	int dec = nf->si - nf->last;
	double r;

	if (!unit)
		unit = "";
	if (isnan(x)) {
		snprintf(buf, len, "n/a%s%s", sp, unit);
		return buf;
	}
	if (isinf(x)) {
		snprintf(buf, len, "%sinf%s%s", x < 0 ? "-" : "", sp, unit);
		return buf;
	}
	r = round_at(x, nf->last);
	if (r == 0)
		r = 0;	/* no "-0.0" */
	snprintf(buf, len, "%.*f%s%s%s", dec > 0 ? dec : 0, r / pow(10, nf->si),
		 si_names[nf->si / 3], sp, unit);
	return buf;
}

char *pb_num_spread(double spread, const char *unit, char *buf, size_t len)
{
	return pb_num_sig(spread, 2, unit, buf, len);
}

char *pb_num_sig(double x, int digits, const char *unit, char *buf, size_t len)
{
	struct pb_numfmt nf;

	pb_numfmt_sig(&nf, x, digits);
	return pb_numfmt_str(&nf, x, unit, buf, len);
}

double pb_num_time_scale(double x, const char **unit)
{
	if (!*unit || strcmp(*unit, "ns") || !isfinite(x) || fabs(x) < PB_NUM_SI_MIN)
		return 1;
	if (fabs(x) / 1e3 < PB_NUM_SI_MIN) {
		*unit = "µs";
		return 1e3;
	}
	*unit = "ms";
	return 1e6;
}
