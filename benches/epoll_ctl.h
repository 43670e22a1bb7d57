/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * epoll_ctl.h - the pure parts of the epoll_ctl workload, exposed for the
 * unit tests: the options, the limit check (RLIMIT_NOFILE and
 * fs.epoll.max_user_watches) and the sequence of operations.
 */
#ifndef PINBENCH_EPOLL_CTL_H
#define PINBENCH_EPOLL_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The kernel refuses epoll sets nested deeper (EP_MAX_NESTS, ELOOP). */
#define EPCTL_MAX_NESTED	4

/* Descriptors beyond the workload's: stdio, the harness, counters. */
#define EPCTL_SLACK		64
#define EPCTL_SLACK_PER_TASK	32	/* counter fds, one per event per task */

enum epctl_fdtype { EPCTL_EVENTFD, EPCTL_SOCKET };
enum epctl_mode { EPCTL_CYCLE, EPCTL_BATCH, EPCTL_RANDOM };
enum epctl_sets { EPCTL_SHARED, EPCTL_PRIVATE };
enum epctl_op { EPCTL_ADD, EPCTL_MOD, EPCTL_DEL, EPCTL_NR_OPS };

struct epctl_opts {
	long	threads;
	long	fds;		/* per worker */
	int	fdtype;		/* enum epctl_fdtype */
	int	ops;		/* enum epctl_mode */
	long	pause_ns;	/* nanosleep between passes; 0: none */
	int	epoll;		/* enum epctl_sets */
	long	nested;		/* epoll sets above the one the fds go into */
};

/* What a job needs at most. */
struct epctl_need {
	long	nofile;		/* descriptors in one process (tasks=threads) */
	long	sets;		/* epoll sets */
	long	slack;
	long	watches;	/* epoll items at once, at most */
};

/* What the machine gives. */
struct epctl_limits {
	long	nofile_soft;
	long	nofile_hard;
	long	max_user_watches;	/* < 0: unknown (no check) */
	long	nr_open;		/* fs.nr_open, ceiling of the hard limit; <= 0: unknown */
};

void epctl_need(const struct epctl_opts *o, int nr_workers, struct epctl_need *n);

/*
 * Does the job fit the limits?  0: yes, and *raise_to is the soft
 * RLIMIT_NOFILE to set first (0: none needed, the soft limit is enough);
 * -1: no, with a message in err naming the limit and the shortfall.
 */
int epctl_fit(const struct epctl_opts *o, int nr_workers,
	      const struct epctl_limits *l, long *raise_to, char *err, size_t len);

/* xorshift64 (Marsaglia); the state must not be 0. */
static inline uint64_t epctl_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

/*
 * One worker's sequence of operations over its fds (indices 0..nfds-1).
 *  cycle:  per fd ADD, MOD, DEL, fd after fd (perf bench epoll ctl's loop);
 *  batch:  ADD every fd, then MOD every fd, then DEL every fd;
 *  random: ADD, MOD or DEL drawn with equal odds from a per-worker
 *          xorshift, keeping the set consistent: ADD takes an fd not in the
 *          set, MOD and DEL one in it (an ADD becomes a DEL when every fd is
 *          in, a MOD or DEL becomes an ADD when none is).
 * A pass is 3 x nfds operations in every mode; the worker may pause
 * between passes.
 */
struct epctl_seq {
	int		mode;
	int		nfds;
	long		pos;	/* in the pass, 0 .. 3 x nfds - 1 */
	uint64_t	rng;
	int		*perm;	/* random: perm[0 .. nin-1] are in the set */
	int		nin;
};

struct epctl_step {
	int	op;	/* enum epctl_op */
	int	idx;	/* fd index */
};

/*
 * perm: nfds ints, owned by the caller (random mode; may be NULL otherwise).
 * seed: any value (0 is replaced).  The set starts empty.
 */
void epctl_seq_init(struct epctl_seq *s, int mode, int nfds, int *perm,
		    uint64_t seed);
/* Random mode: mark the first n fds (indices perm[0..n-1]) as in the set. */
void epctl_seq_prefill(struct epctl_seq *s, int n);
/* The next operation; true when it ends a pass. */
bool epctl_next(struct epctl_seq *s, struct epctl_step *st);

#endif
