#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# pipe pingpong vs `perf bench sched pipe`, round trip in µs.
# Same CPU: both pinned to CPU 0 (perf: taskset -c 0).  Two CPUs: pinbench
# pins writer to CPU 0 and reader to CPU 1; perf bench cannot pin each end,
# so it runs under taskset -c 0,1 and the scheduler places the ends.
PB=${PINBENCH:-./pinbench}
ROUNDS=${ROUNDS:-3}
LOOPS=${LOOPS:-500000}
command -v perf >/dev/null || { echo "skip: perf not installed (apt-get install linux-perf)"; exit 0; }
# events=none: with counting=separate (the default) the metric's windows
# open no counter anyway; the counter passes would only add their own time.
pb_rtt() {	# cpus loops
	$PB bench pipe cpus="$1" loops=$2 events=none --repeats 1 --warmup 0.2 --format json -q \
		-o "${TMPDIR:-/tmp}/pinbench-peers" 2>/dev/null |
		python3 -c 'import json,sys; print("%.4f" % json.load(sys.stdin)["jobs"][0]["summary"]["mean"])'
}
perf_rtt() {	# taskset-cpus loops
	taskset -c "$1" perf bench sched pipe -l $2 2>/dev/null |
		awk '/usecs\/op/ { print $1 }'
}
compare() {	# label pinbench-cpus taskset-cpus loops
	a=""; b=""
	for i in $(seq 1 $ROUNDS); do
		a="$a $(pb_rtt "$2" "$4")"
		b="$b $(perf_rtt "$3" "$4")"
	done
	echo "$1" "$a" "|" "$b" | python3 -c '
import math, sys, statistics as st
l = sys.stdin.read().split("|")
name, *a = l[0].split(); b = [float(x) for x in l[1].split()]
a = [float(x) for x in a]
da, db = st.median(a), st.median(b)
# each round is a pair run back to back: the median of the pairs ratios
# cancels what the host did between rounds; its 95 % interval is a pair of
# order statistics (the binomial, n >= 6)
r = sorted(x / y for x, y in zip(a, b))
n = len(r)
k = max([j for j in range(n // 2) if sum(math.comb(n, i) for i in range(j)) / 2 ** n <= 0.025] or [0])
ci = " [%.3f-%.3f]" % (r[k - 1], r[n - k]) if k else ""
print("%-10s pinbench %s  median %.3f us | perf bench %s  median %.3f us | median of the rounds ratios %.3f%s (ratio of medians %.3f)" % (
    name, " ".join("%.3f" % x for x in a), da, " ".join("%.3f" % x for x in b), db, st.median(r), ci, da / db))'
}
echo "pipe pingpong round trip, $LOOPS loops, $ROUNDS rounds alternating (ratio = pinbench / perf)"
compare same-cpu 0,0 0 $LOOPS
compare two-cpus 0,1 0,1 $((LOOPS / 10))
