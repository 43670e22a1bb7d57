// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_epoll_limits.c - the epoll_ctl workload: what a job needs, the
 * limit check and its messages, the sequences of operations (checked
 * against a model and against the kernel), and the hooks run in-process.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <unistd.h>
#include <dirent.h>
#include <cmocka.h>
#include "skip.h"

#include "core/bench.h"
#include "epoll_ctl.h"
#include "core/jobfile.h"

extern const struct pb_bench pb_bench_epoll_ctl;

static struct epctl_opts opts(long fds, int sets, long nested)
{
	return (struct epctl_opts){ .threads = 1, .fds = fds, .epoll = sets,
				    .nested = nested };
}

static void test_need(void **state)
{
	struct epctl_opts o = opts(100, EPCTL_SHARED, 0);
	struct epctl_need n;

	(void)state;
	epctl_need(&o, 8, &n);
	assert_int_equal(n.sets, 1);
	assert_int_equal(n.watches, 800);
	assert_int_equal(n.nofile, 800 + n.sets + n.slack);
	assert_true(n.slack >= 8);		/* room for stdio and counters */

	o = opts(100, EPCTL_SHARED, 3);		/* one chain of 4 sets */
	epctl_need(&o, 8, &n);
	assert_int_equal(n.sets, 4);
	assert_int_equal(n.watches, 800 + 3);

	o = opts(100, EPCTL_PRIVATE, 2);	/* a chain of 3 per worker */
	epctl_need(&o, 8, &n);
	assert_int_equal(n.sets, 8 * 3);
	assert_int_equal(n.watches, 800 + 8 * 2);
}

static void test_fit_ok(void **state)
{
	struct epctl_opts o = opts(64, EPCTL_SHARED, 0);
	struct epctl_limits l = { 100000, 100000, 1000000, 0 };
	struct epctl_need n;
	char err[PB_ERR_MAX] = "";
	long raise;

	(void)state;
	assert_int_equal(epctl_fit(&o, 4, &l, &raise, err, sizeof(err)), 0);
	assert_int_equal(raise, 0);
	assert_string_equal(err, "");

	/* above the soft limit, within the hard one: raise the soft one */
	epctl_need(&o, 4, &n);
	l.nofile_soft = n.nofile - 1;
	assert_int_equal(epctl_fit(&o, 4, &l, &raise, err, sizeof(err)), 0);
	assert_int_equal(raise, n.nofile);
	l.nofile_soft = n.nofile;
	assert_int_equal(epctl_fit(&o, 4, &l, &raise, err, sizeof(err)), 0);
	assert_int_equal(raise, 0);

	/* unknown max_user_watches: not checked */
	l.max_user_watches = -1;
	o.fds = 10000;
	l.nofile_soft = l.nofile_hard = 1000000;
	assert_int_equal(epctl_fit(&o, 4, &l, &raise, err, sizeof(err)), 0);
}

static void test_fit_nofile(void **state)
{
	struct epctl_opts o = opts(100000, EPCTL_SHARED, 0);
	struct epctl_limits l = { 1024, 1024, 100000000, 0 };
	struct epctl_need n;
	char err[PB_ERR_MAX], want[64];
	long raise;

	(void)state;
	epctl_need(&o, 8, &n);
	assert_int_equal(epctl_fit(&o, 8, &l, &raise, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "RLIMIT_NOFILE is 1024"));
	assert_non_null(strstr(err, "8 × 100000 = 800000"));
	snprintf(want, sizeof(want), "short by %ld)", n.nofile - 1024);
	assert_non_null(strstr(err, want));
	snprintf(want, sizeof(want), "ulimit -n %ld", n.nofile);
	assert_non_null(strstr(err, want));
	assert_null(strstr(err, "nr_open"));
	assert_null(strstr(err, "max_user_watches"));

	/* beyond fs.nr_open, ulimit alone cannot do it: say so */
	l.nr_open = 1048576;
	assert_int_equal(epctl_fit(&o, 8, &l, &raise, err, sizeof(err)), -1);
	assert_null(strstr(err, "nr_open"));
	l.nr_open = n.nofile - 1;
	assert_int_equal(epctl_fit(&o, 8, &l, &raise, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "sysctl fs.nr_open and ulimit -n"));
	l.nr_open = 0;

	/* one descriptor short of the hard limit, and exactly enough */
	l.nofile_hard = n.nofile - 1;
	assert_int_equal(epctl_fit(&o, 8, &l, &raise, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "short by 1)"));
	l.nofile_hard = n.nofile;
	assert_int_equal(epctl_fit(&o, 8, &l, &raise, err, sizeof(err)), 0);
	assert_int_equal(raise, n.nofile);
}

static void test_fit_watches(void **state)
{
	struct epctl_opts o = opts(1000, EPCTL_PRIVATE, 1);
	struct epctl_limits l = { 1 << 20, 1 << 20, 4000, 0 };
	char err[PB_ERR_MAX], want[64];
	long raise;

	(void)state;
	/* 4 x 1000 fds + 4 nesting links = 4004 watches */
	assert_int_equal(epctl_fit(&o, 4, &l, &raise, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "max_user_watches is 4000"));
	assert_non_null(strstr(err, "4 × 1000 = 4000"));
	assert_non_null(strstr(err, "short by 4)"));
	assert_null(strstr(err, "RLIMIT_NOFILE"));
	l.max_user_watches = 4004;
	assert_int_equal(epctl_fit(&o, 4, &l, &raise, err, sizeof(err)), 0);

	/* both limits short: both named, within the message buffer */
	o.fds = 10000000;
	l.nofile_hard = 1048576;
	assert_int_equal(epctl_fit(&o, 4, &l, &raise, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "RLIMIT_NOFILE"));
	snprintf(want, sizeof(want), "max_user_watches is short by %ld",
		 4 * 10000000L + 4 - 4004);
	assert_non_null(strstr(err, want));
}

/*
 * The check hook raises the soft limit itself when the hard one allows: a
 * job sized to fit under this process' hard limit, whatever it is.
 */
static void test_check_raises_soft(void **state)
{
	struct epctl_opts o;
	struct rlimit saved, rl;
	struct epctl_need n;
	char err[PB_ERR_MAX] = "";
	long fds;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
	for (fds = 200; fds >= 25; fds /= 2) {
		o = opts(fds, EPCTL_SHARED, 0);
		epctl_need(&o, 2, &n);
		if (saved.rlim_max == RLIM_INFINITY || (long)saved.rlim_max >= n.nofile)
			break;
	}
	if (fds < 25) {
		skip_why("hard RLIMIT_NOFILE %ld is below what 2 x 25 fds need (%ld)",
			 (long)saved.rlim_max, n.nofile);
		return;
	}
	rl = saved;
	rl.rlim_cur = n.nofile / 2;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	assert_int_equal(pb_bench_epoll_ctl.check(&o, 2, err), 0);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	assert_int_equal(rl.rlim_cur, n.nofile);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);

	/* impossible: refused, naming the limit */
	o.fds = 10000000;
	assert_int_equal(pb_bench_epoll_ctl.check(&o, 1, err), -1);
	assert_non_null(strstr(err, "RLIMIT_NOFILE"));
}

/* A model of the set: every step must be legal, as the kernel demands. */
static void run_model(int mode, int nfds, long steps, uint64_t seed, long *count)
{
	int *perm = malloc(nfds * sizeof(*perm));
	char *in = calloc(nfds, 1);
	struct epctl_seq s;
	struct epctl_step st;

	assert_non_null(perm);
	assert_non_null(in);
	epctl_seq_init(&s, mode, nfds, perm, seed);
	for (long i = 0; i < steps; i++) {
		bool end = epctl_next(&s, &st);

		assert_true(st.idx >= 0 && st.idx < nfds);
		assert_int_equal(end, (i + 1) % (3L * nfds) == 0);
		if (st.op == EPCTL_ADD)
			assert_false(in[st.idx]);
		else
			assert_true(in[st.idx]);
		in[st.idx] = st.op != EPCTL_DEL;
		count[st.op]++;
	}
	free(in);
	free(perm);
}

static void test_seq_cycle(void **state)
{
	static const int want[][2] = {
		{ EPCTL_ADD, 0 }, { EPCTL_MOD, 0 }, { EPCTL_DEL, 0 },
		{ EPCTL_ADD, 1 }, { EPCTL_MOD, 1 }, { EPCTL_DEL, 1 },
		{ EPCTL_ADD, 0 },
	};
	struct epctl_seq s;
	struct epctl_step st;
	long count[EPCTL_NR_OPS] = { 0 };

	(void)state;
	epctl_seq_init(&s, EPCTL_CYCLE, 2, NULL, 1);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		bool end = epctl_next(&s, &st);

		assert_int_equal(st.op, want[i][0]);
		assert_int_equal(st.idx, want[i][1]);
		assert_int_equal(end, i == 5);
	}
	run_model(EPCTL_CYCLE, 64, 64 * 3 * 10, 1, count);
	assert_int_equal(count[EPCTL_ADD], 640);
	assert_int_equal(count[EPCTL_MOD], 640);
	assert_int_equal(count[EPCTL_DEL], 640);
}

static void test_seq_batch(void **state)
{
	struct epctl_seq s;
	struct epctl_step st;
	long count[EPCTL_NR_OPS] = { 0 };

	(void)state;
	epctl_seq_init(&s, EPCTL_BATCH, 3, NULL, 1);
	for (int i = 0; i < 9; i++) {
		bool end = epctl_next(&s, &st);

		assert_int_equal(st.op, i / 3);
		assert_int_equal(st.idx, i % 3);
		assert_int_equal(end, i == 8);
	}
	run_model(EPCTL_BATCH, 5, 5 * 3 * 7, 1, count);
	assert_int_equal(count[EPCTL_ADD], count[EPCTL_DEL]);
}

static void test_seq_random(void **state)
{
	static const int sizes[] = { 1, 2, 7, 64 };

	(void)state;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		long count[EPCTL_NR_OPS] = { 0 };
		long steps = 60000;

		run_model(EPCTL_RANDOM, sizes[k], steps, 42 + k, count);
		/* a mix: every op well represented (1/3 each, bent by the bounds) */
		for (int op = 0; op < EPCTL_NR_OPS; op++)
			assert_true(count[op] > steps / 10);
		assert_true(count[EPCTL_ADD] - count[EPCTL_DEL] <= sizes[k]);
		assert_true(count[EPCTL_ADD] >= count[EPCTL_DEL]);
	}
}

static void test_seq_random_seed(void **state)
{
	int pa[16], pb[16], pc[16];
	struct epctl_seq a, b, c;
	struct epctl_step sa, sb, sc;
	int same_ab = 0, same_ac = 0, touched[16] = { 0 };

	(void)state;
	epctl_seq_init(&a, EPCTL_RANDOM, 16, pa, 7);
	epctl_seq_init(&b, EPCTL_RANDOM, 16, pb, 7);
	epctl_seq_init(&c, EPCTL_RANDOM, 16, pc, 8);
	for (int i = 0; i < 1000; i++) {
		epctl_next(&a, &sa);
		epctl_next(&b, &sb);
		epctl_next(&c, &sc);
		same_ab += sa.op == sb.op && sa.idx == sb.idx;
		same_ac += sa.op == sc.op && sa.idx == sc.idx;
		touched[sa.idx] = 1;
	}
	assert_int_equal(same_ab, 1000);
	assert_true(same_ac < 900);
	for (int i = 0; i < 16; i++)
		assert_true(touched[i]);

	/* prefill: the first n of perm are in the set, so no ADD of them */
	epctl_seq_init(&a, EPCTL_RANDOM, 16, pa, 9);
	epctl_seq_prefill(&a, 8);
	assert_int_equal(a.nin, 8);
	epctl_seq_prefill(&a, 99);
	assert_int_equal(a.nin, 16);
	epctl_next(&a, &sa);
	assert_int_not_equal(sa.op, EPCTL_ADD);		/* all in: no ADD */
}

/* The sequences on a real epoll set (nested once): the kernel accepts all. */
static void kernel_run(int mode, int nfds, long steps, int prefill)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int outer = epoll_create1(0), inner = epoll_create1(0);
	int *fd = malloc(nfds * sizeof(*fd)), *perm = malloc(nfds * sizeof(*perm));
	struct epctl_seq s;
	struct epctl_step st;

	assert_true(outer >= 0 && inner >= 0 && fd && perm);
	assert_int_equal(epoll_ctl(outer, EPOLL_CTL_ADD, inner, &ev), 0);
	for (int i = 0; i < nfds; i++)
		assert_true((fd[i] = eventfd(0, EFD_NONBLOCK)) >= 0);
	epctl_seq_init(&s, mode, nfds, perm, 3);
	for (int i = 0; i < prefill; i++)
		assert_int_equal(epoll_ctl(inner, EPOLL_CTL_ADD, fd[perm[i]], &ev), 0);
	epctl_seq_prefill(&s, prefill);
	for (long i = 0; i < steps; i++) {
		static const int ctl[] = { EPOLL_CTL_ADD, EPOLL_CTL_MOD, EPOLL_CTL_DEL };

		epctl_next(&s, &st);
		assert_int_equal(epoll_ctl(inner, ctl[st.op], fd[st.idx], &ev), 0);
	}
	for (int i = 0; i < nfds; i++)
		close(fd[i]);
	close(inner);
	close(outer);
	free(fd);
	free(perm);
}

static void test_seq_kernel(void **state)
{
	(void)state;
	kernel_run(EPCTL_CYCLE, 8, 3000, 0);
	kernel_run(EPCTL_BATCH, 8, 3000, 0);
	kernel_run(EPCTL_RANDOM, 8, 20000, 4);
}

/* The nested= range is the kernel's: EPCTL_MAX_NESTED works, one more is ELOOP. */
static void test_nesting_limit(void **state)
{
	const struct pb_key *k;
	struct epctl_opts o;
	struct epoll_event ev = { .events = EPOLLIN };
	int set[EPCTL_MAX_NESTED + 2], i;
	char err[256];

	(void)state;
	for (i = 0; i < EPCTL_MAX_NESTED + 2; i++)
		assert_true((set[i] = epoll_create1(0)) >= 0);
	for (i = 1; i <= EPCTL_MAX_NESTED; i++)
		assert_int_equal(epoll_ctl(set[i], EPOLL_CTL_ADD, set[i - 1], &ev), 0);
	assert_int_equal(epoll_ctl(set[i], EPOLL_CTL_ADD, set[i - 1], &ev), -1);
	assert_int_equal(errno, ELOOP);
	for (i = 0; i < EPCTL_MAX_NESTED + 2; i++)
		close(set[i]);

	for (k = pb_bench_epoll_ctl.keys; k->name && strcmp(k->name, "nested"); k++)
		;
	assert_non_null(k->name);
	assert_int_equal(pb_key_parse(k, "4", &o, err, sizeof(err)), 0);
	assert_int_equal(o.nested, EPCTL_MAX_NESTED);
	assert_int_equal(pb_key_parse(k, "5", &o, err, sizeof(err)), -1);
}

/* ---- the hooks, in this process ---- */

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

struct hook_run {
	struct pb_role_ctx	c;
	struct pb_slot		slot;
	volatile int		stop;
	char			err[PB_ERR_MAX];
	int			rc;
};

static void *loop_thread(void *arg)
{
	struct hook_run *h = arg;

	h->rc = pb_bench_epoll_ctl.loop(&h->c);
	return NULL;
}

/* setup, init, loop until ops, fini, teardown: counts add up, nothing leaks. */
static void hooks_run(struct epctl_opts *o, uint64_t ops)
{
	const struct pb_bench *b = &pb_bench_epoll_ctl;
	char serr[PB_ERR_MAX] = "";
	struct pb_setup_ctx s = { .opts = o, .nr_instances = 1, .threads = true,
				  .err = serr };
	struct hook_run *h = calloc(1, sizeof(*h));
	int before = count_fds();
	pthread_t t;

	assert_non_null(h);
	h->c = (struct pb_role_ctx){ .opts = o, .nr_instances = 1, .slot = &h->slot,
				     .stopflag = &h->stop, .err = h->err };
	assert_int_equal(b->setup(&s), 0);
	h->c.shared = s.shared;
	assert_int_equal(b->init(&h->c), 0);
	assert_int_equal(count_fds(), before + o->fds + (1 + o->nested));
	assert_int_equal(pthread_create(&t, NULL, loop_thread, h), 0);
	while (__atomic_load_n(&h->slot.ops, __ATOMIC_RELAXED) < ops && !h->err[0])
		usleep(1000);
	h->stop = 1;
	pthread_join(t, NULL);
	assert_string_equal(h->err, "");
	assert_int_equal(h->rc, 0);
	assert_true(h->slot.ops >= ops);
	assert_int_equal(h->slot.aux[EPCTL_ADD] + h->slot.aux[EPCTL_MOD] +
			 h->slot.aux[EPCTL_DEL], h->slot.ops);
	if (o->ops == EPCTL_CYCLE) {
		assert_true(h->slot.aux[EPCTL_ADD] - h->slot.aux[EPCTL_DEL] <= 1);
		assert_true(h->slot.aux[EPCTL_ADD] - h->slot.aux[EPCTL_MOD] <= 1);
	}
	b->fini(&h->c);
	b->teardown(&s);
	assert_int_equal(count_fds(), before);
	free(h);
}

static void test_hooks(void **state)
{
	struct epctl_opts o = { .threads = 1, .fds = 16 };

	(void)state;
	hooks_run(&o, 5000);				/* shared, cycle, eventfd */
	o = (struct epctl_opts){ .threads = 1, .fds = 16, .ops = EPCTL_RANDOM,
				 .epoll = EPCTL_PRIVATE, .nested = 2,
				 .fdtype = EPCTL_SOCKET };
	hooks_run(&o, 5000);
	o = (struct epctl_opts){ .threads = 1, .fds = 4, .ops = EPCTL_BATCH,
				 .nested = EPCTL_MAX_NESTED, .pause_ns = 250 };
	hooks_run(&o, 500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_need),
		cmocka_unit_test(test_fit_ok),
		cmocka_unit_test(test_fit_nofile),
		cmocka_unit_test(test_fit_watches),
		cmocka_unit_test(test_check_raises_soft),
		cmocka_unit_test(test_seq_cycle),
		cmocka_unit_test(test_seq_batch),
		cmocka_unit_test(test_seq_random),
		cmocka_unit_test(test_seq_random_seed),
		cmocka_unit_test(test_seq_kernel),
		cmocka_unit_test(test_nesting_limit),
		cmocka_unit_test(test_hooks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
