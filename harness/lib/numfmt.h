/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * numfmt.h - the number formatter of every text and markdown table: as
 * many digits as the spread supports, SI prefixes (k, M, G, T) for big
 * values, units kept.  CSV and JSON keep full precision and do not use it.
 */
#ifndef PINBENCH_NUMFMT_H
#define PINBENCH_NUMFMT_H

#include <stddef.h>

#define PB_NUM_LEN	32	/* room for any figure this formats, unit aside */
#define PB_NUM_SI_MIN	1e4	/* from here on a k, M, G or T prefix */
#define PB_NUM_DIGITS	4	/* significant digits without a spread */
#define PB_NUM_MAX_DIGITS 6	/* and at most, however small the spread */

/*
 * How a row's figures are shown: the power of ten of the last digit
 * (last) and the SI prefix's power (si: 0, 3, 6, 9 or 12).
 */
struct pb_numfmt {
	int	last;
	int	si;
};

/*
 * The form of a mean and of the values beside it (a row's tests): its
 * last digit is the spread's first significant one (mean 5.15984, stddev
 * 0.922: 5.2), at least one significant digit of the mean and at most
 * PB_NUM_MAX_DIGITS; a spread that is 0, negative, NaN or infinite (n = 1,
 * equal values) gives PB_NUM_DIGITS significant digits.  The prefix
 * follows the mean's magnitude (1362224.87 with 84373: 1.36 M).
 */
void pb_numfmt_pick(struct pb_numfmt *nf, double mean, double spread);

/*
 * One form for a table's column out of its rows': the finer last digit
 * and the larger prefix (9999 and 10001 show as 9.999 k and 10.001 k).
 * An nf set to PB_NUMFMT_NONE takes b as it is.
 */
#define PB_NUMFMT_NONE_LAST	0x7fffffff
#define PB_NUMFMT_NONE	{ .last = PB_NUMFMT_NONE_LAST, .si = 0 }
void pb_numfmt_join(struct pb_numfmt *nf, const struct pb_numfmt *b);

/* nf picked for x alone with this many significant digits (1 to 15). */
void pb_numfmt_sig(struct pb_numfmt *nf, double x, int digits);

/*
 * x in the form nf, with " unit" after it when unit is neither NULL nor
 * empty: "5.2", "1.36 M", "-0.41", "110 k ops/s"; "n/a" for NaN, "inf"
 * and "-inf".  Returns buf (len bytes; PB_NUM_LEN and the unit's length
 * are always enough).
 */
char *pb_numfmt_str(const struct pb_numfmt *nf, double x, const char *unit,
		    char *buf, size_t len);

/* The convenience form: a spread (two digits). */
char *pb_num_spread(double spread, const char *unit, char *buf, size_t len);
/* x with digits significant digits: "2.00", "0.800", "1.42 M". */
char *pb_num_sig(double x, int digits, const char *unit, char *buf, size_t len);

/*
 * A figure in ns shown in µs or ms from PB_NUM_SI_MIN on (12.3 µs, never
 * "12.3 k ns"): the divisor (1, 1e3, 1e6) for ns, *unit set to "ns",
 * "µs" or "ms".  Any other unit: 1, *unit unchanged.
 */
double pb_num_time_scale(double x, const char **unit);

#endif
