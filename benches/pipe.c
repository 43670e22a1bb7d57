// SPDX-License-Identifier: GPL-2.0-only
/*
 * pipe - a token bounced over two pipes (pattern=pingpong, what
 * `perf bench sched pipe` does), or a writer streaming into a reader
 * (pattern=stream, the "pipe-bench" of the 2019 pipe wakeup rework).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/bench.h"

enum { PINGPONG, STREAM };
enum { WRITER, READER };

enum { HANG_NONE, HANG_SETUP, HANG_LOOP };

struct pipe_opts {
	int	pattern;
	long	size;
	int	test_hang;	/* test only: exercise the watchdogs */
	long	test_spin_ns;	/* test only: a known cost per round trip */
};

struct pipe_shared {
	int	ab[2];		/* writer -> reader */
	int	ba[2];		/* reader -> writer (pingpong) */
};

struct pipe_priv {
	size_t	len;
	char	buf[];
};

static const struct pb_key pipe_keys[] = {
	{ .name = "pattern", .type = PB_T_ENUM, .def = "pingpong",
	  .choices = "pingpong|stream", .off = offsetof(struct pipe_opts, pattern),
	  .help = "pingpong: a token bounced over two pipes; stream: the writer streams, the reader drains" },
	{ .name = "size", .type = PB_T_INT, .def = "0", .min = 0, .max = 1 << 20,
	  .off = offsetof(struct pipe_opts, size),
	  .help = "bytes per write; 0: 4 for pingpong (as perf bench sched pipe), 4096 for stream" },
	{ .name = "test_hang", .type = PB_T_ENUM, .def = "none", .choices = "none|setup|loop",
	  .off = offsetof(struct pipe_opts, test_hang), .flags = PB_KEY_HIDDEN,
	  .help = "test only: hang in setup, or ignore the stop in the reader's loop" },
	{ .name = "test_spin_ns", .type = PB_T_INT, .def = "0", .min = 0, .max = 1000000,
	  .off = offsetof(struct pipe_opts, test_spin_ns), .flags = PB_KEY_HIDDEN,
	  .help = "test only: the reader burns this many ns per round trip before it answers"
		  " (tests/peers/sensitivity.sh: a change of known size)" },
	{ .name = NULL },
};

static size_t pipe_len(const struct pipe_opts *o)
{
	if (o->size)
		return o->size;
	return o->pattern == PINGPONG ? sizeof(int) : 4096;
}

static void hang(void)
{
	for (;;)
		pause();
}

static int pipe_setup(struct pb_setup_ctx *s)
{
	const struct pipe_opts *o = s->opts;
	struct pipe_shared *sh = malloc(sizeof(*sh));

	if (o->test_hang == HANG_SETUP)
		hang();

	if (!sh)
		return pb_setup_fail(s, ENOMEM, "pipe state");
	if (pipe(sh->ab) < 0) {
		free(sh);
		return pb_setup_fail(s, errno, "pipe");
	}
	if (pipe(sh->ba) < 0) {
		close(sh->ab[0]);
		close(sh->ab[1]);
		free(sh);
		return pb_setup_fail(s, errno, "pipe");
	}
	s->shared = sh;
	return 0;
}

static void pipe_teardown(struct pb_setup_ctx *s)
{
	struct pipe_shared *sh = s->shared;

	if (!sh)
		return;
	close(sh->ab[0]);
	close(sh->ab[1]);
	close(sh->ba[0]);
	close(sh->ba[1]);
	free(sh);
	s->shared = NULL;
}

static int pipe_init(struct pb_role_ctx *c)
{
	size_t len = pipe_len(c->opts);
	struct pipe_priv *p = calloc(1, sizeof(*p) + len);

	if (!p)
		return pb_fail(c, ENOMEM, "buffer of %zu bytes", len);
	p->len = len;
	c->priv = p;
	return 0;
}

static void pipe_fini(struct pb_role_ctx *c)
{
	free(c->priv);
	c->priv = NULL;
}

/*
 * Move len bytes.  1: done; 0: interrupted by the harness's stop;
 * -1: error (reason set).
 */
static int xfer(struct pb_role_ctx *c, int fd, char *buf, size_t len, bool wr)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = wr ? write(fd, buf + done, len - done)
			       : read(fd, buf + done, len - done);

		if (n > 0) {
			done += n;
			continue;
		}
		if (n < 0 && errno == EINTR) {
			if (pb_stop(c))
				return 0;
			continue;
		}
		if (pb_stop(c))
			return 0;
		return pb_fail(c, n < 0 ? errno : 0, "%s %s",
			       wr ? "write" : "read",
			       n == 0 ? "hit end of file: the other end is gone" : "");
	}
	return 1;
}

static int pingpong(struct pb_role_ctx *c, const struct pipe_shared *sh,
		    struct pipe_priv *p)
{
	int in = c->role == WRITER ? sh->ba[0] : sh->ab[0];
	int out = c->role == WRITER ? sh->ab[1] : sh->ba[1];
	long spin = ((const struct pipe_opts *)c->opts)->test_spin_ns;
	int r;

	while (!pb_stop(c)) {
		if (c->role == WRITER) {
			r = xfer(c, out, p->buf, p->len, true);
			if (r > 0)
				r = xfer(c, in, p->buf, p->len, false);
			if (r > 0)
				pb_op(c);
		} else {
			r = xfer(c, in, p->buf, p->len, false);
			if (r > 0 && spin)
				pb_test_spin_ns(spin);
			if (r > 0)
				r = xfer(c, out, p->buf, p->len, true);
		}
		if (r <= 0)
			return r;
	}
	return 0;
}

static int stream(struct pb_role_ctx *c, const struct pipe_shared *sh,
		  struct pipe_priv *p)
{
	while (!pb_stop(c)) {
		ssize_t n;

		if (c->role == WRITER)
			n = write(sh->ab[1], p->buf, p->len);
		else
			n = read(sh->ab[0], p->buf, p->len);
		if (n > 0) {
			if (c->role == WRITER)
				pb_op(c);	/* an op: one write of size bytes */
			continue;
		}
		if (pb_stop(c) || (n < 0 && errno == EINTR))
			continue;
		return pb_fail(c, n < 0 ? errno : 0, "%s",
			       c->role == WRITER ? "write" : "read: end of file");
	}
	return 0;
}

static int pipe_loop(struct pb_role_ctx *c)
{
	const struct pipe_opts *o = c->opts;

	if (o->test_hang == HANG_LOOP && c->role == READER)
		hang();
	if (o->pattern == PINGPONG)
		return pingpong(c, c->shared, c->priv);
	return stream(c, c->shared, c->priv);
}

static void pipe_metric(const void *opts, struct pb_metric *m)
{
	const struct pipe_opts *o = opts;

	if (o->pattern == PINGPONG)
		*m = (struct pb_metric){ "rtt", "µs", true, false };
	else
		*m = (struct pb_metric){ "throughput", "MB/s", false, true };
}

static double pipe_value(const void *opts, uint64_t ops, double elapsed,
			 int nr_instances)
{
	const struct pipe_opts *o = opts;

	(void)nr_instances;
	if (o->pattern == PINGPONG)
		return ops ? elapsed * 1e6 / ops : 0;
	return elapsed > 0 ? (double)ops * pipe_len(o) / elapsed / 1e6 : 0;
}

/* size=0 is the pattern's default size: "4 B", "4096 B". */
static bool pipe_key_note(const void *opts, const char *key, char *buf, size_t len)
{
	const struct pipe_opts *o = opts;

	if (strcmp(key, "size") || o->size)
		return false;
	snprintf(buf, len, "%zu B", pipe_len(o));
	return true;
}

const struct pb_bench pb_bench_pipe = {
	.name		= "pipe",
	.summary	= "pipe ping-pong round trip, or pipe streaming throughput",
	.shape		= PB_SHAPE_PAIR,
	.roles		= { "writer", "reader" },
	.keys		= pipe_keys,
	.opts_size	= sizeof(struct pipe_opts),
	.metric		= { "rtt", "µs", true, false },
	.metric_for	= pipe_metric,
	.primary_role	= -1,
	.setup		= pipe_setup,
	.init		= pipe_init,
	.loop		= pipe_loop,
	.fini		= pipe_fini,
	.teardown	= pipe_teardown,
	.value		= pipe_value,
	.key_note	= pipe_key_note,
};
