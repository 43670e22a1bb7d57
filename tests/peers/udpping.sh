#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# udpping round trip vs `sockperf ping-pong`, in µs RTT.  sockperf prints
# one-way latency (RTT/2): its figure is doubled here.  Same message size
# on both (sockperf's minimum, 14 bytes), UDP over 127.0.0.1.
# Two CPUs: pinbench client on CPU 0, server on CPU 1 (cpus=0,1); sockperf
# client under taskset -c 0, server under taskset -c 1.  Same CPU: all on
# CPU 0.  Alternating A B A B for ROUNDS rounds; ratio = pinbench / sockperf
# (target <= 1.05).  A benchmark, not a test: it prints, it does not judge.
PB=${PINBENCH:-./pinbench}
ROUNDS=${ROUNDS:-3}
DUR=${DUR:-5}
SIZE=14
PORT=${PORT:-$((20000 + $$ % 10000))}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pb-peer-udpping.XXXXXX") || exit 2
srv=""
trap '[ -n "$srv" ] && kill "$srv" 2>/dev/null; rm -rf "$tmp"' EXIT

if ! command -v sockperf >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sockperf >/dev/null 2>&1
fi
command -v sockperf >/dev/null || { echo "skip: sockperf not installed (apt-get install sockperf)"; exit 0; }

pb_rtt() {	# client-cpu server-cpu
	$PB bench udpping cpus="$1,$2" size=$SIZE --duration "$DUR" --repeats 1 --warmup 1 \
		--format json -q -o "$tmp/out" 2>/dev/null |
		python3 -c 'import json,sys; print("%.3f" % json.load(sys.stdin)["jobs"][0]["summary"]["mean"])' \
		2>/dev/null || echo nan
}

sockperf_rtt() {	# client-cpu server-cpu
	taskset -c "$2" sockperf server -i 127.0.0.1 -p "$PORT" >"$tmp/server.log" 2>&1 &
	srv=$!
	sleep 0.5
	taskset -c "$1" sockperf ping-pong -i 127.0.0.1 -p "$PORT" -m $SIZE -t "$DUR" \
		>"$tmp/client.log" 2>&1
	kill "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	srv=""
	# "sockperf: ====> avg-latency=12.345 (std-dev=...)": one-way, usec
	sed -n 's/.*avg-latency=\([0-9.]*\).*/\1/p' "$tmp/client.log" |
		awk 'NR == 1 { printf "%.3f\n", 2 * $1; ok = 1 } END { if (!ok) print "nan" }'
}

compare() {	# label client-cpu server-cpu
	a=""
	b=""
	for i in $(seq 1 "$ROUNDS"); do
		a="$a $(pb_rtt "$2" "$3")"
		b="$b $(sockperf_rtt "$2" "$3")"
	done
	echo "$1 $a | $b" | python3 -c '
import math, sys, statistics as st
l = sys.stdin.read().split("|")
name, *a = l[0].split()
a = [float(x) for x in a]
b = [float(x) for x in l[1].split()]
ma, mb = st.mean(a), st.mean(b)
r = ma / mb if mb > 0 and not math.isnan(mb) else float("nan")
print("%-9s pinbench %s  mean %.3f us RTT | sockperf 2 x one-way %s  mean %.3f us RTT | ratio %.3f%s" % (
    name, " ".join("%.3f" % x for x in a), ma, " ".join("%.3f" % x for x in b), mb, r,
    "" if r <= 1.05 else "  (over the 1.05 target)"))'
}

echo "udpping vs sockperf ping-pong: UDP, $SIZE bytes, $DUR s x $ROUNDS rounds alternating"
echo "(sockperf reports one-way latency; doubled here to compare RTT with RTT)"
compare two-cpus 0 1
compare same-cpu 0 0
