// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign.c - the campaign's state machine (core/campaign.h).
 *
 * Safety rules, each decided here and nowhere else: a step measures only
 * on the kernel the state expects (release and command line) and on a
 * boot_id the campaign has not seen; a boot that was being measured when
 * the step died is measured again at most c->tries times, then the
 * campaign stops; a switch is issued only after a measurement, and a step
 * that finds the machine still on the boot a switch left stops rather
 * than switching again.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/campaign.h"

static const char *const state_names[] = {
	[PB_CAMP_PLANNED] = "planned", [PB_CAMP_RUNNING] = "running",
	[PB_CAMP_SWITCHING] = "switching", [PB_CAMP_DONE] = "done",
	[PB_CAMP_STOPPED] = "stopped", [PB_CAMP_ABORTED] = "aborted",
};

static const char *const outcome_names[] = {
	[PB_BOOT_NONE] = "none", [PB_BOOT_MEASURING] = "measuring",
	[PB_BOOT_MEASURED] = "measured", [PB_BOOT_FAILED] = "failed",
};

#define NAMES_N(a)	((int)(sizeof(a) / sizeof((a)[0])))

const char *pb_camp_state_name(enum pb_camp_state s)
{
	return (int)s >= 0 && (int)s < NAMES_N(state_names) ? state_names[s] : "?";
}

static int name_parse(const char *const *names, int n, const char *s)
{
	for (int i = 0; s && i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

int pb_camp_state_parse(const char *s, enum pb_camp_state *v)
{
	int i = name_parse(state_names, NAMES_N(state_names), s);

	if (i < 0)
		return -1;
	*v = (enum pb_camp_state)i;
	return 0;
}

const char *pb_camp_outcome_name(enum pb_camp_outcome o)
{
	return (int)o >= 0 && (int)o < NAMES_N(outcome_names) ? outcome_names[o] : "?";
}

int pb_camp_outcome_parse(const char *s, enum pb_camp_outcome *v)
{
	int i = name_parse(outcome_names, NAMES_N(outcome_names), s);

	if (i < 0)
		return -1;
	*v = (enum pb_camp_outcome)i;
	return 0;
}

bool pb_camp_ended(const struct pb_campaign *c)
{
	return c->state == PB_CAMP_DONE || c->state == PB_CAMP_STOPPED ||
	       c->state == PB_CAMP_ABORTED;
}

/* splitmix64: the same order from the same seed on every libc */
static unsigned long long mix_next(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int pb_camp_order(struct pb_campaign *c, int boots)
{
	int k = c->nr_kernels, n = 0;
	unsigned long long s = c->seed;

	if (k < 1 || boots < 1 || boots > PB_CAMP_BOOTS_MAX / k)
		return -1;
	for (int r = 0; r < boots; r++)
		for (int i = 0; i < k; i++)
			c->order[n++] = r % 2 ? k - 1 - i : i;
	c->nr_order = n;
	if (!c->random)
		return 0;
	for (int i = 0; i < k; i++)	/* balanced: each kernel `boots` times */
		for (int r = 0; r < boots; r++)
			c->order[i * boots + r] = i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(mix_next(&s) % (unsigned long long)(i + 1));
		int t = c->order[i];

		c->order[i] = c->order[j];
		c->order[j] = t;
	}
	return 0;
}

/* A token a command line comparison leaves out: the boot loader's own. */
static bool token_skipped(const char *t, size_t n)
{
	return (n >= 11 && !strncmp(t, "BOOT_IMAGE=", 11)) || (n >= 7 && !strncmp(t, "initrd=", 7));
}

/* The next token of *s (spaces between), its length in *n; NULL at the end. */
static const char *token_next(const char **s, size_t *n)
{
	const char *t = *s + strspn(*s, " \t\n");

	if (!*t)
		return NULL;
	*n = strcspn(t, " \t\n");
	*s = t + *n;
	return t;
}

/* Is every token of a (but the skipped ones) somewhere in b? */
static bool tokens_within(const char *a, const char *b)
{
	const char *t, *u, *p = a, *q;
	size_t n, m;

	while ((t = token_next(&p, &n))) {
		bool found = token_skipped(t, n);

		for (q = b; !found && (u = token_next(&q, &m));)
			found = m == n && !strncmp(t, u, n);
		if (!found)
			return false;
	}
	return true;
}

bool pb_camp_cmdline_same(const char *have, const char *want)
{
	return tokens_within(have, want) && tokens_within(want, have);
}

int pb_camp_cmdline_make(const char *base, const char *append, char *buf, size_t len)
{
	const char *t, *p = base;
	size_t n, off = 0;

	if (!len)
		return -1;
	buf[0] = 0;
	while ((t = token_next(&p, &n))) {
		if (token_skipped(t, n))
			continue;
		if (off + n + 2 > len)
			return -1;
		off += (size_t)snprintf(buf + off, len - off, "%s%.*s", off ? " " : "", (int)n, t);
	}
	if (append && *append) {
		if (off + strlen(append) + 2 > len)
			return -1;
		snprintf(buf + off, len - off, "%s%s", off ? " " : "", append);
	}
	return 0;
}

int pb_camp_bzimage_release(const unsigned char *img, size_t n, char *rel, size_t len,
			    char *err, size_t elen)
{
	size_t at, end;

	if (n < 0x210 || memcmp(img + 0x202, "HdrS", 4)) {
		snprintf(err, elen, "not a bzImage (no \"HdrS\" setup header at 0x202)");
		return -1;
	}
	at = (size_t)(img[0x20e] | img[0x20f] << 8) + 0x200;
	if (at == 0x200 || at >= n) {
		snprintf(err, elen, "no kernel version string in the setup header");
		return -1;
	}
	for (end = at; end < n && img[end] > ' ' && img[end] < 0x7f; end++)
		;
	if (end == at || end - at >= len || end == n) {
		snprintf(err, elen, "the version string at 0x%zx is not a kernel release", at);
		return -1;
	}
	memcpy(rel, img + at, end - at);
	rel[end - at] = 0;
	return 0;
}

/* Has the campaign recorded a boot with this boot_id? */
static bool boot_seen(const struct pb_campaign *c, const char *id)
{
	for (int i = 0; i < c->nr_order; i++)
		if (c->boots[i].boot_id[0] && !strcmp(c->boots[i].boot_id, id))
			return true;
	return false;
}

static enum pb_camp_act stop(struct pb_campaign *c, char *why, size_t len, const char *fmt,
			     ...) __attribute__((format(printf, 4, 5)));

static enum pb_camp_act stop(struct pb_campaign *c, char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->reason, sizeof(c->reason), fmt, ap);
	va_end(ap);
	c->state = PB_CAMP_STOPPED;
	snprintf(why, len, "%s", c->reason);
	return PB_ACT_STOP;
}

/* Is the running kernel kernel k (its release, its command line)? */
static bool kernel_is(const struct pb_camp_kernel *k, const struct pb_camp_running *r)
{
	return !strcmp(r->release, k->release) && pb_camp_cmdline_same(r->cmdline, k->cmdline);
}

/* planned or switching: the boot the state expects, on a new boot_id. */
static enum pb_camp_act decide_new(struct pb_campaign *c, const struct pb_camp_running *r,
				   char *why, size_t len)
{
	const struct pb_camp_kernel *k = &c->kernels[c->order[c->cur]];
	struct pb_camp_boot *b = &c->boots[c->cur];

	if (c->state == PB_CAMP_SWITCHING && !strcmp(r->boot_id, c->boots[c->cur - 1].boot_id))
		return stop(c, why, len, "the switch to kernel %s did not happen: still boot %d's "
			    "boot_id %s (a switch is never issued twice)", k->name, c->cur,
			    r->boot_id);
	if (boot_seen(c, r->boot_id))
		return stop(c, why, len, "boot_id %s was recorded before in this campaign: not a "
			    "new boot", r->boot_id);
	if (!kernel_is(k, r))
		return stop(c, why, len, "kernel %s did not come up%s: running %s with cmdline "
			    "'%s' (expected %s with '%s')", k->name,
			    c->state == PB_CAMP_SWITCHING ? "" : " for boot 1", r->release,
			    r->cmdline, k->release, k->cmdline);
	memset(b, 0, sizeof(*b));
	b->outcome = PB_BOOT_MEASURING;
	b->tries = 1;
	snprintf(b->boot_id, sizeof(b->boot_id), "%s", r->boot_id);
	snprintf(b->release, sizeof(b->release), "%s", r->release);
	snprintf(b->cmdline, sizeof(b->cmdline), "%s", r->cmdline);
	b->started = r->now;
	c->state = PB_CAMP_RUNNING;
	snprintf(why, len, "boot %d of %d: kernel %s, measuring", c->cur + 1, c->nr_order,
		 k->name);
	return PB_ACT_MEASURE;
}

/* running: the step that measured boot cur died, or a step runs again. */
static enum pb_camp_act decide_again(struct pb_campaign *c, const struct pb_camp_running *r,
				     char *why, size_t len)
{
	struct pb_camp_boot *b = &c->boots[c->cur];
	const char *name = c->kernels[c->order[c->cur]].name;

	if (strcmp(r->boot_id, b->boot_id))
		return stop(c, why, len, "boot %d (kernel %s, boot_id %s) rebooted before its "
			    "measurement ended: now boot_id %s", c->cur + 1, name, b->boot_id,
			    r->boot_id);
	if (b->tries >= c->tries)
		return stop(c, why, len, "boot %d (kernel %s): the measurement did not finish in "
			    "%d tries", c->cur + 1, name, b->tries);
	b->tries++;
	b->started = r->now;
	snprintf(why, len, "boot %d of %d: kernel %s, the measurement did not finish: try %d "
		 "of %d", c->cur + 1, c->nr_order, name, b->tries, c->tries);
	return PB_ACT_RESUME;
}

enum pb_camp_act pb_camp_decide(struct pb_campaign *c, const struct pb_camp_running *r,
				char *why, size_t len)
{
	switch (c->state) {
	case PB_CAMP_PLANNED:
	case PB_CAMP_SWITCHING:
		return decide_new(c, r, why, len);
	case PB_CAMP_RUNNING:
		return decide_again(c, r, why, len);
	case PB_CAMP_DONE:
		snprintf(why, len, "campaign %s is done: nothing to do", c->name);
		break;
	case PB_CAMP_ABORTED:
		snprintf(why, len, "campaign %s was aborted: nothing to do", c->name);
		break;
	case PB_CAMP_STOPPED:
		snprintf(why, len, "campaign %s stopped: %s", c->name, c->reason);
		break;
	}
	return PB_ACT_NONE;
}

bool pb_camp_measured(struct pb_campaign *c, bool ok, int rc, const char *result, long now)
{
	struct pb_camp_boot *b = &c->boots[c->cur];

	b->ended = now;
	if (result)
		snprintf(b->result, sizeof(b->result), "%s", result);
	if (!ok) {
		b->outcome = PB_BOOT_FAILED;
		snprintf(c->reason, sizeof(c->reason), "boot %d (kernel %s): the job's run failed "
			 "(exit %d)", c->cur + 1, c->kernels[c->order[c->cur]].name, rc);
		c->state = PB_CAMP_STOPPED;
		return false;
	}
	b->outcome = PB_BOOT_MEASURED;
	c->cur++;
	c->state = c->cur < c->nr_order ? PB_CAMP_SWITCHING : PB_CAMP_DONE;
	return c->state == PB_CAMP_SWITCHING;
}

void pb_camp_switch_failed(struct pb_campaign *c, int rc)
{
	snprintf(c->reason, sizeof(c->reason), "the switch to kernel %s failed (exit %d)",
		 c->kernels[c->order[c->cur]].name, rc);
	c->state = PB_CAMP_STOPPED;
}

void pb_camp_switch_refused(struct pb_campaign *c, const char *why)
{
	snprintf(c->reason, sizeof(c->reason), "no switch to kernel %s: %s",
		 c->kernels[c->order[c->cur]].name, why);
	c->state = PB_CAMP_STOPPED;
}

int pb_camp_abort(struct pb_campaign *c)
{
	if (pb_camp_ended(c))
		return -1;
	c->state = PB_CAMP_ABORTED;
	return 0;
}

/* s single-quoted for sh into buf at *off: false when it does not fit. */
static bool quote(const char *s, char *buf, size_t len, size_t *off)
{
	if (*off + 2 >= len)
		return false;
	buf[(*off)++] = '\'';
	for (; *s; s++) {
		const char *piece = *s == '\'' ? "'\\''" : NULL;
		size_t n = piece ? 4 : 1;

		if (*off + n + 2 >= len)
			return false;
		memcpy(buf + *off, piece ? piece : s, n);
		*off += n;
	}
	buf[(*off)++] = '\'';
	buf[*off] = 0;
	return true;
}

/* The placeholder at t (after '{') into buf: its length with '}', or 0 if none. */
static size_t expand_one(const char *t, const struct pb_camp_kernel *k, char *buf, size_t len,
			 size_t *off, bool *ok)
{
	static const char *const names[] = { "image}", "initrd}", "cmdline}", "kernel}",
					      "initrd_opt}" };
	const char *vals[] = { k->image, k->initrd, k->cmdline, k->name, k->initrd };

	for (int i = 0; i < NAMES_N(names); i++) {
		size_t n = strlen(names[i]);

		if (strncmp(t, names[i], n))
			continue;
		if (i == 4 && !k->initrd[0])
			return n;
		if (i == 4) {
			*ok = *off + 9 < len;
			if (*ok)
				*off += (size_t)snprintf(buf + *off, len - *off, "--initrd=");
		}
		*ok = *ok && quote(vals[i], buf, len, off);
		return n;
	}
	return 0;
}

int pb_camp_switch_cmd(const char *tmpl, const struct pb_camp_kernel *k, char *buf, size_t len)
{
	size_t off = 0, n;
	bool ok = true;

	for (const char *t = tmpl; *t && ok; t++) {
		if (*t == '{' && (n = expand_one(t + 1, k, buf, len, &off, &ok))) {
			t += n;
			continue;
		}
		ok = off + 1 < len;
		if (ok) {
			buf[off++] = *t;
			buf[off] = 0;
		}
	}
	if (len)
		buf[ok ? off : 0] = 0;
	return ok ? 0 : -1;
}
