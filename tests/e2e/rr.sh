#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End-to-end: rr (TCP_RR/UDP_RR) runs briefly in every placement this
# machine offers, 1 and 2 streams, as processes and threads, IPv4 and IPv6,
# large requests and responses (partial TCP reads and writes), and its JSON
# holds sane values (tests/e2e/net_check.py); injected UDP loss is counted,
# kept out of trans/s and never hangs; bad keys exit 2 with a clear
# message.  One TAP line per check.  IPv6 needs ::1 and 2 streams 2 CPUs:
# without them those checks are skips that say so (2 streams: every job
# must then be skipped).
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2034 # lib.sh shows it after a "not ok"
WHY=$T/why	# the last run: its stderr and what net_check.py said

PL=same-cpu,same-core,same-socket,diff-socket
V6=yes
ipv6_ok || V6=$IPV6_WHY
for proto in tcp udp; do
	for tasks in processes threads; do
		for s in 1 2; do
			net_run_check_cpus $s rr "rr $proto streams=$s $tasks, every placement" ok \
				proto=$proto streams=$s tasks=$tasks placement=$PL
		done
	done
	if [ "$V6" = yes ]; then
		net_run_check rr "rr $proto IPv6" ok proto=$proto family=6 placement=$PL
	else
		skip "rr $proto IPv6: $V6"
	fi
done
net_run_check rr "rr tcp nodelay=0" ok proto=tcp nodelay=0 placement=same-cpu
net_run_check rr "rr tcp request=100000 response=300000 (partial reads/writes)" ok \
	proto=tcp request=100000 response=300000 placement=$PL
net_run_check rr "rr udp request=1000 response=65507" ok \
	proto=udp request=1000 response=65507 placement=same-cpu
if [ "$V6" = yes ]; then
	net_run_check rr "rr udp IPv6 request=65527 response=8" ok \
		proto=udp family=6 request=65527 response=8 placement=same-cpu
else
	skip "rr udp IPv6 request=65527 response=8: $V6"
fi

net_busy_poll rr

for tasks in processes threads; do
	start=$(date +%s)
	net_run_check_cpus 2 rr "rr udp drop_every=3 streams=2 $tasks: loss counted" lost \
		proto=udp drop_every=3 timeout_ms=5 streams=2 tasks=$tasks placement=same-cpu
	[ $(($(date +%s) - start)) -lt 20 ]
	ok $? "rr udp drop_every=3 $tasks: finished within 20 s"
done

# A lost request is not a transaction: trans/s over the completed ones,
# without the 50 ms waits; the loss its own figure (1 in 20).
net_run_check rr "rr udp drop_every=20: trans/s over completed transactions, loss 1 in 20" \
	loss:20 proto=udp drop_every=20 timeout_ms=50 placement=same-cpu,same-socket

exits2 "udp response over the IPv4 limit" \
	"response=65508 is over the largest UDP payload over IPv4" \
	"$PB" bench rr proto=udp response=65508
exits2 "udp request over the IPv6 limit" "request=65528 is over the largest UDP payload over IPv6" \
	"$PB" bench rr proto=udp family=6 request=65528
exits2 "drop_every with tcp" "drop_every=3 needs proto=udp" "$PB" bench rr drop_every=3
exits2 "streams out of range" "streams: '0' is out of range" "$PB" bench rr streams=0
exits2 "proto unknown" "proto: 'sctp' is not one of tcp|udp" "$PB" bench rr proto=sctp
exits2 "streams over the descriptor limit" \
	"streams=1024 needs about 2112 descriptors, over the hard RLIMIT_NOFILE of 512 by 1600" \
	sh -c "ulimit -n 512 && exec \"\$0\" bench rr streams=1024 --dry-run" "$PB"
printf '[u]\nbench=rr\nproto=udp\nrequest=70000\n' >"$T/big.ini"
exits2 "job file: udp request over the limit names file:line" \
	"$T/big.ini:1: job 'u': request=70000" "$PB" run "$T/big.ini"
printf '[x]\nbench=rr\nstreams=2\ncpus=0,1\n' >"$T/cpus.ini"
exits2 "job file: cpus= for 2 streams needs 4 CPUs" "$T/cpus.ini:4" "$PB" run "$T/cpus.ini"
done_testing
