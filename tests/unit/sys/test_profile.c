// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_profile.c - the profile pass's pieces without the host: ring
 * records as recorded bytes (samples, chains with context markers, lost
 * records, malformed ones), kernel symbols from a fake kallsyms (modules,
 * kptr_restrict's zeros), stacks as text with unresolved frames counted,
 * folding and its bound, and samples turned into ns per op.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "fs_fixture.h"
#include "skip.h"
#include "sys/fold.h"
#include "sys/sample.h"
#include "sys/symbols.h"
#include "sys/sysfs.h"

/* ---- ring records ---- */

struct rec {
	struct perf_event_header	h;
	uint64_t			w[16];
};

/* A sample record: ip, pid/tid, period, then the chain of n entries. */
static size_t make_sample(struct rec *r, const uint64_t *chain, int n)
{
	r->h = (struct perf_event_header){ .type = PERF_RECORD_SAMPLE };
	r->w[0] = chain[n > 1 ? 1 : 0];
	r->w[1] = (uint64_t)42 << 32 | 41;
	r->w[2] = 250000;
	r->w[3] = (uint64_t)n;
	memcpy(&r->w[4], chain, n * sizeof(*chain));
	r->h.size = (uint16_t)(sizeof(r->h) + (4 + n) * 8);
	return r->h.size;
}

static void test_parse_sample(void **state)
{
	const uint64_t chain[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000100ull,
				   0xffffffff81000200ull, PERF_CONTEXT_USER, 0x401000 };
	struct pb_sample s;
	struct rec r;
	uint64_t lost = 0;
	size_t n = make_sample(&r, chain, 5);

	(void)state;
	assert_int_equal(pb_sample_parse(&r, n, &s, &lost), PERF_RECORD_SAMPLE);
	assert_int_equal(s.pid, 41);
	assert_int_equal(s.tid, 42);
	assert_int_equal(s.period, 250000);
	assert_int_equal(s.nr, 3);	/* the markers are no frames */
	assert_true(s.pc[0] == 0xffffffff81000100ull && s.kernel[0]);
	assert_true(s.pc[1] == 0xffffffff81000200ull && s.kernel[1]);
	assert_true(s.pc[2] == 0x401000 && !s.kernel[2]);
}

static void test_parse_lost_and_others(void **state)
{
	struct rec r = { .h = { .type = PERF_RECORD_LOST, .size = sizeof(r.h) + 16 },
			 .w = { 7, 13 } };
	struct pb_sample s;
	uint64_t lost = 0;

	(void)state;
	assert_int_equal(pb_sample_parse(&r, r.h.size, &s, &lost), PERF_RECORD_LOST);
	assert_int_equal(lost, 13);
	r.h.type = PERF_RECORD_COMM;
	assert_int_equal(pb_sample_parse(&r, r.h.size, &s, &lost), PERF_RECORD_COMM);
}

static void test_parse_malformed(void **state)
{
	const uint64_t chain[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000100ull };
	struct pb_sample s;
	struct rec r;
	uint64_t lost;
	size_t n = make_sample(&r, chain, 2);

	(void)state;
	assert_int_equal(pb_sample_parse(&r, n - 1, &s, &lost), -1);	/* cut short */
	r.w[3] = 3;		/* one entry more than the record holds */
	assert_int_equal(pb_sample_parse(&r, n, &s, &lost), -1);
	r.w[3] = 1000;						/* chain past the end */
	assert_int_equal(pb_sample_parse(&r, n, &s, &lost), -1);
	r.h.size = 4;
	assert_int_equal(pb_sample_parse(&r, n, &s, &lost), -1);
}

/* ---- kallsyms ---- */

static char root[256];

static int sysroot_up(void **state)
{
	(void)state;
	assert_int_equal(fixture_tmpdir(root, "profile"), 0);
	fixture_write(root, "proc/kallsyms",
		      "ffffffff81000000 T _stext\n"
		      "ffffffff81000100 t pipe_read\n"
		      "ffffffff81000180 d some_data\n"
		      "ffffffff81000200 T schedule\n"
		      "ffffffffc0001000 t veth_xmit\t[veth]\n");
	fixture_write(root, "proc/sys/kernel/kptr_restrict", "1\n");
	fixture_write(root, "proc/sys/kernel/perf_event_paranoid", "2\n");
	setenv(PB_SYSROOT_ENV, root, 1);
	return 0;
}

static int sysroot_down(void **state)
{
	(void)state;
	unsetenv(PB_SYSROOT_ENV);
	return fixture_tmpdir_remove(root);
}

static void test_ksyms(void **state)
{
	char note[256];
	struct pb_ksyms *k = pb_ksyms_load(note, sizeof(note));

	(void)state;
	assert_non_null(k);
	assert_string_equal(note, "");
	assert_string_equal(pb_ksyms_find(k, 0xffffffff81000100ull), "pipe_read");
	/* data symbols are no functions: pipe_read goes on to schedule */
	assert_string_equal(pb_ksyms_find(k, 0xffffffff810001c0ull), "pipe_read");
	assert_string_equal(pb_ksyms_find(k, 0xffffffff81000234ull), "schedule");
	assert_string_equal(pb_ksyms_find(k, 0xffffffffc0001010ull), "veth_xmit");
	assert_null(pb_ksyms_find(k, 0xffffffff80000000ull));		/* below */
	assert_null(pb_ksyms_find(k, 0xffffffffc0001000ull + (2u << 20)));	/* far past */
	pb_ksyms_free(k);
}

static void test_ksyms_hidden(void **state)
{
	char note[300];

	(void)state;
	fixture_write(root, "proc/kallsyms",
		      "0000000000000000 T _stext\n"
		      "0000000000000000 t pipe_read\n");
	assert_null(pb_ksyms_load(note, sizeof(note)));
	assert_non_null(strstr(note, "kptr_restrict=1"));
	assert_non_null(strstr(note, "perf_event_paranoid=2"));
	unlink(strcat(strcpy(note, root), "/proc/kallsyms"));
	assert_null(pb_ksyms_load(note, sizeof(note)));
	assert_non_null(strstr(note, "unreadable"));
}

static void test_stack_text(void **state)
{
	/* a caller's return address right after its call: schedule's first byte */
	const uint64_t chain[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000210ull,
				   0xffffffff81000200ull, 0xffffffff70000000ull,
				   PERF_CONTEXT_USER, 0x10 };
	struct pb_unresolved un = { 0 };
	char note[256], buf[512];
	struct pb_ksyms *k = pb_ksyms_load(note, sizeof(note));
	struct pb_sample s;
	struct rec r;
	uint64_t lost;

	(void)state;
	assert_int_equal(pb_sample_parse(&r, make_sample(&r, chain, 6), &s, &lost),
			 PERF_RECORD_SAMPLE);
	pb_stack_text(&s, k, NULL, buf, sizeof(buf), &un);
	assert_string_equal(buf, "[unknown];[unknown];pipe_read;schedule");
	assert_int_equal(un.kernel, 1);
	assert_int_equal(un.user, 1);
	assert_int_equal(un.frames, 4);
	memset(&un, 0, sizeof(un));
	pb_stack_text(&s, NULL, NULL, buf, sizeof(buf), &un);	/* hidden kernel */
	assert_string_equal(buf, "[unknown];[kernel];[kernel];[kernel]");
	assert_int_equal(un.kernel, 3);
	pb_ksyms_free(k);
}

/* ---- folding ---- */

static void test_fold_bound(void **state)
{
	struct pb_fold f = { 0 };
	char *t;

	(void)state;
	assert_int_equal(pb_fold_add(&f, "main;read;pipe_read", 600), 0);
	pb_fold_add(&f, "main;write;pipe_write", 300);
	pb_fold_add(&f, "main;read;pipe_read", 90);
	for (int i = 0; i < 10; i++) {	/* ten stacks of one sample */
		char s[32];

		snprintf(s, sizeof(s), "main;rare%d", i);
		pb_fold_add(&f, s, 1);
	}
	pb_fold_bound(&f, PB_FOLD_COVER);
	/* 690 + 300 = 990 of 1000 is 99 %: those two, the rest one line */
	t = pb_fold_text(&f, 4096);
	assert_string_equal(t, "main;read;pipe_read 690\nmain;write;pipe_write 300\n"
			    PB_FOLD_REST " 10\n");
	assert_int_equal(f.rest_stacks, 10);
	assert_int_equal(f.total, 1000);
	free(t);
	pb_fold_free(&f);
}

static void test_fold_bound_just_below(void **state)
{
	struct pb_fold f = { 0 };

	(void)state;
	pb_fold_add(&f, "a", 989);
	pb_fold_add(&f, "b", 6);
	pb_fold_add(&f, "c", 5);
	pb_fold_bound(&f, PB_FOLD_COVER);	/* 989 < 990: b is needed too */
	assert_int_equal(f.nr, 3);
	assert_string_equal(f.l[1].stack, "b");
	assert_string_equal(f.l[2].stack, PB_FOLD_REST);
	assert_int_equal(f.l[2].count, 5);
	pb_fold_free(&f);
}

static void test_fold_text_max_and_parse(void **state)
{
	struct pb_fold f = { 0 }, g = { 0 };
	char *t;

	(void)state;
	pb_fold_add(&f, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 5);
	pb_fold_add(&f, "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", 4);
	pb_fold_add(&f, "cccccccccccccccccccccccccccccccccccccccc", 3);
	pb_fold_bound(&f, 1);
	t = pb_fold_text(&f, 100);	/* room for one line and the remainder */
	assert_string_equal(t, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 5\n" PB_FOLD_REST " 7\n");
	assert_int_equal(pb_fold_parse(&g, t), 0);
	assert_int_equal(g.nr, 2);
	assert_int_equal(g.total, 12);
	assert_string_equal(g.l[1].stack, PB_FOLD_REST);
	free(t);
	pb_fold_free(&f);
	pb_fold_free(&g);
}

static void test_fold_top_self(void **state)
{
	struct pb_fold f = { 0 };
	char name[64];

	(void)state;
	assert_int_equal(pb_fold_top_self(&f, name, sizeof(name)), 0);
	pb_fold_add(&f, "main;read;schedule", 30);
	pb_fold_add(&f, "main;write;schedule", 25);	/* schedule: 55 of its own */
	pb_fold_add(&f, "main;spin", 50);
	pb_fold_add(&f, PB_FOLD_REST, 60);		/* no function */
	assert_int_equal(pb_fold_top_self(&f, name, sizeof(name)), 55);
	assert_string_equal(name, "schedule");
	pb_fold_free(&f);
}

static void test_ns_per_op(void **state)
{
	double err;

	(void)state;
	/* 400 of 4000 samples of 2 s of task-clock over 1e6 ops: 200 ns/op */
	assert_float_equal(pb_fold_ns_per_op(400, 4000, 2000000000ull, 1000000, &err),
			   200, 1e-9);
	assert_float_equal(err, 10, 1e-9);	/* sqrt(400) samples of 0.5 ns/op */
	assert_float_equal(pb_fold_ns_per_op(4000, 4000, 2000000000ull, 1000000, NULL),
			   2000, 1e-9);
	assert_true(isnan(pb_fold_ns_per_op(1, 0, 1, 1, &err)));
	assert_true(isnan(pb_fold_ns_per_op(1, 1, 1, 0, &err)));
}

/* ---- the real kernel: this thread sampled while it spins ---- */

static void count_sample(const struct pb_sample *s, void *arg)
{
	uint64_t *n = arg;

	*n += s->nr > 0 && s->tid == (uint32_t)syscall(SYS_gettid);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void test_sampler_real(void **state)
{
	struct pb_sample_event ev;
	struct pb_sampler *s;
	uint64_t mine = 0, samples, lost, clock_ns;
	volatile uint64_t spin = 0;
	char err[256];
	double t0;

	(void)state;
	if (pb_sample_choose(&ev, 0.2, err, sizeof(err))) {
		skip_why("%s", err);
		return;
	}
	assert_true(ev.period > 0);
	s = pb_sampler_open(&ev, (pid_t)syscall(SYS_gettid), err, sizeof(err));
	assert_non_null(s);
	pb_sampler_start(s);
	for (t0 = now_s(); now_s() - t0 < 0.2;) {
		for (int i = 0; i < 100000; i++)
			spin += i;
		pb_sampler_drain(s, count_sample, &mine);
	}
	pb_sampler_stop(s);
	pb_sampler_drain(s, count_sample, &mine);
	pb_sampler_totals(s, &samples, &lost, &clock_ns);
	pb_sampler_close(s);
	/*
	 * One sample per period of this thread's time (other tasks may share
	 * its CPU): about clock_ns / period of them, some lost or cut at the
	 * edges.  cycles runs at the clock, not 1 GHz: at least as many.
	 */
	print_message("# %s: %llu samples, %llu lost, %llu ns task-clock, period %llu\n",
		      ev.name, (unsigned long long)samples, (unsigned long long)lost,
		      (unsigned long long)clock_ns, (unsigned long long)ev.period);
	assert_true(clock_ns > 10000000);
	assert_true(samples + lost > clock_ns / ev.period / 2);
	assert_true(ev.hw || samples + lost <= clock_ns / ev.period + 2);
	assert_int_equal(mine, samples);
}

/*
 * What a sample costs, timed for real: never below zero, and below the
 * period (a sample that cost its period would leave the task no time).
 */
static void test_sample_cost_real(void **state)
{
	struct pb_sample_event ev;
	char err[256];
	double cost;

	(void)state;
	if (pb_sample_choose(&ev, 1, err, sizeof(err))) {
		skip_why("%s", err);
		return;
	}
	cost = pb_sample_cost_ns(&ev);
	print_message("# %s: %.0f ns a sample at a period of %llu\n", ev.name, cost,
		      (unsigned long long)ev.period);
	assert_true(cost >= 0 && isfinite(cost));
	assert_true(ev.hw || cost < ev.period);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_sample),
		cmocka_unit_test(test_parse_lost_and_others),
		cmocka_unit_test(test_parse_malformed),
		cmocka_unit_test_setup_teardown(test_ksyms, sysroot_up, sysroot_down),
		cmocka_unit_test_setup_teardown(test_ksyms_hidden, sysroot_up, sysroot_down),
		cmocka_unit_test_setup_teardown(test_stack_text, sysroot_up, sysroot_down),
		cmocka_unit_test(test_fold_bound),
		cmocka_unit_test(test_fold_bound_just_below),
		cmocka_unit_test(test_fold_text_max_and_parse),
		cmocka_unit_test(test_fold_top_self),
		cmocka_unit_test(test_ns_per_op),
		cmocka_unit_test(test_sampler_real),
		cmocka_unit_test(test_sample_cost_real),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
