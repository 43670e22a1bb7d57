/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bench.h - the workload interface.
 *
 * A workload is one file in benches/ plus one line in benches/benches.h.
 * It declares its keys (parsed and validated by the harness from the
 * table), its roles and its metric, and provides hooks.  The harness owns
 * processes, threads, pinning, the start gate, warm-up, the measurement
 * window, timing, counters and output.  A workload never pins, times or
 * prints: it loops until pb_stop() and counts operations with pb_op().
 */
#ifndef PINBENCH_BENCH_H
#define PINBENCH_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>

#define PB_STR_MAX	64
#define PB_MAX_AUX	4
#define PB_ERR_MAX	256

enum pb_type {
	PB_T_INT,	/* long */
	PB_T_DOUBLE,	/* double */
	PB_T_BOOL,	/* int: 0 or 1 ("0|1|yes|no|true|false|on|off") */
	PB_T_ENUM,	/* int: index into choices */
	PB_T_STR,	/* char[PB_STR_MAX] */
};

/* Key flags */
#define PB_KEY_SWEEP	0x1	/* INT key may be a list "1,2,4" or "all": one job per value */
#define PB_KEY_HIDDEN	0x2	/* test-only key: not listed by `pinbench list` */

/*
 * What a key's verify step found wrong once every key of the job is read:
 * the key whose setting is cited (its file:line), and whether msg names
 * that key itself (else "KEY: " goes before it).
 */
struct pb_key_fault {
	const char	*key;
	bool		named;
	char		msg[PB_ERR_MAX];
};

/*
 * A key: one row of a table (a workload's, or the common keys of
 * core/jobfile.c), as fio's struct fio_option with its .cb and .verify.
 */
struct pb_key {
	const char	*name;
	enum pb_type	type;
	const char	*def;		/* default, as text */
	double		min, max;	/* INT/DOUBLE range, inclusive; ignored if min > max */
	const char	*choices;	/* ENUM: "a|b|c" */
	const char	*help;
	size_t		off;		/* offsetof() into the workload's options */
	unsigned int	flags;
	/*
	 * Text into the typed field at off inside dst (the workload's options,
	 * or the job's common keys): 0, or -1 with what is wrong with the
	 * value in prob (no key name: the caller says where).  NULL: by type
	 * and range, pb_key_typed() (core/keys.h).
	 */
	int	(*parse)(const struct pb_key *k, const char *text, void *dst,
			 char *prob, size_t len);
	/*
	 * Cross-key rules, after every key of the job is read; called when
	 * the key is set (a default counts).  0, or -1 with f filled (f->key
	 * is this key unless the fault is better cited at another).  NULL:
	 * none.
	 */
	int	(*verify)(const struct pb_key *k, const void *dst, struct pb_key_fault *f);
};

#define PB_NO_RANGE	1, 0

enum pb_shape {
	PB_SHAPE_PAIR,		/* two roles; instances_key pairs of them */
	PB_SHAPE_WORKERS,	/* one role; instances_key workers */
};

/* Per role instance, harness-owned, in shared memory: one cache line each. */
struct pb_slot {
	uint64_t	ops;			/* counted by pb_op() */
	uint64_t	aux[PB_MAX_AUX];	/* workload extras (e.g. lost datagrams) */
	uint64_t	busy_ns;		/* time owned by completed timed ops (pb_lat_end) */
	int		window;			/* current repeat index, -1 outside a window */
	int		pad;
} __attribute__((aligned(64)));

struct pb_hist;

struct pb_role_ctx {
	int		role;		/* 0 or 1 for pairs, 0 for workers */
	int		instance;	/* 0 .. nr_instances-1 */
	int		nr_instances;
	int		cpu;		/* planned CPU (OS index) */
	const void	*opts;		/* the workload's options, read only */
	void		*shared;	/* made by setup(), seen by every role */
	void		*priv;		/* the role's own, set by init() */
	struct pb_slot	*slot;
	volatile int	*stopflag;
	struct pb_hist	**hist;		/* per window latency histograms, or NULL */
	int		nr_windows;
	struct timespec	lat_t0;
	uint64_t	lat_mark;	/* ns: end of the last attempt (op or loss), 0 none */
	char		*err;		/* failure reason, PB_ERR_MAX */
	/* pinbench server's roles: the client's host, the only one answered; else NULL */
	const struct sockaddr	*client;
};

struct pb_setup_ctx {
	const void	*opts;
	int		nr_instances;	/* pairs or workers */
	bool		threads;	/* tasks=threads */
	void		*shared;	/* out: the workload's shared state */
	char		*err;		/* failure reason, PB_ERR_MAX */
};

/*
 * Two hosts (`pinbench server`): the data sockets of one session.  On the
 * server, addr is the address to bind (port 0) and the hook fills
 * ports[nr_instances]; on the client, addr is the server's host and
 * ports[] its data ports.  shared is what the roles see (as setup's),
 * released by teardown() with a pb_setup_ctx carrying it.
 */
struct pb_peer_ctx {
	const void		*opts;
	int			nr_instances;
	const struct sockaddr	*addr;
	socklen_t		alen;
	uint16_t		*ports;
	const struct sockaddr	*client;	/* server: only this host may connect */
	int			timeout_ms;	/* server: how long to wait for connects */
	void			*shared;	/* out */
	char			*err;		/* PB_ERR_MAX */
};

struct pb_metric {
	const char	*name;		/* "rtt", "throughput" */
	const char	*unit;		/* "us", "MB/s" */
	bool		lower_better;
	bool		rate;		/* averages use the harmonic mean */
};

struct pb_bench {
	const char		*name;
	const char		*summary;
	enum pb_shape		shape;
	const char		*roles[2];
	const char		*instances_key;	/* "streams", "threads"; NULL: one */
	const struct pb_key	*keys;		/* terminated by { .name = NULL } */
	size_t			opts_size;
	struct pb_metric	metric;
	/* The metric when it depends on the options (else .metric). */
	void	(*metric_for)(const void *opts, struct pb_metric *m);
	int			primary_role;	/* whose ops define the metric; -1: all roles */
	bool			latency;	/* keeps per-op latency histograms */
	const char		*aux_names[PB_MAX_AUX];
	/*
	 * Capabilities, declared here and read by core, never found by name:
	 * lost_counter is PB_AUX_ID(i) when aux[i] counts lost datagrams
	 * (pb_lat_lost), 0 for none; reply_timeout_ms, when set, is how long
	 * a role waits for a reply before counting it lost (a server's idle
	 * limit must be longer).  Across hosts: the peer hooks below.
	 */
	int			lost_counter;
	long	(*reply_timeout_ms)(const void *opts);

	/* Checks before anything runs (limits): 0, or -1 with err set. */
	int	(*check)(const void *opts, int nr_instances, char *err);
	/* In the job process, before roles start: make shared state. */
	int	(*setup)(struct pb_setup_ctx *s);
	/* In the role, pinned, before the gate opens. */
	int	(*init)(struct pb_role_ctx *c);
	/* Runs until pb_stop(); counts operations.  0 or -1 (pb_fail). */
	int	(*loop)(struct pb_role_ctx *c);
	void	(*fini)(struct pb_role_ctx *c);
	void	(*teardown)(struct pb_setup_ctx *s);
	/*
	 * Two hosts, all NULL when the workload runs on one host only.
	 * peer_listen (server): data sockets on p->addr, ports out.
	 * peer_accept (server, after the client has the ports; may be NULL):
	 * take the client's connections.  peer_connect (client): sockets
	 * connected to the server's ports; only the client role runs here.
	 */
	int	(*peer_listen)(struct pb_peer_ctx *p);
	int	(*peer_accept)(struct pb_peer_ctx *p);
	int	(*peer_connect)(struct pb_peer_ctx *p);
	/* The metric of one window from the primary role's ops summed. */
	double	(*value)(const void *opts, uint64_t ops, double elapsed_s,
			 int nr_instances);
	/*
	 * What a key's value means when it is not plain (pipe's size=0: "4 B"
	 * for pingpong): buf (len bytes) filled, or false for a plain value.
	 * May be NULL.
	 */
	bool	(*key_note)(const void *opts, const char *key, char *buf, size_t len);
};

static inline bool pb_stop(const struct pb_role_ctx *c)
{
	return __atomic_load_n(c->stopflag, __ATOMIC_RELAXED) != 0;
}

static inline void pb_ops_add(struct pb_role_ctx *c, uint64_t n)
{
	uint64_t v = __atomic_load_n(&c->slot->ops, __ATOMIC_RELAXED);

	__atomic_store_n(&c->slot->ops, v + n, __ATOMIC_RELAXED);
}

static inline void pb_op(struct pb_role_ctx *c)
{
	pb_ops_add(c, 1);
}

static inline void pb_aux_add(struct pb_role_ctx *c, int i, uint64_t n)
{
	uint64_t v = __atomic_load_n(&c->slot->aux[i], __ATOMIC_RELAXED);

	__atomic_store_n(&c->slot->aux[i], v + n, __ATOMIC_RELAXED);
}

/*
 * Per-op latency, timed by the harness (CLOCK_MONOTONIC).  pb_lat_end()
 * closes a completed op: its latency goes to the window's histogram and
 * the time since the previous attempt ended is credited to the slot's
 * busy_ns.  pb_lat_lost() closes an attempt that will never complete (a
 * lost datagram, its receive timed out): nothing is credited, so the
 * wait is excluded from the metric of a window with losses.
 */
void pb_lat_begin(struct pb_role_ctx *c);
void pb_lat_end(struct pb_role_ctx *c);
void pb_lat_lost(struct pb_role_ctx *c);
/* .lost_counter's value for aux[i]: 0 stays "none". */
#define PB_AUX_ID(i)	((i) + 1)
/* The aux index that counts lost datagrams (b->lost_counter), or -1. */
int pb_bench_lost_aux(const struct pb_bench *b);
/* b->reply_timeout_ms of opts, or 0 when b has none. */
long pb_bench_reply_timeout_ms(const struct pb_bench *b, const void *opts);

/* Record a failure reason (with strerror(err) when err != 0); returns -1. */
int pb_fail(struct pb_role_ctx *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int pb_setup_fail(struct pb_setup_ctx *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * A kernel limit for check(): /proc/sys/NAME ("fs/nr_open") as a number,
 * or -1 when unknown; read under $PINBENCH_SYSROOT like every /proc read.
 */
long pb_sysctl_long(const char *name);

/*
 * Test only: burn ns nanoseconds of CPU, for keys that inject a
 * known cost per op (pipe's test_spin_ns), so the statistics' power can
 * be measured against a change of known size.  A spin on the TSC (the
 * monotonic clock off x86) whose rate is timed at the first call in the
 * process: ns spent in the loop itself (time an interrupt, another task
 * or the host takes is not counted), however fast the CPU runs.
 */
void pb_test_spin_ns(long ns);

/* Shared memory for setup(): visible to roles in processes and threads. */
void *pb_shm_alloc(size_t size);
void pb_shm_free(void *p, size_t size);

/*
 * The workload table, NULL-terminated.  benches/benches.c, which links
 * into every program beside the library, hands it in before main(): core
 * refers to no symbol of the layer above it.  NULL until then.
 */
extern const struct pb_bench *const *pb_benches;
const struct pb_bench *pb_bench_find(const char *name);

/* Across two hosts (peer=, `pinbench server`). */
#define PB_SERVER_PORT		7543	/* `pinbench server` default port */
#define PB_PEER_MAX_INSTANCES	64	/* streams per session */
/* Can this workload run across two hosts (it has the peer hooks)? */
bool pb_bench_peer_capable(const struct pb_bench *b);
/* Does it keep per-op latency histograms (.latency)? */
bool pb_bench_keeps_latency(const struct pb_bench *b);
/*
 * The names of the workloads in tab (NULL-terminated) that has() holds
 * for, for messages: "udpping", "udpping and rr", "a, b and c"; "none".
 */
void pb_benches_with(const struct pb_bench *const *tab,
		     bool (*has)(const struct pb_bench *b), char *buf, size_t len);

#endif
