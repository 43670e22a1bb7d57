#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Observer cost: pipe pingpong with the default event set against no
# counters at all, same CPUs, alternating.  With counting=separate (the
# default) the metric's windows open no counter, so the cost should be
# nil; counting=inline shows what per-task counting itself costs.
PB=${PINBENCH:-./pinbench}
ROUNDS=${ROUNDS:-4}
rtt() {	# cpus extra-args...
	c=$1
	shift
	$PB bench pipe cpus="$c" --duration 1 --repeats 3 --warmup 0.3 --format json -q \
		-o "${TMPDIR:-/tmp}/pinbench-peers" "$@" 2>/dev/null |
		python3 -c 'import json,sys; print("%.4f" % json.load(sys.stdin)["jobs"][0]["summary"]["mean"])'
}
for cpus in 0,0 0,1; do
	a=""; b=""; c=""
	for i in $(seq 1 $ROUNDS); do
		a="$a $(rtt $cpus --events none)"
		b="$b $(rtt $cpus)"
		c="$c $(rtt $cpus --set counting=inline)"
	done
	echo "$cpus|$a|$b|$c" | python3 -c '
import sys, statistics as st
cpus, a, b, c = sys.stdin.read().strip().split("|")
a, b, c = ([float(x) for x in s.split()] for s in (a, b, c))
ma, mb, mc = st.median(a), st.median(b), st.median(c)
print("cpus %s: rtt us median of %d: events=none %.3f | default (separate) %.3f (%+.2f %%) | counting=inline %.3f (%+.2f %%)"
      % (cpus, len(a), ma, mb, 100 * (mb / ma - 1), mc, 100 * (mc / ma - 1)))'
done
