#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End to end: every repeat is cut into slices; its value is the estimator's
# (estimator=), the plain mean is kept beside it; a bad estimator is refused.
. "$(dirname "$0")/lib.sh"
need_pinbench

cat >"$T/est.ini" <<'INI'
[global]
repeats=2
warmup=0.2
duration=0.5
events=none
placement=same-cpu

[pipe]
bench=pipe

[udp]
bench=udpping
estimator=p50

[loops]
bench=pipe
loops=20000
estimator=trimmed

[med]
bench=pipe
estimator=median
INI
$PB run "$T/est.ini" -q --format json -o "$T/res" >"$T/est.json" 2>"$T/err"
ok $(ran $?) "a run with slices exits 0 (or 3)" "$T/err"
check "every metric repeat has value, mean_value, estimator and slices {n, outliers, median, trimmed}" pyjson "$T/est.json" \
	'all(all(k in r for k in ("value", "mean_value", "estimator")) and all(k in r["slices"] for k in ("n", "outliers", "median", "trimmed")) for j in d["jobs"] for r in j["repeats"])'
check "a 0.5 s window has 50 slices of at least 10 ms; outliers are counted within them" pyjson "$T/est.json" \
	'all(r["slices"]["n"] == 50 and 0 <= r["slices"]["outliers"] <= 50 for j in d["jobs"] if j["name"] != "loops" for r in j["repeats"])'
check "the default estimator is the plain mean; p50 where asked, latency workloads only" pyjson "$T/est.json" \
	'[(j["name"], {r["estimator"] for r in j["repeats"]}) for j in d["jobs"]] == [("pipe", {"mean"}), ("udp", {"p50"}), ("loops", {"trimmed"}), ("med", {"median"})] and "p50" in d["jobs"][1]["repeats"][0]["slices"] and "p50" not in d["jobs"][0]["repeats"][0]["slices"]'
check "value is the estimator's figure (the plain mean when it has none)" pyjson "$T/est.json" \
	'all(r["value"] == (r["slices"][r["estimator"]] if r["slices"].get(r["estimator"]) is not None else r["mean_value"]) for j in d["jobs"] for r in j["repeats"] if not r["stall"])'
check "mean_value is ops over elapsed, the window's plain mean (µs per round trip)" pyjson "$T/est.json" \
	'all(abs(r["mean_value"] - (r["elapsed_s"] - r.get("lost_wait_s", 0)) * 1e6 / r["ops"]) <= 1e-9 * r["mean_value"] for j in d["jobs"] for r in j["repeats"] if not r["stall"])'
check "the summary is over value" pyjson "$T/est.json" \
	'all(abs(j["summary"]["mean"] - sum(v) / len(v)) <= 1e-9 * j["summary"]["mean"] for j in d["jobs"] if j["summary"] for v in [[r["value"] for r in j["repeats"] if r["in_summary"] and r["value"] is not None]])'
check "loops=: the window is cut into slices too, at most 64" pyjson "$T/est.json" \
	'all(1 <= r["slices"]["n"] <= 64 and r["ops"] >= 20000 for r in d["jobs"][2]["repeats"])'

$PB bench pipe estimator=mean placement=same-cpu repeats=2 duration=0.3 warmup=0.1 events=none \
	-q --format json -o "$T/res" >"$T/mean.json" 2>"$T/err"
ok $(ran $?) "estimator=mean runs" "$T/err"
check "estimator=mean: value == mean_value in every repeat" pyjson "$T/mean.json" \
	'all(r["estimator"] == "mean" and r["value"] == r["mean_value"] for r in d["jobs"][0]["repeats"] if not r["stall"]) and d["jobs"][0]["params"]["estimator"] == "mean"'

$PB bench pipe estimator=median placement=same-cpu repeats=2 duration=0.3 warmup=0.1 events=none \
	--label b -q -o "$T/cmp" >/dev/null 2>"$T/err"
$PB bench pipe estimator=mean placement=same-cpu repeats=2 duration=0.3 warmup=0.1 events=none \
	--label a -q -o "$T/cmp" >/dev/null 2>>"$T/err"
$PB compare "$T/cmp" >"$T/cmp.out" 2>&1
rc=$?
check "compare refuses results made with different estimators (exit 2, naming the key)" \
	sh -c "[ $rc = 2 ] && grep -q 'different keys, estimator: mean (a) vs median (b)' '$T/cmp.out'"

# A real stall: the writer stopped (SIGSTOP) for 1 s of a 3 s window.  Its
# slices have no op: outliers, warned about; the median of the slice rates
# leaves the stall out, the plain mean takes it in.
$PB bench pipe estimator=median placement=same-cpu repeats=1 duration=3 warmup=0.2 events=none \
	-q --format json -o "$T/res" >"$T/stop.json" 2>"$T/err" &
pb=$!
roles=
for _ in $(seq 100); do		# the job process's children, once there
	job=$(pgrep -P "$pb" | head -n 1)
	[ -n "$job" ] && roles=$(pgrep -P "$job")
	[ -n "$roles" ] && break
	sleep 0.05
done
sleep 0.9
# the roles again, now: the first child found may have been a short-lived
# helper (a probe) whose pid is gone by the time the stall is due
for _ in $(seq 20); do
	for job in $(pgrep -P "$pb"); do
		r=$(pgrep -P "$job") && { roles=$r; break 2; }
	done
	sleep 0.05
done
set -- $roles
[ $# -gt 0 ] && kill -STOP "$1"
sleep 1
[ $# -gt 0 ] && kill -CONT "$1"
wait "$pb"
ok $(ran $?) "a run with a stopped role exits 0 (or 3)" "$T/err"
check "the stopped second: over 20 % empty slices, an outlier-slices warning naming the repeat" pyjson "$T/stop.json" \
	'[r["slices"]["outliers"] >= 15 for r in d["jobs"][0]["repeats"]] == [True] and any(a["kind"] == "outlier-slices" and a["severity"] == "warn" and "repeat 1:" in a["message"] for a in d["jobs"][0]["anomalies"])'
# A third of the slices empty puts the median at the active slices' lower
# quartile: still faster than the plain mean, which spreads the stall over all.
check "median leaves the stall out (value below 0.95 x the plain mean)" pyjson "$T/stop.json" \
	'all(r["value"] < 0.95 * r["mean_value"] for r in d["jobs"][0]["repeats"])'

printf '[global]\nbench=pipe\n\n[j]\nestimator=mode\n' >"$T/bad.ini"
$PB run --dry-run "$T/bad.ini" >"$T/bad.out" 2>&1
rc=$?
check "an unknown estimator exits 2 naming FILE:LINE and the choices" \
	sh -c "[ $rc = 2 ] && grep -q 'bad.ini:5: estimator: .mode. is not one of median|trimmed|mean|p50' '$T/bad.out'"
printf '[global]\nbench=pipe\nestimator=p50\n\n[j]\n' >"$T/p50.ini"
$PB run --dry-run "$T/p50.ini" >"$T/p50.out" 2>&1
rc=$?
check "estimator=p50 on a workload without latencies exits 2 naming FILE:LINE" \
	sh -c "[ $rc = 2 ] && grep -q 'p50.ini:3: estimator: p50 needs per-message latency' '$T/p50.out'"
done_testing
