/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * doctor.h - `pinbench doctor`'s checks (checks/doctor.c): this machine's
 * measurement traps, or the verdict on a perf stat output.
 */
#ifndef PINBENCH_DOCTOR_H
#define PINBENCH_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct pb_doctor_opts {
	bool		json;
	bool		user;		/* judge as an unprivileged user */
	const char	*perf_stat;	/* a perf stat output to judge ("-": stdin), or NULL */
	double		nominal_mhz;	/* its machine's nominal clock, 0: this one's */
};

/*
 * Check this machine and write the checks to out: 0 when none failed, 1
 * when one did, -1 with err set when the checks could not be made.
 */
int pb_doctor_machine(const struct pb_doctor_opts *o, FILE *out, char *err, size_t len);
/*
 * Judge o->perf_stat and write the verdict to out: 0 nothing flagged, 1
 * flagged at warn or above, -1 with err set (unreadable, no counts).
 */
int pb_doctor_perf_stat(const struct pb_doctor_opts *o, FILE *out, char *err, size_t len);

#endif
