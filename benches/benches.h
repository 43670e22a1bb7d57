/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * benches.h - the one table of workloads (an X-macro, as stress-ng does):
 * adding a workload is a file in benches/ and a line here.  A forgotten
 * file fails at link time.  benches.c hands the table to core
 * (pb_benches) before main().
 */
#ifndef PINBENCH_BENCHES_H
#define PINBENCH_BENCHES_H

#define PB_BENCHES(X)	\
	X(pipe)	\
	X(epoll_ctl)	\
	X(udpping)	\
	X(rr)

#endif
