// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign_state.c - a campaign's state file (report/campaign_state.h).
 * Every save is atomic (lib/file.c): a crash leaves the old state or the
 * new one, never half of one.  A load checks what the state machine
 * relies on (indexes in range, known names) and refuses anything else.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "lib/file.h"
#include "lib/util.h"
#include "report/campaign_state.h"

static json_t *kernel_json(const struct pb_camp_kernel *k)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s}", "name", k->name, "image", k->image,
			 "initrd", k->initrd, "cmdline", k->cmdline, "release", k->release);
}

static json_t *boot_json(const struct pb_campaign *c, int i)
{
	const struct pb_camp_boot *b = &c->boots[i];

	return json_pack("{s:s, s:s, s:i, s:s, s:s, s:s, s:s, s:I, s:I}",
			 "kernel", c->kernels[c->order[i]].name,
			 "outcome", pb_camp_outcome_name(b->outcome), "tries", b->tries,
			 "boot_id", b->boot_id, "release", b->release, "cmdline", b->cmdline,
			 "result", b->result, "started", (json_int_t)b->started,
			 "ended", (json_int_t)b->ended);
}

static json_t *camp_json(const struct pb_campaign *c)
{
	json_t *ks = json_array(), *order = json_array(), *boots = json_array();

	for (int i = 0; i < c->nr_kernels; i++)
		json_array_append_new(ks, kernel_json(&c->kernels[i]));
	for (int i = 0; i < c->nr_order; i++) {
		json_array_append_new(order, json_integer(c->order[i]));
		json_array_append_new(boots, boot_json(c, i));
	}
	return json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:i, s:i, s:s, s:I, s:b, s:s, s:s, "
			 "s:s, s:I}", "schema", PB_CAMP_SCHEMA, "name", c->name,
			 "state", pb_camp_state_name(c->state), "kernels", ks, "order", order,
			 "boots", boots, "cur", c->cur, "tries", c->tries,
			 "order_kind", c->random ? "random" : "abba", "seed",
			 (json_int_t)c->seed, "unit", c->unit, "switch", c->switch_cmd,
			 "results", c->results, "reason", c->reason, "created",
			 (json_int_t)c->created);
}

int pb_camp_save(const char *dir, const struct pb_campaign *c, char *err, size_t len)
{
	json_t *j = camp_json(c);
	char *s = j ? json_dumps(j, JSON_INDENT(1)) : NULL;
	char shown[PB_CAMP_PATH_MAX + 16];
	int dfd, rc = -1;

	json_decref(j);
	snprintf(shown, sizeof(shown), "%s/%s", dir, PB_CAMP_STATE_FILE);
	if (!s)
		return pb_errf(err, len, ENOMEM, "%s", shown);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		pb_errf(err, len, errno, "%s", dir);
	else
		rc = pb_file_save_at(dfd, PB_CAMP_STATE_FILE, shown, s, false, err, len) ? -1 : 0;
	if (dfd >= 0)
		close(dfd);
	free(s);
	return rc;
}

/* A string member into buf: 0, or -1 when missing, not a string or too long. */
static int get_str(json_t *o, const char *key, char *buf, size_t len)
{
	const char *s = json_string_value(json_object_get(o, key));

	if (!s || strlen(s) >= len)
		return -1;
	memcpy(buf, s, strlen(s) + 1);
	return 0;
}

static int get_int(json_t *o, const char *key, long min, long max, long *v)
{
	json_t *x = json_object_get(o, key);

	if (!json_is_integer(x) || json_integer_value(x) < min || json_integer_value(x) > max)
		return -1;
	*v = (long)json_integer_value(x);
	return 0;
}

static int load_kernel(json_t *o, struct pb_camp_kernel *k)
{
	return get_str(o, "name", k->name, sizeof(k->name)) ||
	       get_str(o, "image", k->image, sizeof(k->image)) ||
	       get_str(o, "initrd", k->initrd, sizeof(k->initrd)) ||
	       get_str(o, "cmdline", k->cmdline, sizeof(k->cmdline)) ||
	       get_str(o, "release", k->release, sizeof(k->release)) ? -1 : 0;
}

static int load_boot(json_t *o, struct pb_camp_boot *b)
{
	char s[32];
	long v;

	if (get_str(o, "outcome", s, sizeof(s)) || pb_camp_outcome_parse(s, &b->outcome) ||
	    get_int(o, "tries", 0, PB_CAMP_TRIES_MAX, &v))
		return -1;
	b->tries = (int)v;
	if (get_str(o, "boot_id", b->boot_id, sizeof(b->boot_id)) ||
	    get_str(o, "release", b->release, sizeof(b->release)) ||
	    get_str(o, "cmdline", b->cmdline, sizeof(b->cmdline)) ||
	    get_str(o, "result", b->result, sizeof(b->result)) ||
	    get_int(o, "started", 0, 1L << 40, &b->started) ||
	    get_int(o, "ended", 0, 1L << 40, &b->ended))
		return -1;
	return 0;
}

/* The kernels, the order and the boots: 0, or -1 with err. */
static int load_arrays(json_t *j, struct pb_campaign *c, char *err, size_t len)
{
	json_t *ks = json_object_get(j, "kernels"), *order = json_object_get(j, "order");
	json_t *boots = json_object_get(j, "boots");
	size_t i;

	c->nr_kernels = (int)json_array_size(ks);
	c->nr_order = (int)json_array_size(order);
	if (c->nr_kernels < 1 || c->nr_kernels > PB_CAMP_KERNELS_MAX || c->nr_order < 1 ||
	    c->nr_order > PB_CAMP_BOOTS_MAX || json_array_size(boots) != (size_t)c->nr_order)
		return pb_errf(err, len, 0, "the kernels, order or boots are missing or too many");
	for (i = 0; i < (size_t)c->nr_kernels; i++)
		if (load_kernel(json_array_get(ks, i), &c->kernels[i]))
			return pb_errf(err, len, 0, "kernel %zu is incomplete", i + 1);
	for (i = 0; i < (size_t)c->nr_order; i++) {
		json_t *o = json_array_get(order, i);

		if (!json_is_integer(o) || json_integer_value(o) < 0 ||
		    json_integer_value(o) >= c->nr_kernels)
			return pb_errf(err, len, 0, "order entry %zu is not a kernel", i + 1);
		c->order[i] = (int)json_integer_value(o);
		if (load_boot(json_array_get(boots, i), &c->boots[i]))
			return pb_errf(err, len, 0, "boot %zu is incomplete", i + 1);
	}
	return 0;
}

static int load_top(json_t *j, struct pb_campaign *c, char *err, size_t len)
{
	char s[32];
	long v;

	if (get_str(j, "schema", s, sizeof(s)) || strcmp(s, PB_CAMP_SCHEMA))
		return pb_errf(err, len, 0, "not a %s file", PB_CAMP_SCHEMA);
	if (get_str(j, "name", c->name, sizeof(c->name)) ||
	    get_str(j, "state", s, sizeof(s)) || pb_camp_state_parse(s, &c->state))
		return pb_errf(err, len, 0, "no name or state");
	if (load_arrays(j, c, err, len))
		return -1;
	if (get_int(j, "cur", 0, c->nr_order, &v))
		return pb_errf(err, len, 0, "cur is not a boot");
	c->cur = (int)v;
	if (get_int(j, "tries", 1, PB_CAMP_TRIES_MAX, &v))
		return pb_errf(err, len, 0, "tries is not 1..%d", PB_CAMP_TRIES_MAX);
	c->tries = (int)v;
	if (get_str(j, "order_kind", s, sizeof(s)) || get_int(j, "seed", 0, 0xffffffffL, &v) ||
	    !json_is_boolean(json_object_get(j, "unit")))
		return pb_errf(err, len, 0, "no order_kind, seed or unit");
	c->random = !strcmp(s, "random");
	c->seed = (unsigned long)v;
	c->unit = json_is_true(json_object_get(j, "unit"));
	if (get_str(j, "switch", c->switch_cmd, sizeof(c->switch_cmd)) ||
	    get_str(j, "results", c->results, sizeof(c->results)) ||
	    get_str(j, "reason", c->reason, sizeof(c->reason)) ||
	    get_int(j, "created", 0, 1L << 40, &c->created))
		return pb_errf(err, len, 0, "no switch, results, reason or created");
	return 0;
}

/* What the state machine assumes of cur for each state. */
static int check_cur(const struct pb_campaign *c, char *err, size_t len)
{
	bool ok = true;

	switch (c->state) {
	case PB_CAMP_PLANNED:
		ok = c->cur == 0;
		break;
	case PB_CAMP_RUNNING:
		ok = c->cur < c->nr_order && c->boots[c->cur].outcome == PB_BOOT_MEASURING;
		break;
	case PB_CAMP_SWITCHING:
		ok = c->cur > 0 && c->cur < c->nr_order;
		break;
	default:
		break;
	}
	return ok ? 0 : pb_errf(err, len, 0, "state %s at boot %d does not hold together",
				 pb_camp_state_name(c->state), c->cur + 1);
}

int pb_camp_load(const char *dir, struct pb_campaign *c, char *err, size_t len)
{
	char path[PB_CAMP_PATH_MAX + 16], why[PB_CAMP_PATH_MAX];
	json_error_t je;
	json_t *j;
	int rc;

	memset(c, 0, sizeof(*c));
	snprintf(path, sizeof(path), "%s/%s", dir, PB_CAMP_STATE_FILE);
	if (access(path, F_OK))
		return pb_errf(err, len, errno, "%s", path);
	j = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!j) {
		errno = EINVAL;
		return pb_errf(err, len, 0, "%s: cannot read: %s (line %d)", path, je.text,
			       je.line);
	}
	rc = load_top(j, c, why, sizeof(why)) || check_cur(c, why, sizeof(why)) ? -1 : 0;
	json_decref(j);
	if (rc) {
		errno = EINVAL;
		pb_errf(err, len, 0, "%s: %s", path, why);
	}
	return rc;
}
