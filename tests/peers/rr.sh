#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# rr (TCP and UDP request/response, 1 byte each way) vs `qperf tcp_lat` /
# `udp_lat`, and vs `netperf -t TCP_RR` / `UDP_RR` when netperf is on PATH
# (it is not packaged in Debian).  All figures as µs RTT per transaction:
# pinbench and netperf report transactions/s (RTT = 1e6 / rate); qperf
# reports one-way latency (RTT/2), doubled here.
# Two CPUs: client on CPU 0, server on CPU 1 (pinbench cpus=0,1; the peers
# under taskset).  Same CPU: all on CPU 0.  Alternating A B A B for ROUNDS
# rounds; ratio = pinbench RTT / peer RTT (target within 5 %).
# A benchmark, not a test: it prints, it does not judge.
PB=${PINBENCH:-./pinbench}
ROUNDS=${ROUNDS:-3}
DUR=${DUR:-5}
PORT=${PORT:-$((30000 + $$ % 10000))}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pb-peer-rr.XXXXXX") || exit 2
srv=""
trap '[ -n "$srv" ] && kill "$srv" 2>/dev/null; rm -rf "$tmp"' EXIT

if ! command -v qperf >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qperf >/dev/null 2>&1
fi

pb_rtt() {	# proto client-cpu server-cpu
	$PB bench rr proto="$1" cpus="$2,$3" --duration "$DUR" --repeats 1 --warmup 1 \
		--format json -q -o "$tmp/out" 2>/dev/null |
		python3 -c 'import json,sys; print("%.3f" % (1e6 / json.load(sys.stdin)["jobs"][0]["summary"]["mean"]))' \
		2>/dev/null || echo nan
}

server_start() {	# cpu command...
	cpu=$1
	shift
	taskset -c "$cpu" "$@" >"$tmp/server.log" 2>&1 &
	srv=$!
	sleep 0.5
}

server_stop() {
	kill "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	srv=""
}

qperf_rtt() {	# proto client-cpu server-cpu
	server_start "$3" qperf --listen_port "$PORT"
	# "    latency  =  25.3 us": one-way; the unit may be ns, us, ms or sec
	taskset -c "$2" qperf --listen_port "$PORT" -t "$DUR" -m 1 127.0.0.1 "$1_lat" 2>&1 |
		awk '/latency/ { u = $4; v = $3
			f = u == "ns" ? 1e-3 : u == "ms" ? 1e3 : u == "sec" ? 1e6 : 1
			printf "%.3f\n", 2 * v * f; ok = 1 }
		     END { if (!ok) print "nan" }'
	server_stop
}

netperf_rtt() {	# proto client-cpu server-cpu
	server_start "$3" netserver -D -p "$PORT"
	taskset -c "$2" netperf -H 127.0.0.1 -p "$PORT" -l "$DUR" -P 0 \
		-t "$(echo "$1" | tr a-z A-Z)_RR" -- -r 1,1 -o THROUGHPUT 2>/dev/null |
		awk '$1 + 0 > 0 { printf "%.3f\n", 1e6 / $1; ok = 1 } END { if (!ok) print "nan" }'
	server_stop
}

compare() {	# peer proto label client-cpu server-cpu
	a=""
	b=""
	for i in $(seq 1 "$ROUNDS"); do
		a="$a $(pb_rtt "$2" "$4" "$5")"
		b="$b $("$1"_rtt "$2" "$4" "$5")"
	done
	echo "$1 $2 $3 $a | $b" | python3 -c '
import math, sys, statistics as st
l = sys.stdin.read().split("|")
peer, proto, name, *a = l[0].split()
a = [float(x) for x in a]
b = [float(x) for x in l[1].split()]
ma, mb = st.mean(a), st.mean(b)
r = ma / mb if mb > 0 and not math.isnan(mb) else float("nan")
print("%s %-9s pinbench %s  mean %.3f us RTT (%.0f trans/s) | %s %s  mean %.3f us RTT | ratio %.3f%s" % (
    proto, name, " ".join("%.3f" % x for x in a), ma, 1e6 / ma, peer,
    " ".join("%.3f" % x for x in b), mb, r,
    "" if abs(r - 1) <= 0.05 else "  (outside 5 %)"))'
}

echo "rr vs qperf/netperf: 1-byte request and response, $DUR s x $ROUNDS rounds alternating"
echo "(qperf reports one-way latency, doubled here; rates are shown as 1e6/rate us RTT)"
for proto in tcp udp; do
	if command -v qperf >/dev/null; then
		compare qperf "$proto" two-cpus 0 1
		compare qperf "$proto" same-cpu 0 0
	else
		echo "$proto: skip qperf: not installed (apt-get install qperf)"
	fi
	if command -v netperf >/dev/null && command -v netserver >/dev/null; then
		compare netperf "$proto" two-cpus 0 1
		compare netperf "$proto" same-cpu 0 0
	else
		echo "$proto: skip netperf: not on PATH (not packaged in Debian)"
	fi
done
