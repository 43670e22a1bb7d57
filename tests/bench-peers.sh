#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make bench-peers: each workload side by side with the tool users would
# pick instead, on the same CPUs, alternating A B A B; prints both figures
# and the ratio.  A benchmark, not a test: it prints, it does not judge.
cd "$(dirname "$0")/.." || exit 2
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	need=""
	command -v perf >/dev/null || need="$need linux-perf"
	command -v sockperf >/dev/null || need="$need sockperf"
	command -v qperf >/dev/null || need="$need qperf"
	[ -n "$need" ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi
for s in tests/peers/${1:-*}.sh; do
	echo "== $s"
	sh "$s"
done
