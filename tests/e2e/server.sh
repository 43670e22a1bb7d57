#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End-to-end: `pinbench server` and peer= jobs.  Over loopback: udpping and
# rr (tcp, udp) across the control protocol, the peer recorded in the JSON,
# test-only keys refused from the network, UDP data ports that answer only
# the session's client, refusals with clear reasons, hostile and truncated
# control frames (tests/e2e/server_frames.py) that never crash or hang the
# server, the session cap, the stall timeout, the idle limit after HELLO, the
# log's rate limit under a flood of connections, a parameter mismatch from a
# fake server, a session process killed mid-job (the client's job fails at
# once, the run goes on), and a clean SIGTERM.  As root with iproute2: the same
# across two network namespaces joined by a veth pair (192.0.2.0/24,
# TEST-NET-1, inside the namespaces only), removed at the end even on failure.
. "$(dirname "$0")/lib.sh"
FR="python3 tests/e2e/server_frames.py"
PB_FRAMES_CPU=$C0	# a CPU the loopback server offers (--cpus $C0)
export PB_FRAMES_CPU
# a key is set once on the command line: SHORT0 for a job that sets timeout= itself
SHORT0="--repeats 2 --duration 0.3 --warmup 0.1 --set events=none -q --format json"
SHORT="$SHORT0 --set timeout=3"
NS_A=pbA$$
NS_B=pbB$$
SRV=
RUN=
on_exit() {	# lib.sh: before $T goes
	[ -n "$RUN" ] && kill "$RUN" 2>/dev/null
	[ -n "$SRV" ] && kill -9 "$SRV" 2>/dev/null
	if [ -n "$NETNS" ]; then
		ip netns pids "$NS_B" 2>/dev/null | xargs -r kill -9 2>/dev/null
		ip netns del "$NS_A" 2>/dev/null
		ip netns del "$NS_B" 2>/dev/null
	fi
}

# port_of LOG: the port a server says it listens on, waiting up to 10 s
# (a loaded machine can be slow to start it)
port_of() {
	_i=0
	while [ $_i -lt 100 ]; do
		_port=$(sed -n 's/.*listening on [^ ]*:\([0-9]*\) .*/\1/p' "$1" 2>/dev/null)
		[ -n "$_port" ] && break
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "$_port"
}

# start_server LOG [OPTIONS]: sets SRV and PORT ("" when it did not start)
start_server() {
	log=$1
	shift
	"$PB" server --port 0 "$@" 2>"$log" &
	SRV=$!
	PORT=$(port_of "$log")
}

# wait_until TENTHS COMMAND...: COMMAND every 0.1 s until it succeeds; 1 when
# it has not within TENTHS tenths of a second
wait_until() {
	_n=$1
	shift
	until "$@"; do
		[ "$_n" -le 0 ] && return 1
		sleep 0.1
		_n=$((_n - 1))
	done
}

# no_sessions: wait (up to 10 s) until this server ($SRV) has no session
# process left, reaped ones included: their slots are free then.  1 if one stays.
no_session_left() {
	! pgrep -P "$SRV" >/dev/null
}
no_sessions() {
	wait_until 100 no_session_left
}

# reasons JSON: "name/placement status: reason" of every job not ok, into $T/why
reasons() {
	python3 -c 'import json, sys
for j in json.load(open(sys.argv[1]))["jobs"]:
    if j["status"] != "ok":
        print("%s/%s %s: %s (%.1f s)" % (j["name"], j["placement"], j["status"],
                                         j["reason"], j.get("wall_s", 0)))' "$1" >"$T/why" 2>&1
}

# ---------------------------------------------------------- options
"$PB" server --help >"$T/help" 2>&1
ok $? "server --help exits 0"
grep -q -- "--session-timeout" "$T/help"
ok $? "server --help lists --session-timeout"
for bad in "--port 70000" "--max-sessions 0" "--session-timeout 0" "--idle-timeout 0" \
	   "--idle-timeout 3601" "--cpus 9999" \
	   "--cpus x" "--frobnicate" "extra"; do
	# shellcheck disable=SC2086
	"$PB" server $bad >/dev/null 2>"$T/err"
	ok $([ $? = 2 ] && [ -s "$T/err" ]; echo $?) "server $bad: exit 2 with a message"
done
"$PB" server --cpus 0,9999 >/dev/null 2>"$T/err"
ok $([ $? = 2 ] && grep -q "CPU 9999 is not available here" "$T/err"; echo $?) \
	"server --cpus 0,9999: exit 2 naming CPU 9999" "$T/err"
"$PB" server --bind 203.0.113.77 --port 0 >/dev/null 2>"$T/err"
ok $([ $? = 1 ] && grep -q "cannot listen" "$T/err"; echo $?) \
	"server on an address this host does not have: exit 1, says why"

# ------------------------------------------------------ job keys
"$PB" bench pipe peer=127.0.0.1 $SHORT -o "$T/o" >/dev/null 2>"$T/err"
ok $([ $? = 2 ] && grep -q "cannot run across hosts" "$T/err"; echo $?) \
	"peer= with bench pipe: exit 2"
"$PB" bench udpping peer=127.0.0.1:99999 $SHORT -o "$T/o" >/dev/null 2>"$T/err"
ok $([ $? = 2 ] && grep -q "peer" "$T/err"; echo $?) "peer= with a bad port: exit 2"
"$PB" bench udpping peer_cpu=1 $SHORT -o "$T/o" >/dev/null 2>"$T/err"
ok $([ $? = 2 ] && grep -q "peer_cpu needs peer" "$T/err"; echo $?) \
	"peer_cpu without peer: exit 2"
"$PB" bench rr streams=2 cpus=$C0,$C0,$C0,$C0 peer=127.0.0.1 $SHORT -o "$T/o" >/dev/null 2>"$T/err"
ok $([ $? = 2 ] && grep -q "one per client" "$T/err"; echo $?) \
	"peer= with cpus= of both roles: exit 2 (one CPU per client)"
"$PB" bench udpping cpus=$C0 --peer 127.0.0.1:1 $SHORT -o "$T/o" >"$T/j" 2>"$T/err"
ok $([ $? = 1 ] && pyjson "$T/j" "d['jobs'][0]['status'] == 'failed' and \
	'connect' in d['jobs'][0]['reason']"; echo $?) \
	"--peer with nobody listening: job failed, reason says connect"

# ------------------------------------------------ loopback sessions
start_server "$T/srv.log" --session-timeout 4 --max-sessions 2 --cpus $C0
ok $([ -n "$PORT" ]; echo $?) "server starts on 127.0.0.1 and logs its port"
P="peer=127.0.0.1:$PORT"

"$PB" bench udpping cpus=$C0 $P peer_cpu=$C0 $SHORT -o "$T/o" >"$T/u.json" 2>"$T/err"
ok $? "udpping across the control protocol: exit 0"
check "udpping JSON: ok, one client task, rtt > 0, peer recorded" pyjson "$T/u.json" \
	"d['jobs'][0]['status'] == 'ok' and len(d['jobs'][0]['cpus']) == 1 and \
	 d['jobs'][0]['cpus'][0]['role'] == 'client' and measured(d['jobs'][0]) \
	 and d['jobs'][0]['peer']['address'] == '127.0.0.1:$PORT' and \
	 d['jobs'][0]['peer']['cpu'] == $C0 and d['jobs'][0]['peer']['kernel'] and \
	 d['jobs'][0]['peer']['hostname'] and d['jobs'][0]['peer']['cpu_model'] and \
	 d['jobs'][0]['peer']['ops'] >= sum(r['ops'] for r in d['jobs'][0]['repeats'])"
"$PB" compare --group-by peer --format json "$T/u.json" >"$T/gp.json" 2>"$T/err"
check "compare --group-by peer: rows are the peer's host" pyjson "$T/gp.json" \
	"d['group_by'] == 'peer' and d['results'][0]['label'] == '$(hostname)'"
"$PB" bench rr streams=2 cpus=$C0,$C0 $P peer_cpu=$C0 $SHORT -o "$T/o" >"$T/r.json" 2>"$T/err"
check "rr tcp, 2 streams, across the protocol: ok, trans/s > 0" pyjson "$T/r.json" \
	"d['jobs'][0]['status'] == 'ok' and measured(d['jobs'][0]) and \
	 len(d['jobs'][0]['cpus']) == 2"
"$PB" bench rr proto=udp cpus=$C0 $P peer_cpu=$C0 $SHORT -o "$T/o" >"$T/r2.json" 2>"$T/err"
check "rr udp across the protocol: ok" pyjson "$T/r2.json" \
	"d['jobs'][0]['status'] == 'ok' and measured(d['jobs'][0])"
"$PB" bench udpping cpus=$C0 connected=1 poll=1 $P peer_cpu=$C0 $SHORT -o "$T/o" >"$T/c.json" 2>"$T/err"
check "udpping connected=1 poll=1 across the protocol: ok" pyjson "$T/c.json" \
	"d['jobs'][0]['status'] == 'ok'"
for b in "udpping" "rr proto=udp"; do
	# shellcheck disable=SC2086
	timeout 30 "$PB" bench $b cpus=$C0 $P peer_cpu=$C0 drop_every=3 timeout_ms=5 $SHORT -o "$T/o" \
		>"$T/l.json" 2>"$T/err"
	check "$b drop_every=3 (test only) across hosts: refused, the key named" \
		pyjson "$T/l.json" "d['jobs'][0]['status'] == 'failed' and \
		'drop_every' in d['jobs'][0]['reason'] and 'tests only' in d['jobs'][0]['reason']"
done
"$PB" bench udpping cpus=$C0 $P peer_cpu=$((C0 + 1)) $SHORT -o "$T/o" >"$T/n.json" 2>"$T/err"
check "peer_cpu not in the server's --cpus: failed, the server's reason" pyjson "$T/n.json" \
	"d['jobs'][0]['status'] == 'failed' and 'not offered' in d['jobs'][0]['reason']"
"$PB" bench udpping cpus=$C0 $P peer_cpu=$C0 $SHORT0 --set timeout=60 -o "$T/o" >"$T/t.json" 2>"$T/err"
check "a job longer than --session-timeout is refused with the reason" pyjson "$T/t.json" \
	"d['jobs'][0]['status'] == 'failed' and 'session-timeout' in d['jobs'][0]['reason']"

# ------------------------------------------------ hostile clients
for c in http trunc-header trunc-body oversized version type not-hello binary no-newline; do
	r=$(timeout 20 $FR "$PORT" $c)
	ok $([ "$r" = closed ] || case $r in error:*) true ;; *) false ;; esac; echo $?) \
		"frame '$c': the server closes or refuses ($r)"
done
# 127.0.0.2 is another host to the server (the control connection is from 127.0.0.1)
ANSWERED="other=0 other_full=0 wrong_size=0 client=65507 other_port=0 other_after=0"
ANSWERED="$ANSWERED client_again=65507 replies=2"
r=$(timeout 30 $FR "$PORT" amplify)
ok $([ "$r" = "$ANSWERED" ]; echo $?) \
	"udpping size=65507: only the client's port, 65507-byte requests, answered ($r)"
r=$(timeout 30 $FR "$PORT" amplify-rr)
ok $([ "$r" = "$ANSWERED" ]; echo $?) \
	"rr udp request=8 response=65507: only the client's 8-byte requests answered ($r)"
for c in bad-bench exec bad-param bad-key bad-field bad-cpu instances too-long; do
	r=$(timeout 20 $FR "$PORT" $c)
	ok $(case $r in error:?*) true ;; *) false ;; esac; echo $?) \
		"HELLO '$c': refused with a reason (${r#error:})"
done
for c in test-key test-key-0 test-key-rr; do
	r=$(timeout 20 $FR "$PORT" $c)
	ok $(case $r in "error:"*"key 'drop_every' is for tests only"*) true ;; *) false ;; \
	     esac; echo $?) "HELLO '$c': a test-only key is refused, named (${r#error:})"
done
timeout 120 $FR "$PORT" fuzz 7 >"$T/fz" 2>&1
ok $([ "$(cat "$T/fz")" = done ]; echo $?) "60 random, cut and bit-flipped frames: answered"
# Hung up on, and not before --session-timeout 4 (how long after it is the
# machine's load; never hanging up is the client's 30 s timeout).
r=$(timeout 60 $FR "$PORT" stall)
ok $(case $r in closed*) awk "BEGIN { exit !(${r#closed } >= 3.9) }" ;; *) false ;; esac; \
     echo $?) "a client that says nothing is hung up on after the timeout ($r s)"
r=$(timeout 30 $FR "$PORT" busy 2)
ok $([ "$r" = busy ]; echo $?) "over --max-sessions 2: refused as busy"
sleep 0.3
kill -0 "$SRV" 2>/dev/null
ok $? "the server is still running"
"$PB" bench udpping cpus=$C0 $P peer_cpu=$C0 $SHORT -o "$T/o" >"$T/u2.json" 2>"$T/err"
check "after all that, a normal session still works" pyjson "$T/u2.json" \
	"d['jobs'][0]['status'] == 'ok'"
grep -q "refused: bench 'pipe' cannot run across hosts" "$T/srv.log"
ok $? "the server logs refusals with the reason"
grep -q "closed: bad magic" "$T/srv.log"
ok $? "the server logs malformed frames with the reason"
grep -q "done: [0-9]* replies" "$T/srv.log"
ok $? "the server logs finished sessions"

# ------------------------------------------- a parameter mismatch
$FR 0 fake-server >"$T/fake.port" 2>/dev/null &
FAKE=$!
i=0
while [ $i -lt 100 ] && [ ! -s "$T/fake.port" ]; do	# up to 10 s for python to start
	sleep 0.1
	i=$((i + 1))
done
"$PB" bench udpping cpus=$C0 peer="127.0.0.1:$(cat "$T/fake.port")" $SHORT -o "$T/o" \
	>"$T/m.json" 2>"$T/err"
check "a server with other effective parameters: job failed, says both" pyjson "$T/m.json" \
	"d['jobs'][0]['status'] == 'failed' and 'parameters differ' in d['jobs'][0]['reason'] \
	 and 'size=2' in d['jobs'][0]['reason'] and 'size=1' in d['jobs'][0]['reason']"
kill "$FAKE" 2>/dev/null
wait "$FAKE" 2>/dev/null

# --------------------------------------------------------- stop
$FR "$PORT" stall >/dev/null 2>&1 &
HOLD=$!
KIDS=
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	KIDS=$(pgrep -P "$SRV")	# this server's session processes (not another's)
	[ -n "$KIDS" ] && break
	sleep 0.1
done
ok $([ -n "$KIDS" ]; echo $?) "a session process for the silent client"
kill -TERM "$SRV"
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	kill -0 "$SRV" 2>/dev/null || break
	sleep 0.1
done
wait "$SRV"
rc=$?
ok $([ $rc = 0 ] && grep -q "stopped" "$T/srv.log"; echo $?) \
	"SIGTERM with a session open: exit 0, logged (rc $rc)"
left=
for k in $KIDS; do kill -0 "$k" 2>/dev/null && left="$left $k"; done
ok $([ -z "$left" ]; echo $?) "no session process left behind ($KIDS:${left:- none left})"
SRV=
wait "$HOLD" 2>/dev/null

# ------------------------------------------ silent after HELLO
start_server "$T/idle.log" --idle-timeout 3 --max-sessions 2 --session-timeout 600 --cpus $C0
ok $([ -n "$PORT" ]; echo $?) "server with --idle-timeout 3 starts"
$FR "$PORT" idle 600 25 >"$T/idle1" 2>&1 &
I1=$!
$FR "$PORT" idle 600 25 >"$T/idle2" 2>&1 &
I2=$!
wait "$I1" "$I2"
for f in "$T/idle1" "$T/idle2"; do
	r=$(cat "$f")
	ok $(case $r in error:idle*) awk "BEGIN { exit !(${r##* } <= 12) }" ;; *) false ;; esac; \
	     echo $?) "HELLO max_s=600, then silence: hung up on, idle limit 3 s ($r)"
done
# The client has its ERROR before the session process exits and is reaped:
# the slots are free once the server has no session process left.  No
# timeout= for the whole job: the watchdog's own limit per phase holds on a
# slow machine too (its probes and start take longer there).
no_sessions
rc=$?
left=$(pgrep -P "$SRV" | tr '\n' ' ')
ok $rc "the hung-up sessions' processes are gone (${left:-none left})"
"$PB" bench udpping cpus=$C0 peer="127.0.0.1:$PORT" peer_cpu=$C0 --repeats 2 --duration 1.5 \
	--warmup 0.1 --set events=none -q --format json -o "$T/o" >"$T/i.json" 2>"$T/err"
reasons "$T/i.json"
pyjson "$T/i.json" "d['jobs'][0]['status'] == 'ok'" >>"$T/why"
ok $? "the slots are free again; a job longer than the idle limit runs" "$T/why"
grep -q "ended: idle: no request answered for 3 s" "$T/idle.log"
ok $? "the server logs the idle hang-up"
kill -TERM "$SRV"
wait "$SRV"
SRV=

# -------------------------------------- the session process dies
# kill_session BENCH: when this server ($SRV) logs a session of BENCH, 2 s
# into it (in its first window) kill -9 the session process, and wait for
# the server to log its death.  1 when no such session came within 60 s.
kill_session() {
	wait_until 600 grep -q "): $1 on CPU" "$T/death.log" || return 1
	_kid=$(pgrep -n -P "$SRV")
	[ -n "$_kid" ] || return 1
	sleep 2
	kill -9 "$_kid" || return 1
	wait_until 100 grep -q "session process $_kid killed by signal 9" "$T/death.log"
}
# died BENCH: the job BENCH-dies failed at once: the reason says the peer's
# session ended and when; it ended within the 8 s window it was in (3 of
# them were planned).
died() {
	reasons "$T/death.json"
	pyjson "$T/death.json" "[j['status'] == 'failed' and __import__('re').fullmatch(
	    r\"the peer's session ended \(connection closed by 127\.0\.0\.1:$PORT\) \
during (repeat [123]|the warm-up)\", j['reason']) is not None
	    for j in d['jobs'] if j['name'] == '$1-dies'] == [True]" >>"$T/why"
	ok $? "$1: the job failed, saying the peer's session ended and when" "$T/why"
	reasons "$T/death.json"
	pyjson "$T/death.json" "[j['wall_s'] < 8 for j in d['jobs'] if j['name'] == '$1-dies'] \
	    == [True]" >>"$T/why"
	_rc=$?
	_wall=$(python3 -c 'import json, sys
print(" ".join("%.1f s" % j["wall_s"] for j in json.load(open(sys.argv[1]))["jobs"]
               if j["name"] == sys.argv[2]))' "$T/death.json" "$1-dies" 2>/dev/null)
	ok $_rc "$1: the job ended within the window it was in, not after 3 x 8 s ($_wall)" "$T/why"
}
start_server "$T/death.log" --cpus $C0
ok $([ -n "$PORT" ]; echo $?) "server for the session deaths starts"
# udpping's client would only lose datagrams; rr tcp's sees its stream end
cat >"$T/death.ini" <<EOF
[global]
repeats=3
duration=8
warmup=0.2
events=none
cpus=$C0
peer=127.0.0.1:$PORT
peer_cpu=$C0

[udpping-dies]
bench=udpping

[rr-dies]
bench=rr

[after]
bench=udpping
duration=0.3
EOF
timeout 120 "$PB" run "$T/death.ini" -q --format json -o "$T/dres" >"$T/death.json" \
	2>"$T/death.err" &
RUN=$!
kill_session udpping
ok $? "udpping's session process killed -9 during the job"
kill_session rr
ok $? "rr's session process killed -9 during the job"
wait "$RUN"
rc=$?
RUN=
ok $([ $rc = 1 ]; echo $?) "a run with failed jobs: exit 1 (exit $rc)" "$T/death.err"
died udpping
died rr
reasons "$T/death.json"
pyjson "$T/death.json" "d['jobs'][2]['name'] == 'after' and d['jobs'][2]['status'] == 'ok' \
	and measured(d['jobs'][2])" >>"$T/why"
ok $? "the next job of the run ran against the same server: ok" "$T/why"
R=$(find "$T/dres" -name '*.json' | head -n 1)	# -q: no "results:" line
check "the result file was saved with the three jobs ($R)" pyjson "$R" \
	"[j['status'] for j in d['jobs']] == ['failed', 'failed', 'ok']"
check "no client process left behind" sh -c "! pgrep -f '$T/deat[h].ini'"
no_sessions
rc=$?
left=$(pgrep -P "$SRV" | tr '\n' ' ')
ok $rc "no session process left behind (${left:-none left})"
kill -0 "$SRV"
ok $? "the server still runs"
kill -TERM "$SRV"
wait "$SRV"
SRV=

# ------------------------------------- a flood of tiny connections
# logged LOG: session lines printed plus those summaries say were suppressed
logged() {
	eval "$($FR 0 logcheck "$1" | tr ' ' ';')"	# printed= suppressed= max_per_second=
	echo $((printed + suppressed))
}
start_server "$T/flood.log" --max-sessions 2 --cpus 0
timeout 120 $FR "$PORT" flood 150 >/dev/null 2>&1
for _ in $(seq 50); do	# every session has said its line, summaries included
	[ "$(logged "$T/flood.log")" = 150 ] && break
	sleep 0.2
done
kill -TERM "$SRV"
wait "$SRV"
SRV=
r=$($FR 0 logcheck "$T/flood.log")
eval "$(echo "$r" | tr ' ' ';')"
ok $([ $((printed + suppressed)) = 150 ] && [ "$max_per_second" -le 10 ]; echo $?) \
	"150 junk connections: <= 10 lines a second of a kind, the rest in summaries ($r)"
grep -q "suppressed [0-9]* similar lines (the first: session [0-9]* (127" "$T/flood.log" ||
	[ "$suppressed" = 0 ]
ok $? "a summary names the count and the first line it stands for"

# ------------------------------------ two namespaces, a veth pair
NETNS=
if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null; then
	skip "netns test needs root and iproute2"
elif ! ip netns add "$NS_A" 2>/dev/null; then
	skip "cannot create network namespaces here"
else
	NETNS=1
	ip netns add "$NS_B" &&
	ip link add "pbv$$a" netns "$NS_A" type veth peer name "pbv$$b" netns "$NS_B" &&
	ip -n "$NS_A" addr add 192.0.2.1/24 dev "pbv$$a" &&
	ip -n "$NS_B" addr add 192.0.2.2/24 dev "pbv$$b" &&
	ip -n "$NS_A" link set "pbv$$a" up && ip -n "$NS_B" link set "pbv$$b" up &&
	ip -n "$NS_A" link set lo up && ip -n "$NS_B" link set lo up
	ok $? "two namespaces joined by a veth pair (192.0.2.1 <-> 192.0.2.2)"
	ip netns exec "$NS_B" "$PB" server --bind 192.0.2.2 --port 0 2>"$T/ns.log" &
	SRV=$!
	NP=$(port_of "$T/ns.log")
	ip netns exec "$NS_A" "$PB" bench udpping cpus=$C0 peer=192.0.2.2:"$NP" peer_cpu=$C1 \
		--repeats 3 --duration 0.5 --warmup 0.2 --set events=none -q --format json \
		-o "$T/o" >"$T/ns-u.json" 2>"$T/err"
	check "udpping across the veth pair: ok, peer 192.0.2.2 recorded" pyjson "$T/ns-u.json" \
		"d['jobs'][0]['status'] == 'ok' and measured(d['jobs'][0]) and \
		 d['jobs'][0]['peer']['address'].startswith('192.0.2.2:')"
	ip netns exec "$NS_A" "$PB" bench rr streams=2 cpus=$C0,$C1 peer=192.0.2.2:"$NP" peer_cpu=$C1 \
		$SHORT -o "$T/o" >"$T/ns-r.json" 2>"$T/err"
	check "rr tcp, 2 streams, across the veth pair: ok" pyjson "$T/ns-r.json" \
		"d['jobs'][0]['status'] == 'ok' and measured(d['jobs'][0])"
	python3 -c "import json; d = json.load(open('$T/ns-u.json'))
print('# udpping rtt across the veth pair: %.1f us' % d['jobs'][0]['summary']['mean'])"
	kill -TERM "$SRV"
	wait "$SRV"
	ip netns exec "$NS_B" "$PB" server --port 0 2>"$T/ns2.log" &
	SRV=$!
	NP=$(port_of "$T/ns2.log")
	ip netns exec "$NS_A" "$PB" bench udpping cpus=$C0 peer=192.0.2.2:"$NP" $SHORT \
		-o "$T/o" >"$T/ns-l.json" 2>"$T/err"
	check "a server on the default bind (127.0.0.1) is not reachable from the network" \
		pyjson "$T/ns-l.json" "d['jobs'][0]['status'] == 'failed' and \
		'connect' in d['jobs'][0]['reason']"
	kill -TERM "$SRV"
	wait "$SRV"
	SRV=
fi
done_testing
