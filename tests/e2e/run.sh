#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End to end: pinbench run/bench/list on this machine.
. "$(dirname "$0")/lib.sh"

# quick.ini runs, saves JSON with the schema's fields
$PB run configs/quick.ini -o "$T/res" >"$T/quick.out" 2>"$T/quick.err"
rc=$?
# exit 3: every job ran, but an error-severity anomaly (another engineer's
# build on these CPUs) makes a figure untrustworthy: the summary says so
ok $([ $rc = 0 ] || { [ $rc = 3 ] && grep -q ": not to be trusted: " "$T/quick.out"; } &&
	echo 0 || echo 1) "quick.ini runs and exits 0 (or 3, saying which figure is untrusted)" \
	"$T/quick.err"
J=$(result_of "$T/quick.out")
check "run prints one summary table, a row per job x placement in job-file order" sh -c \
	"[ \"\$(sed -n '/^Job  *Placement  *Value  *Unit/,/^\$/p' '$T/quick.out' |
	  awk 'NR > 1 && /^[^ ]/ && !/^marks: / { print \$1, \$2 }' | tr '\\n' ' ')\" = \
	 'pipe-pingpong same-cpu pipe-pingpong same-core pipe-pingpong same-socket pipe-pingpong diff-socket pipe-stream same-cpu pipe-stream same-socket udpping same-cpu udpping same-socket ' ]"
check "without -v: no per-job tables, per-op figures or percentiles" sh -c \
	"! grep -Eq '^Placement |per op|latency µs|counter pass' '$T/quick.out'"
check "no line of run's tables over 100 columns" sh -c \
	"! LC_ALL=C.UTF-8 awk 'length(\$0) > 100' '$T/quick.out' | grep -q ."
check "quick.ini result file exists ($J)" test -s "$J"
check "result has the top-level fields" pyjson "$J" \
	'd["schema"] == "pinbench-result/1" and d["tool"]["name"] == "pinbench" and all(k in d for k in ("host", "started", "label", "config", "cmdline", "jobs"))'
check "host has kernel, cpu model and topology" pyjson "$J" \
	'all(k in d["host"] for k in ("hostname", "kernel", "kernel_version", "machine", "cpu_model", "nominal_mhz")) and all(k in d["host"]["topology"] for k in ("packages", "cores", "pus", "llcs", "numa_nodes", "smt"))'
check "label defaults to the kernel release" pyjson "$J" "d['label'] == '$(uname -r)' and d['host']['kernel'] == '$(uname -r)'"
check "every job has the fixed fields" pyjson "$J" \
	'all(all(k in j for k in ("name", "bench", "placement", "status", "reason", "params", "metric", "cpus", "repeats", "summary", "anomalies")) for j in d["jobs"])'
check "ok jobs: summary n/mean/stddev/min/median/max/cv/ci95 over the 3 metric windows (a stalled one has no value and stays out)" python3 - "$J" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for j in d["jobs"]:
    if j["status"] != "ok":
        continue
    s, reps = j["summary"], j["repeats"]
    metric = [r for r in reps if r["in_summary"]]
    stalls = [r for r in metric if r["stall"]]
    assert len(metric) == 3, (j["name"], j["placement"], len(metric))
    assert all(r["value"] is None for r in stalls), stalls
    assert s["n"] == 3 - len(stalls), (j["name"], j["placement"], s["n"], len(stalls))
    assert s["min"] <= s["median"] <= s["max"], s
    assert s["n"] < 2 or s["ci95"] is None or s["ci95"][0] <= s["mean"], s
    assert all(r["ops"] >= 0 for r in reps)
PY
check "counting=separate: metric windows open no counter, one short counter window (listed last)" pyjson "$J" \
	'all([r["pass"] for r in j["repeats"]] == [None] * 3 + [0] and all("counters" not in r for r in j["repeats"][:3]) for j in d["jobs"] if j["status"] == "ok")'
# warmup=0.5 holds the 0.2 s counter window: it runs at the warm-up's end,
# and the metric's windows begin once the whole warm-up is over
check "quick.ini: the counter window ran in the warm-up, before the metric's (start_s)" pyjson "$J" \
	'all(j["passes"][0]["in_warmup"] and j["repeats"][3]["start_s"] + j["repeats"][3]["elapsed_s"] <= min(r["start_s"] for r in j["repeats"][:3]) and min(r["start_s"] for r in j["repeats"][:3]) >= 0.5 for j in d["jobs"] if j["status"] == "ok")'
check "quick.ini: the metric's windows back to back, in order" pyjson "$J" \
	'all(j["repeats"][k]["start_s"] + j["repeats"][k]["elapsed_s"] <= j["repeats"][k + 1]["start_s"] for j in d["jobs"] if j["status"] == "ok" for k in range(2))'
check "quick.ini: no probe once the counters closed (they closed before the metric)" pyjson "$J" \
	'all(c["closed_mhz"] is None for j in d["jobs"] if j["status"] == "ok" for c in j["clock"])'
# quick.ini: duration 1 (udpping 0.5), so the counter window is 0.2 s (a
# tenth of duration, at least 0.2 s); the metric's windows keep theirs
check "the counter pass is one window of 0.2 s, the metric's windows keep duration" pyjson "$J" \
	'all(0.19 < r["elapsed_s"] < 0.35 if r["pass"] is not None else r["elapsed_s"] >= 0.49 for j in d["jobs"] if j["status"] == "ok" for r in j["repeats"])'
check "params hold every effective key, defaults included" pyjson "$J" \
	'all(j["params"]["repeats"] == "3" and j["params"]["tasks"] == "processes" and ("pattern" in j["params"]) == (j["bench"] == "pipe") for j in d["jobs"])'
check "planned CPU equals seen CPU for every role" pyjson "$J" \
	'all(c["seen"] == [c["planned"]] for j in d["jobs"] if j["status"] == "ok" for c in j["cpus"])'
$PB bench pipe counting=inline --placement same-cpu --repeats 2 --duration 0.2 --warmup 0.1 -q --format json -o "$T/inl" >"$T/inl.json" 2>"$T/err"
if may_count; then
	# a counter window a busy host stalled (no op: the roles did not run, so
	# nothing was counted) must be flagged as a stall instead
	check "software counters present per role (task-clock, context-switches counted)" pyjson "$J" \
		'all(any(r["counters"][g]["task-clock"].get("value", 0) > 0 and r["counters"][g]["context-switches"].get("running_ns", 0) > 0 for r in j["repeats"] if r["pass"] is not None and r["ops"] > 0) or (flagged(j) and all(r["ops"] == 0 for r in j["repeats"] if r["pass"] is not None)) for j in d["jobs"] if j["status"] == "ok" for g in ([c["role"] + "/0" for c in j["cpus"]]))'
	check "per-op figures in the JSON (derived), total and per role" pyjson "$J" \
		'all(0 < j["derived"]["total"]["context-switches/op"] and "writer/0" in j["derived"] for j in d["jobs"] if j["status"] == "ok" and j["name"] == "pipe-pingpong" and j["placement"] == "same-cpu")'
	# On one CPU each role must be switched out once per round trip for
	# the other to run: at least one switch per op, whatever the load (0.9:
	# ops and counters are sampled one after the other).  Other tasks'
	# preemptions add a few; two per op would be a double count.
	check "pingpong on one CPU: each role switched out once per round trip, not twice" pyjson "$J" \
		'all(0.9 < r["counters"][g]["context-switches"]["value"] / r["ops"] < 2 for j in d["jobs"] if j["name"] == "pipe-pingpong" and j["placement"] == "same-cpu" for r in j["repeats"] if r["pass"] is not None for g in ("writer/0", "reader/0"))'
	check "counting=inline: the metric's own windows carry the counters" pyjson "$T/inl.json" \
		'[r["pass"] for r in d["jobs"][0]["repeats"]] == [0, 0] and flagged(d["jobs"][0]) and all(r["in_summary"] and (r["ops"] == 0 or r["counters"]["writer/0"]["task-clock"]["value"] > 0) for r in d["jobs"][0]["repeats"])'
else
	check "counting refused: every software counter says not permitted, with perf_event_paranoid" pyjson "$J" \
		'all(v["status"] == "not supported" and v["reason"].startswith("not permitted: perf_event_paranoid=") for j in d["jobs"] if j["status"] == "ok" for r in j["repeats"] if r["pass"] is not None for c in r["counters"].values() for v in c.values())'
	check "counting=inline, counting refused: the metric's windows are pass 0 and still measure" pyjson "$T/inl.json" \
		'[r["pass"] for r in d["jobs"][0]["repeats"]] == [0, 0] and measured(d["jobs"][0]) and all(r["in_summary"] for r in d["jobs"][0]["repeats"])'
	skip "software counters counted, per-op figures, context switches per round trip: $COUNT_WHY"
fi
$PB bench pipe events=none --placement same-cpu --repeats 2 --duration 0.2 --warmup 0.1 -q --format json -o "$T/none" >"$T/none.json" 2>"$T/err"
check "events=none: no counter windows at all" pyjson "$T/none.json" \
	'[r["pass"] for r in d["jobs"][0]["repeats"]] == [None, None] and d["jobs"][0]["status"] == "ok"'

$PB compare --format json "$J" >"$T/cmp.json" 2>"$T/err"
check "compare takes the metric's repeats only, not the counter passes'" python3 - "$T/cmp.json" "$J" <<'PY'
import json, sys
c = json.load(open(sys.argv[1])); d = json.load(open(sys.argv[2]))
n = {(j["name"], j["placement"]): j["summary"]["n"] for j in d["jobs"] if j["status"] == "ok"}
ok = [r for r in c["results"] if r["status"] == "ok"]
assert ok, c["results"]
for r in ok:
    assert r["n"] == n[(r["job"], r["placement"])] and r["n"] <= 3, (r, n)
PY

# placements this machine cannot offer: skipped with the reason topo gives
$PB topo --format json >"$T/topo.json"
check "unavailable placements are skipped with topo's reason, available ones ran" python3 - "$J" "$T/topo.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2]))
why = {p["name"]: p["reason"] for p in t["placements"]}
cpus = {p["name"]: p["cpus"] for p in t["placements"]}
for j in d["jobs"]:
    p = j["placement"]
    if cpus[p] is None:
        assert j["status"] == "skipped" and j["reason"] == why[p], (j["status"], j["reason"])
    else:
        assert j["status"] == "ok", j
        assert [c["planned"] for c in j["cpus"]] == cpus[p], (j["cpus"], cpus[p])
PY
check "no temp file left in the results folder" sh -c "! find '$T/res' -name '*.tmp*' | grep -q ."

# bad job files: exit 2, FILE:LINE named, nothing run
for f in bad-key:6:sise bad-value:3:pattern bad-bench:4:nosuch bad-range:3:repeats \
	 no-bench:3:bench bad-placement:3:next-door bad-events:3:cycels-typo; do
	file=${f%%:*}; rest=${f#*:}; line=${rest%%:*}; word=${rest#*:}
	$PB run "tests/e2e/jobs/$file.ini" -o "$T/bad" >"$T/bad.out" 2>&1
	rc=$?
	grep -q "tests/e2e/jobs/$file.ini:$line" "$T/bad.out" && grep -q -- "$word" "$T/bad.out"
	found=$?
	ok $([ $rc = 2 ] && [ $found = 0 ] && echo 0 || echo 1) "$file.ini: exit 2 naming $file.ini:$line and '$word'"
	[ $found = 0 ] || sed 's/^/# /' "$T/bad.out"
done
check "nothing ran for bad job files" test ! -e "$T/bad"
$PB run configs/quick.ini nosuchfile.ini -o "$T/bad2" >"$T/bad.out" 2>&1
ok $([ $? = 2 ] && grep -q nosuchfile.ini "$T/bad.out" && [ ! -e "$T/bad2" ] && echo 0 || echo 1) \
	"a missing job file: exit 2 before anything runs"
$PB run --set nokey=1 configs/quick.ini >"$T/bad.out" 2>&1
ok $([ $? = 2 ] && grep -q -- "--set" "$T/bad.out" && echo 0 || echo 1) "--set with an unknown key: exit 2 naming --set"
$PB run --repeats 0 configs/quick.ini >"$T/bad.out" 2>&1
ok $([ $? = 2 ] && grep -q -- "--repeats" "$T/bad.out" && echo 0 || echo 1) "--repeats 0: exit 2 naming --repeats"
$PB run --bogus configs/quick.ini >/dev/null 2>&1
ok $([ $? = 2 ] && echo 0 || echo 1) "unknown option: exit 2"
$PB nosuchcommand >/dev/null 2>&1
ok $([ $? = 2 ] && echo 0 || echo 1) "unknown command: exit 2"
$PB run --topology "pack:2 core:4 pu:2" configs/quick.ini >"$T/bad.out" 2>&1
ok $([ $? = 2 ] && grep -q "not this machine" "$T/bad.out" && echo 0 || echo 1) \
	"run refuses a topology that is not this machine's"
$PB run --dry-run --topology "pack:2 core:4 pu:2" configs/pipe.ini >"$T/plan.out" 2>&1
ok $([ $? = 0 ] && grep -q "diff-socket" "$T/plan.out" && ! grep -q "diff-socket  *skipped" "$T/plan.out" && echo 0 || echo 1) \
	"--dry-run plans on a synthetic topology: diff-socket resolves"
$PB run --dry-run configs/quick.ini configs/udpping.ini >"$T/plan.out" 2>&1
check "--dry-run prints each job's counter window (a tenth of duration, at least 0.2 s), in the warm-up" sh -c \
	"grep -qx 'pipe-pingpong (pipe): 3 x 1 s, each counter pass 1 x 0.2 s in the warm-up' '$T/plan.out' &&
	 grep -qx 'udpping (udpping): 4 x 5 s, each counter pass 1 x 0.5 s in the warm-up' '$T/plan.out'"
$PB bench pipe --dry-run --warmup 0.3 --duration 1 >"$T/plan.out" 2>&1
check "--dry-run: a counter pass longer than half the warm-up runs after the repeats" grep -qx \
	"pipe (pipe): 4 x 1 s, each counter pass 1 x 0.2 s" "$T/plan.out"
$PB bench pipe --dry-run loops=1000 count_duration=2 >"$T/plan.out" 2>&1
check "--dry-run: count_duration= given, with loops" grep -qx \
	"pipe (pipe): 4 x 1000 ops, each counter pass 1 x 2 s" "$T/plan.out"
$PB bench pipe --dry-run counting=inline >"$T/plan.out" 2>&1
check "--dry-run: counting=inline has no counter pass of its own" grep -qx "pipe (pipe): 4 x 5 s" "$T/plan.out"

# --dry-run: the planned wall time, warm-up + repeats x duration per pass + the per-job overhead
$PB bench pipe cpus=$C0,$C0 --repeats 2 --duration 1 --warmup 0.5 --dry-run >"$T/plan2.out" 2>&1
check "--dry-run: planned wall time, 0.5 (a 0.2 s counter pass in it) + 2 x 1 + 0.7 s" \
	grep -q "^planned wall time: 3 s (1 job run: " "$T/plan2.out"
$PB bench pipe cpus=$C0,$C0 --repeats 1 --duration 10 --warmup 2 --dry-run >"$T/plan2.out" 2>&1
check "--dry-run: planned wall time, 2 (a 1 s counter pass in it) + 10 + 0.7 s" \
	grep -q "^planned wall time: 13 s (1 job run: " "$T/plan2.out"
$PB bench pipe cpus=$C0,$C0 --repeats 1 --duration 10 --warmup 1.9 --dry-run >"$T/plan2.out" 2>&1
check "--dry-run: planned wall time, 1.9 + 10 + a 1 s counter pass after + 0.7 s" \
	grep -q "^planned wall time: 14 s (1 job run: " "$T/plan2.out"
$PB run --dry-run configs/quick.ini configs/pipe.ini >"$T/plan3.out" 2>&1
check "--dry-run of two job files: each one's planned time and their total" sh -c \
	"[ \$(grep -c '^planned wall time: ' '$T/plan3.out') = 2 ] && grep -q '^planned wall time of the 2 job files: ' '$T/plan3.out'"

# the progress line (on a terminal only): which repeat of which pass, the time left
if command -v script >/dev/null 2>&1; then
	script -qec "$PB bench pipe cpus=$C0,$C0 --repeats 2 --duration 0.2 --warmup 0 -o $T/prog" \
		"$T/prog.tty" >/dev/null 2>&1
	tr '\r' '\n' <"$T/prog.tty" >"$T/prog.lines"
	check "progress line: repeat k of N, then counter pass 1 of 1, and the time left" sh -c \
		"grep -aq 'job 1 of 1: pipe cpus: repeat 2 of 2; about [0-9]* s left' '$T/prog.lines' && grep -aq 'counter pass 1 of 1; about' '$T/prog.lines'"
	script -qec "$PB bench pipe cpus=$C0,$C0 --repeats 2 --duration 0.2 --warmup 0.5 -o $T/prog" \
		"$T/prog2.tty" >/dev/null 2>&1
	tr '\r' '\n' <"$T/prog2.tty" >"$T/prog2.lines"
	check "progress line: counter pass 1 of 1 (warm-up) first, then repeat k of N" sh -c \
		"grep -aq 'job 1 of 1: pipe cpus: counter pass 1 of 1 (warm-up); about' '$T/prog2.lines' && grep -aq 'repeat 2 of 2; about' '$T/prog2.lines'"
	# a placement this machine skips is no job to wait for: "job 1 of 1", not "job 2 of 2"
	printf '[p]\nbench=pipe\nrepeats=1\nduration=0.2\nwarmup=0\nevents=none\n%s\n' \
		'placement=diff-socket,same-cpu' >"$T/skip.ini"
	if $PB run --dry-run "$T/skip.ini" | grep -q '^  diff-socket  *skipped'; then
		script -qec "$PB run $T/skip.ini -o $T/prog" "$T/skip.tty" >/dev/null 2>&1
		tr '\r' '\n' <"$T/skip.tty" >"$T/skip.lines"
		check "progress line: a skipped placement is not counted (job 1 of 1)" \
			grep -aq 'job 1 of 1: p same-cpu: repeat 1 of 1' "$T/skip.lines"
	else
		skip "progress line with a skipped placement: this machine has two sockets"
	fi
else
	skip "progress line: no script(1) to give pinbench a terminal"
	skip "progress line, counter pass in the warm-up: no script(1)"
fi

# options anywhere on the line; JSON on stdout
$PB bench pipe cpus=$C0,$C1 --format json -q --duration 0.2 --repeats 2 --warmup 0 -o "$T/adhoc" >"$T/adhoc.json" 2>"$T/adhoc.err"
ok $(ran $?) "bench pipe cpus=$C0,$C1 --format json -q: options after arguments"
check "stdout is the result JSON, cpus= honoured" pyjson "$T/adhoc.json" \
	"d['jobs'][0]['placement'] == 'cpus' and [c['planned'] for c in d['jobs'][0]['cpus']] == [$C0, $C1] and d['jobs'][0]['status'] == 'ok'"
check "--format json -q: no results line on stderr" sh -c "! grep -q '^results: ' '$T/adhoc.err'"

# -v: every job's table as it ends, the per-op figures; still no line over 100 columns
$PB bench pipe cpus=$C0,$C0 --repeats 2 --duration 0.2 --warmup 0.1 -v -o "$T/verb" \
	>"$T/verb.out" 2>"$T/verb.err"
check "-v: the job's table, its counter passes numbered as the progress line does, the summary" \
	sh -c "grep -q '^Placement ' '$T/verb.out' && grep -q '^Job  *Placement ' '$T/verb.out' &&
	       ! grep -q 'counter pass 0' '$T/verb.out'"
check "-v: no line over 100 columns" sh -c \
	"! LC_ALL=C.UTF-8 awk 'length(\$0) > 100' '$T/verb.out' | grep -q ."

# --format csv: a header, a row per job x placement x round, the path on stderr
$PB bench pipe cpus=$C0,$C0 events=none --rounds 2 --duration 0.1 --repeats 2 --warmup 0 \
	--format csv -o "$T/csv" >"$T/csv.out" 2>"$T/csv.err"
check "--format csv: a header and one row per round, parsed by python's csv" python3 - \
	"$T/csv.out" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))
assert [(r["job"], r["placement"], r["round"], r["status"]) for r in rows] == \
	[("pipe", "cpus", "1", "ok"), ("pipe", "cpus", "2", "ok")], rows
assert all(float(r["mean"]) > 0 and r["n"] == "2" and r["unit"] for r in rows), rows
PY
check "--format csv: the results path on stderr" grep -q '^results: ' "$T/csv.err"

# PINBENCH_RESULTS: the results folder when -o does not say
PINBENCH_RESULTS=$T/envres $PB bench pipe cpus=$C0,$C0 events=none --repeats 1 --duration 0.1 \
	--warmup 0 -q >/dev/null 2>&1
check "PINBENCH_RESULTS is the default of -o" sh -c "[ -n \"\$(find '$T/envres' -name '*.json')\" ]"

# -q alone: nothing at all on stdout, the file still saved
$PB bench pipe cpus=$C0,$C1 events=none -q --duration 0.1 --repeats 1 --warmup 0 -o "$T/quiet" >"$T/quiet.out" 2>"$T/quiet.err"
ok $([ "$(ran $?)" = 0 ] && [ ! -s "$T/quiet.out" ] && ! grep -q '^results: ' "$T/quiet.err" && [ -n "$(find "$T/quiet" -name '*.json')" ] && echo 0 || echo 1) \
	"-q: nothing on stdout, no results line, the result file saved" "$T/quiet.out"

# both roles on one CPU: at least two switches per round trip there
$PB bench pipe counters=cpu cpus=$C0,$C0 --repeats 2 --duration 0.2 --warmup 0.1 -q --format json -o "$T/cpu" >"$T/cpu.json" 2>"$T/err"
if may_count cpu; then
	check "counters=cpu: one group per CPU, cpu-clock instead of task-clock" pyjson "$T/cpu.json" \
		"list(d['jobs'][0]['derived']) == ['total', 'cpu$C0'] and d['jobs'][0]['derived']['total']['context-switches/op'] > 1.5 and all('cpu-clock' in r['counters']['cpu$C0'] for r in d['jobs'][0]['repeats'] if r['pass'] == 0)"
else
	check "counters=cpu, counting refused: the job runs, cpu-clock not permitted" pyjson "$T/cpu.json" \
		"d['jobs'][0]['status'] == 'ok' and all(r['counters']['cpu$C0']['cpu-clock']['reason'].startswith('not permitted: ') for r in d['jobs'][0]['repeats'] if r['pass'] == 0)"
	skip "counters=cpu counts: $COUNT_WHY"
fi

# threads, stream, loops
$PB bench pipe tasks=threads pattern=stream --placement same-cpu --duration 0.2 --repeats 2 --warmup 0 -q --format json -o "$T/thr" >"$T/thr.json" 2>"$T/err"
check "tasks=threads, pattern=stream: MB/s higher is better, roles pinned" pyjson "$T/thr.json" \
	'd["jobs"][0]["status"] == "ok" and d["jobs"][0]["metric"]["better"] == "higher" and measured(d["jobs"][0]) and all(c["seen"] == [c["planned"]] for c in d["jobs"][0]["cpus"])'
# loops= ends a window at 20000 ops, not after --duration (here 20 s);
# how far past 20000 it gets depends on how fast this machine is now
$PB bench pipe loops=20000 --placement same-cpu --repeats 2 --warmup 0.1 --duration 20 -q --format json -o "$T/loops" >"$T/loops.json" 2>"$T/err"
check "loops=20000: each metric window has at least 20000 ops and ends before --duration 20" pyjson "$T/loops.json" \
	'd["jobs"][0]["status"] == "ok" and all(20000 <= r["ops"] and r["elapsed_s"] < 20 for r in d["jobs"][0]["repeats"] if r["in_summary"])'
check "loops=20000: the counter pass is one window of a tenth of loops (2000 ops)" pyjson "$T/loops.json" \
	'[(2000 <= r["ops"] < 20000, r["elapsed_s"] < 20) for r in d["jobs"][0]["repeats"] if not r["in_summary"]] == [(True, True)]'

# role_of PID: a role process of the job pinbench PID runs (its
# grandchild), waiting up to 20 s for it (the first job runs 16 s)
role_of() {
	_victim=""
	for _ in $(seq 1 200); do
		sleep 0.1
		_job=$(pgrep -P "$1" | head -n 1)
		[ -n "$_job" ] && _victim=$(pgrep -P "$_job" | head -n 1)
		[ -n "$_victim" ] && break
	done
	echo "$_victim"
}

# "No process left behind" looks for this run's own processes: their
# command line names the results folder in $T (other users may be running
# pinbench too).  The [x] keeps the pattern from matching the shell of the
# check itself.

# a role killed mid-run: its job fails, the next job runs, the run saves
$PB run tests/e2e/jobs/two-jobs.ini -q -o "$T/kill" >"$T/kill.out" 2>&1 &
pb=$!
victim=$(role_of $pb)
sleep 0.5
[ -n "$victim" ] && kill -KILL "$victim"
wait $pb
rc=$?
ok $([ $rc = 1 ] && echo 0 || echo 1) "a killed role: exit 1 (got $rc)"
J=$(ls "$T"/kill/*/*.json 2>/dev/null | head -n 1)
check "the killed job is failed with the signal, the other job ran and was saved" pyjson "$J" \
	'd["jobs"][0]["status"] == "failed" and "signal 9" in d["jobs"][0]["reason"] and d["jobs"][1]["status"] == "ok"'
check "no process left behind after a killed role" sh -c "! pgrep -f '$T/kil[l]' >/dev/null"

# a failed pin says the error by name: tests/tools/failpin.c makes every pin
# to one CPU fail with EINVAL, as the kernel does for a CPU offline or out
# of the cpuset.  ASan wants its runtime first among the libraries: the
# shim comes before it here, on purpose.
${CC:-cc} -shared -fPIC -o "$T/failpin.so" tests/tools/failpin.c
ok $? "the failpin shim builds"
LD_PRELOAD=$T/failpin.so ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
	$PB bench pipe cpus=$C0,$C0 --repeats 1 --duration 0.1 --warmup 0 -q --format json \
	-o "$T/pin" >"$T/pin.json" 2>"$T/err"
ok $([ $? = 1 ] && echo 0 || echo 1) "a failed pin: exit 1" "$T/err"
check "a failed pin names the CPU and the error: Invalid argument (EINVAL), not error 22" pyjson "$T/pin.json" \
	"d['jobs'][0]['status'] == 'failed' and d['jobs'][0]['reason'] in ['role %s/0: cannot pin to CPU $C0: Invalid argument (EINVAL)' % r for r in ('writer', 'reader')]"

# watchdogs
$PB bench pipe test_hang=setup timeout=0.5 --repeats 1 --duration 0.1 --warmup 0 --placement same-cpu -q --format json -o "$T/wd" >"$T/wd.json" 2>"$T/err"
ok $([ $? = 1 ] && echo 0 || echo 1) "a hung job: exit 1"
check "a hung job is stopped by the watchdog and marked failed, timeout=0.5 said as 0.5 s" pyjson "$T/wd.json" \
	'd["jobs"][0]["status"] == "failed" and d["jobs"][0]["reason"] == "watchdog: no progress for 0.5 s (setting up and warming up)"'
$PB bench pipe test_hang=setup --repeats 1 --duration 0.1 --warmup 0 --placement same-cpu -q --format json -o "$T/wd3" >"$T/wd3.json" 2>"$T/err"
check "the automatic watchdog (no timeout=) stops a hung set-up: 10 s + 0.05 s a role" pyjson "$T/wd3.json" \
	'd["jobs"][0]["status"] == "failed" and d["jobs"][0]["reason"] == "watchdog: no progress for 10.1 s (setting up and warming up)"'
$PB bench pipe test_hang=loop --repeats 1 --duration 0.1 --warmup 0 --placement same-cpu -q --format json -o "$T/wd2" >"$T/wd2.json" 2>"$T/err"
check "a role that ignores the stop: failed, named" pyjson "$T/wd2.json" \
	'd["jobs"][0]["status"] == "failed" and "did not stop" in d["jobs"][0]["reason"]'
check "no process left behind after the watchdogs" sh -c "! pgrep -f '$T/w[d]' >/dev/null"

# Ctrl-C while the first job's first repeat runs: stops cleanly; nothing
# was measured, so nothing is saved (no result file with no repeat in it)
$PB run tests/e2e/jobs/two-jobs.ini -o "$T/int" >"$T/int.out" 2>&1 &
pb=$!
role_of $pb >/dev/null
sleep 0.5
kill -INT $pb
wait $pb
rc=$?
WHY=$T/int.out
ok $([ $rc = 1 ] && ! ls "$T"/int/*/*.json >/dev/null 2>&1 && echo 0 || echo 1) \
	"SIGINT before a repeat finished: exit 1 (got $rc), no result file"
check "SIGINT before a repeat finished: says nothing was saved" \
	grep -q "interrupted before any job finished a repeat; nothing saved" "$T/int.out"
check "SIGINT: no results line for a file that does not exist" sh -c "! grep -q '^results:' '$T/int.out'"
WHY=
check "SIGINT: no process left behind" sh -c "! pgrep -f '$T/in[t]' >/dev/null"

if may_count; then
	# Ctrl-C during the counter pass (counting=separate: the metric's repeats ran
	# first) keeps the summary of the metric's repeats.  The pass has begun when
	# the job process holds the groups' perf_event descriptors (more than the
	# one dummy it holds from the start, pb_counters_hold()).
	$PB bench pipe placement=same-cpu events=task-clock count_duration=1.5 --repeats 2 \
		--duration 1.5 --warmup 0.1 -q -o "$T/ci" >"$T/ci.out" 2>&1 &
	pb=$!
	inpass=1
	for i in $(seq 1 200); do
		sleep 0.1
		job=$(pgrep -P $pb | head -n 1)
		if [ -n "$job" ] && [ "$(ls -l "/proc/$job/fd" 2>/dev/null | grep -c perf_event)" -ge 2 ]; then
			inpass=0
			break
		fi
	done
	ok $inpass "SIGINT in the counter pass: the pass began (perf_event descriptors open)"
	sleep 0.3
	kill -INT $pb
	wait $pb
	rc=$?
	J=$(ls "$T"/ci/*/*.json 2>/dev/null | head -n 1)
	ok $([ $rc = 1 ] && [ -s "$J" ] && echo 0 || echo 1) "SIGINT in the counter pass: exit 1 (got $rc), the result is saved"
	check "SIGINT in the counter pass: no process left behind" sh -c "! pgrep -f '$T/c[i]' >/dev/null"
	check "SIGINT in the counter pass: interrupted, with the summary of the 2 metric repeats" pyjson "$J" \
		'd["jobs"][0]["status"] == "interrupted" and d["jobs"][0]["reason"] == "interrupted" and d["jobs"][0]["summary"]["n"] == 2 == sum(r["in_summary"] for r in d["jobs"][0]["repeats"]) and d["jobs"][0]["summary"]["mean"] > 0 and len(d["jobs"][0]["repeats"]) < 3'
	$PB compare --format json "$J" >"$T/cmpi.json" 2>"$T/err"
	check "compare keeps the interrupted job's repeats, status interrupted" pyjson "$T/cmpi.json" \
		'[(r["status"], r["n"]) for r in d["results"]] == [("interrupted", 2)] and d["results"][0]["mean"] > 0'
	$PB compare "$J" >"$T/cmpi.txt" 2>"$T/err"
	check "compare text: the row, noted interrupted" grep -q "base (interrupted)" "$T/cmpi.txt"
else
	skip "SIGINT in the counter pass: $COUNT_WHY (no counter pass)"
fi

# help and list
for c in run bench list topo events doctor compare plot nightly server; do
	$PB $c --help >"$T/help.out" 2>&1
	ok $([ $? = 0 ] && grep -qi usage "$T/help.out" && echo 0 || echo 1) "pinbench $c --help"
done
$PB list >"$T/list.out"
ok $([ $? = 0 ] && grep -q "^pipe" "$T/list.out" && grep -q "pattern" "$T/list.out" && ! grep -q test_hang "$T/list.out" && ! grep -q test_spin_ns "$T/list.out" && echo 0 || echo 1) \
	"list shows workloads and keys, not test-only keys"
# test_spin_ns: the reader burns about that long per round trip.  The spin is a
# count of loop iterations at a rate timed when the role starts (harness/core/
# bench.c), so it is as steady as the CPU's speed: on a noisy VM a 200 µs spin
# measured 180-300 µs.  Half of it is still 7 times a bare same-CPU round trip
# (5-14 µs on the guests seen).
$PB bench pipe test_spin_ns=200000 cpus=0,0 --repeats 2 --duration 0.2 --warmup 0 --events none \
	-q --format json -o "$T/spin" >"$T/spin.json" 2>"$T/err"
check "test_spin_ns=200000: every repeat's rtt is at least 100 µs" pyjson "$T/spin.json" \
	'all(r["value"] >= 100 for r in d["jobs"][0]["repeats"] if r["in_summary"]) and d["jobs"][0]["params"]["test_spin_ns"] == "200000"'
# bash completion: commands, a command's options from its --help, --format's values,
# workloads, job files; and make install puts it where bash-completion looks
if command -v bash >/dev/null 2>&1; then
	compl() {	# compl WORD...: what completing the last word offers, then a "-" line
		PB=$PB bash -c '. completions/pinbench.bash; compopt() { :; }
			COMP_WORDS=("$PB" "$@"); COMP_CWORD=$#; _pinbench
			printf "%s\n" "${COMPREPLY[@]}" -' _ "$@"
	}
	{ compl r; compl run --ver; compl run --format ''; compl bench pi; compl run configs/qu
	} >"$T/compl.out" 2>&1
	printf '%s\n' run report - --verbose - text json csv - pipe - configs/quick.ini - \
		>"$T/compl.want"
	check "completion: commands, run's options, --format's values, workloads, job files" \
		diff "$T/compl.want" "$T/compl.out"
	make -s install DESTDIR="$T/inst" PREFIX=/usr >"$T/inst.out" 2>&1
	check "make install puts it in share/bash-completion/completions/pinbench" \
		cmp completions/pinbench.bash "$T/inst/usr/share/bash-completion/completions/pinbench"
else
	skip "bash completion: no bash"
	skip "make install of the completion: no bash"
fi
$PB list --format json >"$T/list.json"
check "list --format json" pyjson "$T/list.json" \
	'any(b["name"] == "pipe" and b["metric"]["name"] for b in d["benches"]) and any(k["name"] == "repeats" for k in d["common_keys"])'
check "list --format json: pipe's metrics by pattern (rtt µs, throughput MB/s)" pyjson "$T/list.json" \
	'[(m["name"], m["unit"], m["when"]) for b in d["benches"] if b["name"] == "pipe" for m in b["metrics"]] == [("rtt", "µs", "pattern=pingpong"), ("throughput", "MB/s", "pattern=stream")]'
done_testing
