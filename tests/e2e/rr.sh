#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End-to-end: rr (TCP_RR/UDP_RR) runs briefly in every placement this
# machine offers, 1 and 2 streams, as processes and threads, IPv4 and IPv6,
# large requests and responses (partial TCP reads and writes), and its JSON
# holds sane values; injected UDP loss is counted and never hangs; bad keys
# exit 2 with a clear message.  One TAP line per check.
cd "$(dirname "$0")/../.." || exit 2
PB=./pinbench
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pb-e2e-rr.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0
SHORT="--duration 0.3 --repeats 2 --warmup 0.1 -q --format json -o $tmp/out"

tap() {	# status what
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=1
		[ -s "$tmp/why" ] && sed 's/^/# /' "$tmp/why"
	fi
}

# check.py JSON MODE: every job ok or skipped (with a reason), at least one
# ok; MODE ok: per repeat ops > 0, value > 0 (= ops/elapsed), every stream
# busy, percentiles ordered, planned CPU == seen CPU, stale <= lost; lost:
# the same and lost > 0 somewhere; ends: only the status.
cat >"$tmp/check.py" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
mode = sys.argv[2] if len(sys.argv) > 2 else "ok"
want_lost = mode == "lost"
oks, full, lost, bad = 0, 0, 0, []
for j in d["jobs"]:
    where = "%s/%s" % (j["name"], j["placement"])
    if j["status"] == "skipped":
        if not j["reason"]:
            bad.append(where + ": skipped without a reason")
        continue
    if j["status"] != "ok":
        bad.append("%s: %s: %s" % (where, j["status"], j["reason"]))
        continue
    oks += 1
    if mode == "ends":
        continue
    if j["metric"]["name"] != "transactions" or j["metric"]["better"] != "higher":
        bad.append(where + ": metric %r" % j["metric"])
    for t in j["cpus"]:
        if t["seen"] != [t["planned"]]:
            bad.append("%s: %s planned CPU %d, seen %r" % (where, t["role"], t["planned"], t["seen"]))
    zero, per = False, None
    for r in j["repeats"]:
        if r["ops"] == 0:
            # on a busy shared VM a CPU can stall for longer than a short
            # window; the repeat must then say so consistently
            print("# %s: a repeat with 0 ops (CPU stalled?), lost %d" % (where, r.get("lost", 0)))
            zero = True
            if r["value"] != 0 or r["latency"] is not None:
                bad.append("%s: 0 ops but value %g latency %r" % (where, r["value"], r["latency"]))
            continue
        lat = r["latency"] or {}
        q = [lat.get(k, -1) for k in ("min", "p50", "p90", "p99", "p99.9", "max")]
        if r["ops"] <= 0 or r["value"] <= 0:
            bad.append("%s: ops %d trans/s %g" % (where, r["ops"], r["value"]))
        if q[0] <= 0 or q != sorted(q):
            bad.append("%s: percentiles not ordered: %r" % (where, q))
        if abs(r["value"] - r["ops"] / r["elapsed_s"]) > 1e-6 * r["value"]:
            bad.append("%s: trans/s %g is not ops/elapsed" % (where, r["value"]))
        n = int(j["params"]["streams"])
        if len(j["cpus"]) != 2 * n or len(r.get("task_ops", [0, 0])) != 2 * n:
            bad.append("%s: %d tasks for %d streams" % (where, len(j["cpus"]), n))
        else:
            per = [a + b for a, b in zip(per or [0] * 2 * n, r["task_ops"])]
        if "lost" not in r or "stale" not in r:
            bad.append(where + ": no lost/stale counts")
        lost += r.get("lost", 0)
        # a stale reply answers a request that timed out before
        if r.get("stale", 0) > r.get("lost", 0):
            bad.append("%s: %d stale replies > %d lost" % (where, r["stale"], r["lost"]))
    full += not zero
    if sum(r["ops"] for r in j["repeats"]) <= 0:
        bad.append(where + ": no round trip in any repeat")
    if per and min(per) <= 0:
        bad.append("%s: a stream did nothing in any repeat: %r" % (where, per))
if not oks:
    bad.append("no job ran")
if mode != "ends" and not full:
    bad.append("no job with round trips in every repeat")
if want_lost and lost <= 0:
    bad.append("lost datagrams not counted")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF

# One run and its check; run once more when the only trouble was a CPU
# stall of the shared VM (a window without a single round trip).
run_check() {	# what mode args...
	what=$1
	mode=$2
	shift 2
	for try in 1 2; do
		# shellcheck disable=SC2086
		$PB bench rr "$@" $SHORT >"$tmp/json" 2>"$tmp/why"
		rc=$?
		if [ $rc = 0 ]; then
			python3 "$tmp/check.py" "$tmp/json" "$mode" >>"$tmp/why" 2>&1
			rc=$?
		else
			echo "exit $rc" >>"$tmp/why"
		fi
		[ $rc = 0 ] && break
		grep -q "CPU stalled" "$tmp/why" || break
		[ $try = 1 ] && echo "# $what: once more after a CPU stall"
	done
	tap $rc "$what"
}

PL=same-cpu,same-core,same-socket,diff-socket
for proto in tcp udp; do
	for tasks in processes threads; do
		for s in 1 2; do
			run_check "rr $proto streams=$s $tasks, every placement" ok \
				proto=$proto streams=$s tasks=$tasks placement=$PL
		done
	done
	run_check "rr $proto IPv6" ok proto=$proto family=6 placement=$PL
done
run_check "rr tcp nodelay=0" ok proto=tcp nodelay=0 placement=same-cpu
run_check "rr tcp request=100000 response=300000 (partial reads/writes)" ok \
	proto=tcp request=100000 response=300000 placement=$PL
run_check "rr udp request=1000 response=65507" ok \
	proto=udp request=1000 response=65507 placement=same-cpu
run_check "rr udp IPv6 request=65527 response=8" ok \
	proto=udp family=6 request=65527 response=8 placement=same-cpu

$PB bench rr busy_poll=50 placement=same-cpu $SHORT >"$tmp/json" 2>"$tmp/why"
rc=$?
if [ $rc = 0 ]; then
	python3 "$tmp/check.py" "$tmp/json" ok >>"$tmp/why" 2>&1
	tap $? "rr busy_poll=50 runs"
else
	grep -q "SO_BUSY_POLL=50 refused by the kernel" "$tmp/json" "$tmp/why"
	tap $? "rr busy_poll=50 refused with a plain message"
fi

for tasks in processes threads; do
	start=$(date +%s)
	run_check "rr udp drop_every=3 streams=2 $tasks: loss counted" lost \
		proto=udp drop_every=3 timeout_ms=5 streams=2 tasks=$tasks placement=same-cpu
	[ $(($(date +%s) - start)) -lt 20 ]
	tap $? "rr udp drop_every=3 $tasks: finished within 20 s"
done

bad() {	# what pattern cmd...
	what=$1
	pat=$2
	shift 2
	"$@" >"$tmp/out.txt" 2>"$tmp/why"
	rc=$?
	[ $rc = 2 ] && grep -q -- "$pat" "$tmp/why"
	tap $? "$what (exit $rc)"
}
bad "udp response over the IPv4 limit" "response=65508 is over the largest UDP payload over IPv4" \
	$PB bench rr proto=udp response=65508
bad "udp request over the IPv6 limit" "request=65528 is over the largest UDP payload over IPv6" \
	$PB bench rr proto=udp family=6 request=65528
bad "drop_every with tcp" "drop_every=3 needs proto=udp" $PB bench rr drop_every=3
bad "streams out of range" "streams: '0' is out of range" $PB bench rr streams=0
bad "proto unknown" "proto: 'sctp' is not one of tcp|udp" $PB bench rr proto=sctp
bad "streams over the descriptor limit" "streams=1024 needs about 2112 descriptors, over the hard RLIMIT_NOFILE of 512 by 1600" \
	sh -c "ulimit -n 512 && exec $PB bench rr streams=1024 --dry-run"
printf '[u]\nbench=rr\nproto=udp\nrequest=70000\n' >"$tmp/big.ini"
bad "job file: udp request over the limit names file:line" \
	"$tmp/big.ini:1: job 'u': request=70000" $PB run "$tmp/big.ini"
printf '[x]\nbench=rr\nstreams=2\ncpus=0,1\n' >"$tmp/cpus.ini"
bad "job file: cpus= for 2 streams needs 4 CPUs" "$tmp/cpus.ini:4" $PB run "$tmp/cpus.ini"
echo "1..$n"
exit $failed
