// SPDX-License-Identifier: GPL-2.0-only
/* test_anomaly.c - anomaly list, severities, JSON, table marks. */
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
	pb_anomaly_add(&a, "counter-multiplexed", PB_SEV_WARN,
		       "use fewer events", "%s running %.1f%% of the time",
		       "cycles", 67.31);
	pb_anomaly_add(&a, "noisy", PB_SEV_INFO, NULL, "CV %.2f%%", 3.5);
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
		pb_anomaly_add(&a, "migration", i % 3, "pin it", "role %d moved", i);
	assert_int_equal(a.nr, 1000);
	for (i = 0; i < 1000; i++) {
		snprintf(want, sizeof(want), "role %d moved", i);
		assert_string_equal(a.v[i].message, want);
		assert_int_equal(a.v[i].sev, i % 3);
	}
	pb_anomalies_free(&a);
	/* reusable after free */
	pb_anomaly_add(&a, "lost", PB_SEV_ERROR, NULL, "%d datagrams lost", 3);
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
	pb_anomaly_add(&a, big, PB_SEV_ERROR, big, "%s%s", big, big);
	assert_int_equal(a.nr, 1);
	assert_int_equal(strlen(a.v[0].kind), sizeof(a.v[0].kind) - 1);
	assert_int_equal(strlen(a.v[0].message), sizeof(a.v[0].message) - 1);
	assert_int_equal(strlen(a.v[0].advice), sizeof(a.v[0].advice) - 1);
	assert_memory_equal(a.v[0].message, big, sizeof(a.v[0].message) - 1);
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
	pb_anomaly_add(&a, "noisy", PB_SEV_WARN, NULL, "%s\xc2\xb5s", pad);
	assert_int_equal(strlen(a.v[0].message), 318);
	pad[317] = '\0';
	pb_anomaly_add(&a, "noisy", PB_SEV_WARN, NULL, "%s\xc2\xb5s", pad);
	assert_int_equal(strlen(a.v[1].message), 319);
	assert_memory_equal(a.v[1].message + 317, "\xc2\xb5", 2);
	/* stray bytes (not UTF-8) become '?' */
	pb_anomaly_add(&a, "k\xff", PB_SEV_INFO, "a\x80z", "x\xc0\xafy \xed\xa0\x80.");
	assert_string_equal(a.v[2].kind, "k?");
	assert_string_equal(a.v[2].advice, "a?z");
	assert_string_equal(a.v[2].message, "x??y ???.");
	/* a well-formed multibyte message is left alone */
	pb_anomaly_add(&a, "frequency-drift", PB_SEV_WARN, NULL,
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
	static const char *const bad[] = {
		"", "warning", "WARN", "Info", "err", "error ", "fatal",
	};
	size_t i;
	int s;

	(void)state;
	assert_string_equal(pb_sev_name(PB_SEV_INFO), "info");
	assert_string_equal(pb_sev_name(PB_SEV_WARN), "warn");
	assert_string_equal(pb_sev_name(PB_SEV_ERROR), "error");
	for (s = PB_SEV_INFO; s <= PB_SEV_ERROR; s++)
		assert_int_equal(pb_sev_parse(pb_sev_name(s)), s);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(pb_sev_parse(bad[i]), -1);
	assert_int_equal(pb_sev_parse(NULL), -1);
	assert_string_equal(pb_sev_name((enum pb_sev)7), "unknown");
	assert_int_equal(pb_sev_parse(pb_sev_name((enum pb_sev)7)), -1);
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

	pb_anomaly_add(&a, "observer-effect", PB_SEV_ERROR,
		       "reboot; check for a stuck clock",
		       "reference loop %.3f s -> %.3f s (+%.0f%%)", 0.818, 1.122, 37.2);
	pb_anomaly_add(&a, "noisy-neighbor", PB_SEV_WARN, NULL,
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
	for (i = 0; i < 10; i++) {
		assert_int_equal(strlen(pb_anomaly_mark(tab[i].kind)), 1);
		for (j = 0; j < i; j++)
			assert_string_not_equal(pb_anomaly_mark(tab[i].kind),
						pb_anomaly_mark(tab[j].kind));
	}
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
