# SPDX-License-Identifier: GPL-2.0-only
# Helpers for end-to-end tests: TAP output, a scratch folder, JSON checks.
# Source from a test: . "$(dirname "$0")/lib.sh"
# PINBENCH names the binary (default ./pinbench from the repo root; a
# relative path is taken from where the test was started).
case ${PINBENCH:-} in
/*|"") ;;
*/*) PINBENCH=$(pwd)/$PINBENCH ;;
esac
cd "$(dirname "$0")/../.." || exit 2
PB=${PINBENCH:-./pinbench}
# run's exit 3 (a figure an error-severity anomaly makes untrustworthy:
# another task on the job's CPUs, steal) depends on the machine, and most
# scripts only need "it ran": 0 for them.  anomalies.sh sets it back to 3
# to test the rule itself.
export PINBENCH_UNTRUSTED_EXIT=0
T=$(mktemp -d "${TMPDIR:-/tmp}/pinbench-e2e.XXXXXX") || exit 2
on_exit() { :; }	# a test may redefine it: runs before $T is removed
# KEEP_T=1 keeps the folder, to read what a failing test left
trap 'on_exit; [ -n "$KEEP_T" ] || rm -rf "$T"' EXIT
trap 'exit 1' HUP INT PIPE TERM
n=0
nfail=0
WHY=		# a file that explains a failure, shown after each "not ok"

comment() {	# comment FILE [MAX-LINES]: FILE as TAP comments ("# ...")
	[ -s "$1" ] || return 0
	sed 's/^/# /' "$1" | head -n "${2:-1000}"
}
ok() {		# ok CONDITION-EXIT-CODE DESCRIPTION [WHY-FILE (default $WHY)]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
		return 0
	fi
	echo "not ok $n - $2"
	nfail=$((nfail + 1))
	[ -z "${3:-$WHY}" ] || comment "${3:-$WHY}"
	return 1
}
# ran RC: 0 when RC, a run's or bench's exit code, says every job ran: 0, or 3 (a figure
# that an error-severity anomaly makes untrustworthy: a loaded test machine gives
# them); else RC
ran() {
	[ "$1" = 3 ] && echo 0 || echo "$1"
}
skip() {	# skip REASON: a check that cannot run here
	n=$((n + 1))
	echo "ok $n # SKIP $1"
}
check() {	# check DESCRIPTION COMMAND...: the command's output shown on failure
	_what=$1
	shift
	"$@" >"$T/check.out" 2>&1
	_rc=$?
	ok $_rc "$_what" || comment "$T/check.out" 20
	return $_rc
}
# pyjson FILE 'python expression over d (the JSON) that must be true'
# The expression may use flagged(job) and measured(job): a shared VM can
# stall a CPU for a whole short window, and pinbench must then say so.
pyjson() {
	python3 - "$1" "$2" <<'PY'
import json, sys

def flagged(j):
    """Every window without an op is flagged as a stall."""
    s = [a["message"].split(" no ")[0] for a in j["anomalies"] if a["kind"] == "stall"]
    return all("window %d:" % (i + 1) in s for i, r in enumerate(j["repeats"]) if r["ops"] == 0)

def measured(j):
    """A mean > 0, or every measured window empty and flagged as a stall."""
    return flagged(j) and (j["summary"]["mean"] > 0 or
                           all(r["ops"] == 0 for r in j["repeats"] if r["in_summary"]))

d = json.load(open(sys.argv[1]))
ok = eval(sys.argv[2])
if not ok:
    print("false:", sys.argv[2])
sys.exit(0 if ok else 1)
PY
}
# The result file a run printed ("results: PATH").
result_of() {
	sed -n 's/^results: //p' "$1" | tail -n 1
}
# need_pinbench: stop here with a "not ok" when $PB is not built.
need_pinbench() {
	[ -x "$PB" ] && return 0
	ok 1 "$PB is built"
	done_testing
	exit 1
}
# exits2 DESCRIPTION PATTERN COMMAND...: COMMAND exits 2 with PATTERN on
# stderr (a usage or job error); the TAP line gives the exit code.
exits2() {
	_what=$1
	_pat=$2
	shift 2
	"$@" >"$T/exits2.out" 2>"$T/exits2.err"
	_rc=$?
	[ $_rc = 2 ] && grep -q -- "$_pat" "$T/exits2.err"
	ok $? "$_what (exit $_rc)" "$T/exits2.err"
}
# genresults: build tests/tools/genresults.c (result files for fixtures) as
# $G; one check.
genresults() {
	# shellcheck disable=SC2046
	${CC:-cc} -std=gnu11 -O2 -o "$T/gen" tests/tools/genresults.c \
		$(pkg-config --cflags --libs jansson) -lm
	ok $? "genresults builds"
	# shellcheck disable=SC2034 # for the test
	G=$T/gen
}

# ---- network benches (udpping, rr): short runs checked by net_check.py
NET_SHORT="--duration 0.3 --repeats 2 --warmup 0.1 -q --format json -o $T/out"

# net_run BENCH ARGS...: a short run, JSON in $T/json, stderr in $T/why
net_run() {
	_bench=$1
	shift
	# shellcheck disable=SC2086
	"$PB" bench "$_bench" "$@" $NET_SHORT >"$T/json" 2>"$T/why"
}
# net_check BENCH MODE: tests/e2e/net_check.py on $T/json, its say in $T/why
net_check() {
	python3 tests/e2e/net_check.py "$1" "$T/json" "$2" >>"$T/why" 2>&1
}
# net_run_check BENCH WHAT MODE ARGS...: one run and its check (a window a
# CPU stall left empty must be flagged as a stall, not fail the check); once
# more when the job failed because every window stalled, which a busy
# shared VM can do to short windows.  A failed job's reason is shown.
net_run_check() {
	_bench=$1
	_what=$2
	_mode=$3
	shift 3
	for _try in 1 2; do
		net_run "$_bench" "$@"
		_rc=$(ran $?)
		if [ $_rc = 0 ]; then
			net_check "$_bench" "$_mode"
			_rc=$?
		else
			echo "exit $_rc" >>"$T/why"
			python3 -c 'import json, sys
for j in json.load(open(sys.argv[1]))["jobs"]:
    if j["status"] not in ("ok", "skipped"):
        print("%s/%s %s: %s" % (j["name"], j["placement"], j["status"], j["reason"]))' \
				"$T/json" >>"$T/why" 2>&1
		fi
		[ $_rc = 0 ] && break
		grep -qE "every window stalled|no progress" "$T/why" || break
		[ $_try = 1 ] && echo "# $_what: once more after a CPU stall"
	done
	ok "$_rc" "$_what" "$T/why"
}
# net_run_check_cpus NEED BENCH WHAT MODE ARGS...: net_run_check when this
# process may use NEED CPUs; with fewer, every job of the run must be
# skipped with a reason (one check), and what could not run is a skip.
net_run_check_cpus() {
	_need=$1
	shift
	if [ "$NCPU" -ge "$_need" ]; then
		net_run_check "$@"
		return
	fi
	_bench=$1
	_what=$2
	shift 3
	net_run "$_bench" "$@"
	net_check "$_bench" skipped
	ok $? "$_what: skipped with a reason ($NCPU CPU allowed)" "$T/why"
	skip "$_what: needs $_need CPUs, $NCPU allowed"
}
# net_busy_poll BENCH: busy_poll=50 runs, or the job fails saying plainly
# that the kernel refused.
net_busy_poll() {
	net_run "$1" busy_poll=50 placement=same-cpu
	if [ "$(ran $?)" = 0 ]; then
		net_check "$1" ok
		ok $? "$1 busy_poll=50 runs" "$T/why"
	else
		grep -q "SO_BUSY_POLL=50 refused by the kernel" "$T/json" "$T/why"
		ok $? "$1 busy_poll=50 refused with a plain message" "$T/why"
	fi
}

# ---- what this machine lets a test use ----
# The CPUs this process may run on (taskset, cpusets), as pinbench sees
# them: NCPU of them, C0 the first, C1 the second (C0 again when there is
# only one).  A test never assumes CPU 0 or CPU 1.
ALLOWED=$(python3 -c 'import os; print(" ".join(map(str, sorted(os.sched_getaffinity(0)))))')
# shellcheck disable=SC2086
NCPU=$(echo $ALLOWED | wc -w)
C0=${ALLOWED%% *}
# shellcheck disable=SC2086
C1=$(echo $ALLOWED | awk '{ print (NF > 1 ? $2 : $1) }')

# may_count [cpu]: may this user count kernel-side software events the way
# pinbench opens them (kernel and user), per task (or per CPU, counters=cpu)?
# root, CAP_PERFMON or CAP_SYS_ADMIN, or perf_event_paranoid <= 1 (<= 0 per
# CPU).  Else 1, the reason in COUNT_WHY.
may_count() {
	[ "$(id -u)" = 0 ] && return 0
	_cap=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status 2>/dev/null)
	if [ -n "$_cap" ] && [ $(((0x$_cap >> 38 | 0x$_cap >> 21) & 1)) = 1 ]; then
		return 0
	fi
	_par=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)
	_max=1
	[ "${1:-}" = cpu ] && _max=0
	[ -n "$_par" ] && [ "$_par" -le $_max ] && return 0
	COUNT_WHY="perf_event_paranoid=${_par:-?}: a user without root or CAP_PERFMON may not count kernel events${1:+ per CPU}"
	return 1
}

# ipv6_ok: does the loopback take IPv6 (a TCP listener and a UDP socket on
# ::1)?  Else 1, the reason in IPV6_WHY.
ipv6_ok() {
	IPV6_WHY=$(python3 - 2>&1 <<'PY'
import socket
for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
    s = socket.socket(socket.AF_INET6, kind)
    s.bind(("::1", 0))
    if kind == socket.SOCK_STREAM:
        s.listen(1)
    s.close()
PY
) && return 0
	IPV6_WHY="no IPv6 on loopback (::1): $(echo "$IPV6_WHY" | tail -n 1)"
	return 1
}

done_testing() {
	echo "1..$n"
	[ "$nfail" = 0 ]
}
