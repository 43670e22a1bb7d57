// SPDX-License-Identifier: GPL-2.0-only
/* test_anomaly.c - anomaly list, severities, JSON, table marks, the kinds' table and the man page's legend. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/anomaly.h"

static void test_add_fields(void **state)
{
	struct pb_anomalies a = { 0 };

	(void)state;
	pb_anomaly_add(&a, PB_AN_COUNTER_MULTIPLEXED, PB_SEV_WARN,
		       "use fewer events", "%s running %.1f%% of the time",
		       "cycles", 67.31);
	pb_anomaly_add(&a, PB_AN_NOISY, PB_SEV_INFO, NULL, "CV %.2f%%", 3.5);
	assert_int_equal(a.nr, 2);
	assert_string_equal(a.v[0].kind, "counter-multiplexed");
	assert_int_equal(a.v[0].sev, PB_SEV_WARN);
	assert_string_equal(a.v[0].message, "cycles running 67.3% of the time");
	assert_string_equal(a.v[0].advice, "use fewer events");
	assert_string_equal(a.v[1].kind, "noisy");
	assert_int_equal(a.v[1].sev, PB_SEV_INFO);
	assert_string_equal(a.v[1].message, "CV 3.50%");
	assert_string_equal(a.v[1].advice, "");	/* NULL advice */
	pb_anomalies_free(&a);
	assert_null(a.v);
	assert_int_equal(a.nr, 0);
	pb_anomalies_free(&a);	/* twice is harmless */
}

/* Many entries: the array grows and keeps every earlier entry intact. */
static void test_growth(void **state)
{
	struct pb_anomalies a = { 0 };
	char want[32];
	int i;

	(void)state;
	for (i = 0; i < 1000; i++)
		pb_anomaly_add(&a, PB_AN_MIGRATION, i % 3, "pin it", "role %d moved", i);
	assert_int_equal(a.nr, 1000);
	for (i = 0; i < 1000; i++) {
		snprintf(want, sizeof(want), "role %d moved", i);
		assert_string_equal(a.v[i].message, want);
		assert_int_equal(a.v[i].sev, i % 3);
	}
	pb_anomalies_free(&a);
	/* reusable after free */
	pb_anomaly_add(&a, PB_AN_LOST, PB_SEV_ERROR, NULL, "%d datagrams lost", 3);
	assert_int_equal(a.nr, 1);
	assert_string_equal(a.v[0].message, "3 datagrams lost");
	pb_anomalies_free(&a);
}

/* Long strings are cut to their fields, NUL-terminated. */
static void test_truncate(void **state)
{
	struct pb_anomalies a = { 0 };
	char big[1000];

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	pb_anomaly_add_env(&a, big, PB_SEV_ERROR, big, "%s%s", big, big);
	assert_int_equal(a.nr, 1);
	assert_int_equal(strlen(a.v[0].kind), sizeof(a.v[0].kind) - 1);
	assert_int_equal(strlen(a.v[0].message), sizeof(a.v[0].message) - 1);
	assert_int_equal(strlen(a.v[0].advice), sizeof(a.v[0].advice) - 1);
	assert_memory_equal(a.v[0].message, big, sizeof(a.v[0].message) - 1);
	assert_memory_equal(a.v[0].kind, "env-xxx", 7);
	pb_anomalies_free(&a);
}

/*
 * "µ" is 0xc2 0xb5.  318 'a' then "µs": the 319 bytes that fit end with
 * 0xc2 alone; that half character is dropped (318 bytes left), so the
 * message stays valid UTF-8 and the JSON encoder accepts it.  With 317
 * 'a' the whole "µ" fits (319 bytes) and is kept.
 */
static void test_truncate_utf8(void **state)
{
	struct pb_anomalies a = { 0 };
	char pad[400];
	json_t *j;

	(void)state;
	memset(pad, 'a', 318);
	pad[318] = '\0';
	pb_anomaly_add(&a, PB_AN_NOISY, PB_SEV_WARN, NULL, "%s\xc2\xb5s", pad);
	assert_int_equal(strlen(a.v[0].message), 318);
	pad[317] = '\0';
	pb_anomaly_add(&a, PB_AN_NOISY, PB_SEV_WARN, NULL, "%s\xc2\xb5s", pad);
	assert_int_equal(strlen(a.v[1].message), 319);
	assert_memory_equal(a.v[1].message + 317, "\xc2\xb5", 2);
	/* stray bytes (not UTF-8) become '?' */
	pb_anomaly_add_env(&a, "k\xff", PB_SEV_INFO, "a\x80z", "x\xc0\xafy \xed\xa0\x80.");
	assert_string_equal(a.v[2].kind, "env-k?");
	assert_string_equal(a.v[2].advice, "a?z");
	assert_string_equal(a.v[2].message, "x??y ???.");
	/* a well-formed multibyte message is left alone */
	pb_anomaly_add(&a, PB_AN_FREQUENCY_DRIFT, PB_SEV_WARN, NULL,
		       "0.818 s \xe2\x86\x92 1.122 s, 83 \xc2\xb5s \xf0\x9f\x90\xa2");
	assert_string_equal(a.v[3].message,
			    "0.818 s \xe2\x86\x92 1.122 s, 83 \xc2\xb5s \xf0\x9f\x90\xa2");
	j = pb_anomalies_json(&a);
	assert_non_null(j);
	assert_int_equal(json_array_size(j), 4);
	json_decref(j);
	pb_anomalies_free(&a);
}

static void test_sev(void **state)
{
	(void)state;
	assert_string_equal(pb_sev_name(PB_SEV_INFO), "info");
	assert_string_equal(pb_sev_name(PB_SEV_WARN), "warn");
	assert_string_equal(pb_sev_name(PB_SEV_ERROR), "error");
	assert_string_equal(pb_sev_name((enum pb_sev)7), "unknown");
}

static void check_entry(json_t *o, const char *kind, const char *sev,
			const char *msg, const char *advice)
{
	assert_true(json_is_object(o));
	assert_int_equal(json_object_size(o), 4);
	assert_string_equal(json_string_value(json_object_get(o, "kind")), kind);
	assert_string_equal(json_string_value(json_object_get(o, "severity")), sev);
	assert_string_equal(json_string_value(json_object_get(o, "message")), msg);
	assert_string_equal(json_string_value(json_object_get(o, "advice")), advice);
}

static void test_json(void **state)
{
	struct pb_anomalies a = { 0 };
	json_t *j;
	char *s;

	(void)state;
	j = pb_anomalies_json(&a);
	assert_true(json_is_array(j));
	assert_int_equal(json_array_size(j), 0);
	json_decref(j);
	j = pb_anomalies_json(NULL);
	assert_true(json_is_array(j) && json_array_size(j) == 0);
	json_decref(j);

	pb_anomaly_add(&a, PB_AN_OBSERVER_EFFECT, PB_SEV_ERROR,
		       "reboot; check for a stuck clock",
		       "reference loop %.3f s -> %.3f s (+%.0f%%)", 0.818, 1.122, 37.2);
	pb_anomaly_add(&a, PB_AN_NOISY_NEIGHBOR, PB_SEV_WARN, NULL,
		       "cpu%d busy \"%s\" %d%%", 1, "hog", 40);
	j = pb_anomalies_json(&a);
	assert_true(json_is_array(j));
	assert_int_equal(json_array_size(j), 2);
	check_entry(json_array_get(j, 0), "observer-effect", "error",
		    "reference loop 0.818 s -> 1.122 s (+37%)",
		    "reboot; check for a stuck clock");
	check_entry(json_array_get(j, 1), "noisy-neighbor", "warn",
		    "cpu1 busy \"hog\" 40%", "");
	/* quotes are escaped in the text */
	s = json_dumps(j, JSON_COMPACT);
	assert_non_null(s);
	assert_non_null(strstr(s, "\"message\":\"cpu1 busy \\\"hog\\\" 40%\""));
	free(s);
	json_decref(j);
	pb_anomalies_free(&a);
}

static void test_marks(void **state)
{
	static const struct { const char *kind, *mark; } tab[] = {
		{ "counter-multiplexed", "M" },
		{ "frequency-drift", "D" },
		{ "frequency-low", "L" },
		{ "counter-clock-mismatch", "C" },
		{ "observer-effect", "O" },
		{ "noisy-neighbor", "N" },
		{ "noisy", "V" },
		{ "migration", "G" },
		{ "throttling", "T" },
		{ "lost", "X" },
		{ "shared-cpus", "S" },
		{ "something-new", "!" },
		{ "", "!" },
		{ "noisy-", "!" },
		{ "Noisy", "!" },
		{ "frequency", "!" },
	};
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		assert_string_equal(pb_anomaly_mark(tab[i].kind), tab[i].mark);
	assert_string_equal(pb_anomaly_mark(NULL), "!");
	/* the known kinds' marks are one character and all different */
	for (i = 0; i < 11; i++) {
		assert_int_equal(strlen(pb_anomaly_mark(tab[i].kind)), 1);
		for (j = 0; j < i; j++)
			assert_string_not_equal(pb_anomaly_mark(tab[i].kind),
						pb_anomaly_mark(tab[j].kind));
	}
}

/* The table: every kind named, distinct, explained; marks one letter, distinct. */
static void test_kinds(void **state)
{
	struct pb_anomalies a = { 0 };
	int i, j;

	(void)state;
	for (i = 0; i < PB_AN_NR; i++) {
		const struct pb_anomaly_kind_info *k = &pb_anomaly_kinds[i];

		assert_non_null(k->name);
		assert_true(strlen(k->name) > 1 && strlen(k->name) < sizeof(a.v[0].kind));
		assert_non_null(k->meaning);
		assert_true(*k->meaning);
		assert_in_range(k->sev, PB_SEV_INFO, PB_SEV_ERROR);
		if (k->mark) {
			assert_int_equal(strlen(k->mark), 1);
			assert_string_not_equal(k->mark, "!");
			assert_string_equal(pb_anomaly_mark(k->name), k->mark);
		} else {
			assert_string_equal(pb_anomaly_mark(k->name), "!");
		}
		for (j = 0; j < i; j++) {
			assert_string_not_equal(k->name, pb_anomaly_kinds[j].name);
			if (k->mark && pb_anomaly_kinds[j].mark)
				assert_string_not_equal(k->mark, pb_anomaly_kinds[j].mark);
		}
		/* the name as written; PB_SEV_DEFAULT is the table's severity */
		pb_anomaly_add(&a, i, PB_SEV_DEFAULT, NULL, "x");
		assert_int_equal(a.v[a.nr - 1].sev, k->sev);
		if (i != PB_AN_ENV)
			assert_string_equal(a.v[a.nr - 1].kind, k->name);
	}
	pb_anomaly_add_env(&a, "governor", PB_SEV_DEFAULT, NULL, "x");
	assert_string_equal(a.v[a.nr - 1].kind, "env-governor");
	assert_int_equal(a.v[a.nr - 1].sev, pb_anomaly_kinds[PB_AN_ENV].sev);
	pb_anomaly_add(&a, PB_AN_STALL, PB_SEV_INFO, NULL, "x");	/* given: kept */
	assert_int_equal(a.v[a.nr - 1].sev, PB_SEV_INFO);
	pb_anomaly_add(&a, PB_AN_NR, PB_SEV_WARN, NULL, "x");
	assert_string_equal(a.v[a.nr - 1].kind, "unknown");
	pb_anomalies_free(&a);
}

/*
 * The legend of doc/pinbench-marks.7.scd (the scdoc table headed
 * "[[ *mark*", ":[ *kind*", ":< *means*") is the table, row for row: each
 * row three lines, "|  " mark (or "!"), ":  " name ("env-\\*" for the
 * prefix, escaped for scdoc), ":  " meaning word for word, each kind once,
 * in the table's order.
 */
static void test_man_legend(void **state)
{
	static const char *const head[] = { "[[ *mark*\n", ":[ *kind*\n", ":< *means*\n" };
	char line[2048], want[2048];
	FILE *f = fopen("doc/pinbench-marks.7.scd", "r");
	int in = 0, n = 0;

	(void)state;
	if (!f)
		fail_msg("doc/pinbench-marks.7.scd: missing (run from the top folder)");
	while (in < 3 && fgets(line, sizeof(line), f))
		in = !strcmp(line, head[in]) ? in + 1 : !strcmp(line, head[0]);
	assert_int_equal(in, 3);
	while (fgets(line, sizeof(line), f) && !strncmp(line, "|  ", 3)) {
		const struct pb_anomaly_kind_info *k;
		int prefix;

		if (n >= PB_AN_NR)
			fail_msg("marks legend: a row for no kind: %s", line);
		k = &pb_anomaly_kinds[n];
		prefix = k->name[strlen(k->name) - 1] == '-';
		snprintf(want, sizeof(want), "|  %s\n", k->mark ? k->mark : "!");
		assert_string_equal(line, want);
		assert_true(fgets(line, sizeof(line), f));
		snprintf(want, sizeof(want), ":  %s%s\n", k->name, prefix ? "\\*" : "");
		assert_string_equal(line, want);
		assert_true(fgets(line, sizeof(line), f));
		snprintf(want, sizeof(want), ":  %s\n", k->meaning);
		assert_string_equal(line, want);
		n++;
	}
	fclose(f);
	assert_int_equal(n, PB_AN_NR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_fields),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_truncate),
		cmocka_unit_test(test_truncate_utf8),
		cmocka_unit_test(test_sev),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_marks),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_man_legend),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
