// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_compare_env.c - the environment differences of a comparison
 * (report/compare_env.c) on hand-made result objects: what is taken from
 * a file, which items differ and how they are worded, what is left out,
 * and the lines within PB_CMP_WIDTH columns.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"

/* A result's root with the host fields compare_env.c reads. */
static json_t *root_of(const char *host, const char *model, const char *cmdline,
		       const char *spectre, const char *microcode, const char *thp)
{
	json_t *env = json_pack("{s:s?, s:{s:s, s:s?}, s:{s:s?, s:n}, s:{s:s?, s:s},"
				" s:{s:s}, s:{s:s, s:b}}",
				"cmdline", cmdline,
				"vulnerabilities", "meltdown", "Mitigation: PTI",
				"spectre_v2", spectre,
				"microcode", "cpuinfo", microcode, "version",
				"thp", "enabled", thp, "defrag", "madvise",
				"cpufreq", "governor", "performance",
				"smt", "control", "on", "active", 1);

	return json_pack("{s:s, s:{s:s, s:s, s:{s:i, s:i, s:i}, s:o}}", "schema",
			 "pinbench-result/1", "host", "hostname", host, "cpu_model", model,
			 "topology", "packages", 1, "cores", 2, "pus", 4, "environment", env);
}

struct fixture {
	struct pb_cmp	c;
	char		*names[4];
	int		order[4];
	json_t		*envs[4];
};

/* Groups named names[i] in that order, each with the machine of roots[i] (taken). */
static void make(struct fixture *f, int n, const char *const *names, json_t **roots)
{
	memset(f, 0, sizeof(*f));
	for (int i = 0; i < n; i++) {
		f->names[i] = (char *)names[i];
		f->order[i] = i;
		f->envs[i] = pb_cmp_env_of(roots[i]);
		json_decref(roots[i]);
	}
	f->c.groups = f->names;
	f->c.order = f->order;
	f->c.envs = f->envs;
	f->c.nr_groups = n;
}

static void unmake(struct fixture *f)
{
	for (int i = 0; i < f->c.nr_groups; i++)
		json_decref(f->envs[i]);
}

static const char *msg(json_t *diffs, size_t i)
{
	return json_string_value(json_object_get(json_array_get(diffs, i), "message"));
}

static void test_env_of(void **state)
{
	json_t *r = root_of("h", "unknown", NULL, "Vulnerable", NULL, "never"), *fp, *vu;

	(void)state;
	json_object_set_new(json_object_get(json_object_get(json_object_get(r, "host"),
		"environment"), "microcode"), "version", json_string("0xf0"));
	vu = json_object_get(json_object_get(json_object_get(r, "host"), "environment"),
			     "vulnerabilities");
	json_object_set_new(vu, "evil\033[2J", json_string("x"));
	json_object_set_new(vu, "number", json_integer(5));
	fp = pb_cmp_env_of(r);
	vu = json_object_get(fp, "vulnerabilities");
	assert_string_equal(json_string_value(json_object_get(vu, "evil?[2J")), "x");
	assert_null(json_object_get(vu, "number"));	/* not a text: left out */
	assert_true(json_is_null(json_object_get(fp, "cpu_model")));	/* "unknown" */
	assert_true(json_is_null(json_object_get(fp, "cmdline")));
	assert_string_equal(json_string_value(json_object_get(fp, "microcode")), "0xf0");
	assert_string_equal(json_string_value(json_object_get(fp, "topology")),
			    "1 package, 2 cores, 4 PUs");
	assert_string_equal(json_string_value(json_object_get(fp, "smt")), "on, active");
	assert_string_equal(json_string_value(json_object_get(fp, "thp_enabled")), "never");
	json_decref(fp);
	json_decref(r);

	r = json_pack("{s:s}", "schema", "pinbench-result/1");	/* no host at all */
	fp = pb_cmp_env_of(r);
	assert_true(json_is_null(json_object_get(fp, "hostname")));
	assert_true(json_is_null(json_object_get(fp, "vulnerabilities")));
	assert_true(json_is_null(json_object_get(fp, "topology")));
	json_decref(fp);
	json_decref(r);
}

static void test_diffs(void **state)
{
	static const char *const names[] = { "6.1", "6.2", "6.3" };
	json_t *roots[3] = {
		root_of("a", "Xeon", "BOOT_IMAGE=/vmlinuz-6.1 ro quiet", "Mitigation: Retpolines",
			"0x1", "madvise"),
		root_of("b", "Xeon", "BOOT_IMAGE=/vmlinuz-6.2 ro quiet mitigations=off nosmt",
			"Vulnerable", "0x1", "madvise"),
		root_of("a", "Xeon", NULL, "Mitigation: Retpolines", "0x2", "madvise"),
	};
	struct fixture f;
	json_t *d, *v;

	(void)state;
	make(&f, 3, names, roots);
	d = pb_cmp_env_diffs(&f.c);
	assert_int_equal(json_array_size(d), 4);
	assert_string_equal(msg(d, 0), "warning: the results come from different hosts: "
			    "6.1, 6.3: a; 6.2: b");
	assert_true(json_is_true(json_object_get(json_array_get(d, 0), "warning")));
	assert_string_equal(msg(d, 1), "mitigations differ: spectre_v2: 6.1, 6.3: Mitigation: "
			    "Retpolines; 6.2: Vulnerable");
	assert_false(json_is_true(json_object_get(json_array_get(d, 1), "warning")));
	/* 6.3 has no cmdline: left out; BOOT_IMAGE= differs with every kernel: not said */
	assert_string_equal(msg(d, 2), "cmdline differs: 6.1: (only shared words); "
			    "6.2: mitigations=off nosmt");
	assert_string_equal(msg(d, 3), "microcode differs: 6.1, 6.2: 0x1; 6.3: 0x2");
	v = json_object_get(json_array_get(d, 3), "values");
	assert_int_equal(json_array_size(json_object_get(json_array_get(v, 0), "groups")), 2);
	json_decref(d);

	f.c.by = PB_GROUP_HOST;		/* hosts are the rows: no warning about them */
	d = pb_cmp_env_diffs(&f.c);
	assert_string_equal(json_string_value(json_object_get(json_array_get(d, 0), "kind")),
			    "mitigations");
	json_decref(d);
	unmake(&f);
}

static void test_same_and_unknown(void **state)
{
	static const char *const names[] = { "a", "b" };
	json_t *roots[2] = {
		root_of("h", "Xeon", "ro quiet", "Vulnerable", "0x1", "always"),
		root_of("h", "Xeon", "quiet  ro", "Vulnerable", "0x1", "always"),
	};
	struct fixture f;
	json_t *d;

	(void)state;
	make(&f, 2, names, roots);
	d = pb_cmp_env_diffs(&f.c);
	assert_int_equal(json_array_size(d), 0);	/* the same words in another order */
	json_decref(d);
	/* an older file that records nothing: nothing is said to differ */
	json_decref(f.envs[1]);
	roots[1] = json_pack("{s:{s:s}}", "host", "hostname", "h");
	f.envs[1] = pb_cmp_env_of(roots[1]);
	json_decref(roots[1]);
	d = pb_cmp_env_diffs(&f.c);
	assert_int_equal(json_array_size(d), 0);
	json_decref(d);
	unmake(&f);
}

/* Files of one group that disagree: the first one's values, and a warning. */
static void test_mixed(void **state)
{
	static const char *const names[] = { "6.1", "6.2" };
	json_t *roots[2] = {
		json_pack("{s:{s:s}}", "host", "hostname", "a"),	/* says little */
		root_of("a", "Xeon", "ro", "Vulnerable", "0x1", "always"),
	};
	json_t *more, *d;
	struct fixture f;

	(void)state;
	make(&f, 2, names, roots);
	more = root_of("a", "Xeon", "ro", "Vulnerable", "0x1", "always");
	pb_cmp_env_add(&f.envs[0], more);	/* learns what the first did not say */
	json_decref(more);
	assert_string_equal(json_string_value(json_object_get(f.envs[0], "microcode")), "0x1");
	assert_null(json_object_get(f.envs[0], "mixed"));
	more = root_of("b", "Xeon", "ro", "Vulnerable", "0x2", "always");
	pb_cmp_env_add(&f.envs[0], more);
	pb_cmp_env_add(&f.envs[0], more);	/* each item listed once */
	json_decref(more);
	assert_string_equal(json_string_value(json_object_get(f.envs[0], "microcode")), "0x1");
	d = pb_cmp_env_diffs(&f.c);
	assert_int_equal(json_array_size(d), 1);
	assert_string_equal(msg(d, 0), "warning: the files of 6.1 differ among themselves in "
			    "host, microcode; the first one's are compared");
	json_decref(d);
	unmake(&f);
}

/* The printed lines: each within PB_CMP_WIDTH columns, words whole or cut with "…". */
static void test_print(void **state)
{
	static const char *const names[] = { "6.1-a-long-label", "6.2-a-long-label" };
	char spectre[300], word[200], *buf = NULL, *line, *save;
	json_t *roots[2], *d;
	struct fixture f;
	size_t len = 0;
	FILE *m;

	(void)state;
	snprintf(spectre, sizeof(spectre), "Mitigation: Retpolines; IBPB: conditional; IBRS_FW; "
		 "STIBP: disabled; RSB filling; PBRSB-eIBRS: Not affected; BHI: Retpoline");
	memset(word, 'y', 150);
	word[150] = 0;
	roots[0] = root_of("h", "Xeon", "ro", spectre, "0x1", "always");
	roots[1] = root_of("h", "Xeon", word, "Vulnerable", "0x1", "always");
	make(&f, 2, names, roots);
	d = pb_cmp_env_diffs(&f.c);
	m = open_memstream(&buf, &len);
	assert_non_null(m);
	pb_cmp_env_print(m, d, false);
	fclose(m);
	assert_non_null(strstr(buf, "mitigations differ: spectre_v2:\n"
				    "  6.1-a-long-label: Mitigation: Retpolines;"));
	assert_non_null(strstr(buf, "; RSB\n      filling; PBRSB-eIBRS: Not affected; BHI: "
				    "Retpoline\n"));	/* wrapped between words */
	assert_non_null(strstr(buf, "\n  6.2-a-long-label: Vulnerable\n"));
	assert_non_null(strstr(buf, "yyy…\n"));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int cols = 0;

		for (char *p = line; *p; p++)
			cols += ((unsigned char)*p & 0xc0) != 0x80;
		assert_true(cols <= PB_CMP_WIDTH);
	}
	free(buf);
	buf = NULL;
	m = open_memstream(&buf, &len);
	pb_cmp_env_print(m, d, true);
	fclose(m);
	assert_non_null(strstr(buf, "- mitigations differ: spectre_v2:\n  - 6.1-a-long-label: "));
	free(buf);
	json_decref(d);
	unmake(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_env_of),
		cmocka_unit_test(test_diffs),
		cmocka_unit_test(test_same_and_unknown),
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_print),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
