#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End-to-end test of the counters: `pinbench events`, refused hardware
# events ("not supported", the run goes on), a typo (exit 2 naming it),
# software events and tracepoints counting (tracefs mounted in a private
# mount namespace when it is not mounted), or refused as not permitted for
# a user who may not count.  One TAP line per check.
. "$(dirname "$0")/lib.sh"

# Does the kernel have a core PMU?  (What `pinbench events` must say.)
kernel_pmu=no
for d in cpu cpu_core cpu_atom armv8_pmuv3 armv8_pmuv3_0; do
	[ -e "/sys/bus/event_source/devices/$d" ] && kernel_pmu=yes
done

# ---- pinbench events ----
"$PB" events >"$T/ev" 2>"$T/ev.err"
ok $? "events exits 0"
grep -q '^PMUs detected by libpfm4:' "$T/ev"
ok $? "events lists the PMUs libpfm4 detects"
grep -q '^  perf .*generic  *[0-9]*  fixed [0-9]' "$T/ev"
ok $? "events gives generic and fixed counter counts"
if [ $kernel_pmu = no ]; then
	grep -q '^core PMU: none here: ' "$T/ev"
	ok $? "events says plainly there is no core PMU here"
	if grep -qw hypervisor /proc/cpuinfo; then
		grep -q '^core PMU: none here: virtualised: the hypervisor exposes no PMU' "$T/ev"
		ok $? "events says why: virtualised"
	fi
else
	grep -q '^core PMU: [a-z0-9_]* (' "$T/ev"
	ok $? "events names the core PMU"
fi
grep -q '^software events: task-clock .*context-switches' "$T/ev"
ok $? "events lists the software events"

"$PB" events cycles >"$T/ev" 2>&1
r=$?
[ $r = 0 ] && grep -q '^  perf::CYCLES ' "$T/ev" && ! grep -q '^  perf::INSTRUCTIONS ' "$T/ev"
ok $? "events PATTERN lists only matching events"
"$PB" events 'task*' >"$T/ev" 2>&1
grep -q '^software events: task-clock$' "$T/ev"
ok $? "events GLOB filters software events"
"$PB" events --help >"$T/ev" 2>&1
[ $? = 0 ] && grep -q '^usage: pinbench events \[PATTERN\]' "$T/ev"
ok $? "events --help exits 0 with usage"
"$PB" events a b >/dev/null 2>&1
[ $? = 2 ]
ok $? "events with two patterns exits 2"
"$PB" events --bogus >/dev/null 2>&1
[ $? = 2 ]
ok $? "events with an unknown option exits 2"

# ---- a typo is a job error, before anything runs ----
"$PB" bench pipe cpus=$C0,$C0 --events task-clock,cyclez --duration 0.1 --repeats 1 \
	-o "$T/res" -q >"$T/out" 2>&1
r=$?
[ $r = 2 ] && grep -q "cyclez" "$T/out" && [ ! -d "$T/res" ]
ok $? "an event libpfm4 cannot encode exits 2 naming it, nothing runs"

# ---- refused hardware events: "not supported", the run goes on ----
run_pipe() {	# out-file events
	"$PB" bench pipe cpus=$C0,$C0 --events "$2" --duration 0.2 --warmup 0 --repeats 1 \
		-o "$T/res" >"$1" 2>&1
}
run_pipe "$T/out" task-clock,context-switches,cycles,instructions
r=$?
ok $r "a run with hardware events exits 0"
res=$(result_of "$T/out")
if ! may_count; then
	said=$(grep -c 'task-clock: not permitted: perf_event_paranoid=' "$T/out")
	[ "$said" -ge 1 ]
	ok $? "counting refused: said as not permitted, with perf_event_paranoid"
	pyjson "$res" 'all(v["status"] == "not supported" and v["reason"].startswith("not permitted: perf_event_paranoid=")
		for r in d["jobs"][0]["repeats"] if "counters" in r for c in r["counters"].values() for v in c.values())'
	ok $? "JSON: every event not permitted with the reason, never 0"
	skip "software events counted, cycles refused as no PMU: $COUNT_WHY"
elif [ $kernel_pmu = no ]; then
	said=$(grep -c 'cycles: not supported: no PMU (ENOENT)' "$T/out")
	[ "$said" -ge 1 ]
	ok $? "cycles refused: said as not supported (ENOENT)"
	pyjson "$res" 'all(c["cycles"] == {"status": "not supported",
		"reason": "not supported: no PMU (ENOENT)"}
		for r in d["jobs"][0]["repeats"] if "counters" in r for c in r["counters"].values())'
	ok $? "JSON: cycles is not supported with the reason, never 0"
fi
if may_count; then
	pyjson "$res" 'all(c["context-switches"]["value"] > 0 and c["task-clock"]["value"] > 0
		and c["task-clock"]["running_ns"] == c["task-clock"]["enabled_ns"]
		for r in d["jobs"][0]["repeats"] if "counters" in r for c in r["counters"].values())'
	ok $? "JSON: software events counted for every role"
fi

# ---- tracepoints, with tracefs mounted privately if need be ----
tp_run() {	# in a shell where tracefs is readable
	cat >"$T/tp.sh" <<-EOF
	[ -r /sys/kernel/tracing/events/sched/sched_wakeup/id ] ||
		mount -t tracefs nodev /sys/kernel/tracing 2>"$T/tpwhy" || exit 77
	"$PB" events sched:sched_w >"$T/tpev" 2>&1 || exit 1
	"$PB" bench pipe cpus=$C0,$C0 --duration 0.2 --warmup 0 --repeats 1 \
		-o "$T/tpres" >"$T/tpout" 2>&1
	EOF
	if ! may_count; then
		echo "$COUNT_WHY" >"$T/tpwhy"
		return 77
	elif [ -r /sys/kernel/tracing/events/sched/sched_wakeup/id ]; then
		sh "$T/tp.sh"
	elif [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
		unshare -m sh "$T/tp.sh"
	else
		echo "tracefs is not readable and mounting it needs root and unshare" >"$T/tpwhy"
		return 77
	fi
}
tp_run
r=$?
if [ $r = 77 ]; then
	skip "tracepoints counted: $(head -n 1 "$T/tpwhy" 2>/dev/null)"
else
	ok $r "a run with the default events and tracefs readable exits 0"
	grep -q '^  sched:sched_wakeup$' "$T/tpev"
	ok $? "events lists tracepoints matching a pattern"
	pyjson "$(result_of "$T/tpout")" 'sum(c["sched:sched_wakeup"]["value"]
		for r in d["jobs"][0]["repeats"] if "counters" in r for c in r["counters"].values()) > 0'
	ok $? "JSON: sched:sched_wakeup counted in the default set"
fi

# counting=separate: each counter pass is one window of count_duration
# (default a tenth of duration, at least 0.2 s), the metric's keep duration
"$PB" bench pipe cpus=$C0,$C0 --events task-clock,context-switches --duration 0.6 \
	--warmup 0 --repeats 2 count_duration=0.3 --format json -q -o "$T/cd" >"$T/cd.json" 2>"$T/cd.err"
WHY=$T/cd.err
ok $? "count_duration=0.3: the run exits 0"
check "count_duration=0.3: 2 metric windows of 0.6 s, then one counter window of 0.3 s" \
	pyjson "$T/cd.json" '[(r["pass"], 0.59 < r["elapsed_s"] < 0.9 if r["pass"] is None else 0.29 < r["elapsed_s"] < 0.5) for r in d["jobs"][0]["repeats"]] == [(None, True), (None, True), (0, True)]'
check "warmup=0: the counter window ran after the metric's (start_s), with the closed probe" pyjson "$T/cd.json" \
	'not d["jobs"][0]["passes"][0]["in_warmup"] and d["jobs"][0]["repeats"][2]["start_s"] >= d["jobs"][0]["repeats"][1]["start_s"] + d["jobs"][0]["repeats"][1]["elapsed_s"] and d["jobs"][0]["clock"][0]["closed_mhz"] is not None'
check "passes[]: one window, its seconds, its rate against the metric's" pyjson "$T/cd.json" \
	'[(p["windows"], 0.29 < p["elapsed_s"] < 0.5) for p in d["jobs"][0]["passes"]] == [(1, True)] and all(p["ops_per_s"] > 0 and p["metric_ops_per_s"] > 0 for p in d["jobs"][0]["passes"])'
if may_count; then
	check "the per-op figures come from that window" pyjson "$T/cd.json" \
		'd["jobs"][0]["derived"]["total"]["context-switches/op"] > 0'
else
	skip "the per-op figures come from that window: $COUNT_WHY"
fi

done_testing
