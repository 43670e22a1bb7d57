#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End to end: a CPU hog pinned to a placement CPU is a noisy neighbour.  A
# run without our hog may or may not have neighbours (the machine is
# shared): whatever it measured, noisy-neighbor must be flagged exactly
# when others' share is over 5 % (an error over 20 %), and nothing that
# load alone cannot cause (a migration of a pinned role) may appear.  The
# clock probe, nominal clock and observer loop are recorded with every
# run.  Uses the first two CPUs this process may run on (one is enough:
# both roles and the hog then share it).
. "$(dirname "$0")/lib.sh"

CPUS=$C0,$C1
HOGCPU=$C1
RUN="bench pipe cpus=$CPUS --duration 1 --repeats 2 --warmup 0.2 -q --format json"

# shellcheck disable=SC2086
$PB $RUN -o "$T/plain" >"$T/plain.json" 2>"$T/err"
ok $? "a run without our hog" "$T/err"
check "noisy-neighbor is flagged exactly when others' share is over 5 %, an error over 20 %" \
	pyjson "$T/plain.json" '([(a["severity"], a["message"].split(" ran ")[1].split(" %")[0])
		for a in d["jobs"][0]["anomalies"] if a["kind"] == "noisy-neighbor"] ==
	([] if (d["jobs"][0]["other_busy_frac"] or 0) <= 0.05 else
	 [("error" if d["jobs"][0]["other_busy_frac"] > 0.2 else "warn",
	   "%.1f" % (100 * d["jobs"][0]["other_busy_frac"]))]))'
check "no migration of a pinned role, whatever the load" pyjson "$T/plain.json" \
	'd["jobs"][0]["status"] == "ok" and not any(a["kind"] == "migration" for a in d["jobs"][0]["anomalies"]) and all(c["seen"] == [c["planned"]] for c in d["jobs"][0]["cpus"])'
check "others' share is measured (from /proc, counters or not)" pyjson "$T/plain.json" \
	'0 <= d["jobs"][0]["other_busy_frac"] <= 1'
$PB $RUN --events none -o "$T/none" >"$T/none.json" 2>"$T/err"
check "events=none: others' share measured all the same" pyjson "$T/none.json" \
	'0 <= d["jobs"][0]["other_busy_frac"] <= 1'


taskset -c "$HOGCPU" sh -c 'while :; do :; done' &
hog=$!
on_exit() { kill "$hog" 2>/dev/null; }
sleep 0.2
# shellcheck disable=SC2086
$PB $RUN -o "$T/hog" >"$T/hog.json" 2>"$T/err"
kill $hog
wait $hog 2>/dev/null
# A nice-0 task that is always runnable gets at least half of its CPU:
# over 20 % of the job's CPUs' time on two CPUs, 50 % on one.
check "a hog pinned to CPU $HOGCPU: noisy-neighbor naming the task that ran most, with its share" pyjson "$T/hog.json" \
	'any(a["kind"] == "noisy-neighbor" and "; most: " in a["message"] and " (pid " in a["message"] for a in d["jobs"][0]["anomalies"]) and d["jobs"][0]["other_busy_frac"] > 0.2'


check "the clock of each CPU is probed before, after and once the counters are closed" pyjson "$T/plain.json" \
	"[c['cpu'] for c in d['jobs'][0]['clock']] == sorted({$CPUS}) and all(c['before_mhz'] > 0 and c['after_mhz'] > 0 and c['closed_mhz'] > 0 for c in d['jobs'][0]['clock'])"
check "nominal clock and its source, observer loop at start and end" pyjson "$T/plain.json" \
	'd["host"]["nominal"]["source"] != "" and d["observer"]["start_s"] > 0 and d["observer"]["end_s"] > 0 and d["observer"]["calls"] == 200000'
check "the environment is recorded with the run" pyjson "$T/plain.json" \
	'"perf_event_paranoid" in str(d["host"]["environment"])'
done_testing
