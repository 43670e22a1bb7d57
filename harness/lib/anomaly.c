// SPDX-License-Identifier: GPL-2.0-only
/*
 * anomaly.c - a growing list of measurement anomalies.
 *
 * Strings are truncated to their fields and kept valid UTF-8 (a sequence
 * cut by truncation is dropped, stray bytes become '?'), so that the JSON
 * encoder, which insists on UTF-8, never refuses them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anomaly.h"

static const char *const sev_names[] = {
	[PB_SEV_INFO]	= "info",
	[PB_SEV_WARN]	= "warn",
	[PB_SEV_ERROR]	= "error",
};

static const struct {
	const char	*kind;
	const char	*mark;
} marks[] = {
	{ "counter-multiplexed",	"M" },
	{ "frequency-drift",		"D" },
	{ "frequency-low",		"L" },
	{ "counter-clock-mismatch",	"C" },
	{ "observer-effect",		"O" },
	{ "noisy-neighbor",		"N" },
	{ "noisy",			"V" },
	{ "migration",			"G" },
	{ "throttling",			"T" },
	{ "lost",			"X" },
	{ "shared-cpus",		"S" },
};

/* Length of the UTF-8 sequence starting with byte c; 0 if c cannot start one. */
static int utf8_len(unsigned char c)
{
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return 2;
	if (c >= 0xe0 && c <= 0xef)
		return 3;
	if (c >= 0xf0 && c <= 0xf4)
		return 4;
	return 0;
}

/*
 * Do the len - 1 bytes after s[0] continue it?  Also rejects overlong forms
 * and surrogates (which the JSON encoder refuses) when s[1] is there.
 */
static int utf8_ok(const unsigned char *s, int len)
{
	int i;

	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (len < 2)
		return 1;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f))
		return 0;
	return !((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f));
}

/*
 * Make s valid UTF-8 in place: a sequence cut at the end (truncation) is
 * dropped, any other invalid byte becomes '?'.
 */
static void utf8_fix(char *str)
{
	unsigned char *s = (unsigned char *)str;
	size_t i = 0, n = strlen(str);
	int len;

	while (i < n) {
		len = utf8_len(s[i]);
		if (len > 1 && i + len > n && utf8_ok(s + i, n - i)) {
			s[i] = '\0';	/* cut short by truncation */
			return;
		}
		if (len == 0 || i + len > n || !utf8_ok(s + i, len)) {
			s[i++] = '?';
			continue;
		}
		i += len;
	}
}

/* Room for nr + 1 entries; capacity is implicit: 8, 16, 32, ... */
static int grow(struct pb_anomalies *a)
{
	struct pb_anomaly *v;
	int cap = 8;

	while (cap < a->nr)
		cap *= 2;
	if (a->v && a->nr < cap)
		return 0;
	if (a->v)
		cap *= 2;
	v = realloc(a->v, cap * sizeof(*v));
	if (!v)
		return -1;
	a->v = v;
	return 0;
}

/* On allocation failure the anomaly is dropped (the call cannot fail). */
void pb_anomaly_add(struct pb_anomalies *a, const char *kind, enum pb_sev sev,
		    const char *advice, const char *fmt, ...)
{
	struct pb_anomaly *e;
	va_list ap;

	if (grow(a))
		return;
	e = &a->v[a->nr++];
	memset(e, 0, sizeof(*e));
	snprintf(e->kind, sizeof(e->kind), "%s", kind ? kind : "unknown");
	e->sev = sev;
	snprintf(e->advice, sizeof(e->advice), "%s", advice ? advice : "");
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	va_end(ap);
	utf8_fix(e->kind);
	utf8_fix(e->advice);
	utf8_fix(e->message);
}

void pb_anomalies_free(struct pb_anomalies *a)
{
	free(a->v);
	a->v = NULL;
	a->nr = 0;
}

const char *pb_sev_name(enum pb_sev sev)
{
	if ((unsigned int)sev >= sizeof(sev_names) / sizeof(sev_names[0]))
		return "unknown";
	return sev_names[sev];
}

int pb_sev_parse(const char *s)
{
	size_t i;

	if (!s)
		return -1;
	for (i = 0; i < sizeof(sev_names) / sizeof(sev_names[0]); i++)
		if (!strcmp(s, sev_names[i]))
			return i;
	return -1;
}

json_t *pb_anomalies_json(const struct pb_anomalies *a)
{
	json_t *arr = json_array(), *o;
	int i;

	if (!arr)
		return NULL;
	for (i = 0; a && i < a->nr; i++) {
		o = json_pack("{s:s, s:s, s:s, s:s}",
			      "kind", a->v[i].kind,
			      "severity", pb_sev_name(a->v[i].sev),
			      "message", a->v[i].message,
			      "advice", a->v[i].advice);
		if (!o || json_array_append_new(arr, o))
			goto fail;
	}
	return arr;
fail:
	json_decref(arr);
	return NULL;
}

const char *pb_anomaly_mark(const char *kind)
{
	size_t i;

	for (i = 0; kind && i < sizeof(marks) / sizeof(marks[0]); i++)
		if (!strcmp(kind, marks[i].kind))
			return marks[i].mark;
	return "!";
}
