// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_campaign.c - the campaign's state machine (core/campaign.c) and its
 * state file (report/campaign_state.c): the boot orders (abba, a seeded
 * balanced shuffle), the command line's token set, a bzImage's release
 * from a tiny fake image, the switch command's placeholders, every
 * transition of a step, and a crash between any two writes of a step:
 * the state on disk then makes the next step resume or stop with a
 * reason, never measure a boot twice past --tries nor switch twice.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/campaign.h"
#include "report/campaign_state.h"

#define CMD_A	"root=/dev/vda ro quiet"
#define CMD_B	"root=/dev/vda ro quiet mitigations=off"

static struct pb_campaign *camp(int boots)
{
	struct pb_campaign *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	snprintf(c->name, sizeof(c->name), "t");
	c->nr_kernels = 2;
	c->tries = 2;
	snprintf(c->kernels[0].name, sizeof(c->kernels[0].name), "A");
	snprintf(c->kernels[1].name, sizeof(c->kernels[1].name), "B");
	for (int i = 0; i < 2; i++) {
		snprintf(c->kernels[i].release, sizeof(c->kernels[i].release), "6.1.0-13-amd64");
		snprintf(c->kernels[i].image, sizeof(c->kernels[i].image), "/boot/vmlinuz");
		snprintf(c->kernels[i].cmdline, sizeof(c->kernels[i].cmdline), "%s",
			 i ? CMD_B : CMD_A);
	}
	snprintf(c->switch_cmd, sizeof(c->switch_cmd), "%s", PB_CAMP_SWITCH_DEFAULT);
	snprintf(c->results, sizeof(c->results), "/tmp/r");
	assert_int_equal(pb_camp_order(c, boots), 0);
	return c;
}

/* A boot of kernel A or B (its cmdline as /proc/cmdline shows it) with boot_id id. */
static struct pb_camp_running boot(char which, const char *id)
{
	struct pb_camp_running r = {
		.boot_id = id, .release = "6.1.0-13-amd64", .now = 1000,
		.cmdline = which == 'A' ? "BOOT_IMAGE=/vmlinuz " CMD_A : CMD_B " initrd=/x",
	};

	return r;
}

static enum pb_camp_act decide(struct pb_campaign *c, char which, const char *id)
{
	struct pb_camp_running r = boot(which, id);
	char why[PB_CAMP_REASON_MAX + 64];

	return pb_camp_decide(c, &r, why, sizeof(why));
}

static void test_order_abba(void **state)
{
	struct pb_campaign *c = camp(2);
	const int want2[] = { 0, 1, 1, 0 }, want3[] = { 0, 1, 1, 0, 0, 1 };

	(void)state;
	assert_int_equal(c->nr_order, 4);
	assert_memory_equal(c->order, want2, sizeof(want2));
	assert_int_equal(pb_camp_order(c, 3), 0);
	assert_int_equal(c->nr_order, 6);
	assert_memory_equal(c->order, want3, sizeof(want3));
	c->nr_kernels = 3;
	assert_int_equal(pb_camp_order(c, 2), 0);
	assert_int_equal(c->order[2], 2);
	assert_int_equal(c->order[3], 2);
	assert_int_equal(c->order[5], 0);
	assert_int_equal(pb_camp_order(c, 0), -1);
	c->nr_kernels = 2;
	assert_int_equal(pb_camp_order(c, PB_CAMP_BOOTS_MAX / 2 + 1), -1);
	assert_int_equal(pb_camp_order(c, PB_CAMP_BOOTS_MAX / 2), 0);
	free(c);
}

static void test_order_random(void **state)
{
	struct pb_campaign *c = camp(1), *d = camp(1);
	int count[2] = { 0 }, differs = 0;

	(void)state;
	c->random = d->random = true;
	c->seed = d->seed = 42;
	assert_int_equal(pb_camp_order(c, 10), 0);
	assert_int_equal(pb_camp_order(d, 10), 0);
	assert_int_equal(c->nr_order, 20);
	assert_memory_equal(c->order, d->order, sizeof(c->order));	/* the seed's order */
	for (int i = 0; i < c->nr_order; i++)
		count[c->order[i]]++;
	assert_int_equal(count[0], 10);		/* balanced */
	assert_int_equal(count[1], 10);
	d->seed = 43;
	assert_int_equal(pb_camp_order(d, 10), 0);
	for (int i = 0; i < c->nr_order; i++)
		differs += c->order[i] != d->order[i];
	assert_true(differs > 0);
	free(c);
	free(d);
}

static void test_cmdline(void **state)
{
	char buf[128];

	(void)state;
	assert_true(pb_camp_cmdline_same("BOOT_IMAGE=/v root=/dev/sda  ro", "ro root=/dev/sda"));
	assert_true(pb_camp_cmdline_same("a b initrd=/i", "b a"));
	assert_false(pb_camp_cmdline_same("a b", "a b c"));
	assert_false(pb_camp_cmdline_same("a b c", "a b"));
	assert_false(pb_camp_cmdline_same("a mitigations=off", "a mitigations=auto"));
	assert_int_equal(pb_camp_cmdline_make("BOOT_IMAGE=/v root=/x initrd=/i ro", "q=1", buf,
					      sizeof(buf)), 0);
	assert_string_equal(buf, "root=/x ro q=1");
	assert_int_equal(pb_camp_cmdline_make("", "q=1", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "q=1");
	assert_int_equal(pb_camp_cmdline_make("root=/x", NULL, buf, 4), -1);
}

/* A tiny fake bzImage written to a file and read back, as init reads one. */
static size_t fake_image(unsigned char *img, size_t n, const char *magic, unsigned ptr,
			 const char *version)
{
	char path[] = "/tmp/pb-test-bzimage.XXXXXX";
	int fd = mkstemp(path);
	ssize_t got;

	memset(img, 0, n);
	memcpy(img + 0x202, magic, 4);
	img[0x20e] = ptr & 0xff;
	img[0x20f] = ptr >> 8;
	if (version)
		memcpy(img + ptr + 0x200, version, strlen(version) + 1);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, img, n), (ssize_t)n);
	memset(img, 0xff, n);
	got = pread(fd, img, n, 0);
	close(fd);
	unlink(path);
	return (size_t)got;
}

static void test_bzimage(void **state)
{
	unsigned char img[0x800];
	char rel[65], err[128];
	size_t n;

	(void)state;
	n = fake_image(img, sizeof(img), "HdrS", 0x100, "6.1.0-13-amd64 (debian-kernel@lists) #1");
	assert_int_equal(pb_camp_bzimage_release(img, n, rel, sizeof(rel), err, sizeof(err)), 0);
	assert_string_equal(rel, "6.1.0-13-amd64");
	n = fake_image(img, sizeof(img), "HdrX", 0x100, "6.1.0");
	assert_int_equal(pb_camp_bzimage_release(img, n, rel, sizeof(rel), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a bzImage"));
	n = fake_image(img, sizeof(img), "HdrS", 0x700, NULL);	/* points past the end */
	assert_int_equal(pb_camp_bzimage_release(img, n, rel, sizeof(rel), err, sizeof(err)), -1);
	n = fake_image(img, sizeof(img), "HdrS", 0, NULL);
	assert_int_equal(pb_camp_bzimage_release(img, n, rel, sizeof(rel), err, sizeof(err)), -1);
	assert_int_equal(pb_camp_bzimage_release(img, 0x100, rel, sizeof(rel), err, sizeof(err)),
			 -1);
}

static void test_switch_cmd(void **state)
{
	struct pb_campaign *c = camp(2);
	struct pb_camp_kernel *k = &c->kernels[1];
	char buf[512];

	(void)state;
	assert_int_equal(pb_camp_switch_cmd(c->switch_cmd, k, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "kexec -l '/boot/vmlinuz'  --append='" CMD_B "' && systemctl kexec");
	snprintf(k->initrd, sizeof(k->initrd), "/boot/it's");
	assert_int_equal(pb_camp_switch_cmd("x {initrd_opt} {initrd} {kernel} {other}", k, buf,
					    sizeof(buf)), 0);
	assert_string_equal(buf, "x --initrd='/boot/it'\\''s' '/boot/it'\\''s' 'B' {other}");
	assert_int_equal(pb_camp_switch_cmd(c->switch_cmd, k, buf, 20), -1);
	assert_string_equal(buf, "");
	free(c);
}

/* A whole campaign: A B B A, each boot measured, then done. */
static void test_whole(void **state)
{
	struct pb_campaign *c = camp(2);
	const char *ids[] = { "id-1", "id-2", "id-3", "id-4" };
	const char which[] = "ABBA";

	(void)state;
	assert_int_equal(c->state, PB_CAMP_PLANNED);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(decide(c, which[i], ids[i]), PB_ACT_MEASURE);
		assert_int_equal(c->state, PB_CAMP_RUNNING);
		assert_int_equal(c->boots[i].outcome, PB_BOOT_MEASURING);
		assert_string_equal(c->boots[i].boot_id, ids[i]);
		assert_int_equal(pb_camp_measured(c, true, 0, "r.json", 2000), i < 3);
		assert_int_equal(c->boots[i].outcome, PB_BOOT_MEASURED);
		assert_string_equal(c->boots[i].result, "r.json");
		assert_int_equal(c->state, i < 3 ? PB_CAMP_SWITCHING : PB_CAMP_DONE);
	}
	assert_int_equal(decide(c, 'A', "id-5"), PB_ACT_NONE);
	assert_int_equal(c->state, PB_CAMP_DONE);
	assert_int_equal(pb_camp_abort(c), -1);
	assert_int_equal(c->state, PB_CAMP_DONE);
	free(c);
}

/* The stops: each leaves the state stopped with its reason. */
static void test_stops(void **state)
{
	struct pb_campaign *c = camp(2);
	struct pb_camp_running r;
	char why[PB_CAMP_REASON_MAX + 64];

	(void)state;
	assert_int_equal(decide(c, 'B', "id-1"), PB_ACT_STOP);	/* boot 1 wants A */
	assert_int_equal(c->state, PB_CAMP_STOPPED);
	assert_non_null(strstr(c->reason, "kernel A did not come up for boot 1"));
	assert_int_equal(decide(c, 'A', "id-2"), PB_ACT_NONE);	/* stopped stays stopped */
	free(c);

	c = camp(2);
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_MEASURE);
	assert_true(pb_camp_measured(c, true, 0, NULL, 1));
	r = boot('A', "id-2");				/* came back on A, not B */
	assert_int_equal(pb_camp_decide(c, &r, why, sizeof(why)), PB_ACT_STOP);
	assert_non_null(strstr(why, "kernel B did not come up: running 6.1.0-13-amd64 with "
			       "cmdline 'BOOT_IMAGE=/vmlinuz " CMD_A "'"));
	free(c);

	c = camp(2);					/* another release */
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_MEASURE);
	assert_true(pb_camp_measured(c, true, 0, NULL, 1));
	r = boot('B', "id-2");
	r.release = "6.6.0";
	assert_int_equal(pb_camp_decide(c, &r, why, sizeof(why)), PB_ACT_STOP);
	free(c);

	c = camp(2);					/* a boot_id seen before */
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_MEASURE);
	assert_true(pb_camp_measured(c, true, 0, NULL, 1));
	assert_int_equal(decide(c, 'B', "id-2"), PB_ACT_MEASURE);
	assert_true(pb_camp_measured(c, true, 0, NULL, 1));
	assert_int_equal(decide(c, 'B', "id-1"), PB_ACT_STOP);
	assert_non_null(strstr(c->reason, "boot_id id-1 was recorded before"));
	free(c);

	c = camp(2);					/* the run failed */
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_MEASURE);
	assert_false(pb_camp_measured(c, false, 1, "r.json", 1));
	assert_int_equal(c->state, PB_CAMP_STOPPED);
	assert_int_equal(c->boots[0].outcome, PB_BOOT_FAILED);
	assert_int_equal(c->cur, 0);
	assert_non_null(strstr(c->reason, "the job's run failed (exit 1)"));
	free(c);

	c = camp(2);					/* the switch failed */
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_MEASURE);
	assert_true(pb_camp_measured(c, true, 0, NULL, 1));
	pb_camp_switch_failed(c, 127);
	assert_int_equal(c->state, PB_CAMP_STOPPED);
	assert_non_null(strstr(c->reason, "the switch to kernel B failed (exit 127)"));
	free(c);
}

/* A step again on the same boot: resumes up to --tries runs, then stops. */
static void test_tries(void **state)
{
	struct pb_campaign *c = camp(2);

	(void)state;
	c->tries = 3;
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_MEASURE);
	assert_int_equal(c->boots[0].tries, 1);
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_RESUME);
	assert_int_equal(c->boots[0].tries, 2);
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_RESUME);
	assert_int_equal(c->boots[0].tries, 3);
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_STOP);
	assert_non_null(strstr(c->reason, "did not finish in 3 tries"));
	free(c);

	c = camp(2);		/* a reboot in the middle of a measurement */
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_MEASURE);
	assert_int_equal(decide(c, 'A', "id-2"), PB_ACT_STOP);
	assert_non_null(strstr(c->reason, "rebooted before its measurement ended"));
	free(c);
}

static void test_abort(void **state)
{
	for (enum pb_camp_state s = PB_CAMP_PLANNED; s <= PB_CAMP_ABORTED; s++) {
		struct pb_campaign *c = camp(2);

		(void)state;
		c->state = s;
		assert_int_equal(pb_camp_abort(c), s <= PB_CAMP_SWITCHING ? 0 : -1);
		assert_int_equal(c->state, s <= PB_CAMP_SWITCHING ? PB_CAMP_ABORTED : s);
		if (c->state == PB_CAMP_ABORTED)
			assert_int_equal(decide(c, 'A', "id-9"), PB_ACT_NONE);
		free(c);
	}
}

/* A scratch folder for state files. */
static void scratch(char *dir, size_t len)
{
	snprintf(dir, len, "/tmp/pb-test-campaign.XXXXXX");
	assert_non_null(mkdtemp(dir));
}

static void clean(const char *dir)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/state.json", dir);
	unlink(path);
	rmdir(dir);
}

/* The state as the next step finds it: saved, then loaded (the process died between). */
static struct pb_campaign *crash(const char *dir, struct pb_campaign *c)
{
	struct pb_campaign *d = calloc(1, sizeof(*d));
	char err[512];

	assert_int_equal(pb_camp_save(dir, c, err, sizeof(err)), 0);
	free(c);
	if (pb_camp_load(dir, d, err, sizeof(err)))
		fail_msg("load: %s", err);
	return d;
}

static void test_state_file(void **state)
{
	struct pb_campaign *c = camp(2), *d = calloc(1, sizeof(*d));
	char dir[64], err[512], path[128];
	FILE *f;

	(void)state;
	scratch(dir, sizeof(dir));
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_MEASURE);
	assert_true(pb_camp_measured(c, true, 3, "/r/A/x.json", 77));
	assert_int_equal(pb_camp_save(dir, c, err, sizeof(err)), 0);
	assert_int_equal(pb_camp_load(dir, d, err, sizeof(err)), 0);
	assert_int_equal(memcmp(c, d, sizeof(*c)), 0);	/* every field comes back */
	snprintf(path, sizeof(path), "%s/state.json", dir);
	f = fopen(path, "w");				/* running, with no boot measuring */
	assert_non_null(f);
	fputs("{\"schema\": \"pinbench-campaign/1\", \"name\": \"t\", \"state\": \"running\", "
	      "\"kernels\": [{\"name\": \"A\", \"image\": \"i\", \"initrd\": \"\", \"cmdline\": "
	      "\"\", \"release\": \"r\"}], \"order\": [0], \"boots\": [{\"kernel\": \"A\", "
	      "\"outcome\": \"none\", \"tries\": 0, \"boot_id\": \"\", \"release\": \"\", "
	      "\"cmdline\": \"\", \"result\": \"\", \"started\": 0, \"ended\": 0}], \"cur\": 0, "
	      "\"tries\": 2, \"order_kind\": \"abba\", \"seed\": 0, \"unit\": false, \"switch\": "
	      "\"\", \"results\": \"\", \"reason\": \"\", \"created\": 0}", f);
	fclose(f);
	assert_int_equal(pb_camp_load(dir, d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "does not hold together"));
	clean(dir);
	assert_int_equal(pb_camp_load(dir, d, err, sizeof(err)), -1);
	free(c);
	free(d);
}

/*
 * A crash between any two writes of a step.  A step writes the state
 * (1) when it begins a boot's run, (2) when the run ended (switching, or
 * done, or stopped), (3) when the switch command failed.  Killed after
 * (1): the next step on that boot resumes, until --tries, then stops.
 * Killed after (2) before the switch happened: the next step on that boot
 * stops (never a second switch).  Killed before (1): nothing happened.
 */
static void test_crash_points(void **state)
{
	struct pb_campaign *c = camp(2);
	char dir[64];

	(void)state;
	scratch(dir, sizeof(dir));
	c = crash(dir, c);					/* before (1) */
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_MEASURE);
	c = crash(dir, c);					/* after (1) */
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_RESUME);
	assert_int_equal(c->boots[0].tries, 2);
	c = crash(dir, c);					/* after (1) again */
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_STOP);
	c = crash(dir, c);
	assert_int_equal(c->state, PB_CAMP_STOPPED);
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_NONE);
	free(c);

	c = camp(2);
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_MEASURE);
	assert_true(pb_camp_measured(c, true, 0, "r", 1));
	c = crash(dir, c);					/* after (2) */
	assert_int_equal(c->state, PB_CAMP_SWITCHING);
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_STOP);	/* the switch did not happen */
	assert_non_null(strstr(c->reason, "the switch to kernel B did not happen"));
	free(c);

	c = camp(2);
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_MEASURE);
	assert_true(pb_camp_measured(c, true, 0, "r", 1));
	c = crash(dir, c);					/* after (2): it happened */
	assert_int_equal(decide(c, 'B', "id-2"), PB_ACT_MEASURE);
	pb_camp_measured(c, false, 1, NULL, 2);
	c = crash(dir, c);					/* a failed run's (2) */
	assert_int_equal(decide(c, 'B', "id-2"), PB_ACT_NONE);
	assert_int_equal(c->boots[0].outcome, PB_BOOT_MEASURED);	/* what was measured stays */
	pb_camp_switch_failed(c, 1);
	free(c);

	c = camp(2);
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_MEASURE);
	assert_true(pb_camp_measured(c, true, 0, "r", 1));
	pb_camp_switch_failed(c, 1);
	c = crash(dir, c);					/* after (3) */
	assert_int_equal(decide(c, 'A', "id-1"), PB_ACT_NONE);
	assert_int_equal(decide(c, 'B', "id-2"), PB_ACT_NONE);
	free(c);
	clean(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_abba),
		cmocka_unit_test(test_order_random),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_bzimage),
		cmocka_unit_test(test_switch_cmd),
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_stops),
		cmocka_unit_test(test_tries),
		cmocka_unit_test(test_abort),
		cmocka_unit_test(test_state_file),
		cmocka_unit_test(test_crash_points),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
