#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# udpping round trip vs `sockperf ping-pong`, in µs RTT: the mean, p50 and
# p99.  sockperf prints one-way latency (RTT/2): its figures are doubled
# here.  Same message size on both (sockperf's minimum, 14 bytes), UDP over
# 127.0.0.1.  Two CPUs: pinbench client on CPU 0, server on CPU 1
# (cpus=0,1); sockperf client under taskset -c 0, server under taskset -c 1.
# Same CPU: all on CPU 0.  Alternating A B A B for ROUNDS rounds; each ratio
# is the median over the rounds of pinbench / sockperf (target <= 1.05).
# A benchmark, not a test: it prints, it does not judge.
#   ROUNDS=9 DUR=5 sh tests/peers/udpping.sh    (DUR: whole seconds, as sockperf -t)
#   PBARGS="connected=1" adds workload keys to the pinbench runs
#   PLACEMENTS=same-cpu runs one placement (default: two-cpus same-cpu)
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

pb_rtt() {	# client-cpu server-cpu: "mean p50 p99", µs RTT
	# shellcheck disable=SC2086 # PBARGS is a list of keys
	$PB bench udpping cpus="$1,$2" size=$SIZE --duration "$DUR" --repeats 1 --warmup 1 \
		events=none $PBARGS --format json -q -o "$tmp/out" 2>/dev/null |
		python3 -c '
import json, sys
s = json.load(sys.stdin)["jobs"][0]["summary"]
print("%.3f %.3f %.3f" % (s["mean"], s["latency"]["p50"], s["latency"]["p99"]))' \
		2>/dev/null || echo nan nan nan
}

sockperf_rtt() {	# client-cpu server-cpu: "mean p50 p99", µs RTT (2 x one-way)
	taskset -c "$2" sockperf server -i 127.0.0.1 -p "$PORT" >"$tmp/server.log" 2>&1 &
	srv=$!
	sleep 0.5
	taskset -c "$1" sockperf ping-pong -i 127.0.0.1 -p "$PORT" -m $SIZE -t "$DUR" \
		>"$tmp/client.log" 2>&1
	kill "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	srv=""
	# "avg-latency=12.345 (std-dev=...)", "---> percentile 99.000 =   9.876": one-way, usec
	python3 - "$tmp/client.log" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
def one(pat):
    m = re.search(pat, t)
    return 2 * float(m.group(1)) if m else float("nan")
print("%.3f %.3f %.3f" % (one(r"avg-latency=([0-9.]+)"),
                          one(r"percentile 50\.000 =\s*([0-9.]+)"),
                          one(r"percentile 99\.000 =\s*([0-9.]+)")))
PY
}

compare() {	# label client-cpu server-cpu
	: >"$tmp/rounds"
	for i in $(seq 1 "$ROUNDS"); do
		echo "$(pb_rtt "$2" "$3") $(sockperf_rtt "$2" "$3")" >>"$tmp/rounds"
	done
	python3 - "$1" "$tmp/rounds" <<'PY'
import math, statistics as st, sys
name, rows = sys.argv[1], [list(map(float, l.split())) for l in open(sys.argv[2])]
for k, what in enumerate(("mean", "p50", "p99")):
    a = [r[k] for r in rows]
    b = [r[3 + k] for r in rows]
    ratios = [x / y for x, y in zip(a, b) if y > 0 and not math.isnan(x / y)]
    r = st.median(ratios) if ratios else float("nan")
    print("%-9s %-4s pinbench %s | sockperf %s | median ratio %.3f [%.3f-%.3f]%s" % (
        name, what, " ".join("%.2f" % x for x in a), " ".join("%.2f" % x for x in b), r,
        min(ratios) if ratios else r, max(ratios) if ratios else r,
        "" if r <= 1.05 or math.isnan(r) else "  (over the 1.05 target)"))
PY
}

echo "udpping vs sockperf ping-pong: UDP, $SIZE bytes, $DUR s x $ROUNDS rounds alternating${PBARGS:+, pinbench with $PBARGS}"
echo "(µs RTT; sockperf reports one-way latency, doubled here)"
for p in ${PLACEMENTS:-two-cpus same-cpu}; do
	case $p in
	two-cpus) compare two-cpus 0 1 ;;
	same-cpu) compare same-cpu 0 0 ;;
	*) echo "unknown placement $p (two-cpus, same-cpu)" >&2; exit 2 ;;
	esac
done
