// SPDX-License-Identifier: GPL-2.0-only
/*
 * epoll_ctl - N workers, each owning fds descriptors, looping
 * epoll_ctl() ADD, MOD and DEL on one shared epoll set or one set each:
 * the stress that exposed the global epoll mutex under SPECjbb (2013).
 *
 * ops=cycle is the loop of `perf bench epoll ctl` (per fd ADD with
 * EPOLLIN, MOD to EPOLLOUT, DEL); pause_ns=250 adds its nanosleep between
 * passes.  nested=D puts the set the fds go into inside D more epoll sets,
 * so every ADD takes the kernel's global loop-check mutex (the set itself
 * is watched).  Note that perf's --nested nests the other way round (the
 * nested sets hang below the one the fds go into), which does not take
 * that path for the fds.
 */
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/bench.h"
#include "epoll_ctl.h"

#define MAX_WATCHES_SYSCTL	"fs/epoll/max_user_watches"
#define NR_OPEN_SYSCTL		"fs/nr_open"

static const struct pb_key epctl_keys[] = {
	{ .name = "threads", .type = PB_T_INT, .def = "1", .min = 1, .max = 4096,
	  .off = offsetof(struct epctl_opts, threads), .flags = PB_KEY_SWEEP,
	  .help = "workers; a list (1,2,4) or all (1, 2, 4 ... every CPU) sweeps" },
	{ .name = "fds", .type = PB_T_INT, .def = "64", .min = 1, .max = 1 << 24,
	  .off = offsetof(struct epctl_opts, fds),
	  .help = "descriptors per worker (perf bench epoll ctl: 64)" },
	{ .name = "fdtype", .type = PB_T_ENUM, .def = "eventfd",
	  .choices = "eventfd|socket", .off = offsetof(struct epctl_opts, fdtype),
	  .help = "what the fds are: eventfds, or unconnected TCP sockets" },
	{ .name = "ops", .type = PB_T_ENUM, .def = "cycle",
	  .choices = "cycle|batch|random", .off = offsetof(struct epctl_opts, ops),
	  .help = "cycle: per fd ADD, MOD, DEL (perf bench epoll ctl); batch: ADD all, "
		  "MOD all, DEL all; random: a consistent random mix" },
	{ .name = "pause_ns", .type = PB_T_INT, .def = "0", .min = 0, .max = 1e9,
	  .off = offsetof(struct epctl_opts, pause_ns),
	  .help = "nanosleep between passes of 3 x fds ops (perf bench epoll ctl: 250)" },
	{ .name = "epoll", .type = PB_T_ENUM, .def = "shared",
	  .choices = "shared|private", .off = offsetof(struct epctl_opts, epoll),
	  .help = "one epoll set for every worker, or one per worker" },
	{ .name = "nested", .type = PB_T_INT, .def = "0", .min = 0,
	  .max = EPCTL_MAX_NESTED, .off = offsetof(struct epctl_opts, nested),
	  .help = "epoll sets stacked above the fds' set: ADD takes the global mutex" },
	{ .name = NULL },
};

/* ------------------------------------------------------- pure parts */

void epctl_need(const struct epctl_opts *o, int nr, struct epctl_need *n)
{
	long owners = o->epoll == EPCTL_PRIVATE ? nr : 1;

	n->sets = owners * (1 + o->nested);
	n->slack = EPCTL_SLACK + (long)EPCTL_SLACK_PER_TASK * nr;
	n->nofile = nr * o->fds + n->sets + n->slack;
	n->watches = nr * o->fds + owners * o->nested;
}

static int nofile_msg(const struct epctl_opts *o, int nr, const struct epctl_need *n,
		      const struct epctl_limits *l, char *err, size_t len)
{
	bool nr_open = l->nr_open > 0 && n->nofile > l->nr_open;

	return snprintf(err, len, "threads × fds = %d × %ld = %ld descriptors (+ %ld spare), "
			"but the hard RLIMIT_NOFILE is %ld (short by %ld): raise it with "
			"%sulimit -n %ld", nr, o->fds, nr * o->fds, n->nofile - nr * o->fds,
			l->nofile_hard, n->nofile - l->nofile_hard,
			nr_open ? "sysctl fs.nr_open and " : "", n->nofile);
}

static void watches_msg(const struct epctl_opts *o, int nr, const struct epctl_need *n,
			long max, char *err, size_t len)
{
	snprintf(err, len, "threads × fds = %d × %ld = %ld epoll watches (+ %ld nesting), "
		 "but fs.epoll.max_user_watches is %ld (short by %ld): raise it with "
		 "sysctl -w fs.epoll.max_user_watches=%ld", nr, o->fds, nr * o->fds,
		 n->watches - nr * o->fds, max, n->watches - max, n->watches);
}

int epctl_fit(const struct epctl_opts *o, int nr, const struct epctl_limits *l,
	      long *raise_to, char *err, size_t len)
{
	struct epctl_need n;
	bool files, watches;
	int k;

	epctl_need(o, nr, &n);
	*raise_to = n.nofile > l->nofile_soft ? n.nofile : 0;
	files = n.nofile > l->nofile_hard;
	watches = l->max_user_watches >= 0 && n.watches > l->max_user_watches;
	if (files) {
		k = nofile_msg(o, nr, &n, l, err, len);
		if (watches && k >= 0 && (size_t)k < len)
			snprintf(err + k, len - k, "; fs.epoll.max_user_watches is "
				 "short by %ld", n.watches - l->max_user_watches);
	} else if (watches) {
		watches_msg(o, nr, &n, l->max_user_watches, err, len);
	}
	return files || watches ? -1 : 0;
}

void epctl_seq_init(struct epctl_seq *s, int mode, int nfds, int *perm, uint64_t seed)
{
	*s = (struct epctl_seq){ .mode = mode, .nfds = nfds, .perm = perm,
				 .rng = seed ? seed : 0x9e3779b97f4a7c15ULL };
	for (int i = 0; perm && i < nfds; i++)
		perm[i] = i;
}

void epctl_seq_prefill(struct epctl_seq *s, int n)
{
	s->nin = n < s->nfds ? n : s->nfds;
}

static void swap_int(int *a, int *b)
{
	int t = *a;

	*a = *b;
	*b = t;
}

static void random_step(struct epctl_seq *s, struct epctl_step *st)
{
	int op = (int)((epctl_rand(&s->rng) >> 11) % EPCTL_NR_OPS);
	uint64_t r = epctl_rand(&s->rng) >> 11;
	int k;

	if (op == EPCTL_ADD && s->nin == s->nfds)
		op = EPCTL_DEL;
	else if (op != EPCTL_ADD && s->nin == 0)
		op = EPCTL_ADD;
	st->op = op;
	if (op == EPCTL_ADD) {
		k = s->nin + (int)(r % (uint64_t)(s->nfds - s->nin));
		swap_int(&s->perm[k], &s->perm[s->nin]);
		st->idx = s->perm[s->nin++];
		return;
	}
	k = (int)(r % (uint64_t)s->nin);
	st->idx = s->perm[k];
	if (op == EPCTL_DEL)
		swap_int(&s->perm[k], &s->perm[--s->nin]);
}

bool epctl_next(struct epctl_seq *s, struct epctl_step *st)
{
	long n = s->nfds;

	switch (s->mode) {
	case EPCTL_CYCLE:
		st->op = (int)(s->pos % EPCTL_NR_OPS);
		st->idx = (int)(s->pos / EPCTL_NR_OPS);
		break;
	case EPCTL_BATCH:
		st->op = (int)(s->pos / n);
		st->idx = (int)(s->pos % n);
		break;
	default:
		random_step(s, st);
		break;
	}
	if (++s->pos < EPCTL_NR_OPS * n)
		return false;
	s->pos = 0;
	return true;
}

/* ------------------------------------------------------- limits */

static long rlim_long(rlim_t v)
{
	return v == RLIM_INFINITY || v > LONG_MAX ? LONG_MAX : (long)v;
}

/*
 * Counts every worker's descriptors as if in one process (tasks=threads).
 * Raises the soft RLIMIT_NOFILE up to the hard one when that is enough.
 */
static int epctl_check(const void *opts, int nr, char *err)
{
	struct epctl_limits l;
	struct rlimit rl;
	long raise_to;

	if (getrlimit(RLIMIT_NOFILE, &rl)) {
		snprintf(err, PB_ERR_MAX, "getrlimit(RLIMIT_NOFILE): %s", strerror(errno));
		return -1;
	}
	l.nofile_soft = rlim_long(rl.rlim_cur);
	l.nofile_hard = rlim_long(rl.rlim_max);
	l.max_user_watches = pb_sysctl_long(MAX_WATCHES_SYSCTL);
	l.nr_open = pb_sysctl_long(NR_OPEN_SYSCTL);
	if (epctl_fit(opts, nr, &l, &raise_to, err, PB_ERR_MAX))
		return -1;
	if (!raise_to)
		return 0;
	rl.rlim_cur = raise_to;
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		snprintf(err, PB_ERR_MAX, "cannot raise the soft RLIMIT_NOFILE from %ld "
			 "to %ld: %s", l.nofile_soft, raise_to, strerror(errno));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------- epoll sets */

/* set[0] holds the fds; set[i] is watched by set[i + 1]. */
struct epctl_chain {
	int	set[EPCTL_MAX_NESTED + 1];
	int	n;
};

static void chain_close(struct epctl_chain *ch)
{
	for (int i = 0; i < ch->n; i++)
		close(ch->set[i]);
	ch->n = 0;
}

/* 0, or an errno with what failed in what. */
static int chain_make(struct epctl_chain *ch, long nested, const char **what)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int e;

	ch->n = 0;
	for (long i = 0; i <= nested; i++) {
		ch->set[i] = epoll_create1(EPOLL_CLOEXEC);
		if (ch->set[i] < 0) {
			*what = "epoll_create1";
			goto fail;
		}
		ch->n++;
		if (i && epoll_ctl(ch->set[i], EPOLL_CTL_ADD, ch->set[i - 1], &ev)) {
			*what = "nesting an epoll set (EPOLL_CTL_ADD)";
			goto fail;
		}
	}
	return 0;
fail:
	e = errno;
	chain_close(ch);
	return e;
}

static int epctl_setup(struct pb_setup_ctx *s)
{
	const struct epctl_opts *o = s->opts;
	struct epctl_chain *ch;
	const char *what = "";
	int e;

	if (o->epoll != EPCTL_SHARED)
		return 0;
	ch = malloc(sizeof(*ch));
	if (!ch)
		return pb_setup_fail(s, ENOMEM, "epoll state");
	e = chain_make(ch, o->nested, &what);
	if (e) {
		free(ch);
		return pb_setup_fail(s, e, "%s", what);
	}
	s->shared = ch;
	return 0;
}

static void epctl_teardown(struct pb_setup_ctx *s)
{
	if (!s->shared)
		return;
	chain_close(s->shared);
	free(s->shared);
	s->shared = NULL;
}

/* ------------------------------------------------------- workers */

struct epctl_priv {
	struct epctl_chain	own;	/* epoll=private */
	int			epfd;	/* the set the fds go into */
	struct epctl_seq	seq;
	int			*perm;
	int			*fd;
	long			nfd;	/* opened */
	struct timespec		pause;
};

static void priv_free(struct epctl_priv *p)
{
	if (!p)
		return;
	for (long i = 0; i < p->nfd; i++)
		close(p->fd[i]);
	chain_close(&p->own);
	free(p->fd);
	free(p->perm);
	free(p);
}

static int fd_open(int type)
{
	if (type == EPCTL_SOCKET)
		return socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

static int do_op(int epfd, int op, int fd)
{
	static const int ctl[EPCTL_NR_OPS] = { EPOLL_CTL_ADD, EPOLL_CTL_MOD, EPOLL_CTL_DEL };
	struct epoll_event ev = { .events = op == EPCTL_MOD ? EPOLLOUT : EPOLLIN,
				  .data.u64 = (uint64_t)fd };

	return epoll_ctl(epfd, ctl[op], fd, op == EPCTL_DEL ? NULL : &ev);
}

static const char *const op_name[EPCTL_NR_OPS] = { "ADD", "MOD", "DEL" };

static int open_fds(struct pb_role_ctx *c, struct epctl_priv *p)
{
	const struct epctl_opts *o = c->opts;

	for (p->nfd = 0; p->nfd < o->fds; p->nfd++) {
		p->fd[p->nfd] = fd_open(o->fdtype);
		if (p->fd[p->nfd] < 0)
			return pb_fail(c, errno, "%s %ld of %ld%s",
				       o->fdtype == EPCTL_SOCKET ? "socket" : "eventfd",
				       p->nfd + 1, o->fds,
				       errno == EMFILE ? " (RLIMIT_NOFILE)" : "");
	}
	return 0;
}

/* Random mode starts with half the fds in the set, as perf does. */
static int prefill(struct pb_role_ctx *c, struct epctl_priv *p)
{
	int n = (int)(p->nfd / 2);

	for (int i = 0; i < n; i++)
		if (do_op(p->epfd, EPCTL_ADD, p->fd[p->seq.perm[i]]))
			return pb_fail(c, errno, "epoll_ctl(ADD) filling the set");
	epctl_seq_prefill(&p->seq, n);
	return 0;
}

static int epctl_init(struct pb_role_ctx *c)
{
	const struct epctl_opts *o = c->opts;
	struct epctl_priv *p = calloc(1, sizeof(*p));
	const char *what = "";
	int e;

	if (!p || !(p->fd = calloc(o->fds, sizeof(int))) ||
	    !(p->perm = calloc(o->fds, sizeof(int)))) {
		priv_free(p);
		return pb_fail(c, ENOMEM, "%ld fds", o->fds);
	}
	p->pause = (struct timespec){ o->pause_ns / 1000000000L, o->pause_ns % 1000000000L };
	if (o->epoll == EPCTL_PRIVATE) {
		e = chain_make(&p->own, o->nested, &what);
		if (e) {
			priv_free(p);
			return pb_fail(c, e, "%s", what);
		}
		p->epfd = p->own.set[0];
	} else {
		p->epfd = ((const struct epctl_chain *)c->shared)->set[0];
	}
	epctl_seq_init(&p->seq, o->ops, (int)o->fds, p->perm,
		       0x9e3779b97f4a7c15ULL * (uint64_t)(c->instance + 1));
	if (open_fds(c, p) || (o->ops == EPCTL_RANDOM && prefill(c, p))) {
		priv_free(p);
		return -1;
	}
	c->priv = p;
	return 0;
}

static void epctl_fini(struct pb_role_ctx *c)
{
	priv_free(c->priv);	/* closing the fds takes them out of the set */
	c->priv = NULL;
}

static int epctl_loop(struct pb_role_ctx *c)
{
	const struct epctl_opts *o = c->opts;
	struct epctl_priv *p = c->priv;
	struct epctl_step st;

	while (!pb_stop(c)) {
		bool end = epctl_next(&p->seq, &st);
		int fd = p->fd[st.idx];
		int r;

		while ((r = do_op(p->epfd, st.op, fd)) < 0 && errno == EINTR &&
		       !pb_stop(c))
			;
		if (r < 0) {
			if (errno == EINTR)
				return 0;
			return pb_fail(c, errno, "epoll_ctl(%s) of fd %d", op_name[st.op], fd);
		}
		pb_op(c);
		pb_aux_add(c, st.op, 1);
		if (end && o->pause_ns)
			nanosleep(&p->pause, NULL);	/* EINTR: the stop flag is checked next */
	}
	return 0;
}

static double epctl_value(const void *opts, uint64_t ops, double elapsed, int nr)
{
	(void)opts;
	(void)nr;
	return elapsed > 0 ? ops / elapsed : 0;
}

const struct pb_bench pb_bench_epoll_ctl = {
	.name		= "epoll_ctl",
	.summary	= "workers looping epoll_ctl ADD/MOD/DEL on shared or private "
			  "(nested) epoll sets",
	.shape		= PB_SHAPE_WORKERS,
	.roles		= { "worker" },
	.instances_key	= "threads",
	.keys		= epctl_keys,
	.opts_size	= sizeof(struct epctl_opts),
	.metric		= { "throughput", "ops/s", false, true },
	.primary_role	= 0,
	.aux_names	= { "add", "mod", "del" },
	.check		= epctl_check,
	.setup		= epctl_setup,
	.init		= epctl_init,
	.loop		= epctl_loop,
	.fini		= epctl_fini,
	.teardown	= epctl_teardown,
	.value		= epctl_value,
};
