#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End-to-end: udpping runs briefly in every placement this machine offers,
# as processes and threads, IPv4 and IPv6, with poll/connected/busy_poll,
# and its JSON holds sane values (tests/e2e/net_check.py); injected loss is
# counted, kept out of the rtt and never hangs; bad keys exit 2 with a clear
# message.  One TAP line per check.  IPv6 needs ::1: without it those
# checks are skips that say so.
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2034 # lib.sh shows it after a "not ok"
WHY=$T/why	# the last run: its stderr and what net_check.py said

PL=same-cpu,same-core,same-socket,diff-socket
V6=yes
ipv6_ok || V6=$IPV6_WHY
for tasks in processes threads; do
	for fam in 4 6; do
		if [ $fam = 6 ] && [ "$V6" != yes ]; then
			skip "udpping IPv6 $tasks, every placement: $V6"
			skip "udpping IPv6 $tasks poll=1 connected=1: $V6"
			continue
		fi
		net_run_check udpping "udpping IPv$fam $tasks, every placement" ok \
			family=$fam tasks=$tasks placement=$PL
		net_run_check udpping "udpping IPv$fam $tasks poll=1 connected=1" ok \
			family=$fam tasks=$tasks poll=1 connected=1 placement=$PL
	done
done
net_run_check udpping "udpping size=65507 IPv4" ok size=65507 placement=same-cpu
if [ "$V6" = yes ]; then
	net_run_check udpping "udpping size=65527 IPv6 poll=1" ok \
		size=65527 family=6 poll=1 placement=same-cpu
else
	skip "udpping size=65527 IPv6 poll=1: $V6"
fi

# busy_poll: runs, or the job fails saying plainly that the kernel refused.
net_busy_poll udpping

# Loss: the server drops every 3rd datagram; each costs the 5 ms timeout.
for tasks in processes threads; do
	for p in 0 1; do
		start=$(date +%s)
		net_run_check udpping "udpping drop_every=3 poll=$p $tasks: loss counted" lost \
			drop_every=3 timeout_ms=5 poll=$p tasks=$tasks placement=same-cpu
		[ $(($(date +%s) - start)) -lt 20 ]
		ok $? "udpping drop_every=3 poll=$p $tasks: finished within 20 s"
	done
done
# A lost datagram is not a round trip: with 1 in 20 lost and a 50 ms timeout
# the waits would be 2500 us per round trip; the rtt must be the completed
# round trips' (their mean latency), and the loss its own figure (1 in 20).
for tasks in processes threads; do
	net_run_check udpping "udpping drop_every=20 $tasks: rtt over completed round trips, loss 1 in 20" \
		loss:20 drop_every=20 timeout_ms=50 tasks=$tasks placement=same-cpu,same-socket
done
# Every datagram lost: no round trip, no figure: the job failed, not ok.
net_run udpping drop_every=1 timeout_ms=5 placement=same-cpu
rc=$?
check "udpping drop_every=1: exit 1, the job failed: every datagram lost, no summary" \
	pyjson "$T/json" 'd["jobs"][0]["status"] == "failed" and "every datagram was lost" in d["jobs"][0]["reason"] and d["jobs"][0]["summary"] is None and d["jobs"][0]["loss_rate"] == 1 and all(r["stall"] and r["value"] is None for r in d["jobs"][0]["repeats"]) and '"$rc"' == 1'

# A 30 s receive timeout pending at the end: the stop interrupts the wait,
# so the whole run is shorter than the one timeout it would wait out.  No
# round trip completes in the 0.3 s windows (but perhaps the warm-up's): the
# job has no figure, failed.
start=$(date +%s%N)
net_run udpping drop_every=2 timeout_ms=30000 placement=same-cpu
rc=$?
check "udpping drop_every=2 timeout_ms=30000: exit 1, every window stalled, failed" \
	pyjson "$T/json" '(d["jobs"][0]["status"], '"$rc"') == ("failed", 1) and d["jobs"][0]["reason"].startswith("every window stalled") or (d["jobs"][0]["status"], '"$(ran $rc)"') == ("ok", 0)'
ms=$((($(date +%s%N) - start) / 1000000))
[ $ms -lt 30000 ]
ok $? "udpping pending 30 s receive timeout does not hold up the stop (run $ms ms)"

# Bad keys: exit 2 with a message naming the key (and file:line for job files).
exits2 "size over the IPv4 limit" "size=65508 is over the largest UDP payload over IPv4 (65507" \
	"$PB" bench udpping size=65508
exits2 "size out of range" "size: '0' is out of range" "$PB" bench udpping size=0
exits2 "family not 4 or 6" "family: '5' is not one of 4|6" "$PB" bench udpping family=5
exits2 "busy_poll negative" "busy_poll" "$PB" bench udpping busy_poll=-1
printf '[big]\nbench=udpping\nfamily=4\nsize=65520\n' >"$T/big.ini"
exits2 "job file: size over the IPv4 limit names file:line" "$T/big.ini:1: job 'big': size=65520" \
	"$PB" run "$T/big.ini"
printf '[x]\nbench=udpping\nconnected=maybe\n' >"$T/conn.ini"
exits2 "job file: bad bool names file:line" "$T/conn.ini:3: connected" "$PB" run "$T/conn.ini"
printf '[x]\nbench=udpping\npercentiles=50,100\n' >"$T/pct.ini"
exits2 "job file: percentiles=50,100 names file:line" "$T/pct.ini:3: percentiles" "$PB" run "$T/pct.ini"

# percentiles=: the ones asked for, in the JSON and the text, sorted, min and max always
$PB bench udpping cpus=0,0 percentiles=99.99,50,50 --repeats 1 --duration 0.2 --warmup 0 \
	--events none -v -o "$T/pct" >"$T/pct.out" 2>"$T/err"
J=$(result_of "$T/pct.out")
check "percentiles=99.99,50,50: summary latency has p50 and p99.99 only, and min, max" pyjson "$J" \
	'[k for k in d["jobs"][0]["summary"]["latency"]] == ["count", "mean", "min", "p50", "p99.99", "max"]'
check "percentiles=: the text shows them" grep -Eq 'latency µs: p50 [0-9.]+ +p99.99 [0-9.]+ +max' "$T/pct.out"
# three significant digits (the histogram's buckets are a few per cent wide): no 38.02 or 3547.14
check "latency µs: numbers to three significant digits" python3 -c '
import re, sys
nums = [n for l in open(sys.argv[1]) if "latency µs:" in l
	for n in re.findall(r"\b[0-9]+\.[0-9]+\b", l)]
sys.exit(any(len(n.replace(".", "").lstrip("0")) > 3 for n in nums))' "$T/pct.out"
done_testing
